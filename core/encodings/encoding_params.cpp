#include "encodings/encoding_params.h"

#include "encodings/scheme.h"
#include "encodings/scheme_parameters.h"

#include "encodings/position_table.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pe {

namespace {

std::string shortReal(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

} // namespace

namespace {

// "a or b", "a, b or c"
template <typename Enum, std::size_t N> std::string oneOf(const Enum (&values)[N], std::string_view (*name)(Enum))
{
    std::string out;
    for (std::size_t i = 0; i < N; ++i)
        out += (i == 0 ? "" : i + 1 == N ? " or " : ", ") + std::string(name(values[i]));
    return out;
}

ValidationError failure(Field f, const std::string &got)
{
    return ValidationError{f, std::string(fieldName(f)) + " must be " + allowedText(f) + " (got " + got + ")."};
}

} // namespace

std::string allowedText(Field f)
{
    using namespace limits;
    if (const SchemeParameter *own = schemeParameter(f))
        return parameterAllowedText(*own);
    switch (f) {
    case Field::SeqLen:
        return "a whole number from " + withThousands(minSeqLen) + " to " + withThousands(maxSeqLen);
    case Field::DModel:
        return "a whole number from " + withThousands(minDModel) + " to " + withThousands(maxDModel);
    case Field::Base:
        return "a finite number greater than 1 and at most " + compactNumber(maxBase);
    case Field::StartPos:
        return "a whole number from 0 to " + withThousands(maxPositionEnd - minSeqLen);
    case Field::Scheme: {
        std::string names;
        for (SchemeId id : kSchemes)
            if (schemeInfo(id).byName)
                names += (names.empty() ? "" : ", ") + std::string(schemeName(id));
        return names + "; a table is opened from its file";
    }
    case Field::Layout:
        return oneOf(kLayouts, layoutName);
    case Field::Exponent:
        return oneOf(kExponents, exponentName);
    default: // a scheme's own parameters, above
        break;
    }
    return {};
}

std::string positionAllowedText(const EncodingParams &p)
{
    return "a whole number inside the window, from " + withThousands(p.startPos) + " to " +
           withThousands(p.startPos + p.seqLen - 1);
}

std::optional<std::string> validatePosition(const EncodingParams &p, std::int64_t t)
{
    if (t >= p.startPos && t < p.startPos + p.seqLen)
        return std::nullopt;
    return "position must be " + positionAllowedText(p) + " (got " + withThousands(t) + ").";
}

std::optional<ValidationError> validate(const EncodingParams &p)
{
    using namespace limits;
    if (p.seqLen < minSeqLen || p.seqLen > maxSeqLen)
        return failure(Field::SeqLen, withThousands(p.seqLen));
    // A table's columns may run past maxDModel (maxTableColumns); the scheme holds d_model to them.
    if (p.dModel < minDModel || p.dModel > (p.table ? maxTableColumns : maxDModel))
        return failure(Field::DModel, withThousands(p.dModel));
    if ((p.scheme == SchemeId::Table) != (p.table != nullptr))
        return ValidationError{Field::Scheme, p.table ? "a table's scheme is the table."
                                                      : "the table scheme needs its file: open one (--table FILE)."};
    if (p.table && p.layout != Layout::Interleaved)
        return ValidationError{Field::Layout,
                               "a table's pairs are its columns (2i, 2i+1): the layout must be interleaved."};
    if (p.layout == Layout::Split && p.dModel % 2 != 0)
        return ValidationError{Field::DModel, "d_model must be even with the split layout, which needs d/2 sine and "
                                              "d/2 cosine columns (got " +
                                                  std::to_string(p.dModel) + ")."};
    if (!std::isfinite(p.base) || !(p.base > 1.0) || p.base > maxBase)
        return failure(Field::Base, shortReal(p.base));
    if (p.startPos < 0 || p.startPos > maxPositionEnd - minSeqLen)
        return failure(Field::StartPos, withThousands(p.startPos));
    if (p.startPos + p.seqLen > maxPositionEnd)
        return ValidationError{Field::StartPos, "start_pos + seq_len must be at most " + withThousands(maxPositionEnd) +
                                                    " (got " + withThousands(p.startPos) + " + " +
                                                    withThousands(p.seqLen) + ")."};
    // rope_local_base_freq is a base like rope_theta: above 1 (0 is "not given"), and one sentence
    // for every value refused (the table's range alone would allow 0.5).
    if (takes(p, Field::LocalBase) && p.localBase != 0 &&
        !(std::isfinite(p.localBase) && p.localBase > 1.0 && p.localBase <= maxBase))
        return ValidationError{Field::LocalBase, "local_base must be 0 (none) or a base greater than 1 and at most " +
                                                     compactNumber(maxBase) + " (got " + shortReal(p.localBase) + ")."};
    if (takes(p, Field::XposScaleBase) && p.xposScaleBase != 0 && !(p.xposScaleBase >= 1 && p.xposScaleBase <= 1e9))
        return ValidationError{Field::XposScaleBase, "xpos_scale_base must be 0 (no xPos) or from 1 to 1e9 (got " +
                                                         shortReal(p.xposScaleBase) + ")."};
    for (const SchemeParameter &sp : schemeParameters()) {
        if (sp.kind == SchemeParameter::Kind::List) {
            if (auto problem = listProblem(sp, sp.getList(p)))
                return ValidationError{sp.field, *problem};
        } else if (const double v = sp.get(p); !inRange(sp, v)) {
            return failure(sp.field, shortReal(v));
        }
    }
    if (p.scheme == SchemeId::Rope && p.dModel % 2 != 0)
        return ValidationError{Field::DModel, "RoPE turns pairs of columns: d_model must be even (got " +
                                                  std::to_string(p.dModel) + ")."};
    if (p.scheme == SchemeId::Rope && p.rope.scaling != RopeScaling::Proportional) {
        // transformers: dim = int(head_dim · partial_rotary_factor), turned in pairs.
        const int dim = rotaryDim(p.dModel, p.rope);
        if (dim < 2 || dim % 2 != 0)
            return ValidationError{Field::RotaryFraction,
                                   "rotary_fraction must leave an even number of rotated dimensions, at least 2: "
                                   "int(d_model · F) = int(" +
                                       std::to_string(p.dModel) + " · " + compactNumber(p.rope.rotaryFraction) +
                                       ") = " + std::to_string(dim) + "."};
    }
    if (p.scheme == SchemeId::Rope && p.rope.scaling == RopeScaling::Proportional && rotatedPairs(p.dModel, p.rope) < 1)
        return ValidationError{Field::RotaryFraction,
                               "rotary_fraction must turn at least one pair: floor(F · d/2) = 0."};
    if (p.scheme == SchemeId::Rope && rotaryDim(p.dModel, p.rope) < 4 &&
        (p.rope.scaling == RopeScaling::Ntk || p.rope.scaling == RopeScaling::DynamicNtk))
        return ValidationError{Field::DModel,
                               "NTK-aware scaling raises s to d/(d-2) over the rotated dimensions: they must be at "
                               "least 4 (got " +
                                   std::to_string(rotaryDim(p.dModel, p.rope)) + ")."};
    // The orders between two parameters are checked where the scheme takes them (a session of the
    // sinusoids may carry any betas; choosing YaRN then says what is wrong).
    if (takes(p, Field::BetaFast) && !(p.rope.betaFast > p.rope.betaSlow))
        return ValidationError{Field::BetaFast, "beta_fast must be above beta_slow (got " + shortReal(p.rope.betaFast) +
                                                    " and " + shortReal(p.rope.betaSlow) + ")."};
    // Equal factors leave no band between (Llama 4 Scout's config gives 1 and 1; transformers takes it).
    if (takes(p, Field::HighFreqFactor) && !(p.rope.highFreqFactor >= p.rope.lowFreqFactor))
        return ValidationError{Field::HighFreqFactor, "high_freq_factor must be at least low_freq_factor (got " +
                                                          shortReal(p.rope.highFreqFactor) + " and " +
                                                          shortReal(p.rope.lowFreqFactor) + ")."};
    // LongRoPE rescales every pair: one factor a pair in each list (transformers warns, then fails
    // to broadcast; a missing list would leave pairs unscaled without a word).
    for (const Field f : {Field::ShortFactor, Field::LongFactor}) {
        const std::vector<double> &list = f == Field::ShortFactor ? p.rope.shortFactor : p.rope.longFactor;
        if (const int pairs = rotatedPairs(p.dModel, p.rope);
            takes(p, f) && list.size() != static_cast<std::size_t>(pairs))
            return ValidationError{f, std::string(fieldName(f)) + " must hold one factor per rotated pair, " +
                                          (pairs == p.dModel / 2 ? "d/2" : "int(d·F)/2") + " = " +
                                          std::to_string(pairs) + " of them (got " + std::to_string(list.size()) +
                                          ")."};
    }
    if (takes(p, Field::AttentionFactor) && p.rope.scaling == RopeScaling::LongRope && p.rope.attentionFactor == 0 &&
        p.rope.factor > 1 && p.rope.originalContext < 2)
        return ValidationError{Field::OriginalContext,
                               "LongRoPE's attention factor sqrt(1 + ln s / ln L) needs L of at least 2: give "
                               "original_context or attention_factor."};
    // T5's learned bias: one row a bucket, one column a head.
    if (p.biasTable && p.scheme != SchemeId::T5)
        return ValidationError{Field::Scheme,
                               "a bias table is T5's learned relative_attention_bias: the scheme must be "
                               "t5."};
    if (p.biasTable && p.biasTable->rows() != p.buckets)
        return ValidationError{Field::Buckets, "buckets is the bias table's row count, " +
                                                   withThousands(p.biasTable->rows()) + ", one a bucket (got " +
                                                   std::to_string(p.buckets) + ")."};
    if (p.scheme == SchemeId::T5 && p.head > (p.biasTable ? p.biasTable->cols() : 1))
        return ValidationError{
            Field::Head, p.biasTable ? "head must be at most the bias table's " + std::to_string(p.biasTable->cols()) +
                                           " heads, its columns (got " + std::to_string(p.head) + ")."
                                     : "T5's head is a column of its bias table: give --bias-table "
                                       "FILE, or head 1 (got " +
                                           std::to_string(p.head) + ")."};
    if (takes(p, Field::Head) && p.scheme != SchemeId::T5 && p.head > p.heads)
        return ValidationError{Field::Head, "head must be at most the number of heads, " + std::to_string(p.heads) +
                                                " (got " + std::to_string(p.head) + ")."};
    // T5's logarithmic buckets run from the last exact distance to max_distance: log(max_distance /
    // max_exact) must be above 0 for either direction (max_exact N/4 bidirectional, N/2 causal).
    if (takes(p, Field::MaxDistance) && p.maxDistance <= p.buckets / 2)
        return ValidationError{Field::MaxDistance,
                               "max_distance must be above buckets/2 = " + std::to_string(p.buckets / 2) +
                                   ", where the logarithmic buckets begin for a causal model (got " +
                                   withThousands(p.maxDistance) + ")."};
    if (p.table) {
        const PositionTable &t = *p.table;
        if (p.dModel != t.cols())
            return ValidationError{Field::DModel, "d_model is the table's column count, " + withThousands(t.cols()) +
                                                      " (got " + withThousands(p.dModel) + ")."};
        if (p.seqLen > t.rows())
            return ValidationError{Field::SeqLen, "seq_len must be at most the table's " + withThousands(t.rows()) +
                                                      " rows (got " + withThousands(p.seqLen) + ")."};
        if (p.startPos + p.seqLen > t.rows())
            return ValidationError{Field::StartPos, "start_pos + seq_len must be at most the table's " +
                                                        withThousands(t.rows()) + " rows (got " +
                                                        withThousands(p.startPos) + " + " + withThousands(p.seqLen) +
                                                        ")."};
    }
    return std::nullopt;
}

std::string_view fieldName(Field f)
{
    if (const SchemeParameter *own = schemeParameter(f))
        return own->key;
    switch (f) {
    case Field::Scheme:
        return "scheme";
    case Field::SeqLen:
        return "seq_len";
    case Field::DModel:
        return "d_model";
    case Field::Base:
        return "base";
    case Field::StartPos:
        return "start_pos";
    case Field::Layout:
        return "layout";
    case Field::Exponent:
        return "exponent";
    default: // a scheme's own parameters, above
        break;
    }
    return "";
}

std::string_view schemeName(SchemeId s)
{
    switch (s) {
    case SchemeId::Sinusoidal:
        return "sinusoidal";
    case SchemeId::Rope:
        return "rope";
    case SchemeId::Alibi:
        return "alibi";
    case SchemeId::T5:
        return "t5";
    case SchemeId::Table:
        return "table";
    }
    return "";
}

std::optional<SchemeId> parseScheme(std::string_view s)
{
    const auto id = parseName(kSchemes, schemeName, s);
    return id == SchemeId::Table ? std::nullopt : id; // a table is opened from its file
}

std::string_view layoutName(Layout l)
{
    switch (l) {
    case Layout::Interleaved:
        return "interleaved";
    case Layout::Split:
        return "split";
    }
    return "";
}

std::string_view exponentName(Exponent e)
{
    switch (e) {
    case Exponent::Pair:
        return "pair";
    case Exponent::Index:
        return "index";
    }
    return "";
}

std::optional<Layout> parseLayout(std::string_view s)
{
    return parseName(kLayouts, layoutName, s);
}

std::optional<Exponent> parseExponent(std::string_view s)
{
    return parseName(kExponents, exponentName, s);
}

std::optional<std::int64_t> parseInteger(std::string_view s)
{
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    std::int64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size())
        return std::nullopt;
    return v;
}

std::optional<double> parseReal(std::string_view s)
{
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    double v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size())
        return std::nullopt;
    return v;
}

std::string compactNumber(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    const std::string text = buf;
    const auto e = text.find('e');
    if (e == std::string::npos)
        return text;
    // "1e+08" -> "1e8", "1.5e-03" -> "1.5e-3"
    const int exponent = std::atoi(text.c_str() + e + 1);
    return text.substr(0, e) + "e" + std::to_string(exponent);
}

std::string numberText(double v, int digits)
{
    if (std::isinf(v))
        return v > 0 ? "∞" : "−∞";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
}

std::string positionText(double t)
{
    char buf[64];
    if (t == std::floor(t))
        std::snprintf(buf, sizeof buf, "%.0f", t);
    else {
        std::snprintf(buf, sizeof buf, "%.3f", t);
        std::string text = buf;
        text.erase(text.find_last_not_of('0') + 1); // 10.250 -> 10.25
        if (text.back() == '.')                     // 10.9999 rounds to 11.000 -> 11
            text.pop_back();
        return text;
    }
    return buf;
}

std::string wavelengthText(double lambda)
{
    if (std::isinf(lambda)) // a pair that does not turn (partial rotary)
        return "∞";
    if (lambda >= 1e4)
        return compactNumber(std::round(lambda / 10) * 10);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", lambda < 100 ? 1 : 0, lambda);
    return buf;
}

std::string tableFullName(const EncodingParams &p)
{
    if (!p.table)
        return {};
    const std::string &path = p.table->path();
    const std::string file =
        path.substr(0, path.size() - (p.table->tensorName().empty() ? 0 : p.table->tensorName().size() + 1));
    const auto slash = file.find_last_of('/');
    return (slash == std::string::npos ? file : file.substr(slash + 1)) +
           (p.table->tensorName().empty() ? std::string() : ":" + p.table->tensorName());
}

std::string tableName(const EncodingParams &p)
{
    if (!p.table || p.table->tensorName().empty())
        return tableFullName(p);
    // The tensor's last name that is not "weight", with the part of the model it belongs to.
    const std::string &tensor = p.table->tensorName();
    std::string last;
    for (std::size_t start = 0; start <= tensor.size();) {
        const auto dot = std::min(tensor.find('.', start), tensor.size());
        const std::string part = tensor.substr(start, dot - start);
        if (part != "weight" && !part.empty())
            last = part;
        start = dot + 1;
    }
    std::string where;
    for (const char *part : {"encoder", "decoder", "vision", "text"})
        if (tensor.find(part) != std::string::npos && last.find(part) == std::string::npos) {
            where = std::string(part) + " ";
            break;
        }
    const std::string full = tableFullName(p);
    // Rows skipped before position 0 (OPT's offset, a ViT's class token) said wherever the name is.
    const std::string from =
        p.table->skippedRows() > 0 ? ", from row " + withThousands(p.table->skippedRows()) : std::string();
    return full.substr(0, full.size() - tensor.size() - 1) + " (" + where + last + from + ")";
}

std::string sourceText(const EncodingParams &p)
{
    if (p.table)
        return tableName(p);
    std::string text = "base " + compactNumber(p.base);
    if (p.scheme == SchemeId::Rope && rotatedPairs(p.dModel, p.rope) < p.dModel / 2) // partial rotary
        text.append(", ")
            .append(std::to_string(2 * rotatedPairs(p.dModel, p.rope)))
            .append(" of ")
            .append(std::to_string(p.dModel))
            .append(" dims rotate");
    return text;
}

} // namespace pe
