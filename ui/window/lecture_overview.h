#pragma once

#include "figures/lecture_export.h"
#include "state/lecture.h"

#include <QListWidget>
#include <QTimer>

// O in a lecture: every step as a thumbnail with its number and title, over the figure. The arrows
// choose, Enter or a click goes there, O or Esc closes it. Thumbnails are drawn one at a time while
// the event loop is free, and kept while the lecture is the same.
class LectureOverview : public QListWidget
{
    Q_OBJECT

  public:
    explicit LectureOverview(QWidget *parent);

    // Fills the grid for the lecture with `current` chosen, covers the parent and takes the keyboard.
    void showFor(const Lecture &lecture, int current);
    // Thumbnails still to draw.
    int pending() const { return static_cast<int>(queue_.size()); }

  signals:
    void chosen(int index);

  protected:
    bool event(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

  private:
    void drawNext();

    QJsonObject lectureJson_; // what the thumbnails were drawn for
    Lecture lecture_;
    std::vector<QImage> thumbnails_;
    std::vector<int> queue_;
    QTimer timer_;
    StepFigure figure_;
};
