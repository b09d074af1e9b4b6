#pragma once

#include "encodings/encoding.h"
#include "encodings/noise.h"

#include <QObject>

#include <cstdint>
#include <memory>
#include <optional>

// The one state object of the window: owns the encoding parameters, the Encoding built from them
// and the current position, and announces each change with a signal. Controls write here; views
// only listen.
class Parameters : public QObject
{
    Q_OBJECT

  public:
    explicit Parameters(QObject *parent = nullptr);

    const pe::EncodingParams &values() const { return values_; }
    const pe::Encoding &encoding() const { return *encoding_; }
    // The same Encoding, kept alive for work that outlasts a parameter change (a data export).
    std::shared_ptr<const pe::Encoding> sharedEncoding() const { return encoding_; }

    // Applies the values if the validator accepts them; otherwise changes nothing and returns why.
    // The current position stays where it is if the new window holds it, else it moves to the
    // window's nearest end.
    std::optional<pe::ValidationError> set(const pe::EncodingParams &values);

    // Noisy embeddings x = PE + sigma z (seed 001); sigma 0 is the pure encoding. Refused values
    // change nothing and return the reason.
    const pe::NoiseParams &noise() const { return noise_; }
    std::optional<std::string> setNoise(const pe::NoiseParams &noise);

    // Both at once, checked together (a session's or an undo step's: numpy's noise may need the
    // new window, and the new window the new noise); one change signal.
    std::optional<std::string> setState(const pe::EncodingParams &values, const pe::NoiseParams &noise);

    // The highlighted position every view marks (heatmap row, clock row, circle point); always in
    // the window [start_pos, start_pos + seq_len).
    std::int64_t position() const { return position_; }
    // The same as a real number: position() plus a fraction in [0, 1), which only a state whose
    // formulas are defined between positions has (pe::realPositionProblem; smooth playback moves
    // it). The views that draw any real t (the registry's realPositions) read this one; the others
    // position(), its whole part.
    double realPosition() const { return static_cast<double>(position_) + fraction_; }
    bool takesRealPositions() const;
    // False, and nothing changes, when t is outside the window. A whole position: the fraction goes.
    bool setPosition(std::int64_t t);
    // False, and nothing changes, when pe::validateRealPosition refuses t.
    bool setRealPosition(double t);
    // Moves the position by k; past either end of the window the window slides along with it (as
    // far as the limits allow), so stepping never stops at the edge of what is shown.
    void stepPosition(std::int64_t k);
    // Moves the real position by k (any real where the state has positions between whole ones, else
    // whole), sliding the window as stepPosition does; at the last allowed position it stops there.
    void stepRealPosition(double k);

    // The one check of a state: the validator, the noise, and numpy's draws against the window
    // (its field: the one of seq_len, d_model and start_pos that changed). setState applies what
    // it passes.
    std::optional<pe::ValidationError> check(const pe::EncodingParams &values, const pe::NoiseParams &noise) const;

  signals:
    void changed();
    // The real position changed (its whole part, its fraction or both).
    void positionChanged();

  private:
    void apply(const pe::EncodingParams &values, const pe::NoiseParams &noise); // valid ones
    pe::EncodingParams values_;
    std::shared_ptr<const pe::Encoding> encoding_;
    std::int64_t position_ = 0;
    double fraction_ = 0; // in [0, 1); 0 unless takesRealPositions()
    pe::NoiseParams noise_;
};
