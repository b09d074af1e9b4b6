#pragma once

#include "figures/plot_view.h"

class QComboBox;
class QCPAxisRect;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;

// RoPE's frequencies under its context extension (scheme rope): above, each pair's wavelength
// (or ω) unscaled and scaled, coloured by what the scaling does to it (kept: it extrapolates past
// L; interpolated: θ/s; blended), with L and s·L marked; below, the ratio ω'/ω against 1 and 1/s.
class ScalingView : public PlotView
{
    Q_OBJECT

  public:
    explicit ScalingView(Parameters *parameters, QWidget *parent = nullptr);

  protected:
    void rebuild() override;
    bool followsPosition() const override { return false; }
    void positionMoved() override {}

  private:
    QComboBox *quantityChoice_;
    QCPTextElement *title_;
    QCPAxisRect *ratioRect_;
    QCPItemStraightLine *contextLine_;
    QCPItemStraightLine *extendedLine_;
    QCPItemText *contextLabel_;
    QCPItemText *extendedLabel_;
    QCPItemStraightLine *oneLine_;
    QCPItemStraightLine *inverseLine_;
    QCPItemText *inverseText_;
};
