/*
 * strat_prof.h — the exact profile beside the profiler's estimate, and
 * the error metric of the paper's section 5.3.1.
 *
 * One table keyed by tuple <pc, value> holds both counts: n_i(v), every
 * occurrence (the simulator sees the whole stream), and n_p(v), the sum
 * of the counts of the messages software received for it; n_i(pc) and
 * n_p(pc) are sums over a pc's tuples, built when asked for. A message's
 * tuple is always one the stream carried, so it is always in the table.
 *
 * The tables have a fixed capacity unless created growable: a snapshot
 * needs a constant size (the explorer), a batch run does not (ivx strat).
 * Tuples that find a full fixed table are counted in `dropped` and left
 * out of both profiles.
 */
#ifndef IVX_STRAT_PROF_H
#define IVX_STRAT_PROF_H

#include <stddef.h>
#include <stdint.h>
#include "base/err.h"

struct strat_prof;
struct strat_comp;

/* capacity: tuples (rounded up to a power of two); growable: double
 * when 3/4 full instead of dropping. */
struct strat_prof *strat_prof_new(uint32_t capacity, int growable, struct ivx_err *err);
void strat_prof_free(struct strat_prof *p);

/* One occurrence in the stream. */
void strat_prof_exact(struct strat_prof *p, uint64_t pc, uint64_t val);
/* A message for <pc, val> standing for `count` occurrences. */
void strat_prof_estimate(struct strat_prof *p, uint64_t pc, uint64_t val, uint64_t count);

/* Which tuples the error looks at (section 5.3.1): pcs executed at least
 * min_exec times; of their tuples the "sufficiently invariant" ones, at
 * least `invariant` of the pc's executions; and only pcs whose invariant
 * tuples cover at least `coverage` of their executions. */
struct strat_err_params {
	uint64_t min_exec;    /* 1000 */
	double invariant;     /* 0.10 */
	double coverage;      /* 0.40 */
};
#define STRAT_ERR_PARAMS_PAPER { 1000, 0.10, 0.40 }

struct strat_err_detail {
	uint64_t tuples;      /* selected tuples */
	uint64_t pcs;         /* selected pcs */
	uint64_t weight;      /* f: their executions */
	double bound;         /* sketches: the metric's bound from the count bound, else 0 */
};

/* e = sum over selected v of f(v)/f * |I_i(v) - I_p(v)|, with
 * I(v) = n(v)/n(pc), I_p = 0 where software has seen nothing of pc.
 * With `sketch` (CM, SS), n_p comes from querying it instead of from
 * the messages. NaN when no tuple is selected yet. */
double strat_prof_error(struct strat_prof *p, const struct strat_err_params *ep, const struct strat_comp *sketch,
			struct strat_err_detail *detail);

struct strat_prof_stats {
	uint64_t events;      /* occurrences counted */
	uint64_t tuples;      /* distinct tuples */
	uint64_t pcs;         /* distinct pcs */
	uint64_t dropped;     /* occurrences left out (fixed table full) */
	uint64_t estimated;   /* sum of message counts */
};
void strat_prof_stats(const struct strat_prof *p, struct strat_prof_stats *out);

/* The i-th tuple of the table in slot order (for listings): 0 past the
 * end, else 1 with the fields filled. */
struct strat_prof_row {
	uint64_t pc, val;
	uint64_t exact, est;
	uint64_t pc_exact, pc_est;
};
uint32_t strat_prof_slots(const struct strat_prof *p);
int strat_prof_row(const struct strat_prof *p, uint32_t slot, struct strat_prof_row *out);

/* Host memory the profile holds: its tables and the per-pc cache the
 * error and the listings build (which grows with the distinct pcs, not
 * the tuples). */
size_t strat_prof_host_bytes(const struct strat_prof *p);

size_t strat_prof_state_size(const struct strat_prof *p);
void strat_prof_save(const struct strat_prof *p, void *blob);
void strat_prof_restore(struct strat_prof *p, const void *blob);

#endif
