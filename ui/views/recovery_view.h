#pragma once

#include "analysis/recovery.h"
#include "figures/plot_view.h"

class BackgroundJob;
class QTimer;
class QCPAxisRect;
class QCPItemStraightLine;
class QCPTextElement;

// Seed 001's last figure: every position predicted as argmax_s x_t . PE(s), against the truth,
// with the accuracy; beside it the accuracy against sigma (same seed, 300 evenly spaced
// positions at most). Computed on a worker thread: the window never waits for it.
class RecoveryView : public PlotView
{
    Q_OBJECT

  public:
    std::optional<pe::Table> dataTable() const override;
    explicit RecoveryView(Parameters *parameters, QWidget *parent = nullptr);

    // The last complete result; empty while the first is computed or when the window is too large.
    const pe::Recovery &recovery() const { return recovery_; }
    const std::vector<double> &sigmas() const { return sigmas_; }
    const std::vector<double> &accuracies() const { return accuracies_; }
    bool computing() const;
    // Blocks until the running computation is done and drawn.
    void finishWork() override;
    bool followsPosition() const override { return false; }

  protected:
    QList<QCPAxis *> positionAxes() const override;
    void rebuild() override;
    void positionMoved() override {}

  private:
    void draw();
    void launch();

    BackgroundJob *job_;
    QTimer *debounce_;
    QCPTextElement *title_;
    QCPAxisRect *curveRect_;
    QCPItemStraightLine *diagonal_;
    QCPItemStraightLine *sigmaLine_;
    pe::Recovery recovery_;
    std::vector<double> sigmas_;
    std::vector<double> accuracies_;
    QString problem_;
};
