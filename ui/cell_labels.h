#pragma once

#include <qcustomplot.h>

// Prints each cell's value over a colour map when the cells are large enough to hold the text
// (seed 002's 15 x 9 table, seed 003's 10 x 6 one): 4 decimals when they fit, else 2.
// Only unsampled maps are labelled: a sampled cell stands for several values.
class CellLabels : public QCPLayerable
{
    Q_OBJECT

public:
    CellLabels(QCPColorMap *map, QCPColorGradient gradient);
    void setGradient(const QCPColorGradient &gradient) { gradient_ = gradient; }
    void setSampled(bool sampled) { sampled_ = sampled; }

    // Decimals the labels would use at the current layout, 0 when none are drawn.
    int decimalsInUse() const;

protected:
    QRect clipRect() const override;
    void applyDefaultAntialiasingHint(QCPPainter *painter) const override;
    void draw(QCPPainter *painter) override;

private:
    int decimalsFor(const QFontMetrics &metrics) const;
    QSizeF cellPixels() const;

    QCPColorMap *map_;
    QCPColorGradient gradient_;
    bool sampled_ = false;
};
