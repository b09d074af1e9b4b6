#include "window/workspace.h"

#include "figures/plot_view.h"
#include "state/parameter_history.h"
#include "state/parameters.h"
#include "state/view_registry.h"

#include <QDir>
#include <QUndoStack>

Workspace::Workspace(Parameters *parameters, QObject *parent)
    : QObject(parent)
    , parameters_(parameters)
    , history_(new ParameterHistory(parameters, this))
{
}

Workspace::~Workspace() = default;

QUndoStack *Workspace::undoStack() const
{
    return history_->stack();
}

void Workspace::attach(PlotView *view)
{
    const QString id = view->info().id;
    views_.insert(id, view);
    // A view destroyed without detaching (its window closed) takes its settings with it.
    connect(view, &QObject::destroyed, this, [this, id, view] {
        if (views_.value(id) == view)
            views_.remove(id);
    });
    if (kept_.contains(id))
        view->applySettings(kept_.take(id)); // checked when kept
}

void Workspace::detach(PlotView *view)
{
    const QString id = view->info().id;
    if (views_.value(id) != view)
        return;
    kept_.insert(id, view->settings());
    views_.remove(id);
    disconnect(view, &QObject::destroyed, this, nullptr);
}

QJsonObject Workspace::viewSettings(const QString &id) const
{
    if (PlotView *v = views_.value(id))
        return v->settings();
    const ViewInfo *info = findView(id);
    return info ? completeSettings(info->settings, kept_.value(id)) : QJsonObject();
}

std::optional<QString> Workspace::setViewSettings(const QString &id, const QJsonObject &settings)
{
    const ViewInfo *info = findView(id);
    if (!info)
        return tr("unknown view '%1'.").arg(oneLine(id.left(40)));
    if (auto problem = checkSettings(info->settings, settings))
        return tr("view '%1': %2").arg(id, *problem);
    if (PlotView *v = views_.value(id)) {
        v->applySettings(settings);
        return std::nullopt;
    }
    QJsonObject merged = kept_.value(id);
    for (auto it = settings.begin(); it != settings.end(); ++it)
        merged.insert(it.key(), it.value());
    kept_.insert(id, merged);
    return std::nullopt;
}

Session Workspace::session(const QString &view) const
{
    Session s;
    s.params = parameters_->values();
    s.position = parameters_->position();
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
    if (auto problem = pe::validatePosition(s.params, s.position))
        return fail(QString::fromStdString(*problem));
    if (auto problem = parameters_->setState(s.params, s.noise))
        return fail(QString::fromStdString(*problem));
    parameters_->setPosition(s.position);
    // A session is a complete state: every view takes its defaults for what the session does not
    // name, so nothing of the state before it shows through (a preset after another once kept the
    // other's clock faces).
    for (const ViewInfo &info : viewRegistry())
        setViewSettings(info.id, completeSettings(info.settings, s.views.value(info.id)));
    return true;
}

std::unique_ptr<PlotView> Workspace::offscreenView(const QString &id)
{
    std::unique_ptr<PlotView> view(findView(id)->create(parameters_, nullptr));
    view->setCompleteFigures(true);
    attach(view.get());
    return view;
}

bool Workspace::saveAllFigures(const QString &folder, FigureFormat format, const FigureOptions &options, QString *error,
                               QStringList *skipped)
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
