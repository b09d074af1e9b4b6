#pragma once

#include "state/lecture.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <functional>
#include <optional>

class LectureOverview;
class LecturePresenter;
class MainWindow;
class QLabel;
class QWidget;

// Giving a lecture (state/lecture.h) in the window's lecture mode: a clicker's keys go to the next
// and previous step, a number and Enter jumps, C hides the caption; each step's state is applied
// whole (one undo step), its caption shown large under the figure with the step's number, its
// second view and theme set; numbers that differ from the step before move there in half a
// second, then the step's action runs (the position played, or a parameter moved).
//
// Keys are read by an event filter on the application while lecture mode is on and a lecture is
// open, ahead of the window's shortcuts (its position keys on the same arrows and pages):
//   next      PageDown, Right, Down, Space, N, Enter (with no number typed)
//   previous  PageUp, Left, Up, B, P, Backspace
//   jump      digits then Enter (Esc forgets the digits); Home and End: the first and last step
//   position  , and . step it; Shift+Space plays or pauses; R runs the step's action again
//   caption   C hides or shows it
//   overview  O shows every step as a thumbnail (window/lecture_overview.h)
// The lecture mode's own keys (+/-, [ ], T, Ctrl+Z, Esc to leave) work as before.
class LecturePlayer : public QObject
{
    Q_OBJECT

  public:
    explicit LecturePlayer(MainWindow *window);
    ~LecturePlayer() override;

    // The row under the views holding the caption and the step's number; the window lays it out.
    QWidget *captionBar() const { return bar_; }

    // Opens the lecture in lecture mode at `step` (0-based); false with the step's reason when its
    // state cannot be applied (a table file gone since), nothing changed.
    bool start(const Lecture &lecture, int step, QString *error);
    // Opens the lecture at `step` without entering lecture mode (the editor's; F5 gives it).
    bool load(const Lecture &lecture, int step, QString *error);
    // An edited lecture in place of the open one, `step` chosen (clamped to its steps); the
    // window's state is left as it is.
    void setLecture(const Lecture &lecture, int step);
    // Ends the lecture: its keys and caption go, the window stays as the last step left it.
    void close();
    bool isOpen() const { return open_; }
    const Lecture &lecture() const { return lecture_; }
    int step() const { return step_; }

    // Shows step `index`: false, nothing changed, when it is out of range or its state is refused.
    bool goTo(int index, QString *error = nullptr);
    void next();
    void previous();

    // The window entered or left lecture mode: the caption shows only in it, and leaving stops
    // what moves (the lecture stays open: lecture mode again resumes it).
    void lectureModeChanged(bool on);

    void setCaptionVisible(bool on);

    // O: every step as a thumbnail over the figure; Enter goes to the one chosen.
    void showOverview();
    LectureOverview *overview() const { return overview_; }
    // Lecture > Presenter view: this step's caption and notes, the next one's thumbnail and the
    // time, in a window of its own (on the other screen when there are two).
    void showPresenter();
    LecturePresenter *presenter() const { return presenter_; }
    bool captionVisible() const { return captionOn_; }

    // A transition or action moving the state.
    bool isMoving() const { return timer_.isActive(); }
    // Ends what moves at once, at its last values: the move into a step and the action after it.
    void finishMotion();
    // Half a second from one step's numbers to the next's.
    static constexpr double kTransitionSeconds = 0.5;

  signals:
    void stepChanged(int index);
    // Opened, edited or closed.
    void lectureChanged();

  protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

  private:
    // One change over time: the position and any animatable parameters from their values to others.
    struct Motion {
        double seconds = 0;
        bool position = false;
        double positionFrom = 0, positionTo = 0;
        QStringList parameters;
        std::vector<double> from, to;
        bool thenAction = false; // a transition: the step's action follows
        bool operator==(const Motion &) const = default;
    };
    void startMotion(const Motion &motion);
    void tick();
    // The motion at its end; the action a transition leads to starts.
    void completeStage();
    void applyMotion(double u);
    // Stops what moves; the undo gesture stays open for the action a transition leads to.
    void endMotion(bool keepGesture = false);
    void runAction();
    // The motion from the window's state to `target`'s numbers, when only numbers of one view
    // differ; the target with the window's numbers in `start`.
    std::optional<Motion> transitionTo(const Session &target, Session *start) const;
    // What a key does in a lecture, or nothing when the key is not the player's.
    std::function<void()> keyAction(int key, Qt::KeyboardModifiers modifiers);
    void showCaption();
    void updateCounter();

    MainWindow *window_;
    Lecture lecture_;
    bool open_ = false;
    int step_ = 0;
    bool captionOn_ = true;
    QString typed_; // digits typed towards a jump
    QWidget *bar_;
    QLabel *caption_;
    QLabel *counter_;
    QTimer timer_;
    QElapsedTimer clock_;
    Motion motion_;
    bool gesture_ = false;
    LectureOverview *overview_ = nullptr;   // made when first asked for
    LecturePresenter *presenter_ = nullptr; // made when first asked for
};
