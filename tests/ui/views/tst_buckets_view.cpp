// The T5 buckets view: every cell of the matrix against _relative_position_bucket of s − t, the
// step curve against the bucket of every offset it stands for (the runs it draws lose none), both
// directions and both axes, its title, settings and schemes.
#include "state/parameters.h"
#include "test_support.h"
#include "view_fixture.h"
#include "views/buckets_view.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QTest>

using testsupport::params;

namespace {

QString titleOf(const PlotView *view)
{
    return view->plot()->findChild<QCPTextElement *>()->text().replace(QLatin1Char('\n'), QLatin1Char(' '));
}

pe::EncodingParams t5(std::int64_t n, int buckets = 32, std::int64_t maxDistance = 128, std::int64_t start = 0)
{
    pe::EncodingParams p = params(n, 64, 1e4, start);
    p.scheme = pe::SchemeId::T5;
    p.buckets = buckets;
    p.maxDistance = maxDistance;
    return p;
}

// The value a left-step graph shows at x: the last point at or before it.
double stepAt(const QCPGraph *g, double x)
{
    double value = std::numeric_limits<double>::quiet_NaN();
    for (int i = 0; i < g->dataCount(); ++i)
        if (g->data()->at(i)->key <= x)
            value = g->data()->at(i)->value;
    return value;
}

} // namespace

class TestBucketsView : public QObject
{
    Q_OBJECT

  private slots:
    void init();
    void cleanup();
    void cellsAreTheBucketOfTheOffset();
    void curveHoldsEveryOffsetsBucket();
    void distanceAxisSplitsTheDirections();
    void titleSaysTheRangesAndWhatIsCut();
    void settingsRoundTrip();
    void refusesOtherSchemes();

  private:
    void set(const pe::EncodingParams &p) { QVERIFY(!params_->set(p)); }
    QCPColorMap *map() const { return view_->plot()->findChild<QCPColorMap *>(); }
    void checkCells(const char *what);
    void checkCurve(const char *what);

    std::unique_ptr<ViewFixture<BucketsView>> fixture_;
    Parameters *params_ = nullptr;
    BucketsView *view_ = nullptr;
};

void TestBucketsView::init()
{
    fixture_ = std::make_unique<ViewFixture<BucketsView>>(QSize(1300, 800));
    params_ = &fixture_->params;
    view_ = fixture_->view.get();
    QVERIFY(fixture_->exposed());
}

void TestBucketsView::cleanup()
{
    fixture_.reset();
}

void TestBucketsView::checkCells(const char *what)
{
    QCPColorMapData *data = map()->data();
    const int cells = data->keySize();
    QVERIFY2(cells >= 2 && data->valueSize() == cells, what);
    const auto first = static_cast<std::int64_t>(data->keyRange().lower);
    const pe::T5Buckets b = view_->buckets();
    for (int c = 0; c < cells; ++c)     // key s = first + c
        for (int r = 0; r < cells; ++r) // query t = first + r
            QVERIFY2(data->cell(c, r) == pe::t5Bucket(c - r, b),
                     qPrintable(QStringLiteral("%1: cell (t %2, s %3) shows %4, expected %5")
                                    .arg(QString::fromUtf8(what))
                                    .arg(first + r)
                                    .arg(first + c)
                                    .arg(data->cell(c, r))
                                    .arg(pe::t5Bucket(c - r, b))));
    QCOMPARE(map()->dataRange().lower, 0.0);
    QCOMPARE(map()->dataRange().upper, static_cast<double>(b.buckets - 1));
}

void TestBucketsView::checkCurve(const char *what)
{
    // The runs drawn stand for every offset in -reach..reach: each reads its own bucket back.
    const QCPGraph *g = view_->plot()->graph(0);
    const std::int64_t reach = view_->reach();
    const pe::T5Buckets b = view_->buckets();
    QVERIFY2(g->dataCount() <= 2 * b.buckets + 2, what); // a point a run, not a point an offset
    QCOMPARE(g->lineStyle(), QCPGraph::lsStepLeft);      // each point's value holds to its right
    // The shaded band is the exact range: offsets -(maxExact-1)..maxExact-1 (causal: to 0).
    const auto *band = view_->plot()->findChild<QCPItemRect *>();
    QCOMPARE(band->topLeft->coords().x(), -(b.maxExact() - 0.5));
    QCOMPARE(band->bottomRight->coords().x(), b.bidirectional ? b.maxExact() - 0.5 : 0.5);
    // max_distance dashed on the side(s) it applies to.
    int atMax = 0;
    for (const QCPItemStraightLine *l : view_->plot()->findChildren<QCPItemStraightLine *>())
        if (l->visible() && std::abs(l->point1->coords().x()) == static_cast<double>(b.maxDistance) &&
            l->point1->coords().x() == l->point2->coords().x())
            ++atMax;
    QCOMPARE(atMax, b.bidirectional ? 2 : 1);
    for (std::int64_t k = -reach; k <= reach; ++k)
        QVERIFY2(stepAt(g, static_cast<double>(k)) == pe::t5Bucket(k, b),
                 qPrintable(QStringLiteral("%1: offset %2").arg(QString::fromUtf8(what)).arg(k)));
    QCOMPARE(g->data()->at(0)->key, -static_cast<double>(reach) - 0.5);
    QCOMPARE(g->data()->at(g->dataCount() - 1)->key, static_cast<double>(reach) + 0.5);
}

void TestBucketsView::cellsAreTheBucketOfTheOffset()
{
    set(t5(300));
    QVERIFY(params_->setPosition(150));
    checkCells("encoder");
    QVERIFY(!view_->applySettings({{QStringLiteral("bucketsCausal"), true}}));
    QVERIFY(!view_->buckets().bidirectional);
    checkCells("decoder");
    set(t5(40, 8, 20, 1000));
    checkCells("8 buckets, start 1000");
}

void TestBucketsView::curveHoldsEveryOffsetsBucket()
{
    set(t5(512));
    QCOMPARE(view_->reach(), std::int64_t{256});
    checkCurve("t5-base encoder");
    QVERIFY(!view_->applySettings({{QStringLiteral("bucketsCausal"), true}}));
    checkCurve("t5-base decoder");
    set(t5(50, 64, 1000));
    QCOMPARE(view_->reach(), std::int64_t{49}); // the window's offsets when they are fewer
    checkCurve("64 buckets, 50 positions");
    QVERIFY(!view_->plot()->graph(1)->visible());
}

void TestBucketsView::distanceAxisSplitsTheDirections()
{
    set(t5(512));
    QVERIFY(!view_->applySettings({{QStringLiteral("bucketsAxis"), QStringLiteral("distance")}}));
    QCPAxis *x = view_->plot()->graph(0)->keyAxis();
    QCOMPARE(x->scaleType(), QCPAxis::stLogarithmic);
    const QCPGraph *before = view_->plot()->graph(0), *after = view_->plot()->graph(1);
    QVERIFY(after->visible());
    const pe::T5Buckets b = view_->buckets();
    for (std::int64_t n = 1; n <= view_->reach(); ++n) {
        QCOMPARE(stepAt(before, static_cast<double>(n)), double(pe::t5Bucket(-n, b)));
        QCOMPARE(stepAt(after, static_cast<double>(n)), double(pe::t5Bucket(n, b)));
    }
    // Causal: keys after the query are all bucket 0, no curve of their own.
    QVERIFY(!view_->applySettings({{QStringLiteral("bucketsCausal"), true}}));
    QVERIFY(!view_->plot()->graph(1)->visible());
    QVERIFY(view_->plot()->graph(0)->visible());
    QVERIFY(!view_->applySettings({{QStringLiteral("bucketsAxis"), QStringLiteral("offset")}}));
    QCOMPARE(x->scaleType(), QCPAxis::stLinear);
}

void TestBucketsView::titleSaysTheRangesAndWhatIsCut()
{
    set(t5(512));
    QString title = titleOf(view_);
    QVERIFY2(title.contains(QStringLiteral("32 buckets, bidirectional (the encoder)")), qPrintable(title));
    QVERIFY2(title.contains(QStringLiteral("one offset a bucket (|s − t| < 8)")), qPrintable(title));
    QVERIFY2(title.contains(QStringLiteral("the last bucket from 91")), qPrintable(title));
    QVERIFY2(title.contains(QStringLiteral("curve: distances to 256 of 511; every distance from 91 on is in the "
                                           "last bucket")),
             qPrintable(title));
    QVERIFY(!view_->applySettings({{QStringLiteral("bucketsCausal"), true}}));
    title = titleOf(view_);
    QVERIFY2(title.contains(QStringLiteral("causal (the decoder)")) && title.contains(QStringLiteral("< 16")) &&
                 title.contains(QStringLiteral("the last bucket from 113")),
             qPrintable(title));
    set(t5(100));
    QVERIFY(!titleOf(view_).contains(QStringLiteral("curve: distances")));
}

void TestBucketsView::settingsRoundTrip()
{
    set(t5(300));
    QVERIFY(!view_->applySettings({{QStringLiteral("bucketsCausal"), true},
                                   {QStringLiteral("bucketsAxis"), QStringLiteral("distance")},
                                   {QStringLiteral("bucketsCells"), 40}}));
    const QJsonObject saved = view_->settings();
    ViewFixture<BucketsView> other(QSize(1000, 700));
    QVERIFY(other.exposed());
    QVERIFY(!other.params.set(t5(300)));
    QVERIFY(!other.view->applySettings(saved));
    QCOMPARE(other.view->settings(), saved);
    QCOMPARE(other.view->plot()->findChild<QCPColorMap *>()->data()->keySize(), 40);
    QVERIFY(view_->applySettings({{QStringLiteral("bucketsAxis"), QStringLiteral("sideways")}}));
    QCOMPARE(view_->settings(), saved);
}

void TestBucketsView::refusesOtherSchemes()
{
    QVERIFY(verifySchemeRefused(view_, params_, {pe::SchemeId::Sinusoidal, pe::SchemeId::Rope, pe::SchemeId::Alibi},
                                QStringLiteral("The T5 buckets view shows the t5 scheme: choose it (--scheme t5).")));
    set(t5(50));
    QVERIFY(view_->info().schemeProblem(params_->values()).isEmpty());
    QVERIFY(view_->plot()->isVisible());
    checkCells("back to T5");
}

QTEST_MAIN(TestBucketsView)
#include "tst_buckets_view.moc"
