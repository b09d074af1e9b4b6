#pragma once

#include "figures/figure_export.h"

#include <QMap>
#include <QObject>

#include <memory>

class PlotView;
class QWidget;
class Workspace;

// The views that draw one workspace's state: each reads and edits the settings the workspace keeps
// for its id, its edits are undo steps of the workspace's history, and every figure of the
// workspace can be saved at once. The window and the command line both draw through one.
class WorkspaceViews : public QObject
{
    Q_OBJECT

  public:
    explicit WorkspaceViews(Workspace *workspace, QObject *parent = nullptr);

    Workspace *workspace() const { return workspace_; }

    // A view of the registry made for `parent` (figures/view_factory.h) and attached.
    PlotView *create(const QString &id, QWidget *parent);
    // The view reads and edits the workspace's state for its id (every view of that id shares
    // it); its edits are undo steps. Detached, it has its own state again.
    void attach(PlotView *view);
    void detach(PlotView *view);

    // A view created offscreen from the registry, attached, drawing finished figures.
    std::unique_ptr<PlotView> offscreenView(const QString &id);
    // Every view's figure into the folder as <id>.<format>: the attached views as they are, the
    // others created offscreen one at a time. A view that cannot be drawn is skipped, with a line
    // in `skipped` ("projection: why"); false with the first failure in `error`.
    bool saveAllFigures(const QString &folder, FigureFormat format, const FigureOptions &options, QString *error,
                        QStringList *skipped = nullptr);

  private:
    Workspace *workspace_;
    QMap<QString, PlotView *> views_; // the view last attached for each id
};
