#include "figures/position_matrix.h"

#include "figures/color_maps.h"
#include "figures/integer_ticker.h"
#include "figures/vector_color_map.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

PositionMatrix::PositionMatrix(QCustomPlot *plot, QCPLayoutGrid *content, const QString &scaleLabel)
    : plot_(plot)
    , map_(new VectorColorMap(plot->xAxis, plot->yAxis))
    , scale_(new QCPColorScale(plot))
{
    map_->setInterpolate(false);
    content->addElement(0, 1, scale_);
    map_->setColorScale(scale_);
    // The scale's gradient is the map's (set after: the scale's own default would win). Viridis ends
    // in yellow, not white, so the largest cells never read as empty paper; masked cells (NaN) are a
    // neutral grey of their own.
    QCPColorGradient gradient = colormaps::gradient(QStringLiteral("viridis"));
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(QColor(150, 150, 150));
    scale_->setGradient(gradient);
    // The colour bar as tall as the matrix.
    auto *rows = new QCPMarginGroup(plot);
    plot->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, rows);
    scale_->setMarginGroup(QCP::msTop | QCP::msBottom, rows);
    scale_->axis()->setLabel(scaleLabel);
    for (QCPAxis *axis : {plot->xAxis, plot->yAxis}) {
        axis->setTicker(QSharedPointer<IntegerTicker>::create());
        axis->grid()->setVisible(false);
    }
    plot->xAxis->setLabel(tr("key position s"));
    plot->yAxis->setLabel(tr("query position t"));
    plot->yAxis->setRangeReversed(true);
}

namespace {

// The first cell of the page that holds t: pages begin every half window (a window of `count`
// cells from `start`), and t lies in the middle half of its page but at the ends of [start, start + n).
std::int64_t pageFirst(std::int64_t t, std::int64_t start, std::int64_t n, std::int64_t count)
{
    // t's rows on a page: from `lead` to lead + half - 1, the middle of the page's count rows.
    const std::int64_t half = std::max<std::int64_t>(count / 2, 1);
    const std::int64_t lead = std::max<std::int64_t>(count - half, 0) / 2;
    const std::int64_t from = t - start - lead;
    const std::int64_t page = from >= 0 ? from / half : -((-from + half - 1) / half);
    return std::clamp(start + page * half, start, start + n - count);
}

} // namespace

void PositionMatrix::place(std::int64_t t, std::int64_t start, std::int64_t n, int asked, int maxCells)
{
    const int fit = std::max(8, std::min(plot_->axisRect()->width(), plot_->axisRect()->height()));
    start_ = start;
    n_ = n;
    count_ = std::min<std::int64_t>(n, asked > 0 ? asked : std::min(fit, maxCells));
    first_ = pageFirst(t, start, n, count_);
    const double lo = static_cast<double>(first_) - 0.5, hi = static_cast<double>(first_ + count_) - 0.5;
    plot_->xAxis->setRange(lo, hi);
    plot_->yAxis->setRange(lo, hi);
}

bool PositionMatrix::holds(std::int64_t t) const
{
    return count_ > 0 && pageFirst(t, start_, n_, count_) == first_;
}

void PositionMatrix::fillByOffset(const std::function<double(std::int64_t k)> &valueAt, double low, double high)
{
    const std::int64_t cells = count_;
    std::vector<double> byOffset(static_cast<std::size_t>(std::max<std::int64_t>(2 * cells - 1, 0)));
    for (std::int64_t k = -(cells - 1); k < cells; ++k)
        byOffset[static_cast<std::size_t>(k + cells - 1)] = valueAt(k);
    // Equal offset by offset, a NaN (a masked offset: T5's decoder) equal to a NaN.
    const bool same = std::equal(byOffset.begin(), byOffset.end(), filledByOffset_.begin(), filledByOffset_.end(),
                                 [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); });
    if (cells > 0 && same) {
        // The same cells on another page (a bias of the offset alone): the map keeps its colours
        // (QCustomPlot colours the cells again only when they change), and moves to the window.
        const double a = static_cast<double>(first_), b = static_cast<double>(first_ + count_ - 1);
        colormaps::placeColorMap(map_, static_cast<int>(cells), static_cast<int>(cells), a, b, a, b, false);
        map_->setDataRange(QCPRange(low, high > low ? high : low + 1));
        return;
    }
    std::vector<double> values(static_cast<std::size_t>(cells * cells));
    for (std::int64_t r = 0; r < cells; ++r)
        std::copy_n(byOffset.begin() + (cells - 1 - r), cells, values.begin() + r * cells);
    fill(values, low, high);
    filledByOffset_ = std::move(byOffset);
}

void PositionMatrix::fill(const std::vector<double> &values, double low, double high)
{
    filledByOffset_.clear();
    const auto cells = static_cast<int>(count_);
    const double a = static_cast<double>(first_), b = static_cast<double>(first_ + count_ - 1);
    colormaps::fillColorMap(map_, cells, cells, a, b, a, b, false, values.data());
    map_->setDataRange(QCPRange(low, high > low ? high : low + 1));
}

void PositionMatrix::clear()
{
    map_->data()->clear();
    count_ = 0;
    filledByOffset_.clear();
}

void PositionMatrix::setScaleLabel(const QString &label)
{
    scale_->axis()->setLabel(label);
}

QString PositionMatrix::windowText() const
{
    if (count_ >= n_)
        return {};
    return tr("cells: positions %1–%2 of %3–%4 (the page that holds t), one a position")
        .arg(first_)
        .arg(first_ + count_ - 1)
        .arg(start_)
        .arg(start_ + n_ - 1);
}
