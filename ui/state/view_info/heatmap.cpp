#include "state/view_info/view_infos.h"

#include "encodings/scheme.h"
#include "state/color_map_table.h"

PE_VIEW_TEXTS(HeatmapView)

ViewInfo heatmapViewInfo()
{
    return {QStringLiteral("heatmap"),
            tr("Heatmap"),
            {{QStringLiteral("colorMap"),
              ViewSetting::Kind::Choice,
              colorMapNames().first(),
              colorMapNames(),
              0,
              0,
              {},
              {},
              QStringLiteral("colormap"),
              QStringLiteral("NAME"),
              tr("The heatmap's colour map")},
             ViewSetting{QStringLiteral("reverseColors"), ViewSetting::Kind::Bool, false}.option(
                 QStringLiteral("reversed"), {}, tr("Reverse the heatmap's colour map")),
             ViewSetting{QStringLiteral("transpose"), ViewSetting::Kind::Bool, false}.option(
                 QStringLiteral("transpose"), {}, tr("Dimensions down and positions across")),
             ViewSetting{QStringLiteral("cellValues"), ViewSetting::Kind::Bool, true}.option(
                 QStringLiteral("no-cell-values"), {}, tr("No values printed in the heatmap's cells")),
             ViewSetting{QStringLiteral("cellDecimals"), ViewSetting::Kind::Integer, 0, {}, 0, 6, tr("auto")}.option(
                 QStringLiteral("cell-decimals"), QStringLiteral("N"),
                 tr("Decimals of the values printed in the heatmap's cells; auto: as many as fit"))},
            {encodingExport()}};
}
