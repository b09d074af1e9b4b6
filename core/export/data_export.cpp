#include "export/data_export.h"

#include "encodings/position_table.h"

#include "encodings/rope.h"
#include "encodings/scheme.h"

#include "analysis/recovery.h"
#include "analysis/relative.h"
#include "formats/atomic_file.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <system_error>

namespace pe {

std::optional<DataFormat> dataFormatForPath(const std::string &path)
{
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || path.find('/', dot) != std::string::npos)
        return std::nullopt;
    std::string ext = path.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char ch) { return std::tolower(ch); });
    if (ext == "csv")
        return DataFormat::Csv;
    if (ext == "npy")
        return DataFormat::Npy;
    return std::nullopt;
}

std::string npyHeader(const std::vector<std::int64_t> &shape)
{
    std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (";
    for (std::size_t i = 0; i < shape.size(); ++i)
        dict += std::to_string(shape[i]) + (shape.size() == 1 || i + 1 < shape.size() ? ", " : "");
    if (shape.size() == 1)
        dict.pop_back();
    dict += "), }";
    // Magic (6) + version (2) + length (2) + dict + padding + '\n' is a multiple of 64.
    std::size_t total = 10 + dict.size() + 1;
    dict.append((64 - total % 64) % 64, ' ');
    dict += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    const auto len = static_cast<std::uint16_t>(dict.size());
    out += static_cast<char>(len & 0xff);
    out += static_cast<char>(len >> 8);
    return out + dict;
}

namespace {

constexpr std::uint64_t kMaxDoubleChars = 24;

std::string csvHeader(const Table &table)
{
    std::string line = table.indexHeader;
    for (const auto &h : table.columnHeaders)
        line += "," + h;
    return line + '\n';
}

std::uint64_t decimalChars(std::int64_t v)
{
    char num[24];
    return static_cast<std::uint64_t>(std::to_chars(num, num + sizeof num, v).ptr - num);
}

// "80.1 GB": decimal units, as disks are sold and df -H counts.
std::string humanSize(std::uint64_t bytes)
{
    static const char *const units[] = {"bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1000 && u < 6) {
        v /= 1000;
        ++u;
    }
    char text[32];
    std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
    return text;
}

} // namespace

std::uint64_t estimatedFileSize(const Table &table, DataFormat format)
{
    const auto rows = static_cast<std::uint64_t>(std::max<std::int64_t>(table.rows, 0));
    const auto cols = static_cast<std::uint64_t>(std::max(table.cols, 0));
    if (format == DataFormat::Npy)
        return npyHeader({table.rows, table.npyCols()}).size() +
               rows * static_cast<std::uint64_t>(table.npyCols()) * sizeof(double);
    // The index grows with the row (positions, pairs), so its widest text is at one end.
    const std::uint64_t index =
        rows == 0 ? 0 : std::max(decimalChars(table.indexOf(0)), decimalChars(table.indexOf(table.rows - 1)));
    return csvHeader(table).size() + rows * (index + cols * (1 + kMaxDoubleChars) + 1);
}

std::optional<std::string> spaceProblem(const Table &table, const std::string &path, DataFormat format)
{
    std::filesystem::path folder = std::filesystem::path(path).parent_path();
    if (folder.empty())
        folder = ".";
    std::error_code ec;
    const std::filesystem::space_info space = std::filesystem::space(folder, ec);
    if (ec)
        return std::nullopt;
    // The old file, if any, stays until the new one is complete: the whole size must be free.
    const std::uint64_t size = estimatedFileSize(table, format);
    if (size <= space.available)
        return std::nullopt;
    std::filesystem::path shown = std::filesystem::weakly_canonical(folder, ec);
    if (ec)
        shown = folder;
    return "the file would take " + std::string(format == DataFormat::Csv ? "up to " : "") + humanSize(size) +
           " but only " + humanSize(space.available) + " are free in '" + shown.string() + "'; nothing was written.";
}

bool writeTable(const Table &table, const std::string &path, DataFormat format, std::string &error,
                const std::function<bool(double)> &progress)
{
    if (auto problem = spaceProblem(table, path, format)) {
        error = *problem;
        return false;
    }
    AtomicFile file(path);
    if (!file.open(error))
        return false;
    auto cancelled = [&](std::int64_t rowsDone) {
        if (!progress ||
            progress(static_cast<double>(rowsDone) / static_cast<double>(std::max<std::int64_t>(table.rows, 1))))
            return false;
        error = "the export was cancelled; nothing was written.";
        return true;
    };
    constexpr std::int64_t kBlockRows = 256;
    std::vector<double> block(static_cast<std::size_t>(kBlockRows) * std::max(table.cols, 1));
    if (format == DataFormat::Npy) {
        file.write(npyHeader({table.rows, table.npyCols()}));
        static_assert(sizeof(double) == 8);
        // The index first, as the CSV's first column (a matrix has none).
        std::vector<double> indexed(table.matrix ? 0 : static_cast<std::size_t>(kBlockRows) * table.npyCols());
        for (std::int64_t r0 = 0; r0 < table.rows; r0 += kBlockRows) {
            const std::int64_t n = std::min(kBlockRows, table.rows - r0);
            table.fill(r0, n, block.data());
            const double *rowsOut = block.data();
            if (!table.matrix) {
                const auto width = static_cast<std::size_t>(table.npyCols());
                for (std::int64_t r = 0; r < n; ++r) {
                    double *row = indexed.data() + static_cast<std::size_t>(r) * width;
                    row[0] = static_cast<double>(table.indexOf(r0 + r));
                    std::copy_n(block.data() + r * table.cols, table.cols, row + 1);
                }
                rowsOut = indexed.data();
            }
            if (!file.write(rowsOut, static_cast<std::size_t>(n * table.npyCols()) * sizeof(double)))
                break;
            if (cancelled(r0 + n))
                return false;
        }
    } else {
        file.write(csvHeader(table));
        std::string text;
        char num[32];
        for (std::int64_t r0 = 0; r0 < table.rows; r0 += kBlockRows) {
            const std::int64_t n = std::min(kBlockRows, table.rows - r0);
            table.fill(r0, n, block.data());
            text.clear();
            for (std::int64_t r = 0; r < n; ++r) {
                auto res = std::to_chars(num, num + sizeof num, table.indexOf(r0 + r));
                text.append(num, res.ptr);
                for (int c = 0; c < table.cols; ++c) {
                    text += ',';
                    res = std::to_chars(num, num + sizeof num, block[r * table.cols + c]);
                    text.append(num, res.ptr);
                }
                text += '\n';
            }
            if (!file.write(text))
                break;
            if (cancelled(r0 + n))
                return false;
        }
    }
    return file.commit(error);
}

Table encodingTable(const Encoding &encoding, const NoiseParams &noise)
{
    Table t;
    t.matrix = true; // its NPY is the matrix (np.load, --table)
    const EncodingParams &p = encoding.params();
    t.indexHeader = "position";
    for (int j = 0; j < p.dModel; ++j)
        t.columnHeaders.push_back(
            std::string(1, 'd').append(std::to_string(j))); // not "d" + ...: GCC 12 -Wrestrict false alarm
    t.rows = p.seqLen;
    t.cols = p.dModel;
    const std::int64_t start = p.startPos;
    t.indexOf = [start](std::int64_t row) { return start + row; };
    t.fill = [&encoding, noise, start](std::int64_t firstRow, std::int64_t count, double *out) {
        Block b = encoding.windowBlock();
        b.firstPosition = start + firstRow;
        b.rows = count;
        fillEmbeddings(encoding, noise, b, out);
    };
    return t;
}

Table valuesTable(std::string indexHeader, std::vector<std::string> headers, std::int64_t firstIndex,
                  std::vector<double> values)
{
    const auto rows = static_cast<std::int64_t>(values.size() / headers.size());
    return lazyValuesTable(std::move(indexHeader), std::move(headers), firstIndex, rows,
                           [values = std::move(values)]() mutable { return std::move(values); });
}

Table lazyValuesTable(std::string indexHeader, std::vector<std::string> headers, std::int64_t firstIndex,
                      std::int64_t rows, std::function<std::vector<double>()> compute)
{
    Table t;
    t.indexHeader = std::move(indexHeader);
    t.cols = static_cast<int>(headers.size());
    t.columnHeaders = std::move(headers);
    t.rows = rows;
    t.indexOf = [firstIndex](std::int64_t row) { return firstIndex + row; };
    // Computed at the first block, on whichever thread writes the table.
    struct State {
        std::function<std::vector<double>()> compute;
        std::vector<double> values;
        bool done = false;
    };
    auto state = std::make_shared<State>(State{std::move(compute), {}, false});
    t.fill = [state, cols = t.cols](std::int64_t firstRow, std::int64_t count, double *out) {
        if (!state->done) {
            state->values = state->compute();
            state->done = true;
        }
        std::copy_n(state->values.begin() + firstRow * cols, count * cols, out);
    };
    return t;
}

Table similarityTable(const Encoding &encoding, const NoiseParams &noise, std::int64_t reference, Metric metric)
{
    const EncodingParams &p = encoding.params();
    return lazyValuesTable("position", {"similarity"}, p.startPos, p.seqLen, [&encoding, noise, reference, metric] {
        std::optional<OffsetKernel> kernel;
        if (OffsetKernel::applies(encoding.params(), noise))
            kernel.emplace(encoding, encoding.params().seqLen - 1);
        return similarityToReference(encoding, noise, reference, metric, kernel ? &*kernel : nullptr);
    });
}

Table recoveryTable(const Encoding &encoding, const NoiseParams &noise)
{
    return lazyValuesTable("position", {"predicted"}, encoding.params().startPos, encoding.params().seqLen,
                           [&encoding, noise] {
                               const Recovery r = recoverPositions(encoding, noise);
                               return std::vector<double>(r.predicted.begin(), r.predicted.end());
                           });
}

Table recoveryTable(const Recovery &recovery, std::int64_t firstPosition)
{
    return valuesTable("position", {"predicted"}, firstPosition,
                       std::vector<double>(recovery.predicted.begin(), recovery.predicted.end()));
}

Table distanceTable(const Encoding &encoding, const NoiseParams &noise, Metric metric)
{
    const EncodingParams &p = encoding.params();
    Table t;
    t.matrix = true; // its NPY is the matrix (np.load, --table)
    t.indexHeader = "position";
    std::vector<std::int64_t> cols;
    for (std::int64_t s = p.startPos; s < p.startPos + p.seqLen; ++s) {
        cols.push_back(s);
        t.columnHeaders.push_back(std::to_string(s));
    }
    t.rows = p.seqLen;
    t.cols = static_cast<int>(p.seqLen);
    t.indexOf = [start = p.startPos](std::int64_t row) { return start + row; };
    auto kernel = OffsetKernel::applies(p, noise) ? std::make_shared<OffsetKernel>(encoding, p.seqLen - 1) : nullptr;
    t.fill = [&encoding, noise, metric, kernel, cols, start = p.startPos](std::int64_t firstRow, std::int64_t count,
                                                                          double *out) {
        std::vector<std::int64_t> rows;
        for (std::int64_t r = 0; r < count; ++r)
            rows.push_back(start + firstRow + r);
        scoreBlock(encoding, noise, metric, kernel.get(), rows, cols, out);
    };
    return t;
}

Table ropeDecayTable(const Encoding &rope, int samples, std::uint64_t seed)
{
    // xPos: its score beside RoFormer's (the same θ, each pair's term times ζ_i^(k/γ)).
    const bool xpos = rope.params().xposScaleBase > 0;
    std::vector<std::string> columns{"score", "bound"};
    if (xpos)
        columns.emplace_back("xpos_score");
    if (samples > 0)
        columns.insert(columns.end(), {"random_mean", "random_sd"});
    return lazyValuesTable("offset", std::move(columns), 0, rope.params().seqLen, [&rope, xpos, samples, seed] {
        const RopeDecayCurves curves = ropeDecayCurves(rope, rope.params().seqLen, samples, seed);
        std::vector<double> values;
        for (std::size_t k = 0; k < curves.score.size(); ++k) {
            values.insert(values.end(), {curves.score[k], curves.bound[k]});
            if (xpos)
                values.push_back(curves.xpos[k]);
            if (samples > 0)
                values.insert(values.end(), {curves.mean[k], curves.sd[k]});
        }
        return values;
    });
}

Table temperatureTable(const EncodingParams &p)
{
    return lazyValuesTable("position", {"temperature"}, p.startPos, p.seqLen, [p] {
        std::vector<double> values(static_cast<std::size_t>(p.seqLen));
        for (std::int64_t r = 0; r < p.seqLen; ++r)
            values[static_cast<std::size_t>(r)] = llama4Temperature(p.startPos + r, p);
        return values;
    });
}

Table gridTable(const std::vector<GridPair> &pairs, const PatchGrid &grid, std::int64_t firstPosition,
                const GridPatch &reference)
{
    return gridTable(grid, firstPosition, [pairs, grid, reference] { return gridSimilarity(pairs, grid, reference); });
}

Table gridTable(const PatchGrid &grid, std::int64_t firstPosition, std::function<std::vector<double>()> similarity)
{
    return lazyValuesTable("position", {"frame", "row", "column", "similarity"}, firstPosition, grid.patches(),
                           [grid, similarity = std::move(similarity)] {
                               const std::vector<double> values = similarity();
                               std::vector<double> out;
                               out.reserve(4 * values.size());
                               for (std::size_t k = 0; k < values.size(); ++k) {
                                   const GridPatch q = gridPatch(grid, static_cast<std::int64_t>(k));
                                   out.insert(out.end(), {double(q.frame), double(q.row), double(q.col), values[k]});
                               }
                               return out;
                           });
}

Table gridPairsTable(const std::vector<GridPair> &pairs, const GridPatch &reference, std::int64_t offset)
{
    std::vector<double> values;
    values.reserve(4 * pairs.size());
    for (const GridPair &p : pairs)
        values.insert(values.end(),
                      {static_cast<double>(p.axis), p.theta, wavelengthOf(p.theta), gridAngle(p, reference, offset)});
    return valuesTable("pair", {"axis", "theta", "wavelength", "angle"}, 0, std::move(values));
}

Table slopesTable(int heads)
{
    return valuesTable("head", {"slope"}, 1, alibiSlopes(heads));
}

Table precisionTable(const Encoding &rope, Precision precision)
{
    const EncodingParams &p = rope.params();
    return lazyValuesTable(
        "position", {"angle_error", "value_error", "equal_pairs"}, p.startPos, p.seqLen, [&rope, precision] {
            const PrecisionErrors e = precisionErrors(rope, precision);
            std::vector<double> values;
            values.reserve(3 * e.angleError.size());
            for (std::size_t r = 0; r < e.angleError.size(); ++r)
                values.insert(values.end(), {e.angleError[r], e.valueError[r], static_cast<double>(e.equalPairs[r])});
            return values;
        });
}

Table bucketsTable(std::int64_t seqLen, const T5Buckets &buckets)
{
    Table t;
    t.indexHeader = "offset";
    t.columnHeaders = {"bucket"};
    t.cols = 1;
    t.rows = 2 * seqLen - 1;
    t.indexOf = [seqLen](std::int64_t row) { return row - (seqLen - 1); };
    t.fill = [seqLen, buckets](std::int64_t firstRow, std::int64_t count, double *out) {
        for (std::int64_t r = 0; r < count; ++r)
            out[r] = t5Bucket(firstRow + r - (seqLen - 1), buckets);
    };
    return t;
}

Table t5BiasTable(std::int64_t seqLen, const T5Buckets &buckets, std::shared_ptr<const PositionTable> bias)
{
    Table t;
    t.indexHeader = "offset";
    t.cols = bias->cols();
    for (int h = 1; h <= t.cols; ++h)
        t.columnHeaders.push_back("head_" + std::to_string(h));
    t.rows = 2 * seqLen - 1;
    t.indexOf = [seqLen](std::int64_t row) { return row - (seqLen - 1); };
    t.fill = [seqLen, buckets, bias](std::int64_t firstRow, std::int64_t count, double *out) {
        const int heads = bias->cols();
        for (std::int64_t r = 0; r < count; ++r)
            bias->readRow(t5Bucket(firstRow + r - (seqLen - 1), buckets), 0, 1, heads, out + r * heads);
    };
    return t;
}

Table attentionTable(const Encoding &encoding, const AttentionSettings &settings)
{
    const EncodingParams &p = encoding.params();
    Table t;
    t.matrix = true; // its NPY is the matrix (np.load, --table)
    t.indexHeader = "position";
    for (std::int64_t s = p.startPos; s < p.startPos + p.seqLen; ++s)
        t.columnHeaders.push_back(std::to_string(s));
    t.rows = p.seqLen;
    t.cols = static_cast<int>(p.seqLen);
    t.indexOf = [start = p.startPos](std::int64_t row) { return start + row; };
    // Built when the first block is asked for: the table is made before it is written.
    auto attention = std::make_shared<std::shared_ptr<PositionalAttention>>();
    t.fill = [&encoding, settings, attention, start = p.startPos, n = p.seqLen](std::int64_t firstRow,
                                                                                std::int64_t count, double *out) {
        if (!*attention)
            *attention = std::make_shared<PositionalAttention>(encoding, settings);
        for (std::int64_t r = 0; r < count; ++r)
            (*attention)->row(start + firstRow + r, start, n, out + r * n);
    };
    return t;
}

Table angleTable(const Encoding &encoding)
{
    Table t;
    const EncodingParams &p = encoding.params();
    t.indexHeader = "position";
    for (int i = 0; i < encoding.pairCount(); ++i)
        t.columnHeaders.push_back(std::string("pair").append(std::to_string(i)));
    t.rows = p.seqLen;
    t.cols = encoding.pairCount();
    const std::int64_t start = p.startPos;
    t.indexOf = [start](std::int64_t row) { return start + row; };
    t.fill = [&encoding, start](std::int64_t firstRow, std::int64_t count, double *out) {
        const int pairs = encoding.pairCount();
        for (std::int64_t r = 0; r < count; ++r)
            for (int i = 0; i < pairs; ++i) {
                // The hand's angle t w_i reduced to [0, 2 pi), from the exact sine and cosine.
                double s = 0, c = 0;
                encoding.pairSinCos(start + firstRow + r, i, s, c);
                const double a = std::atan2(s, c);
                out[r * pairs + i] = a < 0 ? a + 2 * M_PI : a;
            }
    };
    return t;
}

Table relativeTable(const Encoding &encoding, const NoiseParams &noise, std::int64_t t, std::int64_t k)
{
    const OffsetDecode decoded = decodeOffset(encoding, noise, t, t + k);
    const std::vector<Rotation2> blocks = rotationBlocks(encoding, k);
    std::vector<double> values;
    if (!encoding.hasFrequencies()) { // a table: the fitted rotations and each pair's angle from x(t) to x(t+k)
        for (int i = 0; i < encoding.pairCount(); ++i) {
            const Rotation2 &r = blocks[static_cast<std::size_t>(i)];
            values.insert(values.end(), {r.a, r.b, r.c, r.d, decoded.perPair[static_cast<std::size_t>(i)]});
        }
        return valuesTable("pair", {"T11", "T12", "T21", "T22", "angle"}, 0, std::move(values));
    }
    for (int i = 0; i < encoding.pairCount(); ++i) {
        const Rotation2 &r = blocks[static_cast<std::size_t>(i)];
        const double w = encoding.pairFrequency(i);
        values.insert(
            values.end(),
            {w, 2 * M_PI / w, r.a, r.b, r.c, r.d,
             i < static_cast<int>(decoded.perPair.size()) ? decoded.perPair[static_cast<std::size_t>(i)] : 0.0});
    }
    return valuesTable("pair", {"omega", "wavelength", "T11", "T12", "T21", "T22", "reading"}, 0, std::move(values));
}

Table spectrumTable(const Encoding &encoding)
{
    const int d = encoding.dModel();
    return lazyValuesTable("dimension", {"omega", "wavelength", "peak_share", "resolved"}, 0, d, [&encoding, d] {
        std::vector<int> columns(static_cast<std::size_t>(d));
        for (int j = 0; j < d; ++j)
            columns[static_cast<std::size_t>(j)] = j;
        const ColumnSpectrum s = columnSpectrum(encoding, columns);
        std::vector<double> values;
        for (std::size_t k = 0; k < columns.size(); ++k)
            values.insert(values.end(),
                          {s.omega[k], wavelengthOf(s.omega[k]), s.peakShare[k], s.resolved(k) ? 1.0 : 0.0});
        return values;
    });
}

Table frequencyTable(const Encoding &encoding)
{
    if (!encoding.hasFrequencies())
        return spectrumTable(encoding);
    const EncodingParams &p = encoding.params();
    if (p.scheme == SchemeId::Rope) {
        const std::vector<double> plain = ropeFrequencies(p.base, p.dModel, unscaled(p.rope), p.startPos + p.seqLen);
        const std::vector<PairRegime> regimes = ropeRegimes(p.base, p.dModel, p.rope, p.startPos + p.seqLen);
        // rescale: what θ_i was divided by (LongRoPE's ext_i, s where interpolated); attention_factor:
        // the factor on cos and sin, the same for every pair.
        // Gemma's sliding-window layers: their own θ (the local base, unscaled) in two more columns.
        const bool local = hasLocalLayers(p);
        const std::optional<Encoding> localEncoding = local ? std::optional<Encoding>(localLayers(p)) : std::nullopt;
        // xPos: each pair's ζ_i, whose (t-s)/γ-th power scales its score.
        const bool xpos = p.xposScaleBase > 0;
        const std::vector<double> zeta = xpos ? xposZeta(p.dModel, p.rope) : std::vector<double>{};
        std::vector<double> values;
        for (int i = 0; i < encoding.channelCount(); ++i) {
            const auto k = static_cast<std::size_t>(i);
            const double w = encoding.channelFrequency(i);
            // A pair that does not turn (partial rotary) is unchanged: ratio and rescale 1, wavelength inf.
            const double ratio = w == 0 ? 1.0 : w / plain[k];
            values.insert(values.end(), {w, wavelengthOf(w), plain[k], wavelengthOf(plain[k]), ratio,
                                         static_cast<double>(regimes[k]), 1 / ratio, encoding.amplitude()});
            if (localEncoding)
                values.insert(values.end(), {localEncoding->channelFrequency(i), localEncoding->channelWavelength(i)});
            if (xpos)
                values.push_back(zeta[k]);
        }
        std::vector<std::string> columns{"omega", "wavelength", "omega_unscaled", "wavelength_unscaled",
                                         "ratio", "regime",     "rescale",        "attention_factor"};
        if (local)
            columns.insert(columns.end(), {"omega_local", "wavelength_local"});
        if (xpos)
            columns.emplace_back("xpos_zeta");
        return valuesTable("pair", std::move(columns), 0, std::move(values));
    }
    Table t;
    t.indexHeader = p.exponent == Exponent::Pair ? "pair" : "dimension";
    t.columnHeaders = {"omega", "wavelength"};
    t.rows = encoding.channelCount();
    t.cols = 2;
    t.indexOf = [](std::int64_t row) { return row; };
    t.fill = [&encoding](std::int64_t firstRow, std::int64_t count, double *out) {
        for (std::int64_t r = 0; r < count; ++r) {
            const int ch = static_cast<int>(firstRow + r);
            out[2 * r] = encoding.channelFrequency(ch);
            out[2 * r + 1] = encoding.channelWavelength(ch);
        }
    };
    return t;
}

} // namespace pe

namespace pe {

namespace {

// n x dims coordinates and one value a row as n x (dims + 1) rows.
std::vector<double> withColumn(const std::vector<double> &coords, int dims, const std::vector<double> &column)
{
    const auto d = static_cast<std::size_t>(dims);
    const std::size_t n = coords.size() / d;
    std::vector<double> out((d + 1) * n);
    for (std::size_t i = 0; i < n; ++i) {
        std::copy_n(coords.begin() + static_cast<std::ptrdiff_t>(d * i), d,
                    out.begin() + static_cast<std::ptrdiff_t>((d + 1) * i));
        out[(d + 1) * i + d] = i < column.size() ? column[i] : std::numeric_limits<double>::quiet_NaN();
    }
    return out;
}

// "x", "y" and, in 3-D, "z".
std::vector<std::string> coordinateHeaders(int dims)
{
    std::vector<std::string> headers{"x", "y"};
    if (dims == 3)
        headers.push_back("z");
    return headers;
}

} // namespace

Table projectionTable(const Encoding &encoding, const NoiseParams &noise, ProjectionMethod method,
                      const TsneSettings &settings, const UmapSettings &umap, const ColorBy &colorBy, int components)
{
    const EncodingParams &p = encoding.params();
    std::vector<std::string> headers = coordinateHeaders(components);
    if (colorBy.kind != ColorByKind::Position)
        headers.push_back(colorColumnHeader(colorBy));
    auto recall = std::make_shared<Recall>(); // the neighbours', known once computed
    Table t =
        lazyValuesTable("position", headers, p.startPos, p.seqLen,
                        [&encoding, noise, method, settings, umap, colorBy, recall, components] {
                            Projection projection =
                                computeProjection(encoding, noise, method, settings, umap, nullptr, components);
                            *recall = projection.recall;
                            const std::vector<double> &coords = projection.coords;
                            if (colorBy.kind == ColorByKind::Position)
                                return std::move(projection.coords);
                            if (colorBy.kind == ColorByKind::Error)
                                return withColumn(coords, components, nearestOffsets(coords, components));
                            std::string error;
                            const std::optional<PointColors> colors = pointColors(colorBy, encoding, noise, &error);
                            return withColumn(coords, components, colors ? colors->values : std::vector<double>{});
                        });
    t.note = [recall] { return recallNote(*recall); };
    return t;
}

Table coordinateTable(std::int64_t firstPosition, std::vector<double> coords, int dims, const PointColors *colors)
{
    std::vector<std::string> headers = coordinateHeaders(dims);
    if (!colors || colors->by.kind == ColorByKind::Position)
        return valuesTable("position", std::move(headers), firstPosition, std::move(coords));
    headers.push_back(colors->header);
    return valuesTable("position", std::move(headers), firstPosition, withColumn(coords, dims, colors->values));
}

} // namespace pe
