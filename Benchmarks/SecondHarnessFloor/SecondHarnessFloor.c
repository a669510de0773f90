#include "SecondHarnessFloor.h"

#include <stdlib.h>

typedef struct { long received; } first_context;
typedef struct { long spare; long received; } second_context;

static void first_changed(void *context, void *source, long value) {
    (void)source;
    ((first_context *)context)->received += value;
}

static void second_changed(void *context, void *source, long value) {
    (void)source;
    ((second_context *)context)->received += value;
}

second_floor_listener *second_floor_make(int count) {
    second_floor_listener *listeners = calloc((size_t)count, sizeof(second_floor_listener));
    for (int i = 0; i < count; i++) {
        listeners[i] = i % 2 == 0 ? (second_floor_listener){calloc(1, sizeof(first_context)), first_changed}
                                  : (second_floor_listener){calloc(1, sizeof(second_context)), second_changed};
    }
    return listeners;
}

void second_floor_changed(const second_floor_listener *listeners, int count, void *source, long value) {
    for (int i = 0; i < count; i++) listeners[i].changed(listeners[i].context, source, value);
}
