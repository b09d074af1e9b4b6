#pragma once

#include <QFont>
#include <QSize>
#include <QSizeF>
#include <QString>

#include <cstdint>
#include <functional>
#include <optional>

class Parameters;
class PlotView;

// The unit of a figure's size: pixels, or a physical size (a journal's 3.5 in column, 89 mm).
enum class SizeUnit { Pixel, Inch, Millimetre, Centimetre };

// Figure size, resolution and type. A figure is laid out in points: a pixel size at one point a
// pixel (today's 1200 x 800, a PDF page of 1200 x 800 pt), a physical size at its true points
// (3.5 in is 252 pt). Then drawn:
// - PNG: a pixel size at `scale` device pixels a pixel; a physical size at `dpi` (W·dpi pixels).
//   The dpi is stored in the file (pHYs) either way.
// - PDF: one page of the layout's points; SVG: the layout's units, width and height in the unit
//   asked for (a pixel size in px).
// `fontPoints` sets the tick labels' size in points (axis labels and titles in proportion); 0
// keeps the view's own (a physical size gets kDefaultFigureFont).
struct FigureOptions {
    QSize size{1200, 800}; // a pixel size
    double scale = 1.0;
    SizeUnit unit = SizeUnit::Pixel;
    QSizeF physical{}; // in `unit`, when it is not pixels
    int dpi = 100;
    double fontPoints = 0;
    // The type's family (--font: "DejaVu Serif" for a paper set in serif); empty: the view's own.
    QString fontFamily{};
    // No background rectangle (--transparent): a PNG's pixels outside the plots' marks stay clear,
    // an SVG or PDF page draws none.
    bool transparent = false;

    bool isPhysical() const { return unit != SizeUnit::Pixel; }
    // The size the plot is laid out at, in points.
    QSize layoutSize() const;
    // Device pixels per point of the PNG (and the detail of cells and points in vectors).
    double pixelRatio() const;
    // The page in points exactly (a pixel size: a point a pixel) and the PNG's pixels: a physical
    // size's inches times dpi, rounded; its layout is in whole points, stretched by less than 0.3%.
    QSizeF pageSize() const;
    QSize pixelSize() const;
    // The tick labels' points, or 0 for the view's own.
    double textPoints() const;
};

// Readable in a 3.5 in column, as matplotlib's papers are set.
inline constexpr double kDefaultFigureFont = 8;
// The least automatic type: a view of many panels at a small size gets the largest type from
// kDefaultFigureFont down to this, in half points, at which its panels keep their room.
inline constexpr double kSmallestFittedFont = 6;

namespace figurelimits {
inline constexpr int minSide = 64; // points (pixels)
inline constexpr int maxSide = 8192;
inline constexpr double minScale = 0.25;
inline constexpr double maxScale = 8.0;
inline constexpr int maxPixelSide = 16384; // size * scale, or inches * dpi
inline constexpr int minDpi = 36;
inline constexpr int maxDpi = 2400;
inline constexpr double minFont = 4;
inline constexpr double maxFont = 72;
} // namespace figurelimits

// "in", "mm", "cm", "px".
QString unitName(SizeUnit unit);
// Points per unit (1 for pixels).
double pointsPerUnit(SizeUnit unit);
// The options at the least size in their unit (0.1 in, a millimetre, a pixel) whose layout holds `points`.
FigureOptions sizedAtLeast(const FigureOptions &options, QSize points);
// "3.5x2.5in", "89x64mm", "1200x800" (pixels, "px" optional) as FigureOptions' size; one sentence
// when it is not a size.
std::optional<QString> parseFigureSize(const QString &text, FigureOptions *options);

// One sentence naming what is wrong, or nothing (a font family not installed among them).
std::optional<QString> checkFigureOptions(const FigureOptions &options);

// PNG (pixels: size times scale), SVG and PDF (vectors, size in pixels = points; scale sets how
// finely heatmap cells and projection points are computed).
enum class FigureFormat { Png, Svg, Pdf };
std::optional<FigureFormat> figureFormatForPath(const QString &path);
// Nothing when the extension is a figure format; else one sentence.
std::optional<QString> checkFigurePath(const QString &path);

class QByteArray;
class QImage;

// Writes an image as PNG, atomically; false with error set if anything fails.
bool writePng(const QImage &image, const QString &path, QString *error);

// A layout needing `need` fits `room` (larger, its parts would overlap).
inline bool figureFits(QSize need, QSize room)
{
    return need.width() <= room.width() && need.height() <= room.height();
}

// What a figure's layout needs at a type and size: whether it fits, and the size it needs.
struct FigureNeed {
    bool fits = false;
    QSize size;
};
// The fitting of one view (fitFigure) and of panels (fitPanels): the type given, or the largest
// from kDefaultFigureFont down to kSmallestFittedFont, in half points, at which `need` fits; a pixel
// size without a type is drawn as it is. When none fits, `problem` says "at T pt <what> need
// <a size that fits>, more than <the size asked>", measured again at the size named until it fits.
FigureOptions fitType(const FigureOptions &options,
                      const std::function<FigureNeed(double, const FigureOptions &)> &need, const QString &what,
                      QString *problem);

// A preview's options for fitted ones: `note` gets the fit's problem, or `typeNote` (%1 the type
// chosen, %2 kDefaultFigureFont) when the type was automatic; then the layout in pixels at
// pixelRatio device pixels a point (figurePreview, panelPreview).
FigureOptions previewOptions(const FigureOptions &asked, FigureOptions fitted, const QString &problem,
                             double pixelRatio, const QString &typeNote, QString *note);

// The options a view is drawn with at their size. A physical size without --font-size gets the
// largest type from kDefaultFigureFont down to kSmallestFittedFont at which every plot of the view
// keeps its room (PlotView::figureNeeds); a type given is kept. Pixel sizes in the window's type
// are drawn as they are. When the view's layout does not fit the size, `problem` says what size it
// needs, in the size's unit (the figure would overlap its own parts), and the caller refuses it.
FigureOptions fitFigure(PlotView *view, const FigureOptions &options, QString *problem);

// The figure fitted to its size (fitFigure) and laid out as it will be, drawn at pixelRatio device
// pixels a point for a preview. `note` gets the fit's problem, or the type chosen when it was automatic.
QImage figurePreview(PlotView *view, const FigureOptions &options, double pixelRatio, QString *note);

// The figure as the PNG holds it (its pixels, with the dpi set); null if drawing failed.
QImage figureImage(PlotView *view, const FigureOptions &options);

// The file's bytes for a view in a format; empty if drawing failed.
QByteArray figureBytes(PlotView *view, FigureFormat format, const FigureOptions &options);

// A figure's page, of one view or several (figures/panel_figure.h): drawn as vectors onto a
// painter in the layout's points (SVG, PDF), or as the PNG's image; `dpi` is the logical dpi its
// views measured their text at.
class QCPPainter;
struct FigurePage {
    std::function<void(QCPPainter *)> vectors;
    std::function<QImage()> image;
    int dpi = 96;
};
// A view's page at the options' size and type (figureBytes'; the type set for each drawing).
FigurePage viewPage(PlotView *view, const FigureOptions &options);
// A painter drawing vectors as figures do (no caching, pens in points, bitmaps lossless).
void setVectorModes(QCPPainter *painter);
// The file's bytes of a page in a format; empty if drawing failed.
QByteArray pageBytes(FigureFormat format, const FigureOptions &options, const FigurePage &page);
// Writes what `bytes` draws to the path atomically, the path tried before drawing; false with
// error set if anything fails (nothing drawn is "could not draw the figure").
bool writeFigure(const QString &path, const std::function<QByteArray()> &bytes, QString *error);

// A figure's type in points, and its family, on a view for as long as it lives; then the type it
// found (the window's, or an enclosing figure's: figureBytes draws a PNG through figureImage). The
// family is the view's font's: every label, title and cell value is set in a font taken from it.
class FigureType
{
  public:
    FigureType(PlotView *view, double points, const QString &family, bool transparent = false);
    ~FigureType();
    FigureType(const FigureType &) = delete;
    FigureType &operator=(const FigureType &) = delete;

  private:
    PlotView *view_;
    double before_;
    bool transparentBefore_;
    QFont font_;
    bool setFamily_;
};

// The one export path of figures, for the window and the command line: renders the view offscreen
// at the options' size in the format of the path's extension and writes the file atomically.
// False, with error set, if anything fails. The options are fitFigure's, its problem refused first.
bool exportFigure(PlotView *view, const QString &path, const FigureOptions &options, QString *error);

// The one animation loop, for Playback > Export animation and --export-frames FILE.gif|mp4|webm:
// the view's figure at `frames` positions `step` apart from the current one (it moves `parameters`,
// which the view draws), as one GIF, or an H.264 MP4 or VP9 WebM (figures/video_writer.h), at
// `fps`, written atomically. `progress(k)` before frame k may cancel.
// Empty when written; otherwise one sentence, and nothing was written.
QString writeAnimation(PlotView *view, Parameters &parameters, const FigureOptions &options, int frames, double step,
                       int fps, const QString &path, const std::function<bool(int)> &progress = {});
