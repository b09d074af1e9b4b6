#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

// The strict parsing of a .npy file's header, for PositionTable (position_table.cpp).
namespace pe::detail {

// Throws std::runtime_error with "name: why".
[[noreturn]] void refuse(const std::string &name, const std::string &why);

// The header's Python literal (text, without the preamble) read into its three values; refuses
// anything but a dict with exactly the keys 'descr', 'fortran_order' and 'shape'.
void parseHeader(std::string_view text, const std::string &name, std::string &descr, bool &fortran,
                 std::vector<std::int64_t> &shape);

// What a numpy type string names, for the refusal of types that are not float16/32/64.
std::string dtypeWords(const std::string &descr);

} // namespace pe::detail
