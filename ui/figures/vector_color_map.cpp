#include "figures/vector_color_map.h"

#include "figures/color_maps.h"

#include <algorithm>
#include <cmath>

namespace {

// The largest rectangle of `image` left when rows and columns with a pixel not fully opaque are
// taken from its edges, if every pixel inside is opaque; else an empty rectangle.
QRect opaquePart(const QImage &image)
{
    const auto opaqueRow = [&image](int y, int left, int right) {
        const auto *line = reinterpret_cast<const QRgb *>(image.constScanLine(y));
        return std::all_of(line + left, line + right + 1, [](QRgb p) { return qAlpha(p) == 255; });
    };
    const auto opaqueColumn = [&image](int x, int top, int bottom) {
        for (int y = top; y <= bottom; ++y)
            if (qAlpha(reinterpret_cast<const QRgb *>(image.constScanLine(y))[x]) != 255)
                return false;
        return true;
    };
    QRect r = image.rect();
    // A few partly covered pixels at each edge at most: more means cells that are not opaque.
    for (int i = 0; i < 3 && !r.isEmpty() && !opaqueRow(r.top(), r.left(), r.right()); ++i)
        r.setTop(r.top() + 1);
    for (int i = 0; i < 3 && !r.isEmpty() && !opaqueRow(r.bottom(), r.left(), r.right()); ++i)
        r.setBottom(r.bottom() - 1);
    for (int i = 0; i < 3 && !r.isEmpty() && !opaqueColumn(r.left(), r.top(), r.bottom()); ++i)
        r.setLeft(r.left() + 1);
    for (int i = 0; i < 3 && !r.isEmpty() && !opaqueColumn(r.right(), r.top(), r.bottom()); ++i)
        r.setRight(r.right() - 1);
    for (int y = r.top(); y <= r.bottom() && !r.isEmpty(); ++y)
        if (!opaqueRow(y, r.left(), r.right()))
            return {};
    return r;
}

} // namespace

bool VectorColorMap::drawsCells() const
{
    const QCPColorMapData *d = data();
    const long long cells = static_cast<long long>(d->keySize()) * d->valueSize();
    return cells > 0 && cells <= kMaxVectorCells && !interpolate();
}

void VectorColorMap::draw(QCPPainter *painter)
{
    if (painter->modes().testFlag(QCPPainter::pmVectorized) && drawsCells())
        drawCells(painter);
    else if (!drawScaledCopy(painter))
        QCPColorMap::draw(painter);
}

void VectorColorMap::drawCells(QCPPainter *painter)
{
    QCPColorMapData *d = data();
    const int nk = d->keySize(), nv = d->valueSize();
    // Cells are centred on their coordinates, a step apart (one cell: one unit).
    const double hk = nk > 1 ? (d->keyRange().upper - d->keyRange().lower) / (nk - 1) / 2 : 0.5;
    const double hv = nv > 1 ? (d->valueRange().upper - d->valueRange().lower) / (nv - 1) / 2 : 0.5;
    const bool log = dataScaleType() == QCPAxis::stLogarithmic;
    painter->save();
    painter->setPen(Qt::NoPen);
    // Neighbouring rectangles overlap by a hair so viewers' antialiasing shows no seams.
    const double seam = 0.02;
    for (int i = 0; i < nk; ++i)
        for (int j = 0; j < nv; ++j) {
            const double z = d->cell(i, j);
            if (std::isnan(z))
                continue;
            double key = 0, value = 0;
            d->cellToCoord(i, j, &key, &value);
            const QPointF a = coordsToPixels(key - hk * (1 + seam), value - hv * (1 + seam));
            const QPointF b = coordsToPixels(key + hk * (1 + seam), value + hv * (1 + seam));
            painter->setBrush(QColor::fromRgba(gradient().color(z, dataRange(), log)));
            painter->drawRect(QRectF(a, b).normalized());
        }
    painter->restore();
}

bool VectorColorMap::drawScaledCopy(QCPPainter *painter)
{
    if (painter->modes().testFlag(QCPPainter::pmVectorized) || painter->modes().testFlag(QCPPainter::pmNoCaching) ||
        !painter->paintEngine() || painter->paintEngine()->type() != QPaintEngine::Raster || mTightBoundary ||
        !mKeyAxis || !mValueAxis)
        return false;
    if (mMapData->isEmpty())
        return true;
    // QCustomPlot's order: the hint first (QCPPainter moves its origin half a pixel with it), then
    // the image made again if the cells or the colours changed since.
    applyDefaultAntialiasingHint(painter);
    const QTransform world = painter->worldTransform();
    if (world.type() > QTransform::TxTranslate)
        return false;
    if (colormaps::cellsChangedSinceColoured(mMapData) || mMapImageInvalidated)
        updateMapImage();
    // The image's rectangle as QCustomPlot places it: from the first cell's centre to the last's,
    // and half a cell further each way (a cell is centred on its coordinate).
    QRectF image = QRectF(coordsToPixels(mMapData->keyRange().lower, mMapData->valueRange().lower),
                          coordsToPixels(mMapData->keyRange().upper, mMapData->valueRange().upper))
                       .normalized();
    const bool keysAcross = keyAxis()->orientation() == Qt::Horizontal;
    const int across = keysAcross ? mMapData->keySize() : mMapData->valueSize();
    const int down = keysAcross ? mMapData->valueSize() : mMapData->keySize();
    const double halfWidth = across > 1 ? 0.5 * image.width() / (across - 1) : 0;
    const double halfHeight = down > 1 ? 0.5 * image.height() / (down - 1) : 0;
    image.adjust(-halfWidth, -halfHeight, halfWidth, halfHeight);

    const double scale = painter->device()->devicePixelRatioF();
    const QTransform toDevice = world * QTransform::fromScale(scale, scale);
    const QRectF target = toDevice.mapRect(image);
    QRect visible = target.toAlignedRect();
    if (painter->hasClipping())
        visible &= toDevice.mapRect(painter->clipBoundingRect()).toAlignedRect();
    if (visible.isEmpty())
        return true;
    const Made now{mMapImage.cacheKey(),
                   target,
                   visible,
                   (keysAcross ? keyAxis() : valueAxis())->rangeReversed(),
                   (keysAcross ? valueAxis() : keyAxis())->rangeReversed(),
                   painter->testRenderHint(QPainter::Antialiasing),
                   mInterpolate};
    if (now != made_ || scaled_.isNull()) {
        // An image drawn once (an animation's frame, a slider's step: each a new image) is drawn
        // QCustomPlot's way, in one pass over its pixels; the copy costs two (made, then copied).
        // It is made when the same image is drawn a second time: by the next whole replot (the
        // relative and attention views' first step after a rebuild, an ALiBi or T5 page turn),
        // which pays for it instead of the rebuild; steps on a position layer draw no map.
        if (now != seen_) {
            seen_ = now;
            return false;
        }
        // The same buffer again when the size holds: a fresh 20 MB image costs its page faults.
        if (scaled_.size() != visible.size())
            scaled_ = QImage(visible.size(), QImage::Format_ARGB32_Premultiplied);
        scaled_.fill(Qt::transparent);
        QPainter p(&scaled_);
        p.setRenderHint(QPainter::Antialiasing, now.antialiased);
        p.setRenderHint(QPainter::SmoothPixmapTransform, now.smooth);
        p.setTransform(toDevice * QTransform::fromTranslate(-visible.x(), -visible.y()));
        p.drawImage(image, mMapImage.mirrored(now.mirrorX, now.mirrorY));
        p.end();
        opaque_ = opaquePart(scaled_);
        made_ = now;
        ++copiesMade_;
    }
    // Copied in device pixels: the painter's own scale (the device pixel ratio) undone. The opaque
    // part (every cell but a partly covered pixel at the edges) as opaque pixels, which Qt copies
    // line by line instead of blending pixel by pixel; the edges around it blended.
    painter->save();
    painter->setWorldTransform(QTransform::fromScale(1 / scale, 1 / scale));
    if (opaque_.isEmpty()) {
        painter->drawImage(visible.topLeft(), scaled_);
    } else {
        const QImage inner(scaled_.constScanLine(opaque_.top()) + 4 * opaque_.left(), opaque_.width(), opaque_.height(),
                           scaled_.bytesPerLine(), QImage::Format_RGB32);
        painter->drawImage(visible.topLeft() + opaque_.topLeft(), inner);
        const QRect all = scaled_.rect();
        for (const QRect &edge :
             {QRect(all.left(), all.top(), all.width(), opaque_.top()),
              QRect(all.left(), opaque_.bottom() + 1, all.width(), all.bottom() - opaque_.bottom()),
              QRect(all.left(), opaque_.top(), opaque_.left(), opaque_.height()),
              QRect(opaque_.right() + 1, opaque_.top(), all.right() - opaque_.right(), opaque_.height())})
            if (!edge.isEmpty())
                painter->drawImage(visible.topLeft() + edge.topLeft(), scaled_, edge);
    }
    painter->restore();
    return true;
}
