#include "state/view_state.h"

#include <QStringList>

ViewState::ViewState(ViewSettings declared, QObject *parent)
    : QObject(parent)
    , declared_(std::move(declared))
    , values_(completeSettings(declared_, {}))
{
}

QJsonValue ViewState::checked(const QString &key, ViewSetting::Kind kind) const
{
    const ViewSetting *s = findSetting(declared_, key);
    if (!s || s->kind != kind)
        qFatal("ViewState: '%s' is not a setting of this kind here", qPrintable(key));
    return values_.value(key);
}

QString ViewState::choice(const QString &key) const
{
    return checked(key, ViewSetting::Kind::Choice).toString();
}

int ViewState::integer(const QString &key) const
{
    return checked(key, ViewSetting::Kind::Integer).toInt();
}

double ViewState::real(const QString &key) const
{
    return checked(key, ViewSetting::Kind::Real).toDouble();
}

bool ViewState::flag(const QString &key) const
{
    return checked(key, ViewSetting::Kind::Bool).toBool();
}

QString ViewState::text(const QString &key) const
{
    return checked(key, ViewSetting::Kind::Text).toString();
}

std::optional<QString> ViewState::set(const QJsonObject &changes)
{
    if (auto problem = checkSettings(declared_, changes))
        return problem;
    QJsonObject next = values_;
    for (auto it = changes.begin(); it != changes.end(); ++it)
        next.insert(it.key(), savedSetting(*findSetting(declared_, it.key()), it.value()));
    replace(std::move(next));
    return std::nullopt;
}

void ViewState::reset()
{
    replace(completeSettings(declared_, {}));
}

QStringList ViewState::changedKeys(const QJsonObject &a, const QJsonObject &b) const
{
    QStringList keys;
    for (const ViewSetting &s : declared_)
        if (a.value(s.key) != b.value(s.key))
            keys << s.key;
    return keys;
}

void ViewState::replace(QJsonObject values)
{
    if (values == values_)
        return;
    const QStringList keys = changedKeys(values_, values);
    const QJsonObject before = std::exchange(values_, std::move(values));
    emit changed(before, values_, keys);
}
