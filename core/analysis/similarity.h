#pragma once

#include "encodings/noise.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace pe {

// How an embedding x_t is compared with the pure encoding PE(s) (seed 001 uses the dot product).
enum class Metric { Dot, Cosine, Euclidean };
inline constexpr Metric kMetrics[] = {Metric::Dot, Metric::Cosine, Metric::Euclidean};

std::optional<Metric> parseMetric(std::string_view name);
std::string_view metricName(Metric metric);
// True when larger is more similar (dot, cosine); false for a distance.
inline bool higherIsCloser(Metric m)
{
    return m != Metric::Euclidean;
}
// The metric from a dot product and the two squared norms.
double metricFromDot(Metric metric, double dot, double xNorm2, double pNorm2);

// S(k) = PE(t) . PE(t+k) = sum_i cos(w_i k): the dot product of a pure encoding depends only on
// the offset (REFERENCE.md section 2), for the pair exponent with even d, interleaved or split.
// With S, a whole similarity curve is N look-ups and the distance matrix is Toeplitz.
class OffsetKernel
{
  public:
    static bool applies(const EncodingParams &params, const NoiseParams &noise);

    // S(0) .. S(maxOffset) (offsetSums): O(maxOffset * d).
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

// The similarity curve for a plot of `buckets` columns, reduced without aliasing: with a kernel,
// the lowest and highest value over every position of each bucket (the envelope a pixel column
// shows; one look-up a position); without, one jittered position a bucket (low == high; the
// reference's bucket holds the reference), since every position would cost O(N d). `best` is the
// best of all positions computed.
struct SimilarityCurve {
    std::vector<std::int64_t> positions; // one a bucket: its first position, or the jittered one
    std::vector<double> low, high;
    std::int64_t best = 0;
    std::int64_t stride = 1; // positions a bucket
    bool envelope = false;   // low/high over every position (else one sample a bucket)
};
SimilarityCurve similarityCurve(const Encoding &encoding, const NoiseParams &noise, std::int64_t reference,
                                Metric metric, const OffsetKernel *kernel, std::int64_t buckets);

// S(first), S(first + step), ... (n of them) for any offsets, negative ones too: the kernel's sums
// without a table. O(n d / 2). Only where the kernel applies (pairFrequencies throws otherwise).
std::vector<double> offsetSums(const Encoding &encoding, std::int64_t first, std::int64_t step, std::int64_t n);

// metric(x_t, PE(s)) between every two of the block's positions (its rows, jittered or not), row-major
// rows x rows, x_t down and PE(s) across. Pure encodings read S along the sampled offsets (one curve
// of S per pair of the block's jitter offsets, so keep those few: O(jitters^2 n d)), exact; others
// take one dot product a cell.
void distanceMatrix(const Encoding &encoding, const NoiseParams &noise, Metric metric, const Block &rows, double *out);

// metric(x_t, PE(s)) for t in rows and s in cols, row-major: a sampled block of the N x N matrix.
// Exact; the kernel makes it one look-up per cell, otherwise one dot product per cell.
void scoreBlock(const Encoding &encoding, const NoiseParams &noise, Metric metric, const OffsetKernel *kernel,
                const std::vector<std::int64_t> &rows, const std::vector<std::int64_t> &cols, double *out);

} // namespace pe
