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
enum class Legend { None, Placed };
// A view whose axes share their units (aspectSetting) and its default.
enum class Aspect { None, Auto, Equal };

// An entry with what every view has after its own settings: the figure's markers for a view with
// position axes (PlotView::positionAxes), the legend's place for a view with a legend, the colour scale's limits for a
// view with a colour bar (PlotView applies them to every colour bar it draws), the figure's title, and the scheme
// check.
ViewInfo in(ViewInfo info, const QString &group, Markers markers = Markers::None,
            ColourScale colours = ColourScale::None, Legend legend = Legend::None, Aspect aspect = Aspect::None)
{
    if (aspect != Aspect::None)
        info.settings.push_back(
            aspectSetting(aspect == Aspect::Equal ? QStringLiteral("equal") : QStringLiteral("auto")));
    if (markers == Markers::OnPositions)
        info.settings.push_back(markerSetting());
    if (legend == Legend::Placed)
        info.settings.push_back(legendSetting());
    for (ViewSetting &s : colourSettings(colours))
        info.settings.push_back(std::move(s));
    if (colours != ColourScale::None)
        info.cannotDraw = [own = info.cannotDraw](const DataRequest &r) {
            const QString problem = colourLimitsProblem(r.settings);
            return !problem.isEmpty() || !own ? problem : own(r);
        };
    for (ViewSetting &s : figureSettings())
        info.settings.push_back(std::move(s));
    info.group = group;
    return withSchemeCheck(std::move(info));
}

// A view that draws the position at any real t (ViewInfo::realPositions), narrowed by `problem`.
ViewInfo atRealPositions(ViewInfo info, std::function<QString(const pe::EncodingParams &)> problem = {})
{
    info.realPositions = true;
    info.realRowsProblem = std::move(problem);
    return info;
}

} // namespace

// The list of views: the order is the View menu's and the digit keys' (Ctrl+1 the heatmap ...
// Ctrl+0 the inputs); the navigator shows them by group. Each entry's widget is made by the views
// library (views/view_list.cpp), so this list, sessions and data exports need no widget.
const std::vector<ViewInfo> &viewRegistry()
{
    using enum Markers;
    constexpr ColourScale Values = ColourScale::Values, Positions = ColourScale::Positions;
    static const std::vector<ViewInfo> views = {
        in(atRealPositions(heatmapViewInfo()), encodingGroup(), OnPositions, Values),
        in(frequencyViewInfo(), encodingGroup(), Markers::None, ColourScale::None, Legend::Placed),
        in(atRealPositions(clockGridViewInfo()), encodingGroup()),
        in(atRealPositions(pairCircleViewInfo()), encodingGroup(), Markers::None, Positions, Legend::None,
           Aspect::Equal),
        in(similarityViewInfo(), readingGroup(), OnPositions),
        in(recoveryViewInfo(), readingGroup(), OnPositions),
        in(distanceViewInfo(), readingGroup(), OnPositions, Values),
        in(relativeViewInfo(), readingGroup()),
        in(probeViewInfo(), readingGroup()),
        in(inputsViewInfo(), encodingGroup(), OnPositions, Values),
        in(projectionViewInfo(), projectionGroup(), Markers::None, Positions, Legend::Placed, Aspect::Auto),
        in(scalingViewInfo(), ropeGroup(), Markers::None, ColourScale::None, Legend::Placed),
        in(ropeDecayViewInfo(), ropeGroup(), Markers::None, ColourScale::None, Legend::Placed),
        in(precisionViewInfo(), ropeGroup(), OnPositions, ColourScale::None, Legend::Placed),
        in(gridViewInfo(), ropeGroup(), Markers::None, Values),
        in(atRealPositions(attentionViewInfo(), attentionRealRowsProblem), readingGroup(), OnPositions, Values),
        in(alibiViewInfo(), biasGroup(), Markers::None, Values),
        in(bucketsViewInfo(), biasGroup(), Markers::None, Values),
    };
    return views;
}

QStringList viewGroups()
{
    return {encodingGroup(), readingGroup(), projectionGroup(), ropeGroup(), biasGroup()};
}
