/*
 * explorer_snap.h — the snapshots reverse execution is built on.
 *
 * The run is deterministic, so any earlier cycle can be reached exactly by
 * restoring the nearest snapshot at or before it and simulating forward.
 * The store keeps snapshots taken while running forward, at least
 * `interval` cycles apart, and never more than `budget` bytes: when a new
 * snapshot would exceed the budget, older snapshots are thinned first (the
 * one whose removal leaves the smallest gap relative to its age goes), so
 * recent history stays dense and reverse-stepping a few cycles stays cheap
 * however long the run. The snapshot of cycle 0 is always kept, so every
 * cycle stays reachable.
 *
 * During long runs (`continue`) the interval also adapts to the cost of a
 * snapshot: it is at least XSNAP_COST_FACTOR times the cycles simulated in
 * the time one snapshot takes, so snapshots cost at most
 * ~1/XSNAP_COST_FACTOR of the run. Short runs (`step`) use the base
 * interval, so history near where the user is looking stays dense.
 */
#ifndef IVX_EXPLORER_SNAP_H
#define IVX_EXPLORER_SNAP_H

#include <stddef.h>
#include <stdint.h>
#include "base/err.h"

#define XSNAP_COST_FACTOR 100

struct core;
struct xsnaps;

struct xsnaps *xsnaps_new(void);
void xsnaps_free(struct xsnaps *s);
/* Drop every snapshot (a restart). */
void xsnaps_clear(struct xsnaps *s);
void xsnaps_configure(struct xsnaps *s, uint64_t interval, uint64_t budget);

/* Take a snapshot now if none is within the interval before this cycle.
 * `cycles_per_sec` is the speed of a long run (0: a short step, use the
 * base interval). 0, or -1 with err when saving failed. */
int xsnaps_maybe_take(struct xsnaps *s, struct core *c, double cycles_per_sec, struct ivx_err *err);
/* Take one unconditionally (cycle 0). */
int xsnaps_take(struct xsnaps *s, struct core *c, struct ivx_err *err);

/* Restore the latest snapshot at a cycle <= `cycle` (mode 0) or with at
 * most `committed` instructions committed (mode 1). 0, or -1 with err. */
int xsnaps_restore_cycle(struct xsnaps *s, struct core *c, uint64_t cycle, struct ivx_err *err);
int xsnaps_restore_committed(struct xsnaps *s, struct core *c, uint64_t committed, struct ivx_err *err);

/* The snapshot xsnaps_restore_cycle / _committed would restore (NULL if
 * none), to look at before restoring it. */
const struct core_snapshot *xsnaps_find_cycle(const struct xsnaps *s, uint64_t cycle);
const struct core_snapshot *xsnaps_find_committed(const struct xsnaps *s, uint64_t committed);

/* The cycle of the oldest snapshot whose guest made `changes` host
 * directory changes (guest_host_changes); *found = 0 if none. */
uint64_t xsnaps_first_with_changes(const struct xsnaps *s, uint64_t changes, int *found);

/* The cycle of the latest snapshot strictly before `cycle`, for walking
 * back window by window; 0 and *found = 0 when there is none. */
uint64_t xsnaps_before(const struct xsnaps *s, uint64_t cycle, int *found);

struct xsnaps_info {
	int count;
	size_t bytes, budget;
	uint64_t interval;        /* effective (adapted) interval */
	uint64_t first, last;     /* cycles of the oldest and newest */
	double save_ms;           /* average time to take one */
};
void xsnaps_info(const struct xsnaps *s, struct xsnaps_info *out);

#endif
