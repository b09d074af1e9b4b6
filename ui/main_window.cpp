#include "main_window.h"

#include "control_panel.h"
#include "data_export.h"
#include "export_dialog.h"
#include "figure_export.h"
#include "parameters.h"
#include "plot_view.h"
#include "view_registry.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QTabWidget>
#include <QWindow>

MainWindow::MainWindow(Parameters *parameters, QWidget *parent)
    : QMainWindow(parent)
    , parameters_(parameters)
    , controls_(new ControlPanel(parameters, this))
    , tabs_(new QTabWidget(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Positional Encoding Explorer"));
    tabs_->setObjectName(QStringLiteral("views"));
    tabs_->setDocumentMode(true);
    for (const ViewInfo &info : viewRegistry()) {
        PlotView *v = info.create(parameters, tabs_);
        views_.emplace_back(info.id, v);
        tabs_->addTab(v, info.title);
    }
    setCentralWidget(tabs_);

    auto *dock = new QDockWidget(tr("Parameters"), this);
    dock->setObjectName(QStringLiteral("parametersDock"));
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    auto *scroll = new QScrollArea(dock);
    scroll->setWidget(controls_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(controls_->sizeHint().width() + scroll->verticalScrollBar()->sizeHint().width());
    dock->setWidget(scroll);
    addDockWidget(Qt::LeftDockWidgetArea, dock);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *exportAction = file->addAction(tr("&Export figure…"), this, &MainWindow::exportFigure);
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addAction(tr("Export encoding &data (CSV, NPY)…"), this, [this] { exportData(false); });
    file->addAction(tr("Export &frequency data (CSV, NPY)…"), this, [this] { exportData(true); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *viewMenu = menuBar()->addMenu(tr("&View"));
    for (std::size_t i = 0; i < views_.size(); ++i) {
        QAction *a = viewMenu->addAction(viewRegistry()[i].title, this, [this, i] { tabs_->setCurrentIndex(static_cast<int>(i)); });
        if (i < 9)
            a->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
    }
    viewMenu->addSeparator();
    viewMenu->addAction(dock->toggleViewAction());

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About"), this, &MainWindow::about);

    auto *formula = new QLabel(this);
    formula->setObjectName(QStringLiteral("statusFormula"));
    statusBar()->addWidget(formula, 1);
    auto showFormula = [this, formula] {
        const pe::EncodingParams &p = parameters_->values();
        formula->setText(tr("%1 × %2, positions %3–%4   |   %5")
                             .arg(p.seqLen)
                             .arg(p.dModel)
                             .arg(p.startPos)
                             .arg(p.startPos + p.seqLen - 1)
                             .arg(QString::fromStdString(pe::formulaText(p))));
    };
    connect(parameters_, &Parameters::changed, this, showFormula);
    showFormula();
    resize(1280, 800);
}

PlotView *MainWindow::view(const QString &id) const
{
    for (const auto &[viewId, v] : views_)
        if (viewId == id)
            return v;
    return nullptr;
}

PlotView *MainWindow::currentView() const { return static_cast<PlotView *>(tabs_->currentWidget()); }

void MainWindow::showView(const QString &id)
{
    if (PlotView *v = view(id))
        tabs_->setCurrentWidget(v);
}

void MainWindow::exportFigure()
{
    QStringList titles;
    for (const ViewInfo &info : viewRegistry())
        titles << info.title;
    ExportDialog dialog(titles, tabs_->currentIndex(), currentView()->plot()->size(), this);
    while (dialog.exec() == QDialog::Accepted) {
        QString error;
        QApplication::setOverrideCursor(Qt::WaitCursor);
        const bool ok = ::exportFigure(views_[static_cast<std::size_t>(dialog.viewIndex())].second, dialog.path(),
                                       dialog.options(), &error);
        QApplication::restoreOverrideCursor();
        if (ok) {
            statusBar()->showMessage(tr("Saved %1").arg(dialog.path()), 5000);
            return;
        }
        QMessageBox::warning(this, tr("Export figure"), tr("The figure was not saved: %1").arg(error));
    }
}

void MainWindow::exportData(bool frequencies)
{
    const QString path = QFileDialog::getSaveFileName(this, frequencies ? tr("Export frequency data") : tr("Export encoding data"),
                                                      frequencies ? QStringLiteral("frequencies.csv") : QStringLiteral("encoding.npy"),
                                                      tr("CSV (*.csv);;NumPy array (*.npy)"));
    if (path.isEmpty())
        return;
    const auto format = pe::dataFormatForPath(path.toStdString());
    if (!format) {
        QMessageBox::warning(this, tr("Export data"), tr("The file name must end in .csv or .npy."));
        return;
    }
    const pe::Encoding &enc = parameters_->encoding();
    std::string error;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const bool ok = pe::writeTable(frequencies ? pe::frequencyTable(enc) : pe::encodingTable(enc), path.toStdString(), *format, error);
    QApplication::restoreOverrideCursor();
    if (!ok)
        QMessageBox::warning(this, tr("Export data"), tr("The data was not saved: %1").arg(QString::fromStdString(error)));
    else
        statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
}

void MainWindow::about()
{
    QMessageBox::about(this, tr("About Positional Encoding Explorer"),
                       tr("<h3>Positional Encoding Explorer %1</h3>"
                          "<p>See how a transformer's sinusoidal positional encoding works: "
                          "PE(t,2i) = sin(t·w<sub>i</sub>), PE(t,2i+1) = cos(t·w<sub>i</sub>), "
                          "w<sub>i</sub> = base<sup>−2i/d</sup>.</p>"
                          "<p>Licence: GNU General Public License, version 3 or later. "
                          "Plots drawn with QCustomPlot (GPL).</p>")
                           .arg(QApplication::applicationVersion()));
}

bool MainWindow::saveFirstPaint(const QString &path, QString *error)
{
    show();
    QElapsedTimer timer;
    timer.start();
    while (!windowHandle() || !windowHandle()->isExposed()) {
        if (timer.elapsed() > 10000) {
            *error = tr("the window was not shown within 10 s.");
            return false;
        }
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    QApplication::processEvents();
    currentView()->plot()->replot(QCustomPlot::rpImmediateRefresh);
    return writePng(grab().toImage(), path, error);
}
