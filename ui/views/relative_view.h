#pragma once

#include "analysis/relative.h"
#include "figures/plot_view.h"

#include <memory>
#include <vector>

class CellLabels;
class QCPAxisRect;
class QCPColorMap;
class QCPItemStraightLine;
class QCPTextElement;
class QSpinBox;

// Relative position is linear: the block-diagonal rotation T(k) that maps PE(t) to PE(t+k) for
// every t, shown for the fastest pairs with its values, and its measured residual over the
// window; beside it seed 002's question answered: the offset k read back from x(t) and x(t+k)
// (t the current position) pair by pair with atan2, each pair's own reading and the result.
class RelativeView : public PlotView
{
    Q_OBJECT

  public:
    explicit RelativeView(Parameters *parameters, QWidget *parent = nullptr);

    void setOffset(std::int64_t k);
    std::int64_t offset() const;
    double residual() const { return residual_; }
    const pe::OffsetDecode &decoded() const { return decoded_; }

    static constexpr int kShownPairs = 4;
    // Positions the residual is checked at: as many as keep it to about 4 million values.
    static std::int64_t residualPositions(int dModel)
    {
        return std::max<std::int64_t>(64, (std::int64_t(1) << 22) / dModel);
    }

  protected:
    void rebuild() override;
    void positionMoved() override { rebuild(); }

  private:
    QSpinBox *offsetSpin_;
    QCPTextElement *title_;
    QCPColorMap *matrix_;
    CellLabels *labels_;
    QCPAxisRect *decodeRect_;
    QCPItemStraightLine *truth_;
    std::vector<double> cells_;
    double residual_ = 0;
    std::vector<pe::Rotation2> blocks_;           // T(k)'s blocks for fittedFor_ and fittedK_
    std::weak_ptr<const pe::Encoding> fittedFor_; // weak: an old table is not kept mapped
    std::int64_t fittedK_ = 0;
    pe::OffsetDecode decoded_;
};
