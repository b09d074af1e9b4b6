#include "test_support.h"

#include "export/data_export.h"

#include <algorithm>

#include <QFile>

#include <cmath>

namespace testsupport {

long double referenceValue(std::int64_t position, double w, bool sine)
{
    // w = hi + lo with hi holding the top 26 bits: position (< 2^31) * hi is exact in the
    // 64-bit long-double mantissa, and so is position * lo.
    int exponent = 0;
    const double mantissa = std::frexp(w, &exponent);
    const double hi = std::ldexp(std::trunc(std::ldexp(mantissa, 26)), exponent - 26);
    const double lo = w - hi;
    const long double t = static_cast<long double>(position);
    const long double a = t * static_cast<long double>(hi);
    const long double b = t * static_cast<long double>(lo);
    return sine ? sinl(a) * cosl(b) + cosl(a) * sinl(b) : cosl(a) * cosl(b) - sinl(a) * sinl(b);
}

pe::EncodingParams params(std::int64_t seqLen, int dModel, double base, std::int64_t startPos, pe::Layout layout,
                          pe::Exponent exponent)
{
    pe::EncodingParams p;
    p.seqLen = seqLen;
    p.dModel = dModel;
    p.base = base;
    p.startPos = startPos;
    p.layout = layout;
    p.exponent = exponent;
    return p;
}

std::int64_t matrixPageFirst(std::int64_t t, std::int64_t start, std::int64_t n, std::int64_t count)
{
    const std::int64_t half = std::max<std::int64_t>(count / 2, 1);
    // The page's middle rows: `half` of them, as many rows above as below (one fewer above when odd).
    const std::int64_t above = (count - half) / 2;
    std::int64_t first = start;
    // The next page while t is past this one's middle rows and the next one still fits.
    while (t >= first + above + half && first + half + count <= start + n)
        first += half;
    // The last page, which stops at the window's end, when t is past the last whole page's middle.
    if (t >= first + above + half)
        first = start + n - count;
    return first;
}

bool writeReadOnlyFile(const QString &path, const QByteArray &contents)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(contents) != contents.size())
        return false;
    f.close();
    return QFile::setPermissions(path, QFile::ReadOwner);
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

std::shared_ptr<const pe::PositionTable> tableOf(std::int64_t rows, int cols, const std::vector<double> &values,
                                                 const std::string &name)
{
    std::string bytes = pe::npyHeader({rows, cols});
    bytes.append(reinterpret_cast<const char *>(values.data()), values.size() * sizeof(double));
    return pe::PositionTable::fromBytes(reinterpret_cast<const unsigned char *>(bytes.data()), bytes.size(), name);
}

} // namespace testsupport
