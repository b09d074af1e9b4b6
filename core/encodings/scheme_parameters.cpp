#include "encodings/scheme_parameters.h"

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
             "RoPE's context extension (linear: position interpolation; llama3: Llama 3.1's)", Kind::Choice, scalings,
             0, 0, false, [](const EncodingParams &p) { return static_cast<double>(p.rope.scaling); },
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
             "The ALiBi head the views show, 1-based (at most the number of heads)",
             Kind::Integer,
             {},
             1,
             1024,
             false,
             [](const EncodingParams &p) { return static_cast<double>(p.head); },
             [](EncodingParams &p, double v) { p.head = static_cast<int>(v); }},
        };
    }();
    return table;
}

std::string SchemeParameter::flag() const
{
    std::string out(key);
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
    }
    return {};
}

bool inRange(const SchemeParameter &p, double v)
{
    switch (p.kind) {
    case SchemeParameter::Kind::Choice:
        return v >= 0 && v < static_cast<double>(p.choices.size()) && v == std::floor(v);
    case SchemeParameter::Kind::Integer:
        if (v != std::floor(v))
            return false;
        [[fallthrough]];
    case SchemeParameter::Kind::Real:
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
    }
    if (v && inRange(p, *v))
        return v;
    if (error)
        *error = std::string(p.key) + " must be " + parameterAllowedText(p) + " (got '" +
                 std::string(text.substr(0, 40)) + "').";
    return std::nullopt;
}

} // namespace pe
