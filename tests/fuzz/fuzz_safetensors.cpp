// libFuzzer: the safetensors reader. The input is a file with its ninth byte, the header's opening
// '{', left out: every input reaches the safetensors reader rather than the format detection.
#include "fuzz_table_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size < 8)
        return 0;
    std::vector<unsigned char> file(data, data + 8);
    file.push_back('{');
    file.insert(file.end(), data + 8, data + size);
    checkFile(file.data(), file.size());
    return 0;
}
