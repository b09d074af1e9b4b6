#include "projections/pca.h"

#include "encodings/encoding_covariance.h"
#include "support/parallel.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

namespace pe {

namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
constexpr std::int64_t kRowBlock = 512;
// Against a formed covariance an iteration costs d^2 a vector, not a pass over the rows.
constexpr int kMaxFormedIterations = 5000;
// Streamed rows (noise, a table) with at least d of them get their covariance formed at once up to
// this d (the matrix 32 MiB, a super-block of rows 64 MiB; 100,000 rows of d 768 take 1.5 s of
// products here); above it, only when the streamed iteration is slow to settle.
constexpr int kFormedUpTo = 2048;
// Formed later (streamed passes slow to settle) up to this d: 128 MiB, and a super-block's product
// about 7e10 multiply-adds (a few seconds, cancel checked at each tile). Position tables reach
// 16,384 columns, whose 2 GiB matrix no PCA forms.
constexpr int kFormedLaterUpTo = 4096;

// The rows a PCA uses: all of them, or every stride-th.
struct Sample {
    const Rows &rows;
    std::int64_t stride;
    std::int64_t count;

    void fill(std::int64_t first, std::int64_t n, RowMatrix &out) const
    {
        out.resize(n, rows.d);
        rows.fill(first * stride, n, stride, out.data());
    }
};

// Sum over the sample of f(block of rows). Each block's part is kept and the parts are added in
// block order, so the result does not depend on the threads: t-SNE, which starts from this,
// magnifies a last-bit difference into a different picture.
template <class F> Eigen::MatrixXd accumulate(const Sample &s, Eigen::Index rowsOut, Eigen::Index colsOut, F f)
{
    const std::int64_t blocks = (s.count + kRowBlock - 1) / kRowBlock;
    std::vector<Eigen::MatrixXd> parts(static_cast<std::size_t>(blocks));
    parallelFor(blocks, [&](std::int64_t b0, std::int64_t b1) {
        RowMatrix x;
        for (std::int64_t b = b0; b < b1; ++b) {
            const std::int64_t first = b * kRowBlock;
            s.fill(first, std::min(kRowBlock, s.count - first), x);
            Eigen::MatrixXd &part = parts[static_cast<std::size_t>(b)];
            part.setZero(rowsOut, colsOut);
            f(x, part);
        }
    });
    Eigen::MatrixXd total = Eigen::MatrixXd::Zero(rowsOut, colsOut);
    for (const Eigen::MatrixXd &part : parts)
        total += part;
    return total;
}

// The rows' mean, covariance (divisor n - 1) and its trace, formed in one pass. The rows are taken
// a super-block at a time: filled on every thread (kRowBlock rows each), moved by a shift (the
// first super-block's mean, so that the sums below do not cancel), and added to the upper
// triangle of S = sum (x - shift)(x - shift)^T a tile of columns at a time on every thread
// (Eigen's matrix product: the tile's columns against every column up to its last). Then
// C = (S - u u^T / n) / (n - 1), with u = sum (x - shift). Each entry is one tile's and each
// column sum one block's, summed in order, so the result does not depend on the threads. Empty
// (cancelled) when cancel is set.
struct Formed {
    Eigen::VectorXd mean;
    Eigen::MatrixXd covariance;
    double total = 0;
    bool cancelled = false;
};

Formed formedCovariance(const Sample &s, const std::atomic<bool> *cancel)
{
    const int d = s.rows.d;
    constexpr std::int64_t kSuperBlock = 8 * kRowBlock;
    constexpr int kTile = 48;
    const int tiles = (d + kTile - 1) / kTile;
    Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(d, d);
    Eigen::VectorXd shift, moved = Eigen::VectorXd::Zero(d);
    std::vector<Eigen::VectorXd> parts(static_cast<std::size_t>(kSuperBlock / kRowBlock));
    RowMatrix x;
    Formed f;
    for (std::int64_t first = 0; first < s.count; first += kSuperBlock) {
        if (cancel && cancel->load()) {
            f.cancelled = true;
            return f;
        }
        const std::int64_t count = std::min(kSuperBlock, s.count - first);
        const std::int64_t blocks = (count + kRowBlock - 1) / kRowBlock;
        x.resize(count, d);
        parallelFor(blocks, [&](std::int64_t b0, std::int64_t b1) {
            for (std::int64_t b = b0; b < b1; ++b) {
                const std::int64_t from = b * kRowBlock;
                s.rows.fill((first + from) * s.stride, std::min(kRowBlock, count - from), s.stride,
                            x.data() + from * d);
            }
        });
        if (first == 0)
            shift = x.colwise().mean().transpose();
        parallelFor(blocks, [&](std::int64_t b0, std::int64_t b1) {
            for (std::int64_t b = b0; b < b1; ++b) {
                const std::int64_t from = b * kRowBlock, rows = std::min(kRowBlock, count - from);
                x.middleRows(from, rows).rowwise() -= shift.transpose();
                parts[static_cast<std::size_t>(b)] = x.middleRows(from, rows).colwise().sum().transpose();
            }
        });
        for (std::int64_t b = 0; b < blocks; ++b)
            moved += parts[static_cast<std::size_t>(b)];
        // The widest tiles (the last columns) first, so the threads finish together.
        parallelFor(tiles, [&](std::int64_t t0, std::int64_t t1) {
            for (std::int64_t t = tiles - 1 - t0; t > tiles - 1 - t1; --t) {
                if (cancel && cancel->load())
                    return;
                const int j0 = static_cast<int>(t) * kTile, width = std::min(kTile, d - j0);
                sum.block(0, j0, j0 + width, width).noalias() +=
                    x.leftCols(j0 + width).transpose() * x.middleCols(j0, width);
            }
        });
    }
    if (cancel && cancel->load()) {
        f.cancelled = true;
        return f;
    }
    x = RowMatrix(); // one d x d matrix from here on
    const double n = static_cast<double>(s.count);
    sum.triangularView<Eigen::StrictlyLower>() = sum.transpose();
    sum.noalias() -= (moved / n) * moved.transpose();
    sum /= n - 1;
    f.mean = shift + moved / n;
    f.total = sum.trace();
    f.covariance = std::move(sum);
    return f;
}

// What a cancelled call returns (its callers read `cancelled` alone).
Pca cancelledPca()
{
    Pca pca;
    pca.cancelled = true;
    return pca;
}

} // namespace

Pca principalComponents(const Rows &rows, int k, std::int64_t maxRows, const std::atomic<bool> *cancel,
                        double tolerance, PcaPath path)
{
    const int d = rows.d;
    if (rows.n < 2 || k < 1 || k > d || k > rows.n)
        throw std::invalid_argument("principalComponents: need 2 rows or more and 1 <= k <= min(n, d)");
    const std::int64_t stride = maxRows > 0 ? std::max<std::int64_t>(1, (rows.n + maxRows - 1) / maxRows) : 1;
    const Sample s{rows, stride, (rows.n + stride - 1) / stride};
    const double n = static_cast<double>(s.count);

    Eigen::VectorXd mean;
    double total = 0;
    std::function<Eigen::MatrixXd(const Eigen::MatrixXd &)> times;
    ColumnCovariance closed;
    Eigen::MatrixXd formed; // the rows' covariance, when formed
    const auto multiplyByFormed = [&](Eigen::MatrixXd covariance) {
        formed = std::move(covariance);
        times = [&formed](const Eigen::MatrixXd &v) { return Eigen::MatrixXd(formed * v); };
    };
    // The encoding's covariance in closed form, O(d^2) whatever n: a product by it costs d^2 per
    // vector instead of a pass over every row. Worth it once there are more rows than columns; with
    // fewer (128 positions of d 4,096) the passes over the rows are cheaper than d^2 kernels, and the
    // d x d matrix (128 MiB at d 4,096) is not needed. Row r of the rows is position start + r.
    if (rows.pure && hasClosedFormCovariance(*rows.pure) && s.count > d) {
        closed = columnCovariance(*rows.pure, rows.pure->params().startPos, s.count, stride, cancel);
        if (closed.cancelled)
            return cancelledPca();
        mean = Eigen::Map<const Eigen::VectorXd>(closed.mean.data(), d);
        const Eigen::Map<const Eigen::MatrixXd> covariance(closed.covariance.data(), d, d);
        total = covariance.trace();
        times = [covariance](const Eigen::MatrixXd &v) { return Eigen::MatrixXd(covariance * v); };
    } else if (path == PcaPath::Auto && s.count >= d && d <= kFormedUpTo) {
        // Formed at once: one pass over the rows (a noisy row's values cost more to make than to
        // multiply: the streamed passes below spent most of their time drawing the noise again).
        Formed f = formedCovariance(s, cancel);
        if (f.cancelled)
            return cancelledPca();
        mean = std::move(f.mean);
        total = f.total;
        multiplyByFormed(std::move(f.covariance));
    } else {
        mean = accumulate(s, d, 1,
                          [](const RowMatrix &x, Eigen::MatrixXd &acc) { acc += x.colwise().sum().transpose(); }) /
               n;
        total = accumulate(s, 1, 1,
                           [&](const RowMatrix &x, Eigen::MatrixXd &acc) {
                               acc(0, 0) += (x.rowwise() - mean.transpose()).squaredNorm();
                           })(0, 0) /
                (n - 1);
        // C v = (X - 1 mean^T)^T (X - 1 mean^T) v / (n - 1), one pass over the rows. Rows are centred
        // on the right only: sum_r x_r (x_r - m)^T v = sum_r (x_r - m)(x_r - m)^T v because
        // sum_r (x_r - m) = 0.
        times = [&](const Eigen::MatrixXd &v) {
            return Eigen::MatrixXd(accumulate(s, d, v.cols(),
                                              [&](const RowMatrix &x, Eigen::MatrixXd &acc) {
                                                  const Eigen::MatrixXd xv = (x * v).rowwise() - (mean.transpose() * v);
                                                  acc.noalias() += x.transpose() * xv;
                                              }) /
                                   (n - 1));
        };
    }

    const int block = std::min(d, std::min<int>(static_cast<int>(std::min<std::int64_t>(s.count, d)), k + 6));
    // Streamed rows (d above kFormedUpTo) whose components have not settled after this many passes
    // (noise flattens the spectrum: 300 passes over 100,000 x 768 noisy rows took 36 s) get their
    // covariance formed once, about the cost of d / (16 block) passes (a matrix product runs several
    // times faster a value than the passes' thin products), and the iteration goes on against it at
    // d^2 a vector.
    const int formAfter = path == PcaPath::Auto && closed.covariance.empty() && formed.size() == 0 && s.count >= d &&
                                  d <= kFormedLaterUpTo
                              ? std::max(2, d / (16 * block))
                              : -1;
    // A fixed start, so the same input always gives the same components (and signs).
    Eigen::MatrixXd v(d, block);
    for (int c = 0; c < block; ++c)
        for (int j = 0; j < d; ++j)
            v(j, c) = std::cos(0.7 * (j + 1) * (c + 1) + 0.3 * c) + (j % (c + 2) == 0 ? 0.5 : 0.0);
    v = Eigen::HouseholderQR<Eigen::MatrixXd>(v).householderQ() * Eigen::MatrixXd::Identity(d, block);

    Pca pca;
    pca.d = d;
    pca.totalVariance = total;
    Eigen::VectorXd previous = Eigen::VectorXd::Constant(block, -1.0);
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> ritz;
    Eigen::MatrixXd cv;
    for (int it = 1; it <= (formed.size() ? kMaxFormedIterations : 300); ++it) {
        if (cancel && cancel->load())
            return cancelledPca();
        if (it == formAfter + 1) {
            Formed f = formedCovariance(s, cancel);
            if (f.cancelled)
                return cancelledPca();
            multiplyByFormed(std::move(f.covariance)); // the streamed pass's mean and total kept
        }
        cv = times(v);
        ritz.compute(v.transpose() * cv);
        const Eigen::VectorXd values = ritz.eigenvalues().reverse();
        pca.iterations = it;
        const double change = (values.head(k) - previous.head(k)).cwiseAbs().maxCoeff();
        if (block == d || change <= tolerance * std::max(values(0), 1e-300))
            break;
        previous = values;
        v = Eigen::HouseholderQR<Eigen::MatrixXd>(cv).householderQ() * Eigen::MatrixXd::Identity(d, block);
    }
    pca.formed = formed.size() > 0;
    // Ritz vectors of the last block, largest first, with a sign fixed by the largest entry.
    const Eigen::MatrixXd vectors = v * ritz.eigenvectors();
    pca.mean.assign(mean.data(), mean.data() + d);
    for (int c = 0; c < k; ++c) {
        Eigen::VectorXd u = vectors.col(block - 1 - c).normalized();
        Eigen::Index at = 0;
        u.cwiseAbs().maxCoeff(&at);
        if (u(at) < 0)
            u = -u;
        pca.components.insert(pca.components.end(), u.data(), u.data() + d);
        pca.variance.push_back(std::max(0.0, ritz.eigenvalues()(block - 1 - c)));
    }
    return pca;
}

std::vector<double> project(const Rows &rows, const Pca &pca, const std::atomic<bool> *cancel)
{
    const int k = pca.count();
    std::vector<double> out(static_cast<std::size_t>(rows.n * k));
    const Eigen::Map<const Eigen::MatrixXd> comps(pca.components.data(), pca.d, k);
    const Eigen::Map<const Eigen::RowVectorXd> mean(pca.mean.data(), pca.d);
    const std::int64_t blocks = (rows.n + kRowBlock - 1) / kRowBlock;
    parallelFor(blocks, [&](std::int64_t b0, std::int64_t b1) {
        RowMatrix x;
        for (std::int64_t b = b0; b < b1; ++b) {
            if (cancel && cancel->load())
                return;
            const std::int64_t first = b * kRowBlock;
            const std::int64_t count = std::min(kRowBlock, rows.n - first);
            x.resize(count, pca.d);
            rows.fill(first, count, 1, x.data());
            Eigen::Map<RowMatrix>(out.data() + first * k, count, k) = (x.rowwise() - mean) * comps;
        }
    });
    if (cancel && cancel->load())
        return {};
    return out;
}

} // namespace pe
