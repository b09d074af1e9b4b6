#include "main_window.h"

#include "plot_view.h"
#include "view_registry.h"

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
