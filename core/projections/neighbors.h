#pragma once

#include "encodings/noise.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
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

// How many of the exact k nearest a neighbour list holds: for lists from the approximate index,
// recall@k measured on `sample` rows spread evenly over the window; exact lists are 1 on 0 rows.
struct Recall {
    double value = 1.0;
    std::int64_t sample = 0;
    int k = 0;
    bool approximate() const { return sample > 0; }
};
// What the window's title and a data export's note say of approximate lists: "approximate
// neighbours (HNSW): recall@90 0.981 on 1,000 rows"; empty for exact ones.
std::string recallNote(const Recall &recall);

// The k nearest other rows of every row, nearest first: index[i * k + j] and its squared distance.
struct Neighbors {
    std::int64_t n = 0;
    int k = 0;
    std::vector<std::int32_t> index;
    std::vector<double> dist2;
    Recall recall;

    static Neighbors sized(std::int64_t n, int k); // n rows of k places, to be filled
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

// The approximate index's settings (hnswlib's M, ef_construction and random_seed, and the search's
// ef): 16 links a point, a candidate list of 100 while building (hnswlib's default 200 doubles the
// build for recall@14 0.994 -> 1.000 on noisy 100,000 x 128, decisions.md), a search
// max(2 (k + 1), 100) wide.
inline constexpr int kHnswLinks = 16;
inline constexpr int kHnswBuildBreadth = 100;
inline constexpr int kHnswSearchBreadth = 100;
inline constexpr int kHnswSeed = 100;

// Any rows, approximately: a hierarchical navigable small-world graph (Malkov and Yashunin 2020,
// through Debian's hnswlib), built on one thread (so the same rows give the same lists run after
// run, on any number of threads) and searched on every core; the rows held by the index alone, in
// single precision, and the distances of the lists found computed again in double from them.
// Recall is measured against an exact search of recallSampleSize rows. Empty (n == 0) when
// cancelled.
Neighbors approximateNeighbors(const Rows &rows, int k, const std::atomic<bool> *cancel = nullptr);
// The rows recall is measured on: about 2e10 multiply-adds' worth, from 100 to 1,000 (n at most).
std::int64_t recallSampleSize(std::int64_t n, int d);
// The share of the exact k nearest that nb lists, over `sample` rows spread evenly (row s n /
// sample), by an exact search of the rows in single precision, as the index holds them; a listed
// row as near as the k-th exact one counts. What approximateNeighbors reports; NaN when cancelled.
double measureRecall(const Rows &rows, const Neighbors &nb, std::int64_t sample,
                     const std::atomic<bool> *cancel = nullptr);

namespace limits {
// The exact search takes n^2 d multiply-adds at most this (about 10 s on one core); above it, the
// approximate index.
inline constexpr double maxExactNeighborWork = 1.1e11;
// The approximate index holds n x d single-precision values, at most this many (1.6 GB):
// 1,000,000 rows of d_model 400.
inline constexpr double maxApproximateValues = 4e8;
} // namespace limits

// How the window's neighbours are found: by offsets when they apply (OffsetKernel::applies), else
// exactly when n^2 d is within limits::maxExactNeighborWork, else through the approximate index.
enum class NeighborSearch { Offsets, Exact, Approximate };
NeighborSearch neighborSearch(const EncodingParams &params, const NoiseParams &noise);

// The neighbours of the window's vectors, found as neighborSearch says.
Neighbors windowNeighbors(const Encoding &encoding, const NoiseParams &noise, int k,
                          const std::atomic<bool> *cancel = nullptr);

// Trustworthiness T(k) of an embedding (Venna and Kaski 2001; sklearn.manifold.trustworthiness):
// 1 - 2 / (n k (2n - 3k - 1)) * sum over rows of sum over the embedding's k nearest that are not
// among the input's k nearest of (input rank - k). 1 when every neighbourhood is kept.
// embedding is n x dims, row-major. O(n^2 d): for tests and benchmarks.
double trustworthiness(const Rows &input, const std::vector<double> &embedding, int dims, int k);

} // namespace pe
