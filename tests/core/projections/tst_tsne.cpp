#include "projections/pca.h"
#include "projections/projection.h"
#include "projections/tsne.h"
#include "projections/tsne_fft.h"
#include "projections/tsne_forces.h"
#include "support/float_product.h"
#include "test_support.h"

#include <Eigen/Dense>

#include <QProcess>
#include <QTest>

#include <atomic>
#include <cmath>
#include <limits>
#include <set>
#include <thread>

using testsupport::params;

namespace {

// Row i of P written out, by increasing column.
std::vector<std::pair<std::int32_t, double>> rowOf(const pe::Affinities &p, std::int64_t i)
{
    std::vector<std::pair<std::int32_t, double>> out;
    p.forEach(i, [&](std::int32_t j, double v) { out.push_back({j, v}); });
    return out;
}

} // namespace

class TestTsne : public QObject
{
    Q_OBJECT

  private slots:
    void affinitiesMatchThePerplexity();
    void offsetAffinitiesAreTheRowsWrittenOut_data();
    void offsetAffinitiesAreTheRowsWrittenOut();
    void millionPositionsAffinitiesAreSmall();
    void klFallsAndSeed004Converges();
    void fixedCaseIsTrustworthy();
    void secondPhaseStartsAfresh();
    void smallInputsMatchScikitLearn();
    void barnesHutStepFollowsTheExactOne();
    void threeDimensions();
    void fftRepulsionIsTheExactSums_data();
    void fftRepulsionIsTheExactSums();
    void fftStepFollowsTheExactOne();
    void fftIsChosenWhereItPays();
    void fftResultsDoNotDependOnTheThreads();
    void sameSeedSameOutput();
    void cancelStopsMidway();
    void settingsAreValidated();
    void resultsDoNotDependOnTheThreads();
    void forceLoopsAgreeAcrossInstructionSets();
    void sharedRowBlockIsEightRows();
};

void TestTsne::affinitiesMatchThePerplexity()
{
    const pe::Encoding e(params(400, 16));
    const pe::Neighbors nb = pe::windowNeighbors(e, {}, 60);
    const pe::Affinities p = pe::affinities(nb, 20.0);
    QCOMPARE(p.n, std::int64_t(400));
    double sum = 0;
    for (std::int64_t i = 0; i < p.n; ++i)
        for (const auto &[j, v] : rowOf(p, i)) {
            QVERIFY(v > 0);
            sum += v;
        }
    QVERIFY(std::abs(sum - 1.0) < 1e-12);
    // Symmetric: p_ij = p_ji.
    for (std::int64_t i = 0; i < p.n; i += 37)
        for (const auto &[j, v] : rowOf(p, i)) {
            const auto other = rowOf(p, j);
            const auto it = std::find_if(other.begin(), other.end(), [i](const auto &x) { return x.first == i; });
            QVERIFY(it != other.end());
            QCOMPARE(it->second, v);
        }
    // Each conditional row has entropy log(perplexity): rebuild one from its beta-free definition.
    const std::int64_t row = 200;
    std::vector<double> d(nb.dist2.begin() + row * 60, nb.dist2.begin() + row * 60 + 60);
    // Find the beta that reproduces the perplexity, independently, by a fine bisection.
    double lo = 0, hi = 1e3;
    for (int it = 0; it < 200; ++it) {
        const double beta = (lo + hi) / 2;
        double s = 0, h = 0;
        for (double v : d)
            s += std::exp(-beta * (v - d[0]));
        for (double v : d) {
            const double q = std::exp(-beta * (v - d[0])) / s;
            h -= q > 0 ? q * std::log(q) : 0;
        }
        (h > std::log(20.0) ? lo : hi) = beta;
    }
    double s = 0;
    for (double v : d)
        s += std::exp(-lo * (v - d[0]));
    // p_ij for a pair that is a neighbour both ways is (p_j|i + p_i|j) / 2n; at row 200 (far from
    // the ends) both conditionals are the same row shape, so p_ij = p_j|i / n.
    const std::int64_t j = nb.index[static_cast<std::size_t>(row * 60)];
    const double expected = std::exp(-lo * (d[0] - d[0])) / s / 400.0;
    const auto entries = rowOf(p, row);
    const auto it = std::find_if(entries.begin(), entries.end(), [j](const auto &x) { return x.first == j; });
    QVERIFY(it != entries.end());
    // The bisection stops within 1e-5 of the entropy: p agrees to about that.
    const double got = it->second;
    QVERIFY2(std::abs(got - expected) < 1e-4 * expected, qPrintable(QStringLiteral("%1 vs %2").arg(got).arg(expected)));
}

void TestTsne::offsetAffinitiesAreTheRowsWrittenOut_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<int>("d");
    QTest::addColumn<double>("base");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("start");
    QTest::addColumn<bool>("compact"); // most rows shared
    QTest::newRow("seed 004, every pair (exact)") << qint64(128) << 8 << 1e4 << 127 << 0 << false;
    QTest::newRow("5,000 x 128, k 90") << qint64(5000) << 128 << 1e4 << 90 << 0 << true;
    QTest::newRow("odd k") << qint64(3000) << 64 << 1e4 << 91 << 0 << true;
    QTest::newRow("far start") << qint64(3000) << 64 << 1e4 << 90 << 999'000 << true;
    // Base 10 and d 4: the nearest offsets are not 1, 2, 3 … (the two clocks come back near each
    // other's start far apart), so the rows near the ends reach most of the window: none shared.
    QTest::newRow("base 10, d 4: offsets out of order") << qint64(4000) << 4 << 10.0 << 30 << 0 << false;
    QTest::newRow("no interior row") << qint64(60) << 16 << 1e4 << 59 << 0 << false;
}

void TestTsne::offsetAffinitiesAreTheRowsWrittenOut()
{
    // The offset path (only the rows where P can change computed, runs of shifted rows between)
    // against the neighbour lists of every row symmetrised entry by entry: the same rows, bit for bit.
    QFETCH(qint64, n);
    QFETCH(int, d);
    QFETCH(double, base);
    QFETCH(int, k);
    QFETCH(int, start);
    QFETCH(bool, compact);
    pe::EncodingParams ps = params(n, d, base);
    ps.startPos = start;
    const pe::Encoding e(ps);
    const pe::Affinities full = pe::affinities(pe::offsetNeighbors(e, k), 30.0 < k / 3.0 ? 30.0 : k / 3.0);
    const pe::Affinities fast = pe::offsetAffinities(e, k, 30.0 < k / 3.0 ? 30.0 : k / 3.0);
    QCOMPARE(fast.n, n);
    for (std::int64_t i = 0; i < n; ++i) {
        const auto a = rowOf(fast, i), b = rowOf(full, i);
        QVERIFY2(a == b,
                 qPrintable(QStringLiteral("row %1: %2 entries against %3").arg(i).arg(a.size()).arg(b.size())));
    }
    // The same runs too: they are the longest either way.
    QCOMPARE(fast.runFirst, full.runFirst);
    QCOMPARE(fast.entryStart, full.entryStart);
    QCOMPARE(fast.offset, full.offset);
    QCOMPARE(fast.runOf, full.runOf);
    // Held in runs: a fraction of the n k entries written out.
    if (compact)
        QVERIFY2(fast.p.size() < static_cast<std::size_t>(n) * k / 4,
                 qPrintable(QStringLiteral("%1 runs, %2 entries").arg(fast.runs()).arg(fast.p.size())));
}

void TestTsne::millionPositionsAffinitiesAreSmall()
{
    // 1,000,000 positions of d 64, perplexity 30: the 90 million entries of P held in runs. At d 64
    // offset 847,603 is among every row's 45 nearest where it fits (a near return of all 32 clocks),
    // so the rows fall in several runs, not one.
    const pe::Encoding e(params(1'000'000, 64));
    const pe::Affinities p = pe::offsetAffinities(e, 90, 30);
    QCOMPARE(p.n, std::int64_t(1'000'000));
    QVERIFY2(p.runs() < 5'000 && p.p.size() < 500'000,
             qPrintable(QStringLiteral("%1 runs, %2 entries").arg(p.runs()).arg(p.p.size())));
    // Spot rows against their definition: symmetric, and the whole sums to 1.
    double sum = 0;
    for (std::int64_t r = 0; r < p.runs(); ++r) {
        double run = 0;
        for (auto e = p.entryStart[static_cast<std::size_t>(r)]; e < p.entryStart[static_cast<std::size_t>(r + 1)]; ++e)
            run += p.p[static_cast<std::size_t>(e)];
        sum += run * static_cast<double>(p.runFirst[static_cast<std::size_t>(r + 1)] -
                                         p.runFirst[static_cast<std::size_t>(r)]);
    }
    QVERIFY2(std::abs(sum - 1.0) < 1e-9, qPrintable(QString::number(sum - 1.0)));
    for (std::int64_t i : {0, 1, 45, 152'396, 152'397, 500'000, 847'603, 999'999})
        for (const auto &[j, v] : rowOf(p, i)) {
            const auto other = rowOf(p, j);
            const auto it = std::find_if(other.begin(), other.end(), [i](const auto &x) { return x.first == i; });
            QVERIFY(it != other.end());
            QCOMPARE(it->second, v);
        }
}

void TestTsne::klFallsAndSeed004Converges()
{
    // Seed 004: 128 positions of d 8, perplexity 4.
    const pe::Encoding e(params(128, 8));
    pe::TsneSettings s;
    s.perplexity = 4;
    std::optional<pe::Tsne> tsne = pe::prepareTsne(e, {}, s, 2);
    QVERIFY(tsne);
    QVERIFY(tsne->exact());
    std::vector<double> kl;
    pe::runTsne(*tsne, [&](const pe::Tsne &t) {
        if (t.iteration() > 0 && (t.iteration() - 1) % pe::kKlInterval == 0)
            kl.push_back(t.kl());
        return true;
    });
    QCOMPARE(tsne->iteration(), 1000);
    // After early exaggeration (250 steps) KL falls: the last is below every value of the first
    // 500 steps, and it rises noticeably at most twice on the way (momentum and gains can
    // overshoot once in a while; how often depends on the compiler's rounding).
    const std::size_t afterExaggeration = 300 / pe::kKlInterval;
    int rises = 0;
    for (std::size_t i = afterExaggeration + 1; i < kl.size(); ++i)
        rises += kl[i] > kl[i - 1] + 0.01;
    QVERIFY2(rises <= 2, qPrintable(QString::number(rises)));
    for (std::size_t i = afterExaggeration; i < 500 / pe::kKlInterval; ++i)
        QVERIFY(tsne->kl() < kl[i]);
    QVERIFY(kl.back() < 0.5 * kl.front());
    QVERIFY(tsne->kl() < 1.0);
    // Seed 004's periodicity: positions 6 apart (the fastest clock's period, 2 pi ~ 6.28) end up
    // next to each other, so a point's nearest neighbour in the picture is mostly t +- 6 or t +- 63.
    const std::vector<double> &y = tsne->embedding();
    int periodic = 0;
    for (int i = 0; i < 128; ++i) {
        int best = -1;
        double bestD = 1e300;
        for (int j = 0; j < 128; ++j)
            if (j != i) {
                const double d = std::pow(y[2 * i] - y[2 * j], 2) + std::pow(y[2 * i + 1] - y[2 * j + 1], 2);
                if (d < bestD) {
                    bestD = d;
                    best = j;
                }
            }
        const int off = std::abs(best - i);
        periodic += off == 6 || off == 63 || off == 57 || off == 69;
    }
    QVERIFY2(periodic >= 96, qPrintable(QStringLiteral("%1 of 128 nearest neighbours 6 or 63 apart").arg(periodic)));
}

void TestTsne::fixedCaseIsTrustworthy()
{
    // Barnes-Hut (more than kExactMaxPoints points), offsets for the neighbours.
    const pe::Encoding e(params(1500, 64));
    std::optional<pe::Tsne> tsne = pe::prepareTsne(e, {}, {}, 2);
    QVERIFY(tsne && !tsne->exact());
    QVERIFY(pe::runTsne(*tsne, {}));
    const double t = pe::trustworthiness(pe::embeddingRows(e, {}), tsne->embedding(), 2, 10);
    QVERIFY2(t >= 0.99, qPrintable(QString::number(t)));
}

void TestTsne::secondPhaseStartsAfresh()
{
    // When early exaggeration ends the descent starts again from no update and unit gains, as
    // scikit-learn's second descent does: the step after it is the first step of a run started
    // there without exaggeration.
    const pe::Encoding e(params(128, 8));
    pe::TsneSettings s;
    s.perplexity = 4;
    s.learningRate = 50;
    s.exaggerationIterations = 100;
    std::optional<pe::Tsne> run = pe::prepareTsne(e, {}, s, 2);
    QVERIFY(run);
    for (int i = 0; i < 100; ++i)
        QVERIFY(run->step());
    pe::TsneSettings after = s;
    after.exaggerationIterations = 0;
    pe::Tsne fresh(pe::offsetAffinities(e, pe::tsneNeighborCount(128, s), 4), run->embedding(),
                   after); // prepareTsne's P
    QVERIFY(run->step());
    QVERIFY(fresh.step());
    QVERIFY(run->embedding() == fresh.embedding());
}

void TestTsne::smallInputsMatchScikitLearn()
{
    // Trustworthiness(10) of the app's exported t-SNE against scikit-learn 1.2's
    // TSNE(init='pca', learning_rate='auto') on the same table (tests/bench/tsne_quality.py; issue 28),
    // on seed 004's 128 x 8 and on 200 x 16, each at bases 100 and 1e4 and perplexities 2 to 30: the
    // mean of each size's ten within 0.005 of scikit-learn's. A single run is chaotic (scikit-learn
    // itself moves from 0.905 to 0.925 when the table's last digit does), a mean of ten is not.
    // With P over every pair (before tsneNeighborCount) 128 x 8 at base 100, perplexity 10 reached
    // 0.883 against 0.946; the means were 0.9356 and 0.9787 against 0.9351 and 0.9817.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
    QSKIP("ThreadSanitizer reports QProcess's fork from a threaded process; the other builds compare");
#endif
#endif
    const QString script = QFINDTESTDATA("../../bench/tsne_quality.py");
    const QString explorer = qEnvironmentVariable("PE_EXPLORER");
    if (script.isEmpty() || explorer.isEmpty())
        QSKIP("tsne_quality.py or PE_EXPLORER not found");
    QStringList cases;
    for (const char *size : {"128x8", "200x16"})
        for (const char *base : {"100", "1e4"})
            for (const char *perplexity : {"2", "4", "5", "10", "30"})
                cases << QStringLiteral("%1:%2:%3")
                             .arg(QLatin1String(size), QLatin1String(base), QLatin1String(perplexity));
    QProcess py;
    py.start(QStringLiteral("/usr/bin/python3"),
             {script, QStringLiteral("--explorer"), explorer, QStringLiteral("--cases"), cases.join(QLatin1Char(',')),
              QStringLiteral("--check-mean"), QStringLiteral("0.005")});
    QVERIFY(py.waitForFinished(300'000));
    const QByteArray out = py.readAllStandardOutput() + py.readAllStandardError();
    if (py.exitStatus() == QProcess::NormalExit && py.exitCode() == 77)
        QSKIP("numpy or scikit-learn not importable by /usr/bin/python3");
    QVERIFY2(py.exitStatus() == QProcess::NormalExit && py.exitCode() == 0, out.constData());
    qInfo("%s", out.constData());
}

// The same start and P, one exact and one tree optimiser (quadtree in 2-D, octree in 3-D), one step
// each from a spread-out start (as after a few hundred steps, where the far field matters): the
// steps agree closely.
static void treeStepFollowsTheExactOne(int dims)
{
    const pe::Encoding e(params(2000, 16));
    pe::TsneSettings s;
    const pe::Neighbors nb = pe::windowNeighbors(e, {}, 90);
    const pe::Affinities p = pe::affinities(nb, 30);
    std::vector<double> y(static_cast<std::size_t>(2000 * dims));
    for (int i = 0; i < 2000; ++i) {
        y[static_cast<std::size_t>(dims * i)] = 30 * std::cos(0.01 * i) + pe::standardNormal(3, i, 0);
        y[static_cast<std::size_t>(dims * i + 1)] = 30 * std::sin(0.013 * i) + pe::standardNormal(3, i, 1);
        if (dims == 3)
            y[static_cast<std::size_t>(3 * i + 2)] = 20 * std::sin(0.007 * i) + pe::standardNormal(3, i, 2);
    }
    s.exaggerationIterations = 0;
    pe::TsneSettings exactSettings = s;
    exactSettings.theta = 0;
    pe::Tsne exact(p, y, exactSettings), tree(p, y, s);
    QVERIFY(exact.exact() && !tree.exact() && tree.dims() == dims);
    exact.step();
    tree.step();
    double num = 0, den = 0;
    for (std::size_t c = 0; c < y.size(); ++c) {
        num += std::pow(exact.embedding()[c] - tree.embedding()[c], 2);
        den += std::pow(exact.embedding()[c] - y[c], 2);
    }
    QVERIFY2(std::sqrt(num / den) < 0.02, qPrintable(QString::number(std::sqrt(num / den))));
    QVERIFY(std::abs(exact.kl() - tree.kl()) < 0.01 * exact.kl());
}

void TestTsne::barnesHutStepFollowsTheExactOne()
{
    treeStepFollowsTheExactOne(2);
}

void TestTsne::threeDimensions()
{
    // The octree's step against the exact one in 3-D.
    treeStepFollowsTheExactOne(3);
    if (QTest::currentTestFailed())
        return;

    // Whole runs keep their neighbourhoods in 3-D at least as well as in 2-D: seed 004's 128 x 8 (the
    // exact gradient), as the mean over bases 100 and 1e4 and perplexities 2 to 30 (a single run at
    // 128 points is chaotic: at base 1e4, perplexity 4, GCC's build gave 0.911 in 3-D and 0.910 in
    // 2-D, clang's 0.911 and 0.927), and 2,000 noisy rows of d 32 (the octree). The same bits for
    // two callers at once (one on the worker pool, one alone).
    const auto trust = [](const pe::Encoding &enc, const pe::NoiseParams &noise, const pe::TsneSettings &t, int dims) {
        const pe::Projection pr = pe::computeProjection(enc, noise, pe::ProjectionMethod::Tsne, t, {}, nullptr, dims);
        return pe::trustworthiness(pe::embeddingRows(enc, noise), pr.coords, dims, 10);
    };
    double small3 = 0, small2 = 0;
    for (const double base : {100.0, 1e4})
        for (const double perplexity : {2.0, 4.0, 5.0, 10.0, 30.0}) {
            const pe::Encoding seed004(params(128, 8, base));
            pe::TsneSettings t;
            t.perplexity = perplexity;
            small3 += trust(seed004, {}, t, 3) / 10;
            small2 += trust(seed004, {}, t, 2) / 10;
        }
    qInfo("seed 004's mean trustworthiness(10): 3-D %.4f, 2-D %.4f", small3, small2);
    QVERIFY2(small3 > small2 - 0.01, qPrintable(QStringLiteral("3-D %1, 2-D %2").arg(small3).arg(small2)));
    const pe::Encoding wide(params(2000, 32));
    const pe::NoiseParams noise{0.2, 4};
    const double wide3 = trust(wide, noise, {}, 3), wide2 = trust(wide, noise, {}, 2);
    QVERIFY2(wide3 > 0.95 && wide3 > wide2 - 0.005, qPrintable(QStringLiteral("3-D %1, 2-D %2").arg(wide3).arg(wide2)));
    pe::TsneSettings shortRun;
    shortRun.iterations = 300;
    const auto run = [&] {
        return pe::computeProjection(wide, noise, pe::ProjectionMethod::Tsne, shortRun, {}, nullptr, 3).coords;
    };
    const std::vector<double> alone = run();
    QCOMPARE(alone.size(), std::size_t(6000));
    std::vector<double> a, b;
    std::thread other([&] { a = run(); });
    b = run();
    other.join();
    QVERIFY(a == alone && b == alone);
}

void TestTsne::fftRepulsionIsTheExactSums_data()
{
    QTest::addColumn<double>("spread");
    QTest::addColumn<double>("tolerance"); // relative, of the forces as a whole
    // The minimum grid (50 boxes) on a small cloud: fine boxes, errors of about 1e-4.
    QTest::newRow("small cloud") << 1.5 << 1e-3;
    // Boxes of half a unit on a cloud 100 units wide: a percent (Barnes-Hut's is several).
    QTest::newRow("wide cloud") << 20.0 << 1.5e-2;
}

void TestTsne::fftRepulsionIsTheExactSums()
{
    // FIt-SNE's four interpolated sums against every pair summed: the forces sum_j w^2 (y_i - y_j),
    // each point's sum_j w, and their total Z (which every force is divided by).
    QFETCH(double, spread);
    QFETCH(double, tolerance);
    const int n = 3000;
    std::vector<double> y(2 * n);
    for (int i = 0; i < n; ++i) // a ring and a cluster, as an embedding has structure
        for (int c = 0; c < 2; ++c)
            y[2 * i + c] = spread * (i % 3 == 0 ? pe::standardNormal(9, i, c)
                                                : 2.5 * (c == 0 ? std::cos(0.01 * i) : std::sin(0.01 * i)) +
                                                      0.1 * pe::standardNormal(9, i, c));
    std::vector<double> rep(2 * n), z(n);
    pe::FftRepulsion fft;
    fft.compute(y.data(), n, pe::boundsOf(y.data(), n), rep.data(), z.data());
    double num = 0, den = 0, zFft = 0, zExact = 0;
    std::vector<double> zErrors;
    for (int i = 0; i < n; ++i) {
        double fx = 0, fy = 0, zi = 0;
        for (int j = 0; j < n; ++j) {
            if (j == i)
                continue;
            const double dx = y[2 * i] - y[2 * j], dy = y[2 * i + 1] - y[2 * j + 1];
            const double w = 1.0 / (1.0 + dx * dx + dy * dy);
            zi += w;
            fx += w * w * dx;
            fy += w * w * dy;
        }
        num += std::pow(rep[2 * i] - fx, 2) + std::pow(rep[2 * i + 1] - fy, 2);
        den += fx * fx + fy * fy;
        zFft += z[i];
        zExact += zi;
        zErrors.push_back(std::abs(z[i] - zi) / zi);
    }
    const double err = std::sqrt(num / den);
    QVERIFY2(err < tolerance, qPrintable(QStringLiteral("forces off by %1").arg(err)));
    QVERIFY2(std::abs(zFft - zExact) < 0.1 * tolerance * zExact,
             qPrintable(QStringLiteral("Z %1 against %2").arg(zFft, 0, 'g', 10).arg(zExact, 0, 'g', 10)));
    // Each point's own sum: within the tolerance for 99 in 100; the worst are lone points far out,
    // whose few neighbours make the sum small.
    std::sort(zErrors.begin(), zErrors.end());
    const double p99 = zErrors[zErrors.size() * 99 / 100];
    QVERIFY2(p99 < tolerance && zErrors.back() < 5 * tolerance,
             qPrintable(
                 QStringLiteral("points' sums off by %1 (99th percentile), %2 (worst)").arg(p99).arg(zErrors.back())));
}

void TestTsne::fftStepFollowsTheExactOne()
{
    // As barnesHutStepFollowsTheExactOne, with the repulsion by FFT interpolation.
    const pe::Encoding e(params(2000, 16));
    const pe::Affinities p = pe::affinities(pe::windowNeighbors(e, {}, 90), 30);
    std::vector<double> y(4000);
    for (int i = 0; i < 2000; ++i) {
        y[2 * i] = 30 * std::cos(0.01 * i) + pe::standardNormal(3, i, 0);
        y[2 * i + 1] = 30 * std::sin(0.013 * i) + pe::standardNormal(3, i, 1);
    }
    pe::TsneSettings s;
    s.exaggerationIterations = 0;
    pe::TsneSettings exactSettings = s;
    exactSettings.theta = 0;
    pe::Tsne exact(p, y, exactSettings), fft(p, y, s);
    fft.setRepulsion(pe::Tsne::Repulsion::Fft);
    exact.step();
    fft.step();
    QVERIFY(fft.lastStepFft() && !exact.lastStepFft());
    double num = 0, den = 0;
    for (std::size_t c = 0; c < y.size(); ++c) {
        num += std::pow(exact.embedding()[c] - fft.embedding()[c], 2);
        den += std::pow(exact.embedding()[c] - y[c], 2);
    }
    QVERIFY2(std::sqrt(num / den) < 0.01, qPrintable(QString::number(std::sqrt(num / den))));
}

void TestTsne::fftIsChosenWhereItPays()
{
    // Chosen by n and the embedding's width: a million points while they are within about 100
    // units (the first few hundred steps), never a few thousand (their grid costs more than they do).
    QVERIFY(pe::fftRepulsionPays(1'000'000, 20));
    QVERIFY(pe::fftRepulsionPays(1'000'000, 80));
    QVERIFY(!pe::fftRepulsionPays(1'000'000, 300));
    QVERIFY(pe::fftRepulsionPays(100'000, 10));
    QVERIFY(!pe::fftRepulsionPays(5'000, 1));
    // A run gone wild: never the FFT, and no grid sized from a width past any int.
    QVERIFY(!pe::fftRepulsionPays(1'000'000, 1e12));
    QVERIFY(!pe::fftRepulsionPays(1'000'000, std::numeric_limits<double>::quiet_NaN()));
    QCOMPARE(pe::FftRepulsion::gridSide(1e12), 3 * 4096);
    // Grids FFTW transforms fast, three nodes a box, at least 50 boxes, half a unit wide at most.
    QCOMPARE(pe::FftRepulsion::gridSide(3), 150);
    QCOMPARE(pe::FftRepulsion::gridSide(60), 3 * 120);
    QCOMPARE(pe::FftRepulsion::gridSide(60.6), 3 * 125); // 122 boxes rounded up to 5^3
    // A 100,000-point run takes the FFT for its first steps (the start is 1e-4 wide), Barnes-Hut
    // once it has spread out.
    const pe::Encoding e(params(100'000, 32));
    std::optional<pe::Tsne> tsne = pe::prepareTsne(e, {}, {}, 2);
    QVERIFY(tsne);
    for (int k = 0; k < 3; ++k) {
        QVERIFY(tsne->step());
        QVERIFY(tsne->lastStepFft());
    }
    std::vector<double> wide = tsne->embedding();
    for (std::size_t c = 0; c < wide.size(); ++c)
        wide[c] = 150.0 * pe::standardNormal(5, static_cast<std::int64_t>(c / 2), static_cast<int>(c % 2));
    pe::Tsne spread(pe::offsetAffinities(e, 90, 30), wide, {});
    QVERIFY(spread.step());
    QVERIFY(!spread.lastStepFft());
}

void TestTsne::fftResultsDoNotDependOnTheThreads()
{
    // Two runs at once (one on the pool, one alone) and a lone one: the same bits.
    const pe::Encoding e(params(3000, 32));
    const pe::Affinities p = pe::offsetAffinities(e, 90, 30);
    std::vector<double> y(6000);
    for (int i = 0; i < 3000; ++i)
        for (int c = 0; c < 2; ++c)
            y[2 * i + c] = 10 * pe::standardNormal(4, i, c);
    const auto run = [&] {
        pe::Tsne t(p, y, {});
        t.setRepulsion(pe::Tsne::Repulsion::Fft);
        for (int k = 0; k < 20; ++k)
            t.step();
        return t.embedding();
    };
    const std::vector<double> one = run();
    std::vector<double> two, three;
    std::thread other([&] { two = run(); });
    three = run();
    other.join();
    QVERIFY(two == one && three == one);
}

void TestTsne::sameSeedSameOutput()
{
    const pe::Encoding e(params(800, 16));
    pe::TsneSettings s;
    s.init = pe::TsneInit::Random;
    s.iterations = 300;
    s.seed = 7;
    const pe::Projection a = pe::computeProjection(e, {}, pe::ProjectionMethod::Tsne, s);
    const pe::Projection b = pe::computeProjection(e, {}, pe::ProjectionMethod::Tsne, s);
    QCOMPARE(a.coords.size(), std::size_t(1600));
    QVERIFY(a.coords == b.coords);
    s.seed = 8;
    const pe::Projection c = pe::computeProjection(e, {}, pe::ProjectionMethod::Tsne, s);
    QVERIFY(a.coords != c.coords);
    // PCA start: no seed involved, always the same.
    s.init = pe::TsneInit::Pca;
    QVERIFY(pe::computeProjection(e, {}, pe::ProjectionMethod::Tsne, s).coords ==
            pe::computeProjection(e, {}, pe::ProjectionMethod::Tsne, s).coords);
}

void TestTsne::cancelStopsMidway()
{
    const pe::Encoding e(params(20'000, 64));
    std::atomic<bool> cancel{false};
    int reached = 0;
    std::thread worker([&] {
        std::optional<pe::Tsne> tsne = pe::prepareTsne(e, {}, {}, 2, &cancel);
        if (tsne)
            pe::runTsne(
                *tsne,
                [&](const pe::Tsne &t) {
                    reached = t.iteration();
                    if (t.iteration() == 5)
                        cancel = true;
                    return true;
                },
                &cancel);
    });
    worker.join();
    QVERIFY(reached >= 5 && reached < 1000);
}

void TestTsne::settingsAreValidated()
{
    pe::TsneSettings s;
    QVERIFY(!pe::validateTsne(s, 100));
    QVERIFY(pe::validateTsne(s, 2));
    s.perplexity = 100;
    QVERIFY(pe::validateTsne(s, 100)->find("below the number of positions") != std::string::npos);
    for (double bad : {0.0, 0.5, -1.0, std::nan(""), 1e9}) {
        s.perplexity = bad;
        QVERIFY(pe::validateTsne(s, 10'000));
    }
    s = {};
    s.iterations = 0;
    QVERIFY(pe::validateTsne(s, 100));
    s = {};
    s.learningRate = -5;
    QVERIFY(pe::validateTsne(s, 100));
    s = {};
    s.earlyExaggeration = 0.5;
    QVERIFY(pe::validateTsne(s, 100));
    // Each refusal names its setting as data, not only in words: callers pick their flag from it.
    const auto fieldOf = [](const pe::TsneSettings &t, std::int64_t n) { return pe::checkTsne(t, n).value().field; };
    QCOMPARE(fieldOf(s, 100), pe::TsneField::Exaggeration);
    s = {};
    QCOMPARE(fieldOf(s, 2), pe::TsneField::Positions);
    s.perplexity = 200;
    QCOMPARE(fieldOf(s, 100), pe::TsneField::Perplexity);
    s = {};
    s.iterations = 100'001;
    QCOMPARE(pe::checkTsne(s, 100)->message, std::string("iterations must be from 1 to 100,000 (got 100001)."));
    QCOMPARE(fieldOf(s, 100), pe::TsneField::Iterations);
    s = {};
    s.learningRate = 2e6;
    QCOMPARE(fieldOf(s, 100), pe::TsneField::LearningRate);
    s = {};
    s.theta = 2;
    QCOMPARE(fieldOf(s, 100), pe::TsneField::Theta);
    s = {};
    s.exaggerationIterations = -1;
    QCOMPARE(fieldOf(s, 100), pe::TsneField::ExaggerationIterations);
    // The neighbours kept, n x 3 perplexity, at most 3e8: every perplexity at 100,000 positions, up
    // to 100 at 1,000,000.
    s = {};
    s.perplexity = 1000;
    QVERIFY(!pe::checkTsne(s, 100'000));
    s.perplexity = 100;
    QVERIFY(!pe::checkTsne(s, 1'000'000));
    s.perplexity = 101;
    QCOMPARE(fieldOf(s, 1'000'000), pe::TsneField::Perplexity);
    QVERIFY2(QString::fromStdString(pe::checkTsne(s, 1'000'000)->message)
                 .startsWith(QStringLiteral("perplexity times seq_len must be at most 1e8 (got 101 x 1,000,000)")),
             pe::checkTsne(s, 1'000'000)->message.c_str());
    // Any window to 1,000,000 positions.
    QVERIFY(pe::projectionTooLarge(params(1'000'001, 8), {}, false));
    QVERIFY(!pe::projectionTooLarge(params(1'000'000, 64), {}, true));
    QVERIFY(!pe::projectionTooLarge(params(200'000, 8), {}, false));
    QVERIFY(!pe::projectionTooLarge(params(200'000, 8), {0.5, 1}, false));
    QVERIFY(!pe::projectionTooLarge(params(100'000, 8), {}, true));
    // Noisy vectors have no offset structure: above the exact search's reach, an approximate index
    // of at most 4e8 values. PCA needs no neighbours.
    QVERIFY(!pe::projectionTooLarge(params(100'000, 512), {0.5, 1}, true));
    QVERIFY(!pe::projectionTooLarge(params(781'250, 512), {0.5, 1}, true));
    QVERIFY(pe::projectionTooLarge(params(781'251, 512), {0.5, 1}, true));
    QVERIFY(!pe::projectionTooLarge(params(1'000'000, 512), {0.5, 1}, false));
}

void TestTsne::resultsDoNotDependOnTheThreads()
{
    // Two callers at once: one gets the worker pool, the other runs alone on its own thread. Both
    // must give the bits a lone caller gets (t-SNE magnifies any last-bit difference).
    const pe::Encoding e(params(20'000, 64));
    const pe::Rows rows = pe::embeddingRows(e, {});
    const pe::Pca alone = pe::principalComponents(rows, 2);
    pe::Pca a, b;
    std::thread other([&] { a = pe::principalComponents(rows, 2); });
    b = pe::principalComponents(rows, 2);
    other.join();
    QVERIFY(a.components == alone.components && b.components == alone.components);
    QVERIFY(a.variance == alone.variance && b.variance == alone.variance);
    pe::TsneSettings s;
    s.iterations = 60;
    const pe::Encoding small(params(3000, 32));
    const pe::Projection one = pe::computeProjection(small, {}, pe::ProjectionMethod::Tsne, s);
    pe::Projection two, three;
    std::thread t2([&] { two = pe::computeProjection(small, {}, pe::ProjectionMethod::Tsne, s); });
    three = pe::computeProjection(small, {}, pe::ProjectionMethod::Tsne, s);
    t2.join();
    QVERIFY(two.coords == one.coords && three.coords == one.coords);
}

void TestTsne::forceLoopsAgreeAcrossInstructionSets()
{
    // The AVX-512 loops (a reciprocal estimate and a Newton step, masked tails, gathers) against the
    // generic ones, for every tail length and for points near and far.
    if (!pe::simdSupported(pe::SimdLevel::Avx512))
        QSKIP("this processor has no AVX-512");
    std::vector<float> lx, ly, lc, y;
    std::vector<std::int32_t> col;
    for (int j = 0; j < 70; ++j) {
        lx.push_back(std::sin(1.3f * j) * (j % 3 == 0 ? 40.0f : 0.7f));
        ly.push_back(std::cos(0.9f * j) * (j % 5 == 0 ? 25.0f : 0.4f));
        lc.push_back(1.0f + static_cast<float>(j % 7));
        y.push_back(lx.back());
        y.push_back(ly.back());
        col.push_back((j * 17) % 70);
    }
    const auto close = [](double a, double b, double scale) { return std::abs(a - b) <= 1e-5 * scale; };
    for (int m = 0; m <= 70; ++m)
        for (const auto &[xi, yi] : {std::pair{0.1f, -0.2f}, std::pair{30.0f, 12.0f}}) {
            double fast[3], plain[3];
            pe::detail::repulsionFromListAvx512(lx.data(), ly.data(), lc.data(), m, xi, yi, fast);
            pe::detail::repulsionFromListGeneric(lx.data(), ly.data(), lc.data(), m, xi, yi, plain);
            const double scale = std::abs(plain[0]) + std::abs(plain[1]) + std::abs(plain[2]) + 1e-30;
            for (int c = 0; c < 3; ++c)
                QVERIFY2(close(fast[c], plain[c], scale),
                         qPrintable(QStringLiteral("repulsion, %1 cells, term %2: %3 against %4")
                                        .arg(m)
                                        .arg(c)
                                        .arg(fast[c])
                                        .arg(plain[c])));
            pe::detail::attractionRowAvx512(col.data(), lc.data(), m, y.data(), xi, yi, fast);
            pe::detail::attractionRowGeneric(col.data(), lc.data(), m, y.data(), xi, yi, plain);
            const double ascale = std::abs(plain[0]) + std::abs(plain[1]) + 1e-30;
            for (int c = 0; c < 2; ++c)
                QVERIFY2(
                    close(fast[c], plain[c], ascale),
                    qPrintable(
                        QStringLiteral("attraction, %1 entries: %2 against %3").arg(m).arg(fast[c]).arg(plain[c])));
        }
}

void TestTsne::sharedRowBlockIsEightRows()
{
    // The block path of the attraction (eight points with one shared row of P, read with plain
    // loads) against the row path on each of the eight rows written out: the same sums.
    std::vector<float> y;
    for (int j = 0; j < 400; ++j)
        y.push_back(std::sin(0.37f * j) * (j % 9 == 0 ? 30.0f : 2.0f) + 0.01f * j);
    std::vector<std::int32_t> offsets;
    std::vector<float> p;
    for (int o = -23; o <= 23; ++o)
        if (o != 0) {
            offsets.push_back(o * (o % 4 == 0 ? 3 : 1));
            p.push_back(1e-4f * static_cast<float>(1 + (o + 40) % 7));
        }
    const int m = static_cast<int>(offsets.size());
    for (std::int64_t i : {70, 91, 120}) {
        double block[16];
        pe::attractionBlock(offsets.data(), p.data(), m, y.data(), i, block);
        for (int l = 0; l < 8; ++l) {
            std::vector<std::int32_t> col;
            for (std::int32_t o : offsets)
                col.push_back(static_cast<std::int32_t>(i + l) + o);
            double row[2];
            pe::attractionRow(col.data(), p.data(), m, y.data(), y[2 * (i + l)], y[2 * (i + l) + 1], row);
            for (int c = 0; c < 2; ++c)
                QVERIFY2(std::abs(block[8 * c + l] - row[c]) <= 1e-5 * (std::abs(row[c]) + 1e-6),
                         qPrintable(QStringLiteral("point %1, %2: %3 against %4")
                                        .arg(i + l)
                                        .arg(c)
                                        .arg(block[8 * c + l], 0, 'g', 9)
                                        .arg(row[c], 0, 'g', 9)));
        }
    }
}

QTEST_APPLESS_MAIN(TestTsne)
#include "tst_tsne.moc"
