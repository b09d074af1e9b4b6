#pragma once

#include "encodings/encoding_params.h"
#include "formats/tensor_file.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

// A model's positional encoding read from the files a researcher has: a Hugging Face config.json
// (transformers' PretrainedConfig as saved; the keys each model class reads are cited where they
// are read, model_config.cpp) or a GGUF checkpoint's metadata (ggml's docs/gguf.md and llama.cpp's
// key names). The result is the scheme and its parameters, what the model is, and how each value
// was read, so the window and the command line can say how the config mapped to the scheme.
namespace pe {

struct ModelConfig {
    std::string path;                       // the file read ("" when read from text)
    std::string modelType;                  // "llama", "gpt_neox"; a GGUF's general.architecture
    std::vector<std::string> architectures; // "LlamaForCausalLM"
    std::string name;                       // a GGUF's general.name, or the file's name
    EncodingParams params;                  // what the config gives (params.model unset)
    // One line a parameter set: "base 500,000 (rope_theta)", "d_model 128 (head_dim = hidden_size
    // 4,096 / num_attention_heads 32)".
    std::vector<std::string> mapping;
};

// The config.json text, read strictly as JSON; unknown keys ignored, a rope type this program does
// not know refused by name. Throws std::runtime_error("'name': why") in one line.
ModelConfig readModelConfig(std::string_view json, const std::string &name);
// A GGUF file's metadata (and its rope_freqs / rope_factors tensors, read from bytes).
ModelConfig readGgufModel(const TensorIndex &index, const unsigned char *bytes, std::size_t size,
                          const std::string &name);
// The file at path: a config.json, a GGUF checkpoint, or a folder holding config.json (a model as
// Hugging Face's hub saves it). A safetensors or .npy file is refused pointing at its config.json
// and at --table. Throws std::runtime_error in one line.
std::shared_ptr<const ModelConfig> openModel(const std::string &path);

// The config's parameters, with params.model pointing at it.
EncodingParams modelParams(const std::shared_ptr<const ModelConfig> &model);
// The parameters' names (as fieldName gives them) whose value differs from what p.model read:
// what the window says was changed since the config was opened (seq_len and start_pos, the window
// shown, are not named). Empty without a model.
std::vector<std::string> changedFromModel(const EncodingParams &p);
// "Meta-Llama-3.1-8B (llama, LlamaForCausalLM)": the model named for the window and messages.
std::string modelTitle(const ModelConfig &model);

} // namespace pe
