#pragma once

// Checkpoint files written as their specifications lay them out, for the tests of the readers
// (core/formats/tensor_file.h) and of --table / --list-tensors: safetensors (huggingface/safetensors'
// README: an 8-byte little-endian header length, the JSON header, the byte buffer) and GGUF v3 (ggml's
// docs/gguf.md: magic, version, counts, key-value pairs, tensor infos, padding, aligned data).

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace checkpoint {

// The little-endian bytes of v.
template <typename T> std::string le(T v)
{
    std::string out(sizeof(T), '\0');
    std::memcpy(out.data(), &v, sizeof(T));
    return out;
}

// Values as raw little-endian floats, doubles or bfloat16 (float32's upper half, rounded to even).
std::string f32(const std::vector<double> &values);
std::string f64(const std::vector<double> &values);
std::string bf16(const std::vector<double> &values);

struct Tensor {
    std::string name;
    std::string dtype; // safetensors' ("F32", "BF16", "I64")
    std::vector<std::int64_t> shape;
    std::string data;
};

// A safetensors file of tensors, their data in the given order; headerPadding spaces after the JSON
// (as the Python writer aligns the buffer to 8 bytes).
std::string safetensors(const std::vector<Tensor> &tensors, int headerPadding = 0);
// The same with a header written by hand (for malformed files): the length, the text, the data.
std::string safetensorsRaw(const std::string &header, const std::string &data);

struct GgufTensor {
    std::string name;
    std::uint32_t type;              // ggml_type: 0 F32, 1 F16, 28 F64, 30 BF16, 12 Q4_K
    std::vector<std::int64_t> shape; // outermost first; written innermost first, as GGUF stores it
    std::string data;
};

// A metadata pair's bytes after its key: the value type and the value.
std::string ggufUint32(std::uint32_t v);
std::string ggufFloat32(float v);
std::string ggufString(const std::string &s);

// A GGUF file: magic, version, the pairs (key, typed value bytes), the tensor infos, padding to
// alignment, each tensor's data at an aligned offset. alignment != 32 writes general.alignment.
std::string gguf(const std::vector<GgufTensor> &tensors,
                 const std::vector<std::pair<std::string, std::string>> &metadata = {}, std::uint32_t alignment = 32,
                 std::uint32_t version = 3);

} // namespace checkpoint
