#include "figures/figure_export.h"
#include "figures/view_factory.h"
#include "state/parameters.h"
#include "view_fixture.h"
#include "views/heatmap_view.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QCheckBox>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

class TestHeatmapView : public QObject
{
    Q_OBJECT

  private slots:
    void init();
    void cleanup();
    void parameterChangeRepaints();
    void rowZeroAtTheTop();
    void transposePutsPositionsAcross();
    void neverMoreCellsThanPixels_data();
    void neverMoreCellsThanPixels();
    void valuesPrintedWhenCellsAreLarge();
    void tooltipShowsExactValue();
    void singleRowAndColumnAreDrawn();
    void renderAtExportSize();
    void vectorFigureDrawsEveryCellWhateverItsDpi();
    void zoomToCellsShowsExactValues();
    void wheelZoomsAndDragPans();
    void keyboardZoomAndPan();
    void zoomSurvivesParameterChanges();
    void maximumSizesUpdate();
    void reducedPictureAgreesWithWhole_data();
    void reducedPictureAgreesWithWhole();

  private:
    void set(std::int64_t n, int d, double base = 1e4, std::int64_t start = 0);
    QImage shot();

    std::unique_ptr<ViewFixture<HeatmapView>> fixture_;
    Parameters *params_ = nullptr;
    HeatmapView *view_ = nullptr;
};

void TestHeatmapView::init()
{
    fixture_ = std::make_unique<ViewFixture<HeatmapView>>(QSize(900, 650));
    params_ = &fixture_->params;
    view_ = fixture_->view.get();
    QVERIFY(fixture_->exposed());
}

void TestHeatmapView::cleanup()
{
    fixture_.reset();
}

void TestHeatmapView::set(std::int64_t n, int d, double base, std::int64_t start)
{
    pe::EncodingParams v = params_->values();
    v.seqLen = n;
    v.dModel = d;
    v.base = base;
    v.startPos = start;
    QVERIFY(!params_->set(v));
}

QImage TestHeatmapView::shot()
{
    view_->plot()->replot(QCustomPlot::rpImmediateRefresh);
    return view_->plot()->grab().toImage();
}

void TestHeatmapView::parameterChangeRepaints()
{
    const QImage before = shot();
    QSignalSpy spy(view_, &PlotView::rebuilt);
    set(50, 128, 1e8);
    QCOMPARE(spy.count(), 1);
    const QImage after = shot();
    QCOMPARE(after.size(), before.size());
    int changed = 0;
    for (int y = 0; y < after.height(); y += 3)
        for (int x = 0; x < after.width(); x += 3)
            changed += after.pixel(x, y) != before.pixel(x, y);
    QVERIFY2(changed > 1000, qPrintable(QString::number(changed)));
}

static bool near(QRgb c, QColor expected, int tolerance = 30)
{
    return std::abs(qRed(c) - expected.red()) <= tolerance && std::abs(qGreen(c) - expected.green()) <= tolerance &&
           std::abs(qBlue(c) - expected.blue()) <= tolerance;
}

void TestHeatmapView::rowZeroAtTheTop()
{
    set(10, 6);
    view_->setCellValuesShown(false);
    const QImage img = shot();
    QCPAxis *x = view_->plot()->xAxis, *y = view_->plot()->yAxis;
    // Row 0 is at the top: t = 0 has cos = 1 (red in coolwarm) in column 1, sin = 0 (grey) in 0.
    QVERIFY(y->coordToPixel(0) < y->coordToPixel(9));
    const QRgb red = img.pixel(int(x->coordToPixel(1)), int(y->coordToPixel(0)));
    const QRgb grey = img.pixel(int(x->coordToPixel(0)), int(y->coordToPixel(0)));
    QVERIFY2(near(red, QColor(180, 4, 38)), qPrintable(QColor(red).name()));
    QVERIFY2(near(grey, QColor(221, 221, 221)), qPrintable(QColor(grey).name()));
    // t = 4, j = 1: cos(4) = -0.65, a clear blue.
    const QRgb blue = img.pixel(int(x->coordToPixel(1)), int(y->coordToPixel(4)));
    QVERIFY2(qBlue(blue) > qRed(blue) + 40, qPrintable(QColor(blue).name()));
}

void TestHeatmapView::transposePutsPositionsAcross()
{
    set(10, 6);
    view_->setTransposed(true);
    const QImage img = shot();
    QCPAxis *x = view_->plot()->xAxis, *y = view_->plot()->yAxis;
    QCOMPARE(x->label(), QStringLiteral("position t"));
    QVERIFY(x->range().upper > 9 && x->range().upper < 10);
    QVERIFY(y->range().upper > 5 && y->range().upper < 6);
    QVERIFY(y->coordToPixel(0) > y->coordToPixel(5)); // dimension 0 at the bottom, as pcolormesh
    view_->setCellValuesShown(false);
    const QImage plain = shot();
    QVERIFY(near(plain.pixel(int(x->coordToPixel(0)), int(y->coordToPixel(1))), QColor(180, 4, 38)));
    Q_UNUSED(img);
}

void TestHeatmapView::neverMoreCellsThanPixels_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<int>("d");
    QTest::addColumn<bool>("transposed");
    QTest::newRow("1e6 x 4096") << qint64(1'000'000) << 4096 << false;
    QTest::newRow("1e6 x 4096 transposed") << qint64(1'000'000) << 4096 << true;
    QTest::newRow("5000 x 3") << qint64(5000) << 3 << false;
}

void TestHeatmapView::neverMoreCellsThanPixels()
{
    QFETCH(qint64, n);
    QFETCH(int, d);
    QFETCH(bool, transposed);
    view_->setTransposed(transposed);
    set(n, d, 1e4, 999'000'000);
    const pe::Block b = view_->shownBlock();
    const QRect area = view_->plot()->axisRect()->rect();
    const int posPixels = transposed ? area.width() : area.height();
    const int dimPixels = transposed ? area.height() : area.width();
    QVERIFY2(b.rows <= posPixels, qPrintable(QStringLiteral("%1 rows for %2 px").arg(b.rows).arg(posPixels)));
    QVERIFY(b.cols <= dimPixels);
    QVERIFY(b.rows * b.positionStep >= n); // the whole window is covered
    QVERIFY(std::int64_t(b.cols) * b.columnStep >= d);
    QCOMPARE(b.firstPosition, qint64(999'000'000));
    // Axes show true positions, not sample indices.
    QCPAxis *posAxis = transposed ? view_->plot()->xAxis : view_->plot()->yAxis;
    QCOMPARE(posAxis->range().lower, 999'000'000 - 0.5);
    QCOMPARE(posAxis->range().upper, 999'000'000 + double(n) - 0.5);
}

void TestHeatmapView::valuesPrintedWhenCellsAreLarge()
{
    set(10, 6); // seed 003's table
    shot();
    QCOMPARE(view_->cellLabelDecimals(), 4);
    set(15, 9, 100); // seed 002's table in a smaller view: 2 decimals still fit
    view_->resize(480, 420);
    shot();
    QVERIFY(view_->cellLabelDecimals() >= 2);
    set(50, 128);
    shot();
    QCOMPARE(view_->cellLabelDecimals(), 0);
    set(10, 6);
    view_->setCellValuesShown(false);
    QCOMPARE(view_->cellLabelDecimals(), 0);
}

void TestHeatmapView::tooltipShowsExactValue()
{
    set(10, 6);
    shot();
    QCPAxis *x = view_->plot()->xAxis, *y = view_->plot()->yAxis;
    const QString tip = view_->tooltipAt(QPointF(x->coordToPixel(1), y->coordToPixel(3)));
    QVERIFY2(tip.contains(QStringLiteral("position t = 3")), qPrintable(tip));
    QVERIFY(tip.contains(QStringLiteral("dimension j = 1 (cos, pair 0)")));
    QVERIFY(tip.contains(QStringLiteral("value = -0.989992"))); // cos(3)
    QVERIFY(view_->tooltipAt(QPointF(1, 1)).isEmpty());
}

void TestHeatmapView::singleRowAndColumnAreDrawn()
{
    set(1, 1);
    view_->setCellValuesShown(false);
    const QImage img = shot();
    QCPAxis *x = view_->plot()->xAxis, *y = view_->plot()->yAxis;
    // sin(0) = 0: the one cell is grey, not the white background.
    QVERIFY2(near(img.pixel(int(x->coordToPixel(0.3)), int(y->coordToPixel(-0.3))), QColor(221, 221, 221)),
             qPrintable(QColor(img.pixel(int(x->coordToPixel(0.3)), int(y->coordToPixel(-0.3)))).name()));
}

void TestHeatmapView::renderAtExportSize()
{
    set(2000, 512);
    const QImage img = view_->render(QSize(1600, 1200), 2.0);
    QCOMPARE(img.size(), QSize(3200, 2400));
    // Rendering for export does not disturb the view on screen.
    const QRect area = view_->plot()->axisRect()->rect();
    QVERIFY(view_->shownBlock().rows <= area.height());
}

void TestHeatmapView::vectorFigureDrawsEveryCellWhateverItsDpi()
{
    // Issue 28: 200 positions in a 3.5 x 2.5 in PDF were sampled "1 position in each 2" at the
    // default 100 dpi and all drawn at 600: a vector figure is zoomed by its reader, so its cells
    // do not depend on the dpi. Every one is drawn while cells are at least 0.25 pt.
    set(200, 64);
    std::unique_ptr<PlotView> exported(createView(*findView(QStringLiteral("heatmap")), params_, nullptr));
    auto *heatmap = static_cast<HeatmapView *>(exported.get());
    FigureOptions o;
    QVERIFY(!parseFigureSize(QStringLiteral("3.5x2.5in"), &o));
    for (int dpi : {72, 100, 600}) {
        o.dpi = dpi;
        for (FigureFormat format : {FigureFormat::Pdf, FigureFormat::Svg}) {
            QString problem;
            const FigureOptions fitted = fitFigure(exported.get(), o, &problem);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            QVERIFY(!figureBytes(exported.get(), format, fitted).isEmpty());
            const pe::Block &b = heatmap->shownBlock();
            QVERIFY2(b.rows == 200 && b.positionStep == 1 && b.cols == 64 && !b.sampled(),
                     qPrintable(QStringLiteral("%1 dpi: %2 rows, every %3").arg(dpi).arg(b.rows).arg(b.positionStep)));
            const QString title = exported->plot()->findChild<QCPTextElement *>()->text();
            QVERIFY2(!title.contains(QStringLiteral("sampled")), qPrintable(title));
        }
    }
    // A PNG is still at most a cell a pixel: at 100 dpi the plot has fewer than 200 pixels down.
    o.dpi = 100;
    QString problem;
    QVERIFY(!figureImage(exported.get(), fitFigure(exported.get(), o, &problem)).isNull());
    QVERIFY(heatmap->shownBlock().rows < 200);
    // Cells smaller than 0.25 pt are sampled in a vector figure too.
    set(1'000'000, 64);
    QVERIFY(!figureBytes(exported.get(), FigureFormat::Pdf, fitFigure(exported.get(), o, &problem)).isEmpty());
    QVERIFY(heatmap->shownBlock().sampled());
    QVERIFY(heatmap->shownBlock().rows <= 4 * 180); // 4 a point down a plot shorter than the page
}

void TestHeatmapView::zoomToCellsShowsExactValues()
{
    set(1'000'000, 4096, 1e4, 999'000'000);
    view_->zoomTo(999'500'000, 999'500'004, 100, 103);
    QVERIFY(view_->zoomed());
    const pe::Block b = view_->shownBlock();
    QCOMPARE(b.firstPosition, qint64(999'500'000));
    QCOMPARE(b.rows, qint64(5));
    QCOMPARE(b.firstColumn, 100);
    QCOMPARE(b.cols, 4);
    QCOMPARE(b.positionStep, qint64(1));
    QCOMPARE(b.columnStep, 1);
    shot();
    QVERIFY(view_->cellLabelDecimals() >= 2); // the values are printed in the cells
    QCPAxis *x = view_->plot()->xAxis, *y = view_->plot()->yAxis;
    QCOMPARE(y->range().lower, 999'500'000 - 0.5); // true positions on the axis
    const pe::Encoding &e = params_->encoding();
    const QString tip = view_->tooltipAt(QPointF(x->coordToPixel(102), y->coordToPixel(999'500'003)));
    QVERIFY2(tip.contains(QStringLiteral("position t = 999500003")), qPrintable(tip));
    QVERIFY(tip.contains(QStringLiteral("value = %1").arg(e.value(999'500'003, 102), 0, 'f', 6)));
}

void TestHeatmapView::wheelZoomsAndDragPans()
{
    set(10'000, 512);
    shot();
    QCustomPlot *p = view_->plot();
    const QPointF centre = p->axisRect()->rect().center();
    QWheelEvent wheel(centre, p->mapToGlobal(centre), QPoint(), QPoint(0, 120 * 5), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(p, &wheel);
    QTRY_VERIFY(view_->zoomed());
    const double span = view_->visiblePositions().upper - view_->visiblePositions().lower;
    QVERIFY2(span < 5000, qPrintable(QString::number(span)));
    QTRY_VERIFY(view_->shownBlock().positionStep < 17); // finer than the whole window's sampling
    const double before = view_->visiblePositions().lower;
    QTest::mousePress(p, Qt::LeftButton, Qt::NoModifier, centre.toPoint());
    QTest::mouseMove(p, centre.toPoint() - QPoint(0, 100));
    QTest::mouseRelease(p, Qt::LeftButton, Qt::NoModifier, centre.toPoint() - QPoint(0, 100));
    QTRY_VERIFY(view_->visiblePositions().lower != before); // dragged along the positions
    QTest::mouseDClick(p, Qt::LeftButton, Qt::NoModifier, centre.toPoint());
    QTRY_VERIFY(!view_->zoomed());
}

void TestHeatmapView::keyboardZoomAndPan()
{
    set(1000, 64);
    view_->setFocus();
    QTest::keyClick(view_, Qt::Key_Plus);
    QCOMPARE(view_->visiblePositions().upper - view_->visiblePositions().lower, 999.0 / 2);
    const double lower = view_->visiblePositions().lower;
    QTest::keyClick(view_, Qt::Key_Down, Qt::ShiftModifier);
    QCOMPARE(view_->visiblePositions().lower, lower + 999.0 / 8);
    QTest::keyClick(view_, Qt::Key_0);
    QVERIFY(!view_->zoomed());
    for (int i = 0; i < 30; ++i)
        QTest::keyClick(view_, Qt::Key_Plus);
    QVERIFY(view_->visiblePositions().upper - view_->visiblePositions().lower >= 1.0); // down to single cells
    QCOMPARE(view_->shownBlock().positionStep, qint64(1));
}

void TestHeatmapView::zoomSurvivesParameterChanges()
{
    set(1000, 64);
    view_->zoomTo(100, 199, 0, 31);
    set(1000, 64, 1e8); // a new base keeps the zoom
    QCOMPARE(view_->visiblePositions().lower, 100.0);
    QCOMPARE(view_->shownBlock().firstPosition, qint64(100));
    set(50, 64, 1e8); // a window that no longer holds the view: the whole window again
    QCOMPARE(view_->visiblePositions().lower, 0.0);
    QCOMPARE(view_->visiblePositions().upper, 49.0);
}

void TestHeatmapView::maximumSizesUpdate()
{
    set(1'000'000, 4096, 1e15, 999'000'000);
    set(1'000'000, 4095, 1.0001, 0);
    set(1, 1, 1.0001, 999'999'999);
    QCOMPARE(view_->shownBlock().rows, qint64(1));
    const QImage img = shot();
    QVERIFY(!img.isNull());
}

void TestHeatmapView::reducedPictureAgreesWithWhole_data()
{
    QTest::addColumn<int>("d");
    QTest::addColumn<int>("layout");
    QTest::addColumn<int>("exponent");
    QTest::newRow("768 interleaved") << 768 << 0 << 0;
    QTest::newRow("767 interleaved") << 767 << 0 << 0;
    QTest::newRow("768 split") << 768 << 1 << 0;
    QTest::newRow("768 per-index") << 768 << 0 << 1;
    QTest::newRow("767 per-index") << 767 << 0 << 1;
}

void TestHeatmapView::reducedPictureAgreesWithWhole()
{
    // Issue 12: at 50 x 768 a 600 x 400 figure kept every 2nd column, all sines: the slow right half
    // came out grey where half of it is +1. The small figure's colours must match a figure large
    // enough to hold every column: the same share of red among the coloured pixels.
    QFETCH(int, d);
    QFETCH(int, layout);
    QFETCH(int, exponent);
    pe::EncodingParams v = params_->values();
    v.seqLen = 50;
    v.dModel = d;
    v.layout = layout ? pe::Layout::Split : pe::Layout::Interleaved;
    v.exponent = exponent ? pe::Exponent::Index : pe::Exponent::Pair;
    QVERIFY(!params_->set(v));
    auto redShare = [this](QSize size) {
        const QImage img = view_->render(size, 1);
        std::int64_t red = 0, blue = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                const QColor c = img.pixelColor(x, y);
                red += c.red() > c.blue() + 60;
                blue += c.blue() > c.red() + 60;
            }
        return static_cast<double>(red) / static_cast<double>(red + blue);
    };
    // Hidden while it renders, so the block read after is the render's (a shown view rebuilds for
    // the screen once a render is done).
    view_->hide();
    const double small = redShare(QSize(600, 400));
    QVERIFY(view_->shownBlock().sampled());
    const double whole = redShare(QSize(2400, 1200));
    QVERIFY(!view_->shownBlock().sampled());
    view_->show();
    QVERIFY2(std::abs(small - whole) < 0.04,
             qPrintable(QStringLiteral("red share %1 reduced, %2 whole").arg(small).arg(whole)));
}

QTEST_MAIN(TestHeatmapView)
#include "tst_heatmap_view.moc"
