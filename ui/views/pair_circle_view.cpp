#include "views/pair_circle_view.h"

#include "analysis/reduction.h"
#include "figures/color_maps.h"
#include "figures/pair_choice_edit.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/view_state.h"
#include "support/parallel.h"

#include <qcustomplot.h>

#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QSpinBox>

#include <cmath>
#include <numbers>

// Points coloured one by one: a QCPGraph has one colour, and a graph per colour would not scale.
class PositionDots : public QCPLayerable
{
  public:
    PositionDots(QCPAxisRect *rect)
        : QCPLayerable(rect->parentPlot(), QStringLiteral("main"), rect)
        , rect_(rect)
    {
    }

    std::vector<double> x, y, position;
    QCPColorGradient gradient;
    QCPRange range;
    double size = 5;
    // The dots sit on the centres of the raster's pixels (pixelScale() of them a logical pixel): on
    // a raster device they are stamped into one image (a disc's coverage worked out once), not
    // drawn one ellipse each (at 1,000,000 positions some 9,000 ellipses were a third of a step).
    double onPixels = 0;

  protected:
    QRect clipRect() const override { return rect_->rect(); }
    void applyDefaultAntialiasingHint(QCPPainter *painter) const override
    {
        applyAntialiasingHint(painter, true, QCP::aeScatters);
    }
    void draw(QCPPainter *painter) override
    {
        QCPAxis *kx = rect_->axis(QCPAxis::atBottom);
        QCPAxis *ky = rect_->axis(QCPAxis::atLeft);
        // On a dark background viridis' first colours (near-black purple) would vanish: large dots
        // get a light rim there.
        const QPalette pal = parentPlot()->palette();
        QColor rim = pal.color(QPalette::WindowText);
        rim.setAlphaF(0.55);
        const bool dark = pal.color(QPalette::Base).lightness() < 128;
        const bool rimmed = dark && size > 3;
        if (onPixels > 0 && !rimmed && !painter->modes().testFlag(QCPPainter::pmVectorized)) {
            stamp(painter, kx, ky);
            return;
        }
        painter->setPen(rimmed ? QPen(rim, 1.0) : QPen(Qt::NoPen));
        for (std::size_t k = 0; k < x.size(); ++k) {
            painter->setBrush(QColor::fromRgb(gradient.color(position[k], range)));
            painter->drawEllipse(QPointF(kx->coordToPixel(x[k]), ky->coordToPixel(y[k])), size / 2, size / 2);
        }
    }

  private:
    // Every dot's disc (diameter size, in logical pixels) blended source-over into an image of the
    // axis rect at onPixels device pixels a logical one, in the dots' order, then drawn once.
    void stamp(QCPPainter *painter, QCPAxis *kx, QCPAxis *ky)
    {
        const QRect r = rect_->rect();
        const double s = onPixels;
        const int w = std::max(1, static_cast<int>(std::ceil(r.width() * s)));
        const int h = std::max(1, static_cast<int>(std::ceil(r.height() * s)));
        // The disc's coverage of each pixel around the centre one, 8 x 8 samples a pixel.
        const double radius = size * s / 2;
        const int reach = static_cast<int>(std::ceil(radius - 0.5));
        const int side = 2 * reach + 1;
        std::vector<float> cover(static_cast<std::size_t>(side * side), 0.0f);
        for (int dy = -reach; dy <= reach; ++dy)
            for (int dx = -reach; dx <= reach; ++dx) {
                int inside = 0;
                for (int sy = 0; sy < 8; ++sy)
                    for (int sx = 0; sx < 8; ++sx) {
                        const double px = dx - 0.5 + (sx + 0.5) / 8, py = dy - 0.5 + (sy + 0.5) / 8;
                        inside += px * px + py * py <= radius * radius;
                    }
                cover[static_cast<std::size_t>((dy + reach) * side + dx + reach)] = static_cast<float>(inside / 64.0);
            }
        QImage image(w, h, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        for (std::size_t k = 0; k < x.size(); ++k) {
            const int cx = static_cast<int>(std::floor((kx->coordToPixel(x[k]) - r.left()) * s));
            const int cy = static_cast<int>(std::floor((ky->coordToPixel(y[k]) - r.top()) * s));
            const QRgb colour = gradient.color(position[k], range);
            for (int dy = -reach; dy <= reach; ++dy) {
                const int py = cy + dy;
                if (py < 0 || py >= h)
                    continue;
                auto *line = reinterpret_cast<QRgb *>(image.scanLine(py));
                for (int dx = -reach; dx <= reach; ++dx) {
                    const int px = cx + dx;
                    const float a = cover[static_cast<std::size_t>((dy + reach) * side + dx + reach)];
                    if (px < 0 || px >= w || a <= 0)
                        continue;
                    const QRgb d = line[px];
                    const auto mix = [a](int src, int dst) {
                        return static_cast<int>(std::lround(src * a + dst * (1.0f - a)));
                    };
                    line[px] = qRgba(mix(qRed(colour), qRed(d)), mix(qGreen(colour), qGreen(d)),
                                     mix(qBlue(colour), qBlue(d)), mix(255, qAlpha(d)));
                }
            }
        }
        painter->drawImage(QRectF(r), image);
    }

    QCPAxisRect *rect_;
};

PairCircleView::PairCircleView(Parameters *parameters, QWidget *parent)
    : PlotView(parameters, parent)
    , pairsSpin_(new QSpinBox(this))
    , pairChoice_(new PairChoiceEdit(QStringLiteral("circlePairChoice"), this))
{
    setObjectName(QStringLiteral("pairCircleView"));
    usePositionLayer(); // the markers
    pairsSpin_->setObjectName(QStringLiteral("circlePairs"));
    pairsSpin_->setToolTip(tr("How many pairs (article 0 shows 9 in a 3 x 3 grid), chosen by the field beside"));
    toolRow()->addWidget(new QLabel(tr("Pairs:"), this));
    toolRow()->addWidget(pairsSpin_);
    toolRow()->addWidget(pairChoice_);
    toolRow()->addStretch(1);

    QCustomPlot *p = plot();
    title_ = addTitle();
    scale_ = new QCPColorScale(p);
    scale_->setType(QCPAxis::atRight);
    scale_->axis()->setLabel(tr("position t"));
    scale_->setGradient(colormaps::gradient(QStringLiteral("viridis")));
    connect(p, &QCustomPlot::afterLayout, this, &PairCircleView::fitEqualAxes);
}

void PairCircleView::setShownPairs(int pairs)
{
    applySettings({{QStringLiteral("circlePairs"), pairs}});
}
void PairCircleView::setPairChoice(const pe::PairChoice &choice)
{
    applySettings({{QStringLiteral("circlePairChoice"), QString::fromStdString(pe::pairChoiceText(choice))}});
}

void PairCircleView::buildGrid(int pairs)
{
    QCustomPlot *p = plot();
    if (static_cast<int>(rects_.size()) == pairs)
        return;
    // The dots and markers belong to the plot, not to their rects: remove them with the old grid.
    for (PositionDots *d : dots_)
        delete d;
    for (QCPGraph *g : markers_)
        p->removeGraph(g);
    // Row 1 of the plot layout holds a grid of axis rects; the colour scale sits to its right.
    auto *grid = new QCPLayoutGrid;
    QCPLayoutElement *old = content()->element(0, 0);
    if (content()->hasElement(0, 1))
        content()->take(scale_);
    content()->remove(old); // the default axis rect or the previous grid, with its layerables
    content()->simplify();
    content()->addElement(0, 0, grid);
    content()->addElement(0, 1, scale_);
    content()->setColumnStretchFactor(1, 0.01);
    rects_.clear();
    dots_.clear();
    markers_.clear();
    const int cols = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(pairs))));
    for (int i = 0; i < pairs; ++i) {
        auto *rect = new QCPAxisRect(p);
        grid->addElement(i / cols, i % cols, rect);
        rect->setupFullAxesBox(true);
        for (QCPAxis *axis : rect->axes()) {
            axis->setRange(-1.25, 1.25);
            axis->grid()->setPen(QPen(QColor(220, 220, 220), 1, Qt::DotLine));
        }
        rect->axis(QCPAxis::atTop)->setTickLabels(false);
        rect->axis(QCPAxis::atRight)->setTickLabels(false);
        rect->axis(QCPAxis::atTop)->setTicks(false);
        rect->axis(QCPAxis::atRight)->setTicks(false);
        auto *dots = new PositionDots(rect);
        QCPGraph *marker = addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        marker->setLineStyle(QCPGraph::lsNone);
        marker->setLayer(QStringLiteral("overlay")); // moved alone by playback
        rects_.push_back(rect);
        dots_.push_back(dots);
        markers_.push_back(marker);
    }
}

void PairCircleView::rebuild()
{
    const pe::Encoding &enc = parameters()->encoding();
    const pe::EncodingParams &p = enc.params();
    const int count = std::min(state().integer(QStringLiteral("circlePairs")), enc.pairCount());
    pairs_ = pe::choosePairs(PairChoiceEdit::choiceOf(state().text(QStringLiteral("circlePairChoice"))),
                             enc.pairCount(), count);
    const bool noneListed = pairs_.empty();
    if (noneListed)
        pairs_ = pe::choosePairs(pe::PairChoice{}, enc.pairCount(), count);
    const int shown = static_cast<int>(pairs_.size());
    radius_.clear();
    for (int pair : pairs_)
        radius_.push_back(pe::pairRadius(enc, pair));
    buildGrid(shown);
    applyFonts(); // new rects: their labels' size shapes the layout the raster is drawn for

    rasterised_ = p.seqLen > kMaxDots;
    // The dots' colours are the position's over the colour bar's range: --vmin and --vmax given
    // apply to the dots as to the bar (PlotView::applyColourLimits keeps the bar at this range).
    const ColourRange limited =
        limitedColourRange(static_cast<double>(p.startPos),
                           static_cast<double>(std::max<std::int64_t>(p.startPos + p.seqLen - 1, p.startPos + 1)),
                           colourLimits(state().values()));
    const QCPRange range(limited.low, limited.high);
    const QCPColorGradient gradient = colormaps::gradient(QStringLiteral("viridis"));
    scale_->setDataRange(range);
    // Small circles (a small export, many pairs) keep their circles and a short label, not the
    // tick numbers and axis names that would run into each other.
    const int gridCols = std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(shown)))));
    const int gridRows = std::max(1, (shown + gridCols - 1) / gridCols);
    const QRect viewport = layoutArea();
    const double cellSide = std::min(0.85 * viewport.width() / gridCols, 0.8 * viewport.height() / gridRows);
    const bool compact = cellSide < 170 * fontScale();
    compact_ = compact;
    // Labels and title first: they shape the layout the raster is drawn for.
    for (int i = 0; i < shown; ++i) {
        const int pair = pairs_[static_cast<std::size_t>(i)];
        const int sj = enc.pairSineColumn(pair);
        const int cj = enc.pairCosineColumn(pair);
        QCPAxisRect *rect = rects_[i];
        const QString lambda = QString::fromStdString(pe::wavelengthText(enc.pairWavelength(pair)));
        QString label;
        if (enc.hasFrequencies())
            label = compact ? tr("%1 · λ %2").arg(pair).arg(lambda) : tr("pair %1  ·  λ = %2").arg(pair).arg(lambda);
        else // each plot at its own pair's scale, stated
            label = compact ? tr("%1 · r ≤ %2").arg(pair).arg(radius_[static_cast<std::size_t>(i)], 0, 'g', 2)
                            : tr("pair %1  ·  largest radius %2")
                                  .arg(pair)
                                  .arg(radius_[static_cast<std::size_t>(i)], 0, 'g', 3);
        // Lecture fonts in a small window: a label wider than its column would run into the next
        // one's, so it loses the pair's number first (its columns are under the plot), then is elided.
        const QFontMetricsF metrics(rect->axis(QCPAxis::atTop)->labelFont());
        const double column = 0.8 * viewport.width() / gridCols; // the colour scale and gaps take the rest
        if (compact && metrics.horizontalAdvance(label) > column)
            label = enc.hasFrequencies() ? tr("λ %1").arg(lambda)
                                         : tr("r ≤ %1").arg(radius_[static_cast<std::size_t>(i)], 0, 'g', 2);
        rect->axis(QCPAxis::atTop)->setLabel(metrics.elidedText(label, Qt::ElideRight, column));
        rect->axis(QCPAxis::atBottom)
            ->setLabel(compact ? QString() : (enc.hasFrequencies() ? tr("PE[t, %1] (sin)") : tr("PE[t, %1]")).arg(sj));
        rect->axis(QCPAxis::atLeft)
            ->setLabel(compact   ? QString()
                       : cj >= 0 ? (enc.hasFrequencies() ? tr("PE[t, %1] (cos)") : tr("PE[t, %1]")).arg(cj)
                                 : tr("(no cosine partner)"));
        for (auto side : {QCPAxis::atBottom, QCPAxis::atLeft}) {
            rect->axis(side)->setTickLabels(!compact);
            rect->axis(side)->setSubTicks(!compact);
        }
        // Without tick labels no corner label needs QCustomPlot's least margin (15 px a side,
        // PlotView's in proportion to the type): a compact circle keeps a few points.
        if (compact) {
            const int m = std::max(1, static_cast<int>(std::lround(3 * fontScale())));
            rect->setMinimumMargins(QMargins(m, m, m, m));
        }
    }
    QStringList title{
        enc.hasFrequencies()
            ? tr("Each pair on its unit circle: (PE[t, sin], PE[t, cos]) for positions %1–%2")
                  .arg(p.startPos)
                  .arg(p.startPos + p.seqLen - 1)
            : tr("Each pair of %1: (PE[t, 2i], PE[t, 2i+1]) for positions %2–%3, each plot at its largest radius r")
                  .arg(QString::fromStdString(pe::tableName(p)))
                  .arg(p.startPos)
                  .arg(p.startPos + p.seqLen - 1),
        compact ? (enc.hasFrequencies() ? tr("colour = position; x = sin, y = cos")
                                        : tr("colour = position; x = PE[t, 2i], y = PE[t, 2i+1]"))
                : tr("colour = position")};
    if (shown < enc.pairCount())
        title << tr("%1 of %2 pairs: %3")
                     .arg(shown)
                     .arg(enc.pairCount())
                     .arg(PairChoiceEdit::titleText(
                         PairChoiceEdit::choiceOf(state().text(QStringLiteral("circlePairChoice"))), noneListed,
                         enc.hasFrequencies()));
    if (rasterised_)
        title << tr("every position drawn, a pixel coloured by the mean position of its points");
    setTitle(title_, title);
    if (rasterised_) {
        // The raster needs each circle's pixels: lay the grid out at the current size now.
        layOut();
        fitEqualAxes();
        rasterise(pairs_);
    }
    for (int i = 0; i < shown; ++i) {
        PositionDots *d = dots_[i];
        const int pair = pairs_[static_cast<std::size_t>(i)];
        d->gradient = gradient;
        d->range = range;
        if (rasterised_) {
            d->size = 1.6 * lineScale();
            d->onPixels = pixelScale();
            continue;
        }
        d->onPixels = 0;
        const int sj = enc.pairSineColumn(pair);
        const int cj = enc.pairCosineColumn(pair);
        const auto n = static_cast<std::size_t>(p.seqLen);
        d->x.resize(n);
        d->y.resize(n);
        d->position.resize(n);
        d->size = (compact ? 4.0 : 6.0) * lineScale();
        pe::Block b;
        b.firstPosition = p.startPos;
        b.rows = p.seqLen;
        b.firstColumn = sj;
        b.cols = 1;
        enc.fill(b, d->x.data());
        if (cj >= 0) {
            b.firstColumn = cj;
            enc.fill(b, d->y.data());
        } else {
            std::fill(d->y.begin(), d->y.end(), 0.0); // an unpartnered sine moves along the x axis
        }
        for (std::size_t k = 0; k < n; ++k)
            d->position[k] = static_cast<double>(p.startPos + static_cast<std::int64_t>(k));
    }
    dotCount_ = dots_.empty() ? 0 : static_cast<std::int64_t>(dots_.front()->x.size());
    positionMoved();
}

void PairCircleView::rasterise(const std::vector<int> &pairs) const
{
    // Every position lands on one device pixel of its circle (pe::rasterisePair); each lit pixel
    // becomes one dot at its centre, coloured by the mean position of its points. The pairs are
    // independent, so they share the cores.
    const pe::Encoding &enc = parameters()->encoding();
    const pe::EncodingParams &p = enc.params();
    const double s = pixelScale();
    std::vector<pe::PixelMap> maps(pairs.size());
    std::vector<QSize> sizes(pairs.size());
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const QRect r = rects_[static_cast<int>(i)]->rect();
        QCPAxis *kx = rects_[static_cast<int>(i)]->axis(QCPAxis::atBottom);
        QCPAxis *ky = rects_[static_cast<int>(i)]->axis(QCPAxis::atLeft);
        sizes[i] = QSize(static_cast<int>(std::ceil(r.width() * s)), static_cast<int>(std::ceil(r.height() * s)));
        maps[i] = {(kx->coordToPixel(1) - kx->coordToPixel(0)) * s, (kx->coordToPixel(0) - r.left()) * s,
                   (ky->coordToPixel(1) - ky->coordToPixel(0)) * s, (ky->coordToPixel(0) - r.top()) * s};
    }
    std::vector<pe::PairRaster> rasters(pairs.size());
    pe::parallelFor(static_cast<std::int64_t>(pairs.size()), [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i) {
            const auto k = static_cast<std::size_t>(i);
            rasters[k] =
                pe::rasterisePair(enc, pairs[k], p.startPos, p.seqLen, sizes[k].width(), sizes[k].height(), maps[k]);
        }
    });
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const pe::PairRaster &g = rasters[i];
        const QRect r = rects_[static_cast<int>(i)]->rect();
        QCPAxis *kx = rects_[static_cast<int>(i)]->axis(QCPAxis::atBottom);
        QCPAxis *ky = rects_[static_cast<int>(i)]->axis(QCPAxis::atLeft);
        PositionDots *dots = dots_[i];
        dots->x.clear();
        dots->y.clear();
        dots->position.clear();
        for (int py = 0; py < g.height; ++py)
            for (int px = 0; px < g.width; ++px) {
                const std::size_t at = static_cast<std::size_t>(py) * g.width + px;
                if (g.hits[at] == 0)
                    continue;
                dots->x.push_back(kx->pixelToCoord(r.left() + (px + 0.5) / s));
                dots->y.push_back(ky->pixelToCoord(r.top() + (py + 0.5) / s));
                dots->position.push_back(g.meanPosition(at, p.startPos));
            }
    }
}

std::vector<QPointF> PairCircleView::dotsOf(int k) const
{
    std::vector<QPointF> out;
    const PositionDots *d = dots_[static_cast<std::size_t>(k)];
    for (std::size_t i = 0; i < d->x.size(); ++i)
        out.emplace_back(d->x[i], d->y[i]);
    return out;
}

std::int64_t PairCircleView::heldValues() const
{
    std::int64_t n = PlotView::heldValues();
    for (const PositionDots *d : dots_)
        n += static_cast<std::int64_t>(d->x.size() + d->y.size() + d->position.size());
    return n;
}

QPointF PairCircleView::markerAt(int k) const
{
    const pe::Encoding &enc = parameters()->encoding();
    const int pair = k < static_cast<int>(pairs_.size()) ? pairs_[static_cast<std::size_t>(k)] : k;
    const double t = shownPosition(); // any real t: the marker glides along its circle
    const int cj = enc.pairCosineColumn(pair);
    return {enc.value(t, enc.pairSineColumn(pair)), cj >= 0 ? enc.value(t, cj) : 0.0};
}

void PairCircleView::positionMoved()
{
    for (std::size_t i = 0; i < markers_.size(); ++i) {
        const QPointF m = markerAt(static_cast<int>(i));
        markers_[i]->setData(QVector<double>{m.x()}, QVector<double>{m.y()}, true);
        markers_[i]->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle,
                                                     QPen(QColor(230, 20, 20), 2.5 * lineScale()), Qt::NoBrush,
                                                     (compact_ ? 9 : 14) * lineScale()));
    }
    replotPositionLayer();
}

void PairCircleView::fitEqualAxes()
{
    // The ticks were placed for the ranges the layout started with (QCustomPlot sets them up
    // before afterLayout): when the fit changes a range, they are placed again and the plots laid
    // out for their new labels, else an export (one layout) drew a table's +/-0.05 pair with the
    // unit circle's ticks at +/-0.5, off its axes.
    for (int pass = 0; pass < 3 && fitRanges(); ++pass) {
        spaceTicks();
        layOut();
    }
}

bool PairCircleView::fitRanges()
{
    bool changed = false;
    const auto set = [&changed](QCPAxis *axis, double half) {
        if (axis->range().lower != -half || axis->range().upper != half) {
            axis->setRange(-half, half);
            changed = true;
        }
    };
    // Equal axes: the longer side of each rect gets the wider range, so circles stay round.
    for (int i = 0; i < static_cast<int>(rects_.size()); ++i) {
        QCPAxisRect *rect = rects_[static_cast<std::size_t>(i)];
        const double w = rect->width(), h = rect->height();
        if (w <= 0 || h <= 0)
            continue;
        // A table's pairs are not unit circles: each plot at its pair's largest radius.
        const double r = i < static_cast<int>(radius_.size()) && radius_[static_cast<std::size_t>(i)] > 0
                             ? radius_[static_cast<std::size_t>(i)]
                             : 1.0;
        const double half = 1.25 * r;
        const double xHalf = w >= h ? half * w / h : half;
        const double yHalf = h >= w ? half * h / w : half;
        set(rect->axis(QCPAxis::atBottom), xHalf);
        set(rect->axis(QCPAxis::atTop), xHalf);
        set(rect->axis(QCPAxis::atLeft), yHalf);
        set(rect->axis(QCPAxis::atRight), yHalf);
    }
    return changed;
}

QString PairCircleView::tooltipAt(QPointF pixel) const
{
    for (std::size_t i = 0; i < rects_.size(); ++i) {
        if (!rects_[i]->rect().contains(pixel.toPoint()))
            continue;
        // The position whose dot is nearest the pointer.
        const PositionDots *d = dots_[i];
        QCPAxis *kx = rects_[i]->axis(QCPAxis::atBottom);
        QCPAxis *ky = rects_[i]->axis(QCPAxis::atLeft);
        double best = 1e300;
        std::size_t at = 0;
        for (std::size_t k = 0; k < d->x.size(); ++k) {
            const double dx = kx->coordToPixel(d->x[k]) - pixel.x(), dy = ky->coordToPixel(d->y[k]) - pixel.y();
            if (dx * dx + dy * dy < best) {
                best = dx * dx + dy * dy;
                at = k;
            }
        }
        const int pair = pairs_[i];
        if (d->x.empty() || best > 100)
            return tr("pair %1").arg(pair);
        return tr(rasterised_ ? "pair %1, mean position t = %2 of the points on this pixel\nsin = %3, cos = %4"
                              : "pair %1, position t = %2\nsin = %3, cos = %4")
            .arg(pair)
            .arg(static_cast<std::int64_t>(d->position[at]))
            .arg(d->x[at], 0, 'f', 4)
            .arg(d->y[at], 0, 'f', 4);
    }
    return {};
}
