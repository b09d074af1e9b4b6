#include "data_export.h"

#include "atomic_file.h"
#include "recovery.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <memory>

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

bool writeTable(const Table &table, const std::string &path, DataFormat format, std::string &error,
                const std::function<bool(double)> &progress)
{
    AtomicFile file(path);
    if (!file.open(error))
        return false;
    auto cancelled = [&](std::int64_t rowsDone) {
        if (!progress || progress(static_cast<double>(rowsDone) / static_cast<double>(std::max<std::int64_t>(table.rows, 1))))
            return false;
        error = "the export was cancelled; nothing was written.";
        return true;
    };
    constexpr std::int64_t kBlockRows = 256;
    std::vector<double> block(static_cast<std::size_t>(kBlockRows) * std::max(table.cols, 1));
    if (format == DataFormat::Npy) {
        file.write(npyHeader({table.rows, table.cols}));
        static_assert(sizeof(double) == 8);
        for (std::int64_t r0 = 0; r0 < table.rows; r0 += kBlockRows) {
            const std::int64_t n = std::min(kBlockRows, table.rows - r0);
            table.fill(r0, n, block.data());
            if (!file.write(block.data(), static_cast<std::size_t>(n * table.cols) * sizeof(double)))
                break;
            if (cancelled(r0 + n))
                return false;
        }
    } else {
        std::string line = table.indexHeader;
        for (const auto &h : table.columnHeaders)
            line += "," + h;
        line += '\n';
        file.write(line);
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

Table encodingTable(const Encoding &encoding)
{
    Table t;
    const EncodingParams &p = encoding.params();
    t.indexHeader = "position";
    for (int j = 0; j < p.dModel; ++j)
        t.columnHeaders.push_back(std::string(1, 'd').append(std::to_string(j))); // not "d" + ...: GCC 12 -Wrestrict false alarm
    t.rows = p.seqLen;
    t.cols = p.dModel;
    const std::int64_t start = p.startPos;
    t.indexOf = [start](std::int64_t row) { return start + row; };
    t.fill = [&encoding, start](std::int64_t firstRow, std::int64_t count, double *out) {
        Block b = encoding.windowBlock();
        b.firstPosition = start + firstRow;
        b.rows = count;
        encoding.fill(b, out);
    };
    return t;
}

namespace {

// A table whose values are computed once, up front, one column per row.
Table columnTable(std::string indexHeader, std::string header, std::int64_t start, std::vector<double> values)
{
    Table t;
    t.indexHeader = std::move(indexHeader);
    t.columnHeaders = {std::move(header)};
    t.rows = static_cast<std::int64_t>(values.size());
    t.cols = 1;
    t.indexOf = [start](std::int64_t row) { return start + row; };
    auto shared = std::make_shared<std::vector<double>>(std::move(values));
    t.fill = [shared](std::int64_t firstRow, std::int64_t count, double *out) {
        std::copy_n(shared->begin() + firstRow, count, out);
    };
    return t;
}

} // namespace

Table similarityTable(const Encoding &encoding, const NoiseParams &noise, std::int64_t reference, Metric metric)
{
    const EncodingParams &p = encoding.params();
    std::optional<OffsetKernel> kernel;
    if (OffsetKernel::applies(p, noise))
        kernel.emplace(encoding, p.seqLen - 1);
    return columnTable("position", "similarity", p.startPos,
                       similarityToReference(encoding, noise, reference, metric, kernel ? &*kernel : nullptr));
}

Table recoveryTable(const Encoding &encoding, const NoiseParams &noise)
{
    const Recovery r = recoverPositions(encoding, noise);
    return columnTable("position", "predicted", encoding.params().startPos,
                       std::vector<double>(r.predicted.begin(), r.predicted.end()));
}

Table distanceTable(const Encoding &encoding, const NoiseParams &noise, Metric metric)
{
    const EncodingParams &p = encoding.params();
    Table t;
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
    t.fill = [&encoding, noise, metric, kernel, cols, start = p.startPos](std::int64_t firstRow, std::int64_t count, double *out) {
        std::vector<std::int64_t> rows;
        for (std::int64_t r = 0; r < count; ++r)
            rows.push_back(start + firstRow + r);
        scoreBlock(encoding, noise, metric, kernel.get(), rows, cols, out);
    };
    return t;
}

Table frequencyTable(const Encoding &encoding)
{
    Table t;
    t.indexHeader = encoding.params().exponent == Exponent::Pair ? "pair" : "dimension";
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

Table projectionTable(const Encoding &encoding, const NoiseParams &noise, ProjectionMethod method, const TsneSettings &settings)
{
    const EncodingParams &p = encoding.params();
    auto xy = std::make_shared<std::vector<double>>(computeProjection(encoding, noise, method, settings).xy);
    Table t;
    t.indexHeader = "position";
    t.columnHeaders = {"x", "y"};
    t.rows = p.seqLen;
    t.cols = 2;
    t.indexOf = [start = p.startPos](std::int64_t row) { return start + row; };
    t.fill = [xy](std::int64_t firstRow, std::int64_t count, double *out) {
        std::copy_n(xy->data() + 2 * firstRow, 2 * count, out);
    };
    return t;
}

} // namespace pe
