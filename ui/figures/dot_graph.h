#pragma once

#include <qcustomplot.h>

#include <array>

// A QCPGraph whose discs and circles, on the screen, are drawn once and then copied to each point.
//
// QCustomPlot strokes and fills every symbol as a path: 512 antialiased discs cost 14 ms at device
// pixel ratio 2 (the painter's scale takes Qt's general path), most of a 4K replot of the relative
// view. Here the symbol is drawn by QCustomPlot's own code (QCPScatterStyle::drawShape, the same
// pen and brush) into a small image at the device's resolution, once for each quarter-pixel offset
// in x and y, and each point copies the image for its offset: the symbol lands within an eighth of
// a device pixel of where QCustomPlot draws it, with the same edges (tst_plot_drawing). Other
// shapes (a cross's lines landed a pixel off this way), exports (PDF, SVG, a scaled PNG), a painter
// with more than a translation, symbols without antialiasing and a few points take QCustomPlot's
// own path.
class DotGraph : public QCPGraph
{
    Q_OBJECT

  public:
    DotGraph(QCPAxis *keyAxis, QCPAxis *valueAxis);

  protected:
    void drawScatterPlot(QCPPainter *painter, const QVector<QPointF> &scatters,
                         const QCPScatterStyle &style) const override;

  private:
    static constexpr int kPhases = 4; // offsets a device pixel is cut into, in x and in y
    // The symbols as last drawn, and what they were drawn for.
    mutable std::array<QImage, kPhases * kPhases> sprites_;
    mutable QByteArray spritesFor_;
    mutable int spriteHalf_ = 0; // device pixels from a sprite's corner to its symbol's centre
};
