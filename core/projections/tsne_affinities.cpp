#include "projections/tsne.h"

#include "analysis/similarity.h"
#include "projections/neighbors.h"
#include "support/parallel.h"

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

using Entry = std::pair<std::int32_t, double>; // a column of P and its value

// Affinities put together from the first row of each run of rows alike, in order; a run that is
// the last one continued (the same offsets and values) extends it, so the runs are the longest
// whichever way the rows come.
class RunBuilder
{
  public:
    explicit RunBuilder(std::int64_t n)
    {
        a_.n = n;
        a_.runFirst = {0};
        a_.entryStart = {0};
        a_.runOf.reserve(static_cast<std::size_t>(n));
    }

    // Rows first .. first + rows - 1, each row `first` (its entries, by increasing column) shifted.
    void add(std::int64_t first, std::int64_t rows, const Entry *entries, std::size_t count)
    {
        const std::size_t last = a_.entryStart.size() - 1;
        bool same = last > 0 && static_cast<std::size_t>(a_.entryStart[last] - a_.entryStart[last - 1]) == count;
        for (std::size_t e = 0; same && e < count; ++e) {
            const auto at = static_cast<std::size_t>(a_.entryStart[last - 1]) + e;
            same = entries[e].first - first == a_.offset[at] && entries[e].second == a_.p[at];
        }
        if (!same) {
            a_.runFirst.push_back(first);
            a_.entryStart.push_back(a_.entryStart.back() + static_cast<std::int64_t>(count));
            for (std::size_t e = 0; e < count; ++e) {
                a_.offset.push_back(static_cast<std::int32_t>(entries[e].first - first));
                a_.p.push_back(entries[e].second);
            }
        }
        a_.runFirst.back() = first + rows;
        a_.runOf.insert(a_.runOf.end(), static_cast<std::size_t>(rows), static_cast<std::int32_t>(a_.runs() - 1));
    }

    Affinities take() { return std::move(a_); }

  private:
    Affinities a_;
};

// Sorts one row's (column, value) entries by column and adds up the duplicates (a pair that are
// neighbours both ways: two terms, so the order of the sum does not matter); returns the count kept.
std::size_t mergeRow(Entry *first, Entry *last)
{
    std::sort(first, last, [](const auto &x, const auto &y) { return x.first < y.first; });
    auto out = first;
    for (auto it = first; it != last; ++it) {
        if (out != first && (out - 1)->first == it->first)
            (out - 1)->second += it->second;
        else
            *out++ = *it;
    }
    return static_cast<std::size_t>(out - first);
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
    if (3.0 * s.perplexity * static_cast<double>(n) > limits::maxNeighborEntries)
        return TsneProblem{F::Perplexity, "perplexity times seq_len must be at most " +
                                              compactNumber(limits::maxNeighborEntries / 3) + " (got " +
                                              number(s.perplexity) + " x " + withThousands(n) +
                                              "): t-SNE keeps 3 x perplexity neighbours of every position."};
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

std::optional<std::string> projectionTooLarge(const EncodingParams &params, const NoiseParams &noise, bool neighbours)
{
    if (params.seqLen > limits::maxProjectionPositions)
        return "projections take at most " + withThousands(limits::maxProjectionPositions) + " positions (seq_len is " +
               withThousands(params.seqLen) + ").";
    const auto n = static_cast<double>(params.seqLen);
    if (neighbours && neighborSearch(params, noise) == NeighborSearch::Approximate &&
        n * params.dModel > limits::maxApproximateValues)
        return "the approximate neighbour index of these vectors would hold seq_len x d_model = " +
               number(n * params.dModel) + " values, more than " + number(limits::maxApproximateValues) +
               " (1.6 GB); without noise, the sinusoids with the pair exponent and even d_model, or RoPE without "
               "YaRN's factor, need none (their neighbours come from the offsets).";
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
    std::vector<std::int64_t> rowStart(static_cast<std::size_t>(n + 1), 0);
    for (std::int64_t i = 0; i < n; ++i) {
        if ((i & 4095) == 0 && cancel && cancel->load())
            return {};
        rowStart[static_cast<std::size_t>(i + 1)] += k;
        for (int j = 0; j < k; ++j)
            ++rowStart[static_cast<std::size_t>(nb.index[static_cast<std::size_t>(i * k + j)]) + 1];
    }
    for (std::int64_t i = 0; i < n; ++i)
        rowStart[static_cast<std::size_t>(i + 1)] += rowStart[static_cast<std::size_t>(i)];
    std::vector<Entry> entries(static_cast<std::size_t>(rowStart.back()));
    std::vector<std::int64_t> next(rowStart.begin(), rowStart.end() - 1);
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
                merged[static_cast<std::size_t>(i)] =
                    static_cast<std::int64_t>(mergeRow(entries.data() + rowStart[static_cast<std::size_t>(i)],
                                                       entries.data() + rowStart[static_cast<std::size_t>(i + 1)]));
            }
        },
        256);
    if (cancel && cancel->load())
        return {};
    RunBuilder runs(n);
    for (std::int64_t i = 0; i < n; ++i)
        runs.add(i, 1, entries.data() + rowStart[static_cast<std::size_t>(i)],
                 static_cast<std::size_t>(merged[static_cast<std::size_t>(i)]));
    return runs.take();
}

Affinities offsetAffinities(const Encoding &encoding, int k, double perplexity, const std::atomic<bool> *cancel)
{
    const std::int64_t n = encoding.params().seqLen;
    if (k < 1 || k >= n)
        throw std::invalid_argument("offsetAffinities: k must be from 1 to n - 1");
    const OffsetOrder order = offsetOrder(encoding, cancel);
    if (order.n == 0)
        return {};
    const auto stop = [cancel] { return cancel && cancel->load(); };
    const auto uk = static_cast<std::size_t>(k);
    const double half = 0.5 / static_cast<double>(n);

    // 1. Every row's list, as offsets from the row, in runs of rows with the same list: a list
    // changes only where one of the offsets it looks at leaves the window. Each task takes a stretch
    // of rows; runs that continue across stretches are joined after, so the runs do not depend on
    // the number of cores.
    struct ListRun {
        std::int64_t first;
        std::vector<std::int32_t> offsets; // k, nearest first
        std::vector<double> dist2;
    };
    constexpr std::int64_t kTasks = 64;
    std::vector<std::vector<ListRun>> stretches(static_cast<std::size_t>(kTasks));
    parallelFor(
        kTasks,
        [&](std::int64_t t0, std::int64_t t1) {
            std::vector<std::int32_t> index(uk);
            std::vector<double> dist2(uk);
            for (std::int64_t t = t0; t < t1; ++t)
                for (std::int64_t i = n * t / kTasks; i < n * (t + 1) / kTasks; ++i) {
                    if ((i & 4095) == 0 && stop())
                        return;
                    order.row(i, k, index.data(), dist2.data());
                    for (std::int32_t &j : index)
                        j -= static_cast<std::int32_t>(i);
                    auto &runs = stretches[static_cast<std::size_t>(t)];
                    if (runs.empty() || runs.back().offsets != index)
                        runs.push_back({i, index, dist2});
                }
        },
        1);
    if (stop())
        return {};
    std::vector<ListRun> lists;
    for (auto &stretch : stretches)
        for (ListRun &run : stretch)
            if (lists.empty() || lists.back().offsets != run.offsets)
                lists.push_back(std::move(run));
    stretches.clear();
    // Each list's conditional row, and its (offset, p_j|i / 2n) by offset for the look-ups below.
    std::vector<std::vector<Entry>> byOffset(lists.size());
    parallelFor(
        static_cast<std::int64_t>(lists.size()),
        [&](std::int64_t begin, std::int64_t end) {
            std::vector<double> cond(uk);
            for (std::int64_t q = begin; q < end; ++q) {
                const ListRun &list = lists[static_cast<std::size_t>(q)];
                conditionalRow(list.dist2.data(), k, perplexity, cond.data());
                auto &out = byOffset[static_cast<std::size_t>(q)];
                for (std::size_t e = 0; e < uk; ++e)
                    out.push_back({list.offsets[e], cond[e] * half});
            }
        },
        4);
    std::vector<std::int64_t> listFirst;
    std::vector<std::int32_t> every; // every offset any list has
    for (const ListRun &list : lists) {
        listFirst.push_back(list.first);
        every.insert(every.end(), list.offsets.begin(), list.offsets.end());
    }
    std::sort(every.begin(), every.end());
    every.erase(std::unique(every.begin(), every.end()), every.end());
    const auto listOf = [&](std::int64_t j) {
        return static_cast<std::size_t>(std::upper_bound(listFirst.begin(), listFirst.end(), j) - listFirst.begin() -
                                        1);
    };
    for (auto &entries : byOffset) // by offset, for the look-ups (a row's merge sorts its own anyway)
        std::sort(entries.begin(), entries.end(), [](const Entry &x, const Entry &y) { return x.first < y.first; });

    // 2. Row i of P: p_j|i / 2n for its own list, p_i|j / 2n for every row j = i - s that lists i
    // (offset s), merged. It is row i - 1's shifted unless i starts a list, or i - s does for an
    // offset s (or is 0 or n): only there is a row computed.
    std::vector<unsigned char> starts(static_cast<std::size_t>(n), 0);
    std::vector<std::int64_t> edges = listFirst;
    edges.push_back(n);
    for (std::int64_t b : edges) {
        if (b < n)
            starts[static_cast<std::size_t>(b)] = 1;
        for (std::int32_t s : every)
            if (b + s >= 0 && b + s < n)
                starts[static_cast<std::size_t>(b + s)] = 1;
    }
    std::vector<std::int64_t> breaks;
    for (std::int64_t i = 0; i < n; ++i)
        if (starts[static_cast<std::size_t>(i)])
            breaks.push_back(i);
    if (stop())
        return {};
    std::vector<std::vector<Entry>> rows(breaks.size());
    parallelFor(
        static_cast<std::int64_t>(breaks.size()),
        [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t b = begin; b < end; ++b) {
                if ((b & 1023) == 0 && stop())
                    return;
                const std::int64_t i = breaks[static_cast<std::size_t>(b)];
                std::vector<Entry> &entries = rows[static_cast<std::size_t>(b)];
                for (const auto &[s, v] : byOffset[listOf(i)])
                    entries.push_back({static_cast<std::int32_t>(i + s), v});
                for (std::int32_t s : every) {
                    const std::int64_t j = i - s;
                    if (j < 0 || j >= n)
                        continue;
                    const auto &list = byOffset[listOf(j)];
                    const auto it = std::lower_bound(list.begin(), list.end(), s,
                                                     [](const Entry &x, std::int32_t v) { return x.first < v; });
                    if (it != list.end() && it->first == s)
                        entries.push_back({static_cast<std::int32_t>(j), it->second});
                }
                entries.resize(mergeRow(entries.data(), entries.data() + entries.size()));
            }
        },
        16);
    if (stop())
        return {};
    RunBuilder runs(n);
    for (std::size_t b = 0; b < breaks.size(); ++b) {
        const std::int64_t end = b + 1 < breaks.size() ? breaks[b + 1] : n;
        runs.add(breaks[b], end - breaks[b], rows[b].data(), rows[b].size());
    }
    return runs.take();
}

} // namespace pe
