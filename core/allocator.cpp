#include "allocator.h"

#if __has_include(<malloc.h>)
#include <malloc.h>
#endif

namespace pe {

void returnLargeBlocksToTheSystem()
{
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
    // Setting the threshold explicitly also turns off glibc's dynamic adjustment of it (mallopt(3)).
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

} // namespace pe
