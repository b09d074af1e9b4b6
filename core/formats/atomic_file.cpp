#include "formats/atomic_file.h"

#include "formats/file_kind.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pe {

namespace {

// The live temporary files, kept where a signal handler can read them without allocating or locking:
// a slot's state is 0 (free), 1 (being filled) or 2 (names a temporary file).
struct TemporarySlot {
    std::atomic<int> state{0};
    char path[4096];
};
static_assert(std::atomic<int>::is_always_lock_free);
constexpr int kTemporarySlots = 64;
TemporarySlot temporarySlots[kTemporarySlots];
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};

// The slot, or -1 when every slot is taken (that file is then removed only by its destructor).
int registerTemporary(const std::string &path)
{
    if (path.size() >= sizeof(TemporarySlot::path))
        return -1;
    for (int i = 0; i < kTemporarySlots; ++i) {
        int expected = 0;
        if (temporarySlots[i].state.compare_exchange_strong(expected, 1)) {
            std::memcpy(temporarySlots[i].path, path.c_str(), path.size() + 1);
            temporarySlots[i].state.store(2);
            return i;
        }
    }
    return -1;
}

void unregisterTemporary(int slot)
{
    if (slot >= 0)
        temporarySlots[slot].state.store(0);
}

// Only async-signal-safe calls: unlink(2) and raise(3).
void removeTemporariesAndRaise(int sig)
{
    const int savedErrno = errno;
    for (TemporarySlot &slot : temporarySlots)
        if (slot.state.load() == 2)
            ::unlink(slot.path);
    // SA_RESETHAND restored the default action: once this handler returns, the signal ends the process.
    ::raise(sig);
    errno = savedErrno;
}

sigset_t cleanupSignalSet()
{
    sigset_t set;
    sigemptyset(&set);
    for (int sig : kCleanupSignals)
        sigaddset(&set, sig);
    return set;
}

// The folder path names a file in: "." for a bare name.
std::string folderOf(const std::string &path)
{
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// A new file named path + ".tmp-XXXXXX", registered with the cleanup signals: its descriptor, or -1
// with errno set. Created and registered with those signals held back, so none comes between.
int createNamedTemporary(const std::string &path, std::string &tempPath, int &registration)
{
    std::string tmpl = path + ".tmp-XXXXXX";
    const sigset_t cleanup = cleanupSignalSet();
    sigset_t previous;
    ::pthread_sigmask(SIG_BLOCK, &cleanup, &previous);
    const int fd = ::mkstemp(tmpl.data());
    const int mkstempErrno = errno;
    if (fd >= 0) {
        tempPath = tmpl;
        registration = registerTemporary(tempPath);
    }
    ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    errno = mkstempErrno;
    return fd;
}

// Gives the unnamed file fd the name path: linkat(2) through AT_EMPTY_PATH (root) or its
// /proc/self/fd link. 0, or errno.
int linkUnnamed(int fd, const std::string &path)
{
    if (::linkat(fd, "", AT_FDCWD, path.c_str(), AT_EMPTY_PATH) == 0)
        return 0;
    if (errno == EEXIST)
        return EEXIST;
    const std::string self = "/proc/self/fd/" + std::to_string(fd);
    return ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW) == 0 ? 0 : errno;
}

} // namespace

void removeTemporaryFilesOnSignals()
{
    for (int sig : kCleanupSignals) {
        struct sigaction old {
        };
        if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN)
            continue;
        struct sigaction action {
        };
        action.sa_handler = removeTemporariesAndRaise;
        action.sa_mask = cleanupSignalSet();
        action.sa_flags = SA_RESETHAND;
        ::sigaction(sig, &action, nullptr);
    }
}

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
    unregisterTemporary(registration_);
}

bool AtomicFile::open(std::string &error)
{
    const std::string quoted = "'" + path_ + "'";
    if (path_.empty()) {
        error = "the output path is empty.";
        return false;
    }
    struct stat st {
    };
    if (::stat(path_.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            error = "cannot write " + quoted + ": it is a directory.";
            return false;
        }
        // A pipe, socket or device would be replaced by a regular file, not written to.
        if (const auto kind = nonRegularKind(path_)) {
            error = "cannot write " + quoted + ": it is " + *kind + ", not a file.";
            return false;
        }
        // The mode bits too: root passes access(2), but a read-only file is the user's word.
        if ((st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 || ::access(path_.c_str(), W_OK) != 0) {
            error = "cannot write " + quoted + ": the file is read-only.";
            return false;
        }
    }
    // An unnamed file in the target's folder (O_TMPFILE, Linux 3.11): no name exists until commit
    // links it in, so nothing is left behind whatever ends the process, SIGKILL and crashes included.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    int fd = ::open(folderOf(path_).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666 & ~mask);
    if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL || errno == ENOENT)) {
        // The file system (or an old kernel) has no unnamed files: a named temporary beside the
        // target, removed by the destructor and by the cleanup signals, but not by SIGKILL.
        fd = createNamedTemporary(path_, tempPath_, registration_);
    }
    if (fd < 0) {
        error = "cannot write " + quoted + ": " + std::strerror(errno) + ".";
        return false;
    }
    if (!tempPath_.empty())
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

bool AtomicFile::write(std::string_view bytes)
{
    return write(bytes.data(), bytes.size());
}

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
    // The unnamed file is linked while still open: it has no name to reopen it by.
    int linkErrno = 0;
    if (!failed_ && tempPath_.empty())
        linkErrno = commitUnnamed(::fileno(file_));
    const int closed = std::fclose(file_);
    file_ = nullptr;
    if (closed != 0 && !failed_) {
        failed_ = true;
        writeErrno_ = errno;
    }
    if (!failed_ && linkErrno != 0) {
        failed_ = true;
        writeErrno_ = linkErrno;
    }
    if (failed_) {
        error = "cannot write " + quoted + ": " + std::strerror(writeErrno_) + ".";
        return false;
    }
    if (!tempPath_.empty() && ::rename(tempPath_.c_str(), path_.c_str()) != 0) {
        error = "cannot write " + quoted + ": " + std::strerror(errno) + ".";
        return false;
    }
    tempPath_.clear();
    unregisterTemporary(registration_);
    registration_ = -1;
    return true;
}

int AtomicFile::commitUnnamed(int fd)
{
    const int linked = linkUnnamed(fd, path_);
    if (linked != EEXIST)
        return linked;
    // Replacing a file takes a name: link under a fresh temporary one and rename it over the target
    // (rename is the one atomic replacement). That name exists only between the two calls.
    thread_local std::minstd_rand names(std::random_device{}());
    for (int attempt = 0; attempt < 100; ++attempt) {
        char suffix[16];
        std::snprintf(suffix, sizeof suffix, ".tmp-%06x", static_cast<unsigned>(names()) & 0xffffffu);
        const std::string name = path_ + suffix;
        const sigset_t cleanup = cleanupSignalSet();
        sigset_t previous;
        ::pthread_sigmask(SIG_BLOCK, &cleanup, &previous);
        const int r = linkUnnamed(fd, name);
        if (r == 0) {
            tempPath_ = name;
            registration_ = registerTemporary(tempPath_);
        }
        ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
        if (r == 0)
            return 0; // commit() renames it over the target
        if (r != EEXIST)
            return r;
    }
    return EEXIST;
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
