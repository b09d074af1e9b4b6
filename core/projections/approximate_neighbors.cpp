// The k nearest neighbours above the exact search's reach, from a hierarchical navigable
// small-world graph: Malkov and Yashunin, "Efficient and robust approximate nearest neighbor search
// using Hierarchical Navigable Small World graphs", IEEE TPAMI 42(4), 2020 (arXiv:1603.09320).
// The index is Debian's hnswlib 0.6.2 (libhnswlib-dev, header-only; github.com/nmslib/hnswlib),
// used through its documented interface: HierarchicalNSW<float>(space, max_elements, M,
// ef_construction, random_seed), addPoint, setEf, searchKnn (a max-heap of squared L2 distances).
#include "projections/neighbors.h"

#include "support/parallel.h"
#include "support/text.h"

#include <hnswlib/hnswlib.h>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace pe {

namespace {

// In double, four sums at a time (so the compiler can keep them in vector lanes; the order is
// fixed, so the result is too).
double squaredDistance(const float *a, const float *b, int d)
{
    double s[4] = {0, 0, 0, 0};
    int c = 0;
    for (; c + 4 <= d; c += 4)
        for (int l = 0; l < 4; ++l) {
            const double e = static_cast<double>(a[c + l]) - static_cast<double>(b[c + l]);
            s[l] += e * e;
        }
    for (; c < d; ++c) {
        const double e = static_cast<double>(a[c]) - static_cast<double>(b[c]);
        s[0] += e * e;
    }
    return (s[0] + s[1]) + (s[2] + s[3]);
}

// A row's single-precision values, by its index.
using RowAccess = std::function<const float *(std::int64_t row)>;

// The rows in single precision (as the index holds them: half the memory of doubles, and hnswlib's
// L2 space is float), a block at a time: take(first, count, values). False when cancelled.
bool forEachFloatBlock(const Rows &rows, const std::atomic<bool> *cancel,
                       const std::function<void(std::int64_t first, std::int64_t count, const float *values)> &take)
{
    constexpr std::int64_t kBlock = 2048;
    std::vector<double> block;
    std::vector<float> values;
    for (std::int64_t first = 0; first < rows.n; first += kBlock) {
        if (cancel && cancel->load())
            return false;
        const std::int64_t count = std::min(kBlock, rows.n - first);
        block.resize(static_cast<std::size_t>(count * rows.d));
        rows.fill(first, count, 1, block.data());
        values.resize(block.size());
        for (std::size_t i = 0; i < block.size(); ++i) {
            values[i] = static_cast<float>(block[i]);
            if (!std::isfinite(values[i]))
                throw std::invalid_argument("a value of the vectors does not fit in single precision");
        }
        take(first, count, values.data());
    }
    return true;
}

// Sample rows' exact k nearest by every distance (blocked products through Eigen), and the share of
// them the approximate lists hold. A listed row as near as the k-th exact one counts: ties may be
// listed either way, and the product's rounding differs from squaredDistance's by far less than
// the 1e-9 allowed.
double sampleRecall(const RowAccess &row, int d, const Neighbors &nb, std::int64_t sample,
                    const std::atomic<bool> *cancel)
{
    using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const auto rowOfFloats = [&row, d](std::int64_t i) { return Eigen::Map<const Eigen::RowVectorXf>(row(i), d); };
    const std::int64_t n = nb.n;
    const int k = nb.k;
    const auto rowOf = [n, sample](std::int64_t s) { return s * n / sample; }; // evenly over the window
    constexpr std::int64_t kSampleBlock = 32, kChunk = 4096;
    const std::int64_t blocks = (sample + kSampleBlock - 1) / kSampleBlock;
    std::vector<std::int64_t> found(static_cast<std::size_t>(blocks), 0);
    parallelFor(blocks, [&](std::int64_t b0, std::int64_t b1) {
        for (std::int64_t b = b0; b < b1; ++b) {
            const std::int64_t first = b * kSampleBlock, count = std::min(kSampleBlock, sample - first);
            RowMatrix q(count, d);
            for (std::int64_t s = 0; s < count; ++s)
                q.row(s) = rowOfFloats(rowOf(first + s)).cast<double>();
            const Eigen::VectorXd qNorms = q.rowwise().squaredNorm();
            // Each sample row's k smallest so far, a max-heap.
            std::vector<std::vector<double>> nearest(static_cast<std::size_t>(count));
            RowMatrix chunk, d2;
            for (std::int64_t c0 = 0; c0 < n; c0 += kChunk) {
                if (cancel && cancel->load())
                    return;
                const std::int64_t rows = std::min(kChunk, n - c0);
                chunk.resize(rows, d);
                for (std::int64_t j = 0; j < rows; ++j)
                    chunk.row(j) = rowOfFloats(c0 + j).cast<double>();
                d2.noalias() = -2.0 * q * chunk.transpose();
                d2.rowwise() += chunk.rowwise().squaredNorm().transpose();
                d2.colwise() += qNorms;
                for (std::int64_t s = 0; s < count; ++s) {
                    auto &heap = nearest[static_cast<std::size_t>(s)];
                    const std::int64_t self = rowOf(first + s);
                    for (std::int64_t j = 0; j < rows; ++j) {
                        const double v = std::max(0.0, d2(s, j));
                        if (c0 + j == self || (static_cast<int>(heap.size()) == k && v >= heap.front()))
                            continue;
                        if (static_cast<int>(heap.size()) == k) {
                            std::pop_heap(heap.begin(), heap.end());
                            heap.back() = v;
                        } else {
                            heap.push_back(v);
                        }
                        std::push_heap(heap.begin(), heap.end());
                    }
                }
            }
            for (std::int64_t s = 0; s < count; ++s) {
                const double bound = nearest[static_cast<std::size_t>(s)].front() * (1 + 1e-9);
                const std::int64_t i = rowOf(first + s);
                for (int j = 0; j < k; ++j)
                    found[static_cast<std::size_t>(b)] +=
                        nb.dist2[static_cast<std::size_t>(i * k + j)] <= bound ? 1 : 0;
            }
        }
    });
    std::int64_t total = 0;
    for (std::int64_t f : found)
        total += f;
    return static_cast<double>(total) / (static_cast<double>(sample) * k);
}

} // namespace

std::string recallNote(const Recall &recall)
{
    if (!recall.approximate())
        return {};
    char value[16];
    std::snprintf(value, sizeof value, "%.3f", recall.value);
    return "approximate neighbours (HNSW): recall@" + std::to_string(recall.k) + " " + value + " on " +
           withThousands(recall.sample) + " rows";
}

double measureRecall(const Rows &rows, const Neighbors &nb, std::int64_t sample, const std::atomic<bool> *cancel)
{
    if (nb.n != rows.n || sample < 1 || sample > rows.n)
        throw std::invalid_argument("measureRecall: the lists are not of these rows, or the sample is not 1 to n");
    std::vector<float> x(static_cast<std::size_t>(rows.n * rows.d));
    if (!forEachFloatBlock(rows, cancel, [&](std::int64_t first, std::int64_t count, const float *values) {
            std::copy_n(values, count * rows.d, x.begin() + first * rows.d);
        }))
        return std::numeric_limits<double>::quiet_NaN();
    const int d = rows.d;
    const double recall = sampleRecall([&x, d](std::int64_t i) { return x.data() + i * d; }, d, nb, sample, cancel);
    return cancel && cancel->load() ? std::numeric_limits<double>::quiet_NaN() : recall;
}

std::int64_t recallSampleSize(std::int64_t n, int d)
{
    // About 2e10 multiply-adds (a few seconds on two cores), from 100 to 1,000 rows.
    const double fit = 2e10 / (static_cast<double>(n) * std::max(1, d));
    return std::min<std::int64_t>(n, std::clamp<std::int64_t>(static_cast<std::int64_t>(fit), 100, 1000));
}

Neighbors approximateNeighbors(const Rows &rows, int k, const std::atomic<bool> *cancel)
{
    const std::int64_t n = rows.n;
    if (k < 1 || k >= n)
        throw std::invalid_argument("approximateNeighbors: k must be from 1 to n - 1");
    const int d = rows.d;

    // The graph is built on one thread: hnswlib's concurrent insertion links points in whatever
    // order the threads reach them, and the same seed must give the same neighbours (and so the
    // same t-SNE or UMAP bits) run after run, on any number of threads. The searches, which only
    // read it, use every core. The rows are held by the index alone (row i is its internal id i:
    // inserted in order).
    hnswlib::L2Space space(static_cast<std::size_t>(d));
    hnswlib::HierarchicalNSW<float> index(&space, static_cast<std::size_t>(n), kHnswLinks, kHnswBuildBreadth,
                                          kHnswSeed);
    if (!forEachFloatBlock(rows, cancel,
                           [&](std::int64_t first, std::int64_t count, const float *values) {
                               for (std::int64_t r = 0; r < count; ++r) {
                                   if (((first + r) & 1023) == 0 && cancel && cancel->load())
                                       return;
                                   index.addPoint(values + r * d, static_cast<hnswlib::labeltype>(first + r));
                               }
                           }) ||
        (cancel && cancel->load()))
        return {};
    const RowAccess row = [&index](std::int64_t i) {
        return reinterpret_cast<const float *>(index.getDataByInternalId(static_cast<hnswlib::tableint>(i)));
    };
    // Each search keeps k + 1 (the row itself is in the index) and looks at least twice as wide.
    index.setEf(static_cast<std::size_t>(std::max(2 * (k + 1), kHnswSearchBreadth)));

    Neighbors nb = Neighbors::sized(n, k);
    parallelFor(
        n,
        [&](std::int64_t begin, std::int64_t end) {
            std::vector<std::pair<double, std::int32_t>> list;
            for (std::int64_t i = begin; i < end; ++i) {
                if ((i & 63) == 0 && cancel && cancel->load())
                    return;
                const float *self = row(i);
                auto heap = index.searchKnn(self, static_cast<std::size_t>(k + 1));
                list.clear();
                for (; !heap.empty(); heap.pop()) {
                    const auto j = static_cast<std::int32_t>(heap.top().second);
                    if (j != i) // distances again in double, from the same single-precision rows
                        list.emplace_back(squaredDistance(self, row(j), d), j);
                }
                // Fewer than k found (a point the graph's pruning left hard to reach, duplicate
                // rows): this row's lists by every distance instead, never padded.
                if (static_cast<int>(list.size()) < k) {
                    list.clear();
                    for (std::int64_t j = 0; j < n; ++j)
                        if (j != i)
                            list.emplace_back(squaredDistance(self, row(j), d), static_cast<std::int32_t>(j));
                }
                const auto closer = [](const auto &a, const auto &b) {
                    return a.first < b.first || (a.first == b.first && a.second < b.second);
                };
                std::partial_sort(list.begin(), list.begin() + k, list.end(), closer);
                for (int j = 0; j < k; ++j) {
                    nb.index[static_cast<std::size_t>(i * k + j)] = list[static_cast<std::size_t>(j)].second;
                    nb.dist2[static_cast<std::size_t>(i * k + j)] = list[static_cast<std::size_t>(j)].first;
                }
            }
        },
        256);
    if (cancel && cancel->load())
        return {};
    nb.recall.sample = recallSampleSize(n, d);
    nb.recall.k = k;
    nb.recall.value = sampleRecall(row, d, nb, nb.recall.sample, cancel);
    if (cancel && cancel->load())
        return {};
    return nb;
}

} // namespace pe
