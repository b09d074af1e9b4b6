#include "encodings/noise.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>
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

std::string_view rngName(NoiseRng rng)
{
    return rng == NoiseRng::Numpy ? "numpy" : "counter";
}

std::optional<NoiseRng> parseRng(std::string_view text)
{
    return parseName(allNoiseRngs, rngName, text);
}

std::string rngAllowedText()
{
    return "counter or numpy";
}

std::string seedText(const NoiseParams &noise)
{
    return (noise.rng == NoiseRng::Numpy ? "numpy seed " : "seed ") + std::to_string(noise.seed);
}

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

std::int64_t noiseReach(const NoiseParams &noise, int dModel)
{
    if (noise.rng == NoiseRng::Counter)
        return limits::maxPositionEnd;
    return limits::maxNumpyDraws / std::max(1, dModel);
}

std::optional<std::string> validateNoiseFor(const EncodingParams &params, const NoiseParams &noise)
{
    if (auto error = validateNoise(noise))
        return error;
    if (!noise.active() || params.startPos + params.seqLen <= noiseReach(noise, params.dModel))
        return std::nullopt;
    return "numpy's generator draws its values one after another, so noise for positions below " +
           withThousands(params.startPos + params.seqLen) + " at d_model " + withThousands(params.dModel) +
           " would take " + withThousands((params.startPos + params.seqLen) * params.dModel) +
           " draws; it keeps at most " + withThousands(limits::maxNumpyDraws) + " (positions below " +
           withThousands(noiseReach(noise, params.dModel)) +
           "). Choose the counter generator, which has no limit, or a smaller window.";
}

// Bit for bit with numpy's legacy generator (numpy/random/src/legacy/legacy-distributions.c,
// legacy_gauss, and mt19937_next_double): checked in tst_noise against numpy's published draws.
double LegacyNormal::uniform()
{
    const auto a = static_cast<std::uint32_t>(mt_()) >> 5, b = static_cast<std::uint32_t>(mt_()) >> 6;
    return (a * 67108864.0 + b) / 9007199254740992.0;
}

double LegacyNormal::gaussian()
{
    if (hasSpare_) {
        hasSpare_ = false;
        return spare_;
    }
    double x1, x2, r2;
    do {
        x1 = 2.0 * uniform() - 1.0;
        x2 = 2.0 * uniform() - 1.0;
        r2 = x1 * x1 + x2 * x2; // no fused multiply-add here (CMakeLists: -ffp-contract=off)
    } while (r2 >= 1.0 || r2 == 0.0);
    const double f = std::sqrt(-2.0 * std::log(r2) / r2);
    spare_ = f * x1;
    hasSpare_ = true;
    return f * x2;
}

namespace {

// numpy's draws of the last seed asked for, grown on demand and never changed once shared: a
// longer request draws on from the kept generator into a new vector.
struct NumpyStream {
    std::mutex mutex;
    std::uint64_t seed = 0;
    std::optional<LegacyNormal> generator;
    std::shared_ptr<const std::vector<double>> draws;
};

std::shared_ptr<const std::vector<double>> numpyDraws(std::uint64_t seed, std::int64_t count)
{
    static NumpyStream stream;
    const std::lock_guard lock(stream.mutex);
    count = std::min(count, limits::maxNumpyDraws);
    if (!stream.generator || stream.seed != seed) {
        stream.seed = seed;
        stream.generator.emplace(static_cast<std::uint32_t>(seed));
        stream.draws = std::make_shared<const std::vector<double>>();
    }
    const auto have = static_cast<std::int64_t>(stream.draws->size());
    if (count <= have)
        return stream.draws;
    // Grow at least twofold, so a window stepped along draws O(n) in all.
    const std::int64_t size = std::min(std::max(count, 2 * have), limits::maxNumpyDraws);
    auto grown = std::make_shared<std::vector<double>>();
    grown->reserve(static_cast<std::size_t>(size));
    grown->assign(stream.draws->begin(), stream.draws->end());
    while (static_cast<std::int64_t>(grown->size()) < size)
        grown->push_back(stream.generator->gaussian());
    stream.draws = std::move(grown);
    return stream.draws;
}

} // namespace

NoiseDraws::NoiseDraws(const NoiseParams &noise, int dModel, std::int64_t positionEnd)
    : seed_(noise.seed)
    , d_(dModel)
{
    if (noise.rng == NoiseRng::Numpy)
        numpy_ = numpyDraws(noise.seed, std::max<std::int64_t>(0, positionEnd) * d_);
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
void noiseInto(const NoiseParams &noise, int dModel, const Block &block, double *out, bool add)
{
    if (!noise.active()) {
        if (!add)
            std::fill_n(out, block.size(), 0.0);
        return;
    }
    // numpy's draws are made up to the block's last position; the counter's need no end.
    std::int64_t end = 0;
    if (noise.rng == NoiseRng::Numpy)
        for (std::int64_t r = 0; r < block.rows; ++r)
            end = std::max(end, block.position(r) + 1);
    const NoiseDraws z(noise, dModel, end);
    for (std::int64_t r = 0; r < block.rows; ++r) {
        const std::int64_t t = block.position(r);
        for (int c = 0; c < block.cols; ++c) {
            const double v = noise.sigma * z(t, block.column(c));
            double &o = out[r * block.cols + c];
            o = add ? o + v : v;
        }
    }
}

} // namespace

void fillNoise(const NoiseParams &noise, int dModel, const Block &block, double *out)
{
    noiseInto(noise, dModel, block, out, false);
}

void fillEmbeddings(const Encoding &encoding, const NoiseParams &noise, const Block &block, double *out)
{
    encoding.fill(block, out);
    if (noise.active())
        noiseInto(noise, encoding.dModel(), block, out, true);
}

std::string realPositionProblem(const EncodingParams &params, const NoiseParams &noise)
{
    if (params.scheme == SchemeId::Table)
        return "a table has rows at whole positions only";
    if (params.scheme == SchemeId::T5)
        return "T5's buckets take whole offsets only";
    if (noise.active())
        return "the noise is drawn once per whole position";
    return {};
}

std::optional<std::string> validateRealPosition(const EncodingParams &params, const NoiseParams &noise, double t)
{
    const double last = static_cast<double>(params.startPos + params.seqLen - 1);
    if (std::isfinite(t) && t == std::floor(t) && std::abs(t) < 9e18) // a whole one, in validatePosition's words
        return validatePosition(params, static_cast<std::int64_t>(t));
    if (!std::isfinite(t) || t < static_cast<double>(params.startPos) || t > last)
        return "position must be inside the window, from " + withThousands(params.startPos) + " to " +
               withThousands(params.startPos + params.seqLen - 1) + " (got " + numberText(t, 12) + ").";
    if (const std::string why = realPositionProblem(params, noise); !why.empty())
        return "position must be a whole number here: " + why + " (got " + numberText(t, 12) + ").";
    return std::nullopt;
}

} // namespace pe
