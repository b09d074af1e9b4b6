// PlotView's type, pens and colours: font sizes and paddings at the current scale, curve pens, the palette.
#include "figures/plot_view.h"

#include "figures/theme.h"

#include <QScreen>

#include <algorithm>
#include <cmath>
#include <qcustomplot.h>
#include <utility>

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
    // A panel's insets (setPanel) around it all.
    plot_->plotLayout()->setMargins((figureFontPoints_ > 0 ? QMargins(0, 0, px(6), 0) : QMargins()) + panelInsets_);
    const auto spaceGrid = [&px](QCPLayoutGrid *grid) {
        if (grid->rowSpacing() > 0) { // (a grid set to none keeps none: the probe's legend row)
            grid->setRowSpacing(px(5));
            grid->setColumnSpacing(px(5));
        }
    };
    spaceGrid(plot_->plotLayout());
    // Every axis rect the plot has, in its layout or not: a panel a view shows later (the attention
    // view's NoPE temperature) is then in the current style too.
    for (QCPAxisRect *rect : plot_->findChildren<QCPAxisRect *>()) {
        // QCustomPlot's least margin of 15 px a side (room for a corner's tick label) in
        // proportion too: at 7 pt it was a line and a half under each of the inputs' stacked maps.
        if (!rect->inherits("QCPColorScaleAxisRectPrivate")) // a colour bar's own, which has none
            rect->setMinimumMargins(QMargins(px(15), px(15), px(15), px(15)));
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
            f.setFamily(font().family()); // a figure's --font
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

QPen PlotView::curvePen(const QColor &color, double width, std::int64_t points) const
{
    if (points > 400) {
        QPen pen(color, 0.0);
        pen.setCosmetic(true);
        return pen;
    }
    return QPen(color, width * lineScale(), Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
}

double PlotView::lectureFontScale(int height, double dpi, double zoom)
{
    // Tick labels are 9 pt times the scale, 9·dpi/72 logical pixels at scale 1.
    const double tickPixels = 9.0 * dpi / 72.0;
    return std::max(kLectureFontScale, kLectureTickShare * height / tickPixels) * zoom;
}

double PlotView::fontScale() const
{
    // A figure in points: 9 pt becomes the asked size, in the layout's units (the screen's logical
    // dpi measures the text, so a point size of p·72/dpi is p units tall).
    if (figureFontPoints_ > 0)
        return figureFontPoints_ / 9.0 * 72.0 / plot_->logicalDpiY();
    if (lecture_)
        return lectureFontScale(screen() ? screen()->geometry().height() : 1080, plot_->logicalDpiY(), lectureZoom_);
    const QRect v = plot_->viewport();
    return std::clamp(std::min(v.width() / 900.0, v.height() / 600.0), 0.72, 1.0);
}

bool PlotView::projector()
{
    return projectorThemeOn();
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
    ground_ = bg;
    plot_->setBackground(ground_);
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
    for (QCPAxisRect *rect : plot_->findChildren<QCPAxisRect *>()) // in the layout or not, as applyFonts
        for (QCPAxis *axis : rect->axes())
            paintAxis(axis);
    for (QCPLayoutElement *e : plot_->plotLayout()->elements(true)) {
        if (auto *text = qobject_cast<QCPTextElement *>(e))
            text->setTextColor(fg);
        else if (auto *scale = qobject_cast<QCPColorScale *>(e))
            paintAxis(scale->axis());
        else if (auto *legend = qobject_cast<QCPLegend *>(e)) {
            // Inside a plot (--legend at a corner) the curves show through, as matplotlib's
            // framealpha 0.8 lets them.
            QColor ground = bg;
            if (qobject_cast<QCPLayoutInset *>(legend->layout()))
                ground.setAlphaF(0.8);
            legend->setBrush(ground);
            legend->setTextColor(fg);
            legend->setBorderPen(recolor(legend->borderPen(), grid));
            // Room under each item's text for its descenders: an item clips to its own rectangle,
            // and text measured at the screen's dpi draws a little taller in a figure ("random q,
            // k" lost the foot of its q at 300 dpi). From the top margin, so it never grows.
            const int descent = QFontMetrics(legend->font()).descent();
            for (int i = 0; i < legend->itemCount(); ++i)
                if (QCPAbstractLegendItem *item = legend->item(i)) {
                    QMargins m = item->margins();
                    m.setBottom(m.top() + (figureFontPoints_ > 0 ? (descent + 1) / 2 : 0));
                    item->setMargins(m);
                }
        }
    }
    paletteApplied();
}
