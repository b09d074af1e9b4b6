#pragma once

#include "analysis/attention.h"
#include "figures/plot_view.h"
#include "state/view_info/view_infos.h"

#include <array>
#include <cstdint>
#include <memory>

class PositionMatrix;
class QCheckBox;
class QComboBox;
class QCPAxisRect;
class QCPItemRect;
class QCPMarginGroup;
class QCPItemStraightLine;
class QCPTextElement;
class QSpinBox;

// Attention from the positions alone, for every scheme (attention.h): the softmaxed weights of the
// window as a heatmap, query t down, key s across, one cell a position (at large N a page of
// positions that holds the current one), and below it the current position's whole row as a curve, reduced per
// pixel column to its envelope. Optionally the row of the other of sinusoidal and RoPE with the
// same d and base beside it (seed 003's "attend to the words 5 after" against RoPE's decay); with
// Gemma's two kinds of RoPE layer, the chosen kind's heatmap (a local layer's keys outside the
// sliding window grey) and the other kind's row beside it.
class AttentionView : public PlotView
{
    Q_OBJECT

  public:
    explicit AttentionView(Parameters *parameters, QWidget *parent = nullptr);
    ~AttentionView() override;

    pe::AttentionSettings attentionSettings() const;
    // The positions the heatmap shows: first and count (one cell each).
    std::int64_t firstCell() const;
    std::int64_t cellCount() const;

    static constexpr int kMaxCells = kMaxMatrixCells;

  protected:
    QList<QCPAxis *> positionAxes() const override;
    void rebuild() override;
    // A rebuild that holds the matrix's left margin (it may grow, not shrink): the row's weight
    // labels change width with t, and the matrix, aligned to them, would move sideways a few pixels
    // a step (and be drawn afresh each step). A whole rebuild (applyFonts first) lets it fit again.
    void positionMoved() override;

  private:
    const pe::PositionalAttention &attention();
    QString formula() const;
    // The NoPE temperature's panel, shown while the model has NoPE layers; its title line, or "".
    QString placeTemperature();
    // The temperature's panel into the layout or out of it; true when that changed the layout.
    bool showTemperaturePanel(bool shown);
    // The row's plot beside the matrix (a wide, short figure: 7 x 2.5 in gave the matrix half an
    // inch under it) or under it; true when it moved.
    bool placeRowBeside(bool beside);

    QComboBox *qkChoice_;
    QCheckBox *causalBox_;
    QSpinBox *seedSpin_;
    QSpinBox *cellsSpin_;
    QCheckBox *compareBox_;
    QComboBox *layerChoice_;
    QCPTextElement *title_;
    std::unique_ptr<PositionMatrix> matrix_;
    QCPAxisRect *rowRect_;
    class QCPLegend *rowLegend_; // the compared rows' key, inside the row's plot
    QCPItemStraightLine *rowLine_;
    QCPItemStraightLine *columnLine_;
    QCPMarginGroup *leftMargins_; // the panels' left margins, aligned
    QCPAxisRect *temperatureRect_;
    QCPItemStraightLine *temperatureLine_;
    QCPItemRect *maskBands_[2] = {}; // row t's masked keys: before its window, after t
    std::unique_ptr<pe::PositionalAttention> attention_;
    // The other of sinusoidal and RoPE with the same window, d and base (--compare); null when not
    // asked or when there is none.
    std::unique_ptr<pe::PositionalAttention> compared_;
    bool compareAsked_ = false;
    std::vector<double> weights_; // the matrix's cells, row-major (reused: see rebuild)
    // Counts the attention built or moved (attention()); the matrix holds the cells of that
    // version, first cell and count (all zero: none).
    std::uint64_t attentionVersion_ = 0;
    std::array<std::int64_t, 3> matrixFor_{};
    std::weak_ptr<const pe::Encoding> attentionFor_;
    // What the scores per offset depend on: the parameters but start_pos, and θ.
    pe::EncodingParams attentionKey_;
    std::vector<double> attentionTheta_;
    pe::AttentionSettings attentionSettings_;
};
