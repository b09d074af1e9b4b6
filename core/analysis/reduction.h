#pragma once

#include "encodings/encoding.h"

#include <cstdint>
#include <vector>

namespace pe {

// Reductions of many values to the pixels that show them, which keep what every value says (see
// sampledBlock in encoding.h for the heatmap's cells, similarityCurve for the similarity envelope).

// A straight map from values to device pixels: pixel x = ax * value + bx, y = ay * value + by.
struct PixelMap {
    double ax = 1, bx = 0, ay = 1, by = 0;
};

// A pair's points rasterised: every position of [first, first + count) lands on the pixel of its
// (sine, cosine) point on a width x height grid (outside it: nowhere), and each pixel keeps how many
// landed there and the mean of their positions. O(count), bounded by the pixels: what the circles
// draw at any seq_len, where thinning with a stride would alias (REFERENCE.md section 7).
struct PairRaster {
    int width = 0, height = 0;
    std::vector<std::uint32_t> hits; // row-major, height rows of width
    std::vector<double> positionSum; // positions relative to `first`: exact in double
    double meanPosition(std::size_t pixel, std::int64_t first) const
    {
        return static_cast<double>(first) + positionSum[pixel] / hits[pixel];
    }
};
PairRaster rasterisePair(const Encoding &encoding, int pair, std::int64_t first, std::int64_t count, int width,
                         int height, const PixelMap &map);

// The lowest and the highest of each run of `stride` values, one run a pixel column: a value that
// differs anywhere in a run shows (every stride-th value would skip most of them).
struct Extent {
    std::int64_t low = 0, high = 0;
};
std::vector<Extent> runExtents(const std::vector<std::int64_t> &values, std::int64_t stride);

// A curve of n values for a plot `buckets` pixel columns wide: runs of stride = ceil(n / buckets)
// values, each run's lowest and highest (a spike one value wide still shows; every stride-th value
// would miss it). stride 1: the values themselves (low == high).
struct CurveEnvelope {
    std::int64_t stride = 1;
    std::vector<double> low, high; // one a run; run r starts at value r * stride
};
CurveEnvelope curveEnvelope(const std::vector<double> &values, std::int64_t buckets);

// The q-th percentile (0 to 100) of the values that are not NaN, between the two nearest ranks as
// numpy.percentile's default ('linear') interpolates: rank h = (n - 1)·q/100, a + (b - a)·(h - ⌊h⌋)
// (numpy's _lerp, which takes b - (b - a)·(1 - f) for f >= 0.5). NaN when every value is NaN.
// Reorders `values` (NaNs dropped): the robust colour limits call it on the cells they drew.
double percentile(std::vector<double> &values, double q);

} // namespace pe
