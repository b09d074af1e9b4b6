#include "figures/background_job.h"
#include "test_support.h"
#include "view_fixture.h"
#include "views/projection_view.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <numeric>
#include <set>

using testsupport::params;

class TestProjectionView : public QObject
{
    Q_OBJECT

  private slots:
    void seed004RunsToTheEndAndDraws();
    void framesArriveWhileItRuns();
    void figureExportQueuesNoFrames();
    void framesWaitOneAtATime();
    void pauseKeepsTheOptimiserAndResumeFinishes();
    void changeRestartsAndLeavesNoThread();
    void sameSeedSamePicture();
    void clickPicksThePosition();
    void pcaShowsExplainedVariance();
    void tooLargeIsRefusedWithAMessage();
    void settingsControlsDriveTheRun();
    void umapRunsPausesAndResumesExactly();
    void colourByEachKindDrawsItsValues();
    void colourByLabelsShowsALegend();
    void colourThatCannotBeDrawnIsSaid();
    void colourLimitsStayAsFramesArrive();
    void threeDimensionsTurnAndPick();

  private:
    static QString title(ProjectionView *view) { return view->plot()->findChild<QCPTextElement *>()->text(); }
    // The plot pixel where position t is drawn.
    static QPointF pixelOf(ProjectionView *view, std::int64_t t)
    {
        const auto i = static_cast<std::size_t>(t - view->parameters()->values().startPos);
        return {view->plot()->xAxis->coordToPixel(view->projection().coords[2 * i]),
                view->plot()->yAxis->coordToPixel(view->projection().coords[2 * i + 1])};
    }
};

void TestProjectionView::seed004RunsToTheEndAndDraws()
{
    ViewFixture<ProjectionView> f(QSize(1000, 700));
    QVERIFY(f.exposed());
    pe::TsneSettings s;
    s.perplexity = 4;
    f.view->setSettings(s);
    QVERIFY(!f.params.set(params(128, 8)));
    QTRY_VERIFY_WITH_TIMEOUT(!f.view->running(), 20000);
    QCOMPARE(f.view->projection().iteration, 1000);
    QCOMPARE(f.view->projection().coords.size(), std::size_t(256));
    QVERIFY(title(f.view.get()).contains(QStringLiteral("iteration 1000 of 1000")));
    // The view shows what the core computes for the same settings.
    QVERIFY(f.view->projection().coords ==
            pe::computeProjection(f.params.encoding(), {}, pe::ProjectionMethod::Tsne, s).coords);
    // Every point is drawn: the pixel at each position's coordinates is coloured, not white.
    f.view->plot()->replot(QCustomPlot::rpImmediateRefresh);
    const QImage image = f.view->plot()->toPixmap().toImage();
    int coloured = 0;
    for (std::int64_t t = 0; t < 128; ++t) {
        const QPointF at = pixelOf(f.view.get(), t);
        const QColor c = image.pixelColor(at.toPoint());
        coloured += c.saturation() > 60 || c.value() < 160;
    }
    QVERIFY2(coloured >= 124, qPrintable(QString::number(coloured)));
    // Labels: all 128 positions numbered, as in seed 004.
    int labels = 0;
    for (int i = 0; i < f.view->plot()->itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(f.view->plot()->item(i)); text && text->visible())
            labels += text->text() == QStringLiteral("127");
    QCOMPARE(labels, 1);
}

void TestProjectionView::framesArriveWhileItRuns()
{
    ViewFixture<ProjectionView> f(QSize(900, 600));
    QVERIFY(f.exposed());
    QVERIFY(!f.params.set(params(5000, 64)));
    std::set<int> seen;
    // Every frame shown on the way is noted (QTRY_ runs the events between its checks).
    const auto noteFrameAndCheckEnded = [&] {
        if (!f.view->projection().coords.empty())
            seen.insert(f.view->projection().iteration);
        return !f.view->running();
    };
    QTRY_VERIFY_WITH_TIMEOUT(noteFrameAndCheckEnded(), 60000);
    QCOMPARE(f.view->projection().iteration, 1000);
    // The start and several frames between it and the end were shown: the plot animates.
    QVERIFY2(seen.size() >= 4, qPrintable(QString::number(seen.size())));
    QVERIFY(seen.count(0) == 1 || *seen.begin() < 1000);
}

void TestProjectionView::figureExportQueuesNoFrames()
{
    // A figure export waits for the end without running events: it is handed the end alone (each
    // frame queued for it was a copy of the embedding, 4 GB at 300,000 points; issue 28). A frame
    // shown moves the axes, so the axes' changes count the frames.
    ViewFixture<ProjectionView> f(QSize(900, 600));
    QVERIFY(f.exposed());
    f.view->setCompleteFigures(true);
    int shown = 0;
    connect(f.view->plot()->xAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), f.view.get(), [&] { ++shown; });
    QVERIFY(!f.params.set(params(3000, 16)));
    f.view->finishWork();
    QCOMPARE(f.view->projection().iteration, 1000);
    QCOMPARE(shown, 1);
}

void TestProjectionView::framesWaitOneAtATime()
{
    // A run's frames wait for a busy GUI thread one at a time, the newest replacing the one not
    // shown yet: after the thread is back, one frame on the way and the end are drawn, not one per
    // step it missed.
    ViewFixture<ProjectionView> f(QSize(900, 600));
    QVERIFY(f.exposed());
    QVERIFY(!f.params.set(params(3000, 16)));
    auto *job = f.view->findChild<BackgroundJob *>();
    QTRY_VERIFY(job->running());
    int shown = 0;
    connect(f.view->plot()->xAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), f.view.get(), [&] { ++shown; });
    job->wait(); // the GUI thread busy until the run ends; then what waited is delivered
    QCOMPARE(f.view->projection().iteration, 1000);
    QVERIFY2(shown <= 2, qPrintable(QString::number(shown)));
}

void TestProjectionView::pauseKeepsTheOptimiserAndResumeFinishes()
{
    ViewFixture<ProjectionView> f(QSize(900, 600));
    QVERIFY(f.exposed());
    // Barnes-Hut (above 600 points), large enough to pause midway, small enough that the run and
    // the reference run finish well inside the timeouts under AddressSanitizer with the other tests
    // sharing the cores (8,000 points once took 67 s there).
    QVERIFY(!f.params.set(params(4000, 32)));
    QTRY_VERIFY_WITH_TIMEOUT(f.view->projection().iteration > 20, 30000);
    auto *button = f.view->findChild<QPushButton *>(QStringLiteral("runPause"));
    QCOMPARE(button->text(), QStringLiteral("Pause"));
    button->click();
    QVERIFY(f.view->paused());
    QVERIFY(!f.view->running());
    QCOMPARE(button->text(), QStringLiteral("Resume"));
    const int at = f.view->projection().iteration;
    QTest::qWait(150);
    QCOMPARE(f.view->projection().iteration, at); // nothing moves while paused
    QVERIFY(at < 1000);
    button->click();
    QVERIFY(f.view->running());
    QTRY_VERIFY_WITH_TIMEOUT(!f.view->running(), 180000);
    QCOMPARE(f.view->projection().iteration, 1000);
    // Resumed, not restarted: the same result as one uninterrupted run.
    QVERIFY(f.view->projection().coords ==
            pe::computeProjection(f.params.encoding(), {}, pe::ProjectionMethod::Tsne, {}).coords);
}

void TestProjectionView::changeRestartsAndLeavesNoThread()
{
    auto f = std::make_unique<ViewFixture<ProjectionView>>(QSize(900, 600));
    QVERIFY(f->exposed());
    auto *job = f->view->findChild<BackgroundJob *>();
    QVERIFY(job);
    for (std::int64_t n : {20'000, 19'000, 18'000}) {
        QVERIFY(!f->params.set(params(n, 64)));
        QTRY_VERIFY(job->running()); // past the debounce: a job runs each time, and the next cancels it
    }
    QVERIFY(!f->params.set(params(300, 16)));
    QTRY_VERIFY_WITH_TIMEOUT(!f->view->running(), 30000);
    QCOMPARE(f->view->projection().coords.size(), std::size_t(600));
    QTRY_COMPARE(job->threadCount(), 0);
    // Hidden, a change of parameters stops the run at once; shown again, it starts for the new ones.
    QVERIFY(!f->params.set(params(20'000, 64)));
    QTRY_VERIFY_WITH_TIMEOUT(f->view->projection().iteration > 0, 30000);
    f->view->hide();
    QVERIFY(!f->params.set(params(400, 16)));
    QVERIFY(!job->running());
    QTRY_COMPARE(job->threadCount(), 0);
    f->view->show();
    QTRY_VERIFY_WITH_TIMEOUT(!f->view->running() && f->view->projection().coords.size() == 800, 30000);
    // Destroyed while running: the destructor cancels and joins.
    QVERIFY(!f->params.set(params(20'000, 64)));
    QTRY_VERIFY(job->running());
    f.reset();
}

void TestProjectionView::sameSeedSamePicture()
{
    std::vector<double> first;
    for (int run = 0; run < 2; ++run) {
        ViewFixture<ProjectionView> f(QSize(800, 600));
        QVERIFY(f.exposed());
        pe::TsneSettings s;
        s.init = pe::TsneInit::Random;
        s.seed = 11;
        s.iterations = 400;
        f.view->setSettings(s);
        QVERIFY(!f.params.set(params(700, 16)));
        QTRY_VERIFY_WITH_TIMEOUT(!f.view->running(), 30000);
        QCOMPARE(f.view->projection().iteration, 400);
        if (run == 0)
            first = f.view->projection().coords;
        else
            QVERIFY(f.view->projection().coords == first);
    }
}

void TestProjectionView::clickPicksThePosition()
{
    ViewFixture<ProjectionView> f(QSize(1000, 700));
    QVERIFY(f.exposed());
    QVERIFY(!f.params.set(params(128, 8)));
    QTRY_VERIFY_WITH_TIMEOUT(!f.view->running(), 20000);
    f.view->plot()->replot(QCustomPlot::rpImmediateRefresh);
    const QPointF at = pixelOf(f.view.get(), 77);
    QCOMPARE(f.view->positionAt(at), std::int64_t(77));
    QVERIFY(f.view->tooltipAt(at).contains(QStringLiteral("position 77")));
    QTest::mouseClick(f.view->plot(), Qt::LeftButton, {}, at.toPoint());
    QCOMPARE(f.params.position(), std::int64_t(77));
    QVERIFY(f.view->positionAt(QPointF(-100, -100)) < 0);
}

void TestProjectionView::pcaShowsExplainedVariance()
{
    ViewFixture<ProjectionView> f(QSize(900, 600));
    QVERIFY(f.exposed());
    f.view->setMethod(pe::ProjectionMethod::Pca);
    QVERIFY(!f.params.set(params(3000, 128)));
    QTRY_VERIFY_WITH_TIMEOUT(!f.view->running(), 20000);
    const pe::Projection &p = f.view->projection();
    QVERIFY(p.explained[0] >= p.explained[1] && p.explained[1] > 0 && p.explained[0] + p.explained[1] <= 1);
    QVERIFY(title(f.view.get()).contains(QStringLiteral("PC1 %1%").arg(100 * p.explained[0], 0, 'f', 1)));
    QVERIFY(f.view->plot()->xAxis->label().startsWith(QStringLiteral("PC1")));
    // The t-SNE controls are off for PCA.
    QVERIFY(!f.view->findChild<QDoubleSpinBox *>(QStringLiteral("perplexity"))->isEnabled());
}

void TestProjectionView::tooLargeIsRefusedWithAMessage()
{
    ViewFixture<ProjectionView> f(QSize(900, 600));
    QVERIFY(f.exposed());
    // Vectors without the offset structure (the per-index exponent) need the approximate index
    // above 1.1e11 n^2 d, which holds at most 4e8 values.
    QVERIFY(!f.params.set(params(1'000'000, 512, 1e4, 0, pe::Layout::Interleaved, pe::Exponent::Index)));
    QVERIFY(!f.view->running());
    QVERIFY(f.view->projection().coords.empty());
    QVERIFY2(title(f.view.get()).contains(QStringLiteral("approximate neighbour index")),
             qPrintable(title(f.view.get())));
    // Perplexity too large for the window: said, and nothing runs.
    QVERIFY(!f.params.set(params(20, 8)));
    QVERIFY(!f.view->running());
    QVERIFY(title(f.view.get()).contains(QStringLiteral("perplexity must be below")));
}

void TestProjectionView::settingsControlsDriveTheRun()
{
    ViewFixture<ProjectionView> f(QSize(900, 600));
    QVERIFY(f.exposed());
    QVERIFY(!f.params.set(params(200, 8)));
    f.view->findChild<QSpinBox *>(QStringLiteral("iterations"))->setValue(300);
    f.view->findChild<QDoubleSpinBox *>(QStringLiteral("perplexity"))->setValue(10);
    QCOMPARE(f.view->tsneSettings().iterations, 300);
    QCOMPARE(f.view->tsneSettings().perplexity, 10.0);
    QTRY_VERIFY_WITH_TIMEOUT(!f.view->running(), 20000);
    QCOMPARE(f.view->projection().iteration, 300);
    QVERIFY(title(f.view.get()).contains(QStringLiteral("perplexity 10")));
    auto *seed = f.view->findChild<QSpinBox *>(QStringLiteral("tsneSeed"));
    QVERIFY(!seed->isEnabled()); // PCA start: the seed plays no part
    f.view->findChild<QComboBox *>(QStringLiteral("init"))->setCurrentIndex(1);
    QVERIFY(seed->isEnabled());
}

void TestProjectionView::umapRunsPausesAndResumesExactly()
{
    ViewFixture<ProjectionView> f(QSize(900, 700));
    QVERIFY(f.exposed());
    f.view->setMethod(pe::ProjectionMethod::Umap);
    // Epochs enough that the run is still going when the test pauses it (a few seconds).
    QVERIFY(!f.view->applySettings({{QStringLiteral("umapEpochs"), 4000}}));
    QVERIFY(!f.params.set(params(1500, 16)));
    // Paused midway and resumed, it ends with the bits of an uninterrupted run (the core's).
    QTRY_VERIFY_WITH_TIMEOUT(f.view->projection().iteration > 20, 20000);
    f.view->pause();
    QVERIFY(f.view->paused());
    QVERIFY(title(f.view.get()).contains(QStringLiteral("(paused)")));
    f.view->resume();
    QTRY_VERIFY_WITH_TIMEOUT(!f.view->running(), 30000);
    QCOMPARE(f.view->projection().iteration, 4000);
    QVERIFY2(title(f.view.get()).contains(QStringLiteral("UMAP of 1,500 positions")) &&
                 title(f.view.get()).contains(QStringLiteral("epoch 4000 of 4000")),
             qPrintable(title(f.view.get())));
    QVERIFY(
        f.view->projection().coords ==
        pe::computeProjection(f.params.encoding(), {}, pe::ProjectionMethod::Umap, {}, f.view->umapSettings()).coords);
    QCOMPARE(f.view->plot()->xAxis->label(), QStringLiteral("UMAP 1"));
    // Its controls in the row, t-SNE's hidden.
    QVERIFY(f.view->findChild<QSpinBox *>(QStringLiteral("umapNeighbors"))->isVisibleTo(f.view.get()));
    QVERIFY(!f.view->findChild<QDoubleSpinBox *>(QStringLiteral("perplexity"))->isVisibleTo(f.view.get()));
}

namespace {

// Every third point: the raster's cell under it holds the value of the point drawn there, exactly;
// and the image has that value's colour on the colour map's gradient where it is drawn.
int pointsOffColour(ProjectionView *view, const std::vector<double> &values)
{
    auto *cells = view->plot()->findChild<QCPColorMap *>()->data();
    for (std::size_t i = 0; i < values.size(); i += 3) {
        int kx = 0, vy = 0;
        cells->coordToCell(view->projection().coords[2 * i], view->projection().coords[2 * i + 1], &kx, &vy);
        double x = 0, y = 0;
        cells->cellToCoord(kx, vy, &x, &y);
        const std::int64_t drawn =
            view->positionAt(QPointF(view->plot()->xAxis->coordToPixel(x), view->plot()->yAxis->coordToPixel(y)));
        const std::int64_t start = view->parameters()->values().startPos;
        if (drawn < 0 || cells->cell(kx, vy) != values[static_cast<std::size_t>(drawn - start)])
            return 1000 + static_cast<int>(i);
    }
    auto *map = view->plot()->findChild<QCPColorMap *>();
    view->plot()->replot(QCustomPlot::rpImmediateRefresh);
    const QImage image = view->plot()->toPixmap().toImage();
    const std::int64_t start = view->parameters()->values().startPos;
    const auto current = static_cast<std::size_t>(view->parameters()->position() - start);
    const QPointF ring(view->plot()->xAxis->coordToPixel(view->projection().coords[2 * current]),
                       view->plot()->yAxis->coordToPixel(view->projection().coords[2 * current + 1]));
    int off = 0, checked = 0;
    for (std::size_t i = 1; i < values.size(); i += 3) {
        const QPointF at(view->plot()->xAxis->coordToPixel(view->projection().coords[2 * i]),
                         view->plot()->yAxis->coordToPixel(view->projection().coords[2 * i + 1]));
        if (QLineF(at, ring).length() < 20)
            continue; // under the current position's ring
        // The pixel's colour is its cell's value on the gradient, whichever point the cell holds.
        const QPoint pixel(static_cast<int>(std::floor(at.x())), static_cast<int>(std::floor(at.y())));
        int kx = 0, vy = 0;
        cells->coordToCell(view->plot()->xAxis->pixelToCoord(pixel.x() + 0.5),
                           view->plot()->yAxis->pixelToCoord(pixel.y() + 0.5), &kx, &vy);
        const double value = cells->cell(kx, vy);
        if (!std::isfinite(value))
            continue;
        ++checked;
        const QRgb want =
            map->gradient().color(value, map->dataRange(), map->dataScaleType() == QCPAxis::stLogarithmic);
        // Within a pixel of it: QCustomPlot places the map's image to about a pixel of the axes.
        bool found = false;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                const QColor got = image.pixelColor(pixel + QPoint(dx, dy));
                found = found || std::abs(got.red() - qRed(want)) + std::abs(got.green() - qGreen(want)) +
                                         std::abs(got.blue() - qBlue(want)) <=
                                     6;
            }
        off += !found;
    }
    return checked < 20 ? -1 : off * 25 > checked ? off : 0;
}

} // namespace

void TestProjectionView::colourByEachKindDrawsItsValues()
{
    ViewFixture<ProjectionView> f(QSize(900, 700));
    QVERIFY(f.exposed());
    f.view->setMethod(pe::ProjectionMethod::Pca);
    const pe::NoiseParams noise{0.2, 3};
    QVERIFY(!f.params.set(params(600, 32)));
    QVERIFY(!f.params.setNoise(noise));
    QTRY_VERIFY_WITH_TIMEOUT(!f.view->running(), 20000);
    auto *scale = f.view->plot()->findChild<QCPColorScale *>();
    const std::vector<double> &xy = f.view->projection().coords;
    for (const auto &[text, label] : {std::pair{"phase:3", "phase of pair 3"},
                                      {"norm", "length"},
                                      {"column:5", "column 5"},
                                      {"error", "nearest point drawn"},
                                      {"position", "position"}}) {
        QVERIFY(!f.view->applySettings({{QStringLiteral("colorBy"), QString::fromLatin1(text)}}));
        QTRY_VERIFY2_WITH_TIMEOUT(scale->axis()->label().contains(QLatin1String(label)),
                                  qPrintable(scale->axis()->label()), 20000);
        // The values drawn are the core's for the vectors projected, or of the picture (error).
        const pe::ColorBy by = *pe::parseColorBy(text, nullptr);
        std::vector<double> want;
        if (by.kind == pe::ColorByKind::Error) {
            want = pe::nearestOffsets(xy, 2);
            QCOMPARE(scale->dataScaleType(), QCPAxis::stLogarithmic);
        } else {
            std::string error;
            want = pe::pointColors(by, f.params.encoding(), noise, &error)->values;
            QCOMPARE(scale->dataScaleType(), QCPAxis::stLinear);
        }
        QVERIFY(f.view->colorValues() == want);
        const int off = pointsOffColour(f.view.get(), want);
        QVERIFY2(off == 0,
                 qPrintable(QStringLiteral("%1: %2 points off their colour").arg(QLatin1String(text)).arg(off)));
        // The data export carries the column (none for position: the index is it).
        const pe::Table t = *f.view->dataTable();
        QCOMPARE(t.cols, by.kind == pe::ColorByKind::Position ? 2 : 3);
        if (t.cols == 3) {
            QCOMPARE(t.columnHeaders[2], pe::colorColumnHeader(by));
            std::vector<double> rows(static_cast<std::size_t>(3 * t.rows));
            t.fill(0, t.rows, rows.data());
            for (std::size_t i = 0; i < want.size(); i += 50)
                QCOMPARE(rows[3 * i + 2], want[i]);
        }
        // The choice shows in the controls.
        auto *kind = f.view->findChild<QComboBox *>(QStringLiteral("colorKind"));
        QCOMPARE(kind->currentData().toString(), QString::fromLatin1(text).section(QLatin1Char(':'), 0, 0));
    }
    // The controls drive the setting: column 7 from the combo and the spin box.
    auto *kind = f.view->findChild<QComboBox *>(QStringLiteral("colorKind"));
    kind->setCurrentIndex(kind->findData(QStringLiteral("column")));
    f.view->findChild<QSpinBox *>(QStringLiteral("colorIndex"))->setValue(7);
    QCOMPARE(f.view->settings().value(QStringLiteral("colorBy")).toString(), QStringLiteral("column:7"));
    QTRY_VERIFY_WITH_TIMEOUT(scale->axis()->label().contains(QStringLiteral("column 7")), 20000);
}

void TestProjectionView::colourByLabelsShowsALegend()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("labels.csv"));
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QByteArray text = "position,label\n";
        for (int t = 0; t < 300; ++t)
            text += QByteArray::number(t) + (t < 100 ? ",early\n" : t < 250 ? ",middle\n" : ",late\n");
        file.write(text);
    }
    ViewFixture<ProjectionView> f(QSize(900, 700));
    QVERIFY(f.exposed());
    f.view->setMethod(pe::ProjectionMethod::Pca);
    QVERIFY(!f.params.set(params(400, 16)));
    QTRY_VERIFY_WITH_TIMEOUT(!f.view->running(), 20000);
    f.view->plot()->replot(QCustomPlot::rpImmediateRefresh);
    const int width = f.view->plot()->axisRect()->width();
    QVERIFY(!f.view->applySettings({{QStringLiteral("colorBy"), QStringLiteral("labels:") + path}}));
    QTRY_VERIFY_WITH_TIMEOUT(f.view->plot()->legend->itemCount() == 4, 20000);
    // The bar's room goes to the plot (a hidden bar in the layout kept it).
    f.view->plot()->replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY2(f.view->plot()->axisRect()->width() > width + 20,
             qPrintable(QStringLiteral("%1 then %2").arg(width).arg(f.view->plot()->axisRect()->width())));
    QCPLegend *legend = f.view->plot()->legend;
    QVERIFY(legend->visible());
    QStringList names;
    for (int i = 0; i < legend->itemCount(); ++i)
        names << qobject_cast<QCPPlottableLegendItem *>(legend->item(i))->plottable()->name();
    QCOMPARE(names, (QStringList{QStringLiteral("early (100)"), QStringLiteral("middle (150)"),
                                 QStringLiteral("late (50)"), QStringLiteral("unlabelled (100)")}));
    QVERIFY(!f.view->plot()->findChild<QCPColorScale *>()->visible());
    std::vector<double> want(400, -1);
    for (int t = 0; t < 300; ++t)
        want[static_cast<std::size_t>(t)] = t < 100 ? 0 : t < 250 ? 1 : 2;
    QVERIFY(f.view->colorValues() == want);
    QCOMPARE(pointsOffColour(f.view.get(), want), 0);
    // Each entry's disc is its points' colour.
    auto *map = f.view->plot()->findChild<QCPColorMap *>();
    for (int i = 0; i < 4; ++i) {
        auto *g = qobject_cast<QCPGraph *>(qobject_cast<QCPPlottableLegendItem *>(legend->item(i))->plottable());
        QCOMPARE(g->scatterStyle().brush().color().rgb(), map->gradient().color(i < 3 ? i : -1, map->dataRange()));
    }
    // Back to position: no legend, the bar again, the plot as wide as before.
    QVERIFY(!f.view->applySettings({{QStringLiteral("colorBy"), QStringLiteral("position")}}));
    QCOMPARE(legend->itemCount(), 0);
    QVERIFY(f.view->plot()->findChild<QCPColorScale *>()->visible());
    f.view->plot()->replot(QCustomPlot::rpImmediateRefresh);
    QCOMPARE(f.view->plot()->axisRect()->width(), width);
    // A colouring left before its values arrive: they are not drawn when they do.
    QVERIFY(!f.view->applySettings({{QStringLiteral("colorBy"), QStringLiteral("norm")}}));
    QVERIFY(!f.view->applySettings({{QStringLiteral("colorBy"), QStringLiteral("position")}}));
    QTest::qWait(300);
    std::vector<double> positions(400);
    std::iota(positions.begin(), positions.end(), 0.0);
    QVERIFY(f.view->colorValues() == positions);
    QVERIFY(f.view->plot()->findChild<QCPColorScale *>()->axis()->label() == QStringLiteral("position"));
}

void TestProjectionView::colourLimitsStayAsFramesArrive()
{
    // --vmin and --vmax colour every frame of a run, not only the first draw after they were set: a
    // frame arriving redraws the bar with the view's own range (the CI's sanitizer build, slower,
    // showed a frame between two position steps with the bar back at 0..599).
    ViewFixture<ProjectionView> f(QSize(900, 600));
    QVERIFY(f.exposed());
    QVERIFY(!f.view->applySettings(
        {{QStringLiteral("colorMin"), QStringLiteral("100")}, {QStringLiteral("colorMax"), QStringLiteral("400")}}));
    QVERIFY(!f.params.set(params(600, 16)));
    auto *scale = f.view->plot()->findChild<QCPColorScale *>();
    std::set<int> seen;
    bool kept = true;
    const auto noteFrameAndCheckEnded = [&] {
        if (!f.view->projection().coords.empty()) {
            seen.insert(f.view->projection().iteration);
            kept = kept && scale->dataRange() == QCPRange(100, 400);
        }
        return !f.view->running();
    };
    QTRY_VERIFY_WITH_TIMEOUT(noteFrameAndCheckEnded(), 60000);
    QVERIFY2(seen.size() >= 3, qPrintable(QString::number(seen.size())));
    QVERIFY(kept);
    QCOMPARE(scale->dataRange(), QCPRange(100, 400));
    // Cleared, the bar has the run's own range again.
    QVERIFY(!f.view->applySettings({{QStringLiteral("colorMin"), QString()}, {QStringLiteral("colorMax"), QString()}}));
    QTRY_COMPARE(scale->dataRange(), QCPRange(0, 599));
}

void TestProjectionView::colourThatCannotBeDrawnIsSaid()
{
    ViewFixture<ProjectionView> f(QSize(900, 700));
    QVERIFY(f.exposed());
    f.view->setMethod(pe::ProjectionMethod::Pca);
    QVERIFY(!f.params.set(params(200, 16)));
    QTRY_VERIFY_WITH_TIMEOUT(!f.view->running(), 20000);
    // A text the setting refuses (a session may hold one): drawn by position, the title says why,
    // exports refuse it.
    QVERIFY(!f.view->applySettings({{QStringLiteral("colorBy"), QStringLiteral("phase")}}));
    QTRY_VERIFY_WITH_TIMEOUT(
        title(f.view.get()).contains(QStringLiteral("coloured by position: 'phase' is not a colouring")), 20000);
    QVERIFY(f.view->cannotDraw().contains(QStringLiteral("not 'phase'")));
    // A pair d_model 16 has not: drawn by position, the title says why, exports refuse.
    QVERIFY(!f.view->applySettings({{QStringLiteral("colorBy"), QStringLiteral("phase:8")}}));
    QTRY_VERIFY_WITH_TIMEOUT(title(f.view.get()).contains(QStringLiteral("coloured by position")), 20000);
    QVERIFY2(title(f.view.get()).contains(QStringLiteral("pairs 0 to 7")), qPrintable(title(f.view.get())));
    QVERIFY(f.view->cannotDraw().contains(QStringLiteral("pairs 0 to 7")));
    std::vector<double> positions(200);
    for (int t = 0; t < 200; ++t)
        positions[static_cast<std::size_t>(t)] = t;
    QVERIFY(f.view->colorValues() == positions);
    QCOMPARE(f.view->dataTable()->cols, 2);
    // d_model 32 has pair 8: coloured by it now.
    QVERIFY(!f.params.set(params(200, 32)));
    QTRY_VERIFY_WITH_TIMEOUT(
        f.view->plot()->findChild<QCPColorScale *>()->axis()->label().contains(QStringLiteral("phase of pair 8")),
        20000);
    QVERIFY(!title(f.view.get()).contains(QStringLiteral("coloured by position")));
    QVERIFY(f.view->cannotDraw().isEmpty());
}

QTEST_MAIN(TestProjectionView)
void TestProjectionView::threeDimensionsTurnAndPick()
{
    ViewFixture<ProjectionView> f(QSize(1000, 700));
    QVERIFY(f.exposed());
    QVERIFY(!f.view->applySettings(
        {{QStringLiteral("projectionMethod"), QStringLiteral("pca")}, {QStringLiteral("components"), 3}}));
    QVERIFY(!f.params.set(params(200, 16)));
    QTRY_VERIFY_WITH_TIMEOUT(!f.view->running(), 20000);
    const pe::Projection &p = f.view->projection();
    QCOMPARE(p.dims, 3);
    QCOMPARE(p.coords.size(), std::size_t(600));
    QVERIFY2(title(f.view.get()).contains(QStringLiteral("PC3")), qPrintable(title(f.view.get())));
    // Drawn as seen from the default angle (matplotlib's: azimuth -60, elevation 30).
    std::vector<double> screen, depth;
    pe::viewFrom(p.coords, {-60, 30}, screen, depth);
    for (std::size_t k = 0; k < screen.size(); ++k)
        QCOMPARE(f.view->planar()[k], screen[k]);

    // Turning redraws the same frame, computing nothing: from above (azimuth -90, elevation 90) the
    // points are where the first two components put them.
    const std::vector<double> frame = p.coords;
    QVERIFY(!f.view->applySettings({{QStringLiteral("azimuth"), -90.0}, {QStringLiteral("elevation"), 90.0}}));
    QVERIFY(!f.view->running());
    QVERIFY(f.view->projection().coords == frame);
    for (std::size_t i = 0; i < 200; ++i)
        for (std::size_t c = 0; c < 2; ++c)
            QVERIFY(std::abs(f.view->planar()[2 * i + c] - frame[3 * i + c]) < 1e-12);
    QVERIFY(f.view->plot()->xAxis->label().contains(QStringLiteral("azimuth -90.0")));

    // A point is found where it is drawn, and its tooltip gives its three coordinates.
    f.view->plot()->replot(QCustomPlot::rpImmediateRefresh);
    const auto pixel = [&](std::size_t i) {
        return QPointF(f.view->plot()->xAxis->coordToPixel(f.view->planar()[2 * i]),
                       f.view->plot()->yAxis->coordToPixel(f.view->planar()[2 * i + 1]));
    };
    // (A nearer point may cover it: then the one found is drawn within a few pixels.)
    int found = 0;
    std::size_t seen = 0;
    for (std::size_t i = 0; i < 200; ++i) {
        const std::int64_t t = f.view->positionAt(pixel(i));
        QVERIFY(t >= 0);
        const QPointF gap = pixel(static_cast<std::size_t>(t)) - pixel(i);
        QVERIFY(std::hypot(gap.x(), gap.y()) < 8);
        if (t == static_cast<std::int64_t>(i)) {
            ++found;
            seen = i;
        }
    }
    QVERIFY2(found > 150, qPrintable(QString::number(found)));
    QCOMPARE(f.view->tooltipAt(pixel(seen)).count(QLatin1Char(',')), 2);

    // A drag turns it as matplotlib's does (right: the azimuth falls; down: the elevation rises, to
    // 90 at most), set once on release, and picks no point.
    QVERIFY(!f.view->applySettings({{QStringLiteral("azimuth"), -60.0}, {QStringLiteral("elevation"), 30.0}}));
    f.view->plot()->replot(QCustomPlot::rpImmediateRefresh);
    const std::int64_t before = f.params.position();
    const QPoint from = pixel(seen).toPoint();
    QTest::mousePress(f.view->plot(), Qt::LeftButton, {}, from);
    QTest::mouseMove(f.view->plot(), from + QPoint(20, 10));
    QTest::mouseMove(f.view->plot(), from + QPoint(40, -20));
    QCOMPARE(f.view->viewAngle().azimuth, -80.0);
    QCOMPARE(f.view->settings().value(QStringLiteral("azimuth")).toDouble(), -60.0); // not set while dragged
    QTest::mouseRelease(f.view->plot(), Qt::LeftButton, {}, from + QPoint(40, -20));
    QCOMPARE(f.view->settings().value(QStringLiteral("azimuth")).toDouble(), -80.0);
    QCOMPARE(f.view->settings().value(QStringLiteral("elevation")).toDouble(), 20.0);
    QCOMPARE(f.params.position(), before);
    QVERIFY(f.view->projection().coords == frame);

    // The data export has x, y and z; back in 2-D, the box goes and the ticks return.
    const std::optional<pe::Table> table = f.view->dataTable();
    QVERIFY(table);
    QCOMPARE(table->columnHeaders, (std::vector<std::string>{"x", "y", "z"}));
    QVERIFY(!f.view->applySettings({{QStringLiteral("components"), 2}}));
    QTRY_VERIFY_WITH_TIMEOUT(!f.view->running(), 20000);
    QCOMPARE(f.view->projection().dims, 2);
    QVERIFY(f.view->plot()->xAxis->tickLabels());
    int lines = 0;
    for (int i = 0; i < f.view->plot()->itemCount(); ++i)
        lines += qobject_cast<QCPItemLine *>(f.view->plot()->item(i)) != nullptr;
    QCOMPARE(lines, 0);
    // A pan that starts on a point ends with that point under the cursor again: still a drag, which
    // picks nothing.
    f.view->plot()->replot(QCustomPlot::rpImmediateRefresh);
    const QPoint on = pixelOf(f.view.get(), 100).toPoint();
    QCOMPARE(f.view->positionAt(on), std::int64_t(100));
    QTest::mousePress(f.view->plot(), Qt::LeftButton, {}, on);
    QTest::mouseMove(f.view->plot(), on + QPoint(15, 5));
    QTest::mouseMove(f.view->plot(), on + QPoint(30, 10));
    QTest::mouseRelease(f.view->plot(), Qt::LeftButton, {}, on + QPoint(30, 10));
    QCOMPARE(f.params.position(), before);

    // t-SNE too, seed 004's 128 positions: 3-D frames while it runs, then the last.
    QVERIFY(!f.params.set(params(128, 8)));
    QVERIFY(!f.view->applySettings({{QStringLiteral("projectionMethod"), QStringLiteral("tsne")},
                                    {QStringLiteral("components"), 3},
                                    {QStringLiteral("perplexity"), 4.0}}));
    QTRY_VERIFY_WITH_TIMEOUT(!f.view->running(), 20000);
    QCOMPARE(f.view->projection().dims, 3);
    QCOMPARE(f.view->projection().iteration, 1000);
    QCOMPARE(f.view->projection().coords.size(), std::size_t(3 * 128));
    QVERIFY2(title(f.view.get()).contains(QStringLiteral("iteration 1000 of 1000")), qPrintable(title(f.view.get())));
}

#include "tst_projection_view.moc"
