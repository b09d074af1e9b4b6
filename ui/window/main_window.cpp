#include "window/main_window.h"

#include "encodings/scheme.h"

#include "window/help_browser.h"
#include "window/values_table.h"
#include "window/view_navigator.h"

#include "figures/figure_export.h"
#include "figures/plot_view.h"
#include "state/parameter_history.h"
#include "state/parameters.h"
#include "state/playback.h"
#include "state/view_registry.h"
#include "window/control_panel.h"
#include "window/workspace.h"

#include <qcustomplot.h>

#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QWindow>

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
    , navigator_(new ViewNavigator(this))
    , hint_(new QLabel(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Positional Encoding Explorer"));
    tabs_->setObjectName(QStringLiteral("views"));
    tabs_->setDocumentMode(true);
    // Fifteen views do not fit in one row of tabs beside the parameters (at 1280 pixels four hid
    // behind scroll arrows): the navigator beside the plots lists them all, by what they explain.
    tabs_->tabBar()->hide();
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
    auto *row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(0);
    row->addWidget(navigator_);
    row->addWidget(stage_, 1);
    centralLayout->addLayout(row, 1);
    centralLayout->addWidget(hint_);
    setCentralWidget(central);
    navigator_->setCurrent(0);
    connect(navigator_, &ViewNavigator::viewChosen, this, [this](int index) {
        tabs_->setCurrentIndex(index);
        tabs_->currentWidget()->setFocus(); // the position keys go on working
    });
    connect(tabs_, &QTabWidget::currentChanged, this, [this](int index) {
        // Remember the view left behind: lecture mode's second pane shows it.
        previousView_ = views_[static_cast<std::size_t>(currentIndex_)].first;
        currentIndex_ = index;
        navigator_->setCurrent(index);
    });

    // A slider held is one undo step, however far it travels.
    connect(controls_, &ControlPanel::gestureStarted, workspace_->history(), &ParameterHistory::beginGesture);
    connect(controls_, &ControlPanel::gestureEnded, workspace_->history(), &ParameterHistory::endGesture);

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
    addAction(undo); // in lecture mode too, with the menu bar hidden
    addAction(redo);
    edit->addSeparator();
    QAction *copy = edit->addAction(tr("&Copy figure"), this, &MainWindow::copyFigure);
    copy->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copy->setToolTip(tr("The current view as an image on the clipboard, at the size shown"));

    QMenu *presetMenu = menuBar()->addMenu(tr("P&resets"));
    presetMenu->setToolTipsVisible(true);
    // One submenu a source: each article the presets reproduce, then the models and papers.
    QMap<QString, QMenu *> sourceMenus;
    for (const Session &preset : presets()) {
        QMenu *&menu = sourceMenus[preset.source];
        if (!menu) {
            menu = presetMenu->addMenu(preset.source);
            menu->setToolTipsVisible(true);
        }
        QAction *a = menu->addAction(preset.title, this, [this, name = preset.name] {
            QString error;
            const bool ok = applySession(*findPreset(name), &error);
            report(ok, tr("Preset"), tr("The preset was not applied: %1"), error, findPreset(name)->title);
        });
        a->setToolTip(preset.description);
    }
    setAcceptDrops(true);

    QMenu *viewMenu = menuBar()->addMenu(tr("&View"));
    for (const QString &group : viewGroups()) {
        viewMenu->addSection(group);
        for (std::size_t i = 0; i < views_.size(); ++i) {
            if (viewRegistry()[i].group != group)
                continue;
            QAction *a = viewMenu->addAction(viewRegistry()[i].title, this,
                                             [this, i] { tabs_->setCurrentIndex(static_cast<int>(i)); });
            if (i < 10)
                a->setShortcut(QKeySequence(Qt::CTRL | viewDigit(static_cast<int>(i))));
        }
    }
    // The numbers themselves, like seed 003's printed tensors, in a dock of their own.
    auto *valuesDock = new QDockWidget(tr("Values"), this);
    valuesDock->setObjectName(QStringLiteral("valuesDock"));
    auto *values = new ValuesTable(parameters, valuesDock);
    valuesDock->setWidget(values);
    addDockWidget(Qt::BottomDockWidgetArea, valuesDock);
    valuesDock->hide();
    values->setLive(false);
    connect(valuesDock, &QDockWidget::visibilityChanged, values, &ValuesTable::setLive);
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
    QAction *titleAction = viewMenu->addAction(tr("Figure t&itle and markers…"), this, &MainWindow::editFigureTitle);
    titleAction->setObjectName(QStringLiteral("figureTitleAction"));
    titleAction->setToolTip(tr("Replace or hide the current view's title, mark positions with red dashed lines "
                               "(--title, --marker on the command line)"));
    QAction *lecture = viewMenu->addAction(tr("&Lecture mode"), this, [this] { setLectureMode(!lectureMode()); });
    lecture->setShortcut(QKeySequence(Qt::Key_F11));
    lecture->setToolTip(tr("Full screen, large type, keyboard only; Esc leaves"));
    addAction(lecture); // F11 works in full screen too, with the menu bar hidden

    addPositionKeys();
    addLectureKeys();
    hint_->setObjectName(QStringLiteral("lectureHint"));
    hint_->setWordWrap(true); // never wider than the screen
    hint_->setAlignment(Qt::AlignCenter);
    hint_->hide();

    QMenu *play = menuBar()->addMenu(tr("&Playback"));
    for (QAction *a : tabs_->actions())
        play->addAction(a);
    play->addSeparator();
    QAction *animation = play->addAction(tr("Export &animation (GIF)…"), this, &MainWindow::exportAnimation);
    animation->setObjectName(QStringLiteral("exportAnimationAction"));
    animation->setToolTip(tr("The current view as an animated GIF while the position advances "
                             "(--export-frames FILE.gif on the command line)"));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *manual = help->addAction(tr("&Manual"), this, [this] { showHelp(QStringLiteral("index.md")); });
    manual->setShortcut(QKeySequence::HelpContents);
    addAction(manual); // F1 in lecture mode too
    help->addAction(tr("&Keyboard"), this, [this] { showHelp(QStringLiteral("keyboard.md")); })
        ->setToolTip(tr("Every key, in the window and in lecture mode"));
    help->addAction(tr("&Sources"), this, [this] { showHelp(QStringLiteral("sources.md")); })
        ->setToolTip(tr("The articles the presets reproduce, and the papers and code each scheme follows"));
    help->addSeparator();
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
        if (const std::string why = pe::notApplicable(v, pe::Field::Base); !why.empty()) {
            statusBar()->showMessage(QString::fromStdString(why), 4000); // a table has no base to change
            return;
        }
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
    // Every view, past the tenth too: ] and [ step through them in tab order, wrapping.
    auto stepView = [this](int by) {
        const int n = tabs_->count();
        tabs_->setCurrentIndex(((tabs_->currentIndex() + by) % n + n) % n);
        tabs_->currentWidget()->setFocus();
    };
    add(QKeySequence(Qt::Key_BracketRight), [stepView] { stepView(1); });
    add(QKeySequence(Qt::Key_BracketLeft), [stepView] { stepView(-1); });
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

void MainWindow::about()
{
    QMessageBox::about(
        this, tr("About Positional Encoding Explorer"),
        tr("<h3>Positional Encoding Explorer %1</h3>"
           "<p>See how a transformer's positional encoding works, live and exact, and export every figure "
           "and its numbers.</p>"
           "<p>Schemes drawn: the sinusoidal encoding of <i>Attention Is All You Need</i> "
           "(PE(t,2i) = sin(t·w<sub>i</sub>), PE(t,2i+1) = cos(t·w<sub>i</sub>), "
           "w<sub>i</sub> = base<sup>−2i/d</sup>, in both layouts and both exponents); rotary position "
           "embedding (RoPE) with its context extensions: linear position interpolation, NTK-aware, dynamic "
           "NTK, YaRN and Llama 3.1's scaling; ALiBi's linear biases; and any position table read from a "
           ".npy file.</p>"
           "<p>Help &gt; Sources lists the five articles the presets reproduce and the papers each scheme "
           "follows.</p>"
           "<p>Licence: GNU General Public License, version 3 or later. "
           "Plots drawn with QCustomPlot (GPL).</p>")
            .arg(QApplication::applicationVersion()));
}

void MainWindow::showHelp(const QString &page)
{
    if (!help_)
        help_ = new HelpBrowser(this);
    help_->showPage(page);
    help_->show();
    help_->raise();
    help_->activateWindow();
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

void MainWindow::editFigureTitle()
{
    PlotView *view = currentView();
    if (!view)
        return;
    const QJsonObject now = view->settings();
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Figure title: %1").arg(view->info().title));
    auto *form = new QFormLayout(&dialog);
    auto *text = new QLineEdit(now.value(QStringLiteral("title")).toString(), &dialog);
    text->setObjectName(QStringLiteral("figureTitleText"));
    text->setPlaceholderText(tr("the view's own title"));
    text->setMaxLength(kMaxSettingText);
    text->setMinimumWidth(360);
    auto *shown = new QCheckBox(tr("Show a title"), &dialog);
    shown->setObjectName(QStringLiteral("figureTitleShown"));
    shown->setChecked(now.value(QStringLiteral("showTitle")).toBool(true));
    connect(shown, &QCheckBox::toggled, text, &QWidget::setEnabled);
    text->setEnabled(shown->isChecked());
    form->addRow(tr("Title:"), text);
    form->addRow(QString(), shown);
    // Markers, for a view with a position axis.
    const bool marks = findSetting(view->info().settings, QStringLiteral("markers")) != nullptr;
    auto *markers = new QLineEdit(now.value(QStringLiteral("markers")).toString(), &dialog);
    markers->setObjectName(QStringLiteral("figureMarkers"));
    markers->setPlaceholderText(tr("positions, e.g. 50, 100"));
    markers->setToolTip(tr("A red dashed line across the position axes at each position listed"));
    auto *problem = new QLabel(&dialog);
    problem->setObjectName(QStringLiteral("figureMarkersProblem"));
    problem->setWordWrap(true);
    problem->hide();
    if (marks) {
        form->addRow(tr("Markers:"), markers);
        form->addRow(QString(), problem);
    } else {
        markers->hide();
    }
    form->addRow(
        new QLabel(tr("An empty title keeps the view's own. Figures, copies and sessions use these."), &dialog));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    // A marker list that is not one is said in the dialog, which stays open.
    connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        QString error;
        if (marks && !parseMarkers(markers->text(), &error)) {
            problem->setText(error);
            problem->show();
            return;
        }
        dialog.accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QJsonObject values{{QStringLiteral("title"), text->text()}, {QStringLiteral("showTitle"), shown->isChecked()}};
    if (marks)
        values.insert(QStringLiteral("markers"), markers->text().trimmed());
    view->applySettings(values);
}
