#pragma once

#include "encodings/encoding.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace pe {

// The mean and covariance of the encoding's columns over positions t = first + r * step,
// r = 0 .. count - 1, in closed form: every column of the sinusoids and of RoPE is a sin(w t) or
// a cos(w t), so every sum over positions of a column or of a product of two columns is a
// Dirichlet kernel, sum_r e^{i theta t_r} = e^{i theta (first + step (count - 1) / 2)}
// sin(count theta step / 2) / sin(theta step / 2), at theta = w_a -+ w_b (product-to-sum). The cost is
// O(d^2) whatever the count, against O(count d^2) for the sums themselves.
struct ColumnCovariance {
    int d = 0;
    std::vector<double> mean;       // d
    std::vector<double> covariance; // d x d, symmetric, divisor count - 1
    bool cancelled = false;
};

// The sinusoids and RoPE without noise: the columns are sinusoids of position. Not a position
// table, not ALiBi (no vectors).
bool hasClosedFormCovariance(const Encoding &encoding);

// encoding must have a closed form (above); count >= 2. The result matches the sums over the
// filled rows to rounding: the angles w_a -+ w_b are carried in double-double, so positions up to
// 1e9 keep about 1e-15 relative to the sums.
ColumnCovariance columnCovariance(const Encoding &encoding, std::int64_t first, std::int64_t count, std::int64_t step,
                                  const std::atomic<bool> *cancel = nullptr);

} // namespace pe
