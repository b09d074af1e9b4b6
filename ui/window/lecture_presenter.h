#pragma once

#include "figures/lecture_export.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

class LecturePlayer;
class QLabel;
class QTextBrowser;

// Lecture > Presenter view: a window for the laptop's screen while the audience's shows the
// figure (and its caption). This step's number, title, caption and notes, the next step's title
// and thumbnail, the time since the lecture began; Previous and Next buttons, and the clicker's
// keys work here too. On a second screen it opens on the one the main window is not on.
class LecturePresenter : public QWidget
{
    Q_OBJECT

  public:
    explicit LecturePresenter(LecturePlayer *player, QWidget *parent = nullptr);

    // Shows the player's step (and draws the next one's thumbnail once the event loop is free).
    void update();

  protected:
    void resizeEvent(QResizeEvent *event) override;

  private:
    void drawNextThumbnail();
    void showNext();
    void tick();

    LecturePlayer *player_;
    QLabel *step_;
    QLabel *clock_;
    QLabel *caption_;
    QTextBrowser *notes_;
    QLabel *nextTitle_;
    QLabel *nextImage_;
    QTimer seconds_;
    QTimer draw_;
    StepFigure figure_;
    QElapsedTimer since_;
    QImage next_; // the next step's thumbnail, at its own size
};
