#include "state/view_info/view_infos.h"

#include "analysis/offset_waves.h"
#include "encodings/scheme.h"

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

QString attentionRealRowsProblem(const pe::EncodingParams &p)
{
    if (!pe::PositionalAttention::offsetOnly(p))
        return tr("the per-index exponent and an odd d_model score each pair of whole positions (no formula of the "
                  "offset to take between them)");
    if (p.scheme == pe::SchemeId::Rope && p.xposScaleBase > 0)
        return tr("xPos's scores are summed at whole offsets");
    return {};
}

std::optional<pe::EncodingParams> comparedScheme(const pe::EncodingParams &p)
{
    if (p.scheme != pe::SchemeId::Sinusoidal && p.scheme != pe::SchemeId::Rope)
        return std::nullopt;
    pe::EncodingParams q = p;
    q.scheme = p.scheme == pe::SchemeId::Rope ? pe::SchemeId::Sinusoidal : pe::SchemeId::Rope;
    q.exponent = pe::Exponent::Pair;
    if (pe::validate(q))
        return std::nullopt;
    return q;
}

std::optional<pe::LayerKind> otherLayerKind(const pe::EncodingParams &p, pe::LayerKind shown)
{
    if (shown != pe::LayerKind::Global)
        return pe::LayerKind::Global;
    if (pe::hasLocalLayers(p))
        return pe::LayerKind::Local;
    if (pe::hasNopeLayers(p))
        return pe::LayerKind::Nope;
    return std::nullopt;
}

namespace {

// The attention view's row at the current position over the whole window, at any seq_len on the
// offset path, with the row drawn beside it (the other kind of layer, or --compare's scheme):
// CSV "position,weight[,weight_<other>]", the index the key s.
pe::Table attentionRowTable(const DataRequest &r)
{
    const pe::AttentionSettings s = attentionSettingsFrom(r.settings);
    const pe::EncodingParams &p = r.encoding->params();
    std::vector<std::string> columns{"weight"};
    std::optional<pe::EncodingParams> other;
    std::optional<pe::LayerKind> otherLayer = otherLayerKind(p, s.layer);
    if (otherLayer)
        columns.push_back("weight_" + std::string(pe::layerKindName(*otherLayer)));
    else if (r.settings.value(QStringLiteral("attentionCompare")).toBool()) {
        other = comparedScheme(p);
        if (other && pe::PositionalAttention::offsetOnly(*other))
            columns.push_back("weight_" + std::string(pe::schemeName(other->scheme)));
        else
            other.reset();
    }
    return pe::lazyValuesTable("position", columns, p.startPos, p.seqLen,
                               [encoding = r.encoding, s, other, otherLayer, t = r.position, cols = columns.size()] {
                                   const std::int64_t n = encoding->params().seqLen,
                                                      first = encoding->params().startPos;
                                   std::vector<double> row(static_cast<std::size_t>(n)), beside;
                                   pe::PositionalAttention(*encoding, s).row(t, first, n, row.data());
                                   if (otherLayer) {
                                       beside.resize(static_cast<std::size_t>(n));
                                       pe::AttentionSettings os = s;
                                       os.layer = *otherLayer;
                                       pe::PositionalAttention(*encoding, os).row(t, first, n, beside.data());
                                   } else if (other) {
                                       beside.resize(static_cast<std::size_t>(n));
                                       pe::PositionalAttention(pe::Encoding(*other), s).row(t, first, n, beside.data());
                                   }
                                   std::vector<double> values;
                                   values.reserve(static_cast<std::size_t>(n) * cols);
                                   for (std::size_t i = 0; i < row.size(); ++i) {
                                       values.push_back(row[i]);
                                       if (!beside.empty())
                                           values.push_back(beside[i]);
                                   }
                                   return values;
                               });
}

} // namespace

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
             tr("Cells per side of the attention heatmap, a page that holds the position; fit: one per pixel as they "
                "fit")),
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
         {QStringLiteral("attention-row"),
          tr("the row of the current position (--position) over every key of the window, at any seq_len where the "
             "scores depend on t − s alone, with the row drawn beside it (--compare, a model's other layers): "
             "position, weight[, weight_OTHER]"),
          tooLarge, attentionRowTable},
         {QStringLiteral("qk"), tr("RoPE's query and key (--qk ones or random, --qk-seed): dimension, q, k"),
          [](const DataRequest &r) {
              return r.encoding->params().scheme == pe::SchemeId::Rope
                         ? QString()
                         : tr("q and k are RoPE's: give --scheme rope (the sinusoids add PE to the tokens).");
          },
          [](const DataRequest &r) {
              const pe::AttentionSettings s = attentionSettingsFrom(r.settings);
              const int d = r.encoding->params().dModel;
              const std::vector<double> q = pe::queryKeyVector(s.qk, d, s.seed, 0),
                                        k = pe::queryKeyVector(s.qk, d, s.seed, 1);
              std::vector<double> values;
              for (int j = 0; j < d; ++j)
                  values.insert(values.end(), {q[static_cast<std::size_t>(j)], k[static_cast<std::size_t>(j)]});
              return pe::valuesTable("dimension", {"q", "k"}, 0, std::move(values));
          }},
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
