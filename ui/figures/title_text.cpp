#include "figures/title_text.h"

#include <QCache>
#include <QGlyphRun>
#include <QPainterPath>
#include <QRawFont>
#include <QTextLayout>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <optional>
#include <vector>

namespace {

// A glyph's place is kept to a quarter of a device pixel each way (Qt's own glyph cache keeps x so).
constexpr int kSubpixel = 4;
// The images kept, in bytes: ~600 glyphs of 70 device pixels, ~170 of 130.
constexpr qsizetype kCacheBytes = qsizetype(32) << 20;
// The flags QPainter::drawText gets from the titles, and the ones laid out here as it lays them out.
constexpr int kFlagsLaidOut = (int(Qt::AlignHorizontal_Mask) & ~int(Qt::AlignJustify)) |
                              (int(Qt::AlignVertical_Mask) & ~int(Qt::AlignBaseline)) | int(Qt::TextWordWrap) |
                              int(Qt::TextDontClip);

std::atomic<qint64> textsDrawn{0};

// Qt's raster engine fills the outline of every glyph above this size in device pixels and draws
// smaller type from its glyph cache (QPaintEngineEx::shouldDrawCachedGlyphs in Qt 6.4, the same
// comparison and the same environment variable).
bool qtCachesGlyphs(double devicePixelSize)
{
    static const int largest = [] {
        const int set = qEnvironmentVariableIntValue("QT_MAX_CACHED_GLYPH_SIZE");
        return set > 0 ? set : 64;
    }();
    return devicePixelSize <= largest;
}

struct GlyphKey {
    QRawFont font; // compared by its font engine (and kept alive with it)
    quint32 glyph;
    double scale;
    int dx, dy; // the glyph's offset from its whole device pixel, in quarters of a pixel
    QRgb colour;
    bool operator==(const GlyphKey &) const = default;
};

size_t qHash(const GlyphKey &k, size_t seed = 0)
{
    return qHashMulti(seed, k.font, k.glyph, k.scale, k.dx, k.dy, k.colour);
}

struct GlyphImage {
    QImage image;  // premultiplied, in device pixels; null for a glyph with no outline (a space)
    QPoint origin; // where the image's top left goes, from the glyph's whole device pixel
};

// The glyph's outline filled at the device's scale and offset (nullopt: it has no outline but
// covers pixels, a colour or bitmap glyph, which Qt draws its own way).
std::optional<GlyphImage> glyphImage(const GlyphKey &key)
{
    // One cache a thread: figures are drawn on the GUI thread, a test may draw on its own.
    thread_local QCache<GlyphKey, GlyphImage> cache(kCacheBytes);
    if (const GlyphImage *kept = cache.object(key))
        return *kept;
    QPainterPath outline = key.font.pathForGlyph(key.glyph);
    if (outline.isEmpty() && !key.font.boundingRect(key.glyph).isEmpty())
        return std::nullopt;
    // Overlapping contours (variable fonts, composite glyphs) fill as one: Qt's own outline
    // drawing fills glyph paths with the winding rule.
    outline.setFillRule(Qt::WindingFill);
    const QPainterPath path = QTransform::fromScale(key.scale, key.scale)
                                  .translate(static_cast<double>(key.dx) / kSubpixel / key.scale,
                                             static_cast<double>(key.dy) / kSubpixel / key.scale)
                                  .map(outline);
    auto made = std::make_unique<GlyphImage>();
    if (!path.isEmpty()) {
        const QRect box = path.boundingRect().toAlignedRect().adjusted(-1, -1, 1, 1);
        made->origin = box.topLeft();
        made->image = QImage(box.size(), QImage::Format_ARGB32_Premultiplied);
        made->image.fill(Qt::transparent);
        QPainter p(&made->image);
        p.setRenderHint(QPainter::Antialiasing);
        p.translate(-box.topLeft());
        p.fillPath(path, QColor::fromRgba(key.colour));
    }
    const GlyphImage result = *made;
    cache.insert(key, made.release(), std::max<qsizetype>(1, result.image.sizeInBytes()));
    return result;
}

bool rightToLeft(const QString &text)
{
    return std::any_of(text.begin(), text.end(), [](QChar c) {
        const QChar::Direction d = c.direction();
        return d == QChar::DirR || d == QChar::DirAL || d == QChar::DirRLE || d == QChar::DirRLO ||
               d == QChar::DirRLI || d == QChar::DirAN;
    });
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
    // Vector devices keep their text, and a one-off export (pmNoCaching) keeps nothing.
    QRectF drawn;
    if (!painter->modes().testFlag(QCPPainter::pmVectorized) && !painter->modes().testFlag(QCPPainter::pmNoCaching) &&
        drawTextFromGlyphImages(painter, mRect, mTextFlags, mText, &drawn))
        mTextBoundingRect = drawn.toAlignedRect();
    else
        painter->drawText(mRect, mTextFlags, mText, &mTextBoundingRect);
}

bool drawTextFromGlyphImages(QPainter *painter, const QRectF &rect, int flags, const QString &text, QRectF *bounds)
{
    // The cases laid out here as QPainter::drawText lays them out; the rest are its own.
    const QFont font = painter->font();
    if (text.isEmpty() || (flags & ~kFlagsLaidOut) || !painter->paintEngine() ||
        painter->paintEngine()->type() != QPaintEngine::Raster || painter->viewTransformEnabled() ||
        painter->layoutDirection() == Qt::RightToLeft || rightToLeft(text) || text.contains(QLatin1Char('\t')) ||
        text.contains(QLatin1Char('\r')) || text.contains(QLatin1Char('&')) || font.underline() || font.overline() ||
        font.strikeOut() || painter->pen().style() == Qt::NoPen || painter->pen().brush().style() != Qt::SolidPattern)
        return false;
    const QTransform world = painter->worldTransform();
    if (world.type() > QTransform::TxScale || world.m11() != world.m22() || world.m11() <= 0)
        return false;
    const double ratio = painter->device()->devicePixelRatioF();
    const double scale = world.m11() * ratio;
    // The type's size in device pixels, fractional, as Qt compares it.
    const QFont onDevice(font, painter->device());
    const double pixels = onDevice.pixelSize() > 0 ? onDevice.pixelSize()
                                                   : onDevice.pointSizeF() * painter->device()->logicalDpiY() / 72.0;
    if (qtCachesGlyphs(pixels * scale))
        return false;

    // QPainter::drawText's layout (qt_format_text in Qt 6.4): the same text options, lines a
    // leading apart and each on a whole pixel, the block as high as the last line's top and its
    // ascent and descent (QPainter::boundingRect), each line aligned in the rectangle and the
    // block as a whole. tst_plot_drawing compares the pixels.
    QString lines = text;
    lines.replace(QLatin1Char('\n'), QChar::LineSeparator);
    QTextLayout layout(lines, font, painter->device());
    QTextOption option;
    option.setTextDirection(Qt::LeftToRight);
    const bool wrap = flags & Qt::TextWordWrap;
    option.setWrapMode(wrap ? QTextOption::WordWrap : QTextOption::ManualWrap);
    if (!wrap)
        option.setFlags(QTextOption::IncludeTrailingSpaces);
    layout.setTextOption(option);
    const double lineWidth = wrap ? std::max(0.0, rect.width()) : double(0x01000000);
    const double leading = QFontMetricsF(font).leading();
    const bool clips = !(flags & Qt::TextDontClip);
    double height = -leading, widest = 0;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(lineWidth);
        height = std::ceil(height + leading);
        line.setPosition(QPointF(0, height));
        height += line.ascent() + line.descent();
        widest = std::max(widest, line.naturalTextWidth());
        if (clips && !bounds && height >= rect.height())
            break;
    }
    layout.endLayout();
    const auto across = [&](double width) {
        return (flags & Qt::AlignRight)     ? rect.width() - width
               : (flags & Qt::AlignHCenter) ? (rect.width() - width) / 2
                                            : 0;
    };
    const double yoff = (flags & Qt::AlignBottom)    ? rect.height() - height
                        : (flags & Qt::AlignVCenter) ? (rect.height() - height) / 2
                                                     : 0;
    const QRectF block(rect.x() + across(widest), rect.y() + yoff, widest, height);

    // Every glyph's image first: a glyph with no outline that covers pixels leaves it to Qt.
    struct Placed {
        QPoint at;
        QImage image;
    };
    std::vector<Placed> placed;
    const QColor colour = painter->pen().color();
    const QTransform toDevice = world * QTransform::fromScale(ratio, ratio);
    for (int i = 0; i < layout.lineCount(); ++i) {
        const QTextLine line = layout.lineAt(i);
        const QPointF origin(rect.x() + across(line.horizontalAdvance()), rect.y() + yoff);
        for (const QGlyphRun &run : line.glyphRuns()) {
            const QRawFont raw = run.rawFont();
            const QList<quint32> glyphs = run.glyphIndexes();
            const QList<QPointF> at = run.positions();
            for (int g = 0; g < glyphs.size(); ++g) {
                // The glyph's place to a quarter of a device pixel each way.
                const QPointF device = toDevice.map(origin + at[g]);
                const double qx = std::round(device.x() * kSubpixel), qy = std::round(device.y() * kSubpixel);
                const int px = static_cast<int>(std::floor(qx / kSubpixel));
                const int py = static_cast<int>(std::floor(qy / kSubpixel));
                const GlyphKey key{raw,
                                   glyphs[g],
                                   scale,
                                   static_cast<int>(qx) - px * kSubpixel,
                                   static_cast<int>(qy) - py * kSubpixel,
                                   colour.rgba()};
                const std::optional<GlyphImage> image = glyphImage(key);
                if (!image)
                    return false;
                if (!image->image.isNull())
                    placed.push_back({QPoint(px, py) + image->origin, image->image});
            }
        }
    }
    if (bounds)
        *bounds = block;
    painter->save();
    // Qt clips to the rectangle text that does not fit it, unless told not to.
    if (clips && !rect.contains(block))
        painter->setClipRect(rect, Qt::IntersectClip);
    // The images in device pixels, one to one.
    painter->setWorldTransform(QTransform::fromScale(1 / ratio, 1 / ratio));
    for (const Placed &p : placed)
        painter->drawImage(p.at, p.image);
    painter->restore();
    textsDrawn.fetch_add(1);
    return true;
}
