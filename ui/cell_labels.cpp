#include "cell_labels.h"

#include <cmath>

CellLabels::CellLabels(QCPColorMap *map, QCPColorGradient gradient)
    : QCPLayerable(map->parentPlot(), QString(), map)
    , map_(map)
    , gradient_(std::move(gradient))
{
    setLayer(map->layer());
}

QRect CellLabels::clipRect() const { return map_->keyAxis()->axisRect()->rect(); }

void CellLabels::applyDefaultAntialiasingHint(QCPPainter *painter) const
{
    applyAntialiasingHint(painter, true, QCP::aeOther);
}

QSizeF CellLabels::cellPixels() const
{
    const QCPColorMapData *data = map_->data();
    auto step = [](const QCPRange &r, int n) { return n > 1 ? (r.upper - r.lower) / (n - 1) : 1.0; };
    const double dk = step(data->keyRange(), data->keySize());
    const double dv = step(data->valueRange(), data->valueSize());
    const double k0 = data->keyRange().lower;
    const double v0 = data->valueRange().lower;
    const double w = std::abs(map_->keyAxis()->coordToPixel(k0 + dk) - map_->keyAxis()->coordToPixel(k0));
    const double h = std::abs(map_->valueAxis()->coordToPixel(v0 + dv) - map_->valueAxis()->coordToPixel(v0));
    return {w, h};
}

int CellLabels::decimalsFor(const QFontMetrics &metrics) const
{
    if (sampled_)
        return 0;
    const QSizeF cell = cellPixels();
    if (cell.height() < metrics.height() + 2)
        return 0;
    if (cell.width() >= metrics.horizontalAdvance(QStringLiteral("-0.0000")) + 6)
        return 4;
    if (cell.width() >= metrics.horizontalAdvance(QStringLiteral("-0.00")) + 4)
        return 2;
    return 0;
}

int CellLabels::decimalsInUse() const { return decimalsFor(QFontMetrics(parentPlot()->font())); }

void CellLabels::draw(QCPPainter *painter)
{
    painter->setFont(parentPlot()->font());
    const int decimals = decimalsFor(painter->fontMetrics());
    if (decimals == 0)
        return;
    QCPColorMapData *data = map_->data();
    const QSizeF cell = cellPixels();
    const QCPRange kr = data->keyRange();
    const QCPRange vr = data->valueRange();
    const int nk = data->keySize();
    const int nv = data->valueSize();
    for (int k = 0; k < nk; ++k) {
        const double key = nk > 1 ? kr.lower + k * (kr.upper - kr.lower) / (nk - 1) : kr.lower;
        const double x = map_->keyAxis()->coordToPixel(key);
        for (int v = 0; v < nv; ++v) {
            const double value = nv > 1 ? vr.lower + v * (vr.upper - vr.lower) / (nv - 1) : vr.lower;
            const double y = map_->valueAxis()->coordToPixel(value);
            const double z = data->cell(k, v);
            const QColor bg = QColor::fromRgb(gradient_.color(z, map_->dataRange()));
            painter->setPen(bg.lightnessF() > 0.55 ? Qt::black : Qt::white);
            const QRectF r(x - cell.width() / 2, y - cell.height() / 2, cell.width(), cell.height());
            painter->drawText(r, Qt::AlignCenter, QString::number(z, 'f', decimals));
        }
    }
}
