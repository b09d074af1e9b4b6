// MainWindow's lecture mode: full screen, large type, keyboard only, its keys, its second view, its key
// help, and the Lecture menu (lectures given through window/lecture_player.h).
#include "window/main_window.h"

#include "encodings/scheme.h"

#include "figures/plot_view.h"
#include "figures/view_factory.h"
#include "state/lecture.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/workspace.h"
#include "window/lecture_editor.h"
#include "window/lecture_player.h"
#include "window/view_navigator.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSplitter>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>
#include <cmath>

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
    // The type, larger or smaller, for the room and the screen (Ctrl+= as browsers have it).
    add(QKeySequence(Qt::CTRL | Qt::Key_Equal), [this] { setLectureZoom(lectureZoom_ * 1.15); });
    add(QKeySequence(Qt::CTRL | Qt::Key_Plus), [this] { setLectureZoom(lectureZoom_ * 1.15); });
    add(QKeySequence(Qt::CTRL | Qt::Key_Minus), [this] { setLectureZoom(lectureZoom_ / 1.15); });
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

void MainWindow::setSecondView(const QString &id)
{
    delete second_;
    second_ = nullptr;
    const ViewInfo *info = findView(id);
    if (!info)
        return;
    second_ = createView(*info, parameters_, stage_);
    second_->setObjectName(QStringLiteral("secondView"));
    // The view beside shows what its tab shows: the workspace's settings for it, not the defaults.
    second_->applySettings(workspace_->viewSettings(id));
    second_->setLectureZoom(lectureZoom_);
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
        navigator_->hide();
        setCursor(Qt::BlankCursor); // keyboard only: no pointer over the figure
        // The whole screen also where no window manager does full screen (Xvfb, a kiosk session):
        // the screen's geometry first, then the full-screen state a window manager acts on.
        if (screen())
            setGeometry(screen()->geometry());
        showFullScreen();
    } else {
        lecture_.active = false;
        setSecondView(QString());
        navigator_->show();
        statusBar()->show();
        menuBar()->show();
        dock_->setVisible(lecture_.dockVisible);
        setWindowState(lecture_.states);
        restoreGeometry(lecture_.geometry);
        unsetCursor();
        hint_->hide();
    }
    for (QAction *a : lectureActions_)
        a->setEnabled(on);
    for (const auto &[id, v] : views_)
        v->setLectureMode(on);
    if (second_)
        second_->setLectureMode(on);
    player_->lectureModeChanged(on);
    currentView()->setFocus();
    if (on)
        showLectureHint();
}

void MainWindow::setLectureZoom(double zoom)
{
    lectureZoom_ = std::clamp(zoom, PlotView::kMinLectureZoom, PlotView::kMaxLectureZoom);
    for (const auto &[id, v] : views_)
        v->setLectureZoom(lectureZoom_);
    if (second_)
        second_->setLectureZoom(lectureZoom_);
    player_->lectureModeChanged(lectureMode()); // the caption's type follows
}

bool MainWindow::openLecture(const Lecture &lecture, int step, QString *error)
{
    return player_->start(lecture, step, error);
}

void MainWindow::showLectureHint()
{
    // +/− only where there is a base to change (not a table's, ALiBi's or T5's).
    const bool base = pe::notApplicable(parameters_->values(), pe::Field::Base).empty();
    // A lecture's steps take the clicker's keys (window/lecture_player.h).
    const QString keys =
        player_->isOpen()
            ? tr("→ Space PgDn next step  ·  ← B PgUp previous  ·  number Enter: go to step  ·  O all steps  ·  "
                 "C caption  ·  , . position  ·  R again") +
                  (base ? tr("  ·  +/− base") : QString()) + tr("  ·  [ ] views  ·  T two views  ·  Esc leave")
            : tr("←/→ step  ·  PgUp/PgDn ten  ·  Space play") + (base ? tr("  ·  +/− base") : QString()) +
                  tr("  ·  1–9, 0 views  ·  [ ] previous, next view (all %1)  ·  T two views  ·  Ctrl+Z undo  ·  "
                     "Esc leave")
                      .arg(views_.size());
    hint_->setText(keys);
    // As the caption: a share of the screen's height, not a point size (a 4K screen at ratio 1
    // has twice 1080's pixels).
    QFont f = font();
    f.setPixelSize(std::max(14, (screen() ? screen()->geometry().height() : 1080) / 43));
    hint_->setFont(f);
    hint_->setMinimumHeight(0);
    hint_->setStyleSheet(
        QStringLiteral("background: rgba(30,30,30,200); color: white; padding: 10px; border-radius: 6px;"));
    hint_->show();
    // After 5 s the line empties but keeps its height: hiding it would lay the whole figure out again.
    QTimer::singleShot(5000, hint_, [this, keys] {
        if (!lectureMode() || hint_->text() != keys)
            return;
        hint_->setMinimumHeight(hint_->height());
        hint_->setText(QString());
        hint_->setStyleSheet(QStringLiteral("background: transparent; padding: 10px;"));
    });
}

void MainWindow::addLectureMenu()
{
    QMenu *menu = menuBar()->addMenu(tr("Lec&ture"));
    auto *editorDock = new QDockWidget(tr("Lecture"), this);
    editorDock->setObjectName(QStringLiteral("lectureDock"));
    auto *editor = new LectureEditor(this, player_);
    editorDock->setWidget(editor);
    // Beside the parameters, as a tab: the figure keeps its width while a lecture is written.
    addDockWidget(Qt::LeftDockWidgetArea, editorDock);
    tabifyDockWidget(dock_, editorDock);
    editorDock->hide();
    const auto showEditor = [editorDock] {
        editorDock->show();
        editorDock->raise(); // its tab in front
    };
    connect(player_, &LecturePlayer::lectureChanged, editor, &LectureEditor::refresh);
    auto report = [this](const QString &what, const QString &why) {
        QMessageBox::warning(this, what, tr("%1: %2").arg(what, why));
    };
    auto open = [this, report, editor](const std::optional<Lecture> &lecture, const QString &error,
                                       const QString &path) {
        QString why = error;
        if (lecture && openLecture(*lecture, 0, &why)) {
            editor->setPath(path);
            return;
        }
        report(tr("The lecture was not opened"), why);
    };
    QAction *newLecture = menu->addAction(tr("&New lecture"), this, [editor, showEditor] {
        editor->newLecture();
        showEditor();
    });
    newLecture->setToolTip(
        tr("A lecture whose first step is what the window shows now; add more in the Lecture panel"));
    QAction *file = menu->addAction(tr("&Open lecture file…"), this, [this, open] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open lecture"), QString(),
                                                          tr("Lectures (*.pelecture);;All files (*)"));
        if (path.isEmpty())
            return;
        QString error;
        const std::optional<Lecture> lecture = readLectureFile(path, &error);
        open(lecture, error, path);
    });
    file->setObjectName(QStringLiteral("openLectureAction"));
    file->setToolTip(tr("A .pelecture file: its steps in lecture mode (--lecture-file FILE)"));
    QMenu *builtIn = menu->addMenu(tr("&Built-in lectures"));
    for (const Lecture &lecture : builtInLectures()) {
        QAction *a = builtIn->addAction(tr("%1 (%2 steps)").arg(lecture.title).arg(lecture.steps.size()), this,
                                        [lecture, open] { open(lecture, QString(), QString()); });
        a->setToolTip(lecture.description + QStringLiteral(" (--lecture-file ") + lecture.name + QLatin1Char(')'));
    }
    QAction *save = menu->addAction(tr("&Save lecture as…"), this, [this, editor, report] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save lecture"), editor->path(), tr("Lectures (*.pelecture)"));
        QString error;
        if (!path.isEmpty() &&
            !editor->save(path.endsWith(QLatin1String(".pelecture")) ? path : path + QStringLiteral(".pelecture"),
                          &error))
            report(tr("The lecture was not saved"), error);
    });
    menu->addSeparator();
    QAction *add = menu->addAction(tr("&Add this state as a step"), this, [editor, showEditor] {
        editor->addCurrentState();
        showEditor();
    });
    add->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    QAction *edit = editorDock->toggleViewAction();
    edit->setText(tr("&Edit lecture (steps, captions, notes)"));
    menu->addAction(edit);
    menu->addSeparator();
    QAction *presenter = menu->addAction(tr("&Presenter view"), this, [this] { player_->showPresenter(); });
    presenter->setObjectName(QStringLiteral("presenterAction"));
    presenter->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    presenter->setToolTip(tr("This step's caption and notes, the next step and the time, in a window of its own"));
    QAction *resume = menu->addAction(tr("&Give the lecture"), this, [this] { setLectureMode(true); });
    resume->setShortcut(QKeySequence(Qt::Key_F5));
    resume->setToolTip(tr("Lecture mode at the step chosen"));
    QAction *close = menu->addAction(tr("&Close lecture"), this, [this] { player_->close(); });
    connect(menu, &QMenu::aboutToShow, this, [this, resume, close, presenter, save] {
        for (QAction *a : {resume, close, presenter, save})
            a->setEnabled(player_->isOpen());
    });
    addAction(resume); // F5 and Ctrl+Shift+P with the menu bar hidden too
    addAction(presenter);
}
