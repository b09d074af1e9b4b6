#include "figures/background_job.h"
#include "test_support.h"
#include "view_fixture.h"
#include "views/projection_view.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>

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

  private:
    static QString title(ProjectionView *view) { return view->plot()->findChild<QCPTextElement *>()->text(); }
    // The plot pixel where position t is drawn.
    static QPointF pixelOf(ProjectionView *view, std::int64_t t)
    {
        const auto i = static_cast<std::size_t>(t - view->parameters()->values().startPos);
        return {view->plot()->xAxis->coordToPixel(view->projection().xy[2 * i]),
                view->plot()->yAxis->coordToPixel(view->projection().xy[2 * i + 1])};
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
    QCOMPARE(f.view->projection().xy.size(), std::size_t(256));
    QVERIFY(title(f.view.get()).contains(QStringLiteral("iteration 1000 of 1000")));
    // The view shows what the core computes for the same settings.
    QVERIFY(f.view->projection().xy ==
            pe::computeProjection(f.params.encoding(), {}, pe::ProjectionMethod::Tsne, s).xy);
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
        if (!f.view->projection().xy.empty())
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
    QVERIFY(f.view->projection().xy ==
            pe::computeProjection(f.params.encoding(), {}, pe::ProjectionMethod::Tsne, {}).xy);
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
    QCOMPARE(f->view->projection().xy.size(), std::size_t(600));
    QTRY_COMPARE(job->threadCount(), 0);
    // Hidden, a change of parameters stops the run at once; shown again, it starts for the new ones.
    QVERIFY(!f->params.set(params(20'000, 64)));
    QTRY_VERIFY_WITH_TIMEOUT(f->view->projection().iteration > 0, 30000);
    f->view->hide();
    QVERIFY(!f->params.set(params(400, 16)));
    QVERIFY(!job->running());
    QTRY_COMPARE(job->threadCount(), 0);
    f->view->show();
    QTRY_VERIFY_WITH_TIMEOUT(!f->view->running() && f->view->projection().xy.size() == 800, 30000);
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
            first = f.view->projection().xy;
        else
            QVERIFY(f.view->projection().xy == first);
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
    // Vectors without the offset structure (the per-index exponent) take at most 100,000 positions.
    QVERIFY(!f.params.set(params(200'000, 16, 1e4, 0, pe::Layout::Interleaved, pe::Exponent::Index)));
    QVERIFY(!f.view->running());
    QVERIFY(f.view->projection().xy.empty());
    QVERIFY2(title(f.view.get()).contains(QStringLiteral("at most 100,000 positions")),
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

QTEST_MAIN(TestProjectionView)
#include "tst_projection_view.moc"
