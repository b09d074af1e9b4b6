// PlotView's layout pieces: axes and their tick spacing, marker lines, the legend strip, curve envelopes.
#include "figures/plot_view.h"

#include "figures/tick_spacing.h"
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
    for (QCPAxis *axis : allAxes())
        spaceTickLabels(axis);
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
