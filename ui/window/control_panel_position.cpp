#include "window/control_panel.h"

#include "window/control_panel_internal.h"

#include "state/parameters.h"
#include "state/playback.h"
#include "window/scientific_spin_box.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

using control_panel_internal::wholeSpin;

namespace {

// The fields typed as doubles (the position, the seed) refused in core's words, which the command
// line and session files use too; the speed is the playback's own.

std::optional<std::string> seedProblem(double seed)
{
    if (seed >= 0 && seed <= static_cast<double>(pe::limits::maxSeed))
        return std::nullopt;
    return "seed must be " + pe::seedAllowedText() + " (got " + pe::compactNumber(seed) + ").";
}

std::optional<std::string> speedProblem(double speed)
{
    if (speed >= Playback::kMinSpeed && speed <= Playback::kMaxSpeed)
        return std::nullopt;
    return QStringLiteral("speed must be a number from %1 to %2 positions per second (got %3).")
        .arg(QString::fromStdString(pe::compactNumber(Playback::kMinSpeed)),
             QString::fromStdString(pe::compactNumber(Playback::kMaxSpeed)),
             QString::fromStdString(pe::compactNumber(speed)))
        .toStdString();
}

} // namespace

void ControlPanel::addPositionControls(Playback *playback)
{
    auto *grid = static_cast<QGridLayout *>(layout());
    const QString tip =
        tr("The current position, marked in every view (Left/Right and PageUp/PageDown on a view step it)");
    positionSlider_ = new QSlider(Qt::Horizontal, this);
    positionSlider_->setObjectName(QStringLiteral("positionSlider"));
    positionSlider_->setToolTip(tip);
    positionSpin_ = wholeSpin(0, 0);
    positionSpin_->setWholeNumbers(false); // 10.25 where the state has positions between whole ones
    positionSpin_->setParent(this);
    positionSpin_->setObjectName(QStringLiteral("positionSpin"));
    positionSpin_->setToolTip(tip);
    auto *label = new QLabel(tr("position"), this);
    label->setToolTip(tip);
    int row = grid->rowCount();
    grid->addWidget(label, row, 0);
    grid->addWidget(positionSlider_, row, 1);
    grid->addWidget(positionSpin_, row, 2);
    connect(positionSlider_, &QSlider::valueChanged, this, [this](int t) {
        if (!following_)
            parameters_->setPosition(t);
    });
    addTyped(
        positionSpin_,
        [this](double t) {
            // Between whole positions where the state has them (pe::realPositionProblem).
            auto problem = pe::validateRealPosition(parameters_->values(), parameters_->noise(), t);
            if (!problem)
                parameters_->setRealPosition(t);
            return problem;
        },
        [this] { return parameters_->realPosition(); });
    if (!playback)
        return;
    auto *play = new QPushButton(tr("Play"), this);
    play->setObjectName(QStringLiteral("play"));
    play->setCheckable(true);
    play->setToolTip(tr("Advance the position at the chosen speed (Space on a view)"));
    auto *speed = new ScientificSpinBox(this);
    speed->setObjectName(QStringLiteral("speed"));
    speed->setStepRange(Playback::kMinSpeed, Playback::kMaxSpeed);
    speed->setValue(playback->speed());
    speed->setSuffix(tr(" pos/s"));
    speed->setToolTip(tr("Playback speed in positions per second"));
    auto *loop = new QCheckBox(tr("Loop"), this);
    loop->setObjectName(QStringLiteral("loop"));
    loop->setChecked(playback->loops());
    loop->setToolTip(tr("Wrap to the window's first position at its end; off: the window slides along"));
    auto *rowLayout = new QHBoxLayout;
    rowLayout->addWidget(play);
    rowLayout->addWidget(speed, 1);
    rowLayout->addWidget(loop);
    grid->addLayout(rowLayout, row + 1, 1, 1, 2);
    connect(play, &QPushButton::toggled, playback, [playback](bool on) { on ? playback->play() : playback->pause(); });
    connect(playback, &Playback::playingChanged, play, [play](bool on) {
        play->setChecked(on);
        play->setText(on ? tr("Pause") : tr("Play"));
    });
    addTyped(
        speed,
        [playback](double v) {
            auto problem = speedProblem(v);
            if (!problem)
                playback->setSpeed(v);
            return problem;
        },
        [playback] { return playback->speed(); });
    connect(loop, &QCheckBox::toggled, playback, &Playback::setLoop);
}

void ControlPanel::addNoiseControls()
{
    auto *grid = static_cast<QGridLayout *>(layout());
    noiseBox_ = new QCheckBox(tr("noise"), this);
    noiseBox_->setObjectName(QStringLiteral("noise"));
    noiseBox_->setToolTip(tr("Add sigma times standard normal noise to the encoding, as article 1 does "
                             "(x = PE + sigma z): similarity, recovery and the distance matrix use x"));
    sigmaSpin_ = new ScientificSpinBox(this);
    sigmaSpin_->setObjectName(QStringLiteral("sigmaSpin"));
    sigmaSpin_->setStepRange(0.01, pe::limits::maxSigma);
    sigmaSpin_->setSingleStep(0.1);
    sigmaSpin_->setValue(lastSigma_);
    sigmaSpin_->setPrefix(QStringLiteral("σ = "));
    sigmaSpin_->setToolTip(tr("Noise level sigma (article 1 uses 0.5; 0 switches the noise off)"));
    seedSpin_ = wholeSpin(0, std::numeric_limits<int>::max());
    seedSpin_->setParent(this);
    seedSpin_->setObjectName(QStringLiteral("seedSpin"));
    seedSpin_->setValue(static_cast<double>(parameters_->noise().seed));
    seedSpin_->setPrefix(tr("seed "));
    seedSpin_->setToolTip(tr("Random seed: the same seed always gives the same noise"));
    rngChoice_ = new QComboBox(this);
    rngChoice_->setObjectName(QStringLiteral("rng"));
    rngChoice_->addItem(tr("counter generator (any size)"), QString::fromUtf8(pe::rngName(pe::NoiseRng::Counter)));
    rngChoice_->addItem(tr("numpy's randn (article 1's noise)"), QString::fromUtf8(pe::rngName(pe::NoiseRng::Numpy)));
    rngChoice_->setToolTip(
        tr("Where z comes from. Counter: any position at any size, drawn independently. numpy: "
           "np.random.seed(seed); np.random.randn(...) bit for bit, z(t, j) being draw t·d + j, so article 1's "
           "figures come out as printed; sequential, up to %1 draws")
            .arg(QString::fromStdString(pe::withThousands(pe::limits::maxNumpyDraws))));
    const int row = grid->rowCount();
    grid->addWidget(noiseBox_, row, 0);
    auto *noiseRow = new QHBoxLayout;
    noiseRow->addWidget(sigmaSpin_, 1);
    noiseRow->addWidget(seedSpin_, 1);
    grid->addLayout(noiseRow, row, 1, 1, 2);
    grid->addWidget(rngChoice_, row + 1, 1, 1, 2);
    // Each control changes its own part of the noise and keeps the rest.
    const auto setNoise = [this](auto change) {
        pe::NoiseParams noise = parameters_->noise();
        change(noise);
        return parameters_->setNoise(noise);
    };
    connect(noiseBox_, &QCheckBox::toggled, this, [this, setNoise](bool on) {
        if (following_)
            return;
        if (auto error = setNoise([&](pe::NoiseParams &n) { n.sigma = on ? lastSigma_ : 0.0; })) {
            followState(); // the choice goes back to what is in force
            showRefusals(QString::fromStdString(*error));
        }
    });
    connect(rngChoice_, &QComboBox::currentIndexChanged, this, [this, setNoise] {
        if (following_)
            return;
        const auto rng = pe::parseRng(rngChoice_->currentData().toString().toStdString());
        if (auto error = setNoise([&](pe::NoiseParams &n) { n.rng = rng.value_or(pe::NoiseRng::Counter); })) {
            followState(); // the choice goes back to what is in force
            showRefusals(QString::fromStdString(*error));
        }
    });
    addTyped(
        sigmaSpin_,
        [this, setNoise](double sigma) {
            auto error = setNoise([&](pe::NoiseParams &n) { n.sigma = sigma; });
            if (!error && sigma > 0)
                lastSigma_ = sigma;
            return error;
        },
        [this] { return parameters_->noise().active() ? parameters_->noise().sigma : lastSigma_; });
    addTyped(
        seedSpin_,
        [this, setNoise](double seed) {
            auto problem = seedProblem(seed);
            if (!problem)
                problem = setNoise([&](pe::NoiseParams &n) { n.seed = static_cast<std::uint64_t>(seed); });
            return problem;
        },
        [this] { return static_cast<double>(parameters_->noise().seed); });
}

void ControlPanel::followPosition()
{
    following_ = true;
    const pe::EncodingParams &p = parameters_->values();
    const int first = static_cast<int>(p.startPos);
    const int last = static_cast<int>(p.startPos + p.seqLen - 1);
    positionSlider_->setRange(first, last);
    positionSlider_->setPageStep(std::max(1, (last - first) / 20));
    positionSpin_->setStepRange(first, last);
    positionSlider_->setValue(static_cast<int>(parameters_->position()));
    followTyped();
    following_ = false;
}
