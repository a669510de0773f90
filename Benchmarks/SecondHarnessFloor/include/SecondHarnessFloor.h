#ifndef SECOND_HARNESS_FLOOR_H
#define SECOND_HARNESS_FLOOR_H

// The second harness's own C loop: `count` (context, function pointer) pairs, alternating between two callees that
// count what they receive. Written apart from the suite's BenchFloor on purpose: nothing is shared.
typedef struct {
    void *context;
    void (*changed)(void *context, void *source, long value);
} second_floor_listener;

second_floor_listener *second_floor_make(int count);
void second_floor_changed(const second_floor_listener *listeners, int count, void *source, long value);

#endif
