#pragma once

#include "noise.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace pe {

// How an embedding x_t is compared with the pure encoding PE(s) (seed 001 uses the dot product).
enum class Metric { Dot, Cosine, Euclidean };

std::optional<Metric> parseMetric(std::string_view name);
std::string_view metricName(Metric metric);
// True when larger is more similar (dot, cosine); false for a distance.
inline bool higherIsCloser(Metric m) { return m != Metric::Euclidean; }
// The metric from a dot product and the two squared norms.
double metricFromDot(Metric metric, double dot, double xNorm2, double pNorm2);

// S(k) = PE(t) . PE(t+k) = sum_i cos(w_i k): the dot product of a pure encoding depends only on
// the offset (REFERENCE.md section 2), for the pair exponent with even d, interleaved or split.
// With S, a whole similarity curve is N look-ups and the distance matrix is Toeplitz.
class OffsetKernel
{
public:
    static bool applies(const EncodingParams &params, const NoiseParams &noise);

    // S(0) .. S(maxOffset), computed with the fast fill: O(maxOffset * d).
    OffsetKernel(const Encoding &encoding, std::int64_t maxOffset);
    double operator()(std::int64_t k) const { return s_[static_cast<std::size_t>(k < 0 ? -k : k)]; }
    std::int64_t maxOffset() const { return static_cast<std::int64_t>(s_.size()) - 1; }

private:
    std::vector<double> s_;
};

// metric(x_t, PE(reference)) for the window positions t = start_pos + k * stride (every one by
// default). With a kernel (pure encodings) one look-up each; otherwise exact, a block of rows at a
// time through the fast fill: O(N d / stride).
std::vector<double> similarityToReference(const Encoding &encoding, const NoiseParams &noise, std::int64_t reference,
                                          Metric metric, const OffsetKernel *kernel, std::int64_t stride = 1);

// metric(x_t, PE(s)) for t in rows and s in cols, row-major: a sampled block of the N x N matrix.
// Exact; the kernel makes it one look-up per cell, otherwise one dot product per cell.
void scoreBlock(const Encoding &encoding, const NoiseParams &noise, Metric metric, const OffsetKernel *kernel,
                const std::vector<std::int64_t> &rows, const std::vector<std::int64_t> &cols, double *out);

} // namespace pe
