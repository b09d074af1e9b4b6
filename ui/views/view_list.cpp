#include "figures/view_factory.h"

#include "views/alibi_view.h"
#include "views/attention_view.h"
#include "views/buckets_view.h"
#include "views/clock_grid_view.h"
#include "views/distance_view.h"
#include "views/frequency_view.h"
#include "views/grid_view.h"
#include "views/heatmap_view.h"
#include "views/inputs_view.h"
#include "views/pair_circle_view.h"
#include "views/precision_view.h"
#include "views/probe_view.h"
#include "views/projection_view.h"
#include "views/recovery_view.h"
#include "views/relative_view.h"
#include "views/rope_decay_view.h"
#include "views/scaling_view.h"
#include "views/similarity_view.h"

#include <QHash>

namespace {

struct ViewClass {
    PlotView *(*construct)(Parameters *, QWidget *);
    const QMetaObject *meta;
};

template <class View> ViewClass make()
{
    return {[](Parameters *parameters, QWidget *parent) -> PlotView * { return new View(parameters, parent); },
            &View::staticMetaObject};
}

// The widget class of every registry id (state/view_list.cpp lists the entries; tst_view_state
// checks that every entry has one).
const QHash<QString, ViewClass> &viewClasses()
{
    static const QHash<QString, ViewClass> classes = {
        {QStringLiteral("heatmap"), make<HeatmapView>()},       {QStringLiteral("frequencies"), make<FrequencyView>()},
        {QStringLiteral("clocks"), make<ClockGridView>()},      {QStringLiteral("circles"), make<PairCircleView>()},
        {QStringLiteral("similarity"), make<SimilarityView>()}, {QStringLiteral("recovery"), make<RecoveryView>()},
        {QStringLiteral("distance"), make<DistanceView>()},     {QStringLiteral("relative"), make<RelativeView>()},
        {QStringLiteral("probe"), make<ProbeView>()},           {QStringLiteral("inputs"), make<InputsView>()},
        {QStringLiteral("projection"), make<ProjectionView>()}, {QStringLiteral("scaling"), make<ScalingView>()},
        {QStringLiteral("rope-decay"), make<RopeDecayView>()},  {QStringLiteral("attention"), make<AttentionView>()},
        {QStringLiteral("alibi"), make<AlibiView>()},           {QStringLiteral("buckets"), make<BucketsView>()},
        {QStringLiteral("precision"), make<PrecisionView>()},   {QStringLiteral("grid"), make<GridView>()},
    };
    return classes;
}

} // namespace

PlotView *createView(const ViewInfo &info, Parameters *parameters, QWidget *parent)
{
    const auto found = viewClasses().constFind(info.id);
    if (found == viewClasses().cend())
        qFatal("no view class for the registry's '%s'", qPrintable(info.id));
    PlotView *view = found->construct(parameters, parent);
    view->bindSettings(info);
    return view;
}

QString viewIdOf(const QMetaObject *viewClass)
{
    for (auto it = viewClasses().cbegin(); it != viewClasses().cend(); ++it)
        if (it->meta == viewClass)
            return it.key();
    return {};
}
