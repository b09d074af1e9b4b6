#include "figures/integer_ticker.h"

#include <algorithm>
#include <cmath>

IntegerTicker::IntegerTicker()
{
    setTickCount(6);
}

double roundedTickStep(double step)
{
    const double magnitude = std::pow(10.0, std::floor(std::log10(std::max(step, 1.0))));
    const double mantissa = std::max(step, 1.0) / magnitude;
    return (mantissa <= 1 ? 1 : mantissa <= 2 ? 2 : mantissa <= 5 ? 5 : 10) * magnitude;
}

void IntegerTicker::setMinimumStep(double step)
{
    minimumStep_ = roundedTickStep(step);
}

double IntegerTicker::getTickStep(const QCPRange &range)
{
    return std::max(minimumStep_, std::round(QCPAxisTicker::getTickStep(range)));
}

QString IntegerTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    return QString::number(static_cast<long long>(std::llround(tick)));
}
