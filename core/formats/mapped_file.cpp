#include "formats/mapped_file.h"

#include "formats/file_kind.h"
#include "formats/npy_header.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pe {

using detail::refuse;

MappedFile::~MappedFile()
{
    if (mapping)
        ::munmap(mapping, size);
    if (fd >= 0)
        ::close(fd);
}

void MappedFile::open(const std::string &path, const std::string &name, const std::string &emptyWhat)
{
    if (auto why = notAReadableFile(path))
        throw std::runtime_error(*why);
    // O_NONBLOCK: a pipe put in the file's place since the check must not hang the open.
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        refuse(name, std::string("cannot open it: ") + std::strerror(errno));
    struct stat st {
    };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        refuse(name, "not a regular file");
    size = static_cast<std::size_t>(st.st_size);
    if (size == 0)
        refuse(name, "the file is empty, not " + emptyWhat);
    void *m = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED)
        refuse(name, std::string("cannot map it into memory: ") + std::strerror(errno));
    mapping = m;
}

} // namespace pe
