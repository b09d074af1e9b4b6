#pragma once

#include <qcustomplot.h>

// A figure's title (PlotView::addTitle): QCustomPlot's text element, drawn from cached images of
// its glyphs where Qt would fill every glyph's outline.
//
// Qt's raster engine caches glyph images only for type under 64 device pixels (QFontEngineFT's
// QT_MAX_CACHED_GLYPH_SIZE, fixed when Qt was built; raising Qt's own ceiling with the environment
// variable leaves such type blank, tried). Above it, every glyph's outline is filled on every
// replot. Lecture titles at 3840 x 2160 device pixels are 70 px and more: their outlines were 60 %
// of the relative view's position step at ratio 2 (perf, pe-bench --lecture 1920x1080 --dpr 2).
// Here each glyph's outline is filled once, at the device's scale and a quarter pixel's offset,
// into an image, and the title is those images placed where Qt's layout puts the glyphs.
// Smaller type, vector devices (SVG, PDF) and painters that rotate or shear take QCustomPlot's own
// drawing (drawText). tst_plot_drawing compares the two.
class TitleText : public QCPTextElement
{
  public:
    TitleText(QCustomPlot *plot, const QFont &font)
        : QCPTextElement(plot, QString(), font)
    {
    }

    // How many texts were drawn from glyph images since the program started (tests: that path ran).
    static qint64 textsDrawnFromGlyphs();

  protected:
    void draw(QCPPainter *painter) override;
};

// Draws `text` as QPainter::drawText(rect, flags, text) lays it out (lines broken at '\n' and
// aligned by flags, no further wrapping), from cached glyph images. False, having drawn nothing,
// where it does not apply (type under Qt's 64 px, a painter not raster, a transform beyond scale
// and translation, a line wider than the rectangle when flags wrap, tabs). `bounds`, if given, gets
// the text's bounding rectangle as drawText gives it.
bool drawTextFromGlyphImages(QPainter *painter, const QRectF &rect, int flags, const QString &text,
                             QRectF *bounds = nullptr);
