// libFuzzer: a model's config as --model reads it. An input starting with 'G' is a GGUF file without
// its magic (put back; the GGUF corpus's inputs with a 'G' before them), read for its metadata; any
// other is a config.json's text. Each is refused with one line, or maps to parameters the validator
// accepts, every value said in the mapping.
#include "fuzz_table_check.h"
#include "models/model_config.h"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    try {
        pe::ModelConfig model;
        if (size > 0 && data[0] == 'G') {
            std::vector<unsigned char> file{'G', 'G', 'U', 'F'};
            file.insert(file.end(), data + 1, data + size);
            const pe::TensorIndex index = pe::readTensorIndex(file.data(), file.size(), "'fuzz'");
            model = pe::readGgufModel(index, file.data(), file.size(), "fuzz");
        } else {
            model = pe::readModelConfig(std::string_view(reinterpret_cast<const char *>(data), size), "fuzz");
        }
        if (pe::validate(model.params) || model.mapping.empty())
            std::abort(); // the reader returned what the validator refuses, or said nothing
        for (const std::string &line : model.mapping)
            if (line.empty() || line.find('\n') != std::string::npos)
                std::abort();
    } catch (const std::runtime_error &e) {
        refusedInOneLine(e);
    }
    return 0;
}
