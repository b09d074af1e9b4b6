#pragma once

#include <QStringList>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <vector>

class QString;
class QSize;

// What pe-bench's main (bench_main.cpp) and its t-SNE and PCA benchmarks (bench_projection.cpp) share.
namespace bench {

inline double seconds(const std::function<void()> &f)
{
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The q-quantile of v (NaN for none): the value at q·n of v sorted.
inline double percentile(std::vector<double> v, double q)
{
    if (v.empty())
        return std::nan("");
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))];
}

inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// t-SNE and PCA, and scikit-learn's t-SNE for comparison unless quick (bench_projection.cpp).
// explorer: the pe-explorer binary, timed as a whole process beside the in-process figures.
void projectionBenchmarks(bool quick, const QString &explorer);

// pe-bench --lecture WxH [--dpr R] (bench_lecture.cpp): the offscreen screen, set before the
// application is made, then lecture mode's step, playback and animation timings on it.
void useOffscreenScreen(QSize size, double dpr);
void lectureBenchmarks(bool quick, const QStringList &only); // only: the views measured (empty: all)

} // namespace bench
