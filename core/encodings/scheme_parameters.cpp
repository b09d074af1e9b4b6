#include "encodings/scheme_parameters.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace pe {

const std::vector<SchemeParameter> &schemeParameters()
{
    using Kind = SchemeParameter::Kind;
    static const std::vector<SchemeParameter> table = [] {
        std::vector<std::string_view> scalings;
        for (RopeScaling s : kRopeScalings)
            scalings.push_back(ropeScalingName(s));
        return std::vector<SchemeParameter>{
            {Field::Scaling, "scaling", "scaling",
             "RoPE's context extension (linear: position interpolation; llama3: Llama 3.1's; longrope: Phi-3's; "
             "proportional: Gemma's p-RoPE)",
             Kind::Choice, scalings, 0, 0, false,
             [](const EncodingParams &p) { return static_cast<double>(p.rope.scaling); },
             [](EncodingParams &p, double v) { p.rope.scaling = kRopeScalings[static_cast<int>(v)]; }},
            {Field::Factor,
             "factor",
             "factor s",
             "The scaling factor s: the context grows from L to s·L",
             Kind::Real,
             {},
             1,
             1e6,
             false,
             [](const EncodingParams &p) { return p.rope.factor; },
             [](EncodingParams &p, double v) { p.rope.factor = v; }},
            {Field::OriginalContext,
             "original_context",
             "context L",
             "The context L the model was trained on; the views mark it under every scaling",
             Kind::Integer,
             {},
             1,
             static_cast<double>(limits::maxPositionEnd),
             false,
             [](const EncodingParams &p) { return static_cast<double>(p.rope.originalContext); },
             [](EncodingParams &p, double v) { p.rope.originalContext = static_cast<std::int64_t>(v); }},
            {Field::BetaFast,
             "beta_fast",
             "β fast",
             "YaRN: pairs turning more than beta_fast times within L are kept",
             Kind::Real,
             {},
             0,
             1e6,
             true,
             [](const EncodingParams &p) { return p.rope.betaFast; },
             [](EncodingParams &p, double v) { p.rope.betaFast = v; }},
            {Field::BetaSlow,
             "beta_slow",
             "β slow",
             "YaRN: pairs turning fewer than beta_slow times within L are divided by s",
             Kind::Real,
             {},
             0,
             1e6,
             true,
             [](const EncodingParams &p) { return p.rope.betaSlow; },
             [](EncodingParams &p, double v) { p.rope.betaSlow = v; }},
            {Field::LowFreqFactor,
             "low_freq_factor",
             "low freq factor",
             "Llama 3.1: wavelengths above L/low_freq_factor are divided by s",
             Kind::Real,
             {},
             0,
             1e6,
             true,
             [](const EncodingParams &p) { return p.rope.lowFreqFactor; },
             [](EncodingParams &p, double v) { p.rope.lowFreqFactor = v; }},
            {Field::HighFreqFactor,
             "high_freq_factor",
             "high freq factor",
             "Llama 3.1: wavelengths below L/high_freq_factor are kept",
             Kind::Real,
             {},
             0,
             1e6,
             true,
             [](const EncodingParams &p) { return p.rope.highFreqFactor; },
             [](EncodingParams &p, double v) { p.rope.highFreqFactor = v; }},
            {Field::Mscale,
             "mscale",
             "mscale",
             "YaRN as DeepSeek sets it: with mscale_all_dim, cos and sin x get_mscale(s, mscale) / "
             "get_mscale(s, mscale_all_dim); 0: not given",
             Kind::Real,
             {},
             0,
             1e3,
             false,
             [](const EncodingParams &p) { return p.rope.mscale; },
             [](EncodingParams &p, double v) { p.rope.mscale = v; }},
            {Field::MscaleAllDim,
             "mscale_all_dim",
             "mscale all dim",
             "YaRN as DeepSeek sets it: the mscale of the denominator (get_mscale(s, mscale_all_dim)); 0: not given",
             Kind::Real,
             {},
             0,
             1e3,
             false,
             [](const EncodingParams &p) { return p.rope.mscaleAllDim; },
             [](EncodingParams &p, double v) { p.rope.mscaleAllDim = v; }},
            {Field::Truncate,
             "truncate",
             "truncate",
             "YaRN: floor and ceil the ramp's correction range (transformers' default; gpt-oss turns it off)",
             Kind::Switch,
             {},
             0,
             1,
             false,
             [](const EncodingParams &p) { return p.rope.truncate ? 1.0 : 0.0; },
             [](EncodingParams &p, double v) { p.rope.truncate = v != 0; }},
            {Field::AttentionFactor,
             "attention_factor",
             "attention factor",
             "YaRN and LongRoPE: the factor on cos and sin, given; 0: the scaling's own (YaRN 0.1·ln s + 1, "
             "LongRoPE sqrt(1 + ln s / ln L))",
             Kind::Real,
             {},
             0,
             1e3,
             false,
             [](const EncodingParams &p) { return p.rope.attentionFactor; },
             [](EncodingParams &p, double v) { p.rope.attentionFactor = v; }},
            {Field::ShortFactor,
             "short_factor",
             "short factor",
             "LongRoPE: each pair's rescale factor while the sequence is within L, comma-separated, d/2 of them",
             Kind::List,
             {},
             1,
             1e6,
             false,
             nullptr,
             nullptr,
             [](const EncodingParams &p) { return p.rope.shortFactor; },
             [](EncodingParams &p, std::vector<double> v) { p.rope.shortFactor = std::move(v); }},
            {Field::LongFactor,
             "long_factor",
             "long factor",
             "LongRoPE: each pair's rescale factor once the sequence (start_pos + seq_len) passes L, "
             "comma-separated, d/2 of them",
             Kind::List,
             {},
             1,
             1e6,
             false,
             nullptr,
             nullptr,
             [](const EncodingParams &p) { return p.rope.longFactor; },
             [](EncodingParams &p, std::vector<double> v) { p.rope.longFactor = std::move(v); }},
            {Field::RotaryFraction,
             "rotary_fraction",
             "rotary fraction",
             "Partial rotary (GPT-NeoX's rotary_pct, partial_rotary_factor): int(d·F)/2 pairs rotate (the first "
             "int(d·F) columns interleaved; columns i and d/2+i split), the others pass through; under proportional, "
             "floor(F·d/2) pairs turn",
             Kind::Real,
             {},
             0,
             1,
             true,
             [](const EncodingParams &p) { return p.rope.rotaryFraction; },
             [](EncodingParams &p, double v) { p.rope.rotaryFraction = v; }},
            {Field::Heads,
             "heads",
             "heads",
             "ALiBi's number of heads, each with its own slope",
             Kind::Integer,
             {},
             1,
             1024,
             false,
             [](const EncodingParams &p) { return static_cast<double>(p.heads); },
             [](EncodingParams &p, double v) { p.heads = static_cast<int>(v); }},
            {Field::Head,
             "head",
             "head",
             "The head the views show, 1-based: ALiBi's (at most the number of heads), or the column of T5's bias "
             "table",
             Kind::Integer,
             {},
             1,
             4096, // a T5 table's columns; ALiBi's head is held to its heads (at most 1,024)
             false,
             [](const EncodingParams &p) { return static_cast<double>(p.head); },
             [](EncodingParams &p, double v) { p.head = static_cast<int>(v); }},
            {Field::Buckets,
             "buckets",
             "buckets",
             "T5's relative_attention_num_buckets: half of a direction's buckets hold one offset each, the "
             "others grow logarithmically",
             Kind::Integer,
             {},
             4,
             1024,
             false,
             [](const EncodingParams &p) { return static_cast<double>(p.buckets); },
             [](EncodingParams &p, double v) { p.buckets = static_cast<int>(v); }},
            {Field::MaxDistance,
             "max_distance",
             "max distance",
             "T5's relative_attention_max_distance: every offset from it on shares the last bucket; above buckets/2",
             Kind::Integer,
             {},
             2,
             static_cast<double>(limits::maxSeqLen),
             false,
             [](const EncodingParams &p) { return static_cast<double>(p.maxDistance); },
             [](EncodingParams &p, double v) { p.maxDistance = static_cast<std::int64_t>(v); }},
            {Field::LocalBase,
             "local_base",
             "local base",
             "Gemma's rope_local_base_freq: the sliding-window layers turn at this base (above 1), without the "
             "scaling; 0: no local base (the global one)",
             Kind::Real,
             {},
             0,
             limits::maxBase,
             false,
             [](const EncodingParams &p) { return p.localBase; },
             [](EncodingParams &p, double v) { p.localBase = v; }},
            {Field::SlidingWindow,
             "sliding_window",
             "sliding window",
             "Gemma's sliding_window: a local layer's query sees the last W keys (t - W < s <= t); 0: no window",
             Kind::Integer,
             {},
             0,
             static_cast<double>(limits::maxPositionEnd),
             false,
             [](const EncodingParams &p) { return static_cast<double>(p.slidingWindow); },
             [](EncodingParams &p, double v) { p.slidingWindow = static_cast<std::int64_t>(v); }},
            {Field::XposScaleBase,
             "xpos_scale_base",
             "xPos scale base γ",
             "xPos (Sun et al. 2022): q times ζ_i^(t/γ), k times ζ_i^(-s/γ), ζ_i = (2i + 0.4·d)/(1.4·d), so pair i's "
             "score decays as ζ_i^((t-s)/γ); torchscale's scale_base is 512 (--scheme xpos); 0: plain RoPE, else at "
             "least 1",
             Kind::Real,
             {},
             0,
             1e9,
             false,
             [](const EncodingParams &p) { return p.xposScaleBase; },
             [](EncodingParams &p, double v) { p.xposScaleBase = v; }},
            {Field::NopeInterval,
             "nope_interval",
             "NoPE every",
             "Llama 4's no_rope_layer_interval: every N-th layer has no RoPE (NoPE), the attention view's --layer "
             "nope; 0: none",
             Kind::Integer,
             {},
             0,
             1000,
             false,
             [](const EncodingParams &p) { return static_cast<double>(p.nopeInterval); },
             [](EncodingParams &p, double v) { p.nopeInterval = static_cast<int>(v); }},
            {Field::FloorScale,
             "floor_scale",
             "floor scale",
             "Llama 4's floor_scale: a NoPE layer's query x ln(floor((t + 1)/floor_scale) + 1)·attn_scale + 1",
             Kind::Real,
             {},
             0,
             1e9,
             true,
             [](const EncodingParams &p) { return p.floorScale; },
             [](EncodingParams &p, double v) { p.floorScale = v; }},
            {Field::AttnScale,
             "attn_scale",
             "attn scale",
             "Llama 4's attn_scale: the temperature's slope in ln(floor((t + 1)/floor_scale) + 1); 0: no "
             "temperature tuning",
             Kind::Real,
             {},
             0,
             100,
             false,
             [](const EncodingParams &p) { return p.attnScale; },
             [](EncodingParams &p, double v) { p.attnScale = v; }},
        };
    }();
    return table;
}

std::string SchemeParameter::flag() const
{
    const EncodingParams defaults;
    std::string out = kind == Kind::Switch && get(defaults) != 0 ? "no-" + std::string(key) : std::string(key);
    for (char &c : out)
        if (c == '_')
            c = '-';
    return out;
}

const SchemeParameter *schemeParameter(Field f)
{
    for (const SchemeParameter &p : schemeParameters())
        if (p.field == f)
            return &p;
    return nullptr;
}

std::string parameterAllowedText(const SchemeParameter &p)
{
    switch (p.kind) {
    case SchemeParameter::Kind::Choice: {
        std::string out;
        for (std::size_t i = 0; i < p.choices.size(); ++i)
            out += (i == 0 ? "" : i + 1 == p.choices.size() ? " or " : ", ") + std::string(p.choices[i]);
        return out;
    }
    case SchemeParameter::Kind::Integer:
        return "a whole number from " + withThousands(static_cast<std::int64_t>(p.minimum)) + " to " +
               withThousands(static_cast<std::int64_t>(p.maximum));
    case SchemeParameter::Kind::Real:
        return p.minimumExcluded
                   ? "a number above " + compactNumber(p.minimum) + " and at most " + compactNumber(p.maximum)
                   : "a number from " + compactNumber(p.minimum) + " to " + compactNumber(p.maximum);
    case SchemeParameter::Kind::Switch:
        return "true or false";
    case SchemeParameter::Kind::List:
        return "numbers from " + compactNumber(p.minimum) + " to " + compactNumber(p.maximum) +
               ", comma-separated, one per rotated pair";
    }
    return {};
}

std::string parameterText(const SchemeParameter &p, double value)
{
    switch (p.kind) {
    case SchemeParameter::Kind::Choice:
        return inRange(p, value) ? std::string(p.choices[static_cast<std::size_t>(value)]) : std::string();
    case SchemeParameter::Kind::Integer:
        return std::to_string(static_cast<std::int64_t>(value));
    case SchemeParameter::Kind::Real: {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", value);
        return buf;
    }
    case SchemeParameter::Kind::Switch:
        return value != 0 ? "true" : "false";
    case SchemeParameter::Kind::List:
        return {};
    }
    return {};
}

std::string listText(const std::vector<double> &values)
{
    std::string out;
    for (double v : values) {
        char buf[64];
        const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr; // shortest text that reads back equal
        if (!out.empty())
            out += ',';
        out.append(buf, end);
    }
    return out;
}

std::optional<std::string> listProblem(const SchemeParameter &p, const std::vector<double> &values)
{
    if (values.size() > kMaxListValues)
        return std::string(p.key) + " holds at most " + withThousands(kMaxListValues) + " numbers (got " +
               withThousands(static_cast<std::int64_t>(values.size())) + ").";
    for (std::size_t i = 0; i < values.size(); ++i)
        if (!inRange(p, values[i]))
            return std::string(p.key) + " must hold " + parameterAllowedText(p) + " (number " + std::to_string(i + 1) +
                   " is " + compactNumber(values[i]) + ").";
    return std::nullopt;
}

std::optional<std::vector<double>> parseList(const SchemeParameter &p, std::string_view text, std::string *error)
{
    std::vector<double> values;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        std::string_view item = text.substr(start, comma - start);
        while (!item.empty() && (item.front() == ' ' || item.front() == '['))
            item.remove_prefix(1);
        while (!item.empty() && (item.back() == ' ' || item.back() == ']'))
            item.remove_suffix(1);
        const auto v = parseReal(item);
        if (!v) {
            if (error)
                *error = std::string(p.key) + " must be " + parameterAllowedText(p) + " (got '" +
                         std::string(item.substr(0, 40)) + "' as number " + std::to_string(values.size() + 1) + ").";
            return std::nullopt;
        }
        values.push_back(*v);
        if (values.size() > kMaxListValues)
            break;
        start = comma + 1;
    }
    if (auto problem = listProblem(p, values)) {
        if (error)
            *error = *problem;
        return std::nullopt;
    }
    return values;
}

bool inRange(const SchemeParameter &p, double v)
{
    switch (p.kind) {
    case SchemeParameter::Kind::Choice:
        return v >= 0 && v < static_cast<double>(p.choices.size()) && v == std::floor(v);
    case SchemeParameter::Kind::Switch:
        return v == 0 || v == 1;
    case SchemeParameter::Kind::Integer:
        if (v != std::floor(v))
            return false;
        [[fallthrough]];
    case SchemeParameter::Kind::Real:
    case SchemeParameter::Kind::List: // each of its numbers
        return std::isfinite(v) && (p.minimumExcluded ? v > p.minimum : v >= p.minimum) && v <= p.maximum;
    }
    return false;
}

std::optional<double> parseParameter(const SchemeParameter &p, std::string_view text, std::string *error)
{
    std::optional<double> v;
    switch (p.kind) {
    case SchemeParameter::Kind::Choice:
        for (std::size_t i = 0; i < p.choices.size(); ++i)
            if (p.choices[i] == text)
                v = static_cast<double>(i);
        break;
    case SchemeParameter::Kind::Integer:
        if (const auto i = parseInteger(text))
            v = static_cast<double>(*i);
        break;
    case SchemeParameter::Kind::Real:
        v = parseReal(text);
        break;
    case SchemeParameter::Kind::Switch:
        if (text == "true" || text == "false")
            v = text == "true" ? 1.0 : 0.0;
        break;
    case SchemeParameter::Kind::List:
        break; // parseList
    }
    if (v && inRange(p, *v))
        return v;
    if (error)
        *error = std::string(p.key) + " must be " + parameterAllowedText(p) + " (got '" +
                 std::string(text.substr(0, 40)) + "').";
    return std::nullopt;
}

} // namespace pe
