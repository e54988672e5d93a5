/*
 * acct_ivx.c — ivx counters: a sixth counter architecture, ours, beyond
 * the five of Eyerman et al. (docs/cpi-stacks.md, "ivx counters").
 *
 * The FMT charges a miss event every cycle interval analysis says it
 * costs: an I-side miss its whole delay, a misprediction every cycle from
 * the branch entering the ROB to the refill, a long D-side miss every
 * cycle the ROB is full behind it. `ivx cost` and the reference stacks
 * show where that is wrong (docs/validation.md): the machine was not
 * always idle in those cycles. These counters keep the FMT's structure
 * and charge a cycle to an event only when the pipeline shows the event
 * is what holds it up:
 *
 *   ROB full        to what blocks the head (the FMT's rule), except that
 *                   behind a long miss (L2 D-cache, D-TLB) a cycle in
 *                   which a correct-path instruction still issues is base:
 *                   the window behind the miss is doing the work it would
 *                   have done anyway;
 *   misprediction   window (the branch in the ROB, unresolved, ROB not
 *                   full): the branch's penalty counter, except cycles in
 *                   which nothing commits because the head waits on a
 *                   D-side miss or a long-latency op: those the machine
 *                   would have lost with a correct prediction too, so the
 *                   branch's row holds them apart and, if it resolves
 *                   mispredicted, gives them to the head's component;
 *                   then the refill, as the FMT;
 *   I-side miss     a cause register, set while fetch waits on a miss and
 *                   kept through the refill until instructions enter the
 *                   ROB again; a cycle goes to it only if dispatch is
 *                   starved (no instruction entered the ROB) and the
 *                   backend issued nothing: while the frontend's buffers
 *                   or the ROB's own work cover the miss, it costs nothing.
 *
 * In hardware the branch rows are the FMT's (the I-side cycles of a wrong
 * path wait in the fetch row's local counters and are dropped with it),
 * each with one more counter (blocked cycles) and the 2-bit component that
 * blocked last. A set of units (acct_set.c) gives this unit only the
 * correct-path mispredicted branch, whose row is the only one that ever
 * reaches a global counter, and correct-path I-side stalls (the wrong
 * path's local counters are dropped before they count): the same counts
 * without the table.
 *
 * Transitions of the misprediction state (s->bp):
 *
 *   NONE --dispatch of a correct-path mispredicted branch--> WINDOW
 *        (ivx_on_miss: MISS_MISPREDICT begins at that dispatch)
 *   WINDOW --the branch resolves--> REFILL   (acct_ivx_insn: charge the row)
 *   REFILL --a correct-path instruction enters the ROB--> NONE
 *        (acct_ivx_cycles)
 */
#include <string.h>
#include "acct_internal.h"

void acct_ivx_insn(struct acct *a, const struct insn_event *e)
{
	struct acct_ivx_state *s = &a->s.ivx;
	if (e->stage != INSN_COMPLETE || !e->mispredicted || e->wrong_path || s->bp != ACCT_IVX_BP_WINDOW
	    || e->seq != s->bp_seq)
		return;
	s->t.global[ACCT_BPRED] += s->bp_pen;
	s->t.global[s->bp_blocked_comp] += s->bp_blocked;
	s->bp_pen = 0;
	s->bp_blocked = 0;
	s->bp_seq = 0;
	s->bp = ACCT_IVX_BP_REFILL;
}

static void ivx_on_insn(void *ctx, const struct insn_event *e)
{
	acct_ivx_insn(ctx, e);
}

/* A correct-path mispredicted branch entered the ROB: its window opens. */
static void ivx_on_miss(void *ctx, const struct miss_event *e)
{
	struct acct *a = ctx;
	struct acct_ivx_state *s = &a->s.ivx;
	if (e->kind != MISS_MISPREDICT || e->phase != MISS_BEGIN || !e->correct_path)
		return;
	s->bp = ACCT_IVX_BP_WINDOW;
	s->bp_seq = e->insn_seq;
	s->bp_pen = 0;
	s->bp_blocked = 0;
	s->bp_blocked_comp = ACCT_COMP_COUNT;
}

void acct_ivx_cycles(struct acct *a, const struct cycle_record *r, uint64_t n)
{
	struct acct_ivx_state *s = &a->s.ivx;
	int head = acct_head_comp(r);
	int fe = acct_fetch_comp(r->fetch_stall);
	int entered = r->dispatched_correct > 0;
	int issued = r->issued_correct > 0;
	uint64_t *g = s->t.global;

	/* the I-side cause: set while fetch waits on a correct-path miss,
	 * kept through the refill until instructions enter the ROB again */
	if (fe >= 0)
		s->icause = fe;
	else if (entered)
		s->icause = -1;
	if (s->bp == ACCT_IVX_BP_REFILL && entered)
		s->bp = ACCT_IVX_BP_NONE;

	if (acct_rob_full(r)) {
		/* behind a long miss, issuing is work the window does anyway */
		if (issued && (head == ACCT_L2D || head == ACCT_DTLB))
			return;
		if (head >= 0)
			g[head] += n;
		return;
	}
	switch (s->bp) {
	case ACCT_IVX_BP_WINDOW:
		if (r->committed == 0 && head >= 0) {
			s->bp_blocked += n;
			s->bp_blocked_comp = head;
		} else {
			s->bp_pen += n;
		}
		return;
	case ACCT_IVX_BP_REFILL:
		g[fe >= 0 ? fe : ACCT_BPRED] += n;
		return;
	default:
		break;
	}
	/* dispatch starved and the backend idle: the frontend's fault */
	if (s->icause >= 0 && !entered && !issued)
		g[s->icause] += n;
}

static void ivx_on_cycle(void *ctx, const struct cycle_record *r)
{
	struct acct *a = ctx;
	struct acct_cycle_view v;
	acct_cycle_view(r, &v);
	acct_clock_tick(a, &v);
	acct_ivx_cycles(a, r, 1);
}

void acct_ivx_init(struct acct *a)
{
	memset(&a->s, 0, sizeof a->s);
	a->s.ivx.icause = -1;
	a->s.ivx.bp_blocked_comp = ACCT_COMP_COUNT;
	a->state_size = sizeof a->s.ivx;
	a->obs.on_insn = ivx_on_insn;
	memset(a->obs.insn_filter_at, 0, sizeof a->obs.insn_filter_at);
	a->obs.insn_filter_at[INSN_COMPLETE] = INSN_WANT_MISPREDICT | INSN_WANT_CORRECT_PATH;
	a->obs.on_miss = ivx_on_miss;
	a->obs.miss_filter = MISS_BIT(MISS_MISPREDICT);
	a->obs.miss_skip_end = MISS_BIT(MISS_MISPREDICT);
	a->obs.on_cycle = ivx_on_cycle;
}
