// The probe view: its controls and plots, training on a worker (train, pause, reset), its registry entry.
#include "views/probe_view.h"

#include "views/probe_view_internal.h"

#include "figures/background_job.h"
#include "figures/cell_labels.h"
#include "figures/color_maps.h"
#include "figures/integer_ticker.h"
#include "figures/vector_color_map.h"
#include "state/parameters.h"
#include "state/view_info/view_infos.h"
#include "state/view_registry.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <tuple>

using namespace probe_view_internal;

namespace {

} // namespace

ProbeView::ProbeView(Parameters *parameters, QWidget *parent)
    : PlotView(parameters, parent)
    , job_(new BackgroundJob(this))
    , trainButton_(new QPushButton(tr("Train"), this))
    , pauseButton_(new QPushButton(tr("Pause"), this))
    , resetButton_(new QPushButton(tr("Reset"), this))
{
    setObjectName(QStringLiteral("probeView"));
    auto *inputs = new QComboBox(this);
    inputs->setObjectName(QStringLiteral("probeInputs"));
    inputs->addItem(tr("intended"));
    inputs->addItem(tr("as written"));
    inputs->setToolTip(tr("Intended: x = PE + a per-position semantic vector, every offset a class. As written: the "
                          "article's code, which adds PE to itself and has K classes for offsets up to L − 1"));
    const auto spin = [this](const char *key, const QString &tip) {
        auto *s = new QSpinBox(this);
        s->setObjectName(QLatin1String(key));
        s->setToolTip(tip);
        s->setKeyboardTracking(false);
        return s;
    };
    const auto real = [this](const char *key, const QString &tip) {
        auto *s = new QDoubleSpinBox(this);
        s->setObjectName(QLatin1String(key));
        s->setToolTip(tip);
        s->setKeyboardTracking(false);
        return s;
    };
    // Two rows, the problem above the training: one row of eight boxes and three buttons does not
    // fit at 1280 px and cut "0.0010" to "0.00".
    auto *rows = new QVBoxLayout;
    rows->setSpacing(2);
    auto *problemRow = new QHBoxLayout;
    auto *trainingRow = new QHBoxLayout;
    rows->addLayout(problemRow);
    rows->addLayout(trainingRow);
    toolRow()->addLayout(rows, 1);
    const std::tuple<QString, QWidget *, QHBoxLayout *> controls[] = {
        {tr("inputs:"), inputs, problemRow},
        {tr("offsets K:"), spin("probeOffsets", tr("Offsets the network tells apart: classes 0..K−1")), problemRow},
        {tr("semantic a:"),
         real("probeSemantic", tr("Semantic vectors are uniform in [−a, a] (the article means 0.1)")), problemRow},
        {tr("train below L:"),
         spin("probeTrainBelow", tr("Training pairs use the window's first L positions; held-out pairs "
                                    "reach positions at or past L (the extrapolation check)")),
         problemRow},
        {tr("hidden:"), spin("probeHidden", tr("Width of the hidden ReLU layer (the article: 128)")), trainingRow},
        {tr("epochs:"),
         spin("probeEpochs", tr("Passes over the 10,000 pairs, minibatches of 1,024 (the article: 200)")), trainingRow},
        {tr("learning rate:"), real("probeLearningRate", tr("Adam's learning rate (the article: 1e-3)")), trainingRow},
        {tr("seed:"), spin("probeSeed", tr("Seed of the pairs, the semantic vectors, the weights and the shuffles")),
         trainingRow}};
    for (const auto &[label, widget, row] : controls) {
        row->addWidget(new QLabel(label, this));
        row->addWidget(widget);
    }
    trainButton_->setObjectName(QStringLiteral("probeTrain"));
    trainButton_->setToolTip(tr("Go on training from where it paused"));
    pauseButton_->setObjectName(QStringLiteral("probePause"));
    pauseButton_->setToolTip(tr("Stop training here; Train goes on with the same bits"));
    resetButton_->setObjectName(QStringLiteral("probeReset"));
    resetButton_->setToolTip(tr("Start again from the initial weights"));
    trainingRow->addWidget(trainButton_);
    trainingRow->addWidget(pauseButton_);
    trainingRow->addWidget(resetButton_);
    problemRow->addStretch(1);
    trainingRow->addStretch(1);
    connect(trainButton_, &QPushButton::clicked, this, &ProbeView::train);
    connect(pauseButton_, &QPushButton::clicked, this, &ProbeView::pause);
    connect(resetButton_, &QPushButton::clicked, this, &ProbeView::reset);

    QCustomPlot *p = plot();
    title_ = addTitle();
    // Top left the loss (log scale), top right the accuracies; below the confusion matrix and the
    // per-offset accuracies on the held-out pairs.
    p->xAxis->setLabel(tr("epoch"));
    p->yAxis->setLabel(tr("cross-entropy loss"));
    p->yAxis->setScaleType(QCPAxis::stLogarithmic);
    p->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    p->xAxis->setTicker(QSharedPointer<IntegerTicker>::create());
    QCPGraph *loss = addGraph();
    loss->setName(tr("training loss"));
    accuracyRect_ = new QCPAxisRect(p);
    content()->addElement(0, 1, accuracyRect_);
    confusionRect_ = new QCPAxisRect(p);
    content()->addElement(1, 0, confusionRect_);
    offsetRect_ = new QCPAxisRect(p);
    // The bars' legend in a row above their rect, items side by side: inside it, at a 3.5 in
    // figure's size, it covered the bars.
    auto *offsetCell = new QCPLayoutGrid;
    content()->addElement(1, 1, offsetCell);
    auto *barLegend = new QCPLegend;
    offsetCell->addElement(0, 0, barLegend);
    offsetCell->addElement(1, 0, offsetRect_);
    offsetCell->setRowStretchFactor(0, 0.001);
    offsetCell->setRowSpacing(0);
    QCPAxis *ax = accuracyRect_->axis(QCPAxis::atBottom), *ay = accuracyRect_->axis(QCPAxis::atLeft);
    ax->setLabel(tr("epoch"));
    ax->setTicker(QSharedPointer<IntegerTicker>::create());
    ay->setLabel(tr("accuracy"));
    ay->setRange(-0.02, 1.02);
    for (auto [name, color] : {std::pair{tr("training pairs"), kTrainColor}, std::pair{tr("held out"), kHeldColor}}) {
        QCPGraph *g = addGraph(ax, ay);
        g->setName(name);
        g->setPen(QPen(color, 1.8));
    }
    atan2Line_ = addMarkerLine(kAtanColor, accuracyRect_);

    QCPAxis *cx = confusionRect_->axis(QCPAxis::atBottom), *cy = confusionRect_->axis(QCPAxis::atLeft);
    cx->setLabel(tr("predicted offset"));
    cy->setLabel(tr("true offset k"));
    cy->setRangeReversed(true);
    for (QCPAxis *a : {cx, cy}) {
        a->setTicker(QSharedPointer<IntegerTicker>::create());
        a->grid()->setVisible(false);
    }
    confusion_ = new VectorColorMap(cx, cy);
    confusion_->setInterpolate(false);
    confusion_->setGradient(colormaps::gradient(QStringLiteral("viridis")));
    confusion_->setDataRange(QCPRange(0, 1));
    confusionLabels_ = new CellLabels(confusion_);
    confusionLabels_->setGradient(colormaps::gradient(QStringLiteral("viridis")));
    confusionLabels_->setDecimals(2);

    QCPAxis *ox = offsetRect_->axis(QCPAxis::atBottom), *oy = offsetRect_->axis(QCPAxis::atLeft);
    ox->setLabel(tr("offset k (held-out pairs)"));
    ox->setTicker(QSharedPointer<IntegerTicker>::create());
    oy->setLabel(tr("accuracy"));
    oy->setRange(0, 1.02);
    auto *group = new QCPBarsGroup(p);
    networkBars_ = new QCPBars(ox, oy);
    networkBars_->setName(tr("network"));
    atan2Bars_ = new QCPBars(ox, oy);
    atan2Bars_->setName(tr("atan2 decoder"));
    for (auto [bars, color] : {std::pair{networkBars_, kHeldColor}, std::pair{atan2Bars_, kAtanColor}}) {
        bars->setWidth(0.4);
        bars->setBrush(color);
        bars->setPen(Qt::NoPen);
        bars->setBarsGroup(group);
    }
    p->legend->setVisible(false);
    // The title names the colours of the curves above.
    barLegend->setLayer(QStringLiteral("legend"));
    barLegend->setFillOrder(QCPLegend::foColumnsFirst);
    barLegend->setWrap(2);
    barLegend->setBorderPen(Qt::NoPen);
    barLegend->setMargins(QMargins(4, 0, 4, 0));
    networkBars_->addToLegend(barLegend);
    atan2Bars_->addToLegend(barLegend);
    connect(job_, &BackgroundJob::finished, this, [this] {
        updateButtons();
        emit rebuilt();
    });
    updateButtons();
}

ProbeView::~ProbeView() = default;

pe::ProbeSettings ProbeView::probeSettings() const
{
    return probeSettingsFrom(settings());
}

bool ProbeView::training() const
{
    return job_->running();
}

int ProbeView::threadCount() const
{
    return job_->threadCount();
}

void ProbeView::rebuild()
{
    const pe::ProbeSettings s = probeSettings();
    const auto encoding = parameters()->sharedEncoding();
    const bool same = trainer_ && trainer_->settings() == s && trainedFor_.lock() == encoding;
    if (!same) { // anything changed: the run starts over
        job_->cancel();
        trainer_.reset();
        result_ = {};
        paused_ = false;
        const QString why = cannotDraw();
        problem_ = why;
        if (why.isEmpty()) {
            trainer_ = std::make_shared<pe::ProbeTrainer>(*encoding, s);
            trainedFor_ = encoding;
            result_ = trainer_->result();
            start();
        }
    }
    draw();
}

void ProbeView::start()
{
    if (!trainer_ || result_.finished)
        return;
    const std::shared_ptr<pe::ProbeTrainer> trainer = trainer_;
    job_->start([this, trainer](const std::atomic<bool> &cancel, const BackgroundJob::Post &post) {
        // The picture follows at most every 40 ms (and at the end), not after every epoch.
        QElapsedTimer since;
        since.start();
        trainer->train(&cancel, [&](const pe::ProbeResult &r) {
            if (r.finished || since.elapsed() >= 40) {
                since.restart();
                post([this, r] {
                    result_ = r;
                    draw();
                });
            }
            return true;
        });
        return std::function<void()>(); // the curves came by post; finished() updates the buttons
    });
    updateButtons();
}

void ProbeView::train()
{
    paused_ = false;
    start();
}

void ProbeView::pause()
{
    paused_ = true;
    job_->cancel();
    updateButtons();
}

void ProbeView::reset()
{
    trainer_.reset(); // rebuild starts a new run with the same settings
    rebuild();
}

void ProbeView::finishWork()
{
    // A figure from the command line is the whole run; the window draws what it has.
    if (completeFigures() && trainer_ && !result_.finished && !job_->running())
        start();
    job_->wait();
}

void ProbeView::updateButtons()
{
    const bool running = job_->running();
    trainButton_->setEnabled(trainer_ && !running && !result_.finished);
    pauseButton_->setEnabled(running);
    resetButton_->setEnabled(trainer_ != nullptr);
}

std::optional<pe::Table> ProbeView::dataTable() const
{
    // The run the view trained, when it has ended; the registry's export trains its own otherwise.
    if (!result_.finished)
        return std::nullopt;
    return probeCurveTable(result_);
}
