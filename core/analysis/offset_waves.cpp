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

// Eight doubles, one a lane: GCC's vector extension, one AVX-512 register in the x86-64-v4 clone,
// two AVX2 ones in the v3 clone, four SSE2 ones in the baseline (left to itself, the compiler
// vectorised these loops across the pairs, with a shuffle for every lane).
using Lanes = double __attribute__((vector_size(kLanes * sizeof(double))));

#define PE_LOAD(v, p) __builtin_memcpy(&(v), (p), sizeof(Lanes))
#define PE_STORE(p, v) __builtin_memcpy((p), &(v), sizeof(Lanes))

struct Span {
    int pairs, sets, groups;
    const double *a, *b;         // sets × pairs; b null: no sine sums
    const double *seedC, *seedS; // pairs × 8: each pair at the span's first eight offsets
    const double *turnC, *turnS; // pairs: the turn by one group
    double *cosine, *sine;       // sets × (groups · 8), summed into
    double *re, *im, *sumAbs;    // groups · 8 each, or null: no bound
};

// Pairs l .. l+U-1 through every group of the span: their (cos, sin) stay in registers, turned
// from group to group, and are added into each group's sums (in L1). Inlined into the clones.
template <int U> __attribute__((always_inline)) inline void sweepPairs(const Span &w, int l)
{
    Lanes c[U], s[U];
    for (int u = 0; u < U; ++u) {
        PE_LOAD(c[u], w.seedC + (l + u) * kLanes);
        PE_LOAD(s[u], w.seedS + (l + u) * kLanes);
    }
    const int span = w.groups * kLanes;
    for (int g = 0; g < w.groups; ++g) {
        for (int j = 0; j < w.sets; ++j) {
            Lanes acc;
            double *out = w.cosine + j * span + g * kLanes;
            PE_LOAD(acc, out);
            for (int u = 0; u < U; ++u)
                acc += w.a[j * w.pairs + l + u] * c[u];
            PE_STORE(out, acc);
            if (!w.b)
                continue;
            out = w.sine + j * span + g * kLanes;
            PE_LOAD(acc, out);
            for (int u = 0; u < U; ++u)
                acc += w.b[j * w.pairs + l + u] * s[u];
            PE_STORE(out, acc);
        }
        if (w.re) {
            Lanes re, im, sumAbs;
            PE_LOAD(re, w.re + g * kLanes);
            PE_LOAD(im, w.im + g * kLanes);
            PE_LOAD(sumAbs, w.sumAbs + g * kLanes);
            for (int u = 0; u < U; ++u) {
                re += c[u];
                im += s[u];
                const Lanes r2 = re * re + im * im;
                Lanes r;
                for (int lane = 0; lane < kLanes; ++lane)
                    r[lane] = __builtin_sqrt(r2[lane]);
                sumAbs += r;
            }
            PE_STORE(w.re + g * kLanes, re);
            PE_STORE(w.im + g * kLanes, im);
            PE_STORE(w.sumAbs + g * kLanes, sumAbs);
        }
        for (int u = 0; u < U; ++u) {
            const double tc = w.turnC[l + u], ts = w.turnS[l + u];
            const Lanes turned = c[u] * tc - s[u] * ts;
            s[u] = s[u] * tc + c[u] * ts;
            c[u] = turned;
        }
    }
}

// One span: four pairs at a time, then the rest one by one. The sums must start at zero.
PE_CLONES void sweepSpan(const Span &w)
{
    int l = 0;
    for (; l + 4 <= w.pairs; l += 4)
        sweepPairs<4>(w, l);
    for (; l < w.pairs; ++l)
        sweepPairs<1>(w, l);
}

// One frequency's values at eight offsets a group, turned in registers: `groups` groups from the
// seeds (8 lanes), written to cosines and sines (8 a group, `valid` values in all).
PE_CLONES void turnGroups(const double *seedC, const double *seedS, double turnC, double turnS, int groups,
                          std::int64_t valid, double scale, double *__restrict cosines, double *__restrict sines)
{
    Lanes c, s;
    PE_LOAD(c, seedC);
    PE_LOAD(s, seedS);
    for (int g = 0; g < groups; ++g) {
        const Lanes cs = c * scale, ss = s * scale;
        if ((g + 1) * kLanes <= valid) {
            PE_STORE(cosines + g * kLanes, cs);
            PE_STORE(sines + g * kLanes, ss);
        } else {
            for (int lane = 0; g * kLanes + lane < valid; ++lane) {
                cosines[g * kLanes + lane] = cs[lane];
                sines[g * kLanes + lane] = ss[lane];
            }
        }
        const Lanes turned = c * turnC - s * turnS;
        s = s * turnC + c * turnS;
        c = turned;
    }
}

#undef PE_LOAD
#undef PE_STORE

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

    // Span p's seeds (pairs × 8, lane-minor) for offsets from `first`. (c0, s0) carry each
    // frequency's value at the span's first offset from call to call: exact (sinCosOfProduct) when
    // asked, else the span before's turned by one span, so the calls must come in order between
    // exact ones.
    void seed(std::int64_t first, std::int64_t p, bool exact, double *c0, double *s0, double *seedC,
              double *seedS) const
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
            for (int lane = 0; lane < kLanes; ++lane) {
                const std::size_t at = l * kLanes + static_cast<std::size_t>(lane);
                seedC[at] = c0[l] * laneC[at] - s0[l] * laneS[at];
                seedS[at] = s0[l] * laneC[at] + c0[l] * laneS[at];
            }
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
    const std::vector<double> one{theta};
    const Turns turns(one, 1);
    double c0 = 0, s0 = 0, seedC[kLanes], seedS[kLanes];
    const std::int64_t span = kSpanGroups * kLanes;
    for (std::int64_t p = 0; p * span < count; ++p) {
        turns.seed(first, p, p % kExactSpans == 0, &c0, &s0, seedC, seedS);
        const std::int64_t valid = std::min(span, count - p * span);
        turnGroups(seedC, seedS, turns.groupC[0], turns.groupS[0], static_cast<int>((valid + kLanes - 1) / kLanes),
                   valid, scale, cosines + p * span, sines + p * span);
    }
}

std::vector<OffsetWaveSums> offsetWaveSums(const OffsetWaveRequest &request, const std::vector<std::int64_t> &firsts,
                                           std::int64_t step, std::int64_t count)
{
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
    parallelFor(static_cast<std::int64_t>(firsts.size()) * stripes, [&](std::int64_t begin, std::int64_t end) {
        const std::int64_t span = kSpanGroups * kLanes;
        std::vector<double> seedC(static_cast<std::size_t>(pairs) * kLanes), seedS(seedC.size());
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
                turns.seed(firsts[f], p, p == p0, firstC.data(), firstS.data(), seedC.data(), seedS.data());
                const auto groupsHere = static_cast<int>(g1 - g0);
                const std::int64_t used = groupsHere * kLanes;
                for (std::vector<double> *v : {&cosine, &sine, &re, &im, &sumAbs})
                    std::fill(v->begin(), v->end(), 0.0);
                Span w{pairs,
                       sets,
                       groupsHere,
                       request.a.data(),
                       b,
                       seedC.data(),
                       seedS.data(),
                       turns.groupC.data(),
                       turns.groupS.data(),
                       cosine.data(),
                       sines ? sine.data() : nullptr,
                       request.bound ? re.data() : nullptr,
                       im.data(),
                       sumAbs.data()};
                sweepSpan(w);
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
