#include "encodings/position_table.h"

#include "encodings/encoding_params.h"
#include "formats/mapped_file.h"
#include "formats/npy_header.h"
#include "formats/quoted_name.h"
#include "support/parallel.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pe {

namespace {

using detail::dtypeWords;

const std::string kTableFormats = "a NumPy .npy, safetensors or GGUF file";
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

// bfloat16 is float32's upper half (its sign, exponent and 7 mantissa bits): exact in a double.
double bfloatToDouble(std::uint16_t h)
{
    const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

double load(const unsigned char *p, PositionTable::Type type, bool swap)
{
    switch (type) {
    case PositionTable::Type::Float16:
        return halfToDouble(loadSwapped<std::uint16_t>(p, swap));
    case PositionTable::Type::BFloat16:
        return bfloatToDouble(loadSwapped<std::uint16_t>(p, swap));
    case PositionTable::Type::Other:
        break;
    case PositionTable::Type::Float32:
        return loadSwapped<float>(p, swap);
    case PositionTable::Type::Float64:
        return loadSwapped<double>(p, swap);
    }
    return 0;
}

constexpr bool kHostBigEndian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

} // namespace

EncodingParams tableParams(EncodingParams p, std::shared_ptr<const PositionTable> table, bool keepSeqLen)
{
    p.scheme = SchemeId::Table;
    p.dModel = table->cols();
    p.layout = Layout::Interleaved;
    if (!keepSeqLen)
        p.seqLen = std::clamp<std::int64_t>(table->rows() - p.startPos, limits::minSeqLen, limits::maxSeqLen);
    p.table = std::move(table);
    p.model.reset(); // a table is not the config's scheme
    return p;
}

namespace {

// FILE:TENSOR split into the file and the tensor: the whole text when it names a file (a path may
// hold colons), else the longest part before a colon that does (a tensor's name may hold colons too:
// TensorFlow's "position_embeddings:0").
std::pair<std::string, std::string> splitSpec(const std::string &spec)
{
    struct stat st {
    };
    if (::stat(spec.c_str(), &st) == 0)
        return {spec, {}};
    for (auto colon = spec.rfind(':'); colon != std::string::npos && colon > 0; colon = spec.rfind(':', colon - 1)) {
        const std::string file = spec.substr(0, colon);
        if (::stat(file.c_str(), &st) == 0)
            return {file, spec.substr(colon + 1)};
    }
    return {spec, {}};
}

// "1 tensor", "3 tensors".
std::string count(std::int64_t n, const char *one, const char *many)
{
    return withThousands(n) + " " + (n == 1 ? one : many);
}

// Tensor names that mark a position table (the --table of a checkpoint without :TENSOR), matched as
// the whole name or its end after a dot: GPT-2's wpe, BERT/RoBERTa/ViT's
// embeddings.position_embeddings, CLIP/SigLIP's position_embedding, OPT/BART/Whisper's
// embed_positions, timm's pos_embed, llama.cpp's GGUF position_embd.
constexpr const char *kPositionNames[] = {"wpe.weight",
                                          "embeddings.position_embeddings.weight",
                                          "embeddings.position_embeddings",
                                          "embeddings.position_embedding.weight",
                                          "embed_positions.weight",
                                          "pos_embed",
                                          "position_embd.weight"};
// T5's relative_attention_bias (transformers, block 0 of the encoder and the decoder) and
// llama.cpp's GGUF names for it (enc.blk.0.attn_rel_b, dec.blk.0.attn_rel_b).
constexpr const char *kBiasNames[] = {"relative_attention_bias.weight", "attn_rel_b.weight"};

bool namedAs(const std::string &name, std::string_view pattern)
{
    if (name == pattern)
        return true;
    return name.size() > pattern.size() && name.compare(name.size() - pattern.size(), pattern.size(), pattern) == 0 &&
           name[name.size() - pattern.size() - 1] == '.';
}

std::string candidateList(const std::vector<const TensorInfo *> &list)
{
    std::string s;
    for (std::size_t i = 0; i < list.size(); ++i)
        s += (i ? "; " : "") + quotedName(list[i]->name) + " (" + shapeText(list[i]->shape) + ", " + list[i]->dtype +
             ")";
    return s;
}

bool isSquare(std::int64_t n, int *side)
{
    if (n <= 0)
        return false;
    const auto r = static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(n))));
    if (r * r != n)
        return false;
    *side = static_cast<int>(r);
    return true;
}

} // namespace

namespace {

// Whisper's encoder table (model.encoder.embed_positions.weight, 1,500 rows) is not learned: it is
// openai/whisper's sinusoids(length, channels) (whisper/model.py), [sin | cos] over the halves with
// inv_timescale_i = exp(-i·ln(10000)/(channels/2 - 1)), copied into the checkpoint. How close the
// file is to that formula, over every value, for the convention's sentence; "" for another table.
std::string whisperCloseness(const PositionTable &t)
{
    if (t.tensorName().find("encoder.embed_positions") == std::string::npos || t.cols() < 4 || t.cols() % 2 != 0)
        return {};
    const int half = t.cols() / 2;
    const double increment = std::log(10000.0) / (half - 1);
    double worst = 0;
    for (std::int64_t row = 0; row < t.rows(); ++row)
        for (int i = 0; i < half; ++i) {
            const double angle = static_cast<double>(row) * std::exp(-increment * i);
            worst = std::max({worst, std::abs(t.value(row, i) - std::sin(angle)),
                              std::abs(t.value(row, half + i) - std::cos(angle))});
        }
    char text[200];
    if (worst < 1e-3)
        std::snprintf(text, sizeof text,
                      "Whisper's encoder table: its sinusoids ([sin | cos], base 10000 over %d - 1 steps), at most "
                      "%.2g from the formula",
                      half, worst);
    else
        std::snprintf(text, sizeof text, "not Whisper's sinusoids: up to %.3g from them", worst);
    return text;
}

} // namespace

std::shared_ptr<const PositionTable> PositionTable::open(const std::string &spec, Role role)
{
    if (spec.empty())
        throw std::runtime_error("the table file name is empty");
    const auto [path, tensor] = splitSpec(spec);
    const std::string name = "'" + path + "'";
    MappedFile file;
    file.open(path, name, kTableFormats);
    std::shared_ptr<PositionTable> t(new PositionTable);
    t->path_ = path;
    t->size_ = file.size;
    t->bytes_ = static_cast<const unsigned char *>(file.mapping);
    t->parse(name, tensor, role);
    t->scan(name, file.fd);
    t->mapping_ = file.mapping; // the table owns the mapping from here
    file.mapping = nullptr;
    if (t->convention_.empty())
        t->convention_ = whisperCloseness(*t);
    return t;
}

std::shared_ptr<const PositionTable> PositionTable::fromBytes(const unsigned char *data, std::size_t size,
                                                              const std::string &name, const std::string &tensor,
                                                              Role role)
{
    std::shared_ptr<PositionTable> t(new PositionTable);
    t->path_ = name;
    t->copy_.assign(data, data + size);
    t->bytes_ = t->copy_.data();
    t->size_ = size;
    t->parse("'" + name + "'", tensor, role);
    t->scan("'" + name + "'");
    if (t->convention_.empty())
        t->convention_ = whisperCloseness(*t);
    return t;
}

TensorIndex PositionTable::index(const std::string &path)
{
    if (path.empty())
        throw std::runtime_error("the file name is empty");
    MappedFile file;
    file.open(path, "'" + path + "'", kTableFormats);
    return readTensorIndex(static_cast<const unsigned char *>(file.mapping), file.size, "'" + path + "'");
}

std::vector<const TensorInfo *> PositionTable::candidates(const TensorIndex &index, Role role)
{
    std::vector<const TensorInfo *> out;
    for (const auto &t : index.tensors) {
        bool match = false;
        if (role == Role::Positions)
            for (const char *pattern : kPositionNames)
                match = match || namedAs(t.name, pattern);
        else
            for (const char *pattern : kBiasNames)
                match = match || namedAs(t.name, pattern);
        if (match)
            out.push_back(&t);
    }
    return out;
}

PositionTable::~PositionTable()
{
    if (mapping_)
        ::munmap(mapping_, size_);
}

void PositionTable::parse(const std::string &name, const std::string &tensor, Role role)
{
    const TensorIndex index = readTensorIndex(bytes_, size_, name);
    format_ = index.format;
    const TensorInfo *chosen = nullptr;
    const char *what = role == Role::Positions ? "position table" : "T5 bias table";
    if (index.format == TensorFormat::Npy) {
        if (!tensor.empty())
            refuse(name, "a .npy file holds one array; give it without ':" + tensor + "'");
        chosen = &index.tensors.front();
    } else if (!tensor.empty()) {
        for (const auto &t : index.tensors)
            if (t.name == tensor)
                chosen = &t;
        if (!chosen) {
            // "wpe.weight" for "transformer.wpe.weight": the names that end so.
            std::string near;
            for (const auto &t : index.tensors)
                if (namedAs(t.name, tensor))
                    near += (near.empty() ? "" : ", ") + quotedName(t.name);
            refuse(name, "it has no tensor named " + quotedName(tensor) +
                             (near.empty() ? std::string() : "; did you mean " + near + "?") +
                             " (--list-tensors lists its " +
                             count(static_cast<std::int64_t>(index.tensors.size()), "tensor", "tensors") + ")");
        }
        tensor_ = tensor;
    } else {
        const auto found = candidates(index, role);
        if (found.size() != 1)
            refuse(name, found.empty()
                             ? std::string("none of its ") +
                                   count(static_cast<std::int64_t>(index.tensors.size()), "tensor", "tensors") +
                                   " is named as a " + what + "; name one as FILE:TENSOR (--list-tensors lists them)"
                             : std::string("several tensors are named as a ") + what + ": " + candidateList(found) +
                                   "; name one as FILE:TENSOR");
        chosen = found.front();
        tensor_ = chosen->name;
    }
    if (!tensor_.empty())
        path_ += ":" + tensor_;
    const std::string where = tensor_.empty() ? std::string() : "tensor " + quotedName(tensor_) + ": ";
    const TensorInfo &t = *chosen;

    if (t.type == Type::Other)
        refuse(name, where +
                         (index.format == TensorFormat::Npy ? "its values are " + dtypeWords(t.dtype)
                                                            : "its values are " + t.dtype) +
                         "; a " + what + " must be float16, bfloat16, float32 or float64");
    type_ = t.type;
    itemSize_ = elementSize(t.type);
    bigEndian_ = t.bigEndian;
    fortran_ = t.fortran;

    // The shape, and each model's convention (see the header).
    std::vector<std::int64_t> shape = t.shape;
    const bool vision = tensor_.find("vision") != std::string::npos || tensor_.find("pos_embed") != std::string::npos;
    bool viT = false;
    if (role == Role::Positions && shape.size() == 3 && shape[0] == 1) {
        shape.erase(shape.begin());
        viT = true;
    } else if (role == Role::Positions && shape.size() == 2 && vision) {
        viT = true;
    }
    if (shape.size() != 2)
        refuse(name, where + "the array has " + std::to_string(shape.size()) +
                         (shape.size() == 1 ? " dimension" : " dimensions") +
                         (shape.empty() ? "" : " (" + shapeText(shape) + ")") + "; a " + what +
                         (role == Role::Positions ? " must be 2-D, positions x dimensions (or a ViT's 1 x patches x "
                                                    "dimensions)"
                                                  : " must be 2-D, buckets x heads"));
    if (shape[0] == 0 || shape[1] == 0)
        refuse(name, where + "the table is empty (" + shapeText(shape) + ")");
    const int maxCols = role == Role::Positions ? limits::maxTableColumns : limits::maxDModel;
    if (shape[1] > maxCols)
        refuse(name, where + "the table has " + withThousands(shape[1]) + " columns; " +
                         (role == Role::Positions ? "a table can have at most " : "T5 can have at most ") +
                         withThousands(maxCols) + (role == Role::Positions ? "" : " heads"));
    storedRows_ = shape[0];
    cols_ = static_cast<int>(shape[1]);
    int side = 0;
    if (viT) {
        for (int prefix = 0; prefix <= 2 && !gridSide_; ++prefix)
            if (storedRows_ - prefix > 1 && isSquare(storedRows_ - prefix, &side)) {
                skipped_ = prefix;
                gridSide_ = side;
            }
        if (!gridSide_ && t.shape.size() == 3)
            refuse(name, where + "a ViT table's " + count(storedRows_, "row is", "rows are") +
                             " not a square grid of patches after 0, 1 or 2 class tokens");
        if (gridSide_)
            convention_ = (skipped_ == 0   ? std::string("no class token")
                           : skipped_ == 1 ? std::string("row 0 (the class token) skipped")
                                           : std::string("rows 0 and 1 (class and distillation tokens) skipped")) +
                          "; patches on a " + std::to_string(gridSide_) + " x " + std::to_string(gridSide_) +
                          " grid (ViT)";
    } else if (role == Role::Positions && (tensor_.find("embed_positions") != std::string::npos ||
                                           tensor_.find("position_embeddings") != std::string::npos)) {
        const std::int64_t n = storedRows_ - 2;
        if (n >= 2 && (n & (n - 1)) == 0) {
            skipped_ = 2;
            convention_ = "rows 0 and 1 skipped, position p in row p + 2 (OPT's and BART's offset of 2, "
                          "RoBERTa's padding)";
        }
    }
    rows_ = storedRows_ - skipped_;
    if (rows_ > limits::maxPositionEnd)
        refuse(name, where + "the table has " + withThousands(rows_) + " rows; positions go up to " +
                         withThousands(limits::maxPositionEnd));
    // C order starts at the first row read; Fortran order (a .npy) skips within each column (value()).
    data_ = bytes_ + t.offset + (fortran_ ? 0 : skipped_ * cols_ * itemSize_);
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

struct Bfloat16; // a tag: scanValues<Bfloat16> reads bfloat16

template <typename T>
void scanValues(const unsigned char *p, std::int64_t n, bool swap, std::int64_t first, std::int64_t rows,
                std::int64_t cols, bool fortran, ScanResult &out)
{
    double m = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        double v;
        if constexpr (std::is_same_v<T, std::uint16_t>)
            v = halfToDouble(loadSwapped<std::uint16_t>(p + i * 2, swap));
        else if constexpr (std::is_same_v<T, Bfloat16>)
            v = bfloatToDouble(loadSwapped<std::uint16_t>(p + i * 2, swap));
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
    // C order: the rows read, from data_; Fortran order: the whole tensor (rows counted as stored).
    const std::int64_t scanRows = fortran_ ? storedRows_ : rows_;
    const std::int64_t n = scanRows * cols_;
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
                            scanValues<std::uint16_t>(p, count, swap, first, scanRows, cols_, fortran_, mine);
                            break;
                        case Type::BFloat16:
                            scanValues<Bfloat16>(p, count, swap, first, scanRows, cols_, fortran_, mine);
                            break;
                        case Type::Float32:
                            scanValues<float>(p, count, swap, first, scanRows, cols_, fortran_, mine);
                            break;
                        case Type::Float64:
                            scanValues<double>(p, count, swap, first, scanRows, cols_, fortran_, mine);
                            break;
                        case Type::Other:
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
        // The position and, when rows before position 0 were skipped, the tensor's own row.
        const std::int64_t row = fortran_ ? all.badRow - skipped_ : all.badRow;
        const std::string where =
            skipped_ > 0
                ? " at position " + withThousands(row) + " (row " + withThousands(row + skipped_) +
                      " of the tensor), column " + withThousands(all.badCol) + " (counted from 0)"
                : " at row " + withThousands(row) + ", column " + withThousands(all.badCol) + " (counted from 0)";
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
    if (format_ != TensorFormat::Npy)
        return formatName(format_) + ", " + typeName(type_);
    return typeName(type_) + (bigEndian_ ? ", big endian" : ", little endian") +
           (fortran_ ? ", Fortran order" : ", C order");
}

double PositionTable::value(std::int64_t row, int col) const
{
    const std::int64_t i = fortran_ ? static_cast<std::int64_t>(col) * storedRows_ + skipped_ + row : row * cols_ + col;
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
        case Type::BFloat16:
            for (int k = 0; k < count; ++k) {
                std::uint16_t h;
                std::memcpy(&h, p + 2 * k, 2);
                out[k] = bfloatToDouble(h);
            }
            return;
        case Type::Float16:
        case Type::Other:
            break;
        }
    }
    for (int k = 0; k < count; ++k)
        out[k] = value(row, firstCol + k * colStep);
}

} // namespace pe
