#pragma once

#include <QDoubleSpinBox>

// A spin box for values spanning many decades (the base: 1e2 to 1e15): shown in scientific
// notation when large, typed in any notation ("10000", "1e4"), stepped by a tenth of a decade.
class ScientificSpinBox : public QDoubleSpinBox
{
    Q_OBJECT

public:
    explicit ScientificSpinBox(QWidget *parent = nullptr);

    QString textFromValue(double value) const override;
    double valueFromText(const QString &text) const override;
    QValidator::State validate(QString &text, int &pos) const override;
    void stepBy(int steps) override;
};
