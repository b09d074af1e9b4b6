#include "encodings/position_table.h"
#include "export/data_export.h"
#include "figures/view_factory.h"
#include "state/parameters.h"
#include "test_support.h"
#include "view_fixture.h"
#include "views/pair_circle_view.h"

#include <qcustomplot.h>

#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>

class TestPairCircleView : public QObject
{
    Q_OBJECT

  private slots:
    void init();
    void cleanup();
    void seed000Figure();
    void markerFollowsPosition();
    void sampledWhenLong();
    void everyPositionCoversTheRing();
    void equalAxes();
    void oddDimension();
    void exportedTableTicksOnItsScale();

  private:
    std::unique_ptr<ViewFixture<PairCircleView>> fixture_;
    Parameters *params_ = nullptr;
    PairCircleView *view_ = nullptr;
};

void TestPairCircleView::init()
{
    fixture_ = std::make_unique<ViewFixture<PairCircleView>>(QSize(900, 900));
    params_ = &fixture_->params;
    view_ = fixture_->view.get();
    QVERIFY(fixture_->exposed());
}

void TestPairCircleView::cleanup()
{
    fixture_.reset();
}

void TestPairCircleView::seed000Figure()
{
    // Seed 000: seq_len 100, emb_size 18 = 2 * 3 * 3, base 1e4, a 3 x 3 grid of circles.
    QVERIFY(!params_->set(testsupport::params(100, 18, 1e4)));
    QCOMPARE(view_->shownPairs(), 9);
    QCOMPARE(view_->dotCount(), 100);
    QVERIFY(!view_->rasterised());
    QCOMPARE(view_->plot()->axisRectCount(), 9);
}

void TestPairCircleView::markerFollowsPosition()
{
    QVERIFY(!params_->set(testsupport::params(100, 18, 1e4)));
    params_->setPosition(37);
    const pe::Encoding &e = params_->encoding();
    for (int i = 0; i < 9; ++i) {
        const QPointF m = view_->markerAt(i);
        QCOMPARE(m.x(), e.value(37, 2 * i));
        QCOMPARE(m.y(), e.value(37, 2 * i + 1));
        QVERIFY(std::abs(m.x() * m.x() + m.y() * m.y() - 1) < 1e-14); // on the unit circle
    }
    QCPGraph *marker = view_->plot()->graph(0);
    QCOMPARE(marker->data()->at(0)->key, e.value(37, 0));
}

void TestPairCircleView::sampledWhenLong()
{
    QVERIFY(!params_->set(testsupport::params(1'000'000, 64, 1e4)));
    // Every position is rasterised: the dots are lit pixels, bounded by the circle's pixels.
    QVERIFY(view_->rasterised());
    QVERIFY(view_->dotCount() > 100);
    QVERIFY(view_->dotCount() <=
            std::int64_t(view_->plot()->axisRect(0)->width() + 1) * (view_->plot()->axisRect(0)->height() + 1));
}

void TestPairCircleView::everyPositionCoversTheRing()
{
    // Issue 12: at 100,000 x 1,024 thinning 1 in 98 drew 8 clusters on pair 3 and a half-arc on
    // pair 6. Every position of a fast pair goes round the whole circle: all 72 sectors of 5 degrees
    // are lit, as they are with no reduction at all.
    QVERIFY(!params_->set(testsupport::params(100'000, 1024, 1e4)));
    pe::PairChoice fastest;
    fastest.mode = pe::PairChoice::Mode::Fastest;
    view_->setPairChoice(fastest);
    QVERIFY(view_->rasterised());
    QCOMPARE(view_->pairIndices()[3], 3);
    for (int k : {3, 6}) {
        std::vector<bool> lit(72, false);
        for (const QPointF &p : view_->dotsOf(k))
            lit[static_cast<std::size_t>(std::floor((std::atan2(p.y(), p.x()) + M_PI) / (2 * M_PI) * 72)) % 72] = true;
        QVERIFY2(std::all_of(lit.begin(), lit.end(), [](bool b) { return b; }), qPrintable(QString::number(k)));
    }
}

void TestPairCircleView::equalAxes()
{
    QVERIFY(!params_->set(testsupport::params(50, 8, 1e4)));
    view_->setShownPairs(4);
    view_->resize(1200, 500);
    view_->plot()->replot(QCustomPlot::rpImmediateRefresh);
    for (int i = 0; i < view_->plot()->axisRectCount(); ++i) {
        QCPAxisRect *r = view_->plot()->axisRect(i);
        const double xs = r->width() / r->axis(QCPAxis::atBottom)->range().size();
        const double ys = r->height() / r->axis(QCPAxis::atLeft)->range().size();
        QVERIFY2(std::abs(xs - ys) < 0.01 * xs, qPrintable(QStringLiteral("%1 vs %2").arg(xs).arg(ys)));
    }
}

void TestPairCircleView::oddDimension()
{
    QVERIFY(!params_->set(testsupport::params(30, 5, 1e4)));
    QCOMPARE(view_->shownPairs(), 3);
    QCOMPARE(view_->markerAt(2).y(), 0.0); // the unpartnered sine moves along the x axis
}

void TestPairCircleView::exportedTableTicksOnItsScale()
{
    // Issue 28: GPT-2's wpe (values about 0.02) exported as circles drew each plot at its pair's
    // radius (about 0.075) with the unit circle's ticks and grid (+/-0.5, +/-1) off its axes, over
    // the next panels; the window, laid out twice, was right. An export lays out once.
    std::mt19937 rng(7);
    std::normal_distribution<double> normal(0.0, 0.02);
    const std::int64_t rows = 1024;
    const int cols = 16;
    std::string bytes = pe::npyHeader({rows, cols});
    for (std::int64_t i = 0; i < rows * cols; ++i) {
        const double v = normal(rng);
        bytes.append(reinterpret_cast<const char *>(&v), sizeof v);
    }
    const auto table =
        pe::PositionTable::fromBytes(reinterpret_cast<const unsigned char *>(bytes.data()), bytes.size(), "wpe.npy");
    QVERIFY(!params_->set(pe::tableParams({}, table)));
    // Drawn offscreen as the command line draws it, by a view never shown.
    std::unique_ptr<PlotView> exported(createView(*findView(QStringLiteral("circles")), params_, nullptr));
    QVERIFY(!exported->render(QSize(1200, 800), 1.0).isNull());
    QCustomPlot *plot = exported->plot();
    QCOMPARE(plot->axisRectCount(), 8);
    for (int i = 0; i < plot->axisRectCount(); ++i) {
        for (auto side : {QCPAxis::atBottom, QCPAxis::atLeft}) {
            QCPAxis *axis = plot->axisRect(i)->axis(side);
            const QString where =
                QStringLiteral("plot %1, %2 axis, range %3 to %4, ticks")
                    .arg(i)
                    .arg(side == QCPAxis::atBottom ? QStringLiteral("bottom") : QStringLiteral("left"))
                    .arg(axis->range().lower)
                    .arg(axis->range().upper);
            QVERIFY2(axis->range().upper < 0.2, qPrintable(where)); // the pair's scale, not the unit circle's
            int inside = 0;
            for (double t : axis->tickVector())
                inside += axis->range().contains(t);
            QStringList labels;
            for (const QString &l : axis->tickVectorLabels())
                labels << l;
            // Labelled ticks at the pair's scale: at least two on every axis, and the left
            // (taller, 0.025 or 0.05 apart) shows +/-0.05.
            QVERIFY2(inside >= 2, qPrintable(where + labels.join(QLatin1Char(' '))));
            QVERIFY2(
                std::none_of(labels.begin(), labels.end(),
                             [](const QString &l) { return l == QLatin1String("0.5") || l == QLatin1String("1"); }),
                qPrintable(where + labels.join(QLatin1Char(' '))));
            if (side == QCPAxis::atLeft)
                QVERIFY2(labels.contains(QStringLiteral("0.05")) && labels.contains(QStringLiteral("-0.05")),
                         qPrintable(where + labels.join(QLatin1Char(' '))));
        }
    }
}

QTEST_MAIN(TestPairCircleView)
#include "tst_pair_circle_view.moc"
