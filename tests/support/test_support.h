#pragma once

#include "encodings/encoding_params.h"
#include "encodings/position_table.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace testsupport {

// sin or cos of position * w with the product split so every partial product is exact in long
// double: about 1e-19 accurate even at position 1e9, where a plain long-double product is only
// good to 5e-11.
long double referenceValue(std::int64_t position, double w, bool sine);

// Parameters in one call, the rest at their defaults.
pe::EncodingParams params(std::int64_t seqLen, int dModel, double base = 1e4, std::int64_t startPos = 0,
                          pe::Layout layout = pe::Layout::Interleaved, pe::Exponent exponent = pe::Exponent::Pair);

// The first position of the page of `count` cells a position matrix (attention, ALiBi, T5) shows
// for position t in [start, start + n): pages begin every half page, t in the middle half of its
// page, the first and last pages held at the window's ends. Found by walking the pages.
std::int64_t matrixPageFirst(std::int64_t t, std::int64_t start, std::int64_t n, std::int64_t count);

// Writes contents to path and makes the file read-only; false if it could not.
bool writeReadOnlyFile(const QString &path, const QByteArray &contents);
QByteArray readFile(const QString &path);

// A position table of rows x cols values (row-major) held in memory, as a .npy file of that name
// would give it.
std::shared_ptr<const pe::PositionTable> tableOf(std::int64_t rows, int cols, const std::vector<double> &values,
                                                 const std::string &name = "wpe.npy");

} // namespace testsupport
