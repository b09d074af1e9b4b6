// The views of similarity, recovery, the distance matrix and relative position (issue 4), each
// checked against the core's numbers.
#include "encodings/position_table.h"
#include "export/data_export.h"
#include "figures/background_job.h"
#include "test_support.h"
#include "view_fixture.h"
#include "views/distance_view.h"
#include "views/recovery_view.h"
#include "views/relative_view.h"
#include "views/similarity_view.h"

#include <qcustomplot.h>

#include <QSignalSpy>
#include <QTest>

#include <cmath>

using testsupport::params;

class TestAnalysisViews : public QObject
{
    Q_OBJECT

  private slots:
    void distanceSampledHoldsExactValues();
    void similarityFollowsTheReference();
    void similaritySampledWhenLong();
    void similarityMetrics();
    void recoveryRunsOffTheGuiThread();
    void recoveryRestartsOnChangeAndLeavesNoThread();
    void recoveryRefusesTooLarge();
    void distanceIsToeplitzForPureEncodings();
    void distanceWithNoiseIsExact();
    void distanceTitleGivesTheSchemesReason();
    void relativeResidualAndDecoding();
};

void TestAnalysisViews::similarityFollowsTheReference()
{
    ViewFixture<SimilarityView> f(QSize(900, 500));
    QVERIFY(f.exposed());
    QVERIFY(!f.params.set(params(300, 20, 1e4)));
    QVERIFY(f.params.setPosition(30)); // seed 001's reference
    QCOMPARE(f.view->bestPosition(), 30);
    QCOMPARE(f.view->values().size(), std::size_t(300));
    QCOMPARE(f.view->values()[30], 10.0);
    QVERIFY(f.params.setPosition(200));
    QCOMPARE(f.view->bestPosition(), 200);
    QVERIFY(!f.params.setNoise({0.5, 42}));
    // With noise the values are x_t . PE(200): compare one with the core's direct computation.
    std::vector<double> expected(1);
    pe::scoreBlock(f.params.encoding(), {0.5, 42}, pe::Metric::Dot, nullptr, {17}, {200}, expected.data());
    QVERIFY(std::abs(f.view->values()[17] - expected[0]) < 1e-12);
}

void TestAnalysisViews::similaritySampledWhenLong()
{
    ViewFixture<SimilarityView> f(QSize(800, 400));
    QVERIFY(f.exposed());
    QVERIFY(!f.params.set(params(1'000'000, 4096, 1e4, 999'000'000)));
    QVERIFY(f.view->positions().size() <= static_cast<std::size_t>(2 * f.view->plot()->axisRect()->width()));
    QCOMPARE(f.view->positions().front(), qint64(999'000'000));
    QCOMPARE(f.view->bestPosition(), qint64(999'000'000)); // the reference itself, sampled or not
}

void TestAnalysisViews::similarityMetrics()
{
    ViewFixture<SimilarityView> f(QSize(800, 400));
    QVERIFY(f.exposed());
    QVERIFY(!f.params.set(params(100, 16, 1e4)));
    QVERIFY(f.params.setPosition(40));
    f.view->setMetric(pe::Metric::Euclidean);
    QCOMPARE(f.view->bestPosition(), 40); // the nearest
    QCOMPARE(f.view->values()[40], 0.0);
    f.view->setMetric(pe::Metric::Cosine);
    QCOMPARE(f.view->values()[40], 1.0);
}

void TestAnalysisViews::recoveryRunsOffTheGuiThread()
{
    ViewFixture<RecoveryView> f(QSize(1000, 500));
    QVERIFY(f.exposed());
    QVERIFY(!f.params.set(params(300, 20, 1e4)));
    QVERIFY(!f.params.setNoise({0.5, 42}));
    QTRY_VERIFY(!f.view->computing());
    const pe::Recovery expected = pe::recoverPositions(f.params.encoding(), {0.5, 42});
    QCOMPARE(f.view->recovery().predicted, expected.predicted);
    QVERIFY(f.view->recovery().accuracy() < 0.9);
    QCOMPARE(f.view->accuracies().front(), 1.0); // sigma 0
    QCOMPARE(f.view->accuracies().size(), f.view->sigmas().size());
}

void TestAnalysisViews::recoveryRestartsOnChangeAndLeavesNoThread()
{
    auto f = std::make_unique<ViewFixture<RecoveryView>>(QSize(900, 500));
    QVERIFY(f->exposed());
    QVERIFY(!f->params.setNoise({1.0, 1}));
    auto *job = f->view->findChild<BackgroundJob *>();
    QVERIFY(job);
    for (int d : {256, 254, 252}) { // each change cancels the job before and starts another
        QVERIFY(!f->params.set(params(3000, d, 1e4)));
        QTRY_VERIFY(job->running()); // past the debounce: a job starts each time
    }
    QVERIFY(f->view->computing());
    f->view->finishWork();
    QVERIFY(!f->view->computing());
    QCOMPARE(static_cast<int>(f->view->recovery().predicted.size()), 3000);
    QCOMPARE(f->view->recovery().predicted, pe::recoverPositions(f->params.encoding(), {1.0, 1}).predicted);
    QTRY_COMPARE(job->threadCount(), 0);
    f.reset(); // destroying the view joins whatever is left
}

void TestAnalysisViews::recoveryRefusesTooLarge()
{
    ViewFixture<RecoveryView> f(QSize(900, 500));
    QVERIFY(f.exposed());
    QVERIFY(!f.params.set(params(1'000'000, 4096, 1e4)));
    QVERIFY(!f.view->computing());
    QVERIFY(f.view->recovery().predicted.empty());
    auto *title = f.view->plot()->findChild<QCPTextElement *>();
    QVERIFY2(title->text().contains(QStringLiteral("33,554,432")), qPrintable(title->text()));
}

void TestAnalysisViews::distanceIsToeplitzForPureEncodings()
{
    ViewFixture<DistanceView> f(QSize(700, 700));
    QVERIFY(f.exposed());
    QVERIFY(!f.params.set(params(200, 32, 1e4, 1000)));
    const auto &pos = f.view->shownPositions();
    const auto n = pos.size();
    QCOMPARE(n, std::size_t(200));
    const auto &v = f.view->values();
    for (std::size_t r = 1; r < n; r += 17)
        for (std::size_t c = 1; c < n; c += 13)
            QCOMPARE(v[r * n + c], v[(r - 1) * n + (c - 1)]); // constant along diagonals
    std::vector<double> exact(1);
    pe::scoreBlock(f.params.encoding(), {}, pe::Metric::Dot, nullptr, {pos[5]}, {pos[150]}, exact.data());
    QVERIFY(std::abs(v[5 * n + 150] - exact[0]) < 1e-11);
}

void TestAnalysisViews::distanceSampledHoldsExactValues()
{
    // 100,000 positions in a few hundred cells: thinned with jitter, every cell holds the exact
    // value of the two positions it names (the Toeplitz shortcut included), and no cell row repeats
    // a stride's beat: rows are one position inside each span, not every k-th.
    ViewFixture<DistanceView> f(QSize(700, 700));
    QVERIFY(f.exposed());
    QVERIFY(!f.params.set(params(100'000, 64, 1e4)));
    const auto &pos = f.view->shownPositions();
    const auto n = pos.size();
    QVERIFY(n > 100 && n < 100'000);
    const std::int64_t step = (100'000 + static_cast<std::int64_t>(n) - 1) / static_cast<std::int64_t>(n);
    bool jittered = false;
    for (std::size_t r = 0; r < n; ++r) {
        QVERIFY(pos[r] >= static_cast<std::int64_t>(r) * step && pos[r] < static_cast<std::int64_t>(r + 1) * step);
        jittered |= pos[r] != static_cast<std::int64_t>(r) * step;
    }
    QVERIFY(jittered);
    const auto &v = f.view->values();
    for (std::size_t r = 0; r < n; r += 37)
        for (std::size_t c = 0; c < n; c += 29) {
            std::vector<double> exact(1);
            pe::scoreBlock(f.params.encoding(), {}, pe::Metric::Dot, nullptr, {pos[r]}, {pos[c]}, exact.data());
            QVERIFY2(std::abs(v[r * n + c] - exact[0]) < 1e-9,
                     qPrintable(
                         QStringLiteral("(%1, %2): %3 vs %4").arg(pos[r]).arg(pos[c]).arg(v[r * n + c]).arg(exact[0])));
        }
}

void TestAnalysisViews::distanceWithNoiseIsExact()
{
    ViewFixture<DistanceView> f(QSize(700, 700));
    QVERIFY(f.exposed());
    QVERIFY(!f.params.set(params(1000, 16, 1e4)));
    QVERIFY(!f.params.setNoise({0.5, 3}));
    const auto &pos = f.view->shownPositions();
    QVERIFY(pos.size() <= DistanceView::kMaxExactCells);
    std::vector<double> exact(1);
    pe::scoreBlock(f.params.encoding(), {0.5, 3}, pe::Metric::Dot, nullptr, {pos[7]}, {pos[9]}, exact.data());
    QVERIFY(std::abs(f.view->values()[7 * pos.size() + 9] - exact[0]) < 1e-12);
}

void TestAnalysisViews::distanceTitleGivesTheSchemesReason()
{
    // Issue 28: a table's matrix was "per-index exponent or odd d: not a function of t − s alone",
    // neither of which a table has. Each case names its own reason.
    ViewFixture<DistanceView> f(QSize(700, 700));
    QVERIFY(f.exposed());
    auto *title = f.view->plot()->findChild<QCPTextElement *>();
    std::vector<double> values;
    for (int i = 0; i < 240; ++i)
        values.push_back(0.02 * std::sin(0.7 * i * i));
    const auto table = testsupport::tableOf(40, 6, values);
    QVERIFY(!f.params.set(pe::tableParams({}, table)));
    QVERIFY2(title->text().contains(QStringLiteral("position table")) &&
                 !title->text().contains(QStringLiteral("per-index")) &&
                 !title->text().contains(QStringLiteral("odd d")),
             qPrintable(title->text()));
    QVERIFY(!f.params.set(params(40, 16, 1e4, 0, pe::Layout::Interleaved, pe::Exponent::Index)));
    QVERIFY2(title->text().contains(QStringLiteral("per-index exponent")) &&
                 !title->text().contains(QStringLiteral("odd d")),
             qPrintable(title->text()));
    QVERIFY(!f.params.set(params(40, 15, 1e4)));
    QVERIFY2(title->text().contains(QStringLiteral("odd d")) && !title->text().contains(QStringLiteral("per-index")),
             qPrintable(title->text()));
}

void TestAnalysisViews::relativeResidualAndDecoding()
{
    ViewFixture<RelativeView> f(QSize(1000, 500));
    QVERIFY(f.exposed());
    QVERIFY(!f.params.set(params(50, 128, 1e4)));
    QVERIFY(f.params.setPosition(30));
    f.view->setOffset(5);
    QVERIFY(f.view->residual() < 1e-12);
    QVERIFY(std::abs(f.view->decoded().offset - 5.0) < 1e-9);
    // Issue 28: pairs 0-3 (wavelengths 6.3 to 9.7, under 2k = 10) read 5 less a whole wavelength,
    // negative, without a word: the title and the axis now say it is k wrapped by the wavelength.
    const pe::Encoding &e = f.params.encoding();
    for (int i = 0; i < 4; ++i) {
        const double reading = f.view->decoded().perPair[static_cast<std::size_t>(i)];
        QVERIFY(reading < 0 && std::abs(reading - (5 - e.pairWavelength(i))) < 1e-9);
    }
    QVERIFY(std::abs(f.view->decoded().perPair[4] - 5.0) < 1e-9);
    auto *title = f.view->plot()->findChild<QCPTextElement *>();
    QVERIFY2(title->text().contains(QStringLiteral("pairs 0–3")) && title->text().contains(QStringLiteral("wrapped")),
             qPrintable(title->text()));
    bool axisSays = false;
    for (QCPAxisRect *rect : f.view->plot()->axisRects())
        axisSays |= rect->axis(QCPAxis::atLeft)->label().contains(QStringLiteral("wrapped"));
    QVERIFY(axisSays);
    f.view->setOffset(-27);
    QVERIFY(std::abs(f.view->decoded().offset + 27.0) < 1e-9);
    // A negative offset reads "t − 27", never "t+-27".
    QVERIFY2(title->text().contains(QStringLiteral("PE(t − 27)")) && !title->text().contains(QStringLiteral("+-")),
             qPrintable(title->text()));
    // At position 0 an offset of -7 reaches no position: no readings drawn, and the title names -7.
    QVERIFY(f.params.setPosition(0));
    f.view->setOffset(-7);
    QCOMPARE(f.view->plot()->graph(0)->dataCount(), 0);
    QVERIFY2(title->text().contains(QStringLiteral("position -7 is outside")), qPrintable(title->text()));
    f.view->setOffset(3);
    QVERIFY(!f.params.set(params(15, 9, 100, 0, pe::Layout::Interleaved, pe::Exponent::Index)));
    QVERIFY(f.view->residual() > 1e-3); // no rotation maps the per-index encoding
}

QTEST_MAIN(TestAnalysisViews)
#include "tst_analysis_views.moc"
