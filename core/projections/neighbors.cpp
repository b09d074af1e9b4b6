#include "projections/neighbors.h"

#include "analysis/similarity.h"
#include "support/parallel.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace pe {

namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

RowMatrix toMatrix(const Rows &rows)
{
    RowMatrix m(rows.n, rows.d);
    rows.fill(0, rows.n, 1, m.data());
    return m;
}

// Keeps the k smallest (distance, index) pairs of one row, nearest first, ties by index.
void selectNearest(const double *dist, std::int64_t n, std::int64_t self, int k, std::vector<std::int32_t> &order,
                   std::int32_t *outIndex, double *outDist)
{
    order.clear();
    for (std::int64_t j = 0; j < n; ++j)
        if (j != self)
            order.push_back(static_cast<std::int32_t>(j));
    const auto closer = [dist](std::int32_t a, std::int32_t b) {
        return dist[a] < dist[b] || (dist[a] == dist[b] && a < b);
    };
    std::partial_sort(order.begin(), order.begin() + k, order.end(), closer);
    for (int j = 0; j < k; ++j) {
        outIndex[j] = order[j];
        outDist[j] = std::max(0.0, dist[order[j]]);
    }
}

} // namespace

Neighbors Neighbors::sized(std::int64_t n, int k)
{
    Neighbors nb;
    nb.n = n;
    nb.k = k;
    nb.index.resize(static_cast<std::size_t>(n * k));
    nb.dist2.resize(static_cast<std::size_t>(n * k));
    return nb;
}

std::vector<double> Rows::all() const
{
    std::vector<double> out(static_cast<std::size_t>(n * d));
    fill(0, n, 1, out.data());
    return out;
}

Rows embeddingRows(const Encoding &encoding, const NoiseParams &noise)
{
    const Block window = encoding.windowBlock();
    Rows rows;
    rows.n = window.rows;
    rows.d = window.cols;
    // A table without noise is scaled (the encodings and the noise already are of order 1).
    if (const PositionTable *table = encoding.table(); table && !noise.active())
        rows.scale = table->unitScale();
    rows.fill = [&encoding, noise, window, scale = rows.scale](std::int64_t first, std::int64_t count,
                                                               std::int64_t step, double *out) {
        Block b = window;
        b.firstPosition += first;
        b.positionStep = step;
        b.rows = count;
        fillEmbeddings(encoding, noise, b, out);
        if (scale != 1.0)
            for (std::int64_t i = 0; i < count * b.cols; ++i)
                out[i] *= scale;
    };
    if (!noise.active())
        rows.pure = &encoding;
    return rows;
}

void OffsetOrder::row(std::int64_t i, int k, std::int32_t *index, double *dist2Out) const
{
    int found = 0;
    for (std::size_t o = 0; o < offsets.size() && found < k; ++o) {
        const std::int64_t off = offsets[o];
        for (const std::int64_t j : {i - off, i + off})
            if (found < k && j >= 0 && j < n) {
                index[found] = static_cast<std::int32_t>(j);
                dist2Out[found] = dist2[static_cast<std::size_t>(off)];
                ++found;
            }
    }
}

OffsetOrder offsetOrder(const Encoding &encoding, const std::atomic<bool> *cancel)
{
    const std::int64_t n = encoding.params().seqLen;
    const auto stop = [cancel] { return cancel && cancel->load(); };
    if (stop() || n < 1)
        return {};
    const OffsetKernel kernel(encoding, n - 1);
    OffsetOrder order;
    order.dist2.resize(static_cast<std::size_t>(n));
    const double s0 = kernel(0);
    for (std::int64_t off = 0; off < n; ++off)
        order.dist2[static_cast<std::size_t>(off)] = std::max(0.0, 2.0 * (s0 - kernel(off)));
    order.offsets.resize(static_cast<std::size_t>(n - 1));
    std::iota(order.offsets.begin(), order.offsets.end(), std::int64_t(1));
    std::stable_sort(order.offsets.begin(), order.offsets.end(), [&](std::int64_t a, std::int64_t b) {
        return order.dist2[static_cast<std::size_t>(a)] < order.dist2[static_cast<std::size_t>(b)];
    });
    if (stop())
        return {};
    order.n = n;
    return order;
}

Neighbors offsetNeighbors(const Encoding &encoding, int k, const std::atomic<bool> *cancel)
{
    const std::int64_t n = encoding.params().seqLen;
    if (k < 1 || k >= n)
        throw std::invalid_argument("offsetNeighbors: k must be from 1 to n - 1");
    const OffsetOrder order = offsetOrder(encoding, cancel);
    if (order.n == 0)
        return {};
    Neighbors nb = Neighbors::sized(n, k);
    parallelFor(
        n,
        [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) {
                if ((i & 1023) == 0 && cancel && cancel->load())
                    return;
                order.row(i, k, &nb.index[static_cast<std::size_t>(i * k)], &nb.dist2[static_cast<std::size_t>(i * k)]);
            }
        },
        256);
    if (cancel && cancel->load())
        return {};
    return nb;
}

Neighbors exactNeighbors(const Rows &rows, int k, const std::atomic<bool> *cancel)
{
    const std::int64_t n = rows.n;
    if (k < 1 || k >= n)
        throw std::invalid_argument("exactNeighbors: k must be from 1 to n - 1");
    const RowMatrix x = toMatrix(rows);
    const Eigen::VectorXd norms = x.rowwise().squaredNorm();
    Neighbors nb = Neighbors::sized(n, k);
    constexpr std::int64_t kBlock = 64;
    const std::int64_t blocks = (n + kBlock - 1) / kBlock;
    parallelFor(blocks, [&](std::int64_t b0, std::int64_t b1) {
        RowMatrix d2;
        std::vector<std::int32_t> order;
        for (std::int64_t b = b0; b < b1; ++b) {
            if (cancel && cancel->load())
                return;
            const std::int64_t first = b * kBlock;
            const std::int64_t count = std::min(kBlock, n - first);
            // |x_i - x_j|^2 = |x_i|^2 + |x_j|^2 - 2 x_i . x_j, a block of rows against all.
            d2.noalias() = -2.0 * x.middleRows(first, count) * x.transpose();
            d2.rowwise() += norms.transpose();
            d2.colwise() += norms.segment(first, count);
            for (std::int64_t r = 0; r < count; ++r)
                selectNearest(d2.row(r).data(), n, first + r, k, order,
                              &nb.index[static_cast<std::size_t>((first + r) * k)],
                              &nb.dist2[static_cast<std::size_t>((first + r) * k)]);
        }
    });
    if (cancel && cancel->load())
        return {};
    return nb;
}

NeighborSearch neighborSearch(const EncodingParams &params, const NoiseParams &noise)
{
    if (OffsetKernel::applies(params, noise))
        return NeighborSearch::Offsets;
    const auto n = static_cast<double>(params.seqLen);
    return n * n * params.dModel <= limits::maxExactNeighborWork ? NeighborSearch::Exact : NeighborSearch::Approximate;
}

Neighbors windowNeighbors(const Encoding &encoding, const NoiseParams &noise, int k, const std::atomic<bool> *cancel)
{
    switch (neighborSearch(encoding.params(), noise)) {
    case NeighborSearch::Offsets:
        return offsetNeighbors(encoding, k, cancel);
    case NeighborSearch::Exact:
        return exactNeighbors(embeddingRows(encoding, noise), k, cancel);
    case NeighborSearch::Approximate:
        break;
    }
    return approximateNeighbors(embeddingRows(encoding, noise), k, cancel);
}

double trustworthiness(const Rows &input, const std::vector<double> &embedding, int dims, int k)
{
    const std::int64_t n = input.n;
    if (k < 1 || 2 * n - 3 * k - 1 <= 0)
        throw std::invalid_argument("trustworthiness: k must be from 1 to about 2n/3");
    const RowMatrix x = toMatrix(input);
    const Eigen::VectorXd norms = x.rowwise().squaredNorm();
    const Eigen::Map<const RowMatrix> y(embedding.data(), n, dims);
    std::vector<double> penalty(static_cast<std::size_t>(n), 0.0);
    parallelFor(n, [&](std::int64_t begin, std::int64_t end) {
        Eigen::VectorXd din(n), dout(n);
        std::vector<std::int32_t> inOrder, outOrder(static_cast<std::size_t>(k));
        std::vector<double> scratch(static_cast<std::size_t>(k));
        std::vector<std::int64_t> rank(static_cast<std::size_t>(n));
        for (std::int64_t i = begin; i < end; ++i) {
            din = norms.array() + norms(i) - 2.0 * (x * x.row(i).transpose()).array();
            dout = (y.rowwise() - y.row(i)).rowwise().squaredNorm();
            // Input ranks 1..n-1 of every other row (ties by index, as a stable argsort gives).
            inOrder.clear();
            for (std::int64_t j = 0; j < n; ++j)
                if (j != i)
                    inOrder.push_back(static_cast<std::int32_t>(j));
            std::stable_sort(inOrder.begin(), inOrder.end(),
                             [&](std::int32_t a, std::int32_t b) { return din(a) < din(b); });
            for (std::size_t r = 0; r < inOrder.size(); ++r)
                rank[static_cast<std::size_t>(inOrder[r])] = static_cast<std::int64_t>(r) + 1;
            std::vector<std::int32_t> order;
            selectNearest(dout.data(), n, i, k, order, outOrder.data(), scratch.data());
            double p = 0;
            for (int j = 0; j < k; ++j)
                p += static_cast<double>(std::max<std::int64_t>(0, rank[static_cast<std::size_t>(outOrder[j])] - k));
            penalty[static_cast<std::size_t>(i)] = p;
        }
    });
    const double sum = std::accumulate(penalty.begin(), penalty.end(), 0.0);
    const double nn = static_cast<double>(n), kk = k;
    return 1.0 - 2.0 / (nn * kk * (2.0 * nn - 3.0 * kk - 1.0)) * sum;
}

} // namespace pe
