#include "window/main_window.h"
#include "window/view_navigator.h"

#include "figures/plot_view.h"
#include "state/view_registry.h"
#include "window/workspace.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QSplitter>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>

void MainWindow::setSecondView(const QString &id)
{
    delete second_;
    second_ = nullptr;
    const ViewInfo *info = findView(id);
    if (!info)
        return;
    second_ = info->create(parameters_, stage_);
    second_->setObjectName(QStringLiteral("secondView"));
    // The view beside shows what its tab shows: the workspace's settings for it, not the defaults.
    second_->applySettings(workspace_->viewSettings(id));
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
    currentView()->setFocus();
    if (on)
        showLectureHint();
}

void MainWindow::showLectureHint()
{
    const QString keys =
        tr("←/→ step  ·  PgUp/PgDn ten  ·  Space play  ·  +/− base  ·  1–9, 0 views  ·  [ ] previous, next "
           "view (all %1)  ·  T two views  ·  Ctrl+Z undo  ·  Esc leave")
            .arg(views_.size());
    hint_->setText(keys);
    QFont f = font();
    f.setPointSizeF(14 * PlotView::kLectureFontScale / 1.8);
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
