#include "state/parameters.h"

#include "encodings/scheme.h"

#include "encodings/position_table.h"

#include <algorithm>
#include <cmath>

Parameters::Parameters(QObject *parent)
    : QObject(parent)
    , encoding_(std::make_shared<pe::Encoding>(values_))
{
}

std::optional<pe::ValidationError> Parameters::check(const pe::EncodingParams &values,
                                                     const pe::NoiseParams &noise) const
{
    if (auto error = pe::validate(values))
        return error;
    if (auto error = pe::validateNoiseFor(values, noise)) // numpy's draws must reach the window
        return pe::ValidationError{values.seqLen != values_.seqLen   ? pe::Field::SeqLen
                                   : values.dModel != values_.dModel ? pe::Field::DModel
                                                                     : pe::Field::StartPos,
                                   *error};
    return std::nullopt;
}

std::optional<pe::ValidationError> Parameters::set(const pe::EncodingParams &values)
{
    if (auto error = check(values, noise_))
        return error;
    apply(values, noise_);
    return std::nullopt;
}

std::optional<std::string> Parameters::setNoise(const pe::NoiseParams &noise)
{
    return setState(values_, noise);
}

std::optional<std::string> Parameters::setState(const pe::EncodingParams &values, const pe::NoiseParams &noise)
{
    if (auto error = check(values, noise))
        return error->message;
    apply(values, noise);
    return std::nullopt;
}

void Parameters::apply(const pe::EncodingParams &values, const pe::NoiseParams &noise)
{
    if (values == values_ && noise == noise_)
        return;
    if (!(values == values_)) {
        values_ = values;
        encoding_ = std::make_shared<pe::Encoding>(values_);
    }
    noise_ = noise;
    const std::int64_t kept = std::clamp(position_, values_.startPos, values_.startPos + values_.seqLen - 1);
    // A state without positions between whole ones (a table, noise) lands on the whole part.
    // A fraction past a shortened window's last position goes too.
    const double fraction =
        kept == position_ && !pe::validateRealPosition(values_, noise_, static_cast<double>(kept) + fraction_)
            ? fraction_
            : 0.0;
    const bool moved = kept != position_ || fraction != fraction_;
    position_ = kept;
    fraction_ = fraction;
    emit changed();
    if (moved)
        emit positionChanged();
}

void Parameters::stepRealPosition(double k)
{
    const double target = realPosition() + k;
    // Inside the window: one move, one signal (playback's and the frames' every step).
    if (target != std::floor(target) && takesRealPositions() && setRealPosition(target))
        return;
    // The window slides, as whole steps slide it, until it holds the whole position past the target
    // (a real position lies between two rows of the window); then the target itself.
    const auto edge = static_cast<std::int64_t>(k >= 0 ? std::ceil(target) : std::floor(target));
    stepPosition(edge - position_);
    if (target != std::floor(target) && takesRealPositions())
        setRealPosition(target); // refused past the last allowed position: it stays there
}

bool Parameters::takesRealPositions() const
{
    return pe::realPositionProblem(values_, noise_).empty();
}

bool Parameters::setPosition(std::int64_t t)
{
    if (t < values_.startPos || t >= values_.startPos + values_.seqLen)
        return false;
    if (t != position_ || fraction_ != 0) {
        position_ = t;
        fraction_ = 0;
        emit positionChanged();
    }
    return true;
}

bool Parameters::setRealPosition(double t)
{
    if (pe::validateRealPosition(values_, noise_, t))
        return false;
    const double whole = std::floor(t);
    const auto position = static_cast<std::int64_t>(whole);
    if (position != position_ || t - whole != fraction_) {
        position_ = position;
        fraction_ = t - whole;
        emit positionChanged();
    }
    return true;
}

void Parameters::stepPosition(std::int64_t k)
{
    // A table's positions end with its rows.
    const std::int64_t last = pe::positionEnd(values_) - 1;
    const std::int64_t target = std::clamp<std::int64_t>(position_ + k, 0, last);
    if (setPosition(target))
        return;
    pe::EncodingParams v = values_;
    if (target < v.startPos)
        v.startPos = target;
    else
        v.startPos = target - v.seqLen + 1;
    const std::int64_t before = position_;
    const double fraction = fraction_;
    position_ = target; // set() keeps it: the slid window holds it
    fraction_ = 0;      // a step lands on a whole position
    if (set(v)) {
        position_ = before;
        fraction_ = fraction;
        return;
    }
    emit positionChanged();
}
