#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pe {

// Rotary position embedding (Su et al., RoFormer 2021): pair i of a query and a key turns by t·θ_i,
// θ_i = base^(-2i/d) for i < d/2, so (R_t q)·(R_s k) depends on t - s alone. The context extensions
// change θ; each follows its reference implementation, cited where it is computed (rope.cpp).
enum class RopeScaling {
    None,
    Linear,     // position interpolation (Chen et al. 2023): θ_i / s
    Ntk,        // NTK-aware: base' = base·s^(d/(d-2))
    DynamicNtk, // transformers "dynamic": NTK-aware with s·len/L - (s-1) once len > L
    Yarn,       // YaRN (Peng et al. 2023), as transformers computes it (DeepSeek's mscale too)
    Llama3,     // Meta's apply_scaling for Llama 3.1, transformers "llama3"
    LongRope,   // LongRoPE (Ding et al. 2024; Phi-3, "su" in older configs): a rescale factor per pair
    // Gemma's p-RoPE (transformers "proportional"): the first floor(F·d/2) pairs turn at
    // base^(-2i/d)/s, the exponent over the whole d; the others stand still
    Proportional,
};
inline constexpr RopeScaling kRopeScalings[] = {RopeScaling::None,       RopeScaling::Linear,      RopeScaling::Ntk,
                                                RopeScaling::DynamicNtk, RopeScaling::Yarn,        RopeScaling::Llama3,
                                                RopeScaling::LongRope,   RopeScaling::Proportional};
// "none", "linear", "ntk", "dynamic-ntk", "yarn", "llama3", "longrope", "proportional"
std::string_view ropeScalingName(RopeScaling s);
std::optional<RopeScaling> parseRopeScaling(std::string_view name);

struct RopeScalingParams {
    RopeScaling scaling = RopeScaling::None;
    double factor = 1.0;                 // s
    std::int64_t originalContext = 4096; // L, the context the model was trained on
    double betaFast = 32.0;              // YaRN
    double betaSlow = 1.0;
    double lowFreqFactor = 1.0; // Llama 3
    double highFreqFactor = 4.0;
    // YaRN as DeepSeek configures it: with both given (above 0), the factor on cos and sin is
    // get_mscale(s, mscale) / get_mscale(s, mscale_all_dim); 0 is "not given", as transformers
    // tests them for truth.
    double mscale = 0;
    double mscaleAllDim = 0;
    bool truncate = true; // YaRN: the correction range floored and ceiled (transformers' default)
    // The factor on cos and sin, given (YaRN, LongRoPE); 0: the scaling's own default.
    double attentionFactor = 0;
    // LongRoPE: one rescale factor per pair, dividing θ_i; the short list while the sequence
    // (start_pos + seq_len) is within L, the long one past it (transformers' _compute_longrope_parameters).
    std::vector<double> shortFactor{};
    std::vector<double> longFactor{};
    // Partial rotary (GPT-NeoX's rotary_pct, transformers' partial_rotary_factor): the first
    // int(d·F) dimensions rotate, their frequencies over that many; the other pairs stand still
    // (θ = 0: cos 1, sin 0, the identity). Under proportional, floor(F·d/2) pairs turn.
    double rotaryFraction = 1.0;

    bool operator==(const RopeScalingParams &) const = default;
};
// One sentence naming what is wrong, or nothing: s >= 1, L >= 1, beta_fast > beta_slow > 0,
// high_freq_factor > low_freq_factor > 0.
std::optional<std::string> validateRopeScaling(const RopeScalingParams &params);
// transformers' get_mscale: 1 for s <= 1, else 0.1·m·ln s + 1.
double yarnMscale(double s, double m = 1.0);
// LongRoPE's rescale factors at a sequence length: the long list once length > L, else the short.
const std::vector<double> &longRopeFactors(const RopeScalingParams &params, std::int64_t length);

// θ'_i for i < d/2 (d even, at least 2) under the scaling; `length` is the sequence length the
// dynamic scaling sees (start_pos + seq_len); the others ignore it. Pairs past the rotated ones
// (rotatedPairs) are 0.
std::vector<double> ropeFrequencies(double base, int d, const RopeScalingParams &params, std::int64_t length);
// How many pairs turn: int(d·F)/2 (the rotary dimension over 2), floor(F·d/2) under proportional.
int rotatedPairs(int d, const RopeScalingParams &params);
// The rotary dimension the scaling's formula runs over: int(d·F), or d under proportional.
int rotaryDim(int d, const RopeScalingParams &params);
// The same parameters without a scaling, the same pairs rotating: what a scaling is compared with.
RopeScalingParams unscaled(const RopeScalingParams &params);
// NTK-aware's base for a factor s: base·s^(d/(d-2)) (d at least 4).
double ntkBase(double base, int d, double s);
// The dynamic scaling's base at a sequence length: ntkBase with s·length/L - (s-1) once length > L,
// the base itself until then (transformers' _compute_dynamic_ntk_parameters).
double dynamicNtkBase(double base, int d, const RopeScalingParams &params, std::int64_t length);
// The factor on cos and sin: the given one; else YaRN's get_mscale (DeepSeek's ratio of two with
// mscale and mscale_all_dim), LongRoPE's sqrt(1 + ln s / ln L) (1 for s <= 1); 1 for the others.
double ropeAttentionFactor(const RopeScalingParams &params);

// xPos's ζ_i = (2i + 0.4·D)/(1.4·D) for the rotated pairs i < D/2, D = rotaryDim (torchscale's
// XPOS: (arange(0, head_dim, 2) + 0.4·head_dim) / (1.4·head_dim)); 1 for the pairs that stand still.
// Sun et al. 2022 write it ζ_i = (i/(d/2) + γ')/(1 + γ') with γ' = 0.4.
std::vector<double> xposZeta(int d, const RopeScalingParams &params);

// What a scaling does to pair i: kept (extrapolates past L), divided by s (interpolates), a blend of
// the two, or slowed by more than s (NTK-aware's last pairs under the dynamic scaling: ratio below 1/s).
// Unrotated: partial rotary's pairs that do not turn at all.
enum class PairRegime { Kept, Interpolated, Blended, Beyond, Unrotated };
std::vector<PairRegime> ropeRegimes(double base, int d, const RopeScalingParams &params, std::int64_t length);

// RoFormer section 3.4.3 at offset k, for q = k = all ones: the relative score Σ_{i<d/2} 2·cos(k·θ_i)
// and the paper's bound (1/(d/2))·Σ_{j=1..d/2} |Σ_{l<j} e^{i·k·θ_l}|.
struct RopeDecay {
    double score = 0;
    double bound = 0;
};
RopeDecay ropeDecay(const std::vector<double> &theta, std::int64_t k);

// ALiBi (Press et al. 2022): each head's slope m_h, h = 1..heads, as the reference get_slopes
// computes them (ofirpress/attention_with_linear_biases, fairseq/models/transformer.py): 2^(-8h/n)
// for a power of two; otherwise the slopes of the largest power of two below, then every other
// slope of twice that. The paper's text (a geometric sequence from 2^(-8/n)) differs there.
std::vector<double> alibiSlopes(int heads);

} // namespace pe
