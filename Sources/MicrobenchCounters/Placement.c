#include "MicrobenchCounters.h"

#if defined(__linux__)
#include <sys/personality.h>

int microbench_set_address_randomization_off(int off) {
    int current = personality(0xffffffff);
    if (current == -1) return -1;
    int wanted = off ? (current | ADDR_NO_RANDOMIZE) : (current & ~ADDR_NO_RANDOMIZE);
    if (wanted != current && personality((unsigned long)wanted) == -1) return -1;
    // Read back: a filter may answer without applying it.
    int now = personality(0xffffffff);
    if (now == -1 || ((now & ADDR_NO_RANDOMIZE) != 0) != (off != 0)) return -1;
    return (current & ADDR_NO_RANDOMIZE) != 0;
}
#else
int microbench_set_address_randomization_off(int off) {
    (void)off;
    return -1;
}
#endif
