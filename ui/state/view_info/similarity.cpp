#include "state/view_info/view_infos.h"

PE_VIEW_TEXTS(SimilarityView)

ViewSetting metricSetting()
{
    QStringList names;
    for (pe::Metric m : pe::kMetrics)
        names << QString::fromUtf8(pe::metricName(m).data(), static_cast<qsizetype>(pe::metricName(m).size()));
    return {QStringLiteral("metric"),
            ViewSetting::Kind::Choice,
            names.first(),
            names,
            0,
            0,
            {},
            {},
            QStringLiteral("metric"),
            QStringLiteral("M"),
            tr("Similarity and distance metric")};
}

ViewInfo similarityViewInfo()
{
    return {QStringLiteral("similarity"),
            tr("Similarity"),
            {metricSetting()},
            {{QStringLiteral("similarity"),
              tr("every position's metric against the current position (--position)"),
              {},
              [](const DataRequest &r) {
                  return pe::similarityTable(
                      *r.encoding, r.noise, r.position,
                      pe::parseMetric(choiceName(r.settings, QStringLiteral("metric")).toStdString())
                          .value_or(pe::Metric::Dot));
              }}}};
}
