#include "FanoutSupport.h"

void *fanout_published_enter(fanout_published *published) {
    __atomic_fetch_add(&published->readers, 1, __ATOMIC_SEQ_CST);
    return __atomic_load_n(&published->snapshot, __ATOMIC_SEQ_CST);
}

int fanout_published_exit(fanout_published *published) {
    if (__atomic_sub_fetch(&published->readers, 1, __ATOMIC_SEQ_CST) != 0) return 0;
    return __atomic_load_n(&published->retired, __ATOMIC_SEQ_CST) != 0;
}

void *fanout_published_exchange(fanout_published *published, void *snapshot) {
    __atomic_store_n(&published->retired, 1, __ATOMIC_SEQ_CST);
    return __atomic_exchange_n(&published->snapshot, snapshot, __ATOMIC_SEQ_CST);
}

int fanout_published_is_quiescent(fanout_published *published) {
    return __atomic_load_n(&published->readers, __ATOMIC_SEQ_CST) == 0;
}

void fanout_published_clear_retired(fanout_published *published) {
    __atomic_store_n(&published->retired, 0, __ATOMIC_SEQ_CST);
}
