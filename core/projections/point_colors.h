#pragma once

#include "encodings/encoding.h"
#include "encodings/noise.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pe {

// What colours the projection's points (issue 34): each position's number (seed 004's picture),
// its phase on one pair's clock (t w_I mod 2 pi: the clock structure), its vector's length, one
// column's value, the position offset to the nearest point drawn (1 where a true neighbour is
// nearest), or labels read from a CSV file.
enum class ColorByKind { Position, Phase, Norm, Column, Error, Labels };

inline constexpr ColorByKind kColorByKinds[] = {ColorByKind::Position, ColorByKind::Phase, ColorByKind::Norm,
                                                ColorByKind::Column,   ColorByKind::Error, ColorByKind::Labels};
// The kind's word in --color-by ("position", "phase", ... "labels").
std::string_view colorByKindName(ColorByKind kind);

struct ColorBy {
    ColorByKind kind = ColorByKind::Position;
    int index = 0;    // Phase: the pair; Column: the column
    std::string path; // Labels: the CSV file
    bool operator==(const ColorBy &) const = default;
};

// "position", "phase:I", "norm", "column:J", "error", "labels:FILE.csv". Nothing, with `error` one
// sentence, for anything else.
std::optional<ColorBy> parseColorBy(std::string_view text, std::string *error);
std::string colorByText(const ColorBy &colorBy);

// Why these points cannot be coloured so, in one sentence (a pair or column out of range, the phase
// of a table, whose pairs turn at no frequency); nothing when they can. A labels file is checked
// by reading it (pointColors).
std::optional<std::string> colorByProblem(const ColorBy &colorBy, const Encoding &encoding);

// At most this many distinct labels: matplotlib's tab20 without its two greys (grey is for the
// unlabelled); a legend of more colours cannot be told apart.
inline constexpr int kMaxLabelNames = 18;

// Labels from a CSV file of "position,label" lines: positions are whole numbers, labels any text
// up to the line's end (quotes around it dropped), blank lines skipped, a first line
// "position,label" taken as the header. Positions outside the window are counted and left out; a
// position the file names twice, a line without a comma or a position that is not a whole number
// is refused, naming the line. Pipes and devices are refused unopened (notAReadableFile).
struct PositionLabels {
    std::vector<std::string> names;  // the distinct labels, in the order the file first names them
    std::vector<std::int32_t> ofRow; // each window row's label: an index into names, -1 unlabelled
    std::int64_t outside = 0;        // lines naming a position outside the window
    std::int64_t unlabelled = 0;     // window rows the file does not name
};
std::optional<PositionLabels> readPositionLabels(const std::string &path, std::int64_t startPos, std::int64_t seqLen,
                                                 std::string *error, const std::atomic<bool> *cancel = nullptr);

// One value a point: what the colour scale maps (Labels: the label's index, -1 unlabelled).
struct PointColors {
    ColorBy by;
    std::vector<double> values;
    std::vector<std::string> names; // Labels: the legend's entries
    std::int64_t outside = 0;       // Labels: lines of the file outside the window
    std::string header;             // the data export's column ("phase_3", "norm", "label")
};

// The column a data export adds for this colouring; empty for position (the index column already
// holds it).
std::string colorColumnHeader(const ColorBy &colorBy);

// The values that do not depend on where the points are drawn (every colouring but Error, whose
// values nearestOffsets gives from the picture), for the window's rows: the vectors as projected
// (with the noise, when on). Nothing, with `error` one sentence, when refused (colorByProblem, a
// labels file that cannot be read) or cancelled (error empty).
std::optional<PointColors> pointColors(const ColorBy &colorBy, const Encoding &encoding, const NoiseParams &noise,
                                       std::string *error, const std::atomic<bool> *cancel = nullptr);

// Error's values: for each of the n points (xy: n x dims, row-major) |s - t|, where s is the other
// point drawn nearest to it (ties to the lower row); 1 when its nearest is a true neighbour (t - 1
// or t + 1); NaN for a point with a coordinate that is not finite, or with no finite other. Exact,
// through a uniform grid refined until the cells the points fill hold about four each (points
// along a curve fill few cells of a grid sized for an area).
std::vector<double> nearestOffsets(const std::vector<double> &xy, int dims);

} // namespace pe
