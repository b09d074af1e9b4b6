#include "figure_export.h"

#include "atomic_file.h"
#include "plot_view.h"

#include <QBuffer>
#include <QFileInfo>
#include <QImage>

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
        return QObject::tr("the scale must be a number from %1 to %2 (got %3).").arg(minScale).arg(maxScale).arg(o.scale);
    if (std::lround(o.size.width() * o.scale) > maxPixelSide || std::lround(o.size.height() * o.scale) > maxPixelSide)
        return QObject::tr("size times scale must be at most %1 pixels on each side (got %2x%3).")
            .arg(maxPixelSide)
            .arg(std::lround(o.size.width() * o.scale))
            .arg(std::lround(o.size.height() * o.scale));
    return std::nullopt;
}

std::optional<QString> checkFigurePath(const QString &path)
{
    if (QFileInfo(path).suffix().compare(QStringLiteral("png"), Qt::CaseInsensitive) != 0)
        return QObject::tr("figures are written as PNG: the file name must end in .png (got '%1').").arg(path);
    return std::nullopt;
}

bool writePng(const QImage &image, const QString &path, QString *error)
{
    if (auto problem = checkFigurePath(path)) {
        *error = *problem;
        return false;
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (image.isNull() || !image.save(&buffer, "PNG")) {
        *error = QObject::tr("could not encode the image as PNG.");
        return false;
    }
    std::string message;
    if (!pe::writeFileAtomically(path.toStdString(), std::string_view(bytes.constData(), bytes.size()), message)) {
        *error = QString::fromStdString(message);
        return false;
    }
    return true;
}

bool exportFigure(PlotView *view, const QString &path, const FigureOptions &options, QString *error)
{
    std::optional<QString> problem = checkFigureOptions(options);
    if (!problem)
        problem = checkFigurePath(path);
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
    return writePng(view->render(options.size, options.scale), path, error);
}
