#include "views/inputs_view.h"

#include "encodings/noise.h"
#include "figures/color_maps.h"
#include "figures/integer_ticker.h"
#include "figures/vector_color_map.h"
#include "state/parameters.h"
#include "state/view_registry.h"

#include <qcustomplot.h>

#include <cmath>

InputsView::InputsView(Parameters *parameters, QWidget *parent)
    : PlotView(parameters, parent)
{
    setObjectName(QStringLiteral("inputsView"));
    QCustomPlot *p = plot();
    title_ = addTitle();
    const QString names[3] = {tr("Input σ·z"), tr("Positional encoding PE"), tr("Output x = PE + σ·z")};
    const QCPColorGradient viridis = colormaps::gradient(QStringLiteral("viridis"));
    // The three panels share their left and right edges: one position is one x on all of them,
    // whatever labels each has.
    auto *panels = new QCPMarginGroup(p);
    auto *scales = new QCPMarginGroup(p);
    for (int k = 0; k < 3; ++k) {
        QCPAxisRect *rect = k == 0 ? p->axisRect() : new QCPAxisRect(p);
        if (k > 0)
            content()->addElement(k, 0, rect);
        rects_[k] = rect;
        QCPAxis *x = rect->axis(QCPAxis::atBottom), *y = rect->axis(QCPAxis::atLeft);
        x->setTicker(QSharedPointer<IntegerTicker>::create());
        y->setTicker(QSharedPointer<IntegerTicker>::create());
        x->grid()->setVisible(false);
        y->grid()->setVisible(false);
        rect->axis(QCPAxis::atTop)->setVisible(true);
        rect->axis(QCPAxis::atTop)->setTicks(false);
        rect->axis(QCPAxis::atTop)->setTickLabels(false);
        rect->axis(QCPAxis::atTop)->setLabel(names[k]);
        if (k == 1) // one axis title for the three stacked panels: three would run into each other
            y->setLabel(tr("dimension j"));
        // One x axis for the three (matplotlib's sharex): numbers and title under the last.
        x->setTickLabels(k == 2);
        if (k == 2)
            x->setLabel(tr("position t"));
        maps_[k] = new VectorColorMap(x, y);
        maps_[k]->setInterpolate(false);
        auto *scale = new QCPColorScale(p);
        content()->addElement(k, 1, scale);
        maps_[k]->setColorScale(scale);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, panels);
        scale->setMarginGroup(QCP::msLeft | QCP::msRight, scales);
        maps_[k]->setGradient(viridis); // after the scale, which would otherwise impose its own
        marks_[k] = addMarkerLine(QColor(230, 30, 30), rect);
        marks_[k]->setLayer(QStringLiteral("overlay"));
    }
    // The three position lines are all that a position step moves: on the layer redrawn alone.
    usePositionLayer();
}

void InputsView::rebuild()
{
    const pe::Encoding &enc = parameters()->encoding();
    const pe::EncodingParams &p = enc.params();
    const pe::NoiseParams &noise = parameters()->noise();
    const QRect area = rects_[0]->rect();
    const auto posPixels = std::max<std::int64_t>(1, std::llround(area.width() * pixelScale()));
    const auto dimPixels = std::max<std::int64_t>(1, std::llround(area.height() * pixelScale()));
    const pe::Block b = pe::sampledBlock(p.layout, p.startPos, p.seqLen, posPixels, 0, p.dModel, dimPixels);
    // The three panels as the core computes them: sigma z, PE, and x = PE + sigma z.
    std::vector<double> panels[3];
    for (auto &panel : panels)
        panel.resize(static_cast<std::size_t>(b.size()));
    pe::fillNoise(noise, p.dModel, b, panels[0].data());
    enc.fill(b, panels[1].data());
    // PE + sigma z is fillEmbeddings' own sum, bit for bit (tst_similarity), without drawing z twice.
    for (std::size_t i = 0; i < panels[2].size(); ++i)
        panels[2][i] = panels[1][i] + panels[0][i];
    const int cols = b.cols;
    for (int k = 0; k < 3; ++k) {
        const std::vector<double> &values = panels[k];
        colormaps::fillColorMap(maps_[k], static_cast<int>(b.rows), cols, static_cast<double>(b.firstPosition),
                                static_cast<double>(b.firstPosition + (b.rows - 1) * b.positionStep), 0,
                                b.column(b.cols - 1), true,
                                [&](int r, int c) { return values[static_cast<std::size_t>(r * cols + c)]; });
        maps_[k]->rescaleDataRange(true);
        if (k == 0 && !noise.active())
            maps_[k]->setDataRange(QCPRange(-1, 1));
        rects_[k]
            ->axis(QCPAxis::atBottom)
            ->setRange(static_cast<double>(p.startPos) - 0.5, static_cast<double>(p.startPos + p.seqLen) - 0.5);
        rects_[k]->axis(QCPAxis::atLeft)->setRange(-0.5, p.dModel - 0.5);
    }
    QStringList title{
        noise.active()
            ? tr("Article 1's input, encoding and output: σ = %1, %2")
                  .arg(noise.sigma)
                  .arg(QString::fromStdString(pe::seedText(noise)))
            : tr("Article 1's input, encoding and output: noise is off (tick noise: article 1 uses σ = 0.5)")};
    if (b.sampled())
        title << QStringLiteral("(%1)").arg(QString::fromStdString(pe::samplingText(b, !p.table)));
    setTitle(title_, title);
    positionMoved();
}

void InputsView::positionMoved()
{
    const double t = static_cast<double>(parameters()->position());
    for (QCPItemStraightLine *m : marks_) {
        placeVertical(m, t);
        m->setPen(QPen(QColor(230, 30, 30), 1.5 * lineScale(), Qt::DashLine));
    }
    replotPositionLayer();
}

QList<QCPAxis *> InputsView::positionAxes() const
{
    return {rects_[0]->axis(QCPAxis::atBottom), rects_[1]->axis(QCPAxis::atBottom), rects_[2]->axis(QCPAxis::atBottom)};
}
