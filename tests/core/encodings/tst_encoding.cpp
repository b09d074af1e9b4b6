#include "encodings/encoding.h"
#include "test_support.h"

#include <QTest>

#include <array>
#include <numbers>
#include <set>

#include <cmath>
#include <random>

using pe::Encoding;
using pe::EncodingParams;
using testsupport::params;

class TestEncoding : public QObject
{
    Q_OBJECT

  private slots:
    void seed003Table();
    void seed003Denominators();
    void seed002PerIndexValues_data();
    void seed002PerIndexValues();
    void boundsAndUnitCircle_data();
    void boundsAndUnitCircle();
    void normIsHalfD();
    void oddDimension();
    void splitLayout();
    void relativePositionIsARotation();
    void fillMatchesReference_data();
    void fillMatchesReference();
    void sampledBlockMatchesSingleValues();
    void rowStreamIsTheFill_data();
    void rowStreamIsTheFill();
    void reducedBlockKeepsColourShares_data();
    void reducedBlockKeepsColourShares();
    void jitteredRowsDoNotAlias();
    void frequenciesFallGeometrically();
    void sampledIndices();
};

static std::vector<double> window(const Encoding &e)
{
    std::vector<double> out(static_cast<std::size_t>(e.windowBlock().size()));
    e.fill(e.windowBlock(), out.data());
    return out;
}

void TestEncoding::seed003Table()
{
    // The 10 x 6 tensor printed in seed 003 (max_sequence_length 10, d_model 6, base 10000).
    const double printed[10][6] = {
        {0.0000, 1.0000, 0.0000, 1.0000, 0.0000, 1.0000},   {0.8415, 0.5403, 0.0464, 0.9989, 0.0022, 1.0000},
        {0.9093, -0.4161, 0.0927, 0.9957, 0.0043, 1.0000},  {0.1411, -0.9900, 0.1388, 0.9903, 0.0065, 1.0000},
        {-0.7568, -0.6536, 0.1846, 0.9828, 0.0086, 1.0000}, {-0.9589, 0.2837, 0.2300, 0.9732, 0.0108, 0.9999},
        {-0.2794, 0.9602, 0.2749, 0.9615, 0.0129, 0.9999},  {0.6570, 0.7539, 0.3192, 0.9477, 0.0151, 0.9999},
        {0.9894, -0.1455, 0.3629, 0.9318, 0.0172, 0.9999},  {0.4121, -0.9111, 0.4057, 0.9140, 0.0194, 0.9998}};
    const Encoding e(params(10, 6, 1e4));
    const std::vector<double> v = window(e);
    for (int t = 0; t < 10; ++t)
        for (int j = 0; j < 6; ++j) {
            QVERIFY2(
                std::abs(v[t * 6 + j] - printed[t][j]) <= 0.5e-4 + 1e-12,
                qPrintable(QStringLiteral("t=%1 j=%2: %3 vs %4").arg(t).arg(j).arg(v[t * 6 + j]).arg(printed[t][j])));
            QCOMPARE(e.value(t, j), v[t * 6 + j]);
        }
}

void TestEncoding::seed003Denominators()
{
    // Seed 003 prints the denominators 1.0000, 21.5443, 464.1590, computed by torch in float32;
    // in double 10000^(4/6) = 464.15888..., so the last is compared to float precision.
    const Encoding e(params(10, 6, 1e4));
    QCOMPARE(e.channelCount(), 3);
    QVERIFY(std::abs(1.0 / e.channelFrequency(0) - 1.0) < 1e-12);
    QVERIFY(std::abs(1.0 / e.channelFrequency(1) - 21.5443) < 0.5e-4);
    QVERIFY(std::abs(1.0 / e.channelFrequency(2) - 464.1590) < 2e-4);
}

void TestEncoding::seed002PerIndexValues_data()
{
    // Seed 002's pos(t, i) = sin/cos(t / 100^(i/9)) table (15 x 9, base 100), rows t = 1, 2, 7, 14,
    // to 4 decimals.
    QTest::addColumn<int>("t");
    QTest::addColumn<QList<double>>("row");
    QTest::newRow("t=1") << 1 << QList<double>{0.8415, 0.8256, 0.3517, 0.9769, 0.1288, 0.9970, 0.0464, 0.9996, 0.0167};
    QTest::newRow("t=2") << 2 << QList<double>{0.9093, 0.3633, 0.6585, 0.9086, 0.2554, 0.9880, 0.0927, 0.9985, 0.0334};
    QTest::newRow("t=7") << 7 << QList<double>{0.6570, -0.4934, 0.5858, 0.0627, 0.7859, 0.8567, 0.3192, 0.9811, 0.1165};
    QTest::newRow("t=14") << 14
                          << QList<double>{0.9906, -0.5131, -0.9496, -0.9921, 0.9720, 0.4678, 0.6050, 0.9251, 0.2314};
}

void TestEncoding::seed002PerIndexValues()
{
    QFETCH(int, t);
    QFETCH(QList<double>, row);
    const Encoding e(params(15, 9, 100, 0, pe::Layout::Interleaved, pe::Exponent::Index));
    QCOMPARE(e.channelCount(), 9);
    const std::vector<double> v = window(e);
    for (int j = 0; j < 9; ++j)
        QVERIFY2(std::abs(v[t * 9 + j] - row[j]) <= 0.5e-4 + 1e-12,
                 qPrintable(QStringLiteral("j=%1: %2").arg(j).arg(v[t * 9 + j])));
}

void TestEncoding::boundsAndUnitCircle_data()
{
    QTest::addColumn<int>("d");
    QTest::addColumn<double>("base");
    QTest::addColumn<qint64>("start");
    QTest::addColumn<int>("layout");
    QTest::newRow("paper 512") << 512 << 1e4 << qint64(0) << int(pe::Layout::Interleaved);
    QTest::newRow("odd 7") << 7 << 100.0 << qint64(12345) << int(pe::Layout::Interleaved);
    QTest::newRow("split 64 far") << 64 << 1e8 << qint64(999'000'000) << int(pe::Layout::Split);
    QTest::newRow("tiny base") << 16 << 1.001 << qint64(5) << int(pe::Layout::Interleaved);
}

void TestEncoding::boundsAndUnitCircle()
{
    QFETCH(int, d);
    QFETCH(double, base);
    QFETCH(qint64, start);
    QFETCH(int, layout);
    const auto lay = static_cast<pe::Layout>(layout);
    const Encoding e(params(300, d, base, start, lay));
    const std::vector<double> v = window(e);
    const int half = d / 2;
    for (int t = 0; t < 300; ++t) {
        for (int j = 0; j < d; ++j)
            QVERIFY(std::abs(v[t * d + j]) <= 1.0);
        for (int i = 0; i < half; ++i) {
            const int sj = lay == pe::Layout::Split ? i : 2 * i;
            const int cj = lay == pe::Layout::Split ? half + i : 2 * i + 1;
            QVERIFY(e.columnIsSine(sj) && !e.columnIsSine(cj));
            const double r = v[t * d + sj] * v[t * d + sj] + v[t * d + cj] * v[t * d + cj];
            QVERIFY2(std::abs(r - 1.0) < 1e-13, qPrintable(QString::number(r - 1.0)));
        }
    }
}

void TestEncoding::normIsHalfD()
{
    const Encoding e(params(100, 128, 1e4, 777));
    const std::vector<double> v = window(e);
    for (int t = 0; t < 100; ++t) {
        double sum = 0;
        for (int j = 0; j < 128; ++j)
            sum += v[t * 128 + j] * v[t * 128 + j];
        QVERIFY(std::abs(sum - 64.0) < 1e-11);
    }
}

void TestEncoding::oddDimension()
{
    // Seeds 000 and 004's code crashes on odd d; here the last column is a sine with no partner.
    const Encoding e(params(20, 7, 1e4));
    QCOMPARE(e.channelCount(), 4);
    QVERIFY(e.columnIsSine(6));
    QCOMPARE(e.columnChannel(6), 3);
    QCOMPARE(e.columnFrequency(6), std::pow(1e4, -6.0 / 7.0));
    for (int t = 0; t < 20; ++t)
        QVERIFY(std::abs(e.value(t, 6) - std::sin(t * std::pow(1e4, -6.0 / 7.0))) < 1e-15);
}

void TestEncoding::splitLayout()
{
    const Encoding split(params(30, 10, 1e4, 0, pe::Layout::Split));
    const Encoding inter(params(30, 10, 1e4));
    for (int t = 0; t < 30; ++t)
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(split.value(t, i), inter.value(t, 2 * i));
            QCOMPARE(split.value(t, 5 + i), inter.value(t, 2 * i + 1));
        }
}

void TestEncoding::relativePositionIsARotation()
{
    // [sin w(t+k); cos w(t+k)] = [[cos wk, sin wk], [-sin wk, cos wk]] [sin wt; cos wt]
    const Encoding e(params(400, 64, 1e4));
    double worst = 0;
    for (int k : {1, 5, 37, 200}) {
        for (int t = 0; t + k < 400; t += 7)
            for (int i = 0; i < 32; ++i) {
                const double w = e.channelFrequency(i);
                const double s = e.value(t, 2 * i), c = e.value(t, 2 * i + 1);
                const double s2 = std::cos(w * k) * s + std::sin(w * k) * c;
                const double c2 = -std::sin(w * k) * s + std::cos(w * k) * c;
                worst =
                    std::max({worst, std::abs(s2 - e.value(t + k, 2 * i)), std::abs(c2 - e.value(t + k, 2 * i + 1))});
            }
    }
    QVERIFY2(worst < 1e-12, qPrintable(QString::number(worst)));
}

void TestEncoding::fillMatchesReference_data()
{
    QTest::addColumn<qint64>("start");
    QTest::addColumn<qint64>("step");
    QTest::addColumn<int>("d");
    QTest::addColumn<int>("exponent");
    QTest::newRow("start 0") << qint64(0) << qint64(1) << 512 << int(pe::Exponent::Pair);
    QTest::newRow("1e5") << qint64(100'000) << qint64(1) << 512 << int(pe::Exponent::Pair);
    QTest::newRow("1e6 index") << qint64(1'000'000) << qint64(1) << 33 << int(pe::Exponent::Index);
    QTest::newRow("near 1e9") << qint64(999'998'000) << qint64(1) << 128 << int(pe::Exponent::Pair);
    QTest::newRow("sampled") << qint64(0) << qint64(1667) << 256 << int(pe::Exponent::Pair);
}

void TestEncoding::fillMatchesReference()
{
    QFETCH(qint64, start);
    QFETCH(qint64, step);
    QFETCH(int, d);
    QFETCH(int, exponent);
    const Encoding e(params(1000, d, 1e4, start, pe::Layout::Interleaved, static_cast<pe::Exponent>(exponent)));
    pe::Block b = e.windowBlock();
    b.positionStep = step;
    b.rows = 600; // several re-seeds of the rotation
    std::vector<double> v(static_cast<std::size_t>(b.size()));
    e.fill(b, v.data());
    long double worst = 0;
    for (std::int64_t r = 0; r < b.rows; ++r)
        for (int j = 0; j < d; ++j) {
            const std::int64_t t = start + r * step;
            const long double ref = testsupport::referenceValue(t, e.columnFrequency(j), e.columnIsSine(j));
            worst = std::max(worst, std::abs(static_cast<long double>(v[r * d + j]) - ref));
        }
    qInfo("max |fill - long-double reference| = %.3Le", worst);
    QVERIFY2(worst <= 1e-12L, qPrintable(QString::number(static_cast<double>(worst))));
}

void TestEncoding::sampledBlockMatchesSingleValues()
{
    const Encoding e(params(5000, 300, 1e4, 42));
    pe::Block b;
    b.firstPosition = 50;
    b.positionStep = 13;
    b.rows = 200;
    b.firstColumn = 3;
    b.columnStep = 7;
    b.cols = 40;
    std::vector<double> v(static_cast<std::size_t>(b.size()) * 2, 7.0);
    e.fill(b, v.data(), 2 * b.cols); // a row stride wider than the block leaves the gaps alone
    for (int r = 0; r < b.rows; ++r)
        for (int c = 0; c < b.cols; ++c) {
            const double got = v[r * 2 * b.cols + c];
            QVERIFY(std::abs(got - e.value(b.firstPosition + r * b.positionStep, b.firstColumn + c * b.columnStep)) <
                    1e-13);
            QCOMPARE(v[r * 2 * b.cols + b.cols + c], 7.0);
        }
}

void TestEncoding::rowStreamIsTheFill_data()
{
    QTest::addColumn<int>("scheme");
    QTest::addColumn<qint64>("step");
    QTest::addColumn<qint64>("chunk");
    QTest::newRow("sinusoidal, a row at a time") << int(pe::SchemeId::Sinusoidal) << qint64(1) << qint64(1);
    QTest::newRow("sinusoidal, 7 rows (across the reseeds)") << int(pe::SchemeId::Sinusoidal) << qint64(1) << qint64(7);
    QTest::newRow("sinusoidal, step 13, 300 rows") << int(pe::SchemeId::Sinusoidal) << qint64(13) << qint64(300);
    QTest::newRow("RoPE, step 3, 64 rows") << int(pe::SchemeId::Rope) << qint64(3) << qint64(64);
    QTest::newRow("ALiBi, 100 rows (no vector)") << int(pe::SchemeId::Alibi) << qint64(1) << qint64(100);
}

void TestEncoding::rowStreamIsTheFill()
{
    QFETCH(int, scheme);
    QFETCH(qint64, step);
    QFETCH(qint64, chunk);
    EncodingParams p = params(5000, 64, 1e4, 42);
    p.scheme = static_cast<pe::SchemeId>(scheme);
    const Encoding e(p);
    pe::Block b;
    b.firstPosition = 40;
    b.positionStep = step;
    b.rows = 700; // three reseed spans and a part
    b.firstColumn = 2;
    b.cols = 30;
    std::vector<double> whole(static_cast<std::size_t>(b.size())), streamed(whole.size(), 7.0);
    e.fill(b, whole.data());
    pe::RowStream stream(e, b);
    std::int64_t done = 0;
    while (const std::int64_t n = stream.next(streamed.data() + done * b.cols, chunk))
        done += n;
    QCOMPARE(done, b.rows);
    QCOMPARE(stream.next(streamed.data(), chunk), std::int64_t(0));
    QVERIFY(whole == streamed); // bit for bit: the fill's own rotation and reseeds

    b.jitters = 8; // with a step, jittered rows too
    b.lastPosition = b.firstPosition + (b.rows - 1) * step;
    e.fill(b, whole.data());
    pe::RowStream jittered(e, b);
    for (done = 0; const std::int64_t n = jittered.next(streamed.data() + done * b.cols, chunk);)
        done += n;
    QCOMPARE(done, b.rows);
    QVERIFY(whole == streamed);
}

namespace {

// Shares of three colour classes (blue, grey, red on the heatmap's scale).
std::array<double, 3> classShares(const std::vector<double> &v)
{
    std::array<double, 3> n{};
    for (double x : v)
        ++n[x < -1.0 / 3 ? 0 : x > 1.0 / 3 ? 2 : 1];
    for (double &x : n)
        x /= static_cast<double>(v.size());
    return n;
}

} // namespace

void TestEncoding::reducedBlockKeepsColourShares_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<int>("d");
    QTest::addColumn<int>("layout");
    QTest::addColumn<int>("exponent");
    QTest::addColumn<int>("maxCols");
    // Issue 12: 50 x 768 in 600 px kept every 2nd column, all sines and no cosine.
    QTest::newRow("50 x 768 interleaved, 600 px") << qint64(50) << 768 << 0 << 0 << 600;
    QTest::newRow("50 x 767 interleaved, 600 px") << qint64(50) << 767 << 0 << 0 << 600;
    QTest::newRow("50 x 768 split, 600 px") << qint64(50) << 768 << 1 << 0 << 600;
    QTest::newRow("50 x 768 per-index, 600 px") << qint64(50) << 768 << 0 << 1 << 600;
    QTest::newRow("50 x 767 per-index, 300 px") << qint64(50) << 767 << 0 << 1 << 300;
    QTest::newRow("5000 x 1024 interleaved, 250 px") << qint64(5000) << 1024 << 0 << 0 << 250;
    QTest::newRow("5000 x 1022 split, 250 px") << qint64(5000) << 1022 << 1 << 0 << 250;
    QTest::newRow("5000 x 1023 per-index, 250 px") << qint64(5000) << 1023 << 0 << 1 << 250;
}

void TestEncoding::reducedBlockKeepsColourShares()
{
    // The reduced picture agrees with the whole matrix: the same share of each colour class.
    QFETCH(qint64, n);
    QFETCH(int, d);
    QFETCH(int, layout);
    QFETCH(int, exponent);
    QFETCH(int, maxCols);
    const Encoding e(params(n, d, 1e4, 0, layout ? pe::Layout::Split : pe::Layout::Interleaved,
                            exponent ? pe::Exponent::Index : pe::Exponent::Pair));
    std::vector<double> all(static_cast<std::size_t>(n * d));
    e.fill(e.windowBlock(), all.data());
    const pe::Block b = pe::sampledBlock(e.params().layout, 0, n, 400, 0, d, maxCols);
    QVERIFY(b.cols <= maxCols && b.rows <= 400);
    QVERIFY(b.sampled());
    std::vector<double> reduced(static_cast<std::size_t>(b.size()));
    e.fill(b, reduced.data());
    // Each cell holds the value of the position and column it says it holds.
    for (std::int64_t r = 0; r < b.rows; r += 7)
        for (int c = 0; c < b.cols; c += 3)
            QVERIFY(std::abs(reduced[r * b.cols + c] - e.value(b.position(r), b.column(c))) < 1e-12);
    const auto want = classShares(all);
    const auto got = classShares(reduced);
    for (int k = 0; k < 3; ++k)
        QVERIFY2(std::abs(want[k] - got[k]) < 0.03, qPrintable(QStringLiteral("class %1: %2 reduced, %3 whole (%4)")
                                                                   .arg(k)
                                                                   .arg(got[k])
                                                                   .arg(want[k])
                                                                   .arg(QString::fromStdString(pe::samplingText(b)))));
}

void TestEncoding::jitteredRowsDoNotAlias()
{
    // A stride of 44 positions is 7.003 turns of pair 0 (w = 1): sampled with a fixed stride its
    // column becomes a slow wave that is not there (neighbouring rows nearly equal). Jittered rows
    // show what that column is at this scale: no correlation from row to row.
    const Encoding e(params(44 * 400, 2));
    const pe::Block b = pe::sampledBlock(pe::Layout::Interleaved, 0, 44 * 400, 400, 0, 2, 2);
    QCOMPARE(b.positionStep, 44);
    QVERIFY(b.jittered());
    std::vector<double> v(static_cast<std::size_t>(b.size()));
    e.fill(b, v.data());
    double lag1 = 0, norm = 0;
    for (std::int64_t r = 0; r + 1 < b.rows; ++r) {
        lag1 += v[r * 2] * v[(r + 1) * 2];
        norm += v[r * 2] * v[r * 2];
    }
    QVERIFY2(std::abs(lag1 / norm) < 0.3, qPrintable(QString::number(lag1 / norm)));
    for (std::int64_t r = 0; r < b.rows; ++r) {
        QVERIFY(b.position(r) >= r * 44 && b.position(r) < (r + 1) * 44);
        QVERIFY(std::abs(v[r * 2 + 1] - e.value(b.position(r), 1)) < 1e-12);
    }
    // Offsets on a lattice (all multiples of 8 for a stride of 136) once drew a stripe on the pair
    // of wavelength 16: every sample at the same two phases. A column of wavelength 16 sampled
    // 1 in 136 must take many values.
    const double base16 = std::pow(16 / (2 * std::numbers::pi), 2.0); // pair 1 of d 4: w = base^(-1/2)
    const Encoding e16(params(136 * 600, 4, base16));
    QVERIFY(std::abs(2 * std::numbers::pi / e16.pairFrequency(1) - 16) < 1e-9);
    const pe::Block b16 = pe::sampledBlock(pe::Layout::Interleaved, 0, 136 * 600, 600, 0, 4, 4);
    QCOMPARE(b16.positionStep, 136);
    std::vector<double> v16(static_cast<std::size_t>(b16.size()));
    e16.fill(b16, v16.data());
    std::set<long> levels;
    for (std::int64_t r = 0; r < b16.rows; ++r)
        levels.insert(std::lround(v16[r * 4 + 2] * 100));
    QVERIFY2(levels.size() >= 8, qPrintable(QString::number(levels.size())));
}

void TestEncoding::frequenciesFallGeometrically()
{
    const Encoding e(params(10, 128, 1e4));
    QCOMPARE(e.channelFrequency(0), 1.0);
    const double ratio = std::pow(1e4, -2.0 / 128);
    for (int i = 1; i < 64; ++i)
        QVERIFY(std::abs(e.channelFrequency(i) / e.channelFrequency(i - 1) - ratio) < 1e-13);
    QVERIFY(std::abs(e.channelWavelength(63) - 2 * M_PI * std::pow(1e4, 126.0 / 128)) < 1e-6);
    // The slowest clock for d = 128 turns once in 2*pi*10000^(126/128), about 55,000 positions
    // (seed 000's "around 22,500" is for the d = 18 of its circles figure: see tst_clock).
    QVERIFY(e.channelWavelength(63) > 50'000 && e.channelWavelength(63) < 60'000);
}

void TestEncoding::sampledIndices()
{
    QCOMPARE(pe::sampledIndices(5, 10), (std::vector<int>{0, 1, 2, 3, 4}));
    const auto s = pe::sampledIndices(2048, 700);
    QCOMPARE(s.size(), std::size_t(700));
    QCOMPARE(s.front(), 0);
    QCOMPARE(s.back(), 2047);
    QVERIFY(std::is_sorted(s.begin(), s.end()));
}

QTEST_APPLESS_MAIN(TestEncoding)
#include "tst_encoding.moc"
