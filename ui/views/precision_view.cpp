#include "views/precision_view.h"

#include "analysis/reduction.h"
#include "encodings/scheme.h"
#include "figures/integer_ticker.h"
#include "state/parameters.h"
#include "state/view_state.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

const QColor kAngle(30, 90, 200);
const QColor kValue(230, 120, 20);
const QColor kEqual(110, 110, 110);
const QColor kMark(220, 30, 30);

QString sci(double v)
{
    return v == 0 ? QStringLiteral("0") : QString::number(v, 'g', 3);
}

} // namespace

PrecisionView::PrecisionView(Parameters *parameters, QWidget *parent)
    : PlotView(parameters, parent)
    , precisionChoice_(new QComboBox(this))
{
    setObjectName(QStringLiteral("precisionView"));
    precisionChoice_->setObjectName(QStringLiteral("precision"));
    precisionChoice_->addItems({tr("float64 (exact)"), tr("float32"), tr("bfloat16")});
    precisionChoice_->setToolTip(tr("The type cos and sin are computed in, as transformers does: inv_freq and t·θ in "
                                    "float32 in both float32 and bfloat16, then cos and sin cast to bfloat16"));
    toolRow()->addWidget(new QLabel(tr("Precision:"), this));
    toolRow()->addWidget(precisionChoice_);
    toolRow()->addStretch(1);

    QCustomPlot *p = plot();
    title_ = addTitle();
    p->xAxis->setTicker(QSharedPointer<IntegerTicker>::create());
    p->xAxis->setLabel(tr("position t"));
    p->yAxis->setScaleType(QCPAxis::stLogarithmic);
    p->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    p->yAxis->setLabel(tr("worst error against float64"));
    p->yAxis2->setVisible(true);
    p->yAxis2->setTickLabels(true);
    p->yAxis2->setTicker(QSharedPointer<IntegerTicker>::create());
    p->yAxis2->setLabel(tr("pairs with PE(t) = PE(t + 1)"));
    QCPGraph *angle = addGraph();
    angle->setName(tr("angle t·θ, float32 (rad, on the circle)"));
    QCPGraph *value = addGraph();
    value->setName(tr("cos, sin"));
    QCPGraph *equal = addGraph(p->xAxis, p->yAxis2);
    equal->setName(tr("pairs: PE(t) = PE(t + 1) (right)"));
    equal->setLineStyle(QCPGraph::lsStepLeft);
    positionLine_ = addMarkerLine(kMark);
    placeLegendAbove();
}

PrecisionView::~PrecisionView() = default;

PrecisionView::Drawn PrecisionView::reduce(const std::shared_ptr<const pe::PrecisionErrors> &errors,
                                           std::int64_t startPos, int width)
{
    const pe::PrecisionErrors &e = *errors;
    Drawn d;
    d.errors = errors;
    d.width = width;
    const pe::CurveEnvelope angle = pe::curveEnvelope(e.angleError, width);
    const pe::CurveEnvelope value = pe::curveEnvelope(e.valueError, width);
    const pe::CurveEnvelope equal =
        pe::curveEnvelope(std::vector<double>(e.equalPairs.begin(), e.equalPairs.end()), width);
    d.stride = angle.stride;
    const auto worst = [&d, startPos](const pe::CurveEnvelope &c, bool logAxis, int g) {
        for (std::size_t i = 0; i < c.high.size(); ++i) {
            d.x[g] << static_cast<double>(startPos + static_cast<std::int64_t>(i) * c.stride);
            // An exact 0 has no place on a log axis: a gap, and the title says so.
            const bool zero = logAxis && c.high[i] <= 0;
            d.zeros |= zero;
            d.y[g] << (zero ? std::numeric_limits<double>::quiet_NaN() : c.high[i]);
            if (logAxis && !zero) {
                d.low = std::min(d.low, c.high[i]);
                d.high = std::max(d.high, c.high[i]);
            }
        }
    };
    if (e.precision != pe::Precision::Float64) {
        worst(angle, true, 0);
        worst(value, true, 1);
    }
    worst(equal, false, 2);
    d.firstEqual = pe::firstEqualPosition(e, startPos);
    return d;
}

QList<QCPAxis *> PrecisionView::positionAxes() const
{
    return {plot()->xAxis};
}

void PrecisionView::rebuild()
{
    const std::shared_ptr<const pe::Encoding> enc = parameters()->sharedEncoding();
    const pe::EncodingParams &p = enc->params();
    const pe::Precision precision = precisionFrom(state().values());
    QCustomPlot *plt = plot();
    if (!errors_ || errorsOf_ != enc || errors_->precision != precision) {
        errors_ = std::make_shared<const pe::PrecisionErrors>(pe::precisionErrors(*enc, precision));
        errorsOf_ = enc;
    }
    const pe::PrecisionErrors &e = *errors_;

    // Each pixel column: the worst of its run of positions (a spike one position wide still shows).
    // Reduced once for the errors and the width: a position step only moves the marker and the title.
    const int buckets = std::max(2, plt->axisRect()->width());
    if (!drawn_ || drawn_->errors != errors_ || drawn_->width != buckets)
        drawn_ = std::make_unique<Drawn>(reduce(errors_, p.startPos, buckets));
    const Drawn &d = *drawn_;
    const QVector<double> &ax = d.x[0], &ay = d.y[0], &vx = d.x[1], &vy = d.y[1], &ex = d.x[2], &ey = d.y[2];
    const bool zeros = d.zeros;
    const bool exact = precision == pe::Precision::Float64;
    const auto points = static_cast<std::int64_t>(ax.size());
    plt->graph(0)->setData(ax, ay, true);
    plt->graph(0)->setPen(curvePen(kAngle, 1.6, points));
    plt->graph(1)->setData(vx, vy, true);
    // Dashed: past about 150,000 positions in bfloat16 the two curves meet, and the angle shows through.
    QPen valuePen = curvePen(kValue, 1.6, points);
    valuePen.setStyle(Qt::DashLine);
    valuePen.setCapStyle(Qt::SquareCap); // Qt's dashes as before (round ones would be pills)
    plt->graph(1)->setPen(valuePen);
    plt->graph(1)->setName(tr("cos, sin, %1").arg(QString::fromUtf8(pe::precisionName(precision).data())));
    plt->graph(2)->setData(ex, ey, true);
    plt->graph(2)->setPen(curvePen(kEqual, 1.2, points));
    for (int g : {0, 1}) {
        plt->graph(g)->setVisible(!exact);
        if (exact)
            plt->graph(g)->removeFromLegend();
        else
            plt->graph(g)->addToLegend();
    }
    plt->yAxis->setLabel(exact ? tr("(float64: no error)") : tr("worst error against float64"));

    const std::int64_t t = parameters()->position();
    placeVertical(positionLine_, static_cast<double>(t));
    plt->xAxis->setRange(static_cast<double>(p.startPos) - 0.5, static_cast<double>(p.startPos + p.seqLen) - 0.5);
    if (d.high > 0)
        plt->yAxis->setRange(d.low / 3, d.high * 3);
    else
        plt->yAxis->setRange(1e-9, 1);
    plt->yAxis2->setRange(0, std::max(1, e.rotatingPairs) * 1.05);

    const std::size_t r = static_cast<std::size_t>(t - p.startPos);
    const QString type = QString::fromUtf8(pe::precisionName(precision).data());
    QStringList title{
        exact ? tr("RoPE in float64: the values every view draws (d = %1, base %2)")
                    .arg(p.dModel)
                    .arg(QString::fromStdString(pe::compactNumber(p.base)))
        : precision == pe::Precision::Float32
            ? tr("RoPE in float32 as transformers computes it: inv_freq, t·θ, cos and sin in float32 (d = %1, base "
                 "%2)")
                  .arg(p.dModel)
                  .arg(QString::fromStdString(pe::compactNumber(p.base)))
            : tr("RoPE in bfloat16 as transformers computes it: inv_freq, t·θ, cos and sin in float32, then cast to "
                 "bfloat16 (d = %1, base %2)")
                  .arg(p.dModel)
                  .arg(QString::fromStdString(pe::compactNumber(p.base)))};
    if (p.rope.scaling != pe::RopeScaling::None || e.rotatingPairs < p.dModel / 2)
        title << (pe::frequenciesRoundedFromFloat64(p)
                      ? tr("θ under %1: the float64 θ rounded to float32 (transformers' float32 blend may sit an ulp "
                           "away)")
                      : tr("θ under %1, in transformers' float32 steps"))
                     .arg(QString::fromStdString(pe::scalingSummary(p)));
    if (r < e.angleError.size())
        title << (exact ? tr("at t = %1: %2 of %3 pairs cannot tell t from t + 1")
                              .arg(QString::fromStdString(pe::withThousands(t)))
                              .arg(e.equalPairs[r])
                              .arg(e.rotatingPairs)
                        : tr("at t = %1: angle error %2 rad, %3 error %4; %5 of %6 pairs cannot tell t from t + 1")
                              .arg(QString::fromStdString(pe::withThousands(t)), sci(e.angleError[r]), type,
                                   sci(e.valueError[r]))
                              .arg(e.equalPairs[r])
                              .arg(e.rotatingPairs));
    if (const auto first = d.firstEqual)
        title << tr("from t = %1 some pair's cos and sin in %2 are the same at t and t + 1")
                     .arg(QString::fromStdString(pe::withThousands(*first)), type);
    else
        title << tr("every pair tells each t of the window from t + 1 in %1").arg(type);
    if (d.stride > 1)
        title << tr("each point: the worst of %1 positions").arg(d.stride);
    if (zeros)
        title << tr("gaps: an error of exactly 0");
    setTitle(title_, title);
    wrapLegend();
    plt->replot(QCustomPlot::rpQueuedReplot);
}
