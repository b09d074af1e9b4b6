#pragma once

#include "projections/neighbors.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pe {

// UMAP (McInnes, Healy and Melville 2018, "UMAP: Uniform Manifold Approximation and Projection for
// Dimension Reduction", arXiv:1802.03426), written from the paper, section 3 and appendix C; the
// defaults and the small conventions the paper leaves open (the bisection's target, sigma's floor,
// the edges dropped before the epochs, the a and b fit) are umap-learn 0.5's, whose results ours are
// compared with (tests/bench). No code is copied.
struct UmapSettings {
    int neighbors = 15;      // k, the point itself counted, as umap-learn's n_neighbors
    double minDist = 0.1;    // the embedding's closest spacing
    double spread = 1.0;     // the scale of the embedded points
    int epochs = 0;          // 0: auto, 500 up to 10,000 points and 200 above, as umap-learn
    std::uint64_t seed = 42; // of the negative samples and the start's jitter
    int negativeRate = 5;    // negative samples per positive one
    double learningRate = 1.0;
    bool operator==(const UmapSettings &) const = default;
};

namespace limits {
inline constexpr int maxUmapNeighbors = 200;
inline constexpr int maxUmapEpochs = 10'000;
inline constexpr double maxUmapSpread = 100.0;
// Neighbour entries, n x (k - 1): 1,000,000 positions take up to 51 neighbours.
inline constexpr double maxUmapNeighborEntries = 5e7;
} // namespace limits

// One sentence naming the setting out of range (or too few points), nothing when they fit n points.
std::optional<std::string> validateUmap(const UmapSettings &settings, std::int64_t n);
int umapEpochs(const UmapSettings &settings, std::int64_t n);

// a and b of the embedding's kernel 1 / (1 + a d^(2b)), fitted by least squares (Levenberg-Marquardt)
// to 1 for d < minDist and exp(-(d - minDist) / spread) beyond, on 300 points of [0, 3 spread].
std::pair<double, double> umapCurve(double minDist, double spread);

// The fuzzy simplicial set (paper, section 3.1 and algorithm 2): each row's distance to its nearest
// other row (rho) and the bandwidth sigma with sum over its k - 1 neighbours of
// exp(-(d - rho) / sigma) = log2 k; memberships exp(-(d - rho) / sigma); then the fuzzy union
// A + A^T - A o A^T, symmetric, as rows of (column, weight) in increasing column order.
struct UmapGraph {
    std::int64_t n = 0;
    std::vector<std::int64_t> rowStart; // n + 1
    std::vector<std::int32_t> column;
    std::vector<double> weight;
    std::vector<double> sigma, rho; // each row's, from the smooth kNN distances
    Recall recall;                  // the neighbours' (from the approximate index or exact)
};
// neighbours: each row's k - 1 nearest others (Neighbors' squared distances). Empty when cancelled.
UmapGraph umapGraph(const Neighbors &neighbors, const std::atomic<bool> *cancel = nullptr);

// The layout: spectral start (the graph Laplacian's smallest non-trivial eigenvectors, one for each
// of the embedding's 2 or 3 dimensions, scaled to [0, 10]), then epochs of stochastic gradient descent on the fuzzy
// cross-entropy with negative sampling (paper, section 3.2 and appendix C).
//
// Deterministic for a seed on any number of threads: each epoch moves every point by the forces of
// the edges sampled that epoch, computed from the positions at the epoch's start (umap-learn moves
// points as it goes, its threads racing); each point gathers its own edges (the graph is symmetric,
// so an edge's pull on both its ends is found from either), and the negative samples are drawn from
// a counter-based generator of (seed, epoch, edge, sample).
class Umap
{
  public:
    // initial: n x dims (2 or 3), row-major; the embedding keeps its dimensions.
    Umap(UmapGraph graph, std::vector<double> initial, const UmapSettings &settings);

    std::int64_t size() const { return graph_.n; }
    int dims() const { return dims_; }
    int epoch() const { return epoch_; }
    int epochs() const { return epochs_; }
    bool finished() const { return epoch_ >= epochs_; }
    double a() const { return a_; }
    double b() const { return b_; }
    // One epoch, whole; false (nothing changed) when cancelled before it.
    bool step(const std::atomic<bool> *cancel = nullptr);
    const std::vector<double> &embedding() const { return y_; }
    const UmapGraph &graph() const { return graph_; }

  private:
    template <int Dims> void epoch(double alpha);

    UmapGraph graph_;
    UmapSettings settings_;
    std::vector<double> y_, next_;
    std::vector<double> epochsPerSample_, nextSample_, nextNegative_;
    double a_ = 0, b_ = 0;
    int epochs_ = 0;
    int epoch_ = 0;
    int dims_ = 2;
};

// The start: the graph's spectral embedding in `dims` dimensions (2 or 3; n x dims, row-major)
// scaled to [0, 10] with a seeded jitter of 1e-4, or, when it has fewer than dims + 1 points or
// cannot be found, a seeded uniform start in [-10, 10]. A graph in pieces has each piece laid out
// alone about a centre of its own, apart from the others (umap-learn's multi_component_layout): more
// than 2 x dims pieces are placed by their centroids in `rows` (the graph's own rows, n of them),
// evenly round a circle without them. Empty when cancelled.
std::vector<double> umapSpectralStart(const UmapGraph &graph, std::uint64_t seed,
                                      const std::atomic<bool> *cancel = nullptr, const Rows *rows = nullptr,
                                      int dims = 2);

// Neighbours (the offsets for a pure encoding with the offset structure, else an exact search),
// graph (less the edges the epochs would never sample, as umap-learn drops them) and start in `dims`
// dimensions (2 or 3); `onStart` sees the start as soon as there is one. Nothing when cancelled.
std::optional<Umap> prepareUmap(const Encoding &encoding, const NoiseParams &noise, const UmapSettings &settings,
                                int dims, const std::atomic<bool> *cancel = nullptr,
                                const std::function<void(const std::vector<double> &)> &onStart = {});
// Every epoch left, calling back after each (false stops); false when cancelled.
bool runUmap(Umap &umap, const std::function<bool(const Umap &)> &afterEpoch = {},
             const std::atomic<bool> *cancel = nullptr);

} // namespace pe
