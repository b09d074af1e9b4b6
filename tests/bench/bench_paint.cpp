// How the benchmarks wait for a change to reach the screen (bench_support.h).
#include "bench_support.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>

namespace bench {

bool PaintStamps::eventFilter(QObject *, QEvent *event)
{
    if (event->type() == QEvent::Paint)
        stamps.push_back(static_cast<double>(clock_.nsecsElapsed()) / 1e6);
    return false;
}

std::vector<double> stepsToPaint(QCustomPlot *plot, QWidget *shown, int steps, const std::function<bool(int)> &change,
                                 const std::function<void(int)> &missed)
{
    bool replotted = false;
    auto conn = QObject::connect(plot, &QCustomPlot::afterReplot, [&] { replotted = true; });
    // A paint alone ends a step only on a view that redraws its position's layer without a replot
    // (its overlay has a buffer): elsewhere a paint the step did not cause (a progress repaint)
    // would end it before its replot.
    const bool layerPaints = plot->layer(QStringLiteral("overlay"))->mode() == QCPLayer::lmBuffered;
    QElapsedTimer paintClock;
    paintClock.start();
    PaintStamps paints(paintClock);
    plot->installEventFilter(&paints);
    std::vector<double> ms;
    for (int i = 0; i < steps; ++i) {
        replotted = false;
        paints.stamps.clear();
        QElapsedTimer t;
        t.start();
        if (!change(i))
            continue;
        while (!replotted && (!layerPaints || paints.stamps.empty()) && t.elapsed() < 5000)
            QApplication::processEvents(QEventLoop::AllEvents);
        shown->repaint();
        ms.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        if (!replotted && (!layerPaints || paints.stamps.empty()) && missed)
            missed(i);
    }
    plot->removeEventFilter(&paints);
    QObject::disconnect(conn);
    return ms;
}

} // namespace bench
