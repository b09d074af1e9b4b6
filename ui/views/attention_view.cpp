#include "views/attention_view.h"

#include "encodings/position_table.h"

#include "analysis/offset_waves.h"

#include "figures/integer_ticker.h"
#include "figures/position_matrix.h"
#include "state/parameters.h"
#include "state/view_info/view_infos.h"
#include "state/view_registry.h"
#include "state/view_state.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QFontMetrics>

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include <cmath>
#include <limits>
#include <optional>

namespace {

const QColor kRowColor(30, 90, 200);
const QColor kOtherColor(230, 120, 20);
const QColor kMarkColor(220, 30, 30);

// One kind of layer in a few words: "a global layer: linear ×8 (θ/s), L = 32,768", "a local layer: base
// 10000, no scaling, window 1,024", "a NoPE layer (Llama 4): no positions".
QString layerText(const pe::EncodingParams &p, pe::LayerKind layer)
{
    switch (layer) {
    case pe::LayerKind::Local:
        return QCoreApplication::translate("AttentionView", "a %1")
            .arg(QString::fromStdString(pe::localLayersText(p))
                     .replace(QStringLiteral("local layers:"),
                              QCoreApplication::translate("AttentionView", "local layer:")));
    case pe::LayerKind::Nope:
        return QCoreApplication::translate("AttentionView", "a NoPE layer (Llama 4): no positions");
    case pe::LayerKind::Global:
        break;
    }
    return QCoreApplication::translate("AttentionView", "a global layer: %1")
        .arg(QString::fromStdString(pe::scalingSummary(p)));
}

} // namespace

AttentionView::AttentionView(Parameters *parameters, QWidget *parent)
    : PlotView(parameters, parent)
    , qkChoice_(new QComboBox(this))
    , causalBox_(new QCheckBox(tr("causal"), this))
    , seedSpin_(new QSpinBox(this))
    , cellsSpin_(new QSpinBox(this))
    , compareBox_(new QCheckBox(tr("compare"), this))
    , layerChoice_(new QComboBox(this))
{
    setObjectName(QStringLiteral("attentionView"));
    qkChoice_->setObjectName(QStringLiteral("attentionQk"));
    qkChoice_->addItem(tr("q = k = ones"));
    qkChoice_->addItem(tr("random q, k"));
    qkChoice_->setToolTip(tr("RoPE's query and key: all ones (RoFormer's decay) or seeded Gaussian vectors"));
    causalBox_->setObjectName(QStringLiteral("attentionCausal"));
    causalBox_->setToolTip(tr("Position t attends to s ≤ t only, as a decoder does"));
    seedSpin_->setObjectName(QStringLiteral("attentionSeed"));
    seedSpin_->setToolTip(tr("Seed of the random q and k"));
    cellsSpin_->setObjectName(QStringLiteral("attentionCells"));
    cellsSpin_->setToolTip(
        tr("Positions the heatmap shows, a page that holds the current one, a cell each: 'fit' as many as "
           "there are pixels"));
    compareBox_->setObjectName(QStringLiteral("attentionCompare"));
    compareBox_->setToolTip(tr("Also draw the row of the other of sinusoidal and RoPE, same d and base"));
    toolRow()->addWidget(new QLabel(tr("RoPE q, k:"), this));
    toolRow()->addWidget(qkChoice_);
    toolRow()->addWidget(new QLabel(tr("seed:"), this));
    toolRow()->addWidget(seedSpin_);
    toolRow()->addWidget(causalBox_);
    toolRow()->addWidget(new QLabel(tr("Cells:"), this));
    toolRow()->addWidget(cellsSpin_);
    toolRow()->addWidget(compareBox_);
    layerChoice_->setObjectName(QStringLiteral("attentionLayer"));
    layerChoice_->addItem(tr("global layers"));
    layerChoice_->addItem(tr("local layers"));
    layerChoice_->addItem(tr("NoPE layers"));
    layerChoice_->setToolTip(tr("The kind of layer the heatmap shows: global, Gemma's local (--local-base, "
                                "--sliding-window) or Llama 4's NoPE (--nope-interval); the row below shows another "
                                "kind in orange"));
    toolRow()->addWidget(layerChoice_);
    toolRow()->addStretch(1);

    QCustomPlot *p = plot();
    title_ = addTitle();
    matrix_ = std::make_unique<PositionMatrix>(p, content(), tr("attention weight"));
    rowRect_ = new QCPAxisRect(p);
    content()->addElement(1, 0, rowRect_);
    content()->setRowStretchFactors({2.0, 1.0});
    rowRect_->axis(QCPAxis::atBottom)->setTicker(QSharedPointer<IntegerTicker>::create());
    rowRect_->axis(QCPAxis::atBottom)->setLabel(tr("key position s"));
    QCPGraph *row = addGraph(rowRect_->axis(QCPAxis::atBottom), rowRect_->axis(QCPAxis::atLeft));
    row->setName(tr("this scheme"));
    QCPGraph *other = addGraph(rowRect_->axis(QCPAxis::atBottom), rowRect_->axis(QCPAxis::atLeft));
    other->setName(tr("other"));
    leftMargins_ = new QCPMarginGroup(p);
    p->axisRect()->setMarginGroup(QCP::msLeft, leftMargins_);
    rowRect_->setMarginGroup(QCP::msLeft, leftMargins_);
    // Llama 4's NoPE temperature τ(t) over the window, a third panel while the model has NoPE layers.
    temperatureRect_ = new QCPAxisRect(p);
    temperatureRect_->setVisible(false);
    temperatureRect_->axis(QCPAxis::atBottom)->setTicker(QSharedPointer<IntegerTicker>::create());
    temperatureRect_->axis(QCPAxis::atBottom)->setLabel(tr("query position t"));
    temperatureRect_->axis(QCPAxis::atLeft)->setLabel(tr("NoPE τ(t)"));
    QCPGraph *temperature =
        addGraph(temperatureRect_->axis(QCPAxis::atBottom), temperatureRect_->axis(QCPAxis::atLeft));
    temperature->setName(tr("NoPE temperature"));
    temperature->setLineStyle(QCPGraph::lsStepLeft);
    rowLine_ = addMarkerLine(kMarkColor);
    columnLine_ = addMarkerLine(kMarkColor, rowRect_);
    temperatureLine_ = addMarkerLine(kMarkColor, temperatureRect_);
    // The keys row t cannot see, shaded grey under its curve: after t (causal), outside a local
    // layer's sliding window.
    for (QCPItemRect *&band : maskBands_) {
        band = new QCPItemRect(p);
        band->setClipAxisRect(rowRect_);
        for (QCPItemPosition *corner : {band->topLeft, band->bottomRight}) {
            corner->setAxes(rowRect_->axis(QCPAxis::atBottom), rowRect_->axis(QCPAxis::atLeft));
            corner->setAxisRect(rowRect_);
            corner->setTypeY(QCPItemPosition::ptAxisRectRatio);
        }
        band->topLeft->setCoords(0, 0);
        band->bottomRight->setCoords(0, 1);
        band->setPen(Qt::NoPen);
        band->setBrush(QColor(128, 128, 128, 70));
        band->setVisible(false);
    }
    p->legend->setVisible(false);
    // --compare's key in the row's plot, not only in the title (--title '' took it away).
    rowLegend_ = new QCPLegend;
    rowRect_->insetLayout()->addElement(rowLegend_, Qt::AlignTop | Qt::AlignRight);
    rowLegend_->setLayer(QStringLiteral("legend"));
    rowLegend_->addItem(new QCPPlottableLegendItem(rowLegend_, row));
    rowLegend_->addItem(new QCPPlottableLegendItem(rowLegend_, other));
    rowLegend_->setVisible(false);
}

AttentionView::~AttentionView() = default;

std::int64_t AttentionView::firstCell() const
{
    return matrix_->first();
}

std::int64_t AttentionView::cellCount() const
{
    return matrix_->count();
}

pe::AttentionSettings AttentionView::attentionSettings() const
{
    return attentionSettingsFrom(settings());
}

const pe::PositionalAttention &AttentionView::attention()
{
    // Built once per encoding and settings, with the compared scheme's: moving the position only
    // reads them.
    const pe::AttentionSettings s = attentionSettings();
    const bool compare = state().flag(QStringLiteral("attentionCompare"));
    const pe::Encoding &enc = parameters()->encoding();
    if (attention_ && attentionFor_.lock() == parameters()->sharedEncoding() && s == attentionSettings_ &&
        compare == compareAsked_)
        return *attention_;
    // Scores per offset are the same for another start_pos (θ kept: dynamic NTK's follows the
    // window's end): only the window moves.
    pe::EncodingParams key = enc.params();
    key.startPos = 0;
    const bool offsetOnly = pe::PositionalAttention::offsetOnly(enc.params());
    std::vector<double> theta = offsetOnly && enc.hasFrequencies() ? pe::pairFrequencies(enc) : std::vector<double>{};
    // The compared scheme's θ is not in the key: under dynamic NTK and LongRoPE (RoPE's, or RoPE
    // compared with the sinusoids) it follows the window's end, so that pair is rebuilt.
    const bool lengthDependent =
        key.rope.scaling == pe::RopeScaling::DynamicNtk || key.rope.scaling == pe::RopeScaling::LongRope;
    const bool sameOffsets = attention_ && offsetOnly && key == attentionKey_ && theta == attentionTheta_ &&
                             s == attentionSettings_ && compare == compareAsked_ && !(compared_ && lengthDependent);
    const std::int64_t first = enc.params().startPos;
    // Held by this view alone: the scores move with the window rather than being copied, and a
    // rebuild takes over the old buffers (6 MB at 100,000 positions, mapped and zeroed otherwise).
    if (sameOffsets) {
        *attention_ = std::move(*attention_).rebased(first);
        if (compared_)
            *compared_ = std::move(*compared_).rebased(first);
    } else {
        attention_ = std::make_unique<pe::PositionalAttention>(enc, s, attention_.get());
        compared_.reset();
        if (const auto layer = otherLayerKind(enc.params(), s.layer)) {
            // A model's kinds of layer: the row of another kind beside this one's.
            pe::AttentionSettings other = s;
            other.layer = *layer;
            compared_ = std::make_unique<pe::PositionalAttention>(enc, other);
        } else if (const auto other = comparedScheme(parameters()->values());
                   compare && other && pe::PositionalAttention::offsetOnly(*other))
            compared_ = std::make_unique<pe::PositionalAttention>(pe::Encoding(*other), s);
    }
    attentionFor_ = parameters()->sharedEncoding();
    ++attentionVersion_;
    attentionSettings_ = s;
    compareAsked_ = compare;
    attentionKey_ = key;
    attentionTheta_ = std::move(theta);
    return *attention_;
}

QString AttentionView::formula() const
{
    const pe::EncodingParams &p = parameters()->values();
    const pe::AttentionSettings s = attentionSettings();
    switch (p.scheme) {
    case pe::SchemeId::Sinusoidal:
    case pe::SchemeId::Table:
        return tr("softmax over s of PE(t)·PE(s)/√d");
    case pe::SchemeId::Rope: {
        if (s.layer == pe::LayerKind::Nope && pe::hasNopeLayers(p))
            return tr("softmax over s of q·k/√d in a NoPE layer (Llama 4): no position enters the score, so every key "
                      "seen weighs the same");
        QString text = s.qk == pe::QueryKey::Ones
                           ? tr("softmax over s of (R_t q)·(R_s k)/√d, q = k = ones")
                           : tr("softmax over s of (R_t q)·(R_s k)/√d, q, k Gaussian (seed %1)").arg(s.seed);
        if (p.xposScaleBase > 0)
            text += tr(", pair i's term × ζᵢ^((t−s)/γ), γ = %1 (xPos)")
                        .arg(QString::fromStdString(pe::compactNumber(p.xposScaleBase)));
        if (otherLayerKind(p, s.layer))
            text += QStringLiteral(", ") + layerText(p, s.layer);
        return text;
    }
    case pe::SchemeId::Alibi:
        return tr("softmax over s of −m·|t − s|, head %1 of %2, m = %3")
            .arg(p.head)
            .arg(p.heads)
            .arg(pe::alibiSlopes(p.heads)[static_cast<std::size_t>(p.head - 1)], 0, 'g', 6);
    case pe::SchemeId::T5: // the view's entry refuses T5 without its learned table
        return tr("softmax over s of b(bucket(s − t)), T5's learned bias, head %1 of %2 (%3), %4 buckets, %5")
            .arg(p.head)
            .arg(p.biasTable ? p.biasTable->cols() : 1)
            .arg(p.biasTable ? QFileInfo(QString::fromStdString(p.biasTable->path())).fileName() : QString())
            .arg(p.buckets)
            .arg(s.causal ? tr("the decoder's buckets") : tr("the encoder's buckets"));
    }
    return {};
}

void AttentionView::positionMoved()
{
    // The matrix's left margin held (it may grow, not shrink) until the next whole rebuild, whose
    // applyFonts sets the minimum margins afresh.
    QCPAxisRect *matrixRect = plot()->axisRect();
    QMargins least = matrixRect->minimumMargins();
    least.setLeft(std::max(least.left(), matrixRect->margins().left()));
    matrixRect->setMinimumMargins(least);
    rebuild();
}

void AttentionView::rebuild()
{
    const pe::EncodingParams &p = parameters()->values();
    QCustomPlot *plt = plot();
    // The NoPE temperature's panel in or out, and the row beside the matrix or under it, before the
    // heatmap's cells are counted from its height. Beside when the figure is over twice as wide
    // as tall (the temperature's third panel stays stacked).
    const QRect area = layoutArea();
    const bool nope = pe::hasNopeLayers(p);
    const bool moved = placeRowBeside(!nope && area.width() >= 2 * area.height());
    if (showTemperaturePanel(nope) || moved)
        layOut();
    // The controls that mean something for this scheme (the command line refuses the others).
    const bool rope = p.scheme == pe::SchemeId::Rope;
    qkChoice_->setEnabled(rope);
    seedSpin_->setEnabled(rope && state().choice(QStringLiteral("attentionQk")) == QLatin1String("random"));
    const bool layers = pe::hasLocalLayers(p) || pe::hasNopeLayers(p);
    compareBox_->setEnabled(!layers && (rope || p.scheme == pe::SchemeId::Sinusoidal));
    compareBox_->setToolTip(layers ? tr("With two kinds of layer the row below compares them")
                                   : tr("Also draw the row of the other of sinusoidal and RoPE, same d and base"));
    layerChoice_->setEnabled(layers);
    std::string why = t5AttentionProblem(p).toStdString();
    if (why.empty())
        why = pe::xposNeedsCausal(p, attentionSettings().causal);
    if (why.empty())
        why = pe::PositionalAttention::tooLarge(p);
    if (!why.empty()) {
        matrix_->clear();
        matrixFor_ = {};
        plt->graph(0)->data()->clear();
        plt->graph(1)->data()->clear();
        attention_.reset();
        compared_.reset();
        setTitle(title_, {tr("Attention from positions alone: %1").arg(formula()), QString::fromStdString(why)});
        plt->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const pe::PositionalAttention &a = attention();
    const std::int64_t t = parameters()->position();
    const std::int64_t n = p.seqLen;
    // The row at a real position between whole ones (playback), where both rows have scores of the
    // real offset (the registry's attentionRealRowsProblem); the matrix keeps its whole cells.
    const double realT = shownPosition();
    const bool real = realT != static_cast<double>(t) && a.realRows() && (!compared_ || compared_->realRows());
    const double rowT = real ? realT : static_cast<double>(t);

    // The heatmap: a cell a position, a page that holds t when they do not all fit.
    matrix_->place(t, p.startPos, n, state().integer(QStringLiteral("attentionCells")), kMaxCells);
    const std::int64_t first = matrix_->first(), cells = matrix_->count();
    const bool causal = attentionSettings().causal;
    // The cells again only when the attention or the page changed: a step within the page keeps
    // them (and the map's colours and its scaled image, VectorColorMap), a fifth of a 4K step.
    const std::array<std::int64_t, 3> matrixFor{static_cast<std::int64_t>(attentionVersion_), first, cells};
    if (matrixFor != matrixFor_) {
        // Kept between steps: a fresh 8 MB vector costs every step its page faults.
        std::vector<double> &weights = weights_;
        weights.resize(static_cast<std::size_t>(cells * cells));
        // The colour scale reaches the largest weight shown, but for the window's first row under
        // the mask: it sees itself alone (weight 1) and would leave every other cell dark.
        double top = 0;
        for (std::int64_t r = 0; r < cells; ++r) {
            double *row = weights.data() + r * cells;
            a.row(first + r, first, cells, row);
            for (std::int64_t c = 0; c < cells; ++c)
                if (a.masked(first + r, first + c))
                    row[c] = std::numeric_limits<double>::quiet_NaN(); // masked: grey, not a zero weight
                else if (!causal || first + r > p.startPos)
                    top = std::max(top, row[c]);
        }
        matrix_->fill(weights, 0, top > 0 ? top : 1);
        matrixFor_ = matrixFor;
    }
    placeHorizontal(rowLine_, rowT);

    // Row t, every key of the window, reduced to its envelope per pixel column.
    const auto rowOf = [n, first = p.startPos, t, real, rowT](const pe::PositionalAttention &att) {
        if (real)
            return att.rowAt(rowT);
        std::vector<double> row(static_cast<std::size_t>(n));
        att.row(t, first, n, row.data());
        return row;
    };
    const std::vector<double> row = rowOf(a);
    const int buckets = std::max(2, rowRect_->width());
    const pe::CurveEnvelope curve = pe::curveEnvelope(row, buckets);
    setEnvelope(plt->graph(0), curve, static_cast<double>(p.startPos));
    plt->graph(0)->setPen(curvePen(kRowColor, 1.8, static_cast<std::int64_t>(curve.low.size())));
    const auto best = std::max_element(row.begin(), row.end()) - row.begin();
    plt->graph(1)->data()->clear();
    plt->graph(1)->setVisible(false);
    QString compared; // the key as a line of the title, where the legend has no room
    if (compared_) {
        const pe::CurveEnvelope otherCurve = pe::curveEnvelope(rowOf(*compared_), buckets);
        setEnvelope(plt->graph(1), otherCurve, static_cast<double>(p.startPos));
        plt->graph(1)->setPen(curvePen(kOtherColor, 1.8, static_cast<std::int64_t>(otherCurve.low.size())));
        plt->graph(1)->setVisible(true);
        if (const auto layer = otherLayerKind(p, attentionSettings().layer)) {
            plt->graph(0)->setName(layerText(p, attentionSettings().layer));
            plt->graph(1)->setName(layerText(p, *layer));
            compared = tr("orange: %1").arg(layerText(p, *layer));
        } else {
            const bool sinusoidal = p.scheme == pe::SchemeId::Sinusoidal;
            plt->graph(0)->setName(sinusoidal ? tr("sinusoidal") : tr("RoPE"));
            plt->graph(1)->setName(sinusoidal ? tr("RoPE, same d and base") : tr("sinusoidal, same d and base"));
            compared = tr("orange: %1").arg(plt->graph(1)->name());
        }
    }
    // The key inside the row's plot while there are two rows (its type and ground as every
    // legend's, PlotView::applyFonts and applyPalette), not in the title.
    // A key that would cover much of a small row's plot (3.5 x 2.5 in) goes back into the title.
    const QSize key = rowLegend_->minimumOuterSizeHint();
    const bool keyFits = key.width() <= rowRect_->width() / 2 && key.height() <= rowRect_->height() / 2;
    rowLegend_->setVisible(compared_ != nullptr && keyFits);
    placeVertical(columnLine_, rowT);
    const QString temperature = placeTemperature();
    // Grey where row t's keys are masked: before its window, after t.
    const std::int64_t end = p.startPos + n;
    const auto [seenFirst, seenEnd] = a.seenKeysAt(rowT);
    const std::int64_t seenLast = seenEnd - 1;
    maskBands_[0]->setVisible(seenFirst > p.startPos);
    maskBands_[0]->topLeft->setCoords(static_cast<double>(p.startPos) - 0.5, 0);
    maskBands_[0]->bottomRight->setCoords(static_cast<double>(seenFirst) - 0.5, 1);
    maskBands_[1]->setVisible(seenLast < end - 1);
    maskBands_[1]->topLeft->setCoords(static_cast<double>(seenLast) + 0.5, 0);
    maskBands_[1]->bottomRight->setCoords(static_cast<double>(end) - 0.5, 1);
    QCPAxis *x = rowRect_->axis(QCPAxis::atBottom);
    QCPAxis *y = rowRect_->axis(QCPAxis::atLeft);
    x->setRange(static_cast<double>(p.startPos) - 0.5, static_cast<double>(p.startPos + n) - 0.5);
    // On two lines where one is longer than the row's plot is high (lecture mode, the row under
    // the matrix): QCustomPlot would run it past the figure's edge.
    const QString label = tr("weight in row t = %1").arg(positionText(rowT));
    y->setLabel(QFontMetrics(y->labelFont()).horizontalAdvance(label) <= rowRect_->height()
                    ? label
                    : tr("weight in row\nt = %1").arg(positionText(rowT)));
    bool found = false;
    const QCPRange values = plt->graph(0)->data()->valueRange(found);
    bool foundOther = false;
    const QCPRange otherValues = plt->graph(1)->visible() ? plt->graph(1)->data()->valueRange(foundOther) : values;
    y->setRange(0, std::max({found ? values.upper : 1.0, foundOther ? otherValues.upper : 0.0, 1e-12}) * 1.08);

    // The sliding window's line right after the formula (whose first line names the layer).
    QStringList title{tr("Attention from positions alone: %1").arg(formula())};
    if (layers && attentionSettings().layer == pe::LayerKind::Local && p.slidingWindow > 0)
        title << (causal ? tr("sliding window: t sees t − %1 < s ≤ t, grey keys masked")
                         : tr("sliding window: t sees |t − s| < %1, grey keys masked (--causal: the last %1)"))
                     .arg(QString::fromStdString(pe::withThousands(p.slidingWindow)));
    title << (causal ? tr("causal: grey keys s > t masked; colours up to the largest weight after row %1 "
                          "(which sees itself alone)")
                           .arg(p.startPos)
                     : tr("rows softmaxed over the window"));
    if (const QString cellsText = matrix_->windowText(); !cellsText.isEmpty())
        title << cellsText;
    title << tr("row t = %1: largest weight %2 at s = %3")
                 .arg(positionText(rowT))
                 .arg(row[static_cast<std::size_t>(best)], 0, 'g', 4)
                 .arg(p.startPos + best);
    if (curve.stride > 1)
        title << tr("row: lowest to highest of each %1 keys per pixel column").arg(curve.stride);
    if (!compared.isEmpty() && !rowLegend_->visible())
        title << compared;
    if (!temperature.isEmpty())
        title << temperature;
    setTitle(title_, title);
    plt->replot(QCustomPlot::rpQueuedReplot);
}

QList<QCPAxis *> AttentionView::positionAxes() const
{
    return {rowRect_->axis(QCPAxis::atBottom)};
}

bool AttentionView::placeRowBeside(bool beside)
{
    if (beside == content()->hasElement(0, 2))
        return false;
    content()->take(rowRect_);
    content()->simplify(); // the emptied row or column goes
    if (beside) {
        content()->addElement(0, 2, rowRect_);
        content()->setRowStretchFactors({1.0});
        content()->setColumnStretchFactors({1.0, 1.0, 1.2});
        rowRect_->setMarginGroup(QCP::msLeft, nullptr);
        // Level with the matrix and its colour bar.
        rowRect_->setMarginGroup(QCP::msTop | QCP::msBottom, plot()->axisRect()->marginGroup(QCP::msTop));
    } else {
        content()->addElement(1, 0, rowRect_);
        content()->setRowStretchFactors({2.0, 1.0});
        content()->setColumnStretchFactors({1.0, 1.0});
        rowRect_->setMarginGroup(QCP::msTop | QCP::msBottom, nullptr);
        rowRect_->setMarginGroup(QCP::msLeft, leftMargins_);
    }
    return true;
}

bool AttentionView::showTemperaturePanel(bool shown)
{
    // In the layout only while shown: an empty row would take its share of the height.
    const bool changed = shown != content()->hasElement(2, 0);
    if (shown && changed) {
        content()->addElement(2, 0, temperatureRect_);
        content()->setRowStretchFactors({2.0, 1.0, 0.6});
    } else if (changed) {
        content()->take(temperatureRect_);
        content()->simplify();
        content()->setRowStretchFactors({2.0, 1.0});
    }
    temperatureRect_->setVisible(shown);
    // In the left margins' group only while shown: a hidden panel's labels would widen the others'.
    temperatureRect_->setMarginGroup(QCP::msLeft, shown ? leftMargins_ : nullptr);
    return changed;
}

QString AttentionView::placeTemperature()
{
    const pe::EncodingParams &p = parameters()->values();
    QCustomPlot *plt = plot();
    QCPGraph *graph = plt->graph(2);
    const bool shown = pe::hasNopeLayers(p);
    if (!shown) {
        graph->data()->clear();
        return {};
    }
    // τ at every position of the window, reduced per pixel column (a step at each floor_scale).
    std::vector<double> tau(static_cast<std::size_t>(p.seqLen));
    for (std::int64_t r = 0; r < p.seqLen; ++r)
        tau[static_cast<std::size_t>(r)] = pe::llama4Temperature(p.startPos + r, p);
    const pe::CurveEnvelope curve = pe::curveEnvelope(tau, std::max(2, temperatureRect_->width()));
    setEnvelope(graph, curve, static_cast<double>(p.startPos));
    graph->setPen(curvePen(kRowColor, 1.8, static_cast<std::int64_t>(curve.low.size())));
    const std::int64_t t = parameters()->position();
    placeVertical(temperatureLine_, static_cast<double>(t));
    QCPAxis *x = temperatureRect_->axis(QCPAxis::atBottom);
    x->setRange(static_cast<double>(p.startPos) - 0.5, static_cast<double>(p.startPos + p.seqLen) - 0.5);
    const double top = std::max(tau.front(), tau.back());
    temperatureRect_->axis(QCPAxis::atLeft)->setRange(std::min(tau.front(), 1.0) - 0.02, top + 0.02 + 0.05 * (top - 1));
    return tr("NoPE layers every %1 (Llama 4): their query × τ(t) = ln(⌊(t + 1)/%2⌋ + 1)·%3 + 1 = %4 at t = %5 (below)")
        .arg(p.nopeInterval)
        .arg(QString::fromStdString(pe::compactNumber(p.floorScale)))
        .arg(QString::fromStdString(pe::compactNumber(p.attnScale)))
        .arg(pe::llama4Temperature(t, p), 0, 'g', 6)
        .arg(t);
}
