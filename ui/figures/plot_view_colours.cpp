// PlotView's colour limits: --vmin, --vmax, --robust and --colorbar-label on every colour bar a
// view draws, after its rebuild set the bar's own range and label.
#include "figures/plot_view.h"

#include "figures/math_text.h"

#include "state/view_registry.h"
#include "state/view_state.h"

#include <qcustomplot.h>

namespace {

// The cells drawn through a colour bar (its colour maps'), NaN for a masked cell: what --robust
// takes its percentiles of, so the limits describe the picture.
std::vector<double> drawnCells(QCustomPlot *plot, const QCPColorScale *scale)
{
    std::vector<double> values;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        auto *map = qobject_cast<QCPColorMap *>(plot->plottable(i));
        if (!map || map->colorScale() != scale)
            continue;
        QCPColorMapData *data = map->data(); // (cell() is not const in QCustomPlot)
        values.reserve(values.size() + static_cast<std::size_t>(data->keySize()) * data->valueSize());
        for (int k = 0; k < data->keySize(); ++k)
            for (int v = 0; v < data->valueSize(); ++v)
                values.push_back(data->cell(k, v));
    }
    return values;
}

} // namespace

void PlotView::applyColourLimits()
{
    if (!info_ || !findSetting(info_->settings, QStringLiteral("colorMin")))
        return;
    const ColourLimits limits = colourLimits(state_->values());
    std::map<const void *, ColourBar> seen;
    bool changed = false;
    for (QCPLayoutElement *e : plot_->plotLayout()->elements(true)) {
        auto *scale = qobject_cast<QCPColorScale *>(e);
        if (!scale)
            continue;
        ColourBar bar = colourBars_.count(scale) ? colourBars_[scale] : ColourBar{};
        // The view's own range and label: what it set in this rebuild, or, when it left the bar as
        // it was (a fixed range set once), what it had before the limits.
        const QCPRange now = scale->dataRange();
        if (!(bar.applied && now.lower == bar.appliedLow && now.upper == bar.appliedHigh)) {
            bar.ownLow = now.lower;
            bar.ownHigh = now.upper;
        }
        if (!(bar.applied && scale->axis()->label() == bar.appliedLabel))
            bar.ownLabel = scale->axis()->label();
        QCPRange range(bar.ownLow, bar.ownHigh);
        QString label = bar.ownLabel;
        if (limits.any()) {
            const ColourRange r = limitedColourRange(bar.ownLow, bar.ownHigh, limits,
                                                     limits.robust ? drawnCells(plot_, scale) : std::vector<double>{});
            range = QCPRange(r.low, r.high);
            if (!limits.label.isEmpty()) {
                label = mathText(limits.label); // the label given is the label, word for word (its math set)
            } else {
                // The view's own label may say what its own range is ("value (±6 = max |value|)"):
                // once the range is another, that part goes; a short note says what the ends are.
                const bool otherRange = range.lower != bar.ownLow || range.upper != bar.ownHigh;
                if (otherRange && label.endsWith(QLatin1Char(')')) && label.contains(QStringLiteral(" (")))
                    label = label.left(label.lastIndexOf(QStringLiteral(" (")));
                QString note = r.note;
                if (r.robustLow && r.robustHigh)
                    note = tr("2–98th pct");
                else if (r.robustLow)
                    note = tr("low end 2nd pct");
                else if (r.robustHigh)
                    note = tr("high end 98th pct");
                if (!note.isEmpty())
                    label = label.isEmpty() ? note : tr("%1 (%2)").arg(label, note);
            }
        }
        if (scale->dataRange() != range) {
            scale->setDataRange(range); // the colour maps drawn through it follow
            changed = true;
        }
        if (scale->axis()->label() != label) {
            scale->axis()->setLabel(label);
            changed = true;
        }
        bar.applied = limits.any();
        bar.appliedLow = range.lower;
        bar.appliedHigh = range.upper;
        bar.appliedLabel = label;
        seen[scale] = bar;
    }
    colourBars_ = std::move(seen); // bars a rebuild removed are forgotten
    if (changed)
        plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::alignColourBars()
{
    // A colour bar beside a plot in a grid row runs from the plot's top to its bottom, not over the
    // row's titles and tick labels (the inputs' bars stood a line above and below their maps): their
    // top and bottom margins grouped, once. A bar a view grouped itself is left as it is.
    for (QCPLayoutElement *e : plot_->plotLayout()->elements(true)) {
        auto *scale = qobject_cast<QCPColorScale *>(e);
        if (!scale)
            continue;
        // A group's margin is the largest its members keep, and a bar keeps its last one: a figure
        // after the screen's larger type kept the screen's margins. From none again.
        if (!scale->marginGroups().isEmpty())
            scale->setMargins(QMargins());
        auto *grid = qobject_cast<QCPLayoutGrid *>(scale->layout());
        if (!grid || scale->marginGroup(QCP::msTop) || scale->marginGroup(QCP::msBottom))
            continue;
        for (int row = 0; row < grid->rowCount(); ++row) {
            bool here = false;
            QCPAxisRect *beside = nullptr;
            for (int column = 0; column < grid->columnCount(); ++column) {
                // hasElement first: element() of an empty cell (a legend strip's row) logs a complaint.
                QCPLayoutElement *cell = grid->hasElement(row, column) ? grid->element(row, column) : nullptr;
                here = here || cell == scale;
                if (auto *rect = qobject_cast<QCPAxisRect *>(cell); rect && !beside)
                    beside = rect;
            }
            if (!here || !beside || beside->marginGroup(QCP::msTop) || beside->marginGroup(QCP::msBottom))
                continue;
            auto *group = new QCPMarginGroup(plot_);
            beside->setMarginGroup(QCP::msTop | QCP::msBottom, group);
            scale->setMarginGroup(QCP::msTop | QCP::msBottom, group);
            scale->setMargins(QMargins());
        }
    }
}
