#pragma once

#include "encodings/encoding_params.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <vector>

// One setting of a view, declared with the view in the registry: the key sessions save it under
// (a choice by its name, never its position in a list), its range and default, and the
// command-line option that sets it. The window's control for it is the view's child widget whose
// object name is the key; PlotView::bindSettings gives that control its range and default from
// here, so a range is written once. Checked without any widget: the command line and the session
// reader use the same functions the window does.
struct ViewSetting {
    enum class Kind { Choice, Integer, Real, Bool, Text };

    QString key{};
    Kind kind = Kind::Integer;
    QJsonValue defaultValue{};
    QStringList choices{}; // Choice: the value names, in the control's order
    double minimum = 0;    // Integer and Real
    double maximum = 0;
    QString special{}; // Integer and Real: the word shown and typed for the minimum ("fit", "auto")
    // Text: why a text is refused (one sentence), empty when it applies.
    std::function<QString(const QString &)> check{};
    QString flag{};      // command-line option without "--"; empty: sessions and the window only
    QString valueName{}; // the option's value in --help: "NAME", "N"
    QString help{};      // --help's sentence; what the setting allows is added to it
    // Real: the decimals its control shows and keeps; a value with more is refused, so the window
    // and an export from the command line never round it differently.
    int decimals = 2;
    // The schemes the setting means something for (RoPE's q and k); empty: every scheme. The
    // command line refuses the flag under another scheme instead of ignoring it.
    std::vector<pe::SchemeId> schemes{};
    // Text: the flag may be given more than once, its values joined by ", " (--marker 50 --marker 100).
    bool repeatable = false;
    // Text: the Bool setting an empty value on the command line turns off, instead of being refused
    // as every other empty value is (--title '' sets showTitle false).
    QString emptyTurnsOff{};
    // Text: what it accepts, for --help and refusals ("auto or a number"); empty: any text.
    QString allowed{};

    // The setting with its command-line option (flag without "--", its value's name in --help,
    // --help's sentence). A true-or-false setting's flag is a switch that sets the opposite of its
    // default: --transpose turns on, --no-cell-values turns off.
    ViewSetting option(const QString &flagName, const QString &value, const QString &helpText) const
    {
        ViewSetting s = *this;
        s.flag = flagName;
        s.valueName = value;
        s.help = helpText;
        return s;
    }
};
using ViewSettings = std::vector<ViewSetting>;

// The longest text a Text setting holds (its line edit's maximum length too).
inline constexpr int kMaxSettingText = 1000;

const ViewSetting *findSetting(const ViewSettings &settings, const QString &key);

// What a setting accepts: "a whole number from 1 to 36", "dot, cosine or euclidean".
QString allowedText(const ViewSetting &setting);

// One value as a session holds it: the reason in one sentence when refused. A choice may also be
// its index in the list, as session files written before choices were saved by name hold it.
std::optional<QString> checkSetting(const ViewSetting &setting, const QJsonValue &value);
// The value as it is saved (a choice's index becomes its name). Only for checked values.
QJsonValue savedSetting(const ViewSetting &setting, const QJsonValue &value);
// Every entry of `values` checked, unknown keys refused: the first problem, naming the key.
std::optional<QString> checkSettings(const ViewSettings &settings, const QJsonObject &values);
// `values` with every setting it lacks at its default, and choices by name.
QJsonObject completeSettings(const ViewSettings &settings, const QJsonObject &values);

// A command-line value as the setting's value: a choice's name, a number (or the special word),
// a text. Nothing, with `error` one sentence, when it is refused.
std::optional<QJsonValue> settingFromText(const ViewSetting &setting, const QString &text, QString *error);

// Reading completed settings (completeSettings) in a view or a data export.
int choiceIndex(const ViewSetting &setting, const QJsonValue &value);
QString choiceName(const QJsonObject &settings, const QString &key);
