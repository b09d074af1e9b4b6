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

const std::vector<ViewInfo> &viewRegistry()
{
    static const std::vector<ViewInfo> views = {
        viewInfo<HeatmapView>(),    viewInfo<FrequencyView>(),  viewInfo<ClockGridView>(), viewInfo<PairCircleView>(),
        viewInfo<SimilarityView>(), viewInfo<RecoveryView>(),   viewInfo<DistanceView>(),  viewInfo<RelativeView>(),
        viewInfo<InputsView>(),     viewInfo<ProjectionView>(),
    };
    return views;
}

PlotView *ViewInfo::create(Parameters *parameters, QWidget *parent) const
{
    PlotView *view = construct(parameters, parent);
    view->bindSettings(*this);
    return view;
}

pe::Table DataExport::make(const DataRequest &request) const
{
    pe::Table t = table(request);
    t.fill = [keep = request.encoding, fill = std::move(t.fill)](std::int64_t first, std::int64_t count, double *out) {
        fill(first, count, out);
    };
    return t;
}

DataExport encodingExport()
{
    return {QStringLiteral("encoding"),
            QObject::tr("the encoding, seq_len x d_model (a table: the chosen rows)"),
            {},
            [](const DataRequest &r) { return pe::encodingTable(*r.encoding); }};
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

std::vector<DataKind> dataKinds()
{
    std::vector<DataKind> out;
    QStringList seen;
    for (const ViewInfo &v : viewRegistry())
        for (const DataExport &e : v.exports)
            if (!seen.contains(e.kind)) {
                seen << e.kind;
                out.push_back({&v, &e});
            }
    return out;
}

std::optional<DataKind> findDataKind(const QString &kind)
{
    for (const DataKind &k : dataKinds())
        if (k.data->kind == kind)
            return k;
    return std::nullopt;
}
