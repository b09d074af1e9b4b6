#include "noise.h"

#include <cmath>
#include <cstdio>
#include <numbers>

namespace pe {

namespace {

// SplitMix64's finaliser: a bijective mix of 64 bits (Steele, Lea and Flood 2014).
std::uint64_t mix(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

double unitInterval(std::uint64_t bits)
{
    return (static_cast<double>(bits >> 11) + 0.5) * 0x1.0p-53;
} // in (0, 1)

} // namespace

std::string sigmaAllowedText()
{
    return "a number from 0 to " + compactNumber(limits::maxSigma);
}
std::string seedAllowedText()
{
    return "a whole number from 0 to " + std::to_string(limits::maxSeed);
}

std::optional<std::string> validateNoise(const NoiseParams &noise)
{
    if (!std::isfinite(noise.sigma) || noise.sigma < 0 || noise.sigma > limits::maxSigma) {
        char got[64];
        std::snprintf(got, sizeof got, "%.17g", noise.sigma);
        return "sigma must be " + sigmaAllowedText() + " (got " + got + ").";
    }
    if (noise.seed > static_cast<std::uint64_t>(limits::maxSeed))
        return "the seed must be " + seedAllowedText() + " (got " + std::to_string(noise.seed) + ").";
    return std::nullopt;
}

std::optional<std::string> validateSeed(std::int64_t seed)
{
    if (seed < 0 || seed > limits::maxSeed)
        return "the seed must be " + seedAllowedText() + " (got " + std::to_string(seed) + ").";
    return std::nullopt;
}

double standardNormal(std::uint64_t seed, std::int64_t position, int column)
{
    const std::uint64_t key =
        mix(mix(seed) ^ static_cast<std::uint64_t>(position) * 0x100000001b3ULL) ^ static_cast<std::uint64_t>(column);
    const std::uint64_t a = mix(key);
    const std::uint64_t b = mix(a ^ 0xd1b54a32d192ed03ULL);
    // Box-Muller.
    return std::sqrt(-2.0 * std::log(unitInterval(a))) * std::cos(2.0 * std::numbers::pi * unitInterval(b));
}

namespace {

// out += sigma z over the block (= when add is false).
void noiseInto(const NoiseParams &noise, const Block &block, double *out, bool add)
{
    for (std::int64_t r = 0; r < block.rows; ++r) {
        const std::int64_t t = block.position(r);
        for (int c = 0; c < block.cols; ++c) {
            const double z = noise.active() ? noise.sigma * standardNormal(noise.seed, t, block.column(c)) : 0.0;
            double &v = out[r * block.cols + c];
            v = add ? v + z : z;
        }
    }
}

} // namespace

void fillNoise(const NoiseParams &noise, const Block &block, double *out)
{
    noiseInto(noise, block, out, false);
}

void fillEmbeddings(const Encoding &encoding, const NoiseParams &noise, const Block &block, double *out)
{
    encoding.fill(block, out);
    if (noise.active())
        noiseInto(noise, block, out, true);
}

} // namespace pe
