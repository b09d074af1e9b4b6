#include "encodings/encoding.h"
#include "encodings/rope.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <numbers>

// RoPE's frequencies under each context extension against the published values of the reference
// implementation (transformers' tests/utils/test_modeling_rope_utils.py: LlamaConfig, head dim 128,
// base 1e4, max_position_embeddings 2048, printed to 5 significant digits), ALiBi's slopes against
// the reference get_slopes, and RoFormer's decay against a direct rotation of q and k.
class TestRope : public QObject
{
    Q_OBJECT

  private slots:
    void defaultMatchesTransformers();
    void linearDividesByTheFactor();
    void dynamicMatchesTransformers();
    void yarnMatchesTransformers();
    void llama3MatchesTransformers();
    void yarnAsDeepSeekConfiguresIt();
    void yarnWithoutTruncation();
    void longRopeMatchesTransformers();
    void longRopeThroughTheEncoding();
    void proportionalMatchesTransformers();
    void partialRotaryAsGptNeoX();
    void ntkKeepsTheFirstPairAndScalesTheLast();
    void regimes();
    void refusals();
    void decayAgainstARotation();
    void alibiSlopesAsGetSlopes();
};

namespace {

constexpr int kDim = 128;
constexpr double kBase = 1e4;

// Printed to 5 significant digits: agreement to half a unit in the last digit, relative.
void compareToPrinted(const std::vector<double> &ours, const std::vector<double> &printed)
{
    QCOMPARE(ours.size(), printed.size());
    for (std::size_t i = 0; i < ours.size(); ++i)
        QVERIFY2(std::abs(ours[i] - printed[i]) <= 5e-5 * printed[i],
                 qPrintable(QStringLiteral("pair %1: %2 against %3").arg(i).arg(ours[i], 0, 'g', 8).arg(printed[i])));
}

pe::RopeScalingParams scaling(pe::RopeScaling s, double factor)
{
    pe::RopeScalingParams p;
    p.scaling = s;
    p.factor = factor;
    p.originalContext = 2048;
    return p;
}

} // namespace

void TestRope::defaultMatchesTransformers()
{
    // test_default_rope_numerically, EXPECTED_INV_FREQ
    const std::vector<double> expected{
        1.0000e+00, 8.6596e-01, 7.4989e-01, 6.4938e-01, 5.6234e-01, 4.8697e-01, 4.2170e-01, 3.6517e-01,
        3.1623e-01, 2.7384e-01, 2.3714e-01, 2.0535e-01, 1.7783e-01, 1.5399e-01, 1.3335e-01, 1.1548e-01,
        1.0000e-01, 8.6596e-02, 7.4989e-02, 6.4938e-02, 5.6234e-02, 4.8697e-02, 4.2170e-02, 3.6517e-02,
        3.1623e-02, 2.7384e-02, 2.3714e-02, 2.0535e-02, 1.7783e-02, 1.5399e-02, 1.3335e-02, 1.1548e-02,
        1.0000e-02, 8.6596e-03, 7.4989e-03, 6.4938e-03, 5.6234e-03, 4.8697e-03, 4.2170e-03, 3.6517e-03,
        3.1623e-03, 2.7384e-03, 2.3714e-03, 2.0535e-03, 1.7783e-03, 1.5399e-03, 1.3335e-03, 1.1548e-03,
        1.0000e-03, 8.6596e-04, 7.4989e-04, 6.4938e-04, 5.6234e-04, 4.8697e-04, 4.2170e-04, 3.6517e-04,
        3.1623e-04, 2.7384e-04, 2.3714e-04, 2.0535e-04, 1.7783e-04, 1.5399e-04, 1.3335e-04, 1.1548e-04};
    compareToPrinted(pe::ropeFrequencies(kBase, kDim, {}, 1), expected);
    QCOMPARE(pe::ropeAttentionFactor({}), 1.0);
}

void TestRope::linearDividesByTheFactor()
{
    // test_linear_rope_numerically: inv_freq == default / factor, attention factor 1
    const std::vector<double> plain = pe::ropeFrequencies(kBase, kDim, {}, 1);
    for (double factor : {2.0, 10.0, 20.0}) {
        const auto p = scaling(pe::RopeScaling::Linear, factor);
        const std::vector<double> theta = pe::ropeFrequencies(kBase, kDim, p, 1);
        for (std::size_t i = 0; i < theta.size(); ++i)
            QCOMPARE(theta[i], plain[i] / factor);
        QCOMPARE(pe::ropeAttentionFactor(p), 1.0);
    }
}

void TestRope::dynamicMatchesTransformers()
{
    // test_dynamic_rope_numerically: unscaled up to the original context, and this at seq_len 16384
    const std::vector<double> plain = pe::ropeFrequencies(kBase, kDim, {}, 1);
    const auto p = scaling(pe::RopeScaling::DynamicNtk, 10.0);
    QCOMPARE(pe::ropeFrequencies(kBase, kDim, p, 1), plain);
    QCOMPARE(pe::ropeFrequencies(kBase, kDim, p, 2048), plain);
    const std::vector<double> expected{
        1.0000e+00, 8.0931e-01, 6.5498e-01, 5.3008e-01, 4.2900e-01, 3.4720e-01, 2.8099e-01, 2.2741e-01,
        1.8404e-01, 1.4895e-01, 1.2055e-01, 9.7558e-02, 7.8955e-02, 6.3899e-02, 5.1714e-02, 4.1853e-02,
        3.3872e-02, 2.7413e-02, 2.2185e-02, 1.7955e-02, 1.4531e-02, 1.1760e-02, 9.5176e-03, 7.7027e-03,
        6.2339e-03, 5.0451e-03, 4.0831e-03, 3.3045e-03, 2.6744e-03, 2.1644e-03, 1.7517e-03, 1.4176e-03,
        1.1473e-03, 9.2852e-04, 7.5146e-04, 6.0817e-04, 4.9220e-04, 3.9834e-04, 3.2238e-04, 2.6091e-04,
        2.1115e-04, 1.7089e-04, 1.3830e-04, 1.1193e-04, 9.0585e-05, 7.3312e-05, 5.9332e-05, 4.8018e-05,
        3.8861e-05, 3.1451e-05, 2.5453e-05, 2.0600e-05, 1.6672e-05, 1.3492e-05, 1.0920e-05, 8.8374e-06,
        7.1522e-06, 5.7883e-06, 4.6845e-06, 3.7912e-06, 3.0683e-06, 2.4832e-06, 2.0097e-06, 1.6265e-06};
    compareToPrinted(pe::ropeFrequencies(kBase, kDim, p, 16384), expected);
    QCOMPARE(pe::ropeAttentionFactor(p), 1.0);
}

void TestRope::yarnMatchesTransformers()
{
    // test_yarn_rope_numerically, check 3: factor 10, beta_fast 32, beta_slow 1
    const std::vector<double> expected{
        1.0000e+00, 8.6596e-01, 7.4989e-01, 6.4938e-01, 5.6234e-01, 4.8697e-01, 4.2170e-01, 3.6517e-01,
        3.1623e-01, 2.7384e-01, 2.3714e-01, 2.0535e-01, 1.7783e-01, 1.5399e-01, 1.3335e-01, 1.1548e-01,
        1.0000e-01, 8.3479e-02, 6.9590e-02, 5.7925e-02, 4.8136e-02, 3.9931e-02, 3.3061e-02, 2.7315e-02,
        2.2515e-02, 1.8512e-02, 1.5177e-02, 1.2403e-02, 1.0101e-02, 8.1924e-03, 6.6143e-03, 5.3120e-03,
        4.2400e-03, 3.3599e-03, 2.6396e-03, 2.0520e-03, 1.5746e-03, 1.1882e-03, 8.7713e-04, 6.2810e-04,
        4.3007e-04, 2.7384e-04, 2.3714e-04, 2.0535e-04, 1.7783e-04, 1.5399e-04, 1.3335e-04, 1.1548e-04,
        1.0000e-04, 8.6596e-05, 7.4989e-05, 6.4938e-05, 5.6234e-05, 4.8697e-05, 4.2170e-05, 3.6517e-05,
        3.1623e-05, 2.7384e-05, 2.3714e-05, 2.0535e-05, 1.7783e-05, 1.5399e-05, 1.3335e-05, 1.1548e-05};
    const auto p = scaling(pe::RopeScaling::Yarn, 10.0);
    compareToPrinted(pe::ropeFrequencies(kBase, kDim, p, 1), expected);
    // Check 1: the attention factor 0.1·ln s + 1.
    for (double factor : {2.0, 10.0, 20.0})
        QCOMPARE(pe::ropeAttentionFactor(scaling(pe::RopeScaling::Yarn, factor)), 0.1 * std::log(factor) + 1.0);
    // Check 2: bounded by θ/s and θ; a very high beta_fast interpolates all but the first pair.
    auto wide = p;
    wide.betaFast = 1000;
    const std::vector<double> plain = pe::ropeFrequencies(kBase, kDim, {}, 1);
    const std::vector<double> theta = pe::ropeFrequencies(kBase, kDim, wide, 1);
    QCOMPARE(theta[0], plain[0]);
    for (std::size_t i = 1; i < theta.size(); ++i)
        QVERIFY(theta[i] < plain[i]);
    for (std::size_t i = theta.size() - 20; i < theta.size(); ++i)
        QVERIFY(std::abs(theta[i] - plain[i] / 10) < 1e-12);
}

// transformers' _compute_yarn_parameters with mscale and mscale_all_dim (DeepSeek-V2/V3 configs):
// attention factor get_mscale(s, mscale) / get_mscale(s, mscale_all_dim), get_mscale(s, m) =
// 0.1·m·ln s + 1; an explicit attention_factor wins (test_yarn_rope_numerically: 0.5); mscale alone
// is not used (the reference needs both).
void TestRope::yarnAsDeepSeekConfiguresIt()
{
    auto p = scaling(pe::RopeScaling::Yarn, 40.0);
    p.originalContext = 4096;
    p.mscale = 1.0;
    p.mscaleAllDim = 1.0; // DeepSeek-V3's config: the factors cancel
    QCOMPARE(pe::ropeAttentionFactor(p), 1.0);
    p.mscale = 0.707;
    p.mscaleAllDim = 0.707; // DeepSeek-V2's
    QCOMPARE(pe::ropeAttentionFactor(p), 1.0);
    p.mscale = 1.0;
    p.mscaleAllDim = 0.707;
    const double ln40 = std::log(40.0);
    QVERIFY(std::abs(pe::ropeAttentionFactor(p) - (0.1 * ln40 + 1) / (0.0707 * ln40 + 1)) < 1e-15);
    p.mscaleAllDim = 0; // not given: the plain get_mscale(s)
    QCOMPARE(pe::ropeAttentionFactor(p), 0.1 * ln40 + 1);
    p.attentionFactor = 0.5;
    QCOMPARE(pe::ropeAttentionFactor(p), 0.5);
    QCOMPARE(pe::yarnMscale(1.0, 3.0), 1.0);
    QCOMPARE(pe::yarnMscale(0.5), 1.0);
    // The frequencies do not depend on the attention factor.
    auto plain = scaling(pe::RopeScaling::Yarn, 40.0);
    plain.originalContext = 4096;
    QCOMPARE(pe::ropeFrequencies(kBase, kDim, p, 1), pe::ropeFrequencies(kBase, kDim, plain, 1));
}

// truncate = false (gpt-oss): the correction range is not floored and ceiled, so the ramp starts
// and ends between pairs. A direct implementation of find_correction_range without truncation.
void TestRope::yarnWithoutTruncation()
{
    auto p = scaling(pe::RopeScaling::Yarn, 10.0);
    p.truncate = false;
    const auto dim = [](double rotations) {
        return kDim * std::log(2048 / (rotations * 2 * std::numbers::pi)) / (2 * std::log(kBase));
    };
    const double low = std::max(0.0, dim(32)), high = std::min(kDim - 1.0, dim(1));
    QVERIFY(low != std::floor(low) && high != std::ceil(high)); // the case that differs
    const std::vector<double> plain = pe::ropeFrequencies(kBase, kDim, {}, 1);
    const std::vector<double> theta = pe::ropeFrequencies(kBase, kDim, p, 1);
    for (int i = 0; i < kDim / 2; ++i) {
        const double ramp = std::clamp((i - low) / (high - low), 0.0, 1.0);
        const double kept = 1 - ramp;
        const double expected = plain[i] / 10 * (1 - kept) + plain[i] * kept;
        QVERIFY2(std::abs(theta[i] - expected) <= 1e-15 * expected, qPrintable(QString::number(i)));
    }
    p.truncate = true;
    QVERIFY(pe::ropeFrequencies(kBase, kDim, p, 1) != theta);
}

// test_longrope_rope_numerically: short_factor 2 for every pair, long_factor 1, 2, ..., 64; the
// short list within L (2048, LlamaConfig's), the long one past it; attention factor
// sqrt(1 + ln s / ln L) for s in 2, 10, 20, and 0.5 when given.
void TestRope::longRopeMatchesTransformers()
{
    auto p = scaling(pe::RopeScaling::LongRope, 1.0);
    p.originalContext = 2048;
    p.shortFactor.assign(kDim / 2, 2.0);
    for (int i = 1; i <= kDim / 2; ++i)
        p.longFactor.push_back(i);
    const std::vector<double> plain = pe::ropeFrequencies(kBase, kDim, {}, 1);
    const std::vector<double> within = pe::ropeFrequencies(kBase, kDim, p, 2048);
    const std::vector<double> past = pe::ropeFrequencies(kBase, kDim, p, 2049);
    for (int i = 0; i < kDim / 2; ++i) {
        QCOMPARE(within[i], plain[i] / 2.0);
        QCOMPARE(past[i], plain[i] / (i + 1));
    }
    QCOMPARE(pe::ropeAttentionFactor(p), 1.0); // s = 1
    for (double factor : {2.0, 10.0, 20.0}) {
        p.factor = factor;
        QCOMPARE(pe::ropeAttentionFactor(p), std::sqrt(1 + std::log(factor) / std::log(2048.0)));
    }
    p.attentionFactor = 0.5;
    QCOMPARE(pe::ropeAttentionFactor(p), 0.5);
    QCOMPARE(pe::parseRopeScaling("longrope"), std::optional(pe::RopeScaling::LongRope));
}

// The encoding's columns under LongRoPE: cos and sin of t·θ_i/ext_i times the attention factor,
// against a direct computation; the long list takes over once start_pos + seq_len passes L.
void TestRope::longRopeThroughTheEncoding()
{
    pe::EncodingParams e;
    e.scheme = pe::SchemeId::Rope;
    e.dModel = 8;
    e.seqLen = 10;
    e.rope = scaling(pe::RopeScaling::LongRope, 32.0);
    e.rope.originalContext = 4096;
    e.rope.shortFactor = {1.0, 1.5, 2.0, 3.0};
    e.rope.longFactor = {1.0, 4.0, 16.0, 64.0};
    QVERIFY(!pe::validate(e));
    const double amplitude = std::sqrt(1 + std::log(32.0) / std::log(4096.0));
    const auto check = [&](const std::vector<double> &ext) {
        const pe::Encoding enc(e);
        for (std::int64_t t = e.startPos; t < e.startPos + e.seqLen; ++t)
            for (int i = 0; i < 4; ++i) {
                const double angle = static_cast<double>(t) * std::pow(kBase, -2.0 * i / 8) / ext[i];
                QVERIFY(std::abs(enc.value(t, 2 * i) - amplitude * std::cos(angle)) < 1e-12);
                QVERIFY(std::abs(enc.value(t, 2 * i + 1) - amplitude * std::sin(angle)) < 1e-12);
            }
    };
    check(e.rope.shortFactor);
    e.startPos = 4090; // 4090 + 10 > 4096: the long factors
    check(e.rope.longFactor);
    // A list of the wrong length is refused, naming it.
    e.rope.longFactor.pop_back();
    const auto error = pe::validate(e);
    QVERIFY(error && error->field == pe::Field::LongFactor);
    QVERIFY(error->message.find("d/2 = 4") != std::string::npos);
    // base 1e4 here: the encoding takes the window's base.
    QCOMPARE(e.base, kBase);
}

// test_proportional_rope_numerically (transformers, head dim 128, base 1e4): floor(F·d/2) pairs
// turn at base^(-2i/d), the exponent over the whole d, the rest are exactly 0; prf 1 with a factor
// is linear; a factor divides the turning pairs.
void TestRope::proportionalMatchesTransformers()
{
    const std::vector<double> plain = pe::ropeFrequencies(kBase, kDim, {}, 1);
    auto p = scaling(pe::RopeScaling::Proportional, 1.0);
    for (auto [fraction, angles] : {std::pair{0.5, 32}, std::pair{0.25, 16}, std::pair{1.0, 64}}) {
        p.rotaryFraction = fraction;
        const std::vector<double> theta = pe::ropeFrequencies(kBase, kDim, p, 1);
        QCOMPARE(theta.size(), std::size_t{64});
        QCOMPARE(pe::rotatedPairs(kDim, p), angles);
        for (int i = 0; i < 64; ++i)
            QCOMPARE(theta[i], i < angles ? plain[i] : 0.0);
    }
    // Check 5's snapshot (prf 0.25): the first sixteen printed values, then zeros.
    const std::vector<double> printed{1.0000e+00, 8.6596e-01, 7.4989e-01, 6.4938e-01, 5.6234e-01, 4.8697e-01,
                                      4.2170e-01, 3.6517e-01, 3.1623e-01, 2.7384e-01, 2.3714e-01, 2.0535e-01,
                                      1.7783e-01, 1.5399e-01, 1.3335e-01, 1.1548e-01};
    p.rotaryFraction = 0.25;
    std::vector<double> theta = pe::ropeFrequencies(kBase, kDim, p, 1);
    theta.resize(16);
    compareToPrinted(theta, printed);
    p.rotaryFraction = 1.0;
    p.factor = 10.0;
    QCOMPARE(pe::ropeFrequencies(kBase, kDim, p, 1),
             pe::ropeFrequencies(kBase, kDim, scaling(pe::RopeScaling::Linear, 10.0), 1));
    p.rotaryFraction = 0.5;
    p.factor = 2.0;
    const std::vector<double> halved = pe::ropeFrequencies(kBase, kDim, p, 1);
    for (int i = 0; i < 64; ++i)
        QCOMPARE(halved[i], i < 32 ? plain[i] / 2 : 0.0);
    QCOMPARE(pe::ropeAttentionFactor(p), 1.0);
    QCOMPARE(pe::ropeRegimes(kBase, kDim, p, 1)[40], pe::PairRegime::Unrotated);
    QCOMPARE(pe::ropeRegimes(kBase, kDim, p, 1)[0], pe::PairRegime::Interpolated);
}

// GPT-NeoX-20B (rotary_pct 0.25, head dim 96): int(96·0.25) = 24 dimensions rotate with
// θ_i = base^(-2i/24) (transformers' inv_freq over dim), the other pairs are the identity; a scaling
// runs over the rotary dimension (YaRN's correction range with d = 24); an odd rotary dimension is
// refused.
void TestRope::partialRotaryAsGptNeoX()
{
    pe::RopeScalingParams p;
    p.rotaryFraction = 0.25;
    const std::vector<double> theta = pe::ropeFrequencies(kBase, 96, p, 1);
    QCOMPARE(theta.size(), std::size_t{48});
    QCOMPARE(pe::rotaryDim(96, p), 24);
    for (int i = 0; i < 48; ++i)
        QCOMPARE(theta[i], i < 12 ? std::pow(kBase, -2.0 * i / 24) : 0.0);
    auto yarn = scaling(pe::RopeScaling::Yarn, 4.0);
    const std::vector<double> whole = pe::ropeFrequencies(kBase, 24, yarn, 1);
    yarn.rotaryFraction = 0.25;
    const std::vector<double> partial = pe::ropeFrequencies(kBase, 96, yarn, 1);
    for (int i = 0; i < 48; ++i)
        QCOMPARE(partial[i], i < 12 ? whole[i] : 0.0);

    pe::EncodingParams e;
    e.scheme = pe::SchemeId::Rope;
    e.dModel = 96;
    e.seqLen = 20;
    e.layout = pe::Layout::Split;
    e.rope.rotaryFraction = 0.25;
    QVERIFY(!pe::validate(e));
    const pe::Encoding enc(e);
    for (std::int64_t t = 0; t < 20; ++t)
        for (int i = 0; i < 48; ++i) {
            const double angle = static_cast<double>(t) * theta[i];
            QVERIFY(std::abs(enc.value(t, i) - std::cos(angle)) < 1e-12);      // cos in the first half
            QVERIFY(std::abs(enc.value(t, 48 + i) - std::sin(angle)) < 1e-12); // sin in the second
        }
    e.rope.rotaryFraction = 0.3; // int(96·0.3) = 28: even, allowed
    QVERIFY(!pe::validate(e));
    e.rope.rotaryFraction = 0.26; // int(96·0.26) = 24
    QVERIFY(!pe::validate(e));
    e.rope.rotaryFraction = 0.27; // int(25.92) = 25: odd
    const auto error = pe::validate(e);
    QVERIFY(error && error->field == pe::Field::RotaryFraction);
    QVERIFY2(error->message.find("= 25.") != std::string::npos, error->message.c_str());
    e.rope.rotaryFraction = 0.01; // int(0.96) = 0
    QVERIFY(pe::validate(e));
    // An attention factor scales the rotated pairs' cos and sin alone, as transformers scales the
    // rotated part (q_pass unscaled): the standing pairs stay cos 1, sin 0.
    e.rope.rotaryFraction = 0.25;
    e.rope.scaling = pe::RopeScaling::Yarn;
    e.rope.factor = 4;
    QVERIFY(!pe::validate(e));
    const pe::Encoding scaled(e);
    const double amp = pe::ropeAttentionFactor(e.rope);
    QVERIFY(amp > 1.1);
    const std::vector<double> yarnTheta = pe::ropeFrequencies(kBase, 96, e.rope, 20);
    std::vector<double> filled(20 * 96);
    scaled.fill(scaled.windowBlock(), filled.data());
    for (std::int64_t t = 0; t < 20; ++t)
        for (int i = 0; i < 48; ++i) {
            const double angle = static_cast<double>(t) * yarnTheta[static_cast<std::size_t>(i)];
            const double a = i < 12 ? amp : 1.0;
            QVERIFY(std::abs(scaled.value(t, i) - a * std::cos(angle)) < 1e-12);
            QVERIFY(std::abs(scaled.value(t, 48 + i) - a * std::sin(angle)) < 1e-12);
            QVERIFY(std::abs(filled[static_cast<std::size_t>(t * 96 + i)] - scaled.value(t, i)) < 1e-12);
            QCOMPARE(scaled.pairAmplitude(i), a);
        }
}

void TestRope::llama3MatchesTransformers()
{
    // test_llama3_rope_numerically, check 3: factor 10, original context 2048, low 1, high 4
    const std::vector<double> expected{
        1.0000e+00, 8.6596e-01, 7.4989e-01, 6.4938e-01, 5.6234e-01, 4.8697e-01, 4.2170e-01, 3.6517e-01,
        3.1623e-01, 2.7384e-01, 2.3714e-01, 2.0535e-01, 1.7783e-01, 1.5399e-01, 1.3335e-01, 1.1548e-01,
        1.0000e-01, 8.6596e-02, 7.4989e-02, 6.4938e-02, 5.6234e-02, 4.8697e-02, 4.2170e-02, 3.6517e-02,
        3.1623e-02, 2.7384e-02, 2.3714e-02, 2.0535e-02, 1.7783e-02, 1.5399e-02, 1.3335e-02, 1.0730e-02,
        7.7785e-03, 5.6009e-03, 3.9991e-03, 2.8248e-03, 1.9675e-03, 1.3449e-03, 8.9549e-04, 5.7363e-04,
        3.4539e-04, 2.7384e-04, 2.3714e-04, 2.0535e-04, 1.7783e-04, 1.5399e-04, 1.3335e-04, 1.1548e-04,
        1.0000e-04, 8.6596e-05, 7.4989e-05, 6.4938e-05, 5.6234e-05, 4.8697e-05, 4.2170e-05, 3.6517e-05,
        3.1623e-05, 2.7384e-05, 2.3714e-05, 2.0535e-05, 1.7783e-05, 1.5399e-05, 1.3335e-05, 1.1548e-05};
    const auto p = scaling(pe::RopeScaling::Llama3, 10.0);
    compareToPrinted(pe::ropeFrequencies(kBase, kDim, p, 1), expected);
    QCOMPARE(pe::ropeAttentionFactor(p), 1.0);
    // A very high high_freq_factor leaves no pair unscaled.
    auto all = p;
    all.highFreqFactor = 1000;
    const std::vector<double> plain = pe::ropeFrequencies(kBase, kDim, {}, 1);
    const std::vector<double> theta = pe::ropeFrequencies(kBase, kDim, all, 1);
    for (std::size_t i = 0; i < theta.size(); ++i)
        QVERIFY(theta[i] < plain[i]);
}

void TestRope::ntkKeepsTheFirstPairAndScalesTheLast()
{
    // base' = base·s^(d/(d-2)): θ_0 stays 1 and θ_{d/2-1} = base'^(-(d-2)/d) = θ_{d/2-1} / s.
    const auto p = scaling(pe::RopeScaling::Ntk, 8.0);
    const std::vector<double> plain = pe::ropeFrequencies(kBase, kDim, {}, 1);
    const std::vector<double> theta = pe::ropeFrequencies(kBase, kDim, p, 1);
    QCOMPARE(theta.front(), 1.0);
    QVERIFY(std::abs(theta.back() - plain.back() / 8.0) < 1e-15);
}

void TestRope::regimes()
{
    using R = pe::PairRegime;
    const auto yarn = pe::ropeRegimes(kBase, kDim, scaling(pe::RopeScaling::Yarn, 10.0), 1);
    QCOMPARE(yarn[16], R::Kept); // the ramp starts at floor(16.13)
    QCOMPARE(yarn[17], R::Blended);
    QCOMPARE(yarn[41], R::Interpolated); // and ends at ceil(40.21)
    const auto linear = pe::ropeRegimes(kBase, kDim, scaling(pe::RopeScaling::Linear, 4.0), 1);
    for (R r : linear)
        QCOMPARE(r, R::Interpolated);
    // Dynamic NTK at 4 x L with s = 2: base grows by (2·4 − 1)^(d/(d−2)), so the last pairs slow by
    // about 7, more than s: beyond θ/s, not a blend of θ and θ/s.
    pe::RopeScalingParams dynamic = scaling(pe::RopeScaling::DynamicNtk, 2.0);
    const auto grown = pe::ropeRegimes(kBase, kDim, dynamic, 4 * dynamic.originalContext);
    QCOMPARE(grown.front(), R::Kept);
    QCOMPARE(grown.back(), R::Beyond);
    QCOMPARE(grown[8], R::Blended);
    const auto none = pe::ropeRegimes(kBase, kDim, {}, 1);
    for (R r : none)
        QCOMPARE(r, R::Kept);
}

void TestRope::refusals()
{
    auto p = scaling(pe::RopeScaling::Yarn, 0.5);
    QVERIFY(pe::validateRopeScaling(p));
    p.factor = 4;
    QVERIFY(!pe::validateRopeScaling(p));
    p.betaSlow = 40;
    QVERIFY(pe::validateRopeScaling(p)->find("beta_fast") != std::string::npos);
    p = scaling(pe::RopeScaling::Llama3, 8);
    p.highFreqFactor = 0.5;
    QVERIFY(pe::validateRopeScaling(p)->find("high_freq_factor") != std::string::npos);
    for (pe::RopeScaling s : pe::kRopeScalings)
        QCOMPARE(pe::parseRopeScaling(pe::ropeScalingName(s)), std::optional(s));
    QVERIFY(!pe::parseRopeScaling("dynamic"));
}

void TestRope::decayAgainstARotation()
{
    // (R_t q)·(R_s k) for q = k = all ones, each pair rotated by its angle: the score at k = t - s.
    const int d = 64;
    const std::vector<double> theta = pe::ropeFrequencies(kBase, d, {}, 1);
    for (std::int64_t t : {0, 3, 50, 700}) {
        const std::int64_t s = 1;
        double direct = 0;
        for (double w : theta) {
            const double a = t * w, b = s * w; // (1, 1) rotated by a and by b
            const double qx = std::cos(a) - std::sin(a), qy = std::sin(a) + std::cos(a);
            const double kx = std::cos(b) - std::sin(b), ky = std::sin(b) + std::cos(b);
            direct += qx * kx + qy * ky;
        }
        QVERIFY(std::abs(pe::ropeDecay(theta, t - s).score - direct) < 1e-10);
    }
    // At offset 0 every term is in phase: score d, bound (1/(d/2))·Σ j = (d/2 + 1)/2.
    QCOMPARE(pe::ropeDecay(theta, 0).score, double(d));
    QCOMPARE(pe::ropeDecay(theta, 0).bound, (d / 2 + 1) / 2.0);
    // The bound decays with the offset, as RoFormer's figure shows.
    QVERIFY(pe::ropeDecay(theta, 200).bound < pe::ropeDecay(theta, 10).bound);
}

void TestRope::alibiSlopesAsGetSlopes()
{
    // get_slopes(8): 2^-1 ... 2^-8.
    const std::vector<double> eight = pe::alibiSlopes(8);
    for (int h = 1; h <= 8; ++h)
        QCOMPARE(eight[static_cast<std::size_t>(h - 1)], std::exp2(-h));
    // get_slopes(6): the 4-head slopes 2^-2, 2^-4, 2^-6, 2^-8, then get_slopes(8)[0::2][:2] = 2^-1, 2^-3.
    QCOMPARE(pe::alibiSlopes(6), (std::vector<double>{0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125}));
    // get_slopes(12): the 8-head slopes, then get_slopes(16)[0::2][:4] = 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5.
    const std::vector<double> twelve = pe::alibiSlopes(12);
    QCOMPARE(twelve.size(), std::size_t(12));
    for (int h = 1; h <= 8; ++h)
        QCOMPARE(twelve[static_cast<std::size_t>(h - 1)], std::exp2(-h));
    for (int k = 0; k < 4; ++k)
        QCOMPARE(twelve[static_cast<std::size_t>(8 + k)], std::exp2(-0.5 - k));
    // Not the paper's text formula 2^(-8h/12) for 12 heads: the reference interleaves.
    QVERIFY(std::abs(twelve[1] - std::exp2(-16.0 / 12)) > 1e-3);
    QVERIFY(pe::alibiSlopes(0).empty());
}

QTEST_APPLESS_MAIN(TestRope)
#include "tst_rope.moc"
