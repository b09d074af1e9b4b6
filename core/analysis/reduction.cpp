#include "analysis/reduction.h"

#include "analysis/offset_waves.h"
#include "support/simd_clones.h"

#include <algorithm>
#include <cmath>

namespace pe {

namespace {

// A pair's sine and cosine columns at positions first .. first + count - 1 (y 0 for a sine without a
// partner): a table's from the fill; a rotating pair's from turnValues, eight positions a lane: the
// fill turns a single column row after row, one chain of dependent multiplies (it was a third of
// the circles' time at 1,000,000 positions).
void pairValues(const Encoding &encoding, int pair, std::int64_t first, std::int64_t count, double *x, double *y,
                std::vector<double> &scratch)
{
    const int sj = encoding.pairSineColumn(pair), cj = encoding.pairCosineColumn(pair);
    if (!encoding.hasFrequencies()) {
        Block b;
        b.firstPosition = first;
        b.rows = count;
        b.firstColumn = sj;
        b.cols = 1;
        encoding.fill(b, x);
        if (cj >= 0) {
            b.firstColumn = cj;
            encoding.fill(b, y);
        }
        return;
    }
    scratch.resize(static_cast<std::size_t>(count));
    const double ws = encoding.columnFrequency(sj), a = encoding.columnAmplitude(sj);
    turnValues(ws, a, first, count, scratch.data(), x);
    if (cj < 0)
        return;
    const double wc = encoding.columnFrequency(cj);
    if (wc == ws)
        std::copy_n(scratch.begin(), count, y);
    else // the per-index exponent: the cosine column turns at its own speed
        turnValues(wc, a, first, count, y, scratch.data());
}

// Each point's pixel, or -1 off the grid (the truncation counts only at or above 0, where it is
// the floor). A loop of its own without branches, for the clones to vectorise (reduction.cpp is
// built with -fno-trapping-math: otherwise GCC keeps each comparison scalar, as if it could trap).
PE_CLONES void pixelsOf(const double *__restrict xs, const double *__restrict ys, std::int64_t n, PixelMap map,
                        int width, int height, std::int32_t *__restrict out)
{
    const double w = width, h = height;
    for (std::int64_t k = 0; k < n; ++k) {
        double fx = map.ax * xs[k] + map.bx, fy = map.ay * ys[k] + map.by;
        const bool in = (fx >= 0) & (fy >= 0) & (fx < w) & (fy < h);
        fx = in ? fx : 0.0; // converted only in range
        fy = in ? fy : 0.0;
        const std::int32_t at = static_cast<std::int32_t>(fy) * width + static_cast<std::int32_t>(fx);
        out[k] = in ? at : -1;
    }
}

} // namespace

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
    std::vector<std::int32_t> pixel(xs.size());
    std::vector<double> scratch;
    // Consecutive positions of a slow pair land on the same pixel: a run is counted in registers, its
    // positions summed in integers (exact), and added once (adding each point in memory waited on
    // the last one's store).
    std::int32_t runPixel = -1;
    std::uint32_t runHits = 0;
    std::int64_t runSum = 0;
    for (std::int64_t done = 0; done < count; done += kChunk) {
        const std::int64_t rows = std::min(kChunk, count - done);
        pairValues(encoding, pair, first + done, rows, xs.data(), ys.data(), scratch);
        pixelsOf(xs.data(), ys.data(), rows, map, g.width, g.height, pixel.data());
        for (std::int64_t k = 0; k < rows; ++k) {
            const std::int32_t at = pixel[static_cast<std::size_t>(k)];
            if (at != runPixel) {
                if (runPixel >= 0) {
                    g.hits[static_cast<std::size_t>(runPixel)] += runHits;
                    g.positionSum[static_cast<std::size_t>(runPixel)] += static_cast<double>(runSum);
                }
                runPixel = at;
                runHits = 0;
                runSum = 0;
            }
            ++runHits;
            runSum += done + k;
        }
    }
    if (runPixel >= 0) {
        g.hits[static_cast<std::size_t>(runPixel)] += runHits;
        g.positionSum[static_cast<std::size_t>(runPixel)] += static_cast<double>(runSum);
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

double percentile(std::vector<double> &values, double q)
{
    values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }), values.end());
    if (values.empty())
        return std::nan("");
    const double h = static_cast<double>(values.size() - 1) * q / 100.0;
    const auto lo = static_cast<std::size_t>(std::floor(h));
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(lo), values.end());
    const double a = values[lo];
    if (lo + 1 >= values.size())
        return a;
    // After nth_element every value past lo is at least a: the next rank is their least.
    const double b = *std::min_element(values.begin() + static_cast<std::ptrdiff_t>(lo) + 1, values.end());
    const double f = h - static_cast<double>(lo);
    const double d = b - a;
    return f >= 0.5 ? b - d * (1.0 - f) : a + d * f;
}

} // namespace pe
