// PlotView's layout pieces: axes and their tick spacing, marker lines, the legend strip, curve envelopes.
#include "figures/plot_view.h"
#include "figures/position_matrix.h"
#include "figures/screen_graph.h"
#include "figures/tick_spacing.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/view_state.h"

#include <QLineEdit>
#include <algorithm>
#include <qcustomplot.h>

void PlotView::placeMarkers()
{
    for (int i = plot_->itemCount() - 1; i >= 0; --i)
        if (plot_->item(i)->objectName() == QLatin1String("figureMarker"))
            plot_->removeItem(i);
    if (!info_ || !findSetting(info_->settings, QStringLiteral("markers")))
        return;
    QString error;
    const auto positions = parseMarkers(state_->text(QStringLiteral("markers")), &error);
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

QCPGraph *PlotView::addGraph(QCPAxis *keyAxis, QCPAxis *valueAxis) const
{
    keyAxis = keyAxis ? keyAxis : plot_->xAxis;
    valueAxis = valueAxis ? valueAxis : plot_->yAxis;
    Q_ASSERT(keyAxis && valueAxis); // the default axis rect's, unless the view removed it
    return new ScreenGraph(keyAxis, valueAxis);
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

void PlotView::stepMatrixRow(const PositionMatrix &matrix, QCPItemStraightLine *row)
{
    const std::int64_t t = parameters()->position();
    if (!matrix.holds(t)) {
        rebuild();
        return;
    }
    placeHorizontal(row, static_cast<double>(t));
    replotPositionLayer();
}

void PlotView::placeHorizontal(QCPItemStraightLine *line, double y)
{
    line->point1->setCoords(0, y);
    line->point2->setCoords(1, y);
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

void PlotView::spaceTicks()
{
    // However large the type (lecture mode) or small the figure, neighbouring tick labels never
    // touch: whole-number axes get a minimum step, value axes fewer ticks (at most their default 5).
    // The layout that called this made the ticks already: when their spacing changed they are made
    // again, with the margins their labels take, so this replot draws them (not the next one: a
    // projection's first frame after its fit had other ticks than any later replot of it). The new
    // margins may change the room again; the third pass is the last.
    for (int pass = 0; pass < 3; ++pass) {
        bool changed = false;
        for (QCPAxis *axis : allAxes())
            changed = spaceTickLabels(axis) || changed;
        if (!changed)
            return;
        layOut();
    }
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
    std::vector<int> widths;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i)))
            widths.push_back(metrics.horizontalAdvance(item->plottable()->name()) + legend->iconSize().width() +
                             legend->iconTextPadding() + item->margins().left() + item->margins().right() +
                             legend->columnSpacing() + metrics.height() / 2);
    const int room = layoutArea().width() - legend->margins().left() - legend->margins().right();
    // The most items a row whose columns (each as wide as its widest item) fit the room, with a
    // tenth to spare (small type measured at the screen's dpi draws wider in a figure).
    int wrap = 1;
    for (int columns = static_cast<int>(widths.size()); columns > 1; --columns) {
        int total = 0;
        for (int c = 0; c < columns; ++c) {
            int widest = 0;
            for (std::size_t i = static_cast<std::size_t>(c); i < widths.size(); i += static_cast<std::size_t>(columns))
                widest = std::max(widest, widths[i]);
            total += widest;
        }
        if (1.1 * total <= room) {
            wrap = columns;
            break;
        }
    }
    legend->setWrap(std::max(1, wrap));
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

void PlotView::placeLegend()
{
    QCPLegend *legend = plot_->legend;
    if (!legend || !content_ || !info_ || !findSetting(info_->settings, QStringLiteral("legend")))
        return;
    const QString where = state_->choice(QStringLiteral("legend"));
    QCPAxisRect *rect = plot_->axisRect();
    QCPLayoutInset *inset = rect->insetLayout();
    QCPLayoutGrid *outer = plot_->plotLayout();
    // An empty legend is in no layout, as one turned off: its margins alone capped the width of
    // the column it stood in (the projection's plot shrank to the empty strip's 8 px).
    const bool off = where == QLatin1String("off") || legend->itemCount() == 0;
    // The default on every rebuild (a slider step): already in the strip, nothing moves.
    if (where == QLatin1String("above") && legend->layout() == content_ && !off) {
        legend->setVisible(true);
        return;
    }
    // Back from off: into the layout first, where the type and colours reach it.
    if (!legend->layout() && !off) {
        content_->addElement(0, 0, legend);
        applyFonts();
        applyPalette(); // the theme's colours too: entries may arrive after the rebuild's palette pass
    }
    // Out of wherever it was: the strip's row stays (empty, it takes no height), a row below goes.
    if (QCPLayout *now = legend->layout()) {
        now->take(legend);
        if (now == outer)
            outer->simplify();
        else if (now == inset)
            inset->simplify();
    }
    legend->setVisible(!off);
    // A frame inside a plot (matplotlib's), none for a strip.
    const bool inside =
        where != QLatin1String("above") && where != QLatin1String("below") && where != QLatin1String("off");
    legend->setBorderPen(inside ? QPen(QColor(160, 160, 160), 0.8) : QPen(Qt::NoPen));
    if (off)
        return; // in no layout: a hidden element in one still takes its room
    if (where == QLatin1String("above")) {
        content_->addElement(0, 0, legend);
        return;
    }
    if (where == QLatin1String("below")) {
        outer->addElement(outer->rowCount(), 0, legend);
        outer->setRowStretchFactor(outer->rowCount() - 1, 0.001); // its own height, no more
        return;
    }
    // Inside the plot, at a corner: one item a row, on the plot's ground, half a line from the axes
    // (matplotlib's borderaxespad; QCustomPlot's 12 px took a tenth of a 3.5 in plot).
    const int pad = std::max(1, QFontMetrics(legend->font()).height() / 2);
    inset->setMargins(QMargins(pad, pad, pad, pad));
    legend->setWrap(1);
    legend->setFillOrder(QCPLegend::foColumnsFirst, true);
    Qt::Alignment corner;
    if (where == QLatin1String("best")) {
        // matplotlib's loc='best': the corner whose box covers the fewest points of the curves
        // (the ones drawn, bounded by the pixels), in matplotlib's order of preference.
        const QSize box = legend->minimumOuterSizeHint();
        const QRect area = rect->rect();
        const Qt::Alignment corners[] = {Qt::AlignTop | Qt::AlignRight, Qt::AlignTop | Qt::AlignLeft,
                                         Qt::AlignBottom | Qt::AlignLeft, Qt::AlignBottom | Qt::AlignRight};
        std::int64_t fewest = -1;
        for (Qt::Alignment c : corners) {
            const QRect at((c & Qt::AlignLeft) ? area.left() : area.right() - box.width(),
                           (c & Qt::AlignTop) ? area.top() : area.bottom() - box.height(), box.width(), box.height());
            std::int64_t covered = 0;
            for (int i = 0; i < plot_->graphCount(); ++i) {
                QCPGraph *g = plot_->graph(i);
                if (!g->visible() || g->keyAxis()->axisRect() != rect)
                    continue;
                for (const QCPGraphData &d : *g->data()) {
                    const QPointF px(g->keyAxis()->coordToPixel(d.key), g->valueAxis()->coordToPixel(d.value));
                    covered += at.contains(px.toPoint());
                }
            }
            if (fewest < 0 || covered < fewest) {
                fewest = covered;
                corner = c;
            }
        }
        if (fewest > 0) { // every corner hides data: a paper's legend goes above instead
            legendToStrip();
            return;
        }
    } else {
        corner = (where.startsWith(QLatin1String("upper")) ? Qt::AlignTop : Qt::AlignBottom) |
                 (where.endsWith(QLatin1String("left")) ? Qt::AlignLeft : Qt::AlignRight);
    }
    inset->addElement(legend, corner);
    layOut();
    keepLegendInside();
}

void PlotView::keepLegendInside()
{
    QCPLegend *legend = plot_->legend;
    if (!legend || !content_)
        return;
    auto *inset = qobject_cast<QCPLayoutInset *>(legend->layout());
    if (!inset)
        return;
    // A legend larger than its plot would cover the axes and the plots beside it: it goes above.
    const QMargins pad = inset->margins();
    const QSize box = legend->minimumOuterSizeHint();
    const QRect area = plot_->axisRect()->rect();
    if (box.width() + pad.left() + pad.right() <= area.width() &&
        box.height() + pad.top() + pad.bottom() <= area.height())
        return;
    inset->take(legend);
    inset->simplify();
    legendToStrip();
    layOut();
}

void PlotView::legendToStrip()
{
    QCPLegend *legend = plot_->legend;
    legend->setBorderPen(Qt::NoPen);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    content_->addElement(0, 0, legend);
    wrapLegend();
}
