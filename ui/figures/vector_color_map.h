#pragma once

#include <qcustomplot.h>

// A colour map that vector figures (SVG, PDF) get as rectangles, one a cell, when it has at most
// kMaxVectorCells and is not interpolated: a table such as seed 003's 10 x 6 or seed 002's 15 x 9
// stays vector and exact at any zoom. Larger maps, and the screen, draw QCustomPlot's image (in a
// PDF a lossless one: figure_export sets QPainter::LosslessImageRendering).
class VectorColorMap : public QCPColorMap
{
  public:
    static constexpr int kMaxVectorCells = 10000;

    VectorColorMap(QCPAxis *keyAxis, QCPAxis *valueAxis)
        : QCPColorMap(keyAxis, valueAxis)
    {
    }

    // True when a vector device gets rectangles (the data's cells, not a picture of them).
    bool drawsCells() const;

  protected:
    void draw(QCPPainter *painter) override;
};
