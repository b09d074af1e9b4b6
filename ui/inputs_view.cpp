#include "inputs_view.h"

#include "color_maps.h"
#include "integer_ticker.h"
#include "noise.h"
#include "parameters.h"

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
        y->setLabel(tr("dimension j"));
        if (k == 2)
            x->setLabel(tr("position t"));
        maps_[k] = new QCPColorMap(x, y);
        maps_[k]->setInterpolate(false);
        auto *scale = new QCPColorScale(p);
        content()->addElement(k, 1, scale);
        maps_[k]->setColorScale(scale);
        maps_[k]->setGradient(viridis); // after the scale, which would otherwise impose its own
        marks_[k] = addMarkerLine(QColor(230, 30, 30), rect);
    }
}

void InputsView::rebuild()
{
    const pe::Encoding &enc = parameters()->encoding();
    const pe::EncodingParams &p = enc.params();
    const pe::NoiseParams &noise = parameters()->noise();
    const QRect area = rects_[0]->rect();
    const auto posPixels = std::max<std::int64_t>(1, std::llround(area.width() * pixelScale()));
    const auto dimPixels = std::max<std::int64_t>(1, std::llround(area.height() * pixelScale()));
    pe::Block b;
    b.firstPosition = p.startPos;
    b.positionStep = (p.seqLen + posPixels - 1) / posPixels;
    b.rows = (p.seqLen + b.positionStep - 1) / b.positionStep;
    b.columnStep = static_cast<int>((p.dModel + dimPixels - 1) / dimPixels);
    b.cols = (p.dModel + b.columnStep - 1) / b.columnStep;
    std::vector<double> pe(static_cast<std::size_t>(b.size()));
    enc.fill(b, pe.data());
    const int rows = static_cast<int>(b.rows), cols = b.cols;
    for (int k = 0; k < 3; ++k) {
        QCPColorMapData *data = maps_[k]->data();
        const int nx = std::max(rows, 2), ny = std::max(cols, 2);
        if (data->keySize() != nx || data->valueSize() != ny)
            data->setSize(nx, ny);
        const double first = static_cast<double>(b.firstPosition);
        const double last = static_cast<double>(b.firstPosition + (b.rows - 1) * b.positionStep);
        const double lastDim = static_cast<double>((b.cols - 1) * b.columnStep);
        data->setRange(rows > 1 ? QCPRange(first, last) : QCPRange(first - 0.25, first + 0.25),
                       cols > 1 ? QCPRange(0, lastDim) : QCPRange(-0.25, 0.25));
        for (int r = 0; r < nx; ++r)
            for (int c = 0; c < ny; ++c) {
                const int rr = std::min(r, rows - 1), cc = std::min(c, cols - 1);
                const std::int64_t t = b.firstPosition + rr * b.positionStep;
                const int j = cc * b.columnStep;
                const double z = noise.active() ? noise.sigma * pe::standardNormal(noise.seed, t, j) : 0.0;
                const double v = pe[static_cast<std::size_t>(rr * cols + cc)];
                data->setCell(r, c, k == 0 ? z : k == 1 ? v : v + z);
            }
        maps_[k]->rescaleDataRange(true);
        if (k == 0 && !noise.active())
            maps_[k]->setDataRange(QCPRange(-1, 1));
        rects_[k]->axis(QCPAxis::atBottom)->setRange(static_cast<double>(p.startPos) - 0.5, static_cast<double>(p.startPos + p.seqLen) - 0.5);
        rects_[k]->axis(QCPAxis::atLeft)->setRange(-0.5, p.dModel - 0.5);
    }
    QStringList title{noise.active() ? tr("Seed 001's input, encoding and output: σ = %1, seed %2").arg(noise.sigma).arg(noise.seed)
                                     : tr("Seed 001's input, encoding and output: noise is off (tick noise: seed 001 uses σ = 0.5)")};
    if (b.positionStep > 1 || b.columnStep > 1)
        title << tr("(sampled: 1 in %1 positions, 1 in %2 dimensions)").arg(b.positionStep).arg(b.columnStep);
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
    plot()->replot(QCustomPlot::rpQueuedReplot);
}
