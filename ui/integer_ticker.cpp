#include "integer_ticker.h"

#include <cmath>

IntegerTicker::IntegerTicker()
{
    setTickCount(6);
}

double IntegerTicker::getTickStep(const QCPRange &range)
{
    return std::max(1.0, std::round(QCPAxisTicker::getTickStep(range)));
}

QString IntegerTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    return QString::number(static_cast<long long>(std::llround(tick)));
}
