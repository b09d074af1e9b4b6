#pragma once

#include "analysis/similarity.h"
#include "figures/plot_view.h"

#include <vector>

class QComboBox;
class QCPColorMap;
class QCPColorScale;
class QCPItemStraightLine;
class QCPTextElement;

// The N x N matrix metric(x_t, PE(s)): for pure encodings symmetric Toeplitz, its value depending
// only on t - s (REFERENCE.md section 2), which is the point of the picture. Positions down (row 0
// at the top) and across; the reference's row and column marked. Sampled to the plot's pixels
// with the same step on both axes, so the diagonals stay diagonals: pure pair encodings cost one
// kernel row of the sampled offsets, others one exact dot product per cell, at most 256 x 256.
class DistanceView : public PlotView
{
    Q_OBJECT

  public:
    explicit DistanceView(Parameters *parameters, QWidget *parent = nullptr);

    void setMetric(pe::Metric metric);
    const std::vector<std::int64_t> &shownPositions() const { return positions_; }
    const std::vector<double> &values() const { return values_; }
    QString tooltipAt(QPointF pixel) const override;

    static constexpr int kMaxExactCells = 256;

  protected:
    QList<QCPAxis *> positionAxes() const override;
    void rebuild() override;
    void positionMoved() override;

  private:
    // The title's reason a pure encoding's matrix is not Toeplitz, for the scheme shown.
    static QString notToeplitz(const pe::EncodingParams &p);

    QComboBox *metricChoice_;
    QCPTextElement *title_;
    QCPColorMap *map_;
    QCPColorScale *scale_;
    QCPItemStraightLine *row_;
    QCPItemStraightLine *col_;
    std::vector<std::int64_t> positions_;
    std::vector<double> values_;
    std::int64_t step_ = 1;
};
