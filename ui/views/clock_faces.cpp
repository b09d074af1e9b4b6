// ClockFaces: painting the clock faces, their trained arcs, start ticks and hubs, and caching the picture.
#include "views/clock_faces.h"

#include "views/clock_grid_view.h"

#include <algorithm>
#include <cmath>
#include <numbers>

void ClockFaces::setGrid(int rows, int cols, double radius, pe::ClockFace face, double lineScale)
{
    if (rows == rows_ && cols == cols_ && radius == radius_ && face == face_ && lineScale == lineScale_)
        return; // the same faces: keep the painted image
    rows_ = rows;
    cols_ = cols;
    radius_ = radius;
    face_ = face;
    lineScale_ = lineScale;
    cache_ = QImage();
}

void ClockFaces::setCentres(std::vector<QPointF> centres)
{
    if (centres == centres_)
        return;
    centres_ = std::move(centres);
    cache_ = QImage();
}

void ClockFaces::setArcs(std::vector<double> sweeps)
{
    if (sweeps == sweeps_)
        return;
    sweeps_ = std::move(sweeps);
    cache_ = QImage();
}

QRect ClockFaces::facesRect() const
{
    if (centres_.empty())
        return clipRect();
    // The cells around the centres (a face stays inside its cell): one row's faces (the clocks
    // view's current row) make an image of that row, not of the whole plot.
    QRectF cells;
    for (const QPointF &spot : centres_)
        cells |= QRectF(QPointF(x_->coordToPixel(spot.x() - 0.5), y_->coordToPixel(spot.y() - 0.5)),
                        QPointF(x_->coordToPixel(spot.x() + 0.5), y_->coordToPixel(spot.y() + 0.5)))
                     .normalized();
    return cells.toAlignedRect().intersected(clipRect());
}

void ClockFaces::draw(QCPPainter *painter)
{
    const QRect rect = facesRect();
    if (painter->modes().testFlag(QCPPainter::pmVectorized)) {
        paint(*painter);
        return;
    }
    const double scale = painter->transform().m11() * painter->device()->devicePixelRatioF();
    if ((QSizeF(rect.size()) * scale).toSize().isEmpty())
        return; // a plot squeezed to nothing (a pane dragged shut) has no faces to draw
    const auto key = std::make_tuple(rect, x_->range().lower, x_->range().upper, y_->range().lower, y_->range().upper,
                                     scale, ink().rgba());
    if (cache_.isNull() || key != cacheKey_) {
        // Scaled by hand, not by a device pixel ratio: below 1 (the export dialog's preview)
        // QPainter ignores the ratio, and the rims came out several times too large.
        cache_ = QImage((QSizeF(rect.size()) * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
        cache_.fill(Qt::transparent);
        QPainter p(&cache_);
        p.setRenderHint(QPainter::Antialiasing);
        p.scale(scale, scale);
        p.translate(-rect.topLeft());
        paint(p);
        cacheKey_ = key;
    }
    painter->drawImage(QRectF(rect), cache_);
}

void ClockFaces::paint(QPainter &p) const
{
    const double rx = std::abs(x_->coordToPixel(radius_) - x_->coordToPixel(0));
    const double ry = std::abs(y_->coordToPixel(radius_) - y_->coordToPixel(0));
    // The faces in the theme's ink: dark on light paper, light on a dark background.
    const double cell = std::min(rx, ry) / radius_; // pixels a cell
    const QPen face(ink(), ClockGridView::facePenWidth(lineScale_, cell));
    const double hub = std::min(2.0 * lineScale_, 0.05 * cell);
    // Every hand starts at angle 0: 12 o'clock on a clock, 3 o'clock for the math angle.
    const QPointF zero = face_ == pe::ClockFace::Clockwise ? QPointF(0, -1) : QPointF(1, 0);
    std::vector<QPointF> at = centres_;
    if (at.empty())
        for (int r = 0; r < rows_; ++r)
            for (int c = 0; c < cols_; ++c)
                at.emplace_back(c, r);
    for (const QPointF &spot : at) {
        const int c = static_cast<int>(spot.x());
        const QPointF centre(x_->coordToPixel(spot.x()), y_->coordToPixel(spot.y()));
        if (static_cast<std::size_t>(c) < sweeps_.size()) {
            // The trained arc as a wedge from the hub, from the hands' start their way round.
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(40, 170, 70, 110));
            const QRectF disc(centre.x() - rx, centre.y() - ry, 2 * rx, 2 * ry);
            const double degrees = sweeps_[static_cast<std::size_t>(c)] * 180 / std::numbers::pi;
            const int span = static_cast<int>(std::lround(16 * std::max(degrees, 1.0)));
            if (face_ == pe::ClockFace::Clockwise)
                p.drawPie(disc, 90 * 16, -span);
            else
                p.drawPie(disc, 0, span);
        }
        p.setPen(face);
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(centre, rx, ry);
        p.drawLine(centre + QPointF(0.8 * rx * zero.x(), 0.8 * ry * zero.y()),
                   centre + QPointF(rx * zero.x(), ry * zero.y()));
        p.setPen(Qt::NoPen);
        p.setBrush(ink());
        p.drawEllipse(centre, hub, hub);
    }
}

QColor ClockFaces::ink() const
{
    const QColor text = parentPlot()->palette().color(QPalette::WindowText);
    return text.lightness() > 128 ? text : QColor(40, 40, 40);
}
