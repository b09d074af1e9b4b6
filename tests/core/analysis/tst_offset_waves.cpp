#include "analysis/offset_waves.h"

#include "encodings/rope.h"

#include <QTest>

#include <cmath>
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

QTEST_APPLESS_MAIN(TestOffsetWaves)
#include "tst_offset_waves.moc"
