#include "window/scientific_spin_box.h"

#include "encodings/encoding_params.h"

#include <QKeyEvent>
#include <QLineEdit>
#include <QPainter>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

// Whole numbers stay exact in a double up to 2^53.
constexpr double kMaxWhole = 9007199254740991.0;

} // namespace

ScientificSpinBox::ScientificSpinBox(QWidget *parent)
    : QDoubleSpinBox(parent)
    , stepMin_(-std::numeric_limits<double>::max())
    , stepMax_(std::numeric_limits<double>::max())
{
    // Decimals bound what QDoubleSpinBox rounds to; 9 keeps bases like 1.000001 intact.
    setDecimals(9);
    setRange(-std::numeric_limits<double>::max(), std::numeric_limits<double>::max());
    setKeyboardTracking(false);
}

void ScientificSpinBox::setWholeNumbers(bool on)
{
    whole_ = on;
    setRange(on ? -kMaxWhole : -std::numeric_limits<double>::max(),
             on ? kMaxWhole : std::numeric_limits<double>::max());
    setValue(value());
}

void ScientificSpinBox::setStepRange(double min, double max)
{
    stepMin_ = min;
    stepMax_ = max;
    update(); // the arrows' enabled state
}

void ScientificSpinBox::setRefused(bool refused)
{
    if (refused == refused_)
        return;
    refused_ = refused;
    update();
}

QColor ScientificSpinBox::refusedColor(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128 ? QColor(255, 110, 110) : QColor(192, 0, 32);
}

QString ScientificSpinBox::textFromValue(double value) const
{
    if (whole_) {
        QLocale grouped = locale();
        grouped.setNumberOptions(grouped.numberOptions() & ~QLocale::OmitGroupSeparator);
        return grouped.toString(static_cast<qlonglong>(value));
    }
    return QString::fromStdString(pe::compactNumber(value));
}

double ScientificSpinBox::valueFromText(const QString &text) const
{
    // The text shown for the current value means that value, not its rounded display (1.02329...).
    if (text == prefix() + textFromValue(value()) + suffix() || text == textFromValue(value()))
        return value();
    return pe::parseReal(number(text).toStdString()).value_or(value());
}

QValidator::State ScientificSpinBox::validate(QString &text, int &) const
{
    const QString n = number(text);
    if (whole_) {
        static const QRegularExpression digits(QStringLiteral("^[+-]?[0-9]*$"));
        if (!digits.match(n).hasMatch())
            return QValidator::Invalid;
        const auto v = pe::parseInteger(n.toStdString());
        if (!v)
            return n.size() <= 1 ? QValidator::Intermediate : QValidator::Invalid; // "", "-", or too long to hold
        return std::abs(static_cast<double>(*v)) <= kMaxWhole ? QValidator::Acceptable : QValidator::Invalid;
    }
    static const QRegularExpression partial(QStringLiteral("^[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]*)?([eE][+-]?[0-9]*)?$"));
    if (!partial.match(n).hasMatch())
        return QValidator::Invalid;
    const auto v = pe::parseReal(n.toStdString());
    return v && std::isfinite(*v) ? QValidator::Acceptable : QValidator::Intermediate;
}

void ScientificSpinBox::fixup(QString &) const
{
    // Nothing to correct: out-of-range values are the owner's to refuse, with its reason.
}

void ScientificSpinBox::stepBy(int steps)
{
    const double v = value();
    const double next = logarithmic_ ? (v > 0 ? v * std::pow(10.0, 0.1 * steps) : stepMin_) : v + steps * singleStep();
    setValue(std::clamp(next, stepMin_, stepMax_));
}

QAbstractSpinBox::StepEnabled ScientificSpinBox::stepEnabled() const
{
    if (isReadOnly())
        return StepNone;
    StepEnabled out = StepNone;
    if (value() < stepMax_)
        out |= StepUpEnabled;
    if (value() > stepMin_)
        out |= StepDownEnabled;
    return out;
}

bool ScientificSpinBox::event(QEvent *event)
{
    // Esc belongs to the field while it has something to undo, before any window shortcut.
    if (event->type() == QEvent::ShortcutOverride && static_cast<QKeyEvent *>(event)->key() == Qt::Key_Escape &&
        (refused_ || edited())) {
        event->accept();
        return true;
    }
    return QDoubleSpinBox::event(event);
}

void ScientificSpinBox::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape && (refused_ || edited())) {
        emit escapePressed();
        event->accept();
        return;
    }
    QDoubleSpinBox::keyPressEvent(event);
}

void ScientificSpinBox::paintEvent(QPaintEvent *event)
{
    QDoubleSpinBox::paintEvent(event);
    if (!refused_)
        return;
    QPainter painter(this);
    painter.setPen(QPen(refusedColor(palette()), 2));
    painter.drawRect(QRectF(rect()).adjusted(1, 1, -1, -1));
}

QString ScientificSpinBox::number(const QString &text) const
{
    QString n = text;
    if (!prefix().isEmpty() && n.startsWith(prefix()))
        n.remove(0, prefix().size());
    if (!suffix().isEmpty() && n.endsWith(suffix()))
        n.chop(suffix().size());
    n = n.trimmed();
    if (whole_)
        n.remove(locale().groupSeparator());
    return n;
}

bool ScientificSpinBox::edited() const
{
    return lineEdit()->text() != prefix() + textFromValue(value()) + suffix();
}
