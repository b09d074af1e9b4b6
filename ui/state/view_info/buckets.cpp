#include "state/view_info/view_infos.h"

#include "export/data_export.h"

PE_VIEW_TEXTS(BucketsView)

pe::T5Buckets t5BucketsFrom(const pe::EncodingParams &p, const QJsonObject &settings)
{
    return {p.buckets, p.maxDistance, !settings.value(QStringLiteral("bucketsCausal")).toBool()};
}

ViewInfo bucketsViewInfo()
{
    // The curve's axis means nothing under another scheme: refused there, as RoPE's --qk-seed is.
    ViewSetting axis =
        ViewSetting{QStringLiteral("bucketsAxis"),
                    ViewSetting::Kind::Choice,
                    QStringLiteral("offset"),
                    {QStringLiteral("offset"), QStringLiteral("distance")}}
            .option(QStringLiteral("buckets-axis"), QStringLiteral("NAME"),
                    tr("The T5 buckets curve against the offset s − t (linear, both sides), or against the distance "
                       "|s − t| on a log axis, keys before and after the query apart (the log buckets evenly spaced)"));
    axis.schemes = {pe::SchemeId::T5};
    return {
        QStringLiteral("buckets"),
        tr("T5 buckets"),
        {ViewSetting{QStringLiteral("bucketsCausal"), ViewSetting::Kind::Bool, false}.option(
             QStringLiteral("causal"), {},
             tr("Mask the keys after the query (s > t); T5: the decoder's causal buckets, all of them for the keys "
                "before the query")),
         axis,
         ViewSetting{QStringLiteral("bucketsCells"), ViewSetting::Kind::Integer, 0, {}, 0, kMaxMatrixCells, tr("fit")}
             .option(QStringLiteral("cells"), QStringLiteral("N"),
                     tr("Cells per side of the attention, ALiBi or T5 heatmap, a page that holds the position; fit: "
                        "one per "
                        "pixel as they fit"))},
        {{QStringLiteral("buckets"),
          tr("T5's bucket of every offset s − t, −(seq_len−1)..seq_len−1, as _relative_position_bucket gives it"),
          {},
          [](const DataRequest &r) {
              const pe::EncodingParams &p = r.encoding->params();
              return pe::bucketsTable(p.seqLen, t5BucketsFrom(p, r.settings));
          }},
         {QStringLiteral("t5-bias"),
          tr("T5's learned bias of every offset s − t, −(seq_len−1)..seq_len−1, for every head of --bias-table: "
             "offset, "
             "head_1, ..."),
          [](const DataRequest &r) {
              return r.encoding->params().biasTable
                         ? QString()
                         : tr("the learned bias needs its table: give --bias-table FILE (a .npy of [buckets, heads]).");
          },
          [](const DataRequest &r) {
              const pe::EncodingParams &p = r.encoding->params();
              return pe::t5BiasTable(p.seqLen, t5BucketsFrom(p, r.settings), p.biasTable);
          }}},
        {},
        {pe::SchemeId::T5}};
}
