#include "state/workspace.h"

#include "state/parameter_history.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/view_state.h"

#include <QScopeGuard>
#include <QUndoCommand>
#include <QUndoStack>

// A view's settings from one state to the next, one step of the same undo history as the
// parameters'. Typing in a number field (each digit a change) stays one step while the field keeps
// the keyboard; any other edit is a step of its own.
class SettingsChange : public QUndoCommand
{
  public:
    SettingsChange(Workspace *workspace, const QString &view, const QJsonObject &before, const QJsonObject &after,
                   const QObject *typingIn = nullptr)
        : workspace_(workspace)
        , view_(view)
        , before_(before)
        , after_(after)
        , typing_(typingIn)
    {
        setText(QObject::tr("%1 setting").arg(view));
    }

    int id() const override { return 2; }
    void undo() override { workspace_->restoreViewSettings(view_, before_); }
    void redo() override
    {
        if (done_) // pushed after the edit happened: nothing to do the first time
            workspace_->restoreViewSettings(view_, after_);
        done_ = true;
    }
    bool mergeWith(const QUndoCommand *other) override
    {
        const auto *next = static_cast<const SettingsChange *>(other);
        if (!typing_ || next->typing_ != typing_ || next->view_ != view_)
            return false;
        after_ = next->after_;
        setObsolete(after_ == before_);
        return true;
    }

  private:
    Workspace *workspace_;
    QString view_;
    QJsonObject before_, after_;
    const QObject *typing_; // the number field that had the keyboard, if any
    bool done_ = false;
};

Workspace::Workspace(Parameters *parameters, QObject *parent)
    : QObject(parent)
    , parameters_(parameters)
    , history_(new ParameterHistory(parameters, this))
{
    for (const ViewInfo &info : viewRegistry())
        states_.insert(info.id, new ViewState(info.settings, this));
}

Workspace::~Workspace() = default;

QUndoStack *Workspace::undoStack() const
{
    return history_->stack();
}

ViewState *Workspace::viewState(const QString &id) const
{
    return states_.value(id);
}

void Workspace::recordSettingsEdit(const QString &id, const QJsonObject &before, const QJsonObject &after,
                                   const QObject *typingIn)
{
    if (!restoring_)
        undoStack()->push(new SettingsChange(this, id, before, after, typingIn));
}

void Workspace::restoreViewSettings(const QString &id, const QJsonObject &settings)
{
    restoring_ = true;
    setViewSettings(id, settings);
    restoring_ = false;
}

QJsonObject Workspace::viewSettings(const QString &id) const
{
    const ViewState *state = states_.value(id);
    return state ? state->values() : QJsonObject();
}

std::optional<QString> Workspace::setViewSettings(const QString &id, const QJsonObject &settings)
{
    ViewState *state = states_.value(id);
    if (!state)
        return tr("unknown view '%1'.").arg(oneLine(id.left(40)));
    if (auto problem = state->set(settings))
        return tr("view '%1': %2").arg(id, *problem);
    return std::nullopt;
}

Session Workspace::session(const QString &view) const
{
    Session s;
    s.params = parameters_->values();
    s.position = parameters_->realPosition();
    s.noise = parameters_->noise();
    s.view = view;
    for (const ViewInfo &info : viewRegistry())
        s.views.insert(info.id, viewSettings(info.id));
    return s;
}

bool Workspace::applySession(const Session &s, QString *error)
{
    const auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    // Every part is checked before anything changes.
    for (auto it = s.views.begin(); it != s.views.end(); ++it) {
        const ViewInfo *info = findView(it.key());
        if (!info)
            return fail(tr("unknown view '%1'.").arg(oneLine(it.key().left(40))));
        if (auto problem = checkSettings(info->settings, it.value()))
            return fail(tr("view '%1': %2").arg(it.key(), *problem));
    }
    if (!findView(s.view))
        return fail(tr("unknown view '%1'.").arg(oneLine(s.view.left(40))));
    if (auto problem = pe::validateRealPosition(s.params, s.noise, s.position))
        return fail(QString::fromStdString(*problem));
    if (auto problem = parameters_->check(s.params, s.noise))
        return fail(QString::fromStdString(problem->message));
    // One undo step: the parameters and every view's settings it changes.
    QMap<QString, QJsonObject> before;
    for (const ViewInfo &info : viewRegistry())
        before.insert(info.id, viewSettings(info.id));
    undoStack()->beginMacro(s.title.isEmpty() ? tr("session") : s.title);
    const auto close = qScopeGuard([this] { undoStack()->endMacro(); });
    parameters_->setState(s.params, s.noise); // checked above
    parameters_->setRealPosition(s.position); // checked above
    // A session is a complete state: every view takes its defaults for what the session does not
    // name, so nothing of the state before it shows through (a preset after another once kept the
    // other's clock faces).
    for (const ViewInfo &info : viewRegistry()) {
        setViewSettings(info.id, completeSettings(info.settings, s.views.value(info.id)));
        if (const QJsonObject after = viewSettings(info.id); after != before.value(info.id))
            undoStack()->push(new SettingsChange(this, info.id, before.value(info.id), after));
    }
    return true;
}
