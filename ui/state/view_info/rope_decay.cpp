#include "state/view_info/view_infos.h"

#include "analysis/offset_waves.h"
#include "encodings/scheme.h"

PE_VIEW_TEXTS(RopeDecayView)

ViewInfo ropeDecayViewInfo()
{
    using Kind = ViewSetting::Kind;
    return {QStringLiteral("rope-decay"),
            tr("RoPE decay"),
            {{QStringLiteral("decaySamples"),
              Kind::Integer,
              32,
              {},
              0,
              256,
              tr("none"),
              {},
              QStringLiteral("samples"),
              QStringLiteral("N"),
              tr("Random (q, k) pairs of the decay's band"),
              2,
              {pe::SchemeId::Rope}},
             {QStringLiteral("decaySeed"),
              Kind::Integer,
              0,
              {},
              0,
              1'000'000,
              {},
              {},
              QStringLiteral("qk-seed"),
              QStringLiteral("S"),
              tr("Seed of the random q and k"),
              2,
              {pe::SchemeId::Rope}}},
            {{QStringLiteral("rope-decay"),
              tr("RoFormer's decay for q = k = ones: offset, score, bound"),
              {},
              [](const DataRequest &r) { return pe::ropeDecayTable(*r.encoding); }}},
            {},
            {pe::SchemeId::Rope}};
}
