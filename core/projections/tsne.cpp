#include "projections/tsne.h"

#include "analysis/similarity.h"
#include "projections/pca.h"
#include "projections/tsne_fft.h"
#include "projections/tsne_forces.h"
#include "projections/tsne_octree.h"
#include "support/parallel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace pe {

namespace {

// 16 bits of x spread to the even bits of a 32-bit word.
std::uint32_t spreadBits(std::uint32_t x)
{
    x &= 0xffff;
    x = (x | (x << 8)) & 0x00ff00ff;
    x = (x | (x << 4)) & 0x0f0f0f0f;
    x = (x | (x << 2)) & 0x33333333;
    x = (x | (x << 1)) & 0x55555555;
    return x;
}

} // namespace

namespace detail {

// A quadtree over Morton-sorted points: every node is a contiguous range of the sorted order, so a
// node's centre of mass comes from prefix sums and its children from the next two key bits.
class QuadTree
{
  public:
    // Leaves hold up to this many points: near them the points interact one by one anyway.
    static constexpr std::int64_t kBucket = 8;

    struct Node {
        double cx, cy;
        double width2;      // the cell's side, squared
        std::int32_t begin; // first point in Morton order
        std::int32_t count;
        std::int32_t firstChild; // -1 for a leaf
        std::int32_t children;
    };

    void build(const std::vector<double> &y, std::int64_t n, const Bounds &bounds)
    {
        const double minX = bounds.minX, minY = bounds.minY;
        const double width = bounds.width() * (1 + 1e-9);
        const double scale = 65536.0 / width;
        keys_.resize(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i) {
            const auto qx = static_cast<std::uint32_t>(std::min(65535.0, (y[2 * i] - minX) * scale));
            const auto qy = static_cast<std::uint32_t>(std::min(65535.0, (y[2 * i + 1] - minY) * scale));
            keys_[static_cast<std::size_t>(i)] =
                (std::uint64_t(spreadBits(qx) | (spreadBits(qy) << 1)) << 32) | std::uint64_t(i);
        }
        radixSort();
        order_.resize(keys_.size());
        prefixX_.assign(keys_.size() + 1, 0.0);
        prefixY_.assign(keys_.size() + 1, 0.0);
        for (std::size_t r = 0; r < keys_.size(); ++r) {
            const auto i = static_cast<std::int32_t>(keys_[r] & 0xffffffffu);
            order_[r] = i;
            prefixX_[r + 1] = prefixX_[r] + y[2 * static_cast<std::size_t>(i)];
            prefixY_[r + 1] = prefixY_[r] + y[2 * static_cast<std::size_t>(i) + 1];
        }
        nodes_.clear();
        nodes_.push_back({});
        fill(0, 0, static_cast<std::int64_t>(keys_.size()), 0, width);
    }

    const std::vector<Node> &nodes() const { return nodes_; }
    // Point indices in Morton order: neighbours in space are neighbours here.
    const std::vector<std::int32_t> &order() const { return order_; }

  private:
    void fill(std::size_t at, std::int64_t begin, std::int64_t end, int level, double width)
    {
        const double count = static_cast<double>(end - begin);
        Node node{(prefixX_[end] - prefixX_[begin]) / count,
                  (prefixY_[end] - prefixY_[begin]) / count,
                  width * width,
                  static_cast<std::int32_t>(begin),
                  static_cast<std::int32_t>(end - begin),
                  -1,
                  0};
        if (end - begin > kBucket && level < 16) {
            // Children: the ranges whose next two key bits are 0, 1, 2, 3.
            const int shift = 32 + 2 * (15 - level);
            std::array<std::int64_t, 5> bounds{begin, 0, 0, 0, end};
            for (std::uint64_t q = 1; q < 4; ++q)
                bounds[q] = std::partition_point(keys_.begin() + bounds[q - 1], keys_.begin() + end,
                                                 [&](std::uint64_t key) { return ((key >> shift) & 3u) < q; }) -
                            keys_.begin();
            int children = 0;
            for (int q = 0; q < 4; ++q)
                children += bounds[q + 1] > bounds[q];
            node.firstChild = static_cast<std::int32_t>(nodes_.size());
            node.children = children;
            nodes_.resize(nodes_.size() + static_cast<std::size_t>(children));
            nodes_[at] = node;
            std::size_t child = static_cast<std::size_t>(node.firstChild);
            for (int q = 0; q < 4; ++q)
                if (bounds[q + 1] > bounds[q])
                    fill(child++, bounds[q], bounds[q + 1], level + 1, width / 2);
            return;
        }
        nodes_[at] = node;
    }

    // Least-significant-digit radix sort on the 32 key bits, three 11-bit digits.
    void radixSort()
    {
        scratch_.resize(keys_.size());
        for (int pass = 0; pass < 3; ++pass) {
            const int shift = 32 + 11 * pass;
            std::array<std::size_t, 2049> start{};
            for (std::uint64_t key : keys_)
                ++start[((key >> shift) & 2047u) + 1];
            for (std::size_t b = 1; b < start.size(); ++b)
                start[b] += start[b - 1];
            for (std::uint64_t key : keys_)
                scratch_[start[(key >> shift) & 2047u]++] = key;
            keys_.swap(scratch_);
        }
    }

    std::vector<std::uint64_t> keys_, scratch_;
    std::vector<std::int32_t> order_;
    std::vector<double> prefixX_, prefixY_;
    std::vector<Node> nodes_;
};

} // namespace detail

namespace {

using detail::QuadTree;

// Grouped Barnes-Hut's targets hold at most this many points (the best of 32 to 512 measured at
// 5,000 points).
constexpr std::int32_t kGroupSize = 256;

// The targets of grouped Barnes-Hut: the largest cells with at most maxCount points (and leaves).
void collectGroups(const std::vector<QuadTree::Node> &nodes, std::int32_t at, std::int32_t maxCount,
                   std::vector<std::int32_t> &out)
{
    const QuadTree::Node &node = nodes[static_cast<std::size_t>(at)];
    if (node.count <= maxCount || node.firstChild < 0) {
        out.push_back(at);
        return;
    }
    for (int c = 0; c < node.children; ++c)
        collectGroups(nodes, node.firstChild + c, maxCount, out);
}

} // namespace

Tsne::Tsne(Affinities p, std::vector<double> initial, const TsneSettings &settings)
    : p_(std::move(p))
    , settings_(settings)
    , y_(std::move(initial))
{
    if (static_cast<std::int64_t>(y_.size()) != 2 * p_.n && static_cast<std::int64_t>(y_.size()) != 3 * p_.n)
        throw std::invalid_argument("Tsne: the initial embedding must be n x 2 or n x 3");
    dims_ = p_.n > 0 ? static_cast<int>(static_cast<std::int64_t>(y_.size()) / p_.n) : 2;
    update_.assign(y_.size(), 0.0);
    gains_.assign(y_.size(), 1.0);
    grad_.assign(y_.size(), 0.0);
    learningRate_ = settings_.learningRate > 0
                        ? settings_.learningRate
                        : std::max(static_cast<double>(p_.n) / settings_.earlyExaggeration / 4.0, 50.0);
    exact_ = p_.n <= kExactMaxPoints || settings_.theta == 0.0;
    // sum p log p, a run at a time (each of its rows holds the same values).
    for (std::int64_t r = 0; r < p_.runs(); ++r) {
        double sum = 0;
        for (auto e = p_.entryStart[static_cast<std::size_t>(r)]; e < p_.entryStart[static_cast<std::size_t>(r + 1)];
             ++e)
            if (const double v = p_.p[static_cast<std::size_t>(e)]; v > 0)
                sum += v * std::log(v);
        entropyTerm_ += static_cast<double>(p_.runFirst[static_cast<std::size_t>(r + 1)] -
                                            p_.runFirst[static_cast<std::size_t>(r)]) *
                        sum;
    }
    pFloat_.assign(p_.p.begin(), p_.p.end());
}

Tsne::~Tsne() = default;
Tsne::Tsne(Tsne &&) noexcept = default;
Tsne &Tsne::operator=(Tsne &&) noexcept = default;

double Tsne::gradient(const std::atomic<bool> *cancel)
{
    const std::int64_t n = p_.n;
    const double exaggeration = iteration_ < settings_.exaggerationIterations ? settings_.earlyExaggeration : 1.0;
    // Kept from step to step: fresh vectors of this size each step cost page faults (3.6% of a
    // 100,000-point run under perf).
    std::vector<double> &zPart = zPart_, &klPart = klPart_, &rep = rep_;
    zPart.resize(static_cast<std::size_t>(n));
    klPart.assign(static_cast<std::size_t>(n), 0.0);
    rep.resize(static_cast<std::size_t>(dims_) * static_cast<std::size_t>(n));
    // KL costs a logarithm per entry of P, more than the rest of the attraction: every 50 steps
    // (as scikit-learn reports it) and at the last.
    const bool withKl = iteration_ % kKlInterval == 0 || iteration_ + 1 >= settings_.iterations;
    if (dims_ == 3) {
        lastStepFft_ = false;
        return gradient3d(cancel, exaggeration, withKl);
    }
    const double *y = y_.data();
    yFloat_.assign(y_.begin(), y_.end());
    std::atomic<bool> stopped{false};
    const auto cancelled = [&] {
        if (cancel && cancel->load())
            stopped = true;
        return stopped.load();
    };

    // Attraction over P's entries: sum_j p_ij w_ij (y_i - y_j), and sum p_ij log(1 + d_ij^2) for
    // KL, in fixed chunks of rows; for Barnes-Hut the tree is built as one more task beside them,
    // so neither core waits for it.
    // Kept from step to step (its keys, prefix sums and nodes were mapped afresh at every step).
    if (!tree_)
        tree_ = std::make_unique<QuadTree>();
    QuadTree &tree = *tree_;
    constexpr std::int64_t kAttractionTasks = 16;
    const std::int64_t rowsPerTask = (n + kAttractionTasks - 1) / kAttractionTasks;
    // Repulsion by FFT interpolation while that costs less (a large n in a small square: the first
    // hundreds of steps of a large run), else by Barnes-Hut.
    const Bounds bounds = boundsOf(y, n);
    const bool fft = !exact_ && repulsion_ != Repulsion::BarnesHut &&
                     (repulsion_ == Repulsion::Fft || fftRepulsionPays(n, bounds.width()));
    lastStepFft_ = fft;
    if (!fft)
        fft_.reset(); // its grids (up to 140 MB at a million points) are not needed once the tree is
    const std::int64_t treeTasks = exact_ || fft ? 0 : 1;
    const auto attract = [&](std::int64_t begin, std::int64_t end) {
        double block[16];
        std::int64_t blockStart = -1;      // the block computed last: rows blockStart .. blockStart + 7
        std::vector<std::int32_t> columns; // a row's, written out
        for (std::int64_t i = begin; i < end; ++i) {
            const auto r = static_cast<std::size_t>(p_.runOf[static_cast<std::size_t>(i)]);
            const std::int64_t first = p_.entryStart[r];
            const int m = static_cast<int>(p_.entryStart[r + 1] - first);
            double f[2];
            if (blockStart >= 0 && i < blockStart + 8) {
                f[0] = block[i - blockStart];
                f[1] = block[8 + i - blockStart];
            } else if (i + 8 <= std::min(end, p_.runFirst[r + 1])) { // eight rows of one run
                attractionBlock(&p_.offset[static_cast<std::size_t>(first)], &pFloat_[static_cast<std::size_t>(first)],
                                m, yFloat_.data(), i, block);
                blockStart = i;
                f[0] = block[0];
                f[1] = block[8];
            } else {
                columns.resize(static_cast<std::size_t>(m));
                for (int e = 0; e < m; ++e)
                    columns[static_cast<std::size_t>(e)] =
                        static_cast<std::int32_t>(i + p_.offset[static_cast<std::size_t>(first + e)]);
                attractionRow(columns.data(), &pFloat_[static_cast<std::size_t>(first)], m, yFloat_.data(),
                              yFloat_[2 * i], yFloat_[2 * i + 1], f);
            }
            if (withKl) {
                double kl = 0;
                p_.forEach(i, [&](std::int32_t j, double p) {
                    const double dx = y[2 * i] - y[2 * j], dy = y[2 * i + 1] - y[2 * j + 1];
                    kl += p * std::log1p(dx * dx + dy * dy);
                });
                klPart[static_cast<std::size_t>(i)] = kl;
            }
            grad_[2 * i] = exaggeration * f[0];
            grad_[2 * i + 1] = exaggeration * f[1];
        }
    };
    parallelFor(
        kAttractionTasks + treeTasks,
        [&](std::int64_t t0, std::int64_t t1) {
            for (std::int64_t t = t0; t < t1; ++t) {
                if (t < treeTasks)
                    tree.build(y_, n, bounds);
                else
                    attract((t - treeTasks) * rowsPerTask, std::min(n, (t - treeTasks + 1) * rowsPerTask));
            }
        },
        1);

    // Repulsion: sum_j w_ij^2 (y_i - y_j) and Z = sum_{i != j} w_ij, with w = 1 / (1 + d^2).
    if (fft) {
        if (!fft_)
            fft_ = std::make_unique<FftRepulsion>();
        if (!cancelled())
            fft_->compute(y, n, bounds, rep.data(), zPart.data());
    } else if (exact_) {
        parallelFor(
            n,
            [&](std::int64_t begin, std::int64_t end) {
                for (std::int64_t i = begin; i < end; ++i) {
                    double fx = 0, fy = 0, z = 0;
                    for (std::int64_t j = 0; j < n; ++j) {
                        const double dx = y[2 * i] - y[2 * j], dy = y[2 * i + 1] - y[2 * j + 1];
                        const double w = 1.0 / (1.0 + dx * dx + dy * dy);
                        z += w;
                        fx += w * w * dx;
                        fy += w * w * dy;
                    }
                    zPart[static_cast<std::size_t>(i)] = z - 1.0; // the j == i term
                    rep[2 * i] = fx;
                    rep[2 * i + 1] = fy;
                }
            },
            16);
    } else {
        // Grouped Barnes-Hut (Barnes 1990): one interaction list per small cell of the tree, built
        // with the opening test against the cell's bounding box, so it holds for every point inside;
        // then each point of the cell runs down the list in a vectorised loop.
        const std::vector<QuadTree::Node> &nodes = tree.nodes();
        const std::vector<std::int32_t> &order = tree.order();
        std::vector<std::int32_t> groups;
        collectGroups(nodes, 0, kGroupSize, groups);
        const double theta2 = settings_.theta * settings_.theta;
        parallelFor(
            static_cast<std::int64_t>(groups.size()),
            [&](std::int64_t begin, std::int64_t end) {
                std::vector<float> lx, ly, lc;
                std::vector<std::int32_t> stack;
                for (std::int64_t g = begin; g < end; ++g) {
                    if ((g & 63) == 0 && cancelled())
                        return;
                    const QuadTree::Node &group = nodes[static_cast<std::size_t>(groups[static_cast<std::size_t>(g)])];
                    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
                    for (std::int32_t r = group.begin; r < group.begin + group.count; ++r) {
                        const std::int64_t i = order[static_cast<std::size_t>(r)];
                        x0 = std::min(x0, y[2 * i]);
                        x1 = std::max(x1, y[2 * i]);
                        y0 = std::min(y0, y[2 * i + 1]);
                        y1 = std::max(y1, y[2 * i + 1]);
                    }
                    lx.clear();
                    ly.clear();
                    lc.clear();
                    stack.assign(1, 0);
                    while (!stack.empty()) {
                        const QuadTree::Node &node = nodes[static_cast<std::size_t>(stack.back())];
                        stack.pop_back();
                        // Distance from the cell's centre of mass to the group's box.
                        const double dx = std::max({0.0, x0 - node.cx, node.cx - x1});
                        const double dy = std::max({0.0, y0 - node.cy, node.cy - y1});
                        if (node.width2 < theta2 * (dx * dx + dy * dy) || (node.firstChild < 0 && node.count == 1)) {
                            lx.push_back(static_cast<float>(node.cx));
                            ly.push_back(static_cast<float>(node.cy));
                            lc.push_back(static_cast<float>(node.count));
                        } else if (node.firstChild < 0) {
                            for (std::int32_t r = node.begin; r < node.begin + node.count; ++r) {
                                const std::int64_t j = order[static_cast<std::size_t>(r)];
                                lx.push_back(static_cast<float>(y[2 * j]));
                                ly.push_back(static_cast<float>(y[2 * j + 1]));
                                lc.push_back(1.0f);
                            }
                        } else {
                            for (int c = 0; c < node.children; ++c)
                                stack.push_back(node.firstChild + c);
                        }
                    }
                    const int m = static_cast<int>(lx.size());
                    for (std::int32_t r = group.begin; r < group.begin + group.count; ++r) {
                        const std::int64_t i = order[static_cast<std::size_t>(r)];
                        double acc[3];
                        repulsionFromList(lx.data(), ly.data(), lc.data(), m, static_cast<float>(y[2 * i]),
                                          static_cast<float>(y[2 * i + 1]), acc);
                        zPart[static_cast<std::size_t>(i)] = acc[0] - 1.0; // i itself, at distance 0
                        rep[2 * i] = acc[1];
                        rep[2 * i + 1] = acc[2];
                    }
                }
            },
            1);
    }
    if (cancelled())
        return std::numeric_limits<double>::quiet_NaN();
    return combineGradient(withKl);
}

double Tsne::combineGradient(bool withKl)
{
    const std::int64_t n = p_.n;
    const std::vector<double> &zPart = zPart_, &klPart = klPart_, &rep = rep_;
    double z = 0, klSum = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        z += zPart[static_cast<std::size_t>(i)];
        klSum += klPart[static_cast<std::size_t>(i)];
    }
    z = std::max(z, 1e-300);
    // dC/dy_i = 4 (sum_j p_ij q_ij Z (y_i - y_j) - sum_j q_ij^2 Z (y_i - y_j)), with the 4 of
    // degrees of freedom 1 (van der Maaten and Hinton 2008, eq. 5).
    for (std::size_t c = 0; c < grad_.size(); ++c)
        grad_[c] = 4.0 * (grad_[c] - rep[c] / z);
    return withKl ? entropyTerm_ + klSum + std::log(z) : kl_;
}

bool Tsne::step(const std::atomic<bool> *cancel)
{
    if (finished())
        return true;
    const double kl = gradient(cancel);
    if (std::isnan(kl))
        return false;
    kl_ = kl;
    // The second phase starts afresh, as scikit-learn's optimiser does (two descents, each from no
    // update and unit gains): the gains and momentum grown under exaggerated attraction would
    // otherwise throw the points past the minimum once it ends (issue 28: small inputs lost up to 0.03
    // of trustworthiness to scikit-learn, and their KL was 0.33 against 0.17-0.20).
    if (iteration_ == settings_.exaggerationIterations) {
        std::fill(update_.begin(), update_.end(), 0.0);
        std::fill(gains_.begin(), gains_.end(), 1.0);
    }
    const double momentum = iteration_ < settings_.exaggerationIterations ? 0.5 : 0.8;
    for (std::size_t c = 0; c < y_.size(); ++c) {
        // Gains grow where the gradient's sign flips against the last update, shrink otherwise.
        gains_[c] = (update_[c] * grad_[c] < 0.0) ? gains_[c] + 0.2 : std::max(gains_[c] * 0.8, 0.01);
        update_[c] = momentum * update_[c] - learningRate_ * gains_[c] * grad_[c];
        y_[c] += update_[c];
    }
    ++iteration_;
    return true;
}

std::vector<double> initialEmbedding(const Rows &rows, const TsneSettings &settings, const std::atomic<bool> *cancel,
                                     int dims)
{
    const std::int64_t n = rows.n;
    std::vector<double> y(static_cast<std::size_t>(dims * n), 0.0);
    if (settings.init == TsneInit::Pca && rows.d >= dims && std::min(n, kInitRows) >= dims) {
        // A start needs the plane (or space) roughly, not to twelve digits.
        const Pca pca = principalComponents(rows, dims, kInitRows, cancel, 1e-4);
        if (pca.cancelled)
            return {};
        y = project(rows, pca, cancel);
        if (y.empty())
            return {};
    } else {
        for (std::int64_t i = 0; i < n; ++i)
            for (int c = 0; c < dims; ++c)
                y[static_cast<std::size_t>(dims * i + c)] = standardNormal(settings.seed ^ 0x7453u, i, c);
    }
    // Scaled so the first axis has standard deviation 1e-4: the points start close together and
    // early exaggeration forms the clusters (scikit-learn 1.2 does the same).
    double mean = 0, var = 0;
    for (std::int64_t i = 0; i < n; ++i)
        mean += y[static_cast<std::size_t>(dims * i)];
    mean /= static_cast<double>(n);
    for (std::int64_t i = 0; i < n; ++i)
        var += std::pow(y[static_cast<std::size_t>(dims * i)] - mean, 2);
    const double sd = std::sqrt(var / static_cast<double>(n));
    const double scale = sd > 0 ? 1e-4 / sd : 1.0;
    for (double &v : y)
        v *= scale;
    return y;
}

int tsneNeighborCount(std::int64_t n, const TsneSettings &settings)
{
    if (settings.theta == 0.0)
        return static_cast<int>(n - 1);
    return static_cast<int>(std::min<std::int64_t>(n - 1, static_cast<std::int64_t>(3 * settings.perplexity + 1)));
}

std::optional<Tsne> prepareTsne(const Encoding &encoding, const NoiseParams &noise, const TsneSettings &settings,
                                int dims, const std::atomic<bool> *cancel,
                                const std::function<void(const std::vector<double> &)> &onStart)
{
    const std::int64_t n = encoding.params().seqLen;
    if (auto problem = validateTsne(settings, n))
        throw std::invalid_argument(*problem);
    const int k = tsneNeighborCount(n, settings);
    // The start first: it is what the window shows while the neighbours are found.
    std::vector<double> y = initialEmbedding(embeddingRows(encoding, noise), settings, cancel, dims);
    if (y.empty() || (cancel && cancel->load()))
        return std::nullopt;
    if (onStart)
        onStart(y);
    // By the offsets where they apply: no list of every row's neighbours is held (at 1,000,000
    // positions it alone would be 1.1 GB).
    Affinities p;
    if (OffsetKernel::applies(encoding.params(), noise)) {
        p = offsetAffinities(encoding, k, settings.perplexity, cancel);
    } else {
        const Neighbors nb = windowNeighbors(encoding, noise, k, cancel);
        if (nb.n == 0)
            return std::nullopt;
        p = affinities(nb, settings.perplexity, cancel);
        p.recall = nb.recall;
    }
    if (p.n == 0)
        return std::nullopt;
    return Tsne(std::move(p), std::move(y), settings);
}

bool runTsne(Tsne &tsne, const std::function<bool(const Tsne &)> &onStep, const std::atomic<bool> *cancel)
{
    if (tsne.iteration() == 0 && onStep && !onStep(tsne))
        return true;
    while (!tsne.finished()) {
        if (!tsne.step(cancel))
            return false;
        if (onStep && !onStep(tsne))
            return true;
    }
    return true;
}

} // namespace pe
