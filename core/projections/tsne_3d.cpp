// t-SNE's gradient in 3-D (Tsne::gradient3d): the attraction over P's entries as in 2-D, the
// repulsion exactly for small n, else by Barnes-Hut over an octree (van der Maaten 2014, "Accelerating
// t-SNE using tree-based algorithms", JMLR 15, section 4: the same sums as the 2-D quadtree, each
// cell split in eight), grouped as the quadtree's is: one interaction list for each small cell,
// with the opening test against that cell's bounding box, which is stricter than scikit-learn's
// per-point test against the distance to a cell's centre of mass (sklearn/manifold/
// _barnes_hut_tsne.pyx, compute_gradient_negative). Written from the paper; no code is copied.
#include "projections/tsne.h"

#include "projections/tsne_octree.h"
#include "support/parallel.h"
#include "support/simd_clones.h"

#include <algorithm>

#include <cmath>
#include <limits>

namespace pe {

namespace {

// Groups of at most this many points share one interaction list (the quadtree's size).
constexpr std::int32_t kGroupSize = 256;

// The targets of grouped Barnes-Hut: the largest cells with at most kGroupSize points (and leaves).
void collectGroups(const std::vector<detail::Octree::Node> &nodes, std::int32_t at, std::vector<std::int32_t> &out)
{
    const detail::Octree::Node &node = nodes[static_cast<std::size_t>(at)];
    if (node.count <= kGroupSize || node.firstChild < 0) {
        out.push_back(at);
        return;
    }
    for (int c = 0; c < node.children; ++c)
        collectGroups(nodes, node.firstChild + c, out);
}

// Repulsion on the point (xi, yi, zi) from an interaction list of m cells (centres and counts):
// out = {sum c w, sum c w^2 d} with w = 1 / (1 + |d|^2), d = the point - the cell; in single
// precision, as the 2-D loops (forces need no more), vectorised for the processor.
PE_CLONES void repulsionFromList3(const float *lx, const float *ly, const float *lz, const float *lc, int m, float xi,
                                  float yi, float zi, double *out)
{
    float z = 0, fx = 0, fy = 0, fz = 0;
#pragma omp simd reduction(+ : z, fx, fy, fz)
    for (int j = 0; j < m; ++j) {
        const float dx = xi - lx[j], dy = yi - ly[j], dz = zi - lz[j];
        const float w = 1.0f / (1.0f + dx * dx + dy * dy + dz * dz);
        const float cw = lc[j] * w;
        z += cw;
        fx += cw * w * dx;
        fy += cw * w * dy;
        fz += cw * w * dz;
    }
    out[0] = z;
    out[1] = fx;
    out[2] = fy;
    out[3] = fz;
}

} // namespace

double Tsne::gradient3d(const std::atomic<bool> *cancel, double exaggeration, bool withKl)
{
    const std::int64_t n = p_.n;
    const double *y = y_.data();
    std::atomic<bool> stopped{false};
    const auto cancelled = [&] {
        if (cancel && cancel->load())
            stopped = true;
        return stopped.load();
    };
    // Attraction: sum_j p_ij w_ij (y_i - y_j), and sum p_ij log(1 + d_ij^2) for KL.
    parallelFor(
        n,
        [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) {
                double f[3] = {0, 0, 0}, kl = 0;
                p_.forEach(i, [&](std::int32_t j, double p) {
                    double d[3], d2 = 0;
                    for (int a = 0; a < 3; ++a) {
                        d[a] = y[3 * i + a] - y[3 * j + a];
                        d2 += d[a] * d[a];
                    }
                    const double w = 1.0 / (1.0 + d2);
                    for (int a = 0; a < 3; ++a)
                        f[a] += p * w * d[a];
                    if (withKl)
                        kl += p * std::log1p(d2);
                });
                klPart_[static_cast<std::size_t>(i)] = kl;
                for (int a = 0; a < 3; ++a)
                    grad_[static_cast<std::size_t>(3 * i + a)] = exaggeration * f[a];
            }
        },
        256);

    // Repulsion: sum_j w_ij^2 (y_i - y_j) and Z = sum_{i != j} w_ij, each point's on its own (the
    // same bits on any number of threads).
    const auto add = [](double count, const double *d, double d2, double &z, double *r) {
        const double w = 1.0 / (1.0 + d2);
        z += count * w;
        for (int a = 0; a < 3; ++a)
            r[a] += count * w * w * d[a];
    };
    if (exact_) {
        parallelFor(
            n,
            [&](std::int64_t begin, std::int64_t end) {
                for (std::int64_t i = begin; i < end; ++i) {
                    double z = 0, r[3] = {0, 0, 0};
                    for (std::int64_t j = 0; j < n; ++j) {
                        if (j == i)
                            continue;
                        double d[3], d2 = 0;
                        for (int a = 0; a < 3; ++a) {
                            d[a] = y[3 * i + a] - y[3 * j + a];
                            d2 += d[a] * d[a];
                        }
                        add(1.0, d, d2, z, r);
                    }
                    zPart_[static_cast<std::size_t>(i)] = z;
                    for (int a = 0; a < 3; ++a)
                        rep_[static_cast<std::size_t>(3 * i + a)] = r[a];
                }
            },
            16);
    } else {
        if (!octree_)
            octree_ = std::make_unique<detail::Octree>();
        octree_->build(y_, n);
        const std::vector<detail::Octree::Node> &nodes = octree_->nodes();
        const std::vector<std::int32_t> &order = octree_->order();
        std::vector<std::int32_t> groups;
        collectGroups(nodes, 0, groups);
        const double theta2 = settings_.theta * settings_.theta;
        // Grouped Barnes-Hut, as the quadtree's (Barnes 1990): one interaction list per small cell,
        // built with the opening test against the cell's bounding box (so it holds for every point
        // in it), then each point of the cell runs down the list in a vectorised loop.
        parallelFor(
            static_cast<std::int64_t>(groups.size()),
            [&](std::int64_t begin, std::int64_t end) {
                std::vector<float> list[4]; // x, y, z, count
                std::vector<std::int32_t> stack;
                for (std::int64_t g = begin; g < end; ++g) {
                    if ((g & 63) == 0 && cancelled())
                        return;
                    const detail::Octree::Node &group =
                        nodes[static_cast<std::size_t>(groups[static_cast<std::size_t>(g)])];
                    double lo[3], hi[3];
                    for (int a = 0; a < 3; ++a) {
                        lo[a] = std::numeric_limits<double>::infinity();
                        hi[a] = -lo[a];
                    }
                    for (std::int32_t r = group.begin; r < group.begin + group.count; ++r) {
                        const std::int64_t i = order[static_cast<std::size_t>(r)];
                        for (int a = 0; a < 3; ++a) {
                            lo[a] = std::min(lo[a], y[3 * i + a]);
                            hi[a] = std::max(hi[a], y[3 * i + a]);
                        }
                    }
                    for (std::vector<float> &l : list)
                        l.clear();
                    const auto push = [&](const double *c, double count) {
                        for (int a = 0; a < 3; ++a)
                            list[a].push_back(static_cast<float>(c[a]));
                        list[3].push_back(static_cast<float>(count));
                    };
                    stack.assign(1, 0);
                    while (!stack.empty()) {
                        const detail::Octree::Node &node = nodes[static_cast<std::size_t>(stack.back())];
                        stack.pop_back();
                        // A cell holding the group (itself or an ancestor) is always opened: its
                        // centre of mass may stand past the test's reach from points inside it (in
                        // a cube up to sqrt 3 sides away, beyond 1 / theta), and they would count
                        // themselves.
                        const bool holds = group.begin >= node.begin && group.begin < node.begin + node.count;
                        double d2 = 0;
                        for (int a = 0; a < 3; ++a) {
                            const double d = std::max({0.0, lo[a] - node.c[a], node.c[a] - hi[a]});
                            d2 += d * d;
                        }
                        if (!holds && node.width2 < theta2 * d2) {
                            push(node.c, node.count);
                        } else if (node.firstChild < 0) {
                            for (std::int32_t r = node.begin; r < node.begin + node.count; ++r)
                                push(y + 3 * order[static_cast<std::size_t>(r)], 1.0);
                        } else {
                            for (int c = 0; c < node.children; ++c)
                                stack.push_back(node.firstChild + c);
                        }
                    }
                    const int m = static_cast<int>(list[0].size());
                    for (std::int32_t r = group.begin; r < group.begin + group.count; ++r) {
                        const std::int64_t i = order[static_cast<std::size_t>(r)];
                        double acc[4];
                        repulsionFromList3(list[0].data(), list[1].data(), list[2].data(), list[3].data(), m,
                                           static_cast<float>(y[3 * i]), static_cast<float>(y[3 * i + 1]),
                                           static_cast<float>(y[3 * i + 2]), acc);
                        zPart_[static_cast<std::size_t>(i)] = acc[0] - 1.0; // i itself, at distance 0
                        for (int a = 0; a < 3; ++a)
                            rep_[static_cast<std::size_t>(3 * i + a)] = acc[a + 1];
                    }
                }
            },
            1);
    }
    if (cancelled())
        return std::numeric_limits<double>::quiet_NaN();
    return combineGradient(withKl);
}

} // namespace pe
