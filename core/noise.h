#pragma once

#include "encoding.h"

#include <cstdint>
#include <optional>
#include <string>

namespace pe {

// Noisy embeddings x(t) = PE(t) + sigma * z(t), z standard normal, as seed 001 builds them
// (np.random.randn(...) / 2 is sigma 0.5). sigma 0 is the pure encoding.
struct NoiseParams {
    double sigma = 0.0;
    std::uint64_t seed = 42;

    bool active() const { return sigma > 0; }
    bool operator==(const NoiseParams &) const = default;
};

namespace limits {
inline constexpr double maxSigma = 10.0;
// The window's seed boxes hold an int: the same range everywhere, so a seed is never shown cut.
inline constexpr std::int64_t maxSeed = 2147483647;
} // namespace limits

// What sigma and a seed accept, for every sentence about them: "a number from 0 to 10",
// "a whole number from 0 to 2147483647" (a seed is an identifier: no thousands separators).
std::string sigmaAllowedText();
std::string seedAllowedText();

// One sentence when sigma is not a number from 0 to 10 or the seed is out of range; nothing when valid.
std::optional<std::string> validateNoise(const NoiseParams &noise);
std::optional<std::string> validateSeed(std::int64_t seed);

// z(seed, t, j): a standard normal that depends on its seed, position and column alone (a
// counter-based generator), so the same seed gives the same numbers in any block, in any order.
double standardNormal(std::uint64_t seed, std::int64_t position, int column);

// sigma z over a block, row-major (block.rows x block.cols): zeros when the noise is off.
void fillNoise(const NoiseParams &noise, const Block &block, double *out);

// x = PE + sigma z over a block, row-major (block.rows x block.cols).
void fillEmbeddings(const Encoding &encoding, const NoiseParams &noise, const Block &block, double *out);

} // namespace pe
