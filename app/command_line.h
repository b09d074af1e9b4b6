#pragma once

#include "encodings/encoding_params.h"
#include "encodings/noise.h"
#include "figures/panel_figure.h"
#include "figures/theme.h"
#include "state/lecture.h"
#include "state/session.h"
#include "state/view_registry.h"

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

// What the command line asked for. Every value has been checked: parameters by pe::validate(),
// figure options by checkFigureOptions(), paths by their extension.
struct CommandLine {
    enum class Mode {
        Window,
        Screenshot,
        ExportFigure,
        ExportData,
        ExportFrames,
        ExportLecture,
        Help,
        Version,
        ListPresets,
        ListLectures,
        ListTensors,
        ModelInfo
    };

    Mode mode = Mode::Window;
    pe::EncodingParams params;
    std::int64_t position = 0; // --position, default start_pos: its whole part
    double fraction = 0;       // --position 2.25's part past it, for a view that draws real t
    QString view;              // --export, else --view (default: the first view)
    bool lecture = false;      // --lecture
    pe::NoiseParams noise;     // --noise, --seed
    // The views' own settings given as flags (--metric, --pairs, --perplexity, ...): view id ->
    // its settings, checked against the registry; applied after a session's.
    QMap<QString, QJsonObject> viewSettings;
    QString dataKind;       // --export-data
    QString out;            // --out, the --screenshot file or the --export-frames folder
    int frames = 0;         // --frames
    double step = 1;        // --step: whole, or a fraction for a view that draws real t
    bool animation = false; // --export-frames FILE.gif|mp4|webm: one file (a GIF or a video)
    int fps = 10;           // --fps
    FigureOptions figure;
    QStringList panels; // --export VIEW,VIEW,...: the panels' views (view is the first); empty for one
    PanelGrid grid;     // --panels (or --grid), --panel-labels
    FigureFormat allFormat = FigureFormat::Png; // --export all --format
    std::optional<Session> session;             // --session FILE or --preset NAME
    QString listFile;                           // --list-tensors FILE, --model-info FILE
    bool restoreLast = false;                   // a plain launch: the window comes back as it was closed
    std::optional<Lecture> lectureFile;         // --lecture-file NAME|FILE
    int lectureStep = 0;                        // --lecture-step, from 0
    bool withVideo = false;                     // --export-lecture --with-video
    bool withNotes = false;                     // --export-lecture FILE.pdf --with-notes
    std::optional<Theme> theme;                 // --theme
};

struct ParsedCommandLine {
    CommandLine command;
    QString error; // one line naming the flag and what is allowed; empty when the line is good
};

// args[0] is the program name.
ParsedCommandLine parseCommandLine(const QStringList &args);
QString helpText();

// A view's settings as the command asks for them: the session's (or preset's), then the flags,
// the rest at their defaults; and the request its data export computes from.
QJsonObject viewSettings(const CommandLine &command, const ViewInfo &view);
DataRequest dataRequest(const CommandLine &command, const ViewInfo &view);

// Runs a parsed command: exports and screenshots, or the window. Returns the exit code
// (0 success, 2 bad input or unwritable output).
int runCommandLine(const CommandLine &command, int &argc, char **argv);
// --list-tensors FILE: every tensor of a .npy, safetensors or GGUF file with its type and shape, the
// ones --table and --bias-table would take marked. Returns the exit code (2 for a file it refuses).
int listTensors(const QString &path);
// --model-info FILE: the model, each value with the key it came from, and the same as flags.
int modelInfo(const QString &path);
