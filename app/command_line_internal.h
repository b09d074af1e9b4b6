// The stages parseCommandLine runs, in order, and the helpers they share; for app/command_line*.cpp only.
#pragma once

#include "command_line.h"

#include "encodings/encoding_params.h"

#include <QString>

#include <cstdint>
#include <optional>

class QCommandLineParser;
struct ViewSetting;

namespace cli {

// A stage reads its flags into cmd; it returns the one-sentence refusal of the first bad one, or
// nothing. Each relies on what the stages before it read.
using Stage = std::optional<QString> (*)(const QCommandLineParser &parser, CommandLine &cmd);

// A lecture (command_line_lecture.cpp): --lecture-file and --lecture-step give the state of a step
// (no state flag may change it), --export-lecture needs one; --theme for every output.
std::optional<QString> readLecture(const QCommandLineParser &parser, CommandLine &cmd);
std::optional<QString> readTheme(const QCommandLineParser &parser, CommandLine &cmd);

// The state (command_line_state.cpp): a session or preset (--session, --preset), then the flags
// that change it: --table, --scheme and the sizes; --base, --layout, --exponent; the scheme's own
// parameters, then pe::validate; --position or --reference; --noise, --seed, --rng.
std::optional<QString> readSource(const QCommandLineParser &parser, CommandLine &cmd);
std::optional<QString> readScheme(const QCommandLineParser &parser, CommandLine &cmd);
std::optional<QString> readFrequencies(const QCommandLineParser &parser, CommandLine &cmd);
std::optional<QString> readSchemeParameters(const QCommandLineParser &parser, CommandLine &cmd);
std::optional<QString> readPosition(const QCommandLineParser &parser, CommandLine &cmd);
std::optional<QString> readNoise(const QCommandLineParser &parser, CommandLine &cmd);
// Whether the line names any state (a session, a preset, a parameter, the position or the noise).
bool givesState(const QCommandLineParser &parser, const CommandLine &cmd);

// The views' own settings (command_line_views.cpp), then the session takes what the flags changed.
std::optional<QString> readViewSettings(const QCommandLineParser &parser, CommandLine &cmd);
std::optional<QString> carryIntoSession(const QCommandLineParser &parser, CommandLine &cmd); // never refuses

// The outputs (command_line_outputs.cpp): which one, with --out and --view; the figure's size and
// type; then what the chosen output needs.
std::optional<QString> readOutputs(const QCommandLineParser &parser, CommandLine &cmd);
std::optional<QString> readFigureOptions(const QCommandLineParser &parser, CommandLine &cmd);
std::optional<QString> readExport(const QCommandLineParser &parser, CommandLine &cmd);
// A --position or --step between whole ones, for views that draw any real t of a state that has them.
std::optional<QString> readRealPositions(const QCommandLineParser &parser, CommandLine &cmd);

// The helpers.
// A whole number for a parameter's flag into target, left as it is when the flag is not given.
std::optional<QString> integerFlag(const QCommandLineParser &parser, const QString &name, std::int64_t &target,
                                   pe::Field field);
// A figure flag's number from lo to hi, whole or a number of points; otherwise the refusal.
std::optional<double> boundedFlag(const QCommandLineParser &parser, const QString &name, bool whole, double lo,
                                  double hi, QString *error);
// Why a view flag means nothing under p's scheme; empty when a view declaring it takes the scheme.
QString schemeRefusal(const QString &flag, const pe::EncodingParams &p);
// Why a view of an export (the command's view by default, or a panel's) cannot be drawn with these
// settings (ViewInfo::cannotDraw).
std::optional<QString> drawProblem(const CommandLine &cmd, const QString &viewId = {});
// --grid RxC with --export VIEW,VIEW,... that has no grid view among them: the panels' grid, not
// the grid view's flag (the issue's own example, --export heatmap,frequencies --grid 1x2).
bool gridMeansPanels(const QCommandLineParser &parser);
// Why dir cannot be the folder an export writes into.
std::optional<QString> folderProblem(const QString &dir);
// The view setting a flag sets, or null for the command line's own flags.
const ViewSetting *settingOfFlag(const QString &flag);

} // namespace cli
