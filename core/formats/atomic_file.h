#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace pe {

// A file written unnamed in its target's folder (O_TMPFILE) and linked in on commit(), so a failed
// or interrupted export, even one ended by SIGKILL or a crash, never leaves a half-written file or
// damages the one that was there. Where the file system has no unnamed files it is written under a
// temporary name beside the target and renamed (which SIGKILL can leave behind). The one way the
// program writes files: figures and data alike.
class AtomicFile
{
  public:
    explicit AtomicFile(std::string path);
    ~AtomicFile(); // removes the temporary file unless committed
    AtomicFile(const AtomicFile &) = delete;
    AtomicFile &operator=(const AtomicFile &) = delete;

    // Refuses a missing folder, a directory, a read-only file; error says why in one sentence.
    bool open(std::string &error);
    bool write(std::string_view bytes);
    bool write(const void *data, std::size_t size);
    bool commit(std::string &error);

    const std::string &path() const { return path_; }

  private:
    // Links the unnamed file fd as path_, or, when path_ exists, under a temporary name that
    // commit() renames over it: 0 or errno.
    int commitUnnamed(int fd);

    std::string path_;
    std::string tempPath_;
    int registration_ = -1; // its slot among the temporary files a signal removes
    std::FILE *file_ = nullptr;
    bool failed_ = false;
    int writeErrno_ = 0;
};

// On SIGINT, SIGTERM or SIGHUP, every AtomicFile's temporary file is removed (unlink(2) from the
// handler, which is async-signal-safe) and the signal is raised again with its default action, so the
// process ends as the signal would have ended it (a shell reports 130, 143, 129). Signals the
// process ignores (nohup, a background job) stay ignored. Call once, at start.
void removeTemporaryFilesOnSignals();

// Writes bytes to path atomically; false with error when anything fails.
bool writeFileAtomically(const std::string &path, std::string_view bytes, std::string &error);

} // namespace pe
