#pragma once

#include "encodings/encoding_params.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pe {

// The parameters a scheme adds to the window's (RoPE's scaling, ALiBi's heads), as data: the
// command line's flags and --help, session files, the control panel's rows and the validator's
// ranges all read this table, so a new parameter is one entry here and its field in EncodingParams.
// Which scheme takes which: scheme.h (takes, notApplicable).
struct SchemeParameter {
    enum class Kind { Choice, Integer, Real };
    Field field;
    std::string_view key;   // sessions' key; the command-line flag is the key with '-' for '_'
    std::string_view label; // the control panel's label
    std::string_view help;  // --help and the control's tooltip
    Kind kind;
    std::vector<std::string_view> choices; // a choice's names, in order; its value is the index
    double minimum = 0;
    double maximum = 0;
    bool minimumExcluded = false; // the value must be above the minimum
    double (*get)(const EncodingParams &) = nullptr;
    void (*set)(EncodingParams &, double) = nullptr;

    std::string flag() const; // "original-context"
};

const std::vector<SchemeParameter> &schemeParameters();
// The entry of a field that has one (Field::Scaling ... Field::Head); nullptr for the others.
const SchemeParameter *schemeParameter(Field f);

// What the parameter accepts: "none, linear, ntk, ...", "a whole number from 1 to 1,024", "a number
// above 0 and at most 1e6": allowedText() of its field.
std::string parameterAllowedText(const SchemeParameter &p);
// A value as sessions and the command line write it: the choice's name, or the number.
std::string parameterText(const SchemeParameter &p, double value);
// The value of a text (a name, or a number in range), or nothing with one sentence in *error.
std::optional<double> parseParameter(const SchemeParameter &p, std::string_view text, std::string *error);
// Whether a value is in the parameter's range (a choice: a valid index).
bool inRange(const SchemeParameter &p, double value);

} // namespace pe
