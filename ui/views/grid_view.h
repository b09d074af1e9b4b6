#pragma once

#include "figures/plot_view.h"
#include "state/view_info/view_infos.h"

#include <optional>
#include <vector>

class ClockFaces;
class QComboBox;
class QCPAxisRect;
class QCPColorMap;
class QCPColorScale;
class QCPCurve;
class QCPItemRect;
class QCPItemText;
class QCPTextElement;
class QLineEdit;

// RoPE over a grid of image patches (Pixtral's and Qwen2-VL's vision encoders, Qwen2-VL's M-RoPE;
// core/encodings/rope_grid.h): the window's positions are the patches in raster order, and the
// current position is the reference patch. Left, the cosine similarity of every patch's rotary
// vector to the reference's as an image (frames side by side); right, the clocks of the reference
// patch's pairs, a row of clocks for each coordinate the pairs turn with (frame, row, column).
class GridView : public PlotView
{
    Q_OBJECT

  public:
    explicit GridView(Parameters *parameters, QWidget *parent = nullptr);

    // What the last rebuild drew: the grid, every patch's similarity, and the clocks' pairs.
    const GridSetup &setup() const { return setup_; }
    const std::vector<double> &similarity() const { return similarity_; }
    const std::vector<int> &clockPairs() const { return clockPairs_; }
    QString tooltipAt(QPointF pixel) const override;

  protected:
    void rebuild() override;

  private:
    void fitCells();
    // The map's x of a patch's column in a frame: frames side by side, a column apart.
    double mapX(int frame, int col) const { return frame * (setup_.grid.cols + 1) + col; }

    QComboBox *styleChoice_;
    QLineEdit *shapeEdit_;
    QLineEdit *sectionEdit_;
    QCPTextElement *title_;
    QCPAxisRect *clockRect_;
    QCPColorMap *map_;
    QCPColorScale *scale_;
    QCPItemRect *reference_;
    QCPItemRect *referenceInner_;
    ClockFaces *faces_;
    QCPCurve *hands_;
    std::vector<QCPItemText *> frameLabels_; // "frame f" above each frame's block
    GridSetup setup_;
    pe::GridPatch patch_;
    std::vector<double> similarity_;
    std::optional<pe::GridOffsetSums> sums_; // RoPE's one-axis sums for sumsPairs_ on sums_->grid
    std::vector<pe::GridPair> sumsPairs_;
    QComboBox *colorsChoice_;
    std::vector<int> clockPairs_;  // the pairs with a clock
    std::vector<QPointF> clockAt_; // each one's centre on the clocks' axes
    double clockWidth_ = 0;        // the clocks' extent in cells
    double clockHeight_ = 0;
};
