// The clocks view: a page of positions, a clock a chosen pair, the hands, labels, title and tooltips.
#include "views/clock_grid_view.h"

#include "views/clock_faces.h"

#include "encodings/scheme.h"
#include "figures/pair_choice_edit.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/view_state.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include <cmath>
#include <numbers>

namespace {
const QColor kHandColor(0xfc, 0x03, 0x03);  // article 2's hand red
const QColor kLocalHandColor(30, 110, 230); // Gemma's local layers' hand

QString wavelengthText(double lambda)
{
    return QString::fromStdString(pe::wavelengthText(lambda));
}

// colour laid over ground as a painter lays a translucent brush: an opaque colour.
QColor laidOn(const QColor &colour, const QColor &ground)
{
    const double a = colour.alphaF();
    return QColor::fromRgbF(static_cast<float>(a * colour.redF() + (1 - a) * ground.redF()),
                            static_cast<float>(a * colour.greenF() + (1 - a) * ground.greenF()),
                            static_cast<float>(a * colour.blueF() + (1 - a) * ground.blueF()));
}

} // namespace

ClockGridView::ClockGridView(Parameters *parameters, QWidget *parent)
    : PlotView(parameters, parent)
    , faceChoice_(new QComboBox(this))
    , pairsSpin_(new QSpinBox(this))
    , rowsSpin_(new QSpinBox(this))
    , pairChoice_(new PairChoiceEdit(QStringLiteral("clockPairChoice"), this))
{
    setObjectName(QStringLiteral("clockGridView"));
    faceChoice_->setObjectName(QStringLiteral("clockFace"));
    faceChoice_->addItem(tr("clock: from 12, clockwise (x = sin, y = cos)"));
    faceChoice_->addItem(tr("angle: from 3, counter-clockwise (x = cos, y = sin)"));
    faceChoice_->setToolTip(tr("How a hand shows the angle θ = t·ω_i: as a clock (article 0's circles) or as the "
                               "mathematician's angle (article 2's clock faces)"));
    pairsSpin_->setObjectName(QStringLiteral("clockPairs"));
    pairsSpin_->setToolTip(tr("How many pairs: 'fit' shows as many as fit, chosen by the field beside"));
    rowsSpin_->setObjectName(QStringLiteral("clockRows"));
    rowsSpin_->setToolTip(tr("Positions shown, a page holding the current position: 'fit' shows as many as fit"));
    toolRow()->addWidget(new QLabel(tr("Hands:"), this));
    toolRow()->addWidget(faceChoice_);
    toolRow()->addWidget(new QLabel(tr("Pairs:"), this));
    toolRow()->addWidget(pairsSpin_);
    toolRow()->addWidget(pairChoice_);
    toolRow()->addWidget(new QLabel(tr("Positions:"), this));
    toolRow()->addWidget(rowsSpin_);
    toolRow()->addStretch(1);

    QCustomPlot *p = plot();
    title_ = addTitle();
    p->axisRect()->setAutoMargins(QCP::msNone);
    // Pairs are labelled along the top, as article 2 does; the grid is centred in the room it has.
    p->xAxis->setVisible(false);
    p->xAxis2->setVisible(true);
    for (QCPAxis *axis : {p->xAxis2, p->yAxis}) {
        axis->grid()->setVisible(false);
        axis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
        axis->setSubTicks(false);
        axis->setTickLength(0, 0);
        axis->setBasePen(Qt::NoPen);
    }
    p->xAxis2->setLabel(tr("pair i and its wavelength λ_i"));
    p->yAxis->setLabel(tr("position t"));
    p->yAxis->setRangeReversed(true);
    faces_ = new ClockFaces(p->xAxis2, p->yAxis);
    hands_ = new QCPCurve(p->xAxis2, p->yAxis);
    localHands_ = new QCPCurve(p->xAxis2, p->yAxis);
    // The current row's hands, and its position when between whole ones, on the layer that is
    // redrawn alone while playback moves the fraction (PlotView::replotPositionLayer).
    currentHands_ = new QCPCurve(p->xAxis2, p->yAxis);
    currentLocalHands_ = new QCPCurve(p->xAxis2, p->yAxis);
    currentLabel_ = new QCPItemText(p);
    currentFaces_ = new ClockFaces(p->xAxis2, p->yAxis);
    highlight_ = new QCPItemRect(p);
    usePositionLayer();
    stackCurrentRow();
    currentLabel_->setPositionAlignment(Qt::AlignRight | Qt::AlignVCenter);
    currentLabel_->position->setType(QCPItemPosition::ptAbsolute);
    currentLabel_->setClipToAxisRect(false);
    currentLabel_->setVisible(false);
    highlight_->setBrush(QColor(255, 200, 0, 60));
    highlight_->setPen(QPen(QColor(230, 160, 0), 1.5));
    highlight_->topLeft->setAxes(p->xAxis2, p->yAxis);
    highlight_->bottomRight->setAxes(p->xAxis2, p->yAxis);
    connect(p, &QCustomPlot::afterLayout, this, &ClockGridView::fitSquareCells);
}

void ClockGridView::setFace(pe::ClockFace face)
{
    applySettings(
        {{QStringLiteral("clockFace"),
          face == pe::ClockFace::CounterClockwise ? QStringLiteral("counterclockwise") : QStringLiteral("clockwise")}});
}
pe::ClockFace ClockGridView::face() const
{
    return state().choice(QStringLiteral("clockFace")) == QLatin1String("counterclockwise")
               ? pe::ClockFace::CounterClockwise
               : pe::ClockFace::Clockwise;
}
void ClockGridView::setShownPairs(int pairs)
{
    applySettings({{QStringLiteral("clockPairs"), pairs}});
}
void ClockGridView::setShownPositions(int positions)
{
    applySettings({{QStringLiteral("clockRows"), positions}});
}
void ClockGridView::setPairChoice(const pe::PairChoice &choice)
{
    applySettings({{QStringLiteral("clockPairChoice"), QString::fromStdString(pe::pairChoiceText(choice))}});
}

QPointF ClockGridView::clockCentre(int row, int col) const
{
    return {static_cast<double>(col), static_cast<double>(row)};
}

double ClockGridView::rowPosition(int row) const
{
    // The current row shows the real position (playback between whole ones); the others their own.
    return firstRow_ + row == parameters()->position() ? shownPosition() : static_cast<double>(firstRow_ + row);
}

QPointF ClockGridView::handTip(int row, int col) const
{
    return handTipAt(row, col, rowPosition(row));
}

QPointF ClockGridView::handTipAt(int row, int col, double t) const
{
    const pe::Point tip = pe::handTip(parameters()->encoding(), t, pairs_[static_cast<std::size_t>(col)], face());
    // The plot's y axis points down (row 0 at the top), so "up" on the face is -y.
    return {col + kHandLength * tip.x, row - kHandLength * tip.y};
}

std::int64_t ClockGridView::pageStart() const
{
    const pe::EncodingParams &p = parameters()->values();
    const std::int64_t offset = (parameters()->position() - p.startPos) / rows_ * rows_;
    return std::min(p.startPos + offset, p.startPos + p.seqLen - rows_);
}

void ClockGridView::rebuild()
{
    const pe::EncodingParams &p = parameters()->values();
    if (!pe::hasLocalLayers(p))
        local_.reset();
    else if (!local_ || local_->params() != pe::localLayers(p))
        local_.emplace(pe::localLayers(p));
    layoutGrid();
    placeHands();
}

void ClockGridView::positionMoved()
{
    const std::int64_t first = pageStart();
    // RoPE's title counts the hands outside their trained arcs at the current position.
    if (first != firstRow_ || parameters()->values().scheme == pe::SchemeId::Rope) {
        layoutGrid(); // a new page: new row labels
        placeHands();
        return;
    }
    if (coverCurrent_ || parameters()->position() == drawnRow_) {
        // The rows below hold their own positions (or only the fraction moved, playback): the band,
        // the current row's faces, hands and label, alone on their layer.
        placeCurrentRow();
        replotPositionLayer();
        return;
    }
    placeHands(); // a translucent band: the row left out of hands_ is another one now
}

void ClockGridView::layoutGrid()
{
    const pe::Encoding &enc = parameters()->encoding();
    const pe::EncodingParams &p = enc.params();
    QCustomPlot *plt = plot();
    // Fixed margins keep the clock cells square: the plot area does not move with label widths.
    const QFontMetrics metrics(plt->xAxis->tickLabelFont());
    plt->axisRect()->setMargins(QMargins(metrics.horizontalAdvance(QStringLiteral("999999999")) + metrics.height() + 16,
                                         3 * metrics.height() + 16, 12, 8));
    layOut();
    const QRect area = plt->axisRect()->rect();
    const int minCell = static_cast<int>(34 * fontScale());
    const int fitCols = std::max(1, area.width() / minCell);
    const int fitRows = std::max(1, area.height() / minCell);
    const int maxCols = std::min(
        {enc.pairCount(),
         state().integer(QStringLiteral("clockPairs")) > 0 ? state().integer(QStringLiteral("clockPairs")) : fitCols,
         kMaxPairs});
    pairs_ = pe::choosePairs(PairChoiceEdit::choiceOf(state().text(QStringLiteral("clockPairChoice"))), enc.pairCount(),
                             maxCols);
    const bool noneListed = pairs_.empty();
    if (noneListed) // a list naming no pair of this d: spread instead, and the title says so
        pairs_ = pe::choosePairs(pe::PairChoice{}, enc.pairCount(), maxCols);
    cols_ = static_cast<int>(pairs_.size());
    rows_ = static_cast<int>(std::min<std::int64_t>(
        {p.seqLen,
         state().integer(QStringLiteral("clockRows")) > 0 ? state().integer(QStringLiteral("clockRows")) : fitRows,
         kMaxRows}));
    firstRow_ = pageStart();

    // Centre the grid: the spare width goes into the margins, so the row labels stay beside it.
    const double cell = std::min(static_cast<double>(area.width()) / cols_, static_cast<double>(area.height()) / rows_);
    const int spare = std::max(0, static_cast<int>(area.width() - cols_ * cell));
    QMargins margins = plt->axisRect()->margins();
    margins.setLeft(margins.left() + spare / 2);
    margins.setRight(margins.right() + spare - spare / 2);
    plt->axisRect()->setMargins(margins);
    layOut();
    fitSquareCells();

    faces_->setGrid(rows_, cols_, kRadius, face(), lineScale());
    currentFaces_->setGrid(rows_, cols_, kRadius, face(), lineScale());
    if (coverCurrent_ != !figureTransparent()) {
        coverCurrent_ = !figureTransparent(); // the band's colour: paletteApplied
        stackCurrentRow();
    }
    highlight_->setPen(QPen(projector() ? QColor(190, 80, 0) : QColor(230, 160, 0), 1.5 * lineScale()));
    std::vector<double> sweeps;
    if (p.scheme == pe::SchemeId::Rope)
        for (int pair : pairs_)
            sweeps.push_back(pe::trainedSweep(enc, pair));
    currentFaces_->setArcs(sweeps);
    faces_->setArcs(std::move(sweeps));

    // Labels: every column's pair index and wavelength, every row's position, thinned to fit.
    auto xTicker = qSharedPointerCast<QCPAxisTickerText>(plt->xAxis2->ticker());
    auto yTicker = qSharedPointerCast<QCPAxisTickerText>(plt->yAxis->ticker());
    xTicker->clear();
    yTicker->clear();
    // A table's pairs have no wavelength: the index alone.
    const auto lambda = [&enc](int pair) {
        return enc.hasFrequencies() ? QStringLiteral("λ %1").arg(wavelengthText(enc.pairWavelength(pair))) : QString();
    };
    plt->xAxis2->setLabel(enc.hasFrequencies() ? tr("pair i and its wavelength λ_i") : tr("pair i: columns 2i, 2i+1"));
    int widest = 0;
    for (int pair : pairs_)
        widest = std::max(widest, metrics.horizontalAdvance(lambda(pair) + QLatin1Char(' ')));
    const int colEvery = std::max(1, static_cast<int>(std::ceil(widest / cell)));
    // Every column names its pair when the numbers fit (the spread pairs are not evenly numbered);
    // the wavelengths, wider, go on every colEvery-th.
    const int indexEvery = std::max(
        1, static_cast<int>(std::ceil((metrics.horizontalAdvance(QString::number(pairs_.back())) + 6) / cell)));
    for (int c = 0; c < cols_; ++c) {
        const int pair = pairs_[static_cast<std::size_t>(c)];
        if (c % colEvery == 0)
            xTicker->addTick(c, QStringLiteral("%1\n%2").arg(pair).arg(lambda(pair)));
        else if (c % indexEvery == 0)
            xTicker->addTick(c, QStringLiteral("%1\n").arg(pair));
    }
    const int rowEvery = std::max(1, static_cast<int>(std::ceil(metrics.height() * 1.2 / cell)));
    for (int r = 0; r < rows_; r += rowEvery)
        yTicker->addTick(r, QString::number(firstRow_ + r));

    const QString faceText = face() == pe::ClockFace::Clockwise
                                 ? tr("hands start at 12 o'clock and turn clockwise")
                                 : tr("hands start at 3 o'clock and turn counter-clockwise");
    // With Gemma's local layers the key is in the first line, which lecture mode keeps.
    QStringList title{local_ ? tr("Clocks: red hand i at the global layers' angle t·θ′ᵢ, blue at the local layers'")
                      : p.scheme == pe::SchemeId::Rope ? tr("Clocks: RoPE's hand i at angle t·θ′ᵢ")
                      : enc.hasFrequencies()
                          ? tr("Clocks: hand i at angle t·ω_i")
                          : tr("Clocks: hand i points along (PE[t, 2i], PE[t, 2i+1]) of %1, its length not shown")
                                .arg(QString::fromStdString(pe::tableName(p))),
                      faceText,
                      tr("positions %1–%2 of %3–%4, %5 of %6 pairs")
                          .arg(firstRow_)
                          .arg(firstRow_ + rows_ - 1)
                          .arg(p.startPos)
                          .arg(p.startPos + p.seqLen - 1)
                          .arg(cols_)
                          .arg(enc.pairCount())};
    // What the local layers are, second.
    if (local_)
        title.insert(1, tr("red: the global layers' hand; blue, shorter: the %1")
                            .arg(QString::fromStdString(pe::localLayersText(p))));
    if (cols_ < enc.pairCount())
        title << PairChoiceEdit::titleText(PairChoiceEdit::choiceOf(state().text(QStringLiteral("clockPairChoice"))),
                                           noneListed, enc.hasFrequencies());
    // The last sine of an odd d (all of d = 1) has no cosine column: the vector keeps only the
    // sine of that pair's angle. The hand shows the angle t·ω_i the formula gives, as article 2's
    // fifth clock does; a table's lone column has no angle at all, so no hand. The sinusoids say
    // it on the counts' line, so the title keeps its lines as d's parity flips (a line more or
    // less moves the grid, and the grid is then laid out twice a slider step).
    for (int pair : pairs_)
        if (enc.pairCosineColumn(pair) < 0) {
            if (enc.hasFrequencies())
                title[local_ ? 3 : 2] += tr("; pair %1 sine only, no cosine column (odd d)").arg(pair);
            else
                title << tr("no hand on pair %1: column %2 has no partner column, and one value gives no angle")
                             .arg(pair)
                             .arg(enc.pairSineColumn(pair));
        }
    if (p.scheme == pe::SchemeId::Rope) {
        const double t = shownPosition();
        int outside = 0;
        double past = 0; // the farthest a hand is beyond its arc, in radians
        for (int pair : pairs_)
            if (pe::outsideTrainedArc(enc, t, pair)) {
                ++outside;
                past = std::max(past, pe::handAngle(enc, t, pair) - pe::trainedSweep(enc, pair));
            }
        title << tr("%1; green: each hand's arc over positions 0–%2 in training (θᵢ)")
                     .arg(QString::fromStdString(pe::scalingSummary(p)))
                     .arg(p.rope.originalContext - 1);
        // How far matters: under interpolation the last positions pass their arcs by a fraction of
        // a degree, without scaling the slow hands by tens.
        const double degrees = past * 180 / std::numbers::pi;
        title << (outside == 0
                      ? tr("at t = %1, all %2 hands inside their arcs").arg(positionText(t)).arg(cols_)
                      : tr("at t = %1, %2 of %3 hands outside their arcs, at most %4° past: angles "
                           "training never showed")
                            .arg(positionText(t))
                            .arg(outside)
                            .arg(cols_)
                            .arg(degrees < 10 ? QString::number(degrees, 'g', 2) : QString::number(degrees, 'f', 0)));
    }
    setTitle(title_, title);
}

void ClockGridView::fitSquareCells()
{
    // Runs after every layout (screen or export size), so the faces stay round.
    if (rows_ == 0 || cols_ == 0)
        return;
    const QRect area = plot()->axisRect()->rect();
    const double cell = std::min(static_cast<double>(area.width()) / cols_, static_cast<double>(area.height()) / rows_);
    const double spareX = (area.width() / cell - cols_) / 2;
    const double spareY = (area.height() / cell - rows_) / 2;
    plot()->xAxis2->setRange(-0.5 - spareX, cols_ - 0.5 + spareX);
    plot()->yAxis->setRange(-0.5 - spareY, rows_ - 0.5 + spareY);
    // The hands' width follows the cell, so their tips stay inside the rims at every size.
    hands_->setPen(QPen(kHandColor, handPenWidth(lineScale(), cell), Qt::SolidLine, Qt::RoundCap));
    localHands_->setPen(QPen(kLocalHandColor, handPenWidth(lineScale(), cell), Qt::SolidLine, Qt::RoundCap));
    currentHands_->setPen(hands_->pen());
    currentLocalHands_->setPen(localHands_->pen());
    placeCurrentLabel();
}

void ClockGridView::stackCurrentRow()
{
    // Covering: the overlay, drawn in this order, holds the band over the current row below it,
    // the row's faces and hands again, and its real position's label; a step within the page moves
    // these alone. Not covering (a transparent ground): the translucent band under everything, on
    // the background layer, and the row's faces once, below; its hands and label on the overlay.
    // (Through "main" first: a layer draws its items in the order they came to it.)
    const std::initializer_list<QCPLayerable *> items{highlight_, currentFaces_, currentHands_, currentLocalHands_,
                                                      currentLabel_};
    for (QCPLayerable *item : items)
        item->setLayer(QStringLiteral("main"));
    if (!coverCurrent_)
        highlight_->setLayer(QStringLiteral("background"));
    currentFaces_->setVisible(coverCurrent_);
    for (QCPLayerable *item : items)
        if (coverCurrent_ || (item != highlight_ && item != currentFaces_))
            item->setLayer(QStringLiteral("overlay"));
}

void ClockGridView::paletteApplied()
{
    // The current row: a pale band on a screen; on a projector, which washes pale colours out, a
    // saturated band with a dark orange frame. Laid on the ground (the plot's, applyPalette's),
    // opaque, it covers the row below and looks as a translucent band under the row's faces and
    // hands does; on a transparent ground (an export's --transparent) it is translucent.
    const QColor tint = projector() ? QColor(255, 170, 0, 130) : QColor(255, 200, 0, 60);
    highlight_->setBrush(coverCurrent_ ? laidOn(tint, ground()) : tint);
}

void ClockGridView::placeHands()
{
    placeRows(false);
    placeCurrentRow();
    drawnRow_ = parameters()->position();
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void ClockGridView::placeCurrentRow()
{
    const int row = static_cast<int>(parameters()->position() - firstRow_);
    highlight_->topLeft->setCoords(-0.5, row - 0.5);
    highlight_->bottomRight->setCoords(cols_ - 0.5, row + 0.5);
    std::vector<QPointF> centres;
    for (int c = 0; c < cols_; ++c)
        centres.emplace_back(c, row);
    currentFaces_->setCentres(std::move(centres));
    placeRows(true);
}

void ClockGridView::placeRows(bool currentOnly)
{
    // The current row in currentHands_ (at a real position); every row in hands_ at its own whole
    // position, the current one too unless the band cannot cover it (coverCurrent_).
    const int current = static_cast<int>(parameters()->position() - firstRow_);
    QVector<QCPCurveData> hand, localHand, currentHand, currentLocalHand;
    hand.reserve(rows_ * cols_ * 3);
    double t = 0, u = 0, ct = 0, cu = 0;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const pe::Encoding &enc = parameters()->encoding();
    // Row r's hands at position at: the global hand into `into`, and the local layers' shorter one.
    const auto addRow = [&](int r, double at, QVector<QCPCurveData> &into, double &key,
                            QVector<QCPCurveData> &localInto, double &localKey) {
        for (int c = 0; c < cols_; ++c) {
            const int pair = pairs_[static_cast<std::size_t>(c)];
            // A table's column without a partner fixes no angle: no hand.
            if (!enc.hasFrequencies() && enc.pairCosineColumn(pair) < 0)
                continue;
            const QPointF tip = handTipAt(r, c, at);
            into.append(QCPCurveData(key++, c, r));
            into.append(QCPCurveData(key++, tip.x(), tip.y()));
            into.append(QCPCurveData(key++, nan, nan));
            if (local_) {
                // Shorter than the global hand, so both read where they overlap.
                const pe::Point local = pe::handTip(*local_, at, pair, face());
                localInto.append(QCPCurveData(localKey++, c, r));
                localInto.append(
                    QCPCurveData(localKey++, c + kLocalHandLength * local.x, r - kLocalHandLength * local.y));
                localInto.append(QCPCurveData(localKey++, nan, nan));
            }
        }
    };
    for (int r = 0; r < rows_; ++r) {
        const bool isCurrent = r == current;
        if (isCurrent)
            addRow(r, rowPosition(r), currentHand, ct, currentLocalHand, cu);
        if (!currentOnly && (!isCurrent || coverCurrent_))
            addRow(r, static_cast<double>(firstRow_ + r), hand, t, localHand, u);
    }
    if (!currentOnly) {
        hands_->data()->set(hand, true);
        localHands_->data()->set(localHand, true);
    }
    currentHands_->data()->set(currentHand, true);
    currentLocalHands_->data()->set(currentLocalHand, true);
    placeCurrentLabel();
}

void ClockGridView::placeCurrentLabel()
{
    // The current row's position when it is between whole ones, over its whole tick label.
    const int row = static_cast<int>(parameters()->position() - firstRow_);
    const double t = rows_ > 0 ? rowPosition(row) : 0.0;
    // Only over a row that has a label (rows are labelled every few when they are many).
    const auto ticker = qSharedPointerCast<QCPAxisTickerText>(plot()->yAxis->ticker());
    currentLabel_->setVisible(t != std::floor(t) && ticker->ticks().contains(static_cast<double>(row)));
    if (!currentLabel_->visible())
        return;
    QCPAxis *axis = plot()->yAxis;
    currentLabel_->setFont(axis->tickLabelFont());
    currentLabel_->setColor(axis->tickLabelColor());
    // The plot's ground (applyPalette's), hiding the whole label under it.
    currentLabel_->setBrush(QBrush(ground()));
    currentLabel_->setPen(Qt::NoPen);
    currentLabel_->setText(positionText(t));
    currentLabel_->position->setCoords(axis->axisRect()->left() - axis->tickLabelPadding(),
                                       axis->coordToPixel(static_cast<double>(row)));
}

QString ClockGridView::tooltipAt(QPointF pixel) const
{
    if (rows_ == 0 || !plot()->axisRect()->rect().contains(pixel.toPoint()))
        return {};
    const int column = static_cast<int>(std::lround(plot()->xAxis2->pixelToCoord(pixel.x())));
    const int row = static_cast<int>(std::lround(plot()->yAxis->pixelToCoord(pixel.y())));
    if (column < 0 || column >= cols_ || row < 0 || row >= rows_)
        return {};
    const int col = pairs_[static_cast<std::size_t>(column)];
    const pe::Encoding &enc = parameters()->encoding();
    const std::int64_t t = firstRow_ + row;
    const double theta = pe::handAngle(enc, t, col);
    const int sj = enc.pairSineColumn(col);
    const int cj = enc.pairCosineColumn(col);
    if (!enc.hasFrequencies())
        return tr("position t = %1, pair i = %2\nangle = %3 rad (%4°)\nPE[t, %5] = %6\nPE[t, %7] = %8")
            .arg(t)
            .arg(col)
            .arg(theta, 0, 'f', 4)
            .arg(theta * 180 / std::numbers::pi, 0, 'f', 1)
            .arg(sj)
            .arg(enc.value(t, sj), 0, 'g', 6)
            .arg(cj)
            .arg(cj >= 0 ? enc.value(t, cj) : 0.0, 0, 'g', 6);
    QString text = tr("position t = %1, pair i = %2\nangle t·ω = %3 rad ≡ %4 rad (%5°)\nω = %6, λ = %7 positions\n"
                      "PE[t, %8] = sin = %9")
                       .arg(t)
                       .arg(col)
                       .arg(static_cast<double>(t) * enc.pairFrequency(col), 0, 'g', 8)
                       .arg(theta, 0, 'f', 4)
                       .arg(theta * 180 / std::numbers::pi, 0, 'f', 1)
                       .arg(enc.pairFrequency(col), 0, 'g', 6)
                       .arg(QString::fromStdString(pe::numberText(enc.pairWavelength(col), 6)))
                       .arg(sj)
                       .arg(enc.value(t, sj), 0, 'f', 6);
    if (cj >= 0)
        text += tr("\nPE[t, %1] = cos = %2").arg(cj).arg(enc.value(t, cj), 0, 'f', 6);
    else
        text += enc.hasFrequencies() ? tr("\nno cosine column (odd d): the hand is the formula's angle")
                                     : tr("\nno partner column: no hand");
    return text;
}
