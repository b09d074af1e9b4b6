#include "analysis/probe.h"

#include "analysis/relative.h"
#include "encodings/noise.h"
#include "support/parallel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace pe {

std::string_view probeInputsName(ProbeInputs inputs)
{
    return inputs == ProbeInputs::AsWritten ? "as-written" : "intended";
}

std::optional<ProbeInputs> parseProbeInputs(std::string_view text)
{
    return parseName(allProbeInputs, probeInputsName, text);
}

namespace {

double work(const EncodingParams &p, const ProbeSettings &s)
{
    const double perPair = 2.0 * p.dModel * s.hidden + static_cast<double>(s.hidden) * s.offsets;
    return 3.0 * perPair * ProbeSettings::kPairs * s.epochs;
}

// Uniform whole number in [0, n) from a 64-bit draw (the bias of the modulo is below 2^-40 here).
std::int64_t below(std::mt19937_64 &rng, std::int64_t n)
{
    return static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
}

double unit(std::mt19937_64 &rng)
{
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// The streams of one seed, kept apart so that changing one setting does not move the others.
std::mt19937_64 stream(std::uint64_t seed, std::uint64_t which)
{
    std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                      static_cast<std::uint32_t>(which)};
    return std::mt19937_64(seq);
}

// exp(v) for v <= 0, a softmax's term: 0 below -87, where expf leaves the normal floats and takes
// libm's slow underflow path (a trained probe's far logits hit it millions of times: 3 s of 5).
float softmaxTerm(float v)
{
    return v < -87.0f ? 0.0f : std::exp(v);
}

void adam(Eigen::Ref<Eigen::MatrixXf> w, Eigen::Ref<Eigen::MatrixXf> m, Eigen::Ref<Eigen::MatrixXf> v,
          const Eigen::MatrixXf &g, float lr, std::int64_t t)
{
    constexpr float b1 = 0.9f, b2 = 0.999f, eps = 1e-8f;
    m = b1 * m + (1 - b1) * g;
    v = b2 * v + (1 - b2) * g.cwiseAbs2();
    const float c1 = 1 - std::pow(b1, static_cast<float>(t)), c2 = 1 - std::pow(b2, static_cast<float>(t));
    w.array() -= lr * (m.array() / c1) / ((v.array() / c2).sqrt() + eps);
}

} // namespace

std::optional<std::string> probeProblem(const EncodingParams &p, const ProbeSettings &s)
{
    if (s.offsets < 2 || s.offsets > limits::maxProbeOffsets)
        return "the probe's offsets K must be a whole number from 2 to " + std::to_string(limits::maxProbeOffsets) +
               " (got " + std::to_string(s.offsets) + ").";
    if (s.hidden < 1 || s.hidden > limits::maxProbeHidden)
        return "the probe's hidden size must be a whole number from 1 to " + withThousands(limits::maxProbeHidden) +
               " (got " + std::to_string(s.hidden) + ").";
    if (s.epochs < 1 || s.epochs > limits::maxProbeEpochs)
        return "the probe's epochs must be a whole number from 1 to " + withThousands(limits::maxProbeEpochs) +
               " (got " + std::to_string(s.epochs) + ").";
    if (!(s.learningRate > 0 && s.learningRate <= 1))
        return "the probe's learning rate must be above 0 and at most 1 (got " + compactNumber(s.learningRate) + ").";
    if (!(s.semantic >= 0 && s.semantic <= 10))
        return "the semantic amplitude a must be a number from 0 to 10 (got " + compactNumber(s.semantic) + ").";
    if (s.trainBelow < 2 || s.trainBelow > p.seqLen)
        return "the probe trains on the window's first L positions: L must be from 2 to seq_len, " +
               withThousands(p.seqLen) + " (got " + withThousands(s.trainBelow) + ").";
    if (s.inputs == ProbeInputs::Intended && s.offsets > s.trainBelow)
        return "every offset 0.." + std::to_string(s.offsets - 1) +
               " needs pairs below L = " + withThousands(s.trainBelow) + ": K must be at most L.";
    if (work(p, s) > limits::maxProbeWork)
        return "the probe would take " + compactNumber(work(p, s)) + " multiply-adds (d_model " +
               withThousands(p.dModel) + ", hidden " + withThousands(s.hidden) + ", " + withThousands(s.epochs) +
               " epochs); at most " + compactNumber(limits::maxProbeWork) +
               " are run: lower d_model, the hidden size or the epochs.";
    return std::nullopt;
}

ProbeTrainer::ProbeTrainer(const Encoding &encoding, const ProbeSettings &settings)
    : settings_(settings)
    , d_(encoding.dModel())
{
    const EncodingParams &p = encoding.params();
    const std::int64_t n = p.seqLen, L = std::min(settings.trainBelow, n);
    const int K = settings.offsets;
    const bool intended = settings.inputs == ProbeInputs::Intended;
    trueOffsets_ = intended ? K : static_cast<int>(L);

    // The pairs as window rows (t, t + k).
    std::mt19937_64 draw = stream(settings.seed, 2);
    std::vector<std::pair<std::int64_t, std::int64_t>> trainRows, heldRows;
    for (int c = 0; c < ProbeSettings::kPairs; ++c) {
        std::int64_t t, k;
        if (intended) {
            k = below(draw, std::min<std::int64_t>(K, L));
            t = below(draw, L - k);
        } else { // the article's i in [0, L), j = i + [0, L - i)
            t = below(draw, L);
            k = below(draw, L - t);
        }
        trainRows.emplace_back(t, k);
    }
    // Held out: pairs whose later position is at or above L, every offset below K equally often.
    if (n > L)
        for (int c = 0; c < ProbeSettings::kHeldOutPairs; ++c) {
            const std::int64_t k = below(draw, std::min<std::int64_t>(K, L));
            const std::int64_t later = L + below(draw, n - L);
            heldRows.emplace_back(later - k, k);
        }

    // The embeddings of the rows the pairs use, each once, in row order: x = PE + s (s the
    // semantic vector, uniform in [-a, a], drawn for every window row below the last used so a
    // row's vector does not depend on which rows are used), or the article's 2 PE.
    std::vector<std::int64_t> rows;
    for (const auto *set : {&trainRows, &heldRows})
        for (auto [t, k] : *set) {
            rows.push_back(t);
            rows.push_back(t + k);
        }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    const std::int64_t lastRow = rows.empty() ? 0 : rows.back();
    std::vector<double> pe(static_cast<std::size_t>(d_)), x(rows.size() * static_cast<std::size_t>(d_));
    std::mt19937_64 semantic = stream(settings.seed, 1);
    std::size_t next = 0;
    for (std::int64_t r = 0; r <= lastRow && next < rows.size(); ++r) {
        const bool used = rows[next] == r;
        double *out = used ? x.data() + next * static_cast<std::size_t>(d_) : pe.data();
        if (used) {
            Block one = encoding.windowBlock();
            one.firstPosition = p.startPos + r;
            one.rows = 1;
            encoding.fill(one, out);
        }
        for (int j = 0; j < d_; ++j) {
            const double s = settings.semantic * (2 * unit(semantic) - 1);
            if (used)
                out[j] = intended ? out[j] + s : 2 * out[j];
        }
        next += used;
    }
    embeddings_.resize(d_, static_cast<Eigen::Index>(rows.size()));
    for (std::size_t i = 0; i < x.size(); ++i)
        embeddings_.data()[i] = static_cast<float>(x[i]);
    const auto column = [&](std::int64_t r) {
        return static_cast<int>(std::lower_bound(rows.begin(), rows.end(), r) - rows.begin());
    };

    // Each pair by its columns, and the analytic reading of its offset beside it: 12,000 decodes of
    // d/2 atan2 each (most of this constructor's time, on the window's thread), on every core.
    atan2Applies_ = encoding.hasFrequencies();
    const OffsetDecoder decoder(encoding);
    const auto fill = [&](const std::vector<std::pair<std::int64_t, std::int64_t>> &from, Pairs &to,
                          std::vector<int> &atan2) {
        const std::size_t base = to.first.size();
        for (auto [t, k] : from) {
            to.first.push_back(column(t));
            to.second.push_back(column(t + k));
            to.labels.push_back(static_cast<int>(k));
        }
        const std::size_t atan2Base = atan2.size();
        atan2.resize(atan2Base + from.size(), -1);
        if (!atan2Applies_)
            return;
        parallelFor(
            static_cast<std::int64_t>(from.size()),
            [&](std::int64_t begin, std::int64_t end) {
                for (std::int64_t i = begin; i < end; ++i) {
                    const auto at = static_cast<std::size_t>(i);
                    const double read = decoder.offset(x.data() + static_cast<std::size_t>(to.first[base + at]) * d_,
                                                       x.data() + static_cast<std::size_t>(to.second[base + at]) * d_);
                    if (std::isfinite(read))
                        atan2[atan2Base + at] = static_cast<int>(std::lround(read));
                }
            },
            256);
    };
    fill(trainRows, train_, atan2Predicted_);
    fill(heldRows, held_, atan2HeldPredicted_);

    // LeCun-normal weights (variance 1 / fan-in), zero biases, from the seed's own Gaussians.
    LegacyNormal g(static_cast<std::uint32_t>(settings.seed ^ (settings.seed >> 32)));
    const auto normal = [&](int rows, int cols, double scale) {
        Eigen::MatrixXf m(rows, cols);
        for (int c = 0; c < cols; ++c)
            for (int r = 0; r < rows; ++r)
                m(r, c) = static_cast<float>(scale * g.gaussian());
        return m;
    };
    w1_ = normal(settings.hidden, 2 * d_, std::sqrt(1.0 / (2 * d_)));
    w2_ = normal(K, settings.hidden, std::sqrt(1.0 / settings.hidden));
    b1_ = Eigen::VectorXf::Zero(settings.hidden);
    b2_ = Eigen::VectorXf::Zero(K);
    mw1_ = vw1_ = Eigen::MatrixXf::Zero(w1_.rows(), w1_.cols());
    mw2_ = vw2_ = Eigen::MatrixXf::Zero(w2_.rows(), w2_.cols());
    mb1_ = vb1_ = Eigen::VectorXf::Zero(settings.hidden);
    mb2_ = vb2_ = Eigen::VectorXf::Zero(K);
    order_.resize(ProbeSettings::kPairs);
}

ProbeTrainer::Layer1 ProbeTrainer::forward(const Pairs &pairs, const int *which, int count) const
{
    Layer1 l;
    // Distinct columns in order of appearance (a linear scan: minibatches hold few distinct rows
    // when the window is short, at most 2 x 1,024 otherwise).
    std::vector<int> slotOf(static_cast<std::size_t>(embeddings_.cols()), -1);
    const auto collect = [&](const std::vector<int> &from, std::vector<int> &columns, std::vector<int> &slots) {
        for (int c = 0; c < count; ++c) {
            const int col = from[static_cast<std::size_t>(which[c])];
            int &slot = slotOf[static_cast<std::size_t>(col)];
            if (slot < 0) {
                slot = static_cast<int>(columns.size());
                columns.push_back(col);
            }
            slots.push_back(slot);
        }
        for (int col : columns)
            slotOf[static_cast<std::size_t>(col)] = -1;
    };
    collect(pairs.first, l.firstColumns, l.firstSlot);
    collect(pairs.second, l.secondColumns, l.secondSlot);
    const Eigen::MatrixXf a = w1_.leftCols(d_) * embeddings_(Eigen::all, l.firstColumns);
    const Eigen::MatrixXf b = w1_.rightCols(d_) * embeddings_(Eigen::all, l.secondColumns);
    l.hidden.resize(w1_.rows(), count);
    for (int c = 0; c < count; ++c)
        l.hidden.col(c) =
            (a.col(l.firstSlot[static_cast<std::size_t>(c)]) + b.col(l.secondSlot[static_cast<std::size_t>(c)]) + b1_)
                .cwiseMax(0.0f);
    return l;
}

bool ProbeTrainer::step()
{
    const int n = ProbeSettings::kPairs, K = settings_.offsets;
    if (batch_ == 0) { // a new epoch: a new order, from the seed and the epoch alone
        for (int i = 0; i < n; ++i)
            order_[static_cast<std::size_t>(i)] = i;
        std::mt19937_64 shuffle = stream(settings_.seed, 3 + static_cast<std::uint64_t>(epoch_));
        for (int i = n - 1; i > 0; --i)
            std::swap(order_[static_cast<std::size_t>(i)], order_[static_cast<std::size_t>(below(shuffle, i + 1))]);
    }
    const int begin = batch_ * ProbeSettings::kBatch, end = std::min(n, begin + ProbeSettings::kBatch), b = end - begin;
    const int *which = order_.data() + begin;
    const Layer1 l = forward(train_, which, b);
    Eigen::MatrixXf z = (w2_ * l.hidden).colwise() + b2_;
    // dLoss/dz = (softmax - one_hot) / b; an offset without a class has no one-hot and no gradient.
    for (int c = 0; c < b; ++c) {
        const int label = train_.labels[static_cast<std::size_t>(which[c])];
        if (label >= K) {
            z.col(c).setZero();
            continue;
        }
        const float top = z.col(c).maxCoeff();
        float sum = 0;
        for (Eigen::Index k = 0; k < z.rows(); ++k)
            sum += z(k, c) = softmaxTerm(z(k, c) - top);
        z.col(c) /= sum;
        z(label, c) -= 1.0f;
    }
    z /= static_cast<float>(b);
    const Eigen::MatrixXf dw2 = z * l.hidden.transpose();
    const Eigen::VectorXf db2 = z.rowwise().sum();
    const Eigen::MatrixXf dh = ((w2_.transpose() * z).array() * (l.hidden.array() > 0.0f).cast<float>()).matrix();
    const Eigen::VectorXf db1 = dh.rowwise().sum();
    // dW1 = dh [x; y]^T, summed per distinct position first.
    Eigen::MatrixXf dw1(w1_.rows(), w1_.cols());
    const auto half = [&](const std::vector<int> &columns, const std::vector<int> &slots, int offset) {
        Eigen::MatrixXf sum = Eigen::MatrixXf::Zero(dh.rows(), static_cast<Eigen::Index>(columns.size()));
        for (int c = 0; c < b; ++c)
            sum.col(slots[static_cast<std::size_t>(c)]) += dh.col(c);
        dw1.middleCols(offset, d_).noalias() = sum * embeddings_(Eigen::all, columns).transpose();
    };
    half(l.firstColumns, l.firstSlot, 0);
    half(l.secondColumns, l.secondSlot, d_);
    ++adamSteps_;
    const auto lr = static_cast<float>(settings_.learningRate);
    adam(w1_, mw1_, vw1_, dw1, lr, adamSteps_);
    adam(b1_, mb1_, vb1_, db1, lr, adamSteps_);
    adam(w2_, mw2_, vw2_, dw2, lr, adamSteps_);
    adam(b2_, mb2_, vb2_, db2, lr, adamSteps_);
    if (end < n) {
        ++batch_;
        return false;
    }
    batch_ = 0;
    ++epoch_;
    evaluate();
    return true;
}

void ProbeTrainer::evaluate()
{
    const int K = settings_.offsets;
    // Loss and accuracy of the current weights over a set of pairs; the predictions kept.
    const auto score = [&](const Pairs &pairs, std::vector<int> &predicted, double *loss) {
        const auto count = static_cast<int>(pairs.labels.size());
        predicted.assign(pairs.labels.size(), 0);
        if (count == 0)
            return std::numeric_limits<double>::quiet_NaN();
        std::vector<int> all(pairs.labels.size());
        for (int i = 0; i < count; ++i)
            all[static_cast<std::size_t>(i)] = i;
        // In chunks whose hidden activations stay under 1 MiB: larger blocks are mapped and
        // unmapped at every call (allocator.h), which doubled the time of a run.
        const int chunk = std::max(1, (1 << 18) / std::max(1, settings_.hidden));
        double sum = 0;
        std::int64_t right = 0;
        for (int first = 0; first < count; first += chunk) {
            const int n = std::min(chunk, count - first);
            const Eigen::MatrixXf z = (w2_ * forward(pairs, all.data() + first, n).hidden).colwise() + b2_;
            for (int c = 0; c < n; ++c) {
                Eigen::Index best = 0;
                const float top = z.col(c).maxCoeff(&best);
                const auto i = static_cast<std::size_t>(first + c);
                predicted[i] = static_cast<int>(best);
                const int label = pairs.labels[i];
                right += best == label;
                if (label < K) {
                    double terms = 0;
                    for (Eigen::Index k = 0; k < z.rows(); ++k)
                        terms += std::exp(static_cast<double>(z(k, c)) - static_cast<double>(top));
                    sum += static_cast<double>(top) + std::log(terms) - static_cast<double>(z(label, c));
                }
            }
        }
        if (loss)
            *loss = sum / static_cast<double>(count);
        return static_cast<double>(right) / static_cast<double>(count);
    };
    ProbeEpoch e;
    e.epoch = epoch_;
    e.accuracy = score(train_, predicted_, &e.loss);
    e.heldOut = score(held_, heldPredicted_, nullptr);
    curve_.push_back(e);
}

ProbeResult ProbeTrainer::snapshot() const
{
    ProbeResult r;
    r.epochs = curve_;
    r.classes = settings_.offsets;
    r.trueOffsets = trueOffsets_;
    r.finished = epoch_ >= settings_.epochs;
    r.atan2Applies = atan2Applies_;
    r.heldOutPairs = static_cast<std::int64_t>(held_.labels.size());
    // Share right per true offset; NaN where no pair has that offset.
    const auto byOffset = [](const std::vector<int> &labels, const std::vector<int> &predicted, int offsets) {
        std::vector<double> right(static_cast<std::size_t>(offsets), 0.0), count(right.size(), 0.0);
        for (std::size_t i = 0; i < labels.size() && i < predicted.size(); ++i) {
            count[static_cast<std::size_t>(labels[i])] += 1;
            right[static_cast<std::size_t>(labels[i])] += predicted[i] == labels[i];
        }
        for (std::size_t k = 0; k < right.size(); ++k)
            right[k] = count[k] > 0 ? right[k] / count[k] : std::numeric_limits<double>::quiet_NaN();
        return right;
    };
    const auto share = [](const std::vector<int> &labels, const std::vector<int> &predicted) {
        std::int64_t right = 0;
        for (std::size_t i = 0; i < labels.size(); ++i)
            right += predicted[i] == labels[i];
        return labels.empty() ? std::numeric_limits<double>::quiet_NaN()
                              : static_cast<double>(right) / static_cast<double>(labels.size());
    };
    r.atan2Accuracy = share(train_.labels, atan2Predicted_);
    r.atan2HeldOut = share(held_.labels, atan2HeldPredicted_);
    r.atan2HeldOutByOffset = byOffset(held_.labels, atan2HeldPredicted_, settings_.offsets);
    if (epoch_ == 0)
        return r; // no predictions before the first epoch
    r.confusion.assign(static_cast<std::size_t>(trueOffsets_) * static_cast<std::size_t>(r.classes), 0);
    for (std::size_t i = 0; i < train_.labels.size(); ++i)
        ++r.confusion[static_cast<std::size_t>(train_.labels[i]) * static_cast<std::size_t>(r.classes) +
                      static_cast<std::size_t>(predicted_[i])];
    r.trainByOffset = byOffset(train_.labels, predicted_, trueOffsets_);
    r.heldOutByOffset = byOffset(held_.labels, heldPredicted_, settings_.offsets);
    return r;
}

ProbeResult trainProbe(const Encoding &encoding, const ProbeSettings &settings, const std::atomic<bool> *cancel)
{
    ProbeTrainer trainer(encoding, settings);
    trainer.trainToEnd(cancel);
    return trainer.result();
}

} // namespace pe
