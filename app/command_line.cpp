#include "command_line.h"

#include "data_export.h"
#include "main_window.h"
#include "parameters.h"
#include "plot_view.h"
#include "position_table.h"
#include "scheme.h"
#include "view_registry.h"
#include "workspace.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QRegularExpression>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <unistd.h>

namespace {

constexpr int kMaxFrames = 10000;

QString flagFor(pe::Field f)
{
    switch (f) {
    case pe::Field::Scheme:
        return QStringLiteral("--scheme");
    case pe::Field::SeqLen:
        return QStringLiteral("--seq-len");
    case pe::Field::DModel:
        return QStringLiteral("--d-model");
    case pe::Field::Base:
        return QStringLiteral("--base");
    case pe::Field::StartPos:
        return QStringLiteral("--start-pos");
    case pe::Field::Layout:
        return QStringLiteral("--layout");
    case pe::Field::Exponent:
        return QStringLiteral("--exponent");
    case pe::Field::None:
        break;
    }
    return {};
}

// What a parameter accepts, as the core says it (pe::allowedText).
QString allowed(pe::Field field)
{
    return QString::fromStdString(pe::allowedText(field));
}

QString dataKindsText(const QString &separator)
{
    QStringList kinds;
    for (const DataKind &k : dataKinds())
        kinds << k.data->kind;
    return kinds.join(separator);
}

// The options the views declare (ViewInfo::settings), each once: two views may share one (--metric).
QList<QCommandLineOption> viewOptions(const QStringList &taken)
{
    QList<QCommandLineOption> out;
    QStringList seen = taken;
    for (const ViewInfo &view : viewRegistry())
        for (const ViewSetting &s : view.settings) {
            if (s.flag.isEmpty() || seen.contains(s.flag))
                continue;
            seen << s.flag;
            QStringList views; // every view that declares it
            for (const ViewInfo &other : viewRegistry())
                for (const ViewSetting &o : other.settings)
                    if (o.flag == s.flag)
                        views << other.id;
            const QJsonValue d = s.defaultValue;
            const QString shown = d.isString() ? d.toString()
                                  : d.isBool() ? (d.toBool() ? QStringLiteral("true") : QStringLiteral("false"))
                                  : !s.special.isEmpty() && d.toDouble() == s.minimum ? s.special
                                                                                      : QString::number(d.toDouble());
            out << QCommandLineOption(s.flag,
                                      QStringLiteral("%1 (%2): %3 (default %4).")
                                          .arg(s.help, views.join(QStringLiteral(", ")), allowedText(s), shown),
                                      s.valueName.isEmpty() ? QStringLiteral("V") : s.valueName);
        }
    return out;
}

QList<QCommandLineOption> options()
{
    QList<QCommandLineOption> fixed = {
        {QStringLiteral("scheme"),
         QStringLiteral("Encoding scheme: %1 (default sinusoidal).").arg(allowed(pe::Field::Scheme)),
         QStringLiteral("NAME")},
        {QStringLiteral("seq-len"),
         QStringLiteral("Number of positions: %1 (default 50).").arg(allowed(pe::Field::SeqLen)), QStringLiteral("N")},
        {QStringLiteral("d-model"), QStringLiteral("Embedding size: %1 (default 128).").arg(allowed(pe::Field::DModel)),
         QStringLiteral("D")},
        {QStringLiteral("base"), QStringLiteral("Frequency base: %1 (default 10000).").arg(allowed(pe::Field::Base)),
         QStringLiteral("B")},
        {QStringLiteral("start-pos"),
         QStringLiteral("First position: %1, with start_pos + seq_len at most %2 (default 0).")
             .arg(allowed(pe::Field::StartPos), QString::fromStdString(pe::withThousands(pe::limits::maxPositionEnd))),
         QStringLiteral("P")},
        {QStringLiteral("layout"), QStringLiteral("%1 (default interleaved).").arg(allowed(pe::Field::Layout)),
         QStringLiteral("L")},
        {QStringLiteral("exponent"),
         QStringLiteral("%1 (default pair: base^(2i/d); index: base^(j/d)).").arg(allowed(pe::Field::Exponent)),
         QStringLiteral("E")},
        {QStringLiteral("table"),
         QStringLiteral("Show a position table from a NumPy .npy file instead of the sinusoids: a 2-D float16/32/64 "
                        "array, rows are "
                        "positions, d_model is its column count (seq_len defaults to all its rows)."),
         QStringLiteral("FILE")},
        {QStringLiteral("export"),
         QStringLiteral("Write the figure of VIEW to --out (.png, .svg or .pdf) and exit: ") +
             viewIds().join(QStringLiteral(", ")) + QStringLiteral("; all: every view as PNG into the folder --out."),
         QStringLiteral("VIEW")},
        {QStringLiteral("export-data"),
         QStringLiteral("Write KIND to --out (.csv or .npy) and exit: ") + dataKindsText(QStringLiteral(", ")) +
             QLatin1Char('.'),
         QStringLiteral("KIND")},
        {QStringLiteral("out"),
         QStringLiteral(
             "Output file of --export (.png, .svg, .pdf; a folder for --export all) or --export-data (.csv, .npy)."),
         QStringLiteral("FILE")},
        {QStringLiteral("size"), QStringLiteral("Figure size in pixels, 64 to 8192 per side (default 1200x800)."),
         QStringLiteral("WxH")},
        {QStringLiteral("scale"), QStringLiteral("Device pixels per pixel, 0.25 to 8 (default 1)."),
         QStringLiteral("S")},
        {QStringLiteral("position"),
         QStringLiteral("Current position marked in every view, inside the window (default start_pos)."),
         QStringLiteral("T")},
        {QStringLiteral("view"),
         QStringLiteral("View shown first in the window, or drawn by --export-frames (default heatmap)."),
         QStringLiteral("VIEW")},
        {QStringLiteral("reference"),
         QStringLiteral("The similarity reference: the same as --position (seed 001 uses 30)."), QStringLiteral("R")},
        {QStringLiteral("noise"),
         QStringLiteral("Noise sigma, %1: x = PE + sigma z (seed 001 uses 0.5; default 0).")
             .arg(QString::fromStdString(pe::sigmaAllowedText())),
         QStringLiteral("SIGMA")},
        {QStringLiteral("seed"),
         QStringLiteral(
             "Seed of the noise and of t-SNE's random start, %1 (default 42); the same seed, the same numbers.")
             .arg(QString::fromStdString(pe::seedAllowedText())),
         QStringLiteral("S")},
        {QStringLiteral("lecture"),
         QStringLiteral("Start in lecture mode: full screen, large type, keyboard only (Esc leaves).")},
        {QStringLiteral("export-frames"),
         QStringLiteral("Write --frames numbered PNGs of --view to DIR while the position advances, and exit."),
         QStringLiteral("DIR")},
        {QStringLiteral("frames"), QStringLiteral("Number of frames, 1 to 10000."), QStringLiteral("N")},
        {QStringLiteral("step"),
         QStringLiteral(
             "Positions advanced per frame, 1 to 1000000 (default 1); past the window's end it slides along."),
         QStringLiteral("K")},
        {QStringLiteral("screenshot"), QStringLiteral("Open the window, save its first complete paint as PNG, exit."),
         QStringLiteral("FILE")},
        {QStringLiteral("session"),
         QStringLiteral(
             "Start from a session file (File > Save session): parameters, position, noise, view, view settings."),
         QStringLiteral("FILE")},
        {QStringLiteral("preset"),
         QStringLiteral("Start from a preset, one per figure of the seeds (see --list-presets)."),
         QStringLiteral("NAME")},
        {QStringLiteral("list-presets"), QStringLiteral("List the presets' names and titles, and exit.")},
        {{QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help and exit.")},
        {QStringLiteral("version"), QStringLiteral("Show the version and exit.")},
    };
    QStringList taken;
    for (const QCommandLineOption &o : fixed)
        taken << o.names();
    return fixed + viewOptions(taken);
}

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

// A long data export says how far it is, on one line of stderr rewritten in place; only on a terminal,
// so scripts and logs still get one line or nothing.
class TerminalProgress
{
  public:
    explicit TerminalProgress(const QString &path)
        : path_(path)
        , tty_(::isatty(STDERR_FILENO) == 1)
        , start_(std::chrono::steady_clock::now())
    {
    }

    std::function<bool(double)> callback()
    {
        if (!tty_)
            return {};
        return [this](double fraction) {
            using namespace std::chrono_literals;
            const auto now = std::chrono::steady_clock::now();
            if (now - start_ < 1s || now - last_ < 250ms)
                return true;
            last_ = now;
            shown_ = true;
            std::fprintf(stderr, "\rpe-explorer: writing '%s': %d%%", qPrintable(path_),
                         static_cast<int>(fraction * 100));
            std::fflush(stderr);
            return true;
        };
    }

    // Clears the line, so what follows (an error) starts on a clean one.
    void finish()
    {
        if (shown_)
            std::fputs("\r\033[K", stderr);
    }

  private:
    QString path_;
    bool tty_;
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point last_{};
    bool shown_ = false;
};

// A view's settings as a command asks for them: the session's (or preset's), then the flags, the
// rest at their defaults.
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

// Why the view of an export cannot be drawn with these settings (ViewInfo::cannotDraw).
std::optional<QString> drawProblem(const CommandLine &cmd)
{
    const ViewInfo *view = findView(cmd.view);
    if (!view->cannotDraw)
        return std::nullopt;
    const QString why = view->cannotDraw(dataRequest(cmd, *view));
    return why.isEmpty() ? std::nullopt : std::optional(why);
}

// The session's view settings (checked when it was read), then the flags', into the workspace.
bool applyState(const CommandLine &cmd, Workspace &workspace, const QString &frontView)
{
    if (cmd.session) {
        QString error;
        Session s = *cmd.session;
        s.view = frontView;
        if (!workspace.applySession(s, &error)) {
            std::fprintf(stderr, "pe-explorer: --session: %s\n", qPrintable(error));
            return false;
        }
    }
    for (auto it = cmd.viewSettings.begin(); it != cmd.viewSettings.end(); ++it)
        workspace.setViewSettings(it.key(), it.value()); // checked by the parser
    return true;
}

// The one view an export or the frames draw, offscreen; nothing, with the reason on stderr, when
// it cannot be drawn for these settings (a projection's perplexity at or above seq_len).
std::unique_ptr<PlotView> drawnView(const CommandLine &cmd, Workspace &workspace, const char *flag)
{
    std::unique_ptr<PlotView> view = workspace.offscreenView(cmd.view);
    if (const QString why = view->cannotDraw(); !why.isEmpty()) {
        std::fprintf(stderr, "pe-explorer: %s %s: %s\n", flag, qPrintable(cmd.view), qPrintable(why));
        return nullptr;
    }
    return view;
}

// A folder an export writes into: one that exists, or a new one whose name does not end like a
// figure or data file (--export all --out x.png once made a folder named x.png).
std::optional<QString> folderProblem(const QString &dir)
{
    const QFileInfo info(dir);
    if (info.isDir())
        return std::nullopt;
    if (info.exists())
        return QStringLiteral("'%1' must be a folder (it is created if missing).").arg(dir);
    if (figureFormatForPath(dir) || pe::dataFormatForPath(dir.toStdString()))
        return QStringLiteral("'%1' must be a folder, but its name ends in .%2 like a file; name a folder (it is "
                              "created if missing).")
            .arg(dir, info.suffix());
    return std::nullopt;
}

// Frames for lecture videos: the view drawn offscreen, the position advancing by cmd.step.
int exportFrames(const CommandLine &cmd, Workspace &workspace)
{
    Parameters &parameters = *workspace.parameters();
    std::unique_ptr<PlotView> view = drawnView(cmd, workspace, "--export-frames");
    if (!view)
        return 2;
    if (!QDir().mkpath(cmd.out)) {
        std::fprintf(stderr, "pe-explorer: --export-frames: cannot create the folder '%s'.\n", qPrintable(cmd.out));
        return 2;
    }
    for (int k = 0; k < cmd.frames; ++k) {
        if (k > 0)
            parameters.stepPosition(cmd.step);
        const QString path = QDir(cmd.out).filePath(QStringLiteral("frame-%1.png").arg(k, 5, 10, QLatin1Char('0')));
        QString error;
        if (!exportFigure(view.get(), path, cmd.figure, &error)) {
            std::fprintf(stderr, "pe-explorer: --export-frames: frame %d: %s\n", k, qPrintable(error));
            return 2;
        }
    }
    return 0;
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
    for (const QString &name : parser.optionNames())
        if (parser.values(name).size() > 1)
            return fail(QStringLiteral("--%1 is given more than once.").arg(name));
    // An empty value is never what was meant (--export "" drew the first view): refused for every
    // option that takes one.
    for (const QCommandLineOption &option : options()) {
        const QString name = option.names().constLast();
        if (!option.valueName().isEmpty() && parser.isSet(name) && parser.value(name).isEmpty())
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
    // A session or preset gives the parameters, the position and the noise: not also the flags.
    static const QStringList stateFlags{
        QStringLiteral("scheme"),    QStringLiteral("seq-len"), QStringLiteral("d-model"),  QStringLiteral("base"),
        QStringLiteral("start-pos"), QStringLiteral("layout"),  QStringLiteral("exponent"), QStringLiteral("position"),
        QStringLiteral("reference"), QStringLiteral("noise"),   QStringLiteral("seed"),     QStringLiteral("table")};
    const bool fromSession = parser.isSet(QStringLiteral("session")),
               fromPreset = parser.isSet(QStringLiteral("preset"));
    if (fromSession && fromPreset)
        return fail(QStringLiteral("--session and --preset exclude each other; give one."));
    if (fromSession || fromPreset) {
        for (const QString &flag : stateFlags)
            if (parser.isSet(flag))
                return fail(QStringLiteral("--%1: the %2 already gives the parameters, position and noise; give them "
                                           "there or here, not both.")
                                .arg(flag, fromSession ? QStringLiteral("session") : QStringLiteral("preset")));
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
    for (const pe::Field f : {pe::Field::Base, pe::Field::Layout, pe::Field::Exponent})
        if (const QString flag = flagFor(f); parser.isSet(flag.mid(2)) && !pe::takes(p, f))
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
    if (auto error = pe::validate(p))
        return fail(flagFor(error->field) + QStringLiteral(": ") + QString::fromStdString(error->message));

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
    // The views' own settings (ViewInfo::settings): each flag checked as a session's value is, and
    // kept for every view that declares it.
    for (const ViewInfo &view : viewRegistry())
        for (const ViewSetting &setting : view.settings) {
            if (setting.flag.isEmpty() || !parser.isSet(setting.flag))
                continue;
            QString error;
            const auto value = settingFromText(setting, parser.value(setting.flag), &error);
            if (!value)
                return fail(QStringLiteral("--%1: %2").arg(setting.flag, error));
            cmd.viewSettings[view.id].insert(setting.key, *value);
        }

    if (cmd.session) {
        cmd.params = cmd.session->params;
        cmd.noise = cmd.session->noise;
        cmd.position = cmd.session->position;
    }

    const bool figure = parser.isSet(QStringLiteral("export"));
    const bool data = parser.isSet(QStringLiteral("export-data"));
    const bool shot = parser.isSet(QStringLiteral("screenshot"));
    const bool frames = parser.isSet(QStringLiteral("export-frames"));
    if (int(figure) + int(data) + int(shot) + int(frames) > 1)
        return fail(
            QStringLiteral("--export, --export-data, --export-frames and --screenshot exclude each other; give one."));
    if ((parser.isSet(QStringLiteral("size")) || parser.isSet(QStringLiteral("scale"))) && !figure && !frames)
        return fail(QStringLiteral("--size and --scale go with --export or --export-frames."));
    if ((parser.isSet(QStringLiteral("frames")) || parser.isSet(QStringLiteral("step"))) && !frames)
        return fail(QStringLiteral("--frames and --step go with --export-frames."));
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
        if (parser.isSet(QStringLiteral("size"))) {
            static const QRegularExpression re(QStringLiteral("^(\\d{1,6})x(\\d{1,6})$"));
            const auto m = re.match(parser.value(QStringLiteral("size")));
            if (!m.hasMatch())
                return fail(QStringLiteral("--size: '%1' is not WIDTHxHEIGHT in pixels, e.g. 1200x800.")
                                .arg(parser.value(QStringLiteral("size"))));
            cmd.figure.size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
        }
        if (parser.isSet(QStringLiteral("scale"))) {
            const auto v = pe::parseReal(parser.value(QStringLiteral("scale")).toStdString());
            if (!v)
                return fail(QStringLiteral("--scale: '%1' is not a number; the scale must be from 0.25 to 8.")
                                .arg(parser.value(QStringLiteral("scale"))));
            cmd.figure.scale = *v;
        }
        if (auto problem = checkFigureOptions(cmd.figure))
            return fail((parser.isSet(QStringLiteral("scale")) && problem->contains(QStringLiteral("scale"))
                             ? QStringLiteral("--scale: ")
                             : QStringLiteral("--size: ")) +
                        *problem);
    }
    if (figure && cmd.view == QStringLiteral("all")) {
        cmd.mode = CommandLine::Mode::ExportFigure;
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
        if (auto problem = folderProblem(cmd.out))
            return fail(QStringLiteral("--export-frames: ") + *problem);
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
                return fail(
                    QStringLiteral("--step: must be a whole number of positions from 1 to 1,000,000 (got '%1').")
                        .arg(parser.value(QStringLiteral("step"))));
            cmd.step = *k;
        }
        if (cmd.position + (cmd.frames - 1) * cmd.step > pe::limits::maxPositionEnd - 1)
            return fail(QStringLiteral(
                            "--frames: the last frame's position %1 would pass the last allowed position 999,999,999.")
                            .arg(cmd.position + (cmd.frames - 1) * cmd.step));
    } else if (shot) {
        cmd.mode = CommandLine::Mode::Screenshot;
        cmd.out = parser.value(QStringLiteral("screenshot"));
        if (auto problem = checkFigurePath(cmd.out))
            return fail(QStringLiteral("--screenshot: ") + *problem);
    }
    // A plain launch (no parameters, no session, no export) brings the window back as it was closed.
    bool anyState = cmd.session.has_value();
    for (const QString &flag : stateFlags)
        anyState = anyState || parser.isSet(flag);
    cmd.restoreLast = cmd.mode == CommandLine::Mode::Window && !anyState && !parser.isSet(QStringLiteral("view"));
    return result;
}

QString helpText()
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Positional Encoding Explorer: see how a transformer's sinusoidal positional encoding works.\n"
                       "Without --export, --export-data or --screenshot the window opens with the given parameters.\n"
                       "Bad input exits with code 2 and writes nothing."));
    parser.addOptions(options());
    QString text = parser.helpText();
    // Without an application object Qt does not know the program's name.
    return text.replace(QStringLiteral("<executable_name>"), QStringLiteral("pe-explorer"));
}

int runCommandLine(const CommandLine &cmd, int &argc, char **argv)
{
    if (cmd.mode == CommandLine::Mode::ExportData) {
        // No Qt application needed: the view's registered export computes the table from the
        // state and its settings, and the core writes it row block by row block.
        const DataKind kind = *findDataKind(cmd.dataKind);
        const DataRequest request = dataRequest(cmd, *kind.view);
        const pe::Table table = kind.data->table(request);
        std::string error;
        TerminalProgress progress(cmd.out);
        const bool ok = pe::writeTable(table, cmd.out.toStdString(), *pe::dataFormatForPath(cmd.out.toStdString()),
                                       error, progress.callback());
        progress.finish();
        if (!ok) {
            std::fprintf(stderr, "pe-explorer: --out: %s\n", error.c_str());
            return 2;
        }
        return 0;
    }
    const bool offscreen = cmd.mode == CommandLine::Mode::ExportFigure || cmd.mode == CommandLine::Mode::ExportFrames;
    if (offscreen) {
        // A figure export needs no display: draw offscreen unless the caller chose a platform.
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        // Its stderr is one line on failure; Qt's own notes (runtime folder, fonts) are not errors.
        qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &, const QString &message) {
            if (type == QtCriticalMsg || type == QtFatalMsg)
                std::fprintf(stderr, "pe-explorer: %s\n", qPrintable(message));
        });
    }
    QApplication app(argc, argv);
    // QSettings' file: ~/.config/PositionalEncodingExplorer/pe-explorer.conf
    QApplication::setOrganizationName(QStringLiteral("PositionalEncodingExplorer"));
    QApplication::setApplicationName(QStringLiteral("pe-explorer"));
    QApplication::setApplicationDisplayName(QStringLiteral("Positional Encoding Explorer"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/pe-explorer.svg")));
    QGuiApplication::setDesktopFileName(QStringLiteral("pe-explorer"));
    QApplication::setApplicationVersion(QStringLiteral(PE_VERSION));
    Parameters parameters;
    parameters.set(cmd.params);
    parameters.setPosition(cmd.position);
    parameters.setNoise(cmd.noise);

    const bool exporting = cmd.mode == CommandLine::Mode::ExportFigure || cmd.mode == CommandLine::Mode::ExportFrames;
    if (exporting) {
        // Figures need no window: the workspace holds the state and draws each view offscreen.
        Workspace workspace(&parameters);
        if (!applyState(cmd, workspace, cmd.view == QStringLiteral("all") ? viewIds().first() : cmd.view))
            return 2;
        if (cmd.mode == CommandLine::Mode::ExportFrames)
            return exportFrames(cmd, workspace);
        if (cmd.view == QStringLiteral("all")) {
            QString error;
            QStringList skipped;
            if (!workspace.saveAllFigures(cmd.out, FigureFormat::Png, cmd.figure, &error, &skipped)) {
                std::fprintf(stderr, "pe-explorer: --out: %s\n", qPrintable(error));
                return 2;
            }
            // A figure that cannot be drawn is not written as an empty one: it is named, with why.
            for (const QString &line : skipped)
                std::fprintf(stderr, "pe-explorer: --export all: not drawn: %s\n", qPrintable(line));
            return 0;
        }
        std::unique_ptr<PlotView> view = drawnView(cmd, workspace, "--export");
        if (!view)
            return 2;
        QString error;
        if (!exportFigure(view.get(), cmd.out, cmd.figure, &error)) {
            std::fprintf(stderr, "pe-explorer: --out: %s\n", qPrintable(error));
            return 2;
        }
        return 0;
    }
    MainWindow window(&parameters);
    if (cmd.restoreLast)
        window.restoreLastState();
    if (!applyState(cmd, *window.workspace(), cmd.view))
        return 2;
    if (cmd.session || !cmd.restoreLast)
        window.showView(cmd.view);
    // A screenshot shows finished figures (a projection run to its end), as exports do.
    for (const QString &id : viewIds())
        window.view(id)->setCompleteFigures(cmd.mode == CommandLine::Mode::Screenshot);
    if (cmd.lecture)
        window.setLectureMode(true);
    if (cmd.mode == CommandLine::Mode::Screenshot) {
        QString error;
        if (!window.saveFirstPaint(cmd.out, &error)) {
            std::fprintf(stderr, "pe-explorer: --screenshot: %s\n", qPrintable(error));
            return 2;
        }
        return 0;
    }
    if (!cmd.lecture)
        window.show();
    return app.exec();
}
