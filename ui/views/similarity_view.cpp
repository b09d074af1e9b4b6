#include "views/similarity_view.h"

#include "figures/integer_ticker.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/view_state.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>

#include <cmath>

SimilarityView::SimilarityView(Parameters *parameters, QWidget *parent)
    : PlotView(parameters, parent)
    , metricChoice_(new QComboBox(this))
{
    setObjectName(QStringLiteral("similarityView"));
    metricChoice_->setObjectName(QStringLiteral("metric"));
    metricChoice_->addItem(tr("dot product"), QStringLiteral("dot"));
    metricChoice_->addItem(tr("cosine"), QStringLiteral("cosine"));
    metricChoice_->addItem(tr("Euclidean distance"), QStringLiteral("euclidean"));
    metricChoice_->setToolTip(
        tr("How each position's vector is compared with the reference's encoding (article 1 uses the dot product)"));
    toolRow()->addWidget(new QLabel(tr("Metric:"), this));
    toolRow()->addWidget(metricChoice_);
    toolRow()->addStretch(1);
    QCustomPlot *p = plot();
    title_ = addTitle();
    p->xAxis->setTicker(QSharedPointer<IntegerTicker>::create());
    p->xAxis->setLabel(tr("position t"));
    addGraph();
    referenceLine_ = addMarkerLine(QColor(220, 30, 30));
    bestLine_ = addMarkerLine(QColor(30, 60, 220));
}

void SimilarityView::setMetric(pe::Metric metric)
{
    applySettings({{QStringLiteral("metric"), QString::fromUtf8(pe::metricName(metric).data())}});
}
pe::Metric SimilarityView::chosenMetric() const
{
    return pe::parseMetric(state().choice(QStringLiteral("metric")).toStdString()).value_or(pe::Metric::Dot);
}

void SimilarityView::compute()
{
    const pe::Encoding &enc = parameters()->encoding();
    const pe::EncodingParams &p = enc.params();
    const pe::NoiseParams &noise = parameters()->noise();
    const std::int64_t ref = parameters()->position();
    const auto buckets =
        std::max<std::int64_t>(2, static_cast<std::int64_t>(plot()->axisRect()->width() * pixelScale()));
    // The kernel costs N d / 2 once per encoding (about 0.13 ns a term on both cores: 7 ms at
    // 100,000 x 1,024) and makes every reference move N look-ups. It is built when the reference
    // first moves (playback, arrow keys), or at once up to N d = 2^27, so dragging a parameter
    // slider never waits long for it; past that a slider step draws one jittered position a bucket.
    if (pe::OffsetKernel::applies(p, noise) && kernelFor_ != parameters()->sharedEncoding() &&
        (buildKernel_ || p.seqLen * p.dModel <= (std::int64_t(1) << 27))) {
        kernel_.emplace(enc, p.seqLen - 1);
        kernelFor_ = parameters()->sharedEncoding();
    }
    buildKernel_ = false;
    const bool useKernel = pe::OffsetKernel::applies(p, noise) && kernelFor_ == parameters()->sharedEncoding();
    pe::SimilarityCurve curve =
        pe::similarityCurve(enc, noise, ref, chosenMetric(), useKernel ? &*kernel_ : nullptr, buckets);
    positions_ = std::move(curve.positions);
    values_ = std::move(curve.high);
    low_ = std::move(curve.low);
    stride_ = curve.stride;
    envelope_ = curve.envelope;
    best_ = curve.best;
}

void SimilarityView::rebuild()
{
    compute();
    const pe::EncodingParams &p = parameters()->values();
    const pe::NoiseParams &noise = parameters()->noise();
    const std::int64_t ref = parameters()->position();
    QCustomPlot *plt = plot();
    QVector<double> x, y;
    x.reserve(static_cast<int>(2 * positions_.size()));
    for (std::size_t i = 0; i < positions_.size(); ++i) {
        // A bucket's lowest and highest value, one above the other: the curve's envelope.
        x << static_cast<double>(positions_[i]);
        y << low_[i];
        if (low_[i] != values_[i]) {
            x << static_cast<double>(positions_[i]);
            y << values_[i];
        }
    }
    QCPGraph *g = plt->graph(0);
    g->setData(x, y, true);
    g->setPen(curvePen(QColor(30, 90, 200), 1.6, static_cast<std::int64_t>(positions_.size())));
    g->setScatterStyle(positions_.size() <= 120 ? QCPScatterStyle(QCPScatterStyle::ssDisc, 4 * lineScale())
                                                : QCPScatterStyle());
    placeVertical(referenceLine_, static_cast<double>(ref));
    placeVertical(bestLine_, static_cast<double>(best_));
    bestLine_->setVisible(best_ != ref);
    plt->xAxis->setRange(static_cast<double>(p.startPos) - 0.5, static_cast<double>(p.startPos + p.seqLen) - 0.5);
    plt->yAxis->rescale();
    plt->yAxis->scaleRange(1.1);
    const QString metricText =
        metricChoice_->itemText(metricChoice_->findData(state().choice(QStringLiteral("metric"))));
    plt->yAxis->setLabel(chosenMetric() == pe::Metric::Euclidean ? tr("distance to PE(%1)").arg(ref)
                                                                 : tr("%1 with PE(%2)").arg(metricText).arg(ref));
    const QString input =
        noise.active() ? tr("x = PE + %1·z (%2)").arg(noise.sigma).arg(QString::fromStdString(pe::seedText(noise)))
                       : tr("PE");
    QStringList title{tr("Similarity of every position's %1 to PE(%2), the reference").arg(input).arg(ref),
                      (pe::higherIsCloser(chosenMetric()) ? tr("best match at %1") : tr("nearest at %1")).arg(best_) +
                          (best_ == ref ? tr(" (the reference itself)") : tr(" (blue), not the reference (red)"))};
    if (stride_ > 1)
        title << (envelope_ ? tr("(every position: lowest to highest of each %1 per pixel column)").arg(stride_)
                            : tr("(sampled: 1 position in each %1, jittered)").arg(stride_));
    setTitle(title_, title);
    plt->replot(QCustomPlot::rpQueuedReplot);
}

QString SimilarityView::tooltipAt(QPointF pixel) const
{
    if (positions_.empty() || !plot()->axisRect()->rect().contains(pixel.toPoint()))
        return {};
    const double t = plot()->xAxis->pixelToCoord(pixel.x());
    const std::size_t i = pe::nearestSample(t, positions_.front(), stride_, positions_.size());
    if (envelope_ && stride_ > 1)
        return tr("positions %1–%2\n%3 from %4 to %5")
            .arg(positions_[i])
            .arg(positions_[i] + stride_ - 1)
            .arg(metricChoice_->itemText(metricChoice_->findData(state().choice(QStringLiteral("metric")))))
            .arg(low_[i], 0, 'g', 6)
            .arg(values_[i], 0, 'g', 6);
    return tr("position t = %1\n%2 = %3")
        .arg(positions_[i])
        .arg(metricChoice_->itemText(metricChoice_->findData(state().choice(QStringLiteral("metric")))))
        .arg(values_[i], 0, 'g', 10);
}

QList<QCPAxis *> SimilarityView::positionAxes() const
{
    return {plot()->xAxis};
}
