#include "state/view_info/view_infos.h"

#include "encodings/rope.h"
#include "encodings/scheme.h"

PE_VIEW_TEXTS(ScalingView)

ViewInfo scalingViewInfo()
{
    return {QStringLiteral("scaling"),
            tr("RoPE scaling"),
            {ViewSetting{QStringLiteral("scalingQuantity"),
                         ViewSetting::Kind::Choice,
                         QStringLiteral("wavelength"),
                         {QStringLiteral("wavelength"), QStringLiteral("frequency")}}
                 .option(QStringLiteral("scaling-quantity"), QStringLiteral("NAME"),
                         tr("Plot each pair's wavelength or its frequency θ, scaled against unscaled"))},
            {{QStringLiteral("frequencies"),
              tr("each pair's ω and wavelength; RoPE: scaled and unscaled, their ratio and the pair's regime"),
              {},
              [](const DataRequest &r) { return pe::frequencyTable(*r.encoding); }}},
            {},
            {pe::SchemeId::Rope}};
}
