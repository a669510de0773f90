#ifndef FANOUT_SANITIZER_SUPPORT_H
#define FANOUT_SANITIZER_SUPPORT_H

// Happens-before annotations for ThreadSanitizer.
//
// Swift's `Mutex` (Synchronization) waits on a futex in a library that is not
// built with ThreadSanitizer, so ThreadSanitizer cannot see that it orders
// the critical sections it protects and reports false races between them.
// Fanout annotates each critical section: an acquire on entry and a release
// on exit, on an address unique to the lock. The functions are compiled out
// of line, in a C file that SwiftPM builds with the sanitizer's flags; outside
// ThreadSanitizer builds they return at once.

/// Marks the start of a critical section guarded by the lock at `address`.
void fanout_sanitizer_acquire(const void *address);

/// Marks the end of a critical section guarded by the lock at `address`.
void fanout_sanitizer_release(const void *address);

#endif
