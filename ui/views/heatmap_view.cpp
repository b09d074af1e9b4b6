#include "views/heatmap_view.h"
#include "state/color_map_table.h"

#include "encodings/scheme.h"
#include "figures/cell_labels.h"
#include "figures/color_maps.h"
#include "figures/integer_ticker.h"
#include "figures/vector_color_map.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/view_state.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include <cmath>

HeatmapView::HeatmapView(Parameters *parameters, QWidget *parent)
    : PlotView(parameters, parent)
    , mapChoice_(new QComboBox(this))
    , reverseBox_(new QCheckBox(tr("Reversed"), this))
    , transposeBox_(new QCheckBox(tr("Transpose"), this))
    , valuesBox_(new QCheckBox(tr("Values in cells"), this))
    , decimalsSpin_(new QSpinBox(this))
{
    setObjectName(QStringLiteral("heatmapView"));
    mapChoice_->setObjectName(QStringLiteral("colorMap"));
    mapChoice_->addItems(colorMapNames());
    mapChoice_->setToolTip(tr("Colour map for values from -1 to 1"));
    reverseBox_->setObjectName(QStringLiteral("reverseColors"));
    reverseBox_->setToolTip(tr("Swap the ends of the colour map (article 0 uses red for -1: coolwarm reversed)"));
    transposeBox_->setObjectName(QStringLiteral("transpose"));
    transposeBox_->setToolTip(tr("Positions across and dimensions up, as article 1 draws them"));
    valuesBox_->setObjectName(QStringLiteral("cellValues"));
    valuesBox_->setToolTip(tr("Print each value in its cell when the cells are large enough"));
    decimalsSpin_->setObjectName(QStringLiteral("cellDecimals"));
    decimalsSpin_->setToolTip(
        tr("Decimals printed in the cells: 'auto' prints 4 where they fit, else 2 (article 2 prints 2)"));
    toolRow()->addWidget(new QLabel(tr("Colours:"), this));
    toolRow()->addWidget(mapChoice_);
    toolRow()->addWidget(reverseBox_);
    toolRow()->addWidget(transposeBox_);
    toolRow()->addWidget(valuesBox_);
    toolRow()->addWidget(decimalsSpin_);
    toolRow()->addStretch(1);

    QCustomPlot *p = plot();
    title_ = addTitle();

    map_ = new VectorColorMap(p->xAxis, p->yAxis);
    map_->setInterpolate(false);
    map_->setTightBoundary(false);
    map_->setDataRange(QCPRange(-1.0, 1.0));
    scale_ = new QCPColorScale(p);
    content()->addElement(0, 1, scale_);
    scale_->setType(QCPAxis::atRight);
    scale_->axis()->setLabel(tr("value"));
    scale_->setDataRange(QCPRange(-1.0, 1.0));
    map_->setColorScale(scale_);
    auto *group = new QCPMarginGroup(p);
    p->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    scale_->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    for (QCPAxis *axis : {p->xAxis, p->yAxis}) {
        axis->setTicker(QSharedPointer<IntegerTicker>::create());
        axis->grid()->setVisible(false);
    }
    labels_ = new CellLabels(map_);
    highlight_ = new QCPItemRect(p);
    highlight_->setBrush(Qt::NoBrush);
    highlight_->setObjectName(QStringLiteral("positionHighlight"));
    // A dark frame with a light one inside: visible on every colour map and in every theme.
    highlightInner_ = new QCPItemRect(p);
    highlightInner_->setBrush(Qt::NoBrush);
    // On the layer playback redraws alone (PlotView::replotPositionLayer).
    highlight_->setLayer(QStringLiteral("overlay"));
    usePositionLayer();
    highlightInner_->setLayer(QStringLiteral("overlay"));

    // Wheel zooms, dragging pans, a double click shows the whole window again.
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    p->axisRect()->setRangeZoomFactor(0.8);
    connect(p->xAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, &HeatmapView::followAxes);
    connect(p->yAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, &HeatmapView::followAxes);
    connect(p, &QCustomPlot::mouseDoubleClick, this, &HeatmapView::resetZoom);
}

void HeatmapView::settingsBound()
{
    settingsChanged({QStringLiteral("colorMap")}); // the colours and cell labels the defaults ask
}

void HeatmapView::settingsChanged(const QStringList &keys)
{
    // The colours, the cells' decimals and whether values show need no recomputation.
    static const QStringList drawnOnly{QStringLiteral("colorMap"), QStringLiteral("reverseColors"),
                                       QStringLiteral("cellDecimals"), QStringLiteral("cellValues")};
    labels_->setDecimals(state().integer(QStringLiteral("cellDecimals")));
    labels_->setVisible(state().flag(QStringLiteral("cellValues")));
    applyGradient();
    if (std::any_of(keys.begin(), keys.end(), [](const QString &k) { return !drawnOnly.contains(k); }))
        refresh();
}

void HeatmapView::setColorMap(const QString &name, bool reversed)
{
    applySettings({{QStringLiteral("colorMap"), name}, {QStringLiteral("reverseColors"), reversed}});
}

void HeatmapView::setTransposed(bool transposed)
{
    applySettings({{QStringLiteral("transpose"), transposed}});
}
void HeatmapView::setCellValuesShown(bool shown)
{
    applySettings({{QStringLiteral("cellValues"), shown}});
}
int HeatmapView::cellLabelDecimals() const
{
    return labels_->visible() ? labels_->decimalsInUse() : 0;
}

void HeatmapView::applyGradient()
{
    const QCPColorGradient g =
        colormaps::gradient(state().choice(QStringLiteral("colorMap")), state().flag(QStringLiteral("reverseColors")));
    map_->setGradient(g);
    labels_->setGradient(g);
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapView::rebuild()
{
    const pe::Encoding &enc = parameters()->encoding();
    const pe::EncodingParams &p = enc.params();
    const bool transposed = state().flag(QStringLiteral("transpose"));
    QCustomPlot *plt = plot();
    QCPAxis *posAxis = transposed ? plt->xAxis : plt->yAxis;
    QCPAxis *dimAxis = transposed ? plt->yAxis : plt->xAxis;
    // Sinusoids lie in [-1, 1]; a table's colours are symmetric about 0 up to its largest |value|.
    const double range = pe::valueBound(enc.params());
    if (map_->dataRange().upper != range) {
        map_->setDataRange(QCPRange(-range, range));
        scale_->setDataRange(QCPRange(-range, range));
    }
    scale_->axis()->setLabel(enc.table() ? tr("value (±%1 = max |value|)").arg(range, 0, 'g', 3) : tr("value"));

    const QRect area = plt->axisRect()->rect();
    // A vector figure draws every cell down to kSmallestVectorCell points, whatever its dpi (a
    // 3.5 in PDF of 200 positions showed 1 in 2 at 100 dpi and all at 600); a raster, a cell a pixel.
    double s = pixelScale();
    if (vectorOutput()) {
        s = 1.0 / kSmallestVectorCell;
        const double most = static_cast<double>(area.width()) * area.height() * s * s;
        if (most > kMostVectorCells) // a poster's page: memory bounded, and the title says what is sampled
            s *= std::sqrt(kMostVectorCells / most);
    }
    const auto posPixels = std::max<std::int64_t>(1, std::llround((transposed ? area.width() : area.height()) * s));
    const auto dimPixels = std::max<std::int64_t>(1, std::llround((transposed ? area.height() : area.width()) * s));

    clampView();
    // The cells whose centres lie in the visible ranges, at most one per device pixel.
    const std::int64_t firstT = std::max(p.startPos, static_cast<std::int64_t>(std::ceil(posView_.lower)));
    const std::int64_t lastT =
        std::min(p.startPos + p.seqLen - 1, static_cast<std::int64_t>(std::floor(posView_.upper)));
    const std::int64_t countT = std::max<std::int64_t>(1, lastT - firstT + 1);
    const int firstJ = std::max(0, static_cast<int>(std::ceil(dimView_.lower)));
    const int lastJ = std::min(p.dModel - 1, static_cast<int>(std::floor(dimView_.upper)));
    const int countJ = std::max(1, lastJ - firstJ + 1);
    const pe::Block b = pe::sampledBlock(p.layout, firstT, countT, posPixels, firstJ, countJ, dimPixels);
    block_ = b;
    values_.resize(static_cast<std::size_t>(b.size()));
    enc.fill(b, values_.data());
    const int cols = b.cols;
    colormaps::fillColorMap(map_, static_cast<int>(b.rows), cols, static_cast<double>(b.firstPosition),
                            static_cast<double>(b.firstPosition + (b.rows - 1) * b.positionStep), b.firstColumn,
                            b.column(b.cols - 1), transposed, values_.data());
    labels_->setCells(&values_, b, transposed);

    settingRange_ = true;
    posAxis->setRange(posView_.lower - 0.5, posView_.upper + 0.5);
    dimAxis->setRange(dimView_.lower - 0.5, dimView_.upper + 0.5);
    settingRange_ = false;
    posAxis->setRangeReversed(!transposed);
    dimAxis->setRangeReversed(false);
    posAxis->setLabel(tr("position t"));
    dimAxis->setLabel(tr("dimension j"));
    // As many ticks as the labels have room for: every row of article 3's 10 x 6 table is labelled
    // (PlotView::spaceTicks keeps them from touching).
    const QFontMetrics metrics(posAxis->tickLabelFont());
    const double posLength = transposed ? area.width() : area.height();
    const double dimLength = transposed ? area.height() : area.width();
    const double posLabel =
        transposed ? metrics.horizontalAdvance(QString::number(lastT)) + 12 : metrics.height() * 1.3;
    const double dimLabel =
        transposed ? metrics.height() * 1.3 : metrics.horizontalAdvance(QString::number(lastJ)) + 12;
    posAxis->ticker()->setTickCount(std::max(2, static_cast<int>(posLength / posLabel)));
    dimAxis->ticker()->setTickCount(std::max(2, static_cast<int>(dimLength / dimLabel)));

    positionMoved();
    QStringList title{tr("Positional encoding: %1 × %2, %3")
                          .arg(countText(p.seqLen, tr("position"), tr("positions")),
                               countText(p.dModel, tr("dimension"), tr("dimensions")),
                               QString::fromStdString(pe::sourceText(p)))};
    if (zoomed())
        title << tr("zoomed to positions %1–%2, dimensions %3–%4").arg(firstT).arg(lastT).arg(firstJ).arg(lastJ);
    if (b.sampled())
        title << QStringLiteral("(%1)").arg(QString::fromStdString(pe::samplingText(b, !p.table)));
    setTitle(title_, title);
    plt->replot(QCustomPlot::rpQueuedReplot);
}

bool HeatmapView::zoomed() const
{
    const pe::EncodingParams &p = parameters()->values();
    return posView_.lower > static_cast<double>(p.startPos) ||
           posView_.upper < static_cast<double>(p.startPos + p.seqLen - 1) || dimView_.lower > 0 ||
           dimView_.upper < p.dModel - 1;
}

void HeatmapView::clampView()
{
    // Unzoomed, the view is the whole window, whatever the window becomes. Zoomed, it stays inside
    // the window and at least one cell wide; a view that fell outside a new window starts over.
    const pe::EncodingParams &p = parameters()->values();
    const double first = static_cast<double>(p.startPos);
    const double last = static_cast<double>(p.startPos + p.seqLen - 1);
    auto clamp = [](QCPRange &r, double lo, double hi, bool &reset) {
        if (reset || r.upper < lo || r.lower > hi || r.upper <= r.lower) {
            r = QCPRange(lo, hi);
            return;
        }
        const double span = std::min(hi - lo, std::max(r.upper - r.lower, 1.0));
        double a = std::clamp(r.lower, lo, hi);
        if (a + span > hi)
            a = hi - span;
        r = QCPRange(std::max(a, lo), std::max(a, lo) + span);
        if (hi - lo < 1.0)
            r = QCPRange(lo, hi);
    };
    bool reset = !userZoomed_;
    clamp(posView_, first, last, reset);
    clamp(dimView_, 0, p.dModel - 1, reset);
}

void HeatmapView::zoomTo(double firstPosition, double lastPosition, double firstDimension, double lastDimension)
{
    posView_ = QCPRange(firstPosition, lastPosition);
    dimView_ = QCPRange(firstDimension, lastDimension);
    userZoomed_ = true;
    refresh();
}

void HeatmapView::resetZoom()
{
    userZoomed_ = false;
    refresh();
}

void HeatmapView::zoomBy(double factor)
{
    auto scaled = [factor](const QCPRange &r) {
        const double c = r.center(), half = (r.upper - r.lower) / 2 * factor;
        return QCPRange(c - half, c + half);
    };
    posView_ = scaled(posView_);
    dimView_ = scaled(dimView_);
    userZoomed_ = true;
    refresh();
}

void HeatmapView::panBy(double positionsFraction, double dimensionsFraction)
{
    const double dp = (posView_.upper - posView_.lower) * positionsFraction;
    const double dd = (dimView_.upper - dimView_.lower) * dimensionsFraction;
    posView_ = QCPRange(posView_.lower + dp, posView_.upper + dp);
    dimView_ = QCPRange(dimView_.lower + dd, dimView_.upper + dd);
    userZoomed_ = true;
    refresh();
}

void HeatmapView::followAxes()
{
    // The mouse moved the axes (wheel zoom, drag pan): the view follows, clamped, and the cells
    // for the new range are computed. Bursts of events are merged into one rebuild.
    if (settingRange_)
        return;
    const bool transposed = state().flag(QStringLiteral("transpose"));
    const QCPRange pos = (transposed ? plot()->xAxis : plot()->yAxis)->range();
    const QCPRange dim = (transposed ? plot()->yAxis : plot()->xAxis)->range();
    posView_ = QCPRange(pos.lower + 0.5, pos.upper - 0.5);
    dimView_ = QCPRange(dim.lower + 0.5, dim.upper - 0.5);
    userZoomed_ = true;
    if (!rebuildQueued_) {
        rebuildQueued_ = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                rebuildQueued_ = false;
                refresh();
            },
            Qt::QueuedConnection);
    }
}

void HeatmapView::keyPressEvent(QKeyEvent *event)
{
    const bool shift = event->modifiers() & Qt::ShiftModifier;
    const bool transposed = state().flag(QStringLiteral("transpose"));
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(0.5);
        return;
    case Qt::Key_Minus:
        zoomBy(2.0);
        return;
    case Qt::Key_0:
        resetZoom();
        return;
    case Qt::Key_Left:
    case Qt::Key_Right:
    case Qt::Key_Up:
    case Qt::Key_Down:
        if (shift) {
            // Shift+arrows pan a quarter of the view; plain arrows step the position (main window).
            const bool horizontal = event->key() == Qt::Key_Left || event->key() == Qt::Key_Right;
            const double sign = event->key() == Qt::Key_Left || event->key() == Qt::Key_Up ? -0.25 : 0.25;
            const bool alongPositions = horizontal == transposed;
            panBy(alongPositions ? sign : 0, alongPositions ? 0 : sign);
            return;
        }
        break;
    default:
        break;
    }
    PlotView::keyPressEvent(event);
}

void HeatmapView::positionMoved()
{
    // The current position's row (column when transposed), framed so it can be followed.
    const pe::EncodingParams &p = parameters()->values();
    const double t = shownPosition(); // between rows too: playback glides
    const bool transposed = state().flag(QStringLiteral("transpose"));
    highlight_->setPen(QPen(Qt::black, 3.0 * lineScale()));
    highlightInner_->setPen(QPen(Qt::white, 1.2 * lineScale()));
    for (QCPItemRect *frame : {highlight_, highlightInner_}) {
        if (transposed) {
            frame->topLeft->setCoords(t - 0.5, p.dModel - 0.5);
            frame->bottomRight->setCoords(t + 0.5, -0.5);
        } else {
            frame->topLeft->setCoords(-0.5, t - 0.5);
            frame->bottomRight->setCoords(p.dModel - 0.5, t + 0.5);
        }
    }
    replotPositionLayer();
}

QString HeatmapView::tooltipAt(QPointF pixel) const
{
    const pe::Encoding &enc = parameters()->encoding();
    const pe::EncodingParams &p = enc.params();
    if (!plot()->axisRect()->rect().contains(pixel.toPoint()))
        return {};
    const bool transposed = state().flag(QStringLiteral("transpose"));
    const double x = plot()->xAxis->pixelToCoord(pixel.x());
    const double y = plot()->yAxis->pixelToCoord(pixel.y());
    const auto t = static_cast<std::int64_t>(std::llround(transposed ? x : y));
    const auto j = static_cast<int>(std::llround(transposed ? y : x));
    if (t < p.startPos || t >= p.startPos + p.seqLen || j < 0 || j >= p.dModel)
        return {};
    if (enc.table())
        return tr("position t = %1\ndimension j = %2 (pair %3)\nvalue = %4")
            .arg(t)
            .arg(j)
            .arg(j / 2)
            .arg(enc.value(t, j), 0, 'g', 8);
    const double w = enc.columnFrequency(j);
    const QString unit = !pe::perIndexExponent(p) ? tr("pair %1").arg(enc.columnChannel(j)) : tr("own frequency");
    return tr("position t = %1\ndimension j = %2 (%3, %4)\nangle t·w = %5 rad\nvalue = %6")
        .arg(t)
        .arg(j)
        .arg(enc.columnIsSine(j) ? QStringLiteral("sin") : QStringLiteral("cos"), unit)
        .arg(static_cast<double>(t) * w, 0, 'g', 8)
        .arg(enc.value(t, j), 0, 'f', 6);
}

QList<QCPAxis *> HeatmapView::positionAxes() const
{
    return {state().flag(QStringLiteral("transpose")) ? plot()->xAxis : plot()->yAxis};
}
