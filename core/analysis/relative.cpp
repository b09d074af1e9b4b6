#include "analysis/relative.h"

#include "support/parallel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>

namespace pe {

Rotation2 rotationBlock(const Encoding &encoding, int pair, std::int64_t k)
{
    double s, c;
    sinCosOfProduct(static_cast<double>(k), encoding.pairFrequency(pair), s, c);
    return {c, s, -s, c};
}

namespace {

// Each pair's sine and cosine columns (-1: none), looked up once for the loops over rows.
struct PairColumns {
    std::vector<int> sine, cosine;
    explicit PairColumns(const Encoding &encoding)
    {
        for (int i = 0; i < encoding.pairCount(); ++i) {
            sine.push_back(encoding.pairSineColumn(i));
            cosine.push_back(encoding.pairCosineColumn(i));
        }
    }
};

// The row pairs (PE(t), PE(t + k)) a fit or a check visits: the window's positions t, at most
// maxPositions of them evenly spaced. Sinusoids: every t in the window with t + k >= 0; a table:
// t and t + k both in the window (its rows end there).
struct RowPairs {
    static constexpr std::int64_t kSpan = 256; // rows a thread's share starts on a multiple of
    static_assert(kSpan % kFillReseedRows == 0, "a share must start where the fill reseeds");
    // Rows a visit: a power of two up to kSpan with at most 96 Ki values (768 KiB), under the
    // allocator's 1 MiB mmap threshold (allocator.cpp), so the buffers come from the heap and are
    // not mapped and zero-filled by the system at every call (half the time at d 4,096).
    std::int64_t blockRows = kSpan;
    std::int64_t first = 0, count = 0, step = 1, rows = 0, blocks = 0;

    RowPairs(const Encoding &encoding, std::int64_t k, std::int64_t maxPositions)
    {
        const EncodingParams &p = encoding.params();
        while (blockRows > 1 && blockRows * p.dModel > 96 * 1024)
            blockRows /= 2;
        first = encoding.table() ? std::max(p.startPos, p.startPos - k) : std::max(p.startPos, -k);
        const std::int64_t end =
            encoding.table() ? std::min(p.startPos + p.seqLen, p.startPos + p.seqLen - k) : p.startPos + p.seqLen;
        count = std::max<std::int64_t>(end - first, 0);
        const std::int64_t budget = std::max<std::int64_t>(maxPositions, 1);
        step = count <= budget ? 1 : (count + budget - 1) / budget; // no overflow for the default budget
        rows = (count + step - 1) / step;
        blocks = (rows + blockRows - 1) / blockRows;
    }

    // Calls visit(block, now, later, rows) for every block of blockRows rows, on every core (each
    // block once, in any order: a visitor writes its block's own results). Each thread streams its
    // share from a multiple of kSpan rows, where the fill reseeds: the values are the whole
    // window's fill, bit for bit, on any number of cores.
    template <typename Visit> void forEach(const Encoding &encoding, std::int64_t k, Visit visit) const
    {
        const int d = encoding.dModel();
        parallelFor((rows + kSpan - 1) / kSpan, [&](std::int64_t begin, std::int64_t end) {
            Block share = encoding.windowBlock();
            share.firstPosition = first + begin * kSpan * step;
            share.positionStep = step;
            share.rows = std::min(end * kSpan, rows) - begin * kSpan;
            RowStream nowRows(encoding, share);
            share.firstPosition += k;
            RowStream laterRows(encoding, share);
            std::vector<double> now(static_cast<std::size_t>(blockRows * d)), later(now.size());
            for (std::int64_t r = begin * kSpan; r < begin * kSpan + share.rows; r += blockRows) {
                const std::int64_t n = nowRows.next(now.data(), blockRows);
                laterRows.next(later.data(), blockRows);
                visit(r / blockRows, now.data(), later.data(), n);
            }
        });
    }
};

} // namespace

std::vector<Rotation2> rotationBlocks(const Encoding &encoding, std::int64_t k, std::int64_t maxPositions)
{
    const int pairs = encoding.pairCount();
    std::vector<Rotation2> blocks;
    if (encoding.hasFrequencies()) {
        for (int i = 0; i < pairs; ++i)
            blocks.push_back(rotationBlock(encoding, i, k));
        return blocks;
    }
    // Per pair, the rotation R minimising sum_t |R u_t - v_t|^2 (u = the pair at t, v at t + k): the
    // 2-D orthogonal Procrustes problem, whose angle is atan2(sum of u x v, sum of u . v).
    const int d = encoding.dModel();
    const PairColumns columns(encoding);
    const RowPairs rowPairs(encoding, k, maxPositions);
    // Each block's sums, added in block order afterwards: the same bits on any number of cores.
    const auto p = static_cast<std::size_t>(pairs);
    std::vector<double> blockDot(static_cast<std::size_t>(rowPairs.blocks) * p), blockCross(blockDot.size());
    rowPairs.forEach(encoding, k, [&](std::int64_t blk, const double *now, const double *later, std::int64_t rows) {
        double *dot = blockDot.data() + blk * pairs, *cross = blockCross.data() + blk * pairs;
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::size_t i = 0; i < p; ++i) {
                const int sj = columns.sine[i], cj = columns.cosine[i];
                if (cj < 0)
                    continue;
                const double us = now[r * d + sj], uc = now[r * d + cj], vs = later[r * d + sj], vc = later[r * d + cj];
                dot[i] += us * vs + uc * vc;
                cross[i] += uc * vs - us * vc; // the angle from (uc, us) to (vc, vs)
            }
    });
    std::vector<double> dot(p), cross(p);
    for (std::int64_t blk = 0; blk < rowPairs.blocks; ++blk)
        for (std::size_t i = 0; i < p; ++i) {
            dot[i] += blockDot[static_cast<std::size_t>(blk) * p + i];
            cross[i] += blockCross[static_cast<std::size_t>(blk) * p + i];
        }
    for (int i = 0; i < pairs; ++i) {
        const double a = std::atan2(cross[static_cast<std::size_t>(i)], dot[static_cast<std::size_t>(i)]);
        const double s = std::sin(a), c = std::cos(a);
        blocks.push_back(encoding.pairCosineColumn(i) < 0 ? Rotation2{1, 0, 0, 1} : Rotation2{c, s, -s, c});
    }
    return blocks;
}

double rotationResidual(const Encoding &encoding, std::int64_t k, std::int64_t maxPositions)
{
    return rotationResidual(encoding, k, rotationBlocks(encoding, k, maxPositions), maxPositions);
}

double rotationResidual(const Encoding &encoding, std::int64_t k, const std::vector<Rotation2> &blocks,
                        std::int64_t maxPositions)
{
    const int d = encoding.dModel();
    const PairColumns columns(encoding);
    const RowPairs rowPairs(encoding, k, maxPositions);
    std::vector<double> blockWorst(static_cast<std::size_t>(rowPairs.blocks), 0.0);
    rowPairs.forEach(encoding, k, [&](std::int64_t blk, const double *now, const double *later, std::int64_t rows) {
        double &worst = blockWorst[static_cast<std::size_t>(blk)];
        for (std::int64_t r = 0; r < rows; ++r) {
            const double *u = now + r * d, *v = later + r * d;
            for (std::size_t i = 0; i < columns.sine.size(); ++i) {
                const int sj = columns.sine[i], cj = columns.cosine[i];
                const double s = u[sj];
                const double c = cj >= 0 ? u[cj] : 0.0;
                const Rotation2 &m = blocks[i];
                worst = std::max(worst, std::abs(m.a * s + m.b * c - v[sj]));
                if (cj >= 0)
                    worst = std::max(worst, std::abs(m.c * s + m.d * c - v[cj]));
            }
        }
    });
    return rowPairs.rows > 0 ? *std::max_element(blockWorst.begin(), blockWorst.end())
                             : std::numeric_limits<double>::quiet_NaN();
}

OffsetDecoder::OffsetDecoder(const Encoding &encoding)
    : pairs_(encoding.pairCount())
    , frequencies_(encoding.hasFrequencies())
{
    for (int i = 0; i < pairs_; ++i) {
        const int cj = encoding.pairCosineColumn(i);
        if (cj < 0)
            continue; // a sine alone does not fix an angle
        const double w = frequencies_ ? encoding.pairFrequency(i) : 1.0;
        if (w == 0)
            continue; // a pair that does not turn (partial rotary) reads no offset
        slowFirst_.push_back({i, encoding.pairSineColumn(i), cj, w, 2 * std::numbers::pi / w});
    }
    if (frequencies_)
        std::sort(slowFirst_.begin(), slowFirst_.end(),
                  [](const Pair &a, const Pair &b) { return a.frequency < b.frequency; });
}

double OffsetDecoder::reading(const Pair &p, const double *peA, const double *peB) const
{
    // sin and cos of (theta_b - theta_a), then the angle difference in (-pi, pi].
    const double sinDiff = peB[p.sine] * peA[p.cosine] - peB[p.cosine] * peA[p.sine];
    const double cosDiff = peB[p.cosine] * peA[p.cosine] + peB[p.sine] * peA[p.sine];
    const double angle = std::atan2(sinDiff, cosDiff);
    return frequencies_ ? angle / p.frequency : angle;
}

namespace {

// The slowest hand's reading, refined by each faster one: of the whole turns the faster hand may have
// made, the one that puts its reading nearest the estimate so far.
template <typename Pairs, typename Reading> double refineSlowestFirst(const Pairs &slowFirst, Reading reading)
{
    double estimate = 0;
    bool first = true;
    for (const auto &p : slowFirst) {
        const double r = reading(p);
        if (first) {
            estimate = r;
            first = false;
            continue;
        }
        const double turns = std::round((estimate - r) / p.wavelength);
        estimate = r + turns * p.wavelength;
    }
    return estimate;
}

} // namespace

OffsetDecode OffsetDecoder::operator()(const double *peA, const double *peB) const
{
    OffsetDecode out;
    out.perPair.assign(static_cast<std::size_t>(pairs_), 0.0);
    for (const Pair &p : slowFirst_)
        out.perPair[static_cast<std::size_t>(p.index)] = reading(p, peA, peB);
    out.offset = frequencies_
                     ? refineSlowestFirst(slowFirst_,
                                          [&](const Pair &p) { return out.perPair[static_cast<std::size_t>(p.index)]; })
                     : std::numeric_limits<double>::quiet_NaN(); // a table: no offset to read
    return out;
}

double OffsetDecoder::offset(const double *peA, const double *peB) const
{
    if (!frequencies_)
        return std::numeric_limits<double>::quiet_NaN();
    return refineSlowestFirst(slowFirst_, [&](const Pair &p) { return reading(p, peA, peB); });
}

OffsetDecode decodeOffset(const Encoding &encoding, const double *peA, const double *peB)
{
    return OffsetDecoder(encoding)(peA, peB);
}

OffsetDecode decodeOffset(const Encoding &encoding, const NoiseParams &noise, std::int64_t a, std::int64_t b)
{
    const int d = encoding.dModel();
    std::vector<double> xa(static_cast<std::size_t>(d)), xb(xa.size());
    Block one;
    one.rows = 1;
    one.cols = d;
    one.firstPosition = a;
    fillEmbeddings(encoding, noise, one, xa.data());
    one.firstPosition = b;
    fillEmbeddings(encoding, noise, one, xb.data());
    return decodeOffset(encoding, xa.data(), xb.data());
}

} // namespace pe
