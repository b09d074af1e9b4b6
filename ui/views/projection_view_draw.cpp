#include "views/projection_view.h"

#include "figures/background_job.h"
#include "figures/color_maps.h"
#include "state/color_map_table.h"
#include "state/parameters.h"
#include "state/view_info/view_infos.h"
#include "state/view_state.h"

#include <qcustomplot.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

namespace {

// Positions are labelled with their number up to this many points (article 4 labels all 128).
constexpr std::int64_t kMaxLabels = 200;
// The nearest-point offsets are found again for every frame of a run up to this many points (about
// 20 ms on two cores); above it, once, for the last.
constexpr std::int64_t kLiveNearest = 100'000;

// The labels' colours: matplotlib's tab10, then tab20, each without its greys (the unlabelled are
// grey): as many as pe::kMaxLabelNames.
QColor labelColor(int index, int count)
{
    static const QRgb tab10[] = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd,
                                 0x8c564b, 0xe377c2, 0xbcbd22, 0x17becf};
    static const QRgb tab20[] = {0x1f77b4, 0xaec7e8, 0xff7f0e, 0xffbb78, 0x2ca02c, 0x98df8a,
                                 0xd62728, 0xff9896, 0x9467bd, 0xc5b0d5, 0x8c564b, 0xc49c94,
                                 0xe377c2, 0xf7b6d2, 0xbcbd22, 0xdbdb8d, 0x17becf, 0x9edae5};
    static_assert(std::size(tab20) == pe::kMaxLabelNames);
    return QColor(count <= static_cast<int>(std::size(tab10)) ? tab10[index] : tab20[index]);
}
const QColor kUnlabelled(200, 200, 200);

} // namespace

void ProjectionView::positionMoved()
{
    // Playback moves the position many times a second: only the ring moves, the points stay.
    placeCurrent();
    replotPositionLayer();
}

std::int64_t ProjectionView::shownCount() const
{
    return stale_ ? 0 : shown_.size();
}

const double *ProjectionView::planar() const
{
    return shown_.dims == 3 ? screen_.data() : shown_.coords.data();
}

void ProjectionView::frameBox()
{
    const std::int64_t n = shown_.dims == 3 ? shown_.size() : 0;
    for (int c = 0; c < 3; ++c) {
        lower_[c] = std::numeric_limits<double>::infinity();
        upper_[c] = -lower_[c];
    }
    for (std::int64_t i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c)
            if (const double v = shown_.coords[static_cast<std::size_t>(3 * i + c)]; std::isfinite(v)) {
                lower_[c] = std::min(lower_[c], v);
                upper_[c] = std::max(upper_[c], v);
            }
    for (int c = 0; c < 3; ++c)
        if (!(lower_[c] <= upper_[c]))
            lower_[c] = upper_[c] = 0; // no finite value on this axis
    sphere_ = 0.5 * std::hypot(upper_[0] - lower_[0], upper_[1] - lower_[1], upper_[2] - lower_[2]);
}

void ProjectionView::viewIn3d()
{
    pe::viewFrom(shown_.coords, viewAngle(), screen_, depth_);
    // Far to near, so a nearer point covers a farther one: a counting sort on the depth in 65,536
    // steps (linear at a million points; points within a step are a fraction of a pixel apart in
    // depth, and keep their order).
    // A point with a coordinate not finite (a diverged run) goes first, and is not drawn (raster).
    double d0 = std::numeric_limits<double>::infinity(), d1 = -d0;
    for (double d : depth_)
        if (std::isfinite(d)) {
            d0 = std::min(d0, d);
            d1 = std::max(d1, d);
        }
    constexpr int kSteps = 1 << 16;
    const double scale = d1 > d0 ? (kSteps - 1) / (d1 - d0) : 0.0;
    std::vector<std::int32_t> start(kSteps + 1, 0);
    const auto step = [&](std::size_t i) {
        return std::isfinite(depth_[i]) ? std::clamp(static_cast<int>((depth_[i] - d0) * scale), 0, kSteps - 1) : 0;
    };
    for (std::size_t i = 0; i < depth_.size(); ++i)
        ++start[static_cast<std::size_t>(step(i)) + 1];
    for (int k = 0; k < kSteps; ++k)
        start[static_cast<std::size_t>(k) + 1] += start[static_cast<std::size_t>(k)];
    drawOrder_.resize(depth_.size());
    for (std::size_t i = 0; i < depth_.size(); ++i)
        drawOrder_[static_cast<std::size_t>(start[static_cast<std::size_t>(step(i))]++)] = static_cast<std::int32_t>(i);
}

void ProjectionView::drawBox(const std::array<QString, 3> &names)
{
    QCustomPlot *p = plot();
    const bool threeD = shownCount() > 0 && shown_.dims == 3;
    while (!threeD && !boxEdges_.empty()) {
        p->removeItem(boxEdges_.back());
        boxEdges_.pop_back();
    }
    while (!threeD && !axisNames_.empty()) {
        p->removeItem(axisNames_.back());
        axisNames_.pop_back();
    }
    if (!threeD)
        return;
    while (boxEdges_.size() < 12) {
        auto *edge = new QCPItemLine(p);
        edge->setLayer(QStringLiteral("grid")); // behind the points
        edge->setClipToAxisRect(true);
        boxEdges_.push_back(edge);
    }
    while (axisNames_.size() < 3) {
        auto *name = new QCPItemText(p);
        name->setLayer(QStringLiteral("axes")); // above them
        name->setClipToAxisRect(true);
        axisNames_.push_back(name);
    }
    // The box's corners seen from the angle: corner k has axis c's upper bound when bit c of k is set.
    std::vector<double> corners(24), screen, depth;
    for (int k = 0; k < 8; ++k)
        for (int c = 0; c < 3; ++c)
            corners[static_cast<std::size_t>(3 * k + c)] = (k >> c & 1) ? upper_[c] : lower_[c];
    pe::viewFrom(corners, viewAngle(), screen, depth);
    QFont font = p->font();
    font.setPointSizeF(fontSize(9));
    std::size_t e = 0;
    for (int c = 0; c < 3; ++c) {
        // Axis c's four edges; its name beside the lowest one on screen (the leftmost one when the
        // axis stands more upright than across), outside the box.
        double best = std::numeric_limits<double>::infinity();
        QPointF at;
        bool upright = false, endOn = false;
        for (int k = 0; k < 8; ++k) {
            if (k >> c & 1)
                continue;
            const int other = k | (1 << c);
            const QPointF a(screen[static_cast<std::size_t>(2 * k)], screen[static_cast<std::size_t>(2 * k + 1)]);
            const QPointF b(screen[static_cast<std::size_t>(2 * other)],
                            screen[static_cast<std::size_t>(2 * other + 1)]);
            QCPItemLine *edge = boxEdges_[e++];
            edge->start->setCoords(a);
            edge->end->setCoords(b);
            const QPointF mid = (a + b) / 2;
            // An axis pointing at the eye has edges of no length: no name to place along them.
            endOn = std::hypot(b.x() - a.x(), b.y() - a.y()) < 0.02 * sphere_;
            upright = std::abs(b.y() - a.y()) > std::abs(b.x() - a.x());
            const double score = upright ? mid.x() : mid.y();
            if (score < best) {
                best = score;
                at = mid;
            }
        }
        QCPItemText *name = axisNames_[static_cast<std::size_t>(c)];
        name->position->setCoords(at);
        name->setPositionAlignment(upright ? (Qt::AlignRight | Qt::AlignVCenter) : (Qt::AlignHCenter | Qt::AlignTop));
        name->setText(names[static_cast<std::size_t>(c)]);
        name->setVisible(!endOn);
        name->setFont(font);
    }
    colourBox();
}

void ProjectionView::colourBox()
{
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    const QPen pen(dark ? QColor(200, 200, 206, 150) : QColor(110, 110, 116, 150), 1.0 * lineScale());
    for (QCPItemLine *edge : boxEdges_)
        edge->setPen(pen);
    for (QCPItemText *name : axisNames_)
        name->setColor(dark ? QColor(230, 230, 236) : QColor(40, 40, 46));
}

void ProjectionView::paletteApplied()
{
    colourBox();
}

void ProjectionView::placeCurrent()
{
    QCustomPlot *p = plot();
    const std::int64_t n = shownCount();
    const std::int64_t current = parameters()->position() - shownStart_;
    const bool showCurrent = n > 0 && current >= 0 && current < n;
    if (showCurrent) {
        const double cx = planar()[2 * current], cy = planar()[2 * current + 1];
        current_->setData(QVector<double>{cx}, QVector<double>{cy}, true);
        currentLabel_->position->setCoords(cx, cy);
        currentLabel_->setText(QStringLiteral(" t = %1 ").arg(parameters()->position()));
        // On the side with room: left of a point in the right half, so it is never cut off.
        const bool right = cx > p->xAxis->range().center();
        currentLabel_->setPositionAlignment((right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
        QFont f = p->font();
        f.setPointSizeF(fontSize(10));
        f.setBold(true);
        currentLabel_->setFont(f);
    } else {
        current_->data()->clear();
    }
    current_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(220, 20, 20), 2.0 * lineScale()),
                                              Qt::NoBrush, 14 * lineScale()));
    currentLabel_->setVisible(showCurrent);
}

void ProjectionView::draw()
{
    QCustomPlot *p = plot();
    const std::int64_t n = shownCount();
    const bool tsne = method() == pe::ProjectionMethod::Tsne;
    const bool threeD = n > 0 && shown_.dims == 3;
    if (threeD)
        viewIn3d();
    // 3-D: a drag turns the scene (the press and move handlers), so the plot does not pan.
    p->setInteractions(threeD ? QCP::Interactions(QCP::iRangeZoom) : QCP::iRangeDrag | QCP::iRangeZoom);
    const double *xy = planar();
    if (n > 0 && !userRange_) {
        double x0 = xy[0], x1 = x0, y0 = xy[1], y1 = y0;
        if (threeD) {
            // About the box's middle, as far as any angle reaches: turning neither moves nor rescales it.
            std::vector<double> middle{(lower_[0] + upper_[0]) / 2, (lower_[1] + upper_[1]) / 2,
                                       (lower_[2] + upper_[2]) / 2},
                screen, depth;
            pe::viewFrom(middle, viewAngle(), screen, depth);
            // Equal units across and up, whatever the plot's shape: a turn is a rigid motion on screen.
            const QRect area = p->axisRect()->rect();
            const double aspect = area.height() > 0 ? static_cast<double>(area.width()) / area.height() : 1.0;
            const double rx = sphere_ * std::max(1.0, aspect), ry = sphere_ * std::max(1.0, 1.0 / aspect);
            x0 = screen[0] - rx;
            x1 = screen[0] + rx;
            y0 = screen[1] - ry;
            y1 = screen[1] + ry;
        } else {
            for (std::int64_t i = 1; i < n; ++i) {
                x0 = std::min(x0, xy[2 * i]);
                x1 = std::max(x1, xy[2 * i]);
                y0 = std::min(y0, xy[2 * i + 1]);
                y1 = std::max(y1, xy[2 * i + 1]);
            }
        }
        const double padX = std::max((x1 - x0) * 0.05, 1e-9), padY = std::max((y1 - y0) * 0.05, 1e-9);
        settingRange_ = true;
        p->xAxis->setRange(x0 - padX, x1 + padX);
        p->yAxis->setRange(y0 - padY, y1 + padY);
        settingRange_ = false;
    }
    // 3-D: the plot's axes are the screen's, which measure nothing; the box and its axes' names stand
    // in for them.
    for (QCPAxis *axis : {p->xAxis, p->yAxis}) {
        axis->setTicks(!threeD);
        axis->setTickLabels(!threeD);
        axis->grid()->setVisible(!threeD);
    }
    // The nearest offsets of a frame: on every frame up to kLiveNearest points, else once the run ends.
    if (colorKey_ && colorKey_->by.kind == pe::ColorByKind::Error && !nearestDone_ && n > 1 &&
        (n <= kLiveNearest || !job_->running())) {
        nearest_ = pe::nearestOffsets(shown_.coords, shown_.dims);
        nearestDone_ = true;
    }
    showColoring();
    raster();
    applyColourLimits(); // showColoring set the bar's own range: a frame keeps --vmin and --vmax

    // Labels: every position's number next to its point when there are few (article 4).
    const std::int64_t wanted = n <= kMaxLabels ? n : 0;
    while (static_cast<std::int64_t>(labels_.size()) > wanted) {
        p->removeItem(labels_.back());
        labels_.pop_back();
    }
    while (static_cast<std::int64_t>(labels_.size()) < wanted) {
        auto *label = new QCPItemText(p);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->setClipToAxisRect(true);
        labels_.push_back(label);
    }
    QFont labelFont = p->font();
    labelFont.setPointSizeF(fontSize(7));
    for (std::int64_t i = 0; i < wanted; ++i) {
        QCPItemText *label = labels_[static_cast<std::size_t>(i)];
        label->setText(QString::number(shownStart_ + i));
        label->setFont(labelFont);
        label->position->setCoords(xy[2 * i], xy[2 * i + 1]);
    }

    placeCurrent();

    const pe::EncodingParams &params = key_ ? key_->params : parameters()->values();
    const QString what =
        tr("%1 positions (d_model %2%3)")
            .arg(QString::fromStdString(pe::withThousands(params.seqLen)))
            .arg(params.dModel)
            .arg(key_ && key_->noise.active() ? tr(", x = PE + %1·z").arg(key_->noise.sigma) : QString());
    QStringList title;
    std::array<QString, 3> names; // the axes' names
    if (!problem_.isEmpty()) {
        title << tr("Projection not computed: %1").arg(problem_);
    } else if (tsne) {
        const pe::TsneSettings s = key_ ? key_->settings : tsneSettings();
        title << tr("t-SNE of %1, perplexity %2").arg(what).arg(s.perplexity);
        if (n > 0) {
            title << tr("iteration %1 of %2%3%4")
                         .arg(shown_.iteration)
                         .arg(s.iterations)
                         .arg(std::isfinite(shown_.kl) ? tr(", KL %1").arg(shown_.kl, 0, 'f', 3)
                                                       : tr(", finding neighbours…"))
                         .arg(paused_ ? tr(" (paused)") : QString());
        } else {
            title << tr("computing neighbours and affinities…");
        }
        names = {tr("t-SNE 1"), tr("t-SNE 2"), tr("t-SNE 3")};
    } else if (method() == pe::ProjectionMethod::Umap) {
        const pe::UmapSettings s = key_ ? key_->umap : umapSettings();
        title << tr("UMAP of %1, %2 neighbours, minimum distance %3").arg(what).arg(s.neighbors).arg(s.minDist);
        const int epochs = pe::umapEpochs(s, params.seqLen);
        if (n > 0)
            title << tr("epoch %1 of %2%3%4")
                         .arg(shown_.iteration)
                         .arg(epochs)
                         .arg(shown_.iteration == 0 ? tr(", spectral start") : QString())
                         .arg(paused_ ? tr(" (paused)") : QString());
        else
            title << tr("computing neighbours and the fuzzy graph…");
        names = {tr("UMAP 1"), tr("UMAP 2"), tr("UMAP 3")};
    } else {
        title << tr("PCA of %1").arg(what);
        if (n > 0 && threeD) {
            title << tr("PC1 %1%, PC2 %2%, PC3 %3% of the variance")
                         .arg(100 * shown_.explained[0], 0, 'f', 1)
                         .arg(100 * shown_.explained[1], 0, 'f', 1)
                         .arg(100 * shown_.explained[2], 0, 'f', 1);
        } else if (n > 0) {
            title << tr("PC1 %1%, PC2 %2% of the variance")
                         .arg(100 * shown_.explained[0], 0, 'f', 1)
                         .arg(100 * shown_.explained[1], 0, 'f', 1);
        } else {
            title << tr("computing…");
        }
        for (int c = 0; c < 3; ++c)
            names[static_cast<std::size_t>(c)] =
                tr("PC%1 (%2% of the variance)").arg(c + 1).arg(100 * shown_.explained[c], 0, 'f', 1);
        if (threeD)
            for (int c = 0; c < 3; ++c)
                names[static_cast<std::size_t>(c)] = tr("PC%1").arg(c + 1);
    }
    if (threeD) {
        const pe::ViewAngle angle = viewAngle();
        p->xAxis->setLabel(
            tr("seen from azimuth %1°, elevation %2°").arg(angle.azimuth, 0, 'f', 1).arg(angle.elevation, 0, 'f', 1));
        p->yAxis->setLabel(QString());
    } else {
        p->xAxis->setLabel(names[0]);
        p->yAxis->setLabel(names[1]);
    }
    drawBox(names);
    // Neighbours from the approximate index: how many of the true ones it found.
    if (problem_.isEmpty() && n > 0 && method() != pe::ProjectionMethod::Pca && shown_.recall.approximate())
        title << QString::fromStdString(pe::recallNote(shown_.recall));
    if (!colorProblem_.isEmpty() && problem_.isEmpty())
        title << tr("coloured by position: %1").arg(colorProblem_);
    else if (colorKey_ && colorKey_->by.kind == pe::ColorByKind::Error && !nearestDone_ && n > kLiveNearest)
        title << tr("coloured by position until the run ends: the nearest offsets of %1 points are found once")
                     .arg(QString::fromStdString(pe::withThousands(n)));
    setTitle(title_, title);
    updateControls();
    p->replot(QCustomPlot::rpQueuedReplot);
}

std::vector<double> ProjectionView::colorValues() const
{
    const std::int64_t n = shownCount();
    std::vector<double> out(static_cast<std::size_t>(n));
    const pe::ColorByKind kind = colorKey_ ? colorKey_->by.kind : pe::ColorByKind::Position;
    const bool computed = colors_ && static_cast<std::int64_t>(colors_->values.size()) == n;
    for (std::int64_t i = 0; i < n; ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (kind == pe::ColorByKind::Error && nearestDone_ && nearest_.size() == out.size())
            out[k] = nearest_[k];
        else if (kind != pe::ColorByKind::Error && computed)
            out[k] = colors_->values[k];
        else
            out[k] = static_cast<double>(shownStart_ + i); // by position until the colouring is ready
    }
    return out;
}

void ProjectionView::showColoring()
{
    QCustomPlot *p = plot();
    const std::int64_t n = shownCount();
    const pe::ColorBy by = colorKey_ ? colorKey_->by : pe::ColorBy{};
    const bool computed = colors_ && static_cast<std::int64_t>(colors_->values.size()) == n;
    pe::ColorByKind kind = by.kind;
    if ((kind == pe::ColorByKind::Error && !nearestDone_) ||
        (kind != pe::ColorByKind::Error && kind != pe::ColorByKind::Position && !computed))
        kind = pe::ColorByKind::Position; // drawn by position until the colouring is ready
    const std::vector<double> values = colorValues();
    double lo = values.empty() ? 0.0 : values.front(), hi = lo;
    for (double v : values)
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    const bool labels = kind == pe::ColorByKind::Labels;
    QCPColorGradient gradient;
    QCPRange range(lo, std::max(hi, lo + 1.0));
    QString label;
    QSharedPointer<QCPAxisTicker> ticker = QSharedPointer<QCPAxisTicker>::create();
    QCPAxis::ScaleType scaleType = QCPAxis::stLinear;
    switch (kind) {
    case pe::ColorByKind::Position:
        gradient = colormaps::gradient(QStringLiteral("viridis"));
        range =
            QCPRange(static_cast<double>(shownStart_),
                     std::max(static_cast<double>(shownStart_ + std::max<std::int64_t>(n, 1) - 1), shownStart_ + 1.0));
        label = tr("position");
        break;
    case pe::ColorByKind::Phase: {
        gradient = colormaps::gradient(QStringLiteral("twilight"));
        range = QCPRange(0, 2 * std::numbers::pi);
        auto quarters = QSharedPointer<QCPAxisTickerText>::create();
        const double pi = std::numbers::pi;
        quarters->setTicks({0.0, pi / 2, pi, 3 * pi / 2, 2 * pi},
                           {QStringLiteral("0"), QStringLiteral("π/2"), QStringLiteral("π"), QStringLiteral("3π/2"),
                            QStringLiteral("2π")});
        ticker = quarters;
        const pe::Encoding &enc = *parameters()->sharedEncoding();
        // λ in positions: a decimal below 100 (2π is 6.3), whole and grouped above (62,832).
        const double lambda = by.index < enc.pairCount() ? enc.pairWavelength(by.index) : 0.0;
        label = tr("phase of pair %1: t·ω mod 2π (λ = %2)")
                    .arg(by.index)
                    .arg(!std::isfinite(lambda) || lambda > 1e15 ? QStringLiteral("∞")
                         : lambda < 100                          ? QString::number(lambda, 'f', 1)
                                        : QString::fromStdString(pe::withThousands(std::llround(lambda))));
        break;
    }
    case pe::ColorByKind::Norm:
        gradient = colormaps::gradient(QStringLiteral("viridis"));
        // A constant norm (the pure sinusoids' √(d/2)) gets a band about it, not a zero-width scale.
        range = hi - lo > 1e-9 * std::max(1.0, std::abs(hi)) ? QCPRange(lo, hi)
                                                             : QCPRange(lo - 0.5 * std::max(1e-3, std::abs(lo) * 1e-3),
                                                                        hi + 0.5 * std::max(1e-3, std::abs(hi) * 1e-3));
        label = tr("‖x(t)‖, the vector's length");
        break;
    case pe::ColorByKind::Column: {
        gradient = colormaps::gradient(QStringLiteral("coolwarm"), true);
        const double m = std::max({std::abs(lo), std::abs(hi), 1e-12});
        range = QCPRange(-m, m);
        label = tr("column %1's value (±%2 = max |value|)").arg(by.index).arg(m, 0, 'g', 3);
        break;
    }
    case pe::ColorByKind::Error:
        gradient = colormaps::gradient(QStringLiteral("plasma"));
        scaleType = QCPAxis::stLogarithmic;
        ticker = QSharedPointer<QCPAxisTickerLog>::create();
        range = QCPRange(1, std::max(hi, 10.0));
        label = tr("|s − t|, s the nearest point drawn (1: a true neighbour)");
        break;
    case pe::ColorByKind::Labels: {
        // One level a label and one for the unlabelled (-1), each exactly its colour.
        const int k = static_cast<int>(colors_->names.size());
        gradient = QCPColorGradient();
        gradient.setColorStopAt(0, kUnlabelled);
        for (int i = 0; i < k; ++i)
            gradient.setColorStopAt(static_cast<double>(i + 1) / k, labelColor(i, k));
        gradient.setLevelCount(k + 1);
        range = QCPRange(-1, std::max(k - 1, 0));
        label = tr("label");
        break;
    }
    }
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    points_->setGradient(gradient);
    points_->setDataScaleType(scaleType);
    scale_->setDataScaleType(scaleType);
    if (scaleKind_ != kind) { // a new ticker only when the kind changes: spaceTicks tunes the one there
        scale_->axis()->setTicker(ticker);
        scaleKind_ = kind;
    }
    scale_->setDataRange(range);
    scale_->axis()->setLabel(label);
    // The labels have a legend, not a bar: the bar leaves the layout (hidden in it, it kept its room).
    const bool barPlaced = scale_->layout() != nullptr;
    if (labels && barPlaced) {
        content()->take(scale_);
        content()->simplify();
    } else if (!labels && !barPlaced) {
        int row = 0;
        for (int r = 0; r < content()->rowCount(); ++r)
            if (content()->hasElement(r, 0) && content()->element(r, 0) == p->axisRect())
                row = r;
        content()->addElement(row, 1, scale_);
    }
    scale_->setVisible(!labels);

    // The labels' legend: one entry a label, with how many points it has, and the unlabelled.
    QStringList entries;
    std::vector<QColor> colours;
    if (labels) {
        const int k = static_cast<int>(colors_->names.size());
        std::vector<std::int64_t> counts(static_cast<std::size_t>(k) + 1, 0);
        for (double v : values)
            ++counts[static_cast<std::size_t>(static_cast<int>(v) + 1)];
        for (int i = 0; i < k; ++i) {
            entries << tr("%1 (%2)")
                           .arg(QString::fromStdString(colors_->names[static_cast<std::size_t>(i)]))
                           .arg(QString::fromStdString(pe::withThousands(counts[static_cast<std::size_t>(i) + 1])));
            colours.push_back(labelColor(i, k));
        }
        if (counts[0] > 0) {
            entries << tr("unlabelled (%1)").arg(QString::fromStdString(pe::withThousands(counts[0])));
            colours.push_back(kUnlabelled);
        }
    }
    const std::size_t entriesBefore = legendEntries_.size();
    while (legendEntries_.size() > static_cast<std::size_t>(entries.size())) {
        p->removePlottable(legendEntries_.back());
        legendEntries_.pop_back();
    }
    while (legendEntries_.size() < static_cast<std::size_t>(entries.size())) {
        QCPGraph *g = addGraph();
        g->setLineStyle(QCPGraph::lsNone);
        g->addToLegend();
        legendEntries_.push_back(g);
    }
    for (std::size_t i = 0; i < legendEntries_.size(); ++i) {
        legendEntries_[i]->setName(entries[static_cast<int>(i)]);
        legendEntries_[i]->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDisc, colours[i], colours[i], 8 * lineScale()));
    }
    // Placed when the entries come or go, not at the next rebuild: they may arrive after it (the
    // labels are read on a worker, and an export waits for them after its rebuild). Not every
    // frame: placing re-lays the plot out.
    if (legendEntries_.size() != entriesBefore)
        placeLegend();
    wrapLegend();
}

void ProjectionView::raster()
{
    QCustomPlot *p = plot();
    // On a dark theme the first positions' near-black purple would vanish: the cloud sits on a
    // mid grey there, on which both ends of viridis stand out.
    // So does the phase's cyclic map on any theme: its ends are near white, its middle near black.
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    const bool twilight = scaleKind_ == pe::ColorByKind::Phase;
    p->axisRect()->setBackground(dark || twilight ? QBrush(QColor(128, 128, 134)) : QBrush(Qt::NoBrush));
    const std::int64_t n = shownCount();
    const QRect area = p->axisRect()->rect();
    const int w = std::clamp(static_cast<int>(std::lround(area.width() * pixelScale())), 1, 8192);
    const int h = std::clamp(static_cast<int>(std::lround(area.height() * pixelScale())), 1, 8192);
    const QCPRange kx = p->xAxis->range(), vy = p->yAxis->range();
    QCPColorMapData *data = points_->data();
    if (data->keySize() != w || data->valueSize() != h)
        data->setSize(w, h);
    // Cell centres half a cell inside the axis range, so cells and pixels coincide.
    data->setRange(QCPRange(kx.lower + kx.size() / (2 * w), kx.upper - kx.size() / (2 * w)),
                   QCPRange(vy.lower + vy.size() / (2 * h), vy.upper - vy.size() / (2 * h)));
    data->fill(std::numeric_limits<double>::quiet_NaN());
    rasterWidth_ = w;
    rasterHeight_ = h;
    pixelIndex_.assign(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), -1);
    // Dots shrink as points multiply, so a cloud of 100,000 still shows its structure.
    const double radius = (n <= 500 ? 3.5 : n <= 5000 ? 2.2 : n <= 20000 ? 1.5 : 0.8) * pixelScale() * lineScale();
    const int r = static_cast<int>(std::ceil(radius));
    std::vector<std::pair<int, int>> disc;
    for (int dy = -r; dy <= r; ++dy)
        for (int dx = -r; dx <= r; ++dx)
            if (dx * dx + dy * dy <= radius * radius + 0.25)
                disc.emplace_back(dx, dy);
    const std::vector<double> values = colorValues();
    const double *xy = planar();
    // 3-D: far to near, a nearer point covering a farther one.
    const bool ordered = shown_.dims == 3 && static_cast<std::int64_t>(drawOrder_.size()) == n;
    if (shown_.dims == 3 && static_cast<std::int64_t>(screen_.size()) != 2 * n)
        return; // a 3-D frame not yet seen from its angle (draw() does, then rasters)
    for (std::int64_t k = 0; k < n; ++k) {
        const std::int64_t i = ordered ? drawOrder_[static_cast<std::size_t>(k)] : k;
        const double fx = (xy[2 * i] - kx.lower) / kx.size() * w;
        const double fy = (xy[2 * i + 1] - vy.lower) / vy.size() * h;
        if (!(fx > -r - 1 && fx < w + r + 1 && fy > -r - 1 && fy < h + r + 1))
            continue;
        const int cx = static_cast<int>(std::floor(fx)), cy = static_cast<int>(std::floor(fy));
        const double value = values[static_cast<std::size_t>(i)];
        for (auto [dx, dy] : disc) {
            const int x = cx + dx, y = cy + dy;
            if (x < 0 || x >= w || y < 0 || y >= h)
                continue;
            data->setCell(x, y, value);
            pixelIndex_[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)] =
                static_cast<std::int32_t>(i);
        }
    }
    p->replot(QCustomPlot::rpQueuedReplot);
}

void ProjectionView::changeEvent(QEvent *event)
{
    PlotView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        raster();
}

std::int64_t ProjectionView::positionAt(QPointF pixel) const
{
    if (pixelIndex_.empty())
        return -1;
    const QCustomPlot *p = plot();
    const QCPRange kx = p->xAxis->range(), vy = p->yAxis->range();
    const double fx = (p->xAxis->pixelToCoord(pixel.x()) - kx.lower) / kx.size() * rasterWidth_;
    const double fy = (p->yAxis->pixelToCoord(pixel.y()) - vy.lower) / vy.size() * rasterHeight_;
    const int cx = static_cast<int>(std::floor(fx)), cy = static_cast<int>(std::floor(fy));
    const int reach = static_cast<int>(std::ceil(4 * pixelScale()));
    std::int32_t best = -1;
    int bestD = std::numeric_limits<int>::max();
    for (int dy = -reach; dy <= reach; ++dy)
        for (int dx = -reach; dx <= reach; ++dx) {
            const int x = cx + dx, y = cy + dy;
            if (x < 0 || x >= rasterWidth_ || y < 0 || y >= rasterHeight_)
                continue;
            const std::int32_t i = pixelIndex_[static_cast<std::size_t>(y) * static_cast<std::size_t>(rasterWidth_) +
                                               static_cast<std::size_t>(x)];
            if (i >= 0 && dx * dx + dy * dy < bestD) {
                bestD = dx * dx + dy * dy;
                best = i;
            }
        }
    return best < 0 ? -1 : shownStart_ + best;
}

QString ProjectionView::tooltipAt(QPointF pixel) const
{
    const std::int64_t t = positionAt(pixel);
    if (t < 0)
        return {};
    const auto i = static_cast<std::size_t>(t - shownStart_);
    const auto dims = static_cast<std::size_t>(shown_.dims);
    QStringList coords;
    for (std::size_t c = 0; c < dims; ++c)
        coords << QString::number(shown_.coords[dims * i + c], 'g', 4);
    return tr("position %1\n(%2)").arg(t).arg(coords.join(QStringLiteral(", ")));
}

std::int64_t ProjectionView::heldValues() const
{
    return static_cast<std::int64_t>(shown_.coords.size() + screen_.size() + depth_.size() + drawOrder_.size()) +
           static_cast<std::int64_t>(pixelIndex_.size()) * 2;
}

std::optional<pe::Table> ProjectionView::dataTable() const
{
    // The coordinates on screen: the frame shown, finished or not.
    if (shown_.coords.empty() || stale_)
        return std::nullopt;
    // With the colouring's column when it is drawn (not while it is computed, nor refused).
    const pe::ColorBy by = colorKey_ ? colorKey_->by : pe::ColorBy{};
    pe::PointColors drawn;
    drawn.by = by;
    drawn.header = pe::colorColumnHeader(by);
    if (by.kind == pe::ColorByKind::Error && nearestDone_)
        drawn.values = nearest_;
    else if (by.kind != pe::ColorByKind::Error && colors_ &&
             static_cast<std::int64_t>(colors_->values.size()) == shown_.size())
        drawn.values = colors_->values;
    else
        drawn.by = {};
    return pe::coordinateTable(shownStart_, shown_.coords, shown_.dims, &drawn);
}
