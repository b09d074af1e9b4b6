#pragma once

#include <QMainWindow>

class ControlPanel;
class Parameters;
class PlotView;
class QTabWidget;

// Controls in a dock on the left, the registry's views as tabs in the middle, the formula of the
// current variant in the status bar. Views are created from viewRegistry(), so a new view needs
// no change here.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(Parameters *parameters, QWidget *parent = nullptr);

    ControlPanel *controlPanel() const { return controls_; }
    PlotView *view(const QString &id) const;
    PlotView *currentView() const;
    void showView(const QString &id);

    // Shows the window, waits for its first complete paint and saves it as PNG.
    bool saveFirstPaint(const QString &path, QString *error);

private:
    void exportFigure();
    void exportData(bool frequencies);
    void about();

    Parameters *parameters_;
    ControlPanel *controls_;
    QTabWidget *tabs_;
    std::vector<std::pair<QString, PlotView *>> views_;
};
