#include "scientific_spin_box.h"

#include "encoding_params.h"

#include <cmath>

ScientificSpinBox::ScientificSpinBox(QWidget *parent)
    : QDoubleSpinBox(parent)
{
    // Decimals bound what QDoubleSpinBox rounds to; 9 keeps bases like 1.000001 intact.
    setDecimals(9);
    setKeyboardTracking(false);
}

QString ScientificSpinBox::textFromValue(double value) const
{
    return QString::fromStdString(pe::compactNumber(value));
}

double ScientificSpinBox::valueFromText(const QString &text) const
{
    return pe::parseReal(text.trimmed().toStdString()).value_or(value());
}

QValidator::State ScientificSpinBox::validate(QString &text, int &) const
{
    const auto v = pe::parseReal(text.trimmed().toStdString());
    if (!v)
        return QValidator::Intermediate;
    return *v >= minimum() && *v <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
}

void ScientificSpinBox::stepBy(int steps)
{
    setValue(value() * std::pow(10.0, 0.1 * steps));
}
