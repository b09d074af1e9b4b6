#include "views/recovery_view.h"

#include "state/view_info/view_infos.h"

#include "analysis/reduction.h"
#include "figures/background_job.h"
#include "figures/integer_ticker.h"
#include "state/parameters.h"
#include "state/view_registry.h"

#include <qcustomplot.h>

#include <algorithm>

#include <QTimer>

RecoveryView::RecoveryView(Parameters *parameters, QWidget *parent)
    : PlotView(parameters, parent)
    , job_(new BackgroundJob(this))
    , debounce_(new QTimer(this))
{
    // While a slider is dragged the job starts once the drag pauses, not for every step.
    debounce_->setSingleShot(true);
    debounce_->setInterval(60);
    connect(debounce_, &QTimer::timeout, this, &RecoveryView::launch);
    setObjectName(QStringLiteral("recoveryView"));
    sigmas_ = recoveryCurveSigmas(); // the recovery-sigma export's
    QCustomPlot *p = plot();
    title_ = addTitle();
    curveRect_ = new QCPAxisRect(p);
    content()->addElement(0, 1, curveRect_);
    content()->setColumnStretchFactor(0, 3);
    content()->setColumnStretchFactor(1, 2);
    p->xAxis->setTicker(QSharedPointer<IntegerTicker>::create());
    p->yAxis->setTicker(QSharedPointer<IntegerTicker>::create());
    p->xAxis->setLabel(tr("true position"));
    p->yAxis->setLabel(tr("predicted position"));
    QCPGraph *predicted = addGraph();
    predicted->setName(QStringLiteral("predicted"));
    diagonal_ = addMarkerLine(QColor(150, 150, 150));
    curveRect_->axis(QCPAxis::atBottom)->setLabel(tr("noise σ"));
    curveRect_->axis(QCPAxis::atLeft)->setLabel(tr("accuracy"));
    curveRect_->axis(QCPAxis::atLeft)->setRange(-0.02, 1.02);
    curveRect_->axis(QCPAxis::atBottom)->setRange(-0.05, 2.05);
    addGraph(curveRect_->axis(QCPAxis::atBottom), curveRect_->axis(QCPAxis::atLeft));
    QCPGraph *mark = addGraph(curveRect_->axis(QCPAxis::atBottom), curveRect_->axis(QCPAxis::atLeft));
    mark->setLineStyle(QCPGraph::lsNone);
    sigmaLine_ = addMarkerLine(QColor(220, 30, 30), curveRect_);
    connect(job_, &BackgroundJob::finished, this, [this] { emit rebuilt(); });
}

bool RecoveryView::computing() const
{
    return job_->running() || debounce_->isActive();
}

void RecoveryView::finishWork()
{
    if (debounce_->isActive()) {
        debounce_->stop();
        launch();
    }
    job_->wait();
}

void RecoveryView::rebuild()
{
    const pe::EncodingParams &p = parameters()->values();
    if (auto tooLarge = pe::recoveryTooLarge(p)) {
        debounce_->stop();
        job_->cancel();
        recovery_ = {};
        accuracies_.assign(sigmas_.size(), 0.0);
        problem_ = QString::fromStdString(*tooLarge);
        draw();
        return;
    }
    problem_.clear();
    job_->cancel();
    recovery_ = {};
    debounce_->start();
    draw(); // "computing" until the result arrives
}

void RecoveryView::launch()
{
    if (pe::recoveryTooLarge(parameters()->values()))
        return;
    const std::shared_ptr<const pe::Encoding> enc = parameters()->sharedEncoding();
    const pe::NoiseParams noise = parameters()->noise();
    const std::vector<double> sigmas = sigmas_;
    job_->start([this, enc, noise, sigmas](const std::atomic<bool> &cancel) -> std::function<void()> {
        pe::Recovery r = pe::recoverPositions(*enc, noise, &cancel);
        std::vector<double> acc = pe::accuracyAgainstSigma(*enc, noise, sigmas, kRecoveryCurveRows, &cancel);
        return [this, r = std::move(r), acc = std::move(acc)]() mutable {
            recovery_ = std::move(r);
            accuracies_ = std::move(acc);
            draw();
        };
    });
}

void RecoveryView::draw()
{
    const pe::EncodingParams &p = parameters()->values();
    const pe::NoiseParams &noise = parameters()->noise();
    QCustomPlot *plt = plot();
    QCPGraph *predicted = plt->graph(0);
    const bool have = !recovery_.predicted.empty() &&
                      static_cast<std::int64_t>(recovery_.predicted.size()) == p.seqLen && !recovery_.cancelled;
    // At most two points a pixel column: the lowest and the highest prediction of its positions,
    // so a wrong prediction anywhere shows (every k-th position would skip most of them).
    const auto columns = std::max<std::int64_t>(2, static_cast<std::int64_t>(plt->axisRect()->width() * pixelScale()));
    const std::int64_t stride = pe::sampleStride(p.seqLen, columns);
    QVector<double> x, y;
    if (have)
        for (std::int64_t r0 = 0; const pe::Extent &e : pe::runExtents(recovery_.predicted, stride)) {
            x << static_cast<double>(p.startPos + r0);
            y << static_cast<double>(e.low);
            if (e.high != e.low) {
                x << static_cast<double>(p.startPos + r0);
                y << static_cast<double>(e.high);
            }
            r0 += stride;
        }
    predicted->setData(x, y, true);
    predicted->setPen(curvePen(QColor(30, 60, 220), 0.8, x.size()));
    predicted->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(30, 60, 220), 3 * lineScale()));
    diagonal_->point1->setCoords(0, 0);
    diagonal_->point2->setCoords(1, 1);
    const QCPRange window(static_cast<double>(p.startPos) - 0.5, static_cast<double>(p.startPos + p.seqLen) - 0.5);
    plt->xAxis->setRange(window);
    plt->yAxis->setRange(window);

    QVector<double> sx, sy;
    for (std::size_t i = 0; i < sigmas_.size() && i < accuracies_.size(); ++i) {
        sx << sigmas_[i];
        sy << accuracies_[i];
    }
    QCPGraph *curve = plt->graph(1);
    curve->setData(sx, sy, true);
    curve->setPen(curvePen(QColor(40, 140, 60), 1.8, sx.size()));
    curve->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5 * lineScale()));
    QCPGraph *mark = plt->graph(2);
    mark->setData(QVector<double>{noise.sigma}, QVector<double>{have ? recovery_.accuracy() : 0.0}, true);
    mark->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(220, 30, 30), 8 * lineScale()));
    mark->setVisible(have);
    placeVertical(sigmaLine_, noise.sigma);

    QStringList title;
    if (!problem_.isEmpty()) {
        title << tr("Recovery not computed:") << problem_;
    } else if (!have) {
        title << tr("Recovery: computing argmax_s x_t · PE(s) for %1 positions…").arg(p.seqLen);
    } else {
        title << tr("Recovery: %1% of %2 positions predicted exactly")
                     .arg(100.0 * recovery_.accuracy(), 0, 'f', 1)
                     .arg(p.seqLen)
              << (noise.active()
                      ? tr("x = PE + %1·z, %2").arg(noise.sigma).arg(QString::fromStdString(pe::seedText(noise)))
                      : tr("pure encoding"))
              << tr("right: accuracy against σ on %1 positions")
                     .arg(std::min<std::int64_t>(kRecoveryCurveRows, p.seqLen));
        if (stride > 1)
            title << tr("(every position: the lowest and highest prediction of each %1 per pixel column)").arg(stride);
    }
    setTitle(title_, title);
    plt->replot(QCustomPlot::rpQueuedReplot);
}

std::optional<pe::Table> RecoveryView::dataTable() const
{
    // What the view computed on its worker, not a second computation on the GUI thread.
    const pe::Encoding &encoding = parameters()->encoding();
    if (recovery_.predicted.empty() || recovery_.cancelled ||
        static_cast<std::int64_t>(recovery_.predicted.size()) != encoding.params().seqLen)
        return std::nullopt;
    return pe::recoveryTable(recovery_, encoding.params().startPos);
}

QList<QCPAxis *> RecoveryView::positionAxes() const
{
    return {plot()->xAxis};
}
