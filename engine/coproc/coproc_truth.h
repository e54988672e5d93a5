/*
 * coproc_truth.h — exact profiles to check the co-processor against, and
 * the baseline it is compared with.
 *
 * A truth observer watches every retired instruction of one kind and
 * counts, per key, executions and (key, value) pairs:
 *   TRUTH_LOADS     key = load pc, value = the loaded value
 *   TRUTH_BRANCHES  key = conditional branch pc, value = taken (0/1)
 *   TRUTH_CALLS     key = call depth + 1 at each call, value 0
 *                   (depth: calls minus returns, never below 0)
 * With period > 0 it is instead the plain interrupt-driven sampling value
 * profiler: every period-th retired load (jittered by an LFSR between
 * period/2 and 3*period/2) interrupts the main processor, whose handler
 * (cost cycles, charged with core_interrupt) records the pc and value.
 *
 * The table grows as pairs appear (amortised doubling, never per cycle).
 * It and the summary are not snapshot state: the command-line runs use
 * them, the explorer does not.
 */
#ifndef IVX_COPROC_TRUTH_H
#define IVX_COPROC_TRUTH_H

#include <stddef.h>
#include <stdint.h>
#include "base/err.h"
#include "core/core.h"

enum truth_kind { TRUTH_LOADS, TRUTH_BRANCHES, TRUTH_CALLS };

struct coproc_truth;

struct coproc_truth *coproc_truth_new(struct core *c, int kind, uint64_t period, uint64_t cost, uint64_t seed,
				      struct ivx_err *err);
void coproc_truth_free(struct coproc_truth *t);
const struct core_observer *coproc_truth_observer(struct coproc_truth *t);

struct truth_key {
	uint64_t key;
	uint64_t executions;   /* (sampled: samples) */
	uint64_t top_count;    /* executions with the most frequent value */
	uint64_t top_value;
	uint64_t count1;       /* executions with value 1 (branches: taken) */
	uint32_t first, nvalues; /* its (value, count) pairs: coproc_truth_value(t, first + j) */
};
/* Build the per-key summary: the number of keys (0 also when out of
 * memory). Calling it again rebuilds the summary only if something was
 * counted since (the previous summary's pointers are then invalid). */
int coproc_truth_summarise(struct coproc_truth *t);
const struct truth_key *coproc_truth_key(const struct coproc_truth *t, int i);
/* The summary of `key`, NULL if never seen. */
const struct truth_key *coproc_truth_find(const struct coproc_truth *t, uint64_t key);

/* Pair i of the summary (keys' pairs are consecutive, values ascending):
 * 1 and *value, *count, or 0 past the end. */
int coproc_truth_value(const struct coproc_truth *t, size_t i, uint64_t *value, uint64_t *count);
/* How often (key, value) was counted (0 if never). */
uint64_t coproc_truth_count(const struct coproc_truth *t, uint64_t key, uint64_t value);

/* Summarise, then free the pair table: the summary answers every query
 * from now on (coproc_truth_count by binary search) and the observer
 * counts nothing more. For a finished run, so that its table is not held
 * while another runs. 0, or -1 out of memory (the table is kept). */
int coproc_truth_freeze(struct coproc_truth *t);

/* Host memory held: the pair table, and the summary if built. */
size_t coproc_truth_host_bytes(const struct coproc_truth *t);

uint64_t coproc_truth_events(const struct coproc_truth *t);   /* instructions observed */
uint64_t coproc_truth_samples(const struct coproc_truth *t);  /* sampled: interrupts taken */
uint64_t coproc_truth_period(const struct coproc_truth *t);   /* the sampler's mean period, 0 none */
uint64_t coproc_truth_overhead(const struct coproc_truth *t); /* sampled: cycles charged */

#endif
