#include "relative.h"

#include <algorithm>
#include <cmath>
#include <functional>
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

// Calls visit(now, later, rows) for blocks of row pairs (PE(t), PE(t + k)) over the window's
// positions t, at most maxPositions of them evenly spaced. Sinusoids: every t in the window with
// t + k >= 0; a table: t and t + k both in the window (its rows end there). Returns the pairs visited.
std::int64_t forEachRowPair(const Encoding &encoding, std::int64_t k, std::int64_t maxPositions,
                            const std::function<void(const double *, const double *, std::int64_t)> &visit)
{
    const EncodingParams &p = encoding.params();
    const int d = p.dModel;
    constexpr std::int64_t kRows = 256;
    const std::int64_t first = encoding.table() ? std::max(p.startPos, p.startPos - k) : std::max(p.startPos, -k);
    const std::int64_t end =
        encoding.table() ? std::min(p.startPos + p.seqLen, p.startPos + p.seqLen - k) : p.startPos + p.seqLen;
    const std::int64_t count = end - first;
    if (count <= 0)
        return 0;
    std::vector<double> now(static_cast<std::size_t>(kRows * d)), later(now.size());
    const std::int64_t budget = std::max<std::int64_t>(maxPositions, 1);
    const std::int64_t step = count <= budget ? 1 : (count + budget - 1) / budget; // no overflow for the default budget
    std::int64_t visited = 0;
    for (std::int64_t i0 = 0; i0 * step < count; i0 += kRows) {
        Block b = encoding.windowBlock();
        b.firstPosition = first + i0 * step;
        b.positionStep = step;
        b.rows = std::min(kRows, (count + step - 1) / step - i0);
        encoding.fill(b, now.data());
        b.firstPosition += k;
        encoding.fill(b, later.data());
        visit(now.data(), later.data(), b.rows);
        visited += b.rows;
    }
    return visited;
}

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
    std::vector<double> dot(static_cast<std::size_t>(pairs)), cross(dot.size());
    forEachRowPair(encoding, k, maxPositions, [&](const double *now, const double *later, std::int64_t rows) {
        for (std::int64_t r = 0; r < rows; ++r)
            for (int i = 0; i < pairs; ++i) {
                const int sj = encoding.pairSineColumn(i), cj = encoding.pairCosineColumn(i);
                if (cj < 0)
                    continue;
                const double us = now[r * d + sj], uc = now[r * d + cj], vs = later[r * d + sj], vc = later[r * d + cj];
                dot[static_cast<std::size_t>(i)] += us * vs + uc * vc;
                cross[static_cast<std::size_t>(i)] += uc * vs - us * vc; // the angle from (uc, us) to (vc, vs)
            }
    });
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
    double worst = 0;
    const std::int64_t visited =
        forEachRowPair(encoding, k, maxPositions, [&](const double *now, const double *later, std::int64_t rows) {
            for (std::int64_t r = 0; r < rows; ++r)
                for (int i = 0; i < encoding.pairCount(); ++i) {
                    const int sj = encoding.pairSineColumn(i), cj = encoding.pairCosineColumn(i);
                    const double s = now[r * d + sj];
                    const double c = cj >= 0 ? now[r * d + cj] : 0.0;
                    const Rotation2 &m = blocks[static_cast<std::size_t>(i)];
                    worst = std::max(worst, std::abs(m.a * s + m.b * c - later[r * d + sj]));
                    if (cj >= 0)
                        worst = std::max(worst, std::abs(m.c * s + m.d * c - later[r * d + cj]));
                }
        });
    return visited > 0 ? worst : std::numeric_limits<double>::quiet_NaN();
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
