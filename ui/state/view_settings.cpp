#include "state/view_settings.h"

#include "encodings/encoding_params.h"
#include "state/session.h"

#include <QCoreApplication>

#include <cmath>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("ViewSetting", text);
}

QString number(double v)
{
    if (v == std::floor(v) && std::abs(v) < 1e15)
        return QString::fromStdString(pe::withThousands(static_cast<std::int64_t>(v)));
    return QString::number(v, 'g', 6);
}

// "a, b or c"
QString orList(const QStringList &names)
{
    if (names.size() < 2)
        return names.join(QString());
    return names.mid(0, names.size() - 1).join(QStringLiteral(", ")) + tr(" or ") + names.constLast();
}

bool isWhole(double d)
{
    return std::isfinite(d) && d == std::floor(d);
}

} // namespace

const ViewSetting *findSetting(const ViewSettings &settings, const QString &key)
{
    for (const ViewSetting &s : settings)
        if (s.key == key)
            return &s;
    return nullptr;
}

QString allowedText(const ViewSetting &s)
{
    // The minimum of a setting with a special word is that word ("auto", "fit").
    switch (s.kind) {
    case ViewSetting::Kind::Choice:
        return orList(s.choices);
    case ViewSetting::Kind::Integer:
        if (!s.special.isEmpty())
            return tr("%1 or a whole number from %2 to %3").arg(s.special, number(s.minimum + 1), number(s.maximum));
        return tr("a whole number from %1 to %2").arg(number(s.minimum), number(s.maximum));
    case ViewSetting::Kind::Real:
        if (!s.special.isEmpty())
            return tr("%1 or a number above %2 and at most %3, with at most %4 decimals")
                .arg(s.special, number(s.minimum), number(s.maximum))
                .arg(s.decimals);
        return tr("a number from %1 to %2 with at most %3 decimals")
            .arg(number(s.minimum), number(s.maximum))
            .arg(s.decimals);
    case ViewSetting::Kind::Bool:
        return tr("true or false");
    case ViewSetting::Kind::Text:
        return s.allowed.isEmpty() ? tr("a text of at most %1 characters").arg(kMaxSettingText) : s.allowed;
    }
    return {};
}

std::optional<QString> checkSetting(const ViewSetting &s, const QJsonValue &v)
{
    const double d = v.toDouble(std::nan(""));
    const auto refuse = [&s] { return tr("'%1' must be %2.").arg(s.key, allowedText(s)); };
    switch (s.kind) {
    case ViewSetting::Kind::Choice:
        if (v.isString() && s.choices.contains(v.toString()))
            return std::nullopt;
        if (v.isDouble() && isWhole(d) && d >= 0 && d < s.choices.size())
            return std::nullopt; // an index, from a file written before names
        return refuse();
    case ViewSetting::Kind::Integer:
        if (!v.isDouble() || !isWhole(d) || d < s.minimum || d > s.maximum)
            return refuse();
        return std::nullopt;
    case ViewSetting::Kind::Real: {
        if (!v.isDouble() || !std::isfinite(d) || d < s.minimum || d > s.maximum)
            return refuse();
        const double scaled = d * std::pow(10.0, s.decimals);
        if (std::abs(scaled - std::round(scaled)) > 1e-6 * std::max(1.0, std::abs(scaled)))
            return refuse();
        return std::nullopt;
    }
    case ViewSetting::Kind::Bool:
        if (!v.isBool())
            return refuse();
        return std::nullopt;
    case ViewSetting::Kind::Text:
        // A session restores a field's text as it was (the window frames a refused one in red and
        // says why); the command line refuses it (settingFromText).
        if (!v.isString() || v.toString().size() > kMaxSettingText)
            return refuse();
        return std::nullopt;
    }
    return refuse();
}

QJsonValue savedSetting(const ViewSetting &s, const QJsonValue &v)
{
    if (s.kind == ViewSetting::Kind::Choice && v.isDouble())
        return s.choices.value(v.toInt());
    return v;
}

std::optional<QString> checkSettings(const ViewSettings &settings, const QJsonObject &values)
{
    for (auto it = values.begin(); it != values.end(); ++it) {
        const ViewSetting *s = findSetting(settings, it.key());
        if (!s)
            return tr("'%1' is not a setting of this view.").arg(oneLine(it.key().left(40)));
        if (auto problem = checkSetting(*s, it.value()))
            return problem;
    }
    return std::nullopt;
}

QJsonObject completeSettings(const ViewSettings &settings, const QJsonObject &values)
{
    QJsonObject out;
    for (const ViewSetting &s : settings)
        out.insert(s.key, values.contains(s.key) ? savedSetting(s, values.value(s.key)) : s.defaultValue);
    return out;
}

std::optional<QJsonValue> settingFromText(const ViewSetting &s, const QString &text, QString *error)
{
    QJsonValue v;
    switch (s.kind) {
    case ViewSetting::Kind::Choice:
        v = text;
        break;
    case ViewSetting::Kind::Integer:
        if (!s.special.isEmpty() && text == s.special)
            v = s.minimum;
        else if (const auto n = pe::parseInteger(text.toStdString());
                 n && std::abs(*n) < (std::int64_t{1} << 53) && (s.special.isEmpty() || *n != s.minimum))
            v = static_cast<double>(*n); // the minimum of a setting with a special word is typed as the word
        break;
    case ViewSetting::Kind::Real:
        if (!s.special.isEmpty() && text == s.special)
            v = s.minimum;
        else if (const auto x = pe::parseReal(text.toStdString());
                 x && std::isfinite(*x) && (s.special.isEmpty() || *x != s.minimum))
            v = *x;
        break;
    case ViewSetting::Kind::Bool:
        if (text == QLatin1String("true") || text == QLatin1String("false"))
            v = text == QLatin1String("true");
        break;
    case ViewSetting::Kind::Text:
        v = text.trimmed();
        break;
    }
    const bool textRefused =
        s.kind == ViewSetting::Kind::Text && s.check && !v.isUndefined() && !s.check(v.toString()).isEmpty();
    if (!v.isUndefined() && !checkSetting(s, v) && !textRefused)
        return v;
    if (error)
        *error = s.kind == ViewSetting::Kind::Text && s.check && !v.isUndefined() && !s.check(v.toString()).isEmpty()
                     ? s.check(v.toString())
                     : tr("must be %1 (got '%2').").arg(allowedText(s), oneLine(text.left(60)));
    return std::nullopt;
}

int choiceIndex(const ViewSetting &s, const QJsonValue &v)
{
    return v.isDouble() ? v.toInt() : static_cast<int>(s.choices.indexOf(v.toString()));
}

QString choiceName(const QJsonObject &settings, const QString &key)
{
    return settings.value(key).toString();
}
