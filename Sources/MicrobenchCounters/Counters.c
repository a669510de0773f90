// Interposed allocation and reference-counting entry points.
//
// The bench executable (and the Microbench test binary) define malloc & co and
// the Swift runtime's retain/release entry points.
//
// How each counts (pinned by Tests/MicrobenchTests/CountersTests.swift):
// - malloc(n), calloc(k, n), realloc(p, n), posix_memalign(&p, a, n),
//   aligned_alloc(a, n): one allocation each, of n (calloc: k × n) bytes.
//   realloc counts whether it grows, shrinks or moves the block.
// - free(p): one free, unless p is NULL.
// - Strong retains, one call each whatever their count argument:
//   swift_retain, swift_retain_n, swift_nonatomic_retain(_n),
//   swift_bridgeObjectRetain(_n), swift_nonatomic_bridgeObjectRetain(_n),
//   swift_unownedRetainStrong, swift_nonatomic_unownedRetainStrong,
//   swift_unownedRetainStrongAndRelease (a strong retain taken through an
//   unowned reference); and, when they return an object, swift_tryRetain
//   (a retain unless the object is being deinitialized: `weakArray` and
//   `lifetimeBound` retain a target for its call with it) and the weak loads
//   swift_weakLoadStrong and swift_weakTakeStrong (a weak reference's +1: a
//   retain, through the side table).
// - Strong releases, one call each: swift_release, swift_release_n,
//   swift_nonatomic_release(_n), swift_bridgeObjectRelease(_n),
//   swift_nonatomic_bridgeObjectRelease(_n).
// Not hooked: the unowned reference count (swift_unownedRetain/Release); and
// swift_errorRetain/Release, which compiled code does not call on Linux (an
// error existential is a native object there: `objdump -d` of the bench
// shows no call to them). Calls from code compiled
// into the executable bind to these definitions at link time; the dynamic
// linker also routes other libraries' calls to malloc here, because the
// executable exports every symbol that a linked shared library references.
// Calls that the Swift runtime makes to its own swift_retain and
// swift_tryRetain (for example inside a weak load) are internal to
// libswiftCore and are not seen: a weak load counts once, as its one retain.
//
// Cost when not counting: one load of `mode` and a predictable branch, then a
// tail call to the real function (glibc's __libc_* for the allocator,
// dlsym(RTLD_NEXT) for the Swift runtime). Counting is per thread, so other
// threads of the process do not disturb a measurement.

#define _GNU_SOURCE
#include "MicrobenchCounters.h"

#include <stdlib.h>

// Sanitizers interpose the allocator themselves: build without our hooks under them.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define MICROBENCH_NO_HOOKS 1
#endif
#endif

// The hooks forward to glibc's allocator entry points (__libc_malloc and the others): off glibc (macOS, musl)
// they are compiled out, and so is the heap reading (glibc's mallinfo2).
#if !defined(__GLIBC__)
#define MICROBENCH_NO_HOOKS 1
int microbench_built_without_glibc(void) { return 1; }
#else
int microbench_built_without_glibc(void) { return 0; }
#include <malloc.h>
#endif

void microbench_escape(void *pointer) { (void)pointer; }

uint64_t microbench_heap_in_use(void) {
#if defined(__GLIBC__)
    struct mallinfo2 info = mallinfo2();
    return (uint64_t)info.uordblks + (uint64_t)info.hblkhd;
#else
    return 0;
#endif
}

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
int microbench_built_with_sanitizer(void) { return 1; }
#else
int microbench_built_with_sanitizer(void) { return 0; }
#endif
#else
int microbench_built_with_sanitizer(void) { return 0; }
#endif

#ifdef MICROBENCH_NO_HOOKS

int microbench_hooks_available(void) { return 0; }
void microbench_counting_start(void) {}
microbench_counts microbench_counting_stop(void) { microbench_counts none = {0, 0, 0, 0, 0}; return none; }
void microbench_recording_start(void) {}
size_t microbench_recording_stop(const microbench_block **blocks) { *blocks = 0; return 0; }

#else

#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

enum { UNRESOLVED = 1, COUNTING = 2, RECORDING = 4 };

// Bit UNRESOLVED until the real Swift entry points are looked up; bit COUNTING
// while any thread counts; bit RECORDING while any thread records its
// allocations. Zero is the fast path.
static int mode = UNRESOLVED;
static int counting_threads = 0;
static int recording_threads = 0;

static __thread int thread_counts_calls = 0;
static __thread microbench_counts thread_counts;

// The blocks the thread allocated while recording (grown with __libc_realloc,
// so that recording records nothing of its own).
static __thread int thread_records = 0;
static __thread microbench_block *thread_blocks = 0;
static __thread size_t thread_block_count = 0, thread_block_capacity = 0;

typedef void *(*object_fn)(void *);
typedef void *(*object_n_fn)(void *, uint32_t);
typedef void (*release_fn)(void *);
typedef void (*release_n_fn)(void *, uint32_t);

static object_fn real_retain, real_nonatomic_retain, real_bridge_retain, real_nonatomic_bridge_retain, real_try_retain;
static object_fn real_weak_load_strong, real_weak_take_strong;
static object_n_fn real_retain_n, real_nonatomic_retain_n, real_bridge_retain_n, real_nonatomic_bridge_retain_n;
static release_fn real_release, real_nonatomic_release, real_bridge_release, real_nonatomic_bridge_release;
static release_fn real_unowned_retain_strong, real_nonatomic_unowned_retain_strong;
static release_fn real_unowned_retain_strong_and_release;
static release_n_fn real_release_n, real_nonatomic_release_n, real_bridge_release_n, real_nonatomic_bridge_release_n;

static void *lookup(const char *name) {
    void *symbol = dlsym(RTLD_NEXT, name);
    if (!symbol) abort();
    return symbol;
}

static void resolve(void) {
    real_retain = (object_fn)lookup("swift_retain");
    real_try_retain = (object_fn)lookup("swift_tryRetain");
    real_weak_load_strong = (object_fn)lookup("swift_weakLoadStrong");
    real_weak_take_strong = (object_fn)lookup("swift_weakTakeStrong");
    real_retain_n = (object_n_fn)lookup("swift_retain_n");
    real_nonatomic_retain = (object_fn)lookup("swift_nonatomic_retain");
    real_nonatomic_retain_n = (object_n_fn)lookup("swift_nonatomic_retain_n");
    real_bridge_retain = (object_fn)lookup("swift_bridgeObjectRetain");
    real_bridge_retain_n = (object_n_fn)lookup("swift_bridgeObjectRetain_n");
    real_release = (release_fn)lookup("swift_release");
    real_release_n = (release_n_fn)lookup("swift_release_n");
    real_nonatomic_release = (release_fn)lookup("swift_nonatomic_release");
    real_nonatomic_release_n = (release_n_fn)lookup("swift_nonatomic_release_n");
    real_bridge_release = (release_fn)lookup("swift_bridgeObjectRelease");
    real_bridge_release_n = (release_n_fn)lookup("swift_bridgeObjectRelease_n");
    real_nonatomic_bridge_retain = (object_fn)lookup("swift_nonatomic_bridgeObjectRetain");
    real_nonatomic_bridge_retain_n = (object_n_fn)lookup("swift_nonatomic_bridgeObjectRetain_n");
    real_nonatomic_bridge_release = (release_fn)lookup("swift_nonatomic_bridgeObjectRelease");
    real_nonatomic_bridge_release_n = (release_n_fn)lookup("swift_nonatomic_bridgeObjectRelease_n");
    real_unowned_retain_strong = (release_fn)lookup("swift_unownedRetainStrong");
    real_nonatomic_unowned_retain_strong = (release_fn)lookup("swift_nonatomic_unownedRetainStrong");
    real_unowned_retain_strong_and_release = (release_fn)lookup("swift_unownedRetainStrongAndRelease");
    __atomic_fetch_and(&mode, ~UNRESOLVED, __ATOMIC_RELEASE);
}

#define LIKELY_FAST (__builtin_expect(__atomic_load_n(&mode, __ATOMIC_RELAXED) == 0, 1))

static inline void count_allocation(size_t bytes) {
    if (thread_counts_calls) {
        thread_counts.mallocs += 1;
        thread_counts.bytes += bytes;
    }
}

static inline void record_block(void *pointer, size_t bytes) {
    if (!thread_records || !pointer) return;
    if (thread_block_count == thread_block_capacity) {
        size_t capacity = thread_block_capacity ? thread_block_capacity * 2 : 1024;
        microbench_block *grown = __libc_realloc(thread_blocks, capacity * sizeof(microbench_block));
        if (!grown) return;
        thread_blocks = grown;
        thread_block_capacity = capacity;
    }
    thread_blocks[thread_block_count].start = pointer;
    thread_blocks[thread_block_count].bytes = bytes;
    thread_block_count += 1;
}

static inline void count_free(void) {
    if (thread_counts_calls) thread_counts.frees += 1;
}

// Returns after making sure the Swift entry points are resolved, counting the call if asked.
static void slow_path(uint64_t retains, uint64_t releases) {
    if (__atomic_load_n(&mode, __ATOMIC_ACQUIRE) & UNRESOLVED) resolve();
    if (thread_counts_calls) {
        thread_counts.retains += retains;
        thread_counts.releases += releases;
    }
}

int microbench_hooks_available(void) { return 1; }

void microbench_counting_start(void) {
    if (__atomic_load_n(&mode, __ATOMIC_ACQUIRE) & UNRESOLVED) resolve();
    microbench_counts zero = {0, 0, 0, 0, 0};
    thread_counts = zero;
    if (!thread_counts_calls) {
        thread_counts_calls = 1;
        if (__atomic_fetch_add(&counting_threads, 1, __ATOMIC_ACQ_REL) == 0)
            __atomic_fetch_or(&mode, COUNTING, __ATOMIC_RELEASE);
    }
}

microbench_counts microbench_counting_stop(void) {
    if (thread_counts_calls) {
        thread_counts_calls = 0;
        if (__atomic_fetch_sub(&counting_threads, 1, __ATOMIC_ACQ_REL) == 1)
            __atomic_fetch_and(&mode, ~COUNTING, __ATOMIC_RELEASE);
    }
    return thread_counts;
}

void microbench_recording_start(void) {
    thread_block_count = 0;
    if (!thread_records) {
        thread_records = 1;
        if (__atomic_fetch_add(&recording_threads, 1, __ATOMIC_ACQ_REL) == 0)
            __atomic_fetch_or(&mode, RECORDING, __ATOMIC_RELEASE);
    }
}

size_t microbench_recording_stop(const microbench_block **blocks) {
    if (thread_records) {
        thread_records = 0;
        if (__atomic_fetch_sub(&recording_threads, 1, __ATOMIC_ACQ_REL) == 1)
            __atomic_fetch_and(&mode, ~RECORDING, __ATOMIC_RELEASE);
    }
    *blocks = thread_blocks;
    return thread_block_count;
}

// MARK: - Allocator

void *malloc(size_t size) {
    if (LIKELY_FAST) return __libc_malloc(size);
    count_allocation(size);
    void *pointer = __libc_malloc(size);
    record_block(pointer, size);
    return pointer;
}

void *calloc(size_t count, size_t size) {
    if (LIKELY_FAST) return __libc_calloc(count, size);
    count_allocation(count * size);
    void *pointer = __libc_calloc(count, size);
    record_block(pointer, count * size);
    return pointer;
}

void *realloc(void *pointer, size_t size) {
    if (LIKELY_FAST) return __libc_realloc(pointer, size);
    count_allocation(size);
    void *moved = __libc_realloc(pointer, size);
    record_block(moved, size);
    return moved;
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (!LIKELY_FAST) count_allocation(size);
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return ENOMEM;
    if (!LIKELY_FAST) record_block(pointer, size);
    *result = pointer;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    if (LIKELY_FAST) return __libc_memalign(alignment, size);
    count_allocation(size);
    void *pointer = __libc_memalign(alignment, size);
    record_block(pointer, size);
    return pointer;
}

void free(void *pointer) {
    if (!LIKELY_FAST && pointer) count_free();
    __libc_free(pointer);
}

// MARK: - Swift reference counting

#define RETAIN(name, real)                                          \
    void *name(void *object) {                                      \
        if (!LIKELY_FAST) slow_path(1, 0);                          \
        return real(object);                                        \
    }
#define RETAIN_N(name, real)                                        \
    void *name(void *object, uint32_t n) {                          \
        if (!LIKELY_FAST) slow_path(1, 0);                          \
        return real(object, n);                                     \
    }
#define RELEASE(name, real)                                         \
    void name(void *object) {                                       \
        if (!LIKELY_FAST) slow_path(0, 1);                          \
        real(object);                                               \
    }
#define RELEASE_N(name, real)                                       \
    void name(void *object, uint32_t n) {                           \
        if (!LIKELY_FAST) slow_path(0, 1);                          \
        real(object, n);                                            \
    }

RETAIN(swift_retain, real_retain)
RETAIN_N(swift_retain_n, real_retain_n)
RETAIN(swift_nonatomic_retain, real_nonatomic_retain)
RETAIN_N(swift_nonatomic_retain_n, real_nonatomic_retain_n)
RETAIN(swift_bridgeObjectRetain, real_bridge_retain)
RETAIN_N(swift_bridgeObjectRetain_n, real_bridge_retain_n)
RELEASE(swift_release, real_release)
RELEASE_N(swift_release_n, real_release_n)
RELEASE(swift_nonatomic_release, real_nonatomic_release)
RELEASE_N(swift_nonatomic_release_n, real_nonatomic_release_n)
RELEASE(swift_bridgeObjectRelease, real_bridge_release)
RELEASE_N(swift_bridgeObjectRelease_n, real_bridge_release_n)
RETAIN(swift_nonatomic_bridgeObjectRetain, real_nonatomic_bridge_retain)
RETAIN_N(swift_nonatomic_bridgeObjectRetain_n, real_nonatomic_bridge_retain_n)
RELEASE(swift_nonatomic_bridgeObjectRelease, real_nonatomic_bridge_release)
RELEASE_N(swift_nonatomic_bridgeObjectRelease_n, real_nonatomic_bridge_release_n)

// Strong retains taken through an unowned reference; they return nothing.
#define RETAIN_VOID(name, real)                                     \
    void name(void *object) {                                       \
        if (!LIKELY_FAST) slow_path(1, 0);                          \
        real(object);                                               \
    }
RETAIN_VOID(swift_unownedRetainStrong, real_unowned_retain_strong)
RETAIN_VOID(swift_nonatomic_unownedRetainStrong, real_nonatomic_unowned_retain_strong)
RETAIN_VOID(swift_unownedRetainStrongAndRelease, real_unowned_retain_strong_and_release)

// A retain that may not happen (the object is being deinitialized, or a weak
// reference is nil): counted when it returns an object.
#define RETAIN_IF_OBJECT(name, real)                                \
    void *name(void *object) {                                      \
        if (LIKELY_FAST) return real(object);                       \
        slow_path(0, 0);                                            \
        void *retained = real(object);                              \
        if (retained) slow_path(1, 0);                              \
        return retained;                                            \
    }
RETAIN_IF_OBJECT(swift_tryRetain, real_try_retain)
RETAIN_IF_OBJECT(swift_weakLoadStrong, real_weak_load_strong)
RETAIN_IF_OBJECT(swift_weakTakeStrong, real_weak_take_strong)

#endif
