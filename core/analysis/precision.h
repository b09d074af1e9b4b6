#pragma once

#include "encodings/encoding.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace pe {

// RoPE as a model computes it, against the exact float64 values the app draws. transformers'
// rotary embeddings (LlamaRotaryEmbedding and the models that copy it) compute
//   inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))  float32
//   freqs    = inv_freq.float() @ position_ids.float()     one float32 product t·θ_i an entry
//   cos, sin = freqs.cos() * attention_scaling, freqs.sin() * ...                  float32
//   cos.to(dtype=x.dtype)                           bfloat16 for a bfloat16 model: round to nearest even
// (modeling_llama.py, LlamaRotaryEmbedding.forward, autocast disabled). Meta's precompute_freqs_cis
// computes the float32 steps alike but keeps cos and sin in complex64: its float32 case. The
// scalings follow modeling_rope_utils' float32 steps (linear and proportional: / factor after;
// NTK: base' a Python float, then the default expression; LongRoPE: 1 / (ext_i · base^x)), except
// YaRN's and Llama 3.1's blends: their float64 θ_i rounded to float32, which may sit an ulp from
// transformers' (2^-24 relative, as large as the product's own rounding). Assumed as transformers
// keeps them: inv_freq a float32 buffer (a model cast whole to bfloat16 rounds it too) and an IEEE
// float32 product (not TF32). cos and sin in float32 are the C library's cosf and sinf, within an ulp
// of torch's.
enum class Precision { Float64, Float32, BFloat16 };
inline constexpr Precision kPrecisions[] = {Precision::Float64, Precision::Float32, Precision::BFloat16};
std::string_view precisionName(Precision p);
std::optional<Precision> parsePrecision(std::string_view text);

// float32 to bfloat16 and back: the top 16 bits, rounded to nearest, ties to even (torch's
// c10::BFloat16 round_to_nearest_even); NaN stays NaN.
float roundToBFloat16(float v);

// The inverse frequencies θ_i as float32, one a pair of d/2 (pairs that do not rotate: 0). Without
// a scaling, transformers' expression itself in float32 over the rotated dimensions.
std::vector<float> ropeFrequenciesFloat32(const Encoding &rope);
// True where those are the float64 θ rounded (YaRN, Llama 3.1), not transformers' float32 steps.
bool frequenciesRoundedFromFloat64(const EncodingParams &p);

// For each position t of the window, against float64: the worst angle error over the rotating
// pairs, fl32(fl32(t)·θ32_i) − t·θ_i taken on the circle (radians in [0, π]; the same for float32
// and bfloat16: the angles are float32 in both), the worst value error over the d columns |cos or sin in the precision
// − the exact one| (with the attention factor), and how many rotating pairs give t and t + 1 the same (cos, sin) in the
// precision: pairs that cannot tell the two positions apart.
struct PrecisionErrors {
    Precision precision = Precision::BFloat16;
    int rotatingPairs = 0;
    std::vector<double> angleError;
    std::vector<double> valueError;
    std::vector<int> equalPairs;
};
// Empty (no positions) when cancelled.
PrecisionErrors precisionErrors(const Encoding &rope, Precision precision, const std::atomic<bool> *cancel = nullptr);

// The first position of the window from which some rotating pair cannot tell t from t + 1, or
// nothing when every pair can throughout.
std::optional<std::int64_t> firstEqualPosition(const PrecisionErrors &errors, std::int64_t startPos);

} // namespace pe
