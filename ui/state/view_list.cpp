#include "state/view_info/view_infos.h"
#include "state/view_registry.h"

#include <QCoreApplication>

namespace {

QString encodingGroup()
{
    return QCoreApplication::translate("ViewGroups", "The encoding");
}
QString readingGroup()
{
    return QCoreApplication::translate("ViewGroups", "What a model reads");
}
QString projectionGroup()
{
    return QCoreApplication::translate("ViewGroups", "Projections");
}
QString ropeGroup()
{
    return QCoreApplication::translate("ViewGroups", "RoPE and its extensions");
}
QString biasGroup()
{
    return QCoreApplication::translate("ViewGroups", "Biases");
}

enum class Markers { None, OnPositions };

// An entry with what every view has after its own settings: the figure's markers for a view with
// position axes (PlotView::positionAxes), the figure's title, and the scheme check.
ViewInfo in(ViewInfo info, const QString &group, Markers markers = Markers::None)
{
    if (markers == Markers::OnPositions)
        info.settings.push_back(markerSetting());
    for (ViewSetting &s : figureSettings())
        info.settings.push_back(std::move(s));
    info.group = group;
    return withSchemeCheck(std::move(info));
}

} // namespace

// The list of views: the order is the View menu's and the digit keys' (Ctrl+1 the heatmap ...
// Ctrl+0 the inputs); the navigator shows them by group. Each entry's widget is made by the views
// library (views/view_list.cpp), so this list, sessions and data exports need no widget.
const std::vector<ViewInfo> &viewRegistry()
{
    using enum Markers;
    static const std::vector<ViewInfo> views = {
        in(heatmapViewInfo(), encodingGroup(), OnPositions),
        in(frequencyViewInfo(), encodingGroup()),
        in(clockGridViewInfo(), encodingGroup()),
        in(pairCircleViewInfo(), encodingGroup()),
        in(similarityViewInfo(), readingGroup(), OnPositions),
        in(recoveryViewInfo(), readingGroup(), OnPositions),
        in(distanceViewInfo(), readingGroup(), OnPositions),
        in(relativeViewInfo(), readingGroup()),
        in(probeViewInfo(), readingGroup()),
        in(inputsViewInfo(), encodingGroup(), OnPositions),
        in(projectionViewInfo(), projectionGroup()),
        in(scalingViewInfo(), ropeGroup()),
        in(ropeDecayViewInfo(), ropeGroup()),
        in(precisionViewInfo(), ropeGroup(), OnPositions),
        in(gridViewInfo(), ropeGroup()),
        in(attentionViewInfo(), readingGroup(), OnPositions),
        in(alibiViewInfo(), biasGroup()),
        in(bucketsViewInfo(), biasGroup()),
    };
    return views;
}

QStringList viewGroups()
{
    return {encodingGroup(), readingGroup(), projectionGroup(), ropeGroup(), biasGroup()};
}
