// The probe view's figure: the loss and accuracy curves, the confusion matrix and per-offset bars, the title.
#include "views/probe_view.h"

#include "views/probe_view_internal.h"

#include "figures/cell_labels.h"
#include "figures/color_maps.h"
#include "state/parameters.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

using namespace probe_view_internal;

namespace {

QString share(double v)
{
    return std::isfinite(v) ? QString::number(v, 'f', 3) : QStringLiteral("–");
}

} // namespace

void ProbeView::draw()
{
    QCustomPlot *p = plot();
    const pe::ProbeSettings s = probeSettings();
    const pe::ProbeResult &r = result_;
    QVector<double> epochs, loss, acc, held;
    for (const pe::ProbeEpoch &e : r.epochs) {
        epochs << e.epoch;
        loss << e.loss;
        acc << e.accuracy;
        held << e.heldOut;
    }
    p->graph(0)->setData(epochs, loss, true);
    p->graph(0)->setPen(curvePen(kLossColor, 1.8, epochs.size()));
    p->graph(1)->setData(epochs, acc, true);
    p->graph(1)->setPen(curvePen(kTrainColor, 1.8, epochs.size()));
    p->graph(2)->setData(epochs, held, true);
    p->graph(2)->setPen(curvePen(kHeldColor, 1.8, epochs.size()));
    const double lastEpoch = std::max(1, s.epochs);
    p->xAxis->setRange(0.5, lastEpoch + 0.5);
    accuracyRect_->axis(QCPAxis::atBottom)->setRange(0.5, lastEpoch + 0.5);
    if (!loss.isEmpty()) {
        const auto [lo, hi] = std::minmax_element(loss.begin(), loss.end());
        p->yAxis->setRange(std::max(1e-4, *lo * 0.8), std::max(*hi * 1.25, *lo * 2));
    } else {
        p->yAxis->setRange(0.01, 3);
    }
    atan2Line_->setVisible(r.atan2Applies);
    placeHorizontal(atan2Line_, r.atan2Applies ? r.atan2Accuracy : 0.0);
    atan2Line_->setPen(QPen(kAtanColor, 1.5 * lineScale(), Qt::DashLine));

    // Confusion: each true offset's row as shares of its pairs.
    const int rows = r.trueOffsets, cols = r.classes;
    confusionCells_.assign(static_cast<std::size_t>(std::max(0, rows * cols)), 0.0);
    if (!r.confusion.empty())
        for (int k = 0; k < rows; ++k) {
            double total = 0;
            for (int c = 0; c < cols; ++c)
                total += static_cast<double>(r.confusion[static_cast<std::size_t>(k * cols + c)]);
            for (int c = 0; c < cols; ++c)
                confusionCells_[static_cast<std::size_t>(k * cols + c)] =
                    total > 0 ? static_cast<double>(r.confusion[static_cast<std::size_t>(k * cols + c)]) / total : 0.0;
        }
    if (rows > 0 && cols > 0) {
        colormaps::fillColorMap(confusion_, rows, cols, 0, rows - 1, 0, cols - 1, false, [this, cols](int k, int c) {
            return confusionCells_[static_cast<std::size_t>(k * cols + c)];
        });
        pe::Block grid;
        grid.rows = rows;
        grid.cols = cols;
        confusionLabels_->setCells(&confusionCells_, grid, false);
        confusionRect_->axis(QCPAxis::atBottom)->setRange(-0.5, cols - 0.5);
        confusionRect_->axis(QCPAxis::atLeft)->setRange(-0.5, rows - 0.5);
    }
    confusion_->setVisible(!r.confusion.empty());

    // Per offset on the held-out pairs: the network against the atan2 decoder.
    QVector<double> ks, net, dec;
    for (int k = 0; k < cols; ++k) {
        ks << k;
        const auto at = [k](const std::vector<double> &v) {
            return k < static_cast<int>(v.size()) && std::isfinite(v[static_cast<std::size_t>(k)])
                       ? v[static_cast<std::size_t>(k)]
                       : 0.0;
        };
        net << at(r.heldOutByOffset);
        dec << at(r.atan2HeldOutByOffset);
    }
    networkBars_->setData(ks, net, true);
    atan2Bars_->setData(ks, dec, true);
    atan2Bars_->setVisible(r.atan2Applies);
    offsetRect_->axis(QCPAxis::atBottom)->setRange(-0.6, std::max(1, cols) - 0.4);

    const pe::EncodingParams &ep = parameters()->values();
    QStringList title;
    if (!problem_.isEmpty()) {
        title << tr("Distance probe not trained:") << problem_;
    } else {
        const pe::ProbeEpoch last = r.epochs.empty() ? pe::ProbeEpoch{} : r.epochs.back();
        title << tr("Article 2's distance probe: [x(t); x(t+k)] → %1 ReLU → %2 offsets, Adam %3, epoch %4 of %5%6")
                     .arg(s.hidden)
                     .arg(s.offsets)
                     .arg(QString::fromStdString(pe::compactNumber(s.learningRate)))
                     .arg(last.epoch)
                     .arg(s.epochs)
                     .arg(r.finished ? QString()
                          : paused_  ? tr(" (paused)")
                                     : tr(" (training…)"));
        QString line = tr("accuracy: training pairs (blue) %1").arg(share(last.accuracy));
        if (r.heldOutPairs > 0)
            line +=
                tr(", held out at positions ≥ %1 (orange) %2").arg(ep.startPos + s.trainBelow).arg(share(last.heldOut));
        else
            line += tr(", no held-out pairs (L = seq_len)");
        if (r.atan2Applies)
            line += tr("; atan2 decoder (green) %1 / %2").arg(share(r.atan2Accuracy), share(r.atan2HeldOut));
        if (r.atan2Applies && ep.exponent == pe::Exponent::Index)
            line += tr(" (atan2 assumes sin and cos of a pair share a frequency; the per-index exponent breaks that)");
        title << line;
        if (s.inputs == pe::ProbeInputs::AsWritten) {
            title
                << tr("As written: embeddings + pos_embeddings adds PE to itself (x = 2·PE, no semantic vectors), and "
                      "offsets %1 to %2 have no class of the %3, so they are never right")
                       .arg(s.offsets)
                       .arg(std::max<std::int64_t>(s.offsets, s.trainBelow - 1))
                       .arg(s.offsets);
        } else {
            title << tr("x = PE + semantic vectors uniform in [−%1, %1], every offset 0–%2 a class (the article's run "
                        "adds PE to itself and has 8 classes for offsets 0–9: preset seed002-as-written)")
                         .arg(s.semantic)
                         .arg(s.offsets - 1);
        }
    }
    setTitle(title_, title);
    plot()->replot(QCustomPlot::rpQueuedReplot);
}
