#include "analysis/attention.h"
#include "analysis/clock.h"
#include "analysis/similarity.h"
#include "encodings/position_table.h"
#include "encodings/relative_buckets.h"
#include "encodings/rope.h"
#include "encodings/scheme.h"
#include "encodings/scheme_parameters.h"
#include "export/data_export.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <complex>
#include <limits>
#include <numeric>

// RoPE and ALiBi as schemes, and the positional attention of every scheme, each against a direct
// computation written from the formulas (not from the code under test): RoPE's values as Meta's
// freqs_cis holds them (cos, sin of t·θ'_i, YaRN's factor on both), (R_t q)·(R_s k) by rotating q
// and k pair by pair, PE(t)·PE(s) and ALiBi's −m·|t − s| softmaxed row by row.
class TestAttention : public QObject
{
    Q_OBJECT

  private slots:
    void ropeValuesAreFreqsCis_data();
    void ropeValuesAreFreqsCis();
    void alibiHasNoVectors();
    void sinusoidalRowsAgainstDirect();
    void ropeRowsAgainstRotatedQueryAndKey_data();
    void ropeRowsAgainstRotatedQueryAndKey();
    void alibiRowsAgainstDirect();
    void t5BiasTableRowsAgainstDirect();
    void xposRowsAgainstScaledRotations_data();
    void xposRowsAgainstScaledRotations();
    void xposDecayAndExports();
    void nopeLayerAndItsTemperature();
    void localLayerRowsAgainstDirect_data();
    void localLayerRowsAgainstDirect();
    void tableTakesTheMatrixPathAndAgrees();
    void longWindowRowsSumToOne();
    void rebasedIsTheWindowBuiltThere();
    void decayCurvesAgainstRopeDecay();
    void tooLargeSaysWhy();
    void exportsHaveTheirColumns();
    void schemeParametersAndRefusals();
    void offsetKernelFindsRopesCosines();
    void yarnHandsStayOnTheirFaces();
};

namespace {

pe::EncodingParams rope(int d, pe::RopeScaling scaling = pe::RopeScaling::None, double factor = 1,
                        pe::Layout layout = pe::Layout::Interleaved)
{
    pe::EncodingParams p;
    p.scheme = pe::SchemeId::Rope;
    p.dModel = d;
    p.seqLen = 40;
    p.startPos = 3;
    p.layout = layout;
    p.rope.scaling = scaling;
    p.rope.factor = factor;
    p.rope.originalContext = 16;
    return p;
}

// Softmax of one row of logits, -infinity masked.
std::vector<double> softmax(const std::vector<double> &logits)
{
    const double top = *std::max_element(logits.begin(), logits.end());
    std::vector<double> out(logits.size());
    double sum = 0;
    for (std::size_t i = 0; i < logits.size(); ++i)
        sum += out[i] = std::isinf(logits[i]) ? 0.0 : std::exp(logits[i] - top);
    for (double &v : out)
        v /= sum;
    return out;
}

// Each weight of a row (keys first, first + 1, ...) within tolerance of the direct computation's.
void verifyRow(const std::vector<double> &got, const std::vector<double> &want, double t, std::int64_t first,
               double tolerance)
{
    for (std::size_t i = 0; i < got.size(); ++i)
        QVERIFY2(std::abs(got[i] - want[i]) <= tolerance, qPrintable(QStringLiteral("row %1, key %2: %3 against %4")
                                                                         .arg(t)
                                                                         .arg(first + static_cast<std::int64_t>(i))
                                                                         .arg(got[i], 0, 'g', 17)
                                                                         .arg(want[i], 0, 'g', 17)));
}

void compareRows(const pe::PositionalAttention &a, const pe::EncodingParams &p,
                 const std::function<double(std::int64_t t, std::int64_t s)> &logit, bool causal, double tolerance)
{
    for (std::int64_t t = p.startPos; t < p.startPos + p.seqLen; t += 7) {
        std::vector<double> logits;
        for (std::int64_t s = p.startPos; s < p.startPos + p.seqLen; ++s)
            logits.push_back(causal && s > t ? -INFINITY : logit(t, s));
        const std::vector<double> want = softmax(logits);
        std::vector<double> got(static_cast<std::size_t>(p.seqLen));
        a.row(t, p.startPos, p.seqLen, got.data());
        verifyRow(got, want, static_cast<double>(t), p.startPos, tolerance);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(std::abs(a.weight(t, p.startPos) - got[0]) <= 1e-15);
    }
}

// Rows at queries between whole positions (rowAt), against the formula's logit at the real offset:
// masked where s > t (causal) or |t - s| >= window; and rowAt at a whole t is row(t).
void compareRealRows(const pe::PositionalAttention &a, const pe::EncodingParams &p,
                     const std::function<double(double t, std::int64_t s)> &logit, bool causal, double tolerance,
                     std::int64_t window = 0)
{
    QVERIFY(a.realRows());
    for (std::int64_t t0 = p.startPos; t0 + 1 < p.startPos + p.seqLen; t0 += 5)
        for (const double f : {0.0, 0.25, 0.5, 0.999}) {
            const double t = static_cast<double>(t0) + f;
            std::vector<double> logits;
            for (std::int64_t s = p.startPos; s < p.startPos + p.seqLen; ++s) {
                const double k = t - static_cast<double>(s);
                const bool masked = (causal && k < 0) || (window > 0 && std::abs(k) >= static_cast<double>(window));
                logits.push_back(masked ? -INFINITY : logit(t, s));
            }
            const std::vector<double> want = softmax(logits);
            const std::vector<double> got = a.rowAt(t);
            QCOMPARE(got.size(), want.size());
            verifyRow(got, want, t, p.startPos, tolerance);
            if (QTest::currentTestFailed())
                return;
            const auto [first, end] = a.seenKeysAt(t);
            for (std::int64_t s = p.startPos; s < p.startPos + p.seqLen; ++s)
                QCOMPARE(s >= first && s < end, !std::isinf(logits[static_cast<std::size_t>(s - p.startPos)]));
            if (f == 0) {
                std::vector<double> whole(static_cast<std::size_t>(p.seqLen));
                a.row(t0, p.startPos, p.seqLen, whole.data());
                QCOMPARE(got, whole);
            }
        }
}

} // namespace

void TestAttention::ropeValuesAreFreqsCis_data()
{
    QTest::addColumn<int>("scaling");
    QTest::addColumn<int>("layout");
    for (pe::RopeScaling s : pe::kRopeScalings)
        for (pe::Layout l : pe::kLayouts)
            QTest::addRow("%s %s", pe::ropeScalingName(s).data(), pe::layoutName(l).data())
                << static_cast<int>(s) << static_cast<int>(l);
}

void TestAttention::ropeValuesAreFreqsCis()
{
    // Meta's freqs_cis = polar(1, t·θ'_i): real part (cos) in column 2i, imaginary (sin) in 2i + 1
    // interleaved (view_as_real); transformers' halves: cos in column i, sin in i + d/2. YaRN's
    // attention factor multiplies both (transformers: cos * attention_scaling).
    QFETCH(int, scaling);
    QFETCH(int, layout);
    pe::EncodingParams p = rope(16, static_cast<pe::RopeScaling>(scaling), 4, static_cast<pe::Layout>(layout));
    p.seqLen = 300;
    p.startPos = 0;
    if (p.rope.scaling == pe::RopeScaling::LongRope) { // LongRoPE's own factors, one a pair
        p.rope.shortFactor = {1, 1.2, 1.5, 2, 2.5, 3, 3.5, 4};
        p.rope.longFactor = {1, 2, 4, 8, 16, 32, 48, 64};
    }
    const pe::Encoding enc(p);
    const std::vector<double> theta = pe::ropeFrequencies(p.base, p.dModel, p.rope, p.startPos + p.seqLen);
    const double amp = pe::ropeAttentionFactor(p.rope);
    QCOMPARE(amp, p.rope.scaling == pe::RopeScaling::Yarn       ? 0.1 * std::log(4.0) + 1
                  : p.rope.scaling == pe::RopeScaling::LongRope ? std::sqrt(1 + std::log(4.0) / std::log(16.0))
                                                                : 1.0);
    QCOMPARE(pe::valueBound(p), amp);
    std::vector<double> block(static_cast<std::size_t>(p.seqLen * p.dModel));
    enc.fill(enc.windowBlock(), block.data());
    const bool split = p.layout == pe::Layout::Split;
    for (std::int64_t t = 0; t < p.seqLen; t += 13)
        for (int i = 0; i < p.dModel / 2; ++i) {
            const int cosColumn = split ? i : 2 * i, sinColumn = split ? i + p.dModel / 2 : 2 * i + 1;
            QCOMPARE(enc.pairCosineColumn(i), cosColumn);
            QCOMPARE(enc.pairSineColumn(i), sinColumn);
            const long double angle = static_cast<long double>(t) * theta[static_cast<std::size_t>(i)];
            const double c = amp * static_cast<double>(std::cos(angle)), s = amp * static_cast<double>(std::sin(angle));
            QVERIFY(std::abs(enc.value(t, cosColumn) - c) < 1e-14);
            QVERIFY(std::abs(enc.value(t, sinColumn) - s) < 1e-14);
            QVERIFY(std::abs(block[static_cast<std::size_t>(t * p.dModel + cosColumn)] - c) < 1e-13);
            QVERIFY(std::abs(block[static_cast<std::size_t>(t * p.dModel + sinColumn)] - s) < 1e-13);
            QCOMPARE(enc.pairFrequency(i), theta[static_cast<std::size_t>(i)]);
        }
    // PE(t)·PE(s) = amp²·Σ cos((t - s)·θ'_i): the offset kernel applies where the pairs are unit.
    QCOMPARE(pe::dotDependsOnOffsetOnly(p), amp == 1.0);
}

void TestAttention::alibiHasNoVectors()
{
    pe::EncodingParams p;
    p.scheme = pe::SchemeId::Alibi;
    const pe::Encoding enc(p);
    QVERIFY(!enc.hasVectors());
    QVERIFY(!enc.hasFrequencies());
    QCOMPARE(enc.channelCount(), 0);
    std::vector<double> block(static_cast<std::size_t>(p.seqLen * p.dModel), 7.0);
    enc.fill(enc.windowBlock(), block.data());
    QVERIFY(std::all_of(block.begin(), block.end(), [](double v) { return v == 0.0; }));
    QVERIFY(!pe::takes(p, pe::Field::DModel) && !pe::takes(p, pe::Field::Base));
    QVERIFY(pe::takes(p, pe::Field::Heads) && pe::takes(p, pe::Field::Head));
    QVERIFY(QString::fromStdString(pe::notApplicable(p, pe::Field::DModel)).contains(QStringLiteral("no vector")));
}

void TestAttention::sinusoidalRowsAgainstDirect()
{
    for (bool causal : {false, true})
        for (pe::Exponent e : {pe::Exponent::Pair, pe::Exponent::Index}) { // offset path, then N x N
            pe::EncodingParams p;
            p.seqLen = 50;
            p.startPos = 11;
            p.dModel = 24;
            p.exponent = e;
            const pe::Encoding enc(p);
            QCOMPARE(pe::PositionalAttention::offsetOnly(p), e == pe::Exponent::Pair);
            const pe::PositionalAttention a(enc, {pe::QueryKey::Ones, 0, causal});
            const auto logit = [&](double t, std::int64_t s) {
                double dot = 0;
                for (int j = 0; j < p.dModel; ++j)
                    dot += enc.value(t, j) * enc.value(s, j);
                return dot / std::sqrt(24.0);
            };
            compareRows(
                a, p, [&](std::int64_t t, std::int64_t s) { return logit(static_cast<double>(t), s); }, causal, 1e-13);
            // Between whole positions PE(t) is the formula at the real t: on the offset path alone.
            if (a.realRows())
                compareRealRows(a, p, logit, causal, 1e-13);
            else
                QCOMPARE(e, pe::Exponent::Index);
        }
}

void TestAttention::ropeRowsAgainstRotatedQueryAndKey_data()
{
    QTest::addColumn<int>("qk");
    QTest::addColumn<int>("scaling");
    QTest::addColumn<int>("layout");
    QTest::addColumn<bool>("causal");
    QTest::addColumn<double>("fraction");
    QTest::newRow("ones") << 0 << 0 << 0 << false << 1.0;
    QTest::newRow("ones causal split") << 0 << 0 << 1 << true << 1.0;
    QTest::newRow("random") << 1 << 0 << 0 << false << 1.0;
    QTest::newRow("random yarn split") << 1 << static_cast<int>(pe::RopeScaling::Yarn) << 1 << false << 1.0;
    QTest::newRow("ones llama3 causal") << 0 << static_cast<int>(pe::RopeScaling::Llama3) << 0 << true << 1.0;
    // Phi-4-mini's kind: partial rotary under a scaling with an attention factor, on the rotated
    // dimensions alone (transformers: cat(q_rot·cos + rotate_half(q_rot)·sin, q_pass)).
    QTest::newRow("random yarn partial split") << 1 << static_cast<int>(pe::RopeScaling::Yarn) << 1 << false << 0.5;
    QTest::newRow("random yarn partial causal") << 1 << static_cast<int>(pe::RopeScaling::Yarn) << 0 << true << 0.4;
}

void TestAttention::ropeRowsAgainstRotatedQueryAndKey()
{
    // (R_t q)·(R_s k)/√d: q and k rotated pair by pair (their components at the layout's cos and
    // sin columns as the real and imaginary parts), each also scaled by YaRN's factor.
    QFETCH(int, qk);
    QFETCH(int, scaling);
    QFETCH(int, layout);
    QFETCH(bool, causal);
    QFETCH(double, fraction);
    pe::EncodingParams p = rope(20, static_cast<pe::RopeScaling>(scaling), 4, static_cast<pe::Layout>(layout));
    p.rope.rotaryFraction = fraction;
    QVERIFY(!pe::validate(p));
    const int rotated = pe::rotatedPairs(p.dModel, p.rope);
    const pe::Encoding enc(p);
    const pe::AttentionSettings settings{static_cast<pe::QueryKey>(qk), 9, causal};
    const std::vector<double> q = pe::queryKeyVector(settings.qk, p.dModel, settings.seed, 0);
    const std::vector<double> k = pe::queryKeyVector(settings.qk, p.dModel, settings.seed, 1);
    if (settings.qk == pe::QueryKey::Random)
        QVERIFY(q != k && q == pe::queryKeyVector(settings.qk, p.dModel, settings.seed, 0));
    const std::vector<double> theta = pe::ropeFrequencies(p.base, p.dModel, p.rope, p.startPos + p.seqLen);
    const double amp = pe::ropeAttentionFactor(p.rope);
    const bool split = p.layout == pe::Layout::Split;
    const auto rotate = [&](const std::vector<double> &v, double t) {
        std::vector<std::complex<double>> out;
        for (int i = 0; i < p.dModel / 2; ++i) {
            const std::complex<double> z(v[static_cast<std::size_t>(split ? i : 2 * i)],
                                         v[static_cast<std::size_t>(split ? i + p.dModel / 2 : 2 * i + 1)]);
            out.push_back((i < rotated ? amp : 1.0) * z * std::polar(1.0, t * theta[static_cast<std::size_t>(i)]));
        }
        return out;
    };
    const pe::PositionalAttention a(enc, settings);
    const auto logit = [&](double t, std::int64_t s) {
        const auto rq = rotate(q, t), rk = rotate(k, static_cast<double>(s));
        double dot = 0;
        for (std::size_t i = 0; i < rq.size(); ++i)
            dot += rq[i].real() * rk[i].real() + rq[i].imag() * rk[i].imag();
        return dot / std::sqrt(static_cast<double>(p.dModel));
    };
    compareRows(
        a, p, [&](std::int64_t t, std::int64_t s) { return logit(static_cast<double>(t), s); }, causal, 1e-12);
    compareRealRows(a, p, logit, causal, 1e-12); // R_t at a real t: the query turned part of a step
}

void TestAttention::xposRowsAgainstScaledRotations_data()
{
    QTest::addColumn<bool>("causal");
    QTest::addColumn<int>("layout");
    QTest::newRow("causal interleaved") << true << 0;
    QTest::newRow("both sides split") << false << 1;
}

void TestAttention::xposRowsAgainstScaledRotations()
{
    // xPos as torchscale applies it: q rotated by t·θ_i and scaled by ζ_i^(t/γ), k rotated by s·θ_i
    // and scaled by ζ_i^(-s/γ) (downscale), ζ_i = (2i + 0.4·d)/(1.4·d); random q and k, γ = 16 so
    // the scale shows within the window.
    QFETCH(bool, causal);
    QFETCH(int, layout);
    pe::EncodingParams p = rope(20, pe::RopeScaling::None, 1, static_cast<pe::Layout>(layout));
    p.xposScaleBase = 16;
    QVERIFY(!pe::validate(p));
    const pe::Encoding enc(p);
    const pe::AttentionSettings settings{pe::QueryKey::Random, 3, causal};
    const std::vector<double> q = pe::queryKeyVector(settings.qk, p.dModel, settings.seed, 0);
    const std::vector<double> k = pe::queryKeyVector(settings.qk, p.dModel, settings.seed, 1);
    const bool split = p.layout == pe::Layout::Split;
    const auto turned = [&](const std::vector<double> &v, std::int64_t t, double sign) {
        std::vector<std::complex<double>> out;
        for (int i = 0; i < p.dModel / 2; ++i) {
            const double theta = std::pow(p.base, -2.0 * i / p.dModel);
            const double zeta = (2.0 * i + 0.4 * p.dModel) / (1.4 * p.dModel);
            const std::complex<double> z(v[static_cast<std::size_t>(split ? i : 2 * i)],
                                         v[static_cast<std::size_t>(split ? i + p.dModel / 2 : 2 * i + 1)]);
            out.push_back(std::pow(zeta, sign * static_cast<double>(t) / p.xposScaleBase) * z *
                          std::polar(1.0, static_cast<double>(t) * theta));
        }
        return out;
    };
    const pe::PositionalAttention a(enc, settings);
    QVERIFY(!a.realRows()); // xPos's scale is summed at whole offsets: whole rows only
    QVERIFY_THROWS_EXCEPTION(std::logic_error, a.rowAt(static_cast<double>(p.startPos) + 0.5));
    compareRows(
        a, p,
        [&](std::int64_t t, std::int64_t s) {
            const auto rq = turned(q, t, 1), rk = turned(k, s, -1);
            double dot = 0;
            for (std::size_t i = 0; i < rq.size(); ++i)
                dot += rq[i].real() * rk[i].real() + rq[i].imag() * rk[i].imag();
            return dot / std::sqrt(static_cast<double>(p.dModel));
        },
        causal, 1e-12);
}

void TestAttention::xposDecayAndExports()
{
    // ζ for d = 8 (torchscale's (arange(0, 8, 2) + 3.2) / 11.2), the decay's xPos curve against
    // Σ_i 2·ζ_i^(k/γ)·cos(k·θ_i) written out, the exports' extra columns, and the refusal where the
    // keys after the query would pass the largest double.
    const std::vector<double> zeta = pe::xposZeta(8, pe::RopeScalingParams{});
    QCOMPARE(zeta.size(), std::size_t(4));
    for (int i = 0; i < 4; ++i)
        QVERIFY(std::abs(zeta[static_cast<std::size_t>(i)] - (2.0 * i + 3.2) / 11.2) < 1e-16);
    pe::RopeScalingParams partial;
    partial.rotaryFraction = 0.5; // D = 4: ζ over the 2 rotated pairs, 1 for the standing ones
    const std::vector<double> half = pe::xposZeta(8, partial);
    const double wantHalf[] = {1.6 / 5.6, 3.6 / 5.6, 1.0, 1.0};
    for (std::size_t i = 0; i < 4; ++i)
        QVERIFY(std::abs(half[i] - wantHalf[i]) < 1e-15);

    pe::EncodingParams p = rope(32);
    p.seqLen = 5000;
    p.startPos = 0;
    p.xposScaleBase = 512;
    const pe::Encoding enc(p);
    const pe::RopeDecayCurves c = pe::ropeDecayCurves(enc, p.seqLen, 0, 0);
    QCOMPARE(c.xpos.size(), std::size_t(5000));
    for (std::int64_t k : {0, 1, 77, 511, 4999}) {
        double want = 0;
        for (int i = 0; i < 16; ++i) {
            const double z = (2.0 * i + 0.4 * 32) / (1.4 * 32);
            want += 2 * std::pow(z, static_cast<double>(k) / 512) *
                    std::cos(static_cast<double>(k) * std::pow(1e4, -2.0 * i / 32));
        }
        QVERIFY2(std::abs(c.xpos[static_cast<std::size_t>(k)] - want) < 1e-12,
                 qPrintable(
                     QStringLiteral("k %1: %2 against %3").arg(k).arg(c.xpos[static_cast<std::size_t>(k)]).arg(want)));
    }
    QCOMPARE(c.xpos[0], 32.0);
    QVERIFY(pe::ropeDecayCurves(pe::Encoding(rope(32)), 100, 0, 0).xpos.empty());
    const pe::Table decay = pe::ropeDecayTable(enc);
    QCOMPARE(decay.columnHeaders, (std::vector<std::string>{"score", "bound", "xpos_score"}));
    std::vector<double> d(static_cast<std::size_t>(decay.rows * decay.cols));
    decay.fill(0, decay.rows, d.data());
    QCOMPARE(d[3 * 77 + 2], c.xpos[77]);
    const pe::Table f = pe::frequencyTable(enc);
    QCOMPARE(f.columnHeaders.back(), std::string("xpos_zeta"));
    std::vector<double> fv(static_cast<std::size_t>(f.rows * f.cols));
    f.fill(0, f.rows, fv.data());
    QVERIFY(std::abs(fv[static_cast<std::size_t>(f.cols - 1)] - 0.4 / 1.4) < 1e-15);

    QVERIFY(pe::xposNeedsCausal(p, true).empty());
    QVERIFY(QString::fromStdString(pe::xposNeedsCausal(p, false)).contains(QStringLiteral("check causal")));
    p.xposScaleBase = 0;
    QVERIFY(pe::xposNeedsCausal(p, false).empty());
    // Rows far into a long causal window: the keys after t (masked) scale up past any double, the
    // seen ones weigh as their scores say, each row summing to 1.
    p.xposScaleBase = 512;
    p.seqLen = 4000;
    pe::AttentionSettings causal;
    causal.causal = true;
    const pe::PositionalAttention a(pe::Encoding(p), causal);
    for (std::int64_t t : {0, 1, 1999, 3999}) {
        std::vector<double> row(4000);
        a.row(t, 0, 4000, row.data());
        double sum = 0;
        for (double w : row) {
            QVERIFY(std::isfinite(w));
            sum += w;
        }
        QVERIFY2(std::abs(sum - 1) < 1e-12, qPrintable(QString::number(t)));
    }
    p.xposScaleBase = 0.5;
    QCOMPARE(pe::validate(p)->field, pe::Field::XposScaleBase);
}

void TestAttention::nopeLayerAndItsTemperature()
{
    // Llama 4's NoPE layer: no position in its score, so each key it sees weighs the same (1/(t - first
    // + 1) under the mask); the temperature ln(floor((t + 1)/8192) + 1)·0.1 + 1 steps at t + 1 = 8192·k;
    // the export; a RoPE layer of the same model is unchanged.
    pe::EncodingParams p = rope(16);
    p.nopeInterval = 4;
    QVERIFY(!pe::validate(p));
    QVERIFY(pe::hasNopeLayers(p));
    const pe::Encoding enc(p);
    pe::AttentionSettings settings;
    settings.causal = true;
    settings.layer = pe::LayerKind::Nope;
    const pe::PositionalAttention a(enc, settings);
    for (std::int64_t t = p.startPos; t < p.startPos + p.seqLen; ++t)
        for (std::int64_t s = p.startPos; s < p.startPos + p.seqLen; ++s)
            QVERIFY(std::abs(a.weight(t, s) - (s <= t ? 1.0 / static_cast<double>(t - p.startPos + 1) : 0.0)) < 1e-15);
    settings.layer = pe::LayerKind::Global;
    const pe::PositionalAttention ropeLayer(enc, settings);
    pe::EncodingParams plain = p;
    plain.nopeInterval = 0;
    const pe::PositionalAttention same(pe::Encoding(plain), settings);
    QCOMPARE(ropeLayer.weight(20, 11), same.weight(20, 11));

    QCOMPARE(pe::llama4Temperature(0, p), 1.0);
    QCOMPARE(pe::llama4Temperature(8190, p), 1.0);
    QCOMPARE(pe::llama4Temperature(8191, p), std::log(2.0) * 0.1 + 1);
    QCOMPARE(pe::llama4Temperature(3 * 8192 - 1, p), std::log(4.0) * 0.1 + 1);
    p.seqLen = 3;
    p.startPos = 8190;
    const pe::Table t = pe::temperatureTable(p);
    QCOMPARE(t.columnHeaders, (std::vector<std::string>{"temperature"}));
    std::vector<double> v(3);
    t.fill(0, 3, v.data());
    QCOMPARE(v, (std::vector<double>{1.0, std::log(2.0) * 0.1 + 1, std::log(2.0) * 0.1 + 1}));
    QCOMPARE(t.indexOf(0), 8190);
    // The temperature's parameters apply with NoPE layers; RoPE's alone.
    p.nopeInterval = 0;
    QVERIFY(!pe::takes(p, pe::Field::FloorScale));
    QVERIFY(
        QString::fromStdString(pe::notApplicable(p, pe::Field::AttnScale)).contains(QStringLiteral("--nope-interval")));
    p.scheme = pe::SchemeId::Alibi;
    QVERIFY(QString::fromStdString(pe::notApplicable(p, pe::Field::NopeInterval)).contains(QStringLiteral("rope")));
}

void TestAttention::localLayerRowsAgainstDirect_data()
{
    QTest::addColumn<bool>("causal");
    QTest::addColumn<bool>("local");
    QTest::addColumn<double>("localBase");
    QTest::newRow("local causal") << true << true << 100.0;
    QTest::newRow("local both sides") << false << true << 100.0;
    QTest::newRow("local, the global base") << true << true << 0.0;
    QTest::newRow("global causal") << true << false << 100.0;
}

void TestAttention::localLayerRowsAgainstDirect()
{
    // Gemma's two kinds of layer: a global one is the encoding's RoPE (base 1e4, linear x8, every
    // key); a local one turns at the local base without the scaling and sees the keys within the
    // sliding window (t - W < s <= t causal, |t - s| < W otherwise): written out here with q = k = ones.
    QFETCH(bool, causal);
    QFETCH(bool, local);
    QFETCH(double, localBase);
    pe::EncodingParams p = rope(20, pe::RopeScaling::Linear, 8);
    p.localBase = localBase;
    p.slidingWindow = 6;
    QVERIFY(!pe::validate(p));
    QVERIFY(pe::hasLocalLayers(p));
    const pe::Encoding enc(p);
    pe::AttentionSettings settings;
    settings.causal = causal;
    settings.layer = local ? pe::LayerKind::Local : pe::LayerKind::Global;
    const pe::PositionalAttention a(enc, settings);
    const std::vector<double> theta =
        local ? pe::ropeFrequencies(localBase > 0 ? localBase : p.base, p.dModel, pe::RopeScalingParams{}, 0)
              : pe::ropeFrequencies(p.base, p.dModel, p.rope, 0);
    compareRows(
        a, p,
        [&](std::int64_t t, std::int64_t s) {
            if (local && (t - s >= p.slidingWindow || s - t >= p.slidingWindow))
                return -std::numeric_limits<double>::infinity();
            double dot = 0; // Σ_i Re[(1 + i) conj(1 + i) e^{i(t - s)θ_i}] = Σ_i 2 cos((t - s)θ_i)
            for (double th : theta)
                dot += 2 * std::cos(static_cast<double>(t - s) * th);
            return dot / std::sqrt(static_cast<double>(p.dModel));
        },
        causal, 1e-12);
    compareRealRows(
        a, p,
        [&](double t, std::int64_t s) {
            double dot = 0;
            for (double th : theta)
                dot += 2 * std::cos((t - static_cast<double>(s)) * th);
            return dot / std::sqrt(static_cast<double>(p.dModel));
        },
        causal, 1e-12, local ? p.slidingWindow : 0);
    for (std::int64_t t = p.startPos; t < p.startPos + p.seqLen; ++t) {
        double sum = 0;
        for (std::int64_t s = p.startPos; s < p.startPos + p.seqLen; ++s) {
            QCOMPARE(a.masked(t, s), (causal && s > t) || (local && std::abs(t - s) >= p.slidingWindow));
            sum += a.weight(t, s);
        }
        QVERIFY(std::abs(sum - 1) < 1e-12);
    }
    // The local layers' encoding: the local base, no scaling, the same pairs; no layers of their own.
    const pe::EncodingParams l = pe::localLayers(p);
    QCOMPARE(l.base, localBase > 0 ? localBase : p.base);
    QCOMPARE(l.rope.scaling, pe::RopeScaling::None);
    QVERIFY(!pe::hasLocalLayers(l));
    QCOMPARE(pe::localLayersText(p), std::string(localBase > 0 ? "local layers: base 100, no scaling, window 6"
                                                               : "local layers: base 10000, no scaling, window 6"));
    // The frequencies export adds the local θ and wavelength to every pair.
    const pe::Table f = pe::frequencyTable(enc);
    QCOMPARE(f.cols, 10);
    QCOMPARE(f.columnHeaders[8], std::string("omega_local"));
    std::vector<double> values(static_cast<std::size_t>(f.rows * f.cols));
    f.fill(0, f.rows, values.data());
    const std::vector<double> localTheta =
        pe::ropeFrequencies(localBase > 0 ? localBase : p.base, p.dModel, pe::RopeScalingParams{}, 0);
    for (std::int64_t i = 0; i < f.rows; ++i) {
        QCOMPARE(values[static_cast<std::size_t>(i * 10 + 8)], localTheta[static_cast<std::size_t>(i)]);
        QCOMPARE(values[static_cast<std::size_t>(i * 10 + 9)],
                 pe::wavelengthOf(localTheta[static_cast<std::size_t>(i)]));
    }
}

void TestAttention::alibiRowsAgainstDirect()
{
    pe::EncodingParams p;
    p.scheme = pe::SchemeId::Alibi;
    p.seqLen = 60;
    p.startPos = 5;
    p.heads = 12;
    for (int head : {1, 9, 12}) {
        p.head = head;
        const double m = pe::alibiSlopes(12)[static_cast<std::size_t>(head - 1)];
        for (bool causal : {false, true}) {
            const pe::PositionalAttention a(pe::Encoding(p), {pe::QueryKey::Ones, 0, causal});
            compareRows(
                a, p, [m](std::int64_t t, std::int64_t s) { return -m * std::abs(static_cast<double>(t - s)); }, causal,
                1e-14);
            compareRealRows(
                a, p, [m](double t, std::int64_t s) { return -m * std::abs(t - static_cast<double>(s)); }, causal,
                1e-14);
        }
    }
}

void TestAttention::t5BiasTableRowsAgainstDirect()
{
    // T5's learned bias (T5Attention.compute_bias): query t's logit for key s is the table's value
    // at bucket(s - t) in the head's column, the encoder's buckets or (causal) the decoder's, no
    // 1/√d; a [buckets, heads] array as the checkpoint stores relative_attention_bias.weight.
    const int buckets = 10, heads = 3;
    std::string bytes = pe::npyHeader({buckets, heads});
    std::vector<double> values;
    for (int i = 0; i < buckets * heads; ++i) {
        values.push_back(4 * std::sin(1.3 * i) - 0.1 * i);
        bytes.append(reinterpret_cast<const char *>(&values.back()), sizeof(double));
    }
    pe::EncodingParams p;
    p.scheme = pe::SchemeId::T5;
    p.seqLen = 70;
    p.startPos = 4;
    p.buckets = buckets;
    p.maxDistance = 20;
    p.biasTable =
        pe::PositionTable::fromBytes(reinterpret_cast<const unsigned char *>(bytes.data()), bytes.size(), "bias.npy");
    QVERIFY(!pe::validate(p));
    for (int head : {1, 3}) {
        p.head = head;
        for (bool causal : {false, true}) {
            const pe::T5Buckets b{buckets, p.maxDistance, !causal};
            compareRows(
                pe::PositionalAttention(pe::Encoding(p), {pe::QueryKey::Ones, 0, causal}), p,
                [&](std::int64_t t, std::int64_t s) {
                    return values[static_cast<std::size_t>(pe::t5Bucket(s - t, b) * heads + head - 1)];
                },
                causal, 1e-14);
        }
    }
    // The table must be T5's, one row a bucket, the head one of its columns.
    pe::EncodingParams q = p;
    q.buckets = 12;
    QVERIFY(pe::validate(q) && pe::validate(q)->field == pe::Field::Buckets);
    q = p;
    q.head = 4;
    QVERIFY(pe::validate(q) && pe::validate(q)->message.find("3 heads") != std::string::npos);
    q = p;
    q.scheme = pe::SchemeId::Alibi;
    QVERIFY(pe::validate(q) && pe::validate(q)->field == pe::Field::Scheme);
    q = p;
    q.biasTable.reset();
    q.head = 2;
    QVERIFY(pe::validate(q) && pe::validate(q)->message.find("--bias-table") != std::string::npos);
}

void TestAttention::tableTakesTheMatrixPathAndAgrees()
{
    // The sinusoids written to a file and opened as a table: the N x N path must give the offset
    // path's weights.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sin.npy"));
    pe::EncodingParams sp;
    sp.seqLen = 90;
    sp.dModel = 16;
    const pe::Encoding sin(sp);
    std::string error;
    QVERIFY2(pe::writeTable(pe::encodingTable(sin), path.toStdString(), pe::DataFormat::Npy, error), error.c_str());
    const pe::Encoding table(pe::tableParams({}, pe::PositionTable::open(path.toStdString())));
    QVERIFY(!pe::PositionalAttention::offsetOnly(table.params()));
    for (bool causal : {false, true}) {
        const pe::PositionalAttention offset(sin, {pe::QueryKey::Ones, 0, causal});
        const pe::PositionalAttention matrix(table, {pe::QueryKey::Ones, 0, causal});
        for (std::int64_t t = 0; t < 90; t += 11)
            for (std::int64_t s = 0; s < 90; ++s)
                QVERIFY(std::abs(offset.weight(t, s) - matrix.weight(t, s)) < 1e-13);
    }
}

void TestAttention::longWindowRowsSumToOne()
{
    // 300,000 positions: each row's softmax sum is a difference of prefix sums over 600,000 offsets.
    pe::EncodingParams p = rope(8);
    p.seqLen = 300'000;
    p.startPos = 0;
    for (pe::QueryKey qk : pe::kQueryKeys) {
        const pe::PositionalAttention a(pe::Encoding(p), {qk, 3, false});
        std::vector<double> row(static_cast<std::size_t>(p.seqLen));
        for (std::int64_t t : {std::int64_t{0}, std::int64_t{150'000}, p.seqLen - 1}) {
            a.row(t, 0, p.seqLen, row.data());
            long double sum = 0;
            for (double w : row)
                sum += w;
            QVERIFY2(std::abs(static_cast<double>(sum) - 1) < 1e-9, qPrintable(QString::number(double(sum) - 1)));
        }
    }
}

void TestAttention::rebasedIsTheWindowBuiltThere()
{
    // A start_pos step keeps the scores per offset and moves the window: the same weights, bit for
    // bit, as attention built at the new start (RoPE with random q, k, causal; the sinusoids; ALiBi).
    pe::EncodingParams r = rope(16);
    r.seqLen = 300;
    pe::EncodingParams sinusoids = r;
    sinusoids.scheme = pe::SchemeId::Sinusoidal;
    pe::EncodingParams alibi = r;
    alibi.scheme = pe::SchemeId::Alibi;
    for (const pe::EncodingParams &p : {r, sinusoids, alibi}) {
        const pe::AttentionSettings s{pe::QueryKey::Random, 5, true};
        pe::EncodingParams moved = p;
        moved.startPos = p.startPos + 1'234;
        const pe::PositionalAttention built(pe::Encoding(moved), s);
        const pe::PositionalAttention rebased = pe::PositionalAttention(pe::Encoding(p), s).rebased(moved.startPos);
        // And built over an old attention's buffers (the view's rebuild): the same weights too.
        pe::PositionalAttention old(pe::Encoding(p), s);
        const pe::PositionalAttention recycled(pe::Encoding(moved), s, &old);
        QCOMPARE(rebased.firstPosition(), moved.startPos);
        for (std::int64_t t : {moved.startPos, moved.startPos + 17, moved.startPos + 299})
            for (std::int64_t u : {moved.startPos, moved.startPos + 5, moved.startPos + 17, moved.startPos + 299}) {
                QCOMPARE(rebased.weight(t, u), built.weight(t, u));
                QCOMPARE(rebased.logit(t, u), built.logit(t, u));
                QCOMPARE(recycled.weight(t, u), built.weight(t, u));
            }
    }
    // A table's N x N scores belong to their window.
    pe::EncodingParams index = r;
    index.scheme = pe::SchemeId::Sinusoidal;
    index.exponent = pe::Exponent::Index;
    QVERIFY_THROWS_EXCEPTION(std::logic_error, pe::PositionalAttention(pe::Encoding(index), {}).rebased(7));
}

void TestAttention::decayCurvesAgainstRopeDecay()
{
    // The curves from the fast fill against ropeDecay's direct sums, at θ' of a scaling (YaRN: the
    // factor on cos and sin is not part of RoFormer's decay); and the random mean and deviation
    // against the samples written out.
    const pe::EncodingParams p = rope(32, pe::RopeScaling::Yarn, 8);
    const pe::Encoding enc(p);
    const std::vector<double> theta = pe::ropeFrequencies(p.base, p.dModel, p.rope, p.startPos + p.seqLen);
    const pe::RopeDecayCurves c = pe::ropeDecayCurves(enc, 500, 3, 5);
    QCOMPARE(c.score.size(), std::size_t(500));
    for (std::int64_t k : {0, 1, 17, 250, 499}) {
        const pe::RopeDecay want = pe::ropeDecay(theta, k);
        QVERIFY(std::abs(c.score[static_cast<std::size_t>(k)] - want.score) < 1e-11);
        QVERIFY(std::abs(c.bound[static_cast<std::size_t>(k)] - want.bound) < 1e-11);
        std::vector<double> scores;
        for (int j = 0; j < 3; ++j) {
            const auto q = pe::queryKeyVector(pe::QueryKey::Random, p.dModel, 5, 2 * j);
            const auto kk = pe::queryKeyVector(pe::QueryKey::Random, p.dModel, 5, 2 * j + 1);
            double score = 0;
            for (int i = 0; i < p.dModel / 2; ++i) {
                const std::complex<double> qz(q[2 * i], q[2 * i + 1]), kz(kk[2 * i], kk[2 * i + 1]);
                score += (qz * std::conj(kz) * std::polar(1.0, static_cast<double>(k) * theta[i])).real();
            }
            scores.push_back(score);
        }
        const double mean = std::accumulate(scores.begin(), scores.end(), 0.0) / 3;
        double var = 0;
        for (double s : scores)
            var += (s - mean) * (s - mean);
        QVERIFY(std::abs(c.mean[static_cast<std::size_t>(k)] - mean) < 1e-11);
        QVERIFY(std::abs(c.sd[static_cast<std::size_t>(k)] - std::sqrt(var / 2)) < 1e-11);
    }
    // RoFormer's figure: the bound at k = 0 is (d/2 + 1)/2 and falls with the distance.
    QVERIFY(std::abs(c.bound[0] - (16 + 1) / 2.0) < 1e-12);
    QVERIFY(c.bound[400] < c.bound[0] / 2);
}

void TestAttention::tooLargeSaysWhy()
{
    pe::EncodingParams p;
    p.seqLen = 1'000'000;
    p.dModel = 4096;
    QVERIFY(QString::fromStdString(pe::PositionalAttention::tooLarge(p)).contains(QStringLiteral("268,435,456")));
    p.dModel = 128;
    QVERIFY(pe::PositionalAttention::tooLarge(p).empty());
    p.exponent = pe::Exponent::Index; // the N x N path
    QVERIFY(QString::fromStdString(pe::PositionalAttention::tooLarge(p)).contains(QStringLiteral("4,096 positions")));
    pe::EncodingParams a;
    a.scheme = pe::SchemeId::Alibi;
    a.seqLen = 1'000'000;
    QVERIFY(pe::PositionalAttention::tooLarge(a).empty());
}

void TestAttention::exportsHaveTheirColumns()
{
    const pe::EncodingParams p = rope(16, pe::RopeScaling::Linear, 2);
    const pe::Encoding enc(p);
    const pe::Table f = pe::frequencyTable(enc);
    QCOMPARE(f.indexHeader, std::string("pair"));
    QCOMPARE(f.columnHeaders, (std::vector<std::string>{"omega", "wavelength", "omega_unscaled", "wavelength_unscaled",
                                                        "ratio", "regime", "rescale", "attention_factor"}));
    std::vector<double> values(static_cast<std::size_t>(f.rows * f.cols));
    f.fill(0, f.rows, values.data());
    QCOMPARE(values[0], 0.5);                                               // θ_0 = 1, divided by 2
    QCOMPARE(values[4], 0.5);                                               // the ratio
    QCOMPARE(values[5], static_cast<double>(pe::PairRegime::Interpolated)); // every pair under linear
    QCOMPARE(values[6], 2.0);                                               // what θ was divided by
    QCOMPARE(values[7], 1.0);                                               // no factor on cos and sin

    const pe::Table slopes = pe::slopesTable(6);
    QCOMPARE(slopes.indexHeader, std::string("head"));
    QCOMPARE(slopes.rows, 6);
    QCOMPARE(slopes.indexOf(0), 1);
    const pe::Table decay = pe::ropeDecayTable(enc);
    QCOMPARE(decay.columnHeaders, (std::vector<std::string>{"score", "bound"}));
    QCOMPARE(decay.rows, p.seqLen);
    std::vector<double> d(static_cast<std::size_t>(decay.rows * 2));
    decay.fill(0, decay.rows, d.data());
    QCOMPARE(d[0], 16.0); // Σ 2·cos(0) over 8 pairs
}

void TestAttention::schemeParametersAndRefusals()
{
    const pe::SchemeParameter *factor = pe::schemeParameter(pe::Field::Factor);
    QVERIFY(factor);
    QCOMPARE(factor->flag(), std::string("factor"));
    QCOMPARE(pe::schemeParameter(pe::Field::OriginalContext)->flag(), std::string("original-context"));
    std::string error;
    QVERIFY(!pe::parseParameter(*factor, "0.5", &error));
    QCOMPARE(error, std::string("factor must be a number from 1 to 1e6 (got '0.5')."));
    QCOMPARE(*pe::parseParameter(*pe::schemeParameter(pe::Field::Scaling), "dynamic-ntk", nullptr),
             static_cast<double>(pe::RopeScaling::DynamicNtk));
    QVERIFY(!pe::parseParameter(*pe::schemeParameter(pe::Field::Scaling), "NTK", nullptr));
    QVERIFY(!pe::parseParameter(*pe::schemeParameter(pe::Field::Heads), "2.5", nullptr));

    pe::EncodingParams p = rope(16);
    QVERIFY(!pe::takes(p, pe::Field::Factor)); // no scaling: no factor
    QVERIFY(pe::takes(p, pe::Field::OriginalContext));
    p.rope.scaling = pe::RopeScaling::Yarn;
    QVERIFY(pe::takes(p, pe::Field::Factor) && pe::takes(p, pe::Field::BetaFast));
    QVERIFY(!pe::takes(p, pe::Field::LowFreqFactor));
    QVERIFY(QString::fromStdString(pe::notApplicable(p, pe::Field::LowFreqFactor)).contains(QStringLiteral("llama3")));
    p.rope.betaSlow = 40;
    QCOMPARE(pe::validate(p)->field, pe::Field::BetaFast);
    p.rope.betaSlow = 1;
    p.dModel = 15;
    QCOMPARE(pe::validate(p)->field, pe::Field::DModel);
    p.dModel = 2;
    p.rope.scaling = pe::RopeScaling::Ntk;
    QVERIFY(QString::fromStdString(pe::validate(p)->message).contains(QStringLiteral("at least 4")));
    pe::EncodingParams a;
    a.scheme = pe::SchemeId::Alibi;
    a.heads = 4;
    a.head = 5;
    QCOMPARE(pe::validate(a)->field, pe::Field::Head);
    pe::EncodingParams s;
    QVERIFY(QString::fromStdString(pe::notApplicable(s, pe::Field::Heads)).contains(QStringLiteral("alibi")));
    QVERIFY(QString::fromStdString(pe::notApplicable(s, pe::Field::Factor)).contains(QStringLiteral("rope")));
    // Gemma's local layers: a base above 1 or 0 (none), a window of 0 (none) or more; RoPE's.
    QCOMPARE(QString::fromStdString(pe::notApplicable(s, pe::Field::LocalBase)),
             QStringLiteral("local_base is RoPE's (Gemma's sliding-window layers): choose the scheme rope."));
    pe::EncodingParams g = rope(16);
    g.localBase = 0.5;
    QCOMPARE(pe::validate(g)->field, pe::Field::LocalBase);
    QCOMPARE(pe::validate(g)->message,
             std::string("local_base must be 0 (none) or a base greater than 1 and at most 1e15 (got 0.5)."));
    g.localBase = 1e4;
    QVERIFY(!pe::validate(g));
    g.slidingWindow = -1;
    QCOMPARE(pe::validate(g)->field, pe::Field::SlidingWindow);
    g.slidingWindow = 0;
    QVERIFY(pe::hasLocalLayers(g));
    g.scheme = pe::SchemeId::Sinusoidal;
    QVERIFY(!pe::hasLocalLayers(g)); // the sinusoids have no layers of RoPE
}

void TestAttention::offsetKernelFindsRopesCosines()
{
    // The offset kernel sums each pair's cosine column: RoPE's come first in each pair. Once it
    // summed the sines and gave PE(t)·PE(t) = 0 and distances of 4 on the diagonal.
    for (pe::Layout layout : pe::kLayouts) {
        const pe::EncodingParams p = rope(16, pe::RopeScaling::Linear, 2, layout);
        const pe::Encoding enc(p);
        QVERIFY(pe::OffsetKernel::applies(p, {}));
        const pe::OffsetKernel kernel(enc, p.seqLen - 1);
        QVERIFY(std::abs(kernel(0) - 8.0) < 1e-12); // |PE(t)|² = d/2
        for (pe::Metric metric : {pe::Metric::Dot, pe::Metric::Cosine, pe::Metric::Euclidean}) {
            const auto fast = pe::similarityToReference(enc, {}, p.startPos + 10, metric, &kernel);
            const auto exact = pe::similarityToReference(enc, {}, p.startPos + 10, metric, nullptr);
            QCOMPARE(fast.size(), exact.size());
            // A distance near 0 is the square root of a rounding error (about 1e-14): 1e-7 apart.
            const double tolerance = metric == pe::Metric::Euclidean ? 1e-6 : 1e-10;
            for (std::size_t i = 0; i < fast.size(); ++i)
                QVERIFY2(std::abs(fast[i] - exact[i]) < tolerance,
                         qPrintable(QStringLiteral("%1 against %2").arg(fast[i]).arg(exact[i])));
        }
    }
}

void TestAttention::yarnHandsStayOnTheirFaces()
{
    // YaRN's factor lengthens cos and sin; a clock hand shows the direction, the circles' radius
    // is the factor.
    const pe::EncodingParams p = rope(16, pe::RopeScaling::Yarn, 16);
    const pe::Encoding enc(p);
    QVERIFY(enc.amplitude() > 1.2);
    QCOMPARE(pe::pairRadius(enc, 3), enc.amplitude());
    for (std::int64_t t : {0, 7, 30}) {
        const pe::Point tip = pe::handTip(enc, t, 2, pe::ClockFace::Clockwise);
        QVERIFY(std::abs(std::hypot(tip.x, tip.y) - 1) < 1e-12);
    }
}

QTEST_APPLESS_MAIN(TestAttention)
#include "tst_attention.moc"
