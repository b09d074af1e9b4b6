#pragma once

#include "encodings/encoding.h"
#include "encodings/noise.h"
#include "export/data_export.h"
#include "state/view_settings.h"

#include <QString>

#include <functional>
#include <memory>
#include <vector>

// What a data export is computed from: the state, and the view's settings with every key present
// (completeSettings), so an export needs no widget.
struct DataRequest {
    std::shared_ptr<const pe::Encoding> encoding;
    pe::NoiseParams noise;
    std::int64_t position = 0;
    QJsonObject settings;
};

// A table a view exports: the command line's --export-data KIND and the window's File > Export
// view data. `problem` says in one sentence why there is none for a request (too large); empty
// function or empty answer: there is one.
struct DataExport {
    QString kind;
    QString help;
    std::function<QString(const DataRequest &)> problem{};
    std::function<pe::Table(const DataRequest &)> table{};

    // The table for a request, holding the request's encoding for as long as the table is read:
    // tables are filled while they are written, after the request is gone.
    pe::Table make(const DataRequest &request) const;
};

// Every figure view, in the navigator's order, and everything the window and the command line know
// of it, without its widget. A new view is its entry (state/view_info/), its line in
// state/view_list.cpp, its pair of files in views/ and its line in views/view_list.cpp: the
// navigator, the View menu, File > Export figure, sessions, --help, the command line's options,
// --export and --export-data all read this.
struct ViewInfo {
    QString id;    // command-line name, e.g. "heatmap"
    QString title; // navigator and menu text
    ViewSettings settings{};
    std::vector<DataExport> exports{};
    // Why the figure cannot be drawn for a request (the projection's limits), one sentence; empty
    // function or answer: it can. The view says the same (PlotView::cannotDraw), and the command
    // line refuses such an --export before anything runs.
    std::function<QString(const DataRequest &)> cannotDraw{};
    // The schemes the view draws; empty: every scheme with position vectors (all but ALiBi).
    std::vector<pe::SchemeId> schemes{};
    // What it explains: one of viewGroups() (set by the list of views, views/view_list.cpp).
    QString group{};
    // Whether it draws the position at any real t (Parameters::realPosition: smooth playback,
    // --position 2.5, --step 0.25) where the state has positions between whole ones: the clocks'
    // current row, the circles' marker, the heatmap's row, the attention row. The others draw the
    // whole part. realRowsProblem narrows it by the state (attention's N x N scores), one sentence.
    bool realPositions = false;
    std::function<QString(const pe::EncodingParams &)> realRowsProblem{};

    // Why the view does not draw p's scheme, one sentence; empty when it does. cannotDraw and
    // every export's problem say it first (viewInfo() adds it), so the window shows it in place of
    // the figure and the command line refuses with it.
    QString schemeProblem(const pe::EncodingParams &p) const;
    // Why this view draws position t only at a whole position for this state, one sentence; empty
    // when it draws any real t (the window says it beside the position; the command line refuses
    // a fractional --position or --step with it).
    QString realPositionProblem(const pe::EncodingParams &p, const pe::NoiseParams &noise) const;
};

// The encoding itself, seq_len x d_model in float64 (a table: the chosen rows, equal to the file's
// values): the heatmap's and the circles' data.
DataExport encodingExport();

const std::vector<ViewInfo> &viewRegistry();
// The groups of views by what they explain, in the navigator's order (the encoding itself, what it
// lets a model read, projections, RoPE and its extensions, biases); every view is in one.
QStringList viewGroups();
const ViewInfo *findView(const QString &id);
QStringList viewIds();

// The data kinds of every view, in registry order, each once (a kind two views share is the
// first one's); and the one with this name.
struct DataKind {
    const ViewInfo *view;
    const DataExport *data;
};
std::vector<DataKind> dataKinds();
std::optional<DataKind> findDataKind(const QString &kind);

// The entry with its schemeProblem() said first by cannotDraw and by every export's problem.
ViewInfo withSchemeCheck(ViewInfo info);

// The settings every view has, after its own: the figure's title (--title replaces it, an empty
// --title hides it; the window's View > Figure title). PlotView holds their controls.
ViewSettings figureSettings();

// The colour scale's limits and label, declared by the views with a colour bar: --vmin V and --vmax V
// (a number, or auto: the view's own), --robust (the 2nd and 98th percentiles of the values drawn,
// said in the colour bar, as matplotlib's robust limits take them), --colorbar-label TEXT. What the
// colours show decides --robust: values (a table's two outlier columns set a heatmap's scale) or
// positions, evenly spread, with no outliers to leave out (no --robust).
enum class ColourScale { None, Values, Positions };
ViewSettings colourSettings(ColourScale kind);
inline constexpr double kRobustLow = 2, kRobustHigh = 98;
// The largest |limit| and the least span of given limits: QCustomPlot draws ranges of sizes from
// 1e-280 to 1e250 and silently keeps the old one otherwise.
inline constexpr double kMaxColourLimit = 1e100;
inline constexpr double kMinColourSpan = 1e-100;
struct ColourLimits {
    std::optional<double> low, high; // given; nothing: the view's own
    bool robust = false;
    QString label; // empty: the view's own
    bool any() const { return low || high || robust || !label.isEmpty(); }
};
// From a view's settings; a view without colour settings: nothing given.
ColourLimits colourLimits(const QJsonObject &settings);
// --vmin at or above --vmax, in one sentence; empty when the limits are a range.
QString colourLimitsProblem(const QJsonObject &settings);
// The range a colour bar shows: `automatic` (the view's own) with the given limits in place of its
// ends, or the robust percentiles of `values` (the cells drawn, NaN for masked) where none is
// given. One end given beyond the other's automatic value keeps the span of the automatic range
// and `note` says that every value lies below (above) the colours' range; otherwise note is empty.
struct ColourRange {
    double low = 0, high = 1;
    QString note;
    bool robustLow = false, robustHigh = false; // the end is the values' percentile
};
ColourRange limitedColourRange(double automaticLow, double automaticHigh, const ColourLimits &limits,
                               std::vector<double> values = {});

// Where the legend goes, declared by the views with one (--legend): above the plots (a strip, the
// default), below them, inside the main plot at a corner or at the corner that covers the fewest
// data points (best, as matplotlib's loc='best'), or off.
ViewSetting legendSetting();

// The plots' units, declared by the views whose x and y are the same kind of number (the circles'
// sin and cos, a projection's coordinates): equal (a unit as long on both axes: circles round, as
// matplotlib's set_aspect('equal'), the shorter range widened) or auto (each axis fills its side).
// --aspect. The view's default is given.
ViewSetting aspectSetting(const QString &defaultValue);

// The figure's markers, declared by the views with a position axis (PlotView::positionAxes): a
// red dashed line at each position listed ("50, 100"), as the articles mark theirs. --marker T,
// repeatable. At most kMaxMarkers.
inline constexpr int kMaxMarkers = 32;
ViewSetting markerSetting();
// The positions of a markers text, or nothing with `error` one sentence.
std::optional<std::vector<std::int64_t>> parseMarkers(const QString &text, QString *error);
