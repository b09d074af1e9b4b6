#pragma once

#include <cstddef>
#include <string>

namespace pe {

// A file mapped read-only (mmap, MAP_PRIVATE): the tables and checkpoints are read through it
// without copying, and a model's config.json the same way. open() throws std::runtime_error naming
// the file when it is missing, not a regular file (a pipe or device is refused by stat(2) before any
// open, so nothing blocks), empty, or cannot be mapped. The descriptor stays open for pread.
struct MappedFile {
    int fd = -1;
    void *mapping = nullptr;
    std::size_t size = 0;

    MappedFile() = default;
    MappedFile(const MappedFile &) = delete;
    MappedFile &operator=(const MappedFile &) = delete;
    ~MappedFile();
    // name is how refusals quote the file ("'wpe.npy'"); emptyWhat ends the refusal of an empty file
    // ("the file is empty, not " + emptyWhat).
    void open(const std::string &path, const std::string &name, const std::string &emptyWhat);
    const unsigned char *bytes() const { return static_cast<const unsigned char *>(mapping); }
};

} // namespace pe
