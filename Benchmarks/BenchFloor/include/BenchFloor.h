#ifndef BENCH_FLOOR_H
#define BENCH_FLOOR_H

#include <stdbool.h>
#include <stddef.h>

/// One target of the C fan-out: its state, and the function that handles each message.
typedef struct {
    void *context;
    void (*did_scroll)(void *context, void *view);
    void (*did_end_dragging)(void *context, void *view, bool decelerate);
    bool (*should_scroll_to_top)(void *context, void *view);
    void *(*view_for_zooming)(void *context, void *view);
    void (*will_end_dragging)(void *context, void *view, double velocity, double *target_offset);
} bench_floor_target;

/// `count` targets, alternating between two callees of each message that increment a counter (as the Swift
/// targets do) in contexts of two different layouts. Free with bench_floor_free.
bench_floor_target *bench_floor_make(int count);
void bench_floor_free(bench_floor_target *targets, int count);

/// The fan-out of each message, as a loop over (context, function pointer) pairs.
void bench_floor_did_scroll(const bench_floor_target *targets, int count, void *view);
void bench_floor_did_end_dragging(const bench_floor_target *targets, int count, void *view, bool decelerate);
bool bench_floor_should_scroll_to_top(const bench_floor_target *targets, int count, void *view);
void *bench_floor_view_for_zooming(const bench_floor_target *targets, int count, void *view);
void bench_floor_will_end_dragging(
    const bench_floor_target *targets, int count, void *view, double velocity, double *target_offset);

/// One uncontended atomic increment of a counter, and one decrement: what a retain and a release cost the
/// runtime, out of line as `swift_retain` and `swift_release` are (sequentially consistent, `lock xadd` on x86-64).
void bench_floor_increment(void);
void bench_floor_decrement(void);

/// The machine's primitives, out of line so that each is what it says (the `primitives` family): `count` calls
/// through a function pointer the compiler cannot see through; `count` loads, each depending on the last, through a
/// chain that `bench_floor_chain` made of nodes scattered over `bytes` (far more than any cache), so that each load
/// misses every cache.
void bench_floor_indirect_calls(long count);
void *bench_floor_chain(long bytes);
void bench_floor_chain_free(void *chain);
void *bench_floor_chase(void *node, long count);

#endif
