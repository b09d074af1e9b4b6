#pragma once

#include "encodings/encoding.h"
#include "figures/plot_view.h"

#include <qcustomplot.h>

#include <vector>

class QSpinBox;

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
    // The smallest cell a vector figure draws, in points: smaller ones are sampled.
    static constexpr double kSmallestVectorCell = 0.25;
    static constexpr double kMostVectorCells = 1 << 22;
    explicit HeatmapView(Parameters *parameters, QWidget *parent = nullptr);

    void setColorMap(const QString &name, bool reversed = false);
    void setTransposed(bool transposed);
    void setCellValuesShown(bool shown);

    // Zoom and pan, in positions and dimensions (cell centres); clamped to the window. The mouse
    // wheel zooms, dragging pans; on the keyboard +/- zoom, Shift+arrows pan, 0 shows everything.
    void zoomTo(double firstPosition, double lastPosition, double firstDimension, double lastDimension);
    void zoomBy(double factor);
    void panBy(double positionsFraction, double dimensionsFraction);
    void resetZoom();
    bool zoomed() const;
    QCPRange visiblePositions() const { return posView_; }
    QCPRange visibleDimensions() const { return dimView_; }

    // What the last rebuild computed: the sampled block of the matrix.
    const pe::Block &shownBlock() const { return block_; }
    int cellLabelDecimals() const;
    QString tooltipAt(QPointF pixel) const override;
    std::int64_t heldValues() const override
    {
        return PlotView::heldValues() + static_cast<std::int64_t>(values_.size());
    }

  protected:
    QList<QCPAxis *> positionAxes() const override;
    void rebuild() override;
    void settingsBound() override;
    void settingsChanged(const QStringList &keys) override;
    void positionMoved() override;
    void keyPressEvent(QKeyEvent *event) override;

  private:
    void applyGradient();
    void clampView();
    void followAxes();

    QComboBox *mapChoice_;
    QCheckBox *reverseBox_;
    QCheckBox *transposeBox_;
    QCheckBox *valuesBox_;
    QSpinBox *decimalsSpin_;
    QCPItemRect *highlightInner_;
    QCPColorMap *map_;
    QCPColorScale *scale_;
    QCPTextElement *title_;
    CellLabels *labels_;
    QCPItemRect *highlight_;
    pe::Block block_;
    QCPRange posView_{0, -1}; // empty: the whole window
    QCPRange dimView_{0, -1};
    bool userZoomed_ = false;
    bool settingRange_ = false;
    bool rebuildQueued_ = false;
    std::vector<double> values_;
};
