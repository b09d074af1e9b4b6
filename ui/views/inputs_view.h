#pragma once

#include "figures/plot_view.h"

#include <vector>

class QCPAxisRect;
class QCPColorMap;
class QCPItemStraightLine;
class QCPTextElement;

// Seed 001's first figures side by side: the input noise sigma z, the positional encoding PE and
// the output x = PE + sigma z, positions across and dimensions up (as its pcolormesh draws them),
// viridis, the current position marked in each. Sampled to the pixels like the heatmap.
class InputsView : public PlotView
{
    Q_OBJECT

  public:
    explicit InputsView(Parameters *parameters, QWidget *parent = nullptr);
    // Three maps stacked on one x axis: two lines of type each, so the three fit a 3.5 x 2.5 in
    // column at 7 pt.
    QSize figurePlotLines() const override { return {2 * kFigurePlotLines, 2}; }

  protected:
    QList<QCPAxis *> positionAxes() const override;
    void rebuild() override;
    void positionMoved() override;

  private:
    QCPTextElement *title_;
    QCPAxisRect *rects_[3];
    QCPColorMap *maps_[3];
    QCPItemStraightLine *marks_[3];
};
