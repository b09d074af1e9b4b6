#pragma once

#include "encodings/relative_buckets.h"
#include "figures/plot_view.h"
#include "state/view_info/view_infos.h"

#include <QSharedPointer>

#include <memory>

class PositionMatrix;
class QCheckBox;
class QComboBox;
class QCPAxisRect;
class QCPAxisTicker;
class QCPGraph;
class QCPItemRect;
class QCPItemStraightLine;
class QCPTextElement;
class QSpinBox;

// T5's relative attention bias (scheme t5): which bucket each key s falls in for a query t, or with
// its learned table (--bias-table) the bias of the chosen head, the other heads' curves thin beside. Left, the buckets
// of a page of the window that holds the current position, a cell a position (a band a bucket along every diagonal: the
// bias depends on s − t alone); right, the bucket against the offset s − t as _relative_position_bucket gives it, one
// step a bucket, with the exact range shaded and max_distance marked (--buckets-axis distance: against |s − t| on a log
// axis, where the logarithmic buckets are evenly spaced, the keys before and after the query apart). --causal: the
// decoder's buckets (every key after the query in bucket 0, all buckets for the keys before it).
class BucketsView : public PlotView
{
    Q_OBJECT

  public:
    explicit BucketsView(Parameters *parameters, QWidget *parent = nullptr);
    ~BucketsView() override;

    pe::T5Buckets buckets() const;
    // The offsets the curve shows, -reach..reach: the window's, up to twice max_distance (past
    // max_distance every offset is in the last bucket, which the title says).
    std::int64_t reach() const;

    static constexpr int kMaxCells = kMaxMatrixCells;

    QString tooltipAt(QPointF pixel) const override;

  protected:
    void rebuild() override;
    // On the page drawn, a step moves the row line alone (on the layer redrawn alone).
    void positionMoved() override { stepMatrixRow(*matrix_, rowLine_); }

  private:
    bool logDistance() const;

    QCheckBox *causalBox_;
    QComboBox *axisChoice_;
    QSpinBox *cellsSpin_;
    QCPTextElement *title_;
    std::unique_ptr<PositionMatrix> matrix_;
    QCPAxisRect *curveRect_;
    QCPItemRect *exactBand_;
    QCPItemStraightLine *rowLine_;
    QCPItemStraightLine *maxBefore_;
    QCPItemStraightLine *maxAfter_;
    QSharedPointer<QCPAxisTicker> offsetTicker_;
    QSharedPointer<QCPAxisTicker> logTicker_;
    QSharedPointer<QCPAxisTicker> bucketTicker_;
    QSharedPointer<QCPAxisTicker> biasTicker_;
    std::vector<QCPGraph *> otherHeads_; // with a bias table: every other head's curve, thin
};
