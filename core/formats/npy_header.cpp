#include "formats/npy_header.h"

#include <limits>
#include <stdexcept>

namespace pe::detail {

namespace {

// A strict reader of the header's Python literal: {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
class HeaderParser
{
  public:
    HeaderParser(std::string_view text, const std::string &name)
        : s_(text)
        , name_(name)
    {
    }

    void parse(std::string &descr, bool &fortran, std::vector<std::int64_t> &shape)
    {
        bool haveDescr = false, haveOrder = false, haveShape = false;
        skip();
        expect('{');
        skip();
        while (peek() != '}') {
            const std::string key = string();
            skip();
            expect(':');
            skip();
            bool *seen = nullptr;
            if (key == "descr") {
                seen = &haveDescr;
                if (peek() == '[')
                    fail("'descr' is a list: a structured (record) dtype; a position table must be one float type");
                descr = string();
            } else if (key == "fortran_order") {
                seen = &haveOrder;
                fortran = boolean();
            } else if (key == "shape") {
                seen = &haveShape;
                shape = tuple();
            } else {
                fail("unexpected key '" + key + "' (a .npy header has exactly 'descr', 'fortran_order' and 'shape')");
            }
            if (*seen)
                fail("key '" + key + "' appears twice");
            *seen = true;
            skip();
            if (peek() == ',') {
                ++i_;
                skip();
            } else if (peek() != '}') {
                fail("expected ',' or '}' after the value of '" + key + "'");
            }
        }
        ++i_;
        while (i_ < s_.size() &&
               (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r' || s_[i_] == '\0'))
            ++i_;
        if (i_ != s_.size())
            fail("text after the header's closing '}'");
        if (!haveDescr || !haveOrder || !haveShape)
            fail(std::string("the header lacks '") +
                 (!haveDescr   ? "descr"
                  : !haveOrder ? "fortran_order"
                               : "shape") +
                 "'");
    }

  private:
    [[noreturn]] void fail(const std::string &why) const { refuse(name_, "bad .npy header: " + why + "."); }
    char peek() const
    {
        if (i_ >= s_.size())
            fail("it ends early");
        return s_[i_];
    }
    void skip()
    {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
            ++i_;
    }
    void expect(char c)
    {
        if (peek() != c)
            fail(std::string("expected '") + c + "'");
        ++i_;
    }
    std::string string()
    {
        const char quote = peek();
        if (quote != '\'' && quote != '"')
            fail("expected a quoted string");
        ++i_;
        std::string out;
        while (peek() != quote) {
            const char c = s_[i_++];
            if (c == '\\' || static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
                fail("unexpected character in a string");
            if (out.size() >= 64)
                fail("a string longer than 64 characters");
            out += c;
        }
        ++i_;
        return out;
    }
    bool boolean()
    {
        if (s_.substr(i_, 4) == "True") {
            i_ += 4;
            return true;
        }
        if (s_.substr(i_, 5) == "False") {
            i_ += 5;
            return false;
        }
        fail("'fortran_order' must be True or False");
    }
    std::vector<std::int64_t> tuple()
    {
        expect('(');
        skip();
        std::vector<std::int64_t> out;
        while (peek() != ')') {
            if (peek() < '0' || peek() > '9')
                fail("'shape' must be a tuple of whole numbers");
            std::int64_t v = 0;
            while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
                if (v > (std::numeric_limits<std::int64_t>::max() - 9) / 10)
                    fail("a dimension in 'shape' is too large");
                v = v * 10 + (s_[i_++] - '0');
            }
            if (i_ < s_.size() && s_[i_] == 'L') // Python 2's long, as old numpy wrote it
                ++i_;
            if (out.size() >= 32)
                fail("'shape' has more than 32 dimensions");
            out.push_back(v);
            skip();
            if (peek() == ',') {
                ++i_;
                skip();
            } else if (peek() != ')') {
                fail("expected ',' or ')' in 'shape'");
            }
        }
        ++i_;
        return out;
    }

    std::string_view s_;
    const std::string &name_;
    std::size_t i_ = 0;
};

} // namespace

[[noreturn]] void refuse(const std::string &name, const std::string &why)
{
    throw std::runtime_error(name + ": " + why);
}

void parseHeader(std::string_view text, const std::string &name, std::string &descr, bool &fortran,
                 std::vector<std::int64_t> &shape)
{
    HeaderParser(text, name).parse(descr, fortran, shape);
}

std::string dtypeWords(const std::string &descr)
{
    if (descr.size() < 2)
        return "'" + descr + "'";
    const char kind = descr[1];
    const std::string size = descr.substr(2);
    const auto bits = [&size] {
        int n = 0;
        for (char c : size)
            n = c >= '0' && c <= '9' && n < 100000 ? n * 10 + (c - '0') : n;
        return std::to_string(8 * n);
    };
    switch (kind) {
    case 'O':
        return "Python objects ('" + descr + "')";
    case 'c':
        return "complex" + bits() + " ('" + descr + "')";
    case 'U':
        return "unicode strings ('" + descr + "')";
    case 'S':
    case 'a':
        return "byte strings ('" + descr + "')";
    case 'i':
        return "int" + bits() + " ('" + descr + "')";
    case 'u':
        return "uint" + bits() + " ('" + descr + "')";
    case 'b':
        return "booleans ('" + descr + "')";
    case 'f':
        return "float" + bits() + " ('" + descr + "')";
    case 'V':
        return "raw bytes ('" + descr + "')";
    case 'M':
    case 'm':
        return "dates or times ('" + descr + "')";
    default:
        return "'" + descr + "'";
    }
}

} // namespace pe::detail
