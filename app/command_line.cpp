#include "command_line.h"

#include "encodings/scheme_parameters.h"

#include "command_line_options.h"

#include "encodings/position_table.h"
#include "encodings/scheme.h"
#include "export/data_export.h"
#include "figures/gif_writer.h"
#include "state/view_registry.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

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

namespace {

std::optional<QString> integerFlag(const QCommandLineParser &parser, const QString &name, std::int64_t &target,
                                   pe::Field field)
{
    if (!parser.isSet(name))
        return std::nullopt;
    const QString text = parser.value(name);
    const auto v = pe::parseInteger(text.toStdString());
    if (!v)
        return QStringLiteral("--%1: '%2' is not a whole number; %3 must be %4.")
            .arg(name, text, QString::fromUtf8(pe::fieldName(field).data()), allowed(field));
    target = *v;
    return std::nullopt;
}

// A figure flag's number from lo to hi, whole or a number of points; otherwise the refusal.
std::optional<double> boundedFlag(const QCommandLineParser &parser, const QString &name, bool whole, double lo,
                                  double hi, QString *error)
{
    const QString text = parser.value(name);
    std::optional<double> v;
    if (!whole)
        v = pe::parseReal(text.toStdString());
    else if (const auto i = pe::parseInteger(text.toStdString()))
        v = static_cast<double>(*i);
    if (!v || *v < lo || *v > hi) {
        *error = QStringLiteral("--%1: must be %2 from %3 to %4 (got '%5').")
                     .arg(name, whole ? QStringLiteral("a whole number") : QStringLiteral("a number of points"))
                     .arg(lo)
                     .arg(hi)
                     .arg(text);
        return std::nullopt;
    }
    return v;
}

// Why a view flag means nothing under p's scheme; empty when a view declaring it takes the scheme.
QString schemeRefusal(const QString &flag, const pe::EncodingParams &p)
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
    return QStringLiteral("--%1 applies to the %2 scheme (--scheme %3), not to %4.")
        .arg(flag, schemes.join(QStringLiteral(" or ")), schemes.first(),
             QString::fromUtf8(pe::schemeName(p.scheme).data()));
}

// Why the view of an export cannot be drawn with these settings (ViewInfo::cannotDraw).
std::optional<QString> drawProblem(const CommandLine &cmd)
{
    const ViewInfo *view = findView(cmd.view);
    if (!view->cannotDraw)
        return std::nullopt;
    const QString why = view->cannotDraw(dataRequest(cmd, *view));
    return why.isEmpty() ? std::nullopt : std::optional(why);
}

// A folder an export writes into: one that exists, or a new one whose name does not end like a
// file (--export all --out x.png once made a folder named x.png, --export-frames clocks.mp4 a folder
// named clocks.mp4). A file's ending: a letter, then up to four letters or digits.
std::optional<QString> folderProblem(const QString &dir)
{
    const QFileInfo info(dir);
    if (info.isDir())
        return std::nullopt;
    if (info.exists())
        return QStringLiteral("'%1' must be a folder (it is created if missing).").arg(dir);
    static const QRegularExpression fileEnding(QStringLiteral("^[A-Za-z][A-Za-z0-9]{0,4}$"));
    if (fileEnding.match(info.suffix()).hasMatch())
        return QStringLiteral("'%1' must be a folder, but its name ends in .%2 like a file; name a folder (it is "
                              "created if missing).")
            .arg(dir, info.suffix());
    return std::nullopt;
}

// The view setting a flag sets (the first view declaring it: views sharing a flag declare it
// alike), or null for the command line's own flags.
const ViewSetting *settingOfFlag(const QString &flag)
{
    for (const ViewInfo &view : viewRegistry())
        for (const ViewSetting &setting : view.settings)
            if (setting.flag == flag)
                return &setting;
    return nullptr;
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
    if (!parser.parse(args))
        return fail(parser.errorText() + QStringLiteral(" See --help."));
    if (!parser.positionalArguments().isEmpty())
        return fail(QStringLiteral("unexpected argument '%1'; every option starts with --. See --help.")
                        .arg(parser.positionalArguments().first()));
    for (const QString &name : parser.optionNames()) {
        const ViewSetting *setting = settingOfFlag(name);
        if (parser.values(name).size() > 1 && !(setting && setting->repeatable))
            return fail(QStringLiteral("--%1 is given more than once.").arg(name));
    }
    // An empty value is never what was meant (--export "" drew the first view): refused for every
    // option that takes one, but a setting's that an empty value turns off (--title '').
    for (const QCommandLineOption &option : options()) {
        const QString name = option.names().constLast();
        const ViewSetting *setting = settingOfFlag(name);
        if (!option.valueName().isEmpty() && parser.isSet(name) && parser.value(name).isEmpty() &&
            !(setting && !setting->emptyTurnsOff.isEmpty()))
            return fail(
                QStringLiteral("--%1: the value is empty; give %2 (see --help).").arg(name, option.valueName()));
    }
    if (parser.isSet(QStringLiteral("help"))) {
        cmd.mode = CommandLine::Mode::Help;
        return result;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        cmd.mode = CommandLine::Mode::Version;
        return result;
    }
    if (parser.isSet(QStringLiteral("list-presets"))) {
        cmd.mode = CommandLine::Mode::ListPresets;
        return result;
    }
    // A session or preset gives the parameters, the position and the noise; flags given with it
    // change what they name ("yarn-x4, but x8": --preset yarn-x4 --factor 8), checked as always.
    static const QStringList stateFlags{
        QStringLiteral("scheme"),    QStringLiteral("seq-len"), QStringLiteral("d-model"),  QStringLiteral("base"),
        QStringLiteral("start-pos"), QStringLiteral("layout"),  QStringLiteral("exponent"), QStringLiteral("position"),
        QStringLiteral("reference"), QStringLiteral("noise"),   QStringLiteral("seed"),     QStringLiteral("table"),
        QStringLiteral("rng")};
    QStringList schemeFlags;
    for (const pe::SchemeParameter &sp : pe::schemeParameters())
        schemeFlags << QString::fromStdString(sp.flag());
    const bool fromSession = parser.isSet(QStringLiteral("session")),
               fromPreset = parser.isSet(QStringLiteral("preset"));
    if (fromSession && fromPreset)
        return fail(QStringLiteral("--session and --preset exclude each other; give one."));
    if (fromSession || fromPreset) {
        QString error;
        if (fromSession) {
            cmd.session = readSessionFile(parser.value(QStringLiteral("session")), &error);
            if (!cmd.session)
                return fail(QStringLiteral("--session: ") + error);
        } else {
            const Session *preset = findPreset(parser.value(QStringLiteral("preset")));
            if (!preset)
                return fail(QStringLiteral("--preset: unknown preset '%1'; --list-presets lists them.")
                                .arg(parser.value(QStringLiteral("preset"))));
            cmd.session = *preset;
        }
    }

    pe::EncodingParams &p = cmd.params;
    if (cmd.session) {
        p = cmd.session->params;
        cmd.noise = cmd.session->noise;
    }
    std::shared_ptr<const pe::PositionTable> table;
    if (parser.isSet(QStringLiteral("table"))) {
        try {
            table = pe::PositionTable::open(parser.value(QStringLiteral("table")).toStdString());
        } catch (const std::exception &e) {
            return fail(QStringLiteral("--table: ") + QString::fromStdString(e.what()));
        }
        if (parser.isSet(QStringLiteral("scheme")))
            return fail(QStringLiteral("--scheme: a table is its own scheme; give --scheme or --table, not both."));
    }
    if (parser.isSet(QStringLiteral("scheme"))) {
        const auto scheme = pe::parseScheme(parser.value(QStringLiteral("scheme")).toStdString());
        if (!scheme)
            return fail(QStringLiteral("--scheme: '%1' is not a scheme; use %2.")
                            .arg(parser.value(QStringLiteral("scheme")), allowed(pe::Field::Scheme)));
        p.scheme = *scheme;
        p.table.reset(); // a session's table gives way to the scheme named
    }
    std::int64_t dModel = p.dModel;
    for (auto [name, target, field] : {std::tuple{QStringLiteral("seq-len"), &p.seqLen, pe::Field::SeqLen},
                                       std::tuple{QStringLiteral("d-model"), &dModel, pe::Field::DModel},
                                       std::tuple{QStringLiteral("start-pos"), &p.startPos, pe::Field::StartPos}})
        if (auto error = integerFlag(parser, name, *target, field))
            return fail(*error);
    if (dModel < pe::limits::minDModel || dModel > pe::limits::maxDModel)
        return fail(
            QStringLiteral("--d-model: d_model must be %1 (got %2).").arg(allowed(pe::Field::DModel)).arg(dModel));
    p.dModel = static_cast<int>(dModel);
    if (table) {
        // The table sets d_model and, unless given, seq_len; a --d-model given stays, for the
        // validator to hold against the table's columns.
        p = pe::tableParams(p, table, parser.isSet(QStringLiteral("seq-len")));
        if (parser.isSet(QStringLiteral("d-model")))
            p.dModel = static_cast<int>(dModel);
    }
    // A flag for a parameter the scheme does not take is refused with the scheme's reason
    // (d_model of a table is held against its columns by the validator instead).
    // The layout is left to the validator: a table's is interleaved, and only split is refused.
    // For a table, d_model and the layout are the validator's to hold against the file.
    for (const pe::Field f : {pe::Field::Base, pe::Field::Exponent, pe::Field::DModel, pe::Field::Layout})
        if (const QString flag = flagFor(f); parser.isSet(flag.mid(2)) && !pe::takes(p, f) &&
                                             !(p.table && (f == pe::Field::DModel || f == pe::Field::Layout)))
            return fail(QStringLiteral("%1: %2").arg(flag, QString::fromStdString(pe::notApplicable(p, f))));
    if (parser.isSet(QStringLiteral("base"))) {
        const auto v = pe::parseReal(parser.value(QStringLiteral("base")).toStdString());
        if (!v)
            return fail(QStringLiteral("--base: '%1' is not a number; base must be %2.")
                            .arg(parser.value(QStringLiteral("base")), allowed(pe::Field::Base)));
        p.base = *v;
    }
    if (parser.isSet(QStringLiteral("layout"))) {
        const auto v = pe::parseLayout(parser.value(QStringLiteral("layout")).toStdString());
        if (!v)
            return fail(QStringLiteral("--layout: '%1' is not a layout; use %2.")
                            .arg(parser.value(QStringLiteral("layout")), allowed(pe::Field::Layout)));
        p.layout = *v;
    }
    if (parser.isSet(QStringLiteral("exponent"))) {
        const auto v = pe::parseExponent(parser.value(QStringLiteral("exponent")).toStdString());
        if (!v)
            return fail(QStringLiteral("--exponent: '%1' is not an exponent; use %2.")
                            .arg(parser.value(QStringLiteral("exponent")), allowed(pe::Field::Exponent)));
        p.exponent = *v;
    }
    // The scheme's own parameters in the table's order, so a scaling is known before its factor.
    for (const pe::SchemeParameter &sp : pe::schemeParameters()) {
        const QString flag = QString::fromStdString(sp.flag());
        if (!parser.isSet(flag))
            continue;
        if (!pe::takes(p, sp.field))
            return fail(QStringLiteral("--%1: %2").arg(flag, QString::fromStdString(pe::notApplicable(p, sp.field))));
        std::string error;
        const auto v = pe::parseParameter(sp, parser.value(flag).toStdString(), &error);
        if (!v)
            return fail(QStringLiteral("--%1: %2").arg(flag, QString::fromStdString(error)));
        sp.set(p, *v);
    }
    if (auto error = pe::validate(p)) {
        // An order between two parameters is named by the flag given: the other may be the file's
        // or the default ("--heads 4" with a preset's head 9).
        static const std::pair<pe::Field, pe::Field> partners[] = {
            {pe::Field::BetaFast, pe::Field::BetaSlow},
            {pe::Field::HighFreqFactor, pe::Field::LowFreqFactor},
            {pe::Field::Head, pe::Field::Heads}};
        pe::Field field = error->field;
        for (auto [a, b] : partners)
            if (field == a && !parser.isSet(flagFor(a).mid(2)) && parser.isSet(flagFor(b).mid(2)))
                field = b;
        return fail(flagFor(field) + QStringLiteral(": ") + QString::fromStdString(error->message));
    }

    if (parser.isSet(QStringLiteral("position")) && parser.isSet(QStringLiteral("reference")))
        return fail(QStringLiteral("--reference is the current position: give --position or --reference, not both."));
    const QString positionFlag =
        parser.isSet(QStringLiteral("reference")) ? QStringLiteral("reference") : QStringLiteral("position");
    if (parser.isSet(positionFlag)) {
        std::int64_t t = 0;
        const QString text = parser.value(positionFlag);
        const auto v = pe::parseInteger(text.toStdString());
        t = v.value_or(-1);
        if (!v || pe::validatePosition(p, t))
            return fail(QStringLiteral("--%1: must be %2 (got '%3').")
                            .arg(positionFlag, QString::fromStdString(pe::positionAllowedText(p)), text));
        cmd.position = t;
    } else if (cmd.session) {
        // The file's position, which the flags' window must still hold.
        cmd.position = cmd.session->position;
        if (pe::validatePosition(p, cmd.position))
            return fail(QStringLiteral("--position: the %1's position %2 is outside the window given, %3; give "
                                       "--position.")
                            .arg(fromSession ? QStringLiteral("session") : QStringLiteral("preset"))
                            .arg(cmd.position)
                            .arg(QString::fromStdString(pe::positionAllowedText(p))));
    } else {
        cmd.position = p.startPos;
    }

    if (parser.isSet(QStringLiteral("noise"))) {
        const auto v = pe::parseReal(parser.value(QStringLiteral("noise")).toStdString());
        cmd.noise.sigma = v.value_or(-1);
        if (auto error = pe::validateNoise(cmd.noise); error || !v)
            return fail(QStringLiteral("--noise: %1")
                            .arg(v ? QString::fromStdString(*error)
                                   : QStringLiteral("'%1' is not a number; sigma must be %2.")
                                         .arg(parser.value(QStringLiteral("noise")),
                                              QString::fromStdString(pe::sigmaAllowedText()))));
    }
    if (parser.isSet(QStringLiteral("seed"))) {
        const auto v = pe::parseInteger(parser.value(QStringLiteral("seed")).toStdString());
        if (!v || pe::validateSeed(*v))
            return fail(QStringLiteral("--seed: must be %1 (got '%2').")
                            .arg(QString::fromStdString(pe::seedAllowedText()), parser.value(QStringLiteral("seed"))));
        cmd.noise.seed = static_cast<std::uint64_t>(*v);
    }
    if (parser.isSet(QStringLiteral("rng"))) {
        const auto v = pe::parseRng(parser.value(QStringLiteral("rng")).toStdString());
        if (!v)
            return fail(QStringLiteral("--rng: '%1' is not a generator; use %2.")
                            .arg(parser.value(QStringLiteral("rng")), QString::fromStdString(pe::rngAllowedText())));
        cmd.noise.rng = *v;
    }
    if (auto error = pe::validateNoiseFor(p, cmd.noise)) {
        // Named by the flag that asked for more than numpy's draws (a preset's numpy with --seq-len).
        QString flag = QStringLiteral("rng");
        for (const QString &f : {QStringLiteral("rng"), QStringLiteral("seq-len"), QStringLiteral("d-model"),
                                 QStringLiteral("start-pos"), QStringLiteral("noise")})
            if (parser.isSet(f)) {
                flag = f;
                break;
            }
        return fail(QStringLiteral("--%1: %2").arg(flag, QString::fromStdString(*error)));
    }
    // The views' own settings (ViewInfo::settings): each flag checked as a session's value is, and
    // kept for every view that declares it; refused under a scheme none of them means it for.
    for (const ViewInfo &view : viewRegistry())
        for (const ViewSetting &setting : view.settings) {
            if (setting.flag.isEmpty() || !parser.isSet(setting.flag))
                continue;
            if (const QString why = schemeRefusal(setting.flag, p); !why.isEmpty())
                return fail(why);
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
                return fail(QStringLiteral("--%1: %2").arg(setting.flag, error));
            if (!setting.emptyTurnsOff.isEmpty() && value->toString().isEmpty()) {
                cmd.viewSettings[view.id].insert(setting.emptyTurnsOff, false);
                continue;
            }
            cmd.viewSettings[view.id].insert(setting.key, *value);
        }

    if (cmd.session) { // with what the flags changed
        cmd.session->params = cmd.params;
        cmd.session->noise = cmd.noise;
        cmd.session->position = cmd.position;
    }

    const bool figure = parser.isSet(QStringLiteral("export"));
    const bool data = parser.isSet(QStringLiteral("export-data"));
    const bool shot = parser.isSet(QStringLiteral("screenshot"));
    const bool frames = parser.isSet(QStringLiteral("export-frames"));
    if (int(figure) + int(data) + int(shot) + int(frames) > 1)
        return fail(
            QStringLiteral("--export, --export-data, --export-frames and --screenshot exclude each other; give one."));
    for (const char *flag : {"size", "scale", "dpi", "font-size"})
        if (parser.isSet(QLatin1String(flag)) && !figure && !frames)
            return fail(QStringLiteral("--%1 goes with --export or --export-frames.").arg(QLatin1String(flag)));
    if ((parser.isSet(QStringLiteral("frames")) || parser.isSet(QStringLiteral("step")) ||
         parser.isSet(QStringLiteral("fps"))) &&
        !frames)
        return fail(QStringLiteral("--frames, --step and --fps go with --export-frames."));
    if (parser.isSet(QStringLiteral("out")) && !figure && !data)
        return fail(QStringLiteral("--out goes with --export or --export-data."));
    if (parser.isSet(QStringLiteral("view")) && (figure || data))
        return fail(QStringLiteral("--view chooses the window's view or the frames' view; --export names its own."));
    if (parser.isSet(QStringLiteral("lecture")) && (figure || data || frames))
        return fail(QStringLiteral("--lecture goes with the window or --screenshot."));
    cmd.lecture = parser.isSet(QStringLiteral("lecture"));
    cmd.out = parser.value(QStringLiteral("out"));
    if ((figure || data) && cmd.out.isEmpty())
        return fail(QStringLiteral("--out FILE is required with --export and --export-data."));
    cmd.view = figure ? parser.value(QStringLiteral("export")) : parser.value(QStringLiteral("view"));
    if (cmd.view.isEmpty())
        cmd.view = cmd.session ? cmd.session->view : viewIds().first();
    if (!findView(cmd.view) && !(figure && cmd.view == QStringLiteral("all")))
        return fail(QStringLiteral("%1: unknown view '%2'; views are %3.")
                        .arg(figure ? QStringLiteral("--export") : QStringLiteral("--view"), cmd.view,
                             viewIds().join(QStringLiteral(", "))));

    if (figure || frames) {
        if (parser.isSet(QStringLiteral("size")))
            if (auto problem = parseFigureSize(parser.value(QStringLiteral("size")), &cmd.figure))
                return fail(QStringLiteral("--size: ") + *problem);
        if (parser.isSet(QStringLiteral("scale"))) {
            if (cmd.figure.isPhysical())
                return fail(QStringLiteral("--scale: a size in %1 is drawn at --dpi; --scale goes with pixels.")
                                .arg(unitName(cmd.figure.unit)));
            const auto v = pe::parseReal(parser.value(QStringLiteral("scale")).toStdString());
            if (!v)
                return fail(QStringLiteral("--scale: '%1' is not a number; the scale must be from %2 to %3.")
                                .arg(parser.value(QStringLiteral("scale")))
                                .arg(figurelimits::minScale)
                                .arg(figurelimits::maxScale));
            cmd.figure.scale = *v;
        }
        QString error;
        if (parser.isSet(QStringLiteral("dpi"))) {
            const auto v =
                boundedFlag(parser, QStringLiteral("dpi"), true, figurelimits::minDpi, figurelimits::maxDpi, &error);
            if (!v)
                return fail(error);
            cmd.figure.dpi = static_cast<int>(*v);
        }
        if (parser.isSet(QStringLiteral("font-size"))) {
            const auto v = boundedFlag(parser, QStringLiteral("font-size"), false, figurelimits::minFont,
                                       figurelimits::maxFont, &error);
            if (!v)
                return fail(error);
            cmd.figure.fontPoints = *v;
        }
        if (auto problem = checkFigureOptions(cmd.figure)) {
            const QString flag = problem->contains(QStringLiteral("dpi"))     ? QStringLiteral("--dpi: ")
                                 : problem->contains(QStringLiteral("scale")) ? QStringLiteral("--scale: ")
                                                                              : QStringLiteral("--size: ");
            return fail(flag + *problem);
        }
    }
    if (parser.isSet(QStringLiteral("format")) && !(figure && cmd.view == QStringLiteral("all")))
        return fail(QStringLiteral("--format goes with --export all (one figure takes its format from --out)."));
    if (figure && cmd.view == QStringLiteral("all")) {
        cmd.mode = CommandLine::Mode::ExportFigure;
        if (parser.isSet(QStringLiteral("format"))) {
            const auto f = figureFormatForPath(QStringLiteral("x.") + parser.value(QStringLiteral("format")));
            if (!f || parser.value(QStringLiteral("format")).isEmpty())
                return fail(QStringLiteral("--format: '%1' is not a figure format; use png, svg or pdf.")
                                .arg(parser.value(QStringLiteral("format"))));
            cmd.allFormat = *f;
        }
        if (auto problem = folderProblem(cmd.out))
            return fail(QStringLiteral("--out: with --export all, ") + *problem);
    } else if (figure) {
        cmd.mode = CommandLine::Mode::ExportFigure;
        if (auto problem = drawProblem(cmd))
            return fail(QStringLiteral("--export %1: %2").arg(cmd.view, *problem));
        if (auto problem = checkFigurePath(cmd.out))
            return fail(QStringLiteral("--out: ") + *problem);
    } else if (data) {
        cmd.mode = CommandLine::Mode::ExportData;
        cmd.dataKind = parser.value(QStringLiteral("export-data"));
        const auto kind = findDataKind(cmd.dataKind);
        if (!kind)
            return fail(QStringLiteral("--export-data: unknown data '%1'; choose %2.")
                            .arg(cmd.dataKind, dataKindsText(QStringLiteral(", "))));
        if (!pe::dataFormatForPath(cmd.out.toStdString()))
            return fail(QStringLiteral("--out: data files end in .csv or .npy (got '%1').").arg(cmd.out));
        if (kind->data->problem)
            if (const QString problem = kind->data->problem(dataRequest(cmd, *kind->view)); !problem.isEmpty())
                return fail(QStringLiteral("--export-data %1: %2").arg(cmd.dataKind, problem));
    } else if (frames) {
        cmd.mode = CommandLine::Mode::ExportFrames;
        cmd.out = parser.value(QStringLiteral("export-frames"));
        if (auto problem = drawProblem(cmd))
            return fail(QStringLiteral("--view %1: %2").arg(cmd.view, *problem));
        // FILE.gif: one animated GIF; anything else: a folder of numbered PNGs.
        cmd.gif = QFileInfo(cmd.out).suffix().toLower() == QLatin1String("gif");
        if (cmd.gif) {
            const QFileInfo info(cmd.out);
            if (info.isDir())
                return fail(QStringLiteral("--export-frames: '%1' is a folder; a GIF is a file.").arg(cmd.out));
            if (!info.absoluteDir().exists())
                return fail(QStringLiteral("--export-frames: the folder of '%1' does not exist.").arg(cmd.out));
        } else if (auto problem = folderProblem(cmd.out)) {
            return fail(QStringLiteral("--export-frames: ") + *problem +
                        QStringLiteral(" It writes one .gif file or a folder of PNG frames."));
        }
        if (parser.isSet(QStringLiteral("fps"))) {
            if (!cmd.gif)
                return fail(QStringLiteral("--fps goes with --export-frames FILE.gif (PNG frames have no timing)."));
            const auto fps = pe::parseInteger(parser.value(QStringLiteral("fps")).toStdString());
            if (!fps || *fps < 1 || *fps > GifWriter::kMaxFps)
                return fail(QStringLiteral("--fps: must be a whole number of frames a second from 1 to %1 (got '%2').")
                                .arg(GifWriter::kMaxFps)
                                .arg(parser.value(QStringLiteral("fps"))));
            cmd.fps = static_cast<int>(*fps);
        }
        if (!parser.isSet(QStringLiteral("frames")))
            return fail(QStringLiteral("--frames N is required with --export-frames."));
        const auto n = pe::parseInteger(parser.value(QStringLiteral("frames")).toStdString());
        if (!n || *n < 1 || *n > kMaxFrames)
            return fail(QStringLiteral("--frames: must be a whole number from 1 to %1 (got '%2').")
                            .arg(kMaxFrames)
                            .arg(parser.value(QStringLiteral("frames"))));
        cmd.frames = static_cast<int>(*n);
        if (parser.isSet(QStringLiteral("step"))) {
            const auto k = pe::parseInteger(parser.value(QStringLiteral("step")).toStdString());
            if (!k || *k < 1 || *k > pe::limits::maxSeqLen)
                return fail(QStringLiteral("--step: must be a whole number of positions from 1 to %1 (got '%2').")
                                .arg(QString::fromStdString(pe::withThousands(pe::limits::maxSeqLen)),
                                     parser.value(QStringLiteral("step"))));
            cmd.step = *k;
        }
        // Against the scheme's last position: a table's last row, not the sinusoids' limit.
        if (cmd.position + (cmd.frames - 1) * cmd.step > pe::positionEnd(cmd.params) - 1)
            return fail(
                QStringLiteral("--frames: the last frame's position %1 would pass the last allowed position %2.")
                    .arg(cmd.position + (cmd.frames - 1) * cmd.step)
                    .arg(QString::fromStdString(pe::withThousands(pe::positionEnd(cmd.params) - 1))));
    } else if (shot) {
        cmd.mode = CommandLine::Mode::Screenshot;
        cmd.out = parser.value(QStringLiteral("screenshot"));
        if (auto problem = checkFigurePath(cmd.out))
            return fail(QStringLiteral("--screenshot: ") + *problem);
    }
    // A plain launch (no parameters, no session, no export) brings the window back as it was closed.
    bool anyState = cmd.session.has_value();
    for (const QString &flag : stateFlags + schemeFlags)
        anyState = anyState || parser.isSet(flag);
    cmd.restoreLast = cmd.mode == CommandLine::Mode::Window && !anyState && !parser.isSet(QStringLiteral("view"));
    return result;
}
