#include "checkpoint_files.h"

#include <cmath>

namespace checkpoint {

std::string f32(const std::vector<double> &values)
{
    std::string out;
    for (double v : values)
        out += le(static_cast<float>(v));
    return out;
}

std::string f64(const std::vector<double> &values)
{
    std::string out;
    for (double v : values)
        out += le(v);
    return out;
}

std::string bf16(const std::vector<double> &values)
{
    std::string out;
    for (double v : values) {
        const float f = static_cast<float>(v);
        std::uint32_t bits;
        std::memcpy(&bits, &f, 4);
        bits += 0x7fff + ((bits >> 16) & 1); // round to nearest even
        out += le(static_cast<std::uint16_t>(bits >> 16));
    }
    return out;
}

std::string safetensorsRaw(const std::string &header, const std::string &data)
{
    return le(static_cast<std::uint64_t>(header.size())) + header + data;
}

std::string safetensors(const std::vector<Tensor> &tensors, int headerPadding)
{
    std::string header = "{\"__metadata__\":{\"format\":\"pt\"}";
    std::string data;
    for (const auto &t : tensors) {
        std::string shape;
        for (std::size_t i = 0; i < t.shape.size(); ++i)
            shape += (i ? "," : "") + std::to_string(t.shape[i]);
        header += ",\"" + t.name + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":[" + shape + "],\"data_offsets\":[" +
                  std::to_string(data.size()) + "," + std::to_string(data.size() + t.data.size()) + "]}";
        data += t.data;
    }
    header += "}" + std::string(static_cast<std::size_t>(headerPadding), ' ');
    return safetensorsRaw(header, data);
}

namespace {

std::string str(const std::string &s)
{
    return le(static_cast<std::uint64_t>(s.size())) + s;
}

} // namespace

std::string ggufUint32(std::uint32_t v)
{
    return le(std::uint32_t{4}) + le(v);
}

std::string ggufFloat32(float v)
{
    return le(std::uint32_t{6}) + le(v);
}

std::string ggufString(const std::string &s)
{
    return le(std::uint32_t{8}) + str(s);
}

std::string gguf(const std::vector<GgufTensor> &tensors,
                 const std::vector<std::pair<std::string, std::string>> &metadata, std::uint32_t alignment,
                 std::uint32_t version)
{
    auto pairs = metadata;
    if (alignment != 32)
        pairs.emplace_back("general.alignment", ggufUint32(alignment));
    std::string out = "GGUF" + le(version) + le(static_cast<std::uint64_t>(tensors.size())) +
                      le(static_cast<std::uint64_t>(pairs.size()));
    for (const auto &[key, value] : pairs)
        out += str(key) + value;
    std::string data;
    for (const auto &t : tensors) {
        while (data.size() % alignment)
            data += '\0';
        out += str(t.name) + le(static_cast<std::uint32_t>(t.shape.size()));
        for (auto it = t.shape.rbegin(); it != t.shape.rend(); ++it)
            out += le(static_cast<std::uint64_t>(*it));
        out += le(t.type) + le(static_cast<std::uint64_t>(data.size()));
        data += t.data;
    }
    while (out.size() % alignment)
        out += '\0';
    return out + data;
}

} // namespace checkpoint
