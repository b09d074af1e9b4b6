#include "main_window.h"

#include "position_table.h"

#include "background_job.h"
#include "values_table.h"

#include "control_panel.h"
#include "data_export.h"
#include "export_dialog.h"
#include "figure_export.h"
#include "parameters.h"
#include "playback.h"
#include "plot_view.h"
#include "view_registry.h"
#include "workspace.h"

#include <qcustomplot.h>

#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QJsonDocument>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QUndoStack>
#include <QUrl>
#include <QVBoxLayout>
#include <QWindow>

#include <atomic>

#include <cmath>

namespace {

// The digit key of the i-th view: 1 to 9, then 0 for the tenth, as on the keyboard's top row.
Qt::Key viewDigit(int i)
{
    return i < 9 ? static_cast<Qt::Key>(Qt::Key_1 + i) : Qt::Key_0;
}

} // namespace

MainWindow::MainWindow(Parameters *parameters, QWidget *parent)
    : QMainWindow(parent)
    , parameters_(parameters)
    , workspace_(new Workspace(parameters, this))
    , playback_(new Playback(parameters, this))
    , controls_(new ControlPanel(parameters, playback_, this))
    , dock_(new QDockWidget(tr("Parameters"), this))
    , stage_(new QSplitter(Qt::Horizontal, this))
    , tabs_(new QTabWidget(stage_))
    , hint_(new QLabel(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Positional Encoding Explorer"));
    tabs_->setObjectName(QStringLiteral("views"));
    tabs_->setDocumentMode(true);
    // Every view reachable at a glance: no scroll arrows; in a narrow window the titles elide.
    tabs_->setUsesScrollButtons(false);
    tabs_->setElideMode(Qt::ElideRight);
    for (const ViewInfo &info : viewRegistry()) {
        PlotView *v = info.create(parameters, tabs_);
        workspace_->attach(v);
        views_.emplace_back(info.id, v);
        tabs_->addTab(v, info.title);
    }
    stage_->setObjectName(QStringLiteral("stage"));
    stage_->addWidget(tabs_);
    stage_->setChildrenCollapsible(false);
    // A plot can draw in any size; without this a view's size hint (its tool row, its margins in
    // lecture type) would let one pane of two take most of the screen.
    tabs_->setMinimumSize(160, 120);
    // The lecture-mode key help is a row of its own below the views, never over a plot.
    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(stage_, 1);
    centralLayout->addWidget(hint_);
    setCentralWidget(central);
    connect(tabs_, &QTabWidget::currentChanged, this, [this](int index) {
        // Remember the view left behind: lecture mode's second pane shows it.
        previousView_ = views_[static_cast<std::size_t>(currentIndex_)].first;
        currentIndex_ = index;
    });

    auto *dock = dock_;
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
    file->addAction(tr("Export &all figures…"), this, &MainWindow::exportAllFigures)
        ->setToolTip(tr("Every view's figure into one folder, as PNG, SVG or PDF"));
    QAction *viewData = file->addAction(tr("Export &view data (CSV, NPY)…"), this, &MainWindow::exportViewData);
    viewData->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    viewData->setToolTip(
        tr("The numbers behind the current view: encoding, frequencies, similarity, recovery, distance "
           "matrix, projection coordinates"));
    file->addSeparator();
    addSessionMenus(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = workspace_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z));
    QAction *redo = workspace_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    QAction *copy = edit->addAction(tr("&Copy figure"), this, &MainWindow::copyFigure);
    copy->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copy->setToolTip(tr("The current view as an image on the clipboard, at the size shown"));

    QMenu *presetMenu = menuBar()->addMenu(tr("P&resets"));
    presetMenu->setToolTipsVisible(true);
    for (const Session &preset : presets()) {
        QAction *a = presetMenu->addAction(preset.title, this, [this, name = preset.name] {
            QString error;
            const bool ok = applySession(*findPreset(name), &error);
            report(ok, tr("Preset"), tr("The preset was not applied: %1"), error, findPreset(name)->title);
        });
        a->setToolTip(preset.description);
    }
    setAcceptDrops(true);

    QMenu *viewMenu = menuBar()->addMenu(tr("&View"));
    for (std::size_t i = 0; i < views_.size(); ++i) {
        QAction *a = viewMenu->addAction(viewRegistry()[i].title, this,
                                         [this, i] { tabs_->setCurrentIndex(static_cast<int>(i)); });
        if (i < 10)
            a->setShortcut(QKeySequence(Qt::CTRL | viewDigit(static_cast<int>(i))));
    }
    // The numbers themselves, like seed 003's printed tensors, in a dock of their own.
    auto *valuesDock = new QDockWidget(tr("Values"), this);
    valuesDock->setObjectName(QStringLiteral("valuesDock"));
    valuesDock->setWidget(new ValuesTable(parameters, valuesDock));
    addDockWidget(Qt::BottomDockWidgetArea, valuesDock);
    valuesDock->hide();
    viewMenu->addSeparator();
    viewMenu->addAction(dock->toggleViewAction());
    QMenu *themeMenu = viewMenu->addMenu(tr("T&heme"));
    auto *themeGroup = new QActionGroup(this);
    for (Theme t : kThemes) {
        QAction *a = themeMenu->addAction(themeMenuText(t), this, [this, t] { setTheme(t); });
        a->setCheckable(true);
        themeGroup->addAction(a);
        themeActions_.push_back(a);
    }
    QAction *valuesAction = valuesDock->toggleViewAction();
    valuesAction->setText(tr("Values &table"));
    valuesAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    viewMenu->addAction(valuesAction);
    QAction *lecture = viewMenu->addAction(tr("&Lecture mode"), this, [this] { setLectureMode(!lectureMode()); });
    lecture->setShortcut(QKeySequence(Qt::Key_F11));
    lecture->setToolTip(tr("Full screen, large type, keyboard only; Esc leaves"));
    addAction(lecture); // F11 works in full screen too, with the menu bar hidden

    addPositionKeys();
    addLectureKeys();
    hint_->setObjectName(QStringLiteral("lectureHint"));
    hint_->setWordWrap(true); // never wider than the screen
    hint_->setAlignment(Qt::AlignCenter);
    hint_->setStyleSheet(
        QStringLiteral("background: rgba(30,30,30,200); color: white; padding: 10px; border-radius: 6px;"));
    hint_->hide();

    QMenu *play = menuBar()->addMenu(tr("&Playback"));
    for (QAction *a : tabs_->actions())
        play->addAction(a);

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
    setTheme(savedTheme());
    currentView()->setFocus(); // the position keys work from the start
}

void MainWindow::setTheme(Theme theme)
{
    theme_ = theme;
    applyTheme(theme);
    saveTheme(theme);
    if (!themeActions_.empty())
        themeActions_[static_cast<std::size_t>(theme)]->setChecked(true);
}

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

void MainWindow::addPositionKeys()
{
    // Shortcuts of the view area only: on a slider or spin box the arrow keys keep their meaning.
    auto add = [this](const QString &text, QKeySequence key, auto slot) {
        auto *a = new QAction(text, tabs_);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(a, &QAction::triggered, this, slot);
        tabs_->addAction(a);
        return a;
    };
    add(tr("Play / pause"), QKeySequence(Qt::Key_Space), [this] {
        playback_->toggle();
    })->setObjectName(QStringLiteral("playPause"));
    add(tr("Step forward"), QKeySequence(Qt::Key_Right), [this] { parameters_->stepPosition(1); });
    add(tr("Step back"), QKeySequence(Qt::Key_Left), [this] { parameters_->stepPosition(-1); });
    add(tr("Ten forward"), QKeySequence(Qt::Key_PageDown), [this] { parameters_->stepPosition(10); });
    add(tr("Ten back"), QKeySequence(Qt::Key_PageUp), [this] { parameters_->stepPosition(-10); });
    add(tr("First position"), QKeySequence(Qt::Key_Home),
        [this] { parameters_->setPosition(parameters_->values().startPos); });
    add(tr("Last position"), QKeySequence(Qt::Key_End),
        [this] { parameters_->setPosition(parameters_->values().startPos + parameters_->values().seqLen - 1); });
}

void MainWindow::addLectureKeys()
{
    // Active only in lecture mode, where no control has the keyboard.
    auto add = [this](QKeySequence key, auto slot) {
        auto *a = new QAction(this);
        a->setShortcut(key);
        a->setEnabled(false);
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        lectureActions_.push_back(a);
    };
    add(QKeySequence(Qt::Key_Escape), [this] { setLectureMode(false); });
    auto scaleBase = [this](double factor) {
        pe::EncodingParams v = parameters_->values();
        v.base *= factor;
        parameters_->set(v); // refused beyond the limits: the base stays
    };
    // Half a decade a press: 1e4 -> 3.2e4 -> 1e5.
    add(QKeySequence(Qt::Key_Plus), [scaleBase] { scaleBase(std::sqrt(10.0)); });
    add(QKeySequence(Qt::Key_Equal), [scaleBase] { scaleBase(std::sqrt(10.0)); });
    add(QKeySequence(Qt::Key_Minus), [scaleBase] { scaleBase(1.0 / std::sqrt(10.0)); });
    for (int i = 0; i < 10 && i < static_cast<int>(views_.size()); ++i)
        add(QKeySequence(viewDigit(i)), [this, i] {
            tabs_->setCurrentIndex(i);
            tabs_->currentWidget()->setFocus();
        });
    add(QKeySequence(Qt::Key_T), [this] {
        if (second_) {
            setSecondView(QString());
            return;
        }
        QString id = previousView_;
        if (id.isEmpty() || view(id) == currentView())
            id =
                currentView() == view(QStringLiteral("heatmap")) ? QStringLiteral("clocks") : QStringLiteral("heatmap");
        setSecondView(id);
    });
}

void MainWindow::setSecondView(const QString &id)
{
    delete second_;
    second_ = nullptr;
    const ViewInfo *info = findView(id);
    if (!info)
        return;
    second_ = info->create(parameters_, stage_);
    second_->setObjectName(QStringLiteral("secondView"));
    second_->setLectureMode(lectureMode());
    second_->setMinimumSize(160, 120);
    stage_->addWidget(second_);
    // Half and half, whatever the views' size hints say; the user may drag the handle after.
    stage_->setStretchFactor(0, 1);
    stage_->setStretchFactor(1, 1);
    auto split = [this] {
        const int half = std::max(1, (stage_->width() - stage_->handleWidth()) / 2);
        stage_->setSizes({half, half});
    };
    split();
    QTimer::singleShot(0, this, split); // again once the new view is laid out
}

void MainWindow::setLectureMode(bool on)
{
    if (on == lecture_.active)
        return;
    if (on) {
        lecture_.geometry = saveGeometry();
        lecture_.states = windowState();
        lecture_.dockVisible = dock_->isVisible();
        lecture_.active = true;
        dock_->hide();
        menuBar()->hide();
        statusBar()->hide();
        tabs_->tabBar()->hide();
        showFullScreen();
    } else {
        lecture_.active = false;
        setSecondView(QString());
        tabs_->tabBar()->show();
        statusBar()->show();
        menuBar()->show();
        dock_->setVisible(lecture_.dockVisible);
        setWindowState(lecture_.states);
        restoreGeometry(lecture_.geometry);
        hint_->hide();
    }
    for (QAction *a : lectureActions_)
        a->setEnabled(on);
    for (const auto &[id, v] : views_)
        v->setLectureMode(on);
    if (second_)
        second_->setLectureMode(on);
    currentView()->setFocus();
    if (on)
        showLectureHint();
}

void MainWindow::showLectureHint()
{
    hint_->setText(
        tr("←/→ step  ·  PgUp/PgDn ten  ·  Space play  ·  +/− base  ·  1–%1 views  ·  T two views  ·  Esc leave")
            .arg(std::min<std::size_t>(9, views_.size())));
    QFont f = font();
    f.setPointSizeF(14 * PlotView::kLectureFontScale / 1.8);
    hint_->setFont(f);
    hint_->show();
    QTimer::singleShot(5000, hint_, &QWidget::hide);
}

PlotView *MainWindow::view(const QString &id) const
{
    for (const auto &[viewId, v] : views_)
        if (viewId == id)
            return v;
    return nullptr;
}

PlotView *MainWindow::currentView() const
{
    return static_cast<PlotView *>(tabs_->currentWidget());
}

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

void MainWindow::copyFigure()
{
    PlotView *v = currentView();
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
        QMessageBox::information(
            this, tr("Export view data"),
            tr("The %1 view has no data table here (the distance matrix stops at 10,000 positions, "
               "recovery at 33,554,432 values, a projection until its first frame); "
               "File > Export figure saves its picture.")
                .arg(info.title));
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
    // Views computing on a worker (recovery, projection) finish first: the picture is complete.
    currentView()->finishWork();
    QApplication::processEvents();
    currentView()->plot()->replot(QCustomPlot::rpImmediateRefresh);
    return writePng(grab().toImage(), path, error);
}
