#pragma once

#include "encodings/rope.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pe {

// RoPE over a grid of image patches: each rotated pair turns with one coordinate of the patch (its
// row, its column, or for M-RoPE its frame) instead of the token's position. The patches are the
// window's positions in raster order (frame, then row, then column), so the position t of every view
// is patch t - start_pos and playback walks the image.
//
// Three ways the models assign pairs to coordinates, each as its reference code builds it (the
// transformers files named, read, not copied):
enum class GridRope {
    // Pixtral's vision encoder (models/pixtral/modeling_pixtral.py, PixtralRotaryEmbedding):
    // freqs = base^(-2k/d) for k < d/2; the first d/4 pairs take freqs[::2] with the row, the last
    // d/4 take freqs[1::2] with the column: rows at base^(-4k/d), columns at base^(-(4k+2)/d).
    Pixtral,
    // Qwen2-VL's vision tower (models/qwen2_vl/modeling_qwen2_vl.py, VisionRotaryEmbedding of
    // head_dim/2): inv_freq = base^(-4k/d) for k < d/4, once with the row (the first d/4 pairs) and
    // once with the column (the last d/4): rows and columns turn at the same speeds.
    Qwen2Vl,
    // Qwen2-VL's language model (Qwen2VLRotaryEmbedding, apply_multimodal_rotary_pos_emb): RoPE's
    // θ_j (with its scaling) for every pair, mrope_section = [s_t, s_h, s_w] splitting the pairs: the
    // first s_t take the frame, the next s_h the row, the last s_w the column; all three are offset
    // by the position the image starts at (get_rope_index's text length: start_pos here). A text
    // token has frame = row = column = its position, which is 1-D RoPE: the other views.
    Mrope,
};
inline constexpr GridRope kGridRopes[] = {GridRope::Pixtral, GridRope::Qwen2Vl, GridRope::Mrope};
std::string_view gridRopeName(GridRope g); // "pixtral", "qwen2-vl", "mrope"
std::optional<GridRope> parseGridRope(std::string_view name);

// Which coordinate a pair turns with; Still: a pair past the rotated ones (partial rotary).
enum class GridAxis { Frame, Row, Column, Still };
std::string_view gridAxisName(GridAxis a); // "frame", "row", "column", "still"

// frames x rows x columns patches (frames 1 for an image).
struct PatchGrid {
    int frames = 1;
    int rows = 1;
    int cols = 1;
    std::int64_t patches() const { return std::int64_t(frames) * rows * cols; }
    bool operator==(const PatchGrid &) const = default;
};
inline constexpr int kMaxGridSide = 4096; // rows or columns; frames at most kMaxGridFrames
inline constexpr int kMaxGridFrames = 1024;

// "HxW" or "TxHxW" (T frames), each a whole number from 1 (rows and columns to 4,096, frames to
// 1,024); "fit" is not a grid (the caller's choice). Nothing, with *error one sentence, otherwise.
std::optional<PatchGrid> parsePatchGrid(std::string_view text, std::string *error);
std::string patchGridText(const PatchGrid &g); // "16x16", "2x16x16"
// The squarest rows x columns grid of exactly n patches (rows <= columns): 256 -> 16x16, 50 -> 5x10.
PatchGrid fitPatchGrid(std::int64_t n);

// A patch's coordinates: patch index = (frame·rows + row)·cols + column.
struct GridPatch {
    int frame = 0;
    int row = 0;
    int col = 0;
};
GridPatch gridPatch(const PatchGrid &g, std::int64_t index);

// M-RoPE's section "s_t,s_h,s_w" (three whole numbers from 0); nothing with *error otherwise.
std::optional<std::array<int, 3>> parseMropeSection(std::string_view text, std::string *error);
// Qwen2-VL's proportions for P rotated pairs: a quarter to the frame, the rest to the row and the
// column, the row taking the odd one ([16, 24, 24] for P = 64, as Qwen2-VL's config gives).
std::array<int, 3> fitMropeSection(int pairs);

struct GridPair {
    GridAxis axis = GridAxis::Still;
    double theta = 0; // radians per step of the coordinate
    bool operator==(const GridPair &) const = default;
};

// What a grid takes: one sentence naming the parameter when it cannot be drawn, nothing when it can.
// The vision styles turn without a scaling, every pair, d a multiple of 4, no frames; M-RoPE's section
// sums to the rotated pairs. xPos has no 2-D form in its reference code.
std::optional<std::string> gridProblem(GridRope style, int d, const RopeScalingParams &rope, double xposScaleBase,
                                       const std::array<int, 3> &section, const PatchGrid &grid);

// Every pair i < d/2 in its model's order, with the coordinate it turns with and its θ. M-RoPE's θ
// are ropeFrequencies(base, d, rope, length); the vision styles' come from the base alone.
// The arguments must pass gridProblem.
std::vector<GridPair> gridPairs(GridRope style, double base, int d, const RopeScalingParams &rope,
                                const std::array<int, 3> &section, std::int64_t length);

// The coordinate pair `p` turns with at a patch; M-RoPE's (frame, row, column) start at `offset`.
double gridCoordinate(const GridPair &p, const GridPatch &patch, std::int64_t offset);
// The pair's angle θ·coordinate at a patch, reduced to [0, 2π): its clock hand.
double gridAngle(const GridPair &p, const GridPatch &patch, std::int64_t offset);

// The cosine similarity of every patch's rotary vector (cos and sin of each pair's angle) with the
// reference patch's: (1/P)·Σ_i cos(θ_i·(a_i(q) - a_i(ref))), the RoPE score of equal q and k over
// the pairs' count; 1 at the reference. Each pair depends on one coordinate, so the sum is the sum
// of three one-axis sums, each a table over its axis's offsets (exact, O((T + H + W)·P + patches)).
// One value per patch, in patch order.
std::vector<double> gridSimilarity(const std::vector<GridPair> &pairs, const PatchGrid &grid, const GridPatch &ref);

// gridSimilarity in two parts: the three one-axis sums, which do not depend on the reference (the
// costly part, (T + H + W)·P sines), and their combination at a reference (one add a patch). A view
// keeps the sums while only the reference moves.
struct GridOffsetSums {
    PatchGrid grid;
    std::vector<double> byAxis[3]; // [a][Δ + side_a - 1]: Σ over axis a's pairs of cos(θ·Δ)
    double still = 0;              // pairs that never turn: cos(0) = 1 at every offset
    double pairs = 1;              // the divisor: the pairs' count (1 when there are none)
};
GridOffsetSums gridOffsetSums(const std::vector<GridPair> &pairs, const PatchGrid &grid);
std::vector<double> gridSimilarity(const GridOffsetSums &sums, const GridPatch &ref);

} // namespace pe
