#pragma once

#include "figures/plot_view.h"
#include "state/view_info/view_infos.h"

#include <memory>

class PositionMatrix;
class QCPAxisRect;
class QCPItemStraightLine;
class QCPTextElement;
class QSpinBox;

// ALiBi (scheme alibi): the bias −m_h·|t − s| the chosen head adds to its attention scores, a cell a
// position on a page that holds the current one, and every head's slope m_h as the reference get_slopes computes
// it, with the paper's text formula 2^(−8h/H) beside it where the two differ (H not a power of two).
class AlibiView : public PlotView
{
    Q_OBJECT

  public:
    explicit AlibiView(Parameters *parameters, QWidget *parent = nullptr);
    ~AlibiView() override;

    static constexpr int kMaxCells = kMaxMatrixCells;

  protected:
    void rebuild() override;
    // On the page drawn, a step moves the row line alone (on the layer redrawn alone).
    void positionMoved() override { stepMatrixRow(*matrix_, rowLine_); }

  private:
    QSpinBox *cellsSpin_;
    QCPTextElement *title_;
    std::unique_ptr<PositionMatrix> matrix_;
    QCPAxisRect *slopeRect_;
    QCPItemStraightLine *rowLine_;
    QCPItemStraightLine *headLine_;
};
