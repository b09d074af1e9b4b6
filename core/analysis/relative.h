#pragma once

#include "encodings/encoding.h"
#include "encodings/noise.h"

#include <climits>
#include <cstdint>
#include <vector>

namespace pe {

// Relative position is linear (REFERENCE.md section 2): per pair,
// [sin w(t+k); cos w(t+k)] = [[cos wk, sin wk], [-sin wk, cos wk]] [sin wt; cos wt], so a
// block-diagonal T(k), the same for every t, maps PE(t) to PE(t+k).

// The 2 x 2 block of pair i in T(k): {a, b, c, d} for [[a, b], [c, d]] acting on (sin, cos).
struct Rotation2 {
    double a, b, c, d;
};
Rotation2 rotationBlock(const Encoding &encoding, int pair, std::int64_t k);
// Every pair's block of T(k). A table has no frequencies: its blocks are the best rotations instead,
// per pair the one that maps the pair at t onto the pair at t + k with the least squared error over
// the window's positions (both t and t + k inside it; at most maxPositions of them).
std::vector<Rotation2> rotationBlocks(const Encoding &encoding, std::int64_t k, std::int64_t maxPositions = INT64_MAX);

// max over the window's positions t (with t + k >= 0; for a table t + k inside the window too) of
// |T(k) PE(t) - PE(t+k)|, every column of every pair, T(k) as rotationBlocks gives it. Near 1e-15
// for the pair exponent; large for the per-index exponent, whose cosine columns turn at other speeds
// than their sines, and for a table as far as it is not a rotation. NaN when no t qualifies.
// At most maxPositions evenly spaced positions are checked (all of them by default).
double rotationResidual(const Encoding &encoding, std::int64_t k, std::int64_t maxPositions = INT64_MAX);
// The same for blocks already computed (rotationBlocks(encoding, k, maxPositions)): a table's fit is
// not done twice.
double rotationResidual(const Encoding &encoding, std::int64_t k, const std::vector<Rotation2> &blocks,
                        std::int64_t maxPositions);

// Seed 002's question answered with atan2: the offset b - a between two positions, read from their
// encodings pair by pair. Each pair gives the angle difference, so the offset modulo its
// wavelength; the slowest pair gives a coarse answer and every faster pair refines it, as hours,
// minutes and seconds are read off a clock.
struct OffsetDecode {
    double offset = 0; // the decoded b - a (NaN for a table)
    std::vector<double>
        perPair; // each pair's own reading, in (-wavelength/2, wavelength/2]; a table's: its angle in (-pi, pi]
};
OffsetDecode decodeOffset(const Encoding &encoding, const double *peA, const double *peB);

// decodeOffset's fixed part for one encoding, worked out once for many decodes (the probe's 12,000
// pairs): the pairs that fix an angle, their columns and frequencies, slowest first.
class OffsetDecoder
{
  public:
    explicit OffsetDecoder(const Encoding &encoding);
    OffsetDecode operator()(const double *peA, const double *peB) const;
    // The decoded offset alone (NaN for a table), as operator() gives it.
    double offset(const double *peA, const double *peB) const;

  private:
    struct Pair {
        int index, sine, cosine;
        double frequency, wavelength;
    };
    double reading(const Pair &p, const double *peA, const double *peB) const;

    int pairs_ = 0;
    bool frequencies_ = false;
    std::vector<Pair> slowFirst_;
};
// The same between the embeddings x(a) and x(b) (noisy when the noise is on, as seed 002's are).
OffsetDecode decodeOffset(const Encoding &encoding, const NoiseParams &noise, std::int64_t a, std::int64_t b);

} // namespace pe
