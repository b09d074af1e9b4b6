#include "analysis/similarity.h"

#include "analysis/offset_waves.h"
#include "encodings/scheme.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace pe {

std::optional<Metric> parseMetric(std::string_view name)
{
    return parseName(kMetrics, metricName, name);
}

std::string_view metricName(Metric metric)
{
    switch (metric) {
    case Metric::Dot:
        return "dot";
    case Metric::Cosine:
        return "cosine";
    case Metric::Euclidean:
        return "euclidean";
    }
    return "";
}

double metricFromDot(Metric metric, double dot, double xNorm2, double pNorm2)
{
    switch (metric) {
    case Metric::Dot:
        return dot;
    case Metric::Cosine:
        return xNorm2 > 0 && pNorm2 > 0 ? dot / std::sqrt(xNorm2 * pNorm2) : 0.0;
    case Metric::Euclidean:
        return std::sqrt(std::max(0.0, xNorm2 + pNorm2 - 2 * dot));
    }
    return dot;
}

bool OffsetKernel::applies(const EncodingParams &params, const NoiseParams &noise)
{
    return !noise.active() && dotDependsOnOffsetOnly(params);
}

namespace {

// S(k) is the sum over the pairs of cos(k θ_i): the cosine columns at "position" k, wherever the
// scheme puts them, without filling them (offset_waves.h).
OffsetWaveRequest cosineWaves(const Encoding &encoding)
{
    OffsetWaveRequest r;
    r.theta = pairFrequencies(encoding);
    r.sets = 1;
    r.a.assign(r.theta.size(), 1.0);
    return r;
}

} // namespace

std::vector<double> offsetSums(const Encoding &encoding, std::int64_t first, std::int64_t step, std::int64_t n)
{
    return offsetWaveSums(cosineWaves(encoding), first, step, n).cosine;
}

OffsetKernel::OffsetKernel(const Encoding &encoding, std::int64_t maxOffset)
    : s_(offsetSums(encoding, 0, 1, maxOffset + 1))
{
}

void distanceMatrix(const Encoding &encoding, const NoiseParams &noise, Metric metric, const Block &rows, double *out)
{
    const auto n = static_cast<std::size_t>(rows.rows);
    if (!OffsetKernel::applies(encoding.params(), noise)) {
        std::vector<std::int64_t> positions(n);
        for (std::size_t r = 0; r < n; ++r)
            positions[r] = rows.position(static_cast<std::int64_t>(r));
        scoreBlock(encoding, noise, metric, nullptr, positions, positions, out);
        return;
    }
    // Entry (r, c) is S(t_r - t_c) with t_r - t_c = (r - c) step + o(k_r) - o(k_c) for the rows'
    // jitter offsets o(k): one curve of S over the sampled offsets per pair (k_r, k_c).
    const int jitters = rows.jitterCount();
    std::vector<double> curves(static_cast<std::size_t>(jitters * jitters) * n);
    std::vector<std::int64_t> firsts;
    for (int a = 0; a < jitters; ++a)
        for (int b = 0; b < jitters; ++b)
            firsts.push_back(rows.jitterOffset(a) - rows.jitterOffset(b));
    const std::vector<OffsetWaveSums> sums =
        offsetWaveSums(cosineWaves(encoding), firsts, rows.positionStep, rows.rows);
    for (std::size_t e = 0; e < sums.size(); ++e)
        std::copy(sums[e].cosine.begin(), sums[e].cosine.end(), curves.begin() + static_cast<std::ptrdiff_t>(e * n));
    std::vector<int> k(n);
    for (std::size_t r = 0; r < n; ++r)
        k[r] = rows.jitterIndex(static_cast<std::int64_t>(r));
    const double norm2 = encoding.dModel() / 2.0;
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t c = 0; c < n; ++c) {
            // S is even: below the diagonal read (c, r)'s curve at the mirrored offset.
            const std::size_t m = r >= c ? r - c : c - r;
            const int e = r >= c ? k[r] * jitters + k[c] : k[c] * jitters + k[r];
            out[r * n + c] = metricFromDot(metric, curves[static_cast<std::size_t>(e) * n + m], norm2, norm2);
        }
}

namespace {

// The metric of x and p computed from x * sx and p * sp: a table's values are scaled by its unit
// scale before they are squared (1e-300 squared is 0), the noisy x left as it is (the noise keeps it
// of order 1).
struct MetricScales {
    double x = 1, p = 1;
    MetricScales(const Encoding &e, const NoiseParams &noise)
        : x(e.table() && !noise.active() ? e.table()->unitScale() : 1.0)
        , p(e.table() ? e.table()->unitScale() : 1.0)
    {
    }
    double operator()(Metric metric, double dot, double xNorm2, double pNorm2) const
    {
        if (x == 1.0 && p == 1.0)
            return metricFromDot(metric, dot, xNorm2, pNorm2);
        switch (metric) {
        case Metric::Cosine: // the same for any positive scales
            return metricFromDot(metric, dot, xNorm2, pNorm2);
        case Metric::Euclidean:
            if (x == p) // |x s - p s| / s: the distance of the scaled rows, scaled back
                return metricFromDot(metric, dot, xNorm2, pNorm2) / x;
            return metricFromDot(metric, dot / x / p, xNorm2 / x / x, pNorm2 / p / p);
        case Metric::Dot:
            break;
        }
        return dot / x / p;
    }
};

// Rows of x (noisy or pure) for the given positions, row-major positions.size() x d.
Eigen::MatrixXd embeddingRows(const Encoding &e, const NoiseParams &noise, const std::vector<std::int64_t> &positions)
{
    const int d = e.dModel();
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> m(
        static_cast<Eigen::Index>(positions.size()), d);
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
            out[static_cast<std::size_t>(r)] =
                metricFromDot(metric, (*kernel)(p.startPos + r * stride - reference), norm2, norm2);
        return out;
    }
    const int d = p.dModel;
    std::vector<double> ref(static_cast<std::size_t>(d));
    Block one;
    one.firstPosition = reference;
    one.rows = 1;
    one.cols = d;
    encoding.fill(one, ref.data());
    const MetricScales scales(encoding, noise);
    double refNorm2 = 0;
    for (double &v : ref) {
        v *= scales.p;
        refNorm2 += v * v;
    }
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
                const double xj = x[j] * scales.x;
                dot += xj * ref[static_cast<std::size_t>(j)];
                xNorm2 += xj * xj;
            }
            out[static_cast<std::size_t>(r0 + r)] = scales(metric, dot, xNorm2, refNorm2);
        }
    }
    return out;
}

SimilarityCurve similarityCurve(const Encoding &encoding, const NoiseParams &noise, std::int64_t reference,
                                Metric metric, const OffsetKernel *kernel, std::int64_t buckets)
{
    const EncodingParams &p = encoding.params();
    SimilarityCurve c;
    const Block rows = sampledPositions(p.startPos, p.seqLen, buckets);
    c.stride = rows.positionStep;
    const bool higher = higherIsCloser(metric);
    double bestValue = 0;
    bool haveBest = false;
    auto consider = [&](std::int64_t t, double v) {
        if (!haveBest || (higher ? v > bestValue : v < bestValue)) {
            bestValue = v;
            c.best = t;
            haveBest = true;
        }
    };
    if (kernel) {
        c.envelope = true;
        const double norm2 = p.dModel / 2.0;
        const std::int64_t end = p.startPos + p.seqLen;
        for (std::int64_t first = p.startPos; first < end; first += c.stride) {
            double lo = 0, hi = 0;
            for (std::int64_t t = first; t < std::min(end, first + c.stride); ++t) {
                const double v = metricFromDot(metric, (*kernel)(t - reference), norm2, norm2);
                lo = t == first ? v : std::min(lo, v);
                hi = t == first ? v : std::max(hi, v);
                consider(t, v);
            }
            c.positions.push_back(first);
            c.low.push_back(lo);
            c.high.push_back(hi);
        }
        return c;
    }
    // One jittered position a bucket, filled as one jittered block (the fast fill: a few rotations
    // a row, not d sines), a chunk at a time; the reference's own bucket then shows the reference,
    // the peak a reader looks for.
    const int d = p.dModel;
    std::vector<double> pe(static_cast<std::size_t>(d));
    Block one = encoding.windowBlock();
    one.firstPosition = reference;
    one.rows = 1;
    encoding.fill(one, pe.data());
    const MetricScales scales(encoding, noise);
    double peNorm2 = 0;
    for (double &v : pe) {
        v *= scales.p;
        peNorm2 += v * v;
    }
    const auto score = [&](const double *x) {
        double dot = 0, xNorm2 = 0;
        for (int j = 0; j < d; ++j) {
            const double xj = x[j] * scales.x;
            dot += xj * pe[static_cast<std::size_t>(j)];
            xNorm2 += xj * xj;
        }
        return scales(metric, dot, xNorm2, peNorm2);
    };
    // Pure rows are streamed through a buffer under the allocator's mmap threshold (a 32 MB chunk
    // was mapped and zero-filled by the system at every step); the stream turns its offsets once
    // (jitters x d). Noisy rows come in chunks of up to 4M values (32 MB): each fill turns its
    // offsets, and numpy's draws run up to the chunk's last position.
    const std::int64_t kChunk = noise.active() ? std::max<std::int64_t>(256, (std::int64_t(1) << 22) / d)
                                               : std::clamp<std::int64_t>(96 * 1024 / d, 1, 256);
    std::vector<double> buf(static_cast<std::size_t>(std::min(kChunk, std::max<std::int64_t>(rows.rows, 1)) * d));
    c.positions.resize(static_cast<std::size_t>(rows.rows));
    c.low.resize(c.positions.size());
    Block all = rows;
    all.cols = d;
    if (noise.active()) {
        for (std::int64_t r0 = 0; r0 < rows.rows; r0 += kChunk) {
            Block chunk = all;
            chunk.firstPosition = rows.firstPosition + r0 * rows.positionStep;
            chunk.rows = std::min(kChunk, rows.rows - r0);
            fillEmbeddings(encoding, noise, chunk, buf.data());
            for (std::int64_t r = 0; r < chunk.rows; ++r) {
                c.positions[static_cast<std::size_t>(r0 + r)] = chunk.position(r);
                c.low[static_cast<std::size_t>(r0 + r)] = score(buf.data() + r * d);
            }
        }
    } else {
        RowStream stream(encoding, all);
        for (std::int64_t r0 = 0; const std::int64_t n = stream.next(buf.data(), kChunk); r0 += n)
            for (std::int64_t r = 0; r < n; ++r) {
                c.positions[static_cast<std::size_t>(r0 + r)] = all.position(r0 + r);
                c.low[static_cast<std::size_t>(r0 + r)] = score(buf.data() + r * d);
            }
    }
    const std::int64_t own = (reference - p.startPos) / c.stride;
    if (own >= 0 && own < rows.rows && c.positions[static_cast<std::size_t>(own)] != reference) {
        fillEmbeddings(encoding, noise, one, buf.data());
        c.positions[static_cast<std::size_t>(own)] = reference;
        c.low[static_cast<std::size_t>(own)] = score(buf.data());
    }
    for (std::size_t r = 0; r < c.positions.size(); ++r)
        consider(c.positions[r], c.low[r]);
    c.high = c.low;
    return c;
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
    const MetricScales scales(encoding, noise);
    const Eigen::MatrixXd x = embeddingRows(encoding, noise, rows) * scales.x;
    const Eigen::MatrixXd pe = embeddingRows(encoding, NoiseParams{}, cols) * scales.p;
    const Eigen::MatrixXd dots = x * pe.transpose();
    const Eigen::VectorXd xn = x.rowwise().squaredNorm();
    const Eigen::VectorXd pn = pe.rowwise().squaredNorm();
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::size_t c = 0; c < nc; ++c) {
            const auto ri = static_cast<Eigen::Index>(r), ci = static_cast<Eigen::Index>(c);
            out[r * nc + c] = scales(metric, dots(ri, ci), xn(ri), pn(ci));
        }
}

} // namespace pe
