// What does the strategy switch's jump table cost by itself? (Findings 46)
//
// One call through a function pointer to a target that increments a counter, reached four ways, timed back to back
// in one process: the bare call from a direct call; the same from an indirect call (as `any ScrollViewDelegate`
// calls a multiplexer); through a six-way `switch` compiled to a jump table (as `Multiplexer`'s switch over its
// storages is); through a chain of six compares. Prints the best of 30 rounds of 2 000 000 calls, ns per call.
// An argument selects the last case instead of the first.
//
//     gcc -O2 -o /tmp/switch-probe Benchmarks/experiments/switch-probe.c && /tmp/switch-probe && /tmp/switch-probe last
#include <stdio.h>
#include <time.h>

struct target { long counter; };
struct mux { int kind; struct target *target; void (*call)(struct target *); };

__attribute__((noinline)) static void increment(struct target *t) { t->counter++; }

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

__attribute__((noinline)) static void bare(struct mux *m) { m->call(m->target); }

// Each case differs a little, so that the compiler keeps six cases.
#define CASE(n, pad) case n: __asm__ volatile(pad ::: "memory"); m->call(m->target); return;
__attribute__((noinline)) static void switched(struct mux *m) {
    switch (m->kind) { CASE(0, "") CASE(1, "nop") CASE(2, "nop; nop") CASE(3, "nop; nop; nop") CASE(4, "nop; nop; nop; nop") CASE(5, "nop; nop; nop; nop; nop") }
}

__attribute__((noinline)) static void chained(struct mux *m) {
    int k = m->kind;
    if (k == 0) { m->call(m->target); return; }
    if (k == 1) { __asm__ volatile("nop" ::: "memory"); m->call(m->target); return; }
    if (k == 2) { __asm__ volatile("nop; nop" ::: "memory"); m->call(m->target); return; }
    if (k == 3) { __asm__ volatile("nop; nop; nop" ::: "memory"); m->call(m->target); return; }
    if (k == 4) { __asm__ volatile("nop; nop; nop; nop" ::: "memory"); m->call(m->target); return; }
    __asm__ volatile("nop; nop; nop; nop; nop" ::: "memory");
    m->call(m->target);
}

int main(int argc, char **argv) {
    struct target target = {0};
    struct mux mux = {argc > 1 ? 5 : 0, &target, increment};
    void (*volatile through[3])(struct mux *) = {bare, switched, chained};
    const char *names[4] = {"direct-bare", "indirect-bare", "indirect-switch", "indirect-chain"};
    double best[4] = {1e99, 1e99, 1e99, 1e99};
    long n = 2000000;
    for (int round = 0; round < 30; round++) {
        double start = now();
        for (long i = 0; i < n; i++) bare(&mux);
        double ns = (now() - start) / n;
        if (ns < best[0]) best[0] = ns;
        for (int k = 0; k < 3; k++) {
            void (*f)(struct mux *) = through[k];
            start = now();
            for (long i = 0; i < n; i++) f(&mux);
            ns = (now() - start) / n;
            if (ns < best[k + 1]) best[k + 1] = ns;
        }
    }
    for (int k = 0; k < 4; k++) printf("%s %.2f  ", names[k], best[k]);
    printf("(case %d)\n", mux.kind);
    return 0;
}
