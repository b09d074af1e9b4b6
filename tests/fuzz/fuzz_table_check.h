#pragma once

// What every table fuzz target checks of bytes it was given: each tensor the file's index lists (up
// to 4) is refused with one line, or opens into a table whose every value is finite and at most
// maxAbs() in magnitude, read the same by value() and readRow(), and whose Encoding fills a block
// without reading past the file.
#include "encodings/encoding.h"
#include "encodings/position_table.h"
#include "formats/tensor_file.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

inline void refusedInOneLine(const std::runtime_error &e)
{
    const std::string why = e.what();
    if (why.empty() || why.find('\n') != std::string::npos)
        std::abort(); // a refusal says why, in one line
}

inline void checkTable(const unsigned char *data, std::size_t size, const std::string &tensor,
                       pe::PositionTable::Role role)
{
    std::shared_ptr<const pe::PositionTable> table;
    try {
        table = pe::PositionTable::fromBytes(data, size, "fuzz", tensor, role);
    } catch (const std::runtime_error &e) {
        refusedInOneLine(e);
        return;
    }
    const std::int64_t rows = std::min<std::int64_t>(table->rows(), 64);
    std::vector<double> row(static_cast<std::size_t>(table->cols()));
    for (std::int64_t r = 0; r < rows; ++r) {
        table->readRow(r, 0, 1, table->cols(), row.data());
        for (int c = 0; c < table->cols(); ++c)
            if (!std::isfinite(row[static_cast<std::size_t>(c)]) ||
                std::abs(row[static_cast<std::size_t>(c)]) > table->maxAbs() ||
                row[static_cast<std::size_t>(c)] != table->value(r, c))
                std::abort();
    }
    const pe::EncodingParams p = pe::tableParams({}, table);
    if (pe::validate(p))
        return;
    const pe::Encoding enc(p);
    const pe::Block b = pe::sampledBlock(p.layout, 0, p.seqLen, 16, 0, p.dModel, 16);
    std::vector<double> out(static_cast<std::size_t>(b.size()));
    enc.fill(b, out.data());
}

// The file's index, then the table found by name and each listed tensor by its name.
inline void checkFile(const unsigned char *data, std::size_t size)
{
    pe::TensorIndex index;
    try {
        index = pe::readTensorIndex(data, size, "fuzz");
    } catch (const std::runtime_error &e) {
        refusedInOneLine(e);
        return;
    }
    checkTable(data, size, {}, pe::PositionTable::Role::Positions);
    if (index.format == pe::TensorFormat::Npy)
        return;
    checkTable(data, size, {}, pe::PositionTable::Role::T5Bias);
    for (std::size_t k = 0; k < index.tensors.size() && k < 4; ++k)
        checkTable(data, size, index.tensors[k].name, pe::PositionTable::Role::Positions);
}
