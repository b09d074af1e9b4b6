#pragma once

#include <QSize>
#include <QString>

#include <optional>

class PlotView;

// Figure size and resolution: the plot is laid out at `size` and drawn at `scale` device pixels
// per pixel, so 1200x800 at scale 2 is a 2400x1600 PNG with the fonts of a 1200x800 figure.
struct FigureOptions {
    QSize size{1200, 800};
    double scale = 1.0;
};

namespace figurelimits {
inline constexpr int minSide = 64;
inline constexpr int maxSide = 8192;
inline constexpr double minScale = 0.25;
inline constexpr double maxScale = 8.0;
inline constexpr int maxPixelSide = 16384; // size * scale
} // namespace figurelimits

// One sentence naming what is wrong, or nothing.
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

// The file's bytes for a view in a format; empty if drawing failed.
QByteArray figureBytes(PlotView *view, FigureFormat format, const FigureOptions &options);

// The one export path of figures, for the window and the command line: renders the view offscreen
// at the options' size in the format of the path's extension and writes the file atomically.
// False, with error set, if anything fails.
bool exportFigure(PlotView *view, const QString &path, const FigureOptions &options, QString *error);
