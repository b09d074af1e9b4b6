#include "figures/cell_labels.h"

#include <cmath>

CellLabels::CellLabels(QCPColorMap *map)
    : QCPLayerable(map->parentPlot(), QString(), map)
    , map_(map)
    , gradient_(map->gradient())
{
    setLayer(map->layer());
}

void CellLabels::setCells(const std::vector<double> *values, const pe::Block &block, bool transposed)
{
    values_ = values;
    block_ = block;
    transposed_ = transposed;
}

QRect CellLabels::clipRect() const
{
    return map_->keyAxis()->axisRect()->rect();
}

void CellLabels::applyDefaultAntialiasingHint(QCPPainter *painter) const
{
    applyAntialiasingHint(painter, true, QCP::aeOther);
}

QPointF CellLabels::pixelOf(std::int64_t row, int col) const
{
    const double position = static_cast<double>(block_.position(row));
    const double dimension = static_cast<double>(block_.column(col));
    return {map_->keyAxis()->coordToPixel(transposed_ ? position : dimension),
            map_->valueAxis()->coordToPixel(transposed_ ? dimension : position)};
}

QSizeF CellLabels::cellPixels() const
{
    const QPointF a = pixelOf(0, 0);
    const QPointF b = pixelOf(1, 1);
    return {std::abs(b.x() - a.x()), std::abs(b.y() - a.y())};
}

int CellLabels::decimalsFor(const QFontMetrics &metrics) const
{
    if (!values_ || block_.size() == 0 || block_.sampled())
        return 0;
    const QSizeF cell = cellPixels();
    if (cell.height() < metrics.height() + 2)
        return 0;
    const auto fits = [&](int decimals) {
        return cell.width() >=
               metrics.horizontalAdvance(QStringLiteral("-0.") + QString(decimals, QLatin1Char('0'))) + 4;
    };
    if (decimals_ > 0)
        return fits(decimals_) ? decimals_ : 0;
    return fits(4) ? 4 : fits(2) ? 2 : 0;
}

int CellLabels::decimalsInUse() const
{
    return decimalsFor(QFontMetrics(parentPlot()->font()));
}

QFont CellLabels::labelFont() const
{
    QFont font = parentPlot()->font();
    const int decimals = decimalsInUse();
    if (decimals == 0)
        return font;
    const QFontMetricsF metrics(font);
    const QSizeF cell = cellPixels();
    const double text = metrics.horizontalAdvance(QStringLiteral("-0.") + QString(decimals, QLatin1Char('0')));
    // Grow until the text fills 85% of the cell's width or half its height, whichever comes first.
    const double grow = std::min(0.85 * cell.width() / text, 0.5 * cell.height() / metrics.height());
    if (grow > 1)
        font.setPointSizeF(font.pointSizeF() * std::min(grow, 6.0));
    return font;
}

void CellLabels::draw(QCPPainter *painter)
{
    const int decimals = decimalsInUse();
    if (decimals == 0)
        return;
    painter->setFont(labelFont());
    const QSizeF cell = cellPixels();
    for (std::int64_t r = 0; r < block_.rows; ++r)
        for (int c = 0; c < block_.cols; ++c) {
            const double z = (*values_)[static_cast<std::size_t>(r * block_.cols + c)];
            const QColor background = QColor::fromRgb(gradient_.color(z, map_->dataRange()));
            painter->setPen(background.lightnessF() > 0.55 ? Qt::black : Qt::white);
            const QPointF centre = pixelOf(r, c);
            const QRectF box(centre.x() - cell.width() / 2, centre.y() - cell.height() / 2, cell.width(),
                             cell.height());
            painter->drawText(box, Qt::AlignCenter, QString::number(z, 'f', decimals));
        }
}
