#include "FanoutSupport.h"

#include <stddef.h>

static _Thread_local fanout_add_frame *innermost = NULL;

int fanout_add_begin(fanout_add_frame *frame, const void *multiplexer, const void *target) {
    for (const fanout_add_frame *outer = innermost; outer != NULL; outer = outer->next) {
        if (outer->multiplexer == multiplexer && outer->target == target) return 0;
    }
    frame->multiplexer = multiplexer;
    frame->target = target;
    frame->next = innermost;
    innermost = frame;
    return 1;
}

void fanout_add_end(fanout_add_frame *frame) {
    innermost = frame->next;
}
