// The offset sums of offset_waves.h, in a file of their own for -O3 and the per-CPU clones.
#include "offset_waves.h"

#include "encoding.h"
#include "parallel.h"
#include "simd_clones.h"

#include <algorithm>
#include <cmath>

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

#undef PE_LOAD
#undef PE_STORE

} // namespace

OffsetWaveSums offsetWaveSums(const OffsetWaveRequest &request, std::int64_t first, std::int64_t step,
                              std::int64_t count)
{
    OffsetWaveSums out;
    const int pairs = static_cast<int>(request.theta.size());
    const int sets = request.sets;
    const bool sines = !request.b.empty();
    count = std::max<std::int64_t>(count, 0);
    out.cosine.assign(static_cast<std::size_t>(sets * count), 0.0);
    if (sines)
        out.sine.assign(static_cast<std::size_t>(sets * count), 0.0);
    if (request.bound)
        out.bound.assign(static_cast<std::size_t>(count), 0.0);
    if (count == 0 || pairs == 0)
        return out;

    // Exact turns: by one group (8·step·θ) and, for the reseed, by each lane (ℓ·step·θ).
    std::vector<double> groupC(static_cast<std::size_t>(pairs)), groupS(groupC.size());
    std::vector<double> turnC(groupC.size()), turnS(groupC.size()); // by one span
    std::vector<double> laneC(static_cast<std::size_t>(pairs) * kLanes), laneS(laneC.size());
    for (int l = 0; l < pairs; ++l) {
        const double theta = request.theta[static_cast<std::size_t>(l)];
        const auto at = static_cast<std::size_t>(l);
        sinCosOfProduct(static_cast<double>(kLanes * step), theta, groupS[at], groupC[at]);
        sinCosOfProduct(static_cast<double>(kSpanGroups * kLanes * step), theta, turnS[at], turnC[at]);
        for (int lane = 0; lane < kLanes; ++lane)
            sinCosOfProduct(static_cast<double>(lane * step), theta, laneS[at * kLanes + lane],
                            laneC[at * kLanes + lane]);
    }
    const std::int64_t groups = (count + kLanes - 1) / kLanes;
    const std::int64_t spans = (groups + kSpanGroups - 1) / kSpanGroups;
    const double *b = sines ? request.b.data() : nullptr;
    parallelFor(
        spans,
        [&](std::int64_t begin, std::int64_t end) {
            const std::int64_t span = kSpanGroups * kLanes;
            std::vector<double> seedC(static_cast<std::size_t>(pairs) * kLanes), seedS(seedC.size());
            std::vector<double> spanC(static_cast<std::size_t>(pairs)), spanS(spanC.size());
            std::vector<double> cosine(static_cast<std::size_t>(sets * span)), sine(sines ? cosine.size() : 0);
            std::vector<double> re(request.bound ? span : 0), im(re.size()), sumAbs(re.size());
            for (std::int64_t p = begin; p < end; ++p) {
                const std::int64_t g0 = p * kSpanGroups, g1 = std::min(groups, g0 + kSpanGroups);
                const std::int64_t r0 = g0 * kLanes;
                const bool exact = (p - begin) % kExactSpans == 0;
                for (int l = 0; l < pairs; ++l) {
                    double &s0 = spanS[static_cast<std::size_t>(l)], &c0 = spanC[static_cast<std::size_t>(l)];
                    if (exact) {
                        sinCosOfProduct(static_cast<double>(first + r0 * step),
                                        request.theta[static_cast<std::size_t>(l)], s0, c0);
                    } else { // the span before's first offset turned by one span
                        const double c =
                            c0 * turnC[static_cast<std::size_t>(l)] - s0 * turnS[static_cast<std::size_t>(l)];
                        s0 = s0 * turnC[static_cast<std::size_t>(l)] + c0 * turnS[static_cast<std::size_t>(l)];
                        c0 = c;
                    }
                    for (int lane = 0; lane < kLanes; ++lane) {
                        const std::size_t at = static_cast<std::size_t>(l) * kLanes + lane;
                        seedC[at] = c0 * laneC[at] - s0 * laneS[at];
                        seedS[at] = s0 * laneC[at] + c0 * laneS[at];
                    }
                }
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
                       groupC.data(),
                       groupS.data(),
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
        },
        4);
    return out;
}

} // namespace pe
