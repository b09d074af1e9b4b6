#pragma once

#include "encodings/noise.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pe {

// Seed 001's experiment: predict each position t as argmax_s x_t . PE(s) over the window, where
// x_t = PE(t) + sigma z_t. Exact (every score that could win is computed in double).
struct Recovery {
    std::vector<std::int64_t> predicted; // one per window row: the predicted position
    std::int64_t correct = 0;
    bool cancelled = false;

    double accuracy() const
    {
        return predicted.empty() ? 0.0 : static_cast<double>(correct) / static_cast<double>(predicted.size());
    }
};

namespace limits {
// Recovery keeps the window's encoding in memory: seq_len x d_model at most this (256 MB).
inline constexpr std::int64_t maxRecoveryValues = std::int64_t(1) << 25;
} // namespace limits

// One sentence when the window is too large for recovery; nothing otherwise.
std::optional<std::string> recoveryTooLarge(const EncodingParams &params);

// For pure pair-exponent encodings with even d, S(t-s) (the offset kernel) bounds every score:
// x_t . PE(s) <= S(t-s) + sigma * sum_i |z_t,pair i|, so only offsets whose S reaches the score
// of s = t can win, and only those are computed. Otherwise dense products through Eigen.
// `cancel`, when set, stops the work early (the result says so).
Recovery recoverPositions(const Encoding &encoding, const NoiseParams &noise,
                          const std::atomic<bool> *cancel = nullptr);

// Accuracy for each sigma with the same z (the noise's seed and generator; its sigma is not read),
// on at most maxRows evenly spaced rows.
std::vector<double> accuracyAgainstSigma(const Encoding &encoding, const NoiseParams &noise,
                                         const std::vector<double> &sigmas, std::int64_t maxRows,
                                         const std::atomic<bool> *cancel = nullptr);

} // namespace pe
