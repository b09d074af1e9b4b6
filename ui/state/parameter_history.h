#pragma once

#include "encodings/encoding_params.h"
#include "encodings/noise.h"

#include <QObject>

class Parameters;
class QUndoStack;

// Undo and redo of parameter changes: the encoding's parameters and the noise, not the current
// position (playback moves it many times a second). Every change is a step of its own, but those of
// one gesture (a slider held from press to release) merge into one: no clock decides what a step is.
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
    // A gesture: from begin to end, the changes made are one step (a slider dragged). A gesture
    // that changes nothing leaves no step.
    void beginGesture();
    void endGesture();

  private:
    friend class ParameterChange;
    void record();
    void restore(const State &state);

    Parameters *parameters_;
    QUndoStack *stack_;
    State last_;
    bool restoring_ = false;
    int gesture_ = 0;     // the open gesture's number; 0 when none is open
    int lastGesture_ = 0; // the last number given
};
