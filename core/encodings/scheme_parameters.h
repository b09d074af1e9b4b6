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
    // Switch: true or false (get gives 1 or 0; the command line's flag turns the default off,
    // --no-truncate). List: numbers, one per rotated pair (getList, setList; "1,1.02,..." on the
    // command line, an array in sessions), each within [minimum, maximum].
    enum class Kind { Choice, Integer, Real, Switch, List };
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
    std::vector<double> (*getList)(const EncodingParams &) = nullptr; // List
    void (*setList)(EncodingParams &, std::vector<double>) = nullptr;

    // "original-context"; a switch whose default is on: "no-truncate".
    std::string flag() const;
};

const std::vector<SchemeParameter> &schemeParameters();
// The entry of a field that has one (Field::Scaling ... Field::MaxDistance); nullptr for the others.
const SchemeParameter *schemeParameter(Field f);

// What the parameter accepts: "none, linear, ntk, ...", "a whole number from 1 to 1,024", "a number
// above 0 and at most 1e6": allowedText() of its field.
std::string parameterAllowedText(const SchemeParameter &p);
// A value as sessions and the command line write it: the choice's name, or the number.
std::string parameterText(const SchemeParameter &p, double value);
// The value of a text (a name, or a number in range), or nothing with one sentence in *error.
std::optional<double> parseParameter(const SchemeParameter &p, std::string_view text, std::string *error);
// Whether a value is in the parameter's range (a choice: a valid index; a switch: 0 or 1; a list:
// each of its numbers).
bool inRange(const SchemeParameter &p, double value);

// A list parameter: the longest list, its text ("1,1.02,2.5"), and the list of a text, or nothing
// with one sentence in *error (empty, too long, a number out of range).
inline constexpr std::size_t kMaxListValues = 2048;
std::string listText(const std::vector<double> &values);
std::optional<std::vector<double>> parseList(const SchemeParameter &p, std::string_view text, std::string *error);
// Why a list parameter's values are refused (one sentence naming the key), or nothing.
std::optional<std::string> listProblem(const SchemeParameter &p, const std::vector<double> &values);

} // namespace pe
