#include "MicrobenchCounters.h"

#include <errno.h>
#include <stdio.h>

int microbench_flush_standard_output(void) {
    // What was written with stdio (Swift's `print`) must have reached the file: a write that failed earlier sets the
    // stream's error indicator, one that fails now makes fflush fail.
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) return errno != 0 ? errno : EIO;
    return 0;
}
