#include "figures/power_ticker.h"

#include <cmath>

QString powerOfTenLabel(int exponent)
{
    static const char16_t digits[] = u"⁰¹²³⁴⁵⁶⁷⁸⁹";
    QString power;
    for (const QChar c : QString::number(exponent))
        power += c == QLatin1Char('-') ? QChar(u'⁻') : QChar(digits[c.digitValue()]);
    return QStringLiteral("10") + power;
}

void PowerTicker::install(QCPAxis *axis)
{
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(QSharedPointer<PowerTicker>::create());
    axis->setNumberFormat(QStringLiteral("g"));
    axis->setNumberPrecision(6);
}

QString PowerTicker::getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision)
{
    // A range under 1.6 decades gets linear ticks (QCPAxisTickerLog's own rule): those are
    // written as numbers.
    if (tick > 0) {
        const double exponent = std::log10(tick);
        if (std::abs(exponent - std::round(exponent)) < 1e-9)
            return powerOfTenLabel(static_cast<int>(std::lround(exponent)));
    }
    return QCPAxisTickerLog::getTickLabel(tick, locale, formatChar, precision);
}
