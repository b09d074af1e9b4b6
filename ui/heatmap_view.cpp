#include "heatmap_view.h"

#include "cell_labels.h"
#include "color_maps.h"
#include "integer_ticker.h"
#include "parameters.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>

#include <cmath>

HeatmapView::HeatmapView(Parameters *parameters, QWidget *parent)
    : PlotView(parameters, parent)
    , mapChoice_(new QComboBox(this))
    , reverseBox_(new QCheckBox(tr("Reversed"), this))
    , transposeBox_(new QCheckBox(tr("Transpose"), this))
    , valuesBox_(new QCheckBox(tr("Values in cells"), this))
{
    setObjectName(QStringLiteral("heatmapView"));
    mapChoice_->setObjectName(QStringLiteral("colorMap"));
    mapChoice_->addItems(colormaps::names());
    mapChoice_->setToolTip(tr("Colour map for values from -1 to 1"));
    reverseBox_->setObjectName(QStringLiteral("reverseColors"));
    reverseBox_->setToolTip(tr("Swap the ends of the colour map (seed 000 uses red for -1: coolwarm reversed)"));
    transposeBox_->setObjectName(QStringLiteral("transpose"));
    transposeBox_->setToolTip(tr("Positions across and dimensions up, as seed 001 draws them"));
    valuesBox_->setObjectName(QStringLiteral("cellValues"));
    valuesBox_->setToolTip(tr("Print each value in its cell when the cells are large enough"));
    valuesBox_->setChecked(true);
    toolRow()->addWidget(new QLabel(tr("Colours:"), this));
    toolRow()->addWidget(mapChoice_);
    toolRow()->addWidget(reverseBox_);
    toolRow()->addWidget(transposeBox_);
    toolRow()->addWidget(valuesBox_);
    toolRow()->addStretch(1);

    QCustomPlot *p = plot();
    title_ = addTitle();

    map_ = new QCPColorMap(p->xAxis, p->yAxis);
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
    applyGradient();

    connect(mapChoice_, &QComboBox::currentTextChanged, this, [this] { applyGradient(); });
    connect(reverseBox_, &QCheckBox::toggled, this, [this] { applyGradient(); });
    connect(transposeBox_, &QCheckBox::toggled, this, &PlotView::refresh);
    connect(valuesBox_, &QCheckBox::toggled, this, [this](bool on) {
        labels_->setVisible(on);
        plot()->replot(QCustomPlot::rpQueuedReplot);
    });
}

void HeatmapView::setColorMap(const QString &name, bool reversed)
{
    mapChoice_->setCurrentText(name);
    reverseBox_->setChecked(reversed);
    applyGradient();
}

void HeatmapView::setTransposed(bool transposed) { transposeBox_->setChecked(transposed); }
void HeatmapView::setCellValuesShown(bool shown) { valuesBox_->setChecked(shown); }
int HeatmapView::cellLabelDecimals() const { return labels_->visible() ? labels_->decimalsInUse() : 0; }

void HeatmapView::applyGradient()
{
    const QCPColorGradient g = colormaps::gradient(mapChoice_->currentText(), reverseBox_->isChecked());
    map_->setGradient(g);
    labels_->setGradient(g);
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapView::rebuild()
{
    const pe::Encoding &enc = parameters()->encoding();
    const pe::EncodingParams &p = enc.params();
    const bool transposed = transposeBox_->isChecked();
    QCustomPlot *plt = plot();
    QCPAxis *posAxis = transposed ? plt->xAxis : plt->yAxis;
    QCPAxis *dimAxis = transposed ? plt->yAxis : plt->xAxis;

    const QRect area = plt->axisRect()->rect();
    const double s = pixelScale();
    const auto posPixels = std::max<std::int64_t>(1, std::llround((transposed ? area.width() : area.height()) * s));
    const auto dimPixels = std::max<std::int64_t>(1, std::llround((transposed ? area.height() : area.width()) * s));

    pe::Block b;
    b.firstPosition = p.startPos;
    b.positionStep = (p.seqLen + posPixels - 1) / posPixels;
    b.rows = (p.seqLen + b.positionStep - 1) / b.positionStep;
    b.columnStep = static_cast<int>((p.dModel + dimPixels - 1) / dimPixels);
    b.cols = (p.dModel + b.columnStep - 1) / b.columnStep;
    block_ = b;
    values_.resize(static_cast<std::size_t>(b.size()));
    enc.fill(b, values_.data());

    // QCPColorMap draws nothing for a single cell along an axis, so one row or column is doubled
    // and spread over the same extent.
    const int rows = static_cast<int>(b.rows);
    const int cols = b.cols;
    const int dataRows = std::max(rows, 2);
    const int dataCols = std::max(cols, 2);
    const double firstPos = static_cast<double>(b.firstPosition);
    const double lastPos = static_cast<double>(b.firstPosition + (b.rows - 1) * b.positionStep);
    const QCPRange posRange = rows > 1 ? QCPRange(firstPos, lastPos) : QCPRange(firstPos - 0.25, firstPos + 0.25);
    const double lastDim = static_cast<double>((b.cols - 1) * b.columnStep);
    const QCPRange dimRange = cols > 1 ? QCPRange(0.0, lastDim) : QCPRange(-0.25, 0.25);

    QCPColorMapData *data = map_->data();
    if (transposed) {
        if (data->keySize() != dataRows || data->valueSize() != dataCols)
            data->setSize(dataRows, dataCols);
        data->setRange(posRange, dimRange);
        for (int r = 0; r < dataRows; ++r)
            for (int c = 0; c < dataCols; ++c)
                data->setCell(r, c, values_[std::min(r, rows - 1) * cols + std::min(c, cols - 1)]);
    } else {
        if (data->keySize() != dataCols || data->valueSize() != dataRows)
            data->setSize(dataCols, dataRows);
        data->setRange(dimRange, posRange);
        for (int r = 0; r < dataRows; ++r) {
            const double *row = values_.data() + std::min(r, rows - 1) * cols;
            for (int c = 0; c < dataCols; ++c)
                data->setCell(c, r, row[std::min(c, cols - 1)]);
        }
    }
    const bool sampled = b.positionStep > 1 || b.columnStep > 1;
    labels_->setCells(&values_, b, transposed);

    posAxis->setRange(firstPos - 0.5, static_cast<double>(p.startPos + p.seqLen) - 0.5);
    dimAxis->setRange(-0.5, p.dModel - 0.5);
    posAxis->setRangeReversed(!transposed);
    dimAxis->setRangeReversed(false);
    posAxis->setLabel(tr("position t"));
    dimAxis->setLabel(tr("dimension j"));

    positionMoved();
    QStringList title{tr("Positional encoding: %1 × %2, base %3")
                          .arg(countText(p.seqLen, tr("position"), tr("positions")),
                               countText(p.dModel, tr("dimension"), tr("dimensions")),
                               QString::fromStdString(pe::compactNumber(p.base)))};
    if (sampled)
        title << tr("(sampled: 1 in %1 positions, 1 in %2 dimensions)").arg(b.positionStep).arg(b.columnStep);
    setTitle(title_, title);
    plt->replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapView::positionMoved()
{
    // The current position's row (column when transposed), framed so it can be followed.
    const pe::EncodingParams &p = parameters()->values();
    const double t = static_cast<double>(parameters()->position());
    const bool transposed = transposeBox_->isChecked();
    highlight_->setPen(QPen(Qt::black, 2.0 * lineScale()));
    if (transposed) {
        highlight_->topLeft->setCoords(t - 0.5, p.dModel - 0.5);
        highlight_->bottomRight->setCoords(t + 0.5, -0.5);
    } else {
        highlight_->topLeft->setCoords(-0.5, t - 0.5);
        highlight_->bottomRight->setCoords(p.dModel - 0.5, t + 0.5);
    }
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

QString HeatmapView::tooltipAt(QPointF pixel) const
{
    const pe::Encoding &enc = parameters()->encoding();
    const pe::EncodingParams &p = enc.params();
    if (!plot()->axisRect()->rect().contains(pixel.toPoint()))
        return {};
    const bool transposed = transposeBox_->isChecked();
    const double x = plot()->xAxis->pixelToCoord(pixel.x());
    const double y = plot()->yAxis->pixelToCoord(pixel.y());
    const auto t = static_cast<std::int64_t>(std::llround(transposed ? x : y));
    const auto j = static_cast<int>(std::llround(transposed ? y : x));
    if (t < p.startPos || t >= p.startPos + p.seqLen || j < 0 || j >= p.dModel)
        return {};
    const double w = enc.columnFrequency(j);
    const QString unit = p.exponent == pe::Exponent::Pair ? tr("pair %1").arg(enc.columnChannel(j))
                                                          : tr("own frequency");
    return tr("position t = %1\ndimension j = %2 (%3, %4)\nangle t·w = %5 rad\nvalue = %6")
        .arg(t)
        .arg(j)
        .arg(enc.columnIsSine(j) ? QStringLiteral("sin") : QStringLiteral("cos"), unit)
        .arg(static_cast<double>(t) * w, 0, 'g', 8)
        .arg(enc.value(t, j), 0, 'f', 6);
}

