#pragma once

#include "analysis/attention.h"
#include "figures/plot_view.h"

#include <memory>

class QCPItemStraightLine;
class QCPTextElement;
class QSpinBox;

// RoFormer's long-term decay (section 3.4.3) of the RoPE shown, its θ' under any scaling: against
// the offset k, the score Σ 2·cos(k·θ_i) for q = k = ones and the paper's bound, and the mean and
// a band of ±1 standard deviation of the score for seeded Gaussian q, k, whose mean stays near
// zero: the decay needs q and k that agree. L is marked when the window passes it.
class RopeDecayView : public PlotView
{
    Q_OBJECT

  public:
    explicit RopeDecayView(Parameters *parameters, QWidget *parent = nullptr);

    // The random samples drawn: the setting, fewer when offsets x pairs x samples would pass about
    // 2e8 (the title says so).
    int samplesUsed() const { return samplesUsed_; }

  protected:
    void rebuild() override;
    bool followsPosition() const override { return false; }
    void positionMoved() override {}
    // The bound is drawn in the theme's ink: a new theme redraws it.
    void changeEvent(QEvent *event) override;

  private:
    QSpinBox *samplesSpin_;
    QSpinBox *seedSpin_;
    QCPTextElement *title_;
    QCPItemStraightLine *contextLine_;
    // The curves and what they depend on: θ (not the window: a seq_len or start_pos step keeps
    // them, but for dynamic NTK, whose θ follows seq_len), the scheme, d and the layout (the q and k
    // columns), the offsets, samples and seed.
    std::shared_ptr<const pe::RopeDecayCurves> curves_;
    std::vector<double> curvesTheta_;
    int curvesScheme_ = -1;
    int curvesD_ = -1;
    int curvesLayout_ = -1;
    std::int64_t curvesOffsets_ = -1;
    int curvesSamples_ = -1;
    int curvesSeed_ = -1;
    double curvesXpos_ = -1; // xPos's γ (0: plain RoPE)
    int samplesUsed_ = 0;
    std::int64_t offsets_ = 0; // the offsets computed and drawn
};
