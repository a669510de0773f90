#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE  // glibc's adaptive mutex type
#endif
#include "FanoutSupport.h"

#include <pthread.h>
#include <stdlib.h>

struct fanout_lock {
    pthread_mutex_t mutex;
};

fanout_lock *fanout_lock_create(void) {
    fanout_lock *lock = malloc(sizeof(fanout_lock));
    pthread_mutexattr_t attributes;
    if (lock == NULL || pthread_mutexattr_init(&attributes) != 0) abort();
#if defined(__GLIBC__) && defined(PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP)
    // glibc's adaptive mutex spins a little before it sleeps: a dispatcher
    // freeing retired snapshots waits for a writer's short critical section
    // without a trip through the kernel.
    pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_ADAPTIVE_NP);
#endif
    if (pthread_mutex_init(&lock->mutex, &attributes) != 0) abort();
    pthread_mutexattr_destroy(&attributes);
    return lock;
}

void fanout_lock_destroy(fanout_lock *lock) {
    pthread_mutex_destroy(&lock->mutex);
    free(lock);
}

void fanout_lock_lock(fanout_lock *lock) { pthread_mutex_lock(&lock->mutex); }

int fanout_lock_try(fanout_lock *lock) { return pthread_mutex_trylock(&lock->mutex) == 0; }

void fanout_lock_unlock(fanout_lock *lock) { pthread_mutex_unlock(&lock->mutex); }

enum { fanout_line_pair = 128 };

fanout_published *fanout_published_create(void *snapshot) {
    void *memory = NULL;
    if (posix_memalign(&memory, fanout_line_pair, fanout_line_pair) != 0) abort();
    fanout_published *published = memory;
    published->readers = 0;
    published->snapshot = snapshot;
    published->some_retired = 0;
    return published;
}

void fanout_published_destroy(fanout_published *published) { free(published); }

// Every access is sequentially consistent: the argument for the reclamation's
// safety (ConcurrentMultiplexer) orders a reader's increment before its load of
// the snapshot, and a writer's exchange before its load of the count.

void *fanout_reader_enter(fanout_published *published) {
    __atomic_add_fetch(&published->readers, 1, __ATOMIC_SEQ_CST);
    return __atomic_load_n(&published->snapshot, __ATOMIC_SEQ_CST);
}

int fanout_reader_exit(fanout_published *published) {
    return __atomic_sub_fetch(&published->readers, 1, __ATOMIC_SEQ_CST) == 0
        && __atomic_load_n(&published->some_retired, __ATOMIC_SEQ_CST) != 0;
}

void *fanout_publish(fanout_published *published, void *snapshot) {
    __atomic_store_n(&published->some_retired, 1, __ATOMIC_SEQ_CST);
    return __atomic_exchange_n(&published->snapshot, snapshot, __ATOMIC_SEQ_CST);
}

int fanout_reclaim_pending(fanout_published *published) {
    return __atomic_load_n(&published->readers, __ATOMIC_SEQ_CST) == 0
        && __atomic_load_n(&published->some_retired, __ATOMIC_SEQ_CST) != 0;
}

int fanout_begin_reclaim(fanout_published *published) {
    if (__atomic_load_n(&published->readers, __ATOMIC_SEQ_CST) != 0) return 0;
    __atomic_store_n(&published->some_retired, 0, __ATOMIC_SEQ_CST);
    return 1;
}
