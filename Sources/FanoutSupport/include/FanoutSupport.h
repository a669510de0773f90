#ifndef FANOUT_SUPPORT_H
#define FANOUT_SUPPORT_H

// The few things the Fanout library needs from C: the concurrent storage's
// lock and atomics, the schema registry's lock, a thread-local record of the
// targets being added, the debug-build check that a single-threaded
// multiplexer is used from one thread at a time, and the runtime's test of an
// object being deinitialized.

#include <stdint.h>

// MARK: - The concurrent storage's lock and published snapshot
//
// `ConcurrentMultiplexer` needs a lock for its writers and three words shared
// with its readers, changed atomically. Both come from C, not from Swift's
// Synchronization module, whose `Mutex` and `Atomic` need macOS 15 and
// iOS 18: with these, Fanout builds for the releases Swift concurrency
// back-deploys to. The lock is a pthread mutex and the words are changed with
// C11 atomic builtins (sequentially consistent), compiled in this target, so
// that ThreadSanitizer sees both without annotations.

/// A lock, allocated by `fanout_lock_create`.
typedef struct fanout_lock fanout_lock;

/// A new, unlocked lock.
fanout_lock *fanout_lock_create(void);

/// Frees an unlocked `lock`.
void fanout_lock_destroy(fanout_lock *lock);

/// Takes `lock`, waiting for it.
void fanout_lock_lock(fanout_lock *lock);

/// Takes `lock` if no thread holds it, and returns 1; else returns 0 at once.
int fanout_lock_try(fanout_lock *lock);

/// Releases `lock`, which the calling thread holds.
void fanout_lock_unlock(fanout_lock *lock);

/// What the readers and the writers of a concurrent storage share.
typedef struct fanout_published {
    /// The readers counted in.
    intptr_t readers;
    /// The published snapshot.
    void *snapshot;
    /// 1 while a replaced snapshot waits to be freed, else 0.
    intptr_t some_retired;
} fanout_published;

/// A new `fanout_published` holding `snapshot`, with no reader, alone on its
/// cache lines (aligned and padded to 128 bytes), so that no other data's
/// writes move the lines every dispatch reads and writes.
fanout_published *fanout_published_create(void *snapshot);

/// Frees `published`.
void fanout_published_destroy(fanout_published *published);

/// Counts a reader in and returns the published snapshot.
void *fanout_reader_enter(fanout_published *published);

/// Counts a reader out; returns 1 when it was the last and a replaced snapshot
/// waits to be freed, else 0.
int fanout_reader_exit(fanout_published *published);

/// Publishes `snapshot`, marks a snapshot as waiting, and returns the one it
/// replaced.
void *fanout_publish(fanout_published *published, void *snapshot);

/// 1 when no reader is counted in and a replaced snapshot waits, else 0.
int fanout_reclaim_pending(fanout_published *published);

/// When no reader is counted in, clears the waiting mark and returns 1: the
/// caller, holding the writers' lock, frees the replaced snapshots. Else 0.
int fanout_begin_reclaim(fanout_published *published);

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

/// Which thread is inside an object's calls, and how deeply: zero when no thread is inside. Read and written
/// atomically by the functions below only, in memory the caller keeps in place for the record's lifetime.
typedef struct fanout_confinement {
    /// The thread inside a call, or 0.
    uintptr_t owner;
    /// How many calls the owner is inside (nested calls re-enter).
    intptr_t depth;
} fanout_confinement;

/// Enters a call on the calling thread. Returns 0, entering nothing, when
/// another thread is inside a call.
int fanout_confinement_enter(fanout_confinement *confinement);

/// Leaves the call entered last.
void fanout_confinement_exit(fanout_confinement *confinement);

// MARK: - An object being deinitialized
//
// A target that a registration does not keep alive (`weakArray`'s, and
// `lifetimeBound`'s `add(_:)`) is retained for each call only if its deinit
// has not begun, and its memory kept readable meanwhile by an unowned count:
// the Swift runtime's own entry points (exported by every Swift runtime on
// every platform) do both, without a weak reference.

/// Retains the Swift object `object` and returns it, unless it is being
/// deinitialized: then returns NULL and changes nothing.
void *swift_tryRetain(void *object);

/// Whether the Swift object `object` is being deinitialized.
_Bool swift_isDeallocating(void *object);

/// Adds one to the unowned reference count of the Swift object `object`: its
/// memory stays allocated (its deinit still runs when its last strong
/// reference goes) until the matching `swift_unownedRelease`.
void *swift_unownedRetain(void *object);

/// Gives back one unowned reference count of `object`, freeing its memory if
/// it was the last and the object has been deinitialized.
void swift_unownedRelease(void *object);

#endif
