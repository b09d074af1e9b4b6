#include "views/relative_view.h"
#include "state/color_map_table.h"

#include "encodings/noise.h"
#include "encodings/scheme.h"
#include "figures/cell_labels.h"
#include "figures/color_maps.h"
#include "figures/integer_ticker.h"
#include "figures/vector_color_map.h"
#include "state/parameters.h"
#include "state/view_info/view_infos.h"
#include "state/view_registry.h"
#include "state/view_state.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include <cmath>

RelativeView::RelativeView(Parameters *parameters, QWidget *parent)
    : PlotView(parameters, parent)
    , offsetSpin_(new QSpinBox(this))
{
    setObjectName(QStringLiteral("relativeView"));
    offsetSpin_->setObjectName(QStringLiteral("offset"));
    offsetSpin_->setKeyboardTracking(false);
    offsetSpin_->setToolTip(tr("The offset k: T(k) maps PE(t) to PE(t+k)"));
    toolRow()->addWidget(new QLabel(tr("Offset k:"), this));
    toolRow()->addWidget(offsetSpin_);
    toolRow()->addStretch(1);

    QCustomPlot *p = plot();
    title_ = addTitle();
    matrix_ = new VectorColorMap(p->xAxis, p->yAxis);
    matrix_->setInterpolate(false);
    matrix_->setGradient(colormaps::gradient(colorMapNames().first()));
    matrix_->setDataRange(QCPRange(-1, 1));
    labels_ = new CellLabels(matrix_);
    for (QCPAxis *axis : {p->xAxis, p->yAxis}) {
        axis->setTicker(QSharedPointer<IntegerTicker>::create());
        axis->grid()->setVisible(false);
    }
    p->yAxis->setRangeReversed(true);
    p->xAxis->setLabel(tr("column of T(k)"));
    p->yAxis->setLabel(tr("row of T(k)"));
    decodeRect_ = new QCPAxisRect(p);
    content()->addElement(0, 1, decodeRect_);
    decodeRect_->axis(QCPAxis::atBottom)->setLabel(tr("pair i"));
    decodeRect_->axis(QCPAxis::atLeft)->setLabel(tr("offset read from pair i"));
    decodeRect_->axis(QCPAxis::atBottom)->setTicker(QSharedPointer<IntegerTicker>::create());
    QCPGraph *readings = addGraph(decodeRect_->axis(QCPAxis::atBottom), decodeRect_->axis(QCPAxis::atLeft));
    readings->setLineStyle(QCPGraph::lsNone);
    truth_ = addMarkerLine(QColor(220, 30, 30), decodeRect_);
}

void RelativeView::setOffset(std::int64_t k)
{
    applySettings({{QStringLiteral("offset"), static_cast<double>(k)}});
}
namespace {

} // namespace

std::int64_t RelativeView::offset() const
{
    return state().integer(QStringLiteral("offset"));
}

void RelativeView::rebuild()
{
    const pe::Encoding &enc = parameters()->encoding();
    const pe::EncodingParams &p = enc.params();
    const pe::NoiseParams &noise = parameters()->noise();
    const std::int64_t k = offset();
    const std::int64_t t = parameters()->position();

    // T(k) for the fastest pairs, in the layout's order of (sin, cos) rows.
    const int pairs = std::min(kShownPairs, enc.pairCount());
    const int n = 2 * pairs;
    cells_.assign(static_cast<std::size_t>(n * n), 0.0);
    // T(k) and its residual do not depend on the position: computed once per encoding and offset,
    // not at every step of the position slider or of playback.
    if (fittedFor_.lock() != parameters()->sharedEncoding() || fittedK_ != k) {
        blocks_ = pe::rotationBlocks(enc, k, residualPositions(p.dModel));
        residual_ = pe::rotationResidual(enc, k, blocks_, residualPositions(p.dModel));
        fittedFor_ = parameters()->sharedEncoding();
        fittedK_ = k;
    }
    for (int i = 0; i < pairs; ++i) {
        const pe::Rotation2 &m = blocks_[static_cast<std::size_t>(i)];
        const int a = 2 * i;
        cells_[static_cast<std::size_t>(a * n + a)] = m.a;
        cells_[static_cast<std::size_t>(a * n + a + 1)] = m.b;
        cells_[static_cast<std::size_t>((a + 1) * n + a)] = m.c;
        cells_[static_cast<std::size_t>((a + 1) * n + a + 1)] = m.d;
    }
    colormaps::fillColorMap(matrix_, n, n, 0, n - 1, 0, n - 1, false, cells_.data());
    pe::Block grid;
    grid.rows = n;
    grid.cols = n;
    labels_->setCells(&cells_, grid, false);
    plot()->xAxis->setRange(-0.5, n - 0.5);
    plot()->yAxis->setRange(-0.5, n - 0.5);

    // Decode from the two embeddings (noisy when noise is on, as article 2's are).
    // A table's rows end with the window.
    const bool table = !enc.hasFrequencies();
    const auto [first, end] = reachablePositions(p, noise);
    const bool reachable = t + k >= first && t + k < end;
    decoded_ = pe::decodeOffset(enc, noise, t, reachable ? t + k : t);

    const std::vector<int> shown = pe::sampledIndices(enc.pairCount(), std::max(2, decodeRect_->width()));
    QVector<double> x, y; // no readings when t + k is past the window: nothing was decoded
    for (int i : shown)
        if (reachable && enc.pairCosineColumn(i) >= 0) {
            x << i;
            y << decoded_.perPair[static_cast<std::size_t>(i)];
        }
    QCPGraph *readings = plot()->graph(0);
    readings->setData(x, y, true);
    readings->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(30, 90, 200), 5 * lineScale()));
    truth_->setVisible(!table);
    placeHorizontal(truth_, static_cast<double>(k));
    decodeRect_->axis(QCPAxis::atLeft)
        ->setLabel(table ? tr("angle pair i turns from x(t) to x(t+k) (radians)")
                         : tr("offset read from pair i, wrapped into ±λᵢ/2"));
    decodeRect_->axis(QCPAxis::atBottom)->setRange(-0.5, enc.pairCount() - 0.5);
    decodeRect_->axis(QCPAxis::atLeft)->rescale();
    if (!table)
        decodeRect_->axis(QCPAxis::atLeft)
            ->setRange(decodeRect_->axis(QCPAxis::atLeft)->range().expanded(static_cast<double>(k)));
    decodeRect_->axis(QCPAxis::atLeft)->scaleRange(1.15);

    const QString checked = p.seqLen > residualPositions(p.dModel)
                                ? tr("%1 sampled positions").arg(residualPositions(p.dModel))
                                : tr("every position");
    // "t + 7", "t − 7": never "t+-7".
    const QString shifted = k < 0 ? tr("t − %1").arg(-k) : tr("t + %1").arg(k);
    QStringList title;
    if (table) {
        title << (std::isnan(residual_) ? tr("no two rows %1 apart in the window: nothing to fit").arg(std::abs(k))
                                        : tr("best rotation per pair from PE(t) to PE(%1), fitted over the window: "
                                             "max |T PE(t) − PE(%1)| = %2 "
                                             "(largest |value| %3)")
                                              .arg(shifted)
                                              .arg(residual_, 0, 'g', 3)
                                              .arg(pe::valueBound(enc.params()), 0, 'g', 3));
        title << (reachable ? tr("a table has no frequencies: right, the angle each pair turns from x(%1) to x(%2)")
                                  .arg(t)
                                  .arg(t + k)
                            : tr("position %1 is outside the window: nothing to compare").arg(t + k));
    } else {
        title << tr("T(%1) maps PE(t) to PE(%4): max |T PE(t) − PE(%4)| = %2 over %3")
                     .arg(k)
                     .arg(residual_, 0, 'g', 3)
                     .arg(checked)
                     .arg(shifted);
        if (reachable) {
            title << tr("offset read from x(%1), x(%2) with atan2: %3 (error %4)")
                         .arg(t)
                         .arg(t + k)
                         .arg(decoded_.offset, 0, 'f', 6)
                         .arg(std::abs(decoded_.offset - static_cast<double>(k)), 0, 'g', 3);
            // A pair turns a whole period every λᵢ positions: one shorter than 2|k| reads k less
            // whole periods, into ±λᵢ/2, which is why the fast pairs' dots sit off the line.
            std::vector<int> wrapped;
            for (int i = 0; i < enc.pairCount(); ++i)
                if (enc.pairCosineColumn(i) >= 0 && enc.pairWavelength(i) < 2 * std::abs(static_cast<double>(k)))
                    wrapped.push_back(i);
            const bool leading = !wrapped.empty() && wrapped.back() == static_cast<int>(wrapped.size()) - 1;
            const QString which = wrapped.size() == 1 ? tr("pair %1").arg(wrapped.front())
                                  : leading           ? tr("pairs 0–%1").arg(wrapped.back())
                                                      : tr("%1 pairs").arg(wrapped.size());
            if (!wrapped.empty())
                title << tr("right: %1 (λᵢ under 2|k| = %3) read %2 wrapped by the wavelength, %2 − m·λᵢ in ±λᵢ/2")
                             .arg(which)
                             .arg(k)
                             .arg(2 * std::abs(k));
        } else
            title << tr("position %1 is outside 0 to 999,999,999: nothing to decode").arg(t + k);
    }
    setTitle(title_, title);
    plot()->replot(QCustomPlot::rpQueuedReplot);
}
