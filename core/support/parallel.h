#pragma once

#include <cstdint>
#include <functional>

namespace pe {

// Runs fn(begin, end) over contiguous chunks of [0, n), on the calling thread and a small pool of
// workers (one per extra hardware thread), and returns when every chunk is done. Chunks are at
// least minChunk long. One call at a time uses the pool; a concurrent second caller (a cancelled
// job still finishing) runs its chunks on its own thread, so callers never wait for each other; so
// does a call from inside a chunk. An exception a chunk throws is rethrown to the caller once every
// chunk is done (the first one, when several throw).
void parallelFor(std::int64_t n, const std::function<void(std::int64_t begin, std::int64_t end)> &fn,
                 std::int64_t minChunk = 1);

// Threads parallelFor uses, the caller included.
int parallelThreads();

} // namespace pe
