#include "views/scaling_view.h"

#include "encodings/rope.h"
#include "encodings/scheme.h"
#include "figures/integer_ticker.h"
#include "figures/power_ticker.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/view_state.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>

#include <array>
#include <cmath>
#include <numbers>

namespace {

const QColor kUnscaled(150, 150, 150);
// Kept, interpolated, blended, beyond: the order of pe::PairRegime.
const std::array<QColor, 4> kRegimeColors{QColor(30, 90, 200), QColor(230, 120, 20), QColor(40, 160, 70),
                                          QColor(150, 40, 160)};
constexpr int kRegimes = 4;
const QColor kMark(220, 30, 30);

} // namespace

ScalingView::ScalingView(Parameters *parameters, QWidget *parent)
    : PlotView(parameters, parent)
    , quantityChoice_(new QComboBox(this))
{
    setObjectName(QStringLiteral("scalingView"));
    quantityChoice_->setObjectName(QStringLiteral("scalingQuantity"));
    quantityChoice_->addItem(tr("wavelength 2π/ω"));
    quantityChoice_->addItem(tr("frequency ω"));
    quantityChoice_->setToolTip(tr("Each pair's wavelength 2π/ω in positions, or its angular frequency ω"));
    toolRow()->addWidget(new QLabel(tr("Show:"), this));
    toolRow()->addWidget(quantityChoice_);
    toolRow()->addStretch(1);

    QCustomPlot *p = plot();
    title_ = addTitle();
    PowerTicker::install(p->yAxis); // every tick a power of ten, 10⁴ not 10000
    p->xAxis->setTicker(QSharedPointer<IntegerTicker>::create());
    // One x axis for both plots (matplotlib's sharex): the pairs' numbers and title under the ratio.
    p->xAxis->setTickLabels(false);
    QCPGraph *unscaled = addGraph();
    // Short names, two to a row at 3.5 in (the formula is the axis title's and the manual's).
    unscaled->setName(tr("unscaled θᵢ"));
    unscaled->setPen(QPen(kUnscaled, 1.5, Qt::DashLine));
    const QStringList names{tr("kept: extrapolates"), tr("interpolated: θᵢ/s"), tr("blended"), tr("beyond θᵢ/s")};
    for (int r = 0; r < kRegimes; ++r) {
        QCPGraph *g = addGraph();
        g->setName(names[r]);
        g->setLineStyle(QCPGraph::lsNone);
    }
    ratioRect_ = new QCPAxisRect(p);
    content()->addElement(1, 0, ratioRect_);
    content()->setRowStretchFactors({2.0, 1.0});
    ratioRect_->axis(QCPAxis::atBottom)->setTicker(QSharedPointer<IntegerTicker>::create());
    ratioRect_->axis(QCPAxis::atBottom)->setLabel(tr("pair i"));
    ratioRect_->axis(QCPAxis::atLeft)->setLabel(tr("θ′ᵢ/θᵢ"));
    for (int r = 0; r < kRegimes; ++r) {
        QCPGraph *g = addGraph(ratioRect_->axis(QCPAxis::atBottom), ratioRect_->axis(QCPAxis::atLeft));
        g->setLineStyle(QCPGraph::lsNone);
        g->removeFromLegend();
    }
    contextLine_ = addMarkerLine(kMark);
    extendedLine_ = addMarkerLine(QColor(120, 60, 200));
    contextLabel_ = new QCPItemText(p);
    extendedLabel_ = new QCPItemText(p);
    for (QCPItemText *label : {contextLabel_, extendedLabel_}) {
        label->setClipToAxisRect(true);
        label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        label->position->setTypeY(QCPItemPosition::ptPlotCoords);
    }
    contextLabel_->setColor(kMark);
    extendedLabel_->setColor(QColor(120, 60, 200));
    oneLine_ = addMarkerLine(kUnscaled, ratioRect_);
    inverseLine_ = addMarkerLine(kRegimeColors[1], ratioRect_);
    placeLegendAbove();
    content()->setRowStretchFactors({0.001, 2.0, 1.0});
    inverseText_ = new QCPItemText(p);
    inverseText_->setClipToAxisRect(true);
    inverseText_->setClipAxisRect(ratioRect_);
    inverseText_->position->setAxes(ratioRect_->axis(QCPAxis::atBottom), ratioRect_->axis(QCPAxis::atLeft));
    inverseText_->position->setAxisRect(ratioRect_);
    inverseText_->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    inverseText_->position->setTypeY(QCPItemPosition::ptPlotCoords);
    inverseText_->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    inverseText_->setColor(kRegimeColors[1]);
    auto *left = new QCPMarginGroup(p);
    p->axisRect()->setMarginGroup(QCP::msLeft, left);
    ratioRect_->setMarginGroup(QCP::msLeft, left);
}

void ScalingView::rebuild()
{
    const pe::Encoding &enc = parameters()->encoding();
    const pe::EncodingParams &p = enc.params();
    const pe::RopeScalingParams &r = p.rope;
    const bool wavelength = state().choice(QStringLiteral("scalingQuantity")) == QLatin1String("wavelength");
    const std::int64_t length = p.startPos + p.seqLen;
    // Pairs that do not turn (partial rotary: θ = 0) have no place on a log axis: the title counts them.
    const std::vector<double> plain = pe::ropeFrequencies(p.base, p.dModel, pe::unscaled(r), length);
    const std::vector<pe::PairRegime> regimes = pe::ropeRegimes(p.base, p.dModel, r, length);
    const auto quantity = [wavelength](double w) { return wavelength ? pe::wavelengthOf(w) : w; };
    const int unrotated = static_cast<int>(std::count(regimes.begin(), regimes.end(), pe::PairRegime::Unrotated));

    QCustomPlot *plt = plot();
    QVector<double> x, y;
    for (int i = 0; i < enc.pairCount(); ++i)
        if (plain[static_cast<std::size_t>(i)] > 0) {
            x << i;
            y << quantity(plain[static_cast<std::size_t>(i)]);
        }
    plt->graph(0)->setData(x, y, true);
    std::array<int, kRegimes> counts{};
    // Dots apart at the plot's width: no wider than 0.8 of a pair's room (at 3.5 in, 64 pairs of
    // 4 pt dots ran into one band).
    const double room = 0.8 * plt->axisRect()->width() / std::max(1, enc.pairCount());
    const double dot =
        std::max(2.0, std::min(std::clamp(600.0 / std::max(1, enc.pairCount()), 2.5, 7.0) * lineScale(), room));
    for (int k = 0; k < kRegimes; ++k) {
        QVector<double> xs, ys, ratio;
        for (int i = 0; i < enc.pairCount(); ++i)
            if (static_cast<int>(regimes[static_cast<std::size_t>(i)]) == k) {
                xs << i;
                ys << quantity(enc.pairFrequency(i));
                ratio << enc.pairFrequency(i) / plain[static_cast<std::size_t>(i)];
            }
        counts[static_cast<std::size_t>(k)] = static_cast<int>(xs.size());
        const auto style = QCPScatterStyle(QCPScatterStyle::ssDisc, kRegimeColors[static_cast<std::size_t>(k)], dot);
        plt->graph(1 + k)->setData(xs, ys, true);
        plt->graph(1 + k)->setScatterStyle(style);
        plt->graph(1 + kRegimes + k)->setData(xs, ratio, true);
        plt->graph(1 + kRegimes + k)->setScatterStyle(style);
    }
    // The legend lists what this scaling has, in the regimes' order.
    for (int k = 0; k < kRegimes; ++k)
        plt->graph(1 + k)->removeFromLegend();
    for (int k = 0; k < kRegimes; ++k)
        if (counts[static_cast<std::size_t>(k)] > 0)
            plt->graph(1 + k)->addToLegend();

    // L and s·L: as wavelengths, or as the frequencies that turn once in them.
    const double context = static_cast<double>(r.originalContext);
    const bool scaled = r.scaling != pe::RopeScaling::None;
    const double markL = wavelength ? context : 2 * std::numbers::pi / context;
    const double markSL = wavelength ? r.factor * context : 2 * std::numbers::pi / (r.factor * context);
    placeHorizontal(contextLine_, markL);
    placeHorizontal(extendedLine_, markSL);
    extendedLine_->setVisible(scaled && r.factor > 1);
    extendedLabel_->setVisible(extendedLine_->visible());
    // The upper line's label above it, the lower one's below: at a small size the two lines are a
    // line of type apart and their labels ran into each other.
    contextLabel_->setPositionAlignment(Qt::AlignRight | (markL >= markSL ? Qt::AlignBottom : Qt::AlignTop));
    extendedLabel_->setPositionAlignment(Qt::AlignRight | (markSL > markL ? Qt::AlignBottom : Qt::AlignTop));
    contextLabel_->position->setCoords(0.99, markL);
    contextLabel_->setText(wavelength ? tr("L = %1").arg(r.originalContext)
                                      : tr("2π/L, L = %1").arg(r.originalContext));
    extendedLabel_->position->setCoords(0.99, markSL);
    extendedLabel_->setText(wavelength ? tr("s·L = %1").arg(r.factor * context, 0, 'g', 8) : tr("2π/(s·L)"));
    for (QCPItemText *label : {contextLabel_, extendedLabel_})
        label->setFont(QFont(font().family(), static_cast<int>(std::lround(fontSize(9)))));

    plt->xAxis->setRange(-0.5, enc.pairCount() - 0.5);
    plt->yAxis->setLabel(wavelength ? tr("wavelength 2π/θᵢ") : tr("θᵢ (radians a position)"));
    plt->yAxis->rescale();
    QCPRange range = plt->yAxis->range();
    range.lower = std::min({range.lower, markL, scaled ? markSL : markL}) / 1.6;
    range.upper = std::max({range.upper, markL, scaled ? markSL : markL}) * 1.6;
    plt->yAxis->setRange(range);
    QCPAxis *rx = ratioRect_->axis(QCPAxis::atBottom);
    QCPAxis *ry = ratioRect_->axis(QCPAxis::atLeft);
    rx->setRange(-0.5, enc.pairCount() - 0.5);
    double lowest = 1;
    for (int i = 0; i < enc.pairCount(); ++i)
        if (enc.pairFrequency(i) > 0)
            lowest = std::min(lowest, enc.pairFrequency(i) / plain[static_cast<std::size_t>(i)]);
    const double highest = 1; // no scaling speeds a pair up
    ry->setRange(std::min(lowest, scaled ? 1 / r.factor : 1.0) - 0.05, highest + 0.05);
    placeHorizontal(oneLine_, 1.0);
    placeHorizontal(inverseLine_, 1 / r.factor);
    inverseLine_->setVisible(scaled && r.factor > 1);
    inverseText_->setVisible(inverseLine_->visible());
    inverseText_->position->setCoords(0.99, 1 / r.factor);
    inverseText_->setText(tr("1/s = %1").arg(1 / r.factor, 0, 'g', 4));
    inverseText_->setFont(QFont(font().family(), static_cast<int>(std::lround(fontSize(9)))));

    QStringList title{tr("RoPE frequencies: %1").arg(QString::fromStdString(pe::scalingSummary(p)))};
    if (unrotated > 0)
        title << tr("%1 of %2 pairs do not rotate (rotary fraction %3): not drawn")
                     .arg(unrotated)
                     .arg(enc.pairCount())
                     .arg(r.rotaryFraction, 0, 'g', 4);
    if (scaled) {
        QStringList parts{tr("%1 kept").arg(counts[0]), tr("%1 interpolated").arg(counts[1])};
        if (counts[2] > 0)
            parts << tr("%1 blended").arg(counts[2]);
        if (counts[3] > 0)
            parts << tr("%1 beyond θ/s").arg(counts[3]);
        title << tr("%1 of %2 pairs").arg(parts.join(QStringLiteral(", "))).arg(enc.pairCount());
        if (r.scaling == pe::RopeScaling::Yarn && r.mscaleAllDim > 0)
            // DeepSeek's modelling code (transformers' modeling_deepseek_v3, the reference model.py)
            // scales the softmax by get_mscale(s, mscale_all_dim)² on top of cos and sin's factor.
            title << tr("YaRN's ramp is linear in i (transformers' code), not in L/λ (the paper); DeepSeek's "
                        "attention also scales its softmax by get_mscale(s, mscale_all_dim)² = %1")
                         .arg(std::pow(pe::yarnMscale(r.factor, r.mscaleAllDim), 2), 0, 'g', 4);
        else if (r.scaling == pe::RopeScaling::Yarn)
            title << tr("YaRN's ramp is linear in i (transformers' code), not in L/λ (the paper)");
        else if (r.scaling == pe::RopeScaling::LongRope)
            title << tr("LongRoPE: θ'ᵢ = θᵢ/extᵢ, a factor a pair found by search (Ding et al. 2024), the %1 list "
                        "at length %2; cos, sin × %3")
                         .arg(length > r.originalContext ? tr("long") : tr("short"))
                         .arg(QString::fromStdString(pe::withThousands(length)))
                         .arg(pe::ropeAttentionFactor(r), 0, 'g', 5);
    } else {
        int longer = 0;
        for (int i = 0; i < enc.pairCount(); ++i)
            longer += enc.pairFrequency(i) > 0 && enc.pairWavelength(i) > context ? 1 : 0;
        title << tr("%1 of %2 pairs have wavelengths above L = %3: they never turned fully in training")
                     .arg(longer)
                     .arg(enc.pairCount())
                     .arg(QString::fromStdString(pe::withThousands(r.originalContext)));
    }
    setTitle(title_, title);
    wrapLegend();
    plt->replot(QCustomPlot::rpQueuedReplot);
}
