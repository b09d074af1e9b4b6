// The offset sums of offset_waves.h, in a file of their own for -O3 and the per-CPU clones.
#include "analysis/offset_waves.h"

#include "encodings/encoding.h"
#include "support/parallel.h"
#include "support/simd_clones.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace pe {

namespace {

constexpr int kLanes = 8;                // offsets a group: one AVX-512 vector, two AVX2 ones
constexpr std::int64_t kSpanGroups = 32; // groups a span: 256 offsets, as the fill reseeds
// A span's first offset is exact (sinCosOfProduct) every kExactSpans spans, and the span before's
// turned by one span between: the sincos were half of the time, and this adds at most 7 roundings
// to the 31 turns inside a span.
constexpr std::int64_t kExactSpans = 8;

// Eight doubles, one a lane, held as kLanes / W vectors of the level's own width W (GCC's vector
// extension; left to itself, the compiler vectorised these loops across the pairs, with a shuffle
// for every lane): one AVX-512 register (W 8) at x86-64-v4, two AVX2 ones (W 4) at x86-64-v3, four
// SSE2 ones (W 2) at the baseline. Not one 64-byte vector type compiled for every level
// (target_clones), as before: below AVX-512 GCC has no register of that size, so the x86-64-v3
// clone kept every such value on the stack, wrote it a double at a time and read it back sixteen
// bytes at a time (a failed store forwarding each): S(k) over 100,000 offsets of 512 pairs took
// 220 ms on both cores of an AVX2 EPYC, 4.3 ns a term (0.14 on the AVX-512 machine), and takes
// 6.2 ms now, 0.12 ns. Every lane's arithmetic is the same at every width, in the same order (and
// -ffp-contract=off), so the levels give the same bits. The vector types are spelled out: GCC
// drops vector_size on a type that depends on a template parameter.
using Double2 = double __attribute__((vector_size(2 * sizeof(double))));
using Double4 = double __attribute__((vector_size(4 * sizeof(double))));
using Double8 = double __attribute__((vector_size(8 * sizeof(double))));
template <int W> struct Vector;
template <> struct Vector<2> {
    using type = Double2;
};
template <> struct Vector<4> {
    using type = Double4;
};
template <> struct Vector<8> {
    using type = Double8;
};

template <int W> struct Lanes {
    using V = typename Vector<W>::type;
    static_assert(sizeof(V) == W * sizeof(double));
    static constexpr int kParts = kLanes / W;
    V part[kParts];
};

#define PE_PARTS _Pragma("GCC unroll 8") for (int q = 0; q < Lanes<W>::kParts; ++q)

template <int W> __attribute__((always_inline)) inline void load(Lanes<W> &v, const double *p)
{
    PE_PARTS __builtin_memcpy(&v.part[q], p + q * W, sizeof(v.part[q]));
}

template <int W> __attribute__((always_inline)) inline void store(double *p, const Lanes<W> &v)
{
    PE_PARTS __builtin_memcpy(p + q * W, &v.part[q], sizeof(v.part[q]));
}

struct Span {
    int pairs, sets, groups;
    const double *a, *b;           // sets × pairs; b null: no sine sums
    bool unitA;                    // every a is 1: a·cos is cos, not multiplied
    const double *firstC, *firstS; // pairs: each pair at the span's first offset
    const double *laneC, *laneS;   // pairs × 8: each pair's turn by each lane's offset
    const double *turnC, *turnS;   // pairs: the turn by one group
    double *cosine, *sine;         // sets × (groups · 8), summed into
    double *re, *im, *sumAbs;      // groups · 8 each, or null: no bound
};

// Pairs l .. l+U-1 through every group of the span: their (cos, sin) stay in registers, turned
// from group to group, and are added into each group's sums (in L1), one pair after the other
// whatever U is. Inlined into each level's sweepSpan.
template <int W, int U, bool UnitA> __attribute__((always_inline)) inline void sweepPairs(const Span &w, int l)
{
    // The span's fields as locals: stores through the sums' pointers would otherwise reload them.
    const int pairs = w.pairs, sets = w.sets, groups = w.groups, span = groups * kLanes;
    const double *const a = w.a ? w.a + l : nullptr, *const b = w.b ? w.b + l : nullptr; // a null: unit
    double *const cosine = w.cosine, *const sine = w.sine;
    double *const reSum = w.re, *const imSum = w.im, *const absSum = w.sumAbs;
    Lanes<W> c[U], s[U];
    double tc[U], ts[U];
    _Pragma("GCC unroll 8") for (int u = 0; u < U; ++u)
    {
        // The seeds: the span's first offset turned by each lane's.
        const double c0 = w.firstC[l + u], s0 = w.firstS[l + u];
        Lanes<W> lc, ls;
        load(lc, w.laneC + (l + u) * kLanes);
        load(ls, w.laneS + (l + u) * kLanes);
        PE_PARTS
        {
            c[u].part[q] = c0 * lc.part[q] - s0 * ls.part[q];
            s[u].part[q] = s0 * lc.part[q] + c0 * ls.part[q];
        }
        tc[u] = w.turnC[l + u];
        ts[u] = w.turnS[l + u];
    }
    for (int g = 0; g < groups; ++g) {
        for (int j = 0; j < sets; ++j) {
            Lanes<W> acc;
            double *out = cosine + j * span + g * kLanes;
            load(acc, out);
            _Pragma("GCC unroll 8") for (int u = 0; u < U; ++u)
            {
                if constexpr (UnitA) { // 1·x is x, exactly
                    PE_PARTS acc.part[q] += c[u].part[q];
                } else {
                    const double aj = a[j * pairs + u];
                    PE_PARTS acc.part[q] += aj * c[u].part[q];
                }
            }
            store(out, acc);
            if (!b)
                continue;
            out = sine + j * span + g * kLanes;
            load(acc, out);
            _Pragma("GCC unroll 8") for (int u = 0; u < U; ++u)
            {
                const double bj = b[j * pairs + u];
                PE_PARTS acc.part[q] += bj * s[u].part[q];
            }
            store(out, acc);
        }
        if (reSum) {
            Lanes<W> re, im, sumAbs;
            load(re, reSum + g * kLanes);
            load(im, imSum + g * kLanes);
            load(sumAbs, absSum + g * kLanes);
            _Pragma("GCC unroll 8") for (int u = 0; u < U; ++u)
            {
                PE_PARTS
                {
                    re.part[q] += c[u].part[q];
                    im.part[q] += s[u].part[q];
                    const typename Lanes<W>::V r2 = re.part[q] * re.part[q] + im.part[q] * im.part[q];
                    typename Lanes<W>::V r;
                    _Pragma("GCC unroll 8") for (int lane = 0; lane < W; ++lane) r[lane] = __builtin_sqrt(r2[lane]);
                    sumAbs.part[q] += r;
                }
            }
            store(reSum + g * kLanes, re);
            store(imSum + g * kLanes, im);
            store(absSum + g * kLanes, sumAbs);
        }
        _Pragma("GCC unroll 8") for (int u = 0; u < U; ++u)
        {
            PE_PARTS
            {
                const typename Lanes<W>::V turned = c[u].part[q] * tc[u] - s[u].part[q] * ts[u];
                s[u].part[q] = s[u].part[q] * tc[u] + c[u].part[q] * ts[u];
                c[u].part[q] = turned;
            }
        }
    }
}

// One span: U pairs at a time, then the rest one by one. The sums must start at zero.
template <int W, int U, bool UnitA> __attribute__((always_inline)) inline void sweepSpanWith(const Span &w)
{
    int l = 0;
    for (; l + U <= w.pairs; l += U)
        sweepPairs<W, U, UnitA>(w, l);
    for (; l < w.pairs; ++l)
        sweepPairs<W, 1, UnitA>(w, l);
}

template <int W, int U> __attribute__((always_inline)) inline void sweepSpanAt(const Span &w)
{
    if (w.unitA)
        sweepSpanWith<W, U, true>(w);
    else
        sweepSpanWith<W, U, false>(w);
}

// One frequency's values at eight offsets a group, turned in registers: `groups` groups from the
// seeds (8 lanes), written to cosines and sines (8 a group, `valid` values in all).
template <int W>
__attribute__((always_inline)) inline void turnGroupsAt(const double *seedC, const double *seedS, double turnC,
                                                        double turnS, int groups, std::int64_t valid, double scale,
                                                        double *__restrict cosines, double *__restrict sines)
{
    Lanes<W> c, s;
    load(c, seedC);
    load(s, seedS);
    for (int g = 0; g < groups; ++g) {
        Lanes<W> cs, ss;
        PE_PARTS
        {
            cs.part[q] = c.part[q] * scale;
            ss.part[q] = s.part[q] * scale;
        }
        if ((g + 1) * kLanes <= valid) {
            store(cosines + g * kLanes, cs);
            store(sines + g * kLanes, ss);
        } else {
            double cl[kLanes], sl[kLanes];
            store(cl, cs);
            store(sl, ss);
            for (int lane = 0; g * kLanes + lane < valid; ++lane) {
                cosines[g * kLanes + lane] = cl[lane];
                sines[g * kLanes + lane] = sl[lane];
            }
        }
        PE_PARTS
        {
            const typename Lanes<W>::V turned = c.part[q] * turnC - s.part[q] * turnS;
            s.part[q] = s.part[q] * turnC + c.part[q] * turnS;
            c.part[q] = turned;
        }
    }
}

#undef PE_PARTS

// Each level's code (simd_clones.h), the same bits at each. Pairs a sweep: four at W 8 (32
// registers), two at W 4 (16 registers, which the (cos, sin) of four pairs would fill: S(k) for
// 100,000 offsets of 512 pairs on both cores of an AVX2 EPYC took 6.2 ms with two, 7.4 with three,
// 8.5 with four, 9.1 with one) and two at W 2 (SSE2: 17.7 ms against 19.9 with one).
#if PE_SIMD_LEVELS
PE_TARGET_V4 void sweepSpanV4(const Span &w)
{
    sweepSpanAt<8, 4>(w);
}
PE_TARGET_V3 void sweepSpanV3(const Span &w)
{
    sweepSpanAt<4, 2>(w);
}
void sweepSpanV1(const Span &w)
{
    sweepSpanAt<2, 2>(w);
}
PE_TARGET_V4 void turnGroupsV4(const double *seedC, const double *seedS, double turnC, double turnS, int groups,
                               std::int64_t valid, double scale, double *cosines, double *sines)
{
    turnGroupsAt<8>(seedC, seedS, turnC, turnS, groups, valid, scale, cosines, sines);
}
PE_TARGET_V3 void turnGroupsV3(const double *seedC, const double *seedS, double turnC, double turnS, int groups,
                               std::int64_t valid, double scale, double *cosines, double *sines)
{
    turnGroupsAt<4>(seedC, seedS, turnC, turnS, groups, valid, scale, cosines, sines);
}
void turnGroupsV1(const double *seedC, const double *seedS, double turnC, double turnS, int groups, std::int64_t valid,
                  double scale, double *cosines, double *sines)
{
    turnGroupsAt<2>(seedC, seedS, turnC, turnS, groups, valid, scale, cosines, sines);
}

void sweepSpan(const Span &w, int level)
{
    if (level >= 4)
        sweepSpanV4(w);
    else if (level == 3)
        sweepSpanV3(w);
    else
        sweepSpanV1(w);
}

void turnGroups(int level, const double *seedC, const double *seedS, double turnC, double turnS, int groups,
                std::int64_t valid, double scale, double *cosines, double *sines)
{
    if (level >= 4)
        turnGroupsV4(seedC, seedS, turnC, turnS, groups, valid, scale, cosines, sines);
    else if (level == 3)
        turnGroupsV3(seedC, seedS, turnC, turnS, groups, valid, scale, cosines, sines);
    else
        turnGroupsV1(seedC, seedS, turnC, turnS, groups, valid, scale, cosines, sines);
}
#else
// One version, for the width this file is compiled for (sanitizer builds, clang): every level is
// this one.
#if defined(__AVX512F__)
constexpr int kWidth = 8, kPairsAt = 4;
#elif defined(__AVX__)
constexpr int kWidth = 4, kPairsAt = 2;
#else
constexpr int kWidth = 2, kPairsAt = 2;
#endif
void sweepSpan(const Span &w, int)
{
    sweepSpanAt<kWidth, kPairsAt>(w);
}
void turnGroups(int, const double *seedC, const double *seedS, double turnC, double turnS, int groups,
                std::int64_t valid, double scale, double *cosines, double *sines)
{
    turnGroupsAt<kWidth>(seedC, seedS, turnC, turnS, groups, valid, scale, cosines, sines);
}
#endif

// A level no higher than the processor's and PE_SIMD's (simdCloneLevel).
int usableLevel(int level)
{
    return std::min(level, simdCloneLevel());
}

// The exact turns of each frequency (by a lane's, a group's and a span's offsets), and the seeds
// of a span: each frequency's (cos, sin) at the span's first eight offsets.
struct Turns {
    const std::vector<double> &theta;
    std::int64_t step;
    std::vector<double> groupC, groupS, spanC, spanS, laneC, laneS;

    Turns(const std::vector<double> &theta_, std::int64_t step_)
        : theta(theta_)
        , step(step_)
    {
        const std::size_t n = theta.size();
        groupC.resize(n), groupS.resize(n), spanC.resize(n), spanS.resize(n);
        laneC.resize(n * kLanes), laneS.resize(n * kLanes);
        for (std::size_t l = 0; l < n; ++l) {
            sinCosOfProduct(static_cast<double>(kLanes * step), theta[l], groupS[l], groupC[l]);
            sinCosOfProduct(static_cast<double>(kSpanGroups * kLanes * step), theta[l], spanS[l], spanC[l]);
            for (int lane = 0; lane < kLanes; ++lane)
                sinCosOfProduct(static_cast<double>(lane * step), theta[l], laneS[l * kLanes + lane],
                                laneC[l * kLanes + lane]);
        }
    }

    // Each frequency's (c0, s0) at span p's first offset from `first`, carried from call to call:
    // exact (sinCosOfProduct) when asked, else the span before's turned by one span, so the calls
    // must come in order between exact ones.
    void advance(std::int64_t first, std::int64_t p, bool exact, double *c0, double *s0) const
    {
        const std::int64_t r0 = p * kSpanGroups * kLanes;
        for (std::size_t l = 0; l < theta.size(); ++l) {
            if (exact) {
                sinCosOfProduct(static_cast<double>(first + r0 * step), theta[l], s0[l], c0[l]);
            } else {
                const double c = c0[l] * spanC[l] - s0[l] * spanS[l];
                s0[l] = s0[l] * spanC[l] + c0[l] * spanS[l];
                c0[l] = c;
            }
        }
    }

    // The same, and span p's seeds (pairs × 8, lane-minor): (c0, s0) turned by each lane's offset,
    // as sweepPairs turns them.
    void seed(std::int64_t first, std::int64_t p, bool exact, double *c0, double *s0, double *seedC,
              double *seedS) const
    {
        advance(first, p, exact, c0, s0);
        for (std::size_t l = 0; l < theta.size(); ++l)
            for (int lane = 0; lane < kLanes; ++lane) {
                const std::size_t at = l * kLanes + static_cast<std::size_t>(lane);
                seedC[at] = c0[l] * laneC[at] - s0[l] * laneS[at];
                seedS[at] = s0[l] * laneC[at] + c0[l] * laneS[at];
            }
    }
};

} // namespace

std::vector<double> pairFrequencies(const Encoding &encoding)
{
    std::vector<double> theta;
    for (int i = 0; i < encoding.pairCount(); ++i) {
        const int cj = encoding.pairCosineColumn(i);
        const double w = encoding.pairFrequency(i);
        if (cj < 0 || encoding.columnFrequency(cj) != w)
            throw std::invalid_argument("pairFrequencies: pair " + std::to_string(i) +
                                        (cj < 0 ? " has no cosine partner" : " turns at two speeds"));
        theta.push_back(w);
    }
    return theta;
}

void turnValues(double theta, double scale, std::int64_t first, std::int64_t count, double *cosines, double *sines)
{
    detail::turnValuesAt(simdCloneLevel(), theta, scale, first, count, cosines, sines);
}

void detail::turnValuesAt(int level, double theta, double scale, std::int64_t first, std::int64_t count,
                          double *cosines, double *sines)
{
    level = usableLevel(level);
    const std::vector<double> one{theta};
    const Turns turns(one, 1);
    double c0 = 0, s0 = 0, seedC[kLanes], seedS[kLanes];
    const std::int64_t span = kSpanGroups * kLanes;
    for (std::int64_t p = 0; p * span < count; ++p) {
        turns.seed(first, p, p % kExactSpans == 0, &c0, &s0, seedC, seedS);
        const std::int64_t valid = std::min(span, count - p * span);
        turnGroups(level, seedC, seedS, turns.groupC[0], turns.groupS[0],
                   static_cast<int>((valid + kLanes - 1) / kLanes), valid, scale, cosines + p * span, sines + p * span);
    }
}

std::vector<OffsetWaveSums> offsetWaveSums(const OffsetWaveRequest &request, const std::vector<std::int64_t> &firsts,
                                           std::int64_t step, std::int64_t count)
{
    return detail::offsetWaveSumsAt(simdCloneLevel(), request, firsts, step, count);
}

std::vector<OffsetWaveSums> detail::offsetWaveSumsAt(int level, const OffsetWaveRequest &request,
                                                     const std::vector<std::int64_t> &firsts, std::int64_t step,
                                                     std::int64_t count)
{
    level = usableLevel(level);
    const int pairs = static_cast<int>(request.theta.size());
    const int sets = request.sets;
    const bool sines = !request.b.empty();
    const auto coefficients = static_cast<std::size_t>(std::max(sets, 0)) * request.theta.size();
    if (sets < 0 || request.a.size() != coefficients || (sines && request.b.size() != coefficients))
        throw std::invalid_argument("offsetWaveSums: a and b must hold sets x pairs coefficients");
    count = std::max<std::int64_t>(count, 0);
    std::vector<OffsetWaveSums> all(firsts.size());
    for (OffsetWaveSums &out : all) {
        out.cosine.assign(static_cast<std::size_t>(sets * count), 0.0);
        if (sines)
            out.sine.assign(static_cast<std::size_t>(sets * count), 0.0);
        if (request.bound)
            out.bound.assign(static_cast<std::size_t>(count), 0.0);
    }
    if (count == 0 || pairs == 0 || firsts.empty())
        return all;

    const Turns turns(request.theta, step);
    const std::int64_t groups = (count + kLanes - 1) / kLanes;
    const std::int64_t spans = (groups + kSpanGroups - 1) / kSpanGroups;
    // A task is a stripe of kExactSpans spans of one first offset: its first span exact, the others
    // turned from it. Threads take whole stripes, so the values do not depend on how many there are.
    const std::int64_t stripes = (spans + kExactSpans - 1) / kExactSpans;
    const double *b = sines ? request.b.data() : nullptr;
    const bool unitA = std::all_of(request.a.begin(), request.a.end(), [](double v) { return v == 1.0; });
    parallelFor(static_cast<std::int64_t>(firsts.size()) * stripes, [&](std::int64_t begin, std::int64_t end) {
        const std::int64_t span = kSpanGroups * kLanes;
        std::vector<double> firstC(static_cast<std::size_t>(pairs)), firstS(firstC.size());
        std::vector<double> cosine(static_cast<std::size_t>(sets * span)), sine(sines ? cosine.size() : 0);
        std::vector<double> re(request.bound ? span : 0), im(re.size()), sumAbs(re.size());
        for (std::int64_t task = begin; task < end; ++task) {
            const auto f = static_cast<std::size_t>(task / stripes);
            OffsetWaveSums &out = all[f];
            const std::int64_t p0 = (task % stripes) * kExactSpans;
            for (std::int64_t p = p0; p < std::min(spans, p0 + kExactSpans); ++p) {
                const std::int64_t g0 = p * kSpanGroups, g1 = std::min(groups, g0 + kSpanGroups);
                const std::int64_t r0 = g0 * kLanes;
                turns.advance(firsts[f], p, p == p0, firstC.data(), firstS.data());
                const auto groupsHere = static_cast<int>(g1 - g0);
                const std::int64_t used = groupsHere * kLanes;
                for (std::vector<double> *v : {&cosine, &sine, &re, &im, &sumAbs})
                    std::fill(v->begin(), v->end(), 0.0);
                Span w{pairs,
                       sets,
                       groupsHere,
                       request.a.data(),
                       b,
                       unitA,
                       firstC.data(),
                       firstS.data(),
                       turns.laneC.data(),
                       turns.laneS.data(),
                       turns.groupC.data(),
                       turns.groupS.data(),
                       cosine.data(),
                       sines ? sine.data() : nullptr,
                       request.bound ? re.data() : nullptr,
                       im.data(),
                       sumAbs.data()};
                sweepSpan(w, level);
                const std::int64_t n = std::min(count - r0, used);
                for (int j = 0; j < sets; ++j) {
                    std::copy_n(cosine.begin() + j * used, n, out.cosine.begin() + j * count + r0);
                    if (sines)
                        std::copy_n(sine.begin() + j * used, n, out.sine.begin() + j * count + r0);
                }
                if (request.bound)
                    for (std::int64_t r = 0; r < n; ++r)
                        out.bound[static_cast<std::size_t>(r0 + r)] = sumAbs[static_cast<std::size_t>(r)] / pairs;
            }
        }
    });
    return all;
}

OffsetWaveSums offsetWaveSums(const OffsetWaveRequest &request, std::int64_t first, std::int64_t step,
                              std::int64_t count)
{
    return std::move(offsetWaveSums(request, std::vector<std::int64_t>{first}, step, count).front());
}

} // namespace pe
