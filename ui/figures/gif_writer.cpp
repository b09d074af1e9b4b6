#include "figures/gif_writer.h"

#include <QObject>

#include <gif_lib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace {

int appendBytes(GifFileType *gif, const GifByteType *data, int length)
{
    static_cast<QByteArray *>(gif->UserData)->append(reinterpret_cast<const char *>(data), length);
    return length;
}

int bin(QRgb c)
{
    return ((qRed(c) >> 3) << 10) | ((qGreen(c) >> 3) << 5) | (qBlue(c) >> 3);
}

// A box of 15-bit colours (bins holding pixels), cut at the median of its widest channel.
struct Box {
    std::vector<int> bins;
    long long pixels = 0;
};

int channel(int b, int c)
{
    return (b >> (10 - 5 * c)) & 31;
}

} // namespace

QuantizedFrame quantize(const QImage &frame, int colours)
{
    const QImage image = frame.convertToFormat(QImage::Format_RGB32);
    std::vector<long long> count(1 << 15, 0);
    std::vector<std::array<long long, 3>> sum(1 << 15, {0, 0, 0});
    for (int y = 0; y < image.height(); ++y) {
        const auto *line = reinterpret_cast<const QRgb *>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            const int b = bin(line[x]);
            ++count[b];
            sum[b][0] += qRed(line[x]);
            sum[b][1] += qGreen(line[x]);
            sum[b][2] += qBlue(line[x]);
        }
    }
    std::vector<Box> boxes(1);
    for (int b = 0; b < (1 << 15); ++b)
        if (count[b] > 0) {
            boxes[0].bins.push_back(b);
            boxes[0].pixels += count[b];
        }
    // Cut the box with the most pixels spread over more than one bin, until there are enough.
    while (static_cast<int>(boxes.size()) < colours) {
        int widest = -1;
        for (int i = 0; i < static_cast<int>(boxes.size()); ++i)
            if (boxes[i].bins.size() > 1 && (widest < 0 || boxes[i].pixels > boxes[widest].pixels))
                widest = i;
        if (widest < 0)
            break; // every colour has its own entry
        Box &box = boxes[widest];
        int axis = 0, span = -1;
        for (int c = 0; c < 3; ++c) {
            const auto [lo, hi] = std::minmax_element(box.bins.begin(), box.bins.end(),
                                                      [c](int a, int b) { return channel(a, c) < channel(b, c); });
            if (channel(*hi, c) - channel(*lo, c) > span) {
                span = channel(*hi, c) - channel(*lo, c);
                axis = c;
            }
        }
        std::sort(box.bins.begin(), box.bins.end(),
                  [axis](int a, int b) { return channel(a, axis) < channel(b, axis); });
        long long half = 0;
        std::size_t cut = 0;
        while (cut + 1 < box.bins.size() && (half += count[box.bins[cut]]) * 2 < box.pixels)
            ++cut;
        cut = std::clamp<std::size_t>(cut + 1, 1, box.bins.size() - 1);
        Box upper;
        upper.bins.assign(box.bins.begin() + static_cast<std::ptrdiff_t>(cut), box.bins.end());
        box.bins.resize(cut);
        box.pixels = 0;
        for (int b : box.bins)
            box.pixels += count[b];
        for (int b : upper.bins)
            upper.pixels += count[b];
        boxes.push_back(std::move(upper));
    }
    QuantizedFrame out;
    std::vector<unsigned char> entry(1 << 15, 0);
    for (const Box &box : boxes) {
        std::array<long long, 3> s{0, 0, 0};
        for (int b : box.bins)
            for (int c = 0; c < 3; ++c)
                s[c] += sum[b][c];
        const long long n = std::max<long long>(box.pixels, 1);
        for (int b : box.bins)
            entry[b] = static_cast<unsigned char>(out.palette.size());
        out.palette.push_back(qRgb(static_cast<int>(s[0] / n), static_cast<int>(s[1] / n), static_cast<int>(s[2] / n)));
    }
    out.indices.resize(static_cast<std::size_t>(image.width()) * image.height());
    for (int y = 0; y < image.height(); ++y) {
        const auto *line = reinterpret_cast<const QRgb *>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x)
            out.indices[static_cast<std::size_t>(y) * image.width() + x] = entry[bin(line[x])];
    }
    return out;
}

struct GifWriter::Gif {
    GifFileType *file = nullptr;
};

GifWriter::GifWriter(QSize size, int fps)
    : gif_(std::make_unique<Gif>())
    , size_(size)
    , delay_(std::max(1, static_cast<int>(std::lround(100.0 / std::clamp(fps, 1, kMaxFps)))))
{
    int error = 0;
    gif_->file = EGifOpen(&bytes_, appendBytes, &error);
    if (!gif_->file) {
        failed_ = true;
        return;
    }
    EGifSetGifVersion(gif_->file, true); // GIF89a: delays and looping
    if (EGifPutScreenDesc(gif_->file, size.width(), size.height(), 8, 0, nullptr) == GIF_ERROR)
        failed_ = true;
    // Netscape's application block: loop forever.
    const unsigned char loop[] = {1, 0, 0};
    if (!failed_ &&
        (EGifPutExtensionLeader(gif_->file, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
         EGifPutExtensionBlock(gif_->file, 11, "NETSCAPE2.0") == GIF_ERROR ||
         EGifPutExtensionBlock(gif_->file, 3, loop) == GIF_ERROR || EGifPutExtensionTrailer(gif_->file) == GIF_ERROR))
        failed_ = true;
}

GifWriter::~GifWriter()
{
    if (gif_->file) {
        int error = 0;
        EGifCloseFile(gif_->file, &error);
    }
}

bool GifWriter::addFrame(const QImage &frame, QString *error)
{
    if (failed_ || frame.size() != size_) {
        failed_ = true;
        *error = QObject::tr("frame %1 could not be added to the GIF (%2 x %3 pixels, the first frame's %4 x %5).")
                     .arg(frames_)
                     .arg(frame.width())
                     .arg(frame.height())
                     .arg(size_.width())
                     .arg(size_.height());
        return false;
    }
    const QuantizedFrame q = quantize(frame);
    // A colour table has a power of two entries.
    int entries = 2;
    while (entries < static_cast<int>(q.palette.size()))
        entries *= 2;
    std::vector<GifColorType> colours(static_cast<std::size_t>(entries), GifColorType{0, 0, 0});
    for (std::size_t i = 0; i < q.palette.size(); ++i)
        colours[i] =
            GifColorType{static_cast<GifByteType>(qRed(q.palette[i])), static_cast<GifByteType>(qGreen(q.palette[i])),
                         static_cast<GifByteType>(qBlue(q.palette[i]))};
    ColorMapObject *map = GifMakeMapObject(entries, colours.data());
    GraphicsControlBlock control{DISPOSE_DO_NOT, false, delay_, NO_TRANSPARENT_COLOR};
    GifByteType extension[4];
    const int length = static_cast<int>(EGifGCBToExtension(&control, extension));
    bool ok = map && EGifPutExtension(gif_->file, GRAPHICS_EXT_FUNC_CODE, length, extension) != GIF_ERROR &&
              EGifPutImageDesc(gif_->file, 0, 0, size_.width(), size_.height(), false, map) != GIF_ERROR;
    for (int y = 0; ok && y < size_.height(); ++y)
        ok = EGifPutLine(gif_->file,
                         const_cast<GifPixelType *>(q.indices.data() + static_cast<std::size_t>(y) * size_.width()),
                         size_.width()) != GIF_ERROR;
    GifFreeMapObject(map);
    if (!ok) {
        failed_ = true;
        *error = QObject::tr("giflib could not encode frame %1.").arg(frames_);
        return false;
    }
    ++frames_;
    return true;
}

QByteArray GifWriter::finish(QString *error)
{
    int code = 0;
    const bool closed = gif_->file && EGifCloseFile(gif_->file, &code) != GIF_ERROR;
    gif_->file = nullptr;
    if (failed_ || !closed) {
        *error = QObject::tr("the GIF could not be written.");
        return {};
    }
    return bytes_;
}
