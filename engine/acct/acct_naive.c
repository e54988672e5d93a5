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

static int miss_comp(int kind)
{
	switch (kind) {
	case MISS_L1I: return ACCT_L1I;
	case MISS_L2I: return ACCT_L2I;
	case MISS_ITLB: return ACCT_ITLB;
	case MISS_L1D: return ACCT_L1D;
	case MISS_L2D: return ACCT_L2D;
	case MISS_DTLB: return ACCT_DTLB;
	case MISS_MISPREDICT: return ACCT_BPRED;
	case MISS_FU_STALL: return ACCT_FU;
	default: return -1;
	}
}

static void naive_on_miss(void *ctx, const struct miss_event *e)
{
	struct acct *a = ctx;
	if (e->phase != MISS_BEGIN)
		return;
	int k = miss_comp(e->kind);
	if (k < 0)
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
