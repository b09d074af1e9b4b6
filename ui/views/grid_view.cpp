// The grid view: RoPE over a grid of patches, the similarity image and the reference patch's clocks.
#include "views/grid_view.h"

#include "analysis/clock.h"
#include "figures/color_maps.h"
#include "figures/integer_ticker.h"
#include "state/color_map_table.h"
#include "state/parameters.h"
#include "state/view_state.h"
#include "views/clock_faces.h"
#include "views/clock_grid_view.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace {

const QColor kHandColor(0xfc, 0x03, 0x03); // the clocks view's red
// Clocks a coordinate: a block of 6 x 6 stays readable beside the image at 1280 pixels.
constexpr int kMaxGridClocks = 36;
constexpr double kBlockGap = 0.6; // cells between two coordinates' blocks of clocks
constexpr pe::GridAxis kClockAxes[] = {pe::GridAxis::Frame, pe::GridAxis::Row, pe::GridAxis::Column};

// A tick step of whole patches (or frames) at least `at`: 1, 2, 5, 10 ..., at most a million.
int niceStep(double at)
{
    return static_cast<int>(std::min(roundedTickStep(at), 1e6));
}

QString axisText(pe::GridAxis a)
{
    switch (a) {
    case pe::GridAxis::Frame:
        return GridView::tr("frame");
    case pe::GridAxis::Row:
        return GridView::tr("row");
    case pe::GridAxis::Column:
        return GridView::tr("column");
    case pe::GridAxis::Still:
        break;
    }
    return GridView::tr("none");
}

QString styleText(pe::GridRope s)
{
    switch (s) {
    case pe::GridRope::Pixtral:
        return GridView::tr("Pixtral 2-D RoPE");
    case pe::GridRope::Qwen2Vl:
        return GridView::tr("Qwen2-VL vision 2-D RoPE");
    case pe::GridRope::Mrope:
        return GridView::tr("Qwen2-VL M-RoPE");
    }
    return {};
}

} // namespace

GridView::GridView(Parameters *parameters, QWidget *parent)
    : PlotView(parameters, parent)
    , styleChoice_(new QComboBox(this))
    , shapeEdit_(new QLineEdit(this))
    , sectionEdit_(new QLineEdit(this))
    , colorsChoice_(new QComboBox(this))
{
    setObjectName(QStringLiteral("gridView"));
    styleChoice_->setObjectName(QStringLiteral("gridRope"));
    styleChoice_->addItem(tr("Pixtral"), QStringLiteral("pixtral"));
    styleChoice_->addItem(tr("Qwen2-VL vision"), QStringLiteral("qwen2-vl"));
    styleChoice_->addItem(tr("M-RoPE (Qwen2-VL)"), QStringLiteral("mrope"));
    styleChoice_->setToolTip(tr("Which pairs turn with the row, the column and (M-RoPE) the frame, as each model's "
                                "reference code assigns them"));
    shapeEdit_->setObjectName(QStringLiteral("gridShape"));
    shapeEdit_->setToolTip(tr("rows x columns (16x16) or frames x rows x columns (2x16x16), exactly seq_len "
                              "patches; fit: the squarest grid of seq_len"));
    shapeEdit_->setMaximumWidth(110);
    sectionEdit_->setObjectName(QStringLiteral("mropeSection"));
    sectionEdit_->setToolTip(
        tr("M-RoPE's mrope_section: pairs turning with the frame, the row and the column; fit: 1/4, 3/8, 3/8"));
    sectionEdit_->setMaximumWidth(110);
    toolRow()->addWidget(new QLabel(tr("Grid:"), this));
    toolRow()->addWidget(shapeEdit_);
    toolRow()->addWidget(new QLabel(tr("Pairs:"), this));
    toolRow()->addWidget(styleChoice_);
    toolRow()->addWidget(new QLabel(tr("Section:"), this));
    toolRow()->addWidget(sectionEdit_);
    colorsChoice_->setObjectName(QStringLiteral("gridColors"));
    colorsChoice_->addItem(tr("image's range"), QStringLiteral("data"));
    colorsChoice_->addItem(tr("−1 to 1"), QStringLiteral("fixed"));
    colorsChoice_->setToolTip(tr("The colours from this image's lowest to highest similarity (M-RoPE's slow spatial "
                                 "pairs keep every patch near 1), or over the whole range −1 to 1"));
    toolRow()->addWidget(new QLabel(tr("Colours:"), this));
    toolRow()->addWidget(colorsChoice_);
    toolRow()->addStretch(1);

    QCustomPlot *p = plot();
    title_ = addTitle();
    QCPAxisRect *mapRect = p->axisRect();
    map_ = new QCPColorMap(p->xAxis, p->yAxis);
    map_->setInterpolate(false);
    map_->setTightBoundary(false);
    map_->setDataRange(QCPRange(-1.0, 1.0));
    scale_ = new QCPColorScale(p);
    content()->addElement(0, 1, scale_);
    scale_->setType(QCPAxis::atRight);
    scale_->axis()->setLabel(tr("cosine similarity"));
    scale_->setDataRange(QCPRange(-1.0, 1.0));
    map_->setColorScale(scale_);
    QCPColorGradient gradient = colormaps::gradient(colorMapNames().first());
    gradient.setNanHandling(QCPColorGradient::nhTransparent); // the gaps between frames
    map_->setGradient(gradient);
    for (QCPAxis *axis : {p->xAxis, p->yAxis}) {
        // Ticks on the patches only: the square cells leave room around the image.
        axis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
        axis->setSubTicks(false);
        axis->grid()->setVisible(false);
    }
    p->yAxis->setRangeReversed(true); // row 0 at the top, as an image
    reference_ = new QCPItemRect(p);
    referenceInner_ = new QCPItemRect(p);
    for (QCPItemRect *r : {reference_, referenceInner_}) {
        r->setBrush(Qt::NoBrush);
        r->setClipAxisRect(mapRect);
    }

    clockRect_ = new QCPAxisRect(p);
    content()->addElement(0, 2, clockRect_);
    clockRect_->setAutoMargins(QCP::msLeft | QCP::msBottom);
    QCPAxis *cx = clockRect_->axis(QCPAxis::atBottom);
    QCPAxis *cy = clockRect_->axis(QCPAxis::atLeft);
    for (QCPAxis *axis : {cx, cy}) {
        axis->grid()->setVisible(false);
        axis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
        axis->setSubTicks(false);
        axis->setTickLength(0, 0);
        axis->setBasePen(Qt::NoPen);
        axis->setTickPen(Qt::NoPen);
    }
    cy->setRangeReversed(true);
    faces_ = new ClockFaces(cx, cy);
    hands_ = new QCPCurve(cx, cy);
    auto *group = new QCPMarginGroup(p);
    mapRect->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    scale_->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    clockRect_->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    content()->setColumnStretchFactors({1.0, 0.01, 1.0});
    connect(p, &QCustomPlot::afterLayout, this, &GridView::fitCells);
}

void GridView::rebuild()
{
    const pe::EncodingParams &p = parameters()->values();
    setup_ = gridSetupFrom(p, settings());
    // A table's rows turn no pairs: how RoPE assigns them does not apply.
    for (QWidget *w : {static_cast<QWidget *>(styleChoice_), static_cast<QWidget *>(sectionEdit_)})
        w->setEnabled(!p.table);
    if (const QString why = setup_.problem.isEmpty() ? setup_.figureProblem : setup_.problem; !why.isEmpty()) {
        // Nothing drawn, and the title says why (the last figure must not stay as if it were this one).
        map_->data()->clear();
        hands_->data()->clear();
        faces_->setCentres({});
        faces_->setGrid(0, 0, 0.42, pe::ClockFace::Clockwise, lineScale());
        for (QCPItemRect *r : {reference_, referenceInner_})
            r->setVisible(false);
        for (QCPItemText *label : frameLabels_)
            label->setVisible(false);
        similarity_.clear();
        clockPairs_.clear();
        clockAt_.clear();
        setTitle(title_, {tr("RoPE over a grid: nothing drawn"), why});
        plot()->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    for (QCPItemRect *r : {reference_, referenceInner_})
        r->setVisible(true);
    const pe::PatchGrid &g = setup_.grid;
    const std::int64_t t = parameters()->position();
    patch_ = gridReference(setup_, p, t);
    if (setup_.table) {
        similarity_ = gridSimilarityOf(setup_, parameters()->encoding(), patch_);
    } else {
        // The one-axis sums stay while only the reference moves (a position step, playback).
        if (!sums_ || sumsPairs_ != setup_.pairs || !(sums_->grid == g)) {
            sums_ = pe::gridOffsetSums(setup_.pairs, g);
            sumsPairs_ = setup_.pairs;
        }
        similarity_ = pe::gridSimilarity(*sums_, patch_);
    }

    // The image: frames side by side, an empty (transparent) column between them.
    const int width = g.frames * (g.cols + 1) - 1;
    colormaps::fillColorMap(map_, g.rows, width, 0, g.rows - 1, 0, width - 1, false, [this, &g](int r, int c) {
        const int frame = c / (g.cols + 1);
        const int col = c % (g.cols + 1);
        if (col == g.cols)
            return std::numeric_limits<double>::quiet_NaN();
        return similarity_[static_cast<std::size_t>((std::int64_t(frame) * g.rows + r) * g.cols + col)];
    });
    double low = *std::min_element(similarity_.begin(), similarity_.end());
    double high = *std::max_element(similarity_.begin(), similarity_.end());
    const bool fixed = state().choice(QStringLiteral("gridColors")) == QLatin1String("fixed") || !(high > low);
    if (fixed) {
        low = -1;
        high = 1;
    }
    map_->setDataRange(QCPRange(low, high));
    scale_->setDataRange(QCPRange(low, high));
    // Ticks a label's room apart on the patches' squares (as fitCells sizes them).
    const QRect area = plot()->axisRect()->rect();
    const double fitted =
        std::min(static_cast<double>(area.width()) / width, static_cast<double>(area.height()) / g.rows) * pixelScale();
    const double cellPixels = std::max(1e-6, fitted / pixelScale());
    const QFontMetrics metrics(plot()->xAxis->tickLabelFont());
    const int colStep = niceStep(1.8 * metrics.horizontalAdvance(QString::number(g.cols - 1)) / cellPixels);
    const int rowStep = niceStep(1.4 * metrics.height() / cellPixels);
    QVector<double> rowTicks, colTicks;
    QVector<QString> rowLabels, colLabels;
    for (int r = 0; r < g.rows; r += rowStep) {
        rowTicks << r;
        rowLabels << QString::number(r);
    }
    for (int f = 0; f < g.frames; ++f)
        for (int c = 0; c < g.cols; c += colStep) {
            if (f + 1 < g.frames && 2 * (g.cols - c) < colStep)
                continue; // the next frame's 0 is a column away
            colTicks << mapX(f, c);
            colLabels << QString::number(c);
        }
    qSharedPointerDynamicCast<QCPAxisTickerText>(plot()->yAxis->ticker())->setTicks(rowTicks, rowLabels);
    qSharedPointerDynamicCast<QCPAxisTickerText>(plot()->xAxis->ticker())->setTicks(colTicks, colLabels);
    // Each frame named above its block (frames side by side); every k-th when many.
    const int frameStep =
        g.frames > 1
            ? niceStep(1.3 * metrics.horizontalAdvance(tr("frame %1").arg(g.frames - 1)) / (cellPixels * (g.cols + 1)))
            : 1;
    int labelled = 0;
    for (int f = 0; g.frames > 1 && f < g.frames; f += frameStep, ++labelled) {
        if (labelled == static_cast<int>(frameLabels_.size())) {
            auto *label = new QCPItemText(plot());
            label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            label->setClipToAxisRect(false);
            frameLabels_.push_back(label);
        }
        QCPItemText *label = frameLabels_[static_cast<std::size_t>(labelled)];
        label->setText(tr("frame %1").arg(f));
        label->setFont(plot()->xAxis->tickLabelFont());
        label->setColor(plot()->xAxis->tickLabelColor());
        label->position->setCoords(mapX(f, 0) + (g.cols - 1) / 2.0, -0.6);
        label->setVisible(true);
    }
    for (std::size_t k = static_cast<std::size_t>(labelled); k < frameLabels_.size(); ++k)
        frameLabels_[k]->setVisible(false);
    const double x = mapX(patch_.frame, patch_.col);
    // A dark frame with a light one inside, as the heatmap marks its row: visible on every colour.
    reference_->setPen(QPen(QColor(20, 20, 20), 2.4 * lineScale()));
    referenceInner_->setPen(QPen(QColor(255, 255, 255), 1.2 * lineScale()));
    for (QCPItemRect *r : {reference_, referenceInner_}) {
        r->topLeft->setCoords(x - 0.5, patch_.row - 0.5);
        r->bottomRight->setCoords(x + 0.5, patch_.row + 0.5);
    }
    plot()->xAxis->setLabel(g.frames > 1 ? tr("column (frames side by side)") : tr("column"));
    plot()->yAxis->setLabel(tr("row"));

    // A table has no clocks: the image takes the figure.
    clockRect_->setVisible(!setup_.table);
    content()->setColumnStretchFactors({1.0, 0.01, setup_.table ? 0.001 : 1.0});
    clockRect_->setMaximumSize(setup_.table ? QSize(0, QWIDGETSIZE_MAX) : QSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX));

    // The clocks: a block for each coordinate that has pairs, up to kMaxGridClocks each (spread
    // from the fastest to the slowest beyond), all blocks as wide, one above the other.
    std::vector<std::vector<int>> groups;
    std::vector<pe::GridAxis> axes;
    for (pe::GridAxis a : kClockAxes) {
        std::vector<int> pairs;
        for (std::size_t i = 0; i < setup_.pairs.size(); ++i)
            if (setup_.pairs[i].axis == a)
                pairs.push_back(static_cast<int>(i));
        if (!pairs.empty()) {
            groups.push_back(std::move(pairs));
            axes.push_back(a);
        }
    }
    std::size_t most = 0;
    for (const auto &gp : groups)
        most = std::max(most, std::min<std::size_t>(gp.size(), kMaxGridClocks));
    const int perRow = std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(most)))));
    clockPairs_.clear();
    clockAt_.clear();
    QVector<double> blockTicks;
    QVector<QString> blockLabels;
    bool allShown = true;
    double top = 0;
    for (std::size_t b = 0; b < groups.size(); ++b) {
        const auto &gp = groups[b];
        const int shown = static_cast<int>(std::min<std::size_t>(gp.size(), kMaxGridClocks));
        allShown = allShown && shown == static_cast<int>(gp.size());
        const std::vector<int> chosen = pe::choosePairs({}, static_cast<int>(gp.size()), shown);
        for (std::size_t c = 0; c < chosen.size(); ++c) {
            clockPairs_.push_back(gp[static_cast<std::size_t>(chosen[c])]);
            clockAt_.emplace_back(static_cast<double>(c % perRow), top + static_cast<double>(c / perRow));
        }
        const int rows = (shown + perRow - 1) / perRow;
        blockTicks << top + (rows - 1) / 2.0;
        blockLabels << (shown == static_cast<int>(gp.size())
                            ? tr("%1\n%2 pairs").arg(axisText(axes[b])).arg(gp.size())
                            : tr("%1\n%2 of %3 pairs").arg(axisText(axes[b])).arg(shown).arg(gp.size()));
        top += rows + (b + 1 < groups.size() ? kBlockGap : 0.0);
    }
    clockWidth_ = perRow;
    clockHeight_ = top;
    auto blockTicker = qSharedPointerDynamicCast<QCPAxisTickerText>(clockRect_->axis(QCPAxis::atLeft)->ticker());
    blockTicker->setTicks(blockTicks, blockLabels);
    clockRect_->axis(QCPAxis::atBottom)
        ->setLabel(allShown ? tr("its pairs, fastest first")
                            : tr("its pairs, fastest first (%1 a block, spread)").arg(kMaxGridClocks));
    faces_->setGrid(0, 0, 0.42, pe::ClockFace::Clockwise, lineScale());
    faces_->setCentres(clockAt_);
    QVector<QCPCurveData> hand;
    double k = 0;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t i = 0; i < clockPairs_.size(); ++i) {
        const double a = pe::gridAngle(setup_.pairs[static_cast<std::size_t>(clockPairs_[i])], patch_, setup_.offset);
        const double cx = clockAt_[i].x(), cy = clockAt_[i].y();
        hand.append(QCPCurveData(k++, cx, cy));
        hand.append(QCPCurveData(k++, cx + ClockGridView::kHandLength * std::sin(a),
                                 cy - ClockGridView::kHandLength * std::cos(a)));
        hand.append(QCPCurveData(k++, nan, nan));
    }
    hands_->data()->set(hand, true);

    // Title: what is drawn, then (lecture mode keeps the first and last lines) the key.
    const QString where = g.frames > 1
                              ? tr("frame %1, row %2, column %3").arg(patch_.frame).arg(patch_.row).arg(patch_.col)
                              : tr("row %1, column %2").arg(patch_.row).arg(patch_.col);
    QStringList title{setup_.table
                          // The place first: a lecture's narrow title cuts the end.
                          ? tr("t = %1 at %2 of %3").arg(t).arg(where, QString::fromStdString(pe::tableName(p)))
                          : tr("%1, %2%3: t = %4 at %5")
                                .arg(styleText(setup_.style), QString::fromStdString(pe::patchGridText(g)))
                                .arg(setup_.fitted ? tr(" (fit)") : QString())
                                .arg(t)
                                .arg(where)};
    if (setup_.table) {
        // The table's own grid states its convention; a grid given (--grid) reads the rows as they are.
        title << (setup_.fitted && !p.table->convention().empty()
                      ? QString::fromStdString(p.table->convention())
                      : tr("its rows read as %1 patches in raster order")
                            .arg(QString::fromStdString(pe::patchGridText(g))));
        title << (fixed ? tr("each patch's cosine similarity to this patch (framed), as ViT's figure 7")
                        : tr("each patch's cosine similarity to this patch (framed), as ViT's figure 7; colours over "
                             "the image's range"));
    }
    if (!setup_.table) {
        switch (setup_.style) {
        case pe::GridRope::Pixtral:
            title << tr("the first d/4 pairs turn with the row at base^(−4k/d), the last d/4 with the column at "
                        "base^(−(4k+2)/d), base %1")
                         .arg(QString::fromStdString(pe::compactNumber(p.base)));
            break;
        case pe::GridRope::Qwen2Vl:
            title << tr("the first d/4 pairs turn with the row, the last d/4 with the column, both at base^(−4k/d), "
                        "base %1")
                         .arg(QString::fromStdString(pe::compactNumber(p.base)));
            break;
        case pe::GridRope::Mrope:
            title << tr("mrope_section %1,%2,%3: pairs turning with the frame, the row and the column at RoPE's θ_i; "
                        "coordinates from start_pos %4")
                         .arg(setup_.section[0])
                         .arg(setup_.section[1])
                         .arg(setup_.section[2])
                         .arg(p.startPos);
            break;
        }
        title << (fixed ? tr("left: each patch's cosine similarity to this patch (framed); right: this patch's "
                             "hands, from 12 o'clock clockwise")
                        : tr("left: each patch's cosine similarity to this patch (framed), colours over the image's "
                             "range; right: this patch's hands, from 12 o'clock clockwise"));
    }
    if (fitted > 0 && fitted < 1)
        title << tr("(%1 × %2 patches on fewer pixels: each pixel shows the patch at its centre; --export-data grid "
                    "has every patch)")
                     .arg(g.rows)
                     .arg(width);
    setTitle(title_, title);
    // The ranges for the rects as they are now: QCustomPlot places the ticks during the layout,
    // before afterLayout fits the cells again, so ranges set only there would tick the last ones.
    fitCells();
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void GridView::fitCells()
{
    // After every layout (screen or export size): square patches and round clocks.
    if (!setup_.problem.isEmpty() || !setup_.figureProblem.isEmpty())
        return;
    // `above`: cells kept above the first row (the frames' names).
    // `corner`: the cells in the bottom left corner, next to both axes' ticks (the image), else centred.
    const auto fit = [](QCPAxisRect *rect, QCPAxis *x, QCPAxis *y, double cols, double rows, double above,
                        bool corner) {
        rows += above;
        if (cols <= 0 || rows <= 0)
            return;
        const QRect area = rect->rect();
        const double cell =
            std::min(static_cast<double>(area.width()) / cols, static_cast<double>(area.height()) / rows);
        if (cell <= 0)
            return;
        const double spareX = (area.width() / cell - cols) / 2;
        const double spareY = (area.height() / cell - rows) / 2;
        if (corner) {
            x->setRange(-0.5, cols - 0.5 + 2 * spareX);
            y->setRange(-0.5 - above - 2 * spareY, rows - above - 0.5);
        } else {
            x->setRange(-0.5 - spareX, cols - 0.5 + spareX);
            y->setRange(-0.5 - above - spareY, rows - above - 0.5 + spareY);
        }
    };
    const pe::PatchGrid &g = setup_.grid;
    // RoPE's image sits in the corner by its ticks, the clocks beside it; a table's, alone, in the middle.
    fit(plot()->axisRect(), plot()->xAxis, plot()->yAxis, g.frames * (g.cols + 1) - 1, g.rows, g.frames > 1 ? 1.5 : 0.0,
        !setup_.table);
    fit(clockRect_, clockRect_->axis(QCPAxis::atBottom), clockRect_->axis(QCPAxis::atLeft), clockWidth_, clockHeight_,
        0.0, false);
    const QRect area = clockRect_->rect();
    if (clockWidth_ > 0 && clockHeight_ > 0) {
        const double cell = std::min(static_cast<double>(area.width()) / clockWidth_,
                                     static_cast<double>(area.height()) / clockHeight_);
        hands_->setPen(QPen(kHandColor, ClockGridView::handPenWidth(lineScale(), cell), Qt::SolidLine, Qt::RoundCap));
    }
}

QString GridView::tooltipAt(QPointF pixel) const
{
    if (!setup_.problem.isEmpty() || !setup_.figureProblem.isEmpty() || similarity_.empty())
        return {};
    const pe::PatchGrid &g = setup_.grid;
    const std::int64_t first = parameters()->values().startPos;
    if (plot()->axisRect()->rect().contains(pixel.toPoint())) {
        const int x = static_cast<int>(std::lround(plot()->xAxis->pixelToCoord(pixel.x())));
        const int r = static_cast<int>(std::lround(plot()->yAxis->pixelToCoord(pixel.y())));
        const int frame = x / (g.cols + 1);
        const int c = x % (g.cols + 1);
        if (x < 0 || r < 0 || r >= g.rows || c >= g.cols || frame >= g.frames)
            return {};
        const std::int64_t index = (std::int64_t(frame) * g.rows + r) * g.cols + c;
        return tr("position %1: %2row %3, column %4\ncosine similarity to position %5: %6")
            .arg(first + index)
            .arg(g.frames > 1 ? tr("frame %1, ").arg(frame) : QString())
            .arg(r)
            .arg(c)
            .arg(parameters()->position())
            .arg(similarity_[static_cast<std::size_t>(index)], 0, 'g', 6);
    }
    if (clockRect_->rect().contains(pixel.toPoint())) {
        const double cx = clockRect_->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
        const double cy = clockRect_->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y());
        for (std::size_t i = 0; i < clockPairs_.size(); ++i)
            if (std::abs(clockAt_[i].x() - cx) <= 0.5 && std::abs(clockAt_[i].y() - cy) <= 0.5) {
                const pe::GridPair &pair = setup_.pairs[static_cast<std::size_t>(clockPairs_[i])];
                return tr("pair %1 turns with the %2\nθ = %3 rad a step, wavelength %4 steps of the %2\nangle here: "
                          "%5°")
                    .arg(clockPairs_[i])
                    .arg(axisText(pair.axis))
                    .arg(QString::fromStdString(pe::numberText(pair.theta, 6)))
                    .arg(QString::fromStdString(pe::wavelengthText(pe::wavelengthOf(pair.theta))))
                    .arg(pe::gridAngle(pair, patch_, setup_.offset) * 180 / std::numbers::pi, 0, 'f', 1);
            }
    }
    return {};
}
