#include "figures/vector_color_map.h"

#include <cmath>

bool VectorColorMap::drawsCells() const
{
    const QCPColorMapData *d = data();
    const long long cells = static_cast<long long>(d->keySize()) * d->valueSize();
    return cells > 0 && cells <= kMaxVectorCells && !interpolate();
}

void VectorColorMap::draw(QCPPainter *painter)
{
    if (!painter->modes().testFlag(QCPPainter::pmVectorized) || !drawsCells()) {
        QCPColorMap::draw(painter);
        return;
    }
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
