#include "analysis/similarity.h"
#include "test_support.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using testsupport::params;

class TestSimilarity : public QObject
{
    Q_OBJECT

  private slots:
    void reducedCurveKeepsEveryExtreme();
    void kernelEqualsBruteForce_data();
    void kernelEqualsBruteForce();
    void kernelAppliesOnlyWhereTheDotIsAnOffset();
    void curveMatchesBruteForce_data();
    void curveMatchesBruteForce();
    void seed001PeaksAtTheReference();
    void noiseIsReproducible();
    void scoreBlockAgrees();
    void distanceMatrixOfJitteredRows();
};

static double dot(const pe::Encoding &e, const pe::NoiseParams &noise, std::int64_t t, std::int64_t s,
                  double *xn = nullptr, double *pn = nullptr)
{
    double sum = 0, a = 0, b = 0;
    for (int j = 0; j < e.dModel(); ++j) {
        const double x = e.value(t, j) + noise.sigma * pe::standardNormal(noise.seed, t, j);
        const double p = e.value(s, j);
        sum += x * p;
        a += x * x;
        b += p * p;
    }
    if (xn)
        *xn = a;
    if (pn)
        *pn = b;
    return sum;
}

void TestSimilarity::kernelEqualsBruteForce_data()
{
    QTest::addColumn<int>("d");
    QTest::addColumn<int>("layout");
    QTest::newRow("interleaved 128") << 128 << int(pe::Layout::Interleaved);
    QTest::newRow("split 64") << 64 << int(pe::Layout::Split);
}

void TestSimilarity::kernelEqualsBruteForce()
{
    QFETCH(int, d);
    QFETCH(int, layout);
    const pe::Encoding e(params(3000, d, 1e4, 0, static_cast<pe::Layout>(layout)));
    const pe::OffsetKernel s(e, 2999);
    double worst = 0;
    for (std::int64_t t : {0, 17, 1500, 2999})
        for (std::int64_t u : {0, 5, 999, 2998})
            worst = std::max(worst, std::abs(s(t - u) - dot(e, {}, t, u)));
    QVERIFY2(worst < 1e-11, qPrintable(QString::number(worst)));
    QCOMPARE(s(0), d / 2.0);
}

void TestSimilarity::kernelAppliesOnlyWhereTheDotIsAnOffset()
{
    QVERIFY(pe::OffsetKernel::applies(params(10, 8, 1e4), {}));
    QVERIFY(!pe::OffsetKernel::applies(params(10, 7, 1e4), {}));
    QVERIFY(!pe::OffsetKernel::applies(params(10, 8, 1e4, 0, pe::Layout::Interleaved, pe::Exponent::Index), {}));
    QVERIFY(!pe::OffsetKernel::applies(params(10, 8, 1e4), {0.5, 1}));
}

void TestSimilarity::curveMatchesBruteForce_data()
{
    QTest::addColumn<int>("metric");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<int>("exponent");
    for (int m = 0; m < 3; ++m) {
        const QByteArray name = QByteArray(pe::metricName(static_cast<pe::Metric>(m)).data());
        QTest::newRow((name + " pure").constData()) << m << 0.0 << int(pe::Exponent::Pair);
        QTest::newRow((name + " noisy").constData()) << m << 0.5 << int(pe::Exponent::Pair);
        QTest::newRow((name + " per-index").constData()) << m << 0.0 << int(pe::Exponent::Index);
    }
}

void TestSimilarity::curveMatchesBruteForce()
{
    QFETCH(int, metric);
    QFETCH(double, sigma);
    QFETCH(int, exponent);
    const pe::Encoding e(params(300, 20, 1e4, 40, pe::Layout::Interleaved, static_cast<pe::Exponent>(exponent)));
    const pe::NoiseParams noise{sigma, 7};
    std::optional<pe::OffsetKernel> kernel;
    if (pe::OffsetKernel::applies(e.params(), noise))
        kernel.emplace(e, 299);
    const auto m = static_cast<pe::Metric>(metric);
    const std::vector<double> curve = pe::similarityToReference(e, noise, 70, m, kernel ? &*kernel : nullptr);
    QCOMPARE(curve.size(), std::size_t(300));
    for (std::int64_t r = 0; r < 300; r += 13) {
        double xn, pn;
        const double d = dot(e, noise, 40 + r, 70, &xn, &pn);
        QVERIFY(std::abs(curve[static_cast<std::size_t>(r)] - pe::metricFromDot(m, d, xn, pn)) < 1e-11);
    }
}

void TestSimilarity::seed001PeaksAtTheReference()
{
    // Seed 001: d 20, 300 positions, reference 30: the pure curve peaks at 30 with d/2 = 10.
    const pe::Encoding e(params(300, 20, 1e4));
    const pe::OffsetKernel kernel(e, 299);
    const std::vector<double> curve = pe::similarityToReference(e, {}, 30, pe::Metric::Dot, &kernel);
    QCOMPARE(std::max_element(curve.begin(), curve.end()) - curve.begin(), 30);
    QCOMPARE(curve[30], 10.0);
    const std::vector<double> dist = pe::similarityToReference(e, {}, 30, pe::Metric::Euclidean, &kernel);
    QCOMPARE(std::min_element(dist.begin(), dist.end()) - dist.begin(), 30);
}

void TestSimilarity::noiseIsReproducible()
{
    QCOMPARE(pe::standardNormal(42, 1000, 3), pe::standardNormal(42, 1000, 3));
    QVERIFY(pe::standardNormal(42, 1000, 3) != pe::standardNormal(43, 1000, 3));
    // Standard normal: mean near 0, variance near 1 over 200,000 draws.
    double sum = 0, sum2 = 0;
    for (int t = 0; t < 10000; ++t)
        for (int j = 0; j < 20; ++j) {
            const double z = pe::standardNormal(1, t, j);
            sum += z;
            sum2 += z * z;
        }
    QVERIFY(std::abs(sum / 200000) < 0.01);
    QVERIFY(std::abs(sum2 / 200000 - 1) < 0.02);
    QVERIFY(pe::validateNoise({0.5, 1}) == std::nullopt);
    QVERIFY(pe::validateNoise({-0.1, 1}).has_value());
    QVERIFY(pe::validateNoise({std::nan(""), 1}).has_value());
    QVERIFY(pe::validateNoise({11, 1})->find("from 0 to 10") != std::string::npos);
    // x = PE + sigma z: the embeddings are the encoding plus fillNoise's block, bit for bit, in
    // any sampled (jittered, pair-grouped) block, and fillNoise is zero without noise.
    {
        const pe::Encoding e(params(1000, 12, 1e4, 30));
        const pe::Block b = pe::sampledBlock(pe::Layout::Interleaved, 30, 1000, 37, 0, 12, 5);
        std::vector<double> x(static_cast<std::size_t>(b.size())), pe(x.size()), z(x.size());
        for (const pe::NoiseParams &n :
             {pe::NoiseParams{0.5, 42}, pe::NoiseParams{}, pe::NoiseParams{0.5, 42, pe::NoiseRng::Numpy}}) {
            pe::fillEmbeddings(e, n, b, x.data());
            e.fill(b, pe.data());
            pe::fillNoise(n, e.dModel(), b, z.data());
            for (std::size_t i = 0; i < x.size(); ++i)
                QCOMPARE(x[i], pe[i] + z[i]);
            QCOMPARE(z[0] == 0.0, !n.active());
        }
    }
    // Seeds: what the window's int boxes hold, in one sentence wherever one is refused.
    QVERIFY(!pe::validateSeed(0) && !pe::validateSeed(pe::limits::maxSeed));
    QCOMPARE(pe::validateSeed(-1).value(),
             std::string("the seed must be a whole number from 0 to 2147483647 (got -1)."));
    QVERIFY(pe::validateSeed(pe::limits::maxSeed + 1));
    QVERIFY(pe::validateNoise({0.5, std::uint64_t(1) << 40}).has_value());
}

void TestSimilarity::scoreBlockAgrees()
{
    const pe::Encoding e(params(500, 32, 1e4, 10));
    const pe::OffsetKernel kernel(e, 499);
    const std::vector<std::int64_t> rows{10, 50, 300}, cols{10, 11, 400, 509};
    std::vector<double> fast(12), exact(12);
    pe::scoreBlock(e, {}, pe::Metric::Cosine, &kernel, rows, cols, fast.data());
    pe::scoreBlock(e, {}, pe::Metric::Cosine, nullptr, rows, cols, exact.data());
    for (int i = 0; i < 12; ++i)
        QVERIFY(std::abs(fast[i] - exact[i]) < 1e-12);
    QCOMPARE(fast[0], 1.0); // a position with itself
}

void TestSimilarity::reducedCurveKeepsEveryExtreme()
{
    // 100,000 positions in 700 pixel columns: each column spans the lowest to the highest value of
    // its positions, exactly as the unreduced curve (a stride once drew a false slow wave).
    const pe::Encoding e(params(100'000, 64, 1e4, 5));
    const pe::OffsetKernel kernel(e, 99'999);
    const std::int64_t reference = 40'000;
    const std::vector<double> all = pe::similarityToReference(e, {}, reference, pe::Metric::Dot, &kernel);
    const pe::SimilarityCurve c = pe::similarityCurve(e, {}, reference, pe::Metric::Dot, &kernel, 700);
    QVERIFY(c.envelope);
    QVERIFY(c.positions.size() <= 700);
    for (std::size_t b = 0; b < c.positions.size(); ++b) {
        const auto first = static_cast<std::size_t>(c.positions[b] - 5);
        const auto last = std::min(all.size(), first + static_cast<std::size_t>(c.stride));
        QCOMPARE(c.low[b], *std::min_element(all.begin() + first, all.begin() + last));
        QCOMPARE(c.high[b], *std::max_element(all.begin() + first, all.begin() + last));
    }
    QCOMPARE(c.best, reference);
    // Without a kernel (noise): one real position a bucket, inside it, the reference's own bucket
    // holding the reference.
    const pe::NoiseParams noise{0.5, 42};
    const pe::SimilarityCurve n = pe::similarityCurve(e, noise, reference, pe::Metric::Dot, nullptr, 700);
    QVERIFY(!n.envelope);
    // Each value is the metric at its position, as one position at a time computes it.
    const std::vector<double> noisy = pe::similarityToReference(e, noise, reference, pe::Metric::Dot, nullptr);
    for (std::size_t b = 0; b < n.positions.size(); ++b) {
        QVERIFY(n.positions[b] >= 5 + static_cast<std::int64_t>(b) * n.stride &&
                n.positions[b] < 5 + static_cast<std::int64_t>(b + 1) * n.stride);
        QCOMPARE(n.low[b], n.high[b]);
        QVERIFY2(std::abs(n.low[b] - noisy[static_cast<std::size_t>(n.positions[b] - 5)]) < 1e-9,
                 qPrintable(QString::number(n.positions[b])));
    }
    QVERIFY(std::find(n.positions.begin(), n.positions.end(), reference) != n.positions.end());
}

void TestSimilarity::distanceMatrixOfJitteredRows()
{
    // The matrix through S along the sampled offsets equals the cell-by-cell dot products of the
    // same jittered positions, for both layouts and every metric; without the offset structure it
    // is those dot products.
    for (pe::Layout layout : pe::kLayouts)
        for (const pe::NoiseParams &noise : {pe::NoiseParams{}, pe::NoiseParams{0.4, 3}}) {
            const pe::Encoding e(params(50'000, 16, 1e4, 777, layout));
            const pe::Block rows = pe::sampledPositions(777, 50'000, 60, 4);
            QVERIFY(rows.jittered());
            std::vector<std::int64_t> positions;
            for (std::int64_t r = 0; r < rows.rows; ++r)
                positions.push_back(rows.position(r));
            const auto n = positions.size();
            for (pe::Metric metric : {pe::Metric::Dot, pe::Metric::Cosine, pe::Metric::Euclidean}) {
                std::vector<double> fast(n * n), exact(n * n);
                pe::distanceMatrix(e, noise, metric, rows, fast.data());
                pe::scoreBlock(e, noise, metric, nullptr, positions, positions, exact.data());
                // A distance compares squared: sqrt turns a 1e-15 rounding on the diagonal into 4e-8.
                const auto same = [metric](double a, double b) {
                    return metric == pe::Metric::Euclidean ? std::abs(a * a - b * b) < 1e-9 : std::abs(a - b) < 1e-9;
                };
                for (std::size_t i = 0; i < fast.size(); ++i)
                    QVERIFY2(same(fast[i], exact[i]),
                             qPrintable(QStringLiteral("cell %1: %2 vs %3").arg(i).arg(fast[i]).arg(exact[i])));
            }
        }
    // S itself at arbitrary (negative) offsets.
    const pe::Encoding e(params(100, 8));
    const pe::OffsetKernel kernel(e, 99);
    const std::vector<double> s = pe::offsetSums(e, -40, 7, 12);
    for (std::size_t i = 0; i < s.size(); ++i)
        QVERIFY(std::abs(s[i] - kernel(-40 + 7 * static_cast<std::int64_t>(i))) < 1e-12);
}

QTEST_APPLESS_MAIN(TestSimilarity)
#include "tst_similarity.moc"
