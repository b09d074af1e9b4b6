#include "tsne.h"

#include "parallel.h"
#include "similarity.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <utility>

namespace pe {

namespace {

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// The conditional row p_j|i for one row of squared distances, with beta found by bisection.
void conditionalRow(const double *dist2, int k, double perplexity, double *out)
{
    const double target = std::log(perplexity);
    const double dmin = *std::min_element(dist2, dist2 + k);
    double beta = 1.0, lo = 0.0, hi = std::numeric_limits<double>::infinity();
    for (int it = 0; it < 200; ++it) {
        double sum = 0, weighted = 0;
        for (int j = 0; j < k; ++j) {
            const double e = std::exp(-beta * (dist2[j] - dmin));
            out[j] = e;
            sum += e;
            weighted += (dist2[j] - dmin) * e;
        }
        const double entropy = std::log(sum) + beta * weighted / sum;
        for (int j = 0; j < k; ++j)
            out[j] /= sum;
        const double diff = entropy - target;
        if (std::abs(diff) < 1e-5)
            return;
        if (diff > 0) { // too flat: sharpen
            lo = beta;
            beta = std::isinf(hi) ? beta * 2 : (beta + hi) / 2;
        } else {
            hi = beta;
            beta = (beta + lo) / 2;
        }
    }
}

} // namespace

std::optional<TsneProblem> checkTsne(const TsneSettings &s, std::int64_t n)
{
    using F = TsneField;
    const std::string iterations = withThousands(limits::maxTsneIterations);
    if (n < 3)
        return TsneProblem{F::Positions, "t-SNE needs at least 3 positions (seq_len is " + std::to_string(n) + ")."};
    if (!(s.perplexity >= 1.0 && s.perplexity <= limits::maxPerplexity))
        return TsneProblem{F::Perplexity, "perplexity must be from 1 to " + number(limits::maxPerplexity) + " (got " +
                                              number(s.perplexity) + ")."};
    if (s.perplexity >= static_cast<double>(n))
        return TsneProblem{F::Perplexity, "perplexity must be below the number of positions, " + std::to_string(n) +
                                              " (got " + number(s.perplexity) + ")."};
    if (s.iterations < 1 || s.iterations > limits::maxTsneIterations)
        return TsneProblem{F::Iterations, "iterations must be from 1 to " + iterations + " (got " +
                                              std::to_string(s.iterations) + ")."};
    if (!(s.learningRate == 0.0 || (s.learningRate > 0.0 && s.learningRate <= limits::maxLearningRate)))
        return TsneProblem{F::LearningRate, "learning rate must be auto (0) or above 0 and at most " +
                                                compactNumber(limits::maxLearningRate) + " (got " +
                                                number(s.learningRate) + ")."};
    if (!(s.earlyExaggeration >= 1.0 && s.earlyExaggeration <= limits::maxExaggeration))
        return TsneProblem{F::Exaggeration, "early exaggeration must be from 1 to " + number(limits::maxExaggeration) +
                                                " (got " + number(s.earlyExaggeration) + ")."};
    if (s.exaggerationIterations < 0 || s.exaggerationIterations > limits::maxTsneIterations)
        return TsneProblem{F::ExaggerationIterations, "exaggeration iterations must be from 0 to " + iterations +
                                                          " (got " + std::to_string(s.exaggerationIterations) + ")."};
    if (!(s.theta >= 0.0 && s.theta <= 1.0))
        return TsneProblem{F::Theta, "theta must be from 0 to 1 (got " + number(s.theta) + ")."};
    return std::nullopt;
}

std::optional<std::string> validateTsne(const TsneSettings &s, std::int64_t n)
{
    if (auto problem = checkTsne(s, n))
        return std::move(problem->message);
    return std::nullopt;
}

std::optional<std::string> projectionTooLarge(const EncodingParams &params, const NoiseParams &noise, bool tsne)
{
    if (params.seqLen > limits::maxProjectionPositions)
        return "projections take at most 100,000 positions (seq_len is " + std::to_string(params.seqLen) + ").";
    const double work = static_cast<double>(params.seqLen) * static_cast<double>(params.seqLen) * params.dModel;
    if (tsne && !OffsetKernel::applies(params, noise) && params.seqLen > kExactMaxPoints &&
        work > limits::maxExactNeighborWork)
        return "t-SNE of these vectors needs an exact neighbour search of seq_len^2 x d_model = " + number(work) +
               " operations, more than " + number(limits::maxExactNeighborWork) +
               "; without noise, with the pair exponent and even d_model the offsets give it for free.";
    return std::nullopt;
}

Affinities affinities(const Neighbors &nb, double perplexity, const std::atomic<bool> *cancel)
{
    const std::int64_t n = nb.n;
    const int k = nb.k;
    if (cancel && cancel->load())
        return {};
    std::vector<double> cond(static_cast<std::size_t>(n * k));
    parallelFor(
        n,
        [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) {
                if ((i & 1023) == 0 && cancel && cancel->load())
                    return;
                const double *d = &nb.dist2[static_cast<std::size_t>(i * k)];
                double *out = &cond[static_cast<std::size_t>(i * k)];
                if (i > begin && std::memcmp(d, d - k, sizeof(double) * static_cast<std::size_t>(k)) == 0)
                    std::copy(out - k, out, out);
                else
                    conditionalRow(d, k, perplexity, out);
            }
        },
        64);
    if (cancel && cancel->load())
        return {};

    // p_ij = (p_j|i + p_i|j) / 2n: every directed pair adds to both (i, j) and (j, i).
    Affinities a;
    a.n = n;
    a.rowStart.assign(static_cast<std::size_t>(n + 1), 0);
    for (std::int64_t i = 0; i < n; ++i) {
        if ((i & 4095) == 0 && cancel && cancel->load())
            return {};
        a.rowStart[static_cast<std::size_t>(i + 1)] += k;
        for (int j = 0; j < k; ++j)
            ++a.rowStart[static_cast<std::size_t>(nb.index[static_cast<std::size_t>(i * k + j)]) + 1];
    }
    for (std::int64_t i = 0; i < n; ++i)
        a.rowStart[static_cast<std::size_t>(i + 1)] += a.rowStart[static_cast<std::size_t>(i)];
    std::vector<std::pair<std::int32_t, double>> entries(static_cast<std::size_t>(a.rowStart.back()));
    std::vector<std::int64_t> next(a.rowStart.begin(), a.rowStart.end() - 1);
    const double half = 0.5 / static_cast<double>(n);
    for (std::int64_t i = 0; i < n; ++i) {
        if ((i & 4095) == 0 && cancel && cancel->load())
            return {};
        for (int j = 0; j < k; ++j) {
            const std::int32_t other = nb.index[static_cast<std::size_t>(i * k + j)];
            const double v = cond[static_cast<std::size_t>(i * k + j)] * half;
            entries[static_cast<std::size_t>(next[static_cast<std::size_t>(i)]++)] = {other, v};
            entries[static_cast<std::size_t>(next[static_cast<std::size_t>(other)]++)] = {static_cast<std::int32_t>(i),
                                                                                          v};
        }
    }
    // Sort each row by column and merge the duplicates (pairs that are neighbours both ways).
    std::vector<std::int64_t> merged(static_cast<std::size_t>(n));
    parallelFor(
        n,
        [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) {
                if ((i & 4095) == 0 && cancel && cancel->load())
                    return;
                auto first = entries.begin() + a.rowStart[static_cast<std::size_t>(i)];
                auto last = entries.begin() + a.rowStart[static_cast<std::size_t>(i + 1)];
                std::sort(first, last, [](const auto &x, const auto &y) { return x.first < y.first; });
                auto out = first;
                for (auto it = first; it != last; ++it) {
                    if (out != first && (out - 1)->first == it->first)
                        (out - 1)->second += it->second;
                    else
                        *out++ = *it;
                }
                merged[static_cast<std::size_t>(i)] = out - first;
            }
        },
        256);
    if (cancel && cancel->load())
        return {};
    std::int64_t total = 0;
    for (std::int64_t m : merged)
        total += m;
    a.col.reserve(static_cast<std::size_t>(total));
    a.p.reserve(static_cast<std::size_t>(total));
    std::vector<std::int64_t> starts(static_cast<std::size_t>(n + 1), 0);
    for (std::int64_t i = 0; i < n; ++i) {
        const auto first = static_cast<std::size_t>(a.rowStart[static_cast<std::size_t>(i)]);
        for (std::int64_t e = 0; e < merged[static_cast<std::size_t>(i)]; ++e) {
            a.col.push_back(entries[first + static_cast<std::size_t>(e)].first);
            a.p.push_back(entries[first + static_cast<std::size_t>(e)].second);
        }
        starts[static_cast<std::size_t>(i + 1)] = static_cast<std::int64_t>(a.col.size());
    }
    a.rowStart = std::move(starts);
    return a;
}

} // namespace pe
