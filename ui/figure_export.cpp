#include "figure_export.h"

#include "atomic_file.h"
#include "plot_view.h"

#include <QBuffer>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <qcustomplot.h>

#include <cmath>

std::optional<QString> checkFigureOptions(const FigureOptions &o)
{
    using namespace figurelimits;
    if (o.size.width() < minSide || o.size.width() > maxSide || o.size.height() < minSide || o.size.height() > maxSide)
        return QObject::tr("the figure size must be from %1 to %2 pixels on each side (got %3x%4).")
            .arg(minSide)
            .arg(maxSide)
            .arg(o.size.width())
            .arg(o.size.height());
    if (!std::isfinite(o.scale) || o.scale < minScale || o.scale > maxScale)
        return QObject::tr("the scale must be a number from %1 to %2 (got %3).")
            .arg(minScale)
            .arg(maxScale)
            .arg(o.scale);
    if (std::lround(o.size.width() * o.scale) > maxPixelSide || std::lround(o.size.height() * o.scale) > maxPixelSide)
        return QObject::tr("size times scale must be at most %1 pixels on each side (got %2x%3).")
            .arg(maxPixelSide)
            .arg(std::lround(o.size.width() * o.scale))
            .arg(std::lround(o.size.height() * o.scale));
    return std::nullopt;
}

std::optional<FigureFormat> figureFormatForPath(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return FigureFormat::Png;
    if (suffix == QLatin1String("svg"))
        return FigureFormat::Svg;
    if (suffix == QLatin1String("pdf"))
        return FigureFormat::Pdf;
    return std::nullopt;
}

std::optional<QString> checkFigurePath(const QString &path)
{
    if (!figureFormatForPath(path))
        return QObject::tr("figures are PNG, SVG or PDF: the file name must end in .png, .svg or .pdf (got '%1').")
            .arg(path);
    return std::nullopt;
}

namespace {

bool writeBytes(const QByteArray &bytes, const QString &path, QString *error)
{
    std::string message;
    if (!pe::writeFileAtomically(
            path.toStdString(), std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), message)) {
        *error = QString::fromStdString(message);
        return false;
    }
    return true;
}

// The view drawn as vectors (the plot's own painting, not a picture of it) into a paint device.
void paintVectors(PlotView *view, QPaintDevice *device, const FigureOptions &options)
{
    QCPPainter painter;
    painter.begin(device);
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    view->renderTo(&painter, options.size, options.scale);
    painter.end();
}

} // namespace

QByteArray figureBytes(PlotView *view, FigureFormat format, const FigureOptions &options)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    switch (format) {
    case FigureFormat::Png: {
        const QImage image = view->render(options.size, options.scale);
        if (image.isNull() || !image.save(&buffer, "PNG"))
            return {};
        break;
    }
    case FigureFormat::Svg: {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(options.size);
        svg.setViewBox(QRect(QPoint(0, 0), options.size));
        svg.setTitle(QStringLiteral("Positional Encoding Explorer"));
        paintVectors(view, &svg, options);
        break;
    }
    case FigureFormat::Pdf: {
        // One page the figure's size, 1 pixel = 1 point.
        QPdfWriter pdf(&buffer);
        pdf.setResolution(72);
        pdf.setPageSize(QPageSize(QSizeF(options.size), QPageSize::Point, QString(), QPageSize::ExactMatch));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setTitle(QStringLiteral("Positional Encoding Explorer"));
        pdf.setCreator(QStringLiteral("Positional Encoding Explorer"));
        paintVectors(view, &pdf, options);
        break;
    }
    }
    buffer.close();
    return bytes;
}

bool writePng(const QImage &image, const QString &path, QString *error)
{
    if (figureFormatForPath(path) != FigureFormat::Png) {
        *error = QObject::tr("the file name must end in .png (got '%1').").arg(path);
        return false;
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (image.isNull() || !image.save(&buffer, "PNG")) {
        *error = QObject::tr("could not encode the image as PNG.");
        return false;
    }
    return writeBytes(bytes, path, error);
}

bool exportFigure(PlotView *view, const QString &path, const FigureOptions &options, QString *error)
{
    std::optional<QString> problem = checkFigureOptions(options);
    if (!problem)
        problem = checkFigurePath(path);
    if (const QString why = view->cannotDraw(); !problem && !why.isEmpty())
        problem = why;
    if (problem) {
        *error = *problem;
        return false;
    }
    // Find an unwritable path before the render, not after it.
    pe::AtomicFile probe(path.toStdString());
    if (std::string message; !probe.open(message)) {
        *error = QString::fromStdString(message);
        return false;
    }
    const QByteArray bytes = figureBytes(view, *figureFormatForPath(path), options);
    if (bytes.isEmpty()) {
        *error = QObject::tr("could not draw the figure.");
        return false;
    }
    return writeBytes(bytes, path, error);
}
