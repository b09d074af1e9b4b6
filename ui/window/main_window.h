#pragma once

#include "export/data_export.h"
#include "figures/figure_export.h"
#include "figures/theme.h"
#include "state/session.h"

#include <functional>

#include <QMainWindow>

class ControlPanel;
class Parameters;
class Playback;
class PlotView;
class Workspace;
class WorkspaceViews;
class QDockWidget;
class QUndoStack;
class QLabel;
class QSplitter;
class QTabWidget;
class ViewNavigator;
class HelpBrowser;
class LecturePlayer;
struct Lecture;

// Controls in a dock on the left, the registry's views as tabs in the middle, the formula of the
// current variant in the status bar. Views are created from viewRegistry(), so a new view needs
// no change here.
class MainWindow : public QMainWindow
{
    Q_OBJECT

  public:
    explicit MainWindow(Parameters *parameters, QWidget *parent = nullptr);

    ControlPanel *controlPanel() const { return controls_; }
    Workspace *workspace() const { return workspace_; }
    PlotView *view(const QString &id) const;
    PlotView *currentView() const;
    void showView(const QString &id);

    Playback *playback() const { return playback_; }

    // File > Export data without the file dialog: the encoding (or the frequencies) as CSV or NPY by
    // extension, written on a worker thread with a progress dialog that can cancel it.
    bool saveData(const QString &path, bool frequencies, QString *error);
    // The current view's data table (PlotView::dataTable) to a .csv or .npy file.
    bool saveViewData(const QString &path, QString *error);

    // Sessions: everything shown, as a file (session.h). applySession checks every part first and
    // changes nothing when one is refused; error says why in one line.
    Session currentSession() const;
    bool applySession(const Session &session, QString *error);
    bool openSession(const QString &path, QString *error);
    // A position table (.npy, or FILE[:TENSOR] of a safetensors or GGUF checkpoint) shown with every
    // view, its whole height from its first position; false, the state unchanged and *error one
    // sentence, when the file is refused. Undoable like any change.
    bool openTable(const QString &path, QString *error);
    // T5's learned bias table (--bias-table): the scheme t5 with the table's buckets and head 1.
    bool openBiasTable(const QString &path, QString *error);
    // A model's config.json, GGUF file or folder (--model): its parameters, position 0; false with
    // *error one sentence and nothing changed.
    bool openModel(const QString &path, QString *error);
    // path, or path:TENSOR as the user picks it from the checkpoint's tensors when none or several
    // are named as what bias (T5's bias table) or else a position table looks for; empty when the
    // user cancels. A file that cannot be read is returned as it is, for the opening to say why.
    QString chooseTensor(const QString &path, bool bias);

    void closeTable();
    bool saveSession(const QString &path, QString *error);
    QStringList recentSessions() const;
    QUndoStack *undoStack() const;
    // The last session, geometry and dock layout (QSettings), as the window was closed.
    void restoreLastState();

    // Every view's figure into the folder as <view>.<format> (WorkspaceViews::saveAllFigures); a view
    // that cannot be drawn is skipped with a line in `skipped`; false with the first failure.
    bool saveAllFigures(const QString &folder, FigureFormat format, const FigureOptions &options, QString *error,
                        QStringList *skipped = nullptr);

    // Light or dark, for the window and the plots; System keeps the desktop's palette (the default).
    // Remembered for the next start unless `remember` is false (a lecture step's theme).
    void setTheme(Theme theme, bool remember = true);
    Theme theme() const { return theme_; }

    // Shows the window, waits for its first complete paint and saves it as PNG.
    bool saveFirstPaint(const QString &path, QString *error);

    // Lecture mode (F11): full screen, large fonts and thick lines, no controls, one or two views,
    // keyboard only. Leaving restores the window as it was.
    void setLectureMode(bool on);
    bool lectureMode() const { return lecture_.active; }
    // In lecture mode: show a second view beside the main one (T), or hide it.
    void setSecondView(const QString &id);
    PlotView *secondView() const { return second_; }
    // Ctrl+= and Ctrl+- in lecture mode: every view's type (and the caption's) times this.
    void setLectureZoom(double zoom);
    double lectureZoom() const { return lectureZoom_; }

    // Lectures (state/lecture.h): opened in lecture mode at `step` (0-based), given with a clicker's
    // keys (window/lecture_player.h); false with the reason, nothing changed, when the step's state
    // is refused.
    bool openLecture(const Lecture &lecture, int step, QString *error);
    LecturePlayer *lecturePlayer() const { return player_; }

  protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

  private:
    // The constructor's parts, in the order it calls them, addPositionKeys and addLectureKeys before
    // the Playback menu (main_window.cpp, the menus in main_window_menus.cpp).
    void buildViews();          // the registry's views as hidden tabs, the navigator beside, the key help below
    void buildParametersDock(); // the control panel, scrolled, in a dock on the left
    void addFileMenu();
    void addEditMenu();
    void addPresetMenu();         // one submenu a source
    QDockWidget *addValuesDock(); // the values table in a dock below, hidden until asked for
    void addViewMenu(QDockWidget *valuesDock);
    void addPlaybackMenu(); // the position keys (addPositionKeys) and Export animation
    void addLectureMenu();  // open a lecture file or a built-in one, close it
    void addHelpMenu();
    void addStatusFormula(); // the sizes and formula of the current variant, kept current
    // The digit key of the i-th view: 1 to 9, then 0 for the tenth, as on the keyboard's top row.
    static Qt::Key viewDigit(int i);

    void addSessionMenus(QMenu *file);
    void rememberRecent(const QString &path);
    void fillRecentMenu();
    void openSessionDialog();
    void openTableDialog();
    void openBiasTableDialog();
    void openModelDialog();
    // How a file action went: the status bar on success, a warning with the reason on failure.
    void report(bool ok, const QString &title, const QString &failure, const QString &error, const QString &success);
    void saveSessionDialog();
    void addPositionKeys();
    void addLectureKeys();
    void showLectureHint();
    void exportFigure();
    void exportData(bool frequencies);
    void exportViewData();
    void exportAllFigures();
    void copyFigure();
    // View > Figure title: the current view's title replaced or hidden (its figure settings).
    void editFigureTitle();
    // Playback > Export animation: the current view as a GIF, drawn offscreen from a copy of the
    // state (the window's position does not move), with progress and cancel.
    void exportAnimation();

  public:
    // The GIF or video (by the path's ending) of the current view over `frames` positions from the
    // current one, `step` apart, its type at `fontPoints` (0: the view's own); false with error set on
    // failure or when `progress` returns false (nothing is written then).
    bool writeAnimation(const QString &path, QSize size, int frames, std::int64_t step, int fps, QString *error,
                        const std::function<bool(int)> &progress = {}, double fontPoints = 0);

  private:
    // Writes a table on a worker thread with a progress dialog and Cancel; false with the reason.
    bool writeTableWithProgress(const QString &path, const pe::Table &table, QString *error);
    void about();
    void showHelp(const QString &page);

    Parameters *parameters_;
    Workspace *workspace_;
    WorkspaceViews *figures_; // the views drawing the workspace
    QMenu *recentMenu_ = nullptr;
    QString sessionPath_;
    Theme theme_ = Theme::System;
    std::vector<QAction *> themeActions_;
    QAction *closeTableAction_ = nullptr;
    Playback *playback_;
    ControlPanel *controls_;
    QDockWidget *dock_;
    QSplitter *stage_;
    QTabWidget *tabs_; // the views, its own tab bar hidden: the navigator chooses
    ViewNavigator *navigator_;
    HelpBrowser *help_ = nullptr; // made when first asked for
    PlotView *second_ = nullptr;
    QLabel *hint_;
    LecturePlayer *player_;
    double lectureZoom_ = 1.0;
    QString previousView_;
    int currentIndex_ = 0;
    std::vector<std::pair<QString, PlotView *>> views_;
    std::vector<QAction *> lectureActions_;

    struct LectureState {
        bool active = false;
        QByteArray geometry;
        Qt::WindowStates states;
        bool dockVisible = true;
    } lecture_;
};
