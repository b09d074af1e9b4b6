// AnimationDialog: Playback > Export animation's choices, the frames, their step, speed and size, and the GIF file.
#pragma once

#include <QDialog>

#include <cstdint>

class QLineEdit;
class QSpinBox;

// The defaults come from the view shown: as many frames as positions are left in the window (1 to
// 100), one position apart, 10 a second, the plot's size on screen, <view id>.gif in the current
// folder. Browse… picks the file; the window checks problem() after Save and writes the GIF.
class AnimationDialog : public QDialog
{
    Q_OBJECT

  public:
    AnimationDialog(const QString &viewTitle, const QString &viewId, std::int64_t positionsLeft, QSize plotSize,
                    QWidget *parent = nullptr);

    int frames() const;
    int step() const; // positions a frame
    int fps() const;
    QSize imageSize() const; // of each frame, in pixels
    QString path() const;
    // Why the file cannot be written as chosen (its name must end in .gif), or empty.
    QString problem() const;

  private:
    void browse();

    QSpinBox *frames_;
    QSpinBox *step_;
    QSpinBox *fps_;
    QSpinBox *width_;
    QSpinBox *height_;
    QLineEdit *path_;
};
