#pragma once

#include "encodings/encoding.h"

#include <qcustomplot.h>

#include <vector>

// Prints each cell's value over the heatmap when the cells are large enough to hold the text
// (seed 002's 15 x 9 table, seed 003's 10 x 6 one): 4 decimals when they fit, else 2, or the number
// set; the text grows with the cells (to about 40% of a cell's height) so it stays readable in
// lecture mode and large exports. Only unsampled blocks are labelled: a sampled cell stands for
// several values.
class CellLabels : public QCPLayerable
{
    Q_OBJECT

  public:
    explicit CellLabels(QCPColorMap *map);

    void setGradient(const QCPColorGradient &gradient) { gradient_ = gradient; }
    // The values as computed by the view (row-major block.rows x block.cols) and where they sit.
    void setCells(const std::vector<double> *values, const pe::Block &block, bool transposed);

    // Decimals the labels use at the current layout, 0 when none are drawn.
    int decimalsInUse() const;
    // 0: as many as fit (4 or 2); else exactly this many, when they fit.
    void setDecimals(int decimals) { decimals_ = decimals; }
    // The font the labels are drawn in at the current layout.
    QFont labelFont() const;

  protected:
    QRect clipRect() const override;
    void applyDefaultAntialiasingHint(QCPPainter *painter) const override;
    void draw(QCPPainter *painter) override;

  private:
    int decimalsFor(const QFontMetrics &metrics) const;
    QPointF pixelOf(std::int64_t row, int col) const;
    QSizeF cellPixels() const;

    QCPColorMap *map_;
    QCPColorGradient gradient_;
    const std::vector<double> *values_ = nullptr;
    pe::Block block_;
    bool transposed_ = false;
    int decimals_ = 0;
};
