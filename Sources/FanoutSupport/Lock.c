#include "FanoutSupport.h"

#include <pthread.h>
#include <stdlib.h>

struct fanout_lock {
    pthread_mutex_t mutex;
};

fanout_lock *fanout_lock_create(void) {
    fanout_lock *lock = malloc(sizeof(fanout_lock));
    if (lock == NULL || pthread_mutex_init(&lock->mutex, NULL) != 0) abort();
    return lock;
}

void fanout_lock_destroy(fanout_lock *lock) {
    pthread_mutex_destroy(&lock->mutex);
    free(lock);
}

void fanout_lock_lock(fanout_lock *lock) { pthread_mutex_lock(&lock->mutex); }

void fanout_lock_unlock(fanout_lock *lock) { pthread_mutex_unlock(&lock->mutex); }

// Every access is sequentially consistent: the argument for the reclamation's
// safety (ConcurrentStorage) orders a reader's increment before its load of
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

int fanout_begin_reclaim(fanout_published *published) {
    if (__atomic_load_n(&published->readers, __ATOMIC_SEQ_CST) != 0) return 0;
    __atomic_store_n(&published->some_retired, 0, __ATOMIC_SEQ_CST);
    return 1;
}
