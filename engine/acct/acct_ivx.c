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
 *   ROB full        to what blocks the head (the FMT's rule); behind a
 *                   long miss (L2 D-cache, D-TLB) not a cycle in which
 *                   the frontend still fetches the correct path (a
 *                   program bound by its fetch loses nothing until the
 *                   frontend's buffers are full too) nor, behind an
 *                   L2 D-cache miss, one in which a divider works (a base
 *                   bound by the unpipelined divider keeps it busy
 *                   anyway), and the
 *                   correct-path instructions that still issue are
 *                   counted as work, which the read-out gives back at
 *                   the base rate: the window behind the miss does work
 *                   it would have done anyway; behind an unresolved misprediction with no
 *                   divider at work and the head on a long-latency op or
 *                   none, the branch's row also counts the cycle in its
 *                   unit-idle counter: with a correct prediction the ROB
 *                   would hold the correct path's divides, and a program
 *                   whose base time the divider fills loses that cycle to
 *                   the branch (the read-out weighs the share);
 *   misprediction   window (the branch in the ROB, unresolved, ROB not
 *                   full): the branch's penalty counter, except cycles in
 *                   which nothing commits because the head waits on a
 *                   D-side miss or a long-latency op: those the machine
 *                   would have lost with a correct prediction too, so the
 *                   branch's row holds them apart and, if it resolves
 *                   mispredicted, gives them to the head's component
 *                   (but an L1 D-miss at the head of a ROB less than 3/8
 *                   full, while instructions past the branch issue, is
 *                   the branch's: a correct path would have filled the
 *                   ROB behind it and hidden the miss);
 *                   and except cycles after a correct path would have
 *                   filled the ROB (the row's virtual ROB: the free
 *                   entries at the window's start, plus what commits,
 *                   less the dispatch width a cycle): dispatch would have
 *                   stalled with a correct prediction too, and nothing
 *                   past the unresolved branch can commit in either case
 *                   (base); then the refill, as the FMT, but a refill
 *                   cycle in which instructions still commit, after the
 *                   machine issued below half its dispatch width, is a
 *                   partial one (the read-out charges the share f, as an
 *                   I-side miss's);
 *   D-TLB walk      a head blocked on a load whose ROB entry's D-TLB bit
 *                   is set (its walk began at issue) gives the first
 *                   dtlb.miss_latency cycles of its wait to the D-TLB,
 *                   though the core says it waits on a D-cache miss by
 *                   then: with a perfect D-TLB its access would have
 *                   begun, and ended, that much earlier (a countdown
 *                   loaded when the head changes);
 *   D-side wait     ROB not full, no window: a cycle in which nothing
 *                   commits or issues and the head waits on a D-side miss
 *                   is that miss's (unless dispatch is starved by an
 *                   I-side miss); so is one in which the head waits on an
 *                   L1 D-cache miss and a few instructions issue, if the
 *                   last 4 cycles the frontend delivered in issued below
 *                   half the dispatch width (a chain the miss holds up;
 *                   near the width the ROB hides such a miss); and after
 *                   the ROB was full behind an L1 D-miss, the first 4
 *                   cycles that commit while fewer than the dispatch
 *                   width issue (the drain: what completed behind the
 *                   miss commits, what depends on it only now issues);
 *   I-side miss     a cause register, set while fetch waits on a miss and
 *                   kept through the refill until instructions enter the
 *                   ROB again; a dispatch-starved cycle (no instruction
 *                   entered the ROB) goes to it whole if the backend issued
 *                   nothing or if the episode began while the machine
 *                   issued at half its dispatch width or more (a 1-bit
 *                   flag, from the issue of the 4 cycles before), else to
 *                   its partial counter, of which the read-out charges the
 *                   share the program's base rate says was lost
 *                   (acct_ivx_stack). The issue history moves only in
 *                   cycles the frontend delivers in (no I-side cause, no
 *                   misprediction), so a miss right after another reads
 *                   the machine's rate before them.
 *
 * Base: a cycle no rule claims was base, and so every rule's error ended
 * up there. A shadow of the paper's base machine (acct_shadow.c) follows
 * a sample of the committed instructions and works out the base
 * machine's cycles for them; the read-out takes that rate for the base
 * (long-latency stalls included) and shares the other cycles among the
 * miss components by what the rules above gave them (acct_ivx_stack):
 * when the rules gave more than there is, the short events (L1 misses,
 * mispredictions), whose cost another bottleneck can hide, give up the
 * difference, and the long misses keep theirs.
 *
 * In hardware the branch rows are the FMT's (the I-side cycles of a wrong
 * path wait in the fetch row's local counters and are dropped with it),
 * each with more counters (blocked cycles, divider-idle full cycles, the
 * virtual ROB's free entries), a bit (was the head on a long-latency op)
 * and the 2-bit component that blocked last; beside the FMT's global counters, four partial (the
 * three I-side ones and the refill's), two work,
 * two unit-idle counters and one of cycles with a divider at work, fed by
 * the divider's busy signal (cycle_record.units_busy), a D-TLB bit per
 * ROB entry, the head's 5-bit walk countdown and a 3-bit L1 D-miss
 * drain countdown (docs/cpi-stacks.md §2 has the storage). A set of units
 * (acct_set.c) gives this unit only the correct-path mispredicted branch,
 * whose row is the only one that ever reaches a global counter, and
 * correct-path I-side stalls (the wrong path's local counters are dropped
 * before they count): the same counts without the table.
 *
 * Transitions of the misprediction state (s->bp):
 *
 *   NONE --dispatch of a correct-path mispredicted branch--> WINDOW
 *        (acct_ivx_miss: MISS_MISPREDICT begins at that dispatch)
 *   WINDOW --the branch resolves--> REFILL   (acct_ivx_insn: charge the row)
 *   REFILL --a correct-path instruction enters the ROB--> NONE
 *        (acct_ivx_cycles)
 */
#include <stddef.h>
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
	s->unit_idle[0] += s->bp_uidle[0];
	s->unit_idle[1] += s->bp_uidle[1];
	s->bp_uidle[0] = s->bp_uidle[1] = 0;
}

static void ivx_on_insn(void *ctx, const struct insn_event *e)
{
	acct_ivx_insn(ctx, e);
}

/* A correct-path mispredicted branch entered the ROB: its window opens. */
void acct_ivx_miss(struct acct *a, const struct miss_event *e)
{
	struct acct_ivx_state *s = &a->s.ivx;
	if (e->phase != MISS_BEGIN || !e->correct_path)
		return;
	if (e->kind == MISS_DTLB) {
		/* the load's ROB entry's D-TLB bit */
		s->tlb_seq[e->insn_seq % ACCT_IVX_TLB_SLOTS] = e->insn_seq;
		return;
	}
	if (e->kind != MISS_MISPREDICT)
		return;
	s->bp = ACCT_IVX_BP_WINDOW;
	s->bp_seq = e->insn_seq;
	s->bp_pen = 0;
	s->bp_blocked = 0;
	s->bp_blocked_comp = ACCT_COMP_COUNT;
	s->bp_uidle[0] = s->bp_uidle[1] = 0;
	s->bp_vfree = -1;
}

void acct_ivx_cycles(struct acct *a, const struct cycle_record *r, uint64_t n)
{
	acct_ivx_rules(a, r, acct_rob_full(r), (unsigned)acct_head_comp(r), (unsigned)acct_fetch_comp(r->fetch_stall), n);
}

/*
 * Reading the stack (software, at the end of a measurement): with
 *   C cycles, N instructions committed, W the dispatch width,
 *   L the instructions issued behind long misses (work[]),
 *   A the cycles the counters charge (below),
 * the base rate is CPI* = (C - A) / (N - L): cycles per instruction in the
 * cycles no counter took, for the instructions that did not issue behind
 * a long miss. Then
 *   a long miss's counter gives its work back at that rate:
 *     comp = global - work x CPI*;
 *   an I-side counter takes its partial cycles in the proportion
 *     f = min(1, (1 / (W x CPI*))^2):
 *     comp = global + partial x f
 *   (the branch predictor too, with the refill's partial cycles).
 * and the misprediction rows' divider-idle full cycles U (U1 of them
 * counted in the long-latency unit's global counter, the head on such an
 * op) go to the branch predictor in the proportion the divider filled the
 * base cycles, D the cycles a divider worked:
 *     g = min(1, (D / (C - A - partial x f - (U - U1) x g))^2),
 *     bpred += U x g, long-latency unit -= U1 x g.
 * A program whose base time is the divider's (muldiv: one unpipelined
 * divider, D near the base cycles) would have kept it working on the
 * correct path's divides; one that divides rarely (D small) was held up
 * by something else, which the FMT's rule names.
 * A program running at the machine's width (CPI* = 1/W) loses every
 * starved cycle, as interval analysis says; one limited by its own
 * dependences (CPI* well above 1/W) keeps executing its chain while fetch
 * waits and loses little more than its idle cycles. f depends on CPI*,
 * which depends on the partial cycles charged: f starts at 0 and the two
 * are worked out again in turn, a fixed number of times from f = 0 (the
 * result is deterministic, and the lowest f that agrees with its CPI*). The
 * square was chosen on the tuning set of docs/validation.md (a power of
 * 1 charges the dependence-bound icache far too much, 3 the width-bound
 * real programs too little).
 */
#define IVX_ROUNDS 8

/* raw[]: global, work, partial, then the two unit-idle counters, the
 * unit-busy one, the refill's partial counter, and the shadow's
 * instructions and cycles (struct acct_mark keeps as many) */
#define IVX_SHADOW (2 * ACCT_COMP_COUNT + ACCT_FE_COUNT + 4)
#define IVX_RAW (IVX_SHADOW + 2)
_Static_assert(sizeof ((struct acct_mark *)0)->raw == IVX_RAW * sizeof(uint64_t), "acct_mark.raw");

void acct_ivx_raw(const struct acct *a, uint64_t *raw)
{
	const struct acct_ivx_state *s = &a->s.ivx;
	memcpy(raw, s->t.global, ACCT_COMP_COUNT * sizeof *raw);
	memcpy(raw + ACCT_COMP_COUNT, s->work, ACCT_COMP_COUNT * sizeof *raw);
	memcpy(raw + 2 * ACCT_COMP_COUNT, s->partial, ACCT_FE_COUNT * sizeof *raw);
	raw[2 * ACCT_COMP_COUNT + ACCT_FE_COUNT] = s->unit_idle[0];
	raw[2 * ACCT_COMP_COUNT + ACCT_FE_COUNT + 1] = s->unit_idle[1];
	raw[2 * ACCT_COMP_COUNT + ACCT_FE_COUNT + 2] = s->unit_busy;
	raw[2 * ACCT_COMP_COUNT + ACCT_FE_COUNT + 3] = s->partial_bp;
	raw[IVX_SHADOW] = s->sh.meas_insns;
	raw[IVX_SHADOW + 1] = s->sh.meas_cycles;
}

/* The rates of the read-out: the base rate CPI*, the partial share f and
 * the divider's share uf, from the sums of the global, work and partial
 * counters and the unit counters (ui0, ui1: the divider-idle full-ROB
 * cycles of mispredictions, held apart in the FU component; ub: the
 * cycles a divider worked). */
struct ivx_rates {
	double cpi, f, uf;
};

static struct ivx_rates ivx_rates(const struct acct *a, uint64_t cycles, uint64_t insns, double sa, double sl,
				  double sp, double ui0, double ui1, double ub)
{
	struct ivx_rates q = { 0, 0, 0 };
	double bi = (double)insns - sl, w = a->dispatch_width ? a->dispatch_width : 1;
	for (int round = 0; round < IVX_ROUNDS; round++) {
		double bc = (double)cycles - sa - sp * q.f - ui0 * q.uf;
		double y = bc > 0 ? ub / bc : 1;
		q.uf = y >= 1 ? 1 : y * y;
		q.cpi = bc > 0 && bi > 0 ? bc / bi : 0;
		double x = q.cpi > 0 ? 1 / (w * q.cpi) : 1;
		q.f = x >= 1 ? 1 : x * x;
		if (sp == 0 && ui0 + ui1 == 0)
			break;
	}
	return q;
}

/* Component k of the read-out of the counters now[] (acct_ivx_raw's
 * layout), given the rates. */
static uint64_t ivx_comp(const uint64_t *now, int k, const struct ivx_rates *q)
{
	const uint64_t *unit = now + 2 * ACCT_COMP_COUNT + ACCT_FE_COUNT;
	double c = (double)now[k] - (double)now[ACCT_COMP_COUNT + k] * q->cpi;
	if (k < ACCT_FE_COUNT)
		c += (double)now[2 * ACCT_COMP_COUNT + k] * q->f;
	if (k == ACCT_BPRED)
		c += ((double)unit[0] + (double)unit[1]) * q->uf + (double)unit[3] * q->f;
	else if (k == ACCT_FU)
		c -= (double)unit[1] * q->uf;
	return c <= 0 ? 0 : (uint64_t)(c + 0.5);
}

/*
 * The shadow's base (acct_shadow.h) then replaces the counters' base: of
 * C cycles, the shadow's B (at most C) are the base machine's, long-latency
 * stalls included; the long-latency unit keeps what the counters gave it,
 * up to B; the other C - B cycles go to the miss components, to which the
 * counters gave M in all: S to the short events (IVX_SHORT: L1 I- and
 * D-cache misses, mispredictions) and L = M - S to the long misses.
 *   - M <= C - B: every component times (C - B) / M;
 *   - M > C - B: the short events give up the difference,
 *     times (C - B - L) / S, and the long misses keep theirs (or, if L
 *     alone is over C - B, take (C - B) / L of it, the short ones none).
 * A long miss costs about its latency whatever else the machine does
 * (interval analysis), so its cycles are the ones the counters get right;
 * what a short event costs depends on the other bottlenecks, and an
 * excess is theirs: a 16-wide core whose code misses the L1 I-cache on
 * every line but is nearly as bound by its backend loses little to those
 * misses, though each stalls fetch (icache cold on that core: 16.8% ->
 * 1.3%, docs/validation.md, the eighth round). M and S are worked out
 * from the sums of the counters (as a point keeps them), so that a point
 * reads out the same value as the stack:
 *     M = (ga - g_fu) - (wl - w_fu) x CPI* + pp x f + (ui0 + ui1) x uf,
 *     S = gs - ws x CPI* + ps x f + (ui0 + ui1) x uf.
 * Until the shadow has measured a window (a run shorter than its first,
 * or a unit given only cycle records), the counters' stack as it is.
 */
#define IVX_SHORT (1u << ACCT_L1I | 1u << ACCT_L1D | 1u << ACCT_BPRED)

struct ivx_scale {
	double short_share, long_share;    /* of the short events and the long
					      misses, -1: no shadow */
	uint64_t base;                     /* B */
};

static struct ivx_scale ivx_scale(const struct acct_ivx_point *p, const struct ivx_rates *q)
{
	struct ivx_scale sc = { -1, -1, 0 };
	if (!p->sn)
		return sc;
	double b = (double)p->sb / (double)p->sn * (double)p->insns;
	sc.base = b < (double)p->cycles ? (uint64_t)(b + 0.5) : p->cycles;
	double units = (double)(p->ui0 + p->ui1) * q->uf;
	double m = (double)(p->ga - p->gfu) - (double)(p->wl - p->wfu) * q->cpi + (double)p->pp * q->f + units;
	double sh = (double)p->gs - (double)p->ws * q->cpi + (double)p->ps * q->f + units;
	double lo = m - sh, misses = (double)(p->cycles - sc.base);
	if (m <= misses) {
		sc.short_share = sc.long_share = m > 0 ? misses / m : 0;
	} else if (lo <= misses) {
		sc.long_share = 1;
		sc.short_share = sh > 0 ? (misses - lo) / sh : 0;
	} else {
		sc.long_share = misses / lo;
		sc.short_share = 0;
	}
	return sc;
}

static uint64_t ivx_scaled(uint64_t v, int k, const struct ivx_scale *sc)
{
	if (sc->short_share < 0)
		return v;
	if (k == ACCT_FU)
		return v < sc->base ? v : sc->base;
	double c = (double)v * (IVX_SHORT >> k & 1 ? sc->short_share : sc->long_share);
	return (uint64_t)(c + 0.5);
}

/* The sums a point keeps (ga, wl, pp and the short events' gs, ws, ps),
 * from the global, work and partial counters and the refill's partial
 * one, live or a difference of two readings. Integers, converted once by
 * the read-out: counts of cycles and instructions stay far below 2^53,
 * where a sum of doubles is exact, so a point sums to the bit what the
 * stack sums. (Unrolled: the explorer's charges take a point at every
 * change of a component's owner, and the loop's counting was half the
 * cost.) */
static inline void ivx_sums(const uint64_t *global, const uint64_t *work, const uint64_t *partial,
			    uint64_t partial_bp, struct acct_ivx_point *p)
{
	uint64_t ga = 0, wl = 0, gs = 0, ws = 0, pp = partial_bp;
#pragma GCC unroll 8
	for (int k = 0; k < ACCT_COMP_COUNT; k++) {
		ga += global[k];
		wl += work[k];
		if (IVX_SHORT >> k & 1) {
			gs += global[k];
			ws += work[k];
		}
	}
#pragma GCC unroll 3
	for (int k = 0; k < ACCT_FE_COUNT; k++)
		pp += partial[k];
	p->ga = ga;
	p->wl = wl;
	p->pp = pp;
	p->gs = gs;
	p->ws = ws;
	p->ps = partial[ACCT_FE_L1I] + partial_bp;
}

void acct_ivx_stack(const struct acct *a, uint64_t cycles, uint64_t insns, const uint64_t *since,
		    uint64_t comp[ACCT_COMP_COUNT])
{
	uint64_t now[IVX_RAW];
	acct_ivx_raw(a, now);
	if (since)
		for (size_t i = 0; i < sizeof now / sizeof now[0]; i++)
			now[i] -= since[i];
	const uint64_t *global = now, *work = now + ACCT_COMP_COUNT, *partial = now + 2 * ACCT_COMP_COUNT;
	const uint64_t *unit = now + 2 * ACCT_COMP_COUNT + ACCT_FE_COUNT;
	/* the sums as a point keeps them */
	struct acct_ivx_point p = { .cycles = cycles, .insns = insns, .ui0 = unit[0], .ui1 = unit[1],
				    .ub = unit[2], .gfu = global[ACCT_FU], .wfu = work[ACCT_FU],
				    .sn = now[IVX_SHADOW], .sb = now[IVX_SHADOW + 1] };
	ivx_sums(global, work, partial, unit[3], &p);
	struct ivx_rates q = ivx_rates(a, cycles, insns, (double)p.ga, (double)p.wl, (double)p.pp, (double)p.ui0,
				       (double)p.ui1, (double)p.ub);
	struct ivx_scale sc = ivx_scale(&p, &q);
	for (int k = 0; k < ACCT_COMP_COUNT; k++)
		comp[k] = ivx_scaled(ivx_comp(now, k, &q), k, &sc);
}

void acct_ivx_point_take(const struct acct *a, int comp, struct acct_ivx_point *p)
{
	const struct acct_ivx_state *s = &a->s.ivx;
	if (a->method != ACCT_IVX) {
		memset(p, 0, sizeof *p);
		return;
	}
	const struct acct_clock *clk = a->clock ? a->clock : &a->src->s.t.clk;
	ivx_sums(s->t.global, s->work, s->partial, s->partial_bp, p);
	/* (field by field: a compound literal is built aside and copied) */
	p->cycles = clk->cycles;
	p->insns = clk->insns;
	p->ui0 = s->unit_idle[0];
	p->ui1 = s->unit_idle[1];
	p->ub = s->unit_busy;
	p->g = s->t.global[comp];
	p->w = s->work[comp];
	p->p = comp < ACCT_FE_COUNT ? s->partial[comp] : comp == ACCT_BPRED ? s->partial_bp : 0;
	p->gfu = s->t.global[ACCT_FU];
	p->wfu = s->work[ACCT_FU];
	p->sn = s->sh.meas_insns;
	p->sb = s->sh.meas_cycles;
	p->comp = comp;
}

uint64_t acct_ivx_point_value(const struct acct *a, const struct acct_ivx_point *p)
{
	if (a->method != ACCT_IVX)
		return 0;
	struct acct_ivx_memo *m = a->memo;
	if (m->cycles != p->cycles || m->insns != p->insns || m->ga != p->ga || m->wl != p->wl || m->pp != p->pp ||
	    m->ui0 != p->ui0 || m->ui1 != p->ui1 || m->ub != p->ub || !p->cycles) {
		*m = (struct acct_ivx_memo){ .cycles = p->cycles, .insns = p->insns, .ga = p->ga, .wl = p->wl,
					     .pp = p->pp, .ui0 = p->ui0, .ui1 = p->ui1, .ub = p->ub };
		struct ivx_rates q = ivx_rates(a, p->cycles, p->insns, (double)p->ga, (double)p->wl, (double)p->pp,
					       (double)p->ui0, (double)p->ui1, (double)p->ub);
		m->cpi = q.cpi;
		m->f = q.f;
		m->uf = q.uf;
	}
	/* ivx_comp's layout: the component's counters at their places */
	uint64_t now[IVX_RAW] = { 0 };
	int k = p->comp;
	now[k] = p->g;
	now[ACCT_COMP_COUNT + k] = p->w;
	if (k < ACCT_FE_COUNT)
		now[2 * ACCT_COMP_COUNT + k] = p->p;
	else if (k == ACCT_BPRED)
		now[2 * ACCT_COMP_COUNT + ACCT_FE_COUNT + 3] = p->p;
	now[2 * ACCT_COMP_COUNT + ACCT_FE_COUNT] = p->ui0;
	now[2 * ACCT_COMP_COUNT + ACCT_FE_COUNT + 1] = p->ui1;
	struct ivx_rates q = { m->cpi, m->f, m->uf };
	struct ivx_scale sc = ivx_scale(p, &q);
	return ivx_scaled(ivx_comp(now, k, &q), k, &sc);
}

void acct_ivx_shadow(const struct acct *a, uint64_t *insns, uint64_t *cycles)
{
	int ivx = a->method == ACCT_IVX;
	*insns = ivx ? a->s.ivx.sh.meas_insns : 0;
	*cycles = ivx ? a->s.ivx.sh.meas_cycles : 0;
}

uint64_t acct_ivx_component(const struct acct *a, uint64_t cycles, uint64_t insns, int comp)
{
	struct acct_ivx_point p;
	acct_ivx_point_take(a, comp, &p);
	p.cycles = cycles;
	p.insns = insns;
	return acct_ivx_point_value(a, &p);
}

/* acct_ivx_rules for n cycles of which the first s->tlb_left (fewer
 * than n) end the head's walk: those to the D-TLB, the rest to the head. */
void acct_ivx_rules_walk(struct acct *a, const struct cycle_record *r, int full, unsigned head, unsigned fe,
			 uint64_t n)
{
	struct acct_ivx_state *s = &a->s.ivx;
	uint64_t k = s->tlb_left;
	s->tlb_left = 0;
	acct_ivx_rules_n(a, r, full, ACCT_DTLB, fe, k);
	acct_ivx_rules_n(a, r, full, head, fe, n - k);
}

static void ivx_on_miss(void *ctx, const struct miss_event *e)
{
	acct_ivx_miss(ctx, e);
}

static void ivx_on_cycle(void *ctx, const struct cycle_record *r)
{
	struct acct *a = ctx;
	struct acct_cycle_view v;
	acct_cycle_view(r, &v);
	acct_clock_tick(a, &v);
	acct_ivx_cycles(a, r, 1);
}

uint64_t acct_ivx_commit(struct acct *a, uint64_t first, const struct commit_rec *r, int n)
{
	return shadow_commit(&a->s.ivx.sh, &a->shcfg, first, r, n);
}

static uint64_t ivx_on_commit(void *ctx, uint64_t first, const struct commit_rec *r, int n)
{
	return acct_ivx_commit(ctx, first, r, n);
}

void acct_ivx_init(struct acct *a)
{
	memset(&a->s, 0, sizeof a->s);
	a->s.ivx.icause = -1;
	a->s.ivx.bp_blocked_comp = ACCT_COMP_COUNT;
	a->state_size = offsetof(struct acct_ivx_state, sh) + shadow_size(&a->shcfg);
	a->obs.on_insn = ivx_on_insn;
	memset(a->obs.insn_filter_at, 0, sizeof a->obs.insn_filter_at);
	a->obs.insn_filter_at[INSN_COMPLETE] = INSN_WANT_MISPREDICT | INSN_WANT_CORRECT_PATH;
	a->obs.on_miss = ivx_on_miss;
	a->obs.miss_filter = MISS_BIT(MISS_MISPREDICT) | MISS_BIT(MISS_DTLB);
	a->obs.miss_skip_end = MISS_BIT(MISS_MISPREDICT);
	a->obs.on_cycle = ivx_on_cycle;
	a->obs.on_commit = ivx_on_commit;
}
