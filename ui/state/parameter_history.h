#pragma once

#include "encodings/encoding_params.h"
#include "encodings/noise.h"

#include <QElapsedTimer>
#include <QObject>

class Parameters;
class QUndoStack;

// Undo and redo of parameter changes: the encoding's parameters and the noise, not the current
// position (playback moves it many times a second). Changes in quick succession, as a slider
// dragged, merge into one step.
class ParameterHistory : public QObject
{
    Q_OBJECT

  public:
    explicit ParameterHistory(Parameters *parameters, QObject *parent = nullptr);

    QUndoStack *stack() const { return stack_; }

    struct State {
        pe::EncodingParams params;
        pe::NoiseParams noise;
        bool operator==(const State &) const = default;
    };
    // Changes within this many milliseconds of the step before join it.
    static constexpr int kMergeMs = 600;

  private:
    friend class ParameterChange;
    void record();
    void restore(const State &state);

    Parameters *parameters_;
    QUndoStack *stack_;
    State last_;
    bool restoring_ = false;
    QElapsedTimer sinceLast_;
};
