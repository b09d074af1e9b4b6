#include "projections/umap.h"

#include "projections/pca.h"
#include "support/parallel.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <optional>
#include <stdexcept>

namespace pe {

namespace {

// umap-learn's constants (umap/umap_.py): the bisection's tolerance and steps, and sigma's floor as a
// share of the mean distance.
constexpr double kSmoothTolerance = 1e-5;
constexpr int kBisectionSteps = 64;
constexpr double kMinDistScale = 1e-3;
// The gradient's clip, per coordinate (paper, appendix C: "clipped to [-4, 4]").
constexpr double kClip = 4.0;
// Rows a block of the order-fixed sums (a sum's bits do not depend on the threads).
constexpr std::int64_t kSumBlock = 4096;
// A graph in pieces (umapSpectralStart): pieces of fewer points than this are placed uniformly (the
// spectral block's 6 vectors and the trivial one need room; umap-learn's bound is 4 in 2-D); above
// this many pieces, most of a few points, the whole start is the seeded uniform one (the centres'
// nearest distances are P^2).
constexpr std::int64_t kMinSpectralPiece = 8;
constexpr std::int32_t kMaxPieces = 5000;
// The pieces' centroids are held whole (pieces x d): above this many values (160 MB), round a circle.
constexpr double kMaxCentroidValues = 2e7;

std::uint64_t mix(std::uint64_t x)
{
    // splitmix64's finaliser: a counter-based generator, the same draw on any thread.
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

std::uint64_t draw(std::uint64_t seed, std::uint64_t a, std::uint64_t b, std::uint64_t c)
{
    return mix(mix(mix(mix(seed) ^ a) ^ b) ^ c);
}

// A uniform double in [0, 1) from a draw.
double unit(std::uint64_t x)
{
    return static_cast<double>(x >> 11) * 0x1.0p-53;
}

// An edge is sampled by the epochs when its weight is positive and at least w_max / epochs
// (umap-learn drops the others): Umap's periods and the graph pruned before the start both ask here.
bool sampledEdge(double weight, double wMax, int epochs)
{
    return weight > 0 && weight >= wMax / epochs;
}

double maxWeight(const UmapGraph &g)
{
    return g.weight.empty() ? 0.0 : *std::max_element(g.weight.begin(), g.weight.end());
}

double clip(double v)
{
    return std::clamp(v, -kClip, kClip);
}

// sum over rows of f(row), in blocks of kSumBlock summed in order: the same bits on any thread count.
template <class F> double orderedSum(std::int64_t n, F &&f)
{
    const std::int64_t blocks = (n + kSumBlock - 1) / kSumBlock;
    std::vector<double> part(static_cast<std::size_t>(blocks), 0.0);
    parallelFor(blocks, [&](std::int64_t b0, std::int64_t b1) {
        for (std::int64_t b = b0; b < b1; ++b) {
            double s = 0;
            for (std::int64_t i = b * kSumBlock; i < std::min(n, (b + 1) * kSumBlock); ++i)
                s += f(i);
            part[static_cast<std::size_t>(b)] = s;
        }
    });
    double total = 0;
    for (double p : part)
        total += p;
    return total;
}

} // namespace

std::optional<std::string> validateUmap(const UmapSettings &s, std::int64_t n)
{
    if (n < 3)
        return "UMAP needs at least 3 positions.";
    if (s.neighbors < 2 || s.neighbors > limits::maxUmapNeighbors)
        return "UMAP's neighbours are a whole number from 2 to " + std::to_string(limits::maxUmapNeighbors) + ".";
    // Each edge's neighbour, distance, membership and schedule: about 50 bytes an entry at the peak.
    if (static_cast<double>(n) * (s.neighbors - 1) > limits::maxUmapNeighborEntries)
        return "UMAP keeps at most 50 million neighbour entries, n x (neighbours - 1) (about 2.5 GB): fewer "
               "neighbours or positions.";
    if (s.neighbors > n)
        return "UMAP's neighbours (" + std::to_string(s.neighbors) + ", the point itself counted) must be at most " +
               "seq_len (" + std::to_string(n) + ").";
    if (!(s.spread > 0) || s.spread > limits::maxUmapSpread)
        return "UMAP's spread is a number above 0 and at most 100.";
    if (!(s.minDist >= 0) || s.minDist > s.spread)
        return "UMAP's minimum distance is a number from 0 to the spread (" + std::to_string(s.spread) +
               "): above it the layout collapses.";
    if (s.epochs < 0 || s.epochs > limits::maxUmapEpochs)
        return "UMAP's epochs are auto (0) or a whole number from 1 to " + std::to_string(limits::maxUmapEpochs) + ".";
    if (s.negativeRate < 0 || s.negativeRate > 100 || !(s.learningRate > 0) || s.learningRate > 1e3)
        return "UMAP's negative sample rate is 0 to 100 and its learning rate above 0 and at most 1,000.";
    return std::nullopt;
}

int umapEpochs(const UmapSettings &s, std::int64_t n)
{
    return s.epochs > 0 ? s.epochs : n <= 10'000 ? 500 : 200;
}

std::pair<double, double> umapCurve(double minDist, double spread)
{
    // Levenberg-Marquardt on the residuals f(x) - y, from (1, 1) as scipy's curve_fit starts.
    constexpr int kPoints = 300;
    std::vector<double> x(kPoints), y(kPoints);
    for (int i = 0; i < kPoints; ++i) {
        x[static_cast<std::size_t>(i)] = 3.0 * spread * i / (kPoints - 1);
        const double xi = x[static_cast<std::size_t>(i)];
        y[static_cast<std::size_t>(i)] = xi < minDist ? 1.0 : std::exp(-(xi - minDist) / spread);
    }
    const auto cost = [&](double a, double b) {
        double c = 0;
        for (int i = 0; i < kPoints; ++i) {
            const double xi = x[static_cast<std::size_t>(i)];
            const double f = 1.0 / (1.0 + a * std::pow(xi, 2 * b));
            c += (f - y[static_cast<std::size_t>(i)]) * (f - y[static_cast<std::size_t>(i)]);
        }
        return c;
    };
    double a = 1, b = 1, lambda = 1e-3;
    double now = cost(a, b);
    for (int iter = 0; iter < 500; ++iter) {
        Eigen::Matrix2d jtj = Eigen::Matrix2d::Zero();
        Eigen::Vector2d jtr = Eigen::Vector2d::Zero();
        for (int i = 0; i < kPoints; ++i) {
            const double xi = x[static_cast<std::size_t>(i)];
            if (xi <= 0)
                continue; // f = 1 there whatever a and b: no slope
            const double p = std::pow(xi, 2 * b), den = 1.0 + a * p;
            const double f = 1.0 / den, r = f - y[static_cast<std::size_t>(i)];
            const Eigen::Vector2d g(-p / (den * den), -a * p * 2.0 * std::log(xi) / (den * den));
            jtj += g * g.transpose();
            jtr += g * r;
        }
        bool improved = false;
        while (lambda < 1e12) {
            Eigen::Matrix2d m = jtj;
            m.diagonal() *= 1.0 + lambda;
            const Eigen::Vector2d delta = m.ldlt().solve(-jtr);
            const double na = a + delta(0), nb = b + delta(1);
            const double next = na > 0 && nb > 0 ? cost(na, nb) : std::numeric_limits<double>::infinity();
            if (next < now) {
                const bool settled = now - next <= 1e-15 * std::max(now, 1e-300);
                a = na;
                b = nb;
                now = next;
                lambda = std::max(lambda / 10, 1e-12);
                improved = !settled;
                break;
            }
            lambda *= 10;
        }
        if (!improved)
            break;
    }
    return {a, b};
}

UmapGraph umapGraph(const Neighbors &nb, const std::atomic<bool> *cancel)
{
    UmapGraph g;
    const std::int64_t n = nb.n;
    const int m = nb.k; // k - 1 others
    if (n == 0)
        return g;
    g.sigma.assign(static_cast<std::size_t>(n), 0.0);
    g.rho.assign(static_cast<std::size_t>(n), 0.0);
    g.recall = nb.recall;
    std::vector<double> dist(static_cast<std::size_t>(n * m));
    for (std::size_t e = 0; e < dist.size(); ++e)
        dist[e] = std::sqrt(std::max(nb.dist2[e], 0.0));
    // umap-learn's means count the point itself, at distance 0, among its k.
    const double k = m + 1.0;
    const double meanAll = orderedSum(n,
                                      [&](std::int64_t i) {
                                          double s = 0;
                                          for (int j = 0; j < m; ++j)
                                              s += dist[static_cast<std::size_t>(i * m + j)];
                                          return s;
                                      }) /
                           (static_cast<double>(n) * k);
    const double target = std::log2(k);
    std::vector<double> member(static_cast<std::size_t>(n * m));
    parallelFor(
        n,
        [&](std::int64_t i0, std::int64_t i1) {
            for (std::int64_t i = i0; i < i1; ++i) {
                if (cancel && (i & 1023) == 0 && cancel->load())
                    return;
                const double *d = dist.data() + i * m;
                double rho = 0, sum = 0;
                for (int j = 0; j < m; ++j) {
                    sum += d[j];
                    if (rho == 0 && d[j] > 0)
                        rho = d[j]; // the nearest at a distance (local connectivity 1)
                }
                double lo = 0, hi = std::numeric_limits<double>::infinity(), mid = 1;
                for (int step = 0; step < kBisectionSteps; ++step) {
                    double psum = 0;
                    for (int j = 0; j < m; ++j) {
                        const double over = d[j] - rho;
                        psum += over > 0 ? std::exp(-over / mid) : 1.0;
                    }
                    if (std::abs(psum - target) < kSmoothTolerance)
                        break;
                    if (psum > target) {
                        hi = mid;
                        mid = (lo + hi) / 2;
                    } else {
                        lo = mid;
                        mid = std::isinf(hi) ? mid * 2 : (lo + hi) / 2;
                    }
                }
                const double floor = kMinDistScale * (rho > 0 ? sum / k : meanAll);
                const double sigma = std::max(mid, floor);
                g.sigma[static_cast<std::size_t>(i)] = sigma;
                g.rho[static_cast<std::size_t>(i)] = rho;
                for (int j = 0; j < m; ++j) {
                    const double over = d[j] - rho;
                    member[static_cast<std::size_t>(i * m + j)] =
                        over <= 0 || sigma == 0 ? 1.0 : std::exp(-over / sigma);
                }
            }
        },
        256);
    if (cancel && cancel->load())
        return {};

    // The fuzzy union: each row's own neighbours and the rows that have it as a neighbour, merged.
    std::vector<std::int64_t> incoming(static_cast<std::size_t>(n + 1), 0);
    for (std::int64_t e = 0; e < n * m; ++e)
        ++incoming[static_cast<std::size_t>(nb.index[static_cast<std::size_t>(e)]) + 1];
    for (std::int64_t i = 0; i < n; ++i)
        incoming[static_cast<std::size_t>(i + 1)] += incoming[static_cast<std::size_t>(i)];
    std::vector<std::int32_t> from(static_cast<std::size_t>(n * m));
    std::vector<double> fromWeight(static_cast<std::size_t>(n * m));
    {
        std::vector<std::int64_t> at(incoming.begin(), incoming.end() - 1);
        for (std::int64_t i = 0; i < n; ++i)
            for (int j = 0; j < m; ++j) {
                const auto to = static_cast<std::size_t>(nb.index[static_cast<std::size_t>(i * m + j)]);
                from[static_cast<std::size_t>(at[to])] = static_cast<std::int32_t>(i);
                fromWeight[static_cast<std::size_t>(at[to]++)] = member[static_cast<std::size_t>(i * m + j)];
            }
    }
    // Each row's merged entries, counted first so the rows can be written in parallel.
    std::vector<std::int64_t> count(static_cast<std::size_t>(n), 0);
    const auto merged = [&](std::int64_t i, auto &&emit) {
        std::vector<std::pair<std::int32_t, double>> own;
        own.reserve(static_cast<std::size_t>(m));
        for (int j = 0; j < m; ++j)
            own.emplace_back(nb.index[static_cast<std::size_t>(i * m + j)],
                             member[static_cast<std::size_t>(i * m + j)]);
        std::sort(own.begin(), own.end());
        std::vector<std::pair<std::int32_t, double>> in;
        for (std::int64_t e = incoming[static_cast<std::size_t>(i)]; e < incoming[static_cast<std::size_t>(i + 1)]; ++e)
            in.emplace_back(from[static_cast<std::size_t>(e)], fromWeight[static_cast<std::size_t>(e)]);
        std::sort(in.begin(), in.end());
        std::size_t a = 0, b = 0;
        while (a < own.size() || b < in.size()) {
            if (b == in.size() || (a < own.size() && own[a].first < in[b].first)) {
                emit(own[a].first, own[a].second);
                ++a;
            } else if (a == own.size() || in[b].first < own[a].first) {
                emit(in[b].first, in[b].second);
                ++b;
            } else {
                const double x = own[a].second, y = in[b].second;
                emit(own[a].first, x + y - x * y);
                ++a;
                ++b;
            }
        }
    };
    parallelFor(
        n,
        [&](std::int64_t i0, std::int64_t i1) {
            for (std::int64_t i = i0; i < i1; ++i)
                merged(i, [&](std::int32_t, double) { ++count[static_cast<std::size_t>(i)]; });
        },
        1024);
    g.n = n;
    g.rowStart.assign(static_cast<std::size_t>(n + 1), 0);
    for (std::int64_t i = 0; i < n; ++i)
        g.rowStart[static_cast<std::size_t>(i + 1)] =
            g.rowStart[static_cast<std::size_t>(i)] + count[static_cast<std::size_t>(i)];
    g.column.resize(static_cast<std::size_t>(g.rowStart.back()));
    g.weight.resize(static_cast<std::size_t>(g.rowStart.back()));
    parallelFor(
        n,
        [&](std::int64_t i0, std::int64_t i1) {
            for (std::int64_t i = i0; i < i1; ++i) {
                auto at = static_cast<std::size_t>(g.rowStart[static_cast<std::size_t>(i)]);
                merged(i, [&](std::int32_t j, double w) {
                    g.column[at] = j;
                    g.weight[at++] = w;
                });
            }
        },
        1024);
    return g;
}

namespace {

// The normalised Laplacian's `dims` (2 or 3) smallest non-trivial eigenvectors of a graph in one
// piece, n x dims (n >= dims + 1). The passes' budget is shared by the whole graph's `entries` (the piece's own when it
// is the whole graph), so its pieces cost together what one piece of their size would. False when cancelled; `coords`
// left empty when they cannot be found.
bool spectralCoordinates(const UmapGraph &g, double entries, std::uint64_t seed, int dims,
                         const std::atomic<bool> *cancel, Eigen::MatrixXd &coords)
{
    const std::int64_t n = g.n;
    coords.resize(0, dims);
    // S = (I + D^-1/2 W D^-1/2) / 2: the normalised Laplacian's smallest eigenvectors are S's
    // largest, its eigenvalues in [0, 1]. The largest, 1, has D^1/2 1: projected out each step.
    std::vector<double> invSqrt(static_cast<std::size_t>(n)), top(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        double deg = 0;
        for (std::int64_t e = g.rowStart[static_cast<std::size_t>(i)]; e < g.rowStart[static_cast<std::size_t>(i + 1)];
             ++e)
            deg += g.weight[static_cast<std::size_t>(e)];
        invSqrt[static_cast<std::size_t>(i)] = deg > 0 ? 1.0 / std::sqrt(deg) : 0.0;
        top[static_cast<std::size_t>(i)] = std::sqrt(deg);
    }
    const double topNorm = std::sqrt(orderedSum(
        n, [&](std::int64_t i) { return top[static_cast<std::size_t>(i)] * top[static_cast<std::size_t>(i)]; }));
    if (!(topNorm > 0))
        return true;
    for (double &v : top)
        v /= topNorm;
    // A block of 6 vectors for the 2 or 3 wanted: the others guard them (the eigenvalues below the
    // wanted ones crowd close on a long chain or ring, and a block's convergence goes by the gap to
    // the first eigenvalue outside it).
    constexpr int kBlock = 6;
    Eigen::MatrixXd q(n, kBlock), sq(n, kBlock), prev(n, kBlock), cur(n, kBlock);
    for (std::int64_t i = 0; i < n; ++i)
        for (int c = 0; c < kBlock; ++c)
            q(i, c) = unit(draw(seed, 2, static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(c))) - 0.5;
    const auto dot = [&](const Eigen::MatrixXd &m, int a, const double *v) {
        return orderedSum(n, [&](std::int64_t i) { return m(i, a) * v[i]; });
    };
    const auto deflate = [&](Eigen::MatrixXd &m) {
        for (int c = 0; c < kBlock; ++c) {
            const double t = dot(m, c, top.data());
            for (std::int64_t i = 0; i < n; ++i)
                m(i, c) -= t * top[static_cast<std::size_t>(i)];
        }
    };
    // Deflated, then orthonormalised by modified Gram-Schmidt twice.
    const auto orthonormalise = [&](Eigen::MatrixXd &m) {
        for (int pass = 0; pass < 2; ++pass) {
            deflate(m);
            for (int c = 0; c < kBlock; ++c) {
                for (int p = 0; p < c; ++p) {
                    const double t = dot(m, c, m.col(p).data());
                    m.col(c) -= t * m.col(p);
                }
                const double norm = std::sqrt(dot(m, c, m.col(c).data()));
                if (norm > 0)
                    m.col(c) /= norm;
            }
        }
    };
    // result = (alpha S + beta I) in + gamma other, row by row (a gather: the same bits on any threads).
    const auto apply = [&](const Eigen::MatrixXd &in, Eigen::MatrixXd &result, double alpha, double beta, double gamma,
                           const Eigen::MatrixXd *other) {
        parallelFor(
            n,
            [&](std::int64_t i0, std::int64_t i1) {
                for (std::int64_t i = i0; i < i1; ++i) {
                    double acc[kBlock] = {};
                    for (std::int64_t e = g.rowStart[static_cast<std::size_t>(i)];
                         e < g.rowStart[static_cast<std::size_t>(i + 1)]; ++e) {
                        const auto j = g.column[static_cast<std::size_t>(e)];
                        const double w = g.weight[static_cast<std::size_t>(e)] * invSqrt[static_cast<std::size_t>(j)];
                        for (int c = 0; c < kBlock; ++c)
                            acc[c] += w * in(j, c);
                    }
                    for (int c = 0; c < kBlock; ++c) {
                        const double s = 0.5 * (in(i, c) + invSqrt[static_cast<std::size_t>(i)] * acc[c]);
                        result(i, c) = alpha * s + beta * in(i, c) + (other ? gamma * (*other)(i, c) : 0.0);
                    }
                }
            },
            1024);
    };
    // The block's Ritz values and vectors (ascending), from S q.
    const auto ritz = [&](const Eigen::MatrixXd &m) {
        apply(m, sq, 1.0, 0.0, 0.0, nullptr);
        Eigen::Matrix<double, kBlock, kBlock> h;
        for (int a = 0; a < kBlock; ++a)
            for (int b = 0; b < kBlock; ++b)
                h(a, b) = dot(m, a, sq.col(b).data());
        return Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, kBlock, kBlock>>(0.5 * (h + h.transpose()));
    };
    orthonormalise(q);
    // Chebyshev-filtered subspace iteration (Zhou and Saad 2007): each pass applies the degree-16
    // Chebyshev polynomial that is at most 1 on [0, mu], mu the block's smallest Ritz value, and
    // grows fastest above it, so the wanted eigenvalues near 1 separate from the crowd below them as
    // a Krylov method would separate them. Until the wanted Ritz values settle (to 1e-10), within
    // a budget of applications of S that keeps the start to seconds at a million points; what the
    // passes have by then is made of the smoothest eigenvectors, which is what a start needs.
    constexpr int kDegree = 16;
    const int passes = std::clamp(static_cast<int>(4e9 / (std::max(1.0, entries) * kBlock * kDegree)), 3, 60);
    Eigen::VectorXd last = Eigen::VectorXd::Zero(dims);
    for (int pass = 0; pass < passes; ++pass) {
        if (cancel && cancel->load())
            return false;
        const auto es = ritz(q);
        const Eigen::VectorXd wanted = es.eigenvalues().tail(dims).reverse();
        if (pass > 0 && (wanted - last).cwiseAbs().maxCoeff() < 1e-10)
            break;
        last = wanted;
        q = q * es.eigenvectors(); // the Ritz vectors, so the block's directions stay ordered
        const double mu = std::clamp(es.eigenvalues()(0), 1e-3, 1.0 - 1e-12);
        // x' = (2 x - mu) / mu maps [0, mu] to [-1, 1]: T_0 = q, T_1 = x' q, T_k+1 = 2 x' T_k - T_k-1.
        prev = q;
        apply(q, cur, 2.0 / mu, -1.0, 0.0, nullptr);
        for (int k = 2; k <= kDegree; ++k) {
            apply(cur, sq, 4.0 / mu, -2.0, -1.0, &prev);
            prev.swap(cur);
            cur.swap(sq);
            // Kept in scale: the wanted directions grow by up to cosh(16 acosh(x')) a pass.
            const double big = cur.cwiseAbs().maxCoeff();
            if (big > 1e100) {
                cur /= big;
                prev /= big;
            }
        }
        q = cur;
        orthonormalise(q);
    }
    // Rayleigh-Ritz: the block's leading directions.
    const auto es = ritz(q);
    coords = q * es.eigenvectors().rightCols(dims).rowwise().reverse();
    if (!coords.allFinite() || !(coords.cwiseAbs().maxCoeff() > 0))
        coords.resize(0, dims);
    return true;
}

// The graph's connected pieces: each row's piece, numbered in the order of their first rows.
std::vector<std::int32_t> graphPieces(const UmapGraph &g, std::int32_t &count)
{
    const std::int64_t n = g.n;
    std::vector<std::int64_t> parent(static_cast<std::size_t>(n));
    std::iota(parent.begin(), parent.end(), std::int64_t{0});
    const auto root = [&](std::int64_t x) {
        while (parent[static_cast<std::size_t>(x)] != x)
            x = parent[static_cast<std::size_t>(x)] =
                parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
        return x;
    };
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t e = g.rowStart[static_cast<std::size_t>(i)]; e < g.rowStart[static_cast<std::size_t>(i + 1)];
             ++e) {
            const std::int64_t a = root(i), b = root(g.column[static_cast<std::size_t>(e)]);
            if (a != b)
                parent[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
        }
    std::vector<std::int32_t> piece(static_cast<std::size_t>(n));
    count = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t r = root(i); // every root is its piece's smallest row, so it came first
        piece[static_cast<std::size_t>(i)] = r == i ? count++ : piece[static_cast<std::size_t>(r)];
    }
    return piece;
}

// Where each piece's middle goes, P x dims, scaled so the farthest centre is at distance 1: up to
// 2 x dims pieces at the ends of the axes (+-e1, +-e2, ...) as umap-learn's multi_component_layout
// (umap/spectral.py); more at their centroids' top dims principal components, where umap-learn embeds
// the centroids spectrally with affinities exp(-distance^2), which are negligible once the
// centroids stand more than a few units apart, as a table's clusters or a long window's stretches
// do (1e-11 at distance 5). Evenly round the unit circle (in the first two dimensions) instead
// without the rows, when two centres fall on one point, or when the centroids would take more than
// kMaxCentroidValues. Empty when cancelled.
std::optional<Eigen::MatrixXd> pieceCentres(const std::vector<std::int32_t> &piece, std::int32_t count, int dims,
                                            const Rows *rows, const std::atomic<bool> *cancel)
{
    Eigen::MatrixXd centre = Eigen::MatrixXd::Zero(count, dims);
    const auto circle = [&] {
        centre.setZero();
        for (std::int32_t p = 0; p < count; ++p) {
            const double angle = 2.0 * std::numbers::pi * p / count;
            centre(p, 0) = std::cos(angle);
            centre(p, 1) = std::sin(angle);
        }
        return centre;
    };
    if (count <= 2 * dims) {
        // umap-learn's order: e1, e2, ... (as many as half the pieces, rounded up), then their negatives.
        const int axes = (count + 1) / 2;
        for (std::int32_t p = 0; p < count; ++p)
            centre(p, p % axes) = p < axes ? 1.0 : -1.0;
        return centre;
    }
    if (!rows || rows->d < 1 || rows->n != static_cast<std::int64_t>(piece.size()) ||
        static_cast<double>(count) * rows->d > kMaxCentroidValues)
        return circle();
    // The centroids, the rows streamed a block of about a million values at a time.
    const int d = rows->d;
    std::vector<double> sum(static_cast<std::size_t>(count) * static_cast<std::size_t>(d), 0.0);
    std::vector<std::int64_t> size(static_cast<std::size_t>(count), 0);
    const std::int64_t blockRows = std::clamp<std::int64_t>((std::int64_t{1} << 20) / d, 1, 1024);
    std::vector<double> block(static_cast<std::size_t>(blockRows) * static_cast<std::size_t>(d));
    for (std::int64_t first = 0; first < rows->n; first += blockRows) {
        if (cancel && cancel->load())
            return std::nullopt;
        const std::int64_t m = std::min(blockRows, rows->n - first);
        rows->fill(first, m, 1, block.data());
        for (std::int64_t r = 0; r < m; ++r) {
            const auto p = static_cast<std::size_t>(piece[static_cast<std::size_t>(first + r)]);
            ++size[p];
            for (int c = 0; c < d; ++c)
                sum[p * static_cast<std::size_t>(d) + static_cast<std::size_t>(c)] +=
                    block[static_cast<std::size_t>(r * d + c)];
        }
    }
    for (std::int32_t p = 0; p < count; ++p)
        for (int c = 0; c < d; ++c)
            sum[static_cast<std::size_t>(p) * static_cast<std::size_t>(d) + static_cast<std::size_t>(c)] /=
                static_cast<double>(size[static_cast<std::size_t>(p)]);
    Rows centroids;
    centroids.n = count;
    centroids.d = d;
    centroids.fill = [&](std::int64_t first, std::int64_t m, std::int64_t step, double *out) {
        for (std::int64_t r = 0; r < m; ++r)
            std::copy_n(sum.begin() + static_cast<std::ptrdiff_t>((first + r * step) * d), d, out + r * d);
    };
    const int k = std::min({dims, d, static_cast<int>(count)});
    const Pca pca = principalComponents(centroids, k, 0, cancel);
    if (pca.cancelled)
        return std::nullopt;
    const std::vector<double> xy = project(centroids, pca, cancel);
    if (xy.empty())
        return std::nullopt;
    for (std::int32_t p = 0; p < count; ++p)
        for (int c = 0; c < k; ++c)
            centre(p, c) = xy[static_cast<std::size_t>(p * k + c)];
    const double biggest = centre.rowwise().norm().maxCoeff();
    if (!(biggest > 0) || !centre.allFinite())
        return circle();
    centre /= biggest;
    for (std::int32_t p = 0; p < count; ++p)
        for (std::int32_t q = p + 1; q < count; ++q)
            if (!((centre.row(p) - centre.row(q)).norm() > 1e-9))
                return circle(); // two pieces alike but for their sizes, or apart only past 2 components
    return centre;
}

} // namespace

std::vector<double> umapSpectralStart(const UmapGraph &g, std::uint64_t seed, const std::atomic<bool> *cancel,
                                      const Rows *rows, int dims)
{
    const std::int64_t n = g.n;
    std::vector<double> out(static_cast<std::size_t>(dims * n));
    const auto uniformStart = [&] {
        for (std::int64_t i = 0; i < dims * n; ++i)
            out[static_cast<std::size_t>(i)] = -10.0 + 20.0 * unit(draw(seed, 1, static_cast<std::uint64_t>(i), 0));
        return out;
    };
    if (n < dims + 1)
        return uniformStart();
    std::int32_t pieces = 0;
    const std::vector<std::int32_t> piece = graphPieces(g, pieces);
    Eigen::MatrixXd coords;
    if (pieces == 1) {
        if (!spectralCoordinates(g, static_cast<double>(g.column.size()), seed, dims, cancel, coords))
            return {};
        if (coords.rows() == 0)
            return uniformStart();
    } else {
        // A graph in several pieces has eigenvalue 1 once a piece: one spectral layout would find the
        // pieces' indicators and put each piece on a ray. So, as umap-learn: each piece laid out alone
        // about its own centre (pieceCentres), in a disc of 0.4 times the distance to the nearest
        // other centre (umap-learn's square of half that distance lets neighbouring pieces touch),
        // spectrally, or uniformly when it has fewer than kMinSpectralPiece points.
        if (pieces > kMaxPieces)
            return uniformStart();
        const std::optional<Eigen::MatrixXd> centre = pieceCentres(piece, pieces, dims, rows, cancel);
        if (!centre)
            return {};
        std::vector<double> reach(static_cast<std::size_t>(pieces), std::numeric_limits<double>::infinity());
        for (std::int32_t p = 0; p < pieces; ++p)
            for (std::int32_t q = 0; q < pieces; ++q)
                if (q != p)
                    reach[static_cast<std::size_t>(p)] =
                        std::min(reach[static_cast<std::size_t>(p)], (centre->row(p) - centre->row(q)).norm());
        // Each piece's rows, in increasing order (so a piece's columns stay sorted when renumbered).
        std::vector<std::int64_t> pieceStart(static_cast<std::size_t>(pieces) + 1, 0),
            member(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i)
            ++pieceStart[static_cast<std::size_t>(piece[static_cast<std::size_t>(i)]) + 1];
        std::partial_sum(pieceStart.begin(), pieceStart.end(), pieceStart.begin());
        {
            std::vector<std::int64_t> at(pieceStart.begin(), pieceStart.end() - 1);
            for (std::int64_t i = 0; i < n; ++i)
                member[static_cast<std::size_t>(at[static_cast<std::size_t>(piece[static_cast<std::size_t>(i)])]++)] =
                    i;
        }
        std::vector<std::int32_t> local(static_cast<std::size_t>(n)); // a row's number in its piece
        coords.resize(n, dims);
        const double entries = static_cast<double>(g.column.size());
        // One piece laid out; false when cancelled. Pieces write only their own rows (of `local` and
        // `coords`), so several may run at once.
        const auto layPiece = [&](std::int32_t p) {
            const double radius = 0.4 * reach[static_cast<std::size_t>(p)];
            const std::int64_t first = pieceStart[static_cast<std::size_t>(p)];
            const std::int64_t m = pieceStart[static_cast<std::size_t>(p) + 1] - first;
            const auto row = [&](std::int64_t r) { return member[static_cast<std::size_t>(first + r)]; };
            Eigen::MatrixXd own;
            if (m >= kMinSpectralPiece) {
                UmapGraph sub;
                sub.n = m;
                sub.rowStart.resize(static_cast<std::size_t>(m) + 1, 0);
                for (std::int64_t r = 0; r < m; ++r) {
                    local[static_cast<std::size_t>(row(r))] = static_cast<std::int32_t>(r);
                    sub.rowStart[static_cast<std::size_t>(r) + 1] = sub.rowStart[static_cast<std::size_t>(r)] +
                                                                    g.rowStart[static_cast<std::size_t>(row(r)) + 1] -
                                                                    g.rowStart[static_cast<std::size_t>(row(r))];
                }
                sub.column.reserve(static_cast<std::size_t>(sub.rowStart.back()));
                sub.weight.reserve(static_cast<std::size_t>(sub.rowStart.back()));
                for (std::int64_t r = 0; r < m; ++r)
                    for (std::int64_t e = g.rowStart[static_cast<std::size_t>(row(r))];
                         e < g.rowStart[static_cast<std::size_t>(row(r)) + 1]; ++e) {
                        sub.column.push_back(local[static_cast<std::size_t>(g.column[static_cast<std::size_t>(e)])]);
                        sub.weight.push_back(g.weight[static_cast<std::size_t>(e)]);
                    }
                if (!spectralCoordinates(sub, entries, seed, dims, cancel, own))
                    return false;
            }
            if (own.rows() > 0) {
                own *= radius / own.rowwise().norm().maxCoeff();
            } else {
                // Uniform in the square (cube) inside the disc (ball).
                own.resize(m, dims);
                for (std::int64_t r = 0; r < m; ++r)
                    for (int c = 0; c < dims; ++c)
                        own(r, c) = radius / std::sqrt(static_cast<double>(dims)) *
                                    (2.0 * unit(draw(seed, 5, static_cast<std::uint64_t>(row(r)),
                                                     static_cast<std::uint64_t>(c))) -
                                     1.0);
            }
            for (std::int64_t r = 0; r < m; ++r)
                coords.row(row(r)) = own.row(r) + centre->row(p);
            return true;
        };
        // Large pieces one after another, each on every core; the small ones (whose loops run on
        // one thread) side by side. The same bits either way: a piece's sums are in a fixed order.
        std::vector<std::int32_t> small;
        for (std::int32_t p = 0; p < pieces; ++p) {
            if (pieceStart[static_cast<std::size_t>(p) + 1] - pieceStart[static_cast<std::size_t>(p)] < kSumBlock)
                small.push_back(p);
            else if (!layPiece(p))
                return {};
        }
        std::atomic<bool> cancelled = false;
        parallelFor(static_cast<std::int64_t>(small.size()), [&](std::int64_t s0, std::int64_t s1) {
            for (std::int64_t s = s0; s < s1 && !cancelled.load(); ++s)
                if (!layPiece(small[static_cast<std::size_t>(s)]))
                    cancelled = true;
        });
        if (cancelled)
            return {};
    }
    // umap-learn's: scaled so the largest |value| is 10, a jitter of 1e-4, then each axis to [0, 10].
    const double biggest = coords.cwiseAbs().maxCoeff();
    if (!(biggest > 0) || !coords.allFinite())
        return uniformStart();
    for (int c = 0; c < dims; ++c) {
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (std::int64_t i = 0; i < n; ++i) {
            // Box-Muller from two counter draws: a Gaussian jitter of standard deviation 1e-4.
            const double u1 = 1.0 - unit(draw(seed, 3, static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(c)));
            const double u2 = unit(draw(seed, 4, static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(c)));
            const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
            const double v = coords(i, c) * (10.0 / biggest) + 1e-4 * z;
            out[static_cast<std::size_t>(dims * i + c)] = v;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        for (std::int64_t i = 0; i < n; ++i) {
            double &v = out[static_cast<std::size_t>(dims * i + c)];
            v = hi > lo ? 10.0 * (v - lo) / (hi - lo) : 5.0;
        }
    }
    return out;
}

Umap::Umap(UmapGraph graph, std::vector<double> initial, const UmapSettings &settings)
    : graph_(std::move(graph))
    , settings_(settings)
    , y_(std::move(initial))
    , next_(y_.size())
    , dims_(graph_.n > 0 ? static_cast<int>(y_.size() / static_cast<std::size_t>(graph_.n)) : 2)
{
    if (y_.size() != static_cast<std::size_t>(dims_ * graph_.n) || (dims_ != 2 && dims_ != 3))
        throw std::invalid_argument("Umap: the start must be n x 2 or n x 3");
    std::tie(a_, b_) = umapCurve(settings_.minDist, settings_.spread);
    epochs_ = umapEpochs(settings_, graph_.n);
    // Each edge's period in epochs: the strongest every epoch, a weaker one w_max / w as often; edges
    // below w_max / epochs are never sampled (umap-learn drops them).
    const double wMax = maxWeight(graph_);
    const std::size_t edges = graph_.weight.size();
    epochsPerSample_.assign(edges, std::numeric_limits<double>::infinity());
    for (std::size_t e = 0; e < edges; ++e)
        if (sampledEdge(graph_.weight[e], wMax, epochs_))
            epochsPerSample_[e] = wMax / graph_.weight[e];
    nextSample_ = epochsPerSample_;
    nextNegative_.resize(edges);
    for (std::size_t e = 0; e < edges; ++e)
        nextNegative_[e] = settings_.negativeRate > 0 ? epochsPerSample_[e] / settings_.negativeRate
                                                      : std::numeric_limits<double>::infinity();
}

bool Umap::step(const std::atomic<bool> *cancel)
{
    if (finished())
        return true;
    const int e = epoch_;
    // umap-learn's rate: the first epoch at the full rate, then lowered linearly after each.
    const double alpha = settings_.learningRate * (e == 0 ? 1.0 : 1.0 - static_cast<double>(e - 1) / epochs_);
    // An epoch is whole or not at all: cancel is asked before it, so a paused run resumes exactly.
    if (cancel && cancel->load())
        return false;
    if (dims_ == 3)
        epoch<3>(alpha);
    else
        epoch<2>(alpha);
    y_.swap(next_);
    ++epoch_;
    return true;
}

template <int Dims> void Umap::epoch(double alpha)
{
    const std::int64_t n = graph_.n;
    const int e = epoch_;
    const double a = a_, b = b_;
    const double rate = settings_.negativeRate;
    parallelFor(
        n,
        [&](std::int64_t i0, std::int64_t i1) {
            for (std::int64_t i = i0; i < i1; ++i) {
                const double *yi = &y_[static_cast<std::size_t>(Dims * i)];
                double f[Dims] = {};
                for (std::int64_t k = graph_.rowStart[static_cast<std::size_t>(i)];
                     k < graph_.rowStart[static_cast<std::size_t>(i + 1)]; ++k) {
                    const auto edge = static_cast<std::size_t>(k);
                    if (nextSample_[edge] > e)
                        continue;
                    const auto j = static_cast<std::size_t>(graph_.column[edge]);
                    double d[Dims], dist2 = 0;
                    for (int c = 0; c < Dims; ++c) {
                        d[c] = yi[c] - y_[Dims * j + static_cast<std::size_t>(c)];
                        dist2 += d[c] * d[c];
                    }
                    if (dist2 > 0) {
                        // d^(2b - 2) as d^2b / d^2: one pow (the epochs' cost is their pows).
                        const double p = std::pow(dist2, b);
                        const double coeff = -2.0 * a * b * (p / dist2) / (a * p + 1.0);
                        // This edge's pull on i, and the reverse edge's (sampled in the same epochs,
                        // its weight being the same) pull on i as its other end: the same again.
                        for (int c = 0; c < Dims; ++c)
                            f[c] += 2.0 * clip(coeff * d[c]);
                    }
                    nextSample_[edge] += epochsPerSample_[edge];
                    const double perNegative = epochsPerSample_[edge] / rate;
                    const auto negatives =
                        rate > 0 ? static_cast<std::int64_t>((e - nextNegative_[edge]) / perNegative) : std::int64_t{0};
                    for (std::int64_t s = 0; s < negatives; ++s) {
                        const auto other = static_cast<std::int64_t>(draw(settings_.seed, static_cast<std::uint64_t>(e),
                                                                          static_cast<std::uint64_t>(k),
                                                                          static_cast<std::uint64_t>(s)) %
                                                                     static_cast<std::uint64_t>(n));
                        if (other == i)
                            continue;
                        double nd[Dims], nd2 = 0;
                        for (int c = 0; c < Dims; ++c) {
                            nd[c] = yi[c] - y_[static_cast<std::size_t>(Dims * other + c)];
                            nd2 += nd[c] * nd[c];
                        }
                        if (nd2 > 0) {
                            // In single precision: the force is clipped to 4 and scaled by the
                            // rate, and powf is half pow's cost (umap-learn's layout is float32).
                            const double p = std::pow(static_cast<float>(nd2), static_cast<float>(b));
                            const double coeff = 2.0 * b / ((0.001 + nd2) * (a * p + 1.0));
                            for (int c = 0; c < Dims; ++c)
                                f[c] += clip(coeff * nd[c]);
                        } else {
                            for (int c = 0; c < Dims; ++c)
                                f[c] += kClip; // one place: pushed apart along the diagonal, as umap-learn does
                        }
                    }
                    if (negatives > 0)
                        nextNegative_[edge] += static_cast<double>(negatives) * perNegative;
                }
                for (int c = 0; c < Dims; ++c)
                    next_[static_cast<std::size_t>(Dims * i + c)] = yi[c] + alpha * f[c];
            }
        },
        512);
}

namespace {

// Edges below w_max / epochs are never sampled (Umap's constructor). umap-learn drops them
// (umap/umap_.py, simplicial_set_embedding) before it finds the graph's pieces and lays it out
// spectrally, so an edge the epochs never pull along joins no two pieces; so do we, in place.
void dropUnsampledEdges(UmapGraph &g, int epochs)
{
    const double wMax = maxWeight(g);
    std::int64_t kept = 0;
    for (std::int64_t i = 0; i < g.n; ++i) {
        const std::int64_t begin = g.rowStart[static_cast<std::size_t>(i)];
        const std::int64_t end = g.rowStart[static_cast<std::size_t>(i + 1)];
        g.rowStart[static_cast<std::size_t>(i)] = kept;
        for (std::int64_t e = begin; e < end; ++e)
            if (sampledEdge(g.weight[static_cast<std::size_t>(e)], wMax, epochs)) {
                g.column[static_cast<std::size_t>(kept)] = g.column[static_cast<std::size_t>(e)];
                g.weight[static_cast<std::size_t>(kept++)] = g.weight[static_cast<std::size_t>(e)];
            }
    }
    g.rowStart[static_cast<std::size_t>(g.n)] = kept;
    g.column.resize(static_cast<std::size_t>(kept));
    g.weight.resize(static_cast<std::size_t>(kept));
}

} // namespace

std::optional<Umap> prepareUmap(const Encoding &encoding, const NoiseParams &noise, const UmapSettings &settings,
                                int dims, const std::atomic<bool> *cancel,
                                const std::function<void(const std::vector<double> &)> &onStart)
{
    UmapGraph graph;
    {
        const Neighbors nb = windowNeighbors(encoding, noise, settings.neighbors - 1, cancel);
        if (nb.n == 0)
            return std::nullopt;
        graph = umapGraph(nb, cancel);
    } // the lists freed before the start
    if (graph.n == 0)
        return std::nullopt;
    dropUnsampledEdges(graph, umapEpochs(settings, graph.n));
    const Rows rows = embeddingRows(encoding, noise); // the centroids of a graph in pieces
    std::vector<double> start = umapSpectralStart(graph, settings.seed, cancel, &rows, dims);
    if (start.empty())
        return std::nullopt;
    if (onStart)
        onStart(start);
    return Umap(std::move(graph), std::move(start), settings);
}

bool runUmap(Umap &umap, const std::function<bool(const Umap &)> &afterEpoch, const std::atomic<bool> *cancel)
{
    while (!umap.finished()) {
        if (!umap.step(cancel))
            return false;
        if (afterEpoch && !afterEpoch(umap))
            return true;
    }
    return true;
}

} // namespace pe
