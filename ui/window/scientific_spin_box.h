#pragma once

#include <QDoubleSpinBox>

// A spin box that holds whatever number is typed, in any notation ("5000", "1e4", "0.5"), however
// far outside the allowed range: the owner judges it (ControlPanel asks core's validator), so a
// refused value stays in the field to be corrected instead of losing digits or snapping back.
// The arrows step only within the step range; Esc emits escapePressed. The base shows large
// values in scientific notation and steps by a tenth of a decade; whole-number fields take digits
// only and show group separators.
class ScientificSpinBox : public QDoubleSpinBox
{
    Q_OBJECT
    Q_PROPERTY(bool refused READ isRefused)

  public:
    explicit ScientificSpinBox(QWidget *parent = nullptr);

    void setWholeNumbers(bool on);
    bool wholeNumbers() const { return whole_; }
    // The arrows' range (the valid one); typing is not bounded by it.
    void setStepRange(double min, double max);
    // Steps of a tenth of a decade instead of singleStep.
    void setLogarithmicSteps(bool on) { logarithmic_ = on; }
    // Marks the field as holding a refused value: a red frame that reads on light and dark themes.
    void setRefused(bool refused);
    bool isRefused() const { return refused_; }
    // The red of a refusal on this palette: darker on light backgrounds, lighter on dark ones.
    static QColor refusedColor(const QPalette &palette);

    QString textFromValue(double value) const override;
    double valueFromText(const QString &text) const override;
    QValidator::State validate(QString &text, int &pos) const override;
    void fixup(QString &text) const override;
    void stepBy(int steps) override;

  signals:
    void escapePressed();

  protected:
    StepEnabled stepEnabled() const override;
    bool event(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void paintEvent(QPaintEvent *event) override;

  private:
    QString number(const QString &text) const;
    bool edited() const;

    bool whole_ = false;
    bool logarithmic_ = false;
    bool refused_ = false;
    double stepMin_;
    double stepMax_;
};
