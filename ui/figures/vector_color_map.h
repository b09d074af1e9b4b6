#pragma once

#include <qcustomplot.h>

// A colour map that vector figures (SVG, PDF) get as rectangles, one a cell, when it has at most
// kMaxVectorCells and is not interpolated: a table such as seed 003's 10 x 6 or seed 002's 15 x 9
// stays vector and exact at any zoom. Larger maps, and the screen, draw QCustomPlot's image (in a
// PDF a lossless one: figure_export sets QPainter::LosslessImageRendering).
//
// On the screen the cells' image, scaled to the device's pixels, is kept between replots (from the
// second replot that draws the same image: the first draws it QCustomPlot's way): QCustomPlot
// scales (and mirrors) it again on every replot, a third of a 4K step of the ALiBi and T5 views at
// device pixel ratio 2, although a step to another page of positions shows the same cells at the same
// pixels. The copy is made by the same drawImage QCustomPlot calls, with its hints, and is
// made again when the cells' image, their place on the device, the visible part or the hints change;
// exports (PDF, SVG, a scaled PNG) and a painter with more than a translation take QCustomPlot's own
// path (tst_plot_drawing compares the two).
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
    // How many times the screen's scaled copy was made (tests: a slid window makes none).
    int scaledCopiesMade() const { return copiesMade_; }

  protected:
    void draw(QCPPainter *painter) override;

  private:
    void drawCells(QCPPainter *painter);
    // False when the painter is not the screen's (the caller then draws QCustomPlot's way).
    bool drawScaledCopy(QCPPainter *painter);

    // The scaled copy, the visible part of the image's rectangle in device pixels, and what it was
    // made from.
    QImage scaled_;
    struct Made {
        qint64 image = 0;
        QRectF target;
        QRect visible;
        bool mirrorX = false, mirrorY = false, antialiased = false, smooth = false;
        bool operator==(const Made &) const = default;
    } made_, seen_; // what the copy was made from; what was last drawn without one
    QRect opaque_;  // the part of scaled_ whose pixels are all opaque (empty: not that shape)
    int copiesMade_ = 0;
};
