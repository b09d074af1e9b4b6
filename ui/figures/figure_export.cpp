#include "figures/figure_export.h"

#include "figures/gif_writer.h"
#include "figures/plot_view.h"
#include "figures/video_writer.h"
#include "formats/atomic_file.h"
#include "state/parameters.h"

#include <QBuffer>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QImage>
#include <QPageSize>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>

#include <qcustomplot.h>

#include <cmath>

QString unitName(SizeUnit unit)
{
    switch (unit) {
    case SizeUnit::Inch:
        return QStringLiteral("in");
    case SizeUnit::Millimetre:
        return QStringLiteral("mm");
    case SizeUnit::Centimetre:
        return QStringLiteral("cm");
    case SizeUnit::Pixel:
        break;
    }
    return QStringLiteral("px");
}

double pointsPerUnit(SizeUnit unit)
{
    switch (unit) {
    case SizeUnit::Inch:
        return 72.0;
    case SizeUnit::Millimetre:
        return 72.0 / 25.4;
    case SizeUnit::Centimetre:
        return 720.0 / 25.4;
    case SizeUnit::Pixel:
        break;
    }
    return 1.0;
}

QSize FigureOptions::layoutSize() const
{
    if (!isPhysical())
        return size;
    const double k = pointsPerUnit(unit);
    return {static_cast<int>(std::lround(physical.width() * k)), static_cast<int>(std::lround(physical.height() * k))};
}

FigureOptions sizedAtLeast(const FigureOptions &options, QSize points)
{
    FigureOptions o = options;
    if (!options.isPhysical()) {
        o.size = points;
        return o;
    }
    const double perUnit = pointsPerUnit(options.unit);
    const double step = options.unit == SizeUnit::Inch ? 0.1 : 1.0;
    const auto up = [&](int p) { return std::ceil(std::max(p, 1) / perUnit / step - 1e-9) * step; };
    o.physical = QSizeF(up(points.width()), up(points.height()));
    return o;
}

QSizeF FigureOptions::pageSize() const
{
    return isPhysical() ? physical * pointsPerUnit(unit) : QSizeF(size);
}

QSize FigureOptions::pixelSize() const
{
    const QSizeF pixels = isPhysical() ? pageSize() * (dpi / 72.0) : QSizeF(size) * scale;
    return {static_cast<int>(std::lround(pixels.width())), static_cast<int>(std::lround(pixels.height()))};
}

double FigureOptions::pixelRatio() const
{
    return isPhysical() ? dpi / 72.0 : scale;
}

double FigureOptions::textPoints() const
{
    return fontPoints > 0 ? fontPoints : isPhysical() ? kDefaultFigureFont : 0;
}

std::optional<QString> parseFigureSize(const QString &text, FigureOptions *options)
{
    static const QRegularExpression re(
        QStringLiteral("^(\\d{1,6}(?:\\.\\d{1,4})?)x(\\d{1,6}(?:\\.\\d{1,4})?)(px|in|mm|cm)?$"));
    const auto m = re.match(text.trimmed());
    const QString why = QObject::tr("'%1' is not a size: WIDTHxHEIGHT in pixels (1200x800) or with a unit "
                                    "(3.5x2.5in, 89x64mm, 9x6cm).")
                            .arg(text);
    if (!m.hasMatch())
        return why;
    const QString unit = m.captured(3);
    const SizeUnit u = unit == QLatin1String("in")   ? SizeUnit::Inch
                       : unit == QLatin1String("mm") ? SizeUnit::Millimetre
                       : unit == QLatin1String("cm") ? SizeUnit::Centimetre
                                                     : SizeUnit::Pixel;
    if (u == SizeUnit::Pixel) {
        if (m.captured(1).contains(QLatin1Char('.')) || m.captured(2).contains(QLatin1Char('.')))
            return QObject::tr("'%1': pixels are whole numbers (a physical size names its unit: in, mm, cm).")
                .arg(text);
        options->size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
    } else {
        options->physical = QSizeF(m.captured(1).toDouble(), m.captured(2).toDouble());
    }
    options->unit = u;
    return std::nullopt;
}

std::optional<QString> checkFigureOptions(const FigureOptions &o)
{
    using namespace figurelimits;
    const QSize layout = o.layoutSize();
    if (o.isPhysical()) {
        const double k = pointsPerUnit(o.unit);
        if (!(o.physical.width() * k >= minSide && o.physical.width() * k <= maxSide &&
              o.physical.height() * k >= minSide && o.physical.height() * k <= maxSide))
            return QObject::tr("a figure must be from %1 to %2 %3 on each side (got %4x%5%3).")
                .arg(QString::number(minSide / k, 'g', 3), QString::number(maxSide / k, 'g', 4), unitName(o.unit),
                     QString::number(o.physical.width()), QString::number(o.physical.height()));
    } else if (o.size.width() < minSide || o.size.width() > maxSide || o.size.height() < minSide ||
               o.size.height() > maxSide) {
        return QObject::tr("the figure size must be from %1 to %2 pixels on each side (got %3x%4).")
            .arg(minSide)
            .arg(maxSide)
            .arg(o.size.width())
            .arg(o.size.height());
    }
    if (!std::isfinite(o.scale) || o.scale < minScale || o.scale > maxScale)
        return QObject::tr("the scale must be a number from %1 to %2 (got %3).")
            .arg(minScale)
            .arg(maxScale)
            .arg(o.scale);
    if (o.dpi < minDpi || o.dpi > maxDpi)
        return QObject::tr("the dpi must be a whole number from %1 to %2 (got %3).").arg(minDpi).arg(maxDpi).arg(o.dpi);
    if (!std::isfinite(o.fontPoints) || (o.fontPoints != 0 && (o.fontPoints < minFont || o.fontPoints > maxFont)))
        return QObject::tr("the font size must be from %1 to %2 points (got %3).")
            .arg(minFont)
            .arg(maxFont)
            .arg(o.fontPoints);
    // A family not installed would be drawn in a fallback without a word: refused (matplotlib only
    // warns, "findfont: Font family ... not found"). The font database needs the application: the
    // command line parses before it has one and asks again once it does.
    if (!o.fontFamily.isEmpty() && QGuiApplication::instance()) {
        // Qt names a family two foundries make "C059 [urw]"; the family is asked for without it.
        static const QRegularExpression foundry(QStringLiteral("\\s*\\[[^\\]]*\\]$"));
        QStringList families;
        for (const QString &f : QFontDatabase::families())
            if (const QString name = QString(f).remove(foundry);
                !name.startsWith(QLatin1Char('.')) && !families.contains(name, Qt::CaseInsensitive))
                families << name;
        if (!families.contains(o.fontFamily, Qt::CaseInsensitive))
            return QObject::tr("Qt finds no font family '%1' it can draw; it has %2%3.")
                .arg(o.fontFamily.left(80), families.mid(0, 40).join(QStringLiteral(", ")),
                     families.size() > 40 ? QObject::tr(", …") : QString());
    }
    const long w = std::lround(layout.width() * o.pixelRatio()), h = std::lround(layout.height() * o.pixelRatio());
    if (w > maxPixelSide || h > maxPixelSide)
        return o.isPhysical() ? QObject::tr("size times dpi must be at most %1 pixels on each side (got %2x%3).")
                                    .arg(maxPixelSide)
                                    .arg(w)
                                    .arg(h)
                              : QObject::tr("size times scale must be at most %1 pixels on each side (got %2x%3).")
                                    .arg(maxPixelSide)
                                    .arg(w)
                                    .arg(h);
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

// A page drawn as vectors (the plots' own painting, not a picture of them) into a paint device,
// the layout's points scaled by `scale` to the device's units.
void paintVectors(const FigurePage &page, QPaintDevice *device, QSizeF scale)
{
    QCPPainter painter;
    painter.begin(device);
    setVectorModes(&painter);
    painter.scale(scale.width(), scale.height());
    page.vectors(&painter);
    painter.end();
}

// The SVG's width and height in the unit asked for (QSvgGenerator writes millimetres of its own
// resolution): "3.5in", "89mm", a pixel size in px.
QByteArray withPhysicalSize(QByteArray svg, const FigureOptions &options)
{
    const QSizeF size = options.isPhysical() ? options.physical : QSizeF(options.size);
    const QString unit = unitName(options.unit);
    const qsizetype open = svg.indexOf("<svg");
    const qsizetype close = open < 0 ? -1 : svg.indexOf('>', open);
    if (close < 0)
        return svg;
    QString head = QString::fromUtf8(svg.mid(open, close - open));
    static const QRegularExpression width(QStringLiteral("\\bwidth=\"[^\"]*\"")),
        height(QStringLiteral("\\bheight=\"[^\"]*\""));
    head.replace(width, QStringLiteral("width=\"%1%2\"").arg(QString::number(size.width()), unit));
    head.replace(height, QStringLiteral("height=\"%1%2\"").arg(QString::number(size.height()), unit));
    svg.replace(open, close - open, head.toUtf8());
    return svg;
}

// Qt writes a page of whole points; a physical size's page is its exact size (89 mm is 252.28 pt).
// The content was stretched onto it below Qt's flip at the whole height, so the box reaches below
// zero by the difference. Written in the same number of bytes (padded), so the file's offsets hold.
QByteArray withExactMediaBox(QByteArray pdf, QSize layout, QSizeF page)
{
    const QByteArray written = "/MediaBox [0 0 " + QByteArray::number(layout.width(), 'f', 6) + ' ' +
                               QByteArray::number(layout.height(), 'f', 6) + ']';
    const qsizetype at = pdf.indexOf(written);
    if (at < 0 || (page.width() == layout.width() && page.height() == layout.height()))
        return pdf;
    QByteArray exact = "/MediaBox [0 " + QByteArray::number(layout.height() - page.height(), 'f', 4) + ' ' +
                       QByteArray::number(page.width(), 'f', 4) + ' ' + QByteArray::number(layout.height()) + ']';
    if (exact.size() > written.size())
        return pdf; // cannot happen: the exact box is shorter than six decimals of whole numbers
    exact.append(QByteArray(written.size() - exact.size(), ' '));
    pdf.replace(at, written.size(), exact);
    return pdf;
}

} // namespace

FigureType::FigureType(PlotView *view, double points, const QString &family, bool transparent)
    : view_(view)
    , before_(view->figureFontPoints())
    , transparentBefore_(view->figureTransparent())
    , font_(view->font())
    , setFamily_(!family.isEmpty())
{
    view_->setFigureFontPoints(points);
    view_->setFigureTransparent(transparent || transparentBefore_);
    if (setFamily_) {
        QFont f = font_;
        f.setFamily(family);
        view_->setFont(f);
    }
}

FigureType::~FigureType()
{
    view_->setFigureFontPoints(before_);
    view_->setFigureTransparent(transparentBefore_);
    if (setFamily_)
        view_->setFont(font_);
}

FigureOptions fitType(const FigureOptions &options,
                      const std::function<FigureNeed(double, const FigureOptions &)> &need, const QString &what,
                      QString *problem)
{
    problem->clear();
    FigureOptions fitted = options;
    if (!options.isPhysical() && options.fontPoints <= 0)
        return fitted; // the window's type, laid out as the window lays it out
    FigureNeed n;
    if (options.fontPoints > 0) {
        n = need(options.fontPoints, options);
        if (n.fits)
            return fitted;
    } else {
        for (double points = kDefaultFigureFont; points >= kSmallestFittedFont; points -= 0.5) {
            n = need(points, options);
            if (n.fits) {
                fitted.fontPoints = points;
                return fitted;
            }
        }
    }
    const double type = options.fontPoints > 0 ? options.fontPoints : kSmallestFittedFont;
    // The size named is one the layout fits: a layout changes with its size (a title's room, a
    // legend's rows, the insets that align panels), so the need is measured again at the size named
    // until it fits there (llama3's scaling view asked for 2.7 in at 2.5 and for 2.8 at 2.7).
    FigureOptions named = options;
    QSize larger = n.size.expandedTo(options.layoutSize());
    for (int round = 0; round < 8; ++round) {
        named = sizedAtLeast(options, larger);
        const FigureNeed again = need(type, named);
        if (again.fits)
            break;
        larger = again.size.expandedTo(named.layoutSize());
    }
    const QSizeF asked = options.isPhysical() ? options.physical : QSizeF(options.size);
    const QSizeF given = options.isPhysical() ? named.physical : QSizeF(named.size);
    const auto text = [&](double v) { return QString::number(v, 'f', options.unit == SizeUnit::Inch ? 1 : 0); };
    *problem = QObject::tr("at %1 pt %2 need %3x%4%5, more than %6x%7%5: they would overlap. Give a larger size%8.")
                   .arg(type)
                   .arg(what, text(given.width()), text(given.height()), unitName(options.unit),
                        QString::number(asked.width()), QString::number(asked.height()),
                        options.fontPoints > kSmallestFittedFont ? QObject::tr(" or a smaller type") : QString());
    return fitted;
}

FigureOptions fitFigure(PlotView *view, const FigureOptions &options, QString *problem)
{
    return fitType(
        options,
        [view, &options](double points, const FigureOptions &at) {
            const FigureType type(view, points, options.fontFamily);
            const QSize need = view->figureNeeds(at.layoutSize());
            return FigureNeed{figureFits(need, at.layoutSize()), need};
        },
        QObject::tr("the view's plots"), problem);
}

FigureOptions previewOptions(const FigureOptions &asked, FigureOptions fitted, const QString &problem,
                             double pixelRatio, const QString &typeNote, QString *note)
{
    if (!problem.isEmpty())
        *note = problem;
    else if (fitted.fontPoints != asked.fontPoints)
        *note = typeNote.arg(fitted.fontPoints).arg(kDefaultFigureFont);
    else
        note->clear();
    fitted.fontPoints = fitted.textPoints(); // the type of the physical size, at the preview's scale
    fitted.size = fitted.layoutSize();
    fitted.unit = SizeUnit::Pixel;
    fitted.scale = std::clamp(pixelRatio, figurelimits::minScale, figurelimits::maxScale);
    return fitted;
}

QImage figurePreview(PlotView *view, const FigureOptions &options, double pixelRatio, QString *note)
{
    QString problem;
    const FigureOptions fitted = fitFigure(view, options, &problem);
    return figureImage(view, previewOptions(options, fitted, problem, pixelRatio,
                                            QObject::tr("Type %1 pt: the largest up to %2 pt at which every "
                                                        "plot keeps its room."),
                                            note));
}

QImage figureImage(PlotView *view, const FigureOptions &options)
{
    const QSize layout = options.layoutSize();
    QImage image;
    {
        const FigureType type(view, options.textPoints(), options.fontFamily, options.transparent);
        image = options.isPhysical() ? view->render(layout, options.pixelSize())
                                     : view->render(layout, options.pixelRatio());
    }
    const int dotsPerMetre = static_cast<int>(std::lround(options.dpi / 0.0254));
    image.setDotsPerMeterX(dotsPerMetre);
    image.setDotsPerMeterY(dotsPerMetre);
    return image;
}

FigurePage viewPage(PlotView *view, const FigureOptions &options)
{
    FigurePage page;
    page.vectors = [view, options](QCPPainter *painter) {
        const FigureType type(view, options.textPoints(), options.fontFamily, options.transparent);
        view->renderTo(painter, options.layoutSize(), options.pixelRatio());
    };
    page.image = [view, options] { return figureImage(view, options); };
    page.dpi = view->plot()->logicalDpiY();
    return page;
}

QByteArray figureBytes(PlotView *view, FigureFormat format, const FigureOptions &options)
{
    return pageBytes(format, options, viewPage(view, options));
}

void setVectorModes(QCPPainter *painter)
{
    painter->setMode(QCPPainter::pmVectorized);
    painter->setMode(QCPPainter::pmNoCaching);
    // Pens in the layout's points, as the PNG draws them (a hairline is one point, not one device
    // unit of the PDF's resolution).
    painter->setMode(QCPPainter::pmNonCosmetic);
    // Heatmaps and point clouds embedded as bitmaps stay exact: Qt's PDF writer would store them as
    // JPEG, blurring cell edges.
    painter->setRenderHint(QPainter::LosslessImageRendering);
}

QByteArray pageBytes(FigureFormat format, const FigureOptions &options, const FigurePage &page)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    const QSize layout = options.layoutSize();
    // Text is measured at the screen's logical dpi while the plot lays itself out: the vector
    // devices resolve point sizes at the same dpi, so what was measured is what is drawn.
    const int dpi = page.dpi;
    switch (format) {
    case FigureFormat::Png: {
        const QImage image = page.image();
        if (image.isNull() || !image.save(&buffer, "PNG"))
            bytes.clear();
        break;
    }
    case FigureFormat::Svg: {
        QSvgGenerator svg;
        QBuffer raw;
        raw.open(QIODevice::WriteOnly);
        svg.setOutputDevice(&raw);
        svg.setResolution(dpi);
        // The view box in the layout's points; the width and height attributes carry the exact size.
        svg.setSize(layout);
        svg.setViewBox(QRect(QPoint(0, 0), layout));
        svg.setTitle(QStringLiteral("Positional Encoding Explorer"));
        paintVectors(page, &svg, QSizeF(1, 1));
        buffer.write(withPhysicalSize(raw.data(), options));
        break;
    }
    case FigureFormat::Pdf: {
        // One page of the layout's points exactly.
        QBuffer raw;
        raw.open(QIODevice::WriteOnly);
        // The layout's whole points stretched onto the exact page (89 mm is 252.28 pt, laid out at
        // 252), in the writer's units of 1/dpi inch.
        const QSizeF exact = options.pageSize();
        {
            QPdfWriter pdf(&raw);
            pdf.setResolution(dpi);
            pdf.setPageSize(QPageSize(QSizeF(layout), QPageSize::Point, QString(), QPageSize::ExactMatch));
            pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
            pdf.setTitle(QStringLiteral("Positional Encoding Explorer"));
            pdf.setCreator(QStringLiteral("Positional Encoding Explorer"));
            paintVectors(
                page, &pdf,
                QSizeF(dpi / 72.0 * exact.width() / layout.width(), dpi / 72.0 * exact.height() / layout.height()));
        }
        buffer.write(withExactMediaBox(raw.data(), layout, exact));
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

    return writeFigure(
        path, [&] { return figureBytes(view, *figureFormatForPath(path), options); }, error);
}

bool writeFigure(const QString &path, const std::function<QByteArray()> &bytes, QString *error)
{
    // Find an unwritable path before the render, not after it.
    pe::AtomicFile probe(path.toStdString());
    if (std::string message; !probe.open(message)) {
        *error = QString::fromStdString(message);
        return false;
    }
    const QByteArray drawn = bytes();
    if (drawn.isEmpty()) {
        *error = QObject::tr("could not draw the figure.");
        return false;
    }
    return writeBytes(drawn, path, error);
}

QString writeAnimation(PlotView *view, Parameters &parameters, const FigureOptions &options, int frames, double step,
                       int fps, const QString &path, const std::function<bool(int)> &progress)
{
    // Built in memory a frame at a time (the GIF by giflib, the video by FFmpeg), then one atomic write.
    const std::optional<VideoWriter::Codec> codec = VideoWriter::codecForPath(path);
    GifWriter gif(options.pixelSize(), std::min(fps, GifWriter::kMaxFps));
    VideoWriter video;
    QString error;
    if (codec && !video.open(*codec, options.pixelSize(), fps, &error))
        return error;
    const double first = parameters.realPosition();
    for (int k = 0; k < frames; ++k) {
        if (progress && !progress(k))
            return QObject::tr("cancelled; nothing was written.");
        if (k > 0) // frame k at first + k·step exactly, not a sum of rounded steps
            parameters.stepRealPosition(first + k * step - parameters.realPosition());
        const QImage frame = figureImage(view, options);
        if (frame.isNull())
            return QObject::tr("frame %1: could not draw it.").arg(k);
        if (!(codec ? video.addFrame(frame, &error) : gif.addFrame(frame, &error)))
            return QObject::tr("frame %1: %2").arg(k).arg(error);
    }
    const QByteArray bytes = codec ? video.finish(&error) : gif.finish(&error);
    if (bytes.isEmpty())
        return error;
    std::string message;
    if (!pe::writeFileAtomically(path.toStdString(),
                                 std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), message))
        return QString::fromStdString(message);
    return {};
}
