#pragma once

#include "encodings/encoding.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace pe {

// Where the standard normals z come from.
// - Counter (the default): z(seed, t, j) from a counter-based generator, any position in any
//   order at any size.
// - Numpy: numpy's legacy generator, bit for bit: np.random.seed(seed) then np.random.randn(...),
//   z(t, j) being draw number t * d_model + j. Seed 001's x[0] = randn(2, 300, 20)[0] is then the
//   window 0..299 of d 20. The draws are sequential, so they are kept, up to limits::maxNumpyDraws.
enum class NoiseRng { Counter, Numpy };
inline constexpr NoiseRng allNoiseRngs[] = {NoiseRng::Counter, NoiseRng::Numpy};
std::string_view rngName(NoiseRng rng); // "counter", "numpy"
std::optional<NoiseRng> parseRng(std::string_view text);
std::string rngAllowedText(); // "counter or numpy"

// Noisy embeddings x(t) = PE(t) + sigma * z(t), z standard normal, as seed 001 builds them
// (np.random.randn(...) / 2 is sigma 0.5). sigma 0 is the pure encoding.
struct NoiseParams {
    double sigma = 0.0;
    std::uint64_t seed = 42;
    NoiseRng rng = NoiseRng::Counter;

    bool active() const { return sigma > 0; }
    bool operator==(const NoiseParams &) const = default;
};

namespace limits {
inline constexpr double maxSigma = 10.0;
// The window's seed boxes hold an int: the same range everywhere, so a seed is never shown cut.
inline constexpr std::int64_t maxSeed = 2147483647;
// numpy's draws are made one after another and kept: 2^25 doubles (256 MiB, about half a second
// to draw), e.g. 32,768 positions of d 1,024 or 1,677,721 of d 20.
inline constexpr std::int64_t maxNumpyDraws = std::int64_t{1} << 25;
} // namespace limits

// The seed as titles name it: "seed 42", or "numpy seed 42" for numpy's generator.
std::string seedText(const NoiseParams &noise);

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

// The positions [0, end) whose noise exists for d_model columns: all of them for the counter
// generator, maxNumpyDraws / d_model for numpy's.
std::int64_t noiseReach(const NoiseParams &noise, int dModel);

// The noise checked against the window it is for: validateNoise's sentence, or one when numpy's
// draws for positions below start_pos + seq_len would exceed maxNumpyDraws. Nothing when valid.
std::optional<std::string> validateNoiseFor(const EncodingParams &params, const NoiseParams &noise);

// Positions between whole ones (playback's smooth motion, --step 0.25): why this state has none,
// one sentence; "" when it has. The sinusoids and RoPE are formulas of any real t (every scaling:
// PI's t/s, NTK's and YaRN's θ, each a function of t), and so is ALiBi's bias −m·|t − s|. A table
// has rows only at whole positions, T5's buckets take whole offsets, and noise is drawn once per
// whole position: those states take whole positions alone.
std::string realPositionProblem(const EncodingParams &params, const NoiseParams &noise);
// Position t as a real number: inside the window [start_pos, start_pos + seq_len - 1] and, with a
// fraction, of a state that has positions between whole ones. The sentence otherwise.
std::optional<std::string> validateRealPosition(const EncodingParams &params, const NoiseParams &noise, double t);

// numpy's legacy RandomState, the part randn uses: MT19937 seeded by init_genrand (which is
// std::mt19937's own seeding, and numpy's for an integer seed), doubles of 53 bits from two 32-bit
// outputs, and Gaussians by Marsaglia's polar method, which keeps its second value for the next call.
class LegacyNormal
{
  public:
    explicit LegacyNormal(std::uint32_t seed)
        : mt_(seed)
    {
    }
    double uniform();  // in [0, 1): np.random.random_sample()
    double gaussian(); // np.random.standard_normal()

  private:
    std::mt19937 mt_;
    bool hasSpare_ = false;
    double spare_ = 0.0;
};

// The standard normals z(t, j) of one noise setting for positions below positionEnd, read from any
// thread. numpy's are drawn once per seed and shared (a longer request extends them), so building
// one is cheap after the first; positions at or past noiseReach read NaN.
class NoiseDraws
{
  public:
    NoiseDraws(const NoiseParams &noise, int dModel, std::int64_t positionEnd);
    double operator()(std::int64_t t, int j) const
    {
        if (!numpy_)
            return standardNormal(seed_, t, j);
        const std::int64_t i = t * d_ + j;
        return i < static_cast<std::int64_t>(numpy_->size()) ? (*numpy_)[static_cast<std::size_t>(i)]
                                                             : std::numeric_limits<double>::quiet_NaN();
    }

  private:
    std::uint64_t seed_;
    std::int64_t d_;
    std::shared_ptr<const std::vector<double>> numpy_;
};

// sigma z over a block of d_model columns, row-major (block.rows x block.cols): zeros when the
// noise is off.
void fillNoise(const NoiseParams &noise, int dModel, const Block &block, double *out);

// x = PE + sigma z over a block, row-major (block.rows x block.cols).
void fillEmbeddings(const Encoding &encoding, const NoiseParams &noise, const Block &block, double *out);

} // namespace pe
