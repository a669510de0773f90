// Callgrind client requests, for counting the instructions of a measured
// region in one valgrind pass. Without valgrind's headers at build time the
// functions report that they are unavailable; outside valgrind each request
// is a handful of no-op instructions.

#include "MicrobenchCounters.h"

void microbench_spin(uint64_t count) {
    if (count == 0) return;
#if defined(__x86_64__)
    __asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(count) : : "cc");
#elif defined(__aarch64__)
    __asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(count) : : "cc");
#else
    for (volatile uint64_t turn = 0; turn < count; turn++) {}
#endif
}

int microbench_spin_is_exact(void) {
#if defined(__x86_64__) || defined(__aarch64__)
    return 1;
#else
    return 0;
#endif
}

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>

int microbench_callgrind_available(void) { return 1; }
int microbench_running_on_valgrind(void) { return RUNNING_ON_VALGRIND ? 1 : 0; }
void microbench_callgrind_dump(const char *name) { CALLGRIND_DUMP_STATS_AT(name); }
void microbench_callgrind_zero(void) { CALLGRIND_ZERO_STATS; }

#else

int microbench_callgrind_available(void) { return 0; }
int microbench_running_on_valgrind(void) { return 0; }
void microbench_callgrind_dump(const char *name) { (void)name; }
void microbench_callgrind_zero(void) {}

#endif
