#include "analysis/offset_waves.h"

#include "encodings/rope.h"
#include "support/simd_clones.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <random>

// offsetWaveSums against every term evaluated in long double: both sums, the bound against
// ropeDecay, several coefficient sets, steps and first offsets far from 0 (the reseeds' exact
// angles), counts that end mid-group and mid-span, and more than one thread's share.
class TestOffsetWaves : public QObject
{
    Q_OBJECT

  private slots:
    void sumsAgainstLongDouble_data();
    void sumsAgainstLongDouble();
    void severalFirstsAreEachOnesOwn();
    void boundIsRoFormers();
    void emptyAndSingle();
    void levelsGiveTheSameBits();
};

namespace {

std::vector<double> frequencies(int pairs, double base)
{
    std::vector<double> theta;
    for (int i = 0; i < pairs; ++i)
        theta.push_back(std::pow(base, -2.0 * i / (2 * pairs)));
    return theta;
}

// cos and sin of the exact product m·θ = hi + lo (lo from fma): a long double angle near 1e9 would
// itself be off by 1e-10, so hi and lo are turned separately, each exact in long double.
long double exactCos(double m, double theta)
{
    const double hi = m * theta, lo = std::fma(m, theta, -hi);
    return std::cos(static_cast<long double>(hi)) * std::cos(static_cast<long double>(lo)) -
           std::sin(static_cast<long double>(hi)) * std::sin(static_cast<long double>(lo));
}

long double exactSin(double m, double theta)
{
    const double hi = m * theta, lo = std::fma(m, theta, -hi);
    return std::sin(static_cast<long double>(hi)) * std::cos(static_cast<long double>(lo)) +
           std::cos(static_cast<long double>(hi)) * std::sin(static_cast<long double>(lo));
}

} // namespace

void TestOffsetWaves::sumsAgainstLongDouble_data()
{
    QTest::addColumn<int>("pairs");
    QTest::addColumn<int>("sets");
    QTest::addColumn<qint64>("first");
    QTest::addColumn<qint64>("step");
    QTest::addColumn<qint64>("count");
    QTest::newRow("64 pairs, one set, offsets 0..999") << 64 << 1 << qint64(0) << qint64(1) << qint64(1000);
    QTest::newRow("3 pairs, 3 sets, 7 offsets (one partial group)") << 3 << 3 << qint64(0) << qint64(1) << qint64(7);
    QTest::newRow("100 pairs, 2 sets, step 7 from -40") << 100 << 2 << qint64(-40) << qint64(7) << qint64(2'053);
    QTest::newRow("512 pairs, near a million") << 512 << 1 << qint64(999'000) << qint64(1) << qint64(3'001);
    QTest::newRow("17 pairs, near 1e9, step 37") << 17 << 2 << qint64(1'000'000'000) << qint64(37) << qint64(777);
    QTest::newRow("8 pairs, 20,000 offsets (both threads)") << 8 << 1 << qint64(5) << qint64(1) << qint64(20'000);
}

void TestOffsetWaves::sumsAgainstLongDouble()
{
    QFETCH(int, pairs);
    QFETCH(int, sets);
    QFETCH(qint64, first);
    QFETCH(qint64, step);
    QFETCH(qint64, count);
    pe::OffsetWaveRequest r;
    r.theta = frequencies(pairs, 10'000); // w_0 = 1: the fastest hand of a real encoding
    r.sets = sets;
    std::mt19937_64 rng(7);
    std::normal_distribution<double> g;
    for (int i = 0; i < sets * pairs; ++i) {
        r.a.push_back(g(rng));
        r.b.push_back(g(rng));
    }
    const pe::OffsetWaveSums s = pe::offsetWaveSums(r, first, step, count);
    QCOMPARE(s.cosine.size(), static_cast<std::size_t>(sets * count));
    QCOMPARE(s.sine.size(), s.cosine.size());
    QVERIFY(s.bound.empty());
    double worst = 0;
    for (std::int64_t k = 0; k < count; k += (k < 600 ? 1 : 13)) {
        const double m = static_cast<double>(first + k * step);
        for (int j = 0; j < sets; ++j) {
            long double wantC = 0, wantS = 0, scale = 0;
            for (int l = 0; l < pairs; ++l) {
                const long double c = exactCos(m, r.theta[static_cast<std::size_t>(l)]),
                                  s = exactSin(m, r.theta[static_cast<std::size_t>(l)]);
                wantC += r.a[static_cast<std::size_t>(j * pairs + l)] * c;
                wantS += r.b[static_cast<std::size_t>(j * pairs + l)] * s;
                scale += std::abs(r.a[static_cast<std::size_t>(j * pairs + l)]) +
                         std::abs(r.b[static_cast<std::size_t>(j * pairs + l)]);
            }
            const std::size_t at = static_cast<std::size_t>(j * count + k);
            const double err =
                static_cast<double>(std::max(std::abs(s.cosine[at] - wantC), std::abs(s.sine[at] - wantS)) / scale);
            worst = std::max(worst, err);
        }
    }
    // Per unit of coefficient: a few roundings of the reseed and up to 7 + 31 turns.
    QVERIFY2(worst < 2e-15, qPrintable(QStringLiteral("worst error per unit coefficient %1").arg(worst)));
}

void TestOffsetWaves::severalFirstsAreEachOnesOwn()
{
    pe::OffsetWaveRequest r;
    r.theta = frequencies(40, 10'000);
    r.sets = 2;
    r.a.assign(80, 0.5);
    r.b.assign(80, -1.5);
    const std::vector<std::int64_t> firsts{0, -7, 300, 123'456};
    // 30,000 offsets: many stripes of eight spans, shared between the threads.
    const std::vector<pe::OffsetWaveSums> all = pe::offsetWaveSums(r, firsts, 3, 30'000);
    QCOMPARE(all.size(), firsts.size());
    for (std::size_t f = 0; f < firsts.size(); ++f) {
        const pe::OffsetWaveSums one = pe::offsetWaveSums(r, firsts[f], 3, 30'000);
        QVERIFY(all[f].cosine == one.cosine); // bit for bit
        QVERIFY(all[f].sine == one.sine);
    }
    QVERIFY(pe::offsetWaveSums(r, std::vector<std::int64_t>{}, 1, 10).empty());
}

void TestOffsetWaves::boundIsRoFormers()
{
    pe::OffsetWaveRequest r;
    r.theta = frequencies(64, 10'000);
    r.bound = true;
    const pe::OffsetWaveSums s = pe::offsetWaveSums(r, 0, 1, 4'100);
    QVERIFY(s.cosine.empty());
    QCOMPARE(s.bound.size(), std::size_t(4'100));
    for (std::int64_t k : {0, 1, 7, 8, 255, 256, 257, 1'000, 4'099})
        QVERIFY2(std::abs(s.bound[static_cast<std::size_t>(k)] - pe::ropeDecay(r.theta, k).bound) < 1e-12,
                 qPrintable(QStringLiteral("k %1: %2 against %3")
                                .arg(k)
                                .arg(s.bound[static_cast<std::size_t>(k)], 0, 'g', 17)
                                .arg(pe::ropeDecay(r.theta, k).bound, 0, 'g', 17)));
    // RoFormer's figure: (d/2 + 1)/2 at k = 0.
    QVERIFY(std::abs(s.bound[0] - 65 / 2.0) < 1e-12);
}

void TestOffsetWaves::emptyAndSingle()
{
    pe::OffsetWaveRequest r;
    r.theta = {0.5};
    r.sets = 1;
    r.a = {2.0};
    QVERIFY(pe::offsetWaveSums(r, 0, 1, 0).cosine.empty());
    const pe::OffsetWaveSums one = pe::offsetWaveSums(r, 3, 1, 1);
    QCOMPARE(one.cosine.size(), std::size_t(1));
    QVERIFY(std::abs(one.cosine[0] - 2 * std::cos(1.5)) < 1e-15);
    QVERIFY(one.sine.empty());
    r.theta.clear();
    r.a.clear();
    const pe::OffsetWaveSums none = pe::offsetWaveSums(r, 0, 1, 5);
    QCOMPARE(none.cosine, std::vector<double>(5, 0.0));
}

void TestOffsetWaves::levelsGiveTheSameBits()
{
    // Each level's code (AVX-512, AVX2 + FMA, the baseline; those this processor has) against the
    // one the functions use, bit for bit: pair counts around each level's pairs a sweep (4, 2, 2),
    // both sums, unit coefficients, the bound, several sets and firsts, counts ending mid-group and
    // mid-span; and turnValues. Levels the processor lacks run as its highest
    // (detail::offsetWaveSumsAt).
    qInfo("levels compared: 1 (baseline)%s%s; the functions use %d", pe::simdCloneLevel() >= 3 ? ", 3 (AVX2)" : "",
          pe::simdCloneLevel() >= 4 ? ", 4 (AVX-512)" : "", pe::simdCloneLevel());
    const auto same = [](const std::vector<double> &x, const std::vector<double> &y) {
        return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0);
    };
    for (int pairs : {1, 2, 3, 5, 6, 7, 9, 37})
        for (int sets : {1, 3})
            for (bool sines : {false, true})
                for (bool bound : {false, true})
                    for (std::int64_t count : {1, 9, 257, 2'100}) {
                        pe::OffsetWaveRequest r;
                        r.theta = frequencies(pairs, 500);
                        r.sets = sets;
                        r.bound = bound;
                        // Without sines every a is 1 (S(k)'s coefficients: added, not multiplied).
                        for (int i = 0; i < sets * pairs; ++i) {
                            r.a.push_back(sines ? std::sin(1.7 * i + 0.3) : 1.0);
                            if (sines)
                                r.b.push_back(std::cos(0.9 * i + 0.1));
                        }
                        const std::vector<std::int64_t> firsts{0, -11, 123'456'789};
                        const std::vector<pe::OffsetWaveSums> want = pe::offsetWaveSums(r, firsts, 3, count);
                        for (int level : {1, 3, 4}) {
                            const std::vector<pe::OffsetWaveSums> got =
                                pe::detail::offsetWaveSumsAt(level, r, firsts, 3, count);
                            for (std::size_t f = 0; f < firsts.size(); ++f)
                                QVERIFY2(same(got[f].cosine, want[f].cosine) && same(got[f].sine, want[f].sine) &&
                                             same(got[f].bound, want[f].bound),
                                         qPrintable(QStringLiteral("level %1, %2 pairs, %3 sets, sines %4, bound %5, "
                                                                   "%6 offsets from %7")
                                                        .arg(level)
                                                        .arg(pairs)
                                                        .arg(sets)
                                                        .arg(sines)
                                                        .arg(bound)
                                                        .arg(count)
                                                        .arg(firsts[f])));
                        }
                    }
    for (std::int64_t count : {1, 7, 9, 2'049}) {
        std::vector<double> wantC(static_cast<std::size_t>(count)), wantS(wantC.size());
        pe::turnValues(0.37, 0.75, 999'999, count, wantC.data(), wantS.data());
        for (int level : {1, 3, 4}) {
            std::vector<double> c(wantC.size()), s(wantC.size());
            pe::detail::turnValuesAt(level, 0.37, 0.75, 999'999, count, c.data(), s.data());
            QVERIFY2(same(c, wantC) && same(s, wantS),
                     qPrintable(QStringLiteral("turnValues, level %1, %2 values").arg(level).arg(count)));
        }
    }
}

QTEST_APPLESS_MAIN(TestOffsetWaves)
#include "tst_offset_waves.moc"
