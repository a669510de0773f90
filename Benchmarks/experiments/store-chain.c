// Does a dispatch's pin cost more when it writes back a value it read? (Findings 46)
//
// Five out-of-line "dispatches", each calling one target through a function pointer (the target increments a
// counter, as the suite's targets do), timed back to back in one process:
//   plain        the call alone;
//   loads-only   a load of the flag before the call and a test of it after, and no store;
//   state-chain  the pin as it was at 81fab77: load the state word, store it with bit 0 set, call, compare, store the
//                loaded value back, so each dispatch's load waits for the previous dispatch's store of a loaded value;
//   const-store  the pin as a flag: load it (for the nesting test only), store 1, call, store 0: only constants stored;
//   counter      a dispatch-depth count, incremented and decremented around the call.
// Prints the best of 30 rounds of 2 000 000 calls each, in ns per call and as a ratio to `plain`.
//
//     gcc -O2 -o /tmp/store-chain Benchmarks/experiments/store-chain.c && /tmp/store-chain
#include <stdint.h>
#include <stdio.h>
#include <time.h>

struct target { long counter; };
struct storage { long state; char pinned; char deferred; struct target *target; void (*call)(struct target *); };

__attribute__((noinline)) static void increment(struct target *t) { t->counter++; }

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

#define LOAD(p) __atomic_load_n(p, __ATOMIC_RELAXED)
#define STORE(p, v) __atomic_store_n(p, v, __ATOMIC_RELAXED)

__attribute__((noinline)) static void plain(struct storage *s) { s->call(s->target); }

__attribute__((noinline)) static void loads_only(struct storage *s) {
    char nested = LOAD(&s->pinned);
    s->call(s->target);
    if (LOAD(&s->pinned) != nested) s->deferred = 1;
}

__attribute__((noinline)) static void state_chain(struct storage *s) {
    long begun = LOAD(&s->state);
    STORE(&s->state, begun | 1);
    s->call(s->target);
    if (LOAD(&s->state) == (begun | 1)) STORE(&s->state, begun);
    else s->deferred = 1;
}

__attribute__((noinline)) static void const_store(struct storage *s) {
    char nested = LOAD(&s->pinned);
    STORE(&s->pinned, 1);
    s->call(s->target);
    if (!nested) {
        if (LOAD(&s->pinned)) STORE(&s->pinned, 0);
        else s->deferred = 1;
    }
}

__attribute__((noinline)) static void counter(struct storage *s) {
    STORE(&s->state, LOAD(&s->state) + 1);
    s->call(s->target);
    long depth = LOAD(&s->state) - 1;
    STORE(&s->state, depth);
    if (depth == 0 && s->deferred) s->state = 99;
}

int main(void) {
    struct target target = {0};
    struct storage storage = {0, 0, 0, &target, increment};
    enum { count = 5 };
    void (*volatile dispatches[count])(struct storage *) = {plain, loads_only, state_chain, const_store, counter};
    const char *names[count] = {"plain", "loads-only", "state-chain", "const-store", "counter"};
    double best[count] = {1e99, 1e99, 1e99, 1e99, 1e99};
    for (int round = 0; round < 30; round++)
        for (int k = 0; k < count; k++) {
            void (*dispatch)(struct storage *) = dispatches[k];
            long n = 2000000;
            double start = now();
            for (long i = 0; i < n; i++) dispatch(&storage);
            double ns = (now() - start) / n;
            if (ns < best[k]) best[k] = ns;
        }
    for (int k = 0; k < count; k++) printf("%-12s %5.2f ns  %4.2fx\n", names[k], best[k], best[k] / best[0]);
    return 0;
}
