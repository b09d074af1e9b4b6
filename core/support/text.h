#pragma once

#include <cstdint>
#include <string>

namespace pe {

// 1234567 -> "1,234,567": the numbers in every sentence the program says.
std::string withThousands(std::int64_t v);

} // namespace pe
