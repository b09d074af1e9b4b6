// t-SNE's gradient in 3-D (Tsne::gradient3d): the attraction over P's entries as in 2-D, the
// repulsion exactly for small n, else by Barnes-Hut over an octree (van der Maaten 2014, "Accelerating
// t-SNE using tree-based algorithms", JMLR 15, section 4: the same sums as the 2-D quadtree, each
// cell split in eight), each point walking the tree on its own with the opening test against its
// distance to a cell's centre of mass, as scikit-learn's 3-D Barnes-Hut does (sklearn/manifold/
// _barnes_hut_tsne.pyx, compute_gradient_negative). Written from the paper; no code is copied.
#include "projections/tsne.h"

#include "projections/tsne_octree.h"
#include "support/parallel.h"

#include <cmath>
#include <limits>

namespace pe {

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
        const double theta2 = settings_.theta * settings_.theta;
        // In the tree's order, so neighbouring points walk the same cells.
        parallelFor(
            n,
            [&](std::int64_t begin, std::int64_t end) {
                std::vector<std::int32_t> stack;
                for (std::int64_t r = begin; r < end; ++r) {
                    if ((r & 1023) == 0 && cancelled())
                        return;
                    const std::int64_t i = order[static_cast<std::size_t>(r)];
                    const double *yi = y + 3 * i;
                    double z = 0, acc[3] = {0, 0, 0};
                    stack.assign(1, 0);
                    while (!stack.empty()) {
                        const detail::Octree::Node &node = nodes[static_cast<std::size_t>(stack.back())];
                        stack.pop_back();
                        if (node.firstChild < 0) {
                            for (std::int32_t k = node.begin; k < node.begin + node.count; ++k) {
                                const std::int64_t j = order[static_cast<std::size_t>(k)];
                                if (j == i)
                                    continue;
                                double d[3], d2 = 0;
                                for (int a = 0; a < 3; ++a) {
                                    d[a] = yi[a] - y[3 * j + a];
                                    d2 += d[a] * d[a];
                                }
                                add(1.0, d, d2, z, acc);
                            }
                            continue;
                        }
                        double d[3], d2 = 0;
                        for (int a = 0; a < 3; ++a) {
                            d[a] = yi[a] - node.c[a];
                            d2 += d[a] * d[a];
                        }
                        if (node.width2 < theta2 * d2)
                            add(node.count, d, d2, z, acc);
                        else
                            for (int c = 0; c < node.children; ++c)
                                stack.push_back(node.firstChild + c);
                    }
                    zPart_[static_cast<std::size_t>(i)] = z;
                    for (int a = 0; a < 3; ++a)
                        rep_[static_cast<std::size_t>(3 * i + a)] = acc[a];
                }
            },
            256);
    }
    if (cancelled())
        return std::numeric_limits<double>::quiet_NaN();
    return combineGradient(withKl);
}

} // namespace pe
