#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// JSON as RFC 8259 defines it, read strictly for the files this program opens without Qt: a
// safetensors header, a model's config.json. Refused: anything after the value, a key twice in one
// object (the safetensors reader refuses duplicate tensor names; a config's duplicates would be
// ambiguous), nesting deeper than 64, invalid UTF-8 escapes. Numbers keep their text, so an integer
// past 2^53 (a tensor offset) is read exactly.
namespace pe {

struct JsonValue {
    enum class Kind { Null, Bool, Number, String, Array, Object };
    Kind kind = Kind::Null;
    bool boolean = false;
    std::string text; // a string's value, or a number's text as written
    std::vector<JsonValue> items;
    // An object's members in the file's order, keys[k] naming values[k] (two vectors: a pair holding
    // the incomplete JsonValue is refused by clang's standard library).
    std::vector<std::string> keys;
    std::vector<JsonValue> values;

    bool isNumber() const { return kind == Kind::Number; }
    bool isString() const { return kind == Kind::String; }
    bool isObject() const { return kind == Kind::Object; }
    bool isArray() const { return kind == Kind::Array; }
    // The member named key, or null.
    const JsonValue *find(std::string_view key) const;
    // A number as a double (nullopt for another kind).
    std::optional<double> number() const;
    // A number that is a whole non-negative integer below 2^63, written without fraction or
    // exponent (nullopt otherwise).
    std::optional<std::uint64_t> unsignedInteger() const;
};

// "object", "array", "string", "number", "true or false", "null": for refusals.
std::string_view kindName(JsonValue::Kind kind);

// The value in text, or nullopt with *error a sentence fragment saying where and what is wrong
// ("at byte 17: expected ':' after a key").
std::optional<JsonValue> parseJson(std::string_view text, std::string *error);

} // namespace pe
