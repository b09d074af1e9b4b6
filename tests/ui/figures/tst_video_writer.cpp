// Videos (figures/video_writer.h): H.264 in MP4 and VP9 in WebM, read back with FFmpeg's own
// decoders: the codec, the size, the frame rate, every frame there and each one the picture it was
// given (mean error under 2% of the range after 4:2:0); an odd size padded; a wrong frame refused;
// the figure's animation loop writes a video, and nothing when cancelled.
#include "figures/figure_export.h"
#include "figures/plot_view.h"
#include "figures/video_writer.h"
#include "figures/workspace_views.h"
#include "state/parameters.h"
#include "state/workspace.h"
#include "window/animation_dialog.h"
#include "window/main_window.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QPainter>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

namespace {

// A frame that changes with k: a moving bar over a gradient, with text.
QImage pattern(QSize size, int k)
{
    QImage image(size, QImage::Format_ARGB32);
    QPainter p(&image);
    QLinearGradient g(0, 0, size.width(), 0);
    g.setColorAt(0, Qt::white);
    g.setColorAt(1, QColor(30, 60, 200));
    p.fillRect(image.rect(), g);
    p.fillRect(QRect(k * 7 % size.width(), 0, 24, size.height()), QColor(220, 40, 30));
    p.setPen(Qt::black);
    p.drawText(10, 30, QStringLiteral("frame %1").arg(k));
    return image;
}

struct Decoded {
    QString codec;
    QSize size;
    double fps = 0;
    std::vector<QImage> frames;
};

// Every frame of a file, as RGB (FFmpeg's decoder and libswscale).
Decoded decode(const QString &path)
{
    Decoded out;
    AVFormatContext *format = nullptr;
    if (avformat_open_input(&format, QFile::encodeName(path).constData(), nullptr, nullptr) < 0)
        return out;
    avformat_find_stream_info(format, nullptr);
    const int index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    AVStream *stream = format->streams[index];
    const AVCodec *decoder = avcodec_find_decoder(stream->codecpar->codec_id);
    AVCodecContext *c = avcodec_alloc_context3(decoder);
    avcodec_parameters_to_context(c, stream->codecpar);
    avcodec_open2(c, decoder, nullptr);
    out.codec = QString::fromUtf8(avcodec_get_name(stream->codecpar->codec_id));
    out.size = QSize(stream->codecpar->width, stream->codecpar->height);
    out.fps = av_q2d(stream->avg_frame_rate);
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    auto receive = [&] {
        while (avcodec_receive_frame(c, frame) == 0) {
            // libswscale's vector code may write past a packed row's end: room beyond, then cut.
            QImage rgb(frame->width + 32, frame->height + 1, QImage::Format_RGB32);
            SwsContext *s =
                sws_getContext(frame->width, frame->height, static_cast<AVPixelFormat>(frame->format), frame->width,
                               frame->height, AV_PIX_FMT_BGRA, SWS_BICUBIC, nullptr, nullptr, nullptr);
            sws_setColorspaceDetails(s, sws_getCoefficients(SWS_CS_ITU709), 0, sws_getCoefficients(SWS_CS_ITU709), 1, 0,
                                     1 << 16, 1 << 16);
            uint8_t *planes[1] = {rgb.bits()};
            const int strides[1] = {static_cast<int>(rgb.bytesPerLine())};
            sws_scale(s, frame->data, frame->linesize, 0, frame->height, planes, strides);
            sws_freeContext(s);
            out.frames.push_back(rgb.copy(0, 0, frame->width, frame->height));
        }
    };
    while (av_read_frame(format, packet) >= 0) {
        if (packet->stream_index == index && avcodec_send_packet(c, packet) == 0)
            receive();
        av_packet_unref(packet);
    }
    avcodec_send_packet(c, nullptr);
    receive();
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&c);
    avformat_close_input(&format);
    return out;
}

// Mean absolute difference per channel, 0 to 255, over the first image's pixels.
double meanError(const QImage &a, const QImage &b)
{
    double sum = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            sum += std::abs(qRed(p) - qRed(q)) + std::abs(qGreen(p) - qGreen(q)) + std::abs(qBlue(p) - qBlue(q));
        }
    return sum / (3.0 * a.width() * a.height());
}

bool write(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

} // namespace

class TestVideoWriter : public QObject
{
    Q_OBJECT

  private slots:
    void codecsByEnding()
    {
        QCOMPARE(VideoWriter::codecForPath(QStringLiteral("a.mp4")), std::optional(VideoWriter::Codec::H264));
        QCOMPARE(VideoWriter::codecForPath(QStringLiteral("a.WEBM")), std::optional(VideoWriter::Codec::Vp9));
        QVERIFY(!VideoWriter::codecForPath(QStringLiteral("a.gif")));
        QVERIFY(!VideoWriter::codecForPath(QStringLiteral("mp4")));
    }

    void writtenAndReadBack_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("codec");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<int>("fps");
        QTest::newRow("h264") << QStringLiteral("v.mp4") << QStringLiteral("h264") << QSize(320, 180) << 30;
        QTest::newRow("vp9") << QStringLiteral("v.webm") << QStringLiteral("vp9") << QSize(320, 180) << 60;
        QTest::newRow("odd size") << QStringLiteral("odd.mp4") << QStringLiteral("h264") << QSize(201, 99) << 10;
    }

    void writtenAndReadBack()
    {
        QFETCH(QString, file);
        QFETCH(QString, codec);
        QFETCH(QSize, size);
        QFETCH(int, fps);
        QTemporaryDir dir;
        const QString path = dir.filePath(file);
        VideoWriter video;
        QString error;
        QVERIFY2(video.open(*VideoWriter::codecForPath(path), size, fps, &error), qPrintable(error));
        constexpr int kFrames = 24;
        std::vector<QImage> given;
        for (int k = 0; k < kFrames; ++k) {
            given.push_back(pattern(size, k));
            QVERIFY2(video.addFrame(given.back(), &error), qPrintable(error));
        }
        QVERIFY(!video.addFrame(pattern(size + QSize(2, 0), 0), &error)); // another size
        QVERIFY2(error.contains(QStringLiteral("a frame of")), qPrintable(error));
        const QByteArray bytes = video.finish(&error);
        QVERIFY2(!bytes.isEmpty(), qPrintable(error));
        QVERIFY(write(path, bytes));
        const Decoded d = decode(path);
        QCOMPARE(d.codec, codec);
        QCOMPARE(d.size, QSize(size.width() + size.width() % 2, size.height() + size.height() % 2));
        QCOMPARE(d.fps, static_cast<double>(fps));
        QCOMPARE(static_cast<int>(d.frames.size()), kFrames);
        for (int k = 0; k < kFrames; ++k) {
            const double e = meanError(given[static_cast<std::size_t>(k)], d.frames[static_cast<std::size_t>(k)]);
            QVERIFY2(e < 0.02 * 255, qPrintable(QStringLiteral("frame %1: mean error %2").arg(k).arg(e)));
        }
        // The padding repeats the edge: the extra column is the last one's colour.
        if (size.width() % 2) {
            const QImage &f = d.frames.front();
            const QRgb edge = f.pixel(size.width() - 1, 50), pad = f.pixel(size.width(), 50);
            QVERIFY(std::abs(qBlue(edge) - qBlue(pad)) < 16);
        }
    }

    // The figure's animation loop: a view's frames as a video; cancelled, nothing is written.
    void animationOfAView()
    {
        Parameters parameters;
        pe::EncodingParams p = parameters.values();
        p.seqLen = 100;
        p.dModel = 16;
        parameters.set(p);
        Workspace workspace(&parameters);
        WorkspaceViews figures(&workspace);
        std::unique_ptr<PlotView> view = figures.offscreenView(QStringLiteral("clocks"));
        FigureOptions options;
        options.size = QSize(640, 360);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("clocks.mp4"));
        QCOMPARE(writeAnimation(view.get(), parameters, options, 12, 1, 24, path), QString());
        const Decoded d = decode(path);
        QCOMPARE(static_cast<int>(d.frames.size()), 12);
        QCOMPARE(d.size, QSize(640, 360));
        QCOMPARE(parameters.position(), 11);
        const QString cancelled = dir.filePath(QStringLiteral("cancelled.webm"));
        const QString why =
            writeAnimation(view.get(), parameters, options, 12, 1, 24, cancelled, [](int k) { return k < 5; });
        QVERIFY(why.contains(QStringLiteral("cancelled")));
        QVERIFY(!QFile::exists(cancelled));
    }

    // Playback > Export animation: the format sets the file's ending and the frame rate's range;
    // the window writes the video at the type asked for.
    void exportAnimationFromTheWindow()
    {
        AnimationDialog dialog(QStringLiteral("Clocks"), QStringLiteral("clocks"), 50, QSize(640, 360));
        QVERIFY(dialog.path().endsWith(QStringLiteral("clocks.gif")));
        auto *fps = dialog.findChildren<QSpinBox *>().at(2);
        QCOMPARE(fps->maximum(), 50);
        dialog.setFormat(QStringLiteral("mp4"));
        QVERIFY(dialog.path().endsWith(QStringLiteral("clocks.mp4")));
        QCOMPARE(fps->maximum(), 60);
        QCOMPARE(dialog.problem(), QString());
        dialog.setFormat(QStringLiteral("webm"));
        QVERIFY(dialog.path().endsWith(QStringLiteral("clocks.webm")));
        dialog.findChild<QDoubleSpinBox *>(QStringLiteral("animationFont"))->setValue(2);
        QVERIFY(dialog.problem().contains(QStringLiteral("at least")));
        Parameters parameters;
        MainWindow w(&parameters);
        w.showView(QStringLiteral("clocks"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("window.mp4"));
        QString error;
        QVERIFY2(w.writeAnimation(path, QSize(1280, 720), 8, 1, 30, &error, {}, 22), qPrintable(error));
        const Decoded d = decode(path);
        QCOMPARE(static_cast<int>(d.frames.size()), 8);
        QCOMPARE(d.size, QSize(1280, 720));
        QCOMPARE(parameters.position(), 0); // the window's position stays
    }
};

QTEST_MAIN(TestVideoWriter)
#include "tst_video_writer.moc"
