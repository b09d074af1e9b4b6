#pragma once

#include <QCoreApplication>
#include <QString>

#include <cstdint>
#include <functional>
#include <vector>

class QCPColorMap;
class QCPColorScale;
class QCPLayoutGrid;
class QCustomPlot;

// A query x key matrix of positions, a cell a position, with its colour scale: the attention and
// ALiBi views' heatmap. When the window holds more positions than cells fit (or than asked), it
// shows a page of them that holds the current one and says which: a cell is never a sample of
// several positions.
//
// Pages begin every half page, and the current position lies in the middle half of its page (but
// at the window's ends): a position step moves the view's row line within the page, and the page
// turns (by half) when the row leaves its middle. A page that slid with every step would make each
// step a whole new figure (its axes, every cell again): at 3840 x 2160 more than a frame's 16 ms.
class PositionMatrix
{
    Q_DECLARE_TR_FUNCTIONS(PositionMatrix)

  public:
    // On the plot's main axes (keys across, queries down); the colour scale at (0, 1) of `content`.
    PositionMatrix(QCustomPlot *plot, QCPLayoutGrid *content, const QString &scaleLabel);

    // The cells for a window [start, start + n): the page that holds position t, `asked` cells a side
    // (0: as many as the plot has pixels), at most maxCells.
    void place(std::int64_t t, std::int64_t start, std::int64_t n, int asked, int maxCells);
    // Whether position t is on the page placed last (a step to it moves the row line alone).
    bool holds(std::int64_t t) const;
    std::int64_t first() const { return first_; }
    std::int64_t count() const { return count_; }
    // count() x count() values, row-major (row = query), coloured over [low, high]; NaN is a masked
    // cell, drawn grey.
    void fill(const std::vector<double> &values, double low, double high);
    // A bias that depends on the offset k = s − t alone (ALiBi's, T5's buckets): each cell is
    // valueAt(key − query), evaluated once an offset.
    void fillByOffset(const std::function<double(std::int64_t k)> &valueAt, double low, double high);
    void clear();
    void setScaleLabel(const QString &label);
    // "cells: positions 40–60 of 0–99 (the page that holds t), one a position"; empty when every
    // position is shown.
    QString windowText() const;

  private:
    QCustomPlot *plot_;
    QCPColorMap *map_;
    QCPColorScale *scale_;
    std::int64_t start_ = 0, n_ = 0;
    std::int64_t first_ = 0, count_ = 0;
    // fillByOffset's values by offset, as the cells hold them now (empty after fill or clear): a
    // window that slides with t shows the same cells, and only the axes move.
    std::vector<double> filledByOffset_;
};
