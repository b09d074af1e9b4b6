#pragma once

#include <QByteArray>
#include <QImage>
#include <QString>

#include <memory>
#include <optional>

// A video through FFmpeg's libraries from Debian: H.264 (libx264) in MP4, or VP9 (libvpx) in WebM,
// frames converted from the figure's RGB to 4:2:0 YUV with BT.709's coefficients (libswscale) and
// muxed by libavformat into memory, so the caller writes the file atomically (as GIFs are written).
// Frames are the first frame's size; an odd width or height (4:2:0 halves them) gets one more
// column or row in the figure's edge colour. Encoding follows FFmpeg's own examples
// (doc/examples/encode_video.c, mux.c: send_frame, receive_packet, rescale, interleaved write);
// no code is copied.
class VideoWriter
{
  public:
    enum class Codec { H264, Vp9 };
    // .mp4 is H.264, .webm VP9 (case-insensitive); nothing for another ending.
    static std::optional<Codec> codecForPath(const QString &path);
    static constexpr int kMaxFps = 60;
    static constexpr int kMaxWidth = 3840;
    static constexpr int kMaxHeight = 2160;

    VideoWriter();
    ~VideoWriter();
    VideoWriter(const VideoWriter &) = delete;
    VideoWriter &operator=(const VideoWriter &) = delete;

    // Sets up the encoder for frames of `size` at `fps`; false with one sentence when FFmpeg has no
    // such encoder or refuses the size.
    bool open(Codec codec, QSize size, int fps, QString *error);
    // False with error set when the frame is not the first one's size or the encoder fails.
    bool addFrame(const QImage &frame, QString *error);
    // The file's bytes after the last frame (the encoder drained, the trailer written); empty on
    // failure.
    QByteArray finish(QString *error);
    int frames() const { return frames_; }

  private:
    struct State;
    std::unique_ptr<State> s_;
    QSize size_;
    QImage source_; // a frame at the encoder's size, with room past its rows
    int frames_ = 0;
};
