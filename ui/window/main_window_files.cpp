#include "window/main_window.h"

#include "encodings/position_table.h"

#include "figures/background_job.h"

#include "export/data_export.h"
#include "figures/figure_export.h"
#include "figures/gif_writer.h"
#include "figures/plot_view.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "window/export_dialog.h"
#include "window/workspace.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>
#include <QUrl>

#include <algorithm>
#include <atomic>

bool MainWindow::openTable(const QString &path, QString *error)
{
    std::shared_ptr<const pe::PositionTable> table;
    try {
        table = pe::PositionTable::open(path.toStdString());
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    // The whole table from its first row (up to seq_len's limit).
    pe::EncodingParams v = parameters_->values();
    v.startPos = 0;
    if (auto problem = parameters_->set(pe::tableParams(v, table))) {
        if (error)
            *error = QString::fromStdString(problem->message);
        return false;
    }
    return true;
}

void MainWindow::closeTable()
{
    pe::EncodingParams v = parameters_->values();
    v.table.reset();
    v.scheme = pe::SchemeId::Sinusoidal;
    v.seqLen = std::min<std::int64_t>(v.seqLen, 1000); // the sinusoids at the table's size, d_model kept
    parameters_->set(v);
}

void MainWindow::openTableDialog()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open position table"), QString(), tr("NumPy arrays (*.npy)"));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = openTable(path, &error);
    report(ok, tr("Open table"), tr("The table was not opened: %1"), error, tr("Opened %1").arg(path));
}

void MainWindow::addSessionMenus(QMenu *file)
{
    QAction *open = file->addAction(tr("&Open session…"), this, &MainWindow::openSessionDialog);
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &recent"));
    fillRecentMenu();
    QAction *save = file->addAction(tr("&Save session…"), this, &MainWindow::saveSessionDialog);
    save->setShortcut(QKeySequence::Save);
    save->setToolTip(tr("Every parameter and view setting as a JSON file; open it later, or drop it on the window"));
    file->addSeparator();
    QAction *table = file->addAction(tr("Open &table…"), this, &MainWindow::openTableDialog);
    table->setToolTip(tr("Show your own position table (a 2-D NumPy .npy array, rows = positions) with every view; or "
                         "drop it on the window"));
    closeTableAction_ = file->addAction(tr("&Close table (back to the sinusoids)"), this, &MainWindow::closeTable);
    closeTableAction_->setEnabled(false);
    connect(parameters_, &Parameters::changed, closeTableAction_,
            [this] { closeTableAction_->setEnabled(parameters_->values().table != nullptr); });
}

Session MainWindow::currentSession() const
{
    return workspace_->session(views_[static_cast<std::size_t>(tabs_->currentIndex())].first);
}

bool MainWindow::applySession(const Session &s, QString *error)
{
    if (!workspace_->applySession(s, error))
        return false;
    showView(s.view);
    if (second_)
        second_->applySettings(workspace_->viewSettings(second_->info().id));
    return true;
}

bool MainWindow::openSession(const QString &path, QString *error)
{
    const std::optional<Session> s = readSessionFile(path, error);
    if (!s || !applySession(*s, error))
        return false;
    sessionPath_ = path;
    rememberRecent(path);
    return true;
}

bool MainWindow::saveSession(const QString &path, QString *error)
{
    if (!writeSessionFile(path, currentSession(), error))
        return false;
    sessionPath_ = path;
    rememberRecent(path);
    return true;
}

QStringList MainWindow::recentSessions() const
{
    return QSettings().value(QStringLiteral("recentSessions")).toStringList();
}

QUndoStack *MainWindow::undoStack() const
{
    return workspace_->undoStack();
}

void MainWindow::rememberRecent(const QString &path)
{
    QStringList recent = recentSessions();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > 8)
        recent.removeLast();
    QSettings().setValue(QStringLiteral("recentSessions"), recent);
    fillRecentMenu();
}

void MainWindow::fillRecentMenu()
{
    recentMenu_->clear();
    const QStringList recent = recentSessions();
    for (const QString &path : recent)
        recentMenu_
            ->addAction(QFileInfo(path).fileName(), this,
                        [this, path] {
                            QString error;
                            const bool ok = openSession(path, &error);
                            report(ok, tr("Open session"), tr("The session was not opened: %1"), error,
                                   tr("Opened %1").arg(path));
                        })
            ->setToolTip(path);
    recentMenu_->setToolTipsVisible(true);
    recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::report(bool ok, const QString &title, const QString &failure, const QString &error,
                        const QString &success)
{
    if (ok)
        statusBar()->showMessage(success, 5000);
    else
        QMessageBox::warning(this, title, failure.arg(error));
}

void MainWindow::openSessionDialog()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open session"), sessionPath_, tr("Sessions (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = openSession(path, &error);
    report(ok, tr("Open session"), tr("The session was not opened: %1"), error, tr("Opened %1").arg(path));
}

void MainWindow::saveSessionDialog()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save session"), sessionPath_.isEmpty() ? QStringLiteral("session.json") : sessionPath_,
        tr("Sessions (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = saveSession(path, &error);
    report(ok, tr("Save session"), tr("The session was not saved: %1"), error, tr("Saved %1").arg(path));
}

void MainWindow::restoreLastState()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
    QString error;
    // A state this version cannot read is skipped: the window starts from its defaults.
    if (auto s = parseSession(settings.value(QStringLiteral("lastSession")).toByteArray(), &error))
        applySession(*s, &error);
    workspace_->undoStack()->clear();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (lectureMode())
        setLectureMode(false);
    QSettings settings;
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("windowState"), saveState());
    settings.setValue(QStringLiteral("lastSession"),
                      QJsonDocument(sessionToJson(currentSession())).toJson(QJsonDocument::Compact));
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() != 1 || !urls.first().isLocalFile())
        return;
    event->acceptProposedAction();
    QString error;
    const QString path = urls.first().toLocalFile();
    if (path.endsWith(QStringLiteral(".npy"), Qt::CaseInsensitive)) {
        const bool ok = openTable(path, &error);
        report(ok, tr("Open table"), tr("The dropped table was not opened: %1"), error, tr("Opened %1").arg(path));
        return;
    }
    const bool ok = openSession(urls.first().toLocalFile(), &error);
    report(ok, tr("Open session"), tr("The dropped file was not opened: %1"), error,
           tr("Opened %1").arg(urls.first().toLocalFile()));
}

void MainWindow::exportFigure()
{
    QStringList titles;
    for (const ViewInfo &info : viewRegistry())
        titles << info.title;
    // The preview draws the window's own view of that tab, as the export will.
    const auto preview = [this](int index, const FigureOptions &options, double ratio, QString *note) {
        PlotView *view = views_[static_cast<std::size_t>(index)].second;
        return view->cannotDraw().isEmpty() ? figurePreview(view, options, ratio, note) : QImage();
    };
    ExportDialog dialog(titles, tabs_->currentIndex(), currentView()->plot()->size(), preview, this);
    while (dialog.exec() == QDialog::Accepted) {
        QString error;
        QApplication::setOverrideCursor(Qt::WaitCursor);
        PlotView *view = views_[static_cast<std::size_t>(dialog.viewIndex())].second;
        const FigureOptions fitted =
            view->cannotDraw().isEmpty() ? fitFigure(view, dialog.options(), &error) : dialog.options();
        const bool ok = error.isEmpty() && ::exportFigure(view, dialog.path(), fitted, &error);
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
    return workspace_->saveAllFigures(folder, format, options, error, skipped);
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
                                const std::function<bool(int)> &progress)
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
    state.setPosition(parameters_->position());
    Workspace offscreen(&state);
    std::unique_ptr<PlotView> view = offscreen.offscreenView(shown->info().id);
    view->applySettings(shown->settings());
    FigureOptions options;
    options.size = size;
    if (const auto problem = checkFigureOptions(options)) {
        *error = *problem;
        return false;
    }
    *error = ::writeAnimation(view.get(), state, options, frames, step, fps, path, progress);
    return error->isEmpty();
}

void MainWindow::exportAnimation()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Export animation: %1").arg(currentView()->info().title));
    auto *form = new QFormLayout(&dialog);
    const std::int64_t left = parameters_->values().startPos + parameters_->values().seqLen - parameters_->position();
    auto *frames = new QSpinBox(&dialog);
    frames->setRange(1, 10000);
    frames->setValue(static_cast<int>(std::clamp<std::int64_t>(left, 1, 100)));
    frames->setToolTip(tr("Frames, one position step apart; past the window's end it slides along"));
    auto *step = new QSpinBox(&dialog);
    step->setRange(1, 1000000);
    step->setValue(1);
    auto *fps = new QSpinBox(&dialog);
    fps->setRange(1, GifWriter::kMaxFps);
    fps->setValue(10);
    auto *width = new QSpinBox(&dialog), *height = new QSpinBox(&dialog);
    for (QSpinBox *side : {width, height}) {
        side->setRange(figurelimits::minSide, 2000);
        side->setSuffix(tr(" px"));
    }
    width->setValue(std::clamp(currentView()->plot()->width(), figurelimits::minSide, 2000));
    height->setValue(std::clamp(currentView()->plot()->height(), figurelimits::minSide, 2000));
    auto *size = new QHBoxLayout;
    size->addWidget(width);
    size->addWidget(new QLabel(QStringLiteral("×"), &dialog));
    size->addWidget(height);
    auto *path = new QLineEdit(QDir::current().filePath(currentView()->info().id + QStringLiteral(".gif")), &dialog);
    auto *browse = new QPushButton(tr("Browse…"), &dialog);
    connect(browse, &QPushButton::clicked, &dialog, [&] {
        const QString chosen =
            QFileDialog::getSaveFileName(&dialog, tr("Export animation"), path->text(), tr("GIF animation (*.gif)"));
        if (!chosen.isEmpty())
            path->setText(chosen);
    });
    auto *file = new QHBoxLayout;
    file->addWidget(path, 1);
    file->addWidget(browse);
    form->addRow(tr("Frames:"), frames);
    form->addRow(tr("Positions a frame:"), step);
    form->addRow(tr("Frames a second:"), fps);
    form->addRow(tr("Size:"), size);
    form->addRow(tr("File (.gif):"), file);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    while (dialog.exec() == QDialog::Accepted) {
        if (!path->text().endsWith(QStringLiteral(".gif"), Qt::CaseInsensitive)) {
            QMessageBox::warning(this, tr("Export animation"), tr("The file name must end in .gif."));
            continue;
        }
        QProgressDialog progress(tr("Drawing the frames…"), tr("Cancel"), 0, frames->value(), this);
        progress.setWindowModality(Qt::WindowModal);
        progress.setMinimumDuration(300);
        QString error;
        const bool ok = writeAnimation(path->text(), QSize(width->value(), height->value()), frames->value(),
                                       step->value(), fps->value(), &error, [&](int k) {
                                           progress.setValue(k);
                                           return !progress.wasCanceled();
                                       });
        progress.setValue(frames->value());
        if (ok) {
            statusBar()->showMessage(tr("Saved %1 (%2 frames)").arg(path->text()).arg(frames->value()), 5000);
            return;
        }
        if (progress.wasCanceled()) {
            statusBar()->showMessage(tr("Animation cancelled; nothing was written"), 5000);
            return;
        }
        QMessageBox::warning(this, tr("Export animation"), tr("The animation was not saved: %1").arg(error));
    }
}
