#pragma once

#include "encodings/encoding.h"

#include <Eigen/Dense>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pe {

// Seed 002's learned distance probe: a small network reads the offset k between two embeddings.
// Model: [x(t); x(t+k)] (2d inputs) -> dense hidden -> ReLU -> dense K -> softmax over the offsets
// 0..K-1, cross-entropy, Adam (beta 0.9 / 0.999, epsilon 1e-8 as optax's adam), minibatches of 1,024
// from 10,000 sampled pairs, reshuffled every epoch.
//
// Inputs, two ways:
// - Intended (the default): x(t) = PE(t) + s(t), s a per-position "semantic" vector uniform in
//   [-a, a]; every offset 0..K-1 is a class and drawn equally often: k uniform, then t uniform with
//   t + k below L.
// - AsWritten: the article's code as it runs. `embeddings + pos_embeddings` adds the encoding to
//   itself, so x(t) = 2 PE(t) and the semantic vectors are never used; pairs are i uniform below L and
//   j = i + uniform[0, L - i), so offsets run to L - 1, while the network has K classes: an offset of
//   K or more has an all-zero one-hot (no loss, no gradient) and is never predicted. With the
//   article's L 10 and K 8 that caps the accuracy at 0.9668.
//
// Training uses window positions below L (start_pos .. start_pos + L - 1); the held-out pairs reach
// positions at or above L (the extrapolation check: train on positions below L, test above).
enum class ProbeInputs { Intended, AsWritten };
inline constexpr ProbeInputs allProbeInputs[] = {ProbeInputs::Intended, ProbeInputs::AsWritten};
std::string_view probeInputsName(ProbeInputs inputs); // "intended", "as-written"
std::optional<ProbeInputs> parseProbeInputs(std::string_view text);

struct ProbeSettings {
    ProbeInputs inputs = ProbeInputs::Intended;
    int offsets = 10;      // K: classes 0..K-1
    double semantic = 0.1; // a: semantic vectors uniform in [-a, a] (intended inputs)
    int hidden = 128;      // width of the hidden layer
    int epochs = 200;      // passes over the 10,000 pairs
    double learningRate = 1e-3;
    std::uint64_t seed = 0;       // the pairs, the semantic vectors, the initial weights, the shuffles
    std::int64_t trainBelow = 10; // L: training positions are the window's first L

    static constexpr int kPairs = 10'000;
    static constexpr int kBatch = 1'024;
    static constexpr int kHeldOutPairs = 2'000;

    bool operator==(const ProbeSettings &) const = default;
};

namespace limits {
inline constexpr int maxProbeOffsets = 256;
inline constexpr int maxProbeHidden = 1'024;
inline constexpr int maxProbeEpochs = 10'000;
// Multiply-adds of a whole run (pairs x epochs x (2d h + h K) x 3, for forward and backward):
// about 20 s on one core; seed 002's run is 4.3e9.
inline constexpr double maxProbeWork = 4e11;
} // namespace limits

// Why the probe cannot run for these parameters and settings, one sentence; nothing when it can.
std::optional<std::string> probeProblem(const EncodingParams &params, const ProbeSettings &settings);

struct ProbeEpoch {
    int epoch = 0;       // 1-based
    double loss = 0;     // mean cross-entropy over the training pairs after the epoch
    double accuracy = 0; // share of training pairs whose offset is predicted exactly
    double heldOut = 0;  // the same on the held-out pairs (NaN when the window has none above L)
};

// A snapshot of a run: the curves so far and, for the current weights, where the predictions go.
struct ProbeResult {
    std::vector<ProbeEpoch> epochs;
    int classes = 0;                     // K
    int trueOffsets = 0;                 // offsets the training pairs hold: K, or L for the article's sampling
    std::vector<std::int64_t> confusion; // trueOffsets x classes, row-major: training pairs per (true, predicted)
    std::vector<double> trainByOffset;   // accuracy per true offset on the training pairs (NaN: none)
    std::vector<double> heldOutByOffset; // per offset 0..K-1 on the held-out pairs (NaN: none)
    double atan2Accuracy = 0;            // the analytic decoder (decodeOffset, rounded) on the training pairs
    std::vector<double> atan2HeldOutByOffset;
    double atan2HeldOut = 0;
    bool atan2Applies = false; // the encoding has frequencies (not a table)
    std::int64_t heldOutPairs = 0;
    bool finished = false;
};

// One run, advanced a minibatch at a time: pausing and resuming (or cancelling and going on) gives
// the same bits as an uninterrupted run. Deterministic for a seed: one thread, fixed order.
class ProbeTrainer
{
  public:
    // The encoding's values are copied: the trainer outlives a parameter change.
    ProbeTrainer(const Encoding &encoding, const ProbeSettings &settings);

    // Trains until the run is finished, or `cancel` is set (checked between minibatches), or
    // `epochDone` returns false; `epochDone` is called after each epoch with the snapshot.
    // Locks the trainer: a second thread waits for the first to return.
    template <typename EpochDone> void train(const std::atomic<bool> *cancel, EpochDone epochDone)
    {
        std::lock_guard lock(mutex_);
        while (epoch_ < settings_.epochs) {
            if (cancel && cancel->load(std::memory_order_relaxed))
                return;
            if (!step())
                continue; // within an epoch
            if (!epochDone(snapshot()))
                return;
        }
    }
    void trainToEnd(const std::atomic<bool> *cancel = nullptr)
    {
        train(cancel, [](const ProbeResult &) { return true; });
    }
    ProbeResult result() const
    {
        std::lock_guard lock(mutex_);
        return snapshot();
    }
    const ProbeSettings &settings() const { return settings_; }

  private:
    // A set of pairs: each pair's two positions (columns of embeddings_) and its offset.
    struct Pairs {
        std::vector<int> first, second, labels;
    };
    // The first layer is linear in [x(t); x(t+k)], so it is applied to each position once and
    // summed per pair: W1 [x; y] = W1a x + W1b y. A minibatch of seed 002's 10 positions costs 10
    // products, not 1,024, and the same bits however the pairs are grouped.
    struct Layer1 {
        std::vector<int> firstColumns, secondColumns; // distinct positions, in order of appearance
        std::vector<int> firstSlot, secondSlot;       // each pair's index into them
        Eigen::MatrixXf hidden;                       // hidden x pairs, after the ReLU
    };
    Layer1 forward(const Pairs &pairs, const int *which, int count) const;
    bool step(); // one minibatch; true when it ended an epoch (evaluated and recorded)
    ProbeResult snapshot() const;
    void evaluate();

    ProbeSettings settings_;
    mutable std::mutex mutex_;
    int d_;
    int trueOffsets_;
    Eigen::MatrixXf embeddings_; // d x positions the pairs use
    Pairs train_, held_;
    Eigen::MatrixXf w1_, w2_;
    Eigen::VectorXf b1_, b2_;
    Eigen::MatrixXf mw1_, vw1_, mw2_, vw2_;
    Eigen::VectorXf mb1_, vb1_, mb2_, vb2_;
    std::int64_t adamSteps_ = 0;
    std::vector<int> order_;
    int epoch_ = 0;
    int batch_ = 0;
    std::vector<ProbeEpoch> curve_;
    std::vector<int> predicted_, heldPredicted_; // after the last epoch
    std::vector<int> atan2Predicted_, atan2HeldPredicted_;
    bool atan2Applies_ = false;
};

// The whole run at once (the command line, tests).
ProbeResult trainProbe(const Encoding &encoding, const ProbeSettings &settings,
                       const std::atomic<bool> *cancel = nullptr);

} // namespace pe
