#pragma once

#include "encodings/noise.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

namespace pe {

// The vectors a projection works on: n rows of d values, produced a block at a time: rows
// first, first + step, ... (count of them), row-major.
struct Rows {
    std::int64_t n = 0;
    int d = 0;
    std::function<void(std::int64_t first, std::int64_t count, std::int64_t step, double *out)> fill;
    // Set when the rows are this encoding's own vectors (no noise): sums over them then have closed
    // forms (encoding_covariance.h).
    const Encoding *pure = nullptr;
    // The rows as filled are the vectors times this power of two (a table's unitScale, exact), so a
    // table of tiny values keeps its squared distances in range (1e-300 squared underflows to 0).
    // Neighbours, affinities and trustworthiness do not change with a common scale; PCA's
    // coordinates divide by it.
    double scale = 1.0;

    std::vector<double> all() const; // n x d in memory
};

// The window's vectors: the pure encoding, or x = PE + sigma z when the noise is on.
Rows embeddingRows(const Encoding &encoding, const NoiseParams &noise);

// The k nearest other rows of every row, nearest first: index[i * k + j] and its squared distance.
struct Neighbors {
    std::int64_t n = 0;
    int k = 0;
    std::vector<std::int32_t> index;
    std::vector<double> dist2;
};

// Pure pair-exponent encodings with even d (OffsetKernel::applies): |PE(t) - PE(s)|^2 =
// 2 (S(0) - S(t - s)) depends on the offset alone, so one sorted list of offsets gives every
// row's neighbours, with no search at all.
struct OffsetOrder {
    std::int64_t n = 0;
    std::vector<double> dist2;         // by offset, 0 .. n - 1
    std::vector<std::int64_t> offsets; // 1 .. n - 1, nearest first (ties by offset)

    // Row i's k nearest, nearest first: for each offset in order, i - offset then i + offset, where
    // inside the window. Rows at least the first ceil(k / 2) offsets' largest from both ends get
    // the same list, shifted.
    void row(std::int64_t i, int k, std::int32_t *index, double *dist2Out) const;
};
// Empty (n == 0) when cancelled.
OffsetOrder offsetOrder(const Encoding &encoding, const std::atomic<bool> *cancel = nullptr);

// Every row's list from the order, in O(n k + n log n). Empty (n == 0) when cancelled.
Neighbors offsetNeighbors(const Encoding &encoding, int k, const std::atomic<bool> *cancel = nullptr);

// Any rows: exact, by blocked dot products through Eigen on every core; O(n^2 d).
// Returns an empty result (n == 0) when cancelled.
Neighbors exactNeighbors(const Rows &rows, int k, const std::atomic<bool> *cancel = nullptr);

// The neighbours of the window's vectors the fastest exact way: by offsets when they apply.
Neighbors windowNeighbors(const Encoding &encoding, const NoiseParams &noise, int k,
                          const std::atomic<bool> *cancel = nullptr);

// Trustworthiness T(k) of an embedding (Venna and Kaski 2001; sklearn.manifold.trustworthiness):
// 1 - 2 / (n k (2n - 3k - 1)) * sum over rows of sum over the embedding's k nearest that are not
// among the input's k nearest of (input rank - k). 1 when every neighbourhood is kept.
// embedding is n x dims, row-major. O(n^2 d): for tests and benchmarks.
double trustworthiness(const Rows &input, const std::vector<double> &embedding, int dims, int k);

} // namespace pe
