#include "state/view_info/view_infos.h"

#include "encodings/scheme.h"

PE_VIEW_TEXTS(DistanceView)

ViewInfo distanceViewInfo()
{
    return {QStringLiteral("distance"),
            tr("Distance"),
            {metricSetting()},
            {{QStringLiteral("distance"), tr("the seq_len x seq_len matrix of the metric"),
              [](const DataRequest &r) {
                  const std::int64_t n = r.encoding->params().seqLen;
                  return n > pe::kMaxDistanceRows ? tr("the matrix is seq_len x seq_len; seq_len must be at most "
                                                       "10,000 (got %1).")
                                                        .arg(n)
                                                  : QString();
              },
              [](const DataRequest &r) {
                  return pe::distanceTable(
                      *r.encoding, r.noise,
                      pe::parseMetric(choiceName(r.settings, QStringLiteral("metric")).toStdString())
                          .value_or(pe::Metric::Dot));
              }},
             {QStringLiteral("distance-column"),
              tr("the matrix's column at the current position s (--position) at any seq_len: metric(x_t, PE(s)) "
                 "for every t of the window (its row as well while the noise is off: the metrics are symmetric): "
                 "position, and the metric's value named by it (dot, cosine or euclidean)"),
              {},
              [](const DataRequest &r) {
                  const QString metric = choiceName(r.settings, QStringLiteral("metric"));
                  pe::Table t = pe::similarityTable(*r.encoding, r.noise, r.position,
                                                    pe::parseMetric(metric.toStdString()).value_or(pe::Metric::Dot));
                  t.columnHeaders = {metric.toStdString()}; // a euclidean distance is no similarity
                  return t;
              }}}};
}
