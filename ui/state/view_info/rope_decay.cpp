#include "state/view_info/view_infos.h"

#include "analysis/offset_waves.h"
#include "encodings/scheme.h"

PE_VIEW_TEXTS(RopeDecayView)

namespace {
// The band's export computes every offset with every sample: 2^33 terms take a few seconds.
constexpr double kMaxDecayExportWork = 8'589'934'592.0;
} // namespace

ViewInfo ropeDecayViewInfo()
{
    using Kind = ViewSetting::Kind;
    return {
        QStringLiteral("rope-decay"),
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
          tr("RoFormer's decay for q = k = ones and the random (q, k) band (--samples, --qk-seed) at every "
             "offset: offset, score, bound, random_mean, random_sd"),
          [](const DataRequest &r) {
              // Every offset with every sample asked, as the figure's band for its offsets.
              const double work = static_cast<double>(r.encoding->params().seqLen) * r.encoding->pairCount() *
                                  r.settings.value(QStringLiteral("decaySamples")).toInt();
              if (work > kMaxDecayExportWork)
                  return tr("the band takes offsets × pairs × samples = %1 terms, more than %2: give --samples none "
                            "(no band), fewer samples or a shorter --seq-len.")
                      .arg(work, 0, 'g', 3)
                      .arg(kMaxDecayExportWork, 0, 'g', 3);
              return QString();
          },
          [](const DataRequest &r) {
              return pe::ropeDecayTable(
                  *r.encoding, r.settings.value(QStringLiteral("decaySamples")).toInt(),
                  static_cast<std::uint64_t>(r.settings.value(QStringLiteral("decaySeed")).toInt()));
          }}},
        {},
        {pe::SchemeId::Rope}};
}
