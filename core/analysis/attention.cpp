#include "analysis/attention.h"

#include "analysis/offset_waves.h"
#include "encodings/position_table.h"
#include "encodings/relative_buckets.h"
#include "encodings/rope.h"
#include "encodings/scheme.h"
#include "support/parallel.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>
#include <optional>
#include <random>
#include <stdexcept>

namespace pe {

namespace {

// xPos's per-offset sums Σ_l ζ_l^(k/γ)·(a_l cos kθ_l − b_l sin kθ_l) at k = m ("after": the keys
// before the query) and, when asked, at k = −m ("before"), m = 0..count-1; b empty: no sine terms.
// cos and sin from turnValues (as offsetWaveSums turns them), the scale from exp of the exact
// exponent; each chunk of offsets sums its pairs in order, so any thread count gives the same bits.
struct XposSums {
    std::vector<double> after, before;
};
XposSums xposOffsetSums(const std::vector<double> &theta, const std::vector<double> &zeta, double gamma,
                        const std::vector<double> &a, const std::vector<double> &b, std::int64_t count, bool before)
{
    XposSums out;
    out.after.assign(static_cast<std::size_t>(count), 0.0);
    if (before)
        out.before.assign(static_cast<std::size_t>(count), 0.0);
    constexpr std::int64_t kChunk = 4096;
    parallelFor((count + kChunk - 1) / kChunk, [&](std::int64_t firstChunk, std::int64_t endChunk) {
        std::vector<double> cosines(kChunk), sines(kChunk);
        for (std::int64_t c = firstChunk; c < endChunk; ++c) {
            const std::int64_t first = c * kChunk, length = std::min(kChunk, count - first);
            for (std::size_t l = 0; l < theta.size(); ++l) {
                turnValues(theta[l], 1.0, first, length, cosines.data(), sines.data());
                const double rate = std::log(zeta[l]) / gamma, bl = b.empty() ? 0.0 : b[l];
                for (std::int64_t i = 0; i < length; ++i) {
                    const auto at = static_cast<std::size_t>(first + i);
                    const double m = static_cast<double>(first + i);
                    const double even = a[l] * cosines[static_cast<std::size_t>(i)];
                    const double odd = bl * sines[static_cast<std::size_t>(i)];
                    out.after[at] += std::exp(m * rate) * (even - odd);
                    if (before)
                        out.before[at] += std::exp(-m * rate) * (even + odd);
                }
            }
        }
    });
    return out;
}

// The N x N path (a table, the per-index exponent, odd d): at most this many positions, and
// N·N·d multiply-adds.
constexpr std::int64_t kMaxMatrixPositions = 4096;
constexpr double kMaxMatrixWork = 2.2e9;

// Standard normal numbers from a 64-bit Mersenne Twister and Box-Muller written out, so a seed
// gives the same vectors with every standard library.
class Gaussian
{
  public:
    explicit Gaussian(std::uint64_t seed)
        : engine_(seed)
    {
    }
    double operator()()
    {
        if (spare_) {
            spare_ = false;
            return next_;
        }
        const double u1 = (static_cast<double>(engine_() >> 11) + 1.0) * 0x1.0p-53; // (0, 1]
        const double u2 = static_cast<double>(engine_() >> 11) * 0x1.0p-53;         // [0, 1)
        const double r = std::sqrt(-2.0 * std::log(u1));
        next_ = r * std::sin(2 * std::numbers::pi * u2);
        spare_ = true;
        return r * std::cos(2 * std::numbers::pi * u2);
    }

  private:
    std::mt19937_64 engine_;
    bool spare_ = false;
    double next_ = 0;
};

// Re and Im of q̃_i·conj(k̃_i) for every pair, q̃_i = q[cos column] + i·q[sin column]: RoPE's score
// at offset k = t - s is Σ_i Re[(c_i + i b_i) e^{i k θ_i}].
void pairProducts(const Encoding &rope, const std::vector<double> &q, const std::vector<double> &k,
                  std::vector<double> &c, std::vector<double> &b)
{
    const int pairs = rope.pairCount();
    c.resize(static_cast<std::size_t>(pairs));
    b.resize(static_cast<std::size_t>(pairs));
    for (int i = 0; i < pairs; ++i) {
        const auto re = static_cast<std::size_t>(rope.pairCosineColumn(i));
        const auto im = static_cast<std::size_t>(rope.pairSineColumn(i));
        c[static_cast<std::size_t>(i)] = q[re] * k[re] + q[im] * k[im];
        b[static_cast<std::size_t>(i)] = q[im] * k[re] - q[re] * k[im];
    }
}

// The encoding's pairs as frequencies for offsetWaveSums (a RoPE or sinusoidal encoding whose dot
// products depend on the offset alone: every pair has a cosine partner).
OffsetWaveRequest pairWaves(const Encoding &encoding)
{
    OffsetWaveRequest r;
    r.theta = pairFrequencies(encoding);
    return r;
}

} // namespace

std::string_view queryKeyName(QueryKey q)
{
    switch (q) {
    case QueryKey::Ones:
        return "ones";
    case QueryKey::Random:
        return "random";
    }
    return "";
}

std::vector<double> queryKeyVector(QueryKey qk, int d, std::uint64_t seed, int which)
{
    std::vector<double> v(static_cast<std::size_t>(d), 1.0);
    if (qk == QueryKey::Random) {
        Gaussian g(seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(which) + 1);
        for (double &x : v)
            x = g();
    }
    return v;
}

bool PositionalAttention::offsetOnly(const EncodingParams &p)
{
    switch (p.scheme) {
    case SchemeId::Sinusoidal:
        return dotDependsOnOffsetOnly(p);
    case SchemeId::Rope:
    case SchemeId::Alibi:
    case SchemeId::T5:
        return true;
    case SchemeId::Table:
        return false;
    }
    return false;
}

std::string offsetWorkTooLarge(const EncodingParams &p, std::string_view what)
{
    if (static_cast<double>(p.seqLen) * p.dModel <= kMaxOffsetWork)
        return {};
    return std::string(what) + " needs a score for every offset 0..N-1, O(d) each: N·d up to " +
           withThousands(static_cast<std::int64_t>(kMaxOffsetWork)) + " (this window: " + withThousands(p.seqLen) +
           " x " + withThousands(p.dModel) + " = " + withThousands(p.seqLen * p.dModel) +
           "). Fewer positions or a smaller d_model draw it.";
}

std::string xposNeedsCausal(const EncodingParams &p, bool causal)
{
    if (p.scheme != SchemeId::Rope || p.xposScaleBase <= 0 || causal)
        return {};
    return "xPos is a decoder's: it scales the keys after the query by ζ^(-(s-t)/γ), without bound, and "
           "each row's softmax then weighs only those (torchscale applies it under the causal mask): check "
           "causal (--causal).";
}

std::string PositionalAttention::tooLarge(const EncodingParams &p)
{
    if (!addsVector(p.scheme))
        return {};
    if (offsetOnly(p))
        return offsetWorkTooLarge(p, "Attention over the whole window");
    const double work = static_cast<double>(p.seqLen) * static_cast<double>(p.seqLen) * p.dModel;
    if (p.seqLen <= kMaxMatrixPositions && work <= kMaxMatrixWork)
        return {};
    return "Here attention does not depend on t - s alone, so all N x N scores are computed: at most " +
           withThousands(kMaxMatrixPositions) +
           " positions and N²·d up to 2.2e9 (this window: " + withThousands(p.seqLen) + " positions, d " +
           withThousands(p.dModel) + ").";
}

std::string_view layerKindName(LayerKind l)
{
    return l == LayerKind::Local ? "local" : l == LayerKind::Nope ? "nope" : "global";
}

namespace {

// The encoding a layer's attention is of: a local layer's own (its base, no scaling), or the one given.
const Encoding &layerEncoding(const Encoding &encoding, const AttentionSettings &settings,
                              std::optional<Encoding> &local)
{
    if (settings.layer != LayerKind::Local || !hasLocalLayers(encoding.params()))
        return encoding;
    local.emplace(localLayers(encoding.params()));
    return *local;
}

} // namespace

PositionalAttention::PositionalAttention(const Encoding &global, const AttentionSettings &settings,
                                         PositionalAttention *recycle)
    : first_(global.params().startPos)
    , n_(global.params().seqLen)
    , causal_(settings.causal)
    , window_(settings.layer == LayerKind::Local && hasLocalLayers(global.params()) ? global.params().slidingWindow : 0)
    , offset_(offsetOnly(global.params()))
{
    std::optional<Encoding> local;
    const Encoding &encoding = layerEncoding(global, settings, local);
    const EncodingParams &p = encoding.params();
    const int d = p.dModel;
    const double scale = 1.0 / std::sqrt(static_cast<double>(d));
    if (!offset_) {
        // Every score of the window: X Xᵀ/√d.
        Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> x(n_, d);
        encoding.fill(encoding.windowBlock(), x.data());
        Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> g = (x * x.transpose()) * scale;
        scores_.assign(g.data(), g.data() + g.size());
        rowMax_.resize(static_cast<std::size_t>(n_));
        rowSum_.resize(static_cast<std::size_t>(n_));
        for (std::int64_t r = 0; r < n_; ++r) {
            const double *row = scores_.data() + r * n_;
            const auto [begin, end] = keyRange(r);
            const double top = *std::max_element(row + begin, row + end);
            double sum = 0;
            for (std::int64_t c = begin; c < end; ++c)
                sum += std::exp(row[c] - top);
            rowMax_[static_cast<std::size_t>(r)] = top;
            rowSum_[static_cast<std::size_t>(r)] = sum;
        }
        return;
    }
    // One score per offset k = t - s in [-(N-1), N-1].
    if (recycle) {
        f_ = std::move(recycle->f_);
        exp_ = std::move(recycle->exp_);
        prefix_ = std::move(recycle->prefix_);
    }
    f_.assign(static_cast<std::size_t>(2 * n_ - 1), 0.0);
    const auto at = [this](std::int64_t k) -> double & { return f_[static_cast<std::size_t>(k + n_ - 1)]; };
    const bool nope = settings.layer == LayerKind::Nope && hasNopeLayers(p);
    const auto keepWaves = [this](const OffsetWaveRequest &r, double scale) {
        realScores_ = RealScores::Waves;
        realTheta_ = r.theta;
        realA_ = r.a;
        realB_ = r.b;
        realScale_ = scale;
    };
    if (nope)
        realScores_ = RealScores::Zero;
    // A NoPE layer's scores stay 0: no position enters them.
    if (!nope)
        switch (p.scheme) {
        case SchemeId::Alibi: {
            const double slope = alibiSlopes(p.heads)[static_cast<std::size_t>(p.head - 1)];
            for (std::int64_t k = -(n_ - 1); k < n_; ++k)
                at(k) = -slope * static_cast<double>(k < 0 ? -k : k);
            realScores_ = RealScores::Alibi;
            slope_ = slope;
            break;
        }
        case SchemeId::Rope: {
            OffsetWaveRequest r = pairWaves(encoding);
            r.sets = 1;
            pairProducts(encoding, queryKeyVector(settings.qk, d, settings.seed, 0),
                         queryKeyVector(settings.qk, d, settings.seed, 1), r.a, r.b);
            // The attention factor is on the cos and sin of both q and k: twice, on the rotated pairs
            // alone (partial rotary's standing pairs keep theirs).
            for (std::size_t l = 0; l < r.a.size(); ++l) {
                const double amp = encoding.pairAmplitude(static_cast<int>(l));
                r.a[l] *= amp * amp;
                r.b[l] *= amp * amp;
            }
            const double factor = scale;
            if (p.xposScaleBase > 0) { // xPos: pair l's term scaled by ζ_l^((t-s)/γ)
                const XposSums x = xposOffsetSums(r.theta, xposZeta(d, p.rope), p.xposScaleBase, r.a, r.b, n_, true);
                for (std::int64_t m = 0; m < n_; ++m) {
                    at(m) = factor * x.after[static_cast<std::size_t>(m)];
                    at(-m) = factor * x.before[static_cast<std::size_t>(m)];
                }
                break;
            }
            const OffsetWaveSums sums = offsetWaveSums(r, 0, 1, n_);
            for (std::int64_t m = 0; m < n_; ++m) {
                const double even = sums.cosine[static_cast<std::size_t>(m)],
                             odd = sums.sine[static_cast<std::size_t>(m)];
                at(m) = factor * (even - odd); // Re[(c + ib)(cos + i sin)] at k = m
                at(-m) = factor * (even + odd);
            }
            keepWaves(r, factor);
            break;
        }
        case SchemeId::Sinusoidal: {
            // PE(t)·PE(s) = PE(0)·PE(t - s) = Σ_i cos((t - s) w_i) here (dotDependsOnOffsetOnly), even in k.
            OffsetWaveRequest r = pairWaves(encoding);
            r.sets = 1;
            r.a.assign(r.theta.size(), 1.0);
            const OffsetWaveSums sums = offsetWaveSums(r, 0, 1, n_);
            for (std::int64_t m = 0; m < n_; ++m)
                at(m) = at(-m) = sums.cosine[static_cast<std::size_t>(m)] * scale;
            r.b.assign(r.theta.size(), 0.0);
            keepWaves(r, scale);
            break;
        }
        case SchemeId::T5: // the learned bias of the offset's bucket (the view refuses T5 without its table)
            if (p.biasTable) {
                // T5's relative_position is memory minus query, s - t = -k; the decoder's buckets
                // under the causal mask, the encoder's otherwise (T5Attention.compute_bias).
                const T5Buckets b{p.buckets, p.maxDistance, !causal_};
                for (const T5Run &run : t5Runs(b, -(n_ - 1), n_ - 1)) {
                    const double bias = p.biasTable->value(run.bucket, p.head - 1);
                    for (std::int64_t s = run.first; s <= run.last; ++s)
                        at(-s) = bias;
                }
            }
            break;
        case SchemeId::Table: // scored row by row above
            break;
        }
    // Row t's softmax sum is a run of exp(f(k) - max) over its offsets: prefix sums in long double,
    // so a row's sum keeps its digits next to the whole window's. The maximum is over the offsets
    // some row sees (k >= 0 under the causal mask, |k| < W in a local layer): a masked offset's
    // score (xPos scales the keys after t up without bound) must not push the seen ones' exp to 0,
    // and its own exp, never read, is 0 so no prefix sum overflows.
    const std::int64_t seenLow = std::max(causal_ ? std::int64_t{0} : -(n_ - 1), window_ > 0 ? 1 - window_ : -(n_ - 1));
    const std::int64_t seenHigh = window_ > 0 ? std::min(n_ - 1, window_ - 1) : n_ - 1;
    max_ = *std::max_element(f_.begin() + (seenLow + n_ - 1), f_.begin() + (seenHigh + n_));
    exp_.resize(f_.size());
    parallelFor(
        static_cast<std::int64_t>(f_.size()),
        [this, seenLow, seenHigh](std::int64_t begin, std::int64_t end) {
            for (std::int64_t j = begin; j < end; ++j) {
                const std::int64_t k = j - (n_ - 1);
                exp_[static_cast<std::size_t>(j)] =
                    k < seenLow || k > seenHigh ? 0.0 : std::exp(f_[static_cast<std::size_t>(j)] - max_);
            }
        },
        16'384);
    prefix_.resize(f_.size() + 1);
    prefix_[0] = 0;
    for (std::size_t j = 0; j < f_.size(); ++j)
        prefix_[j + 1] = prefix_[j] + static_cast<long double>(exp_[j]);
}

PositionalAttention PositionalAttention::rebased(std::int64_t first) &&
{
    if (!offset_)
        throw std::logic_error("PositionalAttention::rebased: the N x N scores belong to their window");
    PositionalAttention moved = std::move(*this);
    moved.first_ = first;
    return moved;
}

double PositionalAttention::logit(std::int64_t t, std::int64_t s) const
{
    if (masked(t, s))
        return -std::numeric_limits<double>::infinity();
    if (offset_)
        return offsetScore(t - s);
    return scores_[static_cast<std::size_t>((t - first_) * n_ + (s - first_))];
}

std::pair<std::int64_t, std::int64_t> PositionalAttention::keyRange(std::int64_t r) const
{
    std::int64_t begin = 0, end = causal_ ? r + 1 : n_;
    if (window_ > 0) {
        begin = std::max<std::int64_t>(begin, r - window_ + 1);
        end = std::min(end, r + window_);
    }
    return {begin, end};
}

double PositionalAttention::rowSum(std::int64_t t) const
{
    // The keys c in [begin, end) of row r are the offsets k = r - c in (r - end, r - begin].
    const std::int64_t r = t - first_;
    const auto [begin, end] = keyRange(r);
    const std::int64_t lo = r - (end - 1) + n_ - 1;
    const std::int64_t hi = r - begin + n_ - 1;
    return static_cast<double>(prefix_[static_cast<std::size_t>(hi + 1)] - prefix_[static_cast<std::size_t>(lo)]);
}

double PositionalAttention::weight(std::int64_t t, std::int64_t s) const
{
    if (masked(t, s))
        return 0.0;
    if (offset_)
        return offsetExp(t - s) / rowSum(t);
    const auto r = static_cast<std::size_t>(t - first_);
    return std::exp(logit(t, s) - rowMax_[r]) / rowSum_[r];
}

void PositionalAttention::row(std::int64_t t, std::int64_t firstS, std::int64_t count, double *out) const
{
    if (offset_) {
        const double sum = rowSum(t);
        for (std::int64_t i = 0; i < count; ++i) {
            const std::int64_t s = firstS + i;
            out[i] = masked(t, s) ? 0.0 : offsetExp(t - s) / sum;
        }
        return;
    }
    for (std::int64_t i = 0; i < count; ++i)
        out[i] = weight(t, firstS + i);
}

std::pair<std::int64_t, std::int64_t> PositionalAttention::seenKeysAt(double t) const
{
    // s <= t under the causal mask; t - W < s < t + W in a local layer.
    std::int64_t begin = first_, end = first_ + n_;
    if (causal_)
        end = std::min(end, static_cast<std::int64_t>(std::floor(t)) + 1);
    if (window_ > 0) {
        const auto w = static_cast<double>(window_);
        begin = std::max(begin, static_cast<std::int64_t>(std::floor(t - w)) + 1);
        end = std::min(end, static_cast<std::int64_t>(std::ceil(t + w)));
    }
    return {begin, std::max(begin, end)};
}

std::vector<double> PositionalAttention::rowAt(double t) const
{
    std::vector<double> out(static_cast<std::size_t>(n_));
    const double whole = std::floor(t);
    const auto t0 = static_cast<std::int64_t>(whole);
    if (t == whole) {
        row(t0, first_, n_, out.data());
        return out;
    }
    if (!realRows())
        throw std::logic_error("PositionalAttention::rowAt: these scores are of whole offsets only");
    const double f = t - whole;
    // Keys s = first_ + i are the offsets k = t0 - s, k + f real; in ascending k, key i is at
    // index n - 1 - i.
    const std::int64_t lowK = t0 - (first_ + n_ - 1);
    std::vector<double> score(static_cast<std::size_t>(n_), 0.0);
    if (realScores_ == RealScores::Alibi) {
        for (std::int64_t j = 0; j < n_; ++j)
            score[static_cast<std::size_t>(j)] = -slope_ * std::abs(static_cast<double>(lowK + j) + f);
    } else if (realScores_ == RealScores::Waves) {
        // Re[(a + ib) e^{i(k + f)θ}] = Re[(a' + ib') e^{ikθ}] with a' + ib' = (a + ib) e^{ifθ}: the
        // whole-offset sums with each pair's coefficients turned by fθ.
        OffsetWaveRequest r;
        r.theta = realTheta_;
        r.sets = 1;
        r.a.resize(realA_.size());
        r.b.resize(realA_.size());
        for (std::size_t l = 0; l < realA_.size(); ++l) {
            double sn, cs;
            sinCosOfProduct(f, realTheta_[l], sn, cs);
            r.a[l] = realA_[l] * cs - realB_[l] * sn;
            r.b[l] = realA_[l] * sn + realB_[l] * cs;
        }
        const OffsetWaveSums sums = offsetWaveSums(r, lowK, 1, n_);
        for (std::size_t j = 0; j < score.size(); ++j)
            score[j] = realScale_ * (sums.cosine[j] - sums.sine[j]);
    }
    const std::pair<std::int64_t, std::int64_t> keys =
        seenKeysAt(t); // not a structured binding: clang 14 cannot capture one
    const auto seen = [keys](std::int64_t s) { return s >= keys.first && s < keys.second; };
    double top = -std::numeric_limits<double>::infinity();
    for (std::int64_t i = 0; i < n_; ++i)
        if (seen(first_ + i))
            top = std::max(top, score[static_cast<std::size_t>(n_ - 1 - i)]);
    long double sum = 0;
    for (std::int64_t i = 0; i < n_; ++i) {
        const double e = seen(first_ + i) ? std::exp(score[static_cast<std::size_t>(n_ - 1 - i)] - top) : 0.0;
        out[static_cast<std::size_t>(i)] = e;
        sum += e;
    }
    for (double &w : out)
        w = static_cast<double>(static_cast<long double>(w) / sum);
    return out;
}

RopeDecayCurves ropeDecayCurves(const Encoding &rope, std::int64_t offsets, int samples, std::uint64_t seed)
{
    RopeDecayCurves out;
    const auto n = static_cast<std::size_t>(std::max<std::int64_t>(offsets, 0));
    samples = std::max(samples, 0);
    const int pairs = rope.pairCount();
    const int d = rope.dModel();
    // Set 0: the score for q = k = ones, 2 Σ cos(kθ). Set 1 + j: sample j's Re and Im of
    // q̃·conj(k̃), its score Σ c cos(kθ) - Σ b sin(kθ). θ alone: the decay is RoFormer's, without
    // YaRN's factor on cos and sin.
    OffsetWaveRequest r = pairWaves(rope);
    r.sets = 1 + samples;
    r.bound = true;
    r.a.assign(static_cast<std::size_t>(r.sets * pairs), 2.0);
    r.b.assign(r.a.size(), 0.0);
    for (int j = 0; j < samples; ++j) {
        std::vector<double> cj, bj;
        pairProducts(rope, queryKeyVector(QueryKey::Random, d, seed, 2 * j),
                     queryKeyVector(QueryKey::Random, d, seed, 2 * j + 1), cj, bj);
        std::copy(cj.begin(), cj.end(), r.a.begin() + (j + 1) * pairs);
        std::copy(bj.begin(), bj.end(), r.b.begin() + (j + 1) * pairs);
    }
    if (samples == 0)
        r.b.clear();
    const OffsetWaveSums sums = offsetWaveSums(r, 0, 1, static_cast<std::int64_t>(n));
    out.score.assign(sums.cosine.begin(), sums.cosine.begin() + static_cast<std::ptrdiff_t>(n));
    out.bound = sums.bound;
    if (const EncodingParams &p = rope.params(); p.xposScaleBase > 0)
        out.xpos = xposOffsetSums(r.theta, xposZeta(d, p.rope), p.xposScaleBase,
                                  std::vector<double>(static_cast<std::size_t>(pairs), 2.0), {},
                                  static_cast<std::int64_t>(n), false)
                       .after;
    out.mean.assign(n, 0.0);
    out.sd.assign(n, 0.0);
    if (samples == 0)
        return out;
    std::vector<double> values(static_cast<std::size_t>(samples));
    for (std::size_t k = 0; k < n; ++k) {
        double sum = 0;
        for (int j = 0; j < samples; ++j) {
            const std::size_t at = static_cast<std::size_t>(j + 1) * n + k;
            values[static_cast<std::size_t>(j)] = sums.cosine[at] - sums.sine[at];
            sum += values[static_cast<std::size_t>(j)];
        }
        const double mean = sum / samples;
        double squares = 0;
        for (double v : values)
            squares += (v - mean) * (v - mean);
        out.mean[k] = mean;
        out.sd[k] = samples > 1 ? std::sqrt(squares / (samples - 1)) : 0.0;
    }
    return out;
}

} // namespace pe
