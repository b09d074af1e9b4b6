#pragma once

#include <qcustomplot.h>

#include <array>

// Every graph of a view (PlotView::addGraph): a QCPGraph that draws faster on the screen, to the
// same picture as QCustomPlot's own drawing. Exports (PDF, SVG, a PNG or a video frame: QCPPainter's
// pmVectorized or pmNoCaching), painters that are not the raster engine's, and what is listed below
// as QCustomPlot's own path draw exactly as QCPGraph does.
//
// Symbols: discs and circles, on the screen, are drawn once and then copied to each point.
// QCustomPlot strokes and fills every symbol as a path: 512 antialiased discs cost 14 ms at device
// pixel ratio 2 (the painter's scale takes Qt's general path), most of a 4K replot of the relative
// view. Here the symbol is drawn by QCustomPlot's own code (QCPScatterStyle::drawShape, the same
// pen and brush) into a small image at the device's resolution, once for each quarter-pixel offset
// in x and y, and each point copies the image for its offset: the symbol lands within an eighth of
// a device pixel of where QCustomPlot draws it, with the same edges (tst_plot_drawing). Other
// shapes (a cross's lines landed a pixel off this way), a painter with more than a translation,
// symbols without antialiasing and a few points take QCustomPlot's own path.
//
// Lines: a wide, opaque, solid, antialiased pen with round caps and round joins (PlotView::curvePen)
// is drawn a segment at a time, each segment with round caps: the union of the segments is the polyline's
// outline with round joins, and only the antialiased edges where two segments overlap differ in
// shade. QCustomPlot strokes the whole polyline as one outline and Qt's rasteriser fills it; a curve
// that crosses each scanline many times (noisy data: the similarity of x = PE + sigma z) makes that
// fill's cost grow with the square of its points. A 300-point zigzag 4 px wide at 3840 x 2160
// took 330 ms as one polyline and takes 15 ms drawn a segment at a time; a frame of the built-in
// lecture's noise animation (the similarity view, sigma from 0 to 0.5) took 97-113 ms (p50), 8
// frames a second; 54-56 now. A translucent pen would shade each joint twice, a cosmetic
// (hairline) pen is Qt's fast path already, and other caps and joins would change the outline:
// those take QCustomPlot's own path. (QCustomPlot's own phFastPolylines hint also draws segments,
// but for every solid pen of the plot, translucent and square-capped ones included.)
class ScreenGraph : public QCPGraph
{
    Q_OBJECT

  public:
    ScreenGraph(QCPAxis *keyAxis, QCPAxis *valueAxis);

  protected:
    void drawLinePlot(QCPPainter *painter, const QVector<QPointF> &lines) const override;
    void drawScatterPlot(QCPPainter *painter, const QVector<QPointF> &scatters,
                         const QCPScatterStyle &style) const override;

  private:
    static constexpr int kPhases = 4; // offsets a device pixel is cut into, in x and in y
    // The symbols as last drawn, and what they were drawn for.
    mutable std::array<QImage, kPhases * kPhases> sprites_;
    mutable QByteArray spritesFor_;
    mutable int spriteHalf_ = 0; // device pixels from a sprite's corner to its symbol's centre
};
