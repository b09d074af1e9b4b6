#include "state/view_registry.h"

#include "views/alibi_view.h"
#include "views/attention_view.h"
#include "views/clock_grid_view.h"
#include "views/distance_view.h"
#include "views/frequency_view.h"
#include "views/heatmap_view.h"
#include "views/inputs_view.h"
#include "views/pair_circle_view.h"
#include "views/probe_view.h"
#include "views/projection_view.h"
#include "views/recovery_view.h"
#include "views/relative_view.h"
#include "views/rope_decay_view.h"
#include "views/scaling_view.h"
#include "views/similarity_view.h"

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

template <class View> ViewInfo in(const QString &group)
{
    ViewInfo info = viewInfo<View>();
    info.group = group;
    return info;
}

} // namespace

// The list of views: the registry's contract (state/view_registry.h) is declared below the views;
// the views themselves fill it here. The order is the View menu's and the digit keys' (Ctrl+1 the
// heatmap ... Ctrl+0 the inputs); the navigator shows them by group.
const std::vector<ViewInfo> &viewRegistry()
{
    static const std::vector<ViewInfo> views = {
        in<HeatmapView>(encodingGroup()),    in<FrequencyView>(encodingGroup()),    in<ClockGridView>(encodingGroup()),
        in<PairCircleView>(encodingGroup()), in<SimilarityView>(readingGroup()),    in<RecoveryView>(readingGroup()),
        in<DistanceView>(readingGroup()),    in<RelativeView>(readingGroup()),      in<ProbeView>(readingGroup()),
        in<InputsView>(encodingGroup()),     in<ProjectionView>(projectionGroup()), in<ScalingView>(ropeGroup()),
        in<RopeDecayView>(ropeGroup()),      in<AttentionView>(readingGroup()),     in<AlibiView>(biasGroup()),
    };
    return views;
}

QStringList viewGroups()
{
    return {encodingGroup(), readingGroup(), projectionGroup(), ropeGroup(), biasGroup()};
}

PlotView *ViewInfo::create(Parameters *parameters, QWidget *parent) const
{
    PlotView *view = construct(parameters, parent);
    view->bindSettings(*this);
    return view;
}
