#include "figures/plot_view.h"

#include "figures/integer_ticker.h"
#include "figures/theme.h"
#include "state/session.h"
#include "state/view_registry.h"

#include "state/parameters.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>
#include <typeinfo>
#include <utility>

#include <QApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QToolTip>
#include <QVBoxLayout>

PlotView::PlotView(Parameters *parameters, QWidget *parent)
    : QWidget(parent)
    , parameters_(parameters)
    , plot_(new QCustomPlot(this))
    , notice_(new QLabel(this))
    , toolArea_(new QWidget(this))
    , toolRow_(new QHBoxLayout(toolArea_))
{
    plot_->setObjectName(QStringLiteral("plot"));
    // The figure settings' controls (figureSettings()): edited from View > Figure title, never shown
    // in the tool row.
    titleText_ = new QLineEdit(this);
    titleText_->setObjectName(QStringLiteral("title"));
    titleText_->setToolTip(tr("The figure's title in place of the view's own (View > Figure title)"));
    titleText_->hide();
    titleShown_ = new QCheckBox(this);
    titleShown_->setObjectName(QStringLiteral("showTitle"));
    titleShown_->setToolTip(tr("Whether the figure has a title (View > Figure title)"));
    titleShown_->hide();
    markerText_ = new QLineEdit(this);
    markerText_->setObjectName(QStringLiteral("markers"));
    markerText_->setToolTip(tr("Red dashed lines at these positions (View > Figure title and markers)"));
    markerText_->hide();
    connect(markerText_, &QLineEdit::editingFinished, this, &PlotView::refresh);
    connect(titleText_, &QLineEdit::editingFinished, this, &PlotView::refresh);
    connect(titleShown_, &QCheckBox::toggled, this, &PlotView::refresh);
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
        if (parameters_->position() == drawnPosition_ && !dirty_)
            return;
        if (isVisible() && !dirty_ && !notice_->isVisibleTo(this)) {
            drawnPosition_ = parameters_->position();
            positionMoved();
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

void PlotView::placeMarkers()
{
    for (int i = plot_->itemCount() - 1; i >= 0; --i)
        if (plot_->item(i)->objectName() == QLatin1String("figureMarker"))
            plot_->removeItem(i);
    if (!info_ || !findSetting(info_->settings, QStringLiteral("markers")))
        return;
    QString error;
    const auto positions = parseMarkers(markerText_->text(), &error);
    if (!positions)
        return; // refused before it was applied (checkSetting)
    // matplotlib's axvline(color='red', linestyle='--'), above the data.
    const QPen pen(QColor(255, 0, 0), 1.5 * lineScale(), Qt::DashLine);
    for (QCPAxis *axis : positionAxes())
        for (std::int64_t t : *positions) {
            const bool across = axis->orientation() == Qt::Horizontal;
            QCPItemStraightLine *line = addLine(pen, across ? axis : axis->axisRect()->axis(QCPAxis::atBottom),
                                                across ? axis->axisRect()->axis(QCPAxis::atLeft) : axis);
            line->setObjectName(QStringLiteral("figureMarker"));
            line->setLayer(QStringLiteral("overlay"));
            if (across)
                placeVertical(line, static_cast<double>(t));
            else
                placeHorizontal(line, static_cast<double>(t));
        }
}

QCPItemStraightLine *PlotView::addMarkerLine(const QColor &color, QCPAxisRect *rect) const
{
    QCPAxisRect *r = rect ? rect : plot_->axisRect();
    return addLine(QPen(color, 1.3, Qt::DashLine), r->axis(QCPAxis::atBottom), r->axis(QCPAxis::atLeft));
}

QCPItemStraightLine *PlotView::addLine(const QPen &pen, QCPAxis *xAxis, QCPAxis *yAxis) const
{
    auto *line = new QCPItemStraightLine(plot_);
    line->setClipAxisRect(xAxis->axisRect());
    for (QCPItemPosition *p : {line->point1, line->point2})
        p->setAxes(xAxis, yAxis);
    line->setPen(pen);
    return line;
}

void PlotView::placeVertical(QCPItemStraightLine *line, double x)
{
    line->point1->setCoords(x, 0);
    line->point2->setCoords(x, 1);
}

void PlotView::placeHorizontal(QCPItemStraightLine *line, double y)
{
    line->point1->setCoords(0, y);
    line->point2->setCoords(1, y);
}

QCPTextElement *PlotView::addTitle()
{
    // The title gets a row of the whole width; what was the plot layout's content moves into a
    // grid of its own below it, so a colour scale beside the plot does not narrow the title.
    auto *title = new QCPTextElement(plot_, QString(), QFont(font().family(), 11, QFont::Bold));
    QCPLayoutGrid *outer = plot_->plotLayout();
    QCPLayoutElement *main = outer->element(0, 0);
    outer->take(main);
    outer->simplify();
    content_ = new QCPLayoutGrid;
    outer->addElement(0, 0, title);
    outer->addElement(1, 0, content_);
    content_->addElement(0, 0, main);
    return title;
}

void PlotView::setLectureMode(bool on)
{
    lecture_ = on;
    toolArea_->setVisible(!on);
    applyFonts();
    refresh();
}

void PlotView::applyFonts()
{
    QFont tick = font();
    tick.setPointSizeF(fontSize(9));
    QFont label = font();
    label.setPointSizeF(fontSize(10));
    // A figure's paddings, tick lengths and gaps between plots in proportion to its type, from
    // QCustomPlot's 5 px at the window's (at 6 pt in a 3.5 in column they took a third of a plot).
    const double k = figureFontPoints_ > 0 ? fontScale() : 1.0;
    const auto px = [k](double v) { return std::max(1, static_cast<int>(std::lround(v * k))); };
    // A figure's edge keeps a gutter: text measured at the screen's dpi draws a little wider at a
    // figure's, and the colour bars' labels at the right edge were cut.
    plot_->plotLayout()->setMargins(figureFontPoints_ > 0 ? QMargins(0, 0, px(6), 0) : QMargins());
    const auto spaceGrid = [&px](QCPLayoutGrid *grid) {
        if (grid->rowSpacing() > 0) { // (a grid set to none keeps none: the probe's legend row)
            grid->setRowSpacing(px(5));
            grid->setColumnSpacing(px(5));
        }
    };
    spaceGrid(plot_->plotLayout());
    for (QCPAxisRect *rect : plot_->axisRects())
        for (QCPAxis *axis : rect->axes()) {
            axis->setTickLabelFont(tick);
            axis->setLabelFont(label);
            axis->setTickLabelPadding(px(5));
            axis->setLabelPadding(px(5));
            if (axis->tickLengthIn() > 0)
                axis->setTickLengthIn(px(5));
            if (axis->subTickLengthIn() > 0)
                axis->setSubTickLengthIn(px(2));
            for (auto [get, set] : {std::pair{&QCPAxis::basePen, &QCPAxis::setBasePen},
                                    std::pair{&QCPAxis::tickPen, &QCPAxis::setTickPen},
                                    std::pair{&QCPAxis::subTickPen, &QCPAxis::setSubTickPen}}) {
                QPen pen = (axis->*get)();
                if (pen.style() != Qt::NoPen) {
                    pen.setWidthF(lineScale());
                    (axis->*set)(pen);
                }
            }
        }
    // Legends are reached through the layout: a view that replaces the default axis rect (the
    // circles) deletes the legend plot_->legend pointed to, and QCustomPlot sets it to null.
    for (QCPLayoutElement *e : plot_->plotLayout()->elements(true)) {
        if (auto *legend = qobject_cast<QCPLegend *>(e)) {
            // In the tick labels' type, as matplotlib sets legends; the swatches in proportion
            // (QCustomPlot's 32 x 18 px filled a third of a 3.5 in figure's legend rows at 8 pt).
            legend->setFont(tick);
            const int h = QFontMetrics(tick).height();
            legend->setIconSize(2 * h, h);
            spaceGrid(legend); // a legend is a grid too
        } else if (auto *text = qobject_cast<QCPTextElement *>(e)) {
            QFont f = text->font();
            f.setPointSizeF(fontSize(11));
            text->setFont(f);
        } else if (auto *grid = qobject_cast<QCPLayoutGrid *>(e)) {
            spaceGrid(grid);
        } else if (auto *scale = qobject_cast<QCPColorScale *>(e)) {
            scale->axis()->setTickLabelFont(tick);
            scale->axis()->setLabelFont(label);
            // Room beyond the labels: measured at the screen's dpi, small type draws wider at a
            // figure's (a 3.5 in figure cut "-1" at its edge).
            scale->axis()->setPadding(figureFontPoints_ > 0 ? px(4) : 0);
            scale->axis()->setTickLabelPadding(px(5));
            scale->axis()->setLabelPadding(px(5));
        }
    }
}

std::vector<QCPAxis *> PlotView::allAxes() const
{
    std::vector<QCPAxis *> axes;
    for (QCPAxisRect *rect : plot_->axisRects())
        for (QCPAxis *axis : rect->axes())
            axes.push_back(axis);
    for (QCPLayoutElement *e : plot_->plotLayout()->elements(true))
        if (auto *scale = qobject_cast<QCPColorScale *>(e))
            axes.push_back(scale->axis()); // the colour bar's values
    return axes;
}

namespace {

// The ticks the axis's ticker places inside its range now, with their labels.
QVector<QPair<double, QString>> ticksInside(QCPAxis *axis)
{
    QVector<double> ticks;
    QVector<QString> labels;
    const QString format = axis->numberFormat();
    axis->ticker()->generate(axis->range(), axis->parentPlot()->locale(),
                             format.isEmpty() ? QLatin1Char('g') : format.at(0), axis->numberPrecision(), ticks,
                             nullptr, &labels);
    QVector<QPair<double, QString>> inside;
    for (int i = 0; i < ticks.size(); ++i)
        if (axis->range().contains(ticks[i]))
            inside.append({ticks[i], labels.value(i)});
    return inside;
}

// At least two ticks inside, neighbouring labels a line's height apart on an axis `length` long.
bool labelsApart(QCPAxis *axis, double length, const QFontMetrics &m)
{
    const auto ticks = ticksInside(axis);
    if (ticks.size() < 2)
        return false;
    const bool across = axis->orientation() == Qt::Horizontal;
    for (int i = 1; i < ticks.size(); ++i) {
        const double apart = (ticks[i].first - ticks[i - 1].first) / axis->range().size() * length;
        const double room =
            across
                ? (m.horizontalAdvance(ticks[i].second) + m.horizontalAdvance(ticks[i - 1].second)) / 2.0 + m.height()
                : 1.3 * m.height();
        if (apart < room)
            return false;
    }
    return true;
}

} // namespace

void PlotView::spaceTicks()
{
    // However large the type (lecture mode) or small the figure, neighbouring tick labels never
    // touch: whole-number axes get a minimum step, value axes fewer ticks (at most their default 5).
    for (QCPAxis *axis : allAxes()) {
        if (!axis->visible() || !axis->tickLabels())
            continue;
        const bool across = axis->orientation() == Qt::Horizontal;
        const double length = across ? axis->axisRect()->width() : axis->axisRect()->height();
        if (length <= 0)
            continue;
        const QFontMetrics m(axis->tickLabelFont());
        const QCPRange range = axis->range();
        const QString widest = QString::number(std::max(std::abs(range.lower), std::abs(range.upper)), 'g', 6);
        const double label = across ? m.horizontalAdvance(widest) + m.height() : 1.3 * m.height();
        if (auto integer = qSharedPointerDynamicCast<IntegerTicker>(axis->ticker()))
            integer->setMinimumStep(label * range.size() / length);
        else if (typeid(*axis->ticker()) == typeid(QCPAxisTicker) ||
                 qSharedPointerDynamicCast<QCPAxisTickerLog>(axis->ticker())) {
            int count = std::clamp(static_cast<int>(length / (1.6 * label)), 2, 5);
            axis->ticker()->setTickCount(count);
            // The widest possible label is a guess: when its count leaves a single tick on the axis
            // (a table's circle of +/-0.14 showed 0 alone), more are taken while the labels the
            // ticker writes keep a line's room between them.
            if (typeid(*axis->ticker()) == typeid(QCPAxisTicker) && ticksInside(axis).size() < 2) {
                int chosen = count;
                for (int more = count + 1; more <= 5 && chosen == count; ++more) {
                    axis->ticker()->setTickCount(more);
                    if (labelsApart(axis, length, m))
                        chosen = more;
                }
                axis->ticker()->setTickCount(chosen);
            }
        }
    }
}

void PlotView::setTitle(QCPTextElement *title, const QStringList &viewParts) const
{
    // Kept to fit again once the plots are laid out (refitTitles()).
    const auto kept = std::find_if(titles_.begin(), titles_.end(), [title](const auto &t) { return t.title == title; });
    if (kept == titles_.end())
        titles_.push_back({title, viewParts, title->font()});
    else
        *kept = {title, viewParts, title->font()};
    // The figure's own title (--title, View > Figure title) in place of the view's, or none.
    QStringList parts = viewParts;
    if (!titleShown_->isChecked()) {
        // No row at all: an empty text still measures one line.
        title->setText(QString());
        title->setMargins(QMargins());
        // (0 would mean "the text's height" to QCustomPlot; one pixel is the least it takes).
        title->setMinimumSize(1, 1);
        title->setMaximumSize(QWIDGETSIZE_MAX, 1);
        return;
    }
    title->setMargins(QMargins(2, 2, 2, 2));
    title->setMinimumSize(0, 0);
    title->setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
    if (!titleText_->text().isEmpty())
        parts = QStringList{titleText_->text()};
    // A title never takes more than about a fifth of the figure: its type shrinks first, never
    // below the tick labels' size; then parts give way, an ellipsis saying so (a 3.5 in figure cut
    // the first and last lines of a five-line title at its edges). The first part (what the figure
    // is) and the last (views end with what they reduced: "every 2nd position") stay longest.
    QFont font = title->font();
    double room = 0.2 * plot_->viewport().height();
    if (figureFontPoints_ > 0 && content_) // in a figure, what the plots leave at most
        room = std::min(room, plot_->viewport().height() - content_->minimumOuterSizeHint().height() - 4.0);
    const double smallest = std::min(font.pointSizeF(), fontSize(9));
    const auto fits = [&](const QStringList &p) {
        const int lines = wrappedTitle(font, p).count(QLatin1Char('\n')) + 1;
        return lines * QFontMetrics(font).lineSpacing() <= room;
    };
    while (!fits(parts) && font.pointSizeF() > 0 && font.pointSizeF() * 0.88 >= smallest)
        font.setPointSizeF(font.pointSizeF() * 0.88);
    const QString more = QStringLiteral(" …");
    while (parts.size() > 2 && !fits(parts)) {
        parts.removeAt(parts.size() - 2);
        if (!parts.first().endsWith(more))
            parts.first() += more;
    }

    QString text = wrappedTitle(font, parts);
    const int lineCount = std::max(1, static_cast<int>(room / QFontMetrics(font).lineSpacing()));
    if (text.count(QLatin1Char('\n')) + 1 > lineCount) {
        // Lines give way too: the head's last lines, then the last part's (what was reduced).
        QStringList head =
            wrappedTitle(font, parts.size() > 1 ? parts.mid(0, parts.size() - 1) : parts).split(QLatin1Char('\n'));
        QStringList tail =
            parts.size() > 1 ? wrappedTitle(font, {parts.last()}).split(QLatin1Char('\n')) : QStringList{};
        const int keepTail = std::min(static_cast<int>(tail.size()), std::max(0, lineCount - 1));
        const int keepHead = std::max(1, lineCount - keepTail);
        if (head.size() > keepHead) {
            head = head.mid(0, keepHead);
            head.last() += more;
        }
        if (tail.size() > keepTail) {
            tail = tail.mid(0, keepTail);
            if (!tail.isEmpty())
                tail.last() += more;
        }
        text = (head + tail).join(QLatin1Char('\n'));
    }
    title->setFont(font);
    title->setText(text);
}

void PlotView::refitTitles()
{
    // A title's room is what the plots leave, measured while the view rebuilt, before its plots
    // were laid out at this size: their margins then were the last layout's (a first export of the
    // circles took a line more for its title than the same export after another, and a refused
    // size named one that was refused in turn).
    for (const TitleParts &t : std::vector<TitleParts>(titles_))
        if (t.title) {
            t.title->setFont(t.font);
            setTitle(t.title, t.parts);
        }
}

QString PlotView::wrappedTitle(const QFont &font, const QStringList &parts) const
{
    const QFontMetrics metrics(font);
    const int room = plot_->viewport().width() - 20;
    const QString line = parts.join(QStringLiteral("  ·  "));
    if (metrics.horizontalAdvance(line) <= room)
        return line;
    // One part a line, and a part too wide for a line wrapped at spaces.
    QStringList lines;
    for (const QString &part : parts) {
        QString current;
        for (const QString &word : part.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const QString longer = current.isEmpty() ? word : current + QLatin1Char(' ') + word;
            if (!current.isEmpty() && metrics.horizontalAdvance(longer) > room) {
                lines << current;
                current = word;
            } else {
                current = longer;
            }
        }
        lines << current;
    }
    return lines.join(QLatin1Char('\n'));
}

QPen PlotView::curvePen(const QColor &color, double width, std::int64_t points) const
{
    QPen pen(color, points > 400 ? 0.0 : width * lineScale());
    pen.setCosmetic(points > 400);
    return pen;
}

QString PlotView::countText(std::int64_t n, const QString &one, const QString &many)
{
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

double PlotView::fontScale() const
{
    // A figure in points: 9 pt becomes the asked size, in the layout's units (the screen's logical
    // dpi measures the text, so a point size of p·72/dpi is p units tall).
    if (figureFontPoints_ > 0)
        return figureFontPoints_ / 9.0 * 72.0 / plot_->logicalDpiY();
    if (lecture_)
        return kLectureFontScale;
    const QRect v = plot_->viewport();
    return std::clamp(std::min(v.width() / 900.0, v.height() / 600.0), 0.72, 1.0);
}

bool PlotView::projector()
{
    return projectorThemeOn();
}

void PlotView::refresh()
{
    dirty_ = true;
    if (isVisible())
        rebuildNow();
}

void PlotView::applyPalette()
{
    // The plot in the widget's palette: light or dark with the window (View > Theme). Only colours
    // change: a pen a view turned off stays off, a dotted grid stays dotted.
    const QPalette pal = palette();
    const QColor fg = pal.color(QPalette::WindowText);
    const QColor bg = pal.color(QPalette::Base);
    QColor grid = pal.color(QPalette::Mid);
    grid.setAlpha(projector() ? 170 : 110);
    plot_->setBackground(bg);
    const auto recolor = [](QPen pen, const QColor &color) {
        if (pen.style() != Qt::NoPen)
            pen.setColor(color);
        return pen;
    };
    const auto paintAxis = [&](QCPAxis *axis) {
        axis->setBasePen(recolor(axis->basePen(), fg));
        axis->setTickPen(recolor(axis->tickPen(), fg));
        axis->setSubTickPen(recolor(axis->subTickPen(), fg));
        axis->setTickLabelColor(fg);
        axis->setLabelColor(fg);
        axis->grid()->setPen(recolor(axis->grid()->pen(), grid));
        axis->grid()->setZeroLinePen(recolor(axis->grid()->zeroLinePen(), grid));
    };
    for (QCPAxisRect *rect : plot_->axisRects())
        for (QCPAxis *axis : rect->axes())
            paintAxis(axis);
    for (QCPLayoutElement *e : plot_->plotLayout()->elements(true)) {
        if (auto *text = qobject_cast<QCPTextElement *>(e))
            text->setTextColor(fg);
        else if (auto *scale = qobject_cast<QCPColorScale *>(e))
            paintAxis(scale->axis());
        else if (auto *legend = qobject_cast<QCPLegend *>(e)) {
            legend->setBrush(bg);
            legend->setTextColor(fg);
            legend->setBorderPen(recolor(legend->borderPen(), grid));
        }
    }
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
    drawnPosition_ = parameters_->position();
    if (!showScheme()) {
        applyFonts();
        applyPalette();
        emit rebuilt();
        return;
    }
    applyFonts(); // before: a rebuild measures its labels
    const QRect room = content_ ? content_->outerRect() : QRect();
    rebuild();
    // A rebuild measures its room under the title it found; its own title may take more or fewer
    // lines (the clocks' first build counted 21 rows where 19 fit). When the title moved the room
    // below it, the next rebuild sees the room it really has (a slider step that keeps the title's
    // lines costs one rebuild).
    if (content_) {
        layOut();
        if (content_->outerRect() != room)
            rebuild();
    }
    placeMarkers();
    applyPalette(); // after: a rebuild may add axis rects (the circles, which set their fonts)
    emit rebuilt();
}

void PlotView::placeLegendAbove()
{
    QCPLegend *legend = plot_->legend;
    QCPLayoutInset *inset = plot_->axisRect()->insetLayout();
    if (inset->elements(false).contains(legend)) {
        inset->take(legend);
        inset->simplify();
    }
    content_->insertRow(0);
    content_->addElement(0, 0, legend);
    content_->setRowStretchFactor(0, 0.001); // its own height, no more
    legend->setVisible(true);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setBorderPen(Qt::NoPen);
    legend->setMargins(QMargins(4, 2, 4, 2));
}

void PlotView::wrapLegend()
{
    QCPLegend *legend = plot_->legend;
    // Measured from the names in the legend's font (an item's own size hint lags a font change).
    const QFontMetrics metrics(legend->font());
    int widest = 1;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i)))
            widest =
                std::max(widest, metrics.horizontalAdvance(item->plottable()->name()) + legend->iconSize().width() +
                                     legend->iconTextPadding() + item->margins().left() + item->margins().right() +
                                     legend->columnSpacing() + metrics.height());
    const int room = plot_->viewport().width() - legend->margins().left() - legend->margins().right();
    // (a tenth to spare: small type measured at the screen's dpi draws wider in a figure)
    legend->setWrap(std::clamp(static_cast<int>(room / (1.1 * widest)), 1, std::max(1, legend->itemCount())));
    legend->setFillOrder(QCPLegend::foColumnsFirst, true); // the wrap applies to the items there already
}

void PlotView::setEnvelope(QCPGraph *graph, const pe::CurveEnvelope &curve, double x0)
{
    QVector<double> x, y;
    x.reserve(static_cast<int>(2 * curve.low.size()));
    y.reserve(static_cast<int>(2 * curve.low.size()));
    for (std::size_t i = 0; i < curve.low.size(); ++i) {
        const double at = x0 + static_cast<double>(static_cast<std::int64_t>(i) * curve.stride);
        x << at;
        y << curve.low[i];
        if (curve.high[i] != curve.low[i]) {
            x << at;
            y << curve.high[i];
        }
    }
    graph->setData(x, y, true);
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

QImage PlotView::render(QSize size, double scale)
{
    QImage image;
    renderWith(size, scale, [&] { image = plot_->toPixmap(size.width(), size.height(), scale).toImage(); });
    return image;
}

QImage PlotView::render(QSize size, QSize pixels)
{
    const double sx = double(pixels.width()) / size.width(), sy = double(pixels.height()) / size.height();
    QImage image;
    renderWith(size, std::max(sx, sy), [&] {
        image = QImage(pixels, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QCPPainter painter(&image);
        if (sx > 1 || sy > 1)
            painter.setMode(QCPPainter::pmNonCosmetic);
        painter.scale(sx, sy);
        plot_->toPainter(&painter, size.width(), size.height());
    });
    return image;
}

QSize PlotView::figureNeeds(QSize size)
{
    renderWith(size, 1.0, [] {});
    return figureNeeds_;
}

void PlotView::renderTo(QCPPainter *painter, QSize size, double detail)
{
    vectorOutput_ = true;
    renderWith(size, detail, [&] { plot_->toPainter(painter, size.width(), size.height()); });
    vectorOutput_ = false;
}

void PlotView::renderWith(QSize size, double scale, const std::function<void()> &draw)
{
    const QRect oldViewport = plot_->viewport();
    pixelScale_ = scale;
    applyFonts();
    // In a figure of given type every plot keeps room for a few lines of it, so a panel never
    // thins to a strip under its labels (set before the layout and the rebuild, whose title gives
    // way to the plots, and again for plots the rebuild adds); what the layout then needs is
    // figureNeeds_.
    // (QPointer: a rebuild may delete plots, as the circles' does)
    std::vector<std::pair<QPointer<QCPAxisRect>, QSize>> minimums;
    const auto keepRoom = [&] {
        if (figureFontPoints_ <= 0)
            return;
        for (QCPAxisRect *rect : plot_->axisRects()) {
            if (std::any_of(minimums.begin(), minimums.end(), [rect](const auto &m) { return m.first == rect; }))
                continue;
            const int line = QFontMetrics(rect->axis(QCPAxis::atBottom)->tickLabelFont()).height();
            minimums.emplace_back(rect, rect->minimumSize());
            rect->setMinimumSize(kFigurePlotLines * 2 * line, kFigurePlotLines * line); // not QCP's 50 x 50
        }
    };
    keepRoom();
    // The tick spacing of the last layout (the screen's) shapes this one's labels: start from the
    // tickers' defaults, so the figure does not depend on what was drawn before.
    for (QCPAxis *axis : allAxes()) {
        if (auto integer = qSharedPointerDynamicCast<IntegerTicker>(axis->ticker()))
            integer->setMinimumStep(0);
        else if (axis->ticker())
            axis->ticker()->setTickCount(5);
    }
    // Lay the plot out at the export size so the view computes for the pixels it will fill.
    plot_->setViewport(QRect(QPoint(0, 0), size));
    layOut();
    // Cell values take the plot's font as their smallest size: in a figure of given type, the type.
    const QFont oldFont = plot_->font();
    if (figureFontPoints_ > 0) {
        QFont f = oldFont;
        f.setPointSizeF(fontSize(7)); // cell values may be smaller than the ticks, as annotations are
        plot_->setFont(f);
    }
    // A view that does not draw the scheme is not rebuilt for it (exportFigure and Copy figure
    // refuse it before they get here). A rebuild's title depends on the room it finds (a sampled
    // heatmap says so on a line of its own), and that room on the title before it: so the first
    // rebuild starts from empty titles, whatever the screen showed last, and a second one fits the
    // room the titles then leave. The figure depends on the export's options alone.
    if (!info_ || info_->schemeProblem(parameters_->values()).isEmpty()) {
        std::vector<std::pair<QPointer<QCPTextElement>, QString>> titles;
        for (int i = 0; i < plot_->plotLayout()->elementCount(); ++i)
            if (auto *t = qobject_cast<QCPTextElement *>(plot_->plotLayout()->elementAt(i))) {
                titles.emplace_back(t, t->text());
                t->setText(QString());
            }
        layOut();
        rebuild();
        for (const auto &[t, text] : titles)
            if (t && t->text().isEmpty())
                t->setText(text); // a title the rebuild does not set
        layOut();
        rebuild();
        placeMarkers();
    }
    finishWork();
    applyPalette();
    keepRoom();
    layOut();
    spaceTicks();
    layOut();
    refitTitles();
    layOut();
    // An axis title that would be cut ends in "…" in a figure ("ω_i (radians per position)" beside
    // a short plot at 3.5 in lost its end under the legend); the view's own after.
    std::vector<std::pair<QCPAxis *, QString>> labels;
    if (figureFontPoints_ > 0) {
        for (QCPAxis *axis : allAxes()) {
            const QString label = axis->label();
            // Centred on its plot, a title may pass the plot's ends, not the figure's nor into a
            // legend strip above the plots (placeLegendAbove), whose ground covers it.
            const QRect r = axis->axisRect()->rect();
            QRect figure = plot_->viewport();
            if (const QCPLegend *strip = plot_->legend;
                strip && strip->visible() && strip->layout() == content_ && strip->outerRect().bottom() < r.top())
                figure.setTop(strip->outerRect().bottom());
            const int length = axis->orientation() == Qt::Horizontal
                                   ? 2 * std::min(r.center().x() - figure.left(), figure.right() - r.center().x())
                                   : 2 * std::min(r.center().y() - figure.top(), figure.bottom() - r.center().y());
            const QFontMetrics m(axis->labelFont());
            if (label.isEmpty() || !axis->visible() || m.horizontalAdvance(label) <= length)
                continue;
            labels.emplace_back(axis, label);
            axis->setLabel(m.elidedText(label, Qt::ElideRight, std::max(length, m.height())));
        }
    }
    figureNeeds_ = plot_->plotLayout()->minimumOuterSizeHint();
    draw();
    for (const auto &[rect, minimum] : minimums)
        if (rect)
            rect->setMinimumSize(minimum);
    for (const auto &[axis, label] : labels)
        axis->setLabel(label);
    plot_->setFont(oldFont);
    plot_->setViewport(oldViewport);
    dirty_ = true;
    // The screen's figure again, in the screen's type: the figure's points are still set here (the
    // caller restores them after), and a rebuild with them laid the window's clocks out anew.
    if (isVisible()) {
        const double figurePoints = std::exchange(figureFontPoints_, 0.0);
        rebuildNow();
        figureFontPoints_ = figurePoints;
    }
}

void PlotView::bindSettings(const ViewInfo &info)
{
    info_ = &info;
    controls_.clear();
    for (const ViewSetting &s : info.settings) {
        QWidget *w = findChild<QWidget *>(s.key);
        if (!w)
            qFatal("view '%s' declares the setting '%s' but has no control of that name", qPrintable(info.id),
                   qPrintable(s.key));
        controls_.push_back(w);
        const QSignalBlocker quiet(w); // the defaults are the state the view starts in
        if (auto *c = qobject_cast<QComboBox *>(w)) {
            if (c->count() != s.choices.size())
                qFatal("view '%s': '%s' lists %d items for %d names", qPrintable(info.id), qPrintable(s.key),
                       int(c->count()), int(s.choices.size()));
            for (int i = 0; i < c->count(); ++i)
                c->setItemData(i, s.choices[i]);
            c->setCurrentIndex(choiceIndex(s, s.defaultValue));
        } else if (auto *sb = qobject_cast<QSpinBox *>(w)) {
            sb->setRange(static_cast<int>(s.minimum), static_cast<int>(s.maximum));
            sb->setSpecialValueText(s.special);
            sb->setValue(s.defaultValue.toInt());
        } else if (auto *ds = qobject_cast<QDoubleSpinBox *>(w)) {
            ds->setDecimals(s.decimals);
            ds->setRange(s.minimum, s.maximum);
            ds->setSpecialValueText(s.special);
            ds->setValue(s.defaultValue.toDouble());
        } else if (auto *b = qobject_cast<QCheckBox *>(w)) {
            b->setChecked(s.defaultValue.toBool());
        } else if (auto *e = qobject_cast<QLineEdit *>(w)) {
            e->setMaxLength(kMaxSettingText);
            e->setText(s.defaultValue.toString());
        }
    }
    // A text is read by its view when editing finishes: the view takes the declared default so.
    for (QWidget *w : controls_)
        if (auto *e = qobject_cast<QLineEdit *>(w))
            emit e->editingFinished();
    settingsBound();
}

QJsonObject PlotView::settings() const
{
    QJsonObject out;
    for (std::size_t i = 0; i < controls_.size(); ++i) {
        const ViewSetting &s = info_->settings[i];
        const QWidget *w = controls_[i];
        if (auto *c = qobject_cast<const QComboBox *>(w))
            out.insert(s.key, s.choices.value(c->currentIndex()));
        else if (auto *sb = qobject_cast<const QSpinBox *>(w))
            out.insert(s.key, sb->value());
        else if (auto *d = qobject_cast<const QDoubleSpinBox *>(w))
            out.insert(s.key, d->value());
        else if (auto *b = qobject_cast<const QCheckBox *>(w))
            out.insert(s.key, b->isChecked());
        else if (auto *e = qobject_cast<const QLineEdit *>(w))
            // A field may hold a typed text it refused (framed in red): the text it applies is saved.
            out.insert(s.key, e->property("appliedText").isValid() ? e->property("appliedText").toString() : e->text());
    }
    return out;
}

std::optional<QString> PlotView::applySettings(const QJsonObject &values)
{
    if (auto problem = checkSettings(info_->settings, values))
        return problem;
    for (std::size_t i = 0; i < controls_.size(); ++i) {
        const ViewSetting &s = info_->settings[i];
        if (!values.contains(s.key))
            continue;
        QWidget *w = controls_[i];
        const QJsonValue v = values.value(s.key);
        if (auto *c = qobject_cast<QComboBox *>(w))
            c->setCurrentIndex(choiceIndex(s, v));
        else if (auto *sb = qobject_cast<QSpinBox *>(w))
            sb->setValue(v.toInt());
        else if (auto *ds = qobject_cast<QDoubleSpinBox *>(w))
            ds->setValue(v.toDouble());
        else if (auto *b = qobject_cast<QCheckBox *>(w))
            b->setChecked(v.toBool());
        else if (auto *e = qobject_cast<QLineEdit *>(w)) {
            e->setText(v.toString());
            emit e->editingFinished(); // as if typed: the view reads it then
        }
    }
    return std::nullopt;
}

DataRequest PlotView::dataRequest() const
{
    return {parameters_->sharedEncoding(), parameters_->noise(), parameters_->position(),
            completeSettings(info_->settings, settings())};
}

QString PlotView::cannotDraw() const
{
    return info_ && info_->cannotDraw ? info_->cannotDraw(dataRequest()) : QString();
}

std::optional<pe::Table> PlotView::dataTable() const
{
    if (info_->exports.empty())
        return std::nullopt;
    const DataExport &e = info_->exports.front();
    const DataRequest request = dataRequest();
    if (e.problem && !e.problem(request).isEmpty())
        return std::nullopt;
    return e.make(request);
}
