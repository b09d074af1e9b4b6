#pragma once

#include "analysis/spectrum.h"
#include "figures/plot_view.h"

#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;
class QLineEdit;

// Frequency decay (seeds 000 and 004): w_i against i for the current base and comparison bases,
// or the wavelengths 2*pi/w_i, marking which pairs complete a whole period inside the window
// (their wavelength is at most seq_len - 1, the span from the first to the last position).
// Measured: each column's dominant frequency from its FFT (pe::columnSpectrum), over the formula's
// curve for the sinusoids ("Measure (FFT)") and alone for a table, which has no formula.
class FrequencyView : public PlotView
{
    Q_OBJECT

  public:
    enum class Quantity { Frequency, Wavelength };

    explicit FrequencyView(Parameters *parameters, QWidget *parent = nullptr);

    void setQuantity(Quantity quantity);
    void setLogScale(bool on);
    void setMeasured(bool on);
    // The spectrum last drawn (empty when none was measured).
    const pe::ColumnSpectrum &spectrum() const { return spectrum_; }
    // Comma-separated bases, e.g. "1e2, 1e4, 1e8"; false (and nothing changed) if one is invalid.
    bool setComparisonText(const QString &text);
    const std::vector<double> &comparisonBases() const { return comparison_; }
    // Channels whose wavelength fits in the window, as last computed.
    int completedPeriods() const { return completed_; }
    QString tooltipAt(QPointF pixel) const override;
    bool followsPosition() const override { return false; }

  protected:
    void rebuild() override;
    void settingsChanged(const QStringList &keys) override;
    void positionMoved() override {}

  private:
    void rebuildSpectrum(const std::vector<int> &columns);
    // The value axis, linear or logarithmic, and the room left around the values once rescaled.
    void setValueScale(bool logScale);
    void padValueRange(bool logScale);

    QComboBox *quantityChoice_;
    QCheckBox *logBox_;
    QCheckBox *measureBox_;
    QLineEdit *compareEdit_;
    QCPTextElement *title_;
    QCPItemStraightLine *spanLine_;
    QCPItemText *spanLabel_;
    // Gemma's local layers: their sliding window W - 1 (wavelengths), in the local curve's colour.
    QCPItemStraightLine *localSpanLine_;
    QCPItemText *localSpanLabel_;
    std::vector<double> comparison_; // the compared bases the last rebuild drew
    // The bases of a compare text, or nothing with the reason in `problem`.
    std::optional<std::vector<double>> basesOf(const QString &text, QString *problem) const;
    // The same, the field framed in red with the reason when it does not parse.
    std::optional<std::vector<double>> comparisonOf(const QString &text) const;
    int completed_ = 0;
    pe::ColumnSpectrum spectrum_;
};
