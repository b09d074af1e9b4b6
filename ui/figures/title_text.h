#pragma once

#include <qcustomplot.h>

// A figure's title (PlotView::addTitle): QCustomPlot's text element, drawn from cached images of
// its glyphs where Qt would fill every glyph's outline.
//
// Qt's raster engine draws type from its glyph cache only up to 64 device pixels
// (QPaintEngineEx::shouldDrawCachedGlyphs); above that it fills every glyph's outline on every
// replot. Its FreeType engine renders no larger glyph images (QT_MAX_CACHED_GLYPH_SIZE raised in the
// environment left such type blank, tried). Lecture titles at 3840 x 2160 device pixels are 70 px
// and more: their outlines were 60 % of the relative view's position step at ratio 2 (perf,
// pe-bench --lecture 1920x1080 --dpr 2). Here each glyph's outline is filled once, at the device's
// scale and a quarter pixel's offset each way, into an image kept in a cache of 32 MB, and the title
// is those images placed where QPainter::drawText lays the glyphs out.
// Type up to 64 px, vector devices (SVG, PDF), one-off exports (pmNoCaching), painters that rotate
// or shear, and text or flags this layout does not copy take QCustomPlot's own drawing (drawText).
// tst_plot_drawing compares the two.
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

// Draws `text` as QPainter::drawText(rect, flags, text) lays it out, from cached glyph images, and
// returns true. Returns false, having drawn nothing, where Qt draws from its own cache (type up to
// 64 device pixels) or this layout does not copy Qt's: a painter not raster or with more than a
// uniform scale, flags beyond alignment, word wrap and TextDontClip, tabs, mnemonics, right-to-left
// text, decorated fonts, a pen not of one colour, a glyph with no outline (colour or bitmap fonts).
// `bounds`, if given, gets the text's bounding rectangle as drawText gives it.
bool drawTextFromGlyphImages(QPainter *painter, const QRectF &rect, int flags, const QString &text,
                             QRectF *bounds = nullptr);
