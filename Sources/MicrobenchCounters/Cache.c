// Cache eviction for the cold measurements: flushing the lines of known blocks
// (x86-64 clflush), or sweeping a buffer larger than the last-level cache.

#include "MicrobenchCounters.h"

#if defined(__x86_64__)
#include <emmintrin.h>

int microbench_flush(const void *start, size_t bytes) {
    const char *line = (const char *)((uintptr_t)start & ~(uintptr_t)63);
    const char *end = (const char *)start + bytes;
    for (; line < end; line += 64) _mm_clflush(line);
    _mm_mfence();
    return 1;
}

#else

int microbench_flush(const void *start, size_t bytes) {
    (void)start;
    (void)bytes;
    return 0;
}

#endif

void microbench_sweep(void *buffer, size_t bytes) {
    volatile char *bytes_ = (volatile char *)buffer;
    for (size_t offset = 0; offset < bytes; offset += 64) bytes_[offset] += 1;
}
