#include "encodings/rope.h"

#include "encodings/encoding_params.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

namespace pe {

std::string_view ropeScalingName(RopeScaling s)
{
    switch (s) {
    case RopeScaling::None:
        return "none";
    case RopeScaling::Linear:
        return "linear";
    case RopeScaling::Ntk:
        return "ntk";
    case RopeScaling::DynamicNtk:
        return "dynamic-ntk";
    case RopeScaling::Yarn:
        return "yarn";
    case RopeScaling::Llama3:
        return "llama3";
    case RopeScaling::LongRope:
        return "longrope";
    case RopeScaling::Proportional:
        return "proportional";
    }
    return "";
}

std::optional<RopeScaling> parseRopeScaling(std::string_view name)
{
    return parseName(kRopeScalings, ropeScalingName, name);
}

std::optional<std::string> validateRopeScaling(const RopeScalingParams &p)
{
    if (!std::isfinite(p.factor) || p.factor < 1.0 || p.factor > 1e6)
        return "factor must be a number from 1 to 1e6.";
    if (p.originalContext < 1 || p.originalContext > 1'000'000'000)
        return "original context must be a whole number from 1 to 1,000,000,000.";
    if (!(p.betaSlow > 0) || !(p.betaFast > p.betaSlow) || !std::isfinite(p.betaFast))
        return "beta_fast must be above beta_slow, and beta_slow above 0.";
    if (!(p.lowFreqFactor > 0) || !(p.highFreqFactor >= p.lowFreqFactor) || !std::isfinite(p.highFreqFactor))
        return "high_freq_factor must be at least low_freq_factor, and low_freq_factor above 0.";
    return std::nullopt;
}

namespace {

std::vector<double> plainFrequencies(double base, int d)
{
    std::vector<double> theta(static_cast<std::size_t>(d / 2));
    for (int i = 0; i < d / 2; ++i)
        theta[static_cast<std::size_t>(i)] = std::pow(base, -2.0 * i / d);
    return theta;
}

// YaRN's correction dimension: the pair index whose wavelength fits `rotations` times into L
// (transformers' find_correction_dim).
double correctionDim(double rotations, int d, double base, std::int64_t context)
{
    return d * std::log(static_cast<double>(context) / (rotations * 2 * std::numbers::pi)) / (2 * std::log(base));
}

// How much of pair i YaRN keeps (1: θ, 0: θ/s): one minus a linear ramp in the pair index between
// floor(dim(beta_fast)) and ceil(dim(beta_slow)), clamped to [0, d-1]; without truncate (gpt-oss)
// the range is not floored and ceiled. This is transformers' _compute_yarn_parameters
// (find_correction_range, linear_ramp_factor) and jquesnelle/yarn; the paper ramps on r = L/λ
// instead, which differs mid-ramp. The code is what models run.
std::vector<double> yarnKept(double base, int d, const RopeScalingParams &p)
{
    double low = correctionDim(p.betaFast, d, base, p.originalContext);
    double high = correctionDim(p.betaSlow, d, base, p.originalContext);
    if (p.truncate) {
        low = std::floor(low);
        high = std::ceil(high);
    }
    low = std::max(0.0, low);
    high = std::min(d - 1.0, high);
    if (high == low)
        high += 0.001; // the reference's guard against a zero-width ramp
    std::vector<double> kept(static_cast<std::size_t>(d / 2));
    for (int i = 0; i < d / 2; ++i)
        kept[static_cast<std::size_t>(i)] = 1.0 - std::clamp((i - low) / (high - low), 0.0, 1.0);
    return kept;
}

// Llama 3.1's share of θ kept for a wavelength (Meta's apply_scaling; transformers
// _compute_llama3_parameters): wavelengths below L/high_freq_factor kept (1), above
// L/low_freq_factor divided by s (0), between a smooth blend (L/λ - low)/(high - low).
double llama3Kept(double lambda, const RopeScalingParams &p)
{
    const double context = static_cast<double>(p.originalContext);
    if (lambda < context / p.highFreqFactor)
        return 1.0;
    // Equal factors (Llama 4's): no band, the one wavelength L/low divided by s (transformers' 0/0
    // there is no value at all).
    if (lambda > context / p.lowFreqFactor || p.highFreqFactor == p.lowFreqFactor)
        return 0.0;
    return (context / lambda - p.lowFreqFactor) / (p.highFreqFactor - p.lowFreqFactor);
}

} // namespace

double ntkBase(double base, int d, double s)
{
    return base * std::pow(s, d / (d - 2.0));
}

double dynamicNtkBase(double base, int d, const RopeScalingParams &p, std::int64_t length)
{
    if (length <= p.originalContext)
        return base;
    const double s = p.factor;
    return ntkBase(base, d, s * static_cast<double>(length) / static_cast<double>(p.originalContext) - (s - 1));
}

int rotaryDim(int d, const RopeScalingParams &p)
{
    if (p.scaling == RopeScaling::Proportional)
        return d;
    return static_cast<int>(d * p.rotaryFraction); // transformers: int(head_dim * partial_rotary_factor)
}

std::vector<double> xposZeta(int d, const RopeScalingParams &p)
{
    std::vector<double> zeta(static_cast<std::size_t>(d / 2), 1.0);
    const double D = rotaryDim(d, p);
    for (int i = 0; i < rotatedPairs(d, p) && i < d / 2; ++i)
        zeta[static_cast<std::size_t>(i)] = (2.0 * i + 0.4 * D) / (1.4 * D);
    return zeta;
}

int rotatedPairs(int d, const RopeScalingParams &p)
{
    if (p.scaling == RopeScaling::Proportional) // transformers: int(rope_proportion * head_dim // 2)
        return static_cast<int>(std::floor(p.rotaryFraction * d / 2));
    return rotaryDim(d, p) / 2;
}

RopeScalingParams unscaled(const RopeScalingParams &p)
{
    RopeScalingParams out;
    out.rotaryFraction = p.rotaryFraction;
    if (p.scaling == RopeScaling::Proportional) { // its exponent over the whole d, factor 1
        out.scaling = RopeScaling::Proportional;
        out.factor = 1;
    }
    return out;
}

std::vector<double> ropeFrequencies(double base, int d, const RopeScalingParams &p, std::int64_t length)
{
    // Partial rotary: the scaling's formula over the rotary dimension, the other pairs at 0
    // (transformers computes inv_freq over dim = int(head_dim · partial_rotary_factor)).
    if (const int dim = rotaryDim(d, p); dim != d) {
        RopeScalingParams whole = p;
        whole.rotaryFraction = 1.0;
        std::vector<double> theta = dim >= 2 ? ropeFrequencies(base, dim, whole, length) : std::vector<double>{};
        theta.resize(static_cast<std::size_t>(d / 2), 0.0);
        return theta;
    }
    const double s = p.factor;
    switch (p.scaling) {
    case RopeScaling::None:
        return plainFrequencies(base, d);
    case RopeScaling::Linear: { // transformers _compute_linear_scaling_rope_parameters: inv_freq / factor
        std::vector<double> theta = plainFrequencies(base, d);
        for (double &t : theta)
            t /= s;
        return theta;
    }
    case RopeScaling::Ntk: // NTK-aware (bloc97): base' = base·s^(d/(d-2)); pair 0 unchanged
        return plainFrequencies(ntkBase(base, d, s), d);
    case RopeScaling::DynamicNtk: // transformers _compute_dynamic_ntk_parameters, seq_len = length
        return plainFrequencies(dynamicNtkBase(base, d, p, length), d);
    case RopeScaling::Yarn: {
        std::vector<double> theta = plainFrequencies(base, d);
        const std::vector<double> kept = yarnKept(base, d, p);
        for (std::size_t i = 0; i < theta.size(); ++i)
            theta[i] = theta[i] / s * (1 - kept[i]) + theta[i] * kept[i];
        return theta;
    }
    case RopeScaling::Llama3: {
        std::vector<double> theta = plainFrequencies(base, d);
        for (double &t : theta) {
            const double kept = llama3Kept(2 * std::numbers::pi / t, p);
            t = (1 - kept) * t / s + kept * t;
        }
        return theta;
    }
    case RopeScaling::LongRope: { // inv_freq = 1 / (ext_i · base^(2i/d)); validate() checks d/2 factors
        std::vector<double> theta = plainFrequencies(base, d);
        const std::vector<double> &ext = longRopeFactors(p, length);
        for (std::size_t i = 0; i < theta.size() && i < ext.size(); ++i)
            theta[i] /= ext[i];
        return theta;
    }
    case RopeScaling::Proportional: { // transformers _compute_proportional_rope_parameters
        std::vector<double> theta = plainFrequencies(base, d);
        const auto turning = static_cast<std::size_t>(rotatedPairs(d, p));
        for (std::size_t i = 0; i < theta.size(); ++i)
            theta[i] = i < turning ? theta[i] / s : 0.0;
        return theta;
    }
    }
    return plainFrequencies(base, d);
}

double yarnMscale(double s, double m)
{
    return s <= 1 ? 1.0 : 0.1 * m * std::log(s) + 1.0;
}

const std::vector<double> &longRopeFactors(const RopeScalingParams &p, std::int64_t length)
{
    return length > p.originalContext ? p.longFactor : p.shortFactor;
}

double ropeAttentionFactor(const RopeScalingParams &p)
{
    // transformers' _compute_yarn_parameters and _compute_longrope_parameters: a given factor wins.
    switch (p.scaling) {
    case RopeScaling::Yarn:
        if (p.attentionFactor > 0)
            return p.attentionFactor;
        if (p.mscale > 0 && p.mscaleAllDim > 0)
            return yarnMscale(p.factor, p.mscale) / yarnMscale(p.factor, p.mscaleAllDim);
        return yarnMscale(p.factor);
    case RopeScaling::LongRope:
        if (p.attentionFactor > 0)
            return p.attentionFactor;
        if (p.factor <= 1)
            return 1.0;
        return std::sqrt(1 + std::log(p.factor) / std::log(static_cast<double>(p.originalContext)));
    default:
        return 1.0;
    }
}

std::vector<PairRegime> ropeRegimes(double base, int d, const RopeScalingParams &p, std::int64_t length)
{
    std::vector<PairRegime> out(static_cast<std::size_t>(d / 2), PairRegime::Kept);
    const std::vector<double> plain = ropeFrequencies(base, d, unscaled(p), length);
    const std::vector<double> scaled = ropeFrequencies(base, d, p, length);
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (scaled[i] == 0) {
            out[i] = PairRegime::Unrotated;
            continue;
        }
        const double ratio = scaled[i] / plain[i];
        out[i] = std::abs(ratio - 1) < 1e-12                               ? PairRegime::Kept
                 : std::abs(ratio - 1 / p.factor) < 1e-12 * (1 / p.factor) ? PairRegime::Interpolated
                 : ratio < 1 / p.factor                                    ? PairRegime::Beyond
                                                                           : PairRegime::Blended;
    }
    return out;
}

RopeDecay ropeDecay(const std::vector<double> &theta, std::int64_t k)
{
    RopeDecay out;
    const double kk = static_cast<double>(k);
    std::complex<double> partial = 0; // S_j = Σ_{l<j} e^{i k θ_l}
    double sumAbs = 0;
    for (double t : theta) {
        out.score += 2 * std::cos(kk * t);
        partial += std::polar(1.0, kk * t);
        sumAbs += std::abs(partial); // |S_{j}| for j = 1..d/2
    }
    out.bound = theta.empty() ? 0.0 : sumAbs / static_cast<double>(theta.size());
    return out;
}

std::vector<double> alibiSlopes(int heads)
{
    std::vector<double> out;
    if (heads < 1)
        return out;
    const auto powerOfTwo = [](int n) {
        std::vector<double> m(static_cast<std::size_t>(n));
        for (int h = 1; h <= n; ++h)
            m[static_cast<std::size_t>(h - 1)] = std::exp2(-8.0 * h / n);
        return m;
    };
    int lower = 1;
    while (lower * 2 <= heads)
        lower *= 2;
    out = powerOfTwo(lower);
    if (lower == heads)
        return out;
    const std::vector<double> twice = alibiSlopes(2 * lower);
    for (int h = 0; h < heads - lower; ++h)
        out.push_back(twice[static_cast<std::size_t>(2 * h)]);
    return out;
}

} // namespace pe
