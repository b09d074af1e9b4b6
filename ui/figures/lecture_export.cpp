#include "figures/lecture_export.h"

#include "figures/math_text.h"
#include "figures/panel_figure.h"
#include "figures/plot_view.h"
#include "figures/video_writer.h"
#include "figures/workspace_views.h"
#include "state/lecture.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/workspace.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPageSize>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QTextDocument>

#include <cmath>
#include <memory>

namespace {

// A handout page's parts, in points.
constexpr int kMargin = 36;
constexpr double kHeaderPoints = 9;   // "The clock intuition · step 3 of 14"
constexpr double kTitlePoints = 15;   // the step's title
constexpr double kCaptionPoints = 11; // its caption
constexpr int kGap = 10;

QString stepName(const Lecture &lecture, int k)
{
    return QObject::tr("step %1 (%2)").arg(k + 1).arg(lecture.steps[static_cast<std::size_t>(k)].title.left(40));
}

// A handout is printed light; slides take the theme the step is shown in.
void applyStepTheme(const Lecture &lecture, int k, const LectureExport &options)
{
    if (options.theme)
        return;
    const LectureStep &step = lecture.steps[static_cast<std::size_t>(k)];
    const bool handout = options.out.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive);
    const QString name = step.theme.isEmpty() ? lecture.theme : step.theme;
    applyTheme(handout ? Theme::Light : themeNamed(name).value_or(Theme::Light));
}

QFont pointFont(double points, bool bold = false)
{
    QFont f = QApplication::font();
    f.setPixelSize(qRound(points)); // the layout is in points: a point a pixel, as figures set their type
    f.setBold(bold);
    return f;
}

// The caption laid out for the figure's width.
std::unique_ptr<QTextDocument> captionDocument(const QString &caption, int width, double points = kCaptionPoints)
{
    auto doc = std::make_unique<QTextDocument>();
    doc->setDocumentMargin(0);
    doc->setDefaultFont(pointFont(points));
    doc->setHtml(captionHtml(caption));
    doc->setTextWidth(width);
    return doc;
}

// A handout page's text: the caption, and with --with-notes the speaker's notes after it.
QString handoutText(const LectureStep &step, const LectureExport &options)
{
    if (!options.withNotes || step.notes.isEmpty())
        return step.caption;
    return step.caption +
           QStringLiteral("<p style=\"color:#555555\"><i>%1</i> %2</p>")
               .arg(QObject::tr("Notes:"), step.notes.toHtmlEscaped().replace(u'\n', QStringLiteral("<br>")));
}

bool isHandout(const LectureExport &options)
{
    return options.out.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive);
}

// A slide's caption: under the figure, in the figure's type a tenth larger (the view's own type:
// 12), inside the slide's size. Its height in the layout's points, 0 without a caption.
struct SlideCaption {
    std::unique_ptr<QTextDocument> doc;
    int margin = 0;
    int height = 0; // the band: margins and text
};
SlideCaption slideCaption(const LectureStep &step, const FigureOptions &slide)
{
    SlideCaption c;
    if (step.caption.isEmpty())
        return c;
    const double points = 1.1 * (slide.fontPoints > 0 ? slide.fontPoints
                                 : slide.isPhysical() ? kDefaultFigureFont
                                                      : 11);
    c.margin = qCeil(points);
    c.doc = captionDocument(step.caption, slide.layoutSize().width() - 2 * c.margin, points);
    c.height = qCeil(c.doc->size().height()) + c.margin * 3 / 2;
    return c;
}

// The slide's figure: its size less the caption's band.
FigureOptions slideFigureOptions(const FigureOptions &slide, int captionHeight)
{
    FigureOptions o = slide;
    if (captionHeight == 0)
        return o;
    if (o.isPhysical()) {
        o.physical.setHeight(o.physical.height() - captionHeight / pointsPerUnit(o.unit));
        o.size = o.layoutSize();
    } else {
        o.size.setHeight(o.size.height() - captionHeight);
    }
    return o;
}

// Step k of the lecture as the export draws it (its theme, its state as its action leaves it);
// one sentence naming the step and what stops it.
QString prepareStep(const Lecture &lecture, int k, const LectureExport &options, StepFigure *figure)
{
    applyStepTheme(lecture, k, options);
    const LectureStep &step = lecture.steps[static_cast<std::size_t>(k)];
    const FigureOptions figureOptions =
        isHandout(options) ? options.figure
                           : slideFigureOptions(options.figure, slideCaption(step, options.figure).height);
    const QString why = figure->prepare(step, stateAfterAction(step), figureOptions);
    return why.isEmpty() ? why : stepName(lecture, k) + QStringLiteral(": ") + why;
}

} // namespace

StepFigure::StepFigure()
    : parameters_(std::make_unique<Parameters>())
    , workspace_(std::make_unique<Workspace>(parameters_.get()))
    , figures_(std::make_unique<WorkspaceViews>(workspace_.get()))
{
}

StepFigure::~StepFigure() = default;

std::vector<PlotView *> StepFigure::views() const
{
    std::vector<PlotView *> out;
    for (const auto &v : views_)
        out.push_back(v.get());
    return out;
}

QString StepFigure::prepare(const LectureStep &step, const Session &state, const FigureOptions &options)
{
    QString error;
    views_.clear();
    placed_.clear();
    if (!workspace_->applySession(state, &error))
        return error;
    for (const QString &id : {step.state.view, step.beside})
        if (!id.isEmpty())
            views_.push_back(figures_->offscreenView(id));
    for (const auto &v : views_)
        if (const QString why = v->cannotDraw(); !why.isEmpty()) {
            const QString id = v->info().id;
            views_.clear();
            return QStringLiteral("%1: %2").arg(id, why);
        }
    QString problem;
    fitted_ = views_.size() == 1
                  ? fitFigure(views_.front().get(), options, &problem)
                  : fitPanels(views(), options, PanelGrid{1, 2, QStringLiteral("off")}, &problem, &placed_);
    if (!problem.isEmpty())
        fitted_ = options; // drawn as asked if the caller wants it anyway (a thumbnail)
    return problem;
}

FigurePage StepFigure::page() const
{
    return views_.size() == 1 ? viewPage(views_.front().get(), fitted_)
                              : panelPage(views(), fitted_, PanelGrid{1, 2, QStringLiteral("off")}, placed_);
}

QImage StepFigure::thumbnail(const LectureStep &step, QSize size)
{
    // Laid out at twice the size (a table's cell values, a grid of clocks need the room) and
    // scaled down: the whole figure, as a slide would show it.
    FigureOptions options;
    options.size = size * 2;
    options.fontPoints = std::max(figurelimits::minFont, options.size.height() * 0.025);
    prepare(step, stateBeforeAction(step), options); // a crowded thumbnail is still drawn
    if (views_.empty())
        return {};
    const QImage image = page().image();
    return image.isNull() ? image : image.scaled(size, Qt::KeepAspectRatio, Qt::SmoothTransformation);
}

QString StepFigure::video(const LectureStep &step, const FigureOptions &options, int fps, const QString &path)
{
    if (const QString why = prepare(step, stateBeforeAction(step), options); !why.isEmpty())
        return why;
    // Every frame of the action, the first and the last included, as the player moves it.
    const int frames = std::max(2, static_cast<int>(std::ceil(actionSeconds(step.action) * fps)) + 1);
    VideoWriter video;
    QString error;
    if (!video.open(VideoWriter::Codec::H264, fitted_.pixelSize(), fps, &error))
        return error;
    for (int k = 0; k < frames; ++k) {
        const Session s = stateDuringAction(step, k / double(frames - 1));
        if (const auto problem = parameters_->setState(s.params, s.noise))
            continue; // checked at both ends when read: not reached
        parameters_->setRealPosition(s.position);
        if (!video.addFrame(page().image(), &error))
            return QObject::tr("frame %1: %2").arg(k).arg(error);
    }
    QString finishing;
    const QByteArray bytes = video.finish(&finishing);
    if (bytes.isEmpty())
        return finishing;
    writeFigure(
        path, [&bytes] { return bytes; }, &error);
    return error;
}

QString captionHtml(const QString &caption)
{
    return mathText(caption);
}

namespace {

// Step k's file in the folder, or beside the handout: step-03.png, handout-step-03.mp4.
QString stepPath(const Lecture &lecture, const LectureExport &options, int k, const QString &ext)
{
    const int digits = std::max(2, static_cast<int>(QString::number(lecture.steps.size()).size()));
    const QString name = QStringLiteral("step-%1.%2").arg(k + 1, digits, 10, QLatin1Char('0')).arg(ext);
    if (!options.out.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive))
        return QDir(options.out).filePath(name);
    const QFileInfo pdf(options.out);
    return pdf.dir().filePath(pdf.completeBaseName() + QLatin1Char('-') + name);
}

// The figure with its caption below, on the slide's page: as vectors, or the PNG's pixels.
FigurePage captionedPage(const StepFigure &figure, const SlideCaption &caption, const FigureOptions &slide)
{
    const FigurePage inner = figure.page();
    const QSize size = slide.layoutSize();
    const int top = figure.fitted().layoutSize().height();
    const QColor background =
        slide.transparent ? QColor(Qt::transparent) : QApplication::palette().color(QPalette::Base);
    const auto drawCaption = [&caption, size, top, background](QPainter *p) {
        if (background.alpha() > 0)
            p->fillRect(QRect(0, top, size.width(), size.height() - top), background);
        p->save();
        p->translate(caption.margin, top + caption.margin / 2);
        caption.doc->drawContents(p);
        p->restore();
    };
    FigurePage page;
    page.dpi = inner.dpi;
    page.vectors = [inner, drawCaption](QCPPainter *p) {
        inner.vectors(p);
        drawCaption(p);
    };
    page.image = [inner, drawCaption, slide] {
        const QImage figureImage = inner.image();
        QImage image(slide.pixelSize(), QImage::Format_ARGB32_Premultiplied);
        image.fill(slide.transparent ? QColor(Qt::transparent) : QApplication::palette().color(QPalette::Base));
        image.setDotsPerMeterX(figureImage.dotsPerMeterX());
        image.setDotsPerMeterY(figureImage.dotsPerMeterY());
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        p.setRenderHint(QPainter::TextAntialiasing);
        p.drawImage(0, 0, figureImage);
        p.scale(slide.pixelRatio(), slide.pixelRatio());
        drawCaption(&p);
        return image;
    };
    return page;
}

// A file a step into the folder.
QString writeSlides(const Lecture &lecture, const LectureExport &options, StepFigure &figure,
                    const std::function<bool(int)> &progress, QStringList *written)
{
    const int n = static_cast<int>(lecture.steps.size());
    const QString ext = options.folderFormat == FigureFormat::Png   ? QStringLiteral("png")
                        : options.folderFormat == FigureFormat::Svg ? QStringLiteral("svg")
                                                                    : QStringLiteral("pdf");
    for (int k = 0; k < n; ++k) {
        if (progress && !progress(k))
            return QObject::tr("cancelled");
        QString why = prepareStep(lecture, k, options, &figure);
        const QString path = stepPath(lecture, options, k, ext);
        const SlideCaption caption = slideCaption(lecture.steps[static_cast<std::size_t>(k)], options.figure);
        if (why.isEmpty() && !writeFigure(
                                 path,
                                 [&] {
                                     return caption.height == 0
                                                ? pageBytes(options.folderFormat, figure.fitted(), figure.page())
                                                : pageBytes(options.folderFormat, options.figure,
                                                            captionedPage(figure, caption, options.figure));
                                 },
                                 &why))
            why = stepName(lecture, k) + QStringLiteral(": ") + why;
        if (!why.isEmpty())
            return why;
        *written << path;
    }
    return {};
}

// The handout: a page a step.
QString writeHandout(const Lecture &lecture, const LectureExport &options, StepFigure &figure,
                     const std::function<bool(int)> &progress, QStringList *written)
{
    const int n = static_cast<int>(lecture.steps.size());
    // A handout: every page the size of the largest step's (figure, title and caption).
    const QSize figureSize = figure.fitted().layoutSize();
    int captionHeight = 0;
    for (const LectureStep &step : lecture.steps)
        captionHeight = std::max(
            captionHeight, qCeil(captionDocument(handoutText(step, options), figureSize.width())->size().height()));
    const int headerHeight = qCeil(kHeaderPoints * 1.6 + kTitlePoints * 1.5);
    const QSize page(figureSize.width() + 2 * kMargin,
                     kMargin + headerHeight + kGap + figureSize.height() + kGap + captionHeight + kMargin);
    QByteArray bytes;
    {
        QBuffer raw(&bytes);
        raw.open(QIODevice::WriteOnly);
        const int dpi = figure.views().front()->plot()->logicalDpiY();
        QPdfWriter pdf(&raw);
        pdf.setResolution(dpi);
        pdf.setPageSize(QPageSize(QSizeF(page), QPageSize::Point, QString(), QPageSize::ExactMatch));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setTitle(lecture.title);
        pdf.setCreator(QStringLiteral("Positional Encoding Explorer"));
        QCPPainter painter;
        if (!painter.begin(&pdf))
            return QObject::tr("could not draw the handout.");
        setVectorModes(&painter);
        painter.scale(dpi / 72.0, dpi / 72.0);
        for (int k = 0; k < n; ++k) {
            if (progress && !progress(k))
                return QObject::tr("cancelled");
            if (const QString why = prepareStep(lecture, k, options, &figure); !why.isEmpty())
                return why;
            if (k > 0)
                pdf.newPage();
            const LectureStep &step = lecture.steps[static_cast<std::size_t>(k)];
            painter.setPen(QColor(90, 90, 90));
            painter.setFont(pointFont(kHeaderPoints));
            const QRect header(kMargin, kMargin, figureSize.width(), qCeil(kHeaderPoints * 1.6));
            painter.drawText(header, Qt::AlignLeft | Qt::AlignTop,
                             QObject::tr("%1  ·  step %2 of %3").arg(lecture.title).arg(k + 1).arg(n));
            painter.setPen(Qt::black);
            painter.setFont(pointFont(kTitlePoints, true));
            painter.drawText(QRect(kMargin, header.bottom() + 1, figureSize.width(), qCeil(kTitlePoints * 1.5)),
                             Qt::AlignLeft | Qt::AlignTop, step.title);
            painter.save();
            painter.translate(kMargin + (figureSize.width() - figure.fitted().layoutSize().width()) / 2,
                              kMargin + headerHeight + kGap);
            figure.page().vectors(&painter);
            painter.restore();
            painter.save();
            painter.translate(kMargin, kMargin + headerHeight + kGap + figureSize.height() + kGap);
            captionDocument(handoutText(step, options), figureSize.width())->drawContents(&painter);
            painter.restore();
        }
        painter.end();
    }
    QString error;
    if (!writeFigure(
            options.out, [&] { return bytes; }, &error))
        return error;
    *written << options.out;
    return {};
}

// Each step's action as a video (--with-video): H.264 at the slides' size, or 1920 x 1080 with
// slide type beside a handout.
QString writeVideos(const Lecture &lecture, const LectureExport &options, StepFigure &figure, QStringList *written)
{
    FigureOptions video = options.figure;
    if (video.isPhysical()) {
        video = FigureOptions();
        video.size = QSize(kSlideWidth, kSlideHeight);
        video.fontPoints = kSlideHeight * kSlideTickFraction;
    }
    for (int k = 0; k < static_cast<int>(lecture.steps.size()); ++k) {
        const LectureStep &step = lecture.steps[static_cast<std::size_t>(k)];
        if (step.action.kind == LectureAction::Kind::None)
            continue;
        applyStepTheme(lecture, k, options);
        const QString path = stepPath(lecture, options, k, QStringLiteral("mp4"));
        if (const QString why = figure.video(step, video, options.fps, path); !why.isEmpty())
            return stepName(lecture, k) + QStringLiteral(": ") + why;
        *written << path;
    }
    return {};
}

// Files of an earlier export of a longer lecture, or of steps whose video is gone, named as this
// export names its own (step-NN.png|svg|pdf|mp4 in the folder, FILE-step-NN.mp4 beside a handout):
// removed, so the folder is this lecture's alone. Nothing else is touched.
void removeStaleSteps(const LectureExport &options, const QStringList &written)
{
    const bool handout = isHandout(options);
    const QFileInfo out(options.out);
    const QDir dir = handout ? out.dir() : QDir(options.out);
    const QString prefix = handout ? QRegularExpression::escape(out.completeBaseName() + QLatin1Char('-')) : QString();
    const QRegularExpression ours(
        QStringLiteral("^%1step-\\d+\\.%2$")
            .arg(prefix, handout ? QStringLiteral("mp4") : QStringLiteral("(png|svg|pdf|mp4)")));
    for (const QString &name : dir.entryList(QDir::Files))
        if (ours.match(name).hasMatch() && !written.contains(dir.filePath(name)))
            QFile::remove(dir.filePath(name));
}

} // namespace

QString exportLecture(const Lecture &lecture, const LectureExport &options, const std::function<bool(int)> &progress)
{
    const int n = static_cast<int>(lecture.steps.size());
    const bool handout = options.out.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive);
    if (options.theme)
        applyTheme(*options.theme);
    StepFigure figure;
    // Every step first: nothing is written when one of them cannot be drawn.
    for (int k = 0; k < n; ++k)
        if (const QString why = prepareStep(lecture, k, options, &figure); !why.isEmpty())
            return why;
    if (!handout && !QDir().mkpath(options.out)) {
        // Say what is in the way: a file where a folder of the path should be.
        for (QFileInfo up(options.out); !up.filePath().isEmpty() && up.filePath() != up.path();
             up = QFileInfo(up.path()))
            if (up.exists() && !up.isDir())
                return QObject::tr("cannot make the folder '%1': '%2' is a file.").arg(options.out, up.filePath());
        return QObject::tr("cannot make the folder '%1' (no permission, or the disk is full).").arg(options.out);
    }
    QStringList written;
    QString why = handout ? writeHandout(lecture, options, figure, progress, &written)
                          : writeSlides(lecture, options, figure, progress, &written);
    if (why.isEmpty() && options.withVideo)
        why = writeVideos(lecture, options, figure, &written);
    if (!why.isEmpty()) {
        for (const QString &done : written) // no half an export left behind
            QFile::remove(done);
        return why;
    }
    removeStaleSteps(options, written);
    return {};
}
