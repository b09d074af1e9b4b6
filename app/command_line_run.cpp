#include "command_line.h"

#include "figures/lecture_export.h"

#include "encodings/position_table.h"
#include "encodings/scheme.h"
#include "encodings/scheme_parameters.h"
#include "export/data_export.h"
#include "figures/plot_view.h"
#include "figures/workspace_views.h"
#include "formats/quoted_name.h"
#include "models/model_config.h"
#include "state/parameters.h"
#include "state/session.h"
#include "state/view_registry.h"
#include "state/workspace.h"
#include "window/lecture_player.h"
#include "window/main_window.h"

#include <QApplication>
#include <QDir>
#include <QIcon>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <unistd.h>

// Running a parsed command: data exports without a Qt application, figures and frames through a
// Workspace without a window, the window itself.

namespace {

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

// --export VIEW,VIEW,...: the views as the panels of one figure.
int exportPanelFigure(const CommandLine &cmd, WorkspaceViews &figures)
{
    std::vector<std::unique_ptr<PlotView>> owned;
    std::vector<PlotView *> views;
    for (const QString &id : cmd.panels) {
        owned.push_back(figures.offscreenView(id));
        views.push_back(owned.back().get());
    }
    QString error;
    std::vector<PanelPlacement> placed; // measured once, while the type is fitted
    const FigureOptions fitted = fitPanels(views, cmd.figure, cmd.grid, &error, &placed);
    if (!error.isEmpty()) {
        std::fprintf(stderr, "pe-explorer: --size: %s\n", qPrintable(error));
        return 2;
    }
    if (!exportPanels(views, cmd.out, fitted, cmd.grid, &error, placed)) {
        std::fprintf(stderr, "pe-explorer: --out: %s\n", qPrintable(error));
        return 2;
    }
    return 0;
}

// Frames for lecture videos: the view drawn offscreen, the position advancing by cmd.step.
int exportFrames(const CommandLine &cmd, WorkspaceViews &figures)
{
    Parameters &parameters = *figures.workspace()->parameters();
    // Parsing refused a view that cannot draw these settings (ViewInfo::cannotDraw).
    std::unique_ptr<PlotView> view = figures.offscreenView(cmd.view);
    if (cmd.animation) {
        // One GIF or video, built in memory a frame at a time, then written atomically.
        QString problem;
        const FigureOptions o = fitFigure(view.get(), cmd.figure, &problem); // once, at the first frame
        if (!problem.isEmpty()) {
            std::fprintf(stderr, "pe-explorer: --size: %s\n", qPrintable(problem));
            return 2;
        }
        if (const QString error = writeAnimation(view.get(), parameters, o, cmd.frames, cmd.step, cmd.fps, cmd.out);
            !error.isEmpty()) {
            std::fprintf(stderr, "pe-explorer: --export-frames: %s\n", qPrintable(error));
            return 2;
        }
        return 0;
    }
    if (!QDir().mkpath(cmd.out)) {
        std::fprintf(stderr, "pe-explorer: --export-frames: cannot create the folder '%s'.\n", qPrintable(cmd.out));
        return 2;
    }
    QString problem;
    const FigureOptions fitted = fitFigure(view.get(), cmd.figure, &problem); // once, at the first frame
    if (!problem.isEmpty()) {
        std::fprintf(stderr, "pe-explorer: --size: %s\n", qPrintable(problem));
        return 2;
    }
    const double first = parameters.realPosition();
    for (int k = 0; k < cmd.frames; ++k) {
        if (k > 0) // frame k at first + k·step exactly, as writeAnimation's
            parameters.stepRealPosition(first + k * cmd.step - parameters.realPosition());
        const QString path = QDir(cmd.out).filePath(QStringLiteral("frame-%1.png").arg(k, 5, 10, QLatin1Char('0')));
        QString error;
        if (!exportFigure(view.get(), path, fitted, &error)) {
            std::fprintf(stderr, "pe-explorer: --export-frames: frame %d: %s\n", k, qPrintable(error));
            return 2;
        }
    }
    return 0;
}

} // namespace

int runCommandLine(const CommandLine &cmd, int &argc, char **argv)
{
    if (cmd.mode == CommandLine::Mode::ExportData) {
        // No Qt application needed: the view's registered export computes the table from the
        // state and its settings, and the core writes it row block by row block.
        const DataKind kind = *findDataKind(cmd.dataKind);
        const DataRequest request = dataRequest(cmd, *kind.view);
        const pe::Table table = kind.data->make(request);
        std::string error;
        TerminalProgress progress(cmd.out);
        bool ok = false;
        try {
            ok = pe::writeTable(table, cmd.out.toStdString(), *pe::dataFormatForPath(cmd.out.toStdString()), error,
                                progress.callback());
        } catch (const std::exception &e) {
            // Memory the computation could not have (an index's, a neighbour list's): said, and the
            // temporary file removed (AtomicFile), nothing written.
            error = std::string("the table could not be computed: ") + e.what();
        }
        progress.finish();
        if (!ok) {
            std::fprintf(stderr, "pe-explorer: --out: %s\n", error.c_str());
            return 2;
        }
        if (const std::string note = table.note ? table.note() : std::string(); !note.empty())
            std::fprintf(stderr, "pe-explorer: note: %s\n", note.c_str());
        return 0;
    }
    const bool offscreen = cmd.mode == CommandLine::Mode::ExportFigure || cmd.mode == CommandLine::Mode::ExportFrames ||
                           cmd.mode == CommandLine::Mode::ExportLecture;
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
    if (cmd.mode == CommandLine::Mode::ExportLecture) {
        const QString error = exportLecture(
            *cmd.lectureFile, {cmd.out, cmd.allFormat, cmd.figure, cmd.theme, cmd.withVideo, cmd.fps, cmd.withNotes});
        if (!error.isEmpty()) {
            std::fprintf(stderr, "pe-explorer: --export-lecture: %s\n", qPrintable(error));
            return 2;
        }
        return 0;
    }
    if (cmd.theme && offscreen)
        applyTheme(*cmd.theme);
    Parameters parameters;
    parameters.setState(cmd.params, cmd.noise); // checked together by the parser
    parameters.setPosition(cmd.position);
    if (cmd.fraction > 0) // checked against the view by the parser
        parameters.setRealPosition(static_cast<double>(cmd.position) + cmd.fraction);

    const bool exporting = cmd.mode == CommandLine::Mode::ExportFigure || cmd.mode == CommandLine::Mode::ExportFrames;
    if (exporting && !cmd.figure.fontFamily.isEmpty())
        if (const auto problem = checkFigureOptions(cmd.figure)) { // the fonts, now that there is an application
            std::fprintf(stderr, "pe-explorer: --font: %s\n", qPrintable(*problem));
            return 2;
        }
    if (exporting) {
        // Figures need no window: the workspace holds the state and draws each view offscreen.
        Workspace workspace(&parameters);
        WorkspaceViews figures(&workspace);
        if (!applyState(cmd, workspace, cmd.view == QStringLiteral("all") ? viewIds().first() : cmd.view))
            return 2;
        if (cmd.mode == CommandLine::Mode::ExportFrames)
            return exportFrames(cmd, figures);
        if (cmd.view == QStringLiteral("all")) {
            QString error;
            QStringList skipped;
            if (!figures.saveAllFigures(cmd.out, cmd.allFormat, cmd.figure, &error, &skipped)) {
                std::fprintf(stderr, "pe-explorer: --out: %s\n", qPrintable(error));
                return 2;
            }
            // A figure that cannot be drawn is not written as an empty one: it is named, with why.
            for (const QString &line : skipped)
                std::fprintf(stderr, "pe-explorer: --export all: not drawn: %s\n", qPrintable(line));
            return 0;
        }
        if (!cmd.panels.isEmpty())
            return exportPanelFigure(cmd, figures);
        std::unique_ptr<PlotView> view = figures.offscreenView(cmd.view);
        QString error;
        const FigureOptions fitted = view->cannotDraw().isEmpty() ? fitFigure(view.get(), cmd.figure, &error)
                                                                  : cmd.figure; // exportFigure says why
        if (!error.isEmpty()) {
            std::fprintf(stderr, "pe-explorer: --size: %s\n", qPrintable(error));
            return 2;
        }
        if (!exportFigure(view.get(), cmd.out, fitted, &error)) {
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
    if (cmd.theme)
        window.setTheme(*cmd.theme, false); // for this run: the window's saved theme stays
    if (cmd.lectureFile) {
        QString error;
        if (!window.openLecture(*cmd.lectureFile, cmd.lectureStep, &error)) {
            std::fprintf(stderr, "pe-explorer: --lecture-file: %s\n", qPrintable(error));
            return 2;
        }
        // A screenshot shows the step as its action leaves it, as the handout does: not whichever
        // frame the first paint happened to catch.
        if (cmd.mode == CommandLine::Mode::Screenshot)
            window.lecturePlayer()->finishMotion();
    }
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

int listTensors(const QString &path)
{
    using Role = pe::PositionTable::Role;
    pe::TensorIndex index;
    try {
        index = pe::PositionTable::index(path.toStdString());
    } catch (const std::exception &e) {
        std::fprintf(stderr, "pe-explorer: --list-tensors: %s\n", e.what());
        return 2;
    }
    const auto positions = pe::PositionTable::candidates(index, Role::Positions);
    const auto biases = pe::PositionTable::candidates(index, Role::T5Bias);
    std::printf("%s: %s, %s %s", qPrintable(path), pe::formatName(index.format).c_str(),
                pe::withThousands(static_cast<std::int64_t>(index.tensors.size())).c_str(),
                index.tensors.size() == 1 ? "tensor" : "tensors");
    if (index.format == pe::TensorFormat::Gguf)
        std::printf(", %s metadata %s", pe::withThousands(static_cast<std::int64_t>(index.metadata.size())).c_str(),
                    index.metadata.size() == 1 ? "key" : "keys");
    std::printf("\n");
    std::size_t width = 4;
    for (const auto &t : index.tensors)
        width = std::max(width, pe::escapedName(t.name).size());
    std::printf("  %-*s  %-8s  %s\n", static_cast<int>(width), "name", "type", "shape");
    for (const auto &t : index.tensors) {
        const bool position = std::find(positions.begin(), positions.end(), &t) != positions.end();
        const bool bias = std::find(biases.begin(), biases.end(), &t) != biases.end();
        // Named as a table but of a type no table holds (a quantized block): said, not offered.
        const bool readable = t.type != pe::TensorType::Other;
        const std::string note = !(position || bias) ? ""
                                 : !readable ? "  <- named as a table, but its " + t.dtype + " values are not read"
                                 : position
                                     ? (positions.size() == 1 ? "  <- --table takes it" : "  <- a position table")
                                     : (biases.size() == 1 ? "  <- --bias-table takes it" : "  <- a T5 bias table");
        // Control characters escaped: a line a tensor.
        const std::string shown = t.name.empty() ? "(the array)" : pe::escapedName(t.name);
        std::printf("  %-*s  %-8s  %s%s\n", static_cast<int>(width), shown.c_str(), t.dtype.c_str(),
                    pe::shapeText(t.shape).c_str(), note.c_str());
    }
    return 0;
}

namespace {

// The parameters as the flags that give them (what --model-info prints): the scheme, the window, the
// frequencies where the scheme takes them, then each parameter it takes that is not its default.
QString flagsOf(const pe::EncodingParams &p)
{
    QStringList out{QStringLiteral("--scheme"), QString::fromUtf8(pe::schemeName(p.scheme).data()),
                    QStringLiteral("--seq-len"), QString::number(p.seqLen)};
    if (pe::takes(p, pe::Field::DModel))
        out << QStringLiteral("--d-model") << QString::number(p.dModel);
    if (pe::takes(p, pe::Field::Base))
        out << QStringLiteral("--base") << QString::number(p.base, 'g', 17);
    if (pe::takes(p, pe::Field::Layout))
        out << QStringLiteral("--layout") << QString::fromUtf8(pe::layoutName(p.layout).data());
    const pe::EncodingParams defaults;
    for (const pe::SchemeParameter &sp : pe::schemeParameters()) {
        const bool list = sp.kind == pe::SchemeParameter::Kind::List;
        if (!pe::takes(p, sp.field) || (list ? sp.getList(p) == sp.getList(defaults) : sp.get(p) == sp.get(defaults)))
            continue;
        const QString flag = QStringLiteral("--") + QString::fromStdString(sp.flag());
        if (list)
            out << flag << QString::fromStdString(pe::listText(sp.getList(p)));
        else if (sp.kind == pe::SchemeParameter::Kind::Switch)
            out << flag;
        else
            out << flag << QString::fromStdString(pe::parameterText(sp, sp.get(p)));
    }
    return out.join(QLatin1Char(' '));
}

} // namespace

int modelInfo(const QString &path)
{
    QString error;
    const auto model = openModelFile(path, &error);
    if (!model) {
        std::fprintf(stderr, "pe-explorer: --model-info: %s\n", qPrintable(oneLine(error)));
        return 2;
    }
    std::printf("%s: %s\n", qPrintable(path), pe::modelTitle(*model).c_str());
    std::printf("  scheme %s\n", pe::schemeName(model->params.scheme).data());
    for (const std::string &line : model->mapping)
        std::printf("  %s\n", line.c_str());
    std::printf("As flags: %s\n", qPrintable(flagsOf(model->params)));
    return 0;
}
