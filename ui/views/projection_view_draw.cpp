#include "views/projection_view.h"

#include "state/parameters.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

// Positions are labelled with their number up to this many points (article 4 labels all 128).
constexpr std::int64_t kMaxLabels = 200;

} // namespace

void ProjectionView::positionMoved()
{
    // Playback moves the position many times a second: only the ring moves, the points stay.
    placeCurrent();
    replotPositionLayer();
}

void ProjectionView::placeCurrent()
{
    QCustomPlot *p = plot();
    const std::int64_t n = stale_ ? 0 : static_cast<std::int64_t>(shown_.xy.size() / 2);
    const std::int64_t current = parameters()->position() - shownStart_;
    const bool showCurrent = n > 0 && current >= 0 && current < n;
    if (showCurrent) {
        const double cx = shown_.xy[2 * current], cy = shown_.xy[2 * current + 1];
        current_->setData(QVector<double>{cx}, QVector<double>{cy}, true);
        currentLabel_->position->setCoords(cx, cy);
        currentLabel_->setText(QStringLiteral(" t = %1 ").arg(parameters()->position()));
        // On the side with room: left of a point in the right half, so it is never cut off.
        const bool right = cx > p->xAxis->range().center();
        currentLabel_->setPositionAlignment((right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
        QFont f = p->font();
        f.setPointSizeF(fontSize(10));
        f.setBold(true);
        currentLabel_->setFont(f);
    } else {
        current_->data()->clear();
    }
    current_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(220, 20, 20), 2.0 * lineScale()),
                                              Qt::NoBrush, 14 * lineScale()));
    currentLabel_->setVisible(showCurrent);
}

void ProjectionView::draw()
{
    QCustomPlot *p = plot();
    const std::int64_t n = stale_ ? 0 : static_cast<std::int64_t>(shown_.xy.size() / 2);
    const bool tsne = method() == pe::ProjectionMethod::Tsne;
    if (n > 0 && !userRange_) {
        double x0 = shown_.xy[0], x1 = x0, y0 = shown_.xy[1], y1 = y0;
        for (std::int64_t i = 1; i < n; ++i) {
            x0 = std::min(x0, shown_.xy[2 * i]);
            x1 = std::max(x1, shown_.xy[2 * i]);
            y0 = std::min(y0, shown_.xy[2 * i + 1]);
            y1 = std::max(y1, shown_.xy[2 * i + 1]);
        }
        const double padX = std::max((x1 - x0) * 0.05, 1e-9), padY = std::max((y1 - y0) * 0.05, 1e-9);
        settingRange_ = true;
        p->xAxis->setRange(x0 - padX, x1 + padX);
        p->yAxis->setRange(y0 - padY, y1 + padY);
        settingRange_ = false;
    }
    raster();

    // Labels: every position's number next to its point when there are few (article 4).
    const std::int64_t wanted = n <= kMaxLabels ? n : 0;
    while (static_cast<std::int64_t>(labels_.size()) > wanted) {
        p->removeItem(labels_.back());
        labels_.pop_back();
    }
    while (static_cast<std::int64_t>(labels_.size()) < wanted) {
        auto *label = new QCPItemText(p);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->setClipToAxisRect(true);
        labels_.push_back(label);
    }
    QFont labelFont = p->font();
    labelFont.setPointSizeF(fontSize(7));
    for (std::int64_t i = 0; i < wanted; ++i) {
        QCPItemText *label = labels_[static_cast<std::size_t>(i)];
        label->setText(QString::number(shownStart_ + i));
        label->setFont(labelFont);
        label->position->setCoords(shown_.xy[2 * i], shown_.xy[2 * i + 1]);
    }

    placeCurrent();

    const pe::EncodingParams &params = key_ ? key_->params : parameters()->values();
    const QString what =
        tr("%1 positions (d_model %2%3)")
            .arg(QString::fromStdString(pe::withThousands(params.seqLen)))
            .arg(params.dModel)
            .arg(key_ && key_->noise.active() ? tr(", x = PE + %1·z").arg(key_->noise.sigma) : QString());
    QStringList title;
    if (!problem_.isEmpty()) {
        title << tr("Projection not computed: %1").arg(problem_);
    } else if (tsne) {
        const pe::TsneSettings s = key_ ? key_->settings : tsneSettings();
        title << tr("t-SNE of %1, perplexity %2").arg(what).arg(s.perplexity);
        if (n > 0) {
            title << tr("iteration %1 of %2%3%4")
                         .arg(shown_.iteration)
                         .arg(s.iterations)
                         .arg(std::isfinite(shown_.kl) ? tr(", KL %1").arg(shown_.kl, 0, 'f', 3)
                                                       : tr(", finding neighbours…"))
                         .arg(paused_ ? tr(" (paused)") : QString());
        } else {
            title << tr("computing neighbours and affinities…");
        }
        p->xAxis->setLabel(tr("t-SNE 1"));
        p->yAxis->setLabel(tr("t-SNE 2"));
    } else {
        title << tr("PCA of %1").arg(what);
        if (n > 0) {
            title << tr("PC1 %1%, PC2 %2% of the variance")
                         .arg(100 * shown_.explained[0], 0, 'f', 1)
                         .arg(100 * shown_.explained[1], 0, 'f', 1);
        } else {
            title << tr("computing…");
        }
        p->xAxis->setLabel(tr("PC1 (%1% of the variance)").arg(100 * shown_.explained[0], 0, 'f', 1));
        p->yAxis->setLabel(tr("PC2 (%1% of the variance)").arg(100 * shown_.explained[1], 0, 'f', 1));
    }
    setTitle(title_, title);
    updateControls();
    p->replot(QCustomPlot::rpQueuedReplot);
}

void ProjectionView::raster()
{
    QCustomPlot *p = plot();
    // On a dark theme the first positions' near-black purple would vanish: the cloud sits on a
    // mid grey there, on which both ends of viridis stand out.
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    p->axisRect()->setBackground(dark ? QBrush(QColor(128, 128, 134)) : QBrush(Qt::NoBrush));
    const std::int64_t n = stale_ ? 0 : static_cast<std::int64_t>(shown_.xy.size() / 2);
    const QRect area = p->axisRect()->rect();
    const int w = std::clamp(static_cast<int>(std::lround(area.width() * pixelScale())), 1, 8192);
    const int h = std::clamp(static_cast<int>(std::lround(area.height() * pixelScale())), 1, 8192);
    const QCPRange kx = p->xAxis->range(), vy = p->yAxis->range();
    QCPColorMapData *data = points_->data();
    if (data->keySize() != w || data->valueSize() != h)
        data->setSize(w, h);
    // Cell centres half a cell inside the axis range, so cells and pixels coincide.
    data->setRange(QCPRange(kx.lower + kx.size() / (2 * w), kx.upper - kx.size() / (2 * w)),
                   QCPRange(vy.lower + vy.size() / (2 * h), vy.upper - vy.size() / (2 * h)));
    data->fill(std::numeric_limits<double>::quiet_NaN());
    rasterWidth_ = w;
    rasterHeight_ = h;
    pixelIndex_.assign(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), -1);
    // Dots shrink as points multiply, so a cloud of 100,000 still shows its structure.
    const double radius = (n <= 500 ? 3.5 : n <= 5000 ? 2.2 : n <= 20000 ? 1.5 : 0.8) * pixelScale() * lineScale();
    const int r = static_cast<int>(std::ceil(radius));
    std::vector<std::pair<int, int>> disc;
    for (int dy = -r; dy <= r; ++dy)
        for (int dx = -r; dx <= r; ++dx)
            if (dx * dx + dy * dy <= radius * radius + 0.25)
                disc.emplace_back(dx, dy);
    for (std::int64_t i = 0; i < n; ++i) {
        const double fx = (shown_.xy[2 * i] - kx.lower) / kx.size() * w;
        const double fy = (shown_.xy[2 * i + 1] - vy.lower) / vy.size() * h;
        if (!(fx > -r - 1 && fx < w + r + 1 && fy > -r - 1 && fy < h + r + 1))
            continue;
        const int cx = static_cast<int>(std::floor(fx)), cy = static_cast<int>(std::floor(fy));
        const double value = static_cast<double>(shownStart_ + i);
        for (auto [dx, dy] : disc) {
            const int x = cx + dx, y = cy + dy;
            if (x < 0 || x >= w || y < 0 || y >= h)
                continue;
            data->setCell(x, y, value);
            pixelIndex_[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)] =
                static_cast<std::int32_t>(i);
        }
    }
    const double last = static_cast<double>(shownStart_ + std::max<std::int64_t>(n, 1) - 1);
    points_->setDataRange(QCPRange(static_cast<double>(shownStart_), std::max(last, shownStart_ + 1.0)));
    p->replot(QCustomPlot::rpQueuedReplot);
}

void ProjectionView::changeEvent(QEvent *event)
{
    PlotView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        raster();
}

std::int64_t ProjectionView::positionAt(QPointF pixel) const
{
    if (pixelIndex_.empty())
        return -1;
    const QCustomPlot *p = plot();
    const QCPRange kx = p->xAxis->range(), vy = p->yAxis->range();
    const double fx = (p->xAxis->pixelToCoord(pixel.x()) - kx.lower) / kx.size() * rasterWidth_;
    const double fy = (p->yAxis->pixelToCoord(pixel.y()) - vy.lower) / vy.size() * rasterHeight_;
    const int cx = static_cast<int>(std::floor(fx)), cy = static_cast<int>(std::floor(fy));
    const int reach = static_cast<int>(std::ceil(4 * pixelScale()));
    std::int32_t best = -1;
    int bestD = std::numeric_limits<int>::max();
    for (int dy = -reach; dy <= reach; ++dy)
        for (int dx = -reach; dx <= reach; ++dx) {
            const int x = cx + dx, y = cy + dy;
            if (x < 0 || x >= rasterWidth_ || y < 0 || y >= rasterHeight_)
                continue;
            const std::int32_t i = pixelIndex_[static_cast<std::size_t>(y) * static_cast<std::size_t>(rasterWidth_) +
                                               static_cast<std::size_t>(x)];
            if (i >= 0 && dx * dx + dy * dy < bestD) {
                bestD = dx * dx + dy * dy;
                best = i;
            }
        }
    return best < 0 ? -1 : shownStart_ + best;
}

QString ProjectionView::tooltipAt(QPointF pixel) const
{
    const std::int64_t t = positionAt(pixel);
    if (t < 0)
        return {};
    const std::size_t i = static_cast<std::size_t>(t - shownStart_);
    return tr("position %1\n(%2, %3)").arg(t).arg(shown_.xy[2 * i], 0, 'g', 4).arg(shown_.xy[2 * i + 1], 0, 'g', 4);
}

std::int64_t ProjectionView::heldValues() const
{
    return static_cast<std::int64_t>(shown_.xy.size()) + static_cast<std::int64_t>(pixelIndex_.size()) * 2;
}

std::optional<pe::Table> ProjectionView::dataTable() const
{
    // The coordinates on screen: the frame shown, finished or not.
    if (shown_.xy.empty() || stale_)
        return std::nullopt;
    return pe::coordinateTable(shownStart_, shown_.xy);
}
