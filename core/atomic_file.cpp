#include "atomic_file.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
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
        // The mode bits too: root passes access(2), but a read-only file is the user's word.
        if ((st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 || ::access(path_.c_str(), W_OK) != 0) {
            error = "cannot write " + quoted + ": the file is read-only.";
            return false;
        }
    }
    std::string tmpl = path_ + ".tmp-XXXXXX";
    // Created and registered with the cleanup signals held back, so none can come between the two.
    const sigset_t cleanup = cleanupSignalSet();
    sigset_t previous;
    ::pthread_sigmask(SIG_BLOCK, &cleanup, &previous);
    const int fd = ::mkstemp(tmpl.data());
    const int mkstempErrno = errno;
    if (fd >= 0) {
        tempPath_ = tmpl;
        registration_ = registerTemporary(tempPath_);
    }
    ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    if (fd < 0) {
        error = "cannot write " + quoted + ": " + std::strerror(mkstempErrno) + ".";
        return false;
    }
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
    unregisterTemporary(registration_);
    registration_ = -1;
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
