#pragma once

#include "figures/plot_view.h"
#include "projections/point_colors.h"
#include "projections/projection.h"
#include "state/view_settings.h"

#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>

class BackgroundJob;
class QCheckBox;
class QComboBox;
class QCPColorMap;
class QCPColorScale;
class QCPGraph;
class QCPItemLine;
class QCPItemText;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTimer;

// Seed 004's projection: every position's vector placed in 2-D or 3-D by t-SNE, PCA or UMAP (in 3-D
// a scatter seen from an angle, drag to turn, wheel to zoom), coloured by
// position or by what --color-by names (a pair's phase, the norm, a column, the offset to the
// nearest point drawn, labels from a file with their legend), labelled when few, the current
// position ringed. t-SNE runs on a worker thread and the
// plot follows it as it converges; Pause keeps the optimiser, Restart starts it anew, and any
// change of parameters or settings restarts it. Points are drawn as a raster at the plot's own
// resolution, so 100,000 points cost what the pixels do.
class ProjectionView : public PlotView
{
    Q_OBJECT

  public:
    // The method and the t-SNE settings of completed settings (completeSettings): what a data export
    // and the view itself run.
    std::optional<pe::Table> dataTable() const override;
    explicit ProjectionView(Parameters *parameters, QWidget *parent = nullptr);

    pe::ProjectionMethod method() const;
    void setMethod(pe::ProjectionMethod method);
    pe::TsneSettings tsneSettings() const;
    pe::UmapSettings umapSettings() const;
    int components() const;
    // The angle a 3-D projection is seen from: the settings', or the one a drag is turning to.
    pe::ViewAngle viewAngle() const;
    void setSettings(const pe::TsneSettings &settings);

    // The last frame shown: n x dims coordinates (empty while the first is computed).
    const pe::Projection &projection() const { return shown_; }
    // Where each point of the frame is drawn, in the plot's coordinates: the frame itself in 2-D, its
    // view from viewAngle() in 3-D (n x 2).
    const double *planar() const;
    // The value each shown point is coloured by (the colour bar's, or a label's index, -1
    // unlabelled), and why the colouring asked for is not drawn (empty when it is).
    std::vector<double> colorValues() const;
    const QString &colorProblem() const { return colorProblem_; }
    bool running() const;
    bool paused() const { return paused_; }
    void finishWork() override;

    void pause();
    void resume();
    void restart();
    // Back to the whole projection after zooming or panning.
    void fit();

    QString tooltipAt(QPointF pixel) const override;
    std::int64_t heldValues() const override;
    // The position drawn nearest to a pixel of the plot, within a few pixels; -1 for none.
    std::int64_t positionAt(QPointF pixel) const;

  protected:
    QList<QCPAxisRect *> aspectRects() const override;
    void changeEvent(QEvent *event) override;
    void rebuild() override;
    void positionMoved() override;
    void settingsBound() override;
    void paletteApplied() override;

  private:
    struct Key {
        pe::EncodingParams params;
        pe::NoiseParams noise;
        pe::ProjectionMethod method;
        pe::TsneSettings settings;
        pe::UmapSettings umap;
        int components = 2;
        bool operator==(const Key &) const = default;
    };
    // Points in the shown frame (0 while stale).
    std::int64_t shownCount() const;
    // 3-D: the frame's bounding box (lower_, upper_, sphere_), once a frame: a turn leaves it.
    void frameBox();
    // 3-D: the frame seen from viewAngle() (screen_, depth_, the drawing order far to near), the
    // bounding box's edges and the axes' names.
    void viewIn3d();
    void drawBox(const std::array<QString, 3> &names);
    // The box's and the names' colours for the ground (light or dark).
    void colourBox();
    Key currentKey() const;
    void launch();
    void showFrame(pe::Projection frame);
    void draw();
    void raster();
    void placeCurrent();
    void updateControls();
    // The colouring's values for the parameters and settings now: computed on a worker when they
    // changed (a pass over the vectors, a labels file); Error's from the frame, as it is drawn.
    void updateColors();
    // The colour scale, or the labels' legend, of the colouring drawn.
    void showColoring();
    // The colouring's controls from its setting, and the setting from them.
    void showColorBy();
    void editColorBy();
    // Pairs (phase) or columns (any other kind) the encoding has.
    int indexCount(pe::ColorByKind kind) const;

    BackgroundJob *job_;
    QTimer *debounce_;
    QComboBox *method_;
    QDoubleSpinBox *perplexity_;
    QDoubleSpinBox *learningRate_;
    QSpinBox *iterations_;
    QDoubleSpinBox *exaggeration_;
    QComboBox *init_;
    QSpinBox *seed_;
    QPushButton *runButton_;
    QPushButton *restartButton_;
    QCPTextElement *title_;
    QSpinBox *neighbors_;
    QSpinBox *umapEpochs_;
    QDoubleSpinBox *minDist_;
    QDoubleSpinBox *spread_;
    QSpinBox *components_;
    QDoubleSpinBox *azimuth_;
    QDoubleSpinBox *elevation_;
    std::vector<QLabel *> methodLabels_; // Perplexity, Iterations, Neighbours, Epochs
    QComboBox *colorKind_;
    QSpinBox *colorIndex_;
    QPushButton *labelsButton_;
    QLineEdit *colorBy_; // the setting itself ("phase:3"), edited through the three above
    BackgroundJob *colorJob_;
    QCPColorMap *points_;
    QCPColorScale *scale_;
    QCPGraph *current_;
    QCPItemText *currentLabel_;
    std::vector<QCPItemText *> labels_;
    std::vector<QCPGraph *> legendEntries_;
    std::vector<QCPItemLine *> boxEdges_;  // 3-D: the bounding box's 12 edges
    std::vector<QCPItemText *> axisNames_; // 3-D: the three axes' names, beside an edge each

    struct ColorKey {
        pe::EncodingParams params;
        pe::NoiseParams noise;
        pe::ColorBy by; // position when text does not parse
        QString text;
        QString fileStamp; // a labels file's size and time
        bool operator==(const ColorKey &) const = default;
    };
    std::optional<ColorKey> colorKey_;      // what colors_ is (or is being computed) for
    std::optional<pe::PointColors> colors_; // once computed
    QString colorProblem_;
    std::vector<double> nearest_; // Error: nearestOffsets of the frame shown
    bool nearestDone_ = false;
    std::optional<pe::ColorByKind> scaleKind_; // the colouring the colour bar's ticker is for

    // The optimiser of the current run, written by its worker; read here only once that worker
    // has been joined (Pause) or has delivered its last frame.
    struct TsneSlot {
        std::shared_ptr<pe::Tsne> tsne;
        std::shared_ptr<pe::Umap> umap;
    };
    // The newest frame a run has for this thread and not yet shown (launch()).
    struct FrameMailbox {
        std::mutex mutex;
        std::optional<pe::Projection> frame;
    };
    std::optional<Key> key_; // what the shown projection (or running job) is of
    std::shared_ptr<TsneSlot> slot_;
    std::int64_t shownStart_ = 0; // the window the shown frame is of
    bool stale_ = false;          // the shown frame is of an earlier key
    pe::Projection shown_;
    QString problem_;
    bool paused_ = false;
    bool userRange_ = false;
    bool settingRange_ = false;
    std::vector<double> screen_, depth_;   // 3-D: the frame seen from the view's angle (planar())
    double lower_[3] = {}, upper_[3] = {}; // 3-D: the frame's bounding box
    double sphere_ = 0;                    // 3-D: its half diagonal, the reach of any view of it
    std::vector<std::int32_t> drawOrder_;  // 3-D: the points far to near
    std::optional<pe::ViewAngle> turning_; // 3-D: the angle a drag has turned to, set on release
    QPointF pressedAt_;
    pe::ViewAngle pressedAngle_;
    bool dragged_ = false;
    std::vector<std::int32_t> pixelIndex_; // point drawn at each raster cell, -1 for none
    int rasterWidth_ = 0, rasterHeight_ = 0;
    // What the last t-SNE frame cost this thread, from showFrame to its replot done: the worker
    // spaces frames by ten times it, so drawing takes at most a tenth of a core from the run.
    // Shared with the worker, which must not touch the view itself (it may be going away).
    std::shared_ptr<std::atomic<double>> frameCostMs_ = std::make_shared<std::atomic<double>>(0.0);
    std::chrono::steady_clock::time_point frameShownAt_{};
    bool timingFrame_ = false;
};
