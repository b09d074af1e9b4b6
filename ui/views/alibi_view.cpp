#include "views/alibi_view.h"

#include "encodings/rope.h"
#include "export/data_export.h"
#include "figures/integer_ticker.h"
#include "figures/position_matrix.h"
#include "figures/power_ticker.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/view_state.h"

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
    cellsSpin_->setToolTip(
        tr("Positions the bias matrix shows, a page that holds the current one, a cell each: 'fit' as many "
           "as there are pixels"));
    toolRow()->addWidget(new QLabel(tr("Cells:"), this));
    toolRow()->addWidget(cellsSpin_);
    toolRow()->addStretch(1);

    QCustomPlot *p = plot();
    title_ = addTitle();
    matrix_ = std::make_unique<PositionMatrix>(p, content(), tr("bias −m·|t − s|"));
    slopeRect_ = new QCPAxisRect(p);
    content()->addElement(0, 2, slopeRect_);
    content()->setColumnStretchFactors({2.0, 0.01, 1.0});
    // The slopes' axis on the right: on the left it would meet the colour bar's label.
    QCPAxis *hx = slopeRect_->axis(QCPAxis::atBottom);
    QCPAxis *hy = slopeRect_->axis(QCPAxis::atRight);
    slopeRect_->axis(QCPAxis::atLeft)->setVisible(false);
    hy->setVisible(true);
    hy->setTickLabels(true);
    hx->setTicker(QSharedPointer<IntegerTicker>::create());
    hx->setLabel(tr("head h"));
    PowerTicker::install(hy);
    hy->setLabel(tr("slope mₕ"));
    QCPGraph *paper = addGraph(hx, hy);
    paper->setName(tr("paper's text: 2^(−8h/H)"));
    paper->setLineStyle(QCPGraph::lsNone);
    QCPGraph *slopes = addGraph(hx, hy);
    slopes->setName(tr("get_slopes (the code)"));
    rowLine_ = addMarkerLine(kMark);
    rowLine_->setLayer(QStringLiteral("overlay"));
    usePositionLayer();
    headLine_ = addMarkerLine(kMark, slopeRect_);
}

AlibiView::~AlibiView() = default;

void AlibiView::rebuild()
{
    const pe::EncodingParams &p = parameters()->values();
    QCustomPlot *plt = plot();
    const std::vector<double> slopes = pe::alibiSlopes(p.heads);
    const double m = slopes[static_cast<std::size_t>(p.head - 1)];
    const std::int64_t t = parameters()->position();
    matrix_->place(t, p.startPos, p.seqLen, state().integer(QStringLiteral("alibiCells")), kMaxCells);
    const std::int64_t cells = matrix_->count();
    matrix_->fillByOffset([m](std::int64_t k) { return -m * static_cast<double>(std::abs(k)); },
                          -m * static_cast<double>(std::max<std::int64_t>(cells - 1, 1)), 0);
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
    // Heads are separate: points, no line (get_slopes' second run is not a continuation).
    plt->graph(1)->setLineStyle(QCPGraph::lsNone);
    plt->graph(1)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, kSlope, dot));
    placeVertical(headLine_, p.head);
    slopeRect_->axis(QCPAxis::atBottom)->setRange(0, p.heads + 1);
    double lowest = *std::min_element(code.begin(), code.end());
    if (!powerOfTwo)
        lowest = std::min(lowest, *std::min_element(paper.begin(), paper.end()));
    slopeRect_->axis(QCPAxis::atRight)->setRange(lowest / 1.8, 1.8);

    QStringList title{
        tr("ALiBi: head %1 of %2 adds −m·|t − s| to its scores, m = %3").arg(p.head).arg(p.heads).arg(m, 0, 'g', 6)};
    title << (powerOfTwo ? tr("slopes from get_slopes: 2^(−8h/H) for H = %1, a power of two").arg(p.heads)
                         : tr("H = %1 is not a power of two: get_slopes takes the slopes of %2 heads, then every "
                              "other of %3 (filled); the paper's text 2^(−8h/H) (hollow) differs")
                               .arg(p.heads)
                               .arg(std::bit_floor(static_cast<unsigned>(p.heads)))
                               .arg(2 * std::bit_floor(static_cast<unsigned>(p.heads))));
    if (const QString cellsText = matrix_->windowText(); !cellsText.isEmpty())
        title << cellsText;
    setTitle(title_, title);
    plt->replot(QCustomPlot::rpQueuedReplot);
}
