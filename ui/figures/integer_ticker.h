#pragma once

#include <qcustomplot.h>

// The smallest of 1, 2 or 5 times a power of ten that is at least `step` (and at least 1): a tick
// step people read.
double roundedTickStep(double step);

// Ticks on whole numbers only, printed in full (positions reach 1e9; "1e+09" reads badly).
class IntegerTicker : public QCPAxisTicker
{
  public:
    IntegerTicker();
    // No two ticks closer than this (in axis units): set from the labels' size, so labels of
    // neighbouring ticks never touch. Rounded up to 1, 2 or 5 times a power of ten.
    void setMinimumStep(double step);
    double minimumStep() const { return minimumStep_; }

  protected:
    double getTickStep(const QCPRange &range) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override;

  private:
    double minimumStep_ = 1;
};
