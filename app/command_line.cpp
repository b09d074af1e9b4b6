// parseCommandLine: the checks every flag passes, then the stages in order; and a view's settings as asked.
#include "command_line.h"

#include "command_line_internal.h"
#include "command_line_options.h"

#include "state/view_registry.h"

#include <QCommandLineParser>

QJsonObject viewSettings(const CommandLine &cmd, const ViewInfo &view)
{
    QJsonObject values = cmd.session ? cmd.session->views.value(view.id) : QJsonObject();
    const QJsonObject flags = cmd.viewSettings.value(view.id);
    for (auto it = flags.begin(); it != flags.end(); ++it)
        values.insert(it.key(), it.value());
    return completeSettings(view.settings, values);
}

DataRequest dataRequest(const CommandLine &cmd, const ViewInfo &view)
{
    return {std::make_shared<const pe::Encoding>(cmd.params), cmd.noise, cmd.position, viewSettings(cmd, view)};
}

// The view setting a flag sets (the first view declaring it: views sharing a flag declare it
// alike), or null for the command line's own flags.
const ViewSetting *cli::settingOfFlag(const QString &flag)
{
    for (const ViewInfo &view : viewRegistry())
        for (const ViewSetting &setting : view.settings)
            if (setting.flag == flag)
                return &setting;
    return nullptr;
}

namespace {

// What is wrong with the line before any flag's value is read: an unknown flag, a word without
// --, a flag given twice, an empty value.
std::optional<QString> flagsProblem(QCommandLineParser &parser, const QStringList &args)
{
    if (!parser.parse(args))
        return parser.errorText() + QStringLiteral(" See --help.");
    if (!parser.positionalArguments().isEmpty())
        return QStringLiteral("unexpected argument '%1'; every option starts with --. See --help.")
            .arg(parser.positionalArguments().first());
    for (const QString &name : parser.optionNames()) {
        const ViewSetting *setting = cli::settingOfFlag(name);
        if (parser.values(name).size() > 1 && !(setting && setting->repeatable))
            return QStringLiteral("--%1 is given more than once.").arg(name);
    }
    // An empty or blank value is never what was meant (--export "" drew the first view; --vmax ' '
    // was read as auto): refused for every option that takes one, but a setting's that an empty
    // value turns off (--title '').
    for (const QCommandLineOption &option : options()) {
        const QString name = option.names().constLast();
        const ViewSetting *setting = cli::settingOfFlag(name);
        if (!option.valueName().isEmpty() && parser.isSet(name) && parser.value(name).trimmed().isEmpty() &&
            !(setting && !setting->emptyTurnsOff.isEmpty()))
            return QStringLiteral("--%1: the value is empty; give %2 (see --help).").arg(name, option.valueName());
    }
    return std::nullopt;
}

// --help, --version, --list-presets, --list-lectures, --list-tensors and --model-info: the mode, and nothing else is
// read.
bool readInformation(const QCommandLineParser &parser, CommandLine &cmd)
{
    for (auto [flag, mode] : {std::pair{QStringLiteral("list-tensors"), CommandLine::Mode::ListTensors},
                              std::pair{QStringLiteral("model-info"), CommandLine::Mode::ModelInfo}})
        if (parser.isSet(flag)) {
            cmd.mode = mode;
            cmd.listFile = parser.value(flag);
            return true;
        }
    for (auto [flag, mode] : {std::pair{QStringLiteral("help"), CommandLine::Mode::Help},
                              std::pair{QStringLiteral("version"), CommandLine::Mode::Version},
                              std::pair{QStringLiteral("list-presets"), CommandLine::Mode::ListPresets},
                              std::pair{QStringLiteral("list-lectures"), CommandLine::Mode::ListLectures}})
        if (parser.isSet(flag)) {
            cmd.mode = mode;
            return true;
        }
    return false;
}

} // namespace

ParsedCommandLine parseCommandLine(const QStringList &args)
{
    ParsedCommandLine result;
    CommandLine &cmd = result.command;
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOptions(options());
    auto fail = [&result](const QString &message) {
        result.error = oneLine(message); // it may quote what was typed
        return result;
    };
    if (auto error = flagsProblem(parser, args))
        return fail(*error);
    if (readInformation(parser, cmd)) {
        // --model-info says what the file gives: a flag that would change it is not applied there.
        if (cmd.mode == CommandLine::Mode::ModelInfo && cli::givesState(parser, cmd))
            return fail(QStringLiteral("--model-info shows the file alone; give the other flags to --model FILE."));
        return result;
    }
    // A session or preset gives the parameters, the position and the noise; flags given with it
    // change what they name ("yarn-x4, but x8": --preset yarn-x4 --factor 8), checked as always.
    for (const cli::Stage stage :
         {cli::readLecture, cli::readTheme, cli::readSource, cli::readScheme, cli::readFrequencies,
          cli::readSchemeParameters, cli::readPosition, cli::readNoise, cli::readViewSettings, cli::carryIntoSession,
          cli::readOutputs, cli::readFigureOptions, cli::readExport, cli::readRealPositions})
        if (auto error = stage(parser, cmd))
            return fail(*error);
    // A plain launch (no parameters, no session, no export) brings the window back as it was closed.
    cmd.restoreLast =
        cmd.mode == CommandLine::Mode::Window && !cli::givesState(parser, cmd) && !parser.isSet(QStringLiteral("view"));
    return result;
}
