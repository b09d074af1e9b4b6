// The command line's output stages: which export or screenshot, --out and --view, figure options, frames.
#include "command_line_internal.h"
#include "command_line_options.h"

#include "encodings/scheme.h"
#include "export/data_export.h"
#include "figures/gif_writer.h"
#include "figures/lecture_export.h"
#include "figures/video_writer.h"
#include "state/view_registry.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include <cmath>

std::optional<double> cli::boundedFlag(const QCommandLineParser &parser, const QString &name, bool whole, double lo,
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

std::optional<QString> cli::drawProblem(const CommandLine &cmd, const QString &viewId)
{
    const ViewInfo *view = findView(viewId.isEmpty() ? cmd.view : viewId);
    if (!view->cannotDraw)
        return std::nullopt;
    const QString why = view->cannotDraw(dataRequest(cmd, *view));
    return why.isEmpty() ? std::nullopt : std::optional(why);
}

// A folder an export writes into: one that exists, or a new one whose name does not end like a
// file (--export all --out x.png once made a folder named x.png, --export-frames clocks.mp4 a folder
// named clocks.mp4). A file's ending: a letter, then up to four letters or digits.
std::optional<QString> cli::folderProblem(const QString &dir)
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

namespace {

// The outputs asked for: at most one once readOutputs has passed.
struct Outputs {
    bool figure, data, shot, frames, lecture;
};

Outputs outputsOf(const QCommandLineParser &parser)
{
    return {parser.isSet(QStringLiteral("export")), parser.isSet(QStringLiteral("export-data")),
            parser.isSet(QStringLiteral("screenshot")), parser.isSet(QStringLiteral("export-frames")),
            parser.isSet(QStringLiteral("export-lecture"))};
}

bool exportsAll(const Outputs &asked, const CommandLine &cmd)
{
    return asked.figure && cmd.view == QStringLiteral("all");
}

std::optional<QString> readExportAll(const QCommandLineParser &parser, CommandLine &cmd)
{
    cmd.mode = CommandLine::Mode::ExportFigure;
    if (parser.isSet(QStringLiteral("format"))) {
        const auto f = figureFormatForPath(QStringLiteral("x.") + parser.value(QStringLiteral("format")));
        if (!f || parser.value(QStringLiteral("format")).isEmpty())
            return QStringLiteral("--format: '%1' is not a figure format; use png, svg or pdf.")
                .arg(parser.value(QStringLiteral("format")));
        cmd.allFormat = *f;
    }
    if (auto problem = cli::folderProblem(cmd.out))
        return QStringLiteral("--out: with --export all, ") + *problem;
    return std::nullopt;
}

std::optional<QString> readExportFigure(CommandLine &cmd)
{
    cmd.mode = CommandLine::Mode::ExportFigure;
    if (auto problem = cli::drawProblem(cmd))
        return QStringLiteral("--export %1: %2").arg(cmd.view, *problem);
    if (auto problem = checkFigurePath(cmd.out))
        return QStringLiteral("--out: ") + *problem;
    return std::nullopt;
}

std::optional<QString> readExportData(const QCommandLineParser &parser, CommandLine &cmd)
{
    cmd.mode = CommandLine::Mode::ExportData;
    cmd.dataKind = parser.value(QStringLiteral("export-data"));
    const auto kind = findDataKind(cmd.dataKind);
    if (!kind)
        return QStringLiteral("--export-data: unknown data '%1'; choose %2.")
            .arg(cmd.dataKind, dataKindsText(QStringLiteral(", ")));
    if (!pe::dataFormatForPath(cmd.out.toStdString()))
        return QStringLiteral("--out: data files end in .csv or .npy (got '%1').").arg(cmd.out);
    if (kind->data->problem)
        if (const QString problem = kind->data->problem(dataRequest(cmd, *kind->view)); !problem.isEmpty())
            return QStringLiteral("--export-data %1: %2").arg(cmd.dataKind, problem);
    return std::nullopt;
}

// Where --export-frames writes: FILE.gif, one animated GIF; FILE.mp4 or FILE.webm, a video (H.264,
// VP9); anything else, a folder of numbered PNGs.
std::optional<QString> readFramesTarget(const QCommandLineParser &parser, CommandLine &cmd)
{
    cmd.mode = CommandLine::Mode::ExportFrames;
    cmd.out = parser.value(QStringLiteral("export-frames"));
    if (auto problem = cli::drawProblem(cmd))
        return QStringLiteral("--view %1: %2").arg(cmd.view, *problem);
    cmd.animation = QFileInfo(cmd.out).suffix().toLower() == QLatin1String("gif") || VideoWriter::codecForPath(cmd.out);
    if (cmd.animation) {
        const QFileInfo info(cmd.out);
        if (info.isDir())
            return QStringLiteral("--export-frames: '%1' is a folder; a GIF or a video is a file.").arg(cmd.out);
        if (!info.absoluteDir().exists())
            return QStringLiteral("--export-frames: the folder of '%1' does not exist.").arg(cmd.out);
    } else if (auto problem = cli::folderProblem(cmd.out)) {
        return QStringLiteral("--export-frames: ") + *problem +
               QStringLiteral(" It writes one .gif, .mp4 or .webm file, or a folder of PNG frames.");
    }
    if (VideoWriter::codecForPath(cmd.out)) {
        const QSize pixels = cmd.figure.pixelSize();
        if (pixels.width() > VideoWriter::kMaxWidth || pixels.height() > VideoWriter::kMaxHeight)
            return QStringLiteral("--size: a video is at most %1 x %2 pixels (got %3 x %4).")
                .arg(VideoWriter::kMaxWidth)
                .arg(VideoWriter::kMaxHeight)
                .arg(pixels.width())
                .arg(pixels.height());
    }
    return std::nullopt;
}

// --step's least: a thousandth of a position a frame (a slow hand's sweep, frame by frame).
constexpr double kMinStep = 0.001;

// --fps, --frames and --step, and the last frame inside the scheme's positions.
std::optional<QString> readFramesCount(const QCommandLineParser &parser, CommandLine &cmd)
{
    if (parser.isSet(QStringLiteral("fps"))) {
        if (!cmd.animation)
            return QStringLiteral("--fps goes with --export-frames FILE.gif, FILE.mp4 or FILE.webm (PNG frames have "
                                  "no timing).");
        // GIF delays are whole hundredths of a second: 50 at most; a video takes 60.
        const int most = VideoWriter::codecForPath(cmd.out) ? VideoWriter::kMaxFps : GifWriter::kMaxFps;
        const auto fps = pe::parseInteger(parser.value(QStringLiteral("fps")).toStdString());
        if (!fps || *fps < 1 || *fps > most)
            return QStringLiteral("--fps: must be a whole number of frames a second from 1 to %1 for a %2 (got '%3').")
                .arg(most)
                .arg(VideoWriter::codecForPath(cmd.out) ? QStringLiteral("video") : QStringLiteral("GIF"))
                .arg(parser.value(QStringLiteral("fps")));
        cmd.fps = static_cast<int>(*fps);
    }
    if (!parser.isSet(QStringLiteral("frames")))
        return QStringLiteral("--frames N is required with --export-frames.");
    const auto n = pe::parseInteger(parser.value(QStringLiteral("frames")).toStdString());
    if (!n || *n < 1 || *n > kMaxFrames)
        return QStringLiteral("--frames: must be a whole number from 1 to %1 (got '%2').")
            .arg(kMaxFrames)
            .arg(parser.value(QStringLiteral("frames")));
    cmd.frames = static_cast<int>(*n);
    if (parser.isSet(QStringLiteral("step"))) {
        // A fraction (0.25) where the view draws any real t: readRealPositions asks it.
        const auto k = pe::parseReal(parser.value(QStringLiteral("step")).toStdString());
        if (!k || !(*k >= kMinStep) || *k > static_cast<double>(pe::limits::maxSeqLen))
            return QStringLiteral("--step: must be a number of positions from %1 to %2 (got '%3').")
                .arg(kMinStep)
                .arg(QString::fromStdString(pe::withThousands(pe::limits::maxSeqLen)))
                .arg(parser.value(QStringLiteral("step")));
        cmd.step = *k;
    }
    // Against the scheme's last position: a table's last row, not the sinusoids' limit.
    const double last = static_cast<double>(cmd.position) + cmd.fraction + (cmd.frames - 1) * cmd.step;
    if (last > static_cast<double>(pe::positionEnd(cmd.params) - 1))
        return QStringLiteral("--frames: the last frame's position %1 would pass the last allowed position %2.")
            .arg(QString::fromStdString(pe::positionText(last)))
            .arg(QString::fromStdString(pe::withThousands(pe::positionEnd(cmd.params) - 1)));
    return std::nullopt;
}

std::optional<QString> readScreenshot(const QCommandLineParser &parser, CommandLine &cmd)
{
    cmd.mode = CommandLine::Mode::Screenshot;
    cmd.out = parser.value(QStringLiteral("screenshot"));
    if (auto problem = checkFigurePath(cmd.out))
        return QStringLiteral("--screenshot: ") + *problem;
    return std::nullopt;
}

} // namespace

// Which output, the flags that go with it alone, --out and the view it draws.
std::optional<QString> cli::readOutputs(const QCommandLineParser &parser, CommandLine &cmd)
{
    const auto [figure, data, shot, frames, lecture] = outputsOf(parser);
    if (int(figure) + int(data) + int(shot) + int(frames) + int(lecture) > 1)
        return QStringLiteral("--export, --export-data, --export-frames, --export-lecture and --screenshot exclude "
                              "each other; give one.");
    for (const char *flag : {"size", "scale", "dpi", "font-size", "font"})
        if (parser.isSet(QLatin1String(flag)) && !figure && !frames && !lecture)
            return QStringLiteral("--%1 goes with --export, --export-frames or --export-lecture.")
                .arg(QLatin1String(flag));
    if ((parser.isSet(QStringLiteral("frames")) || parser.isSet(QStringLiteral("step"))) && !frames)
        return QStringLiteral("--frames and --step go with --export-frames.");
    if (parser.isSet(QStringLiteral("fps")) && !frames && !lecture)
        return QStringLiteral("--fps goes with --export-frames or --export-lecture --with-video.");
    // A figure's background goes: in files that can hold nothing there (not a GIF, a video, a handout).
    if (parser.isSet(QStringLiteral("transparent"))) {
        const QString framesOut = parser.value(QStringLiteral("export-frames")).toLower();
        const bool animation = framesOut.endsWith(QLatin1String(".gif")) || framesOut.endsWith(QLatin1String(".mp4")) ||
                               framesOut.endsWith(QLatin1String(".webm"));
        if (!figure && !(frames && !animation) &&
            !(lecture &&
              !parser.value(QStringLiteral("export-lecture")).endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive)))
            return QStringLiteral("--transparent goes with --export, --export-frames DIR or --export-lecture FOLDER "
                                  "(a GIF, a video and a printed handout have a background).");
    }
    for (const char *flag : {"with-video", "with-notes"})
        if (parser.isSet(QLatin1String(flag)) && !lecture)
            return QStringLiteral("--%1 goes with --export-lecture.").arg(QLatin1String(flag));
    if (parser.isSet(QStringLiteral("out")) && !figure && !data)
        return QStringLiteral("--out goes with --export or --export-data.");
    if (parser.isSet(QStringLiteral("view")) && (figure || data))
        return QStringLiteral("--view chooses the window's view or the frames' view; --export names its own.");
    if (parser.isSet(QStringLiteral("lecture")) && (figure || data || frames || lecture))
        return QStringLiteral("--lecture goes with the window or --screenshot.");
    // A lecture file is given in lecture mode; --export-lecture draws it instead.
    cmd.lecture = parser.isSet(QStringLiteral("lecture")) || (cmd.lectureFile && !lecture);
    cmd.out = parser.value(QStringLiteral("out"));
    if ((figure || data) && cmd.out.isEmpty())
        return QStringLiteral("--out FILE is required with --export and --export-data.");
    cmd.view = figure ? parser.value(QStringLiteral("export")) : parser.value(QStringLiteral("view"));
    if (figure && cmd.view.contains(QLatin1Char(','))) {
        // Several views, the panels of one figure: each a view, once.
        for (const QString &part : cmd.view.split(QLatin1Char(','))) {
            const QString id = part.trimmed();
            if (!findView(id))
                return QStringLiteral("--export: unknown view '%1' among the panels; views are %2.")
                    .arg(id, viewIds().join(QStringLiteral(", ")));
            if (cmd.panels.contains(id))
                return QStringLiteral("--export: the view '%1' is named twice; a view is one panel.").arg(id);
            cmd.panels << id;
        }
        if (cmd.panels.size() > kMaxPanels)
            return QStringLiteral("--export: at most %1 panels in a figure (got %2).")
                .arg(kMaxPanels)
                .arg(cmd.panels.size());
        cmd.view = cmd.panels.first();
    }
    for (const char *flag : {"panels", "panel-labels"})
        if (parser.isSet(QLatin1String(flag)) && cmd.panels.isEmpty())
            return QStringLiteral("--%1 goes with --export VIEW,VIEW,... (several views as panels).")
                .arg(QLatin1String(flag));
    if (cmd.view.isEmpty())
        cmd.view = cmd.session ? cmd.session->view : viewIds().first();
    if (!findView(cmd.view) && !(figure && cmd.view == QStringLiteral("all")))
        return QStringLiteral("%1: unknown view '%2'; views are %3.")
            .arg(figure ? QStringLiteral("--export") : QStringLiteral("--view"), cmd.view,
                 viewIds().join(QStringLiteral(", ")));
    return std::nullopt;
}

// --size, --scale, --dpi, --font-size and --font of a figure or the frames, held together by checkFigureOptions.
std::optional<QString> cli::readFigureOptions(const QCommandLineParser &parser, CommandLine &cmd)
{
    if (const Outputs asked = outputsOf(parser); !asked.figure && !asked.frames && !asked.lecture)
        return std::nullopt;
    if (parser.isSet(QStringLiteral("size")))
        if (auto problem = parseFigureSize(parser.value(QStringLiteral("size")), &cmd.figure))
            return QStringLiteral("--size: ") + *problem;
    if (parser.isSet(QStringLiteral("scale"))) {
        if (cmd.figure.isPhysical())
            return QStringLiteral("--scale: a size in %1 is drawn at --dpi; --scale goes with pixels.")
                .arg(unitName(cmd.figure.unit));
        const auto v = pe::parseReal(parser.value(QStringLiteral("scale")).toStdString());
        if (!v)
            return QStringLiteral("--scale: '%1' is not a number; the scale must be from %2 to %3.")
                .arg(parser.value(QStringLiteral("scale")))
                .arg(figurelimits::minScale)
                .arg(figurelimits::maxScale);
        cmd.figure.scale = *v;
    }
    QString error;
    if (parser.isSet(QStringLiteral("dpi"))) {
        const auto v =
            boundedFlag(parser, QStringLiteral("dpi"), true, figurelimits::minDpi, figurelimits::maxDpi, &error);
        if (!v)
            return error;
        cmd.figure.dpi = static_cast<int>(*v);
    }
    if (parser.isSet(QStringLiteral("font-size"))) {
        const auto v = boundedFlag(parser, QStringLiteral("font-size"), false, figurelimits::minFont,
                                   figurelimits::maxFont, &error);
        if (!v)
            return error;
        cmd.figure.fontPoints = *v;
    }
    cmd.figure.transparent = parser.isSet(QStringLiteral("transparent"));
    cmd.figure.fontFamily = parser.value(QStringLiteral("font")).trimmed();
    if (parser.isSet(QStringLiteral("font")) && cmd.figure.fontFamily.isEmpty())
        return QStringLiteral("--font: the value is empty; give a font family (fc-list : family lists them).");
    if (auto problem = checkFigureOptions(cmd.figure)) {
        const QString flag = problem->contains(QStringLiteral("font family")) ? QStringLiteral("--font: ")
                             : problem->contains(QStringLiteral("dpi"))       ? QStringLiteral("--dpi: ")
                             : problem->contains(QStringLiteral("scale"))     ? QStringLiteral("--scale: ")
                                                                              : QStringLiteral("--size: ");
        return flag + *problem;
    }
    return std::nullopt;
}

// What the chosen output needs: its mode, its file or folder, and that its view can be drawn.
namespace {

// A figure of one view (--export VIEW, --export-frames) drawn with a view's flag that view does
// not declare would ignore it without a word (--robust on the frequencies): refused, naming the
// views it applies to.
std::optional<QString> flagsTheViewIgnores(const QCommandLineParser &parser, const QStringList &viewIds,
                                           const QString &exempt = {})
{
    for (const QString &name : parser.optionNames()) {
        if (!cli::settingOfFlag(name) || name == exempt)
            continue;
        const bool declared = std::any_of(viewIds.begin(), viewIds.end(), [&name](const QString &id) {
            const ViewInfo *view = findView(id);
            return view && std::any_of(view->settings.begin(), view->settings.end(),
                                       [&name](const ViewSetting &s) { return s.flag == name; });
        });
        if (declared)
            continue;
        QStringList views;
        for (const ViewInfo &v : viewRegistry())
            for (const ViewSetting &s : v.settings)
                if (s.flag == name && !views.contains(v.id))
                    views << v.id;
        return QStringLiteral("--%1 applies to the %2 view%3, not to %4.")
            .arg(name, views.join(QStringLiteral(", ")), views.size() == 1 ? QString() : QStringLiteral("s"),
                 viewIds.join(QStringLiteral(" or ")));
    }
    return std::nullopt;
}

// The flags that shape only a figure (its title, markers, legend, aspect and colour limits) with
// --export-data, which writes numbers: refused, not ignored.
std::optional<QString> figureFlagsWithData(const QCommandLineParser &parser)
{
    QStringList figureOnly{markerSetting().flag, legendSetting().flag, aspectSetting({}).flag};
    for (const ViewSetting &s : figureSettings())
        figureOnly << s.flag;
    for (const ViewSetting &s : colourSettings(ColourScale::Values))
        figureOnly << s.flag;
    for (const QString &flag : figureOnly)
        if (!flag.isEmpty() && parser.isSet(flag))
            return QStringLiteral("--%1 shapes a figure; it goes with --export or --export-frames, not with "
                                  "--export-data (which writes the numbers alone).")
                .arg(flag);
    return std::nullopt;
}

// --export VIEW,VIEW,...: each view drawn, their flags, the grid (--panels, or --grid when the grid
// view is not a panel: the grid view's own flag otherwise) and the labels.
std::optional<QString> readExportPanels(const QCommandLineParser &parser, CommandLine &cmd)
{
    const bool gridAsPanels = cli::gridMeansPanels(parser);
    if (auto problem = flagsTheViewIgnores(parser, cmd.panels, gridAsPanels ? QStringLiteral("grid") : QString()))
        return problem;
    const QString flag = gridAsPanels ? QStringLiteral("grid") : QStringLiteral("panels");
    const QString grid = parser.isSet(flag) ? parser.value(flag) : QStringLiteral("1x%1").arg(cmd.panels.size());
    if (auto problem = parsePanelGrid(grid, static_cast<int>(cmd.panels.size()), &cmd.grid))
        return QStringLiteral("--%1: ").arg(flag) + *problem;
    if (parser.isSet(QStringLiteral("panel-labels")))
        if (auto problem = parsePanelLabels(parser.value(QStringLiteral("panel-labels")), &cmd.grid))
            return QStringLiteral("--panel-labels: ") + *problem;
    cmd.mode = CommandLine::Mode::ExportFigure;
    for (const QString &id : cmd.panels)
        if (auto problem = cli::drawProblem(cmd, id))
            return QStringLiteral("--export %1: %2").arg(id, *problem);
    if (auto problem = checkFigurePath(cmd.out))
        return QStringLiteral("--out: ") + *problem;
    return std::nullopt;
}

// --export-lecture FILE.pdf (a handout) or FOLDER (numbered slides in --format), each step's
// figure at --size, else a handout's 9 x 5 in or a slide's 1920 x 1080 with type at 2% of its height.
std::optional<QString> readExportLecture(const QCommandLineParser &parser, CommandLine &cmd)
{
    cmd.mode = CommandLine::Mode::ExportLecture;
    cmd.out = parser.value(QStringLiteral("export-lecture"));
    const bool handout = QFileInfo(cmd.out).suffix().toLower() == QLatin1String("pdf");
    if (handout) {
        const QFileInfo info(cmd.out);
        if (info.isDir())
            return QStringLiteral("--export-lecture: '%1' is a folder; a handout is one .pdf file.").arg(cmd.out);
        if (!info.absoluteDir().exists())
            return QStringLiteral("--export-lecture: the folder of '%1' does not exist.").arg(cmd.out);
        if (parser.isSet(QStringLiteral("format")))
            return QStringLiteral("--format goes with --export-lecture FOLDER; a handout is a PDF.");
    } else if (auto problem = cli::folderProblem(cmd.out)) {
        return QStringLiteral("--export-lecture: ") + *problem +
               QStringLiteral(" It writes one .pdf handout, or a folder with a file for each step.");
    }
    if (parser.isSet(QStringLiteral("format"))) {
        const auto f = figureFormatForPath(QStringLiteral("x.") + parser.value(QStringLiteral("format")));
        if (!f)
            return QStringLiteral("--format: '%1' is not a figure format; use png, svg or pdf.")
                .arg(parser.value(QStringLiteral("format")));
        cmd.allFormat = *f;
    }
    if (!parser.isSet(QStringLiteral("size"))) {
        if (handout) {
            cmd.figure.unit = SizeUnit::Inch;
            cmd.figure.physical = QSizeF(kHandoutFigureWidthInches, kHandoutFigureHeightInches);
            cmd.figure.size = cmd.figure.layoutSize();
        } else {
            cmd.figure.size = QSize(kSlideWidth, kSlideHeight);
        }
    }
    cmd.withVideo = parser.isSet(QStringLiteral("with-video"));
    cmd.withNotes = parser.isSet(QStringLiteral("with-notes"));
    if (cmd.withNotes && !handout)
        return QStringLiteral("--with-notes goes with --export-lecture FILE.pdf (slides show the caption; the "
                              "notes are the speaker's).");
    cmd.fps = 30;
    if (parser.isSet(QStringLiteral("fps"))) {
        const auto fps = pe::parseInteger(parser.value(QStringLiteral("fps")).toStdString());
        if (!cmd.withVideo)
            return QStringLiteral("--fps goes with --export-lecture --with-video (the steps' videos).");
        if (!fps || *fps < 1 || *fps > VideoWriter::kMaxFps)
            return QStringLiteral("--fps: must be a whole number of frames a second from 1 to %1 for a video (got "
                                  "'%2').")
                .arg(VideoWriter::kMaxFps)
                .arg(parser.value(QStringLiteral("fps")));
        cmd.fps = static_cast<int>(*fps);
    }
    if (!handout && !cmd.figure.isPhysical() && !parser.isSet(QStringLiteral("font-size")))
        cmd.figure.fontPoints = std::max(figurelimits::minFont, cmd.figure.size.height() * kSlideTickFraction);
    if (auto problem = checkFigureOptions(cmd.figure))
        return QStringLiteral("--size: ") + *problem;
    return std::nullopt;
}

} // namespace

std::optional<QString> cli::readExport(const QCommandLineParser &parser, CommandLine &cmd)
{
    const Outputs asked = outputsOf(parser);
    if (asked.lecture)
        return readExportLecture(parser, cmd);
    if (parser.isSet(QStringLiteral("format")) && !exportsAll(asked, cmd))
        return QStringLiteral("--format goes with --export all or --export-lecture FOLDER (one figure takes its "
                              "format from --out).");
    if (exportsAll(asked, cmd))
        return readExportAll(parser, cmd);
    if (asked.figure && !cmd.panels.isEmpty())
        return readExportPanels(parser, cmd);
    if (asked.figure) {
        if (auto problem = flagsTheViewIgnores(parser, {cmd.view}))
            return problem;
        return readExportFigure(cmd);
    }
    if (asked.data) {
        if (auto problem = figureFlagsWithData(parser))
            return problem;
        return readExportData(parser, cmd);
    }
    if (asked.frames) {
        if (auto problem = flagsTheViewIgnores(parser, {cmd.view}))
            return problem;
        if (auto error = readFramesTarget(parser, cmd))
            return error;
        return readFramesCount(parser, cmd);
    }
    if (asked.shot)
        return readScreenshot(parser, cmd);
    return std::nullopt;
}

std::optional<QString> cli::readRealPositions(const QCommandLineParser &parser, CommandLine &cmd)
{
    const bool fractionalStep = cmd.step != std::floor(cmd.step);
    if (cmd.fraction == 0 && !fractionalStep)
        return std::nullopt;
    // Why the command draws whole positions only: a data export, or the first view it draws (the
    // panels, every view for --export all, else the one) that draws whole positions; empty if none.
    QStringList views = cmd.panels.isEmpty() ? QStringList{cmd.view} : cmd.panels;
    if (cmd.view == QStringLiteral("all"))
        views = viewIds();
    else if (cmd.view.isEmpty())
        views = {viewIds().first()};
    QString why;
    for (const QString &id : views)
        if (const ViewInfo *info = findView(id); info && why.isEmpty())
            why = info->realPositionProblem(cmd.params, cmd.noise);
    const bool data = cmd.mode == CommandLine::Mode::ExportData;
    // A session's position between whole ones (playback stopped there in the window): the views that
    // draw whole positions draw its whole part, as the window does; only a typed one is refused.
    if (cmd.fraction != 0 && !parser.isSet(QStringLiteral("position")) && !fractionalStep) {
        if (data || !why.isEmpty()) {
            cmd.fraction = 0;
            if (cmd.session)
                cmd.session->position = static_cast<double>(cmd.position);
        }
        return std::nullopt;
    }
    const QString flag = cmd.fraction != 0 ? QStringLiteral("position") : QStringLiteral("step");
    const QString given =
        cmd.fraction != 0 && !parser.isSet(QStringLiteral("position"))
            ? QStringLiteral("%1 (the session's)")
                  .arg(QString::fromStdString(pe::positionText(static_cast<double>(cmd.position) + cmd.fraction)))
            : parser.value(flag);
    if (data)
        return QStringLiteral("--%1 %2: a data export is a table at whole positions; give a whole one.")
            .arg(flag, given);
    if (!why.isEmpty())
        return QStringLiteral("--%1 %2: positions between whole ones are not drawn here: %3.").arg(flag, given, why);
    return std::nullopt;
}
