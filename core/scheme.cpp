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

} // namespace pe
