#include "view_registry.h"

#include "clock_grid_view.h"
#include "distance_view.h"
#include "frequency_view.h"
#include "heatmap_view.h"
#include "inputs_view.h"
#include "pair_circle_view.h"
#include "projection_view.h"
#include "recovery_view.h"
#include "relative_view.h"
#include "similarity_view.h"

#include <QStringList>

namespace {

template <class View> PlotView *create(Parameters *parameters, QWidget *parent)
{
    return new View(parameters, parent);
}

} // namespace

const std::vector<ViewInfo> &viewRegistry()
{
    static const std::vector<ViewInfo> views = {
        {QStringLiteral("heatmap"), QObject::tr("Heatmap"), &create<HeatmapView>},
        {QStringLiteral("frequencies"), QObject::tr("Frequencies"), &create<FrequencyView>},
        {QStringLiteral("clocks"), QObject::tr("Clocks"), &create<ClockGridView>},
        {QStringLiteral("circles"), QObject::tr("Circles"), &create<PairCircleView>},
        {QStringLiteral("similarity"), QObject::tr("Similarity"), &create<SimilarityView>},
        {QStringLiteral("recovery"), QObject::tr("Recovery"), &create<RecoveryView>},
        {QStringLiteral("distance"), QObject::tr("Distance"), &create<DistanceView>},
        {QStringLiteral("relative"), QObject::tr("Relative"), &create<RelativeView>},
        {QStringLiteral("inputs"), QObject::tr("Inputs"), &create<InputsView>},
        {QStringLiteral("projection"), QObject::tr("Projection"), &create<ProjectionView>},
    };
    return views;
}

const ViewInfo *findView(const QString &id)
{
    for (const ViewInfo &v : viewRegistry())
        if (v.id == id)
            return &v;
    return nullptr;
}

QStringList viewIds()
{
    QStringList ids;
    for (const ViewInfo &v : viewRegistry())
        ids << v.id;
    return ids;
}
