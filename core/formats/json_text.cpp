#include "formats/json_text.h"

#include "formats/quoted_name.h"

#include <cerrno>
#include <cstdlib>
#include <limits>
#include <unordered_set>

namespace pe {

const JsonValue *JsonValue::find(std::string_view key) const
{
    for (std::size_t k = 0; k < keys.size(); ++k)
        if (keys[k] == key)
            return &values[k];
    return nullptr;
}

std::optional<double> JsonValue::number() const
{
    if (kind != Kind::Number)
        return std::nullopt;
    return std::strtod(text.c_str(), nullptr);
}

std::optional<std::uint64_t> JsonValue::unsignedInteger() const
{
    if (kind != Kind::Number || text.empty() || text.size() > 19 || text[0] == '-')
        return std::nullopt;
    std::uint64_t v = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return std::nullopt;
    return v;
}

std::string_view kindName(JsonValue::Kind kind)
{
    switch (kind) {
    case JsonValue::Kind::Null:
        return "null";
    case JsonValue::Kind::Bool:
        return "true or false";
    case JsonValue::Kind::Number:
        return "a number";
    case JsonValue::Kind::String:
        return "a string";
    case JsonValue::Kind::Array:
        return "a list";
    case JsonValue::Kind::Object:
        return "an object";
    }
    return "";
}

namespace {

struct Failure {
    std::size_t at;
    std::string why;
};

class Parser
{
  public:
    explicit Parser(std::string_view s)
        : s_(s)
    {
    }

    JsonValue document()
    {
        space();
        JsonValue v = value(0);
        space();
        if (i_ != s_.size())
            fail("unexpected text after the value");
        return v;
    }

  private:
    [[noreturn]] void fail(const std::string &why) const { throw Failure{i_, why}; }
    char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
    void space()
    {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
            ++i_;
    }
    void literal(std::string_view word)
    {
        if (s_.substr(i_, word.size()) != word)
            fail("expected a value");
        i_ += word.size();
    }

    JsonValue value(int depth)
    {
        if (depth > 64)
            fail("nested deeper than 64 levels");
        JsonValue v;
        const char c = peek();
        if (c == '{') {
            v.kind = JsonValue::Kind::Object;
            ++i_;
            space();
            if (peek() == '}') {
                ++i_;
                return v;
            }
            // The keys seen, hashed: a linear search per key made a config of 900,000 keys take minutes.
            std::unordered_set<std::string> seen;
            for (;;) {
                space();
                if (peek() != '"')
                    fail("expected a key in double quotes");
                std::string key = string();
                if (!seen.insert(key).second)
                    fail("the key " + quotedName(key) + " appears twice in one object");
                space();
                if (peek() != ':')
                    fail("expected ':' after a key");
                ++i_;
                space();
                JsonValue member = value(depth + 1);
                v.keys.push_back(std::move(key));
                v.values.push_back(std::move(member));
                space();
                if (peek() == ',') {
                    ++i_;
                    continue;
                }
                if (peek() == '}') {
                    ++i_;
                    return v;
                }
                fail("expected ',' or '}' in an object");
            }
        }
        if (c == '[') {
            v.kind = JsonValue::Kind::Array;
            ++i_;
            space();
            if (peek() == ']') {
                ++i_;
                return v;
            }
            for (;;) {
                space();
                v.items.push_back(value(depth + 1));
                space();
                if (peek() == ',') {
                    ++i_;
                    continue;
                }
                if (peek() == ']') {
                    ++i_;
                    return v;
                }
                fail("expected ',' or ']' in a list");
            }
        }
        if (c == '"') {
            v.kind = JsonValue::Kind::String;
            v.text = string();
            return v;
        }
        if (c == 't' || c == 'f') {
            v.kind = JsonValue::Kind::Bool;
            v.boolean = c == 't';
            literal(c == 't' ? "true" : "false");
            return v;
        }
        if (c == 'n') {
            literal("null");
            return v;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            v.kind = JsonValue::Kind::Number;
            v.text = number();
            return v;
        }
        fail(i_ == s_.size() ? "the text ends where a value was expected" : "expected a value");
    }

    std::string number()
    {
        const std::size_t start = i_;
        auto digits = [&] {
            const std::size_t from = i_;
            while (peek() >= '0' && peek() <= '9')
                ++i_;
            if (i_ == from)
                fail("a number needs a digit here");
        };
        if (peek() == '-')
            ++i_;
        if (peek() == '0')
            ++i_;
        else
            digits();
        if (peek() == '.') {
            ++i_;
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            ++i_;
            if (peek() == '+' || peek() == '-')
                ++i_;
            digits();
        }
        std::string t(s_.substr(start, i_ - start));
        errno = 0;
        const double d = std::strtod(t.c_str(), nullptr);
        if (errno == ERANGE && (d > 1 || d < -1))
            fail("the number " + t + " is beyond the range of a double");
        return t;
    }

    unsigned hex4()
    {
        unsigned u = 0;
        for (int k = 0; k < 4; ++k) {
            const char h = peek();
            u <<= 4;
            if (h >= '0' && h <= '9')
                u |= static_cast<unsigned>(h - '0');
            else if (h >= 'a' && h <= 'f')
                u |= static_cast<unsigned>(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F')
                u |= static_cast<unsigned>(h - 'A' + 10);
            else
                fail("\\u needs four hexadecimal digits");
            ++i_;
        }
        return u;
    }

    static void appendUtf8(std::string &out, unsigned cp)
    {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xc0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3f));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xe0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
            out += static_cast<char>(0x80 | (cp & 0x3f));
        } else {
            out += static_cast<char>(0xf0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
            out += static_cast<char>(0x80 | (cp & 0x3f));
        }
    }

    std::string string()
    {
        ++i_; // the opening quote
        std::string out;
        for (;;) {
            if (i_ >= s_.size())
                fail("a string is not closed");
            const auto c = static_cast<unsigned char>(s_[i_]);
            if (c == '"') {
                ++i_;
                return out;
            }
            if (c < 0x20)
                fail("a control character inside a string");
            if (c != '\\') {
                out += static_cast<char>(c);
                ++i_;
                continue;
            }
            ++i_;
            const char e = peek();
            ++i_;
            switch (e) {
            case '"':
            case '\\':
            case '/':
                out += e;
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                unsigned cp = hex4();
                if (cp >= 0xd800 && cp < 0xdc00) {
                    if (peek() != '\\' || i_ + 1 >= s_.size() || s_[i_ + 1] != 'u')
                        fail("a \\u escape opens a surrogate pair it does not close");
                    i_ += 2;
                    const unsigned low = hex4();
                    if (low < 0xdc00 || low >= 0xe000)
                        fail("a \\u escape opens a surrogate pair it does not close");
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
                } else if (cp >= 0xdc00 && cp < 0xe000) {
                    fail("a \\u escape is a lone low surrogate");
                }
                appendUtf8(out, cp);
                break;
            }
            default:
                fail("an unknown escape in a string");
            }
        }
    }

    std::string_view s_;
    std::size_t i_ = 0;
};

} // namespace

std::optional<JsonValue> parseJson(std::string_view text, std::string *error)
{
    try {
        return Parser(text).document();
    } catch (const Failure &f) {
        if (error)
            *error = "at byte " + std::to_string(f.at) + ": " + f.why;
        return std::nullopt;
    }
}

} // namespace pe
