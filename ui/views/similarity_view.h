#pragma once

#include "analysis/similarity.h"
#include "figures/plot_view.h"
#include "state/view_settings.h"

#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;

// Seed 001's similarity curve: every position's vector x_t (pure, or noisy with the noise control)
// against the pure encoding of the reference position, as dot product, cosine or Euclidean
// distance. The reference is the current position of every view; the best match is marked.
// Pure pair-exponent encodings use S(k) (REFERENCE.md section 2): the whole curve is N look-ups.
// When seq_len is more than twice the plot's width, every k-th position is computed and drawn
// (the title says so); the pure encoding's best match is at the reference itself.
class SimilarityView : public PlotView
{
    Q_OBJECT

  public:
    // The metric setting, which the distance view shares.
    explicit SimilarityView(Parameters *parameters, QWidget *parent = nullptr);

    void setMetric(pe::Metric metric);
    pe::Metric chosenMetric() const; // not metric(): QWidget::metric(PaintDeviceMetric) is virtual
    // What the last computation gave: the positions and their values, and the best position.
    const std::vector<std::int64_t> &positions() const { return positions_; }
    // Per bucket (one a pixel column): the highest and lowest value (equal when one position each).
    const std::vector<double> &values() const { return values_; }
    const std::vector<double> &lowValues() const { return low_; }
    std::int64_t bestPosition() const { return best_; }
    QString tooltipAt(QPointF pixel) const override;

  protected:
    QList<QCPAxis *> positionAxes() const override;
    void rebuild() override;
    void positionMoved() override
    {
        buildKernel_ = true;
        rebuild();
    }

  private:
    void compute();

    QComboBox *metricChoice_;
    QCPTextElement *title_;
    QCPItemStraightLine *referenceLine_;
    QCPItemStraightLine *bestLine_;
    std::vector<std::int64_t> positions_;
    std::vector<double> values_;
    std::vector<double> low_;
    bool envelope_ = false;
    std::int64_t best_ = 0;
    std::int64_t stride_ = 1;
    std::optional<pe::OffsetKernel> kernel_;
    std::shared_ptr<const pe::Encoding> kernelFor_; // the encoding kernel_ was built for
    bool buildKernel_ = false;
};
