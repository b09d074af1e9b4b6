#include "alibi_view.h"

#include "color_maps.h"
#include "data_export.h"
#include "integer_ticker.h"
#include "parameters.h"
#include "rope.h"
#include "view_registry.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include <bit>
#include <cmath>

namespace {

const QColor kSlope(30, 90, 200);
const QColor kPaper(230, 120, 20);
const QColor kMark(220, 30, 30);

} // namespace

AlibiView::AlibiView(Parameters *parameters, QWidget *parent)
    : PlotView(parameters, parent)
    , cellsSpin_(new QSpinBox(this))
{
    setObjectName(QStringLiteral("alibiView"));
    cellsSpin_->setObjectName(QStringLiteral("alibiCells"));
    cellsSpin_->setToolTip(tr("Positions the bias matrix shows around the current one, a cell each: 'fit' as many "
                              "as there are pixels"));
    toolRow()->addWidget(new QLabel(tr("Cells:"), this));
    toolRow()->addWidget(cellsSpin_);
    toolRow()->addStretch(1);

    QCustomPlot *p = plot();
    title_ = addTitle();
    map_ = new QCPColorMap(p->xAxis, p->yAxis);
    map_->setInterpolate(false);
    map_->setGradient(colormaps::gradient(QStringLiteral("viridis")));
    scale_ = new QCPColorScale(p);
    content()->addElement(0, 1, scale_);
    map_->setColorScale(scale_);
    scale_->axis()->setLabel(tr("bias −m·|t − s|"));
    for (QCPAxis *axis : {p->xAxis, p->yAxis}) {
        axis->setTicker(QSharedPointer<IntegerTicker>::create());
        axis->grid()->setVisible(false);
    }
    p->xAxis->setLabel(tr("key position s"));
    p->yAxis->setLabel(tr("query position t"));
    p->yAxis->setRangeReversed(true);
    slopeRect_ = new QCPAxisRect(p);
    content()->addElement(0, 2, slopeRect_);
    content()->setColumnStretchFactors({2.0, 0.01, 1.0});
    QCPAxis *hx = slopeRect_->axis(QCPAxis::atBottom);
    QCPAxis *hy = slopeRect_->axis(QCPAxis::atLeft);
    hx->setTicker(QSharedPointer<IntegerTicker>::create());
    hx->setLabel(tr("head h"));
    hy->setScaleType(QCPAxis::stLogarithmic);
    hy->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    hy->setLabel(tr("slope m_h"));
    QCPGraph *paper = p->addGraph(hx, hy);
    paper->setName(tr("paper's text: 2^(−8h/H)"));
    paper->setLineStyle(QCPGraph::lsNone);
    QCPGraph *slopes = p->addGraph(hx, hy);
    slopes->setName(tr("get_slopes (the code)"));
    rowLine_ = addMarkerLine(kMark);
    headLine_ = addMarkerLine(kMark, slopeRect_);
    connect(cellsSpin_, &QSpinBox::valueChanged, this, &PlotView::refresh);
}

void AlibiView::rebuild()
{
    const pe::EncodingParams &p = parameters()->values();
    QCustomPlot *plt = plot();
    const std::vector<double> slopes = pe::alibiSlopes(p.heads);
    const double m = slopes[static_cast<std::size_t>(p.head - 1)];
    const std::int64_t t = parameters()->position();
    const int fit = std::max(8, std::min(plt->axisRect()->width(), plt->axisRect()->height()));
    cells_ = std::min<std::int64_t>(p.seqLen, cellsSpin_->value() > 0 ? cellsSpin_->value() : std::min(fit, kMaxCells));
    firstCell_ = std::clamp(t - cells_ / 2, p.startPos, p.startPos + p.seqLen - cells_);
    colormaps::fillColorMap(map_, static_cast<int>(cells_), static_cast<int>(cells_), static_cast<double>(firstCell_),
                            static_cast<double>(firstCell_ + cells_ - 1), static_cast<double>(firstCell_),
                            static_cast<double>(firstCell_ + cells_ - 1), false,
                            [m](int r, int c) { return -m * std::abs(r - c); });
    map_->setDataRange(QCPRange(-m * static_cast<double>(std::max<std::int64_t>(cells_ - 1, 1)), 0));
    plt->xAxis->setRange(static_cast<double>(firstCell_) - 0.5, static_cast<double>(firstCell_ + cells_) - 0.5);
    plt->yAxis->setRange(static_cast<double>(firstCell_) - 0.5, static_cast<double>(firstCell_ + cells_) - 0.5);
    placeHorizontal(rowLine_, static_cast<double>(t));

    const bool powerOfTwo = (p.heads & (p.heads - 1)) == 0;
    QVector<double> h, code, paper;
    for (int k = 1; k <= p.heads; ++k) {
        h << k;
        code << slopes[static_cast<std::size_t>(k - 1)];
        paper << std::exp2(-8.0 * k / p.heads);
    }
    const double dot = std::clamp(300.0 / p.heads, 3.0, 8.0) * lineScale();
    plt->graph(0)->setData(h, paper, true);
    plt->graph(0)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kPaper, dot + 3 * lineScale()));
    plt->graph(0)->setVisible(!powerOfTwo);
    plt->graph(1)->setData(h, code, true);
    plt->graph(1)->setPen(curvePen(kSlope, 1.2, p.heads));
    plt->graph(1)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, kSlope, dot));
    placeVertical(headLine_, p.head);
    slopeRect_->axis(QCPAxis::atBottom)->setRange(0.5, p.heads + 0.5);
    double lowest = *std::min_element(code.begin(), code.end());
    if (!powerOfTwo)
        lowest = std::min(lowest, *std::min_element(paper.begin(), paper.end()));
    slopeRect_->axis(QCPAxis::atLeft)->setRange(lowest / 1.5, 1.5);

    QStringList title{
        tr("ALiBi: head %1 of %2 adds −m·|t − s| to its scores, m = %3").arg(p.head).arg(p.heads).arg(m, 0, 'g', 6)};
    title << (powerOfTwo ? tr("slopes from get_slopes: 2^(−8h/H) for H = %1, a power of two").arg(p.heads)
                         : tr("H = %1 is not a power of two: get_slopes takes the slopes of %2 heads, then every "
                              "other of %3 (filled); the paper's text 2^(−8h/H) (hollow) differs")
                               .arg(p.heads)
                               .arg(std::bit_floor(static_cast<unsigned>(p.heads)))
                               .arg(2 * std::bit_floor(static_cast<unsigned>(p.heads))));
    if (cells_ < p.seqLen)
        title << tr("cells: positions %1–%2 of %3–%4 around t, one a position")
                     .arg(firstCell_)
                     .arg(firstCell_ + cells_ - 1)
                     .arg(p.startPos)
                     .arg(p.startPos + p.seqLen - 1);
    setTitle(title_, title);
    plt->replot(QCustomPlot::rpQueuedReplot);
}

ViewInfo AlibiView::describe()
{
    return {QStringLiteral("alibi"),
            tr("ALiBi"),
            {},
            {{QStringLiteral("alibiCells"), ViewSetting::Kind::Integer, 0, {}, 0, kMaxCells, tr("fit")}},
            {{QStringLiteral("slopes"),
              tr("ALiBi's slope of every head (1-based), as get_slopes computes it"),
              {},
              [](const DataRequest &r) { return pe::slopesTable(r.encoding->params().heads); }}},
            {},
            {pe::SchemeId::Alibi}};
}
