/*
 * inst_reset.h — `reset stats`: count from here. The CPI stacks, the miss
 * event counts and the code pane's commit counts start again from zero at
 * the cycle of the reset, so the cold-start misses of a kernel's first
 * repetition stop swamping what a lesson is about.
 *
 * Nothing in the engine is changed. The reset keeps a copy of every
 * counter as it was at its cycle C (the baseline), and the getters below
 * return the engine's count minus the baseline whenever the run is at or
 * after C. The run is deterministic, so the engine's counters at C are the
 * same every time the run passes C: reverse stepping, replays from a
 * snapshot and `goto` need no special care. Before C (after going back)
 * the getters return the counts from the start, as they were then. A new
 * `reset stats` replaces the baseline; `run` and `restart` drop it.
 */
#ifndef IVX_INST_RESET_H
#define IVX_INST_RESET_H

#include <stdint.h>
#include "acct/acct.h"
#include "core/events.h"

struct explorer;

/* Take the baseline at the current cycle. 0, or -1 with explorer_error. */
int xreset_stats(struct explorer *x);
/* The cycle counting starts from (the reset's), or 0 when not in force. */
uint64_t xreset_since(const struct explorer *x);

/* The CPI stack of `method` since the reset (or since cycle 0); 0, or -1
 * when there is no such unit. */
int xreset_stack(const struct explorer *x, int method, struct acct_stack *out);
/* Commits of the instruction at pc since the reset. */
uint64_t xreset_commits_at(const struct explorer *x, uint64_t pc);
/* Miss events since the reset: correct path and wrong path of each
 * enum miss_kind, and the explorer's total of a derived kind (XEV_*). */
void xreset_events(const struct explorer *x, uint64_t correct[MISS_KIND_COUNT], uint64_t wrong[MISS_KIND_COUNT]);
uint64_t xreset_event_total(const struct explorer *x, int kind);

#endif
