#include "views/rope_decay_view.h"

#include "analysis/offset_waves.h"
#include "encodings/scheme.h"
#include "figures/integer_ticker.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/view_state.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

namespace {

const QColor kScore(30, 90, 200);
const QColor kRandom(230, 120, 20);
const QColor kXpos(40, 150, 60);
constexpr double kWork = 33'554'432; // offsets x pairs x samples the view computes at most
// Offsets x pairs for the score and the bound: about 60 ms with the fill, so a slider stays live. Past it the view
// shows the first offsets and says so (the decay is a function of the offset alone: the ones not
// drawn are further out, not sampled away); --export-data rope-decay computes every one.
constexpr double kOffsetWork = 8'388'608;

} // namespace

RopeDecayView::RopeDecayView(Parameters *parameters, QWidget *parent)
    : PlotView(parameters, parent)
    , samplesSpin_(new QSpinBox(this))
    , seedSpin_(new QSpinBox(this))
{
    setObjectName(QStringLiteral("ropeDecayView"));
    samplesSpin_->setObjectName(QStringLiteral("decaySamples"));
    samplesSpin_->setToolTip(tr("Random (q, k) pairs for the mean and band: 'none' draws none"));
    seedSpin_->setObjectName(QStringLiteral("decaySeed"));
    seedSpin_->setToolTip(tr("Seed of the random q and k"));
    toolRow()->addWidget(new QLabel(tr("Random q, k samples:"), this));
    toolRow()->addWidget(samplesSpin_);
    toolRow()->addWidget(new QLabel(tr("seed:"), this));
    toolRow()->addWidget(seedSpin_);
    toolRow()->addStretch(1);

    QCustomPlot *p = plot();
    title_ = addTitle();
    p->xAxis->setTicker(QSharedPointer<IntegerTicker>::create());
    p->xAxis->setLabel(tr("relative distance k = t − s"));
    p->yAxis->setLabel(tr("score Σᵢ 2·cos(k·θᵢ)"));
    // RoFormer's figure 2 plots its relative upper bound alone, on a scale of its own: here on the
    // right axis, so it is never read against the score as a bound that is exceeded.
    p->yAxis2->setVisible(true);
    p->yAxis2->setTickLabels(true);
    p->yAxis2->setLabel(tr("relative upper bound"));
    QCPGraph *bandLow = addGraph();
    QCPGraph *bandHigh = addGraph();
    QColor fill = kRandom;
    fill.setAlpha(60);
    bandHigh->setBrush(fill);
    bandHigh->setChannelFillGraph(bandLow);
    // The band is an envelope a pixel column wide: without antialiasing its fill costs a third of
    // what it did at 100,000 positions (its zigzag edges were most of a step) and looks the same.
    bandHigh->setAntialiasedFill(false);
    bandLow->setPen(Qt::NoPen);
    bandHigh->setPen(Qt::NoPen);
    bandLow->removeFromLegend();
    bandHigh->setName(tr("random q, k: ± 1 sd"));
    QCPGraph *mean = addGraph();
    mean->setName(tr("random q, k: mean"));
    QCPGraph *score = addGraph();
    score->setName(tr("score, q = k = ones"));
    QCPGraph *bound = addGraph(p->xAxis, p->yAxis2);
    bound->setName(tr("relative upper bound (right axis)"));
    QCPGraph *xpos = addGraph();
    xpos->setName(tr("xPos: Σᵢ 2·ζᵢ^(k/γ)·cos(k·θᵢ), q = k = ones"));
    contextLine_ = addMarkerLine(QColor(220, 30, 30));
    placeLegendAbove();
}

void RopeDecayView::rebuild()
{
    const pe::Encoding &enc = parameters()->encoding();
    const pe::EncodingParams &p = enc.params();
    QCustomPlot *plt = plot();
    offsets_ = std::min<std::int64_t>(
        p.seqLen, std::max<std::int64_t>(1024, static_cast<std::int64_t>(kOffsetWork / enc.pairCount())));
    const double perSample = static_cast<double>(offsets_) * enc.pairCount();
    samplesUsed_ =
        std::min(state().integer(QStringLiteral("decaySamples")), static_cast<int>(std::max(1.0, kWork / perSample)));
    if (state().integer(QStringLiteral("decaySamples")) == 0)
        samplesUsed_ = 0;
    std::vector<double> theta = pe::pairFrequencies(enc); // RoPE's pairs always turn as one
    if (!curves_ || theta != curvesTheta_ || curvesScheme_ != static_cast<int>(p.scheme) || curvesD_ != p.dModel ||
        curvesLayout_ != static_cast<int>(p.layout) || curvesOffsets_ != offsets_ || curvesSamples_ != samplesUsed_ ||
        curvesSeed_ != state().integer(QStringLiteral("decaySeed")) || curvesXpos_ != p.xposScaleBase) {
        curves_ = std::make_shared<pe::RopeDecayCurves>(pe::ropeDecayCurves(
            enc, offsets_, samplesUsed_, static_cast<std::uint64_t>(state().integer(QStringLiteral("decaySeed")))));
        curvesTheta_ = std::move(theta);
        curvesScheme_ = static_cast<int>(p.scheme);
        curvesD_ = p.dModel;
        curvesLayout_ = static_cast<int>(p.layout);
        curvesOffsets_ = offsets_;
        curvesSamples_ = samplesUsed_;
        curvesSeed_ = state().integer(QStringLiteral("decaySeed"));
        curvesXpos_ = p.xposScaleBase;
    }
    const pe::RopeDecayCurves &c = *curves_;
    const int buckets = std::max(2, plt->axisRect()->width());
    std::vector<double> low(c.mean.size()), high(c.mean.size());
    for (std::size_t k = 0; k < c.mean.size(); ++k) {
        low[k] = c.mean[k] - c.sd[k];
        high[k] = c.mean[k] + c.sd[k];
    }
    // Each curve reduced to its envelope per pixel column; the band to its outer edges.
    const pe::CurveEnvelope lowCurve = pe::curveEnvelope(low, buckets), highCurve = pe::curveEnvelope(high, buckets);
    QVector<double> x, lo, hi;
    for (std::size_t i = 0; i < lowCurve.low.size(); ++i) {
        x << static_cast<double>(static_cast<std::int64_t>(i) * lowCurve.stride);
        lo << lowCurve.low[i];
        hi << highCurve.high[i];
    }
    const bool random = samplesUsed_ > 0;
    plt->graph(0)->setData(x, lo, true);
    plt->graph(1)->setData(x, hi, true);
    setEnvelope(plt->graph(2), pe::curveEnvelope(c.mean, buckets), 0);
    setEnvelope(plt->graph(3), pe::curveEnvelope(c.score, buckets), 0);
    setEnvelope(plt->graph(4), pe::curveEnvelope(c.bound, buckets), 0);
    const bool xpos = !c.xpos.empty();
    plt->graph(5)->setVisible(xpos);
    if (xpos) {
        setEnvelope(plt->graph(5), pe::curveEnvelope(c.xpos, buckets), 0);
        plt->graph(5)->addToLegend();
    } else {
        plt->graph(5)->data()->clear();
        plt->graph(5)->removeFromLegend();
    }
    for (int g : {0, 1, 2})
        plt->graph(g)->setVisible(random);
    for (int g : {1, 2})
        if (random)
            plt->graph(g)->addToLegend();
        else
            plt->graph(g)->removeFromLegend();
    const auto points = static_cast<std::int64_t>(std::min<std::size_t>(c.score.size(), 2 * buckets));
    plt->graph(2)->setPen(curvePen(kRandom, 1.2, points));
    plt->graph(3)->setPen(curvePen(kScore, 1.2, points));
    // The bound in the theme's ink: black on paper, light on a dark background.
    plt->graph(4)->setPen(curvePen(palette().color(QPalette::WindowText), 2.2, points));
    plt->graph(5)->setPen(curvePen(kXpos, 1.8, points));
    placeVertical(contextLine_, static_cast<double>(p.rope.originalContext));
    contextLine_->setVisible(p.rope.originalContext < offsets_);
    plt->xAxis->setRange(-0.5, static_cast<double>(offsets_) - 0.5);
    plt->yAxis->rescale();
    plt->yAxis->scaleRange(1.1);
    plt->yAxis2->setRange(0, *std::max_element(c.bound.begin(), c.bound.end()) * 1.1);

    const std::int64_t stride = pe::curveEnvelope(c.score, buckets).stride;
    // xPos's γ on the first line, which lecture mode keeps.
    QStringList title{
        tr("RoPE's long-term decay (RoFormer 3.4.3): d = %1, base %2%3")
            .arg(p.dModel)
            .arg(QString::fromStdString(pe::compactNumber(p.base)))
            .arg(p.xposScaleBase > 0
                     ? tr("; green: xPos, γ = %1").arg(QString::fromStdString(pe::compactNumber(p.xposScaleBase)))
                     : QString())};
    // scalingSummary names partial rotary too ("24 of 96 dims rotate": the standing pairs add 2 each).
    if (p.rope.scaling != pe::RopeScaling::None || pe::rotatedPairs(p.dModel, p.rope) < p.dModel / 2)
        title << tr("θ′ under %1%2")
                     .arg(QString::fromStdString(pe::scalingSummary(p)),
                          pe::ropeAttentionFactor(p.rope) != 1.0
                              ? tr("; without the factor on cos and sin (RoFormer's score; Attention has it)")
                              : QString());
    title << (random ? tr("random: %1 seeded Gaussian (q, k) pairs (seed %2)%3; their mean stays near 0: the decay "
                          "needs q and k that agree")
                           .arg(samplesUsed_)
                           .arg(state().integer(QStringLiteral("decaySeed")))
                           .arg(samplesUsed_ < state().integer(QStringLiteral("decaySamples"))
                                    ? tr(", fewer than the %1 asked at this size")
                                          .arg(state().integer(QStringLiteral("decaySamples")))
                                    : QString())
                     : tr("no random samples"));
    if (xpos) {
        // Where xPos's slowest-decaying pair has fallen to 1/e: ζ_max^(k/γ) = 1/e at k = γ / -ln ζ_max.
        const std::vector<double> zeta = pe::xposZeta(p.dModel, p.rope);
        double slowest = 0;
        for (int i = 0; i < pe::rotatedPairs(p.dModel, p.rope); ++i)
            slowest = std::max(slowest, zeta[static_cast<std::size_t>(i)]);
        const auto eFold = [&p](double z) {
            return QString::fromStdString(
                pe::withThousands(static_cast<std::int64_t>(std::llround(p.xposScaleBase / -std::log(z)))));
        };
        title << tr("green: xPos (Sun et al. 2022), ζᵢ = (2i + 0.4·D)/(1.4·D) over the D = %1 rotary dims, from %2 "
                    "to %3: pair i's term shrinks as ζᵢ^(k/γ), the fastest to 1/e by k = %4, the slowest by %5")
                     .arg(pe::rotaryDim(p.dModel, p.rope))
                     .arg(zeta.front(), 0, 'g', 4)
                     .arg(slowest, 0, 'g', 4)
                     .arg(eFold(zeta.front()), eFold(slowest));
    }
    if (p.rope.originalContext < offsets_)
        title << tr("red: the trained context L = %1").arg(p.rope.originalContext);
    if (offsets_ < p.seqLen)
        title << tr("offsets 0–%1 of 0–%2: each costs O(d); --export-data rope-decay has them all")
                     .arg(offsets_ - 1)
                     .arg(p.seqLen - 1);
    if (stride > 1)
        title << tr("lowest to highest of each %1 offsets per pixel column").arg(stride);
    setTitle(title_, title);
    wrapLegend();
    plt->replot(QCustomPlot::rpQueuedReplot);
}

void RopeDecayView::changeEvent(QEvent *event)
{
    PlotView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        refresh();
}
