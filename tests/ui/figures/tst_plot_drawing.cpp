// How figures reach the screen: scatter symbols copied from one drawing and wide curves drawn a
// segment at a time (ScreenGraph) against QCustomPlot's own, and a position step's picture against the whole figure
// drawn again.
#include "figures/color_maps.h"
#include "figures/plot_view.h"
#include "figures/screen_graph.h"
#include "figures/title_text.h"
#include "figures/vector_color_map.h"
#include "figures/view_factory.h"
#include "scheme_support.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "test_support.h"
#include "views/projection_view.h"

#include <qcustomplot.h>

#include <QPainter>
#include <QPainterPath>
#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <functional>
#include <limits>
#include <memory>

namespace {

// QCustomPlot keeps its paint buffers, and a pixmap buffer its pixmap, protected: pointers to
// those members, formed in derived classes, read them from a plot the test made.
struct BuffersOf : QCustomPlot {
    static constexpr QList<QSharedPointer<QCPAbstractPaintBuffer>> QCustomPlot::*buffers = &BuffersOf::mPaintBuffers;
};
struct PixmapOf : QCPPaintBufferPixmap {
    static constexpr QPixmap QCPPaintBufferPixmap::*pixmap = &PixmapOf::mBuffer;
};

// The first paint buffer (every layer below the overlay) as the screen shows it, premultiplied:
// a transparent edge pixel compared by its coverage, not by a colour divided by an alpha of 1/255.
QImage screenBuffer(QCustomPlot &plot)
{
    const auto &buffers = plot.*BuffersOf::buffers;
    const auto *buffer = dynamic_cast<const QCPPaintBufferPixmap *>(buffers.first().data());
    return buffer ? (buffer->*PixmapOf::pixmap).toImage().convertToFormat(QImage::Format_ARGB32_Premultiplied)
                  : QImage();
}

// A plot of one graph, a QCPGraph or a ScreenGraph, set up by `fill` (its pen, style and data),
// over x from -5 to xEnd and y from -5 to 105, shown and drawn.
std::unique_ptr<QCustomPlot> graphPlot(bool screenGraph, double ratio, QSize size, double xEnd,
                                       const std::function<void(QCPGraph *)> &fill)
{
    auto plot = std::make_unique<QCustomPlot>();
    plot->resize(size);
    plot->setBufferDevicePixelRatio(ratio);
    fill(screenGraph ? new ScreenGraph(plot->xAxis, plot->yAxis) : plot->addGraph());
    plot->xAxis->setRange(-5, xEnd);
    plot->yAxis->setRange(-5, 105);
    plot->show();
    if (!QTest::qWaitForWindowExposed(plot.get()))
        return nullptr;
    plot->replot(QCustomPlot::rpImmediateRefresh);
    return plot;
}

// A plot of 300 symbols at positions off the pixel grid, in a QCPGraph or a ScreenGraph.
std::unique_ptr<QCustomPlot> scatterPlot(bool copies, const QCPScatterStyle &style, double ratio)
{
    return graphPlot(copies, ratio, QSize(500, 400), 105, [&](QCPGraph *g) {
        g->setLineStyle(QCPGraph::lsNone);
        g->setPen(QPen(QColor(30, 90, 200), 1.5));
        g->setScatterStyle(style);
        QVector<double> x, y;
        for (int i = 0; i < 300; ++i) {
            x << std::fmod(i * 0.6180339887, 1.0) * 100;
            y << std::fmod(i * 0.4142135623, 1.0) * 100;
        }
        g->setData(x, y);
    });
}

// A plot of a 300-point zigzag (noise: it crosses each row many times) in pen, with a gap at a NaN,
// in a QCPGraph or a ScreenGraph.
std::unique_ptr<QCustomPlot> curvePlot(bool screenGraph, const QPen &pen, double ratio)
{
    return graphPlot(screenGraph, ratio, QSize(600, 400), 305, [&](QCPGraph *g) {
        g->setPen(pen);
        QVector<double> x, y;
        for (int i = 0; i < 300; ++i) {
            x << i + 0.37;
            y << (i == 150 ? std::numeric_limits<double>::quiet_NaN() : std::fmod(i * 0.6180339887, 1.0) * 100);
        }
        g->setData(x, y);
    });
}

// A plot of 30 points 20 px apart with gaps: NaN first and last, two NaNs running, an infinite
// value; steps (lsStepLeft) or straight lines. Sparse, so that a segment drawn across a gap, or
// an outline off by an edge, shows.
std::unique_ptr<QCustomPlot> sparseCurvePlot(bool screenGraph, const QPen &pen, QCPGraph::LineStyle style, double ratio)
{
    return graphPlot(screenGraph, ratio, QSize(600, 400), 30, [&](QCPGraph *g) {
        g->setPen(pen);
        g->setLineStyle(style);
        const double nan = std::numeric_limits<double>::quiet_NaN();
        QVector<double> x, y;
        for (int i = 0; i < 30; ++i) {
            x << i + 0.37;
            y << (i == 0 || i == 29 || i == 12 || i == 13 ? nan
                  : i == 20                               ? std::numeric_limits<double>::infinity()
                                                          : std::fmod(i * 0.6180339887, 1.0) * 100);
        }
        g->setData(x, y);
    });
}

// A plot of a 37 x 23 colour map (a NaN cell, y reversed as the position matrices draw it, its
// range off the pixel grid), in a QCPColorMap or a VectorColorMap.
std::unique_ptr<QCustomPlot> colourMapPlot(bool copies, double ratio)
{
    auto plot = std::make_unique<QCustomPlot>();
    plot->resize(500, 400);
    plot->setBufferDevicePixelRatio(ratio);
    QCPColorMap *map =
        copies ? new VectorColorMap(plot->xAxis, plot->yAxis) : new QCPColorMap(plot->xAxis, plot->yAxis);
    map->setInterpolate(false);
    map->data()->setSize(37, 23);
    map->data()->setRange(QCPRange(0, 36), QCPRange(0, 22));
    for (int i = 0; i < 37; ++i)
        for (int j = 0; j < 23; ++j)
            map->data()->setCell(i, j, std::sin(i * 0.7) * std::cos(j * 0.3) + 0.01 * i);
    map->data()->setCell(5, 7, std::numeric_limits<double>::quiet_NaN());
    QCPColorGradient gradient(QCPColorGradient::gpThermal);
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(QColor(150, 150, 150));
    map->setGradient(gradient);
    map->setDataRange(QCPRange(-1.2, 1.4));
    plot->xAxis->setRange(-0.83, 35.27);
    plot->yAxis->setRange(-0.41, 21.9);
    plot->yAxis->setRangeReversed(true);
    plot->show();
    if (!QTest::qWaitForWindowExposed(plot.get()))
        return nullptr;
    // Drawn twice: a VectorColorMap copies its image on the second drawing.
    plot->replot(QCustomPlot::rpImmediateRefresh);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    return plot;
}

// How two pictures of the same figure differ over the pixels either inks (where either differs
// from the ground: the figure without its symbols or curve), channel by channel.
struct InkedDifference {
    long long inked = 0;
    long long apart = 0; // pixels that differ by more than a quarter of the range (64)
    int worst = 0;
    double mean = 0;
};

InkedDifference inkedDifference(const QImage &a, const QImage &b, const QImage &ground)
{
    InkedDifference r;
    double total = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y), g = ground.pixel(x, y);
            if (p == g && q == g)
                continue;
            ++r.inked;
            const int d = std::max({std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)),
                                    std::abs(qBlue(p) - qBlue(q)), std::abs(qAlpha(p) - qAlpha(q))});
            r.worst = std::max(r.worst, d);
            r.apart += d > 64;
            total += d;
        }
    r.mean = total / static_cast<double>(std::max(1LL, r.inked));
    return r;
}

// A view of the registry at n positions of d dimensions (its own scheme), 900 x 700, shown.
std::unique_ptr<PlotView> shownView(const ViewInfo &info, Parameters &params, std::int64_t n, int d)
{
    pe::EncodingParams v = testsupport::params(n, d);
    v.scheme = drawnScheme(info);
    if (params.set(v))
        return nullptr;
    std::unique_ptr<PlotView> view(createView(info, &params, nullptr));
    view->resize(900, 700);
    view->show();
    return QTest::qWaitForWindowExposed(view.get()) ? std::move(view) : nullptr;
}

// The largest difference of two pictures' channels, pixel by pixel.
int largestDifference(const QImage &a, const QImage &b)
{
    int worst = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            worst = std::max({worst, std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)),
                              std::abs(qBlue(p) - qBlue(q)), std::abs(qAlpha(p) - qAlpha(q))});
        }
    return worst;
}

} // namespace

class TestPlotDrawing : public QObject
{
    Q_OBJECT

  private slots:
    void scatterCopiesDrawQCustomPlotsSymbols();
    void wideCurvesDrawThePolylinesOutline();
    void everyViewsGraphIsAScreenGraph();
    void colourMapCopyDrawsQCustomPlotsImage();
    void positionStepPaintsTheWholeFigure();
    void matrixPageTurnsPastItsMiddle();
    void largeTypeDrawsTheSameLetters();
    void filledCellsAreTheValues();
};

void TestPlotDrawing::scatterCopiesDrawQCustomPlotsSymbols()
{
    // On the screen, at ratio 1 and 2, each symbol is QCustomPlot's own drawing, placed within an
    // eighth of a device pixel: the two pictures differ only in the antialiased edges' shades.
    // Measured here: at most 73 of 255 at a pixel, 4 to 10 on average over the symbols' pixels.
    // Exports draw QCustomPlot's way, pixel for pixel.
    const std::vector<QCPScatterStyle> styles{
        QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(30, 90, 200), 5),
        QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(40, 160, 60), Qt::white, 7)};
    for (const double ratio : {1.0, 2.0})
        for (const QCPScatterStyle &style : styles) {
            const QString what = QStringLiteral("shape %1 at ratio %2").arg(style.shape()).arg(ratio);
            auto own = scatterPlot(false, style, ratio);
            auto copied = scatterPlot(true, style, ratio);
            auto blank = scatterPlot(false, QCPScatterStyle(QCPScatterStyle::ssNone), ratio);
            QVERIFY(own && copied && blank);
            const QImage a = screenBuffer(*own), b = screenBuffer(*copied), ground = screenBuffer(*blank);
            QVERIFY2(!a.isNull() && a.size() == b.size() && a.size() == ground.size(), qPrintable(what));
            QCOMPARE(a.size(), QSize(500, 400) * ratio);
            // The copies were drawn (a picture equal to QCustomPlot's would pass anything below).
            QVERIFY2(a != b, qPrintable(what));
            // Over the symbols' pixels alone: those either picture inks over the axes and grid.
            const InkedDifference diff = inkedDifference(a, b, ground);
            const long long inked = diff.inked;
            const int worst = diff.worst;
            const double mean = diff.mean;
            // 300 symbols drawn (a blank buffer would pass any comparison).
            QVERIFY2(inked > 300 * 10 * ratio * ratio, qPrintable(what + QStringLiteral(": %1 inked").arg(inked)));
            // An eighth of a pixel moves an edge's coverage by at most an eighth: shades of the edges
            // (a symbol a pixel off averages over 40 here), never a pixel turned from ground to ink.
            QVERIFY2(worst <= 96, qPrintable(what + QStringLiteral(": a pixel differs by %1").arg(worst)));
            QVERIFY2(mean < 12, qPrintable(what + QStringLiteral(": inked pixels differ by %1 on average").arg(mean)));
            // Exports: QCustomPlot's path.
            QCOMPARE(copied->toPixmap(300, 200, 2).toImage(), own->toPixmap(300, 200, 2).toImage());
        }
    // A curve with discs, as the similarity view draws up to 120 positions: a wide round pen, the
    // discs in its colour, both on the screen's path. Measured: at most 61 apart.
    for (const double ratio : {1.0, 2.0}) {
        const auto discsOnACurve = [](bool screenGraph, double r, bool line, bool discs) {
            return graphPlot(screenGraph, r, QSize(500, 400), 105, [&](QCPGraph *g) {
                g->setPen(line ? QPen(QColor(30, 90, 200), 3.2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin)
                               : QPen(Qt::NoPen));
                g->setScatterStyle(discs ? QCPScatterStyle(QCPScatterStyle::ssDisc, 6.4) : QCPScatterStyle());
                QVector<double> x, y;
                for (int i = 0; i < 80; ++i) {
                    x << i * 1.25 + 0.3;
                    y << 50 + 40 * std::sin(i * 0.9);
                }
                g->setData(x, y);
            });
        };
        auto own = discsOnACurve(false, ratio, true, true);
        auto screen = discsOnACurve(true, ratio, true, true);
        auto blank = discsOnACurve(false, ratio, false, false);
        QVERIFY(own && screen && blank);
        const QImage a = screenBuffer(*own), b = screenBuffer(*screen);
        QVERIFY(a != b);
        const InkedDifference diff = inkedDifference(a, b, screenBuffer(*blank));
        qInfo("discs on a curve at ratio %g: %lld inked, at most %d apart, %lld by more than 64", ratio, diff.inked,
              diff.worst, diff.apart);
        QVERIFY(diff.inked > 80 * 30 * ratio * ratio);
        QVERIFY2(diff.worst <= 96 && diff.apart * 500 <= diff.inked,
                 qPrintable(QStringLiteral("at most %1 apart").arg(diff.worst)));
    }
    // Any other shape: QCustomPlot's own drawing, on the screen too.
    const QCPScatterStyle cross(QCPScatterStyle::ssCross, QColor(200, 30, 30), 8);
    for (const double ratio : {1.0, 2.0}) {
        auto own = scatterPlot(false, cross, ratio);
        auto copied = scatterPlot(true, cross, ratio);
        QVERIFY(own && copied);
        QCOMPARE(screenBuffer(*copied), screenBuffer(*own));
    }
}

void TestPlotDrawing::wideCurvesDrawThePolylinesOutline()
{
    // A wide round pen drawn a segment at a time on the screen: the polyline's outline, the
    // shades of the antialiased edges where segments overlap aside.
    for (const double ratio : {1.0, 2.0})
        for (const double width : {2.5, 6.0}) {
            const QString what = QStringLiteral("width %1 at ratio %2").arg(width).arg(ratio);
            const QPen pen(QColor(30, 90, 200), width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
            auto own = curvePlot(false, pen, ratio);
            auto segments = curvePlot(true, pen, ratio);
            auto blank = curvePlot(false, Qt::NoPen, ratio);
            QVERIFY(own && segments && blank);
            const QImage a = screenBuffer(*own), b = screenBuffer(*segments), ground = screenBuffer(*blank);
            QVERIFY2(!a.isNull() && a.size() == b.size() && a.size() == ground.size(), qPrintable(what));
            QVERIFY2(a != b, qPrintable(what)); // drawn a segment at a time
            const InkedDifference diff = inkedDifference(a, b, ground);
            const long long inked = diff.inked, apart = diff.apart;
            const int worst = diff.worst;
            const QString measured = QStringLiteral(": %1 of %2 inked pixels differ by more than 64, at most by %3")
                                         .arg(apart)
                                         .arg(inked)
                                         .arg(worst);
            qInfo("%s", qPrintable(what + measured));
            QVERIFY2(inked > 300 * 20 * ratio * width, qPrintable(what + measured));
            QVERIFY2(worst <= 96 && apart * 500 <= inked, qPrintable(what + measured));
            // Exports: QCustomPlot's polyline.
            QCOMPARE(segments->toPixmap(300, 200, 2).toImage(), own->toPixmap(300, 200, 2).toImage());
        }
    // Sparse curves with gaps (NaN first, last and twice running, an infinite value), as lines and
    // as steps: where one segment's antialiased edge crosses another's the shades differ, by
    // about a quarter of the range (64 at ratio 1, 70 at ratio 2 measured); a wrong cap differs by
    // more. The gaps stay gaps (Qt itself draws nothing for a segment to a point that is not
    // finite, so a segment across one would not show here either).
    for (const double ratio : {1.0, 2.0})
        for (const QCPGraph::LineStyle style : {QCPGraph::lsLine, QCPGraph::lsStepLeft}) {
            const QString what = QStringLiteral("sparse, style %1 at ratio %2").arg(style).arg(ratio);
            const QPen pen(QColor(30, 90, 200), 4, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
            auto own = sparseCurvePlot(false, pen, style, ratio);
            auto segments = sparseCurvePlot(true, pen, style, ratio);
            auto blank = sparseCurvePlot(false, Qt::NoPen, style, ratio);
            QVERIFY(own && segments && blank);
            const QImage a = screenBuffer(*own), b = screenBuffer(*segments), ground = screenBuffer(*blank);
            QVERIFY2(a != b, qPrintable(what));
            const InkedDifference diff = inkedDifference(a, b, ground);
            qInfo("%s: %lld inked, at most %d apart", qPrintable(what), diff.inked, diff.worst);
            QVERIFY2(diff.inked > 20 * 20 * ratio, qPrintable(what));
            QVERIFY2(diff.worst <= 80, qPrintable(what + QStringLiteral(": a pixel differs by %1").arg(diff.worst)));
        }
    // The views' curve pens take this path: the similarity view's curve at 48 positions.
    {
        Parameters params;
        const ViewInfo *similarity = findView(QStringLiteral("similarity"));
        QVERIFY(similarity);
        std::unique_ptr<PlotView> view = shownView(*similarity, params, 48, 16);
        QVERIFY(view);
        const QPen pen = view->plot()->graph(0)->pen();
        QVERIFY(!pen.isCosmetic() && pen.widthF() > 1 && pen.style() == Qt::SolidLine &&
                pen.capStyle() == Qt::RoundCap && pen.joinStyle() == Qt::RoundJoin && pen.color().alpha() == 255);
    }
    // A translucent pen (each joint would be shaded twice), a hairline, a square cap or a dash:
    // QCustomPlot's own drawing, on the screen too.
    QPen translucent(QColor(30, 90, 200, 160), 4, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    QPen hairline(QColor(30, 90, 200), 0);
    hairline.setCosmetic(true);
    const QPen square(QColor(30, 90, 200), 4);
    const QPen dashed(QColor(30, 90, 200), 4, Qt::DashLine, Qt::RoundCap, Qt::RoundJoin);
    for (const QPen &pen : {translucent, hairline, square, dashed}) {
        auto own = curvePlot(false, pen, 2);
        auto segments = curvePlot(true, pen, 2);
        QVERIFY(own && segments);
        QCOMPARE(screenBuffer(*segments), screenBuffer(*own));
    }
}

void TestPlotDrawing::everyViewsGraphIsAScreenGraph()
{
    // Made by PlotView::addGraph, not QCustomPlot's: each view's curves and symbols take the
    // screen's faster drawing.
    int graphs = 0;
    for (const ViewInfo &info : viewRegistry()) {
        Parameters params;
        std::unique_ptr<PlotView> view = shownView(info, params, 48, 16);
        QVERIFY2(view, qPrintable(info.id));
        QCoreApplication::processEvents();
        for (int i = 0; i < view->plot()->graphCount(); ++i) {
            ++graphs;
            QVERIFY2(qobject_cast<ScreenGraph *>(view->plot()->graph(i)),
                     qPrintable(QStringLiteral("%1's graph %2").arg(info.id).arg(i)));
        }
    }
    QVERIFY(graphs > 30);
}

void TestPlotDrawing::colourMapCopyDrawsQCustomPlotsImage()
{
    // On the screen VectorColorMap draws its scaled copy of the cells' image, made by the drawImage
    // QCustomPlot calls: the picture is QCustomPlot's, pixel for pixel (the partly covered pixels at
    // the map's edges, blended once in the copy and again on the ground, round alike here).
    // The copy is made again when the cells, their place or the colours change, and only then, on
    // the second replot of the new image (the first draws it QCustomPlot's way).
    for (const double ratio : {1.0, 2.0}) {
        const QString what = QStringLiteral("ratio %1").arg(ratio);
        auto own = colourMapPlot(false, ratio);
        auto copied = colourMapPlot(true, ratio);
        QVERIFY(own && copied);
        auto *map = static_cast<VectorColorMap *>(copied->plottable(0));
        QCOMPARE(map->scaledCopiesMade(), 1);
        const auto same = [&](const char *when) {
            const QImage a = screenBuffer(*own), b = screenBuffer(*copied);
            QVERIFY2(!a.isNull() && a.size() == b.size(), when);
            const int worst = largestDifference(a, b);
            QVERIFY2(
                worst == 0,
                qPrintable(what + QStringLiteral(" %1: a pixel differs by %2").arg(QLatin1String(when)).arg(worst)));
        };
        same("first");
        // Replotted as it was: the copy drawn again, not made again.
        copied->replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(map->scaledCopiesMade(), 1);
        same("replotted");
        // The cells moved by a third of a cell, a cell changed, other colours: the first replot
        // draws the new image QCustomPlot's way (an animation's frames are each drawn once), the
        // second makes the copy again, the third draws it.
        int made = 1;
        const auto changed = [&](const char *when, const std::function<void(QCustomPlot *)> &change) {
            for (QCustomPlot *plot : {own.get(), copied.get()}) {
                change(plot);
                plot->replot(QCustomPlot::rpImmediateRefresh);
            }
            QCOMPARE(map->scaledCopiesMade(), made);
            same(when);
            for (int i = 0; i < 2; ++i) {
                copied->replot(QCustomPlot::rpImmediateRefresh);
                QCOMPARE(map->scaledCopiesMade(), made + 1);
                same(when);
            }
            ++made;
        };
        changed("moved", [](QCustomPlot *plot) { plot->xAxis->setRange(-0.5, 35.6); });
        changed("a cell changed", [](QCustomPlot *plot) {
            static_cast<QCPColorMap *>(plot->plottable(0))->data()->setCell(20, 11, 1.3);
        });
        changed("other colours", [](QCustomPlot *plot) {
            static_cast<QCPColorMap *>(plot->plottable(0))->setDataRange(QCPRange(-2, 2));
        });
        // Exports: QCustomPlot's path, pixel for pixel.
        QCOMPARE(copied->toPixmap(300, 200, 2).toImage(), own->toPixmap(300, 200, 2).toImage());
        QCOMPARE(map->scaledCopiesMade(), 4);
        // A new image on every replot (an animation) is never copied.
        for (int frame = 0; frame < 4; ++frame) {
            map->data()->setCell(3, 4, 0.1 * frame);
            copied->replot(QCustomPlot::rpImmediateRefresh);
        }
        QCOMPARE(map->scaledCopiesMade(), 4);
    }
}

void TestPlotDrawing::positionStepPaintsTheWholeFigure()
{
    // Every view that follows the position, stepped on the screen: the picture it paints is the
    // one the whole figure drawn again gives, pixel for pixel. The views that move only their
    // position's layer (the overlay) do so without a whole replot.
    const QStringList layerOnly{QStringLiteral("heatmap"), QStringLiteral("distance"),   QStringLiteral("circles"),
                                QStringLiteral("inputs"),  QStringLiteral("projection"), QStringLiteral("alibi"),
                                QStringLiteral("buckets")};
    const QStringList keptMaps{QStringLiteral("heatmap"),  QStringLiteral("distance"), QStringLiteral("inputs"),
                               QStringLiteral("relative"), QStringLiteral("alibi"),    QStringLiteral("buckets"),
                               QStringLiteral("attention")};
    int layered = 0, kept = 0;
    for (const ViewInfo &info : viewRegistry()) {
        Parameters params;
        std::unique_ptr<PlotView> view = shownView(info, params, 48, 16);
        QVERIFY2(view, qPrintable(info.id));
        if (!view->followsPosition())
            continue;
        QVERIFY(params.setPosition(7));
        if (auto *projection = qobject_cast<ProjectionView *>(view.get()))
            QTRY_VERIFY_WITH_TIMEOUT(!projection->running(), 60000);
        QCoreApplication::processEvents();
        // Drawn a second time, the maps' images are copied (the first drawing is QCustomPlot's).
        view->plot()->replot(QCustomPlot::rpImmediateRefresh);
        QSignalSpy replotted(view->plot(), &QCustomPlot::afterReplot);
        const auto copiesMade = [&view] {
            int made = 0;
            for (int i = 0; i < view->plot()->plottableCount(); ++i)
                if (const auto *map = dynamic_cast<const VectorColorMap *>(view->plot()->plottable(i)))
                    made += map->scaledCopiesMade();
            return made;
        };
        const int madeBefore = copiesMade();
        for (const std::int64_t t : {8, 9, 20}) {
            const QString what = QStringLiteral("%1 at %2").arg(info.id).arg(t);
            QVERIFY(params.setPosition(t));
            QCoreApplication::processEvents();
            const QImage stepped = view->plot()->grab().toImage();
            view->plot()->replot(QCustomPlot::rpImmediateRefresh);
            const QImage whole = view->plot()->grab().toImage();
            QVERIFY2(stepped == whole, qPrintable(what));
            // Drawn again: a map whose image the step made anew would be copied now.
            view->plot()->replot(QCustomPlot::rpImmediateRefresh);
        }
        // Colour maps whose cells do not follow the position keep their scaled copy: the cells
        // are not written again when they are the same (colormaps::fillColorMap).
        if (keptMaps.contains(info.id)) {
            ++kept;
            QVERIFY2(madeBefore > 0, qPrintable(info.id));
            QVERIFY2(copiesMade() == madeBefore, qPrintable(info.id));
        }
        if (layerOnly.contains(info.id)) {
            ++layered;
            QVERIFY2(view->plot()->layer(QStringLiteral("overlay"))->mode() == QCPLayer::lmBuffered,
                     qPrintable(info.id));
            QCOMPARE(replotted.count(), 6); // the six replots the test asked for, none of the steps'
        }
    }
    QCOMPARE(layered, layerOnly.size());
    QCOMPARE(kept, keptMaps.size());
}

void TestPlotDrawing::matrixPageTurnsPastItsMiddle()
{
    // The ALiBi and T5 views at 5,000 positions, 301 cells: a step on the page moves the row line
    // alone (the overlay, no whole replot), one past the page's middle half turns the page (a
    // whole replot, the cells' axes moved by half a page). Each step paints the whole figure's
    // picture.
    for (const ViewInfo &info : viewRegistry()) {
        if (info.id != QLatin1String("alibi") && info.id != QLatin1String("buckets"))
            continue;
        Parameters params;
        std::unique_ptr<PlotView> view = shownView(info, params, 5000, 16);
        QVERIFY2(view, qPrintable(info.id));
        QVERIFY(!view->applySettings({{info.id + QStringLiteral("Cells"), 301}}));
        QVERIFY(params.setPosition(2500));
        QCoreApplication::processEvents();
        QCPAxis *keys = view->plot()->xAxis;
        const double firstKey = keys->range().lower + 0.5;
        QCOMPARE(firstKey, static_cast<double>(testsupport::matrixPageFirst(2500, 0, 5000, 301)));
        // The page's last position in its middle half, then the first past it.
        const std::int64_t lastInMiddle = static_cast<std::int64_t>(firstKey) + 75 + 150 - 1;
        for (const std::int64_t t : {std::int64_t{2501}, lastInMiddle, lastInMiddle + 1}) {
            const QString what = QStringLiteral("%1 at %2").arg(info.id).arg(t);
            QSignalSpy replotted(view->plot(), &QCustomPlot::afterReplot);
            QVERIFY(params.setPosition(t));
            QCoreApplication::processEvents();
            const bool turned = t > lastInMiddle;
            QCOMPARE(replotted.count(), turned ? 1 : 0);
            QCOMPARE(keys->range().lower + 0.5, turned ? firstKey + 150 : firstKey);
            const QImage stepped = view->plot()->grab().toImage();
            view->plot()->replot(QCustomPlot::rpImmediateRefresh);
            QVERIFY2(stepped == view->plot()->grab().toImage(), qPrintable(what));
        }
    }
}

void TestPlotDrawing::largeTypeDrawsTheSameLetters()
{
    // Titles above 64 device pixels are drawn from cached glyph images (TitleText), where Qt fills
    // each glyph's outline. The picture must be Qt's: a three-line lecture title drawn both ways,
    // at a fractional place, at ratio 1 and 2 and 70 and 130 device pixels, dark and translucent,
    // in DejaVu Sans Bold (𝛼 from a fallback font) and in a font with a line gap (DejaVu Math TeX
    // Gyre, fonts-dejavu-extra), centred and unwrapped, and top left in a narrow rectangle that
    // wraps its lines.
    const QString text = QStringLiteral("T(7) maps PE(t) to PE(t + 7): max |T PE(t) − PE(t + 7)| = 2.2e−16\n"
                                        "offset read from x(2600), x(2607) with atan2: 7.000000 (error 4.4e−16)\n"
                                        "right: pairs 0–2 (λᵢ under 2|k| = 14) read 7 wrapped, 𝛼 = 0.5");
    bool gapMet = false;
    int cases = 0;
    for (const QString &family : {QStringLiteral("DejaVu Sans"), QStringLiteral("DejaVu Math TeX Gyre")})
        for (const double ratio : {1.0, 2.0})
            for (const int devicePixels : {70, 130})
                for (const bool narrow : {false, true}) {
                    QFont font(family, 11, family == QStringLiteral("DejaVu Sans") ? QFont::Bold : QFont::Normal);
                    font.setPixelSize(static_cast<int>(devicePixels / ratio));
                    QCOMPARE(QFontInfo(font).family(), family);
                    gapMet = gapMet || QFontMetricsF(font).leading() > 1;
                    const QColor colour = narrow ? QColor(200, 40, 40, 140) : QColor(20, 20, 30);
                    const int flags = narrow ? Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap | Qt::TextDontClip
                                             : Qt::AlignCenter | Qt::TextWordWrap;
                    const QRectF rect(13.3, 7.6, (narrow ? 3000 : 7900) / ratio, (narrow ? 1200 : 560) / ratio);
                    const QSize size(static_cast<int>(8000 / ratio), static_cast<int>(1250 / ratio));
                    const qint64 before = TitleText::textsDrawnFromGlyphs();
                    const auto drawn = [&](bool glyphs) {
                        QImage image(size * ratio, QImage::Format_ARGB32_Premultiplied);
                        image.setDevicePixelRatio(ratio);
                        image.fill(Qt::white);
                        QPainter p(&image);
                        p.setFont(font);
                        p.setPen(colour);
                        if (!glyphs || !drawTextFromGlyphImages(&p, rect, flags, text))
                            p.drawText(rect, flags, text);
                        return image;
                    };
                    const QImage glyphs = drawn(true), outlines = drawn(false);
                    QCOMPARE(TitleText::textsDrawnFromGlyphs(), before + 1);
                    // Inked pixels in either, and those that differ by more than a fifth of the
                    // range: one in a thousand at most, none by a third (glyphs are placed to a
                    // quarter pixel). With the block's height a rounded line height too high
                    // (0.26 px), 0.35 % differ; without the leading, whole lines move.
                    qint64 inked = 0, differing = 0, largest = 0;
                    for (int y = 0; y < glyphs.height(); ++y)
                        for (int x = 0; x < glyphs.width(); ++x) {
                            const int a = qGray(glyphs.pixel(x, y)), b = qGray(outlines.pixel(x, y));
                            inked += a < 200 || b < 200;
                            differing += std::abs(a - b) > 50;
                            largest = std::max<qint64>(largest, std::abs(a - b));
                        }
                    const QString what =
                        QStringLiteral("%1, ratio %2, %3 px, %4: %5 of %6 inked pixels differ, at most %7")
                            .arg(family)
                            .arg(ratio)
                            .arg(devicePixels)
                            .arg(narrow ? QStringLiteral("wrapped") : QStringLiteral("centred"))
                            .arg(differing)
                            .arg(inked)
                            .arg(largest);
                    qInfo().noquote() << what;
                    QVERIFY2(inked > 20000, qPrintable(what));
                    QVERIFY2(differing * 1000 < inked, qPrintable(what));
                    QVERIFY2(largest <= 85, qPrintable(what));
                    ++cases;
                }
    QCOMPARE(cases, 16);
    QVERIFY(gapMet); // the line gap's case was met
    // Qt's own drawing: under its 64 px, and flags or text this layout does not copy.
    QImage small(400, 100, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&small);
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(60);
    p.setFont(font);
    QVERIFY(!drawTextFromGlyphImages(&p, QRectF(0, 0, 400, 100), Qt::AlignCenter, QStringLiteral("T(7)")));
    font.setPixelSize(80);
    p.setFont(font);
    QVERIFY(drawTextFromGlyphImages(&p, QRectF(0, 0, 400, 100), Qt::AlignCenter, QStringLiteral("T(7)")));
    QVERIFY(!drawTextFromGlyphImages(&p, QRectF(0, 0, 400, 100), Qt::AlignCenter | Qt::TextShowMnemonic,
                                     QStringLiteral("T(7)")));
    QVERIFY(!drawTextFromGlyphImages(&p, QRectF(0, 0, 400, 100), Qt::AlignCenter, QStringLiteral("T\t7")));
    QVERIFY(!drawTextFromGlyphImages(&p, QRectF(0, 0, 400, 100), Qt::AlignCenter, QStringLiteral("שלום")));
}

void TestPlotDrawing::filledCellsAreTheValues()
{
    // colormaps::fillColorMap from row-major values: rows along the value axis are copied whole into
    // QCPColorMapData's cells (the heatmap's 6 million a frame), the rest set cell by cell. Every
    // cell must be its value, single rows and columns spread over two, a NaN kept; the bounds
    // widened; the image coloured again after a change and not after the same values.
    for (const bool rowsOnKeys : {false, true})
        for (const auto &[rows, cols] : std::vector<std::pair<int, int>>{{1, 1}, {1, 5}, {4, 1}, {2, 2}, {23, 37}}) {
            QCustomPlot plot;
            auto *map = new VectorColorMap(plot.xAxis, plot.yAxis);
            std::vector<double> values(static_cast<std::size_t>(rows * cols));
            for (int r = 0; r < rows; ++r)
                for (int c = 0; c < cols; ++c)
                    values[static_cast<std::size_t>(r * cols + c)] = std::sin(0.3 * r + 0.7 * c) * (1 + r);
            values.back() = std::numeric_limits<double>::quiet_NaN();
            const QString what = QStringLiteral("%1 x %2%3")
                                     .arg(rows)
                                     .arg(cols)
                                     .arg(rowsOnKeys ? QStringLiteral(" (rows on keys)") : QString());
            for (int round = 0; round < 3; ++round) {
                if (round == 2) // changed values: one row's
                    for (int c = 0; c < cols - 1; ++c)
                        values[static_cast<std::size_t>(c)] += 10;
                colormaps::fillColorMap(map, rows, cols, 3, 3 + rows - 1, 0, cols - 1, rowsOnKeys, values.data());
                QCPColorMapData *d = map->data();
                QCOMPARE(rowsOnKeys ? d->keySize() : d->valueSize(), std::max(rows, 2));
                QCOMPARE(rowsOnKeys ? d->valueSize() : d->keySize(), std::max(cols, 2));
                double low = std::numeric_limits<double>::infinity(), high = -low;
                for (int r = 0; r < std::max(rows, 2); ++r)
                    for (int c = 0; c < std::max(cols, 2); ++c) {
                        const double want =
                            values[static_cast<std::size_t>(std::min(r, rows - 1) * cols + std::min(c, cols - 1))];
                        const double got = rowsOnKeys ? d->cell(r, c) : d->cell(c, r);
                        QVERIFY2(got == want || (std::isnan(got) && std::isnan(want)), qPrintable(what));
                        if (!std::isnan(want)) {
                            low = std::min(low, want);
                            high = std::max(high, want);
                        }
                    }
                QVERIFY2(d->dataBounds().lower <= low && d->dataBounds().upper >= high, qPrintable(what));
                // To be coloured again after new values (the first round, and the third where a row
                // changed), not after the same; drawing colours it.
                const bool changed = round == 0 || (round == 2 && cols > 1);
                QVERIFY2(colormaps::cellsChangedSinceColoured(d) == changed,
                         qPrintable(QStringLiteral("%1, round %2").arg(what).arg(round)));
                plot.toPixmap(200, 100);
                QVERIFY(!colormaps::cellsChangedSinceColoured(d));
            }
        }
}

QTEST_MAIN(TestPlotDrawing)
#include "tst_plot_drawing.moc"
