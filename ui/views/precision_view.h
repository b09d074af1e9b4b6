#pragma once

#include "analysis/precision.h"
#include "figures/plot_view.h"
#include "state/view_info/view_infos.h"

#include <QVector>

#include <limits>
#include <memory>
#include <optional>

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
    // The curves reduced to a plot `width` pixel columns wide, each point the worst of its column,
    // with what the title reads of them: made again for new errors or a new width only.
    struct Drawn {
        std::shared_ptr<const pe::PrecisionErrors> errors;
        int width = 0;
        QVector<double> x[3], y[3]; // angle, value, equal pairs
        std::int64_t stride = 1;
        bool zeros = false;                                             // an exact 0 left as a gap on the log axis
        double low = std::numeric_limits<double>::infinity(), high = 0; // the errors' positive range
        std::optional<std::int64_t> firstEqual;
    };
    static Drawn reduce(const std::shared_ptr<const pe::PrecisionErrors> &errors, std::int64_t startPos, int width);
    std::unique_ptr<Drawn> drawn_;
};
