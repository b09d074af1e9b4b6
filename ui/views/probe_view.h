#pragma once

#include "analysis/probe.h"
#include "figures/plot_view.h"

#include <memory>

class BackgroundJob;
class CellLabels;
class QCPAxisRect;
class QCPBars;
class QCPColorMap;
class QCPItemStraightLine;
class QCPTextElement;
class QPushButton;

// Seed 002's learned distance probe, trained live (core/probe.h): loss and accuracy per epoch on
// the training pairs and on held-out pairs past the training positions, a confusion matrix of
// predicted against true offset, and per offset how the network and the atan2 decoder do on the
// held-out pairs (seed 003's claim that sinusoids make extrapolation easy, put to the test).
// Training runs on a worker thread; any change of parameters or settings cancels it (between
// minibatches, a few milliseconds) and starts over. Train, Pause and Reset drive it by hand.
class ProbeView : public PlotView
{
    Q_OBJECT

  public:
    explicit ProbeView(Parameters *parameters, QWidget *parent = nullptr);
    ~ProbeView() override;

    pe::ProbeSettings probeSettings() const;
    const pe::ProbeResult &result() const { return result_; }
    bool training() const;
    // Threads of cancelled or running training: none once a cancel has been seen.
    int threadCount() const;
    void finishWork() override;
    bool followsPosition() const override { return false; }
    std::optional<pe::Table> dataTable() const override;

    void train();
    void pause();
    void reset();

  protected:
    void rebuild() override;
    void positionMoved() override {}

  private:
    void start();
    void draw();
    void updateButtons();

    BackgroundJob *job_;
    QPushButton *trainButton_;
    QPushButton *pauseButton_;
    QPushButton *resetButton_;
    QCPTextElement *title_;
    QCPAxisRect *accuracyRect_;
    QCPAxisRect *confusionRect_;
    QCPAxisRect *offsetRect_;
    QCPColorMap *confusion_;
    CellLabels *confusionLabels_;
    std::vector<double> confusionCells_;
    QCPBars *networkBars_;
    QCPBars *atan2Bars_;
    QCPItemStraightLine *atan2Line_;
    std::shared_ptr<pe::ProbeTrainer> trainer_;
    std::weak_ptr<const pe::Encoding> trainedFor_;
    pe::ProbeResult result_;
    QString problem_;
    bool paused_ = false;
};
