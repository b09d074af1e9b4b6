#include "figures/lecture_export.h"

#include "figures/math_text.h"
#include "figures/panel_figure.h"
#include "figures/plot_view.h"
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
#include <QPageSize>
#include <QPdfWriter>
#include <QTextDocument>

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

// Step k of the lecture as the export draws it (its theme, its state as its action leaves it);
// one sentence naming the step and what stops it.
QString prepareStep(const Lecture &lecture, int k, const LectureExport &options, StepFigure *figure)
{
    applyStepTheme(lecture, k, options);
    const LectureStep &step = lecture.steps[static_cast<std::size_t>(k)];
    const QString why = figure->prepare(step, stateAfterAction(step), options.figure);
    return why.isEmpty() ? why : stepName(lecture, k) + QStringLiteral(": ") + why;
}

QFont pointFont(double points, bool bold = false)
{
    QFont f = QApplication::font();
    f.setPixelSize(qRound(points)); // the layout is in points: a point a pixel, as figures set their type
    f.setBold(bold);
    return f;
}

// The caption laid out for the figure's width.
std::unique_ptr<QTextDocument> captionDocument(const QString &caption, int width)
{
    auto doc = std::make_unique<QTextDocument>();
    doc->setDocumentMargin(0);
    doc->setDefaultFont(pointFont(kCaptionPoints));
    doc->setHtml(captionHtml(caption));
    doc->setTextWidth(width);
    return doc;
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

QString captionHtml(const QString &caption)
{
    return mathText(caption);
}

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
    if (!handout) {
        if (!QDir().mkpath(options.out))
            return QObject::tr("cannot make the folder '%1'.").arg(options.out);
        const int digits = std::max(2, static_cast<int>(QString::number(n).size()));
        const QString ext = options.folderFormat == FigureFormat::Png   ? QStringLiteral("png")
                            : options.folderFormat == FigureFormat::Svg ? QStringLiteral("svg")
                                                                        : QStringLiteral("pdf");
        QStringList written;
        for (int k = 0; k < n; ++k) {
            if (progress && !progress(k))
                return QObject::tr("cancelled");
            QString why = prepareStep(lecture, k, options, &figure);
            const QString path =
                QDir(options.out)
                    .filePath(QStringLiteral("step-%1.%2").arg(k + 1, digits, 10, QLatin1Char('0')).arg(ext));
            if (why.isEmpty() &&
                !writeFigure(
                    path, [&] { return pageBytes(options.folderFormat, figure.fitted(), figure.page()); }, &why))
                why = stepName(lecture, k) + QStringLiteral(": ") + why;
            if (!why.isEmpty()) {
                for (const QString &done : written) // no half an export left behind
                    QFile::remove(done);
                return why;
            }
            written << path;
        }
        return {};
    }
    // A handout: every page the size of the largest step's (figure, title and caption).
    const QSize figureSize = figure.fitted().layoutSize();
    int captionHeight = 0;
    for (const LectureStep &step : lecture.steps)
        captionHeight =
            std::max(captionHeight, qCeil(captionDocument(step.caption, figureSize.width())->size().height()));
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
            captionDocument(step.caption, figureSize.width())->drawContents(&painter);
            painter.restore();
        }
        painter.end();
    }
    QString error;
    if (!writeFigure(
            options.out, [&] { return bytes; }, &error))
        return error;
    return {};
}
