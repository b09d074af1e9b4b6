#pragma once

#include <qcustomplot.h>

// Logarithmic ticks labelled as powers of ten, "10⁴", in the label's own text.
//
// QCustomPlot can draw "1e+04" as 10⁴ itself (number format "eb"), but it decides to drop the
// "1·" only when it draws the axis, not when it measures it: an axis measured before its first
// draw took room for "1·10⁴", so the same figure had a wider margin on a fresh start than after
// another log plot had been drawn (the RoPE scaling view's exports differed by 5 px). A label
// that is already its final text measures as it draws.
class PowerTicker : public QCPAxisTickerLog
{
  public:
    // Sets the axis logarithmic with these ticks: the one way views make a log axis.
    static void install(QCPAxis *axis);

  protected:
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override;
};

// "10" followed by n in superscript digits: powerOfTenLabel(-3) is "10⁻³".
QString powerOfTenLabel(int exponent);
