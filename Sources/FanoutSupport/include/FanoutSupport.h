#ifndef FANOUT_SUPPORT_H
#define FANOUT_SUPPORT_H

// The few things the Fanout library needs from C: ThreadSanitizer
// annotations, a thread-local record of the targets being added, and the
// debug-build check that a single-threaded multiplexer is used from one thread
// at a time.

#include <stdint.h>

// MARK: - ThreadSanitizer annotations
//
// Swift's `Mutex` (Synchronization) waits on a futex in a library that is not
// built with ThreadSanitizer, so ThreadSanitizer cannot see that it orders
// the critical sections it protects and reports false races between them.
// Fanout annotates each critical section: an acquire on entry and a release
// on exit, on an address unique to the lock.

/// Marks the start of a critical section guarded by the lock at `address`.
/// Compiled out of line, in a C file that SwiftPM builds with the sanitizer's
/// flags (a function inline in this header would not see them); outside
/// ThreadSanitizer builds it returns at once.
void fanout_sanitizer_acquire(const void *address);

/// Marks the end of a critical section guarded by the lock at `address`.
void fanout_sanitizer_release(const void *address);

// MARK: - The schema registry's lock
//
// What Fanout builds once per schema (its checked message list, its
// forwarding table) is kept in one process-wide registry. Its lock is a plain
// pthread mutex: it needs no availability check on any platform, and
// ThreadSanitizer sees it without annotations.

/// Takes the registry's lock.
void fanout_registry_lock(void);

/// Releases the registry's lock.
void fanout_registry_unlock(void);

// MARK: - The concurrent storage's read path
//
// Readers of a `ConcurrentStorage` take no lock: they count themselves in,
// read the published snapshot, and count themselves out; writers publish a
// new snapshot and free old ones only when no reader is counted. Out of line,
// in a C file that SwiftPM builds with the sanitizer's flags, so that
// ThreadSanitizer sees each atomic operation and the order it gives.

/// The words a concurrent storage's readers and writers share.
typedef struct fanout_published {
    /// The readers counted in.
    uintptr_t readers;
    /// The published snapshot: an object reference, retained by this word.
    void *snapshot;
    /// Nonzero while writers have retired snapshots that are not freed yet.
    uintptr_t retired;
} fanout_published;

/// Counts a reader in (sequentially consistent) and returns the published
/// snapshot (acquire): valid until the matching `fanout_published_exit`.
void *fanout_published_enter(fanout_published *published);

/// Counts a reader out (sequentially consistent). Returns 1 when it was the
/// last reader counted and snapshots are waiting to be freed, 0 otherwise.
int fanout_published_exit(fanout_published *published);

/// Publishes `snapshot` (sequentially consistent) and returns the snapshot it
/// replaces; marks that snapshots are waiting to be freed.
void *fanout_published_exchange(fanout_published *published, void *snapshot);

/// Whether no reader is counted (sequentially consistent).
int fanout_published_is_quiescent(fanout_published *published);

/// Marks that no snapshot is waiting to be freed.
void fanout_published_clear_retired(fanout_published *published);

// MARK: - Targets being added
//
// `add` reads a target's `responds(to:)` before it changes anything, so that
// `responds(to:)` may call the multiplexer. A `responds(to:)` that adds the
// same target to the same multiplexer again would recurse for ever; the
// frames below, one per `add` in progress on this thread, let the inner call
// see that the outer one will register the target.

/// One `add` in progress on the calling thread. Lives on the caller's stack.
typedef struct fanout_add_frame {
    const void *multiplexer;
    const void *target;
    struct fanout_add_frame *next;
} fanout_add_frame;

/// Pushes `frame` for adding `target` to `multiplexer` and returns 1, unless
/// this thread is already adding `target` to `multiplexer`: then returns 0
/// and pushes nothing.
int fanout_add_begin(fanout_add_frame *frame, const void *multiplexer, const void *target);

/// Pops `frame`, the innermost frame pushed by `fanout_add_begin`.
void fanout_add_end(fanout_add_frame *frame);

// MARK: - Thread confinement (debug builds)
//
// A single-threaded multiplexer records which thread is inside one of its
// calls, so that a call from another thread meanwhile is reported instead of
// racing. Only debug builds of the library call these.

/// Which thread is inside an object's calls, and how deeply.
typedef struct fanout_confinement fanout_confinement;

/// A new record, with no thread inside.
fanout_confinement *fanout_confinement_create(void);

/// Frees `confinement`.
void fanout_confinement_destroy(fanout_confinement *confinement);

/// Enters a call on the calling thread. Returns 0, entering nothing, when
/// another thread is inside a call.
int fanout_confinement_enter(fanout_confinement *confinement);

/// Leaves the call entered last.
void fanout_confinement_exit(fanout_confinement *confinement);

#endif
