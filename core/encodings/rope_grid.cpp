#include "encodings/rope_grid.h"

#include "encodings/encoding.h"
#include "encodings/encoding_params.h"

#include <cmath>
#include <limits>
#include <numbers>

namespace pe {

std::string_view gridRopeName(GridRope g)
{
    switch (g) {
    case GridRope::Pixtral:
        return "pixtral";
    case GridRope::Qwen2Vl:
        return "qwen2-vl";
    case GridRope::Mrope:
        return "mrope";
    }
    return "pixtral";
}

std::optional<GridRope> parseGridRope(std::string_view name)
{
    return parseName(kGridRopes, gridRopeName, name);
}

std::string_view gridAxisName(GridAxis a)
{
    switch (a) {
    case GridAxis::Frame:
        return "frame";
    case GridAxis::Row:
        return "row";
    case GridAxis::Column:
        return "column";
    case GridAxis::Still:
        return "still";
    }
    return "still";
}

namespace {

// Whole numbers separated by `separator`, each parsed strictly; nothing for an empty part.
std::optional<std::vector<std::int64_t>> splitIntegers(std::string_view text, char separator)
{
    std::vector<std::int64_t> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        const std::string_view part = text.substr(start, end == std::string_view::npos ? text.npos : end - start);
        if (part.empty() || part.front() == '+' || part.front() == '-')
            return std::nullopt;
        const auto v = parseInteger(part);
        if (!v)
            return std::nullopt;
        out.push_back(*v);
        if (end == std::string_view::npos)
            return out;
        start = end + 1;
    }
}

} // namespace

std::optional<PatchGrid> parsePatchGrid(std::string_view text, std::string *error)
{
    const auto fail = [&](std::string message) -> std::optional<PatchGrid> {
        if (error)
            *error = std::move(message);
        return std::nullopt;
    };
    const auto parts = splitIntegers(text, 'x');
    if (!parts || parts->size() < 2 || parts->size() > 3)
        return fail("the grid must be rows x columns (16x16) or frames x rows x columns (2x16x16), "
                    "whole numbers joined by x, or fit, not \"" +
                    std::string(text) + "\"");
    const std::vector<std::int64_t> &v = *parts;
    PatchGrid g;
    const std::size_t r = v.size() - 2;
    if (v.size() == 3) {
        if (v[0] < 1 || v[0] > kMaxGridFrames)
            return fail("the grid's frames must be a whole number from 1 to " + withThousands(kMaxGridFrames) +
                        ", not " + std::to_string(v[0]));
        g.frames = static_cast<int>(v[0]);
    }
    for (std::size_t k = 0; k < 2; ++k)
        if (v[r + k] < 1 || v[r + k] > kMaxGridSide)
            return fail(std::string("the grid's ") + (k == 0 ? "rows" : "columns") +
                        " must be a whole number from 1 to " + withThousands(kMaxGridSide) + ", not " +
                        std::to_string(v[r + k]));
    g.rows = static_cast<int>(v[r]);
    g.cols = static_cast<int>(v[r + 1]);
    return g;
}

std::string patchGridText(const PatchGrid &g)
{
    std::string s = std::to_string(g.rows) + "x" + std::to_string(g.cols);
    return g.frames > 1 ? std::to_string(g.frames) + "x" + s : s;
}

PatchGrid fitPatchGrid(std::int64_t n)
{
    PatchGrid g;
    std::int64_t rows = static_cast<std::int64_t>(std::sqrt(static_cast<double>(std::max<std::int64_t>(n, 1))));
    while (rows * rows > n)
        --rows;
    while ((rows + 1) * (rows + 1) <= n)
        ++rows;
    while (rows > 1 && n % rows != 0)
        --rows;
    rows = std::max<std::int64_t>(rows, 1);
    g.rows = static_cast<int>(std::min<std::int64_t>(rows, std::numeric_limits<int>::max()));
    g.cols = static_cast<int>(std::min<std::int64_t>(n / rows, std::numeric_limits<int>::max()));
    return g;
}

GridPatch gridPatch(const PatchGrid &g, std::int64_t index)
{
    GridPatch p;
    p.col = static_cast<int>(index % g.cols);
    const std::int64_t rest = index / g.cols;
    p.row = static_cast<int>(rest % g.rows);
    p.frame = static_cast<int>(rest / g.rows);
    return p;
}

std::optional<std::array<int, 3>> parseMropeSection(std::string_view text, std::string *error)
{
    const auto parts = splitIntegers(text, ',');
    if (!parts || parts->size() != 3) {
        if (error)
            *error = "the M-RoPE section must be three whole numbers of pairs, frame,row,column (16,24,24), not \"" +
                     std::string(text) + "\"";
        return std::nullopt;
    }
    std::array<int, 3> s{};
    for (std::size_t k = 0; k < 3; ++k) {
        if ((*parts)[k] > limits::maxDModel / 2) {
            if (error)
                *error = "each part of the M-RoPE section must be at most " + std::to_string(limits::maxDModel / 2) +
                         " pairs, not " + std::to_string((*parts)[k]);
            return std::nullopt;
        }
        s[k] = static_cast<int>((*parts)[k]);
    }
    return s;
}

std::array<int, 3> fitMropeSection(int pairs)
{
    const int frame = pairs / 4;
    const int column = (pairs - frame) / 2;
    return {frame, pairs - frame - column, column};
}

std::optional<std::string> gridProblem(GridRope style, int d, const RopeScalingParams &rope, double xposScaleBase,
                                       const std::array<int, 3> &section, const PatchGrid &grid)
{
    if (xposScaleBase > 0)
        return "xPos has no form over a grid of patches in its reference code: --scheme rope (or --xpos-scale-base 0)";
    if (style == GridRope::Mrope) {
        const int rotated = rotatedPairs(d, rope);
        const int sum = section[0] + section[1] + section[2];
        if (sum != rotated)
            return "the M-RoPE section " + std::to_string(section[0]) + "," + std::to_string(section[1]) + "," +
                   std::to_string(section[2]) + " covers " + std::to_string(sum) + " pairs, and " +
                   std::to_string(rotated) + " pairs rotate at d_model " + std::to_string(d) +
                   ": its three numbers must add up to that";
        return std::nullopt;
    }
    const std::string name = style == GridRope::Pixtral ? "Pixtral's" : "Qwen2-VL's";
    if (rope.scaling != RopeScaling::None)
        return name + " vision encoder turns without a scaling: --scaling none, or --grid-rope mrope";
    if (rope.rotaryFraction < 1)
        return name + " vision encoder rotates every pair: --rotary-fraction 1, or --grid-rope mrope";
    if (d % 4 != 0)
        return name + " vision encoder gives half the pairs to the rows and half to the columns: d_model must be a " +
               "multiple of 4, not " + std::to_string(d);
    if (grid.frames > 1)
        return name +
               " vision encoder has no time axis (every frame's patches turn alike): frames take --grid-rope mrope";
    return std::nullopt;
}

std::vector<GridPair> gridPairs(GridRope style, double base, int d, const RopeScalingParams &rope,
                                const std::array<int, 3> &section, std::int64_t length)
{
    const int pairs = d / 2;
    std::vector<GridPair> out(static_cast<std::size_t>(pairs));
    if (style == GridRope::Mrope) {
        const std::vector<double> theta = ropeFrequencies(base, d, rope, length);
        const int rotated = rotatedPairs(d, rope);
        for (int i = 0; i < pairs; ++i) {
            GridPair &p = out[static_cast<std::size_t>(i)];
            p.theta = theta[static_cast<std::size_t>(i)];
            p.axis = i >= rotated                  ? GridAxis::Still
                     : i < section[0]              ? GridAxis::Frame
                     : i < section[0] + section[1] ? GridAxis::Row
                                                   : GridAxis::Column;
        }
        return out;
    }
    // Pixtral: freqs[k] = base^(-2k/d), k < d/2; rows take the even k, columns the odd.
    // Qwen2-VL: base^(-2k/(d/2)), k < d/4, for rows and columns alike.
    const int quarter = d / 4;
    for (int i = 0; i < pairs; ++i) {
        GridPair &p = out[static_cast<std::size_t>(i)];
        const bool row = i < quarter;
        const int k = row ? i : i - quarter;
        const double exponent =
            style == GridRope::Pixtral ? (2.0 * (2 * k + (row ? 0 : 1))) / d : (2.0 * (2 * k)) / d; // 2·2k/d = 2k/(d/2)
        p.theta = 1.0 / std::pow(base, exponent);
        p.axis = row ? GridAxis::Row : GridAxis::Column;
    }
    return out;
}

double gridCoordinate(const GridPair &p, const GridPatch &patch, std::int64_t offset)
{
    switch (p.axis) {
    case GridAxis::Frame:
        return static_cast<double>(offset + patch.frame);
    case GridAxis::Row:
        return static_cast<double>(offset + patch.row);
    case GridAxis::Column:
        return static_cast<double>(offset + patch.col);
    case GridAxis::Still:
        return 0;
    }
    return 0;
}

double gridAngle(const GridPair &p, const GridPatch &patch, std::int64_t offset)
{
    const double two = 2 * std::numbers::pi;
    double s, c;
    sinCosOfProduct(gridCoordinate(p, patch, offset), p.theta, s, c);
    const double a = std::atan2(s, c); // the angle of the exact sin and cos, as the clocks' handAngle
    return a < 0 ? a + two : a;
}

GridOffsetSums gridOffsetSums(const std::vector<GridPair> &pairs, const PatchGrid &grid)
{
    GridOffsetSums out;
    out.grid = grid;
    const int sides[3] = {grid.frames, grid.rows, grid.cols};
    for (int a = 0; a < 3; ++a)
        out.byAxis[a].assign(static_cast<std::size_t>(2 * sides[a] - 1), 0.0);
    for (const GridPair &p : pairs) {
        if (p.axis == GridAxis::Still || p.theta == 0) {
            out.still += 1; // cos(0·Δ) = 1 at every offset
            continue;
        }
        const int a = static_cast<int>(p.axis);
        for (int delta = -(sides[a] - 1); delta < sides[a]; ++delta) {
            double s, c;
            sinCosOfProduct(static_cast<double>(delta), p.theta, s, c);
            out.byAxis[a][static_cast<std::size_t>(delta + sides[a] - 1)] += c;
        }
    }
    out.pairs = pairs.empty() ? 1.0 : static_cast<double>(pairs.size());
    return out;
}

std::vector<double> gridSimilarity(const GridOffsetSums &sums, const GridPatch &ref)
{
    const PatchGrid &grid = sums.grid;
    std::vector<double> out(static_cast<std::size_t>(grid.patches()));
    std::size_t k = 0;
    for (int f = 0; f < grid.frames; ++f)
        for (int r = 0; r < grid.rows; ++r)
            for (int c = 0; c < grid.cols; ++c)
                out[k++] = (sums.still + sums.byAxis[0][static_cast<std::size_t>(f - ref.frame + grid.frames - 1)] +
                            sums.byAxis[1][static_cast<std::size_t>(r - ref.row + grid.rows - 1)] +
                            sums.byAxis[2][static_cast<std::size_t>(c - ref.col + grid.cols - 1)]) /
                           sums.pairs;
    return out;
}

std::vector<double> gridSimilarity(const std::vector<GridPair> &pairs, const PatchGrid &grid, const GridPatch &ref)
{
    return gridSimilarity(gridOffsetSums(pairs, grid), ref);
}

} // namespace pe
