#include "state/view_info/view_infos.h"

#include "encodings/noise.h"
#include "encodings/scheme.h"

PE_VIEW_TEXTS(RelativeView)

std::pair<std::int64_t, std::int64_t> reachablePositions(const pe::EncodingParams &p, const pe::NoiseParams &noise)
{
    if (p.table)
        return {p.startPos, p.startPos + p.seqLen};
    return {0, noise.active() ? std::min(pe::limits::maxPositionEnd, pe::noiseReach(noise, p.dModel))
                              : pe::limits::maxPositionEnd};
}

ViewInfo relativeViewInfo()
{
    const auto offset = [](const DataRequest &r) {
        return static_cast<std::int64_t>(r.settings.value(QStringLiteral("offset")).toDouble());
    };
    return {
        QStringLiteral("relative"),
        tr("Relative"),
        {{QStringLiteral("offset"),
          ViewSetting::Kind::Integer,
          5,
          {},
          -static_cast<double>(pe::limits::maxSeqLen),
          static_cast<double>(pe::limits::maxSeqLen),
          {},
          {},
          QStringLiteral("offset"),
          QStringLiteral("K"),
          tr("Offset k of the relative-position view")}},
        {{QStringLiteral("relative"),
          tr("T(k) per pair (a table: the best rotation) from --position to --position + k"),
          [offset](const DataRequest &r) {
              const std::int64_t t = r.position, k = offset(r);
              const pe::EncodingParams &p = r.encoding->params();
              const auto [first, end] = reachablePositions(p, r.noise);
              if (t + k >= first && t + k < end)
                  return QString();
              if (r.encoding->table())
                  return tr("the position t + k = %1 is outside the window, %2 to %3 (a table's rows are its "
                            "only positions).")
                      .arg(t + k)
                      .arg(first)
                      .arg(end - 1);
              if (end < pe::limits::maxPositionEnd)
                  return tr("the position t + k = %1 has no noise: numpy's draws reach positions 0 to %2 at "
                            "d_model %3.")
                      .arg(t + k)
                      .arg(end - 1)
                      .arg(p.dModel);
              return tr("the position t + k = %1 is outside the positions allowed, 0 to %2.").arg(t + k).arg(end - 1);
          },
          [offset](const DataRequest &r) { return pe::relativeTable(*r.encoding, r.noise, r.position, offset(r)); }}}};
}
