/*
 * explorer_snap.c — the bounded snapshot store (see explorer_snap.h).
 *
 * Snapshots are kept in an array sorted by cycle. Because the run is
 * deterministic, a snapshot stays valid when the user steps backwards and
 * forwards again, so nothing is dropped on reverse execution; only a
 * restart clears the store.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/core.h"
#include "guest/guest.h"
#include "explorer_snap.h"

struct snap {
	uint64_t cycle, committed;
	struct core_snapshot *s;
	size_t bytes;
};

struct xsnaps {
	struct snap *v;
	int count, cap;
	size_t bytes;
	uint64_t interval, budget;
	uint64_t eff_interval;
	double save_sec;          /* running average cost of one snapshot */
	int n_saved;
};

static double now_sec(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct xsnaps *xsnaps_new(void)
{
	struct xsnaps *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->interval = s->eff_interval = 5000;
	s->budget = 256u << 20;
	return s;
}

void xsnaps_clear(struct xsnaps *s)
{
	for (int i = 0; i < s->count; i++)
		core_snapshot_free(s->v[i].s);
	s->count = 0;
	s->bytes = 0;
}

void xsnaps_free(struct xsnaps *s)
{
	if (!s)
		return;
	xsnaps_clear(s);
	free(s->v);
	free(s);
}

void xsnaps_configure(struct xsnaps *s, uint64_t interval, uint64_t budget)
{
	s->interval = interval ? interval : 1;
	s->budget = budget;
	if (s->eff_interval < s->interval)
		s->eff_interval = s->interval;
}

/* Remove snapshot i (never the first). */
static void drop(struct xsnaps *s, int i)
{
	s->bytes -= s->v[i].bytes;
	core_snapshot_free(s->v[i].s);
	memmove(&s->v[i], &s->v[i + 1], (size_t)(s->count - i - 1) * sizeof s->v[0]);
	s->count--;
}

/* Thin the store until `extra` more bytes fit in the budget. The victim is
 * the interior snapshot whose removal gives the smallest merged gap
 * relative to its distance from the newest: old, crowded ones go first. */
static void make_room(struct xsnaps *s, size_t extra)
{
	while (s->bytes + extra > s->budget && s->count > 1) {
		int victim = s->count - 1;   /* with two, the newer one goes */
		double best = 0;
		uint64_t newest = s->v[s->count - 1].cycle;
		for (int i = 1; i + 1 < s->count; i++) {
			double gap = (double)(s->v[i + 1].cycle - s->v[i - 1].cycle);
			double age = (double)(newest - s->v[i].cycle) + (double)s->interval;
			double score = gap / age;
			if (victim == s->count - 1 || score < best) {
				best = score;
				victim = i;
			}
		}
		drop(s, victim);
	}
}

int xsnaps_take(struct xsnaps *s, struct core *c, struct ivx_err *err)
{
	double t0 = now_sec();
	struct core_snapshot *snap = core_snapshot_save(c, err);
	if (!snap)
		return -1;
	double dt = now_sec() - t0;
	/* The first snapshot of a run (cycle 0) also pays, once, for the host
	 * mapping the guest's untouched pages as it reads them: several
	 * times a later one's cost, it would make the interval far too long. */
	if (s->count > 0) {
		s->save_sec = s->n_saved ? 0.8 * s->save_sec + 0.2 * dt : dt;
		s->n_saved++;
	}
	struct snap n = { .cycle = core_cycles(c), .committed = core_committed(c), .s = snap,
			  .bytes = core_snapshot_bytes(snap) };
	make_room(s, n.bytes);
	if (s->count == s->cap) {
		int cap = s->cap ? s->cap * 2 : 64;
		struct snap *v = realloc(s->v, (size_t)cap * sizeof *v);
		if (!v) {
			core_snapshot_free(snap);
			return ivx_error(err, IVX_ESYS, "out of memory for snapshots");
		}
		s->v = v;
		s->cap = cap;
	}
	int pos = s->count;
	while (pos > 0 && s->v[pos - 1].cycle > n.cycle)
		pos--;
	if (pos > 0 && s->v[pos - 1].cycle == n.cycle) {   /* already have it */
		core_snapshot_free(snap);
		return 0;
	}
	memmove(&s->v[pos + 1], &s->v[pos], (size_t)(s->count - pos) * sizeof s->v[0]);
	s->v[pos] = n;
	s->count++;
	s->bytes += n.bytes;
	return 0;
}

int xsnaps_maybe_take(struct xsnaps *s, struct core *c, double cycles_per_sec, struct ivx_err *err)
{
	uint64_t now = core_cycles(c);
	s->eff_interval = s->interval;
	if (cycles_per_sec > 0 && s->n_saved > 0) {
		double adapt = s->save_sec * cycles_per_sec * XSNAP_COST_FACTOR;
		if (adapt > (double)s->interval)
			s->eff_interval = (uint64_t)adapt;
	}
	/* The latest snapshot at or before now. */
	int i = s->count - 1;
	while (i >= 0 && s->v[i].cycle > now)
		i--;
	if (i >= 0 && now - s->v[i].cycle < s->eff_interval)
		return 0;
	/* A later snapshot close ahead also makes this one unnecessary. */
	if (i + 1 < s->count && s->v[i + 1].cycle - now < s->eff_interval / 2)
		return 0;
	return xsnaps_take(s, c, err);
}

static int restore_index(struct xsnaps *s, struct core *c, int i, struct ivx_err *err)
{
	if (i < 0)
		return ivx_error(err, IVX_EUSAGE, "no snapshot to go back to");
	return core_snapshot_restore(c, s->v[i].s, err);
}

/* The latest snapshot at or before cycle (by_committed 0) or with at most
 * that many committed (1); -1 if none. */
static int find(const struct xsnaps *s, uint64_t at, int by_committed)
{
	int i = s->count - 1;
	while (i >= 0 && (by_committed ? s->v[i].committed : s->v[i].cycle) > at)
		i--;
	return i;
}

int xsnaps_restore_cycle(struct xsnaps *s, struct core *c, uint64_t cycle, struct ivx_err *err)
{
	return restore_index(s, c, find(s, cycle, 0), err);
}

int xsnaps_restore_committed(struct xsnaps *s, struct core *c, uint64_t committed, struct ivx_err *err)
{
	return restore_index(s, c, find(s, committed, 1), err);
}

const struct core_snapshot *xsnaps_find_cycle(const struct xsnaps *s, uint64_t cycle)
{
	int i = find(s, cycle, 0);
	return i < 0 ? NULL : s->v[i].s;
}

const struct core_snapshot *xsnaps_find_committed(const struct xsnaps *s, uint64_t committed)
{
	int i = find(s, committed, 1);
	return i < 0 ? NULL : s->v[i].s;
}

uint64_t xsnaps_first_with_changes(const struct xsnaps *s, uint64_t changes, int *found)
{
	for (int i = 0; i < s->count; i++)
		if (guest_host_changes(core_snapshot_guest(s->v[i].s), NULL) == changes) {
			*found = 1;
			return s->v[i].cycle;
		}
	*found = 0;
	return 0;
}

uint64_t xsnaps_before(const struct xsnaps *s, uint64_t cycle, int *found)
{
	for (int i = s->count - 1; i >= 0; i--)
		if (s->v[i].cycle < cycle) {
			*found = 1;
			return s->v[i].cycle;
		}
	*found = 0;
	return 0;
}

void xsnaps_info(const struct xsnaps *s, struct xsnaps_info *out)
{
	out->count = s->count;
	out->bytes = s->bytes;
	out->budget = s->budget;
	out->interval = s->eff_interval;
	out->first = s->count ? s->v[0].cycle : 0;
	out->last = s->count ? s->v[s->count - 1].cycle : 0;
	out->save_ms = s->save_sec * 1e3;
}
