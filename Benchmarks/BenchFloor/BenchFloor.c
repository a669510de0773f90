// The floor of a dispatch whose targets are known only at run time, in C: a loop over (context, function pointer)
// pairs into two callees per message. No reference counting, no existential, no bounds check: what a Swift
// strategy is measured against in the `cFunctionPointer` rows.

#include "BenchFloor.h"

#include <stdlib.h>

typedef struct { long tally; } tally_context;
typedef struct { long registrations; long tally; } offset_context;

static void tally_scroll(void *context, void *view) { (void)view; ((tally_context *)context)->tally += 1; }
static void offset_scroll(void *context, void *view) { (void)view; ((offset_context *)context)->tally += 1; }
static void tally_drag(void *context, void *view, bool decelerate) { (void)view; (void)decelerate; ((tally_context *)context)->tally += 1; }
static void offset_drag(void *context, void *view, bool decelerate) { (void)view; (void)decelerate; ((offset_context *)context)->tally += 1; }
static bool tally_top(void *context, void *view) { (void)view; ((tally_context *)context)->tally += 1; return true; }
static bool offset_top(void *context, void *view) { (void)view; ((offset_context *)context)->tally += 1; return true; }
static void *tally_zoom(void *context, void *view) { (void)view; ((tally_context *)context)->tally += 1; return NULL; }
static void *offset_zoom(void *context, void *view) { (void)view; ((offset_context *)context)->tally += 1; return NULL; }
static void tally_will_end(void *context, void *view, double velocity, double *target_offset) {
    (void)view;
    ((tally_context *)context)->tally += 1;
    *target_offset = velocity;
}
static void offset_will_end(void *context, void *view, double velocity, double *target_offset) {
    (void)view;
    ((offset_context *)context)->tally += 1;
    *target_offset = velocity;
}

bench_floor_target *bench_floor_make(int count) {
    bench_floor_target *targets = calloc((size_t)count, sizeof(bench_floor_target));
    for (int i = 0; i < count; i++) {
        if (i % 2 == 0) {
            targets[i] = (bench_floor_target){calloc(1, sizeof(tally_context)), tally_scroll, tally_drag, tally_top, tally_zoom, tally_will_end};
        } else {
            targets[i] = (bench_floor_target){calloc(1, sizeof(offset_context)), offset_scroll, offset_drag, offset_top, offset_zoom, offset_will_end};
        }
    }
    return targets;
}

void bench_floor_free(bench_floor_target *targets, int count) {
    for (int i = 0; i < count; i++) free(targets[i].context);
    free(targets);
}

void bench_floor_did_scroll(const bench_floor_target *targets, int count, void *view) {
    for (int i = 0; i < count; i++) targets[i].did_scroll(targets[i].context, view);
}

void bench_floor_did_end_dragging(const bench_floor_target *targets, int count, void *view, bool decelerate) {
    for (int i = 0; i < count; i++) targets[i].did_end_dragging(targets[i].context, view, decelerate);
}

bool bench_floor_should_scroll_to_top(const bench_floor_target *targets, int count, void *view) {
    bool all = true;
    for (int i = 0; i < count; i++) all = targets[i].should_scroll_to_top(targets[i].context, view) && all;
    return all;
}

void *bench_floor_view_for_zooming(const bench_floor_target *targets, int count, void *view) {
    for (int i = 0; i < count; i++) {
        void *found = targets[i].view_for_zooming(targets[i].context, view);
        if (found) return found;
    }
    return NULL;
}

void bench_floor_will_end_dragging(
    const bench_floor_target *targets, int count, void *view, double velocity, double *target_offset) {
    for (int i = 0; i < count; i++) targets[i].will_end_dragging(targets[i].context, view, velocity, target_offset);
}

static unsigned long bench_floor_counter;

void bench_floor_increment(void) { __atomic_fetch_add(&bench_floor_counter, 1, __ATOMIC_SEQ_CST); }

void bench_floor_decrement(void) { __atomic_fetch_sub(&bench_floor_counter, 1, __ATOMIC_SEQ_CST); }

static long bench_floor_called;
static void bench_floor_callee(void) { bench_floor_called += 1; }
// Volatile, so that every call loads it and calls through it.
static void (*volatile bench_floor_target_function)(void) = bench_floor_callee;

void bench_floor_indirect_calls(long count) {
    for (long i = 0; i < count; i++) bench_floor_target_function();
}

// One node per 64-byte line; the chain visits every node once, in a random order (a random cyclic permutation,
// Sattolo's algorithm, with a fixed seed), so that no prefetcher guesses the next line.
typedef struct chain_node { struct chain_node *next; char padding[56]; } chain_node;

void *bench_floor_chain(long bytes) {
    long count = bytes / (long)sizeof(chain_node);
    chain_node *nodes = aligned_alloc(64, (size_t)count * sizeof(chain_node));
    if (!nodes) return NULL;
    long *order = malloc((size_t)count * sizeof(long));
    for (long i = 0; i < count; i++) order[i] = i;
    unsigned long long state = 0x9E3779B97F4A7C15ULL;
    for (long i = count - 1; i > 0; i--) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        long j = (long)((state >> 33) % (unsigned long long)i);
        long swap = order[i];
        order[i] = order[j];
        order[j] = swap;
    }
    for (long i = 0; i < count; i++) nodes[order[i]].next = &nodes[order[(i + 1) % count]];
    free(order);
    return nodes;
}

void bench_floor_chain_free(void *chain) { free(chain); }

void *bench_floor_chase(void *node, long count) {
    chain_node *at = node;
    for (long i = 0; i < count; i++) at = at->next;
    return at;
}
