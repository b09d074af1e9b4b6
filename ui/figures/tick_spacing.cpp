// Tick spacing for an axis's labels: neighbouring labels never touch, whatever the type or the plot's size.
#include "figures/tick_spacing.h"

#include "figures/integer_ticker.h"

#include <algorithm>
#include <cmath>
#include <qcustomplot.h>
#include <typeinfo>

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

bool spaceTickLabels(QCPAxis *axis)
{
    if (!axis->visible() || !axis->tickLabels())
        return false;
    const bool across = axis->orientation() == Qt::Horizontal;
    const double length = across ? axis->axisRect()->width() : axis->axisRect()->height();
    if (length <= 0)
        return false;
    const QFontMetrics m(axis->tickLabelFont());
    const QCPRange range = axis->range();
    const QString widest = QString::number(std::max(std::abs(range.lower), std::abs(range.upper)), 'g', 6);
    const double label = across ? m.horizontalAdvance(widest) + m.height() : 1.3 * m.height();
    if (auto integer = qSharedPointerDynamicCast<IntegerTicker>(axis->ticker())) {
        const double before = integer->minimumStep();
        integer->setMinimumStep(label * range.size() / length);
        return integer->minimumStep() != before;
    }
    const int before = axis->ticker()->tickCount();
    if (typeid(*axis->ticker()) == typeid(QCPAxisTicker) ||
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
    return axis->ticker()->tickCount() != before;
}
