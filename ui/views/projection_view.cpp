#include "projection_view.h"

#include "background_job.h"
#include "color_maps.h"
#include "parameters.h"
#include "view_registry.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QToolButton>

#include <chrono>
#include <cmath>

namespace {

// Positions are labelled with their number up to this many points (seed 004 labels all 128).
constexpr std::int64_t kMaxLabels = 200;
// Frames handed to the window while t-SNE runs: at most one per this interval.
constexpr auto kFrameInterval = std::chrono::milliseconds(40);

// Range and default come from the view's declared settings (bindSettings).
QDoubleSpinBox *doubleSpin(QWidget *parent, const char *name, int decimals, const QString &tip)
{
    auto *s = new QDoubleSpinBox(parent);
    s->setObjectName(QString::fromLatin1(name));
    s->setDecimals(decimals);
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
    , perplexity_(doubleSpin(this, "perplexity", 1,
                             tr("Effective number of neighbours each point keeps close (seed 004 uses 4)")))
    , learningRate_(doubleSpin(this, "learningRate", 0,
                               tr("Step size; auto is max(N / exaggeration / 4, 50), as scikit-learn's")))
    , iterations_(new QSpinBox(this))
    , exaggeration_(doubleSpin(this, "exaggeration", 1, tr("Early exaggeration of P during the first 250 iterations")))
    , init_(new QComboBox(this))
    , seed_(new QSpinBox(this))
    , runButton_(new QPushButton(tr("Pause"), this))
    , restartButton_(new QPushButton(tr("Restart"), this))
{
    setObjectName(QStringLiteral("projectionView"));
    debounce_->setSingleShot(true);
    debounce_->setInterval(60);
    connect(debounce_, &QTimer::timeout, this, &ProjectionView::launch);

    method_->setObjectName(QStringLiteral("projectionMethod"));
    method_->addItem(tr("t-SNE"));
    method_->addItem(tr("PCA"));
    method_->setToolTip(tr("t-SNE keeps neighbourhoods; PCA shows the two directions of largest variance"));
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
    restartButton_->setToolTip(tr("Start t-SNE again from the beginning"));
    auto *fitButton = new QPushButton(tr("Fit"), this);
    fitButton->setToolTip(tr("Show every point again after zooming or panning (or double-click the plot)"));

    // The two settings people change most in the row; the rest in a small pop-up, so the row fits
    // a laptop screen beside the parameter panel.
    QHBoxLayout *row = toolRow();
    row->addWidget(method_);
    for (auto [text, w] :
         {std::pair<QString, QWidget *>{tr("Perplexity:"), perplexity_}, {tr("Iterations:"), iterations_}}) {
        auto *label = new QLabel(text, this);
        label->setBuddy(w);
        row->addWidget(label);
        row->addWidget(w);
    }
    auto *more = new QToolButton(this);
    more->setObjectName(QStringLiteral("moreSettings"));
    more->setText(tr("More…"));
    more->setToolTip(tr("Learning rate, early exaggeration, start and seed"));
    auto *popup = new QFrame(this, Qt::Popup);
    popup->setFrameShape(QFrame::StyledPanel);
    auto *form = new QFormLayout(popup);
    form->addRow(tr("Learning rate:"), learningRate_);
    form->addRow(tr("Early exaggeration:"), exaggeration_);
    form->addRow(tr("Start:"), init_);
    form->addRow(tr("Seed:"), seed_);
    connect(more, &QToolButton::clicked, this, [more, popup] {
        popup->adjustSize();
        popup->move(more->mapToGlobal(QPoint(0, more->height())));
        popup->show();
    });
    row->addWidget(more);
    row->addWidget(runButton_);
    row->addWidget(restartButton_);
    row->addWidget(fitButton);
    row->addStretch(1);

    QCustomPlot *p = plot();
    title_ = addTitle();
    points_ = new QCPColorMap(p->xAxis, p->yAxis);
    points_->setInterpolate(false);
    scale_ = new QCPColorScale(p);
    scale_->axis()->setLabel(tr("position"));
    content()->addElement(0, 1, scale_);
    points_->setColorScale(scale_);
    QCPColorGradient gradient = colormaps::gradient(QStringLiteral("viridis"));
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    points_->setGradient(gradient);
    current_ = p->addGraph();
    current_->setLineStyle(QCPGraph::lsNone);
    currentLabel_ = new QCPItemText(p);
    currentLabel_->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    currentLabel_->setColor(QColor(200, 20, 20));
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    for (QCPAxis *axis : {p->xAxis, p->yAxis})
        connect(axis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, [this] {
            if (settingRange_)
                return;
            userRange_ = true;
            raster();
        });
    connect(p, &QCustomPlot::mouseDoubleClick, this, &ProjectionView::fit);
    connect(p, &QCustomPlot::mouseRelease, this, [this](QMouseEvent *event) {
        // A click (not a drag) on a point makes it the current position of every view.
        if (event->button() != Qt::LeftButton)
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
    connect(method_, &QComboBox::currentIndexChanged, this, &PlotView::refresh);
    connect(init_, &QComboBox::currentIndexChanged, this, &PlotView::refresh);
    for (QDoubleSpinBox *s : {perplexity_, learningRate_, exaggeration_})
        connect(s, &QDoubleSpinBox::valueChanged, this, &PlotView::refresh);
    for (QSpinBox *s : {iterations_, seed_})
        connect(s, &QSpinBox::valueChanged, this, &PlotView::refresh);
    connect(runButton_, &QPushButton::clicked, this, [this] {
        if (running())
            pause();
        else if (paused_)
            resume();
        else
            restart();
    });
    connect(restartButton_, &QPushButton::clicked, this, &ProjectionView::restart);
    connect(fitButton, &QPushButton::clicked, this, &ProjectionView::fit);
    updateControls();
}

// The view's settings as declared: read in the constructor too, before the registry binds them.
const ViewSettings &ProjectionView::declared()
{
    static const ViewSettings settings = describe().settings;
    return settings;
}

pe::ProjectionMethod ProjectionView::method() const
{
    return methodFrom(completeSettings(declared(), settings()));
}

void ProjectionView::setMethod(pe::ProjectionMethod method)
{
    method_->setCurrentIndex(method_->findData(QString::fromUtf8(pe::projectionMethodName(method).data())));
}

pe::TsneSettings ProjectionView::tsneSettings() const
{
    return tsneSettingsFrom(completeSettings(declared(), settings()));
}

void ProjectionView::setSettings(const pe::TsneSettings &s)
{
    perplexity_->setValue(s.perplexity);
    learningRate_->setValue(s.learningRate);
    iterations_->setValue(s.iterations);
    exaggeration_->setValue(s.earlyExaggeration);
    init_->setCurrentIndex(static_cast<int>(s.init));
    seed_->setValue(static_cast<int>(s.seed));
}

bool ProjectionView::running() const
{
    return job_->running() || debounce_->isActive();
}

ProjectionView::Key ProjectionView::currentKey() const
{
    return {parameters()->values(), parameters()->noise(), method(), tsneSettings()};
}

void ProjectionView::finishWork()
{
    if (debounce_->isActive()) {
        debounce_->stop();
        launch();
    }
    if (completeFigures() || method() == pe::ProjectionMethod::Pca)
        job_->wait();
}

void ProjectionView::rebuild()
{
    const Key key = currentKey();
    if (key_ == key) {
        draw();
        return;
    }
    key_ = key;
    slot_ = std::make_shared<TsneSlot>();
    paused_ = false;
    userRange_ = false;
    stale_ = !shown_.xy.empty();
    job_->cancel();
    debounce_->stop();
    const std::optional<std::string> problem = pe::projectionProblem(key.params, key.noise, key.method, key.settings);
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
    paused_ = false;
    job_->start([this, enc, key, slot, resume](const std::atomic<bool> &cancel,
                                               const BackgroundJob::Post &post) -> std::function<void()> {
        if (key.method == pe::ProjectionMethod::Pca) {
            pe::Projection frame = pe::pcaProjection(*enc, key.noise, &cancel);
            if (cancel.load())
                return {};
            return [this, frame = std::move(frame)]() mutable { showFrame(std::move(frame)); };
        }
        std::shared_ptr<pe::Tsne> tsne = resume;
        if (!tsne) {
            // The start is on screen while the neighbours and affinities are computed.
            std::optional<pe::Tsne> fresh =
                pe::prepareTsne(*enc, key.noise, key.settings, &cancel, [&](const std::vector<double> &start) {
                    post([this, frame = pe::Projection{
                                    start, 0, std::numeric_limits<double>::quiet_NaN(), {0, 0}}]() mutable {
                        showFrame(std::move(frame));
                    });
                });
            if (!fresh)
                return {};
            tsne = std::make_shared<pe::Tsne>(std::move(*fresh));
            slot->tsne = tsne;
        }
        auto last = std::chrono::steady_clock::now() - 2 * kFrameInterval;
        const auto frameOf = [](const pe::Tsne &t) {
            return pe::Projection{t.embedding(),
                                  t.iteration(),
                                  t.iteration() > 0 ? t.kl() : std::numeric_limits<double>::quiet_NaN(),
                                  {0, 0}};
        };
        const bool done = pe::runTsne(
            *tsne,
            [&](const pe::Tsne &t) {
                const auto now = std::chrono::steady_clock::now();
                if (now - last >= kFrameInterval && !t.finished()) {
                    last = now;
                    post([this, frame = frameOf(t)]() mutable { showFrame(std::move(frame)); });
                }
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
    const bool first = shown_.xy.empty() || stale_;
    shown_ = std::move(frame);
    shownStart_ = key_ ? key_->params.startPos : 0;
    stale_ = false;
    if (first)
        userRange_ = false;
    draw();
}

void ProjectionView::updateControls()
{
    const bool tsne = method() == pe::ProjectionMethod::Tsne;
    for (QWidget *w : std::initializer_list<QWidget *>{perplexity_, learningRate_, iterations_, exaggeration_, init_,
                                                       runButton_, restartButton_})
        w->setEnabled(tsne);
    seed_->setEnabled(tsne && init_->currentIndex() == static_cast<int>(pe::TsneInit::Random));
    runButton_->setText(running() ? tr("Pause") : paused_ ? tr("Resume") : tr("Run again"));
    runButton_->setEnabled(tsne && problem_.isEmpty());
}

void ProjectionView::positionMoved()
{
    // Playback moves the position many times a second: only the ring moves, the points stay.
    placeCurrent();
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void ProjectionView::placeCurrent()
{
    QCustomPlot *p = plot();
    const std::int64_t n = stale_ ? 0 : static_cast<std::int64_t>(shown_.xy.size() / 2);
    const std::int64_t current = parameters()->position() - shownStart_;
    const bool showCurrent = n > 0 && current >= 0 && current < n;
    if (showCurrent) {
        const double cx = shown_.xy[2 * current], cy = shown_.xy[2 * current + 1];
        current_->setData(QVector<double>{cx}, QVector<double>{cy}, true);
        currentLabel_->position->setCoords(cx, cy);
        currentLabel_->setText(QStringLiteral(" t = %1 ").arg(parameters()->position()));
        // On the side with room: left of a point in the right half, so it is never cut off.
        const bool right = cx > p->xAxis->range().center();
        currentLabel_->setPositionAlignment((right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
        QFont f = p->font();
        f.setPointSizeF(fontSize(10));
        f.setBold(true);
        currentLabel_->setFont(f);
    } else {
        current_->data()->clear();
    }
    current_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(220, 20, 20), 2.0 * lineScale()),
                                              Qt::NoBrush, 14 * lineScale()));
    currentLabel_->setVisible(showCurrent);
}

void ProjectionView::draw()
{
    QCustomPlot *p = plot();
    const std::int64_t n = stale_ ? 0 : static_cast<std::int64_t>(shown_.xy.size() / 2);
    const bool tsne = method() == pe::ProjectionMethod::Tsne;
    if (n > 0 && !userRange_) {
        double x0 = shown_.xy[0], x1 = x0, y0 = shown_.xy[1], y1 = y0;
        for (std::int64_t i = 1; i < n; ++i) {
            x0 = std::min(x0, shown_.xy[2 * i]);
            x1 = std::max(x1, shown_.xy[2 * i]);
            y0 = std::min(y0, shown_.xy[2 * i + 1]);
            y1 = std::max(y1, shown_.xy[2 * i + 1]);
        }
        const double padX = std::max((x1 - x0) * 0.05, 1e-9), padY = std::max((y1 - y0) * 0.05, 1e-9);
        settingRange_ = true;
        p->xAxis->setRange(x0 - padX, x1 + padX);
        p->yAxis->setRange(y0 - padY, y1 + padY);
        settingRange_ = false;
    }
    raster();

    // Labels: every position's number next to its point when there are few (seed 004).
    const std::int64_t wanted = n <= kMaxLabels ? n : 0;
    while (static_cast<std::int64_t>(labels_.size()) > wanted) {
        p->removeItem(labels_.back());
        labels_.pop_back();
    }
    while (static_cast<std::int64_t>(labels_.size()) < wanted) {
        auto *label = new QCPItemText(p);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->setClipToAxisRect(true);
        labels_.push_back(label);
    }
    QFont labelFont = p->font();
    labelFont.setPointSizeF(fontSize(7));
    for (std::int64_t i = 0; i < wanted; ++i) {
        QCPItemText *label = labels_[static_cast<std::size_t>(i)];
        label->setText(QString::number(shownStart_ + i));
        label->setFont(labelFont);
        label->position->setCoords(shown_.xy[2 * i], shown_.xy[2 * i + 1]);
    }

    placeCurrent();

    const pe::EncodingParams &params = key_ ? key_->params : parameters()->values();
    const QString what =
        tr("%1 positions (d_model %2%3)")
            .arg(params.seqLen)
            .arg(params.dModel)
            .arg(key_ && key_->noise.active() ? tr(", x = PE + %1·z").arg(key_->noise.sigma) : QString());
    QStringList title;
    if (!problem_.isEmpty()) {
        title << tr("Projection not computed: %1").arg(problem_);
    } else if (tsne) {
        const pe::TsneSettings s = key_ ? key_->settings : tsneSettings();
        title << tr("t-SNE of %1, perplexity %2").arg(what).arg(s.perplexity);
        if (n > 0) {
            title << tr("iteration %1 of %2%3%4")
                         .arg(shown_.iteration)
                         .arg(s.iterations)
                         .arg(std::isfinite(shown_.kl) ? tr(", KL %1").arg(shown_.kl, 0, 'f', 3)
                                                       : tr(", finding neighbours…"))
                         .arg(paused_ ? tr(" (paused)") : QString());
        } else {
            title << tr("computing neighbours and affinities…");
        }
        p->xAxis->setLabel(tr("t-SNE 1"));
        p->yAxis->setLabel(tr("t-SNE 2"));
    } else {
        title << tr("PCA of %1").arg(what);
        if (n > 0) {
            title << tr("PC1 %1%, PC2 %2% of the variance")
                         .arg(100 * shown_.explained[0], 0, 'f', 1)
                         .arg(100 * shown_.explained[1], 0, 'f', 1);
        } else {
            title << tr("computing…");
        }
        p->xAxis->setLabel(tr("PC1 (%1% of the variance)").arg(100 * shown_.explained[0], 0, 'f', 1));
        p->yAxis->setLabel(tr("PC2 (%1% of the variance)").arg(100 * shown_.explained[1], 0, 'f', 1));
    }
    setTitle(title_, title);
    updateControls();
    p->replot(QCustomPlot::rpQueuedReplot);
}

void ProjectionView::raster()
{
    QCustomPlot *p = plot();
    // On a dark theme the first positions' near-black purple would vanish: the cloud sits on a
    // mid grey there, on which both ends of viridis stand out.
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    p->axisRect()->setBackground(dark ? QBrush(QColor(128, 128, 134)) : QBrush(Qt::NoBrush));
    const std::int64_t n = stale_ ? 0 : static_cast<std::int64_t>(shown_.xy.size() / 2);
    const QRect area = p->axisRect()->rect();
    const int w = std::clamp(static_cast<int>(std::lround(area.width() * pixelScale())), 1, 8192);
    const int h = std::clamp(static_cast<int>(std::lround(area.height() * pixelScale())), 1, 8192);
    const QCPRange kx = p->xAxis->range(), vy = p->yAxis->range();
    QCPColorMapData *data = points_->data();
    if (data->keySize() != w || data->valueSize() != h)
        data->setSize(w, h);
    // Cell centres half a cell inside the axis range, so cells and pixels coincide.
    data->setRange(QCPRange(kx.lower + kx.size() / (2 * w), kx.upper - kx.size() / (2 * w)),
                   QCPRange(vy.lower + vy.size() / (2 * h), vy.upper - vy.size() / (2 * h)));
    data->fill(std::numeric_limits<double>::quiet_NaN());
    rasterWidth_ = w;
    rasterHeight_ = h;
    pixelIndex_.assign(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), -1);
    // Dots shrink as points multiply, so a cloud of 100,000 still shows its structure.
    const double radius = (n <= 500 ? 3.5 : n <= 5000 ? 2.2 : n <= 20000 ? 1.5 : 0.8) * pixelScale() * lineScale();
    const int r = static_cast<int>(std::ceil(radius));
    std::vector<std::pair<int, int>> disc;
    for (int dy = -r; dy <= r; ++dy)
        for (int dx = -r; dx <= r; ++dx)
            if (dx * dx + dy * dy <= radius * radius + 0.25)
                disc.emplace_back(dx, dy);
    for (std::int64_t i = 0; i < n; ++i) {
        const double fx = (shown_.xy[2 * i] - kx.lower) / kx.size() * w;
        const double fy = (shown_.xy[2 * i + 1] - vy.lower) / vy.size() * h;
        if (!(fx > -r - 1 && fx < w + r + 1 && fy > -r - 1 && fy < h + r + 1))
            continue;
        const int cx = static_cast<int>(std::floor(fx)), cy = static_cast<int>(std::floor(fy));
        const double value = static_cast<double>(shownStart_ + i);
        for (auto [dx, dy] : disc) {
            const int x = cx + dx, y = cy + dy;
            if (x < 0 || x >= w || y < 0 || y >= h)
                continue;
            data->setCell(x, y, value);
            pixelIndex_[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)] =
                static_cast<std::int32_t>(i);
        }
    }
    const double last = static_cast<double>(shownStart_ + std::max<std::int64_t>(n, 1) - 1);
    points_->setDataRange(QCPRange(static_cast<double>(shownStart_), std::max(last, shownStart_ + 1.0)));
    p->replot(QCustomPlot::rpQueuedReplot);
}

void ProjectionView::changeEvent(QEvent *event)
{
    PlotView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        raster();
}

std::int64_t ProjectionView::positionAt(QPointF pixel) const
{
    if (pixelIndex_.empty())
        return -1;
    const QCustomPlot *p = plot();
    const QCPRange kx = p->xAxis->range(), vy = p->yAxis->range();
    const double fx = (p->xAxis->pixelToCoord(pixel.x()) - kx.lower) / kx.size() * rasterWidth_;
    const double fy = (p->yAxis->pixelToCoord(pixel.y()) - vy.lower) / vy.size() * rasterHeight_;
    const int cx = static_cast<int>(std::floor(fx)), cy = static_cast<int>(std::floor(fy));
    const int reach = static_cast<int>(std::ceil(4 * pixelScale()));
    std::int32_t best = -1;
    int bestD = std::numeric_limits<int>::max();
    for (int dy = -reach; dy <= reach; ++dy)
        for (int dx = -reach; dx <= reach; ++dx) {
            const int x = cx + dx, y = cy + dy;
            if (x < 0 || x >= rasterWidth_ || y < 0 || y >= rasterHeight_)
                continue;
            const std::int32_t i = pixelIndex_[static_cast<std::size_t>(y) * static_cast<std::size_t>(rasterWidth_) +
                                               static_cast<std::size_t>(x)];
            if (i >= 0 && dx * dx + dy * dy < bestD) {
                bestD = dx * dx + dy * dy;
                best = i;
            }
        }
    return best < 0 ? -1 : shownStart_ + best;
}

QString ProjectionView::tooltipAt(QPointF pixel) const
{
    const std::int64_t t = positionAt(pixel);
    if (t < 0)
        return {};
    const std::size_t i = static_cast<std::size_t>(t - shownStart_);
    return tr("position %1\n(%2, %3)").arg(t).arg(shown_.xy[2 * i], 0, 'g', 4).arg(shown_.xy[2 * i + 1], 0, 'g', 4);
}

std::int64_t ProjectionView::heldValues() const
{
    return static_cast<std::int64_t>(shown_.xy.size()) + static_cast<std::int64_t>(pixelIndex_.size()) * 2;
}

std::optional<pe::Table> ProjectionView::dataTable() const
{
    // The coordinates on screen: the frame shown, finished or not.
    if (shown_.xy.empty() || stale_)
        return std::nullopt;
    return pe::coordinateTable(shownStart_, shown_.xy);
}

pe::ProjectionMethod ProjectionView::methodFrom(const QJsonObject &settings)
{
    return *pe::parseProjectionMethod(choiceName(settings, QStringLiteral("projectionMethod")).toStdString());
}

pe::TsneSettings ProjectionView::tsneSettingsFrom(const QJsonObject &settings)
{
    pe::TsneSettings s;
    s.perplexity = settings.value(QStringLiteral("perplexity")).toDouble();
    s.learningRate = settings.value(QStringLiteral("learningRate")).toDouble();
    s.iterations = settings.value(QStringLiteral("iterations")).toInt();
    s.earlyExaggeration = settings.value(QStringLiteral("exaggeration")).toDouble();
    s.init = choiceName(settings, QStringLiteral("init")) == QLatin1String("random") ? pe::TsneInit::Random
                                                                                     : pe::TsneInit::Pca;
    s.seed = static_cast<std::uint64_t>(settings.value(QStringLiteral("tsneSeed")).toDouble());
    return s;
}

ViewInfo ProjectionView::describe()
{
    using Kind = ViewSetting::Kind;
    const pe::TsneSettings d;
    const auto problem = [](const DataRequest &r) {
        const auto why =
            pe::projectionProblem(r.encoding->params(), r.noise, methodFrom(r.settings), tsneSettingsFrom(r.settings));
        return why ? QString::fromStdString(*why) : QString();
    };
    return {QStringLiteral("projection"),
            tr("Projection"),
            {},
            {{QStringLiteral("projectionMethod"),
              Kind::Choice,
              QStringLiteral("tsne"),
              {QStringLiteral("tsne"), QStringLiteral("pca")},
              0,
              0,
              {},
              {},
              QStringLiteral("method"),
              QStringLiteral("M"),
              tr("Projection method")},
             {QStringLiteral("perplexity"),
              Kind::Real,
              d.perplexity,
              {},
              1,
              pe::limits::maxPerplexity,
              {},
              {},
              QStringLiteral("perplexity"),
              QStringLiteral("P"),
              tr("t-SNE perplexity, below seq_len (seed 004 uses 4)")},
             {QStringLiteral("learningRate"),
              Kind::Real,
              0.0,
              {},
              0,
              pe::limits::maxLearningRate,
              QStringLiteral("auto"),
              {},
              QStringLiteral("learning-rate"),
              QStringLiteral("R"),
              tr("t-SNE learning rate (auto: max(N / exaggeration / 4, 50))")},
             {QStringLiteral("iterations"),
              Kind::Integer,
              d.iterations,
              {},
              1,
              pe::limits::maxTsneIterations,
              {},
              {},
              QStringLiteral("iterations"),
              QStringLiteral("N"),
              tr("t-SNE iterations; exports run them all")},
             {QStringLiteral("exaggeration"),
              Kind::Real,
              d.earlyExaggeration,
              {},
              1,
              pe::limits::maxExaggeration,
              {},
              {},
              QStringLiteral("exaggeration"),
              QStringLiteral("E"),
              tr("t-SNE early exaggeration")},
             {QStringLiteral("init"),
              Kind::Choice,
              QStringLiteral("pca"),
              {QStringLiteral("pca"), QStringLiteral("random")},
              0,
              0,
              {},
              {},
              QStringLiteral("init"),
              QStringLiteral("I"),
              tr("t-SNE start (random: drawn with --seed)")},
             // --seed sets the noise's seed and this one (the command line's own option).
             {QStringLiteral("tsneSeed"),
              Kind::Integer,
              42,
              {},
              0,
              static_cast<double>(pe::limits::maxSeed),
              {},
              {},
              QStringLiteral("seed")}},
            {{QStringLiteral("projection"), tr("each position's 2-D coordinates (t-SNE or PCA)"), problem,
              [](const DataRequest &r) {
                  return pe::projectionTable(*r.encoding, r.noise, methodFrom(r.settings),
                                             tsneSettingsFrom(r.settings));
              }}},
            problem};
}
