#pragma once

#include "encodings/encoding.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pe {

// The query and key content the positional attention assumes, since no learned weights are shown:
// all ones (RoFormer section 3.4.3's choice), or seeded standard Gaussian vectors.
enum class QueryKey { Ones, Random };
inline constexpr QueryKey kQueryKeys[] = {QueryKey::Ones, QueryKey::Random};
std::string_view queryKeyName(QueryKey q); // "ones", "random"

// Which of a RoPE model's two kinds of layer (Gemma's, scheme.h: hasLocalLayers) the attention is
// of: the global layers (the encoding's base and scaling, every key), or the sliding-window ones.
// NoPE: one of Llama 4's layers without RoPE (hasNopeLayers): no positional part at all.
enum class LayerKind { Global, Local, Nope };
inline constexpr LayerKind kLayerKinds[] = {LayerKind::Global, LayerKind::Local, LayerKind::Nope};
std::string_view layerKindName(LayerKind l); // "global", "local", "nope"

struct AttentionSettings {
    QueryKey qk = QueryKey::Ones;        // RoPE's q and k
    std::uint64_t seed = 0;              // of the random q and k
    bool causal = false;                 // position t sees s <= t only
    LayerKind layer = LayerKind::Global; // Local: localLayers(params), keys within the sliding window

    bool operator==(const AttentionSettings &) const = default;
};

// The views compute a score for every offset 0..N-1 at O(d) each: up to N·d = 2^28 (about a
// quarter of a second), so a slider stays live. One sentence when p's window is larger.
inline constexpr double kMaxOffsetWork = 268'435'456.0;
std::string offsetWorkTooLarge(const EncodingParams &p, std::string_view what);

// xPos without the causal mask scales the keys after the query by ζ^(-(s-t)/γ), which grows without
// bound: one sentence asking for the mask, "" with it or without xPos.
std::string xposNeedsCausal(const EncodingParams &p, bool causal);

// q and k of d components (seeded Gaussian or ones), the same for every view and export.
std::vector<double> queryKeyVector(QueryKey qk, int d, std::uint64_t seed, int which);

// Attention from position t to s over the window, positional part only, rows softmaxed:
// - sinusoidal and a table: PE(t)·PE(s)/√d (seed 003: "attend to the word 5 after");
// - RoPE: (R_t q)·(R_s k)/√d, the YaRN factor on both cos and sin (so its square on the score);
//   xPos: pair i's term times ζ_i^((t-s)/γ);
// - ALiBi: -m_h·|t - s| for the chosen head (Press et al. 2022; q·k left out);
// - a local layer (settings.layer): RoPE at the local base, unscaled; query t sees the keys with
//   |t - s| < W (causal: t - W < s <= t, transformers' sliding_window_overlay), the others masked;
// - a NoPE layer (settings.layer, Llama 4): no positional part, every score 0, so each key seen
//   weighs the same; its temperature τ(t) scales the query, and so a score of 0 stays 0.
// Schemes whose score depends on t - s alone keep one score per offset and each row's softmax sum
// from prefix sums, so any window size costs O(N d) once and O(1) a cell; the others (a table, the
// per-index exponent, odd d) compute the window's N x N scores, up to tooLarge()'s limit.
class PositionalAttention
{
  public:
    // recycle: an attention no longer needed whose buffers are taken over (at 100,000 positions a
    // slider step would otherwise map and zero 6 MB afresh: a tenth of the step).
    PositionalAttention(const Encoding &encoding, const AttentionSettings &settings,
                        PositionalAttention *recycle = nullptr);

    // Why the scores cannot be computed for this window (the N x N path's limit); "" when they can.
    static std::string tooLarge(const EncodingParams &params);
    static bool offsetOnly(const EncodingParams &params);

    // The same attention over a window from another first position: on the offset path the scores
    // depend on t - s alone, so only the window moves (a start_pos step need not recompute them).
    // Throws std::logic_error on the N x N path.
    // The scores are moved, not copied: call it on an attention no longer needed.
    PositionalAttention rebased(std::int64_t first) &&;

    std::int64_t firstPosition() const { return first_; }
    std::int64_t size() const { return n_; }
    // The score before the softmax; -infinity where the causal mask hides s.
    double logit(std::int64_t t, std::int64_t s) const;
    // Whether query t cannot see key s: after it under the causal mask, or outside a local layer's window.
    bool masked(std::int64_t t, std::int64_t s) const
    {
        return (causal_ && s > t) || (window_ > 0 && (t - s >= window_ || s - t >= window_));
    }
    // The softmaxed weight: each row sums to 1 over the window.
    double weight(std::int64_t t, std::int64_t s) const;
    // Weights of row t for s = firstS, firstS + 1, ... (count of them).
    void row(std::int64_t t, std::int64_t firstS, std::int64_t count, double *out) const;

    // Whether rowAt takes a query between whole positions: the score is a formula of the real
    // offset t - s (the sinusoids' and RoPE's waves without xPos, ALiBi's -m|t - s|, a NoPE layer's
    // 0). Not on the N x N path, not for T5's buckets of whole offsets.
    bool realRows() const { return realScores_ != RealScores::None; }
    // The weights of query t, a real position in the window, for every key of the window (n of
    // them, s = first .. first + n - 1): the scores at the offsets t - s, masked where s > t under
    // the causal mask or |t - s| >= W in a local layer, softmaxed over the keys seen. A whole t
    // gives row(t)'s weights; a fraction needs realRows(), else std::logic_error. O(N·d) a call.
    std::vector<double> rowAt(double t) const;
    // The keys a real query t sees, s in [first, second): seenKeys for a whole t.
    std::pair<std::int64_t, std::int64_t> seenKeysAt(double t) const;

  private:
    double offsetScore(std::int64_t k) const { return f_[static_cast<std::size_t>(k + n_ - 1)]; }
    double offsetExp(std::int64_t k) const { return exp_[static_cast<std::size_t>(k + n_ - 1)]; }
    // The keys row r (0-based in the window) sees, as window columns [first, second).
    std::pair<std::int64_t, std::int64_t> keyRange(std::int64_t r) const;

  public:
    // The keys query t sees, s in [first, second): all the window but the masked ones.
    std::pair<std::int64_t, std::int64_t> seenKeys(std::int64_t t) const
    {
        const auto [begin, end] = keyRange(t - first_);
        return {first_ + begin, first_ + end};
    }

  private:
    double rowSum(std::int64_t t) const;

    // What rowAt needs for a query between whole positions: each pair's frequency and its
    // coefficients (score(k) = scale · Σ a cos kθ - b sin kθ), or ALiBi's slope.
    enum class RealScores { None, Waves, Alibi, Zero };
    RealScores realScores_ = RealScores::None;
    std::vector<double> realTheta_, realA_, realB_;
    double realScale_ = 0, slope_ = 0;

    std::int64_t first_ = 0;
    std::int64_t n_ = 0;
    bool causal_ = false;
    std::int64_t window_ = 0; // a local layer's sliding window; 0: none
    bool offset_ = false;
    double max_ = 0;
    std::vector<double> f_;               // offset path: score at k = t - s, index k + n - 1
    std::vector<double> exp_;             // exp(f - max), each offset's once
    std::vector<long double> prefix_;     // Σ exp(f - max) up to index j (exclusive)
    std::vector<double> scores_;          // N x N path: scores row-major,
    std::vector<double> rowMax_, rowSum_; // each row's largest score and Σ exp(score - largest)
};

// RoFormer section 3.4.3 for every offset k = 0..offsets-1 of a RoPE encoding (its θ', scaled or
// not): the score and bound of ropeDecay() for q = k = ones, and for `samples` seeded Gaussian
// (q, k) pairs the mean and standard deviation of Σ_i Re[q̃_i conj(k̃_i) e^{i k θ_i}]. Computed
// by offsetWaveSums, O(offsets · d · samples).
// With xPos (xposScaleBase > 0), `xpos` is the score for q = k = ones with each pair's term scaled
// by ζ_i^(k/γ): Σ_i 2·ζ_i^(k/γ)·cos(k·θ_i) (Sun et al. 2022); empty otherwise.
struct RopeDecayCurves {
    std::vector<double> score, bound, mean, sd, xpos;
};
RopeDecayCurves ropeDecayCurves(const Encoding &rope, std::int64_t offsets, int samples, std::uint64_t seed);

} // namespace pe
