// PlotView's figures: rendering at a given size, scale and type for export, and the size a figure needs.
#include "figures/plot_view.h"

#include "figures/integer_ticker.h"
#include "state/parameters.h"
#include "state/view_registry.h"

#include <QPointer>
#include <algorithm>
#include <qcustomplot.h>
#include <utility>

QImage PlotView::render(QSize size, double scale)
{
    if (figureTransparent_) // QCustomPlot's pixmap starts from the background's colour: start from none
        return render(size, QSize(qRound(size.width() * scale), qRound(size.height() * scale)));
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
    return figureLayout_.needs;
}

void PlotView::renderTo(QCPPainter *painter, QSize size, double detail)
{
    vectorOutput_ = true;
    renderWith(size, detail, [&] { plot_->toPainter(painter, size.width(), size.height()); });
    vectorOutput_ = false;
}

QRect PlotView::layoutArea() const
{
    return plot_->viewport().marginsRemoved(panelInsets_);
}

void PlotView::setPanel(QMargins insets, const QString &label, bool on)
{
    panelInsets_ = insets;
    panelLabel_ = label;
    panel_ = on;
}

QCPItemText *PlotView::measureFigure()
{
    FigureLayout &f = figureLayout_;
    f = {};
    f.needs = plot_->plotLayout()->minimumOuterSizeHint();
    for (QCPAxisRect *rect : plot_->axisRects())
        if (rect->visible() && rect->layout() && !rect->rect().isEmpty())
            f.plots = f.plots.united(rect->rect());
    // A title's row spans the figure; its text is what a neighbour must not touch.
    for (QCPLayoutElement *e : plot_->plotLayout()->elements(true)) {
        if (auto *t = qobject_cast<QCPTextElement *>(e); t && t->visible() && !t->text().isEmpty())
            f.texts.push_back(QFontMetrics(t->font()).boundingRect(t->rect(), t->textFlags(), t->text()));
        else if (auto *legend = qobject_cast<QCPLegend *>(e); legend && legend->visible() && legend->itemCount() > 0)
            f.texts.push_back(legend->rect());
    }
    if (panelLabel_.isEmpty())
        return nullptr;
    QFont font = plot_->xAxis ? plot_->xAxis->labelFont() : this->font();
    font.setBold(true);
    auto *label = new QCPItemText(plot_);
    label->setClipToAxisRect(false);
    label->setLayer(QStringLiteral("legend"));
    label->position->setType(QCPItemPosition::ptAbsolute);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setPadding(QMargins());
    label->setFont(font);
    label->setColor(plot_->xAxis ? plot_->xAxis->labelColor() : palette().color(QPalette::WindowText));
    label->setText(panelLabel_);
    const QFontMetrics m(font);
    const int pad = std::max(1, m.height() / 5);
    label->position->setCoords(pad, pad);
    f.label = QRect(pad, pad, m.horizontalAdvance(panelLabel_), m.height());
    return label;
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
            rect->setMinimumSize(figurePlotLines() * line); // not QCP's 50 x 50
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
        rebuilding_ = true; // the export draws the whole figure: no layer replot on the screen's buffers
        rebuildFigure();
        for (const auto &[t, text] : titles)
            if (t && t->text().isEmpty())
                t->setText(text); // a title the rebuild does not set
        layOut();
        rebuildFigure();
        rebuilding_ = false;
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
    keepLegendInside(); // at the figure's own layout: the plots may have shrunk under their type
    applyAspect();      // for the plots' final sizes
    // An axis title that would be cut ends in "…" in a figure ("ω_i (radians per position)" beside
    // a short plot at 3.5 in lost its end under the legend); the view's own after.
    std::vector<std::pair<QCPAxis *, QString>> labels;
    if (figureFontPoints_ > 0) {
        for (QCPAxis *axis : allAxes()) {
            const QString label = axis->label();
            // Centred on its plot, a title may pass the plot's ends into its own margins, not the
            // figure's nor into a neighbouring plot's (the attention matrix's "query position t"
            // ran into its row's "weight in row t = 0") nor into a legend strip above the plots
            // (placeLegendAbove), whose ground covers it.
            const QRect r = axis->axisRect()->rect();
            QRect figure = layoutArea().intersected(axis->axisRect()->outerRect());
            if (const QCPLegend *strip = plot_->legend;
                strip && strip->visible() && strip->layout() == content_ && strip->outerRect().bottom() < r.top())
                figure.setTop(strip->outerRect().bottom());
            const int length = axis->orientation() == Qt::Horizontal
                                   ? 2 * std::min(r.center().x() - figure.left(), figure.right() - r.center().x())
                                   : 2 * std::min(r.center().y() - figure.top(), figure.bottom() - r.center().y());
            // A title on two lines (the attention row's) measured and cut line by line.
            const QFontMetrics m(axis->labelFont());
            QStringList lines = label.split(QLatin1Char('\n'));
            int widest = 0;
            for (const QString &line : lines)
                widest = std::max(widest, m.horizontalAdvance(line));
            if (label.isEmpty() || !axis->visible() || widest <= length)
                continue;
            labels.emplace_back(axis, label);
            for (QString &line : lines)
                line = m.elidedText(line, Qt::ElideRight, std::max(length, m.height()));
            axis->setLabel(lines.join(QLatin1Char('\n')));
        }
    }
    QCPItemText *label = measureFigure();
    // --transparent: no background rectangle; the plots, legends and colour bars as they are.
    // The ground put back is applyPalette's: QCustomPlot has no getter for its brush (background()
    // is its pixmap; a brush made of that null pixmap went back here, until the rebuild below).
    if (figureTransparent_)
        plot_->setBackground(QBrush(Qt::transparent));
    draw();
    plot_->setBackground(ground_);
    if (label)
        plot_->removeItem(label);
    for (const auto &[rect, minimum] : minimums)
        if (rect)
            rect->setMinimumSize(minimum);
    for (const auto &[axis, label] : labels)
        axis->setLabel(label);
    plot_->setFont(oldFont);
    plot_->setViewport(oldViewport);
    dirty_ = true;
    // The screen's figure again, in the screen's type and on its ground: the figure's points and
    // transparency are still set here (the caller restores them after); a rebuild with them laid
    // the window's clocks out anew, and left their band translucent.
    if (isVisible()) {
        const double figurePoints = std::exchange(figureFontPoints_, 0.0);
        const bool transparent = std::exchange(figureTransparent_, false);
        rebuildNow();
        figureFontPoints_ = figurePoints;
        figureTransparent_ = transparent;
    }
}
