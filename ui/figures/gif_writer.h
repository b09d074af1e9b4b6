#pragma once

#include <QByteArray>
#include <QImage>
#include <QString>

#include <memory>

// An animated GIF (giflib), built in memory a frame at a time so frames are not all held: each
// frame reduced to its own palette of at most 256 colours by median cut (plots have few colours:
// a heatmap's gradient, lines, text), shown for 1/fps s, looping forever. The caller writes
// bytes() atomically.
class GifWriter
{
  public:
    // fps from 1 to kMaxFps (GIF delays are whole hundredths of a second: 10 fps is 10 cs).
    static constexpr int kMaxFps = 50;
    GifWriter(QSize size, int fps);
    ~GifWriter();
    GifWriter(const GifWriter &) = delete;
    GifWriter &operator=(const GifWriter &) = delete;

    // False, with error set, if giflib refuses the frame (a size other than the first frame's).
    bool addFrame(const QImage &frame, QString *error);
    // The file's bytes after the last frame; empty if a frame failed.
    QByteArray finish(QString *error);
    int frames() const { return frames_; }

  private:
    struct Gif;
    std::unique_ptr<Gif> gif_;
    QByteArray bytes_;
    QSize size_;
    int delay_;
    int frames_ = 0;
    bool failed_ = false;
};

// The palette (at most `colours` entries) and each pixel's index into it: median cut over the
// frame's colours at 5 bits a channel, each box's mean its colour. Exposed for tests.
struct QuantizedFrame {
    std::vector<QRgb> palette;
    std::vector<unsigned char> indices; // row by row
};
QuantizedFrame quantize(const QImage &frame, int colours = 256);
