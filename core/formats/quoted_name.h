#pragma once

#include <string>
#include <string_view>

namespace pe {

// A name read from a file (a tensor's, a metadata key's, a dtype's), in double quotes for one line of
// text: control characters escaped (\n, \t, \x00), and past 200 bytes cut with "…". A checkpoint's
// names are any bytes; a refusal is one line whatever they hold.
std::string quotedName(std::string_view name);
// The same escapes, without the quotes or the cut: a name as --list-tensors prints it (a plain name
// unchanged).
std::string escapedName(std::string_view name);

} // namespace pe
