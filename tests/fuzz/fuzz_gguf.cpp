// libFuzzer: the GGUF reader. The input is a file without its magic "GGUF", which is put back: every
// input reaches the GGUF reader rather than the format detection.
#include "fuzz_table_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    std::vector<unsigned char> file{'G', 'G', 'U', 'F'};
    file.insert(file.end(), data, data + size);
    checkFile(file.data(), file.size());
    return 0;
}
