#pragma once

#include "support/text.h"

#include "encodings/rope.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace pe {

class PositionTable;
struct ModelConfig;

// Where the sine and cosine of a pair go (../shared/REFERENCE.md section 1).
enum class Layout {
    Interleaved, // sin in even columns, cos in odd columns (Vaswani et al. 2017)
    Split,       // first d/2 columns sin, last d/2 cos (tensor2tensor)
};

// The encoding scheme chosen by name (--scheme, sessions, the window's chooser); a position table
// is a scheme of its own, chosen by opening a file (params.table). What each scheme is and which
// parameters it takes: scheme.h.
enum class SchemeId {
    Sinusoidal, // Vaswani et al. 2017, with the layouts and exponents below
    Rope,       // rotary position embedding (Su et al. 2021): cos and sin of t·θ_i, and its scalings
    Alibi,      // attention with linear biases (Press et al. 2022): no vector, a bias on the scores
    T5,         // T5's relative attention bias (Raffel et al. 2020): no vector, a learned bias per bucket of s - t
    Table,      // a position table from a .npy file
};

// Which exponent the frequency of column j uses.
enum class Exponent {
    Pair,  // w = base^(-2i/d) with i = pair index: the paper's
    Index, // w = base^(-j/d) with j the column itself: seed 002's article
};

struct EncodingParams {
    SchemeId scheme = SchemeId::Sinusoidal; // Table exactly when `table` is set
    std::int64_t seqLen = 50;
    int dModel = 128;
    double base = 10000.0;
    std::int64_t startPos = 0;
    Layout layout = Layout::Interleaved;
    Exponent exponent = Exponent::Pair;
    // A position table from a file instead of the sinusoids (--table): rows are positions, d_model
    // is its column count, base and exponent do not apply, pairs are its columns (2i, 2i+1).
    std::shared_ptr<const PositionTable> table;
    // RoPE's context extension (scheme rope); originalContext is the context the model was trained
    // on, which the views mark under every scaling.
    RopeScalingParams rope;
    // ALiBi (scheme alibi): the number of heads and the head the views show (1-based).
    int heads = 8;
    int head = 1;
    // T5 (scheme t5): relative_attention_num_buckets and relative_attention_max_distance. Whether
    // the buckets are bidirectional (the encoder) or causal (the decoder) is the views' --causal.
    int buckets = 32;
    std::int64_t maxDistance = 128;
    // T5's learned relative_attention_bias (--bias-table): a [buckets, heads] array, a row a bucket,
    // a column a head; `head` picks the column the views show. None: the buckets' structure alone.
    std::shared_ptr<const PositionTable> biasTable;
    // Two kinds of layer in one RoPE model (Gemma 2 and 3): the global layers take the base and the
    // scaling above; the sliding-window layers turn at localBase (rope_local_base_freq; 0: the same
    // base) without a scaling, each query seeing the last slidingWindow keys (0: every key). Either
    // given, the model has local layers (scheme.h: localLayers).
    double localBase = 0;
    std::int64_t slidingWindow = 0;
    // xPos (Sun et al. 2022, "A Length-Extrapolatable Transformer"; torchscale's XPOS): RoPE whose
    // query is scaled by ζ_i^(t/γ) and key by ζ_i^(-s/γ), ζ_i = (2i + 0.4·D)/(1.4·D) over the rotary
    // dimension D, so the score of pair i decays as ζ_i^((t-s)/γ). γ is scale_base (torchscale 512);
    // 0: plain RoPE. --scheme xpos is RoPE with γ = 512.
    double xposScaleBase = 0;
    // Llama 4's NoPE layers (transformers' modeling_llama4.py): every nopeInterval-th layer has no
    // RoPE (no_rope_layer_interval; 0: none), and its query is scaled by the attention temperature
    // τ(t) = ln(floor((t + 1)/floorScale) + 1)·attnScale + 1 (attn_temperature_tuning; attnScale 0: none).
    int nopeInterval = 0;
    double floorScale = 8192;
    double attnScale = 0.1;
    // The model config these parameters were read from (--model config.json or a GGUF's metadata,
    // models/model_config.h), or none. Provenance only: no view computes from it; the window names
    // the model and says what changed since (changedFromModel), sessions keep its path.
    std::shared_ptr<const ModelConfig> model;

    bool operator==(const EncodingParams &) const = default;
};

namespace limits {
inline constexpr std::int64_t minSeqLen = 1;
inline constexpr std::int64_t maxSeqLen = 1'000'000;
inline constexpr int minDModel = 1;
inline constexpr int maxDModel = 4096;
// A position table's columns (--table): OPT-175B's is 12,288 wide. Every view and export reads a
// table through strides and blocks, none holds d x d.
inline constexpr int maxTableColumns = 16384;
inline constexpr double maxBase = 1e15;
// start_pos + seq_len may not exceed this: positions stay exact integers in double.
inline constexpr std::int64_t maxPositionEnd = 1'000'000'000;
} // namespace limits

enum class Field {
    None,
    Scheme,
    SeqLen,
    DModel,
    Base,
    StartPos,
    Layout,
    Exponent,
    // The parameters a scheme adds, described as data in scheme_parameters.h.
    Scaling,
    Factor,
    OriginalContext,
    BetaFast,
    BetaSlow,
    LowFreqFactor,
    HighFreqFactor,
    Mscale,
    MscaleAllDim,
    Truncate,
    AttentionFactor,
    ShortFactor,
    LongFactor,
    RotaryFraction,
    Heads, // ALiBi's (scheme.cpp's notApplicable)
    Head,
    Buckets, // T5's
    MaxDistance,
    LocalBase, // Gemma's sliding-window layers
    SlidingWindow,
    XposScaleBase, // xPos's γ
    NopeInterval,  // Llama 4's NoPE layers and their temperature
    FloorScale,
    AttnScale,
};

struct ValidationError {
    Field field = Field::None;
    std::string message; // one readable sentence naming the parameter and the allowed range
};

// The one validator: the GUI and the command line both ask it. Empty when the parameters are valid.
std::optional<ValidationError> validate(const EncodingParams &p);

std::string_view fieldName(Field f);

// What a field accepts, the second half of every sentence about it: "a whole number from 1 to
// 4,096", "interleaved or split". The validator, the command line's help and errors, session errors
// and the window's tooltips all read it, so a range is written once (here and in limits).
std::string allowedText(Field f);

// The value of `values` whose name is `text`, or nothing: every enum's parser.
template <typename Enum, std::size_t N>
std::optional<Enum> parseName(const Enum (&values)[N], std::string_view (*name)(Enum), std::string_view text)
{
    for (Enum v : values)
        if (name(v) == text)
            return v;
    return std::nullopt;
}

// Each enum's values in order, and one name each (the names sessions and the command line use).
inline constexpr Layout kLayouts[] = {Layout::Interleaved, Layout::Split};
inline constexpr Exponent kExponents[] = {Exponent::Pair, Exponent::Index};
inline constexpr SchemeId kSchemes[] = {SchemeId::Sinusoidal, SchemeId::Rope, SchemeId::Alibi, SchemeId::T5,
                                        SchemeId::Table};
std::string_view schemeName(SchemeId s);
// A scheme chosen by name: not the table, which a file gives.
std::optional<SchemeId> parseScheme(std::string_view s);
std::string_view layoutName(Layout l);
std::string_view exponentName(Exponent e);
std::optional<Layout> parseLayout(std::string_view s);
std::optional<Exponent> parseExponent(std::string_view s);

// The current position: "a whole number inside the window, from 0 to 49", and the sentence when
// t is outside it (the window, the command line and session files say the same).
std::string positionAllowedText(const EncodingParams &p);
std::optional<std::string> validatePosition(const EncodingParams &p, std::int64_t t);

// Strict text-to-number parsing: the whole string must be one number, no overflow.
std::optional<std::int64_t> parseInteger(std::string_view s);
std::optional<double> parseReal(std::string_view s); // NaN and infinities are returned as parsed

// Shortest readable text of a number for titles and labels: 10000, 1e8, 1.5e-3.
std::string compactNumber(double v);

// A number to `digits` significant digits for tooltips ("6283.19"), ∞ for an infinite one (the
// wavelength of a pair that does not turn).
std::string numberText(double v, int digits);
// A real position as the views and titles write it: 16381, 10.25 (at most three decimals: playback's
// fractions are shown, not measured).
std::string positionText(double t);

// A wavelength for labels and titles, the same in every view: one decimal below 100 positions
// (6.3, 30.6), whole positions below 10,000 (172, 4712), then to the nearest ten (22940, 1.23457e6).
std::string wavelengthText(double lambda);

// The table's file name without its folder ("wpe.npy"), "" for the sinusoids; a checkpoint's
// tensor shortened for titles, "opt.safetensors (decoder embed_positions)"; tableFullName names the
// whole tensor, "opt.safetensors:model.decoder.embed_positions.weight" (the formula, the status bar).
std::string tableName(const EncodingParams &p);
std::string tableFullName(const EncodingParams &p);
// What the values come from, for titles: "base 10000" (RoPE's partial rotary: "base 10000, 24 of 96
// dims rotate"), or the table's file name.
std::string sourceText(const EncodingParams &p);

} // namespace pe
