// PlotView's life: its widgets, and when it rebuilds (shown, resized, re-themed, a parameter or the position changed).
#include "figures/plot_view.h"

#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/view_state.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScopeGuard>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>

PlotView::PlotView(Parameters *parameters, QWidget *parent)
    : QWidget(parent)
    , parameters_(parameters)
    , plot_(new QCustomPlot(this))
    , notice_(new QLabel(this))
    , toolArea_(new QWidget(this))
    , toolRow_(new QHBoxLayout(toolArea_))
{
    plot_->setObjectName(QStringLiteral("plot"));
    // One paint buffer for the whole figure, unless the view keeps its position on the overlay
    // (usePositionLayer): QCustomPlot buffers that layer by default, and a second 4K buffer costs
    // every replot a clear and a blend of 33 MB (6 ms at 3840 x 2160) for a layer that holds nothing
    // that moves alone.
    plot_->layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmLogical);
    setFocusPolicy(Qt::StrongFocus); // a click on a view gives the keyboard to the position keys
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    toolRow_->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(toolArea_);
    layout->addWidget(plot_, 1);
    notice_->setObjectName(QStringLiteral("schemeNotice"));
    notice_->setWordWrap(true);
    notice_->setAlignment(Qt::AlignCenter);
    notice_->setMargin(24);
    notice_->hide();
    layout->addWidget(notice_, 1);
    connect(parameters_, &Parameters::changed, this, &PlotView::refresh);
    connect(plot_, &QCustomPlot::afterLayout, this, &PlotView::spaceTicks);
    connect(parameters_, &Parameters::positionChanged, this, [this] {
        // A parameter change that moved the position has just rebuilt with it: nothing to do.
        // Nor does a fraction this view does not draw.
        if (shownPosition() == drawnPosition_ && !dirty_)
            return;
        if (isVisible() && !dirty_ && !notice_->isVisibleTo(this)) {
            drawnPosition_ = shownPosition();
            positionMoved();
            applyColourLimits(); // the view's rebuild set its own range again
            emit rebuilt();
        } else {
            dirty_ = true;
        }
    });
    plot_->setMouseTracking(true);
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent *event) {
        const QString text = tooltipAt(event->position());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
    });
}

void PlotView::usePositionLayer()
{
    plot_->layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmBuffered);
}

void PlotView::replotPositionLayer()
{
    // During a rebuild the whole figure is replotted at its end, after the layout and the palette.
    // QCPLayer::replot falls back to a whole replot when the buffers are not ready.
    if (rebuilding_)
        return;
    QCPLayer *layer = plot_->layer(QStringLiteral("overlay"));
    if (layer->mode() == QCPLayer::lmBuffered)
        layer->replot();
    else
        plot_->replot(QCustomPlot::rpQueuedReplot); // no buffer of its own (usePositionLayer not called)
}

double PlotView::shownPosition() const
{
    // Asked on every playback frame by every view: the views of whole positions answer first.
    const double t = parameters_->realPosition();
    if (t == std::floor(t) || !info_ || !info_->realPositions ||
        !info_->realPositionProblem(parameters_->values(), parameters_->noise()).isEmpty())
        return static_cast<double>(parameters_->position());
    return t;
}

QString PlotView::tooltipAt(QPointF) const
{
    return {};
}

std::int64_t PlotView::heldValues() const
{
    // Every plottable's data: two numbers a graph point, three a curve point, a colour map's cells.
    std::int64_t n = 0;
    for (int i = 0; i < plot_->plottableCount(); ++i) {
        QCPAbstractPlottable *p = plot_->plottable(i);
        if (auto *g = qobject_cast<QCPGraph *>(p))
            n += 2 * g->dataCount();
        else if (auto *c = qobject_cast<QCPCurve *>(p))
            n += 3 * c->dataCount();
        else if (auto *m = qobject_cast<QCPColorMap *>(p))
            n += static_cast<std::int64_t>(m->data()->keySize()) * m->data()->valueSize();
    }
    return n;
}

void PlotView::setLectureMode(bool on)
{
    lecture_ = on;
    toolArea_->setVisible(!on);
    applyFonts();
    refresh();
}

void PlotView::setLectureZoom(double zoom)
{
    lectureZoom_ = std::clamp(zoom, kMinLectureZoom, kMaxLectureZoom);
    if (lecture_) {
        applyFonts();
        refresh();
    }
}

void PlotView::refresh()
{
    dirty_ = true;
    if (isVisible())
        rebuildNow();
}

void PlotView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        // Into or out of the projector theme, the pens change width: a full rebuild.
        if (projector() != builtForProjector_) {
            refresh();
            return;
        }
        applyPalette();
        plot_->replot(QCustomPlot::rpQueuedReplot);
    }
}

void PlotView::layOut()
{
    for (auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        plot_->plotLayout()->update(phase);
}

void PlotView::rebuildNow()
{
    dirty_ = false;
    builtForProjector_ = projector();
    pixelScale_ = plot_->devicePixelRatioF();
    drawnPosition_ = shownPosition();
    if (!showScheme()) {
        applyFonts();
        applyPalette();
        emit rebuilt();
        return;
    }
    applyFonts();       // before: a rebuild measures its labels
    rebuilding_ = true; // replotPositionLayer waits for the whole replot at the end
    const QRect room = content_ ? content_->outerRect() : QRect();
    rebuildFigure();
    // A rebuild measures its room under the title it found; its own title may take more or fewer
    // lines (the clocks' first build counted 21 rows where 19 fit). When the title moved the room
    // below it, the next rebuild sees the room it really has (a slider step that keeps the title's
    // lines costs one rebuild).
    if (content_) {
        layOut();
        if (content_->outerRect() != room)
            rebuildFigure();
    }
    placeMarkers();
    applyPalette(); // after: a rebuild may add axis rects (the circles, which set their fonts)
    rebuilding_ = false;
    plot_->replot(QCustomPlot::rpQueuedReplot); // the whole figure, the position's layer with it
    emit rebuilt();
}

void PlotView::rebuildFigure()
{
    rebuild();
    applyColourLimits();
    alignColourBars();
    placeLegend();
    applyAspect();
}

void PlotView::applyAspect()
{
    if (!info_ || !findSetting(info_->settings, QStringLiteral("aspect")) ||
        state_->choice(QStringLiteral("aspect")) != QLatin1String("equal"))
        return;
    for (QCPAxisRect *rect : aspectRects()) {
        QCPAxis *x = rect->axis(QCPAxis::atBottom), *y = rect->axis(QCPAxis::atLeft);
        if (rect->width() <= 0 || rect->height() <= 0 || x->range().size() <= 0 || y->range().size() <= 0)
            continue;
        // Pixels a unit on each axis: the axis with more widens its range (never narrows one).
        const double px = rect->width() / x->range().size(), py = rect->height() / y->range().size();
        if (px > py)
            x->setScaleRatio(y, 1.0);
        else if (py > px)
            y->setScaleRatio(x, 1.0);
    }
}

bool PlotView::showScheme()
{
    const QString why = info_ ? info_->schemeProblem(parameters_->values()) : QString();
    notice_->setText(why);
    QFont large = font();
    large.setPointSizeF(fontSize(12)); // lecture type in lecture mode
    notice_->setFont(large);
    notice_->setVisible(!why.isEmpty());
    plot_->setVisible(why.isEmpty());
    toolArea_->setEnabled(why.isEmpty());
    return why.isEmpty();
}

void PlotView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (dirty_)
        rebuildNow();
}

void PlotView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // The content is computed for the pixels on screen, so a new size needs a new computation.
    if (isVisible())
        rebuildNow();
    else
        dirty_ = true;
}
