/*
 * explorer_trace.h — what the explorer remembers about the run: the last
 * XTRACE_CYCLES per-cycle records (the timeline), the last XTRACE_EVENTS
 * miss events (the events pane, timeline spans), and the two events the
 * explorer derives from the engine's (overlap, interval).
 *
 * It is one core observer. Its state is part of every engine snapshot
 * (state_size/save/restore), so after reverse stepping the panes show
 * exactly what they showed when the cycle was first reached.
 *
 * Every event, engine or derived, is also passed to a sink (the breakpoint
 * module) at its begin and at its end.
 */
#ifndef IVX_EXPLORER_TRACE_H
#define IVX_EXPLORER_TRACE_H

#include <stdint.h>
#include "core/events.h"
#include "explorer.h"

#define XTRACE_CYCLES 1024
#define XTRACE_EVENTS 1024

/* One cycle of the timeline, as the timeline pane draws it. */
struct xtl_cycle {
	uint64_t cycle;
	int dispatched, issued, issued_correct, committed;
	int rob_occupancy;
	int rob_full;              /* dispatch was blocked by a full ROB (0 or 1) */
	int wrong_path_in_rob;     /* (0 or 1) */
};

typedef void (*xtrace_sink_fn)(void *ctx, const struct xevent *e, int phase);

struct xtrace;

struct xtrace *xtrace_new(void);
void xtrace_free(struct xtrace *t);
/* Forget everything (a restart). */
void xtrace_reset(struct xtrace *t);
/* The observer to add to the core (ctx is t). */
const struct core_observer *xtrace_observer(struct xtrace *t);
void xtrace_set_sink(struct xtrace *t, xtrace_sink_fn fn, void *ctx);

/* Timeline: number of cycles kept, and cycle i back (0 = the newest). */
int xtrace_cycle_count(const struct xtrace *t);
int xtrace_cycle_at(const struct xtrace *t, int i, struct xtl_cycle *out);   /* 0, or -1 */

/* Events: number kept, and event i back in begin order (0 = the newest). */
int xtrace_event_count(const struct xtrace *t);
const struct xevent *xtrace_event_at(const struct xtrace *t, int i);
/* Events begun so far of one kind (correct path, derived included). */
uint64_t xtrace_event_total(const struct xtrace *t, int kind);
/* Instruction pc's correct-path miss events begun and cycles at the ROB
 * head while nothing committed, since the start (0 if never seen); 0, or
 * 1 when the table is full and some instructions are not counted
 * (xcharge_pc_counts, the code pane's other counts). */
int xtrace_pc_counts(const struct xtrace *t, uint64_t pc, uint64_t *misses, uint64_t *stalls);

#endif
