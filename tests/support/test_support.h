#pragma once

#include "encodings/encoding_params.h"

#include <QByteArray>
#include <QString>

#include <cstdint>

namespace testsupport {

// sin or cos of position * w with the product split so every partial product is exact in long
// double: about 1e-19 accurate even at position 1e9, where a plain long-double product is only
// good to 5e-11.
long double referenceValue(std::int64_t position, double w, bool sine);

// Parameters in one call, the rest at their defaults.
pe::EncodingParams params(std::int64_t seqLen, int dModel, double base = 1e4, std::int64_t startPos = 0,
                          pe::Layout layout = pe::Layout::Interleaved, pe::Exponent exponent = pe::Exponent::Pair);

// Writes contents to path and makes the file read-only; false if it could not.
bool writeReadOnlyFile(const QString &path, const QByteArray &contents);
QByteArray readFile(const QString &path);

} // namespace testsupport
