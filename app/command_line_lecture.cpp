// --lecture-file, --lecture-step and --export-lecture's lecture; --theme.
#include "command_line_internal.h"

#include "state/view_registry.h"

#include <QCommandLineParser>

std::optional<QString> cli::readLecture(const QCommandLineParser &parser, CommandLine &cmd)
{
    if (!parser.isSet(QStringLiteral("lecture-file"))) {
        for (const char *flag : {"lecture-step", "export-lecture"})
            if (parser.isSet(QLatin1String(flag)))
                return QStringLiteral("--%1 goes with --lecture-file NAME|FILE (--list-lectures lists the built-in "
                                      "ones).")
                    .arg(QLatin1String(flag));
        return std::nullopt;
    }
    // Every step is a complete state: a flag that would change one step alone is refused.
    if (givesState(parser, cmd) || parser.isSet(QStringLiteral("session")) || parser.isSet(QStringLiteral("preset")))
        return QStringLiteral("--lecture-file: every step gives its own state; give no --session, --preset, "
                              "--model or parameter with it.");
    for (const QString &name : parser.optionNames())
        if (settingOfFlag(name) || name == QLatin1String("view"))
            return QStringLiteral("--lecture-file: every step names its view and settings; --%1 would change one "
                                  "step alone.")
                .arg(name);
    for (const char *flag : {"export", "export-data", "export-frames"})
        if (parser.isSet(QLatin1String(flag)))
            return QStringLiteral("--lecture-file goes with the window, --screenshot or --export-lecture, not --%1.")
                .arg(QLatin1String(flag));
    QString error;
    cmd.lectureFile = openLecture(parser.value(QStringLiteral("lecture-file")), &error);
    if (!cmd.lectureFile)
        return QStringLiteral("--lecture-file: ") + error;
    const auto steps = static_cast<std::int64_t>(cmd.lectureFile->steps.size());
    if (parser.isSet(QStringLiteral("lecture-step"))) {
        const QString text = parser.value(QStringLiteral("lecture-step"));
        bool ok = false;
        const qlonglong step = text.trimmed().toLongLong(&ok);
        if (!ok || step < 1 || step > steps)
            return QStringLiteral(
                       "--lecture-step: '%1' is not a step of the lecture; give a whole number from 1 to %2.")
                .arg(text.left(40))
                .arg(steps);
        cmd.lectureStep = static_cast<int>(step - 1);
    }
    // The step's state is what the window opens with (and the screenshot shows).
    cmd.session = cmd.lectureFile->steps[static_cast<std::size_t>(cmd.lectureStep)].state;
    return std::nullopt;
}

std::optional<QString> cli::readTheme(const QCommandLineParser &parser, CommandLine &cmd)
{
    if (!parser.isSet(QStringLiteral("theme")))
        return std::nullopt;
    if (parser.isSet(QStringLiteral("export-data")))
        return QStringLiteral("--theme colours the window and figures; --export-data writes numbers alone.");
    cmd.theme = themeNamed(parser.value(QStringLiteral("theme")).trimmed());
    if (!cmd.theme)
        return QStringLiteral("--theme: '%1' is not a theme; use %2.")
            .arg(parser.value(QStringLiteral("theme")).left(40), themeNames().join(QStringLiteral(", ")));
    return std::nullopt;
}
