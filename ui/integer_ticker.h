#pragma once

#include <qcustomplot.h>

// Ticks on whole numbers only, printed in full (positions reach 1e9; "1e+09" reads badly).
class IntegerTicker : public QCPAxisTicker
{
public:
    IntegerTicker();

protected:
    double getTickStep(const QCPRange &range) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override;
};
