#include "formats/tensor_file.h"

#include "formats/json_text.h"
#include "formats/npy_header.h"
#include "formats/quoted_name.h"
#include "support/text.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <set>
#include <stdexcept>

namespace pe {

namespace {

using detail::refuse;

constexpr bool kHostBigEndian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

std::string bytesText(std::uint64_t n)
{
    return withThousands(
        static_cast<std::int64_t>(std::min<std::uint64_t>(n, std::numeric_limits<std::int64_t>::max())));
}

// n elements of `bits` bits each, in bytes; nullopt when the product overflows 64 bits.
std::optional<std::uint64_t> byteCount(const std::vector<std::int64_t> &shape, std::uint64_t bits)
{
    std::uint64_t n = 1;
    for (std::int64_t d : shape) {
        if (d < 0 || (d > 0 && n > std::numeric_limits<std::uint64_t>::max() / static_cast<std::uint64_t>(d)))
            return std::nullopt;
        n *= static_cast<std::uint64_t>(d);
    }
    if (bits > 0 && n > (std::numeric_limits<std::uint64_t>::max() - 7) / bits)
        return std::nullopt;
    return (n * bits + 7) / 8;
}

// ---- NumPy .npy (format 1.0, 2.0, 3.0; numpy/lib/format.py) -------------------------------------

// numpy writes headers of a few hundred bytes; its own loader refuses more than 10,000 by default.
constexpr std::size_t kMaxNpyHeaderLength = 65536;

TensorIndex readNpy(const unsigned char *bytes, std::size_t size, const std::string &name)
{
    if (size < 10)
        refuse(name, "truncated: the file ends inside the .npy preamble");
    const int major = bytes[6];
    std::size_t headerStart, headerLength;
    if (major == 1) {
        headerStart = 10;
        headerLength = bytes[8] | static_cast<std::size_t>(bytes[9]) << 8;
    } else if (major == 2 || major == 3) {
        if (size < 12)
            refuse(name, "truncated: the file ends inside the .npy preamble");
        headerStart = 12;
        headerLength = bytes[8] | static_cast<std::size_t>(bytes[9]) << 8 | static_cast<std::size_t>(bytes[10]) << 16 |
                       static_cast<std::size_t>(bytes[11]) << 24;
    } else {
        refuse(name, ".npy format version " + std::to_string(major) + " is not one this program reads (1, 2 or 3)");
    }
    if (headerLength > kMaxNpyHeaderLength)
        refuse(name, "its header claims " + bytesText(headerLength) + " bytes, not a plausible .npy header (at most " +
                         bytesText(kMaxNpyHeaderLength) + ")");
    if (headerStart + headerLength > size)
        refuse(name, "truncated: the header is " + bytesText(headerLength) + " bytes but the file ends after " +
                         bytesText(size - headerStart));
    TensorInfo t;
    detail::parseHeader(std::string_view(reinterpret_cast<const char *>(bytes) + headerStart, headerLength), name,
                        t.dtype, t.fortran, t.shape);
    // The type: a byte-order mark and f2, f4 or f8.
    const char order = t.dtype.empty() ? '\0' : t.dtype[0];
    const std::string kind = t.dtype.size() > 1 ? t.dtype.substr(1) : std::string();
    if ((order == '<' || order == '>' || order == '=' || order == '|') &&
        (kind == "f2" || kind == "f4" || kind == "f8"))
        t.type = kind == "f2" ? TensorType::Float16 : kind == "f4" ? TensorType::Float32 : TensorType::Float64;
    t.bigEndian = order == '>' || (order == '=' && kHostBigEndian);
    t.offset = headerStart + headerLength;
    if (t.type != TensorType::Other) {
        const auto need = byteCount(t.shape, 8 * static_cast<std::uint64_t>(elementSize(t.type)));
        const std::uint64_t have = size - t.offset;
        if (!need || *need != have)
            refuse(name, "its shape " + shapeText(t.shape) + " of " + typeName(t.type) + " needs " +
                             (need ? bytesText(*need) : std::string("more than 2^64")) +
                             " bytes of values but the file holds " + bytesText(have) +
                             (!need || *need > have ? " (truncated)" : ""));
        t.bytes = *need;
    }
    TensorIndex index;
    index.format = TensorFormat::Npy;
    index.tensors.push_back(std::move(t));
    return index;
}

// ---- safetensors ------------------------------------------------------------------------------
// As huggingface/safetensors' reference reader validates a file (safetensors/src/tensor.rs,
// SafeTensors::read_metadata and Metadata::validate; read, not copied): an 8-byte little-endian
// header length of at most 100,000,000; a UTF-8 JSON object starting with '{'; tensors whose
// data_offsets, sorted, run contiguously from 0 and cover the byte buffer exactly, each as long as
// its shape and dtype make it (without overflow). The optional "__metadata__" is a map of strings.

constexpr std::uint64_t kMaxSafetensorsHeader = 100'000'000;

struct SafetensorsDtype {
    const char *name;
    int bits;
    TensorType type;
};

// The dtypes of safetensors' Dtype enum (tensor.rs), with their sizes.
constexpr SafetensorsDtype kSafetensorsDtypes[] = {
    {"BOOL", 8, TensorType::Other},     {"F4", 4, TensorType::Other},      {"F6_E2M3", 6, TensorType::Other},
    {"F6_E3M2", 6, TensorType::Other},  {"U8", 8, TensorType::Other},      {"I8", 8, TensorType::Other},
    {"F8_E5M2", 8, TensorType::Other},  {"F8_E4M3", 8, TensorType::Other}, {"F8_E8M0", 8, TensorType::Other},
    {"I16", 16, TensorType::Other},     {"U16", 16, TensorType::Other},    {"F16", 16, TensorType::Float16},
    {"BF16", 16, TensorType::BFloat16}, {"I32", 32, TensorType::Other},    {"U32", 32, TensorType::Other},
    {"F32", 32, TensorType::Float32},   {"C64", 64, TensorType::Other},    {"F64", 64, TensorType::Float64},
    {"I64", 64, TensorType::Other},     {"U64", 64, TensorType::Other},
};

bool validUtf8(std::string_view s)
{
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
        if (extra < 0 || i + static_cast<std::size_t>(extra) >= s.size())
            return false;
        for (int k = 1; k <= extra; ++k)
            if ((static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) >> 6) != 2)
                return false;
        i += static_cast<std::size_t>(extra) + 1;
    }
    return true;
}

TensorIndex readSafetensors(const unsigned char *bytes, std::size_t size, const std::string &name)
{
    if (size < 8)
        refuse(name, "truncated: a safetensors file starts with an 8-byte header length and this file has " +
                         bytesText(size) + " bytes");
    std::uint64_t n = 0;
    for (int k = 7; k >= 0; --k)
        n = n << 8 | bytes[k];
    if (n > kMaxSafetensorsHeader)
        refuse(name, "its safetensors header claims " + bytesText(n) + " bytes, more than the format's limit of " +
                         bytesText(kMaxSafetensorsHeader));
    if (n > size - 8)
        refuse(name, "truncated: the safetensors header is " + bytesText(n) + " bytes but only " + bytesText(size - 8) +
                         " follow the length");
    const std::string_view text(reinterpret_cast<const char *>(bytes) + 8, static_cast<std::size_t>(n));
    if (text.empty() || text[0] != '{')
        refuse(name, "the safetensors header does not start with '{'");
    if (!validUtf8(text))
        refuse(name, "the safetensors header is not valid UTF-8");
    std::string error;
    const auto header = parseJson(text, &error);
    if (!header)
        refuse(name, "the safetensors header is not valid JSON (" + error + ")");
    TensorIndex index;
    index.format = TensorFormat::Safetensors;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> offsets;
    const std::uint64_t bufferStart = 8 + n;
    for (std::size_t m = 0; m < header->keys.size(); ++m) {
        const std::string &key = header->keys[m];
        const JsonValue &entry = header->values[m];
        if (key == "__metadata__") {
            if (!entry.isObject())
                refuse(name, "the safetensors header's __metadata__ is " + std::string(kindName(entry.kind)) +
                                 ", not a map of strings");
            for (std::size_t k = 0; k < entry.keys.size(); ++k)
                if (!entry.values[k].isString())
                    refuse(name, "the safetensors header's __metadata__ value of " + quotedName(entry.keys[k]) +
                                     " is not a string");
            continue;
        }
        const std::string where = "tensor " + quotedName(key);
        if (!entry.isObject())
            refuse(name, where + " is described by " + std::string(kindName(entry.kind)) + ", not an object");
        const JsonValue *dtype = entry.find("dtype"), *shape = entry.find("shape"), *range = entry.find("data_offsets");
        if (!dtype || !shape || !range)
            refuse(name, where + " lacks " + (!dtype ? "\"dtype\"" : !shape ? "\"shape\"" : "\"data_offsets\""));
        if (!dtype->isString())
            refuse(name, where + ": its dtype is not a string");
        const SafetensorsDtype *known = nullptr;
        for (const auto &d : kSafetensorsDtypes)
            if (dtype->text == d.name)
                known = &d;
        if (!known)
            refuse(name, where + ": " + quotedName(dtype->text) + " is not a safetensors dtype");
        TensorInfo t;
        t.name = key;
        t.dtype = dtype->text;
        t.type = known->type;
        if (!shape->isArray())
            refuse(name, where + ": its shape is not a list");
        for (const auto &d : shape->items) {
            const auto v = d.unsignedInteger();
            if (!v)
                refuse(name, where + ": its shape holds " + (d.isNumber() ? d.text : std::string(kindName(d.kind))) +
                                 ", not a whole number of at least 0");
            t.shape.push_back(static_cast<std::int64_t>(*v));
        }
        if (!range->isArray() || range->items.size() != 2 || !range->items[0].unsignedInteger() ||
            !range->items[1].unsignedInteger())
            refuse(name, where + ": its data_offsets are not two whole numbers [begin, end] below 2^63");
        const std::uint64_t begin = *range->items[0].unsignedInteger(), end = *range->items[1].unsignedInteger();
        if (end < begin)
            refuse(name, where + ": its data_offsets end (" + bytesText(end) + ") before they begin (" +
                             bytesText(begin) + ")");
        const auto need = byteCount(t.shape, static_cast<std::uint64_t>(known->bits));
        if (!need)
            refuse(name, where + ": its shape " + shapeText(t.shape) + " overflows 64 bits of bytes");
        if (end - begin != *need)
            refuse(name, where + ": its shape " + shapeText(t.shape) + " of " + t.dtype + " needs " + bytesText(*need) +
                             " bytes but its data_offsets span " + bytesText(end - begin));
        t.offset = bufferStart + begin;
        t.bytes = *need;
        offsets.emplace_back(begin, end);
        index.tensors.push_back(std::move(t));
    }
    std::sort(offsets.begin(), offsets.end());
    std::uint64_t at = 0;
    for (const auto &[begin, end] : offsets) {
        if (begin != at)
            refuse(name, begin > at ? "the tensors leave a gap at bytes " + bytesText(at) + " to " + bytesText(begin) +
                                          " of the data (safetensors' tensors cover it contiguously)"
                                    : "two tensors overlap at byte " + bytesText(begin) + " of the data");
        at = end;
    }
    if (at != size - bufferStart)
        refuse(name, "the tensors cover " + bytesText(at) + " bytes of data but the file holds " +
                         bytesText(size - bufferStart) + (at > size - bufferStart ? " (truncated)" : ""));
    return index;
}

// ---- GGUF -------------------------------------------------------------------------------------
// As ggml's specification (ggml/docs/gguf.md) lays a file out and its reader (ggml/src/gguf.cpp;
// read, not copied) checks it: "GGUF", version 2 or 3 (little endian), the tensor and metadata
// counts, the key-value pairs, the tensor infos (dimensions innermost first, at most 4), padding to
// general.alignment (32 unless given; a power of two), then the data, each tensor at an aligned
// offset from the data's start. Duplicate keys and tensor names are refused, as ggml refuses them.

struct GgmlType {
    int id;
    const char *name;
    int size; // bytes an element; 0 for block-quantized types
    TensorType type;
};

// ggml.h's enum ggml_type (the ids are the file's).
constexpr GgmlType kGgmlTypes[] = {
    {0, "F32", 4, TensorType::Float32},   {1, "F16", 2, TensorType::Float16},    {2, "Q4_0", 0, TensorType::Other},
    {3, "Q4_1", 0, TensorType::Other},    {6, "Q5_0", 0, TensorType::Other},     {7, "Q5_1", 0, TensorType::Other},
    {8, "Q8_0", 0, TensorType::Other},    {9, "Q8_1", 0, TensorType::Other},     {10, "Q2_K", 0, TensorType::Other},
    {11, "Q3_K", 0, TensorType::Other},   {12, "Q4_K", 0, TensorType::Other},    {13, "Q5_K", 0, TensorType::Other},
    {14, "Q6_K", 0, TensorType::Other},   {15, "Q8_K", 0, TensorType::Other},    {16, "IQ2_XXS", 0, TensorType::Other},
    {17, "IQ2_XS", 0, TensorType::Other}, {18, "IQ3_XXS", 0, TensorType::Other}, {19, "IQ1_S", 0, TensorType::Other},
    {20, "IQ4_NL", 0, TensorType::Other}, {21, "IQ3_S", 0, TensorType::Other},   {22, "IQ2_S", 0, TensorType::Other},
    {23, "IQ4_XS", 0, TensorType::Other}, {24, "I8", 1, TensorType::Other},      {25, "I16", 2, TensorType::Other},
    {26, "I32", 4, TensorType::Other},    {27, "I64", 8, TensorType::Other},     {28, "F64", 8, TensorType::Float64},
    {29, "IQ1_M", 0, TensorType::Other},  {30, "BF16", 2, TensorType::BFloat16}, {34, "TQ1_0", 0, TensorType::Other},
    {35, "TQ2_0", 0, TensorType::Other},  {39, "MXFP4", 0, TensorType::Other},
};

class GgufReader
{
  public:
    GgufReader(const unsigned char *bytes, std::size_t size, const std::string &name)
        : b_(bytes)
        , size_(size)
        , name_(name)
    {
    }

    TensorIndex read()
    {
        TensorIndex index;
        index.format = TensorFormat::Gguf;
        at_ = 4;
        const std::uint32_t version = u32("the version");
        if (version != 2 && version != 3) {
            if ((version & 0xffff) == 0 && version != 0)
                refuse(name_, "a big-endian GGUF file; this program reads little-endian GGUF files");
            refuse(name_, "GGUF version " + std::to_string(version) + " is not one this program reads (2 or 3)");
        }
        const std::uint64_t tensors = u64("the tensor count"), pairs = u64("the metadata count");
        // Each pair and each tensor info takes at least 12 and 24 bytes: a larger count is a lie.
        if (pairs > (size_ - at_) / 12 || tensors > (size_ - at_) / 24)
            refuse(name_, "truncated: it claims " + bytesText(tensors) +
                              (tensors == 1 ? " tensor and " : " tensors and ") + bytesText(pairs) +
                              (pairs == 1 ? " metadata pair in " : " metadata pairs in ") + bytesText(size_) +
                              " bytes");
        std::set<std::string> keys;
        std::uint64_t alignment = 32;
        for (std::uint64_t k = 0; k < pairs; ++k) {
            std::string key = string("a metadata key");
            if (!keys.insert(key).second)
                refuse(name_, "the metadata key " + quotedName(key) + " appears twice");
            const std::uint32_t type = u32("the type of " + quotedName(key));
            GgufValue v = value(type, key, 0);
            if (key == "general.alignment") {
                if (type != 4 || v.number <= 0 ||
                    (static_cast<std::uint64_t>(v.number) & (static_cast<std::uint64_t>(v.number) - 1)))
                    refuse(name_, "general.alignment must be a power of two stored as uint32");
                alignment = static_cast<std::uint64_t>(v.number);
            }
            index.metadata.emplace_back(std::move(key), std::move(v));
        }
        std::set<std::string> names;
        for (std::uint64_t k = 0; k < tensors; ++k) {
            TensorInfo t;
            t.name = string("a tensor name");
            if (!names.insert(t.name).second)
                refuse(name_, "the tensor name " + quotedName(t.name) + " appears twice");
            const std::string where = "tensor " + quotedName(t.name);
            const std::uint32_t dims = u32("the dimensions of " + where);
            if (dims == 0 || dims > 4)
                refuse(name_, where + " has " + std::to_string(dims) + " dimensions; GGUF allows 1 to 4");
            std::vector<std::int64_t> ne;
            for (std::uint32_t d = 0; d < dims; ++d) {
                const std::uint64_t n = u64("the shape of " + where);
                if (n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                    refuse(name_, where + " has a dimension of " + bytesText(n));
                ne.push_back(static_cast<std::int64_t>(n));
            }
            t.shape.assign(ne.rbegin(), ne.rend()); // innermost first in the file, outermost first here
            const std::uint32_t type = u32("the type of " + where);
            const GgmlType *known = nullptr;
            for (const auto &g : kGgmlTypes)
                if (static_cast<std::uint32_t>(g.id) == type)
                    known = &g;
            t.dtype = known ? known->name : "ggml type " + std::to_string(type);
            t.type = known ? known->type : TensorType::Other;
            t.offset = u64("the offset of " + where);
            if (t.offset % alignment)
                refuse(name_, where + " starts at byte " + bytesText(t.offset) +
                                  " of the data, not a multiple of the alignment " + bytesText(alignment));
            if (known && known->size > 0) {
                const auto need = byteCount(t.shape, 8 * static_cast<std::uint64_t>(known->size));
                if (!need)
                    refuse(name_, where + ": its shape " + shapeText(t.shape) + " overflows 64 bits of bytes");
                t.bytes = *need;
            }
            index.tensors.push_back(std::move(t));
        }
        const std::uint64_t dataStart = (at_ + alignment - 1) / alignment * alignment;
        for (auto &t : index.tensors) {
            if (t.offset > size_ || dataStart > size_ - t.offset || t.bytes > size_ - t.offset - dataStart)
                refuse(name_, "truncated: tensor " + quotedName(t.name) + " runs past the end of the file (" +
                                  bytesText(size_) + " bytes)");
            t.offset += dataStart;
        }
        // No two tensors share bytes (ggml's reader lays them out one after another).
        std::vector<const TensorInfo *> byOffset;
        for (const auto &t : index.tensors)
            byOffset.push_back(&t);
        std::sort(byOffset.begin(), byOffset.end(),
                  [](const TensorInfo *a, const TensorInfo *b) { return a->offset < b->offset; });
        for (std::size_t k = 1; k < byOffset.size(); ++k)
            if (byOffset[k]->offset < byOffset[k - 1]->offset + std::max<std::uint64_t>(byOffset[k - 1]->bytes, 1))
                refuse(name_, "tensors " + quotedName(byOffset[k - 1]->name) + " and " + quotedName(byOffset[k]->name) +
                                  " overlap in the data");
        return index;
    }

  private:
    void need(std::uint64_t n, const std::string &what)
    {
        if (n > size_ - at_)
            refuse(name_, "truncated: the file ends inside " + what);
    }
    std::uint64_t le(int n, const std::string &what)
    {
        need(static_cast<std::uint64_t>(n), what);
        std::uint64_t v = 0;
        for (int k = n - 1; k >= 0; --k)
            v = v << 8 | b_[at_ + static_cast<std::size_t>(k)];
        at_ += static_cast<std::size_t>(n);
        return v;
    }
    std::uint32_t u32(const std::string &what) { return static_cast<std::uint32_t>(le(4, what)); }
    std::uint64_t u64(const std::string &what) { return le(8, what); }
    std::string string(const std::string &what)
    {
        const std::uint64_t n = u64(what);
        need(n, what);
        std::string s(reinterpret_cast<const char *>(b_) + at_, static_cast<std::size_t>(n));
        at_ += static_cast<std::size_t>(n);
        return s;
    }
    double scalar(std::uint32_t type, const std::string &what)
    {
        switch (type) {
        case 0: // uint8
            return static_cast<double>(le(1, what));
        case 1: // int8
            return static_cast<std::int8_t>(le(1, what));
        case 2: // uint16
            return static_cast<double>(le(2, what));
        case 3: // int16
            return static_cast<std::int16_t>(le(2, what));
        case 4: // uint32
            return static_cast<double>(le(4, what));
        case 5: // int32
            return static_cast<std::int32_t>(le(4, what));
        case 6: { // float32
            const auto bits = static_cast<std::uint32_t>(le(4, what));
            float f;
            std::memcpy(&f, &bits, 4);
            return f;
        }
        case 7: { // bool
            const auto v = le(1, what);
            if (v > 1)
                refuse(name_, what + " is a bool holding " + std::to_string(v));
            return static_cast<double>(v);
        }
        case 10: // uint64
            return static_cast<double>(le(8, what));
        case 11: // int64
            return static_cast<double>(static_cast<std::int64_t>(le(8, what)));
        case 12: { // float64
            const std::uint64_t bits = le(8, what);
            double d;
            std::memcpy(&d, &bits, 8);
            return d;
        }
        }
        refuse(name_, what + " has the unknown value type " + std::to_string(type));
    }
    GgufValue value(std::uint32_t type, const std::string &key, int depth)
    {
        GgufValue v;
        const std::string what = "the value of " + quotedName(key);
        if (type == 8) {
            v.kind = GgufValue::Kind::String;
            v.text = string(what);
        } else if (type == 9) {
            if (depth > 8)
                refuse(name_, what + " nests arrays deeper than 8");
            v.kind = GgufValue::Kind::Array;
            const std::uint32_t element = u32(what);
            v.count = u64(what);
            if (v.count > size_ - at_) // every element takes at least a byte
                refuse(name_, "truncated: the file ends inside " + what);
            for (std::uint64_t k = 0; k < v.count; ++k) {
                if (element == 8 || element == 9) {
                    value(element, key, depth + 1); // strings and nested arrays are counted, not kept
                } else {
                    v.numbers.push_back(scalar(element, what));
                }
            }
        } else {
            v.kind = type == 7 ? GgufValue::Kind::Bool : GgufValue::Kind::Number;
            v.number = scalar(type, what);
        }
        return v;
    }

    const unsigned char *b_;
    std::size_t size_;
    const std::string &name_;
    std::size_t at_ = 0;
};

} // namespace

const GgufValue *TensorIndex::find(const std::string &key) const
{
    for (const auto &[k, v] : metadata)
        if (k == key)
            return &v;
    return nullptr;
}

int elementSize(TensorType type)
{
    switch (type) {
    case TensorType::Float16:
    case TensorType::BFloat16:
        return 2;
    case TensorType::Float32:
        return 4;
    case TensorType::Float64:
        return 8;
    case TensorType::Other:
        break;
    }
    return 0;
}

std::string typeName(TensorType type)
{
    switch (type) {
    case TensorType::Float16:
        return "float16";
    case TensorType::BFloat16:
        return "bfloat16";
    case TensorType::Float32:
        return "float32";
    case TensorType::Float64:
        return "float64";
    case TensorType::Other:
        break;
    }
    return "other";
}

std::string shapeText(const std::vector<std::int64_t> &shape)
{
    if (shape.empty())
        return "a scalar";
    std::string s;
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? " x " : "") + withThousands(shape[i]);
    return s;
}

std::string formatName(TensorFormat format)
{
    switch (format) {
    case TensorFormat::Npy:
        return "NumPy .npy";
    case TensorFormat::Safetensors:
        return "safetensors";
    case TensorFormat::Gguf:
        return "GGUF";
    }
    return "";
}

TensorFormat detectTensorFormat(const unsigned char *bytes, std::size_t size, const std::string &name)
{
    static const unsigned char kNpy[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
    if (size == 0)
        refuse(name, "the file is empty, not a NumPy .npy, safetensors or GGUF file");
    if (size >= 6 && std::memcmp(bytes, kNpy, 6) == 0)
        return TensorFormat::Npy;
    if (size >= 4 && std::memcmp(bytes, "GGUF", 4) == 0)
        return TensorFormat::Gguf;
    // safetensors has no magic: its header's '{', or the file's name (whose header the reader then refuses).
    if ((size >= 9 && bytes[8] == '{') ||
        (name.size() > 13 && name.compare(name.size() - 13, 13, ".safetensors'") == 0))
        return TensorFormat::Safetensors;
    refuse(name, "not a NumPy .npy, safetensors or GGUF file (it starts with neither \\x93NUMPY nor GGUF, nor with "
                 "a safetensors header length and '{')");
}

TensorIndex readTensorIndex(const unsigned char *bytes, std::size_t size, const std::string &name)
{
    switch (detectTensorFormat(bytes, size, name)) {
    case TensorFormat::Npy:
        return readNpy(bytes, size, name);
    case TensorFormat::Safetensors:
        return readSafetensors(bytes, size, name);
    case TensorFormat::Gguf:
        return GgufReader(bytes, size, name).read();
    }
    return {};
}

} // namespace pe
