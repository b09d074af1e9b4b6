#pragma once

#include "state/session.h"

#include <QMap>
#include <QObject>

#include <memory>
#include <optional>

class Parameters;
class ParameterHistory;
class QUndoStack;
class ViewState;

// Everything a session is, without a widget: the parameters (the one state object), their undo
// history, and each view's settings. Views read and edit its states (figures/workspace_views.h
// attaches them); a view's settings are kept here whether or not a view shows them. The main
// window and the command line both work through one, so a session means the same to both; it
// links Qt Core and Gui only (QUndoStack is in Gui), no widget.
class Workspace : public QObject
{
    Q_OBJECT

  public:
    explicit Workspace(Parameters *parameters, QObject *parent = nullptr);
    ~Workspace() override;

    Parameters *parameters() const { return parameters_; }
    QUndoStack *undoStack() const;
    ParameterHistory *history() const { return history_; }

    // Each view's settings, one typed state a view of the registry (ViewState), whether or not a
    // view shows it (every view of that id shares it: the window's, the one beside it in lecture
    // mode, an export's); nullptr for an unknown id.
    ViewState *viewState(const QString &id) const;
    // A view's edit of its settings, from `before` to `after` (already in its state), as one undo
    // step. Edits from one number field while it keeps the keyboard (`typingIn`, the field; null
    // for any other edit) merge into one step. Undo and redo applying settings record nothing.
    void recordSettingsEdit(const QString &id, const QJsonObject &before, const QJsonObject &after,
                            const QObject *typingIn = nullptr);

    // A view's settings as a session saves them.
    QJsonObject viewSettings(const QString &id) const;
    // Merges settings into a view's state (checked first against its registry entry: nothing
    // changes when one is refused, and the reason names the setting).
    std::optional<QString> setViewSettings(const QString &id, const QJsonObject &settings);
    // Undo and redo of a view's settings: applied without recording a step.
    void restoreViewSettings(const QString &id, const QJsonObject &settings);

    // Everything shown, with `view` as the view in front.
    Session session(const QString &view) const;
    // Checks every part (parameters, noise, position, the view, each view's settings against the
    // registry) and applies all of it, or nothing with `error` one line saying why. Every setting
    // the session does not name returns to its default: the state after it is the session's alone.
    bool applySession(const Session &session, QString *error);

  private:
    Parameters *parameters_;
    ParameterHistory *history_;
    QMap<QString, ViewState *> states_;
    bool restoring_ = false; // undo or redo applying settings: not an edit
};
