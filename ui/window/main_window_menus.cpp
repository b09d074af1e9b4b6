// MainWindow's menus (File, Edit, Presets, View, Playback, Help) and the title dialog, manual, About they open.
#include "window/main_window.h"

#include "window/figure_title_dialog.h"
#include "window/help_browser.h"

#include "figures/plot_view.h"
#include "state/view_registry.h"
#include "state/view_settings.h"
#include "state/workspace.h"

#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QMap>
#include <QMenuBar>
#include <QMessageBox>
#include <QTabWidget>
#include <QUndoStack>

void MainWindow::addFileMenu()
{
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
}

void MainWindow::addEditMenu()
{
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
}

void MainWindow::addPresetMenu()
{
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
}

void MainWindow::addViewMenu(QDockWidget *valuesDock)
{
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
    viewMenu->addSeparator();
    viewMenu->addAction(dock_->toggleViewAction());
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
    QAction *titleAction =
        viewMenu->addAction(tr("Figure t&itle, markers, legend and colours…"), this, &MainWindow::editFigureTitle);
    titleAction->setObjectName(QStringLiteral("figureTitleAction"));
    titleAction->setToolTip(tr("Replace or hide the current view's title, mark positions with red dashed lines, "
                               "place the legend, set the colour bar's limits and label (--title, --marker, --legend, "
                               "--vmin, --vmax, --robust, --colorbar-label on the command line)"));
    QAction *lecture = viewMenu->addAction(tr("&Lecture mode"), this, [this] { setLectureMode(!lectureMode()); });
    lecture->setShortcut(QKeySequence(Qt::Key_F11));
    lecture->setToolTip(tr("Full screen, large type, keyboard only; Esc leaves"));
    addAction(lecture); // F11 works in full screen too, with the menu bar hidden
}

void MainWindow::addPlaybackMenu()
{
    QMenu *play = menuBar()->addMenu(tr("&Playback"));
    for (QAction *a : tabs_->actions())
        play->addAction(a);
    play->addSeparator();
    QAction *animation = play->addAction(tr("Export &animation (GIF)…"), this, &MainWindow::exportAnimation);
    animation->setObjectName(QStringLiteral("exportAnimationAction"));
    animation->setToolTip(tr("The current view as an animated GIF while the position advances "
                             "(--export-frames FILE.gif on the command line)"));
}

void MainWindow::addHelpMenu()
{
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
}

void MainWindow::editFigureTitle()
{
    PlotView *view = currentView();
    if (!view)
        return;
    // Markers for a view with a position axis, colours for one with a colour bar.
    FigureTitleDialog dialog(view->info().title, view->settings(), view->info().settings, this);
    if (dialog.exec() == QDialog::Accepted)
        view->applySettings(dialog.values());
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
           "NTK, YaRN and Llama 3.1's scaling; ALiBi's linear biases; T5's relative buckets; and any position table "
           "read from a "
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
