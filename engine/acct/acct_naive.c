/*
 * acct_naive.c — the two naive CPI-stack methods (Eyerman et al. §2).
 *
 * Both count miss events and multiply each count by a configured average
 * penalty ([penalty] in the machine config): an L2 D-cache miss "costs" the
 * memory latency, a misprediction the frontend length, and so on. They
 * differ in which events they count:
 *
 *   naive          every event the pipeline sees, wrong paths included (a
 *                  counter incremented when the miss happens);
 *   naive non-spec only events of instructions on the correct path, like
 *                  Pentium 4 counters that tag instructions and count at
 *                  retirement.
 *
 * The long-latency unit component counts the core's fu_stall events (a
 * multiply or divide blocking the ROB head) times penalty.fu.
 *
 * Nothing here looks at overlap, which is the point: two overlapping L2
 * misses are charged twice, and the base CPI (total minus the products) can
 * come out negative.
 */
#include <string.h>
#include "acct_internal.h"

const uint8_t acct_naive_comp[MISS_KIND_COUNT] = {
	[MISS_L1I] = ACCT_L1I, [MISS_L2I] = ACCT_L2I, [MISS_ITLB] = ACCT_ITLB,
	[MISS_L1D] = ACCT_L1D, [MISS_L2D] = ACCT_L2D, [MISS_DTLB] = ACCT_DTLB,
	[MISS_MISPREDICT] = ACCT_BPRED, [MISS_FU_STALL] = ACCT_FU,
	[MISS_ROB_FULL] = ACCT_COMP_COUNT, [MISS_ROB_EMPTY] = ACCT_COMP_COUNT,
};

static void naive_on_miss(void *ctx, const struct miss_event *e)
{
	struct acct *a = ctx;
	if (e->phase != MISS_BEGIN)
		return;
	unsigned k = acct_naive_comp[e->kind];
	if (k >= ACCT_COMP_COUNT)
		return;
	if (a->method == ACCT_NAIVE_NONSPEC && !e->correct_path)
		return;
	a->s.naive.events[k]++;
}

static void naive_on_cycle(void *ctx, const struct cycle_record *r)
{
	struct acct_cycle_view v;
	acct_cycle_view(r, &v);
	acct_clock_tick(ctx, &v);
}

void acct_naive_init(struct acct *a)
{
	memset(&a->s, 0, sizeof a->s);
	a->state_size = sizeof a->s.naive;
	a->obs.on_insn = NULL;
	a->obs.miss_filter = ACCT_MISS_FILTER;
	a->obs.miss_skip_end = ~0u;               /* counts begins */
	a->obs.on_miss = naive_on_miss;
	a->obs.on_cycle = naive_on_cycle;
}
