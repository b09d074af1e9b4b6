#pragma once

#include <cstdint>

namespace testsupport {

// sin or cos of position * w with the product split so every partial product is exact in long
// double: about 1e-19 accurate even at position 1e9, where a plain long-double product is only
// good to 5e-11.
long double referenceValue(std::int64_t position, double w, bool sine);

} // namespace testsupport
