#include "analysis/precision.h"

#include "encodings/rope.h"
#include "support/parallel.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

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
    const int pairs = p.dModel / 2;
    std::vector<float> out(static_cast<std::size_t>(pairs), 0.0f);
    const int turning = rotatedPairs(p.dModel, p.rope);
    if (p.rope.scaling == RopeScaling::None) {
        // torch.arange(0, dim, 2, dtype=torch.int64).float() / dim, base ** that, 1.0 / that: float32
        // each step (dim: the rotated dimensions).
        const int dim = rotaryDim(p.dModel, p.rope);
        const auto base = static_cast<float>(p.base);
        for (int i = 0; i < turning; ++i) {
            const float exponent = static_cast<float>(2 * i) / static_cast<float>(dim);
            out[static_cast<std::size_t>(i)] = 1.0f / std::pow(base, exponent);
        }
        return out;
    }
    for (int i = 0; i < pairs; ++i)
        out[static_cast<std::size_t>(i)] = static_cast<float>(rope.channelFrequency(i));
    return out;
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
                    angleWorst = std::max(angleWorst, std::abs((static_cast<double>(angle) - product) - productError));
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
