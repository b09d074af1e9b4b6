#pragma once

#include "encoding.h"
#include "plot_view.h"

#include <vector>

class CellLabels;
class QCheckBox;
class QComboBox;
class QCPColorMap;
class QCPColorScale;
class QCPItemRect;
class QCPTextElement;

// The encoding matrix as a colour map: positions down (row 0 at the top, as matplotlib's imshow
// draws it), dimensions across; transposed, positions across and dimensions up (seed 001's
// pcolormesh). Only as many cells as the plot has pixels are computed: when the window holds more
// positions or dimensions than pixels, every k-th one is shown (sampling, not averaging, so
// aliasing of fast columns stays visible) and the title says so.
class HeatmapView : public PlotView
{
    Q_OBJECT

public:
    explicit HeatmapView(Parameters *parameters, QWidget *parent = nullptr);

    void setColorMap(const QString &name, bool reversed = false);
    void setTransposed(bool transposed);
    void setCellValuesShown(bool shown);

    // What the last rebuild computed: the sampled block of the matrix.
    const pe::Block &shownBlock() const { return block_; }
    int cellLabelDecimals() const;
    QString tooltipAt(QPointF pixel) const override;

protected:
    void rebuild() override;
    void positionMoved() override;

private:
    void applyGradient();

    QComboBox *mapChoice_;
    QCheckBox *reverseBox_;
    QCheckBox *transposeBox_;
    QCheckBox *valuesBox_;
    QCPColorMap *map_;
    QCPColorScale *scale_;
    QCPTextElement *title_;
    CellLabels *labels_;
    QCPItemRect *highlight_;
    pe::Block block_;
    std::vector<double> values_;
};
