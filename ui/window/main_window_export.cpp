// MainWindow's exports: figures (one, all, to the clipboard), data tables written with progress, and the animation.
#include "window/main_window.h"

#include "window/animation_dialog.h"

#include "figures/background_job.h"

#include "export/data_export.h"
#include "figures/figure_export.h"
#include "figures/panel_figure.h"
#include "figures/plot_view.h"
#include "figures/workspace_views.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/workspace.h"
#include "window/export_dialog.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QClipboard>
#include <QEventLoop>
#include <QFileDialog>
#include <QInputDialog>
#include <QMessageBox>
#include <QProgressDialog>
#include <QStatusBar>
#include <QTabWidget>

#include <atomic>

void MainWindow::exportFigure()
{
    QStringList titles;
    for (const ViewInfo &info : viewRegistry())
        titles << info.title;
    const auto viewsOf = [this](const QList<int> &indices) {
        std::vector<PlotView *> views;
        for (int i : indices)
            views.push_back(views_[static_cast<std::size_t>(i)].second);
        return views;
    };
    const auto cannotDraw = [](const std::vector<PlotView *> &views) {
        for (PlotView *view : views)
            if (const QString why = view->cannotDraw(); !why.isEmpty())
                return why;
        return QString();
    };
    // The preview draws the window's own views of those tabs, as the export will.
    const auto preview = [&](const QList<int> &indices, const PanelGrid &grid, const FigureOptions &options,
                             double ratio, QString *note) {
        const std::vector<PlotView *> views = viewsOf(indices);
        if (!cannotDraw(views).isEmpty())
            return QImage();
        return views.size() == 1 ? figurePreview(views.front(), options, ratio, note)
                                 : panelPreview(views, options, grid, ratio, note);
    };
    ExportDialog dialog(titles, tabs_->currentIndex(), currentView()->plot()->size(), preview, this);
    while (dialog.exec() == QDialog::Accepted) {
        QString error;
        QApplication::setOverrideCursor(Qt::WaitCursor);
        const QList<int> panels = dialog.panelViews();
        const std::vector<PlotView *> views = viewsOf(panels.isEmpty() ? QList<int>{dialog.viewIndex()} : panels);
        bool ok = false;
        if (views.size() == 1) {
            PlotView *view = views.front();
            const FigureOptions fitted =
                view->cannotDraw().isEmpty() ? fitFigure(view, dialog.options(), &error) : dialog.options();
            ok = error.isEmpty() && ::exportFigure(view, dialog.path(), fitted, &error);
        } else {
            std::vector<PanelPlacement> placed; // measured once, while the type is fitted
            const FigureOptions fitted = cannotDraw(views).isEmpty()
                                             ? fitPanels(views, dialog.options(), dialog.grid(), &error, &placed)
                                             : dialog.options(); // exportPanels says why
            ok = error.isEmpty() && exportPanels(views, dialog.path(), fitted, dialog.grid(), &error, placed);
        }
        QApplication::restoreOverrideCursor();
        if (ok) {
            statusBar()->showMessage(tr("Saved %1").arg(dialog.path()), 5000);
            return;
        }
        QMessageBox::warning(this, tr("Export figure"), tr("The figure was not saved: %1").arg(error));
    }
}

void MainWindow::copyFigure()
{
    PlotView *v = currentView();
    // A view that cannot draw these parameters (another scheme's, the projection's limits) has no
    // figure to copy: say why, as File > Export figure does.
    if (const QString why = v->cannotDraw(); !why.isEmpty()) {
        statusBar()->showMessage(tr("Nothing copied: %1").arg(why), 6000);
        return;
    }
    QApplication::clipboard()->setImage(v->render(v->plot()->size(), v->devicePixelRatioF()));
    statusBar()->showMessage(tr("Copied the figure"), 3000);
}

bool MainWindow::saveAllFigures(const QString &folder, FigureFormat format, const FigureOptions &options,
                                QString *error, QStringList *skipped)
{
    return figures_->saveAllFigures(folder, format, options, error, skipped);
}

void MainWindow::exportAllFigures()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Export all figures into"));
    if (folder.isEmpty())
        return;
    bool ok = false;
    const QString format =
        QInputDialog::getItem(this, tr("Export all figures"), tr("Format:"),
                              {QStringLiteral("PNG"), QStringLiteral("SVG"), QStringLiteral("PDF")}, 0, false, &ok);
    if (!ok)
        return;
    QString error;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const FigureFormat f = format == QLatin1String("SVG")   ? FigureFormat::Svg
                           : format == QLatin1String("PDF") ? FigureFormat::Pdf
                                                            : FigureFormat::Png;
    QStringList skipped;
    ok = saveAllFigures(folder, f, FigureOptions{QSize(1200, 800), 2.0}, &error, &skipped);
    QApplication::restoreOverrideCursor();
    report(ok, tr("Export all figures"), tr("Not every figure was saved: %1"), error,
           tr("Saved %1 figures in %2").arg(views_.size() - skipped.size()).arg(folder) +
               (skipped.isEmpty() ? QString() : tr("; not drawn: %1").arg(skipped.join(QStringLiteral("; ")))));
}

void MainWindow::exportData(bool frequencies)
{
    const QString path =
        QFileDialog::getSaveFileName(this, frequencies ? tr("Export frequency data") : tr("Export encoding data"),
                                     frequencies ? QStringLiteral("frequencies.csv") : QStringLiteral("encoding.npy"),
                                     tr("CSV (*.csv);;NumPy array (*.npy)"));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = saveData(path, frequencies, &error);
    report(ok, tr("Export data"), tr("The data was not saved: %1"), error, tr("Saved %1").arg(path));
}

bool MainWindow::saveData(const QString &path, bool frequencies, QString *errorText)
{
    const std::shared_ptr<const pe::Encoding> enc = parameters_->sharedEncoding();
    return writeTableWithProgress(path, frequencies ? pe::frequencyTable(*enc) : pe::encodingTable(*enc), errorText);
}

void MainWindow::exportViewData()
{
    const ViewInfo &info = viewRegistry()[static_cast<std::size_t>(tabs_->currentIndex())];
    if (!currentView()->dataTable()) {
        // The view's own reason (its registered export says why), else: nothing computed yet.
        QString why = info.exports.empty() ? tr("it has no data table") : tr("nothing is computed yet");
        if (!info.exports.empty() && info.exports.front().problem)
            if (const QString problem = info.exports.front().problem(currentView()->dataRequest()); !problem.isEmpty())
                why = problem;
        QMessageBox::information(
            this, tr("Export view data"),
            tr("The %1 view has no data to export here: %2 File > Export figure saves its picture.")
                .arg(info.title, why.endsWith(QLatin1Char('.')) ? why : why + QLatin1Char('.')));
        return;
    }
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export %1 data").arg(info.title), info.id + QStringLiteral(".csv"),
                                     tr("CSV (*.csv);;NumPy array (*.npy)"));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = saveViewData(path, &error);
    report(ok, tr("Export data"), tr("The data was not saved: %1"), error, tr("Saved %1").arg(path));
}

bool MainWindow::saveViewData(const QString &path, QString *errorText)
{
    // The table reads the encoding while it is written: kept alive until then.
    const std::shared_ptr<const pe::Encoding> enc = parameters_->sharedEncoding();
    const std::optional<pe::Table> table = currentView()->dataTable();
    if (!table) {
        *errorText = tr("this view has no data table for these parameters.");
        return false;
    }
    return writeTableWithProgress(path, *table, errorText);
}

bool MainWindow::writeTableWithProgress(const QString &path, const pe::Table &table, QString *errorText)
{
    const auto format = pe::dataFormatForPath(path.toStdString());
    if (!format) {
        *errorText = tr("the file name must end in .csv or .npy.");
        return false;
    }
    // A million rows of 4,096 values take minutes: written on a worker thread, with progress and
    // a Cancel button, while the window keeps painting. The tables' encoding is kept alive by
    // the caller; the dialog is modal, so nothing changes it meanwhile.
    QProgressDialog progress(tr("Writing %1…").arg(path), tr("Cancel"), 0, 1000, this);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(300);
    std::string error;
    bool ok = false;
    BackgroundJob job;
    QEventLoop loop; // quits when the job delivers, or at Cancel once the worker has stopped
    connect(&job, &BackgroundJob::finished, &loop, &QEventLoop::quit);
    connect(&progress, &QProgressDialog::canceled, &loop, [&] {
        job.cancel(); // the write sees it at its next block and removes its temporary file
        job.wait();
        error = "the export was cancelled; nothing was written.";
        loop.quit();
    });
    job.start([&table, &progress, &ok, &error, file = path.toStdString(), format = *format](
                  const std::atomic<bool> &cancel, const BackgroundJob::Post &post) -> std::function<void()> {
        std::string why;
        int shown = -1;
        const bool written = pe::writeTable(table, file, format, why, [&](double fraction) {
            const int value = static_cast<int>(fraction * 1000);
            if (value != shown) // at most 1,000 updates, whatever the number of blocks
                post([&progress, value] { progress.setValue(value); });
            shown = value;
            return !cancel.load();
        });
        return [&ok, &error, written, why] {
            ok = written;
            error = why;
        };
    });
    loop.exec();
    progress.reset();
    *errorText = QString::fromStdString(error);
    return ok;
}

bool MainWindow::writeAnimation(const QString &path, QSize size, int frames, std::int64_t step, int fps, QString *error,
                                const std::function<bool(int)> &progress, double fontPoints)
{
    PlotView *shown = currentView();
    if (const QString why = shown->cannotDraw(); !why.isEmpty()) {
        *error = why;
        return false;
    }
    // A copy of the state steps through the positions: the window stays where it is.
    Parameters state;
    if (const auto problem = state.setState(parameters_->values(), parameters_->noise())) {
        *error = QString::fromStdString(*problem);
        return false;
    }
    state.setRealPosition(parameters_->realPosition());
    Workspace offscreen(&state);
    WorkspaceViews figures(&offscreen);
    std::unique_ptr<PlotView> view = figures.offscreenView(shown->info().id);
    view->applySettings(shown->settings());
    FigureOptions options;
    options.size = size;
    options.fontPoints = fontPoints;
    if (const auto problem = checkFigureOptions(options)) {
        *error = *problem;
        return false;
    }
    *error = ::writeAnimation(view.get(), state, options, frames, step, fps, path, progress);
    return error->isEmpty();
}

void MainWindow::exportAnimation()
{
    const std::int64_t left = parameters_->values().startPos + parameters_->values().seqLen - parameters_->position();
    AnimationDialog dialog(currentView()->info().title, currentView()->info().id, left, currentView()->plot()->size(),
                           this);
    while (dialog.exec() == QDialog::Accepted) {
        if (const QString problem = dialog.problem(); !problem.isEmpty()) {
            QMessageBox::warning(this, tr("Export animation"), problem);
            continue;
        }
        QProgressDialog progress(tr("Drawing the frames…"), tr("Cancel"), 0, dialog.frames(), this);
        progress.setWindowModality(Qt::WindowModal);
        progress.setMinimumDuration(300);
        QString error;
        const bool ok = writeAnimation(
            dialog.path(), dialog.imageSize(), dialog.frames(), dialog.step(), dialog.fps(), &error,
            [&](int k) {
                progress.setValue(k);
                return !progress.wasCanceled();
            },
            dialog.fontPoints());
        progress.setValue(dialog.frames());
        if (ok) {
            statusBar()->showMessage(tr("Saved %1 (%2 frames)").arg(dialog.path()).arg(dialog.frames()), 5000);
            return;
        }
        if (progress.wasCanceled()) {
            statusBar()->showMessage(tr("Animation cancelled; nothing was written"), 5000);
            return;
        }
        QMessageBox::warning(this, tr("Export animation"), tr("The animation was not saved: %1").arg(error));
    }
}
