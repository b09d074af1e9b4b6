#pragma once

#include "projections/neighbors.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pe {

enum class TsneInit { Pca, Random };

// t-SNE settings; the defaults are scikit-learn 1.2's (REFERENCE.md section 4).
struct TsneSettings {
    double perplexity = 30.0;
    double learningRate = 0.0; // 0: auto, max(n / earlyExaggeration / 4, 50) as scikit-learn's "auto"
    int iterations = 1000;
    double earlyExaggeration = 12.0;
    int exaggerationIterations = 250;
    TsneInit init = TsneInit::Pca; // PCA scaled to standard deviation 1e-4, or random with that spread
    std::uint64_t seed = 42;       // of the random initialisation
    // Barnes-Hut opening angle, tested against a whole cell's bounding box (grouped Barnes-Hut):
    // stricter than the per-point test, so 0.6 here errs less than scikit-learn's per-point 0.5
    // (relative gradient error measured at 5,000 points after 400 steps: 6.0% against 8.3% for the
    // same code testing each bucket of 8 points alone).
    // The gradient is exact for n <= kExactMaxPoints.
    double theta = 0.6;

    bool operator==(const TsneSettings &) const = default;
};

namespace limits {
// Projections take at most this many positions: PCA of any vectors streams them, t-SNE and UMAP
// find their neighbours by the offsets, exactly or through the approximate index (neighbors.h).
inline constexpr std::int64_t maxProjectionPositions = 1'000'000;
inline constexpr double maxPerplexity = 1000.0;
inline constexpr int maxTsneIterations = 100'000;
inline constexpr double maxLearningRate = 1e6;
inline constexpr double maxExaggeration = 1000.0;
// The neighbours t-SNE keeps, n x 3 perplexity: 100,000 positions take every perplexity, 1,000,000
// up to 100 (the offset path's break rows grow with k^2 where far offsets are among the nearest).
inline constexpr double maxNeighborEntries = 3e8;
// Neighbours from a search (exact or approximate, not the offsets) are held as n x k lists and then
// as affinities, about 60 bytes an entry at the peak: at most this many (6 GB; 1,000,000 positions
// to perplexity 33).
inline constexpr double maxSearchedNeighborEntries = 1e8;
} // namespace limits

// KL is measured every this many steps (and at the last).
inline constexpr int kKlInterval = 50;
// Up to this many points the repulsion is exact (every pair), above it Barnes-Hut or FFT
// interpolation (tsne_fft.h), the cheaper each step.
inline constexpr std::int64_t kExactMaxPoints = 600;

// Which setting is out of range (so a caller names its own control or flag without reading the
// sentence), and one sentence naming it and what it accepts; nothing when the settings fit n points.
enum class TsneField { Positions, Perplexity, Iterations, LearningRate, Exaggeration, ExaggerationIterations, Theta };
struct TsneProblem {
    TsneField field;
    std::string message;
};
std::optional<TsneProblem> checkTsne(const TsneSettings &settings, std::int64_t n);
std::optional<std::string> validateTsne(const TsneSettings &settings, std::int64_t n); // checkTsne's sentence
// One sentence when the window cannot be projected (too many positions, or vectors whose approximate
// index would not fit limits::maxApproximateValues). `neighbours`: the method needs them (t-SNE, UMAP).
std::optional<std::string> projectionTooLarge(const EncodingParams &params, const NoiseParams &noise, bool neighbours);

// The symmetric joint probabilities p_ij (sum 1), in runs of rows alike. Rows of a pure encoding's
// window are mostly the row before them shifted by one (the offset structure: 99.7% of them at
// 100,000 positions), so each run of such rows holds its first row once, as offsets: row i of run r
// has the entries i + offset[e] with p[e], e from entryStart[r] to entryStart[r + 1] - 1, by
// increasing offset. Any other row is a run of its own. At 1,000,000 positions the rows written out
// would be 90 million entries (1.1 GB); held in runs they are 90,882 (985 runs).
struct Affinities {
    std::int64_t n = 0;
    std::vector<std::int64_t> runFirst;   // run r's rows: runFirst[r] .. runFirst[r + 1] - 1
    std::vector<std::int64_t> entryStart; // run r's entries: entryStart[r] .. entryStart[r + 1] - 1
    std::vector<std::int32_t> offset;
    std::vector<double> p;
    std::vector<std::int32_t> runOf; // each row's run
    Recall recall;                   // the neighbours' (from the approximate index or exact)

    std::int64_t runs() const { return runFirst.empty() ? 0 : static_cast<std::int64_t>(runFirst.size()) - 1; }
    // f(j, p_ij) for row i's entries, by increasing j.
    template <class F> void forEach(std::int64_t i, F &&f) const
    {
        const auto r = static_cast<std::size_t>(runOf[static_cast<std::size_t>(i)]);
        for (auto e = static_cast<std::size_t>(entryStart[r]); e < static_cast<std::size_t>(entryStart[r + 1]); ++e)
            f(static_cast<std::int32_t>(i + offset[e]), p[e]);
    }
};

// p_j|i = exp(-beta_i d_ij^2) / sum over the neighbours, beta_i by bisection so that the entropy is
// log(perplexity) (van der Maaten and Hinton 2008, section 2); then p_ij = (p_j|i + p_i|j) / 2n.
// Rows whose distance lists equal the previous row's reuse its beta. Empty (n == 0) when cancelled.
Affinities affinities(const Neighbors &neighbors, double perplexity, const std::atomic<bool> *cancel = nullptr);

// The same joint probabilities for a pure encoding with the offset structure (OffsetKernel::applies),
// from its offset order alone, without every row's neighbours: a row's list changes only where one
// of its offsets leaves the window, and its row of P only there or an offset away from there, so
// each run is computed once. Equal to affinities(offsetNeighbors(encoding, k), perplexity) entry for
// entry, bit for bit.
Affinities offsetAffinities(const Encoding &encoding, int k, double perplexity,
                            const std::atomic<bool> *cancel = nullptr);

// The optimiser: gradient descent with momentum (0.5, then 0.8 after early exaggeration) and
// per-coordinate gains (Jacobs 1988), as in van der Maaten's and scikit-learn's codes; as in
// scikit-learn's, the update and gains start afresh when early exaggeration ends.
// Repulsion exactly for small n, else each step by the cheaper of a Barnes-Hut quadtree (van der
// Maaten 2014) built on Morton-sorted points and FFT interpolation (tsne_fft.h), over every core.
// In 3-D (an n x 3 start) by Barnes-Hut over an octree (tsne_3d.cpp).
namespace detail {
class QuadTree;
class Octree;
} // namespace detail
class FftRepulsion;

class Tsne
{
  public:
    // initial: n x 2 or n x 3, row-major; the embedding keeps its dimensions.
    Tsne(Affinities p, std::vector<double> initial, const TsneSettings &settings);
    ~Tsne();
    Tsne(Tsne &&) noexcept;
    Tsne &operator=(Tsne &&) noexcept;

    std::int64_t size() const { return p_.n; }
    int dims() const { return dims_; }
    int iteration() const { return iteration_; }
    bool finished() const { return iteration_ >= settings_.iterations; }
    double learningRate() const { return learningRate_; }
    bool exact() const { return exact_; }
    const Recall &recall() const { return p_.recall; }

    // How the repulsion of the Barnes-Hut range (n > kExactMaxPoints) is computed in 2-D: each step
    // the cheaper of FFT interpolation (tsne_fft.h) and the quadtree, or always one of them (tests
    // and benchmarks compare them). 3-D has the octree alone.
    enum class Repulsion { Cheaper, BarnesHut, Fft };
    void setRepulsion(Repulsion r) { repulsion_ = r; }
    bool lastStepFft() const { return lastStepFft_; } // the last step's repulsion was by FFT

    // One gradient step; false (nothing changed) when cancelled midway.
    bool step(const std::atomic<bool> *cancel = nullptr);
    // KL(P || Q) (with the true, not exaggerated, P): what the optimiser minimises. Measured at
    // the start of every kKlInterval-th step and of the last; exact for small n, with the Barnes-Hut
    // or FFT estimate of Z otherwise.
    double kl() const { return kl_; }
    const std::vector<double> &embedding() const { return y_; }

  private:
    double gradient(const std::atomic<bool> *cancel);
    double gradient3d(const std::atomic<bool> *cancel, double exaggeration, bool withKl);
    // grad_ from the attraction in it, rep_, zPart_ and klPart_; the KL (or the last one).
    double combineGradient(bool withKl);

    Affinities p_;
    TsneSettings settings_;
    std::vector<double> y_, update_, gains_, grad_;
    // Single-precision copies for the vectorised force loops: forces need no more.
    std::vector<float> yFloat_, pFloat_;
    std::vector<double> zPart_, klPart_, rep_; // the gradient's per-point sums
    std::unique_ptr<detail::QuadTree> tree_;   // Barnes-Hut's, rebuilt in place each step
    std::unique_ptr<FftRepulsion> fft_;        // its transforms, kept while the grid's size stays
    std::unique_ptr<detail::Octree> octree_;   // 3-D's Barnes-Hut tree
    Repulsion repulsion_ = Repulsion::Cheaper;
    bool lastStepFft_ = false;
    double learningRate_ = 0;
    double entropyTerm_ = 0; // sum p log p
    double kl_ = 0;
    int iteration_ = 0;
    int dims_ = 2;
    bool exact_ = false;
};

// Where the optimisation starts, n x dims (2 or 3): PCA of the rows (at most kInitRows evenly spaced
// rows fit the axes, enough for a start; every row is projected) or a seeded Gaussian, scaled to
// standard deviation 1e-4 on the first axis.
inline constexpr std::int64_t kInitRows = 5'000;
std::vector<double> initialEmbedding(const Rows &rows, const TsneSettings &settings,
                                     const std::atomic<bool> *cancel = nullptr, int dims = 2);

// The neighbours each point's affinities p_j|i are spread over: scikit-learn's
// min(n - 1, int(3 * perplexity + 1)) (sklearn/manifold/_t_sne.py, _fit: n_neighbors), at every n.
// The gradient is still exact up to kExactMaxPoints; only theta 0 (the exact method of van der
// Maaten and Hinton 2008) spreads them over every pair. Every pair at small n had cost quality:
// seed 004's 128 x 8 at perplexity 10, base 100, reached trustworthiness(10) 0.883 where
// scikit-learn reaches 0.946 (tests/bench/tsne_quality.py; the benchmark prints today's figures).
int tsneNeighborCount(std::int64_t n, const TsneSettings &settings);

// The whole pipeline on the window, in `dims` (2 or 3) dimensions: neighbours (by offsets when they
// apply), affinities, the initialisation, then the iterations. prepareTsne computes the start first and hands it to
// onStart (a first frame to show), then the neighbours and affinities; it returns the optimiser, or nothing when
// cancelled. runTsne's onStep runs at iteration 0 and after every step; returning false stops.
std::optional<Tsne> prepareTsne(const Encoding &encoding, const NoiseParams &noise, const TsneSettings &settings,
                                int dims, const std::atomic<bool> *cancel = nullptr,
                                const std::function<void(const std::vector<double> &)> &onStart = {});
bool runTsne(Tsne &tsne, const std::function<bool(const Tsne &)> &onStep, const std::atomic<bool> *cancel = nullptr);

} // namespace pe
