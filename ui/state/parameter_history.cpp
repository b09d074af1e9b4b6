#include "state/parameter_history.h"

#include "state/parameters.h"

#include <QUndoCommand>
#include <QUndoStack>

// One step of the history: from one state to the next.
class ParameterChange : public QUndoCommand
{
  public:
    ParameterChange(ParameterHistory *history, const ParameterHistory::State &before,
                    const ParameterHistory::State &after, int gesture)
        : history_(history)
        , before_(before)
        , after_(after)
        , gesture_(gesture)
    {
        setText(QObject::tr("parameter change"));
    }

    int id() const override { return 1; }
    void undo() override { history_->restore(before_); }
    void redo() override
    {
        if (done_) // pushed after the change happened: nothing to do the first time
            history_->restore(after_);
        done_ = true;
    }
    bool mergeWith(const QUndoCommand *other) override
    {
        const auto *next = static_cast<const ParameterChange *>(other);
        if (gesture_ == 0 || next->gesture_ != gesture_) // one gesture, one step
            return false;
        after_ = next->after_;
        setObsolete(after_ == before_); // dragged back to where it started: no step at all
        return true;
    }

  private:
    ParameterHistory *history_;
    ParameterHistory::State before_, after_;
    int gesture_;
    bool done_ = false;
};

ParameterHistory::ParameterHistory(Parameters *parameters, QObject *parent)
    : QObject(parent)
    , parameters_(parameters)
    , stack_(new QUndoStack(this))
    , last_{parameters->values(), parameters->noise()}
{
    connect(parameters_, &Parameters::changed, this, &ParameterHistory::record);
}

void ParameterHistory::record()
{
    if (restoring_)
        return;
    const State now{parameters_->values(), parameters_->noise()};
    if (now == last_)
        return;
    const State before = last_;
    last_ = now;
    stack_->push(new ParameterChange(this, before, now, gesture_)); // merges within a gesture
}

void ParameterHistory::beginGesture()
{
    gesture_ = ++lastGesture_;
}

void ParameterHistory::endGesture()
{
    gesture_ = 0;
}

void ParameterHistory::restore(const State &state)
{
    restoring_ = true;
    parameters_->setState(state.params, state.noise);
    restoring_ = false;
    last_ = state;
}
