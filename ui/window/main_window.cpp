// MainWindow's construction (views, navigator, docks, status formula), theme, position keys, views by id, first paint.
#include "window/main_window.h"

#include "encodings/scheme.h"
#include "models/model_config.h"

#include "window/values_table.h"
#include "window/view_navigator.h"

#include "figures/figure_export.h"
#include "figures/plot_view.h"
#include "figures/workspace_views.h"
#include "state/parameter_history.h"
#include "state/parameters.h"
#include "state/playback.h"
#include "state/view_registry.h"
#include "state/workspace.h"
#include "window/control_panel.h"
#include "window/lecture_player.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QWindow>

Qt::Key MainWindow::viewDigit(int i)
{
    return i < 9 ? static_cast<Qt::Key>(Qt::Key_1 + i) : Qt::Key_0;
}

MainWindow::MainWindow(Parameters *parameters, QWidget *parent)
    : QMainWindow(parent)
    , parameters_(parameters)
    , workspace_(new Workspace(parameters, this))
    , figures_(new WorkspaceViews(workspace_, this))
    , playback_(new Playback(parameters, this))
    , controls_(new ControlPanel(parameters, playback_, this))
    , dock_(new QDockWidget(tr("Parameters"), this))
    , stage_(new QSplitter(Qt::Horizontal, this))
    , tabs_(new QTabWidget(stage_))
    , navigator_(new ViewNavigator(this))
    , hint_(new QLabel(this))
    , player_(new LecturePlayer(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Positional Encoding Explorer"));
    buildViews();
    buildParametersDock();
    addFileMenu();
    addEditMenu();
    addPresetMenu();
    setAcceptDrops(true);
    addViewMenu(addValuesDock());
    addPositionKeys();
    addLectureKeys();
    addPlaybackMenu(); // after addPositionKeys: it lists the keys' actions
    addLectureMenu();
    addHelpMenu();
    addStatusFormula();
    resize(1280, 800);
    setTheme(savedTheme());
    currentView()->setFocus(); // the position keys work from the start
}

void MainWindow::buildViews()
{
    tabs_->setObjectName(QStringLiteral("views"));
    tabs_->setDocumentMode(true);
    // Fifteen views do not fit in one row of tabs beside the parameters (at 1280 pixels four hid
    // behind scroll arrows): the navigator beside the plots lists them all, by what they explain.
    tabs_->tabBar()->hide();
    for (const ViewInfo &info : viewRegistry()) {
        PlotView *v = figures_->create(info.id, tabs_);
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
    centralLayout->addWidget(player_->captionBar()); // a lecture's caption, under the figure
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
    hint_->setObjectName(QStringLiteral("lectureHint"));
    hint_->setWordWrap(true); // never wider than the screen
    hint_->setAlignment(Qt::AlignCenter);
    hint_->hide();
}

void MainWindow::buildParametersDock()
{
    // A slider held is one undo step, however far it travels.
    connect(controls_, &ControlPanel::gestureStarted, workspace_->history(), &ParameterHistory::beginGesture);
    connect(controls_, &ControlPanel::gestureEnded, workspace_->history(), &ParameterHistory::endGesture);

    dock_->setObjectName(QStringLiteral("parametersDock"));
    dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    auto *scroll = new QScrollArea(dock_);
    scroll->setWidget(controls_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(controls_->sizeHint().width() + scroll->verticalScrollBar()->sizeHint().width());
    dock_->setWidget(scroll);
    addDockWidget(Qt::LeftDockWidgetArea, dock_);
}

QDockWidget *MainWindow::addValuesDock()
{
    // The numbers themselves, like seed 003's printed tensors, in a dock of their own.
    auto *valuesDock = new QDockWidget(tr("Values"), this);
    valuesDock->setObjectName(QStringLiteral("valuesDock"));
    auto *values = new ValuesTable(parameters_, valuesDock);
    valuesDock->setWidget(values);
    addDockWidget(Qt::BottomDockWidgetArea, valuesDock);
    valuesDock->hide();
    values->setLive(false);
    connect(valuesDock, &QDockWidget::visibilityChanged, values, &ValuesTable::setLive);
    return valuesDock;
}

void MainWindow::addStatusFormula()
{
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
        // The model the parameters came from names the window (the task bar, a screen share).
        setWindowTitle(p.model ? tr("%1 – Positional Encoding Explorer").arg(QString::fromStdString(p.model->name))
                               : tr("Positional Encoding Explorer"));
    };
    connect(parameters_, &Parameters::changed, this, showFormula);
    showFormula();
}

void MainWindow::setTheme(Theme theme, bool remember)
{
    theme_ = theme;
    applyTheme(theme);
    if (remember)
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
