#pragma once

#include "plot_view.h"

class QCPAxisRect;
class QCPColorMap;
class QCPColorScale;
class QCPItemStraightLine;
class QCPTextElement;
class QSpinBox;

// ALiBi (scheme alibi): the bias −m_h·|t − s| the chosen head adds to its attention scores, a cell a
// position around the current one, and every head's slope m_h as the reference get_slopes computes
// it, with the paper's text formula 2^(−8h/H) beside it where the two differ (H not a power of two).
class AlibiView : public PlotView
{
    Q_OBJECT

  public:
    static ViewInfo describe();
    explicit AlibiView(Parameters *parameters, QWidget *parent = nullptr);

    std::int64_t firstCell() const { return firstCell_; }
    std::int64_t cellCount() const { return cells_; }
    static constexpr int kMaxCells = 1024;

  protected:
    void rebuild() override;
    void positionMoved() override { rebuild(); }

  private:
    QSpinBox *cellsSpin_;
    QCPTextElement *title_;
    QCPColorMap *map_;
    QCPColorScale *scale_;
    QCPAxisRect *slopeRect_;
    QCPItemStraightLine *rowLine_;
    QCPItemStraightLine *headLine_;
    std::int64_t firstCell_ = 0;
    std::int64_t cells_ = 0;
};
