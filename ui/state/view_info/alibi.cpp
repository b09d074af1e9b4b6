#include "state/view_info/view_infos.h"

#include "encodings/rope.h"
#include "export/data_export.h"

PE_VIEW_TEXTS(AlibiView)

ViewInfo alibiViewInfo()
{
    return {QStringLiteral("alibi"),
            tr("ALiBi"),
            {ViewSetting{QStringLiteral("alibiCells"), ViewSetting::Kind::Integer, 0, {}, 0, kMaxMatrixCells, tr("fit")}
                 .option(QStringLiteral("cells"), QStringLiteral("N"),
                         tr("Cells per side of the bias matrix, a page that holds the position; fit: one per "
                            "pixel as they fit"))},
            {{QStringLiteral("slopes"),
              tr("ALiBi's slope of every head (1-based), as get_slopes computes it"),
              {},
              [](const DataRequest &r) { return pe::slopesTable(r.encoding->params().heads); }}},
            {},
            {pe::SchemeId::Alibi}};
}
