#include "FanoutSupport.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct fanout_confinement {
    /// The thread inside a call, or 0.
    _Atomic uintptr_t owner;
    /// How many calls the owner is inside (nested calls re-enter).
    _Atomic intptr_t depth;
};

static uintptr_t current_thread(void) { return (uintptr_t)pthread_self(); }

fanout_confinement *fanout_confinement_create(void) {
    fanout_confinement *confinement = malloc(sizeof *confinement);
    if (!confinement) abort();
    atomic_init(&confinement->owner, 0);
    atomic_init(&confinement->depth, 0);
    return confinement;
}

void fanout_confinement_destroy(fanout_confinement *confinement) { free(confinement); }

int fanout_confinement_enter(fanout_confinement *confinement) {
    uintptr_t me = current_thread();
    uintptr_t expected = 0;
    if (!atomic_compare_exchange_strong(&confinement->owner, &expected, me) && expected != me) return 0;
    atomic_fetch_add(&confinement->depth, 1);
    return 1;
}

void fanout_confinement_exit(fanout_confinement *confinement) {
    if (atomic_fetch_sub(&confinement->depth, 1) == 1) atomic_store(&confinement->owner, 0);
}
