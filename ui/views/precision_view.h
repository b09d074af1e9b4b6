#pragma once

#include "analysis/precision.h"
#include "figures/plot_view.h"
#include "state/view_info/view_infos.h"

#include <memory>

class QComboBox;
class QCPItemStraightLine;
class QCPTextElement;

// RoPE as a model computes it (precision.h): against the position, the worst angle error of the
// float32 angles t·θ_i over the rotating pairs, the worst value error of cos and sin in the chosen
// type (float32, or float32 cast to bfloat16) against float64, both on a log axis, and on the right
// axis how many pairs cannot tell t from t + 1 in that type. Each pixel column shows the worst of
// its positions, and the title says how many that is.
class PrecisionView : public PlotView
{
    Q_OBJECT

  public:
    explicit PrecisionView(Parameters *parameters, QWidget *parent = nullptr);
    ~PrecisionView() override;

    const pe::PrecisionErrors *errors() const { return errors_.get(); }

  protected:
    QList<QCPAxis *> positionAxes() const override;
    void rebuild() override;
    void positionMoved() override { rebuild(); }

  private:
    QComboBox *precisionChoice_;
    QCPTextElement *title_;
    QCPItemStraightLine *positionLine_;
    // The errors and what they were computed for: the encoding (its parameters) and the type.
    std::shared_ptr<const pe::PrecisionErrors> errors_;
    std::shared_ptr<const pe::Encoding> errorsOf_;
};
