#include "state/playback.h"

#include "state/parameters.h"

#include <algorithm>
#include <cmath>

Playback::Playback(Parameters *parameters, QObject *parent)
    : QObject(parent)
    , parameters_(parameters)
{
    timer_.setTimerType(Qt::PreciseTimer);
    connect(&timer_, &QTimer::timeout, this, &Playback::tick);
    setSpeed(speed_);
}

void Playback::play()
{
    if (isPlaying())
        return;
    carry_ = 0;
    clock_.start();
    timer_.start();
    emit playingChanged(true);
}

void Playback::pause()
{
    if (!isPlaying())
        return;
    timer_.stop();
    emit playingChanged(false);
}

void Playback::toggle()
{
    isPlaying() ? pause() : play();
}

void Playback::setSpeed(double positionsPerSecond)
{
    speed_ = std::clamp(positionsPerSecond, kMinSpeed, kMaxSpeed);
    // About 60 ticks a second: a smooth position moves every frame, a whole one when its time comes.
    timer_.setInterval(16);
}

void Playback::setLoop(bool on)
{
    loop_ = on;
}

void Playback::tick()
{
    // Advance by the time that really passed, so a slow frame does not slow the clocks.
    const double moved = speed_ * static_cast<double>(clock_.restart()) / 1000.0;
    if (parameters_->takesRealPositions()) {
        carry_ = 0;
        advanceReal(moved);
        return;
    }
    carry_ += moved;
    const auto steps = static_cast<std::int64_t>(std::floor(carry_));
    if (steps <= 0)
        return;
    carry_ -= static_cast<double>(steps);
    advance(steps);
}

void Playback::advance(std::int64_t positions)
{
    const std::int64_t start = parameters_->values().startPos;
    const std::int64_t n = parameters_->values().seqLen;
    if (loop_)
        parameters_->setPosition(start + (parameters_->position() - start + positions) % n);
    else
        parameters_->stepPosition(positions);
}

void Playback::advanceReal(double positions)
{
    const pe::EncodingParams &p = parameters_->values();
    const auto start = static_cast<double>(p.startPos);
    if (!loop_) {
        parameters_->stepRealPosition(positions);
        return;
    }
    if (parameters_->realPosition() != lastSet_)
        phase_ = parameters_->realPosition() - start;
    phase_ = std::fmod(phase_ + positions, static_cast<double>(p.seqLen));
    parameters_->setRealPosition(std::min(start + phase_, static_cast<double>(p.startPos + p.seqLen - 1)));
    lastSet_ = parameters_->realPosition();
}
