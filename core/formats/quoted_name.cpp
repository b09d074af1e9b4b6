#include "formats/quoted_name.h"

#include <cstdio>

namespace pe {

std::string quotedName(std::string_view name)
{
    constexpr std::size_t kLongest = 200;
    return "\"" + escapedName(name.substr(0, kLongest)) + (name.size() > kLongest ? "…\"" : "\"");
}

std::string escapedName(std::string_view name)
{
    std::string out;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const auto c = static_cast<unsigned char>(name[i]);
        if (c == '\n')
            out += "\\n";
        else if (c == '\t')
            out += "\\t";
        else if (c == '\r')
            out += "\\r";
        else if (c < 0x20 || c == 0x7f) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            out += hex;
        } else
            out += static_cast<char>(c);
    }
    return out;
}

} // namespace pe
