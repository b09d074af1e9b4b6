#include "views/distance_view.h"

#include "encodings/scheme.h"
#include "figures/color_maps.h"
#include "figures/integer_ticker.h"
#include "figures/vector_color_map.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/view_state.h"
#include "views/similarity_view.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>

#include <cmath>

DistanceView::DistanceView(Parameters *parameters, QWidget *parent)
    : PlotView(parameters, parent)
    , metricChoice_(new QComboBox(this))
{
    setObjectName(QStringLiteral("distanceView"));
    metricChoice_->setObjectName(QStringLiteral("metric"));
    metricChoice_->addItem(tr("dot product (Gram matrix)"));
    metricChoice_->addItem(tr("cosine"));
    metricChoice_->addItem(tr("Euclidean distance"));
    metricChoice_->setToolTip(tr("The entry (t, s) compares x_t with PE(s)"));
    toolRow()->addWidget(new QLabel(tr("Metric:"), this));
    toolRow()->addWidget(metricChoice_);
    toolRow()->addStretch(1);
    QCustomPlot *p = plot();
    title_ = addTitle();
    map_ = new VectorColorMap(p->xAxis, p->yAxis);
    map_->setInterpolate(false);
    scale_ = new QCPColorScale(p);
    content()->addElement(0, 1, scale_);
    map_->setColorScale(scale_);
    map_->setGradient(colormaps::gradient(QStringLiteral("viridis"))); // after the scale: it takes the map's
    for (QCPAxis *axis : {p->xAxis, p->yAxis}) {
        axis->setTicker(QSharedPointer<IntegerTicker>::create());
        axis->grid()->setVisible(false);
    }
    p->yAxis->setRangeReversed(true);
    p->xAxis->setLabel(tr("position s (PE)"));
    p->yAxis->setLabel(tr("position t (x)"));
    row_ = addMarkerLine(QColor(230, 30, 30));
    col_ = addMarkerLine(QColor(230, 30, 30));
    // The reference's row and column are all that a position step moves: on the layer redrawn alone.
    usePositionLayer();
    for (QCPItemStraightLine *l : {row_, col_})
        l->setLayer(QStringLiteral("overlay"));
}

void DistanceView::setMetric(pe::Metric metric)
{
    applySettings({{QStringLiteral("metric"), QString::fromUtf8(pe::metricName(metric).data())}});
}

void DistanceView::rebuild()
{
    const pe::Encoding &enc = parameters()->encoding();
    const pe::EncodingParams &p = enc.params();
    const pe::NoiseParams &noise = parameters()->noise();
    const auto metric =
        pe::parseMetric(state().choice(QStringLiteral("metric")).toStdString()).value_or(pe::Metric::Dot);
    const QRect area = plot()->axisRect()->rect();
    const bool toeplitz = pe::OffsetKernel::applies(p, noise);
    std::int64_t cells = std::max<std::int64_t>(1, std::llround(std::min(area.width(), area.height()) * pixelScale()));
    if (!toeplitz)
        cells = std::min<std::int64_t>(cells, kMaxExactCells);
    // Positions thinned with jitter, so the matrix never shows a stride's beat with a period.
    // Few offsets: the Toeplitz shortcut needs one curve of S per difference of two of them.
    const pe::Block rows = pe::sampledPositions(p.startPos, p.seqLen, cells, 4);
    step_ = rows.positionStep;
    positions_.clear();
    for (std::int64_t r = 0; r < rows.rows; ++r)
        positions_.push_back(rows.position(r));
    const auto n = static_cast<int>(positions_.size());
    values_.resize(static_cast<std::size_t>(n) * n);
    pe::distanceMatrix(enc, noise, metric, rows, values_.data());
    // Cells at their spans' starts: a jittered position lies inside its cell.
    const double first = static_cast<double>(rows.firstPosition);
    const double last = static_cast<double>(rows.firstPosition + (n - 1) * step_);
    colormaps::fillColorMap(map_, n, n, first, last, first, last, false, values_.data());
    map_->rescaleDataRange(true);
    const QCPRange window(static_cast<double>(p.startPos) - 0.5, static_cast<double>(p.startPos + p.seqLen) - 0.5);
    plot()->xAxis->setRange(window);
    plot()->yAxis->setRange(window);
    scale_->axis()->setLabel(
        metricChoice_->itemText(metricChoice_->findData(state().choice(QStringLiteral("metric")))));
    QStringList title{
        tr("%1 of x_t against PE(s)")
            .arg(metricChoice_->itemText(metricChoice_->findData(state().choice(QStringLiteral("metric"))))),
        toeplitz         ? tr("pure encoding: Toeplitz, each entry a function of t − s")
        : noise.active() ? tr("x = PE + %1·z (%2): the diagonals blur")
                               .arg(noise.sigma)
                               .arg(QString::fromStdString(pe::seedText(noise)))
                         : notToeplitz(p)};
    if (step_ > 1)
        title << QStringLiteral("(%1)").arg(QString::fromStdString(pe::samplingText(rows)));
    setTitle(title_, title);
    positionMoved();
}

QString DistanceView::notToeplitz(const pe::EncodingParams &p)
{
    // Why the pure matrix is not the offset kernel's, for the scheme shown (a table's title once
    // blamed the per-index exponent or an odd d).
    if (p.scheme == pe::SchemeId::Table)
        return tr("a position table: each entry from its own two rows, no kernel of t − s");
    if (pe::perIndexExponent(p))
        return tr("per-index exponent: not a function of t − s alone");
    if (p.scheme == pe::SchemeId::Sinusoidal && p.dModel % 2 != 0)
        return tr("odd d (the last sine has no cosine): not a function of t − s alone");
    return tr("each sampled entry computed exactly");
}

void DistanceView::positionMoved()
{
    const double ref = static_cast<double>(parameters()->position());
    placeHorizontal(row_, ref);
    placeVertical(col_, ref);
    for (QCPItemStraightLine *l : {row_, col_})
        l->setPen(QPen(QColor(230, 30, 30), 1.2 * lineScale(), Qt::DashLine));
    replotPositionLayer();
}

QString DistanceView::tooltipAt(QPointF pixel) const
{
    if (positions_.empty() || !plot()->axisRect()->rect().contains(pixel.toPoint()))
        return {};
    auto index = [this](double coord) {
        return pe::nearestSample(coord, parameters()->values().startPos, step_, positions_.size());
    };
    const std::size_t c = index(plot()->xAxis->pixelToCoord(pixel.x()));
    const std::size_t r = index(plot()->yAxis->pixelToCoord(pixel.y()));
    return tr("t = %1, s = %2 (t − s = %3)\n%4 = %5")
        .arg(positions_[r])
        .arg(positions_[c])
        .arg(positions_[r] - positions_[c])
        .arg(metricChoice_->itemText(metricChoice_->findData(state().choice(QStringLiteral("metric")))))
        .arg(values_[r * positions_.size() + c], 0, 'g', 10);
}

QList<QCPAxis *> DistanceView::positionAxes() const
{
    return {plot()->xAxis, plot()->yAxis};
}
