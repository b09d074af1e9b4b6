#pragma once

#include "encodings/encoding_params.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pe {

// A position table read from a NumPy .npy file (format versions 1.0, 2.0 and 3.0): a 2-D array of
// float16, float32 or float64, little or big endian, C or Fortran order. Rows are positions, columns
// are dimensions: a learned table such as GPT-2's wpe, or any encoding a researcher saved.
//
// The file is memory-mapped, never read into memory whole: the operating system pages in what a
// view asks for. Opening does read every value once, through a small buffer (pread), to refuse NaN
// and infinity (naming the first such row and column) and to find the largest magnitude, the
// heatmap's colour range; that pass leaves nothing resident.
//
// The header is parsed strictly as the format defines it (a Python dict literal with exactly the keys
// 'descr', 'fortran_order' and 'shape'), never evaluated.
// The largest magnitude a table may hold. Every analysis squares and sums values: a squared distance
// between two rows of d columns reaches 4 d M^2, which for d up to 16,384 and M = 1e150 is 6.6e304,
// still below the largest double (1.8e308). A larger value is refused at open, naming where it is.
inline constexpr double kTableMaxMagnitude = 1e150;

class PositionTable
{
  public:
    enum class Type { Float16, Float32, Float64 };

    // Opens and checks the file; throws std::runtime_error with one sentence naming what is wrong.
    static std::shared_ptr<const PositionTable> open(const std::string &path);
    // The same for bytes in memory (the fuzz target and tests); the table keeps its own copy.
    static std::shared_ptr<const PositionTable> fromBytes(const unsigned char *data, std::size_t size,
                                                          const std::string &name);

    ~PositionTable();
    PositionTable(const PositionTable &) = delete;
    PositionTable &operator=(const PositionTable &) = delete;

    const std::string &path() const { return path_; }
    std::int64_t rows() const { return rows_; }
    int cols() const { return cols_; }
    double maxAbs() const { return maxAbs_; }
    // The power of two that brings maxAbs into [0.5, 1) (1 for a table of zeros): analyses multiply
    // the values by it, exactly, before squaring them, so 1e-300 does not underflow to 0. At most
    // 2^1023, the largest a double holds: a subnormal table comes up to 1e-16 or more, enough.
    double unitScale() const { return maxAbs_ > 0 ? std::ldexp(1.0, std::min(-std::ilogb(maxAbs_) - 1, 1023)) : 1.0; }
    // "float32, little endian, C order": for titles and tooltips.
    std::string description() const;

    double value(std::int64_t row, int col) const;
    // count values of one row, columns firstCol, firstCol + colStep, ... into out.
    void readRow(std::int64_t row, int firstCol, int colStep, int count, double *out) const;

  private:
    PositionTable() = default;
    void parse(const std::string &name);
    // Every value once: refuses NaN, infinity and magnitudes above kTableMaxMagnitude, finds maxAbs. With fd >= 0 the
    // values are read with pread into a small buffer, so the scan leaves no pages mapped (resident) in the process.
    void scan(const std::string &name, int fd = -1);

    std::string path_;
    const unsigned char *bytes_ = nullptr; // the whole file
    std::size_t size_ = 0;
    void *mapping_ = nullptr;             // owned when the file was mapped
    std::vector<unsigned char> copy_;     // the bytes of fromBytes
    const unsigned char *data_ = nullptr; // the array's first value
    std::int64_t rows_ = 0;
    int cols_ = 0;
    Type type_ = Type::Float64;
    bool bigEndian_ = false;
    bool fortran_ = false;
    int itemSize_ = 8;
    double maxAbs_ = 0;
};

// The parameters that show `table` from p: d_model its column count, the interleaved layout (its
// pairs are columns 2i, 2i+1) and, unless keepSeqLen, every row from p.startPos on (at most
// seq_len's limit, at least 1: a start past the end is the validator's to refuse). The command
// line, File > Open table and the tests all start a table here.
EncodingParams tableParams(EncodingParams p, std::shared_ptr<const PositionTable> table, bool keepSeqLen = false);

// "float16", "float32", "float64".
std::string_view typeName(PositionTable::Type t);

} // namespace pe
