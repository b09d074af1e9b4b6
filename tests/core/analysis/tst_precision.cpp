// RoPE in float32 and bfloat16 as transformers computes it (analysis/precision.h): bfloat16's
// rounding on known values, the float32 inverse frequencies against the expression written out,
// every position's errors against a direct evaluation, the bounds the float32 product obeys, the
// pairs that cannot tell t from t + 1 against brute force, the export's columns, and the view's
// curves against the errors (each pixel column the worst of its positions).
#include "analysis/precision.h"
#include "encodings/rope.h"
#include "export/data_export.h"
#include "state/parameters.h"
#include "view_fixture.h"
#include "views/precision_view.h"

#include <qcustomplot.h>

#include <QTest>

#include <bit>
#include <cmath>
#include <numbers>

class TestPrecision : public QObject
{
    Q_OBJECT

  private slots:
    void bfloat16RoundsToNearestEven();
    void float32FrequenciesAsTransformers();
    void errorsAgainstADirectEvaluation();
    void float32ProductBound();
    void equalPairsAgainstBruteForce();
    void positionsPastFloat32Integers();
    void float64IsExact();
    void exportColumns();
    void viewDrawsTheWorstOfEachColumn();
};

namespace {

pe::EncodingParams rope(std::int64_t n, int d, double base, std::int64_t start = 0)
{
    pe::EncodingParams p;
    p.scheme = pe::SchemeId::Rope;
    p.seqLen = n;
    p.dModel = d;
    p.base = base;
    p.startPos = start;
    return p;
}

float bf16(std::uint16_t bits)
{
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

} // namespace

void TestPrecision::bfloat16RoundsToNearestEven()
{
    QCOMPARE(pe::roundToBFloat16(1.0f), 1.0f);
    // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even, 1.
    QCOMPARE(pe::roundToBFloat16(1.0f + 0x1p-8f), 1.0f);
    // 1 + 3·2^-8 is halfway between 1 + 2^-7 (odd) and 1 + 2^-6 (even): up.
    QCOMPARE(pe::roundToBFloat16(1.0f + 3 * 0x1p-8f), 1.0f + 0x1p-6f);
    QCOMPARE(pe::roundToBFloat16(1.0f + 0x1p-8f + 0x1p-20f), 1.0f + 0x1p-7f); // past half: up
    QCOMPARE(pe::roundToBFloat16(-0.3f), -bf16(0x3e9a));                      // 0.30078125
    QCOMPARE(pe::roundToBFloat16(3.14159265f), bf16(0x4049));                 // 3.140625
    QVERIFY(std::isnan(pe::roundToBFloat16(std::numeric_limits<float>::quiet_NaN())));
    QCOMPARE(pe::roundToBFloat16(std::numeric_limits<float>::max()), std::numeric_limits<float>::infinity());
    // Every bfloat16 is its own rounding.
    for (std::uint32_t b = 0; b < 0x7f80; b += 7)
        QCOMPARE(pe::roundToBFloat16(bf16(static_cast<std::uint16_t>(b))), bf16(static_cast<std::uint16_t>(b)));
}

void TestPrecision::float32FrequenciesAsTransformers()
{
    // inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim)), each step float32.
    for (double base : {1e4, 5e5}) {
        const pe::Encoding enc(rope(10, 128, base));
        const std::vector<float> f = pe::ropeFrequenciesFloat32(enc);
        QCOMPARE(f.size(), std::size_t{64});
        for (int i = 0; i < 64; ++i) {
            const float want = 1.0f / std::pow(static_cast<float>(base), static_cast<float>(2 * i) / 128.0f);
            QCOMPARE(f[static_cast<std::size_t>(i)], want);
            // Within a few float32 ulps of the exact θ_i.
            const double exact = std::pow(base, -2.0 * i / 128);
            QVERIFY(std::abs(f[static_cast<std::size_t>(i)] - exact) <= 4 * 0x1p-24 * exact);
        }
        QCOMPARE(f[0], 1.0f);
    }
    // Partial rotary: the exponent over the rotated dimensions, the others 0.
    pe::EncodingParams p = rope(10, 96, 1e4);
    p.rope.rotaryFraction = 0.25;
    const std::vector<float> f = pe::ropeFrequenciesFloat32(pe::Encoding(p));
    QCOMPARE(f[1], 1.0f / std::pow(1e4f, 2.0f / 24.0f));
    QCOMPARE(f[12], 0.0f);
    // Linear: modeling_rope_utils divides the default float32 inv_freq by the factor, which is not
    // always the float64 θ/s rounded (an ulp apart for some pairs).
    p = rope(10, 128, 1e4);
    p.rope.scaling = pe::RopeScaling::Linear;
    p.rope.factor = 3;
    const pe::Encoding linear(p);
    const std::vector<float> lin = pe::ropeFrequenciesFloat32(linear);
    int apart = 0;
    for (int i = 0; i < 64; ++i) {
        const float want = 1.0f / std::pow(1e4f, static_cast<float>(2 * i) / 128.0f) / 3.0f;
        QCOMPARE(lin[static_cast<std::size_t>(i)], want);
        apart += want != static_cast<float>(linear.channelFrequency(i));
    }
    QVERIFY(apart > 0);
    QVERIFY(!pe::frequenciesRoundedFromFloat64(p));
    // LongRoPE: 1 / (ext_i · base^x) with ext_i a float32.
    p = rope(10, 8, 1e4);
    p.rope.scaling = pe::RopeScaling::LongRope;
    p.rope.factor = 4;
    p.rope.originalContext = 4;
    p.rope.shortFactor = {1, 1.5, 2, 3};
    p.rope.longFactor = {1, 2.5, 7, 9};
    const std::vector<float> lr = pe::ropeFrequenciesFloat32(pe::Encoding(p)); // length 10 > L: long factors
    QCOMPARE(lr[2], 1.0f / (7.0f * std::pow(1e4f, 4.0f / 8.0f)));
    // YaRN: the float64 blend rounded, and the view says so.
    p = rope(10, 64, 1e4);
    p.rope.scaling = pe::RopeScaling::Yarn;
    p.rope.factor = 4;
    const pe::Encoding yarn(p);
    QVERIFY(pe::frequenciesRoundedFromFloat64(p));
    QCOMPARE(pe::ropeFrequenciesFloat32(yarn)[20], static_cast<float>(yarn.channelFrequency(20)));
}

void TestPrecision::errorsAgainstADirectEvaluation()
{
    // Positions around 2^20 with the attention factor of YaRN: each error recomputed by hand.
    pe::EncodingParams p = rope(40, 32, 1e4, (1 << 20) - 20);
    p.rope.scaling = pe::RopeScaling::Yarn;
    p.rope.factor = 4;
    p.rope.originalContext = 4096;
    const pe::Encoding enc(p);
    const double amp = enc.amplitude();
    QVERIFY(amp > 1);
    for (pe::Precision precision : {pe::Precision::Float32, pe::Precision::BFloat16}) {
        const pe::PrecisionErrors e = pe::precisionErrors(enc, precision);
        QCOMPARE(e.rotatingPairs, 16);
        QCOMPARE(e.angleError.size(), std::size_t{40});
        for (std::int64_t r = 0; r < 40; ++r) {
            const std::int64_t t = p.startPos + r;
            double angleWorst = 0, valueWorst = 0;
            for (int i = 0; i < 16; ++i) {
                const auto th = static_cast<float>(enc.channelFrequency(i));
                const float angle = static_cast<float>(t) * th;
                const long double exact = static_cast<long double>(t) * enc.channelFrequency(i);
                angleWorst = std::max(
                    angleWorst, std::abs(std::remainder(static_cast<double>(angle - exact), 2 * std::numbers::pi)));
                float s = std::sin(angle) * static_cast<float>(amp), c = std::cos(angle) * static_cast<float>(amp);
                if (precision == pe::Precision::BFloat16) {
                    s = pe::roundToBFloat16(s);
                    c = pe::roundToBFloat16(c);
                }
                const double s64 = amp * static_cast<double>(std::sin(exact)),
                             c64 = amp * static_cast<double>(std::cos(exact));
                valueWorst = std::max({valueWorst, std::abs(s - s64), std::abs(c - c64)});
            }
            QVERIFY2(std::abs(e.angleError[static_cast<std::size_t>(r)] - angleWorst) <= 1e-9,
                     qPrintable(QStringLiteral("t %1: %2 against %3")
                                    .arg(t)
                                    .arg(e.angleError[static_cast<std::size_t>(r)])
                                    .arg(angleWorst)));
            QVERIFY(std::abs(e.valueError[static_cast<std::size_t>(r)] - valueWorst) <= 1e-9);
        }
    }
}

void TestPrecision::float32ProductBound()
{
    // |fl(fl(t)·θ32) − t·θ| <= half an ulp of the product + t·|θ32 − θ|: the angle error grows with t.
    const pe::Encoding enc(rope(2000, 128, 1e4, 998'000));
    const pe::PrecisionErrors e = pe::precisionErrors(enc, pe::Precision::Float32);
    const std::vector<float> th = pe::ropeFrequenciesFloat32(enc);
    for (std::int64_t r = 0; r < 2000; r += 37) {
        const double t = static_cast<double>(998'000 + r);
        double bound = 0;
        for (int i = 0; i < 64; ++i) {
            const double product = t * th[static_cast<std::size_t>(i)];
            bound = std::max(bound, std::ldexp(1.0, std::ilogb(product) - 24) +
                                        t * std::abs(th[static_cast<std::size_t>(i)] - enc.channelFrequency(i)));
        }
        QVERIFY(e.angleError[static_cast<std::size_t>(r)] <= bound * (1 + 1e-9));
    }
    // Near a million positions the float32 angles are off by about 0.01 to 0.06 rad, where the
    // first positions are exact to about 1e-7.
    const double late = *std::max_element(e.angleError.begin(), e.angleError.end());
    QVERIFY2(late > 0.01 && late < 0.07, qPrintable(QString::number(late)));
    const pe::PrecisionErrors early = pe::precisionErrors(pe::Encoding(rope(10, 128, 1e4)), pe::Precision::Float32);
    QCOMPARE(early.angleError[0], 0.0); // t = 0
    QVERIFY(*std::max_element(early.angleError.begin(), early.angleError.end()) < 1e-5);
    // bfloat16's values are off by up to half its spacing below 1 (2^-9) plus the angle's error.
    const pe::PrecisionErrors b = pe::precisionErrors(enc, pe::Precision::BFloat16);
    for (std::size_t r = 0; r < b.valueError.size(); ++r)
        QVERIFY(b.valueError[r] <= 0x1p-9 + b.angleError[r] + 1e-7);
}

void TestPrecision::equalPairsAgainstBruteForce()
{
    // 2,100 positions: past the 1,024-position chunks that each seed their own first cos and sin.
    const pe::EncodingParams p = rope(2100, 64, 1e4, 200'000);
    const pe::Encoding enc(p);
    const pe::PrecisionErrors e = pe::precisionErrors(enc, pe::Precision::BFloat16);
    const std::vector<float> th = pe::ropeFrequenciesFloat32(enc);
    int some = 0;
    for (std::int64_t r = 0; r < p.seqLen; ++r) {
        int equal = 0;
        for (int i = 0; i < 32; ++i) {
            const auto at = [&](std::int64_t t, bool sine) {
                const float a = static_cast<float>(t) * th[static_cast<std::size_t>(i)];
                return pe::roundToBFloat16(sine ? std::sin(a) : std::cos(a));
            };
            const std::int64_t t = p.startPos + r;
            equal += at(t, true) == at(t + 1, true) && at(t, false) == at(t + 1, false);
        }
        QCOMPARE(e.equalPairs[static_cast<std::size_t>(r)], equal);
        some += equal;
    }
    // At 200,000 the slowest pairs turn by about 1e-4 a position: bfloat16 cannot see it.
    QVERIFY(some > 0);
    const auto first = pe::firstEqualPosition(e, p.startPos);
    QVERIFY(first && *first >= p.startPos);
    // float32 tells them apart for longer than bfloat16 (fewer equal pairs).
    const pe::PrecisionErrors f = pe::precisionErrors(enc, pe::Precision::Float32);
    int fsome = 0;
    for (int v : f.equalPairs)
        fsome += v;
    QVERIFY(fsome < some);
}

void TestPrecision::positionsPastFloat32Integers()
{
    // position_ids.float(): 2^24 + 1 rounds to 2^24 (ties to even), so t = 2^24 and 2^24 + 1 share
    // every angle, and at t = 2^24 + 1 pair 0 (θ = 1) is off by exactly 1 radian.
    const std::int64_t two24 = std::int64_t{1} << 24;
    const pe::PrecisionErrors e =
        pe::precisionErrors(pe::Encoding(rope(3, 128, 1e4, two24 - 1)), pe::Precision::Float32);
    QCOMPARE(e.equalPairs[1], 64); // t = 2^24 against 2^24 + 1: every pair
    QVERIFY(e.equalPairs[0] < 64);
    QVERIFY(e.angleError[2] >= 1.0);
    QVERIFY(e.angleError[2] <= std::numbers::pi);
}

void TestPrecision::float64IsExact()
{
    const pe::PrecisionErrors e = pe::precisionErrors(pe::Encoding(rope(500, 128, 1e4)), pe::Precision::Float64);
    for (std::size_t r = 0; r < 500; ++r) {
        QCOMPARE(e.angleError[r], 0.0);
        QCOMPARE(e.valueError[r], 0.0);
        QCOMPARE(e.equalPairs[r], 0);
    }
}

void TestPrecision::exportColumns()
{
    const pe::Encoding enc(rope(50, 16, 1e4, 70'000));
    const pe::Table t = pe::precisionTable(enc, pe::Precision::BFloat16);
    QCOMPARE(t.indexHeader, std::string("position"));
    QCOMPARE(t.columnHeaders, (std::vector<std::string>{"angle_error", "value_error", "equal_pairs"}));
    QCOMPARE(t.rows, std::int64_t{50});
    QCOMPARE(t.indexOf(0), std::int64_t{70'000});
    std::vector<double> values(150);
    t.fill(0, 50, values.data());
    const pe::PrecisionErrors e = pe::precisionErrors(enc, pe::Precision::BFloat16);
    for (std::size_t r = 0; r < 50; ++r) {
        QCOMPARE(values[3 * r], e.angleError[r]);
        QCOMPARE(values[3 * r + 1], e.valueError[r]);
        QCOMPARE(values[3 * r + 2], static_cast<double>(e.equalPairs[r]));
    }
}

void TestPrecision::viewDrawsTheWorstOfEachColumn()
{
    ViewFixture<PrecisionView> f(QSize(900, 600));
    QVERIFY(f.exposed());
    QVERIFY(!f.params.set(rope(100'000, 64, 1e4)));
    QVERIFY(f.params.setPosition(99'000));
    const pe::PrecisionErrors *e = f.view->errors();
    QVERIFY(e && e->precision == pe::Precision::BFloat16 && e->angleError.size() == 100'000);
    // Every position's error is at or under the point of its pixel column, and each point is one
    // of its column's errors (the worst).
    const QCPGraph *angle = f.view->plot()->graph(0);
    const int points = angle->dataCount();
    QVERIFY(points > 100 && points < 100'000);
    const auto stride = static_cast<std::int64_t>(angle->data()->at(1)->key - angle->data()->at(0)->key);
    QVERIFY(stride > 1);
    for (int i = 0; i < points; ++i) {
        const auto first = static_cast<std::int64_t>(angle->data()->at(i)->key);
        const double shown = angle->data()->at(i)->value;
        double worst = 0;
        for (std::int64_t r = first; r < std::min<std::int64_t>(first + stride, 100'000); ++r)
            worst = std::max(worst, e->angleError[static_cast<std::size_t>(r)]);
        QVERIFY(worst == 0 ? std::isnan(shown) : shown == worst);
    }
    const QString title = f.view->plot()->findChild<QCPTextElement *>()->text();
    QVERIFY2(title.contains(QStringLiteral("each point: the worst of %1 positions").arg(stride)), qPrintable(title));
    // The value and equal-pairs curves the same way: each point the worst of its column.
    for (int g : {1, 2}) {
        const QCPGraph *curve = f.view->plot()->graph(g);
        QCOMPARE(curve->dataCount(), points);
        for (int i = 0; i < points; i += 7) {
            const auto first = static_cast<std::int64_t>(curve->data()->at(i)->key);
            double worst = 0;
            for (std::int64_t r = first; r < std::min<std::int64_t>(first + stride, 100'000); ++r)
                worst = std::max(worst, g == 1 ? e->valueError[static_cast<std::size_t>(r)]
                                               : double(e->equalPairs[static_cast<std::size_t>(r)]));
            QCOMPARE(curve->data()->at(i)->value, worst);
        }
    }
    QVERIFY2(title.contains(QStringLiteral("at t = 99,000: angle error")), qPrintable(title));
    // float32: the same angles, smaller value errors; float64: no error curves.
    QVERIFY(!f.view->applySettings({{QStringLiteral("precision"), QStringLiteral("float32")}}));
    QCOMPARE(f.view->errors()->precision, pe::Precision::Float32);
    QVERIFY(!f.view->applySettings({{QStringLiteral("precision"), QStringLiteral("float64")}}));
    QVERIFY(!f.view->plot()->graph(0)->visible());
    QCOMPARE(f.view->plot()->legend->itemCount(), 1); // the hidden curves leave the legend
    QVERIFY(f.view->applySettings({{QStringLiteral("precision"), QStringLiteral("float16")}}));
}

QTEST_MAIN(TestPrecision)
#include "tst_precision.moc"
