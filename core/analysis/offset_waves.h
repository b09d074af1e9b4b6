#pragma once

#include <cstdint>
#include <vector>

namespace pe {

// Sums over rotating pairs of angular frequencies θ_l at evenly spaced offsets m = first + r·step,
// r = 0..count-1, for `sets` coefficient vectors at once:
//   cosine[j·count + r] = Σ_l a[j·pairs + l] · cos(m θ_l)
//   sine[j·count + r]   = Σ_l b[j·pairs + l] · sin(m θ_l)      (when b is given)
//   bound[r] = (1/pairs) Σ_j |Σ_{l≤j} e^{i m θ_l}|               (when asked: RoFormer's bound, ropeDecay)
// These are what the offset views need of a pure encoding: S(k) (similarity, distance), attention's
// score per offset, RoPE's decay. Every offset and every pair is summed, nothing sampled, but the
// count × pairs values are never written: eight offsets at a time, each pair's (cos, sin) at those
// offsets turned by 8·step·θ_l from one group to the next. Every 256 offsets (a span) the lanes are
// reseeded: the span's first offset turned by ℓ·step·θ_l for lane ℓ, that first offset exact
// (sinCosOfProduct, about 1e-16) every eighth span and the span before's turned by one span between,
// so at most 7 + 31 turns from an exact value. Each term is within a few 1e-16 of cos and sin
// evaluated exactly (tst_offset_waves: at most 6e-16 a unit coefficient). Runs on every core
// (parallelFor), in whole stripes of eight spans: the same bits on any number of threads.
// a and b must hold sets × pairs values (b none); std::invalid_argument otherwise.
class Encoding;

struct OffsetWaveRequest {
    std::vector<double> theta; // the pairs' frequencies
    std::vector<double> a, b;  // sets × pairs each, row-major; b empty: no sine sums
    int sets = 0;
    bool bound = false;
};

struct OffsetWaveSums {
    std::vector<double> cosine, sine; // sets × count, row-major (sine empty without b)
    std::vector<double> bound;        // count, or empty
};

OffsetWaveSums offsetWaveSums(const OffsetWaveRequest &request, std::int64_t first, std::int64_t step,
                              std::int64_t count);
// The same from several first offsets at once (the distance matrix's jitter pairs): the turns are
// worked out once. Each result is the one offsetWaveSums(request, first, step, count) gives.
std::vector<OffsetWaveSums> offsetWaveSums(const OffsetWaveRequest &request, const std::vector<std::int64_t> &firsts,
                                           std::int64_t step, std::int64_t count);

// The frequencies of an encoding whose every pair turns as one (each sine column's cosine partner
// at the same speed: the pair exponent with even d, or RoPE): what S(k), attention's per-offset
// score and RoPE's decay sum over. Throws std::invalid_argument for any other encoding (the
// per-index exponent's cosine turns at its own speed; odd d leaves a sine alone).
std::vector<double> pairFrequencies(const Encoding &encoding);

// One frequency's scale·cos(m θ) and scale·sin(m θ) at m = first .. first + count - 1, turned and
// reseeded as offsetWaveSums does: a column of a rotating encoding without the fill's row-by-row
// chain (eight positions a lane). On the calling thread.
void turnValues(double theta, double scale, std::int64_t first, std::int64_t count, double *cosines, double *sines);

namespace detail {
// The same with the code of one level of core/support/simd_clones.h: 4 (AVX-512), 3 (AVX2 + FMA)
// or 1 (the baseline), lowered to what this processor and PE_SIMD allow (simdCloneLevel(), which the
// functions above use). Every level gives the same bits (tst_offset_waves compares them).
std::vector<OffsetWaveSums> offsetWaveSumsAt(int level, const OffsetWaveRequest &request,
                                             const std::vector<std::int64_t> &firsts, std::int64_t step,
                                             std::int64_t count);
void turnValuesAt(int level, double theta, double scale, std::int64_t first, std::int64_t count, double *cosines,
                  double *sines);
} // namespace detail

} // namespace pe
