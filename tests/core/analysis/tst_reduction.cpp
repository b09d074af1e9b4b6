#include "analysis/reduction.h"
#include "encodings/encoding.h"
#include "test_support.h"

#include <QTest>

#include <cmath>
#include <map>
#include <random>

// Reductions to pixels against the unreduced values: every point counted once on its own pixel,
// every run's extremes kept.
class TestReduction : public QObject
{
    Q_OBJECT

  private slots:
    void rasterCountsEveryPointOnItsPixel_data();
    void rasterCountsEveryPointOnItsPixel();
    void rasterClipsToTheGrid();
    void runExtentsKeepEveryValuesRange();
};

void TestReduction::rasterCountsEveryPointOnItsPixel_data()
{
    QTest::addColumn<int>("d");
    QTest::addColumn<int>("layout");
    QTest::addColumn<int>("pair");
    QTest::addColumn<qint64>("first");
    QTest::newRow("fast pair") << 64 << int(pe::Layout::Interleaved) << 0 << qint64(0);
    QTest::newRow("slow pair, far window") << 64 << int(pe::Layout::Interleaved) << 20 << qint64(123'456);
    QTest::newRow("split layout") << 32 << int(pe::Layout::Split) << 5 << qint64(7);
    QTest::newRow("odd d, last sine alone") << 9 << int(pe::Layout::Interleaved) << 4 << qint64(0);
}

void TestReduction::rasterCountsEveryPointOnItsPixel()
{
    QFETCH(int, d);
    QFETCH(int, layout);
    QFETCH(int, pair);
    QFETCH(qint64, first);
    pe::EncodingParams p = testsupport::params(50'000, d);
    p.layout = static_cast<pe::Layout>(layout);
    p.startPos = first;
    const pe::Encoding enc(p);
    // [-1.1, 1.1] onto 90 x 70 pixels, y up.
    const pe::PixelMap map{90 / 2.2, 45, -70 / 2.2, 35};
    const pe::PairRaster g = pe::rasterisePair(enc, pair, first, p.seqLen, 90, 70, map);
    QCOMPARE(g.width, 90);
    QCOMPARE(g.height, 70);
    // The same points one by one: their pixels, counts and mean positions.
    std::map<std::size_t, std::pair<std::uint32_t, double>> expected;
    const int cj = enc.pairCosineColumn(pair);
    for (std::int64_t t = first; t < first + p.seqLen; ++t) {
        const double x = enc.value(t, enc.pairSineColumn(pair));
        const double y = cj >= 0 ? enc.value(t, cj) : 0.0;
        const auto px = static_cast<int>(std::floor(map.ax * x + map.bx));
        const auto py = static_cast<int>(std::floor(map.ay * y + map.by));
        auto &e = expected[static_cast<std::size_t>(py) * 90 + px];
        ++e.first;
        e.second += static_cast<double>(t);
    }
    std::uint64_t total = 0;
    std::size_t lit = 0;
    for (std::size_t at = 0; at < g.hits.size(); ++at) {
        total += g.hits[at];
        if (g.hits[at] == 0)
            continue;
        ++lit;
        const auto it = expected.find(at);
        QVERIFY2(it != expected.end(), "a pixel lit that no point lands on");
        QCOMPARE(g.hits[at], it->second.first);
        QVERIFY(std::abs(g.meanPosition(at, first) - it->second.second / it->second.first) < 1e-6);
    }
    QCOMPARE(total, std::uint64_t(p.seqLen)); // every point once
    QCOMPARE(lit, expected.size());
}

void TestReduction::rasterClipsToTheGrid()
{
    const pe::Encoding enc(testsupport::params(1000, 8));
    // Only x >= 0 is on the grid: the points with a negative sine fall outside and are not counted.
    const pe::PixelMap map{50, 0, -50, 50};
    const pe::PairRaster g = pe::rasterisePair(enc, 0, 0, 1000, 51, 101, map);
    std::uint64_t total = 0, inside = 0;
    for (std::uint32_t h : g.hits)
        total += h;
    for (int t = 0; t < 1000; ++t)
        inside += enc.value(t, 0) >= 0 ? 1 : 0;
    QCOMPARE(total, inside);
}

void TestReduction::runExtentsKeepEveryValuesRange()
{
    std::mt19937_64 rng(7);
    std::vector<std::int64_t> v(10'007);
    for (auto &x : v)
        x = static_cast<std::int64_t>(rng() % 1000);
    v[5000] = -3; // one outlier: its run must show it
    for (std::int64_t stride : {1, 2, 97, 1000, 20'000}) {
        const std::vector<pe::Extent> e = pe::runExtents(v, stride);
        QCOMPARE(static_cast<std::int64_t>(e.size()), (static_cast<std::int64_t>(v.size()) + stride - 1) / stride);
        for (std::size_t r = 0; r < e.size(); ++r) {
            std::int64_t lo = INT64_MAX, hi = INT64_MIN;
            for (std::int64_t i = static_cast<std::int64_t>(r) * stride;
                 i < std::min<std::int64_t>((static_cast<std::int64_t>(r) + 1) * stride,
                                            static_cast<std::int64_t>(v.size()));
                 ++i) {
                lo = std::min(lo, v[static_cast<std::size_t>(i)]);
                hi = std::max(hi, v[static_cast<std::size_t>(i)]);
            }
            QCOMPARE(e[r].low, lo);
            QCOMPARE(e[r].high, hi);
        }
        QCOMPARE(e[static_cast<std::size_t>(5000 / stride)].low, std::int64_t(-3));
    }
    QVERIFY(pe::runExtents({}, 4).empty());
}

QTEST_APPLESS_MAIN(TestReduction)
#include "tst_reduction.moc"
