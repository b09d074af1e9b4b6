#pragma once

#include "encodings/encoding_params.h"
#include "formats/tensor_file.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pe {

// A position table read from a file: a NumPy .npy array (format versions 1.0, 2.0 and 3.0; float16,
// float32 or float64, little or big endian, C or Fortran order), or one tensor of a safetensors or
// GGUF checkpoint (float16, bfloat16, float32, float64; tensor_file.h reads and validates the file's
// index). Rows are positions, columns are dimensions: a learned table such as GPT-2's wpe, or any
// encoding a researcher saved. T5's relative_attention_bias ([buckets, heads]) is read the same way.
//
// The file is memory-mapped, never read into memory whole: the operating system pages in what a
// view asks for. Opening does read the table's values once, through a small buffer (pread), to refuse
// NaN and infinity (naming the first such row and column) and to find the largest magnitude, the
// heatmap's colour range; that pass leaves nothing resident, and reads nothing of a checkpoint's
// other tensors.
//
// A checkpoint's tensor is named after a colon, FILE:TENSOR; without one, the one tensor whose name
// marks it as the position table (positionTableNames) is taken, and none or several is refused with
// the candidates and their shapes. Each model's convention is applied and stated (convention()):
//   - OPT, BART and RoBERTa keep two rows before position 0 (OPT's and BART's offset of 2,
//     RoBERTa's padding_idx + 1): a table named *embed_positions* or *position_embeddings* of
//     2^k + 2 rows is read from row 2;
//   - a ViT table, [1, N, D] (or [N, D] in a vision model), holds class tokens and then a square
//     grid of patches: N − 1 square (ViT, CLIP) or N − 2 (DeiT's distillation token) skips the
//     leading rows, N square skips none, and gridSide() is the grid's side;
//   - Whisper's encoder table (*encoder.embed_positions*) is its sinusoids() copied into the file:
//     the convention says how close the values are to that formula.
// Decision: a .npy file has no name and no convention beyond the ViT shape; it is read as saved.
// The largest magnitude a table may hold. Every analysis squares and sums values: a squared distance
// between two rows of d columns reaches 4 d M^2, which for d up to 16,384 and M = 1e150 is 6.6e304,
// still below the largest double (1.8e308). A larger value is refused at open, naming where it is.
inline constexpr double kTableMaxMagnitude = 1e150;

class PositionTable
{
  public:
    using Type = TensorType;
    // What the table is for: positions (the table scheme) or T5's bias (--bias-table), which
    // differ in the tensor names looked for and in the conventions applied.
    enum class Role { Positions, T5Bias };

    // Opens and checks FILE or FILE:TENSOR; throws std::runtime_error with one sentence naming what
    // is wrong.
    static std::shared_ptr<const PositionTable> open(const std::string &spec, Role role = Role::Positions);
    // The same for bytes in memory (the fuzz targets and tests); the table keeps its own copy.
    static std::shared_ptr<const PositionTable> fromBytes(const unsigned char *data, std::size_t size,
                                                          const std::string &name, const std::string &tensor = {},
                                                          Role role = Role::Positions);
    // Every tensor of the file (--list-tensors, the window's chooser); throws as open does.
    static TensorIndex index(const std::string &path);
    // The tensors of index whose names mark them as what role looks for.
    static std::vector<const TensorInfo *> candidates(const TensorIndex &index, Role role);

    ~PositionTable();
    PositionTable(const PositionTable &) = delete;
    PositionTable &operator=(const PositionTable &) = delete;

    // FILE, or FILE:TENSOR for a checkpoint's tensor (what sessions keep).
    const std::string &path() const { return path_; }
    const std::string &tensorName() const { return tensor_; }
    TensorFormat format() const { return format_; }
    std::int64_t rows() const { return rows_; }
    int cols() const { return cols_; }
    double maxAbs() const { return maxAbs_; }
    // The power of two that brings maxAbs into [0.5, 1) (1 for a table of zeros): analyses multiply
    // the values by it, exactly, before squaring them, so 1e-300 does not underflow to 0. At most
    // 2^1023, the largest a double holds: a subnormal table comes up to 1e-16 or more, enough.
    double unitScale() const { return maxAbs_ > 0 ? std::ldexp(1.0, std::min(-std::ilogb(maxAbs_) - 1, 1023)) : 1.0; }
    // "float32, little endian, C order" (.npy) or "safetensors, bfloat16": for titles and tooltips.
    std::string description() const;
    // The rows skipped before position 0, the grid of a ViT table (0: none), and the sentence that
    // says what was done ("rows 0 and 1 skipped: OPT's offset of 2"; "" when nothing was).
    std::int64_t skippedRows() const { return skipped_; }
    int gridSide() const { return gridSide_; }
    const std::string &convention() const { return convention_; }

    double value(std::int64_t row, int col) const;
    // count values of one row, columns firstCol, firstCol + colStep, ... into out.
    void readRow(std::int64_t row, int firstCol, int colStep, int count, double *out) const;

  private:
    PositionTable() = default;
    void parse(const std::string &name, const std::string &tensor, Role role);
    // Every value once: refuses NaN, infinity and magnitudes above kTableMaxMagnitude, finds maxAbs. With fd >= 0 the
    // values are read with pread into a small buffer, so the scan leaves no pages mapped (resident) in the process.
    void scan(const std::string &name, int fd = -1);

    std::string path_, tensor_;
    const unsigned char *bytes_ = nullptr; // the whole file
    std::size_t size_ = 0;
    void *mapping_ = nullptr;             // owned when the file was mapped
    std::vector<unsigned char> copy_;     // the bytes of fromBytes
    const unsigned char *data_ = nullptr; // the tensor's first value
    TensorFormat format_ = TensorFormat::Npy;
    std::int64_t storedRows_ = 0; // the tensor's rows, skipped ones included
    std::int64_t skipped_ = 0;
    std::int64_t rows_ = 0;
    int cols_ = 0;
    int gridSide_ = 0;
    std::string convention_;
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

} // namespace pe
