#include "figures/video_writer.h"

#include "support/allocator.h"

#include <QFileInfo>
#include <QObject>

#include <algorithm>
#include <cstring>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

namespace {

QString avError(int code)
{
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof text);
    return QString::fromUtf8(text);
}

// The file grows in memory; libavformat seeks back to finish an MP4's index or a WebM's cues.
struct MemoryFile {
    QByteArray bytes;
    qint64 position = 0;

    static int write(void *opaque, uint8_t *data, int size)
    {
        auto *f = static_cast<MemoryFile *>(opaque);
        const qint64 end = f->position + size;
        if (end > f->bytes.capacity())
            f->bytes.reserve(std::max(end, 2 * f->bytes.capacity())); // doubling: no copy a packet
        if (end > f->bytes.size())
            f->bytes.resize(end);
        std::memcpy(f->bytes.data() + f->position, data, static_cast<std::size_t>(size));
        f->position = end;
        return size;
    }
    static int64_t seek(void *opaque, int64_t offset, int whence)
    {
        auto *f = static_cast<MemoryFile *>(opaque);
        if (whence & AVSEEK_SIZE)
            return f->bytes.size();
        const qint64 base = (whence & 3) == SEEK_CUR ? f->position : (whence & 3) == SEEK_END ? f->bytes.size() : 0;
        if (base + offset < 0)
            return -1;
        f->position = base + offset;
        return f->position;
    }
};

} // namespace

struct VideoWriter::State {
    pe::ReuseLargeBlocks reuse; // x264's frame buffers, freed and taken again every frame
    MemoryFile file;
    AVFormatContext *format = nullptr;
    AVIOContext *io = nullptr;
    AVCodecContext *codec = nullptr;
    AVStream *stream = nullptr;
    AVFrame *frame = nullptr;
    AVPacket *packet = nullptr;
    SwsContext *scale = nullptr;
    bool headerWritten = false;

    ~State()
    {
        sws_freeContext(scale);
        av_packet_free(&packet);
        av_frame_free(&frame);
        avcodec_free_context(&codec);
        if (format)
            avformat_free_context(format);
        if (io) {
            av_freep(&io->buffer);
            avio_context_free(&io);
        }
    }

    // Every packet the encoder has ready, into the file.
    bool drain(QString *error)
    {
        for (;;) {
            const int r = avcodec_receive_packet(codec, packet);
            if (r == AVERROR(EAGAIN) || r == AVERROR_EOF)
                return true;
            if (r < 0) {
                *error = QObject::tr("the encoder failed: %1.").arg(avError(r));
                return false;
            }
            av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
            packet->stream_index = stream->index;
            const int w = av_interleaved_write_frame(format, packet); // takes the packet's data
            if (w < 0) {
                *error = QObject::tr("the video could not be written: %1.").arg(avError(w));
                return false;
            }
        }
    }
};

std::optional<VideoWriter::Codec> VideoWriter::codecForPath(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("mp4"))
        return Codec::H264;
    if (suffix == QLatin1String("webm"))
        return Codec::Vp9;
    return std::nullopt;
}

VideoWriter::VideoWriter() = default;
VideoWriter::~VideoWriter() = default;

bool VideoWriter::open(Codec codec, QSize size, int fps, QString *error)
{
    av_log_set_level(AV_LOG_ERROR); // the encoders' statistics are not the user's business
    s_ = std::make_unique<State>();
    State &s = *s_;
    // 4:2:0 halves the chroma: even sides.
    size_ = size;
    const int width = size.width() + size.width() % 2, height = size.height() + size.height() % 2;
    const bool h264 = codec == Codec::H264;
    const AVCodec *encoder = avcodec_find_encoder_by_name(h264 ? "libx264" : "libvpx-vp9");
    if (!encoder)
        encoder = avcodec_find_encoder(h264 ? AV_CODEC_ID_H264 : AV_CODEC_ID_VP9);
    if (!encoder) {
        *error = QObject::tr("FFmpeg's libavcodec here has no %1 encoder.")
                     .arg(h264 ? QStringLiteral("H.264") : QStringLiteral("VP9"));
        return false;
    }
    if (avformat_alloc_output_context2(&s.format, nullptr, h264 ? "mp4" : "webm", nullptr) < 0 || !s.format) {
        *error = QObject::tr("FFmpeg's libavformat here cannot write %1.")
                     .arg(h264 ? QStringLiteral("MP4") : QStringLiteral("WebM"));
        return false;
    }
    constexpr int kBuffer = 1 << 16;
    auto *buffer = static_cast<unsigned char *>(av_malloc(kBuffer));
    s.io = avio_alloc_context(buffer, kBuffer, 1, &s.file, nullptr, &MemoryFile::write, &MemoryFile::seek);
    s.io->seekable = AVIO_SEEKABLE_NORMAL;
    s.format->pb = s.io;
    s.format->flags |= AVFMT_FLAG_CUSTOM_IO;
    s.stream = avformat_new_stream(s.format, nullptr);
    s.codec = avcodec_alloc_context3(encoder);
    s.frame = av_frame_alloc();
    s.packet = av_packet_alloc();
    if (!s.stream || !s.codec || !s.frame || !s.packet) {
        *error = QObject::tr("out of memory for the video.");
        return false;
    }
    AVCodecContext *c = s.codec;
    c->width = width;
    c->height = height;
    c->time_base = AVRational{1, fps};
    c->framerate = AVRational{fps, 1};
    c->pix_fmt = AV_PIX_FMT_YUV420P;
    c->thread_count = 0;   // every core
    c->gop_size = 2 * fps; // a key frame every two seconds: a player seeks quickly
    c->color_primaries = AVCOL_PRI_BT709;
    c->color_trc = AVCOL_TRC_BT709;
    c->colorspace = AVCOL_SPC_BT709;
    c->color_range = AVCOL_RANGE_MPEG;
    if (s.format->oformat->flags & AVFMT_GLOBALHEADER)
        c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    // Plots are flat colour and thin lines: quality over size (CRF 18 for x264, 30 for VP9's scale).
    if (h264) {
        av_opt_set(c->priv_data, "preset", "medium", 0);
        av_opt_set(c->priv_data, "tune", "animation", 0);
        av_opt_set(c->priv_data, "crf", "18", 0);
    } else {
        av_opt_set(c->priv_data, "crf", "30", 0);
        av_opt_set_int(c->priv_data, "row-mt", 1, 0);
        av_opt_set(c->priv_data, "deadline", "good", 0);
        av_opt_set_int(c->priv_data, "cpu-used", 5, 0);
        av_opt_set_int(c->priv_data, "tile-columns", 2, 0);
        c->bit_rate = 0; // constant quality
    }
    if (const int r = avcodec_open2(c, encoder, nullptr); r < 0) {
        *error = QObject::tr("the %1 encoder refused %2 x %3 at %4 frames a second: %5.")
                     .arg(QString::fromUtf8(encoder->name))
                     .arg(width)
                     .arg(height)
                     .arg(fps)
                     .arg(avError(r));
        return false;
    }
    avcodec_parameters_from_context(s.stream->codecpar, c);
    s.stream->time_base = c->time_base;
    s.stream->avg_frame_rate = c->framerate;
    s.frame->format = c->pix_fmt;
    s.frame->width = width;
    s.frame->height = height;
    if (av_frame_get_buffer(s.frame, 0) < 0) {
        *error = QObject::tr("out of memory for the video's frames.");
        return false;
    }
    s.scale = sws_getContext(width, height, AV_PIX_FMT_BGRA, width, height, AV_PIX_FMT_YUV420P, SWS_BICUBIC, nullptr,
                             nullptr, nullptr);
    if (!s.scale) {
        *error = QObject::tr("libswscale cannot convert the frames.");
        return false;
    }
    // RGB to BT.709's YUV in the limited range the stream declares.
    sws_setColorspaceDetails(s.scale, sws_getCoefficients(SWS_CS_ITU709), 1, sws_getCoefficients(SWS_CS_ITU709), 0, 0,
                             1 << 16, 1 << 16);
    if (const int r = avformat_write_header(s.format, nullptr); r < 0) {
        *error = QObject::tr("the video's header could not be written: %1.").arg(avError(r));
        return false;
    }
    s.headerWritten = true;
    return true;
}

bool VideoWriter::addFrame(const QImage &image, QString *error)
{
    if (!s_ || !s_->headerWritten) {
        *error = QObject::tr("the video is not open.");
        return false;
    }
    if (image.size() != size_) {
        *error = QObject::tr("a frame of %1 x %2 in a video of %3 x %4.")
                     .arg(image.width())
                     .arg(image.height())
                     .arg(size_.width())
                     .arg(size_.height());
        return false;
    }
    State &s = *s_;
    // BGRA in memory (ARGB32 little-endian) at the encoder's even sides (an odd one repeats the
    // last column or row), with room past the rows: libswscale's vector code reads beyond a row.
    const QImage rgb = image.convertToFormat(QImage::Format_ARGB32);
    const int width = s.codec->width, height = s.codec->height;
    if (source_.width() < width + 32 || source_.height() < height + 1)
        source_ = QImage(width + 32, height + 1, QImage::Format_ARGB32);
    for (int y = 0; y < height; ++y) {
        const auto *from = reinterpret_cast<const QRgb *>(rgb.constScanLine(std::min(y, rgb.height() - 1)));
        auto *to = reinterpret_cast<QRgb *>(source_.scanLine(y));
        std::memcpy(to, from, static_cast<std::size_t>(rgb.width()) * sizeof(QRgb));
        if (width > rgb.width())
            to[width - 1] = from[rgb.width() - 1];
    }
    if (av_frame_make_writable(s.frame) < 0) {
        *error = QObject::tr("out of memory for the video's frames.");
        return false;
    }
    const uint8_t *planes[1] = {source_.constBits()};
    const int strides[1] = {static_cast<int>(source_.bytesPerLine())};
    sws_scale(s.scale, planes, strides, 0, height, s.frame->data, s.frame->linesize);
    s.frame->pts = frames_;
    if (const int r = avcodec_send_frame(s.codec, s.frame); r < 0) {
        *error = QObject::tr("the encoder refused frame %1: %2.").arg(frames_).arg(avError(r));
        return false;
    }
    ++frames_;
    return s.drain(error);
}

QByteArray VideoWriter::finish(QString *error)
{
    if (!s_ || !s_->headerWritten) {
        *error = QObject::tr("the video is not open.");
        return {};
    }
    State &s = *s_;
    if (avcodec_send_frame(s.codec, nullptr) < 0 || !s.drain(error))
        return {};
    if (const int r = av_write_trailer(s.format); r < 0) {
        *error = QObject::tr("the video's index could not be written: %1.").arg(avError(r));
        return {};
    }
    avio_flush(s.io);
    QByteArray bytes = std::move(s.file.bytes);
    s_.reset();
    return bytes;
}
