#include "state/view_info/view_infos.h"

#include "analysis/reduction.h"
#include "support/parallel.h"

PE_VIEW_TEXTS(PairCircleView)

ViewInfo pairCircleViewInfo()
{
    return {QStringLiteral("circles"),
            tr("Circles"),
            {ViewSetting{QStringLiteral("circlePairs"), ViewSetting::Kind::Integer, 9, {}, 1, 36}.option(
                 QStringLiteral("circles"), QStringLiteral("N"), tr("Number of (sin, cos) circles drawn")),
             pairChoiceSetting(QStringLiteral("circlePairChoice"))},
            {encodingExport()}}; // each circle is a (sin, cos) pair of columns
}
