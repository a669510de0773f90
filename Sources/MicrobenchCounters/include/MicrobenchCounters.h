#ifndef MICROBENCH_COUNTERS_H
#define MICROBENCH_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

/// Counts of interposed calls made by one thread between start and stop.
typedef struct {
    uint64_t mallocs;   ///< malloc, calloc, realloc, posix_memalign, aligned_alloc
    uint64_t bytes;     ///< bytes requested by those calls
    uint64_t retains;   ///< strong retains: swift_retain(_n) and the other entry points listed in Counters.c
    uint64_t releases;  ///< strong releases: swift_release(_n) and the others listed in Counters.c
    uint64_t frees;     ///< free of a non-NULL pointer
} microbench_counts;

/// 1 when this binary was built with the interposing hooks, 0 when built without (a sanitizer build, or
/// -DMICROBENCH_NO_HOOKS).
int microbench_hooks_available(void);

/// 1 when this file was compiled under AddressSanitizer or ThreadSanitizer, which interpose the allocator
/// themselves: the hooks are then compiled out on purpose. Set by the build, not probed at run time.
int microbench_built_with_sanitizer(void);
/// 1 when the C library is not glibc: the hooks forward to glibc's allocator entry points, so they are compiled out.
int microbench_built_without_glibc(void);

/// Starts counting the calling thread's calls, from zero.
void microbench_counting_start(void);

/// Stops counting on the calling thread and returns what was counted.
microbench_counts microbench_counting_stop(void);

/// One heap block: where it starts and the bytes asked for.
typedef struct {
    void *start;
    size_t bytes;
} microbench_block;

/// Starts recording the blocks the calling thread allocates (malloc & co), from none.
void microbench_recording_start(void);

/// Stops recording on the calling thread; `*blocks` points at the recorded blocks (valid until the thread records
/// again) and the count is returned. None in a build without hooks.
size_t microbench_recording_stop(const microbench_block **blocks);

/// Evicts the cache lines of `bytes` bytes at `start` from every level of the cache (clflush, then a fence).
/// Returns 1, or 0 where the instruction is not available (not x86-64), having done nothing.
int microbench_flush(const void *start, size_t bytes);

/// Writes one byte in every 64-byte line of `bytes` bytes at `buffer`: a pass that pushes everything else out of
/// a cache smaller than `bytes`.
void microbench_sweep(void *buffer, size_t bytes);

/// Bytes the allocator has handed out and not yet freed (glibc mallinfo2: uordblks + hblkhd).
uint64_t microbench_heap_in_use(void);

/// Takes the address of a value so the optimizer must assume it is read and written.
void microbench_escape(void *pointer);

/// Runs a loop of exactly `2 * count` instructions (x86-64 and arm64: a decrement and a branch per turn), plus a
/// fixed few around it: a body whose instruction count is known, to check an instruction estimate against.
void microbench_spin(uint64_t count);

/// 1 when ``microbench_spin`` runs exactly two instructions per count on this architecture (x86-64, arm64).
int microbench_spin_is_exact(void);

/// 1 when this binary was built with valgrind's callgrind.h.
int microbench_callgrind_available(void);

/// 1 when the process runs under valgrind.
int microbench_running_on_valgrind(void);

/// Asks callgrind to write the costs since the last dump to a new file,
/// labelled `name`, and zero them. A no-op outside valgrind.
void microbench_callgrind_dump(const char *name);

/// Asks callgrind to zero its costs without writing them. A no-op outside valgrind.
void microbench_callgrind_zero(void);

/// Turns address randomization off (`off` nonzero) or back on for the processes this one starts from now on, which
/// inherit the setting (Linux's ADDR_NO_RANDOMIZE personality). Returns whether it was off before (0 or 1), or -1,
/// changing nothing, where the system refuses it (a container's seccomp filter may) or has no such setting.
int microbench_set_address_randomization_off(int off);


/// Flushes standard output and answers 0 when everything written to it with stdio reached the file, or else the
/// error (`ENOSPC` for a full disk), so that a command can refuse to exit 0 on lost output.
int microbench_flush_standard_output(void);

#endif
