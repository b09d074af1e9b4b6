#include "figures/title_text.h"

#include <QGlyphRun>
#include <QHash>
#include <QPainterPath>
#include <QRawFont>
#include <QTextLayout>

#include <algorithm>
#include <atomic>
#include <cmath>

namespace {

// Qt's raster engine fills glyphs as outlines from this size in device pixels (QPaintEngineEx::
// shouldDrawCachedGlyphs, QT_MAX_CACHED_GLYPH_SIZE = 64 in Qt 6.4).
constexpr double kQtLargestCachedGlyph = 64;
// A glyph's place is kept to a quarter of a device pixel each way (Qt's own glyph cache keeps x so).
constexpr int kSubpixel = 4;
// Images kept at most (then the cache starts again): about 4,000 glyphs of ~70 px is ~20 MB.
constexpr int kMostGlyphImages = 4000;

std::atomic<qint64> textsDrawn{0};

struct GlyphKey {
    QString family, style;
    double pixelSize;
    int weight;
    quint32 glyph;
    double scale;
    int dx, dy; // the glyph's offset from its whole device pixel, in quarters of a pixel
    QRgb colour;
    bool operator==(const GlyphKey &) const = default;
};

size_t qHash(const GlyphKey &k, size_t seed = 0)
{
    return qHashMulti(seed, k.family, k.style, k.pixelSize, k.weight, k.glyph, k.scale, k.dx, k.dy, k.colour);
}

struct GlyphImage {
    QImage image;  // premultiplied, in device pixels
    QPoint origin; // where the image's top left goes, from the glyph's whole device pixel
};

const GlyphImage &glyphImage(const QRawFont &font, quint32 glyph, double scale, int dx, int dy, const QColor &colour)
{
    // One cache a thread: figures are drawn on the GUI thread, a test may draw on its own.
    thread_local QHash<GlyphKey, GlyphImage> cache;
    const GlyphKey key{font.familyName(), font.styleName(), font.pixelSize(), font.weight(), glyph, scale, dx, dy,
                       colour.rgba()};
    if (const auto it = cache.constFind(key); it != cache.constEnd())
        return *it;
    if (cache.size() >= kMostGlyphImages)
        cache.clear();
    const QPainterPath path =
        QTransform::fromScale(scale, scale)
            .translate(static_cast<double>(dx) / kSubpixel / scale, static_cast<double>(dy) / kSubpixel / scale)
            .map(font.pathForGlyph(glyph));
    GlyphImage made;
    const QRect box = path.boundingRect().toAlignedRect().adjusted(-1, -1, 1, 1);
    made.origin = box.topLeft();
    if (!path.isEmpty()) {
        made.image = QImage(box.size(), QImage::Format_ARGB32_Premultiplied);
        made.image.fill(Qt::transparent);
        QPainter p(&made.image);
        p.setRenderHint(QPainter::Antialiasing);
        p.translate(-box.topLeft());
        p.fillPath(path, colour);
    }
    return *cache.insert(key, made);
}

} // namespace

qint64 TitleText::textsDrawnFromGlyphs()
{
    return textsDrawn.load();
}

void TitleText::draw(QCPPainter *painter)
{
    painter->setFont(mainFont());
    painter->setPen(QPen(mainTextColor()));
    QRectF drawn;
    if (!painter->modes().testFlag(QCPPainter::pmVectorized) &&
        drawTextFromGlyphImages(painter, mRect, mTextFlags, mText, &drawn))
        mTextBoundingRect = drawn.toAlignedRect();
    else
        painter->drawText(mRect, mTextFlags, mText, &mTextBoundingRect);
}

bool drawTextFromGlyphImages(QPainter *painter, const QRectF &rect, int flags, const QString &text, QRectF *bounds)
{
    if (text.isEmpty() || !painter->paintEngine() || painter->paintEngine()->type() != QPaintEngine::Raster ||
        text.contains(QLatin1Char('\t')))
        return false;
    const QTransform world = painter->worldTransform();
    if (world.type() > QTransform::TxScale || world.m11() != world.m22() || world.m11() <= 0)
        return false;
    const double scale = world.m11() * painter->device()->devicePixelRatioF();
    const QFont font = painter->font();
    if (QFontInfo(QFont(font, painter->device())).pixelSize() * scale < kQtLargestCachedGlyph)
        return false;

    // QPainter::drawText's layout (qt_format_text): lines one under another, each aligned in the
    // rectangle, the block aligned as a whole (tst_plot_drawing: the same pixels to a quarter pixel).
    QString lines = text;
    lines.replace(QLatin1Char('\n'), QChar::LineSeparator);
    QTextLayout layout(lines, font, painter->device());
    QTextOption option;
    option.setWrapMode(QTextOption::ManualWrap);
    layout.setTextOption(option);
    // Lines a whole line height apart (QTextLine::height(), rounded up); the block as high as the
    // last line's top and its ascent and descent (what QPainter::boundingRect gives).
    double top = 0, height = 0;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(1e6);
        line.setPosition(QPointF(0, top));
        height = top + line.ascent() + line.descent();
        top += line.height();
        if ((flags & Qt::TextWordWrap) && line.naturalTextWidth() > rect.width() + 0.5) {
            layout.endLayout();
            return false; // Qt would wrap it: not this drawing's case
        }
    }
    layout.endLayout();
    const double yoff = (flags & Qt::AlignBottom)    ? rect.height() - height
                        : (flags & Qt::AlignVCenter) ? (rect.height() - height) / 2
                                                     : 0;
    double widest = 0;
    for (int i = 0; i < layout.lineCount(); ++i)
        widest = std::max(widest, layout.lineAt(i).naturalTextWidth());
    if (bounds) {
        const double left = (flags & Qt::AlignRight)     ? rect.width() - widest
                            : (flags & Qt::AlignHCenter) ? (rect.width() - widest) / 2
                                                         : 0;
        *bounds = QRectF(rect.x() + left, rect.y() + yoff, widest, height);
    }
    const QColor colour = painter->pen().color();
    const QTransform toDevice =
        world * QTransform::fromScale(painter->device()->devicePixelRatioF(), painter->device()->devicePixelRatioF());
    painter->save();
    // Images placed in device pixels, one to one.
    painter->setWorldTransform(
        QTransform::fromScale(1 / painter->device()->devicePixelRatioF(), 1 / painter->device()->devicePixelRatioF()));
    for (int i = 0; i < layout.lineCount(); ++i) {
        const QTextLine line = layout.lineAt(i);
        const double advance = line.horizontalAdvance();
        const double xoff = (flags & Qt::AlignRight)     ? rect.width() - advance
                            : (flags & Qt::AlignHCenter) ? (rect.width() - advance) / 2
                                                         : 0;
        const QPointF origin(rect.x() + xoff, rect.y() + yoff);
        for (const QGlyphRun &run : line.glyphRuns()) {
            const QRawFont raw = run.rawFont();
            const QList<quint32> glyphs = run.glyphIndexes();
            const QList<QPointF> at = run.positions();
            for (int g = 0; g < glyphs.size(); ++g) {
                // The glyph's place to a quarter of a device pixel each way.
                const QPointF device = toDevice.map(origin + at[g]);
                const double qx = std::round(device.x() * kSubpixel), qy = std::round(device.y() * kSubpixel);
                const int px = static_cast<int>(std::floor(qx / kSubpixel)),
                          py = static_cast<int>(std::floor(qy / kSubpixel));
                const int dx = static_cast<int>(qx) - px * kSubpixel, dy = static_cast<int>(qy) - py * kSubpixel;
                const GlyphImage &image = glyphImage(raw, glyphs[g], scale, dx, dy, colour);
                if (!image.image.isNull())
                    painter->drawImage(QPoint(px, py) + image.origin, image.image);
            }
        }
    }
    painter->restore();
    textsDrawn.fetch_add(1);
    return true;
}
