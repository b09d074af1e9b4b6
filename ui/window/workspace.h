#pragma once

#include "figures/figure_export.h"
#include "state/session.h"

#include <QMap>
#include <QObject>

#include <memory>
#include <optional>

class Parameters;
class ParameterHistory;
class PlotView;
class QUndoStack;
class ViewState;

// Everything a session is, without a window: the parameters (the one state object), their undo
// history, and each view's settings. Views attach to it; settings for a view not attached (a
// figure the command line has not drawn yet) are kept and applied when it attaches. The main
// window and the command line both work through one, so a session means the same to both.
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
    // view shows it; nullptr for an unknown id.
    ViewState *viewState(const QString &id) const;
    // A view of the registry reads and edits the state kept here for its id (every view of that id
    // shares it: the window's, the one beside it in lecture mode, an export's); its edits are undo
    // steps. Detached, it has its own again.
    void attach(PlotView *view);
    void detach(PlotView *view);

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

    // A view created offscreen from the registry, attached, drawing finished figures.
    std::unique_ptr<PlotView> offscreenView(const QString &id);
    // Every view's figure into the folder as <id>.<format>: the attached views as they are, the
    // others created offscreen one at a time. A view that cannot be drawn is skipped, with a line
    // in `skipped` ("projection: why"); false with the first failure in `error`.
    bool saveAllFigures(const QString &folder, FigureFormat format, const FigureOptions &options, QString *error,
                        QStringList *skipped = nullptr);

  private:
    Parameters *parameters_;
    ParameterHistory *history_;
    QMap<QString, ViewState *> states_;
    QMap<QString, PlotView *> views_; // the view last attached for each id
    bool restoring_ = false;          // undo or redo applying settings: not an edit
};
