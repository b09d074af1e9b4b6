#include "relative.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>

namespace pe {

Rotation2 rotationBlock(const Encoding &encoding, int pair, std::int64_t k)
{
    double s, c;
    sinCosOfProduct(static_cast<double>(k), encoding.pairFrequency(pair), s, c);
    return {c, s, -s, c};
}

double rotationResidual(const Encoding &encoding, std::int64_t k, std::int64_t maxPositions)
{
    const EncodingParams &p = encoding.params();
    const int d = p.dModel;
    std::vector<Rotation2> blocks;
    for (int i = 0; i < encoding.pairCount(); ++i)
        blocks.push_back(rotationBlock(encoding, i, k));
    constexpr std::int64_t kRows = 256;
    std::vector<double> now(static_cast<std::size_t>(kRows * d)), later(now.size());
    double worst = 0;
    const std::int64_t first = std::max(p.startPos, -k); // t + k must be a position
    const std::int64_t count = p.startPos + p.seqLen - first;
    const std::int64_t budget = std::max<std::int64_t>(maxPositions, 1);
    const std::int64_t step = count <= budget ? 1 : (count + budget - 1) / budget; // no overflow for the default budget
    for (std::int64_t i0 = 0; i0 * step < count; i0 += kRows) {
        Block b = encoding.windowBlock();
        b.firstPosition = first + i0 * step;
        b.positionStep = step;
        b.rows = std::min(kRows, (count + step - 1) / step - i0);
        encoding.fill(b, now.data());
        b.firstPosition += k;
        encoding.fill(b, later.data());
        for (std::int64_t r = 0; r < b.rows; ++r)
            for (int i = 0; i < encoding.pairCount(); ++i) {
                const int sj = encoding.pairSineColumn(i), cj = encoding.pairCosineColumn(i);
                const double s = now[static_cast<std::size_t>(r * d + sj)];
                const double c = cj >= 0 ? now[static_cast<std::size_t>(r * d + cj)] : 0.0;
                const Rotation2 &m = blocks[static_cast<std::size_t>(i)];
                worst = std::max(worst, std::abs(m.a * s + m.b * c - later[static_cast<std::size_t>(r * d + sj)]));
                if (cj >= 0)
                    worst = std::max(worst, std::abs(m.c * s + m.d * c - later[static_cast<std::size_t>(r * d + cj)]));
            }
    }
    return worst;
}

OffsetDecode decodeOffset(const Encoding &encoding, const double *peA, const double *peB)
{
    OffsetDecode out;
    const int pairs = encoding.pairCount();
    out.perPair.assign(static_cast<std::size_t>(pairs), 0.0);
    std::vector<int> slowFirst;
    for (int i = 0; i < pairs; ++i) {
        const int sj = encoding.pairSineColumn(i), cj = encoding.pairCosineColumn(i);
        if (cj < 0)
            continue; // a sine alone does not fix an angle
        // sin and cos of (theta_b - theta_a), then the angle difference in (-pi, pi].
        const double sinDiff = peB[sj] * peA[cj] - peB[cj] * peA[sj];
        const double cosDiff = peB[cj] * peA[cj] + peB[sj] * peA[sj];
        out.perPair[static_cast<std::size_t>(i)] = std::atan2(sinDiff, cosDiff) / encoding.pairFrequency(i);
        slowFirst.push_back(i);
    }
    std::sort(slowFirst.begin(), slowFirst.end(), [&](int a, int b) { return encoding.pairFrequency(a) < encoding.pairFrequency(b); });
    double estimate = 0;
    bool first = true;
    for (int i : slowFirst) {
        const double w = encoding.pairFrequency(i);
        const double lambda = 2 * std::numbers::pi / w;
        const double reading = out.perPair[static_cast<std::size_t>(i)];
        if (first) {
            estimate = reading;
            first = false;
            continue;
        }
        // The whole turns this faster hand made: the one that puts its reading nearest the estimate.
        const double turns = std::round((estimate - reading) / lambda);
        estimate = reading + turns * lambda;
    }
    out.offset = estimate;
    return out;
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
