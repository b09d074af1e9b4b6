#include "analysis/precision.h"

#include "encodings/rope.h"
#include "support/parallel.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <numbers>

namespace pe {

std::string_view precisionName(Precision p)
{
    switch (p) {
    case Precision::Float64:
        return "float64";
    case Precision::Float32:
        return "float32";
    case Precision::BFloat16:
        return "bfloat16";
    }
    return "";
}

std::optional<Precision> parsePrecision(std::string_view text)
{
    return parseName(kPrecisions, precisionName, text);
}

float roundToBFloat16(float v)
{
    if (std::isnan(v))
        return v;
    auto bits = std::bit_cast<std::uint32_t>(v);
    // Add half of the dropped part's range, less one unless the kept part is odd: ties go to even.
    bits += 0x7fffu + ((bits >> 16) & 1u);
    bits &= 0xffff0000u;
    return std::bit_cast<float>(bits);
}

std::vector<float> ropeFrequenciesFloat32(const Encoding &rope)
{
    const EncodingParams &p = rope.params();
    const RopeScalingParams &r = p.rope;
    const int pairs = p.dModel / 2;
    std::vector<float> out(static_cast<std::size_t>(pairs), 0.0f);
    const int turning = rotatedPairs(p.dModel, r);
    // Over the rotated dimensions (partial rotary), but proportional's exponent runs over all of d.
    const int dim = r.scaling == RopeScaling::Proportional ? p.dModel : rotaryDim(p.dModel, r);
    // base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim): the exponent, the base
    // (a Python float, cast to the tensor's float32) and the power each in float32.
    const auto power = [dim](double base, int i) {
        return std::pow(static_cast<float>(base), static_cast<float>(2 * i) / static_cast<float>(dim));
    };
    const auto factor = static_cast<float>(r.factor);
    switch (r.scaling) {
    case RopeScaling::None:
        for (int i = 0; i < turning; ++i)
            out[static_cast<std::size_t>(i)] = 1.0f / power(p.base, i);
        return out;
    case RopeScaling::Linear: // the default inv_freq, then inv_freq /= factor
    case RopeScaling::Proportional:
        for (int i = 0; i < turning; ++i)
            out[static_cast<std::size_t>(i)] = 1.0f / power(p.base, i) / factor;
        return out;
    case RopeScaling::Ntk: // base' in Python floats, then the default expression with it
    case RopeScaling::DynamicNtk: {
        const int d = rotaryDim(p.dModel, r);
        const double scaled = r.scaling == RopeScaling::Ntk ? ntkBase(p.base, d, r.factor)
                                                            : dynamicNtkBase(p.base, d, r, p.startPos + p.seqLen);
        for (int i = 0; i < turning; ++i)
            out[static_cast<std::size_t>(i)] = 1.0f / power(scaled, i);
        return out;
    }
    case RopeScaling::LongRope: { // 1.0 / (ext_factors * base ** (...)), ext_factors a float32 tensor
        const std::vector<double> &ext = longRopeFactors(r, p.startPos + p.seqLen);
        for (int i = 0; i < turning; ++i)
            out[static_cast<std::size_t>(i)] =
                1.0f / (static_cast<float>(ext[static_cast<std::size_t>(i)]) * power(p.base, i));
        return out;
    }
    case RopeScaling::Yarn:
    case RopeScaling::Llama3:
        break;
    }
    // YaRN's and Llama 3.1's blends: the float64 θ rounded to float32 (the header says what that
    // leaves out).
    for (int i = 0; i < pairs; ++i)
        out[static_cast<std::size_t>(i)] = static_cast<float>(rope.channelFrequency(i));
    return out;
}

bool frequenciesRoundedFromFloat64(const EncodingParams &p)
{
    return p.rope.scaling == RopeScaling::Yarn || p.rope.scaling == RopeScaling::Llama3;
}

namespace {

// cos and sin of pair i at t in the precision, with the attention factor (float32 in transformers).
void precisionSinCos(Precision precision, float angle, float amplitude, float &s, float &c)
{
    s = std::sin(angle) * amplitude;
    c = std::cos(angle) * amplitude;
    if (precision == Precision::BFloat16) {
        s = roundToBFloat16(s);
        c = roundToBFloat16(c);
    }
}

} // namespace

PrecisionErrors precisionErrors(const Encoding &rope, Precision precision, const std::atomic<bool> *cancel)
{
    const EncodingParams &p = rope.params();
    PrecisionErrors out;
    out.precision = precision;
    const int pairs = p.dModel / 2;
    std::vector<int> turning;
    for (int i = 0; i < pairs; ++i)
        if (rope.channelFrequency(i) != 0)
            turning.push_back(i);
    out.rotatingPairs = static_cast<int>(turning.size());
    const std::int64_t n = p.seqLen;
    out.angleError.assign(static_cast<std::size_t>(n), 0.0);
    out.valueError.assign(static_cast<std::size_t>(n), 0.0);
    out.equalPairs.assign(static_cast<std::size_t>(n), 0);
    const std::vector<float> theta32 = ropeFrequenciesFloat32(rope);
    const double amplitude = rope.amplitude();
    const auto amplitude32 = static_cast<float>(amplitude);
    std::atomic<bool> stopped = false;
    std::vector<double> exact;
    std::vector<float> theta;
    for (int i : turning) {
        exact.push_back(rope.channelFrequency(i));
        theta.push_back(theta32[static_cast<std::size_t>(i)]);
    }
    const std::size_t k = turning.size();
    parallelFor(
        n,
        [&](std::int64_t begin, std::int64_t end) {
            // cos and sin in the precision at t, then at t + 1: each position's are computed once, as
            // the next of the position before (a chunk starts with its own).
            std::vector<float> s(k), c(k), s1(k), c1(k);
            for (std::size_t i = 0; i < k; ++i)
                precisionSinCos(precision, static_cast<float>(p.startPos + begin) * theta[i], amplitude32, s[i], c[i]);
            for (std::int64_t r = begin; r < end; ++r) {
                if (cancel && cancel->load(std::memory_order_relaxed)) {
                    stopped = true;
                    return;
                }
                const std::int64_t t = p.startPos + r;
                const auto t32 = static_cast<float>(t), next32 = static_cast<float>(t + 1);
                double angleWorst = 0, valueWorst = 0;
                int equal = 0;
                for (std::size_t i = 0; i < k; ++i) {
                    double s64, c64;
                    sinCosOfProduct(static_cast<double>(t), exact[i], s64, c64);
                    if (precision == Precision::Float64) {
                        double sn, cn;
                        sinCosOfProduct(static_cast<double>(t + 1), exact[i], sn, cn);
                        equal += sn == s64 && cn == c64;
                        continue;
                    }
                    const float angle = t32 * theta[i]; // one float32 product, as the matmul's entry
                    // t·θ in double with its rounding error: the exact product to about 1e-32 relative.
                    const double product = static_cast<double>(t) * exact[i];
                    const double productError = std::fma(static_cast<double>(t), exact[i], -product);
                    // On the circle: only the angle modulo 2π turns the pair.
                    angleWorst = std::max(angleWorst,
                                          std::abs(std::remainder((static_cast<double>(angle) - product) - productError,
                                                                  2 * std::numbers::pi)));
                    precisionSinCos(precision, next32 * theta[i], amplitude32, s1[i], c1[i]);
                    valueWorst = std::max({valueWorst, std::abs(static_cast<double>(s[i]) - amplitude * s64),
                                           std::abs(static_cast<double>(c[i]) - amplitude * c64)});
                    equal += s1[i] == s[i] && c1[i] == c[i];
                }
                std::swap(s, s1);
                std::swap(c, c1);
                out.angleError[static_cast<std::size_t>(r)] = angleWorst;
                out.valueError[static_cast<std::size_t>(r)] = valueWorst;
                out.equalPairs[static_cast<std::size_t>(r)] = equal;
            }
        },
        1024);
    if (stopped)
        return PrecisionErrors{precision, out.rotatingPairs, {}, {}, {}};
    return out;
}

std::optional<std::int64_t> firstEqualPosition(const PrecisionErrors &errors, std::int64_t startPos)
{
    const auto it = std::find_if(errors.equalPairs.begin(), errors.equalPairs.end(), [](int e) { return e > 0; });
    if (it == errors.equalPairs.end())
        return std::nullopt;
    return startPos + (it - errors.equalPairs.begin());
}

} // namespace pe
