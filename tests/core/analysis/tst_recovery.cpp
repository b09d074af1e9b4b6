#include "analysis/recovery.h"
#include "analysis/relative.h"
#include "support/float_product.h"
#include "test_support.h"

#include <QStringList>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

using testsupport::params;

class TestRecovery : public QObject
{
    Q_OBJECT

  private slots:
    void pureEncodingsRecoverEveryPosition_data();
    void pureEncodingsRecoverEveryPosition();
    void prunedEqualsBruteForce_data();
    void prunedEqualsBruteForce();
    void seed001IsClearlyBelowPerfect();
    void accuracyFallsWithSigma();
    void tooLargeIsRefused();
    void cancelStops();
    void floatProductsWithinTheirBound();
};

// argmax_s x_t . PE(s), every score computed.
static std::int64_t bruteForce(const pe::Encoding &e, const pe::NoiseParams &noise, std::int64_t t)
{
    const pe::EncodingParams &p = e.params();
    double best = -1e300;
    std::int64_t at = 0;
    for (std::int64_t s = p.startPos; s < p.startPos + p.seqLen; ++s) {
        double v = 0;
        for (int j = 0; j < p.dModel; ++j)
            v += (e.value(t, j) + noise.sigma * pe::standardNormal(noise.seed, t, j)) * e.value(s, j);
        if (v > best) {
            best = v;
            at = s;
        }
    }
    return at;
}

void TestRecovery::pureEncodingsRecoverEveryPosition_data()
{
    QTest::addColumn<int>("d");
    QTest::addColumn<int>("exponent");
    QTest::newRow("seed 001 pure") << 20 << int(pe::Exponent::Pair);
    QTest::newRow("odd d") << 21 << int(pe::Exponent::Pair);
    // Not the per-index exponent: its vectors' norms vary with t, so a longer PE(s) can out-score
    // PE(t) itself (prunedEqualsBruteForce checks that case against every score).
}

void TestRecovery::pureEncodingsRecoverEveryPosition()
{
    QFETCH(int, d);
    QFETCH(int, exponent);
    const pe::Encoding e(params(300, d, 1e4, 5, pe::Layout::Interleaved, static_cast<pe::Exponent>(exponent)));
    const pe::Recovery r = pe::recoverPositions(e, {});
    QCOMPARE(r.correct, qint64(300));
    QCOMPARE(r.accuracy(), 1.0);
    QCOMPARE(r.predicted[17], qint64(22));
}

void TestRecovery::prunedEqualsBruteForce_data()
{
    QTest::addColumn<int>("d");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<int>("exponent");
    QTest::newRow("pruned, sigma 0.5") << 20 << 0.5 << int(pe::Exponent::Pair);
    QTest::newRow("pruned, sigma 2") << 32 << 2.0 << int(pe::Exponent::Pair);
    QTest::newRow("dense, per-index") << 16 << 0.5 << int(pe::Exponent::Index);
    QTest::newRow("dense, sigma 3, d 256") << 256 << 3.0 << int(pe::Exponent::Pair);
    QTest::newRow("dense, per-index, d 512") << 512 << 1.0 << int(pe::Exponent::Index);
}

void TestRecovery::prunedEqualsBruteForce()
{
    QFETCH(int, d);
    QFETCH(double, sigma);
    QFETCH(int, exponent);
    const pe::Encoding e(params(200, d, 1e4, 3, pe::Layout::Interleaved, static_cast<pe::Exponent>(exponent)));
    const pe::NoiseParams noise{sigma, 11};
    const pe::Recovery r = pe::recoverPositions(e, noise);
    for (std::int64_t row = 0; row < 200; row += 3)
        QCOMPARE(r.predicted[static_cast<std::size_t>(row)], bruteForce(e, noise, 3 + row));
}

void TestRecovery::seed001IsClearlyBelowPerfect()
{
    // Seed 001: d 20, 300 positions, noise randn / 2.
    const pe::Encoding e(params(300, 20, 1e4));
    const pe::Recovery a = pe::recoverPositions(e, {0.5, 42});
    const pe::Recovery b = pe::recoverPositions(e, {0.5, 42});
    qInfo("seed 001 accuracy with seed 42: %.3f", a.accuracy());
    QVERIFY(a.accuracy() < 0.9);
    QVERIFY(a.accuracy() > 0.2);
    QCOMPARE(a.predicted, b.predicted); // the same seed, the same numbers
    const pe::Recovery c = pe::recoverPositions(e, {0.5, 43});
    QVERIFY(c.predicted != a.predicted);
}

void TestRecovery::accuracyFallsWithSigma()
{
    const pe::Encoding e(params(300, 20, 1e4));
    const std::vector<double> acc = pe::accuracyAgainstSigma(e, pe::NoiseParams{}, {0.0, 0.1, 0.5, 1.5}, 300);
    QCOMPARE(acc[0], 1.0);
    QVERIFY(acc[1] >= acc[2]);
    QVERIFY(acc[2] > acc[3]);
    QCOMPARE(acc[2], pe::recoverPositions(e, {0.5, 42}).accuracy()); // the curve passes through the recovery
}

void TestRecovery::tooLargeIsRefused()
{
    QVERIFY(pe::recoveryTooLarge(params(1'000'000, 4096, 1e4)).has_value());
    QVERIFY(!pe::recoveryTooLarge(params(10'000, 512, 1e4)).has_value());
    QVERIFY(pe::recoverPositions(pe::Encoding(params(1'000'000, 4096, 1e4)), {}).predicted.empty());
}

void TestRecovery::cancelStops()
{
    // A cancel while the run works (as the recovery view's job gets when the parameters change):
    // it stops within a few rows of each chunk, says it was cancelled, and has done a small
    // fraction of the rows a whole run does. Work is counted in rows: a row the pruned pass
    // settled holds its prediction (a window row), the others stay -1 (at sigma 0.05 the offset
    // bound settles every row there, so a whole run leaves no row to the dense product).
    const std::int64_t n = 65'536;
    const pe::Encoding e(params(n, 64, 1e4));
    const pe::NoiseParams noise{0.05, 3};
    const auto rowsDone = [](const pe::Recovery &r) {
        return static_cast<std::int64_t>(
            std::count_if(r.predicted.begin(), r.predicted.end(), [](std::int64_t s) { return s >= 0; }));
    };
    const pe::Recovery whole = pe::recoverPositions(e, noise);
    QVERIFY(!whole.cancelled);
    QCOMPARE(rowsDone(whole), n);
    QCOMPARE(whole.correct, n);

    // Cancelled before it starts: no row done.
    std::atomic<bool> early{true};
    const pe::Recovery none = pe::recoverPositions(e, noise, &early);
    QVERIFY(none.cancelled);
    QCOMPARE(rowsDone(none), std::int64_t(0));

    // Cancelled while it runs: the run starts on a thread and the flag is set a while later. How
    // long the set-up before the rows takes depends on the machine and its load, so the wait is
    // searched until the flag lands among the first rows: longer when it came before the first row,
    // shorter when it came later. What is asserted is counted in rows, never in time: a cancel seen
    // after a row has been done leaves fewer than n/16 rows done. A run that noticed it only
    // between chunks would finish every chunk it had started, at least a quarter of the rows
    // (parallelFor's 4 chunks a thread), and never get there.
    double wait = 1000, tooEarly = 0, tooLate = 0; // microseconds; 0: not yet seen
    QStringList tried;
    for (int attempt = 0; attempt < 60; ++attempt) {
        std::atomic<bool> cancel{false}, started{false};
        pe::Recovery r;
        std::thread run([&] {
            started = true;
            r = pe::recoverPositions(e, noise, &cancel);
        });
        while (!started)
            std::this_thread::yield();
        std::this_thread::sleep_for(std::chrono::microseconds(static_cast<std::int64_t>(wait)));
        cancel = true;
        run.join();
        const std::int64_t done = rowsDone(r);
        tried << QStringLiteral("%1 us: %2 rows%3")
                     .arg(wait)
                     .arg(done)
                     .arg(r.cancelled ? QString() : QStringLiteral(" (not cancelled)"));
        if (r.cancelled && done > 0 && done < n / 16) {
            // Stopped early: a few of the rows, each of them the true position (sigma 0.05
            // recovers every row), the rest never started.
            for (std::int64_t row = 0; row < n; ++row) {
                const std::int64_t s = r.predicted[static_cast<std::size_t>(row)];
                QVERIFY2(s == row || s == -1, qPrintable(QStringLiteral("row %1 holds %2").arg(row).arg(s)));
            }
            return;
        }
        if (r.cancelled && done == 0)
            tooEarly = wait;
        else
            tooLate = wait;
        wait = tooLate == 0 ? wait * 2 : (tooEarly + tooLate) / 2;
    }
    QFAIL(qPrintable(QStringLiteral("no cancel landed among the first rows: ") + tried.join(QStringLiteral("; "))));
}

void TestRecovery::floatProductsWithinTheirBound()
{
    // Every instruction set this processor has gives products within the bound the dense
    // recovery relies on: |fl(a.b) - a.b| <= (d + 4) 2^-24 sum |a_j b_j|.
    const int d = 300, rows = 37, n = 129;
    std::vector<double> a(static_cast<std::size_t>(rows * d)), b(static_cast<std::size_t>(n * d));
    for (std::size_t i = 0; i < a.size(); ++i)
        a[i] = 3 * pe::standardNormal(1, static_cast<std::int64_t>(i), 0);
    for (std::size_t i = 0; i < b.size(); ++i)
        b[i] = std::sin(0.37 * static_cast<double>(i));
    const std::vector<float> af(a.begin(), a.end()), bf(b.begin(), b.end());
    int tested = 0;
    for (pe::SimdLevel level : {pe::SimdLevel::Generic, pe::SimdLevel::Avx2, pe::SimdLevel::Avx512}) {
        if (!pe::simdSupported(level))
            continue;
        ++tested;
        std::vector<float> c(static_cast<std::size_t>(rows * n));
        pe::floatProductNT(af.data(), rows, bf.data(), n, d, c.data(), level);
        for (int r = 0; r < rows; ++r)
            for (int s = 0; s < n; ++s) {
                double exact = 0, abs = 0;
                for (int j = 0; j < d; ++j) {
                    exact += a[static_cast<std::size_t>(r * d + j)] * b[static_cast<std::size_t>(s * d + j)];
                    abs += std::abs(a[static_cast<std::size_t>(r * d + j)] * b[static_cast<std::size_t>(s * d + j)]);
                }
                QVERIFY2(std::abs(c[static_cast<std::size_t>(r * n + s)] - exact) <= (d + 4) * 0x1p-24 * abs,
                         qPrintable(QStringLiteral("%1: entry (%2, %3)")
                                        .arg(QString::fromLatin1(pe::simdName(level)))
                                        .arg(r)
                                        .arg(s)));
            }
    }
    QVERIFY(tested >= 1);
    qInfo("instruction sets tested: %d, best here %s", tested, pe::simdName(pe::bestSimdLevel()));
}

QTEST_APPLESS_MAIN(TestRecovery)
#include "tst_recovery.moc"
