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
