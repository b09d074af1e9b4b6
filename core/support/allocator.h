#pragma once

namespace pe {

// Keeps blocks of 1 MiB and more (encoding buffers, images) in mappings of their own, handed back
// to the system when freed, for the whole process. Call once, first thing in main.
//
// Why: glibc raises its mmap threshold each time such a block is freed (up to 32 MiB), after which
// buffers of every size the user scrubs through come from the threads' heaps and fragment them.
// tests/tst_stress measured it, 4,500 random changes in the real window: 38 MiB in use throughout,
// resident memory 92 -> 103 -> 130 MiB with the moving threshold; 86.4 -> 86.7 -> 86.7 MiB with
// it fixed (any fixed value from 256 KiB to 4 MiB measured the same).
void returnLargeBlocksToTheSystem();

// While one lives, blocks up to 32 MiB (glibc's most) come from the heap and stay there when freed: for a video
// encoder (libx264) that allocates and frees frame-sized buffers every frame, each of which would
// otherwise be a new mapping whose pages the kernel zeroes again (a 4K MP4 spent 8.4 s of 12.4 in
// the kernel clearing pages, perf). The process's setting comes back when it goes.
class ReuseLargeBlocks
{
  public:
    ReuseLargeBlocks();
    ~ReuseLargeBlocks();
    ReuseLargeBlocks(const ReuseLargeBlocks &) = delete;
    ReuseLargeBlocks &operator=(const ReuseLargeBlocks &) = delete;
};

} // namespace pe
