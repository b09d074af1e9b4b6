#include "figures/screen_graph.h"

#include <QDataStream>
#include <QPaintEngine>

#include <cmath>

namespace {

// Below this many points the symbols are drawn directly: drawing the 16 images costs more.
constexpr int kFewest = 48;

// What a symbol's pixels depend on: the style, the default pen, the scale.
QByteArray spriteKey(const QCPScatterStyle &style, const QPen &pen, double scale)
{
    QByteArray key;
    QDataStream out(&key, QIODevice::WriteOnly);
    out << static_cast<int>(style.shape()) << style.size() << style.pen() << style.brush() << pen << scale;
    return key;
}

// The screen's painter: the raster engine, neither an export's vector nor its one-off drawing.
bool onScreen(const QCPPainter *painter)
{
    return painter->paintEngine() && painter->paintEngine()->type() == QPaintEngine::Raster &&
           !painter->modes().testFlag(QCPPainter::pmVectorized) && !painter->modes().testFlag(QCPPainter::pmNoCaching);
}

bool finite(const QPointF &p)
{
    return std::isfinite(p.x()) && std::isfinite(p.y());
}

} // namespace

ScreenGraph::ScreenGraph(QCPAxis *keyAxis, QCPAxis *valueAxis)
    : QCPGraph(keyAxis, valueAxis)
{
}

void ScreenGraph::drawLinePlot(QCPPainter *painter, const QVector<QPointF> &lines) const
{
    applyDefaultAntialiasingHint(painter);
    const QPen pen = painter->pen();
    const bool segments = onScreen(painter) && painter->antialiasing() && pen.style() == Qt::SolidLine &&
                          pen.brush().style() == Qt::SolidPattern && pen.color().alpha() == 255 && !pen.isCosmetic() &&
                          pen.widthF() > 1 && pen.capStyle() == Qt::RoundCap && pen.joinStyle() == Qt::RoundJoin;
    if (!segments) {
        QCPGraph::drawLinePlot(painter, lines);
        return;
    }
    // A point that is not finite is a gap in the line, as in QCustomPlot's polyline (which splits at
    // NaN and an infinite y; an infinite x is a gap here too). Qt draws nothing for such a segment
    // either; it is skipped rather than left to Qt.
    for (qsizetype i = 1; i < lines.size(); ++i)
        if (finite(lines[i - 1]) && finite(lines[i]))
            painter->drawLine(lines[i - 1], lines[i]);
}

void ScreenGraph::drawScatterPlot(QCPPainter *painter, const QVector<QPointF> &scatters,
                                  const QCPScatterStyle &style) const
{
    // QCPPainter moves its origin half a pixel when it turns antialiasing on (its sharp-line fix):
    // the hint first, then the transform that places the symbols.
    applyScattersAntialiasingHint(painter);
    const QTransform world = painter->worldTransform();
    const bool copies = painter->antialiasing() && scatters.size() >= kFewest && onScreen(painter) &&
                        world.type() <= QTransform::TxTranslate &&
                        (style.shape() == QCPScatterStyle::ssDisc || style.shape() == QCPScatterStyle::ssCircle);
    if (!copies) {
        QCPGraph::drawScatterPlot(painter, scatters, style);
        return;
    }
    const double scale = painter->device()->devicePixelRatioF();
    const QByteArray key = spriteKey(style, mPen, scale);
    if (key != spritesFor_) {
        // The symbol's extent: its size, the pen's width and a pixel of antialiasing, in device pixels.
        const QPen pen = style.isPenDefined() ? style.pen() : mPen;
        spriteHalf_ = static_cast<int>(std::ceil((style.size() / 2 + pen.widthF()) * scale)) + 2;
        const int side = 2 * spriteHalf_ + 1;
        for (int py = 0; py < kPhases; ++py)
            for (int px = 0; px < kPhases; ++px) {
                QImage sprite(side, side, QImage::Format_ARGB32_Premultiplied);
                sprite.fill(Qt::transparent);
                QCPPainter p(&sprite);
                p.setModes(painter->modes());
                // QCPPainter's own antialiasing (its lines follow it), without the half pixel it
                // moves the origin by: the symbol's place is the screen painter's, taken above.
                p.setAntialiasing(true);
                p.resetTransform();
                // The symbol's centre sits px/4, py/4 of a device pixel past the sprite's centre pixel.
                p.translate(spriteHalf_ + static_cast<double>(px) / kPhases,
                            spriteHalf_ + static_cast<double>(py) / kPhases);
                p.scale(scale, scale);
                style.applyTo(&p, mPen);
                style.drawShape(&p, 0, 0);
                p.end();
                sprites_[static_cast<std::size_t>(py * kPhases + px)] = sprite;
            }
        spritesFor_ = key;
    }
    // Copied in device pixels: the painter's own scale (the device pixel ratio) undone.
    painter->save();
    painter->setWorldTransform(QTransform::fromScale(1 / scale, 1 / scale));
    for (const QPointF &scatter : scatters) {
        const QPointF at = world.map(scatter) * scale;
        const double x = std::floor(at.x() * kPhases + 0.5) / kPhases;
        const double y = std::floor(at.y() * kPhases + 0.5) / kPhases;
        const double ix = std::floor(x), iy = std::floor(y);
        const auto px = static_cast<int>((x - ix) * kPhases), py = static_cast<int>((y - iy) * kPhases);
        painter->drawImage(QPoint(static_cast<int>(ix) - spriteHalf_, static_cast<int>(iy) - spriteHalf_),
                           sprites_[static_cast<std::size_t>(py * kPhases + px)]);
    }
    painter->restore();
}
