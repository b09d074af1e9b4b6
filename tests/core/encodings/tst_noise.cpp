#include "analysis/recovery.h"
#include "analysis/similarity.h"
#include "encodings/noise.h"
#include "support/parallel.h"
#include "test_support.h"

#include <QTest>

#include <cmath>
#include <thread>

using testsupport::params;

// The noise generators: numpy's legacy randn reproduced bit for bit, its draws laid out as seed 001
// reads them, its size limit, and seed 001's own numbers coming out as numpy gives them.
class TestNoise : public QObject
{
    Q_OBJECT

  private slots:
    void numpySeed42IsNumpysOwn();
    void numpyOtherSeedsAgreeWithPublishedDraws();
    void drawNumberIsPositionTimesDPlusColumn();
    void blocksReadTheSameDrawsInAnyOrder();
    void numpyIsLimitedWithOneSentence();
    void seed001MatchesNumpy();
    void generatorsAreNamed();
};

static std::vector<double> legacyDraws(std::uint32_t seed, int n)
{
    pe::LegacyNormal g(seed);
    std::vector<double> out;
    for (int i = 0; i < n; ++i)
        out.push_back(g.gaussian());
    return out;
}

void TestNoise::numpySeed42IsNumpysOwn()
{
    // np.random.seed(42); np.random.randn(10), as published to the last digit wherever seed 42's
    // Gaussians are printed in full (e.g. the test data of public normality tests: 0.4967141530112327,
    // -0.13826430117118466, 0.6476885381006925, 1.5230298564080254, -0.23415337472333597, ...), and
    // as numpy 1.24.2 (Debian bookworm's python3-numpy) prints them. Compared exactly.
    const double expected[] = {0.4967141530112327,   -0.13826430117118466, 0.6476885381006925, 1.5230298564080254,
                               -0.23415337472333597, -0.23413695694918055, 1.5792128155073915, 0.7674347291529088,
                               -0.4694743859349521,  0.5425600435859647};
    const std::vector<double> z = legacyDraws(42, 12000);
    for (int i = 0; i < 10; ++i)
        QCOMPARE(z[static_cast<std::size_t>(i)], expected[i]);
    // Further in: draw 5999 is a kept second value of the polar method, 6000 a fresh pair's first;
    // 11999 is the last of randn(2, 300, 20) (numpy 1.24.2: RandomState(42).randn(12000)).
    QCOMPARE(z[5999], -1.1702807063967748);
    QCOMPARE(z[6000], -1.1140813582330875);
    QCOMPARE(z[11999], -0.9463138227477964);
    // The uniform doubles: 53 bits from two 32-bit outputs, in [0, 1).
    pe::LegacyNormal u(42);
    for (int i = 0; i < 1000; ++i) {
        const double v = u.uniform();
        QVERIFY(v >= 0 && v < 1);
        QCOMPARE(std::ldexp(v, 53), std::floor(std::ldexp(v, 53)));
    }
}

void TestNoise::numpyOtherSeedsAgreeWithPublishedDraws()
{
    // numpy's documentation and tutorials print these to 8 decimals:
    // np.random.seed(0); np.random.normal(size=(4, 4)) begins 1.76405235, 0.40015721, 0.97873798,
    // 2.2408932 (normal(0, 1) is randn); np.random.RandomState(1234).randn(10) begins 0.47143516,
    // -1.19097569, 1.43270697, -0.3126519.
    const std::pair<std::uint32_t, std::vector<double>> published[] = {
        {0, {1.76405235, 0.40015721, 0.97873798, 2.2408932}},
        {1234, {0.47143516, -1.19097569, 1.43270697, -0.3126519}}};
    for (const auto &[seed, values] : published) {
        const std::vector<double> z = legacyDraws(seed, 4);
        for (std::size_t i = 0; i < values.size(); ++i)
            QVERIFY2(std::abs(z[i] - values[i]) < 6e-9, qPrintable(QStringLiteral("seed %1 draw %2").arg(seed).arg(i)));
    }
}

void TestNoise::drawNumberIsPositionTimesDPlusColumn()
{
    // z(t, j) = draw t * d + j: seed 001's randn(2, 300, 20)[0][t][j] for d 20, whatever window asks.
    const std::vector<double> z = legacyDraws(42, 12000);
    for (int d : {20, 7, 1}) {
        const pe::NoiseParams numpy{0.5, 42, pe::NoiseRng::Numpy};
        const pe::NoiseDraws draws(numpy, d, 12000 / d);
        for (std::int64_t t : {0, 1, 299, 12000 / d - 1})
            for (int j : {0, d / 2, d - 1})
                QCOMPARE(draws(t, j), z[static_cast<std::size_t>(t * d + j)]);
    }
    // The embeddings export's block for a window that starts later reads the same draws.
    const pe::Encoding e(params(100, 20, 1e4, 250));
    const pe::NoiseParams numpy{0.5, 42, pe::NoiseRng::Numpy};
    std::vector<double> x(static_cast<std::size_t>(100 * 20)), pe(x.size());
    pe::fillEmbeddings(e, numpy, e.windowBlock(), x.data());
    e.fill(e.windowBlock(), pe.data());
    for (int r = 0; r < 100; r += 49)
        for (int j = 0; j < 20; ++j) {
            const std::size_t i = static_cast<std::size_t>(r * 20 + j);
            QCOMPARE(x[i], pe[i] + 0.5 * z[static_cast<std::size_t>((250 + r) * 20 + j)]);
        }
}

void TestNoise::blocksReadTheSameDrawsInAnyOrder()
{
    // Views read sampled, jittered blocks on several threads, and switch seeds: numpy's draws are
    // one sequence per seed, extended as asked and never changed.
    const pe::Encoding e(params(3000, 64, 1e4, 0));
    const pe::NoiseParams numpy{1.0, 7, pe::NoiseRng::Numpy}, other{1.0, 8, pe::NoiseRng::Numpy};
    const pe::Block all = e.windowBlock();
    std::vector<double> whole(static_cast<std::size_t>(all.size()));
    pe::fillNoise(numpy, 64, all, whole.data());
    const pe::Block b = pe::sampledBlock(pe::Layout::Interleaved, 0, 3000, 101, 0, 64, 9);
    std::vector<std::vector<double>> parts(4, std::vector<double>(static_cast<std::size_t>(b.size())));
    std::vector<std::thread> threads;
    for (std::size_t k = 0; k < parts.size(); ++k)
        threads.emplace_back([&, k] { pe::fillNoise(k % 2 ? other : numpy, 64, b, parts[k].data()); });
    for (std::thread &t : threads)
        t.join();
    std::vector<double> again(static_cast<std::size_t>(b.size()));
    pe::fillNoise(numpy, 64, b, again.data()); // after the other seed
    for (std::int64_t r = 0; r < b.rows; ++r)
        for (int c = 0; c < b.cols; ++c) {
            const std::size_t i = static_cast<std::size_t>(r * b.cols + c);
            const double expected = whole[static_cast<std::size_t>(b.position(r) * 64 + b.column(c))];
            QCOMPARE(parts[0][i], expected);
            QCOMPARE(parts[2][i], expected);
            QCOMPARE(again[i], expected);
            QVERIFY(parts[1][i] != expected);
        }
}

void TestNoise::numpyIsLimitedWithOneSentence()
{
    const pe::NoiseParams numpy{0.5, 42, pe::NoiseRng::Numpy};
    const int d = 1024;
    const std::int64_t reach = pe::limits::maxNumpyDraws / d;
    QCOMPARE(pe::noiseReach(numpy, d), reach);
    QCOMPARE(pe::noiseReach(pe::NoiseParams{}, d), pe::limits::maxPositionEnd);
    pe::EncodingParams p = params(reach, d, 1e4, 0);
    QVERIFY(!pe::validateNoiseFor(p, numpy));
    p.startPos = 1;
    const auto error = pe::validateNoiseFor(p, numpy);
    QVERIFY(error);
    QVERIFY2(error->find("counter generator") != std::string::npos && error->find("33,554,432") != std::string::npos,
             error->c_str());
    // The counter generator, or the noise off, have no limit.
    QVERIFY(!pe::validateNoiseFor(p, pe::NoiseParams{0.5, 42}));
    QVERIFY(!pe::validateNoiseFor(p, pe::NoiseParams{0.0, 42, pe::NoiseRng::Numpy}));
    // Past the reach a draw is NaN, never a read past the end.
    const pe::NoiseDraws draws(numpy, d, reach + 10);
    QVERIFY(std::isnan(draws(reach, 0)));
    QVERIFY(!std::isnan(draws(reach - 1, d - 1)));
}

void TestNoise::seed001MatchesNumpy()
{
    // Seed 001's experiment with its own noise: x = randn(2, 300, 20)[0] / 2 + PE. numpy 1.24.2
    // running the article's code gives argmax_s x_t . PE(s) right for 193 of 300 words, and the
    // best match of x against PE(30) at position 61.
    const pe::Encoding e(params(300, 20, 1e4, 0));
    const pe::NoiseParams numpy{0.5, 42, pe::NoiseRng::Numpy};
    const pe::Recovery r = pe::recoverPositions(e, numpy);
    QCOMPARE(r.correct, std::int64_t{193});
    const std::vector<double> s = pe::similarityToReference(e, numpy, 30, pe::Metric::Dot, nullptr);
    QCOMPARE(std::max_element(s.begin(), s.end()) - s.begin(), std::ptrdiff_t{61});
    // The counter generator's noise is other noise: a different count (it is not numpy's).
    QVERIFY(pe::recoverPositions(e, pe::NoiseParams{0.5, 42}).correct != 193);
    // The accuracy-against-sigma curve draws the same z: at sigma 0.5 it is the recovery's.
    const std::vector<double> acc = pe::accuracyAgainstSigma(e, numpy, {0.5}, 300);
    QCOMPARE(acc[0], 193.0 / 300.0);
}

void TestNoise::generatorsAreNamed()
{
    for (pe::NoiseRng rng : pe::allNoiseRngs)
        QCOMPARE(pe::parseRng(pe::rngName(rng)), std::optional(rng));
    QVERIFY(!pe::parseRng("") && !pe::parseRng("Numpy") && !pe::parseRng("numpy "));
    QCOMPARE(pe::seedText({0.5, 42, pe::NoiseRng::Numpy}), std::string("numpy seed 42"));
    QCOMPARE(pe::seedText({0.5, 42}), std::string("seed 42"));
}

QTEST_APPLESS_MAIN(TestNoise)
#include "tst_noise.moc"
