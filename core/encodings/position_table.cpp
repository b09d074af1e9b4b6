#include "encodings/position_table.h"

#include "encodings/encoding_params.h"
#include "formats/file_kind.h"
#include "formats/npy_header.h"
#include "support/parallel.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pe {

namespace {

// numpy writes headers of a few hundred bytes; its own loader refuses more than 10,000 by default.
constexpr std::size_t kMaxHeaderLength = 65536;

using detail::dtypeWords;
using detail::parseHeader;
using detail::refuse;

double halfToDouble(std::uint16_t h)
{
    const int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    double v;
    if (exponent == 0)
        v = std::ldexp(mantissa, -24); // subnormal
    else if (exponent == 31)
        v = mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else
        v = std::ldexp(mantissa + 1024, exponent - 25);
    return sign ? -v : v;
}

template <typename T> T loadSwapped(const unsigned char *p, bool swap)
{
    unsigned char b[sizeof(T)];
    if (swap)
        for (std::size_t i = 0; i < sizeof(T); ++i)
            b[i] = p[sizeof(T) - 1 - i];
    else
        std::memcpy(b, p, sizeof(T));
    T v;
    std::memcpy(&v, b, sizeof(T));
    return v;
}

double load(const unsigned char *p, PositionTable::Type type, bool swap)
{
    switch (type) {
    case PositionTable::Type::Float16:
        return halfToDouble(loadSwapped<std::uint16_t>(p, swap));
    case PositionTable::Type::Float32:
        return loadSwapped<float>(p, swap);
    case PositionTable::Type::Float64:
        return loadSwapped<double>(p, swap);
    }
    return 0;
}

constexpr bool kHostBigEndian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

} // namespace

std::string_view typeName(PositionTable::Type t)
{
    switch (t) {
    case PositionTable::Type::Float16:
        return "float16";
    case PositionTable::Type::Float32:
        return "float32";
    case PositionTable::Type::Float64:
        return "float64";
    }
    return "";
}

EncodingParams tableParams(EncodingParams p, std::shared_ptr<const PositionTable> table, bool keepSeqLen)
{
    p.scheme = SchemeId::Table;
    p.dModel = table->cols();
    p.layout = Layout::Interleaved;
    if (!keepSeqLen)
        p.seqLen = std::clamp<std::int64_t>(table->rows() - p.startPos, limits::minSeqLen, limits::maxSeqLen);
    p.table = std::move(table);
    return p;
}

std::shared_ptr<const PositionTable> PositionTable::open(const std::string &path)
{
    const std::string name = "'" + path + "'";
    if (path.empty())
        throw std::runtime_error("the table file name is empty");
    if (auto why = notAReadableFile(path))
        throw std::runtime_error(*why);
    // O_NONBLOCK: a pipe put in the file's place since the check must not hang the open.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        refuse(name, std::string("cannot open it: ") + std::strerror(errno));
    struct stat st {
    };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        refuse(name, "not a regular file");
    }
    std::shared_ptr<PositionTable> t(new PositionTable);
    t->path_ = path;
    t->size_ = static_cast<std::size_t>(st.st_size);
    if (t->size_ == 0) {
        ::close(fd);
        refuse(name, "the file is empty, not a NumPy .npy file");
    }
    void *m = ::mmap(nullptr, t->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    const int mapErrno = errno;
    if (m == MAP_FAILED) {
        ::close(fd);
        refuse(name, std::string("cannot map it into memory: ") + std::strerror(mapErrno));
    }
    t->mapping_ = m;
    t->bytes_ = static_cast<const unsigned char *>(m);
    try {
        t->parse(name);
        t->scan(name, fd);
    } catch (...) {
        ::close(fd);
        throw;
    }
    ::close(fd);
    return t;
}

std::shared_ptr<const PositionTable> PositionTable::fromBytes(const unsigned char *data, std::size_t size,
                                                              const std::string &name)
{
    std::shared_ptr<PositionTable> t(new PositionTable);
    t->path_ = name;
    t->copy_.assign(data, data + size);
    t->bytes_ = t->copy_.data();
    t->size_ = size;
    t->parse("'" + name + "'");
    t->scan("'" + name + "'");
    return t;
}

PositionTable::~PositionTable()
{
    if (mapping_)
        ::munmap(mapping_, size_);
}

void PositionTable::parse(const std::string &name)
{
    static const unsigned char kMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
    if (size_ < 10 || std::memcmp(bytes_, kMagic, sizeof kMagic) != 0)
        refuse(name, "not a NumPy .npy file (it does not start with the bytes \\x93NUMPY)");
    const int major = bytes_[6];
    std::size_t headerStart, headerLength;
    if (major == 1) {
        headerStart = 10;
        headerLength = bytes_[8] | static_cast<std::size_t>(bytes_[9]) << 8;
    } else if (major == 2 || major == 3) {
        if (size_ < 12)
            refuse(name, "truncated: the file ends inside the .npy preamble");
        headerStart = 12;
        headerLength = bytes_[8] | static_cast<std::size_t>(bytes_[9]) << 8 |
                       static_cast<std::size_t>(bytes_[10]) << 16 | static_cast<std::size_t>(bytes_[11]) << 24;
    } else {
        refuse(name, ".npy format version " + std::to_string(major) + " is not one this program reads (1, 2 or 3)");
    }
    if (headerLength > kMaxHeaderLength)
        refuse(name, "its header claims " + withThousands(static_cast<std::int64_t>(headerLength)) +
                         " bytes, not a plausible .npy header (at most " + withThousands(kMaxHeaderLength) + ")");
    if (headerStart + headerLength > size_)
        refuse(name, "truncated: the header is " + withThousands(static_cast<std::int64_t>(headerLength)) +
                         " bytes but the file ends after " +
                         withThousands(static_cast<std::int64_t>(size_ - headerStart)));

    std::string descr;
    std::vector<std::int64_t> shape;
    parseHeader(std::string_view(reinterpret_cast<const char *>(bytes_) + headerStart, headerLength), name, descr,
                fortran_, shape);

    // The type: a byte-order mark and f2, f4 or f8.
    const char order = descr.empty() ? '\0' : descr[0];
    const std::string kind = descr.size() > 1 ? descr.substr(1) : std::string();
    if ((order != '<' && order != '>' && order != '=' && order != '|') ||
        (kind != "f2" && kind != "f4" && kind != "f8"))
        refuse(name, "its values are " + dtypeWords(descr) + "; a position table must be float16, float32 or float64");
    type_ = kind == "f2" ? Type::Float16 : kind == "f4" ? Type::Float32 : Type::Float64;
    itemSize_ = kind == "f2" ? 2 : kind == "f4" ? 4 : 8;
    bigEndian_ = order == '>' || (order == '=' && kHostBigEndian);

    if (shape.size() != 2) {
        std::string dims;
        for (std::size_t i = 0; i < shape.size(); ++i)
            dims += (i ? " x " : "") + withThousands(shape[i]);
        refuse(name, "the array has " + std::to_string(shape.size()) +
                         (shape.size() == 1 ? " dimension" : " dimensions") + (shape.empty() ? "" : " (" + dims + ")") +
                         "; a position table must be 2-D: positions x dimensions");
    }
    if (shape[0] == 0 || shape[1] == 0)
        refuse(name, "the table is empty (" + withThousands(shape[0]) + " x " + withThousands(shape[1]) + ")");
    if (shape[1] > limits::maxDModel)
        refuse(name, "the table has " + withThousands(shape[1]) + " columns; d_model can be at most " +
                         withThousands(limits::maxDModel));
    if (shape[0] > limits::maxPositionEnd)
        refuse(name, "the table has " + withThousands(shape[0]) + " rows; positions go up to " +
                         withThousands(limits::maxPositionEnd));
    rows_ = shape[0];
    cols_ = static_cast<int>(shape[1]);
    const std::size_t offset = headerStart + headerLength;
    const auto need =
        static_cast<std::uint64_t>(rows_) * static_cast<std::uint64_t>(cols_) * static_cast<std::uint64_t>(itemSize_);
    const std::uint64_t have = size_ - offset;
    if (need != have)
        refuse(name, "its shape " + withThousands(rows_) + " x " + withThousands(cols_) + " of " +
                         std::string(typeName(type_)) + " needs " + withThousands(static_cast<std::int64_t>(need)) +
                         " bytes of values but the file holds " + withThousands(static_cast<std::int64_t>(have)) +
                         (need > have ? " (truncated)" : ""));
    data_ = bytes_ + offset;
}

namespace {

// The scan of n values at p, the i-th being value number first + i of the file: the largest finite
// magnitude, and the smallest (row, column) holding a value that is not finite or too large.
struct ScanResult {
    double maxAbs = 0;
    std::int64_t badRow = -1, badCol = -1;
    double badValue = 0;
    void bad(std::int64_t r, std::int64_t c, double v)
    {
        if (badRow < 0 || r < badRow || (r == badRow && c < badCol)) {
            badRow = r;
            badCol = c;
            badValue = v;
        }
    }
    void merge(const ScanResult &o)
    {
        maxAbs = std::max(maxAbs, o.maxAbs);
        if (o.badRow >= 0)
            bad(o.badRow, o.badCol, o.badValue);
    }
};

template <typename T>
void scanValues(const unsigned char *p, std::int64_t n, bool swap, std::int64_t first, std::int64_t rows,
                std::int64_t cols, bool fortran, ScanResult &out)
{
    double m = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        double v;
        if constexpr (std::is_same_v<T, std::uint16_t>)
            v = halfToDouble(loadSwapped<std::uint16_t>(p + i * 2, swap));
        else
            v = loadSwapped<T>(p + i * static_cast<std::int64_t>(sizeof(T)), swap);
        if (std::abs(v) <= kTableMaxMagnitude) [[likely]] { // false for NaN
            m = std::max(m, std::abs(v));
        } else {
            const std::int64_t k = first + i;
            out.bad(fortran ? k % rows : k / cols, fortran ? k / rows : k % cols, v);
        }
    }
    out.maxAbs = std::max(out.maxAbs, m);
}

} // namespace

void PositionTable::scan(const std::string &name, int fd)
{
    const std::int64_t n = rows_ * cols_;
    const bool swap = bigEndian_ != kHostBigEndian;
    const std::int64_t offset = data_ - bytes_;
    constexpr std::int64_t kChunk = 1 << 19; // values a chunk: 1 to 4 MiB
    std::mutex lock;
    ScanResult all;
    std::atomic<bool> readFailed{false};
    int readErrno = 0;
    parallelFor((n + kChunk - 1) / kChunk,
                [&](std::int64_t begin, std::int64_t end) {
                    ScanResult mine;
                    std::vector<unsigned char> buffer(fd >= 0 ? static_cast<std::size_t>(kChunk * itemSize_) : 0);
                    for (std::int64_t c = begin; c < end && !readFailed; ++c) {
                        const std::int64_t first = c * kChunk, count = std::min(kChunk, n - first);
                        const unsigned char *p = data_ + first * itemSize_;
                        if (fd >= 0) {
                            const std::size_t want = static_cast<std::size_t>(count * itemSize_);
                            std::size_t got = 0;
                            while (got < want) {
                                const ssize_t r = ::pread(
                                    fd, buffer.data() + got, want - got,
                                    static_cast<off_t>(offset + first * itemSize_ + static_cast<std::int64_t>(got)));
                                if (r <= 0) {
                                    if (r < 0 && errno == EINTR)
                                        continue;
                                    std::lock_guard<std::mutex> guard(lock);
                                    readErrno = r < 0 ? errno : EIO;
                                    readFailed = true;
                                    return;
                                }
                                got += static_cast<std::size_t>(r);
                            }
                            p = buffer.data();
                        }
                        switch (type_) {
                        case Type::Float16:
                            scanValues<std::uint16_t>(p, count, swap, first, rows_, cols_, fortran_, mine);
                            break;
                        case Type::Float32:
                            scanValues<float>(p, count, swap, first, rows_, cols_, fortran_, mine);
                            break;
                        case Type::Float64:
                            scanValues<double>(p, count, swap, first, rows_, cols_, fortran_, mine);
                            break;
                        }
                    }
                    std::lock_guard<std::mutex> guard(lock);
                    all.merge(mine);
                },
                1);
    if (readFailed)
        refuse(name, std::string("cannot read it: ") + std::strerror(readErrno));
    if (all.badRow >= 0) {
        const std::string where =
            " at row " + withThousands(all.badRow) + ", column " + withThousands(all.badCol) + " (counted from 0)";
        if (std::isfinite(all.badValue)) {
            char value[32];
            std::snprintf(value, sizeof value, "%.3g", all.badValue);
            refuse(name, std::string("the table holds ") + value + where +
                             "; values must lie within +/-1e150, so that squared distances between rows stay finite");
        }
        refuse(name, std::string("the table holds ") +
                         (std::isnan(all.badValue) ? "NaN"
                          : all.badValue > 0       ? "infinity"
                                                   : "-infinity") +
                         where + "; every value must be a finite number");
    }
    maxAbs_ = all.maxAbs;
}

std::string PositionTable::description() const
{
    return std::string(typeName(type_)) + (bigEndian_ ? ", big endian" : ", little endian") +
           (fortran_ ? ", Fortran order" : ", C order");
}

double PositionTable::value(std::int64_t row, int col) const
{
    const std::int64_t i = fortran_ ? static_cast<std::int64_t>(col) * rows_ + row : row * cols_ + col;
    return load(data_ + i * itemSize_, type_, bigEndian_ != kHostBigEndian);
}

void PositionTable::readRow(std::int64_t row, int firstCol, int colStep, int count, double *out) const
{
    const bool swap = bigEndian_ != kHostBigEndian;
    if (!fortran_ && !swap && colStep == 1) { // the common case, one contiguous run
        const unsigned char *p = data_ + (row * cols_ + firstCol) * itemSize_;
        switch (type_) {
        case Type::Float64:
            std::memcpy(out, p, sizeof(double) * static_cast<std::size_t>(count));
            return;
        case Type::Float32:
            for (int k = 0; k < count; ++k) {
                float f;
                std::memcpy(&f, p + 4 * k, 4);
                out[k] = f;
            }
            return;
        case Type::Float16:
            break;
        }
    }
    for (int k = 0; k < count; ++k)
        out[k] = value(row, firstCol + k * colStep);
}

} // namespace pe
