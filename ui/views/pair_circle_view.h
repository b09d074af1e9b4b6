#pragma once

#include "analysis/clock.h"
#include "figures/plot_view.h"

#include <vector>

class QCPAxisRect;
class QCPColorScale;
class QCPGraph;
class QCPTextElement;
class QSpinBox;
class PositionDots;
class PairChoiceEdit;

// Seed 000's 3 x 3 figure: for each of the first K pairs, every position's (PE[t, 2i], PE[t, 2i+1])
// on a unit circle of equal axes, coloured by position (dark purple first, yellow last, viridis as
// in seed 000), with the current position ringed. Fast pairs scatter round the circle, slow ones
// creep along an arc: the clock hands of the clock view, seen over the whole window at once.
// Up to kMaxDots positions each is a dot; beyond, every position is rasterised: each lands on one
// pixel of its circle, and a pixel takes the colour of the mean position of the points on it.
// Nothing is thinned, so no stride can alias with a period (1-in-98 thinning once drew 8 false
// clusters). Which pairs are shown is the pair choice (spread over all wavelengths by default).
class PairCircleView : public PlotView
{
    Q_OBJECT

  public:
    explicit PairCircleView(Parameters *parameters, QWidget *parent = nullptr);

    // Compact circles (no tick labels) are square plots; the full ones keep the default.
    QSize figurePlotLines() const override
    {
        return compact_ ? QSize(kFigurePlotLines, kFigurePlotLines) : PlotView::figurePlotLines();
    }

    void setShownPairs(int pairs);
    void setPairChoice(const pe::PairChoice &choice);
    int shownPairs() const { return static_cast<int>(dots_.size()); }
    // The pair each circle shows, in order.
    const std::vector<int> &pairIndices() const { return pairs_; }
    // Dots drawn on the first circle: one per position, or one per lit pixel when rasterised.
    std::int64_t dotCount() const { return dotCount_; }
    bool rasterised() const { return rasterised_; }
    // The (sin, cos) coordinates of the dots drawn on shown circle k.
    std::vector<QPointF> dotsOf(int k) const;
    // Marker of the shown circle k at the current position.
    QPointF markerAt(int k) const;
    QString tooltipAt(QPointF pixel) const override;
    std::int64_t heldValues() const override;

    // Enough to show every position's colour along a circle a few hundred pixels round.
    static constexpr std::int64_t kMaxDots = 1024;

  protected:
    QList<QCPAxisRect *> aspectRects() const override { return {rects_.begin(), rects_.end()}; }
    void rebuild() override;
    void positionMoved() override;

  private:
    void buildGrid(int pairs);
    void fitEqualAxes();
    bool fitRanges();                                    // true when a range changed
    void rasterise(const std::vector<int> &pairs) const; // fills dots_ for each pair's rect

    QSpinBox *pairsSpin_;
    PairChoiceEdit *pairChoice_;
    std::vector<int> pairs_;
    std::vector<double> radius_; // each shown pair's largest length (1 for the sinusoids)
    QCPTextElement *title_;
    QCPColorScale *scale_;
    std::vector<QCPAxisRect *> rects_;
    std::vector<PositionDots *> dots_;
    std::vector<QCPGraph *> markers_;
    std::int64_t dotCount_ = 0;
    bool rasterised_ = false;
    bool compact_ = false; // small circles: short labels, no tick numbers
};
