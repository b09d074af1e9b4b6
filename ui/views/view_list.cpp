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

// The list of views, in tab order: the registry's contract (state/view_registry.h) is declared
// below the views; the views themselves fill it here.
const std::vector<ViewInfo> &viewRegistry()
{
    static const std::vector<ViewInfo> views = {
        viewInfo<HeatmapView>(),    viewInfo<FrequencyView>(), viewInfo<ClockGridView>(),  viewInfo<PairCircleView>(),
        viewInfo<SimilarityView>(), viewInfo<RecoveryView>(),  viewInfo<DistanceView>(),   viewInfo<RelativeView>(),
        viewInfo<ProbeView>(),      viewInfo<InputsView>(),    viewInfo<ProjectionView>(), viewInfo<ScalingView>(),
        viewInfo<RopeDecayView>(),  viewInfo<AttentionView>(), viewInfo<AlibiView>(),
    };
    return views;
}

PlotView *ViewInfo::create(Parameters *parameters, QWidget *parent) const
{
    PlotView *view = construct(parameters, parent);
    view->bindSettings(*this);
    return view;
}
