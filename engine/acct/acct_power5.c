/*
 * acct_power5.c — the IBM POWER5 completion-stall counters (Eyerman et al.
 * §2, after Luo et al. / Mericas).
 *
 * The POWER5 looks only at the completion (commit) stage. A cycle in which
 * nothing commits is a completion stall, charged by cause:
 *
 *   ROB empty      to what stopped the frontend feeding the ROB: the I-side
 *                  miss the fetch unit waits on, or the branch misprediction
 *                  whose flush emptied it. The cause is latched when fetch
 *                  stalls on an I-miss or a mispredicted branch resolves, and
 *                  stays until instructions enter the ROB again, so the
 *                  frontend refill after the miss is charged to it too.
 *   head blocked   by what the ROB head waits for: L1 D-cache miss, L2
 *                  D-cache miss, D-TLB miss, or a long-latency unit.
 *
 * Other zero-commit cycles (the head is a short op still executing, a store
 * draining, an empty ROB after a system call) are left in base.
 *
 * It misses what happens before the ROB drains: the cycles an I-cache miss
 * or a misprediction costs while older instructions still commit. That is
 * why it under-counts I-cache and misprediction penalties (the paper's
 * Figures 4 and 6).
 */
#include <string.h>
#include "acct_internal.h"

void acct_power5_insn(struct acct *a, const struct insn_event *e)
{
	if (e->stage == INSN_COMPLETE && e->mispredicted && !e->wrong_path && acct_is_branch(e->uop))
		a->s.p5.empty_cause = ACCT_BPRED;
}

static void p5_on_insn(void *ctx, const struct insn_event *e)
{
	acct_power5_insn(ctx, e);
}

static void p5_on_cycle(void *ctx, const struct cycle_record *r)
{
	struct acct_cycle_view v;
	acct_cycle_view(r, &v);
	acct_clock_tick(ctx, &v);
	acct_power5_cycle(ctx, r, &v);
}

void acct_power5_init(struct acct *a)
{
	memset(&a->s, 0, sizeof a->s);
	a->s.p5.empty_cause = ACCT_COMP_COUNT;
	a->state_size = sizeof a->s.p5;
	a->obs.on_insn = p5_on_insn;
	memset(a->obs.insn_filter_at, 0, sizeof a->obs.insn_filter_at);
	a->obs.insn_filter_at[INSN_COMPLETE] = INSN_WANT_MISPREDICT | INSN_WANT_CORRECT_PATH;
	a->obs.on_miss = NULL;
	a->obs.on_cycle = p5_on_cycle;
}
