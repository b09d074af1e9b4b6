#pragma once

#include "analysis/clock.h"
#include "figures/plot_view.h"
#include "state/view_info/view_infos.h"

#include <algorithm>
#include <optional>

class ClockFaces;
class PairChoiceEdit;
class QComboBox;
class QCPCurve;
class QCPGraph;
class QCPItemRect;
class QCPItemText;
class QCPTextElement;
class QSpinBox;

// Seed 002's clock faces: one row per position, one clock per (sin, cos) pair, each hand at that
// pair's true angle t * w_i. Fast clocks on the left, slow on the right, like second, minute and hour
// hands; a position is read off a whole row. The faces are painted once per grid (ClockFaces); the
// hands are one NaN-separated curve whose points move, so a frame costs one curve update.
// The rows shown are a page of consecutive positions holding the current one; the columns are the
// pairs chosen by the pair choice (spread over all wavelengths by default).
class ClockGridView : public PlotView
{
    Q_OBJECT

  public:
    explicit ClockGridView(Parameters *parameters, QWidget *parent = nullptr);

    void setFace(pe::ClockFace face);
    pe::ClockFace face() const;
    // 0 = as many as fit.
    void setShownPairs(int pairs);
    void setShownPositions(int positions);
    void setPairChoice(const pe::PairChoice &choice);
    // The pair each column shows, left to right.
    const std::vector<int> &shownPairs() const { return pairs_; }

    int rowCount() const { return rows_; }
    int columnCount() const { return cols_; }
    std::int64_t firstRowPosition() const { return firstRow_; }
    // Centre of the clock of a row and column, and the tip of its hand, in plot coordinates.
    QPointF clockCentre(int row, int col) const;
    QPointF handTip(int row, int col) const;
    // The position row `row` of the page draws: its own, or the real position on the current row.
    double rowPosition(int row) const;
    QString tooltipAt(QPointF pixel) const override;

    static constexpr int kMaxPairs = kMaxClockPairs;
    static constexpr int kMaxRows = kMaxClockRows;

  protected:
    void rebuild() override;
    void positionMoved() override;
    void paletteApplied() override;

  private:
    void layoutGrid();
    void fitSquareCells();
    void placeHands();
    // The hands of every row (hands_, and the current row's currentHands_), or of the current row alone.
    void placeRows(bool currentOnly);
    // The band, the faces and the hands of the current row, on the overlay (the layer redrawn alone).
    void placeCurrentRow();
    // The current row's band, faces, hands and label on their layers, for coverCurrent_.
    void stackCurrentRow();
    // Where row's hand of column col points at position t (plot coordinates).
    QPointF handTipAt(int row, int col, double t) const;
    void placeCurrentLabel();
    std::int64_t pageStart() const;

    QComboBox *faceChoice_;
    QSpinBox *pairsSpin_;
    QSpinBox *rowsSpin_;
    PairChoiceEdit *pairChoice_;
    std::vector<int> pairs_;
    QCPTextElement *title_;
    ClockFaces *faces_;
    QCPCurve *hands_;
    // Gemma's sliding-window layers (scheme.h: localLayers): a second, shorter hand a clock at the
    // local base's angle; empty without local layers.
    QCPCurve *localHands_;
    QCPCurve *currentHands_;      // the current row's hands (overlay layer)
    QCPCurve *currentLocalHands_; // and its local layers' hands
    QCPItemText *currentLabel_;   // its position between whole ones, over its tick label
    ClockFaces *currentFaces_;    // its faces again, over the band
    // The band is opaque (its colour laid on the ground) and covers the current row of faces_ and
    // hands_, which then hold every row at its own whole position; on a transparent ground it is
    // translucent and hands_ leaves the current row out.
    bool coverCurrent_ = true;
    std::int64_t drawnRow_ = -1; // the whole position hands_ was placed for
    std::optional<pe::Encoding> local_;
    QCPItemRect *highlight_;
    int rows_ = 0;
    int cols_ = 0;
    std::int64_t firstRow_ = 0;
    static constexpr double kRadius = 0.42;

  public:
    // The hand ends 0.09 of a cell short of the rim; the two pens are capped by the cell's size
    // (0.06 and 0.03 of it), so half the hand's round cap plus half the rim's pen (at most 0.045)
    // leave a visible gap: the tip stays clear of the rim at any size, in lecture mode and with the
    // projector theme's thick lines too.
    static constexpr double kHandLength = 0.33;
    static constexpr double kLocalHandLength = 0.22;
    static double handPenWidth(double lineScale, double cellPixels)
    {
        return std::min(2.2 * lineScale, 0.06 * cellPixels);
    }
    static double facePenWidth(double lineScale, double cellPixels)
    {
        return std::min(1.2 * lineScale, 0.03 * cellPixels);
    }
};
