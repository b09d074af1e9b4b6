#include "figures/workspace_views.h"

#include "figures/plot_view.h"
#include "figures/view_factory.h"
#include "state/view_registry.h"
#include "state/workspace.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QDir>
#include <QScopeGuard>

WorkspaceViews::WorkspaceViews(Workspace *workspace, QObject *parent)
    : QObject(parent)
    , workspace_(workspace)
{
}

PlotView *WorkspaceViews::create(const QString &id, QWidget *parent)
{
    PlotView *view = createView(*findView(id), workspace_->parameters(), parent);
    attach(view);
    return view;
}

void WorkspaceViews::attach(PlotView *view)
{
    const QString id = view->info().id;
    views_.insert(id, view);
    view->useState(workspace_->viewState(id));
    connect(view, &PlotView::settingsEdited, this, [this, id](const QJsonObject &before, const QJsonObject &after) {
        // Typing into a number field is one step while the field keeps the keyboard.
        workspace_->recordSettingsEdit(id, before, after,
                                       qobject_cast<QAbstractSpinBox *>(QApplication::focusWidget()));
    });
    // A view destroyed without detaching (its window closed): the state stays in the workspace.
    connect(view, &QObject::destroyed, this, [this, id, view] {
        if (views_.value(id) == view)
            views_.remove(id);
    });
}

void WorkspaceViews::detach(PlotView *view)
{
    const QString id = view->info().id;
    if (views_.value(id) == view)
        views_.remove(id);
    disconnect(view, nullptr, this, nullptr);
    view->useState(nullptr);
}

std::unique_ptr<PlotView> WorkspaceViews::offscreenView(const QString &id)
{
    std::unique_ptr<PlotView> view(createView(*findView(id), workspace_->parameters(), nullptr));
    view->setCompleteFigures(true);
    attach(view.get());
    return view;
}

bool WorkspaceViews::saveAllFigures(const QString &folder, FigureFormat format, const FigureOptions &options,
                                    QString *error, QStringList *skipped)
{
    if (!QDir().mkpath(folder)) {
        *error = tr("cannot create the folder '%1'.").arg(folder);
        return false;
    }
    static const char *const suffix[] = {"png", "svg", "pdf"};
    for (const ViewInfo &info : viewRegistry()) {
        std::unique_ptr<PlotView> own;
        PlotView *view = views_.value(info.id);
        if (!view) {
            own = offscreenView(info.id);
            view = own.get();
        }
        const auto done = qScopeGuard([&] {
            if (own)
                detach(own.get());
        });
        if (const QString why = view->cannotDraw(); !why.isEmpty()) {
            if (skipped)
                *skipped << tr("%1: %2").arg(info.id, why);
            continue;
        }
        const QString path =
            QDir(folder).filePath(info.id + QLatin1Char('.') + QLatin1String(suffix[static_cast<int>(format)]));
        QString tight;
        const FigureOptions fitted = fitFigure(view, options, &tight);
        if (!tight.isEmpty()) {
            if (skipped)
                *skipped << tr("%1: %2").arg(info.id, tight);
            continue;
        }
        if (!::exportFigure(view, path, fitted, error)) {
            *error = tr("%1: %2").arg(info.id, *error);
            return false;
        }
    }
    return true;
}
