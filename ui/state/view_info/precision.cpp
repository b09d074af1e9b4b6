#include "state/view_info/view_infos.h"

#include "analysis/precision.h"
#include "export/data_export.h"

PE_VIEW_TEXTS(PrecisionView)

pe::Precision precisionFrom(const QJsonObject &settings)
{
    return pe::parsePrecision(settings.value(QStringLiteral("precision")).toString().toStdString())
        .value_or(pe::Precision::BFloat16);
}

QString precisionTooLarge(const pe::EncodingParams &p)
{
    const double work = static_cast<double>(p.seqLen) * (p.dModel / 2);
    if (work <= kMaxPrecisionWork)
        return {};
    return tr("RoPE's precision is computed at every position for every pair: seq_len · d/2 up to %1 (this "
              "window: %2 x %3 = %4). Fewer positions or a smaller d_model draw it.")
        .arg(QString::fromStdString(pe::withThousands(static_cast<std::int64_t>(kMaxPrecisionWork))),
             QString::fromStdString(pe::withThousands(p.seqLen)), QString::number(p.dModel / 2),
             QString::fromStdString(pe::withThousands(static_cast<std::int64_t>(work))));
}

ViewInfo precisionViewInfo()
{
    QStringList names;
    for (pe::Precision p : pe::kPrecisions)
        names << QString::fromUtf8(pe::precisionName(p).data());
    ViewSetting precision =
        ViewSetting{QStringLiteral("precision"), ViewSetting::Kind::Choice, QStringLiteral("bfloat16"), names}.option(
            QStringLiteral("precision"), QStringLiteral("NAME"),
            tr("RoPE computed as transformers does in that type (inv_freq and t·θ in float32, cos and sin in float32, "
               "then cast to bfloat16), against float64"));
    precision.schemes = {pe::SchemeId::Rope};
    const auto tooLarge = [](const DataRequest &r) { return precisionTooLarge(r.encoding->params()); };
    return {
        QStringLiteral("precision"),
        tr("RoPE precision"),
        {precision},
        {{QStringLiteral("precision"),
          tr("RoPE in the chosen precision against float64, a row a position: the worst angle error, the worst "
             "value error, and the pairs whose cos and sin at t and t + 1 are equal"),
          tooLarge, [](const DataRequest &r) { return pe::precisionTable(*r.encoding, precisionFrom(r.settings)); }}},
        tooLarge,
        {pe::SchemeId::Rope}};
}
