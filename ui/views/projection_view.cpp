// The projection view: its controls and plot, t-SNE runs on a worker (launch, pause, resume, restart), frames.
#include "views/projection_view.h"

#include "figures/background_job.h"
#include "figures/color_maps.h"
#include "state/parameters.h"
#include "state/view_info/view_infos.h"
#include "state/view_state.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTimer>
#include <QToolButton>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>

namespace {

// Frames handed to the window while t-SNE runs: at most one per this interval, and at most one
// per ten times what the last frame cost to draw (a million points take tens of ms).
constexpr auto kFrameInterval = std::chrono::milliseconds(40);
constexpr double kFrameCostShare = 10.0;

// Range, decimals and default come from the view's declared settings (bindSettings).
QDoubleSpinBox *doubleSpin(QWidget *parent, const char *name, const QString &tip)
{
    auto *s = new QDoubleSpinBox(parent);
    s->setObjectName(QString::fromLatin1(name));
    s->setKeyboardTracking(false);
    s->setToolTip(tip);
    return s;
}

} // namespace

ProjectionView::ProjectionView(Parameters *parameters, QWidget *parent)
    : PlotView(parameters, parent)
    , job_(new BackgroundJob(this))
    , debounce_(new QTimer(this))
    , method_(new QComboBox(this))
    , perplexity_(doubleSpin(this, "perplexity",
                             tr("Effective number of neighbours each point keeps close (article 4 uses 4)")))
    , learningRate_(
          doubleSpin(this, "learningRate", tr("Step size; auto is max(N / exaggeration / 4, 50), as scikit-learn's")))
    , iterations_(new QSpinBox(this))
    , exaggeration_(doubleSpin(this, "exaggeration", tr("Early exaggeration of P during the first 250 iterations")))
    , init_(new QComboBox(this))
    , seed_(new QSpinBox(this))
    , runButton_(new QPushButton(tr("Pause"), this))
    , restartButton_(new QPushButton(tr("Restart"), this))
    , neighbors_(new QSpinBox(this))
    , umapEpochs_(new QSpinBox(this))
    , minDist_(doubleSpin(this, "minDist",
                          tr("UMAP's minimum distance between embedded points: smaller packs "
                             "neighbours tighter (umap-learn's min_dist)")))
    , spread_(doubleSpin(this, "spread",
                         tr("UMAP's scale of the embedded points; the minimum distance stays "
                            "below it")))
    , components_(new QSpinBox(this))
    , azimuth_(doubleSpin(this, "azimuth",
                          tr("3-D: the eye's angle round the third axis, from the first (matplotlib's azim); "
                             "or drag the plot")))
    , elevation_(doubleSpin(this, "elevation",
                            tr("3-D: the eye's angle above the plane of the first two axes (matplotlib's elev); "
                               "or drag the plot")))
    , colorKind_(new QComboBox(this))
    , colorIndex_(new QSpinBox(this))
    , labelsButton_(new QPushButton(tr("File…"), this))
    , colorBy_(new QLineEdit(this))
    , colorJob_(new BackgroundJob(this))
{
    setObjectName(QStringLiteral("projectionView"));
    debounce_->setSingleShot(true);
    debounce_->setInterval(60);
    connect(debounce_, &QTimer::timeout, this, &ProjectionView::launch);

    method_->setObjectName(QStringLiteral("projectionMethod"));
    method_->addItem(tr("t-SNE"));
    method_->addItem(tr("PCA"));
    method_->addItem(tr("UMAP"));
    method_->setToolTip(tr("t-SNE keeps neighbourhoods; PCA shows the two directions of largest variance; UMAP "
                           "keeps neighbourhoods and more of the layout between them"));
    neighbors_->setObjectName(QStringLiteral("umapNeighbors"));
    neighbors_->setKeyboardTracking(false);
    neighbors_->setToolTip(tr("Neighbours of each point, itself counted (umap-learn's n_neighbors): larger keeps more "
                              "of the global layout"));
    umapEpochs_->setObjectName(QStringLiteral("umapEpochs"));
    umapEpochs_->setKeyboardTracking(false);
    umapEpochs_->setSingleStep(50);
    umapEpochs_->setToolTip(tr("Passes of stochastic gradient descent (auto: 500 up to 10,000 positions, else 200)"));
    components_->setObjectName(QStringLiteral("components"));
    components_->setKeyboardTracking(false);
    components_->setSuffix(tr("-D"));
    components_->setToolTip(tr("Project to 2-D, or to 3-D: drag the plot to turn it, the wheel zooms"));
    azimuth_->setSuffix(tr("°"));
    azimuth_->setWrapping(true);
    elevation_->setSuffix(tr("°"));
    iterations_->setObjectName(QStringLiteral("iterations"));
    iterations_->setSingleStep(250);
    iterations_->setKeyboardTracking(false);
    iterations_->setToolTip(tr("Gradient steps in all, the exaggerated ones included"));
    init_->setObjectName(QStringLiteral("init"));
    init_->addItem(tr("PCA"));
    init_->addItem(tr("random"));
    init_->setToolTip(tr("Start from the PCA projection (deterministic) or from random points drawn with the seed"));
    seed_->setObjectName(QStringLiteral("tsneSeed"));
    seed_->setKeyboardTracking(false);
    seed_->setToolTip(tr("Seed of the random start: the same seed gives the same picture"));
    runButton_->setObjectName(QStringLiteral("runPause"));
    runButton_->setToolTip(tr("Pause the optimisation, or resume it where it stopped"));
    restartButton_->setObjectName(QStringLiteral("restart"));
    restartButton_->setToolTip(tr("Start t-SNE or UMAP again from the beginning"));
    auto *fitButton = new QToolButton(this); // as narrow as its word: the row fits 1280 px beside the panels
    fitButton->setText(tr("Fit"));
    fitButton->setToolTip(tr("Show every point again after zooming or panning (or double-click the plot)"));

    // The two settings people change most in the row; the rest in a small pop-up, so the row fits
    // a laptop screen beside the parameter panel.
    QHBoxLayout *row = toolRow();
    row->addWidget(method_);
    row->addWidget(components_);
    // t-SNE's two, or UMAP's two in their place (updateControls shows the method's).
    for (auto [text, w] : {std::pair<QString, QWidget *>{tr("Perplexity:"), perplexity_},
                           {tr("Iterations:"), iterations_},
                           {tr("Neighbours:"), neighbors_},
                           {tr("Epochs:"), umapEpochs_}}) {
        auto *label = new QLabel(text, this);
        label->setBuddy(w);
        row->addWidget(label);
        row->addWidget(w);
        methodLabels_.push_back(label);
    }
    auto *more = new QToolButton(this);
    more->setObjectName(QStringLiteral("moreSettings"));
    more->setText(tr("More…"));
    more->setToolTip(tr("t-SNE's learning rate, early exaggeration and start; UMAP's minimum distance and spread; "
                        "the seed; the 3-D view's angle; restart a run"));
    auto *popup = new QFrame(this, Qt::Popup);
    popup->setFrameShape(QFrame::StyledPanel);
    auto *form = new QFormLayout(popup);
    form->addRow(tr("Learning rate:"), learningRate_);
    form->addRow(tr("Early exaggeration:"), exaggeration_);
    form->addRow(tr("Start:"), init_);
    form->addRow(tr("Seed:"), seed_);
    form->addRow(tr("UMAP minimum distance:"), minDist_);
    form->addRow(tr("UMAP spread:"), spread_);
    form->addRow(tr("3-D azimuth:"), azimuth_);
    form->addRow(tr("3-D elevation:"), elevation_);
    form->addRow(QString(), restartButton_); // beside the row's Run again, which restarts a finished run
    connect(more, &QToolButton::clicked, this, [more, popup] {
        popup->adjustSize();
        popup->move(more->mapToGlobal(QPoint(0, more->height())));
        popup->show();
    });
    // The colouring: a kind, and the pair or column it names (or the labels' file); the setting's
    // own text field stays hidden, written from these.
    colorKind_->setObjectName(QStringLiteral("colorKind"));
    for (const pe::ColorByKind kind : pe::kColorByKinds) {
        const std::string_view name = pe::colorByKindName(kind);
        const QString data = QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size()));
        colorKind_->addItem(kind == pe::ColorByKind::Error ? tr("nearest offset") : tr(name.data()), data);
    }
    colorKind_->setToolTip(tr("What colours the points: the position; its phase on one pair's clock (t·ω mod 2π); "
                              "the vector's length; one column's value; the offset |s − t| to the nearest point "
                              "drawn (1: a true neighbour); or labels from a CSV file of position,label lines"));
    colorIndex_->setObjectName(QStringLiteral("colorIndex"));
    colorIndex_->setKeyboardTracking(false);
    colorIndex_->setToolTip(tr("The pair (phase) or the column the colours show"));
    colorIndex_->setPrefix(tr("#"));
    labelsButton_->setObjectName(QStringLiteral("labelsFile"));
    labelsButton_->setToolTip(tr("Choose the CSV file of position,label lines"));
    colorBy_->setObjectName(QStringLiteral("colorBy"));
    colorBy_->setToolTip(tr("The colouring as --color-by writes it: position, phase:I, norm, column:J, error or "
                            "labels:FILE.csv"));
    colorBy_->setVisible(false);
    auto *colorLabel = new QLabel(tr("Colour:"), this);
    colorLabel->setBuddy(colorKind_);
    row->addWidget(colorLabel);
    row->addWidget(colorKind_);
    row->addWidget(colorIndex_);
    row->addWidget(labelsButton_);
    row->addWidget(colorBy_);
    row->addWidget(more);
    row->addWidget(runButton_);
    row->addWidget(fitButton);
    row->addStretch(1);

    QCustomPlot *p = plot();
    title_ = addTitle();
    placeLegendAbove();                    // the labels' legend, when they colour the points
    p->setAutoAddPlottableToLegend(false); // its entries alone, not the points' map and the ring
    points_ = new QCPColorMap(p->xAxis, p->yAxis);
    points_->setInterpolate(false);
    scale_ = new QCPColorScale(p);
    scale_->axis()->setLabel(tr("position"));
    content()->addElement(1, 1, scale_);
    points_->setColorScale(scale_);
    QCPColorGradient gradient = colormaps::gradient(QStringLiteral("viridis"));
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    points_->setGradient(gradient);
    current_ = addGraph();
    current_->setLineStyle(QCPGraph::lsNone);
    currentLabel_ = new QCPItemText(p);
    currentLabel_->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    currentLabel_->setColor(QColor(200, 20, 20));
    // The ring and its label are all that a position step moves: on the layer redrawn alone.
    current_->setLayer(QStringLiteral("overlay"));
    currentLabel_->setLayer(QStringLiteral("overlay"));
    usePositionLayer();
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    for (QCPAxis *axis : {p->xAxis, p->yAxis})
        connect(axis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, [this] {
            if (settingRange_)
                return;
            userRange_ = true;
            raster();
        });
    connect(p, &QCustomPlot::afterReplot, this, [this] {
        if (!timingFrame_)
            return;
        timingFrame_ = false;
        // Clamped: a stall elsewhere (a dialog, another view's work) is not the frame's cost.
        *frameCostMs_ = std::min(
            100.0, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frameShownAt_).count());
    });
    connect(p, &QCustomPlot::mouseDoubleClick, this, &ProjectionView::fit);
    connect(p, &QCustomPlot::mousePress, this, [this](QMouseEvent *event) {
        pressedAt_ = event->position();
        pressedAngle_ = viewAngle();
        dragged_ = false;
    });
    connect(p, &QCustomPlot::mouseMove, this, [this](QMouseEvent *event) {
        if (!(event->buttons() & Qt::LeftButton))
            return;
        const QPointF moved = event->position() - pressedAt_;
        dragged_ = dragged_ || std::hypot(moved.x(), moved.y()) > 4;
        if (!dragged_ || shown_.dims != 3 || stale_)
            return;
        // 3-D: a drag turns the scene, half a degree a pixel, as matplotlib's 3-D axes turn (to the
        // right: the azimuth falls, so the front turns right; down: the elevation rises). Shown at
        // once, set on release (one undo step).
        pe::ViewAngle a = pressedAngle_;
        a.azimuth = std::remainder(a.azimuth - 0.5 * moved.x(), 360.0);
        a.elevation = std::clamp(a.elevation + 0.5 * moved.y(), -90.0, 90.0);
        a.azimuth = std::round(a.azimuth * 10) / 10; // the settings' decimals
        a.elevation = std::round(a.elevation * 10) / 10;
        turning_ = a;
        draw();
    });
    connect(p, &QCustomPlot::mouseRelease, this, [this](QMouseEvent *event) {
        if (event->button() != Qt::LeftButton)
            return;
        if (turning_) {
            const pe::ViewAngle a = *turning_;
            turning_.reset();
            // Both at once: one change of the state, one undo step (the controls follow it).
            const QJsonObject before = settings();
            if (!applySettings({{QStringLiteral("azimuth"), a.azimuth == -180.0 ? 180.0 : a.azimuth},
                                {QStringLiteral("elevation"), a.elevation}}))
                emit settingsEdited(before, settings());
            draw();
            return;
        }
        // A click (not a drag) on a point makes it the current position of every view.
        if (dragged_)
            return;
        const std::int64_t t = positionAt(event->position());
        if (t >= 0)
            this->parameters()->setPosition(t);
    });

    // Hidden views do not rebuild on a change (they do when shown), but a t-SNE of stale
    // parameters should not go on using both cores meanwhile.
    connect(parameters, &Parameters::changed, this, [this] {
        if (!isVisible() && key_ && currentKey() != *key_ && job_->running()) {
            debounce_->stop();
            job_->cancel();
            key_.reset();
        }
    });
    connect(job_, &BackgroundJob::finished, this, [this] {
        updateControls();
        emit rebuilt();
    });
    connect(runButton_, &QPushButton::clicked, this, [this] {
        if (running())
            pause();
        else if (paused_)
            resume();
        else
            restart();
    });
    connect(restartButton_, &QPushButton::clicked, this, &ProjectionView::restart);
    connect(colorBy_, &QLineEdit::editingFinished, this, &ProjectionView::showColorBy);
    connect(colorKind_, &QComboBox::currentIndexChanged, this, &ProjectionView::editColorBy);
    connect(colorIndex_, &QSpinBox::valueChanged, this, &ProjectionView::editColorBy);
    connect(labelsButton_, &QPushButton::clicked, this, [this] {
        const pe::ColorBy now = colorByFrom(settings());
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Labels for the points"), QString::fromStdString(now.path),
                                         tr("Position labels (*.csv *.txt);;All files (*)"));
        if (path.isEmpty())
            return;
        pe::ColorBy by;
        by.kind = pe::ColorByKind::Labels;
        by.path = path.toStdString();
        colorBy_->setText(QString::fromStdString(pe::colorByText(by)));
        emit colorBy_->editingFinished();
    });
    connect(colorJob_, &BackgroundJob::finished, this, [this] { emit rebuilt(); });
    connect(fitButton, &QToolButton::clicked, this, &ProjectionView::fit);
}

void ProjectionView::settingsBound()
{
    updateControls(); // the seed's and the learning rate's state follow the declared defaults
}

bool ProjectionView::running() const
{
    return job_->running() || debounce_->isActive();
}

ProjectionView::Key ProjectionView::currentKey() const
{
    // The method's own settings alone: a t-SNE setting changed does not restart UMAP, nor the reverse.
    Key key{parameters()->values(), parameters()->noise(), method(), tsneSettings(), umapSettings(), components()};
    if (key.method != pe::ProjectionMethod::Tsne)
        key.settings = {};
    if (key.method != pe::ProjectionMethod::Umap)
        key.umap = {};
    return key;
}

void ProjectionView::finishWork()
{
    if (debounce_->isActive()) {
        debounce_->stop();
        launch();
    }
    if (completeFigures() || method() == pe::ProjectionMethod::Pca)
        job_->wait();
    colorJob_->wait();
}

void ProjectionView::rebuild()
{
    showColorBy(); // the pair's or column's range follows d_model
    updateColors();
    const Key key = currentKey();
    if (key_ == key) {
        draw();
        return;
    }
    key_ = key;
    slot_ = std::make_shared<TsneSlot>();
    paused_ = false;
    userRange_ = false;
    stale_ = !shown_.coords.empty();
    job_->cancel();
    debounce_->stop();
    const std::optional<std::string> problem =
        pe::projectionProblem(key.params, key.noise, key.method, key.settings, key.umap, key.components);
    problem_ = problem ? QString::fromStdString(*problem) : QString();
    if (problem) {
        shown_ = {};
        stale_ = false;
    } else {
        debounce_->start(); // while a slider moves, the job starts once it pauses
    }
    updateControls();
    draw();
}

void ProjectionView::launch()
{
    // The parameters may have changed since the key was checked (the view hidden meanwhile):
    // then the next rebuild checks and launches anew.
    if (!key_ || !problem_.isEmpty() || currentKey() != *key_) {
        refresh();
        return;
    }
    const std::shared_ptr<const pe::Encoding> enc = parameters()->sharedEncoding();
    const Key key = *key_;
    const std::shared_ptr<TsneSlot> slot = slot_;
    const std::shared_ptr<pe::Tsne> resume = slot->tsne;
    const std::shared_ptr<pe::Umap> resumeUmap = slot->umap;
    const std::shared_ptr<const std::atomic<double>> frameCost = frameCostMs_;
    const bool frames = !completeFigures();
    paused_ = false;
    job_->start([this, enc, key, slot, resume, resumeUmap, frameCost,
                 frames](const std::atomic<bool> &cancel, const BackgroundJob::Post &post) -> std::function<void()> {
        if (key.method == pe::ProjectionMethod::Pca) {
            pe::Projection frame = pe::pcaProjection(*enc, key.noise, &cancel, key.components);
            if (cancel.load())
                return {};
            return [this, frame = std::move(frame)]() mutable { showFrame(std::move(frame)); };
        }
        // Frames on the way wait for this thread one at a time: a newer one replaces one not yet
        // shown, so a busy GUI thread never queues a copy of the embedding per step. A figure export
        // (complete figures) draws the end alone and is handed none: it waits without running events,
        // and at 300,000 points its queued frames were 4 GB (issue 28).
        const auto offer = [mailbox = std::make_shared<FrameMailbox>(), &post, this](pe::Projection frame) {
            bool waiting = false;
            {
                const std::lock_guard lock(mailbox->mutex);
                waiting = mailbox->frame.has_value();
                mailbox->frame = std::move(frame);
            }
            if (!waiting)
                post([this, mailbox] {
                    std::optional<pe::Projection> latest;
                    {
                        const std::lock_guard lock(mailbox->mutex);
                        latest.swap(mailbox->frame);
                    }
                    if (latest)
                        showFrame(std::move(*latest));
                });
        };
        // A frame is due at most once per kFrameInterval and per ten times what the last one cost.
        auto last = std::chrono::steady_clock::now() - 2 * kFrameInterval;
        const auto frameDue = [&last, &frameCost] {
            const auto now = std::chrono::steady_clock::now();
            const auto interval = std::max<std::chrono::steady_clock::duration>(
                kFrameInterval, std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double, std::milli>(kFrameCostShare * *frameCost)));
            if (now - last < interval)
                return false;
            last = now;
            return true;
        };
        if (key.method == pe::ProjectionMethod::Umap) {
            std::shared_ptr<pe::Umap> umap = resumeUmap;
            if (!umap) {
                std::optional<pe::Umap> fresh = pe::prepareUmap(
                    *enc, key.noise, key.umap, key.components, &cancel, [&](const std::vector<double> &start) {
                        if (frames)
                            offer(pe::Projection{.coords = start, .dims = key.components, .recall = {}});
                    });
                if (!fresh)
                    return {};
                umap = std::make_shared<pe::Umap>(std::move(*fresh));
                slot->umap = umap;
            }
            const bool done = pe::runUmap(
                *umap,
                [&](const pe::Umap &u) {
                    if (frames && !u.finished() && frameDue())
                        offer(pe::Projection{.coords = u.embedding(),
                                             .dims = u.dims(),
                                             .iteration = u.epoch(),
                                             .recall = u.graph().recall});
                    return true;
                },
                &cancel);
            if (!done)
                return {};
            return [this, frame = pe::Projection{.coords = umap->embedding(),
                                                 .dims = umap->dims(),
                                                 .iteration = umap->epoch(),
                                                 .recall = umap->graph().recall}]() mutable {
                showFrame(std::move(frame));
            };
        }
        std::shared_ptr<pe::Tsne> tsne = resume;
        if (!tsne) {
            // The start is on screen while the neighbours and affinities are computed.
            std::optional<pe::Tsne> fresh = pe::prepareTsne(
                *enc, key.noise, key.settings, key.components, &cancel, [&](const std::vector<double> &start) {
                    if (frames)
                        offer(pe::Projection{.coords = start,
                                             .dims = key.components,
                                             .kl = std::numeric_limits<double>::quiet_NaN(),
                                             .recall = {}});
                });
            if (!fresh)
                return {};
            tsne = std::make_shared<pe::Tsne>(std::move(*fresh));
            slot->tsne = tsne;
        }
        const auto frameOf = [](const pe::Tsne &t) {
            return pe::Projection{.coords = t.embedding(),
                                  .dims = t.dims(),
                                  .iteration = t.iteration(),
                                  .kl = t.iteration() > 0 ? t.kl() : std::numeric_limits<double>::quiet_NaN(),
                                  .recall = t.recall()};
        };
        const bool done = pe::runTsne(
            *tsne,
            [&](const pe::Tsne &t) {
                if (frames && !t.finished() && frameDue())
                    offer(frameOf(t));
                return true;
            },
            &cancel);
        if (!done)
            return {};
        return [this, frame = frameOf(*tsne)]() mutable { showFrame(std::move(frame)); };
    });
    updateControls();
}

void ProjectionView::pause()
{
    if (!job_->running() && !debounce_->isActive())
        return;
    debounce_->stop();
    job_->cancel();
    job_->wait(); // the worker stops within one gradient step; then the optimiser is ours
    paused_ = true;
    updateControls();
    draw();
}

void ProjectionView::resume()
{
    if (!paused_)
        return;
    launch();
}

void ProjectionView::restart()
{
    key_.reset();
    shown_ = {};
    stale_ = false;
    rebuild();
}

void ProjectionView::fit()
{
    userRange_ = false;
    draw();
}

void ProjectionView::showFrame(pe::Projection frame)
{
    frameShownAt_ = std::chrono::steady_clock::now();
    timingFrame_ = true;
    const bool first = shown_.coords.empty() || stale_ || frame.dims != shown_.dims;
    shown_ = std::move(frame);
    frameBox();
    shownStart_ = key_ ? key_->params.startPos : 0;
    stale_ = false;
    nearestDone_ = false;
    if (first)
        userRange_ = false;
    draw();
}

void ProjectionView::updateControls()
{
    const pe::ProjectionMethod m = method();
    const bool tsne = m == pe::ProjectionMethod::Tsne, umap = m == pe::ProjectionMethod::Umap;
    for (QWidget *w : std::initializer_list<QWidget *>{perplexity_, learningRate_, iterations_, exaggeration_, init_})
        w->setEnabled(tsne);
    for (QWidget *w : std::initializer_list<QWidget *>{neighbors_, umapEpochs_, minDist_, spread_})
        w->setEnabled(umap);
    // The row shows the method's two settings (PCA: t-SNE's, greyed).
    for (std::size_t i = 0; i < methodLabels_.size(); ++i) {
        const bool umapPair = i >= 2;
        QWidget *control = methodLabels_[i]->buddy();
        methodLabels_[i]->setVisible(umapPair == umap);
        control->setVisible(umapPair == umap);
    }
    restartButton_->setEnabled(tsne || umap);
    for (QWidget *w : std::initializer_list<QWidget *>{azimuth_, elevation_})
        w->setEnabled(components() == 3);
    seed_->setEnabled(umap || (tsne && state().choice(QStringLiteral("init")) == QLatin1String("random")));
    runButton_->setText(running() ? tr("Pause") : paused_ ? tr("Resume") : tr("Run again"));
    runButton_->setEnabled((tsne || umap) && problem_.isEmpty());
}

void ProjectionView::updateColors()
{
    const QString text = settings().value(QStringLiteral("colorBy")).toString();
    std::string refused;
    const std::optional<pe::ColorBy> parsed = pe::parseColorBy(text.toStdString(), &refused);
    // A labels file edited since it was read is read again: its size and time are part of the key.
    QString stamp;
    if (parsed && parsed->kind == pe::ColorByKind::Labels) {
        const QFileInfo file(QString::fromStdString(parsed->path));
        stamp = QStringLiteral("%1 %2").arg(file.size()).arg(file.lastModified().toMSecsSinceEpoch());
    }
    const ColorKey want{parameters()->values(), parameters()->noise(), parsed.value_or(pe::ColorBy{}), text, stamp};
    if (colorKey_ == want)
        return;
    colorKey_ = want;
    colors_.reset();
    // A session's text the setting refuses.
    colorProblem_ = parsed ? QString() : tr("'%1' is not a colouring").arg(text.left(40));
    nearestDone_ = false;
    colorJob_->cancel();
    if (want.by.kind == pe::ColorByKind::Position || want.by.kind == pe::ColorByKind::Error)
        return; // the index, or the picture's own nearest points (draw)
    const std::shared_ptr<const pe::Encoding> enc = parameters()->sharedEncoding();
    colorJob_->start([this, enc, want](const std::atomic<bool> &cancel) -> std::function<void()> {
        std::string error;
        std::optional<pe::PointColors> colors = pe::pointColors(want.by, *enc, want.noise, &error, &cancel);
        if (cancel.load())
            return {};
        return [this, colors = std::move(colors), error, want]() mutable {
            if (colorKey_ != want)
                return; // a result for a colouring since left (cancel does not stop a delivery queued)
            colors_ = std::move(colors);
            colorProblem_ = QString::fromStdString(error);
            draw();
        };
    });
}

void ProjectionView::showColorBy()
{
    // The field's text: this runs on its editingFinished, before the state has taken it.
    const pe::ColorBy by = pe::parseColorBy(colorBy_->text().toStdString(), nullptr).value_or(pe::ColorBy{});
    const QSignalBlocker quietKind(colorKind_), quietIndex(colorIndex_);
    colorKind_->setCurrentIndex(
        static_cast<int>(std::find(std::begin(pe::kColorByKinds), std::end(pe::kColorByKinds), by.kind) -
                         std::begin(pe::kColorByKinds)));
    const bool phase = by.kind == pe::ColorByKind::Phase;
    // Up to the last pair or column, or the index asked for when it names none (the title says so).
    colorIndex_->setRange(0, std::max(by.index, indexCount(by.kind) - 1));
    colorIndex_->setValue(by.index);
    colorIndex_->setVisible(phase || by.kind == pe::ColorByKind::Column);
    labelsButton_->setVisible(by.kind == pe::ColorByKind::Labels);
    labelsButton_->setText(by.kind == pe::ColorByKind::Labels
                               ? fontMetrics().elidedText(QFileInfo(QString::fromStdString(by.path)).fileName(),
                                                          Qt::ElideMiddle, fontMetrics().averageCharWidth() * 16)
                               : tr("File…"));
}

int ProjectionView::indexCount(pe::ColorByKind kind) const
{
    const std::shared_ptr<const pe::Encoding> enc = parameters()->sharedEncoding();
    return kind == pe::ColorByKind::Phase ? enc->pairCount() : enc->dModel();
}

void ProjectionView::editColorBy()
{
    const pe::ColorBy now = colorByFrom(settings());
    pe::ColorBy by;
    by.kind = pe::kColorByKinds[std::max(0, colorKind_->currentIndex())];
    // The index carried over to another kind stays within it (column 500 to the phase of d 64).
    if (by.kind == pe::ColorByKind::Phase || by.kind == pe::ColorByKind::Column)
        by.index = std::clamp(colorIndex_->value(), 0, std::max(0, indexCount(by.kind) - 1));
    if (by.kind == pe::ColorByKind::Labels) {
        if (now.kind != pe::ColorByKind::Labels) {
            labelsButton_->click(); // a file to read first; none chosen leaves the colouring as it was
            showColorBy();
            return;
        }
        by.path = now.path;
    }
    colorBy_->setText(QString::fromStdString(pe::colorByText(by)));
    emit colorBy_->editingFinished();
}

QList<QCPAxisRect *> ProjectionView::aspectRects() const
{
    return {plot()->axisRect()};
}
