#include "atomic_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pe {

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path))
{
}

AtomicFile::~AtomicFile()
{
    if (file_)
        std::fclose(file_);
    if (!tempPath_.empty())
        ::unlink(tempPath_.c_str());
}

bool AtomicFile::open(std::string &error)
{
    const std::string quoted = "'" + path_ + "'";
    if (path_.empty()) {
        error = "the output path is empty.";
        return false;
    }
    struct stat st {};
    if (::stat(path_.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            error = "cannot write " + quoted + ": it is a directory.";
            return false;
        }
        // The mode bits too: root passes access(2), but a read-only file is the user's word.
        if ((st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 || ::access(path_.c_str(), W_OK) != 0) {
            error = "cannot write " + quoted + ": the file is read-only.";
            return false;
        }
    }
    std::string tmpl = path_ + ".tmp-XXXXXX";
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0) {
        error = "cannot write " + quoted + ": " + std::strerror(errno) + ".";
        return false;
    }
    tempPath_ = tmpl;
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
    file_ = ::fdopen(fd, "wb");
    if (!file_) {
        ::close(fd);
        error = "cannot write " + quoted + ": " + std::strerror(errno) + ".";
        return false;
    }
    static constexpr std::size_t kBuffer = 1 << 20;
    std::setvbuf(file_, nullptr, _IOFBF, kBuffer);
    return true;
}

bool AtomicFile::write(const void *data, std::size_t size)
{
    if (!file_ || failed_)
        return false;
    if (size > 0 && std::fwrite(data, 1, size, file_) != size) {
        failed_ = true;
        writeErrno_ = errno;
    }
    return !failed_;
}

bool AtomicFile::write(std::string_view bytes) { return write(bytes.data(), bytes.size()); }

bool AtomicFile::commit(std::string &error)
{
    const std::string quoted = "'" + path_ + "'";
    if (!file_) {
        error = "cannot write " + quoted + ": the file was not opened.";
        return false;
    }
    if (std::fflush(file_) != 0 && !failed_) {
        failed_ = true;
        writeErrno_ = errno;
    }
    const int closed = std::fclose(file_);
    file_ = nullptr;
    if (closed != 0 && !failed_) {
        failed_ = true;
        writeErrno_ = errno;
    }
    if (failed_) {
        error = "cannot write " + quoted + ": " + std::strerror(writeErrno_) + ".";
        return false;
    }
    if (::rename(tempPath_.c_str(), path_.c_str()) != 0) {
        error = "cannot write " + quoted + ": " + std::strerror(errno) + ".";
        return false;
    }
    tempPath_.clear();
    return true;
}

bool writeFileAtomically(const std::string &path, std::string_view bytes, std::string &error)
{
    AtomicFile f(path);
    if (!f.open(error))
        return false;
    f.write(bytes);
    return f.commit(error);
}

} // namespace pe
