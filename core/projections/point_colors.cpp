#include "projections/point_colors.h"

#include "encodings/encoding_params.h"
#include "formats/file_kind.h"
#include "support/parallel.h"
#include "support/text.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <numbers>

namespace pe {

namespace {

// The longest label kept: a legend entry, not a paragraph.
constexpr std::size_t kMaxLabelLength = 80;

std::optional<int> indexAfter(std::string_view text, std::string_view prefix)
{
    if (text.size() <= prefix.size() || text.substr(0, prefix.size()) != prefix)
        return std::nullopt;
    const std::string_view digits = text.substr(prefix.size());
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    const auto v = parseInteger(digits);
    if (!v || *v > std::numeric_limits<int>::max())
        return std::nullopt;
    return static_cast<int>(*v);
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::string lineName(std::int64_t line)
{
    return "line " + withThousands(line);
}

} // namespace

std::optional<ColorBy> parseColorBy(std::string_view text, std::string *error)
{
    ColorBy c;
    if (text == "position")
        c.kind = ColorByKind::Position;
    else if (text == "norm")
        c.kind = ColorByKind::Norm;
    else if (text == "error")
        c.kind = ColorByKind::Error;
    else if (const auto pair = indexAfter(text, "phase:")) {
        c.kind = ColorByKind::Phase;
        c.index = *pair;
    } else if (const auto column = indexAfter(text, "column:")) {
        c.kind = ColorByKind::Column;
        c.index = *column;
    } else if (text.size() > 7 && text.substr(0, 7) == "labels:") {
        c.kind = ColorByKind::Labels;
        c.path = std::string(text.substr(7));
    } else {
        if (error)
            *error = "colour by position, phase:I (pair I's phase), norm, column:J, error (the offset to the nearest "
                     "point drawn) or labels:FILE.csv, not '" +
                     std::string(text.substr(0, 60)) + "'.";
        return std::nullopt;
    }
    return c;
}

std::string_view colorByKindName(ColorByKind kind)
{
    switch (kind) {
    case ColorByKind::Position:
        return "position";
    case ColorByKind::Phase:
        return "phase";
    case ColorByKind::Norm:
        return "norm";
    case ColorByKind::Column:
        return "column";
    case ColorByKind::Error:
        return "error";
    case ColorByKind::Labels:
        return "labels";
    }
    return {};
}

std::string colorByText(const ColorBy &c)
{
    std::string text(colorByKindName(c.kind));
    if (c.kind == ColorByKind::Phase || c.kind == ColorByKind::Column || c.kind == ColorByKind::Labels) {
        text += ':'; // appended apart: GCC 12 warns falsely (-Wrestrict) of ":" + std::to_string
        text += c.kind == ColorByKind::Labels ? c.path : std::to_string(c.index);
    }
    return text;
}

std::string colorColumnHeader(const ColorBy &c)
{
    switch (c.kind) {
    case ColorByKind::Position:
        return {};
    case ColorByKind::Phase:
        return "phase_" + std::to_string(c.index);
    case ColorByKind::Norm:
        return "norm";
    case ColorByKind::Column:
        return "column_" + std::to_string(c.index);
    case ColorByKind::Error:
        return "nearest_offset";
    case ColorByKind::Labels:
        return "label";
    }
    return {};
}

std::optional<std::string> colorByProblem(const ColorBy &c, const Encoding &encoding)
{
    if (c.kind == ColorByKind::Phase) {
        if (!encoding.hasFrequencies())
            return "a phase needs pairs that turn at a frequency, and a position table's have none: colour by "
                   "position, norm, column:J, error or labels instead.";
        if (c.index >= encoding.pairCount())
            return "phase:" + std::to_string(c.index) + " names no pair: d_model " + std::to_string(encoding.dModel()) +
                   " has pairs 0 to " + std::to_string(encoding.pairCount() - 1) + ".";
    }
    if (c.kind == ColorByKind::Column && c.index >= encoding.dModel())
        return "column:" + std::to_string(c.index) + " names no column: d_model " + std::to_string(encoding.dModel()) +
               " has columns 0 to " + std::to_string(encoding.dModel() - 1) + ".";
    if (c.kind == ColorByKind::Labels) {
        if (c.path.empty())
            return "labels: needs a file name (labels:FILE.csv).";
        if (auto why = notAReadableFile(c.path))
            return "cannot read the labels: " + *why + ".";
    }
    return std::nullopt;
}

std::optional<PositionLabels> readPositionLabels(const std::string &path, std::int64_t startPos, std::int64_t seqLen,
                                                 std::string *error, const std::atomic<bool> *cancel)
{
    const auto fail = [&](const std::string &why) -> std::optional<PositionLabels> {
        if (error)
            *error = "the labels file '" + path + "': " + why;
        return std::nullopt;
    };
    if (auto why = notAReadableFile(path)) {
        if (error)
            *error = "cannot read the labels: " + *why + ".";
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return fail("cannot be opened.");
    PositionLabels out;
    out.ofRow.assign(static_cast<std::size_t>(seqLen), -1);
    std::vector<std::int64_t> lineOfRow(static_cast<std::size_t>(seqLen), 0);
    std::string line;
    std::int64_t lineNo = 0;
    bool seenData = false;
    while (std::getline(in, line)) {
        ++lineNo;
        if ((lineNo & 0xffff) == 0 && cancel && cancel->load())
            return std::nullopt;
        if (lineNo == 1 && line.size() >= 3 && line.compare(0, 3, "\xEF\xBB\xBF") == 0)
            line.erase(0, 3); // a UTF-8 byte-order mark, as spreadsheets write it
        const std::string_view text = trimmed(line);
        if (text.empty())
            continue;
        const std::size_t comma = text.find(',');
        if (comma == std::string_view::npos)
            return fail(lineName(lineNo) + " has no comma: each line is position,label.");
        const std::string_view first = trimmed(text.substr(0, comma));
        std::string_view label = trimmed(text.substr(comma + 1));
        const auto position = parseInteger(first);
        if (!position) {
            if (!seenData) { // a header ("position,label")
                seenData = true;
                continue;
            }
            return fail(lineName(lineNo) + " starts with '" + std::string(first.substr(0, 40)) +
                        "', not a whole-number position.");
        }
        seenData = true;
        if (label.size() >= 2 && label.front() == '"' && label.back() == '"')
            label = label.substr(1, label.size() - 2);
        if (label.empty())
            return fail(lineName(lineNo) + " labels position " + withThousands(*position) + " with nothing.");
        if (label.size() > kMaxLabelLength)
            return fail(lineName(lineNo) + "'s label is " + withThousands(static_cast<std::int64_t>(label.size())) +
                        " characters long; at most " + std::to_string(kMaxLabelLength) + " are shown.");
        if (*position < startPos || *position - startPos >= seqLen) {
            ++out.outside;
            continue;
        }
        const auto row = static_cast<std::size_t>(*position - startPos);
        if (out.ofRow[row] >= 0)
            return fail(lineName(lineNo) + " labels position " + withThousands(*position) + " again (first on " +
                        lineName(lineOfRow[row]) + ").");
        lineOfRow[row] = lineNo;
        auto index = std::find(out.names.begin(), out.names.end(), label) - out.names.begin();
        if (index == static_cast<std::ptrdiff_t>(out.names.size())) {
            if (static_cast<int>(out.names.size()) == kMaxLabelNames)
                return fail("it names more than " + std::to_string(kMaxLabelNames) +
                            " different labels within the window (one more on " + lineName(lineNo) +
                            "); more colours cannot be told apart.");
            out.names.emplace_back(label);
        }
        out.ofRow[row] = static_cast<std::int32_t>(index);
    }
    if (in.bad())
        return fail("reading it failed after " + lineName(lineNo) + ".");
    out.unlabelled = std::count(out.ofRow.begin(), out.ofRow.end(), -1);
    if (out.names.empty())
        return fail(lineNo == 0 ? std::string("it is empty.")
                                : "it labels no position from " + withThousands(startPos) + " to " +
                                      withThousands(startPos + seqLen - 1) + ".");
    return out;
}

std::optional<PointColors> pointColors(const ColorBy &c, const Encoding &encoding, const NoiseParams &noise,
                                       std::string *error, const std::atomic<bool> *cancel)
{
    if (error)
        error->clear();
    if (auto problem = colorByProblem(c, encoding)) {
        if (error)
            *error = *problem;
        return std::nullopt;
    }
    const EncodingParams &p = encoding.params();
    const std::int64_t n = p.seqLen;
    PointColors out;
    out.by = c;
    out.header = colorColumnHeader(c);
    out.values.resize(static_cast<std::size_t>(n));
    double *values = out.values.data();
    switch (c.kind) {
    case ColorByKind::Position:
    case ColorByKind::Error: // drawn from the picture (nearestOffsets); the positions meanwhile
        for (std::int64_t i = 0; i < n; ++i)
            values[i] = static_cast<double>(p.startPos + i);
        break;
    case ColorByKind::Phase:
        // atan2 of the pair's exact sine and cosine: t w_I reduced to [0, 2 pi) without forming t w_I
        // (at t = 1e9 its rounding would be the whole phase of the fast pairs).
        parallelFor(
            n,
            [&](std::int64_t begin, std::int64_t end) {
                for (std::int64_t i = begin; i < end; ++i) {
                    double s = 0, co = 0;
                    encoding.pairSinCos(static_cast<double>(p.startPos + i), c.index, s, co);
                    const double a = std::atan2(s, co);
                    values[i] = a < 0 ? a + 2 * std::numbers::pi : a;
                }
            },
            4096);
        break;
    case ColorByKind::Norm:
    case ColorByKind::Column: {
        // The vectors as projected, a block at a time on every core (the noise drawn as PCA draws
        // it), unscaled: a table's scale to unit size (Rows::scale) would take a row of 1e-200 in a
        // table of 1e149 below the smallest double.
        const Block window = encoding.windowBlock();
        const int d = window.cols;
        constexpr std::int64_t kBlock = 1024;
        const std::int64_t blocks = (n + kBlock - 1) / kBlock;
        const bool norm = c.kind == ColorByKind::Norm;
        parallelFor(blocks, [&](std::int64_t b0, std::int64_t b1) {
            std::vector<double> block(static_cast<std::size_t>(kBlock) * static_cast<std::size_t>(d));
            for (std::int64_t b = b0; b < b1; ++b) {
                if (cancel && cancel->load())
                    return;
                const std::int64_t first = b * kBlock, count = std::min(kBlock, n - first);
                Block rows = window;
                rows.firstPosition += first;
                rows.rows = count;
                fillEmbeddings(encoding, noise, rows, block.data());
                for (std::int64_t r = 0; r < count; ++r) {
                    const double *row = block.data() + r * d;
                    if (norm) {
                        // Scaled by the largest entry, so squares of 1e200 neither overflow nor underflow.
                        double big = 0;
                        for (int j = 0; j < d; ++j)
                            big = std::max(big, std::abs(row[j]));
                        double sum = 0;
                        if (big > 0)
                            for (int j = 0; j < d; ++j)
                                sum += (row[j] / big) * (row[j] / big);
                        values[first + r] = big * std::sqrt(sum);
                    } else {
                        values[first + r] = row[c.index];
                    }
                }
            }
        });
        if (cancel && cancel->load())
            return std::nullopt;
        break;
    }
    case ColorByKind::Labels: {
        std::optional<PositionLabels> labels = readPositionLabels(c.path, p.startPos, n, error, cancel);
        if (!labels)
            return std::nullopt;
        for (std::int64_t i = 0; i < n; ++i)
            values[i] = labels->ofRow[static_cast<std::size_t>(i)];
        out.names = std::move(labels->names);
        out.outside = labels->outside;
        break;
    }
    }
    return out;
}

std::vector<double> nearestOffsets(const std::vector<double> &xy, int dims)
{
    const auto n = static_cast<std::int64_t>(xy.size()) / dims;
    std::vector<double> out(static_cast<std::size_t>(n), std::numeric_limits<double>::quiet_NaN());
    const auto at = [&](std::int64_t i, int a) { return xy[static_cast<std::size_t>(i * dims + a)]; };
    // Points with a coordinate that is not finite are in no cell and have no nearest (NaN).
    std::vector<char> finite(static_cast<std::size_t>(n), 1);
    std::int64_t m = 0;
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    bool first = true;
    for (std::int64_t i = 0; i < n; ++i) {
        for (int a = 0; a < dims; ++a)
            finite[static_cast<std::size_t>(i)] &= std::isfinite(at(i, a)) ? 1 : 0;
        if (!finite[static_cast<std::size_t>(i)])
            continue;
        ++m;
        for (int a = 0; a < dims; ++a) {
            lo[a] = first ? at(i, a) : std::min(lo[a], at(i, a));
            hi[a] = first ? at(i, a) : std::max(hi[a], at(i, a));
        }
        first = false;
    }
    if (m < 2)
        return out;
    // A uniform grid over the points' box. About two points a cell were they spread over it; a
    // projection's points mostly lie along curves and fill few cells, so the grid is refined while
    // the cells they fill hold more than four on average (at most 2^22 cells: 16 MB of starts).
    constexpr std::int64_t kMaxCells = std::int64_t{1} << 22;
    double width[3] = {1, 1, 1};
    std::int64_t cells[3] = {1, 1, 1};
    const auto cellOf = [&](std::int64_t i, int a) {
        const double f = (at(i, a) - lo[a]) / width[a];
        return f > 0 ? std::min(static_cast<std::int64_t>(std::min(f, 1e9)), cells[a] - 1) : std::int64_t{0};
    };
    const auto flat = [&](std::int64_t x, std::int64_t y, std::int64_t z) { return (z * cells[1] + y) * cells[0] + x; };
    const auto cellOfRow = [&](std::int64_t i) {
        return flat(cellOf(i, 0), dims > 1 ? cellOf(i, 1) : 0, dims > 2 ? cellOf(i, 2) : 0);
    };
    double perAxis = std::pow(static_cast<double>(m) / 2.0, 1.0 / dims);
    for (int refine = 0; refine < 6; ++refine) {
        std::int64_t want[3] = {1, 1, 1}, total = 1;
        for (int a = 0; a < dims; ++a) {
            want[a] = hi[a] > lo[a] ? std::clamp<std::int64_t>(static_cast<std::int64_t>(perAxis), 1, 1 << 14) : 1;
            total *= want[a];
        }
        if (refine > 0 && total > kMaxCells)
            break; // the last grid that fitted stays
        for (int a = 0; a < dims; ++a) {
            cells[a] = want[a];
            width[a] = hi[a] > lo[a] ? (hi[a] - lo[a]) / static_cast<double>(cells[a]) : 1.0;
        }
        std::vector<char> used(static_cast<std::size_t>(total), 0);
        std::int64_t occupied = 0;
        for (std::int64_t i = 0; i < n; ++i)
            if (finite[static_cast<std::size_t>(i)]) {
                char &u = used[static_cast<std::size_t>(cellOfRow(i))];
                occupied += u == 0;
                u = 1;
            }
        const double mean = static_cast<double>(m) / static_cast<double>(occupied);
        if (mean <= 4)
            break;
        perAxis *= std::min(8.0, std::sqrt(mean / 2.0));
    }
    const std::int64_t total = cells[0] * cells[1] * cells[2];
    // Counting sort into cells; each cell's rows stay in increasing order.
    std::vector<std::int64_t> start(static_cast<std::size_t>(total + 1), 0);
    std::vector<std::int64_t> cellOfPoint(static_cast<std::size_t>(n), -1);
    for (std::int64_t i = 0; i < n; ++i)
        if (finite[static_cast<std::size_t>(i)]) {
            const std::int64_t cell = cellOfRow(i);
            cellOfPoint[static_cast<std::size_t>(i)] = cell;
            ++start[static_cast<std::size_t>(cell + 1)];
        }
    for (std::int64_t c = 0; c < total; ++c)
        start[static_cast<std::size_t>(c + 1)] += start[static_cast<std::size_t>(c)];
    std::vector<std::int64_t> order(static_cast<std::size_t>(m));
    {
        std::vector<std::int64_t> fillAt(start.begin(), start.end() - 1);
        for (std::int64_t i = 0; i < n; ++i)
            if (const std::int64_t cell = cellOfPoint[static_cast<std::size_t>(i)]; cell >= 0)
                order[static_cast<std::size_t>(fillAt[static_cast<std::size_t>(cell)]++)] = i;
    }
    // The narrowest cell of the axes that have more than one, and the farthest ring.
    double step = std::numeric_limits<double>::infinity();
    std::int64_t maxRing = 0;
    for (int a = 0; a < dims; ++a)
        if (cells[a] > 1) {
            step = std::min(step, width[a]);
            maxRing = std::max(maxRing, cells[a] - 1);
        }
    const auto nearest = [&](std::int64_t i) {
        const std::int64_t home[3] = {cellOf(i, 0), dims > 1 ? cellOf(i, 1) : 0, dims > 2 ? cellOf(i, 2) : 0};
        double best = std::numeric_limits<double>::infinity();
        std::int64_t bestRow = -1;
        // One cell's rows, in increasing order: false once a point at distance 0 is found, since
        // none can be nearer and the first found is the lowest row (such points share this cell), so a
        // cloud of one point repeated stays linear.
        const auto scan = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
            if (x < 0 || x >= cells[0] || y < 0 || y >= cells[1] || z < 0 || z >= cells[2])
                return true;
            const std::int64_t cell = flat(x, y, z);
            for (std::int64_t k = start[static_cast<std::size_t>(cell)]; k < start[static_cast<std::size_t>(cell + 1)];
                 ++k) {
                const std::int64_t j = order[static_cast<std::size_t>(k)];
                if (j == i)
                    continue;
                double d2 = 0;
                for (int a = 0; a < dims; ++a) {
                    const double diff = at(i, a) - at(j, a);
                    d2 += diff * diff;
                }
                if (d2 < best || (d2 == best && j < bestRow)) {
                    best = d2;
                    bestRow = j;
                    if (d2 == 0)
                        return false;
                }
            }
            return true;
        };
        if (!scan(home[0], home[1], home[2]))
            return bestRow;
        for (std::int64_t r = 1; r <= maxRing; ++r) {
            // Every point past ring r - 1 is at least (r - 1) narrowest cells away: strictly nearer
            // wins outright, an equal one may be a lower row further out.
            const double reach = static_cast<double>(r - 1) * step;
            if (bestRow >= 0 && best < reach * reach)
                break;
            if (dims == 2) {
                // The ring's perimeter alone: its top and bottom rows, then its sides between them.
                for (std::int64_t dx = -r; dx <= r; ++dx) {
                    scan(home[0] + dx, home[1] - r, 0);
                    scan(home[0] + dx, home[1] + r, 0);
                }
                for (std::int64_t dy = -r + 1; dy <= r - 1; ++dy) {
                    scan(home[0] - r, home[1] + dy, 0);
                    scan(home[0] + r, home[1] + dy, 0);
                }
                continue;
            }
            const std::int64_t rz = dims > 2 ? r : 0, ry = dims > 1 ? r : 0;
            for (std::int64_t dz = -rz; dz <= rz; ++dz)
                for (std::int64_t dy = -ry; dy <= ry; ++dy)
                    for (std::int64_t dx = -r; dx <= r; ++dx)
                        if (std::max({std::abs(dx), std::abs(dy), std::abs(dz)}) == r) // not an inner ring's
                            scan(home[0] + dx, home[1] + dy, home[2] + dz);
        }
        return bestRow;
    };
    parallelFor(
        n,
        [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) {
                if (!finite[static_cast<std::size_t>(i)])
                    continue;
                const std::int64_t j = nearest(i);
                if (j >= 0)
                    out[static_cast<std::size_t>(i)] = static_cast<double>(std::abs(j - i));
            }
        },
        1024);
    return out;
}

} // namespace pe
