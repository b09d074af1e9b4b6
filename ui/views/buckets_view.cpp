#include "views/buckets_view.h"

#include "encodings/position_table.h"
#include "figures/integer_ticker.h"
#include "figures/position_matrix.h"
#include "state/parameters.h"
#include "state/view_state.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include <algorithm>
#include <limits>

namespace {

const QColor kCurve(30, 90, 200);
const QColor kAfter(230, 120, 20);
const QColor kMark(220, 30, 30);
const QColor kLimit(120, 120, 120);

} // namespace

BucketsView::BucketsView(Parameters *parameters, QWidget *parent)
    : PlotView(parameters, parent)
    , causalBox_(new QCheckBox(tr("causal"), this))
    , axisChoice_(new QComboBox(this))
    , cellsSpin_(new QSpinBox(this))
{
    setObjectName(QStringLiteral("bucketsView"));
    causalBox_->setObjectName(QStringLiteral("bucketsCausal"));
    causalBox_->setToolTip(tr("The decoder's buckets: keys after the query all in bucket 0, every bucket for the "
                              "distance to the keys before it"));
    axisChoice_->setObjectName(QStringLiteral("bucketsAxis"));
    axisChoice_->addItems({tr("offset s − t"), tr("distance |s − t| (log)")});
    axisChoice_->setToolTip(tr("The curve against the offset, or against the distance on a log axis where the "
                               "logarithmic buckets are evenly spaced"));
    cellsSpin_->setObjectName(QStringLiteral("bucketsCells"));
    cellsSpin_->setToolTip(
        tr("Positions the bucket matrix shows, a page that holds the current one, a cell each: 'fit' as many "
           "as there are pixels"));
    toolRow()->addWidget(causalBox_);
    toolRow()->addWidget(new QLabel(tr("Curve against:"), this));
    toolRow()->addWidget(axisChoice_);
    toolRow()->addWidget(new QLabel(tr("Cells:"), this));
    toolRow()->addWidget(cellsSpin_);
    toolRow()->addStretch(1);

    QCustomPlot *p = plot();
    title_ = addTitle();
    matrix_ = std::make_unique<PositionMatrix>(p, content(), tr("bucket(s − t)"));
    curveRect_ = new QCPAxisRect(p);
    content()->addElement(0, 2, curveRect_);
    content()->setColumnStretchFactors({1.4, 0.01, 1.0});
    QCPAxis *x = curveRect_->axis(QCPAxis::atBottom);
    QCPAxis *y = curveRect_->axis(QCPAxis::atRight);
    curveRect_->axis(QCPAxis::atLeft)->setVisible(false);
    y->setVisible(true);
    y->setTickLabels(true);
    offsetTicker_ = QSharedPointer<IntegerTicker>::create();
    logTicker_ = QSharedPointer<QCPAxisTickerLog>::create();
    bucketTicker_ = QSharedPointer<IntegerTicker>::create();
    biasTicker_ = QSharedPointer<QCPAxisTicker>::create();
    y->setTicker(bucketTicker_);
    exactBand_ = new QCPItemRect(p);
    exactBand_->setClipAxisRect(curveRect_);
    for (QCPItemPosition *corner : {exactBand_->topLeft, exactBand_->bottomRight}) {
        corner->setAxes(x, y);
        corner->setAxisRect(curveRect_);
    }
    exactBand_->setPen(Qt::NoPen);
    exactBand_->setBrush(QColor(30, 90, 200, 40));
    for (int g = 0; g < 2; ++g)
        addGraph(x, y)->setLineStyle(QCPGraph::lsStepLeft);
    rowLine_ = addMarkerLine(kMark);
    rowLine_->setLayer(QStringLiteral("overlay"));
    usePositionLayer();
    maxBefore_ = addLine(QPen(kLimit, 1, Qt::DashLine), x, y);
    maxAfter_ = addLine(QPen(kLimit, 1, Qt::DashLine), x, y);
}

BucketsView::~BucketsView() = default;

pe::T5Buckets BucketsView::buckets() const
{
    return t5BucketsFrom(parameters()->values(), state().values());
}

bool BucketsView::logDistance() const
{
    return state().choice(QStringLiteral("bucketsAxis")) == QLatin1String("distance");
}

std::int64_t BucketsView::reach() const
{
    const pe::EncodingParams &p = parameters()->values();
    return std::min<std::int64_t>(p.seqLen - 1, std::max<std::int64_t>(2 * p.maxDistance, 16));
}

void BucketsView::rebuild()
{
    const pe::EncodingParams &p = parameters()->values();
    const pe::T5Buckets b = buckets();
    QCustomPlot *plt = plot();
    const std::int64_t t = parameters()->position();

    // With the learned table, the chosen head's bias of each bucket; else the bucket itself.
    const pe::PositionTable *table = p.biasTable.get();
    const auto valueOf = [table](int bucket, int head) {
        return table ? table->value(bucket, head) : static_cast<double>(bucket);
    };
    double low = 0, high = b.buckets - 1;
    if (table) {
        low = high = table->value(0, p.head - 1);
        for (int k = 1; k < b.buckets; ++k) {
            low = std::min(low, table->value(k, p.head - 1));
            high = std::max(high, table->value(k, p.head - 1));
        }
        if (!(high > low)) { // one value: a range around it
            low -= 0.5;
            high += 0.5;
        }
    }
    // The matrix: row = query t, column = key s, a cell a position.
    matrix_->place(t, p.startPos, p.seqLen, state().integer(QStringLiteral("bucketsCells")), kMaxCells);
    matrix_->setScaleLabel(table ? tr("bias b_%1(s − t)").arg(p.head) : tr("bucket(s − t)"));
    // With the learned bias, the decoder's masked keys (s > t) count for nothing: grey, as the
    // attention view draws them (their bucket 0 is not a bias any score receives).
    const bool masked = table && !b.bidirectional;
    matrix_->fillByOffset(
        [&b, &valueOf, &p, masked](std::int64_t k) {
            return masked && k > 0 ? std::numeric_limits<double>::quiet_NaN() : valueOf(pe::t5Bucket(k, b), p.head - 1);
        },
        low, high);
    placeHorizontal(rowLine_, static_cast<double>(t));

    // The curve: one step a run of equal buckets, exact (t5Runs bisects each run's end). Against the
    // offset, one curve over -reach..reach; against the distance n = |s − t| >= 1 on a log axis, the
    // keys before the query (s − t = −n) and after it (+n) apart.
    const std::int64_t r = reach();
    const bool log = logDistance();
    // A left step from each run's first value x (offset or distance), the last held to `end`.
    const auto steps = [&valueOf](const std::vector<std::pair<std::int64_t, int>> &starts, std::int64_t end, int head,
                                  QVector<double> &xs, QVector<double> &ys) {
        for (const auto &[x, bucket] : starts) {
            xs << static_cast<double>(x) - 0.5;
            ys << valueOf(bucket, head);
        }
        xs << static_cast<double>(end) + 0.5;
        ys << valueOf(starts.back().second, head);
    };
    // The runs of the blue curve (every offset, or the keys before t on the distance axis), which
    // the other heads' curves share, and of the orange one (the keys after t).
    std::vector<std::pair<std::int64_t, int>> first, after;
    std::int64_t firstEnd = r;
    QVector<double> xs[2], ys[2];
    if (log && r >= 1) { // one position has the offset 0 alone: no distance for the log axis
        const std::vector<pe::T5Run> before = pe::t5Runs(b, -r, -1); // distance n = -offset, reversed
        for (auto run = before.rbegin(); run != before.rend(); ++run)
            first.emplace_back(-run->last, run->bucket);
        if (b.bidirectional)
            for (const pe::T5Run &run : pe::t5Runs(b, 1, r))
                after.emplace_back(run.first, run.bucket);
    } else if (!log) {
        firstEnd = masked ? 0 : r;
        for (const pe::T5Run &run : pe::t5Runs(b, -r, firstEnd))
            first.emplace_back(run.first, run.bucket);
    }
    if (!first.empty())
        steps(first, firstEnd, p.head - 1, xs[0], ys[0]);
    if (!after.empty())
        steps(after, r, p.head - 1, xs[1], ys[1]);
    for (int g = 0; g < 2; ++g) {
        QCPGraph *steps = plt->graph(g);
        steps->setData(xs[g], ys[g], true);
        steps->setPen(curvePen(g == 0 ? kCurve : kAfter, 2, xs[g].size()));
        steps->setVisible(!xs[g].isEmpty());
    }
    QCPAxis *x = curveRect_->axis(QCPAxis::atBottom);
    QCPAxis *y = curveRect_->axis(QCPAxis::atRight);
    // The other heads of the table, thin and grey under the chosen one, over the same offsets (the
    // blue curve's: against the distance, the keys before t). Every head, whatever their number.
    const int heads = table ? table->cols() : 0;
    while (static_cast<int>(otherHeads_.size()) < std::max(heads - 1, 0)) {
        QCPGraph *g = addGraph(x, y);
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setLayer(QStringLiteral("background"));
        otherHeads_.push_back(g);
    }
    double lowAll = low, highAll = high;
    std::size_t used = 0;
    for (int h = 0; h < heads; ++h) {
        if (h == p.head - 1)
            continue;
        QVector<double> hx, hy;
        if (!first.empty())
            steps(first, firstEnd, h, hx, hy);
        for (double v : hy) {
            lowAll = std::min(lowAll, v);
            highAll = std::max(highAll, v);
        }
        QCPGraph *g = otherHeads_[used++];
        g->setData(hx, hy, true);
        g->setPen(QPen(QColor(150, 150, 150, 160), 0.8 * lineScale()));
        g->setVisible(true);
    }
    for (; used < otherHeads_.size(); ++used)
        otherHeads_[used]->setVisible(false);
    y->setTicker(table ? biasTicker_ : bucketTicker_);
    y->setLabel(table ? tr("bias b_h(s − t)") : tr("bucket"));
    x->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    x->setTicker(log ? logTicker_ : offsetTicker_);
    if (log) {
        x->setLabel(table             ? tr("distance |s − t|")
                    : b.bidirectional ? tr("distance |s − t|: blue keys before t, orange after")
                                      : tr("distance t − s to the keys before t"));
        exactBand_->topLeft->setCoords(0.5, b.buckets);
        exactBand_->bottomRight->setCoords(b.maxExact() - 0.5, -1);
        x->setRange(0.5, std::max(static_cast<double>(r), 1.0) + 0.5);
    } else {
        x->setLabel(tr("offset s − t (key − query)"));
        exactBand_->topLeft->setCoords(-(b.maxExact() - 0.5), b.buckets);
        exactBand_->bottomRight->setCoords(b.bidirectional ? b.maxExact() - 0.5 : 0.5, -1);
        x->setRange(-static_cast<double>(r) - 0.5, static_cast<double>(r) + 0.5);
    }
    placeVertical(maxBefore_, log ? static_cast<double>(b.maxDistance) : -static_cast<double>(b.maxDistance));
    placeVertical(maxAfter_, static_cast<double>(b.maxDistance));
    maxAfter_->setVisible(b.bidirectional && !log);
    if (table) {
        const double pad = 0.05 * (highAll - lowAll);
        y->setRange(lowAll - pad, highAll + pad);
        exactBand_->topLeft->setCoords(exactBand_->topLeft->coords().x(), highAll + 2 * pad + 1);
        exactBand_->bottomRight->setCoords(exactBand_->bottomRight->coords().x(), lowAll - 2 * pad - 1);
    } else {
        y->setRange(-0.5, b.buckets - 0.5);
    }

    const std::int64_t last = pe::t5LastBucketStart(b);
    QStringList title{table
                          ? tr("T5: the learned bias b_h[bucket(s − t)] of head %1 of %2 (%3), %4 buckets, %5")
                                .arg(p.head)
                                .arg(heads)
                                .arg(QFileInfo(QString::fromStdString(table->path())).fileName())
                                .arg(b.buckets)
                                .arg(b.bidirectional ? tr("bidirectional (the encoder)") : tr("causal (the decoder)"))
                          : tr("T5: %1 buckets, %2; the bias b_h[bucket(s − t)] is learned, one per bucket and head")
                                .arg(b.buckets)
                                .arg(b.bidirectional ? tr("bidirectional (the encoder)") : tr("causal (the decoder)"))};
    title << (b.bidirectional ? tr("shaded: one offset a bucket (|s − t| < %1); dashed: max_distance %2; the last "
                                   "bucket from %3")
                              : tr("shaded: one distance a bucket (t − s < %1, keys before t; after t: bucket 0); "
                                   "dashed: max_distance %2; the last bucket from %3"))
                 .arg(b.maxExact())
                 .arg(QString::fromStdString(pe::withThousands(b.maxDistance)))
                 .arg(QString::fromStdString(pe::withThousands(last)));
    if (r < p.seqLen - 1)
        title << tr("curve: distances to %1 of %2; every distance from %3 on is in the last bucket")
                     .arg(QString::fromStdString(pe::withThousands(r)),
                          QString::fromStdString(pe::withThousands(p.seqLen - 1)),
                          QString::fromStdString(pe::withThousands(last)));
    if (const QString cellsText = matrix_->windowText(); !cellsText.isEmpty())
        title << cellsText;
    if (table)
        title << (heads == 1 ? tr("the curve: the bias of its one head")
                  : log && b.bidirectional
                      ? tr("head %1: blue the keys before t, orange after; the other %2 heads grey (keys before t)")
                            .arg(p.head)
                            .arg(heads - 1)
                      : tr("head %1 blue, the other %2 heads grey").arg(p.head).arg(heads - 1)) +
                     (masked ? tr("; the keys after t masked (grey)") : QString());
    setTitle(title_, title);
    plt->replot(QCustomPlot::rpQueuedReplot);
}

QString BucketsView::tooltipAt(QPointF pixel) const
{
    if (!curveRect_->rect().contains(pixel.toPoint()))
        return PlotView::tooltipAt(pixel);
    const std::int64_t k = std::llround(curveRect_->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x()));
    if (std::abs(k) > reach() || (logDistance() && k < 1))
        return {};
    const pe::T5Buckets b = buckets();
    // The run of offsets that share offset k's bucket (a bucket's offsets are one interval, so on
    // k's side of 0 but for 0's own).
    const std::vector<pe::T5Run> runs = pe::t5Runs(b, -reach(), reach());
    const auto run = [this, &runs](std::int64_t k) {
        const auto at = std::find_if(runs.begin(), runs.end(), [k](const pe::T5Run &r) { return r.last >= k; });
        const pe::EncodingParams &p = parameters()->values();
        return tr("offset s − t = %1: bucket %2 (offsets %3 to %4 share it)")
                   .arg(k)
                   .arg(at->bucket)
                   .arg(at->first)
                   .arg(at->last) +
               (p.biasTable
                    ? tr(", bias b_%1 = %2").arg(p.head).arg(p.biasTable->value(at->bucket, p.head - 1), 0, 'g', 6)
                    : QString());
    };
    // On the distance axis both curves are at this distance: the keys before t and after it.
    if (logDistance())
        return run(-k) + (b.bidirectional ? QStringLiteral("\n") + run(k) : QString());
    return run(k);
}
