#include "similarity.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace pe {

std::optional<Metric> parseMetric(std::string_view name)
{
    if (name == "dot")
        return Metric::Dot;
    if (name == "cosine")
        return Metric::Cosine;
    if (name == "euclidean")
        return Metric::Euclidean;
    return std::nullopt;
}

std::string_view metricName(Metric metric)
{
    switch (metric) {
    case Metric::Dot: return "dot";
    case Metric::Cosine: return "cosine";
    case Metric::Euclidean: return "euclidean";
    }
    return "";
}

double metricFromDot(Metric metric, double dot, double xNorm2, double pNorm2)
{
    switch (metric) {
    case Metric::Dot: return dot;
    case Metric::Cosine: return xNorm2 > 0 && pNorm2 > 0 ? dot / std::sqrt(xNorm2 * pNorm2) : 0.0;
    case Metric::Euclidean: return std::sqrt(std::max(0.0, xNorm2 + pNorm2 - 2 * dot));
    }
    return dot;
}

bool OffsetKernel::applies(const EncodingParams &params, const NoiseParams &noise)
{
    return !noise.active() && params.exponent == Exponent::Pair && params.dModel % 2 == 0;
}

OffsetKernel::OffsetKernel(const Encoding &encoding, std::int64_t maxOffset)
    : s_(static_cast<std::size_t>(maxOffset + 1), 0.0)
{
    // S(k) is the sum of the cosine columns of the encoding at "position" k.
    const EncodingParams &p = encoding.params();
    const int pairs = p.dModel / 2;
    Block b;
    b.firstColumn = p.layout == Layout::Split ? pairs : 1;
    b.columnStep = p.layout == Layout::Split ? 1 : 2;
    b.cols = pairs;
    constexpr std::int64_t kRows = 256;
    std::vector<double> buf(static_cast<std::size_t>(kRows * pairs));
    for (std::int64_t k0 = 0; k0 <= maxOffset; k0 += kRows) {
        b.firstPosition = k0;
        b.rows = std::min(kRows, maxOffset + 1 - k0);
        encoding.fill(b, buf.data());
        for (std::int64_t r = 0; r < b.rows; ++r) {
            double sum = 0;
            for (int i = 0; i < pairs; ++i)
                sum += buf[static_cast<std::size_t>(r * pairs + i)];
            s_[static_cast<std::size_t>(k0 + r)] = sum;
        }
    }
}

namespace {

// Rows of x (noisy or pure) for the given positions, row-major positions.size() x d.
Eigen::MatrixXd embeddingRows(const Encoding &e, const NoiseParams &noise, const std::vector<std::int64_t> &positions)
{
    const int d = e.dModel();
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> m(static_cast<Eigen::Index>(positions.size()), d);
    Block b;
    b.cols = d;
    // Evenly spaced positions (a sampled window) are one strided block: the fast fill.
    const std::int64_t step = positions.size() > 1 ? positions[1] - positions[0] : 1;
    bool even = step > 0;
    for (std::size_t r = 1; even && r < positions.size(); ++r)
        even = positions[r] - positions[r - 1] == step;
    if (even && !positions.empty()) {
        b.firstPosition = positions[0];
        b.positionStep = step;
        b.rows = static_cast<std::int64_t>(positions.size());
        fillEmbeddings(e, noise, b, m.data());
        return m;
    }
    b.rows = 1;
    for (std::size_t r = 0; r < positions.size(); ++r) {
        b.firstPosition = positions[r];
        fillEmbeddings(e, noise, b, m.data() + static_cast<std::ptrdiff_t>(r) * d);
    }
    return m;
}

} // namespace

std::vector<double> similarityToReference(const Encoding &encoding, const NoiseParams &noise, std::int64_t reference,
                                          Metric metric, const OffsetKernel *kernel, std::int64_t stride)
{
    const EncodingParams &p = encoding.params();
    const std::int64_t count = (p.seqLen + stride - 1) / stride;
    std::vector<double> out(static_cast<std::size_t>(count));
    if (kernel) {
        const double norm2 = p.dModel / 2.0; // |PE(t)|^2 = d/2 for even d
        for (std::int64_t r = 0; r < count; ++r)
            out[static_cast<std::size_t>(r)] = metricFromDot(metric, (*kernel)(p.startPos + r * stride - reference), norm2, norm2);
        return out;
    }
    const int d = p.dModel;
    std::vector<double> ref(static_cast<std::size_t>(d));
    Block one;
    one.firstPosition = reference;
    one.rows = 1;
    one.cols = d;
    encoding.fill(one, ref.data());
    double refNorm2 = 0;
    for (double v : ref)
        refNorm2 += v * v;
    constexpr std::int64_t kRows = 256;
    std::vector<double> buf(static_cast<std::size_t>(kRows * d));
    Block b = encoding.windowBlock();
    b.positionStep = stride;
    for (std::int64_t r0 = 0; r0 < count; r0 += kRows) {
        b.firstPosition = p.startPos + r0 * stride;
        b.rows = std::min(kRows, count - r0);
        fillEmbeddings(encoding, noise, b, buf.data());
        for (std::int64_t r = 0; r < b.rows; ++r) {
            const double *x = buf.data() + r * d;
            double dot = 0, xNorm2 = 0;
            for (int j = 0; j < d; ++j) {
                dot += x[j] * ref[static_cast<std::size_t>(j)];
                xNorm2 += x[j] * x[j];
            }
            out[static_cast<std::size_t>(r0 + r)] = metricFromDot(metric, dot, xNorm2, refNorm2);
        }
    }
    return out;
}

void scoreBlock(const Encoding &encoding, const NoiseParams &noise, Metric metric, const OffsetKernel *kernel,
                const std::vector<std::int64_t> &rows, const std::vector<std::int64_t> &cols, double *out)
{
    const std::size_t nc = cols.size();
    if (kernel) {
        const double norm2 = encoding.dModel() / 2.0;
        for (std::size_t r = 0; r < rows.size(); ++r)
            for (std::size_t c = 0; c < nc; ++c)
                out[r * nc + c] = metricFromDot(metric, (*kernel)(rows[r] - cols[c]), norm2, norm2);
        return;
    }
    const Eigen::MatrixXd x = embeddingRows(encoding, noise, rows);
    const Eigen::MatrixXd pe = embeddingRows(encoding, NoiseParams{}, cols);
    const Eigen::MatrixXd dots = x * pe.transpose();
    const Eigen::VectorXd xn = x.rowwise().squaredNorm();
    const Eigen::VectorXd pn = pe.rowwise().squaredNorm();
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::size_t c = 0; c < nc; ++c) {
            const auto ri = static_cast<Eigen::Index>(r), ci = static_cast<Eigen::Index>(c);
            out[r * nc + c] = metricFromDot(metric, dots(ri, ci), xn(ri), pn(ci));
        }
}

} // namespace pe
