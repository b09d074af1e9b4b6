#pragma once

#include "state/view_settings.h"

#include <QJsonObject>
#include <QObject>

#include <optional>

// One view's settings as a typed object: every setting its registry entry declares, always complete
// and always valid, read by kind (a choice by its name, never its position in a list). The
// workspace owns one for each view of the registry; a view only reads it, its controls only edit
// it, and sessions, undo and the command line set it without any widget.
class ViewState : public QObject
{
    Q_OBJECT

  public:
    // Every setting at its declared default.
    explicit ViewState(ViewSettings declared, QObject *parent = nullptr);

    const ViewSettings &declared() const { return declared_; }
    const QJsonObject &values() const { return values_; }

    // A setting's value by kind. Asking for a key the view does not declare, or as another kind,
    // is a programming error and stops the program (qFatal), as a misspelt key must not read as a
    // default.
    QString choice(const QString &key) const;
    int integer(const QString &key) const;
    double real(const QString &key) const;
    bool flag(const QString &key) const;
    QString text(const QString &key) const;

    // Merges `changes` (checked first: nothing changes when one is refused, and the reason names
    // the setting); changed() when a value differs.
    std::optional<QString> set(const QJsonObject &changes);
    // Every setting to its default: what a session that does not name this view leaves.
    void reset();
    // The declared keys whose values differ between a and b, in declared order.
    QStringList changedKeys(const QJsonObject &a, const QJsonObject &b) const;

  signals:
    // After a change: the values before and after, and the keys whose values differ.
    void changed(const QJsonObject &before, const QJsonObject &after, const QStringList &keys);

  private:
    QJsonValue checked(const QString &key, ViewSetting::Kind kind) const;
    void replace(QJsonObject values);

    ViewSettings declared_;
    QJsonObject values_;
};
