// How figures reach the screen: scatter symbols copied from one drawing (DotGraph) against
// QCustomPlot's own, and a position step's picture against the whole figure drawn again.
#include "figures/dot_graph.h"
#include "figures/plot_view.h"
#include "figures/view_factory.h"
#include "scheme_support.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "test_support.h"
#include "views/projection_view.h"

#include <qcustomplot.h>

#include <QSignalSpy>
#include <QTest>

#include <cmath>
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

// A plot of 300 symbols at positions off the pixel grid, in a QCPGraph or a DotGraph.
std::unique_ptr<QCustomPlot> scatterPlot(bool copies, const QCPScatterStyle &style, double ratio)
{
    auto plot = std::make_unique<QCustomPlot>();
    plot->resize(500, 400);
    plot->setBufferDevicePixelRatio(ratio);
    QCPGraph *g = copies ? new DotGraph(plot->xAxis, plot->yAxis) : plot->addGraph();
    g->setLineStyle(QCPGraph::lsNone);
    g->setPen(QPen(QColor(30, 90, 200), 1.5));
    g->setScatterStyle(style);
    QVector<double> x, y;
    for (int i = 0; i < 300; ++i) {
        x << std::fmod(i * 0.6180339887, 1.0) * 100;
        y << std::fmod(i * 0.4142135623, 1.0) * 100;
    }
    g->setData(x, y);
    plot->xAxis->setRange(-5, 105);
    plot->yAxis->setRange(-5, 105);
    plot->show();
    if (!QTest::qWaitForWindowExposed(plot.get()))
        return nullptr;
    plot->replot(QCustomPlot::rpImmediateRefresh);
    return plot;
}

} // namespace

class TestPlotDrawing : public QObject
{
    Q_OBJECT

  private slots:
    void scatterCopiesDrawQCustomPlotsSymbols();
    void positionStepPaintsTheWholeFigure();
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
            long long inked = 0;
            double total = 0;
            int worst = 0;
            for (int y = 0; y < a.height(); ++y)
                for (int x = 0; x < a.width(); ++x) {
                    const QRgb p = a.pixel(x, y), q = b.pixel(x, y), g = ground.pixel(x, y);
                    if (p == g && q == g)
                        continue;
                    ++inked;
                    const int d = std::max({std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)),
                                            std::abs(qBlue(p) - qBlue(q)), std::abs(qAlpha(p) - qAlpha(q))});
                    worst = std::max(worst, d);
                    total += d;
                }
            const double mean = total / static_cast<double>(std::max(1LL, inked));
            // 300 symbols drawn (a blank buffer would pass any comparison).
            QVERIFY2(inked > 300 * 10 * ratio * ratio, qPrintable(what + QStringLiteral(": %1 inked").arg(inked)));
            // An eighth of a pixel moves an edge's coverage by at most an eighth: shades of the edges
            // (a symbol a pixel off averages over 40 here), never a pixel turned from ground to ink.
            QVERIFY2(worst <= 96, qPrintable(what + QStringLiteral(": a pixel differs by %1").arg(worst)));
            QVERIFY2(mean < 12, qPrintable(what + QStringLiteral(": inked pixels differ by %1 on average").arg(mean)));
            // Exports: QCustomPlot's path.
            QCOMPARE(copied->toPixmap(300, 200, 2).toImage(), own->toPixmap(300, 200, 2).toImage());
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

void TestPlotDrawing::positionStepPaintsTheWholeFigure()
{
    // Every view that follows the position, stepped on the screen: the picture it paints is the
    // one the whole figure drawn again gives, pixel for pixel. The views that move only their
    // position's layer (the overlay) do so without a whole replot.
    const QStringList layerOnly{QStringLiteral("heatmap"), QStringLiteral("distance"), QStringLiteral("circles"),
                                QStringLiteral("inputs"), QStringLiteral("projection")};
    int layered = 0;
    for (const ViewInfo &info : viewRegistry()) {
        Parameters params;
        pe::EncodingParams v = testsupport::params(48, 16);
        v.scheme = drawnScheme(info);
        QVERIFY(!params.set(v));
        std::unique_ptr<PlotView> view(createView(info, &params, nullptr));
        if (!view->followsPosition())
            continue;
        view->resize(900, 700);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        QVERIFY(params.setPosition(7));
        if (auto *projection = qobject_cast<ProjectionView *>(view.get()))
            QTRY_VERIFY_WITH_TIMEOUT(!projection->running(), 60000);
        QCoreApplication::processEvents();
        QSignalSpy replotted(view->plot(), &QCustomPlot::afterReplot);
        for (const std::int64_t t : {8, 9, 20}) {
            const QString what = QStringLiteral("%1 at %2").arg(info.id).arg(t);
            QVERIFY(params.setPosition(t));
            QCoreApplication::processEvents();
            const QImage stepped = view->plot()->grab().toImage();
            view->plot()->replot(QCustomPlot::rpImmediateRefresh);
            const QImage whole = view->plot()->grab().toImage();
            QVERIFY2(stepped == whole, qPrintable(what));
        }
        if (layerOnly.contains(info.id)) {
            ++layered;
            QVERIFY2(view->plot()->layer(QStringLiteral("overlay"))->mode() == QCPLayer::lmBuffered,
                     qPrintable(info.id));
            QCOMPARE(replotted.count(), 3); // the three replots the test asked for, none of the steps'
        }
    }
    QCOMPARE(layered, layerOnly.size());
}

QTEST_MAIN(TestPlotDrawing)
#include "tst_plot_drawing.moc"
