// AnimationDialog: Playback > Export animation's choices, the frames, their step, speed, format, size and
// type, and the file.
#pragma once

#include <QDialog>

#include <cstdint>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

// The defaults come from the view shown: as many frames as positions are left in the window (1 to
// 100), one position apart, 10 a second, the plot's size on screen, <view id>.gif in the current
// folder (the format: GIF, MP4 or WebM). Browse… picks the file; the window checks problem() after
// Save and writes the animation.
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
    // The tick labels' points, or 0 for the view's own (--font-size).
    double fontPoints() const;
    // "gif", "mp4" or "webm": the format chosen (the file's ending follows).
    void setFormat(const QString &ending);
    // Why the file cannot be written as chosen (its ending is not the format's, a GIF too large), or empty.
    QString problem() const;
    // GIFs are built in memory with a palette a frame: at most this many pixels a side.
    static constexpr int kMaxGifSide = 2000;

  private:
    void browse();

    QSpinBox *frames_;
    QSpinBox *step_;
    QSpinBox *fps_;
    QComboBox *format_;
    QSpinBox *width_;
    QSpinBox *height_;
    QDoubleSpinBox *font_;
    QLineEdit *path_;
};
