#include "encodings/scheme.h"

#include "encodings/position_table.h"
#include "encodings/relative_buckets.h"
#include "encodings/scheme_parameters.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pe {

const SchemeInfo &schemeInfo(SchemeId id)
{
    static const SchemeInfo sinusoidal{
        SchemeId::Sinusoidal,
        "Sinusoidal",
        "Vaswani et al. 2017; split halves: tensor2tensor; per-index exponent: seed 002",
        {Field::SeqLen, Field::DModel, Field::Base, Field::StartPos, Field::Layout, Field::Exponent},
        true};
    static const SchemeInfo rope{
        SchemeId::Rope,
        "RoPE (rotary)",
        "Su et al. 2021 (RoFormer); scalings: transformers' rope utilities (modeling_rope_utils.py), Meta's "
        "apply_scaling (Llama 3.1), LongRoPE (Ding et al. 2024, Phi-3)",
        {Field::SeqLen,        Field::DModel,        Field::Base,           Field::StartPos,
         Field::Layout,        Field::Scaling,       Field::Factor,         Field::OriginalContext,
         Field::BetaFast,      Field::BetaSlow,      Field::LowFreqFactor,  Field::HighFreqFactor,
         Field::Mscale,        Field::MscaleAllDim,  Field::Truncate,       Field::AttentionFactor,
         Field::ShortFactor,   Field::LongFactor,    Field::RotaryFraction, Field::LocalBase,
         Field::SlidingWindow, Field::XposScaleBase, Field::NopeInterval,   Field::FloorScale,
         Field::AttnScale},
        true};
    static const SchemeInfo alibi{SchemeId::Alibi,
                                  "ALiBi (linear biases)",
                                  "Press et al. 2022; slopes: the reference get_slopes",
                                  {Field::SeqLen, Field::StartPos, Field::Heads, Field::Head},
                                  true};
    static const SchemeInfo t5{SchemeId::T5,
                               "T5 relative bias (buckets)",
                               "Raffel et al. 2020; buckets: transformers' T5Attention._relative_position_bucket "
                               "(from Mesh TensorFlow)",
                               {Field::SeqLen, Field::StartPos, Field::Buckets, Field::MaxDistance, Field::Head},
                               true};
    static const SchemeInfo table{
        SchemeId::Table, "Position table", "a .npy file", {Field::SeqLen, Field::StartPos}, false};
    switch (id) {
    case SchemeId::Sinusoidal:
        return sinusoidal;
    case SchemeId::Rope:
        return rope;
    case SchemeId::Alibi:
        return alibi;
    case SchemeId::T5:
        return t5;
    case SchemeId::Table:
        return table;
    }
    return sinusoidal;
}

bool hasLocalLayers(const EncodingParams &p)
{
    return p.scheme == SchemeId::Rope && (p.localBase > 0 || p.slidingWindow > 0);
}

EncodingParams localLayers(const EncodingParams &p)
{
    // transformers' Gemma 3 builds its local rotary embedding from a copy of the config with
    // rope_theta = rope_local_base_freq and rope_scaling {"rope_type": "default"} (modeling_gemma3.py,
    // Gemma3TextModel; newer configs say the same as rope_parameters["sliding_attention"]).
    EncodingParams local = p;
    if (p.localBase > 0)
        local.base = p.localBase;
    local.rope = unscaled(p.rope);
    local.localBase = 0;
    local.slidingWindow = 0;
    return local;
}

std::string localLayersText(const EncodingParams &p)
{
    if (!hasLocalLayers(p))
        return {};
    std::string text = "local layers: base " + compactNumber(localLayers(p).base);
    if (p.rope.scaling != RopeScaling::None)
        text += ", no scaling";
    text += p.slidingWindow > 0 ? ", window " + withThousands(p.slidingWindow) : ", no window";
    return text;
}

bool hasNopeLayers(const EncodingParams &p)
{
    return p.scheme == SchemeId::Rope && p.nopeInterval > 0;
}

double llama4Temperature(std::int64_t t, const EncodingParams &p)
{
    // transformers' Llama4TextAttention: log1p(floor((cache_position + 1) / floor_scale)) · attn_scale + 1,
    // from Nakanishi 2025, "Scalable-Softmax Is Superior for Attention" (arXiv 2501.19399).
    return std::log1p(std::floor((static_cast<double>(t) + 1.0) / p.floorScale)) * p.attnScale + 1.0;
}

bool takes(const EncodingParams &p, Field f)
{
    const std::vector<Field> &fields = schemeInfo(p.scheme).takes;
    if (f != Field::Scheme && std::find(fields.begin(), fields.end(), f) == fields.end())
        return false;
    // A scaling's own parameters apply with that scaling.
    switch (f) {
    case Field::Factor:
        return p.rope.scaling != RopeScaling::None;
    case Field::BetaFast:
    case Field::BetaSlow:
    case Field::Mscale:
    case Field::MscaleAllDim:
    case Field::Truncate:
        return p.rope.scaling == RopeScaling::Yarn;
    case Field::LowFreqFactor:
    case Field::HighFreqFactor:
        return p.rope.scaling == RopeScaling::Llama3;
    case Field::AttentionFactor:
        return p.rope.scaling == RopeScaling::Yarn || p.rope.scaling == RopeScaling::LongRope;
    case Field::ShortFactor:
    case Field::LongFactor:
        return p.rope.scaling == RopeScaling::LongRope;
    case Field::FloorScale: // the temperature of NoPE layers
    case Field::AttnScale:
        return p.nopeInterval > 0;
    default:
        return true;
    }
}

std::string notApplicable(const EncodingParams &p, Field f)
{
    if (takes(p, f))
        return {};
    switch (p.scheme) {
    case SchemeId::Table: {
        const std::string name = tableName(p);
        switch (f) {
        case Field::DModel:
            return "d_model is the column count of " + name + ": " + withThousands(p.table->cols()) + ".";
        case Field::Layout:
            return "a table's pairs are its columns (2i, 2i+1), as the interleaved layout's.";
        case Field::Base:
        case Field::Exponent:
            return std::string(fieldName(f)) + " does not apply to " + name + ": its values are the file's.";
        default:
            break;
        }
        break;
    }
    case SchemeId::Alibi:
        switch (f) {
        case Field::DModel:
        case Field::Layout:
            return "ALiBi adds no vector to the tokens: its positions are a bias -m_h·|t - s| on the attention "
                   "scores, whatever d_model.";
        case Field::Base:
        case Field::Exponent:
            return "ALiBi has no frequencies: its bias falls linearly with the distance |t - s|.";
        default:
            break;
        }
        break;
    case SchemeId::T5:
        switch (f) {
        case Field::DModel:
        case Field::Layout:
            return "T5 adds no vector to the tokens: its positions are a learned bias per bucket of the offset s - t "
                   "on the attention scores, whatever d_model.";
        case Field::Base:
        case Field::Exponent:
            return "T5 has no frequencies: its buckets hold one offset each near 0, then grow logarithmically.";
        default:
            break;
        }
        break;
    case SchemeId::Rope:
        if (f == Field::Exponent)
            return "RoPE turns pair i by t·θ_i with θ_i = base^(-2i/d): the per-index exponent does not apply.";
        break;
    case SchemeId::Sinusoidal:
        break;
    }
    switch (f) {
    case Field::Factor:
        if (p.scheme == SchemeId::Rope)
            return "factor applies with a scaling: choose one (linear, ntk, dynamic-ntk, yarn, llama3, longrope or "
                   "proportional) first.";
        break;
    case Field::BetaFast:
    case Field::BetaSlow:
    case Field::Mscale:
    case Field::MscaleAllDim:
    case Field::Truncate:
        if (p.scheme == SchemeId::Rope)
            return std::string(fieldName(f)) + " is YaRN's: choose the scaling yarn.";
        break;
    case Field::AttentionFactor:
        if (p.scheme == SchemeId::Rope)
            return "attention_factor is YaRN's and LongRoPE's: choose the scaling yarn or longrope.";
        break;
    case Field::ShortFactor:
    case Field::LongFactor:
        if (p.scheme == SchemeId::Rope)
            return std::string(fieldName(f)) + " is LongRoPE's: choose the scaling longrope.";
        break;
    case Field::LowFreqFactor:
    case Field::HighFreqFactor:
        if (p.scheme == SchemeId::Rope)
            return std::string(fieldName(f)) + " is Llama 3.1's: choose the scaling llama3.";
        break;
    default:
        break;
    }
    const SchemeParameter *own = schemeParameter(f);
    if (f == Field::LocalBase || f == Field::SlidingWindow)
        return std::string(fieldName(f)) + " is RoPE's (Gemma's sliding-window layers): choose the scheme rope.";
    if ((f == Field::FloorScale || f == Field::AttnScale) && p.scheme == SchemeId::Rope)
        return std::string(fieldName(f)) + " is the temperature of Llama 4's NoPE layers: give --nope-interval first.";
    if (f == Field::NopeInterval || f == Field::FloorScale || f == Field::AttnScale)
        return std::string(fieldName(f)) + " is RoPE's (Llama 4's NoPE layers): choose the scheme rope.";
    if (f == Field::XposScaleBase)
        return "xpos_scale_base is xPos's, a RoPE: choose the scheme xpos (or rope).";
    if (f == Field::Head)
        return "head is ALiBi's, or T5's with its bias table: choose the scheme alibi or t5.";
    if (own && f >= Field::Buckets)
        return std::string(fieldName(f)) + " is T5's: choose the scheme t5.";
    if (own && f >= Field::Heads)
        return std::string(fieldName(f)) + " is ALiBi's: choose the scheme alibi.";
    if (own)
        return std::string(fieldName(f)) + " is RoPE's: choose the scheme rope.";
    return std::string(fieldName(f)) + " does not apply to the " + std::string(schemeName(p.scheme)) + " scheme.";
}

bool perIndexExponent(const EncodingParams &p)
{
    return takes(p, Field::Exponent) && p.exponent == Exponent::Index;
}

bool dotDependsOnOffsetOnly(const EncodingParams &p)
{
    switch (p.scheme) {
    case SchemeId::Sinusoidal:
        return p.exponent == Exponent::Pair && p.dModel % 2 == 0;
    case SchemeId::Rope:
        // cos·cos + sin·sin of each pair: cos((t - s)·θ_i). The offset kernel's norms assume unit
        // pairs, which YaRN's factor on cos and sin is not.
        return ropeAttentionFactor(p.rope) == 1.0;
    case SchemeId::Alibi:
    case SchemeId::T5:
    case SchemeId::Table:
        return false;
    }
    return false;
}

double valueBound(const EncodingParams &p)
{
    switch (p.scheme) {
    case SchemeId::Sinusoidal:
    case SchemeId::Alibi:
    case SchemeId::T5:
        return 1.0;
    case SchemeId::Rope:
        return ropeAttentionFactor(p.rope);
    case SchemeId::Table:
        return p.table->maxAbs();
    }
    return 1.0;
}

std::int64_t positionEnd(const EncodingParams &p)
{
    switch (p.scheme) {
    case SchemeId::Sinusoidal:
    case SchemeId::Rope:
    case SchemeId::Alibi:
    case SchemeId::T5:
        return limits::maxPositionEnd;
    case SchemeId::Table:
        return p.table->rows();
    }
    return limits::maxPositionEnd;
}

namespace {

// Partial rotary: the scaling's formula runs over the rotated dimensions alone, as if they were the
// whole of d (the texts describe that part, then say how much of d it is). Proportional keeps d.
std::optional<EncodingParams> rotatedPart(const EncodingParams &p)
{
    if (p.rope.rotaryFraction >= 1 || p.rope.scaling == RopeScaling::Proportional)
        return std::nullopt;
    EncodingParams whole = p;
    whole.rope.rotaryFraction = 1;
    whole.dModel = rotaryDim(p.dModel, p.rope);
    return whole;
}

} // namespace

std::string scalingText(const EncodingParams &p)
{
    const RopeScalingParams &r = p.rope;
    if (const auto part = rotatedPart(p)) {
        const EncodingParams &whole = *part;
        return scalingText(whole) + "; partial rotary: int(d·" + compactNumber(r.rotaryFraction) +
               ") = " + std::to_string(whole.dModel) + " of " + std::to_string(p.dModel) + " dims rotate, pairs 0–" +
               std::to_string(whole.dModel / 2 - 1) + " (θ over them); the other pairs do not turn";
    }
    const std::string s = compactNumber(r.factor);
    const std::string L = withThousands(r.originalContext);
    const std::string e = "^(" + std::to_string(p.dModel) + "/" + std::to_string(p.dModel - 2) + ")";
    switch (r.scaling) {
    case RopeScaling::None:
        return "no scaling, trained context L = " + L;
    case RopeScaling::Linear:
        return "linear (position interpolation): θ'_i = θ_i/" + s + ", context " + L + " → " +
               withThousands(
                   static_cast<std::int64_t>(std::llround(r.factor * static_cast<double>(r.originalContext))));
    case RopeScaling::Ntk:
        return "NTK-aware: base' = base·" + s + e + " = " + compactNumber(ntkBase(p.base, p.dModel, r.factor));
    case RopeScaling::DynamicNtk: {
        const std::int64_t len = p.startPos + p.seqLen;
        return "dynamic NTK: base' = base·(" + s + "·len/" + L + " − " + compactNumber(r.factor - 1) + ")" + e +
               " once len > L; len = start_pos + seq_len = " + withThousands(len) +
               (len > r.originalContext ? ": base' = " + compactNumber(dynamicNtkBase(p.base, p.dModel, r, len))
                                        : ": unscaled");
    }
    case RopeScaling::Yarn: {
        char mscale[32];
        std::snprintf(mscale, sizeof mscale, "%.4g", ropeAttentionFactor(r));
        const std::string factor =
            r.attentionFactor > 0 ? "attention_factor"
            : r.mscale > 0 && r.mscaleAllDim > 0
                ? "get_mscale(s, " + compactNumber(r.mscale) + ")/get_mscale(s, " + compactNumber(r.mscaleAllDim) + ")"
                : "(0.1·ln s + 1)";
        return "YaRN ×" + s + " from L = " + L +
               ": θ_i kept where it turns over β_fast = " + compactNumber(r.betaFast) +
               " times in L, θ_i/s under β_slow = " + compactNumber(r.betaSlow) + ", a ramp in i between" +
               (r.truncate ? "" : " (range not floored and ceiled)") +
               " (transformers' code, not the paper's ramp in L/λ); cos, sin × " + factor + " = " + mscale;
    }
    case RopeScaling::Proportional:
        return "proportional (Gemma's p-RoPE): θ_i = base^(-2i/d)/" + s + " for the first " +
               std::to_string(rotatedPairs(p.dModel, r)) +
               " pairs (floor(F·d/2), F = " + compactNumber(r.rotaryFraction) +
               "), the exponent over the whole d; the others do not turn";
    case RopeScaling::LongRope: {
        char factor[32];
        std::snprintf(factor, sizeof factor, "%.4g", ropeAttentionFactor(r));
        const std::int64_t len = p.startPos + p.seqLen;
        return "LongRoPE ×" + s + " from L = " + L + ": θ'_i = θ_i / ext_i, ext the " +
               (len > r.originalContext ? "long" : "short") + " factors at length " + withThousands(len) +
               " (long once past L); cos, sin × " +
               (r.attentionFactor > 0 ? std::string("attention_factor") : std::string("sqrt(1 + ln s / ln L)")) +
               " = " + factor;
    }
    case RopeScaling::Llama3:
        return "Llama 3.1 ×" + s + " from L = " + L + ": λ < L/" + compactNumber(r.highFreqFactor) + " kept, λ > L/" +
               compactNumber(r.lowFreqFactor) + " → θ/s, smoothly between (Meta's apply_scaling)";
    }
    return {};
}

std::string scalingSummary(const EncodingParams &p)
{
    const RopeScalingParams &r = p.rope;
    if (const auto part = rotatedPart(p)) {
        const EncodingParams &whole = *part;
        return scalingSummary(whole) + ", " + std::to_string(whole.dModel) + " of " + std::to_string(p.dModel) +
               " dims rotate";
    }
    const std::string L = withThousands(r.originalContext);
    const std::string s = compactNumber(r.factor);
    switch (r.scaling) {
    case RopeScaling::None:
        return "no scaling, L = " + L;
    case RopeScaling::Linear:
        return "linear ×" + s + " (θ/s), L = " + L;
    case RopeScaling::Ntk:
        return "NTK-aware ×" + s + ", base' = " + compactNumber(ntkBase(p.base, p.dModel, r.factor));
    case RopeScaling::DynamicNtk: {
        const std::int64_t len = p.startPos + p.seqLen;
        return "dynamic NTK ×" + s + " from L = " + L + " at length " + withThousands(len) +
               (len > r.originalContext ? ", base' = " + compactNumber(dynamicNtkBase(p.base, p.dModel, r, len))
                                        : " (within L: unscaled)");
    }
    case RopeScaling::Yarn:
        return "YaRN ×" + s + " from L = " + L + " (β " + compactNumber(r.betaFast) + "/" + compactNumber(r.betaSlow) +
               ")";
    case RopeScaling::Llama3:
        return "Llama 3.1 ×" + s + " from L = " + L + " (factors " + compactNumber(r.lowFreqFactor) + "/" +
               compactNumber(r.highFreqFactor) + ")";
    case RopeScaling::LongRope:
        return "LongRoPE ×" + s + " from L = " + L + " (" +
               (p.startPos + p.seqLen > r.originalContext ? "long" : "short") + " factors)";
    case RopeScaling::Proportional:
        return "p-RoPE: " + std::to_string(rotatedPairs(p.dModel, r)) + " of " + std::to_string(p.dModel / 2) +
               " pairs turn" + (r.factor != 1 ? ", θ/" + s : "");
    }
    return {};
}

static std::string alibiText(const EncodingParams &p)
{
    const bool power = (p.heads & (p.heads - 1)) == 0;
    return std::string(power ? "m_h = 2^(-8h/H)" : "m_h from get_slopes (H not a power of two: interleaved)") +
           ", H = " + std::to_string(p.heads) + " heads; head " + std::to_string(p.head) +
           ": m = " + compactNumber(alibiSlopes(p.heads)[static_cast<std::size_t>(p.head - 1)]);
}

// The direction is the views' (--causal), so the scheme's text names both.
static std::string t5SchemeText(const EncodingParams &p)
{
    const T5Buckets encoder{p.buckets, p.maxDistance, true}, decoder{p.buckets, p.maxDistance, false};
    return std::to_string(p.buckets) + " buckets to max_distance " + withThousands(p.maxDistance) +
           "; bidirectional (the encoder): " + std::to_string(encoder.directionBuckets()) +
           " a side, one an offset below " + std::to_string(encoder.maxExact()) +
           ", then logarithmic; causal (the decoder, --causal): all of them for the keys before t, one a distance "
           "below " +
           std::to_string(decoder.maxExact());
}

namespace {

// xPos's part of RoPE's formula: "; xPos: pair i of q·k × ζ_i^((t-s)/γ), γ = 512", or "".
std::string xposText(const EncodingParams &p)
{
    if (p.xposScaleBase <= 0)
        return {};
    return "; xPos: pair i of q·k × ζ_i^((t-s)/γ), ζ_i = (2i + 0.4·d)/(1.4·d), γ = " + compactNumber(p.xposScaleBase);
}

} // namespace

std::string formulaText(const EncodingParams &p)
{
    switch (p.scheme) {
    case SchemeId::Table:
        return "PE(t, j) = row t, column j of " + tableFullName(p) + " (" + withThousands(p.table->rows()) + " x " +
               withThousands(p.table->cols()) + ", " + p.table->description() + ")" +
               (p.table->convention().empty() ? std::string() : "; " + p.table->convention());
    case SchemeId::Rope:
        return std::string(p.layout == Layout::Interleaved
                               ? "RoPE: PE(t,2i) = cos(t·θ_i), PE(t,2i+1) = sin(t·θ_i) (Meta's freqs_cis)"
                               : "RoPE: PE(t,i) = cos(t·θ_i), PE(t,d/2+i) = sin(t·θ_i) (rotate_half)") +
               ", θ_i = " + compactNumber(p.base) + "^(-2i/d); " + scalingText(p) + xposText(p) +
               (hasLocalLayers(p) ? "; " + localLayersText(p) : std::string());
    case SchemeId::Alibi:
        return "ALiBi: score(t, s) − m_h·|t − s|, " + alibiText(p);
    case SchemeId::T5:
        return "T5: score(t, s) + b_h[bucket(s − t)], " + t5SchemeText(p);
    case SchemeId::Sinusoidal:
        break;
    }
    const std::string b = compactNumber(p.base);
    const std::string w = p.exponent == Exponent::Pair ? "w_i = " + b + "^(-2i/d)" : "w_j = " + b + "^(-j/d)";
    const std::string arg = p.exponent == Exponent::Pair ? "t·w_i" : "t·w_j";
    std::string cols;
    if (p.layout == Layout::Interleaved)
        cols = p.exponent == Exponent::Pair ? "PE(t,2i) = sin(" + arg + "),  PE(t,2i+1) = cos(" + arg + ")"
                                            : "PE(t,j) = sin(" + arg + ") for even j, cos(" + arg + ") for odd j";
    else
        cols = p.exponent == Exponent::Pair ? "PE(t,i) = sin(" + arg + "),  PE(t,d/2+i) = cos(" + arg + ")"
                                            : "PE(t,j) = sin(t·w_j) for j < d/2, cos(t·w_j) for j ≥ d/2";
    return cols + ",  " + w;
}

namespace {

std::string escapeHtml(const std::string &text)
{
    std::string out;
    for (char c : text)
        out += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
    return out;
}

} // namespace

std::string formulaHtml(const EncodingParams &p)
{
    switch (p.scheme) {
    case SchemeId::Table:
        return "PE(t, j) = row t, column j of <b>" + escapeHtml(tableFullName(p)) + "</b><br>" +
               withThousands(p.table->rows()) + " × " + withThousands(p.table->cols()) + ", " +
               escapeHtml(p.table->description()) +
               (p.table->convention().empty() ? std::string() : "<br>" + escapeHtml(p.table->convention()));
    case SchemeId::Rope:
        return std::string(p.layout == Layout::Interleaved ? "PE(t, 2i) = cos(t·θ<sub>i</sub>), PE(t, 2i+1) = "
                                                             "sin(t·θ<sub>i</sub>)"
                                                           : "PE(t, i) = cos(t·θ<sub>i</sub>), PE(t, d/2+i) = "
                                                             "sin(t·θ<sub>i</sub>)") +
               "<br>(R<sub>t</sub>q)·(R<sub>s</sub>k) depends on t − s alone<br>θ<sub>i</sub> = " +
               escapeHtml(compactNumber(p.base)) + "<sup>−2i/d</sup>, d = " + std::to_string(p.dModel) + "<br>" +
               escapeHtml(scalingText(p)) +
               (hasLocalLayers(p) ? "<br>" + escapeHtml(localLayersText(p)) : std::string()) +
               (p.xposScaleBase > 0 ? "<br>xPos: pair i of q·k × ζ<sub>i</sub><sup>(t−s)/γ</sup>, γ = " +
                                          escapeHtml(compactNumber(p.xposScaleBase))
                                    : std::string());
    case SchemeId::Alibi:
        return "score(t, s) + (−m<sub>h</sub>·|t − s|)<br>" + escapeHtml(alibiText(p));
    case SchemeId::T5:
        return "score(t, s) + b<sub>h</sub>[bucket(s − t)]<br>b<sub>h</sub>: a learned scalar per bucket and "
               "head<br>" +
               escapeHtml(t5SchemeText(p));
    case SchemeId::Sinusoidal:
        break;
    }
    const bool pair = p.exponent == Exponent::Pair;
    const std::string k = pair ? "i" : "j";
    const std::string w = "ω<sub>" + k + "</sub>";
    const std::string angle = "t·" + w;
    std::string base = escapeHtml(compactNumber(p.base));
    // 1e8 reads as 10^8 in a formula.
    if (const auto e = base.find('e'); e != std::string::npos && e > 0) {
        const std::string mantissa = base.substr(0, e);
        std::string power = base.substr(e + 1);
        power.erase(std::remove(power.begin(), power.end(), '+'), power.end());
        std::string wrapped = "(";
        if (mantissa != "1")
            wrapped += mantissa + "·";
        wrapped += "10<sup>" + power + "</sup>)";
        base = std::move(wrapped);
    }
    std::string first, second;
    if (p.layout == Layout::Interleaved) {
        first = pair ? "PE(t, 2i) = sin(" + angle + ")" : "PE(t, j) = sin(" + angle + "), j even";
        second = pair ? "PE(t, 2i+1) = cos(" + angle + ")" : "PE(t, j) = cos(" + angle + "), j odd";
    } else {
        first = pair ? "PE(t, i) = sin(" + angle + ")" : "PE(t, j) = sin(" + angle + "), j &lt; d/2";
        second = pair ? "PE(t, d/2+i) = cos(" + angle + ")" : "PE(t, j) = cos(" + angle + "), j ≥ d/2";
    }
    const std::string exponent = pair ? "−2i/d" : "−j/d";
    return first + "<br>" + second + "<br>" + w + " = " + base + "<sup>" + exponent +
           "</sup>, d = " + std::to_string(p.dModel);
}

} // namespace pe
