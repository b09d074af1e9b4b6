#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

// The tensors a file holds, as an index (names, types, shapes, where the bytes are), read from the
// file's bytes without copying them: NumPy .npy (one array), safetensors and GGUF checkpoints.
// Every reader refuses a malformed file by throwing std::runtime_error("'name': why"), one line.
namespace pe {

enum class TensorFormat { Npy, Safetensors, Gguf };

// The element types a position table may hold; Other is anything else (integers, quantized blocks),
// listed but refused when chosen, naming TensorInfo::dtype.
enum class TensorType { Float16, BFloat16, Float32, Float64, Other };

struct TensorInfo {
    std::string name;  // "" for a .npy file's one array
    std::string dtype; // as the file names it: "<f4", "BF16", "q4_K"
    TensorType type = TensorType::Other;
    std::vector<std::int64_t> shape; // outermost first, as PyTorch and numpy print it
    std::uint64_t offset = 0;        // of the first value, from the start of the file
    std::uint64_t bytes = 0;         // 0 for a type whose size this program does not know
    bool bigEndian = false;          // .npy only
    bool fortran = false;            // .npy only
};

// One GGUF metadata value: a number, a string, or an array (numbers kept, strings counted).
struct GgufValue {
    enum class Kind { Number, String, Bool, Array };
    Kind kind = Kind::Number;
    double number = 0;
    std::string text;
    std::vector<double> numbers; // an array of numbers or booleans
    std::uint64_t count = 0;     // an array's length (its strings are not kept)
};

struct TensorIndex {
    TensorFormat format = TensorFormat::Npy;
    std::vector<TensorInfo> tensors;                         // in the file's order
    std::vector<std::pair<std::string, GgufValue>> metadata; // GGUF's key-value pairs
    const GgufValue *find(const std::string &key) const;
};

// The format from the first bytes: \x93NUMPY, GGUF, or else safetensors (whose header starts with
// an 8-byte length and then '{'). Throws naming the three when it is none of them.
TensorFormat detectTensorFormat(const unsigned char *bytes, std::size_t size, const std::string &name);

// The index of the whole file, validated (see each reader in tensor_file.cpp for what it refuses).
TensorIndex readTensorIndex(const unsigned char *bytes, std::size_t size, const std::string &name);

// Bytes an element of type takes (0 for Other), and "float32", "bfloat16", ... for titles.
int elementSize(TensorType type);
std::string typeName(TensorType type);
// "1,024 x 768" for a shape.
std::string shapeText(const std::vector<std::int64_t> &shape);
// "safetensors", "GGUF", "NumPy .npy".
std::string formatName(TensorFormat format);

} // namespace pe
