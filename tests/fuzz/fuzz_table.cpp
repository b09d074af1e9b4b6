// libFuzzer: any bytes as a position table file (.npy, safetensors or GGUF, by their first bytes);
// fuzz_table_check.h says what is checked.
#include "fuzz_table_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    checkFile(data, size);
    return 0;
}
