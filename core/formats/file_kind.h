#pragma once

#include <optional>
#include <string>

namespace pe {

// Why a path cannot be read as a file, as a sentence fragment naming it ("'x' is a named pipe, not
// a file"; "'x' does not exist"), or nullopt for a regular file. Asks stat(2) only: a pipe, socket
// or device is never opened, so nothing blocks on it. Every file the program reads goes through it.
std::optional<std::string> notAReadableFile(const std::string &path);

// What an existing path that is not a regular file is ("a folder", "a named pipe", "a socket",
// "a character device", "a block device"), or nullopt for a regular or a missing one.
std::optional<std::string> nonRegularKind(const std::string &path);

} // namespace pe
