#pragma once

#include "plot_view.h"

#include <vector>

class QCPAxisRect;
class QCPColorScale;
class QCPGraph;
class QCPTextElement;
class QSpinBox;
class PositionDots;

// Seed 000's 3 x 3 figure: for each of the first K pairs, every position's (PE[t, 2i], PE[t, 2i+1])
// on a unit circle of equal axes, coloured by position (dark purple first, yellow last, viridis as
// in seed 000), with the current position ringed. Fast pairs scatter round the circle, slow ones
// creep along an arc: the clock hands of the clock view, seen over the whole window at once.
// At most kMaxDots positions are drawn per circle, evenly sampled, and the title says so.
class PairCircleView : public PlotView
{
    Q_OBJECT

public:
    std::optional<pe::Table> dataTable(const pe::Encoding &encoding) const override;
    explicit PairCircleView(Parameters *parameters, QWidget *parent = nullptr);

    void setShownPairs(int pairs);
    int shownPairs() const { return static_cast<int>(dots_.size()); }
    // Positions drawn per circle, and their stride.
    std::int64_t dotCount() const { return dotCount_; }
    std::int64_t dotStride() const { return dotStride_; }
    QPointF markerAt(int pair) const;
    QString tooltipAt(QPointF pixel) const override;
    std::int64_t heldValues() const override;

    // Enough to show every position's colour along a circle a few hundred pixels round.
    static constexpr std::int64_t kMaxDots = 1024;

protected:
    void rebuild() override;
    void positionMoved() override;

private:
    void buildGrid(int pairs);
    void fitEqualAxes();

    QSpinBox *pairsSpin_;
    QCPTextElement *title_;
    QCPColorScale *scale_;
    std::vector<QCPAxisRect *> rects_;
    std::vector<PositionDots *> dots_;
    std::vector<QCPGraph *> markers_;
    std::int64_t dotCount_ = 0;
    std::int64_t dotStride_ = 1;
};
