#include "analysis/recovery.h"

#include "analysis/similarity.h"

#include "support/float_product.h"
#include "support/parallel.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pe {

namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

bool stopped(const std::atomic<bool> *cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

// Everything recovery reads, built once per encoding: the window's encoding and, when it
// applies, the offset kernel with its offsets sorted from most to least similar.
class Recoverer
{
  public:
    explicit Recoverer(const Encoding &e)
        : e_(e)
        , n_(e.params().seqLen)
        , d_(e.dModel())
        , p_(n_, d_)
    {
        e.fill(e.windowBlock(), p_.data());
        // A table's values can be of any magnitude: its rows are brought to a largest magnitude in
        // [0.5, 1), exactly, so that products neither overflow nor underflow and the dense product's
        // bound (|p_j| <= 1) holds. argmax_s x . PE(s) does not change with the scale of PE nor of x.
        if (const PositionTable *table = e.table()) {
            scale_ = table->unitScale();
            p_ *= scale_;
        }
        if (OffsetKernel::applies(e.params(), NoiseParams{})) {
            kernel_.emplace(e, n_ - 1);
            order_.resize(static_cast<std::size_t>(n_));
            std::iota(order_.begin(), order_.end(), 0);
            std::stable_sort(order_.begin(), order_.end(),
                             [this](std::int64_t a, std::int64_t b) { return (*kernel_)(a) > (*kernel_)(b); });
        }
    }

    // The draws of z for the window (numpy's drawn here, once).
    NoiseDraws draws(const NoiseParams &noise) const { return NoiseDraws(noise, d_, e_.params().startPos + n_); }

    // z_t for window row r.
    void noiseRow(const NoiseDraws &draws, std::int64_t r, std::vector<double> &z) const
    {
        z.resize(static_cast<std::size_t>(d_));
        for (int j = 0; j < d_; ++j)
            z[static_cast<std::size_t>(j)] = draws(e_.params().startPos + r, j);
    }

    // x = PE(r) + sigma z.
    Eigen::VectorXd embedding(std::int64_t r, double sigma, const std::vector<double> &z) const
    {
        Eigen::VectorXd x = p_.row(r).transpose();
        if (scale_ == 1.0) {
            for (int j = 0; j < d_; ++j)
                x(j) += sigma * z[static_cast<std::size_t>(j)];
            return x;
        }
        x /= scale_; // the table's own values, then x brought to [0.5, 1) as the rows were
        for (int j = 0; j < d_; ++j)
            x(j) += sigma * z[static_cast<std::size_t>(j)];
        if (const double m = x.lpNorm<Eigen::Infinity>(); m > 0)
            x *= std::ldexp(1.0, -std::ilogb(m) - 1);
        return x;
    }

    // The predicted window row for row r, or -1 when the bound prunes too little and the row
    // is better computed with the others in one dense product (denseArgmax).
    std::int64_t predict(std::int64_t r, const Eigen::Ref<const Eigen::VectorXd> &x, double sigma,
                         const std::vector<double> &z) const
    {
        auto score = [&](std::int64_t s) { return p_.row(s).dot(x); };
        if (!kernel_)
            return -1;
        // Every candidate s has S(r - s) + bound >= score(r): the bound caps sigma z . PE(s),
        // since each pair of PE(s) is a unit vector.
        double bound = 0;
        for (int i = 0; i < e_.pairCount(); ++i) {
            const double zs = z[static_cast<std::size_t>(e_.pairSineColumn(i))];
            const double zc = z[static_cast<std::size_t>(e_.pairCosineColumn(i))];
            bound += std::hypot(zs, zc);
        }
        bound *= sigma;
        std::int64_t best = r;
        double bestScore = score(r);
        const double threshold = bestScore - bound - 1e-9 * (1 + std::abs(bestScore));
        // How many offsets the bound leaves (order_ is sorted by S, largest first): when that is
        // a large share, one dense product is cheaper than scoring them one by one.
        const auto left = std::partition_point(order_.begin(), order_.end(),
                                               [&](std::int64_t k) { return (*kernel_)(k) >= threshold; });
        if (left - order_.begin() > n_ / 16)
            return -1;
        std::int64_t visited = 0;
        for (std::int64_t k : order_) {
            if ((*kernel_)(k) < threshold)
                break;
            if (k == 0)
                continue; // s = r is scored already
            for (std::int64_t s : {r - k, r + k}) {
                if (s < 0 || s >= n_)
                    continue;
                const double v = score(s);
                if (v > bestScore || (v == bestScore && s < best)) {
                    bestScore = v;
                    best = s;
                }
            }
            if (++visited > n_ / 16)
                return -1; // the bound prunes little at this sigma: compute every score
        }
        return best;
    }

    // argmax_s x . PE(s) for each column x of xs, exactly: every score first in single precision
    // (a blocked product, vectorised for the processor, on every core), then in double only for
    // the s whose single-precision score is within twice its error bound of the row's best.
    // The bound: |fl(x.p) - x.p| <= (d + 4) 2^-24 sum_j |x_j p_j| <= (d + 4) 2^-24 |x|_1, as |p_j| <= 1.
    std::vector<std::int64_t> denseArgmax(const Eigen::MatrixXd &xs, const std::atomic<bool> *cancel) const
    {
        const std::int64_t m = xs.cols();
        std::vector<std::int64_t> out(static_cast<std::size_t>(m), -1);
        if (m == 0)
            return out;
        using FloatRows = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
        const FloatRows pf = p_.cast<float>();
        const FloatRows xf = xs.transpose().cast<float>();
        constexpr std::int64_t kBlock = 256; // a cancel is noticed within one block (tens of ms)
        parallelFor((m + kBlock - 1) / kBlock, [&](std::int64_t b0, std::int64_t b1) {
            std::vector<float> scores(static_cast<std::size_t>(kBlock * n_));
            for (std::int64_t b = b0; b < b1; ++b) {
                if (stopped(cancel))
                    return;
                const std::int64_t first = b * kBlock;
                const std::int64_t count = std::min(kBlock, m - first);
                floatProductNT(xf.row(first).data(), count, pf.data(), n_, d_, scores.data());
                for (std::int64_t r = 0; r < count; ++r) {
                    const float *row = scores.data() + r * n_;
                    const auto x = xs.col(first + r);
                    const double bound = (d_ + 4) * 0x1p-24 * x.lpNorm<1>();
                    const double threshold = static_cast<double>(*std::max_element(row, row + n_)) - 2 * bound;
                    std::int64_t best = -1;
                    double bestScore = -std::numeric_limits<double>::infinity();
                    for (std::int64_t s = 0; s < n_; ++s)
                        if (static_cast<double>(row[s]) >= threshold) {
                            const double v = p_.row(s).dot(x);
                            if (v > bestScore) { // the first maximum, as numpy's argmax
                                bestScore = v;
                                best = s;
                            }
                        }
                    out[static_cast<std::size_t>(first + r)] = best;
                }
            }
        });
        return out;
    }

    std::int64_t rows() const { return n_; }
    int dims() const { return d_; }

  private:
    const Encoding &e_;
    std::int64_t n_;
    int d_;
    RowMatrix p_;
    double scale_ = 1.0; // p_ is the window times this power of two
    std::optional<OffsetKernel> kernel_;
    std::vector<std::int64_t> order_;
};

} // namespace

std::optional<std::string> recoveryTooLarge(const EncodingParams &p)
{
    if (p.seqLen * p.dModel > limits::maxRecoveryValues)
        return "recovery holds the window's encoding in memory: seq_len x d_model must be at most 33,554,432 (got " +
               std::to_string(p.seqLen * p.dModel) + ").";
    return std::nullopt;
}

Recovery recoverPositions(const Encoding &encoding, const NoiseParams &noise, const std::atomic<bool> *cancel)
{
    Recovery result;
    if (recoveryTooLarge(encoding.params()))
        return result;
    const Recoverer rec(encoding);
    result.predicted.assign(static_cast<std::size_t>(rec.rows()), -1);
    // Rows the offset bound settles, on every core; the rest (-1) go to one dense product. Each
    // row's x is kept (its noise costs more than its products), the dense ones moved to the front.
    Eigen::MatrixXd xs(rec.dims(), rec.rows());
    const NoiseDraws draws = rec.draws(noise);
    parallelFor(
        rec.rows(),
        [&](std::int64_t begin, std::int64_t end) {
            std::vector<double> z(static_cast<std::size_t>(encoding.dModel()), 0.0);
            for (std::int64_t r = begin; r < end; ++r) {
                if ((r & 63) == 0 && stopped(cancel))
                    return;
                if (noise.active())
                    rec.noiseRow(draws, r, z);
                xs.col(r) = rec.embedding(r, noise.sigma, z);
                result.predicted[static_cast<std::size_t>(r)] = rec.predict(r, xs.col(r), noise.sigma, z);
            }
        },
        64);
    if (stopped(cancel)) {
        result.cancelled = true;
        return result;
    }
    std::vector<std::int64_t> denseRows;
    for (std::int64_t r = 0; r < rec.rows(); ++r)
        if (result.predicted[static_cast<std::size_t>(r)] < 0) {
            xs.col(static_cast<Eigen::Index>(denseRows.size())) = xs.col(r);
            denseRows.push_back(r);
        }
    xs.conservativeResize(Eigen::NoChange, static_cast<Eigen::Index>(denseRows.size()));
    const std::vector<std::int64_t> dense = rec.denseArgmax(xs, cancel);
    if (stopped(cancel)) {
        result.cancelled = true;
        return result;
    }
    for (std::size_t k = 0; k < denseRows.size(); ++k)
        result.predicted[static_cast<std::size_t>(denseRows[k])] = dense[k];
    const std::int64_t start = encoding.params().startPos;
    for (std::int64_t r = 0; r < rec.rows(); ++r) {
        result.correct += result.predicted[static_cast<std::size_t>(r)] == r;
        result.predicted[static_cast<std::size_t>(r)] += start;
    }
    return result;
}

std::vector<double> accuracyAgainstSigma(const Encoding &encoding, const NoiseParams &noise,
                                         const std::vector<double> &sigmas, std::int64_t maxRows,
                                         const std::atomic<bool> *cancel)
{
    std::vector<double> out(sigmas.size(), 0.0);
    if (recoveryTooLarge(encoding.params()) || maxRows < 1)
        return out;
    const Recoverer rec(encoding);
    const std::int64_t rows = std::min(maxRows, rec.rows());
    const NoiseDraws draws = rec.draws(noise);
    std::vector<double> z;
    std::vector<std::int64_t> correct(sigmas.size(), 0);
    std::vector<std::pair<std::size_t, std::int64_t>> denseWho; // (sigma index, row)
    std::vector<Eigen::VectorXd> denseX;
    for (std::int64_t k = 0; k < rows; ++k) {
        if (stopped(cancel))
            return out;
        const std::int64_t r = rows == rec.rows() ? k : k * (rec.rows() - 1) / std::max<std::int64_t>(rows - 1, 1);
        rec.noiseRow(draws, r, z);
        for (std::size_t i = 0; i < sigmas.size(); ++i) {
            Eigen::VectorXd x = rec.embedding(r, sigmas[i], z);
            const std::int64_t s = rec.predict(r, x, sigmas[i], z);
            if (s < 0) {
                denseWho.emplace_back(i, r);
                denseX.push_back(std::move(x));
            } else {
                correct[i] += s == r;
            }
        }
    }
    Eigen::MatrixXd xs(rec.dims(), static_cast<Eigen::Index>(denseX.size()));
    for (std::size_t k = 0; k < denseX.size(); ++k)
        xs.col(static_cast<Eigen::Index>(k)) = denseX[k];
    const std::vector<std::int64_t> dense = rec.denseArgmax(xs, cancel);
    for (std::size_t k = 0; k < denseWho.size(); ++k)
        correct[denseWho[k].first] += dense[k] == denseWho[k].second;
    for (std::size_t i = 0; i < sigmas.size(); ++i)
        out[i] = static_cast<double>(correct[i]) / static_cast<double>(rows);
    return out;
}

} // namespace pe
