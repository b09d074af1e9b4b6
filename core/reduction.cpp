#include "reduction.h"

#include <algorithm>
#include <cmath>

namespace pe {

PairRaster rasterisePair(const Encoding &encoding, int pair, std::int64_t first, std::int64_t count, int width,
                         int height, const PixelMap &map)
{
    PairRaster g;
    g.width = std::max(1, width);
    g.height = std::max(1, height);
    g.hits.assign(static_cast<std::size_t>(g.width) * g.height, 0);
    g.positionSum.assign(g.hits.size(), 0.0);
    constexpr std::int64_t kChunk = 1 << 15;
    std::vector<double> xs(static_cast<std::size_t>(std::min(kChunk, std::max<std::int64_t>(count, 1))));
    std::vector<double> ys(xs.size(), 0.0); // a sine with no partner lies on y = 0
    const int sj = encoding.pairSineColumn(pair);
    const int cj = encoding.pairCosineColumn(pair);
    for (std::int64_t done = 0; done < count; done += kChunk) {
        Block b;
        b.firstPosition = first + done;
        b.rows = std::min(kChunk, count - done);
        b.firstColumn = sj;
        b.cols = 1;
        encoding.fill(b, xs.data());
        if (cj >= 0) {
            b.firstColumn = cj;
            encoding.fill(b, ys.data());
        }
        for (std::int64_t k = 0; k < b.rows; ++k) {
            const auto px = static_cast<int>(std::floor(map.ax * xs[static_cast<std::size_t>(k)] + map.bx));
            const auto py = static_cast<int>(std::floor(map.ay * ys[static_cast<std::size_t>(k)] + map.by));
            if (px < 0 || py < 0 || px >= g.width || py >= g.height)
                continue;
            const std::size_t at = static_cast<std::size_t>(py) * g.width + px;
            ++g.hits[at];
            g.positionSum[at] += static_cast<double>(done + k);
        }
    }
    return g;
}

std::vector<Extent> runExtents(const std::vector<std::int64_t> &values, std::int64_t stride)
{
    std::vector<Extent> out;
    const auto n = static_cast<std::int64_t>(values.size());
    stride = std::max<std::int64_t>(stride, 1);
    out.reserve(static_cast<std::size_t>((n + stride - 1) / stride));
    for (std::int64_t r0 = 0; r0 < n; r0 += stride) {
        const auto begin = values.begin() + r0;
        const auto [lo, hi] = std::minmax_element(begin, begin + std::min(stride, n - r0));
        out.push_back({*lo, *hi});
    }
    return out;
}

CurveEnvelope curveEnvelope(const std::vector<double> &values, std::int64_t buckets)
{
    CurveEnvelope out;
    const auto n = static_cast<std::int64_t>(values.size());
    out.stride = sampleStride(n, std::max<std::int64_t>(buckets, 1));
    for (std::int64_t r0 = 0; r0 < n; r0 += out.stride) {
        const auto begin = values.begin() + r0;
        const auto [lo, hi] = std::minmax_element(begin, begin + std::min(out.stride, n - r0));
        out.low.push_back(*lo);
        out.high.push_back(*hi);
    }
    return out;
}

} // namespace pe
