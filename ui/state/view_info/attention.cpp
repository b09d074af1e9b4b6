#include "state/view_info/view_infos.h"

#include "analysis/offset_waves.h"

PE_VIEW_TEXTS(AttentionView)

pe::AttentionSettings attentionSettingsFrom(const QJsonObject &s)
{
    pe::AttentionSettings out;
    out.qk = s.value(QStringLiteral("attentionQk")).toString() == QLatin1String("random") ? pe::QueryKey::Random
                                                                                          : pe::QueryKey::Ones;
    out.causal = s.value(QStringLiteral("attentionCausal")).toBool();
    out.seed = static_cast<std::uint64_t>(s.value(QStringLiteral("attentionSeed")).toDouble());
    const QString layer = s.value(QStringLiteral("attentionLayer")).toString();
    out.layer = layer == QLatin1String("local")  ? pe::LayerKind::Local
                : layer == QLatin1String("nope") ? pe::LayerKind::Nope
                                                 : pe::LayerKind::Global;
    return out;
}

QString t5AttentionProblem(const pe::EncodingParams &p)
{
    if (p.scheme != pe::SchemeId::T5 || p.biasTable)
        return {};
    return tr("T5's attention from positions is its learned bias of each bucket: give --bias-table FILE (a .npy of "
              "[buckets, heads], relative_attention_bias; File > Open T5 bias table), or see the buckets view.");
}

ViewInfo attentionViewInfo()
{
    using Kind = ViewSetting::Kind;
    const auto tooLarge = [](const DataRequest &r) {
        const pe::LayerKind layer = attentionSettingsFrom(r.settings).layer;
        if (layer != pe::LayerKind::Global && r.encoding->params().scheme != pe::SchemeId::Rope)
            return tr("--layer %1 is RoPE's (%2), not the %3 scheme's: give --layer global or --scheme rope.")
                .arg(QString::fromUtf8(pe::layerKindName(layer).data()),
                     layer == pe::LayerKind::Local ? tr("Gemma's sliding-window layers") : tr("Llama 4's NoPE layers"),
                     QString::fromUtf8(pe::schemeName(r.encoding->params().scheme).data()));
        if (layer == pe::LayerKind::Nope && !pe::hasNopeLayers(r.encoding->params()))
            return tr("--layer nope needs Llama 4's NoPE layers: give --nope-interval (no_rope_layer_interval).");
        if (attentionSettingsFrom(r.settings).layer == pe::LayerKind::Local &&
            !pe::hasLocalLayers(r.encoding->params()))
            return tr("--layer local needs RoPE's sliding-window layers: give --local-base or --sliding-window "
                      "(Gemma's rope_local_base_freq, sliding_window).");
        if (const QString why = t5AttentionProblem(r.encoding->params()); !why.isEmpty())
            return why;
        if (const std::string why = pe::xposNeedsCausal(r.encoding->params(), attentionSettingsFrom(r.settings).causal);
            !why.empty())
            return QString::fromStdString(why);
        return QString::fromStdString(pe::PositionalAttention::tooLarge(r.encoding->params()));
    };
    return {
        QStringLiteral("attention"),
        tr("Attention"),
        {{QStringLiteral("attentionQk"),
          Kind::Choice,
          QStringLiteral("ones"),
          {QStringLiteral("ones"), QStringLiteral("random")},
          0,
          0,
          {},
          {},
          QStringLiteral("qk"),
          QStringLiteral("Q"),
          tr("RoPE's query and key: all ones or seeded Gaussian"),
          2,
          {pe::SchemeId::Rope}},
         {QStringLiteral("attentionSeed"),
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
          {pe::SchemeId::Rope}},
         {QStringLiteral("attentionCausal"),
          Kind::Bool,
          false,
          {},
          0,
          0,
          {},
          {},
          QStringLiteral("causal"),
          {},
          tr("Mask the keys after the query (s > t); T5: the decoder's causal buckets")},
         {QStringLiteral("attentionLayer"),
          Kind::Choice,
          QStringLiteral("global"),
          {QStringLiteral("global"), QStringLiteral("local"), QStringLiteral("nope")},
          0,
          0,
          {},
          {},
          QStringLiteral("layer"),
          QStringLiteral("KIND"),
          tr("A model's kinds of layer: global (the base and scaling), Gemma's local (--local-base, unscaled, "
             "keys within --sliding-window) or Llama 4's NoPE (--nope-interval: no positions); the row shows "
             "another kind in orange"),
          2,
          {pe::SchemeId::Rope}},
         ViewSetting{QStringLiteral("attentionCells"), Kind::Integer, 0, {}, 0, kMaxMatrixCells, tr("fit")}.option(
             QStringLiteral("cells"), QStringLiteral("N"),
             tr("Cells per side of the attention heatmap around the position; fit: one per pixel as they fit")),
         {QStringLiteral("attentionCompare"),
          Kind::Bool,
          false,
          {},
          0,
          0,
          {},
          {},
          QStringLiteral("compare"),
          {},
          tr("Draw the row of the other of sinusoidal and RoPE (same d, base) beside this one's (the figure)"),
          2,
          {pe::SchemeId::Sinusoidal, pe::SchemeId::Rope}}},
        {{QStringLiteral("attention"), tr("the softmaxed positional attention, seq_len x seq_len"),
          [tooLarge](const DataRequest &r) {
              if (r.encoding->params().seqLen > pe::kMaxDistanceRows)
                  return tr("the matrix holds seq_len² numbers: at most %1 positions (got %2).")
                      .arg(QString::fromStdString(pe::withThousands(pe::kMaxDistanceRows)),
                           QString::fromStdString(pe::withThousands(r.encoding->params().seqLen)));
              return tooLarge(r);
          },
          [](const DataRequest &r) { return pe::attentionTable(*r.encoding, attentionSettingsFrom(r.settings)); }},
         {QStringLiteral("temperature"), tr("Llama 4's NoPE temperature τ(t) at every position: position, temperature"),
          [](const DataRequest &r) {
              return pe::hasNopeLayers(r.encoding->params())
                         ? QString()
                         : tr("the temperature is Llama 4's NoPE layers': give --scheme rope --nope-interval N.");
          },
          [](const DataRequest &r) { return pe::temperatureTable(r.encoding->params()); }}},
        tooLarge,
        {pe::SchemeId::Sinusoidal, pe::SchemeId::Rope, pe::SchemeId::Alibi, pe::SchemeId::T5, pe::SchemeId::Table}};
}
