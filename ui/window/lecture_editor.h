#pragma once

#include "state/lecture.h"

#include <QWidget>

#include <vector>

class LecturePlayer;
class MainWindow;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

// Writing a lecture in the window (Lecture > New lecture, Edit lecture): the steps in order, each
// the window's whole state when it was added, with a title, a caption and notes. Add this state,
// duplicate, delete, move up and down, save and open; every edit is an undo step of the window's
// history (a field typed into is one step while it keeps the keyboard). Choosing a step shows it.
class LectureEditor : public QWidget
{
    Q_OBJECT

  public:
    LectureEditor(MainWindow *window, LecturePlayer *player);

    // A new lecture whose first step is the window's state now.
    void newLecture();
    // The window's state (its view, the one beside it in lecture mode) as a step after the chosen one.
    void addCurrentState();
    void duplicateStep();
    void deleteStep(); // a lecture keeps at least one step
    void moveStep(int by);
    // The chosen step's state replaced by the window's now.
    void updateStep();

    bool save(const QString &path, QString *error);
    QString path() const { return path_; }
    void setPath(const QString &path) { path_ = path; }

    // Shows the player's lecture (after an edit, an undo, a step shown).
    void refresh();

  protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

  private:
    std::vector<QWidget *> fields() const;
    // The lecture after an edit, as one undo step; `merge` nonzero merges with the step before of
    // the same number (typing in one field).
    void edit(const Lecture &after, int step, const QString &text, int merge = 0);
    LectureStep currentState() const;
    int chosen() const;

    MainWindow *window_;
    LecturePlayer *player_;
    QString path_;
    QLineEdit *lectureTitle_;
    QListWidget *steps_;
    QLineEdit *title_;
    QPlainTextEdit *caption_;
    QPlainTextEdit *notes_;
    QPushButton *remove_;
    bool refreshing_ = false;
};
