#include "view_registry.h"

#include "clock_grid_view.h"
#include "distance_view.h"
#include "frequency_view.h"
#include "inputs_view.h"
#include "relative_view.h"
#include "heatmap_view.h"
#include "pair_circle_view.h"
#include "recovery_view.h"
#include "similarity_view.h"

#include <QStringList>

const std::vector<ViewInfo> &viewRegistry()
{
    static const std::vector<ViewInfo> views = {
        {QStringLiteral("heatmap"), QObject::tr("Heatmap"),
         [](Parameters *p, QWidget *parent) -> PlotView * { return new HeatmapView(p, parent); }},
        {QStringLiteral("frequencies"), QObject::tr("Frequencies"),
         [](Parameters *p, QWidget *parent) -> PlotView * { return new FrequencyView(p, parent); }},
        {QStringLiteral("clocks"), QObject::tr("Clocks"),
         [](Parameters *p, QWidget *parent) -> PlotView * { return new ClockGridView(p, parent); }},
        {QStringLiteral("circles"), QObject::tr("Circles"),
         [](Parameters *p, QWidget *parent) -> PlotView * { return new PairCircleView(p, parent); }},
        {QStringLiteral("similarity"), QObject::tr("Similarity"),
         [](Parameters *p, QWidget *parent) -> PlotView * { return new SimilarityView(p, parent); }},
        {QStringLiteral("recovery"), QObject::tr("Recovery"),
         [](Parameters *p, QWidget *parent) -> PlotView * { return new RecoveryView(p, parent); }},
        {QStringLiteral("distance"), QObject::tr("Distance matrix"),
         [](Parameters *p, QWidget *parent) -> PlotView * { return new DistanceView(p, parent); }},
        {QStringLiteral("relative"), QObject::tr("Relative position"),
         [](Parameters *p, QWidget *parent) -> PlotView * { return new RelativeView(p, parent); }},
        {QStringLiteral("inputs"), QObject::tr("Inputs (noise)"),
         [](Parameters *p, QWidget *parent) -> PlotView * { return new InputsView(p, parent); }},
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
