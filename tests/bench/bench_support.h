#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <vector>

class QCustomPlot;
class QString;
class QSize;
class QWidget;

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

// The plot's paints, however they were asked for (a whole replot, or only the position's layer):
// when each came, in ms on clock.
class PaintStamps : public QObject
{
  public:
    explicit PaintStamps(QElapsedTimer &clock)
        : clock_(clock)
    {
    }
    std::vector<double> stamps;

  protected:
    bool eventFilter(QObject *, QEvent *event) override;

  private:
    QElapsedTimer &clock_;
};

// From change(i) to the plot replotted, or painted when the view redraws its position's layer
// alone (its overlay has a buffer: no replot), then `shown` repainted at once; ms for each of
// `steps` changes. A change that returns false is not timed (a value the state refused); missed(i)
// hears of a change that reached no paint within 5 s (bench_paint.cpp).
std::vector<double> stepsToPaint(QCustomPlot *plot, QWidget *shown, int steps, const std::function<bool(int)> &change,
                                 const std::function<void(int)> &missed = {});

// t-SNE and PCA, and scikit-learn's t-SNE for comparison unless quick (bench_projection.cpp).
// explorer: the pe-explorer binary, timed as a whole process beside the in-process figures.
void projectionBenchmarks(bool quick, const QString &explorer);

// pe-bench --lecture WxH [--dpr R] (bench_lecture.cpp): the offscreen screen, set before the
// application is made, then lecture mode's step, playback and animation timings on it.
void useOffscreenScreen(QSize size, double dpr);
void lectureBenchmarks(bool quick, const QStringList &only); // only: the views measured (empty: all)

} // namespace bench
