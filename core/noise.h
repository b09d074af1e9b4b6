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
}

// One sentence when sigma is not a number from 0 to 10; nothing when valid.
std::optional<std::string> validateNoise(const NoiseParams &noise);

// z(seed, t, j): a standard normal that depends on its seed, position and column alone (a
// counter-based generator), so the same seed gives the same numbers in any block, in any order.
double standardNormal(std::uint64_t seed, std::int64_t position, int column);

// x = PE + sigma z over a block, row-major (block.rows x block.cols).
void fillEmbeddings(const Encoding &encoding, const NoiseParams &noise, const Block &block, double *out);

} // namespace pe
