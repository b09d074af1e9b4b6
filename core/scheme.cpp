#include "scheme.h"

#include "position_table.h"

#include <algorithm>

namespace pe {

const SchemeInfo &schemeInfo(SchemeId id)
{
    static const SchemeInfo sinusoidal{
        SchemeId::Sinusoidal,
        "Sinusoidal",
        "Vaswani et al. 2017; split halves: tensor2tensor; per-index exponent: seed 002",
        {Field::SeqLen, Field::DModel, Field::Base, Field::StartPos, Field::Layout, Field::Exponent},
        true};
    static const SchemeInfo table{
        SchemeId::Table, "Position table", "a .npy file", {Field::SeqLen, Field::StartPos}, false};
    switch (id) {
    case SchemeId::Sinusoidal:
        return sinusoidal;
    case SchemeId::Table:
        return table;
    }
    return sinusoidal;
}

bool takes(const EncodingParams &p, Field f)
{
    const std::vector<Field> &fields = schemeInfo(p.scheme).takes;
    return f == Field::Scheme || std::find(fields.begin(), fields.end(), f) != fields.end();
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
        case Field::None:
        case Field::Scheme:
        case Field::SeqLen:
        case Field::StartPos:
            break;
        }
        break;
    }
    case SchemeId::Sinusoidal:
        break;
    }
    return std::string(fieldName(f)) + " does not apply to the " + std::string(schemeName(p.scheme)) + " scheme.";
}

bool dotDependsOnOffsetOnly(const EncodingParams &p)
{
    switch (p.scheme) {
    case SchemeId::Sinusoidal:
        return p.exponent == Exponent::Pair && p.dModel % 2 == 0;
    case SchemeId::Table:
        return false;
    }
    return false;
}

double valueBound(const EncodingParams &p)
{
    switch (p.scheme) {
    case SchemeId::Sinusoidal:
        return 1.0;
    case SchemeId::Table:
        return p.table->maxAbs();
    }
    return 1.0;
}

std::int64_t positionEnd(const EncodingParams &p)
{
    switch (p.scheme) {
    case SchemeId::Sinusoidal:
        return limits::maxPositionEnd;
    case SchemeId::Table:
        return p.table->rows();
    }
    return limits::maxPositionEnd;
}

std::string formulaText(const EncodingParams &p)
{
    switch (p.scheme) {
    case SchemeId::Table:
        return "PE(t, j) = row t, column j of " + tableName(p) + " (" + withThousands(p.table->rows()) + " x " +
               withThousands(p.table->cols()) + ", " + p.table->description() + ")";
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
        return "PE(t, j) = row t, column j of <b>" + escapeHtml(tableName(p)) + "</b><br>" +
               withThousands(p.table->rows()) + " × " + withThousands(p.table->cols()) + ", " +
               escapeHtml(p.table->description());
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
        base = "(" + (mantissa == "1" ? std::string() : mantissa + "·") + "10<sup>" + power + "</sup>)";
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
