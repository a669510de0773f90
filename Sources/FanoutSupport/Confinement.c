#include "FanoutSupport.h"

#include <pthread.h>

static uintptr_t current_thread(void) { return (uintptr_t)pthread_self(); }

int fanout_confinement_enter(fanout_confinement *confinement) {
    uintptr_t me = current_thread();
    uintptr_t expected = 0;
    if (!__atomic_compare_exchange_n(&confinement->owner, &expected, me, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) &&
        expected != me)
        return 0;
    __atomic_fetch_add(&confinement->depth, 1, __ATOMIC_SEQ_CST);
    return 1;
}

void fanout_confinement_exit(fanout_confinement *confinement) {
    if (__atomic_fetch_sub(&confinement->depth, 1, __ATOMIC_SEQ_CST) == 1)
        __atomic_store_n(&confinement->owner, 0, __ATOMIC_SEQ_CST);
}
