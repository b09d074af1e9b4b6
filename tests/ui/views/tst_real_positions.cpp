// Positions between whole ones (issue 30: smooth playback, --position 2.25, --step 0.25): the views
// whose formulas are defined at any real t draw it, each against the formula at that t; the others
// draw the whole part and say why; every view draws at a fractional position without a problem.
#include "analysis/attention.h"
#include "analysis/clock.h"
#include "figures/plot_view.h"
#include "figures/view_factory.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "test_support.h"
#include "view_fixture.h"
#include "views/attention_view.h"
#include "views/clock_grid_view.h"
#include "views/heatmap_view.h"
#include "views/pair_circle_view.h"

#include <qcustomplot.h>

#include <QTest>

#include <cmath>
#include <numbers>

class TestRealPositions : public QObject
{
    Q_OBJECT

  private slots:
    void everyViewDrawsAFractionOrItsWholePart();
    void clocksTurnTheCurrentRowsHands();
    void circlesMarkerOnTheCircleAtT();
    void heatmapFrameBetweenRows();
    void attentionRowAtTheRealQuery();
    void statesWithoutRealPositions();
};

void TestRealPositions::everyViewDrawsAFractionOrItsWholePart()
{
    Parameters params;
    QVERIFY(!params.set(testsupport::params(64, 32, 1e4)));
    QVERIFY(params.setRealPosition(20.25));
    const QStringList drawsReal{QStringLiteral("heatmap"), QStringLiteral("clocks"), QStringLiteral("circles"),
                                QStringLiteral("attention")};
    for (const ViewInfo &info : viewRegistry()) {
        std::unique_ptr<PlotView> view(createView(info, &params, nullptr));
        view->resize(700, 500);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        const bool real = drawsReal.contains(info.id);
        QCOMPARE(info.realPositions, real);
        QCOMPARE(info.realPositionProblem(params.values(), params.noise()).isEmpty(), real);
        QCOMPARE(view->shownPosition(), real ? 20.25 : 20.0);
        // Playback's next frame redraws the views that draw it and leaves the others as they are.
        int rebuilt = 0;
        QObject::connect(view.get(), &PlotView::rebuilt, view.get(), [&rebuilt] { ++rebuilt; });
        QVERIFY(params.setRealPosition(20.5));
        QCOMPARE(rebuilt, real && view->followsPosition() ? 1 : 0);
        QVERIFY(params.setRealPosition(20.25));
        view->finishWork();
    }
}

void TestRealPositions::clocksTurnTheCurrentRowsHands()
{
    ViewFixture<ClockGridView> f(QSize(900, 700));
    QVERIFY(!f.params.set(testsupport::params(50, 16, 100)));
    QVERIFY(f.exposed());
    ClockGridView *view = f.view.get();
    QVERIFY(f.params.setRealPosition(3.25));
    const int row = static_cast<int>(3 - view->firstRowPosition());
    QCOMPARE(view->rowPosition(row), 3.25);
    QCOMPARE(view->rowPosition(row + 1), 4.0); // the other rows stay at their own positions
    const pe::Encoding &enc = f.params.encoding();
    for (int c = 0; c < view->columnCount(); ++c) {
        const int pair = view->shownPairs()[static_cast<std::size_t>(c)];
        const QPointF tip = view->handTip(row, c) - view->clockCentre(row, c);
        const pe::Point want = pe::handTip(enc, 3.25, pair, view->face());
        // The angle t·ω at t = 3.25: between the hands of rows 3 and 4, a quarter of the way.
        const double turn = std::atan2(-tip.y(), tip.x()) - std::atan2(want.y, want.x);
        QVERIFY(std::abs(std::remainder(turn, 2 * std::numbers::pi)) < 1e-9);
    }
    // Playback's next frame moves the fraction alone: the current row's drawn hands (on the layer
    // redrawn alone) follow, the other rows' curve is left as it was.
    QCPCurve *current = nullptr, *rows = nullptr;
    for (QCPCurve *curve : view->plot()->findChildren<QCPCurve *>())
        if (curve->dataCount() > 0)
            (curve->layer()->name() == QStringLiteral("overlay") ? current : rows) = curve;
    QVERIFY(current && rows);
    const auto rowsTip = rows->data()->at(1); // the first clock's hand tip
    const QPointF rowsBefore(rowsTip->key, rowsTip->value);
    QVERIFY(f.params.setRealPosition(3.75));
    QCOMPARE(current->dataCount(), 3 * view->columnCount());
    for (int c = 0; c < view->columnCount(); ++c) {
        const auto tip = current->data()->at(3 * c + 1);
        const QPointF want = view->handTip(row, c);
        QCOMPARE(tip->key, want.x());
        QCOMPARE(tip->value, want.y());
        const pe::Point at = pe::handTip(enc, 3.75, view->shownPairs()[static_cast<std::size_t>(c)], view->face());
        const QPointF drawn = QPointF(tip->key, tip->value) - view->clockCentre(row, c);
        QVERIFY(std::abs(std::remainder(std::atan2(-drawn.y(), drawn.x()) - std::atan2(at.y, at.x),
                                        2 * std::numbers::pi)) < 1e-9);
    }
    QCOMPARE(QPointF(rows->data()->at(1)->key, rows->data()->at(1)->value), rowsBefore);
    // A whole position: every row at its own, the current one included.
    QVERIFY(f.params.setRealPosition(4.0));
    QCOMPARE(view->rowPosition(row), 3.0);
    QCOMPARE(view->rowPosition(row + 1), 4.0);
}

void TestRealPositions::circlesMarkerOnTheCircleAtT()
{
    ViewFixture<PairCircleView> f(QSize(900, 700));
    QVERIFY(!f.params.set(testsupport::params(100, 8, 1e4)));
    QVERIFY(f.exposed());
    const pe::Encoding &enc = f.params.encoding();
    for (const double t : {7.0, 7.5, 7.999}) {
        QVERIFY(f.params.setRealPosition(t));
        for (int k = 0; k < 4; ++k) {
            const QPointF m = f.view->markerAt(k);
            QCOMPARE(m.x(), std::sin(t * enc.pairFrequency(k)));
            QVERIFY(std::abs(m.y() - std::cos(t * enc.pairFrequency(k))) < 1e-15);
        }
    }
}

void TestRealPositions::heatmapFrameBetweenRows()
{
    ViewFixture<HeatmapView> f(QSize(900, 700));
    QVERIFY(!f.params.set(testsupport::params(40, 16, 1e4)));
    QVERIFY(f.exposed());
    QVERIFY(f.params.setRealPosition(12.75));
    // The frame around the current row is centred at t = 12.75, a row high.
    bool found = false;
    for (int i = 0; i < f.view->plot()->itemCount(); ++i)
        if (auto *rect = qobject_cast<QCPItemRect *>(f.view->plot()->item(i))) {
            const double top = rect->topLeft->coords().y(), bottom = rect->bottomRight->coords().y();
            if (std::abs((top + bottom) / 2 - 12.75) < 1e-12 && std::abs(bottom - top - 1) < 1e-12)
                found = true;
        }
    QVERIFY(found);
}

void TestRealPositions::attentionRowAtTheRealQuery()
{
    ViewFixture<AttentionView> f(QSize(1000, 800));
    pe::EncodingParams p = testsupport::params(60, 16, 1e4);
    p.scheme = pe::SchemeId::Rope;
    QVERIFY(!f.params.set(p));
    QVERIFY(f.exposed());
    QVERIFY(f.params.setRealPosition(30.5));
    QCustomPlot *plot = f.view->plot();
    bool labelled = false;
    for (QCPAxisRect *rect : plot->axisRects())
        labelled = labelled || rect->axis(QCPAxis::atLeft)->label() == QStringLiteral("weight in row t = 30.5");
    QVERIFY(labelled);
    // The drawn row is the core's rowAt(30.5): its top weight sits at the graph's top.
    const pe::PositionalAttention a(f.params.encoding(), {});
    const std::vector<double> row = a.rowAt(30.5);
    bool ok = false;
    const QCPRange drawn = plot->graph(0)->data()->valueRange(ok);
    QVERIFY(ok);
    QVERIFY(std::abs(drawn.upper - *std::max_element(row.begin(), row.end())) < 1e-12);
    // xPos: its scores are summed at whole offsets, so the view draws row 30 and the registry says why.
    p.xposScaleBase = 512;
    QVERIFY(!f.params.set(p));
    QCOMPARE(f.view->shownPosition(), 30.0);
    QVERIFY(f.view->info().realPositionProblem(p, {}).contains(QStringLiteral("xPos")));
}

void TestRealPositions::statesWithoutRealPositions()
{
    ViewFixture<ClockGridView> f(QSize(800, 600));
    QVERIFY(f.exposed());
    QVERIFY(f.params.setRealPosition(5.5));
    pe::NoiseParams noise;
    noise.sigma = 0.5;
    QVERIFY(!f.params.setNoise(noise)); // noise is drawn per whole position: back to 5
    QCOMPARE(f.view->shownPosition(), 5.0);
    QVERIFY(f.view->info().realPositionProblem(f.params.values(), noise).contains(QStringLiteral("whole position")));
    pe::EncodingParams t5 = f.params.values();
    t5.scheme = pe::SchemeId::T5;
    QVERIFY(!pe::realPositionProblem(t5, {}).empty());
}

QTEST_MAIN(TestRealPositions)
#include "tst_real_positions.moc"
