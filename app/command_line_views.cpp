// The command line's view-settings stage: the flags the views declare (ViewInfo::settings).
#include "command_line_internal.h"

#include "encodings/scheme.h"
#include "state/view_registry.h"

#include <QCommandLineParser>
#include <QStringList>

#include <algorithm>

QString cli::schemeRefusal(const QString &flag, const pe::EncodingParams &p)
{
    QStringList schemes;
    for (const ViewInfo &view : viewRegistry())
        for (const ViewSetting &s : view.settings) {
            if (s.flag != flag)
                continue;
            if (s.schemes.empty() || std::find(s.schemes.begin(), s.schemes.end(), p.scheme) != s.schemes.end())
                return {};
            for (pe::SchemeId id : s.schemes)
                if (const QString name = QString::fromUtf8(pe::schemeName(id).data()); !schemes.contains(name))
                    schemes << name;
        }
    // A table is opened, not named: said as the file it is.
    const QString current = p.table
                                ? QStringLiteral("a position table (%1)").arg(QString::fromStdString(pe::tableName(p)))
                                : QString::fromUtf8(pe::schemeName(p.scheme).data());
    return QStringLiteral("--%1 applies to the %2 scheme (--scheme %3), not to %4.")
        .arg(flag, schemes.join(QStringLiteral(" or ")), schemes.first(), current);
}

bool cli::gridMeansPanels(const QCommandLineParser &parser)
{
    const QStringList panels = parser.value(QStringLiteral("export")).split(QLatin1Char(','));
    return parser.isSet(QStringLiteral("grid")) && !parser.isSet(QStringLiteral("panels")) && panels.size() > 1 &&
           !std::any_of(panels.begin(), panels.end(),
                        [](const QString &id) { return id.trimmed() == QLatin1String("grid"); });
}

// Each flag checked as a session's value is, and kept for every view that declares it; refused
// under a scheme none of them means it for.
std::optional<QString> cli::readViewSettings(const QCommandLineParser &parser, CommandLine &cmd)
{
    for (const ViewInfo &view : viewRegistry())
        for (const ViewSetting &setting : view.settings) {
            if (setting.flag.isEmpty() || !parser.isSet(setting.flag))
                continue;
            if (setting.flag == QLatin1String("grid") && gridMeansPanels(parser))
                continue; // the panels' grid (readExport)
            if (const QString why = schemeRefusal(setting.flag, cmd.params); !why.isEmpty())
                return why;
            QString error;
            // A switch sets the opposite of its setting's default (--transpose, --no-cell-values).
            const auto value =
                setting.kind == ViewSetting::Kind::Bool
                    ? std::optional<QJsonValue>(!setting.defaultValue.toBool())
                    : settingFromText(setting,
                                      setting.repeatable ? parser.values(setting.flag).join(QStringLiteral(", "))
                                                         : parser.value(setting.flag),
                                      &error);
            if (!value)
                return QStringLiteral("--%1: %2").arg(setting.flag, error);
            if (!setting.emptyTurnsOff.isEmpty() && value->toString().isEmpty()) {
                cmd.viewSettings[view.id].insert(setting.emptyTurnsOff, false);
                continue;
            }
            cmd.viewSettings[view.id].insert(setting.key, *value);
        }
    return std::nullopt;
}

std::optional<QString> cli::carryIntoSession(const QCommandLineParser &, CommandLine &cmd)
{
    if (cmd.session) { // with what the flags changed
        cmd.session->params = cmd.params;
        cmd.session->noise = cmd.noise;
        cmd.session->position = static_cast<double>(cmd.position) + cmd.fraction;
    }
    return std::nullopt;
}
