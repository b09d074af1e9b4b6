#include "formats/file_kind.h"

#include <cerrno>
#include <cstring>

#include <sys/stat.h>

namespace pe {

namespace {

std::string kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISFIFO(mode))
        return "a named pipe";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    return "not a regular file";
}

} // namespace

std::optional<std::string> nonRegularKind(const std::string &path)
{
    struct stat st {
    };
    if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode))
        return std::nullopt;
    return kindOf(st.st_mode);
}

std::optional<std::string> notAReadableFile(const std::string &path)
{
    const std::string quoted = "'" + path + "'";
    if (path.empty())
        return std::string("the file name is empty");
    struct stat st {
    };
    if (::stat(path.c_str(), &st) != 0)
        return errno == ENOENT ? quoted + " does not exist" : "cannot read " + quoted + ": " + std::strerror(errno);
    if (!S_ISREG(st.st_mode))
        return quoted + " is " + kindOf(st.st_mode) + ", not a file";
    return std::nullopt;
}

} // namespace pe
