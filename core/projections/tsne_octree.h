#pragma once

// The octree of 3-D t-SNE's Barnes-Hut repulsion (tsne_3d.cpp); internal to core/projections.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace pe {

namespace detail {

// A Morton-ordered octree over the points: each node's centre of mass, count and the square of its
// side, its points (order[begin .. begin + count - 1]) and its children (contiguous, or none).
class Octree
{
  public:
    struct Node {
        double c[3];
        double width2;
        std::int32_t begin, count;
        std::int32_t firstChild = -1;
        int children = 0;
    };
    // Cells of at most this many points are leaves, their points summed exactly.
    static constexpr std::int32_t kLeaf = 8;
    static constexpr int kLevels = 21; // 21 bits an axis: 63-bit keys

    void build(const std::vector<double> &y, std::int64_t n)
    {
        double lo[3], hi[3];
        for (int a = 0; a < 3; ++a) {
            lo[a] = std::numeric_limits<double>::infinity();
            hi[a] = -lo[a];
        }
        for (std::int64_t i = 0; i < n; ++i)
            for (int a = 0; a < 3; ++a) {
                lo[a] = std::min(lo[a], y[static_cast<std::size_t>(3 * i + a)]);
                hi[a] = std::max(hi[a], y[static_cast<std::size_t>(3 * i + a)]);
            }
        const double side = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], 1e-12});
        const double scale = ((1u << kLevels) - 1) / side;
        keys_.resize(static_cast<std::size_t>(n));
        order_.resize(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i) {
            std::uint64_t key = 0;
            for (int a = 0; a < 3; ++a) {
                const auto q =
                    static_cast<std::uint64_t>(std::min(static_cast<double>((1u << kLevels) - 1),
                                                        (y[static_cast<std::size_t>(3 * i + a)] - lo[a]) * scale));
                key |= spread(q) << (2 - a);
            }
            keys_[static_cast<std::size_t>(i)] = key;
            order_[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(i);
        }
        sortByKey();
        nodes_.clear();
        nodes_.push_back({});
        fill(0, 0, static_cast<std::int32_t>(n), 0, side, y);
    }

    const std::vector<Node> &nodes() const { return nodes_; }
    const std::vector<std::int32_t> &order() const { return order_; }

  private:
    // The 21 bits of x at every third bit of a 64-bit word.
    static std::uint64_t spread(std::uint64_t x)
    {
        x &= 0x1fffff;
        x = (x | x << 32) & 0x1f00000000ffffULL;
        x = (x | x << 16) & 0x1f0000ff0000ffULL;
        x = (x | x << 8) & 0x100f00f00f00f00fULL;
        x = (x | x << 4) & 0x10c30c30c30c30c3ULL;
        x = (x | x << 2) & 0x1249249249249249ULL;
        return x;
    }

    // order_ by keys_ (least significant digit first, four passes of 16 bits: linear in n).
    void sortByKey()
    {
        const std::size_t n = keys_.size();
        // Kept from step to step, as the quadtree's buffers are (fresh ones cost page faults).
        std::vector<std::uint64_t> &keys = sortKeys_;
        std::vector<std::int32_t> &order = sortOrder_;
        keys.resize(n);
        order.resize(n);
        std::vector<std::size_t> &count = counts_;
        count.resize(1 << 16);
        for (int pass = 0; pass < 4; ++pass) {
            const int shift = 16 * pass;
            std::fill(count.begin(), count.end(), 0);
            for (std::size_t i = 0; i < n; ++i)
                ++count[(keys_[i] >> shift) & 0xffff];
            std::size_t at = 0;
            for (std::size_t &c : count)
                at += std::exchange(c, at);
            for (std::size_t i = 0; i < n; ++i) {
                const std::size_t to = count[(keys_[i] >> shift) & 0xffff]++;
                keys[to] = keys_[i];
                order[to] = order_[i];
            }
            keys_.swap(keys);
            order_.swap(order);
        }
    }

    // Node `at` holds sorted points begin .. end - 1 at `level` (side `width`); its children are
    // the runs of equal octant digits below it, given contiguous slots before any is filled.
    void fill(std::size_t at, std::int32_t begin, std::int32_t end, int level, double width,
              const std::vector<double> &y)
    {
        Node node;
        node.begin = begin;
        node.count = end - begin;
        node.width2 = width * width;
        double c[3] = {0, 0, 0};
        for (std::int32_t r = begin; r < end; ++r)
            for (int a = 0; a < 3; ++a)
                c[a] +=
                    y[3 * static_cast<std::size_t>(order_[static_cast<std::size_t>(r)]) + static_cast<std::size_t>(a)];
        for (int a = 0; a < 3; ++a)
            node.c[a] = c[a] / std::max(1, node.count);
        if (node.count <= kLeaf || level == kLevels) {
            nodes_[at] = node;
            return;
        }
        const int shift = 3 * (kLevels - 1 - level);
        const auto digit = [&](std::int32_t r) { return (keys_[static_cast<std::size_t>(r)] >> shift) & 7; };
        std::int32_t runs[9];
        int children = 0;
        for (std::int32_t r = begin; r < end; ++r)
            if (r == begin || digit(r) != digit(r - 1))
                runs[children++] = r;
        runs[children] = end;
        node.firstChild = static_cast<std::int32_t>(nodes_.size());
        node.children = children;
        nodes_[at] = node;
        nodes_.resize(nodes_.size() + static_cast<std::size_t>(children));
        for (int k = 0; k < children; ++k)
            fill(static_cast<std::size_t>(node.firstChild + k), runs[k], runs[k + 1], level + 1, width / 2, y);
    }

    std::vector<std::uint64_t> keys_, sortKeys_;
    std::vector<std::int32_t> order_, sortOrder_;
    std::vector<std::size_t> counts_;
    std::vector<Node> nodes_;
};

} // namespace detail

} // namespace pe
