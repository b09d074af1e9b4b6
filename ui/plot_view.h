#pragma once

#include <QImage>
#include <QWidget>

class Parameters;
class QCPTextElement;
class QCustomPlot;
class QHBoxLayout;

// Base of every figure view: a tool row above a QCustomPlot. A view listens to Parameters and
// recomputes only when it is visible (or rendered for export), at the resolution it is drawn at.
// The window and the command line render figures through render(), so they never disagree.
class PlotView : public QWidget
{
    Q_OBJECT

public:
    PlotView(Parameters *parameters, QWidget *parent = nullptr);

    QCustomPlot *plot() const { return plot_; }
    Parameters *parameters() const { return parameters_; }

    // The figure alone (no tool row) at size logical pixels times scale.
    QImage render(QSize size, double scale);

    // Recomputes now if visible; otherwise on the next show or render.
    void refresh();

    // What the hover tooltip says at a pixel of the plot; empty for nothing.
    virtual QString tooltipAt(QPointF pixel) const;

signals:
    // After every recomputation; the window's tests and the benchmark wait on it.
    void rebuilt();

protected:
    // Fills the plot for the current parameters and the plot's current size; then replots.
    virtual void rebuild() = 0;
    // Device pixels per logical pixel of what is being drawn (screen or export).
    double pixelScale() const { return pixelScale_; }
    QHBoxLayout *toolRow() const { return toolRow_; }
    // Sets a title from its parts: on one line when it fits the plot's width, else one part a line.
    void setTitle(QCPTextElement *title, const QStringList &parts) const;
    // "1 position", "50 positions".
    static QString countText(std::int64_t n, const QString &one, const QString &many);

    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void rebuildNow();

    Parameters *parameters_;
    QCustomPlot *plot_;
    QHBoxLayout *toolRow_;
    double pixelScale_ = 1.0;
    bool dirty_ = true;
};
