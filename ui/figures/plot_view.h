#pragma once

#include "analysis/reduction.h"
#include "export/data_export.h"

#include <QColor>
#include <QFont>
#include <QImage>
#include <QJsonObject>
#include <QMargins>
#include <QPointer>
#include <QStringList>
#include <QWidget>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <vector>

class Parameters;
class PositionMatrix;
class ViewState;
struct DataRequest;
struct ViewInfo;
class QCPAxis;
class QCheckBox;
class QLineEdit;
class QCPAxisRect;
class QCPGraph;
class QCPPainter;
class QCPItemStraightLine;
class QCPLayoutGrid;
class QCPTextElement;
class QCustomPlot;
class QHBoxLayout;
class QLabel;

// Base of every figure view: a tool row above a QCustomPlot. A view listens to Parameters and
// recomputes only when it is visible (or rendered for export), at the resolution it is drawn at.
// The window and the command line render figures through render(), so they never disagree.
class PlotView : public QWidget
{
    Q_OBJECT

  public:
    PlotView(Parameters *parameters, QWidget *parent = nullptr);

    QCustomPlot *plot() const { return plot_; }
    Parameters *parameters() const { return parameters_; }

    // The figure alone (no tool row) at size logical pixels times scale.
    QImage render(QSize size, double scale);
    // The same laid out at `size` and drawn onto exactly `pixels` (a physical size at a dpi: 89 mm
    // at 600 dpi is 2,102 pixels for a layout of 252 points, not 2,100).
    QImage render(QSize size, QSize pixels);
    // The same onto a painter (SVG, PDF): vector output, its cells and points computed at `detail`
    // device pixels per pixel.
    void renderTo(QCPPainter *painter, QSize size, double detail);
    // Text in points for the renders that follow (a figure laid out in points): tick labels of
    // `points`, axis labels, legends and titles in the same proportions as on screen (10 and 11 to
    // 9). 0, the default: the view's own sizes.
    void setFigureFontPoints(double points) { figureFontPoints_ = points; }
    // A figure drawn without its background rectangle (--transparent).
    void setFigureTransparent(bool on) { figureTransparent_ = on; }
    bool figureTransparent() const { return figureTransparent_; }
    double figureFontPoints() const { return figureFontPoints_; }
    // The least size the figure's layout takes at `size` in its figure type (every plot keeping
    // kFigurePlotLines lines of tick type tall, twice that wide): larger than size, parts would
    // overlap. Lays the view out at size without drawing it.
    QSize figureNeeds(QSize size);
    static constexpr int kFigurePlotLines = 3;
    // The lines of tick type each plot of this view keeps in a figure, wide and tall: twice
    // kFigurePlotLines by kFigurePlotLines; stacked maps that share their x axis (the inputs) keep
    // fewer lines tall, square plots without tick labels (the compact circles) as many wide as tall.
    virtual QSize figurePlotLines() const { return {2 * kFigurePlotLines, kFigurePlotLines}; }
    // A panel of a figure of several views (figures/panel_figure.h), for the renders that follow:
    // margins around the view's whole layout (its plots aligned with its neighbours'), and a label
    // at the top-left corner ("(a)", in the axis titles' type, bold). None by default.
    // In a panel the title keeps the figure's title type (one type across the panels): its parts
    // give way instead of its size. `on` false: not a panel again.
    void setPanel(QMargins insets, const QString &label, bool on = true);
    // Where the last render (or figureNeeds) put things, in the render's points: the plots (every
    // axis rect's union), the texts above and around them (titles and legends, as their text runs,
    // not their rows), and the panel's label.
    struct FigureLayout {
        QSize needs;
        QRect plots;
        std::vector<QRect> texts;
        QRect label;
    };
    const FigureLayout &figureLayout() const { return figureLayout_; }

    // Recomputes now if visible; otherwise on the next show or render.
    void refresh();
    // False for views that do not show the current position (they ignore it).
    virtual bool followsPosition() const { return true; }
    // Views that compute on a worker thread block here until their result is drawn; render()
    // calls it, so exports are always complete.
    virtual void finishWork() {}

    // The registry entry the view was created from: its id, settings and exports. ViewInfo::create
    // binds it, giving each declared setting's control its range, choices and default.
    const ViewInfo &info() const { return *info_; }
    void bindSettings(const ViewInfo &info);
    // The position this view draws: Parameters::realPosition where its entry draws any real t for
    // this state (ViewInfo::realPositionProblem is empty), else the whole position.
    double shownPosition() const;
    // A position as titles write it: 16381, 10.25 (pe::positionText).
    static QString positionText(double t) { return QString::fromStdString(pe::positionText(t)); }

    // The view's settings: a ViewState of its own until the workspace gives it the one it keeps
    // for this view (useState; nullptr: its own again). The view reads only this; its controls
    // only edit it; a change to it, from a control or not, updates the controls and then calls
    // settingsChanged().
    const ViewState &state() const;
    void useState(ViewState *state);
    // The state's values (every setting its registry entry declares, by key, a choice by its name).
    QJsonObject settings() const;
    // Checks settings and applies them to the state; a problem names the setting and what it
    // allows. Nothing is applied unless every entry is valid; values are never clamped. Older
    // files' choices by index are read too.
    std::optional<QString> applySettings(const QJsonObject &settings);

    // The state and this view's settings, as the registry's data exports take them.
    DataRequest dataRequest() const;
    // The numbers behind the figure (File > Export view data): the registry's first export for the
    // current state, the same table --export-data writes; views that computed theirs on a worker
    // hand over that result. Nothing when the view has no table for these parameters.
    virtual std::optional<pe::Table> dataTable() const;

    // Figures exported from the command line are finished ones (a projection run to its end); the
    // window draws what it has.
    void setCompleteFigures(bool on) { completeFigures_ = on; }
    bool completeFigures() const { return completeFigures_; }

    // Why the figure cannot be drawn for the current parameters (the projection's limits); empty
    // when it can. Export all skips such a view and says why instead of writing an empty figure.
    QString cannotDraw() const;

    // What the hover tooltip says at a pixel of the plot; empty for nothing.
    virtual QString tooltipAt(QPointF pixel) const;

    // Numbers this view keeps for display (its values, cells and plotted points): bounded by the
    // pixels it draws, never by seq_len x d_model. The memory tests count with it.
    virtual std::int64_t heldValues() const;

    // Lecture mode: large fonts and thick lines, readable from the back of a hall; no tool row.
    void setLectureMode(bool on);
    bool lectureMode() const { return lecture_; }
    static constexpr double kLectureFontScale = 2.4;
    // Lecture type scales with the screen: tick labels at least this share of its height, at any
    // resolution and device pixel ratio (3840 x 2160 at ratio 1 would get 1080 lines' 29 px).
    static constexpr double kLectureTickShare = 0.02;
    // Ctrl+= and Ctrl+- in lecture mode: the type times this, from kMinLectureZoom to kMaxLectureZoom.
    void setLectureZoom(double zoom);
    double lectureZoom() const { return lectureZoom_; }
    static constexpr double kMinLectureZoom = 0.5;
    static constexpr double kMaxLectureZoom = 2.5;
    // The lecture type's scale on a screen `height` logical pixels tall at `dpi`, times `zoom`.
    static double lectureFontScale(int height, double dpi, double zoom);

  signals:
    // After every recomputation; the window's tests and the benchmark wait on it.
    void rebuilt();
    // A setting edited through its control (not set on the state by anything else): the settings
    // before and after, for the undo history.
    void settingsEdited(const QJsonObject &before, const QJsonObject &after);

  protected:
    // Fills the plot for the current parameters and the plot's current size; then replots.
    virtual void rebuild() = 0;
    // Device pixels per logical pixel of what is being drawn (screen or export).
    double pixelScale() const { return pixelScale_; }
    // Drawn as vectors (SVG, PDF, renderTo()): a reader zooms in, so the dpi is no measure of detail.
    bool vectorOutput() const { return vectorOutput_; }
    QHBoxLayout *toolRow() const { return toolRow_; }
    // After bindSettings: the state holds the declared defaults (a view that reads them to set up
    // its own members does it here, not in its constructor).
    virtual void settingsBound() {}
    // Settings changed (their keys), the controls already showing them: the default recomputes.
    virtual void settingsChanged(const QStringList &keys);
    // The axes whose coordinate is a position (t or s): the figure's markers (markerSetting) are
    // drawn across them. A view that declares markerSetting() returns its position axes.
    virtual QList<QCPAxis *> positionAxes() const { return {}; }
    // The plots whose x and y units the aspect setting (aspectSetting) makes equal; a view that
    // declares it returns them, and sets their ranges afresh on each rebuild.
    virtual QList<QCPAxisRect *> aspectRects() const { return {}; }
    // Called when only the current position moved; the default recomputes everything.
    // The colour limits (--vmin, --vmax) are applied again after it: a rebuild sets the view's own range.
    virtual void positionMoved() { rebuild(); }
    // After the plot took the widget's palette (applyPalette: a theme change replots without a
    // rebuild): a view's own colours that follow the ground.
    virtual void paletteApplied() {}
    // The plot's background colour as applyPalette last set it.
    QColor ground() const { return ground_; }
    // Redraws the "overlay" layer alone (its own paint buffer): a view that keeps everything that
    // follows the position there (markers, frames, the current row's hands) calls it when only the
    // position moved, so playback repaints a layer, not the whole figure.
    void replotPositionLayer();
    // The colour settings (colourSettings: --vmin, --vmax, --robust, --colorbar-label) on every colour
    // bar the rebuild left, and on the colour maps drawn through it; before the layout, as the label
    // takes room. Each bar's own range and label are kept (colourBars_), so a view that sets them
    // once, or only when they change, gets them back when the limits are cleared. PlotView applies
    // them after each rebuild and position step; a view that redraws its bars at other times (a
    // projection's frames as they arrive) applies them again itself.
    void applyColourLimits();
    // Gives the "overlay" layer its own paint buffer, for a view that calls replotPositionLayer
    // (without it that call replots the whole figure).
    void usePositionLayer();
    // A position step of a view with a position matrix (attention, ALiBi, T5) whose row line is on
    // the position layer: on the matrix's page, the line moved and the layer replotted alone; off
    // it, a rebuild (a new page).
    void stepMatrixRow(const PositionMatrix &matrix, QCPItemStraightLine *row);
    // Pen widths are multiplied by this (2.5 in lecture mode), font sizes by fontScale(): 2.4 in
    // lecture mode puts 9 pt tick labels at 21.6 pt, 29 px at 96 dpi, readable from the back of a hall.
    // Line widths and marker sizes: wider in lecture mode and on a projector; in a figure of given
    // type, in proportion to it (a 3.5 in figure's scatter dots made a band of each curve).
    double lineScale() const
    {
        return (lecture_ ? 2.5 : 1.0) * (projector() ? 1.6 : 1.0) *
               (figureFontPoints_ > 0 ? std::max(0.5, fontScale()) : 1.0);
    }
    // The high-contrast projector theme is on (View > Theme): thicker lines, darker grids.
    static bool projector();
    // Outside lecture mode a small figure (an export down to 400 x 300) scales its type down with
    // its size, to 0.72 at the least, so labels and titles keep their room.
    double fontScale() const;
    // A pen for a curve of n points: wide, with round caps and joins (a ScreenGraph draws it a
    // segment at a time on the screen, the same outline), up to 400 points; longer curves get the
    // one-pixel cosmetic pen, as a wide line costs each of its thousands of segments a stroke.
    QPen curvePen(const QColor &color, double width, std::int64_t points) const;
    // Point size of a plot font at the current scale.
    double fontSize(double normal) const { return normal * fontScale(); }
    // A dashed marker line (a reference, a true value, a window span) on an axis rect's bottom and
    // left axes, clipped to it; the plot's main rect by default.
    QCPItemStraightLine *addMarkerLine(const QColor &color, QCPAxisRect *rect = nullptr) const;
    // A graph (a curve, or symbols: a point per pair, per head, per position), on the plot's bottom
    // and left axes by default. Every view's graph is made here, not by QCustomPlot::addGraph: a
    // ScreenGraph, which draws its symbols and wide curves on the screen faster, to the same
    // picture up to the shades of antialiased edges (tst_plot_drawing). A view that replaced the
    // default axis rect passes its axes.
    QCPGraph *addGraph(QCPAxis *keyAxis = nullptr, QCPAxis *valueAxis = nullptr) const;
    // A line in pen on the given axes (a key axis and a value axis of one rect), clipped to their rect.
    QCPItemStraightLine *addLine(const QPen &pen, QCPAxis *xAxis, QCPAxis *yAxis) const;
    // Puts a marker line upright at x, or level at y.
    static void placeVertical(QCPItemStraightLine *line, double x);
    static void placeHorizontal(QCPItemStraightLine *line, double y);
    // The plot's viewport less a panel's insets (setPanel): the room the view's layout has.
    QRect layoutArea() const;
    // A bold title above the plot, in a row of its own.
    QCPTextElement *addTitle();
    // After addTitle(): the grid below the title, holding the axis rect at (0, 0); a colour scale
    // goes at (0, 1).
    QCPLayoutGrid *content() const { return content_; }
    // Sets a title from its parts: on one line when it fits the plot's width, else one part a line.
    void setTitle(QCPTextElement *title, const QStringList &parts) const;
    // Tick spacing for the labels' size on every axis (after each layout, and before an export).
    void spaceTicks();
    // A curve reduced to its envelope (pe::curveEnvelope): each run drawn from its lowest to its
    // highest value at x = x0 + its first index, so a spike between samples still shows.
    static void setEnvelope(QCPGraph *graph, const pe::CurveEnvelope &curve, double x0);
    // After addTitle(): the legend as a strip between the title and the plots, items side by side,
    // so it never covers data, at any size or in lecture type. It takes row 0 of content(), moving
    // the rest down. wrapLegend() (each rebuild) puts as many items a row as the width holds.
    void placeLegendAbove();
    void wrapLegend();
    // The legend where the legend setting asks (legendSetting), after each rebuild: the strip above
    // (placeLegendAbove's row), a row below the plots, or the main plot's inset at a corner; an
    // empty one in no layout. A view whose entries change between rebuilds calls it then.
    void placeLegend();
    // "1 position", "50 positions".
    static QString countText(std::int64_t n, const QString &one, const QString &many);

    // The current scale's fonts on every axis, legend, title and colour scale the plot has now.
    void applyFonts();

    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    // The plot's layout brought up to date now (margins, then positions), without a replot.
    void layOut();

  private:
    void rebuildNow();
    // Control i (of info_->settings[i]) was edited: its value into the state, then settingsEdited.
    void controlEdited(std::size_t i);
    QJsonValue controlValue(std::size_t i) const;
    // The state changed: the controls of these keys show it, then settingsChanged().
    void stateChanged(const QJsonObject &before, const QJsonObject &after, const QStringList &keys);
    void showSettings(const QStringList &keys);
    QStringList allKeys() const;
    // Every axis of every plot, and the colour bars' value axes.
    std::vector<QCPAxis *> allAxes() const;
    // The markers' lines where the markers setting asks, on positionAxes(), after each rebuild.
    void placeMarkers();
    // rebuild(), then what PlotView adds to every view's figure before it is laid out: the colour
    // limits and the legend's place.
    void rebuildFigure();
    // Each colour bar level with the plot beside it in its grid row (their top and bottom margins
    // grouped), unless the view grouped either already.
    void alignColourBars();
    // --aspect equal on aspectRects(): the axis with fewer pixels a unit keeps its range, the
    // other's widens about its centre, at the layout now.
    void applyAspect();
    struct ColourBar {
        double ownLow = 0, ownHigh = 0, appliedLow = 0, appliedHigh = 0;
        bool applied = false;
        QString ownLabel, appliedLabel;
    };
    std::map<const void *, ColourBar> colourBars_;
    // A legend inside the plot that its plot does not hold (at the layout now) goes above; then
    // laid out again. The figure's render asks at its final layout too.
    void keepLegendInside();
    // The legend in the strip above the plots (placeLegendAbove's row), its items wrapped to the width.
    void legendToStrip();
    // Shows the scheme's problem in place of the plot, or the plot; true when the plot is shown.
    bool showScheme();
    QString wrappedTitle(const QFont &font, const QStringList &parts) const;
    // setTitle() again for each title with its parts and unshrunk font, for the plots' layout now.
    void refitTitles();
    void applyPalette();
    // figureLayout_ for the layout now; the panel's label as an item at the corner, which the
    // caller removes after drawing (null without a label).
    class QCPItemText *measureFigure();
    void renderWith(QSize size, double scale, const std::function<void()> &draw);

    struct TitleParts {
        QPointer<QCPTextElement> title;
        QStringList parts;
        QFont font; // before setTitle() shrank it
    };
    mutable std::vector<TitleParts> titles_; // each title's last setTitle()

    Parameters *parameters_;
    const ViewInfo *info_ = nullptr;
    std::vector<QWidget *> controls_; // the control of each of info_->settings, in order (or null)
    ViewState *ownState_ = nullptr;   // until the workspace's is given
    ViewState *state_ = nullptr;
    int showingSettings_ = 0; // > 0 while the controls are written from the state
    bool completeFigures_ = false;

    QCustomPlot *plot_;
    // In place of the plot when the view does not draw the scheme (ViewInfo::schemeProblem).
    QLabel *notice_;
    QCPLayoutGrid *content_ = nullptr;
    QWidget *toolArea_;
    QHBoxLayout *toolRow_;
    bool lecture_ = false;
    double lectureZoom_ = 1.0;
    double figureFontPoints_ = 0;
    bool figureTransparent_ = false;
    QColor ground_ = Qt::white;   // the plot's background, as applyPalette last set it
    FigureLayout figureLayout_{}; // what the last figure's layout needed and where it put things
    QMargins panelInsets_{};
    QString panelLabel_{};
    bool panel_ = false;
    double drawnPosition_ = -1; // the position the plot shows (shownPosition)
    bool rebuilding_ = false;   // inside rebuildNow: replotPositionLayer leaves it to the final replot
    double pixelScale_ = 1.0;
    bool vectorOutput_ = false;
    bool dirty_ = true;
    bool builtForProjector_ = false;
};
