/*
 * acct_set.c — the accounting units (the paper's five and the ivx
 * counters) and the overlap measurement as one observer (see acct.h).
 *
 * What makes a set cheaper than the units on their own:
 *   - one clock (cycles, committed instructions) for all units;
 *   - the units in the set's own block (struct acct_set.unit), so the
 *     per-cycle rules find each one's state at a fixed offset;
 *   - one FMT table computes the FMT and the sFMT: they differ only in
 *     where an I-side miss cycle waits (the fetch row's local counter, or
 *     the shared one) and when it reaches the global counters; the sFMT
 *     unit of a set is a view of the FMT's state (struct acct.src);
 *   - the FMT's rows come from the cycle records' lists of fetched
 *     branches, and it follows dispatch and retirement in their
 *     positions: no event per branch;
 *   - only the events of correct-path instructions, and of those only
 *     mispredicted branches and instructions whose fetch missed:
 *       FMT / sFMT rows     a mispredicted branch's completion (no other
 *                           branch's resolution changes the table)
 *       sFMT I-miss bits    dispatch and commit of an I-miss instruction
 *       POWER5, overlap     a mispredicted branch's fetch and completion
 *       ivx counters        a mispredicted branch's completion (its
 *                           dispatch comes as a mispredict miss event)
 *       naive               none (miss events only).
 *     The FMT hardware also gives wrong-path branches rows, but those rows
 *     and their counters are dropped when the mispredicted branch
 *     resolves, before anything reaches a global counter; so are the I-miss
 *     bits of wrong-path instructions when they are squashed. Leaving them
 *     out changes no count (ACCT_SET_ALL_PATHS and units on their own do
 *     track them, and the tests check that all give the same stacks).
 * Cycle records go to every unit through direct calls of their per-cycle
 * rules (acct_internal.h), compiled once for each of a full ROB or not and
 * a stalled fetch or not (set_on_cycle picks the copy); miss events
 * likewise (set_on_miss), the naive units' counts added in place.
 */
#include <stddef.h>
#include <string.h>
#include "base/alloc.h"
#include "acct_internal.h"
#include "acct_fmt_rows.h"

struct acct_set {
	struct core_observer obs;
	struct acct_overlap *ov;
	struct acct_clock clock;        /* every unit's cycles and instructions */
	/* the observers behind the set: those with miss events or state
	 * (every unit but the sFMT view, then the overlap) */
	const struct core_observer *sub[ACCT_METHOD_COUNT + 1];
	int n_sub;
	/* The FMT's rows at the ends of the ROB as acct_fmt_follow tests them
	 * (the seq of the row at `head` and at `disp`, or the largest seq for
	 * the open row, whose seq is 0, as no instruction passes it), copied
	 * here so a cycle in which no row moves (most) tests two words
	 * instead of finding the rows. Copied again whenever the table may have changed:
	 * after an event, a restore, or a cycle that moved a row. Not part of
	 * a snapshot: a restore copies them from the table. */
	uint64_t retiring, entering;
	int all_paths;                  /* ACCT_SET_ALL_PATHS */
	/* The last cycle record was idle and nothing came after it: a run of
	 * cycles like it (set_on_idle_cycles) adds to the counters it added
	 * to. Not part of a snapshot: a restore forgets it. */
	int last_idle;
	/* The units themselves, in the set's block rather than each on its
	 * own: the per-cycle rules reach every unit's state at a fixed
	 * offset from the set, instead of holding a pointer to each in a
	 * register (the rules run out of registers as it is). */
	struct acct unit[ACCT_METHOD_COUNT];
};

/* Anything but a cycle record may change what the rules of the next idle
 * cycle add to. */
static inline void forget_idle_cycle(struct acct_set *s)
{
	s->last_idle = 0;
}

static inline void note_rows(struct acct_set *s)
{
	struct acct *fa = &s->unit[ACCT_FMT];
	uint64_t retiring = acct_fmt_seq_at(fa, fa->s.fmt.head), entering = acct_fmt_seq_at(fa, fa->s.fmt.disp);
	s->retiring = retiring ? retiring : UINT64_MAX;
	s->entering = entering ? entering : UINT64_MAX;
}

static void set_on_insn(void *ctx, const struct insn_event *e)
{
	struct acct_set *s = ctx;
	struct acct *fmt = &s->unit[ACCT_FMT];
	forget_idle_cycle(s);
	switch (e->stage) {
	case INSN_FETCH:                /* a mispredicted branch (for the overlap) */
		if (s->ov)
			acct_overlap_insn(s->ov, e);
		break;
	case INSN_COMPLETE:             /* a mispredicted branch */
		acct_fmt_branch(fmt, e);
		acct_power5_insn(&s->unit[ACCT_POWER5], e);
		acct_ivx_insn(&s->unit[ACCT_IVX], e);
		if (s->ov)
			acct_overlap_insn(s->ov, e);
		break;
	case INSN_SQUASH:               /* an I-miss instruction, ACCT_SET_ALL_PATHS only */
		acct_sfmt_bits(fmt, e);
		break;
	default:                        /* dispatch, commit of an I-miss instruction */
		acct_sfmt_bits(fmt, e);
		break;
	}
	note_rows(s);
}

/* The committed instructions, to the ivx counters' shadow. */
static uint64_t set_on_commit(void *ctx, uint64_t first, const struct commit_rec *r, int n)
{
	struct acct_set *s = ctx;
	return acct_ivx_commit(&s->unit[ACCT_IVX], first, r, n);
}

/*
 * A miss event, to each unit that reads its kind and phase, as their own
 * handlers would take it (each ignores the others), but without a call
 * for the ones that only count: a long-latency program has a miss event
 * every few cycles (muldiv: a divide blocking the head), and a call
 * through each unit's observer cost more than the counting.
 *   begin      both naive units count it (non-spec: correct path only;
 *              acct_naive_comp);
 *              the ivx counters take a correct-path one of the kinds
 *              their miss_filter names (acct_ivx_miss)
 *   any phase  the FMT takes a wrong-path one of its kinds (acct_fmt_miss)
 *   and the overlap measurement, if any, all of them.
 */
static void set_on_miss(void *ctx, const struct miss_event *e)
{
	struct acct_set *s = ctx;
	forget_idle_cycle(s);
	uint32_t bit = MISS_BIT(e->kind);
	if (e->phase == MISS_BEGIN) {
		unsigned k = acct_naive_comp[e->kind];
		if (k < ACCT_COMP_COUNT) {
			s->unit[ACCT_NAIVE].s.naive.events[k]++;
			s->unit[ACCT_NAIVE_NONSPEC].s.naive.events[k] += (uint64_t)(e->correct_path != 0);
		}
		if ((bit & s->unit[ACCT_IVX].obs.miss_filter) && e->correct_path)
			acct_ivx_miss(&s->unit[ACCT_IVX], e);
	}
	if ((bit & s->unit[ACCT_FMT].obs.miss_filter) && !e->correct_path)
		acct_fmt_miss(&s->unit[ACCT_FMT], e);
	if (s->ov)
		acct_overlap_miss(s->ov, e);
}

/* Lookup tables for the per-cycle rules: the component a blocked ROB head
 * stands for (acct_head_comp; a refused store is sorted out below), a
 * correct-path I-side fetch stall's (acct_fetch_comp), and the cause
 * POWER5 charges an empty ROB to from this cycle on (KEEP: the one it
 * had). DISCARD: none. */
#define DISCARD ACCT_COMP_COUNT
#define KEEP (-2)
static const uint8_t head_comp_of[] = {
	[HEAD_NONE] = DISCARD, [HEAD_EXECUTING] = DISCARD, [HEAD_L1D] = ACCT_L1D,
	[HEAD_L2D] = ACCT_L2D, [HEAD_DTLB] = ACCT_DTLB, [HEAD_LONG_LATENCY] = ACCT_FU,
	[HEAD_STORE] = ACCT_L1D,
};
static const uint8_t fetch_comp_of[] = {
	[FETCH_OK] = DISCARD, [FETCH_STALL_L1I] = ACCT_L1I, [FETCH_STALL_L2I] = ACCT_L2I,
	[FETCH_STALL_ITLB] = ACCT_ITLB, [FETCH_STALL_REDIRECT] = DISCARD,
	[FETCH_STALL_WRONG_PATH] = DISCARD, [FETCH_STALL_OTHER] = DISCARD,
};
static const int8_t empty_cause_of[] = {
	[FETCH_OK] = KEEP, [FETCH_STALL_L1I] = ACCT_L1I, [FETCH_STALL_L2I] = ACCT_L2I,
	[FETCH_STALL_ITLB] = ACCT_ITLB, [FETCH_STALL_REDIRECT] = ACCT_BPRED,
	[FETCH_STALL_WRONG_PATH] = KEEP, [FETCH_STALL_OTHER] = KEEP,
};

/* The overlap measurement follows every cycle, those of idle runs too. */
static inline void follow_overlap(struct acct_set *s, const struct cycle_record *r, uint64_t n)
{
	if (!s->ov)
		return;
	struct acct_cycle_view v;
	acct_cycle_view(r, &v);
	for (uint64_t i = 0; i < n; i++)
		acct_overlap_cycle(s->ov, r, &v);
}

/* What the rules of POWER5, FMT and sFMT choose for a cycle: the counters
 * to add one to, and the state they leave. set_rules applies it to a
 * cycle, set_on_idle_cycles to a run of cycles like the last one. */
struct set_choice {
	unsigned head;                  /* acct_head_comp, DISCARD none */
	unsigned fe;                    /* acct_fetch_comp (correct path), DISCARD none */
	int cause;                      /* POWER5's empty-ROB cause from this cycle on */
	unsigned k;                     /* POWER5's counter if nothing commits */
	int refill;                     /* the FMT's refill state after the cycle */
	unsigned g;                     /* the FMT's global counter */
	unsigned fe_any;                /* the I-side wait of either path, DISCARD none */
};

/*
 * The choices of the per-cycle rules of POWER5, FMT and sFMT
 * (acct_power5_cycle and acct_fmt_cycle in acct_internal.h, which units on
 * their own run), written as selections of the counter to add to rather
 * than tests of whether to add: a simulated cycle takes a few hundred
 * host cycles, so each host branch mispredicted here would cost several
 * percent. The tests check that both give the same stacks. `full` (the
 * ROB full at dispatch) and `fetch_ok` (r->fetch_stall == FETCH_OK) are
 * constants at each call, so each copy keeps only the choices they leave
 * open.
 */
static inline __attribute__((always_inline)) void set_choose(struct acct_set *s, const struct cycle_record *r,
							     int full, int fetch_ok, int entered, struct set_choice *c)
{
	struct acct *fa = &s->unit[ACCT_FMT];
	struct acct_fmt_state_s *f = &fa->s.fmt;
	struct acct_power5_state *p = &s->unit[ACCT_POWER5].s.p5;
	int stall = fetch_ok ? FETCH_OK : r->fetch_stall;

	unsigned head = head_comp_of[r->head_wait];
	if (r->head_wait == HEAD_STORE && r->long_misses_outstanding > 0)
		head = ACCT_L2D;
	c->head = head;
	c->fe = fetch_comp_of[stall];   /* correct path */

	/* POWER5 */
	int set_cause = empty_cause_of[stall], old_cause = p->empty_cause;
	int cause = set_cause != KEEP ? set_cause : old_cause;   /* (DISCARD: none) */
	c->k = r->head_wait == HEAD_NONE ? (unsigned)cause : head;
	c->cause = (entered & (set_cause == KEEP)) ? DISCARD : cause;

	/* FMT and sFMT: an I-side wait of either path. The wrong path's is
	 * worked out every cycle and then chosen or not: testing first whether
	 * the fetch is on a wrong path is a host branch that a branchy
	 * program's paths make the host mispredict. (With POWER5's cause
	 * above chosen the same way, interp, branchy, hashtab and strproc
	 * cost 2-3 points less time, crc 1-2 more: docs/cpi-stacks.md §7.) */
	unsigned wp_any = (unsigned)acct_fmt_wrong_path_imiss(fa, r, DISCARD);
	c->fe_any = stall == FETCH_STALL_WRONG_PATH ? wp_any : c->fe;
	c->refill = f->refill & !entered;
	unsigned g = (c->fe_any == DISCARD) & c->refill ? ACCT_BPRED : DISCARD;
	c->g = full ? head : g;
}

/* One cycle's rules (set_choose), and the ivx counters'. */
static inline __attribute__((always_inline)) void set_rules(struct acct_set *s, const struct cycle_record *r,
								int full, int fetch_ok)
{
	struct acct *fa = &s->unit[ACCT_FMT];
	struct acct_fmt_state_s *f = &fa->s.fmt;
	struct acct_power5_state *p = &s->unit[ACCT_POWER5].s.p5;
	unsigned committed = (unsigned)r->committed;
	int entered = r->dispatched_correct > 0;
	struct set_choice c;
	s->clock.cycles++;
	s->clock.insns += committed;
	set_choose(s, r, full, fetch_ok, entered, &c);
	p->t.global[committed == 0 ? c.k : DISCARD]++;
	p->empty_cause = c.cause;
	f->refill = c.refill;
	f->nonfull += (uint64_t)!full;
	f->t.global[c.g]++;
	/* (one host branch: the ROB-full state alternates more than I-side waits) */
	if (!full & (c.fe_any != DISCARD)) {
		acct_fmt_local_at(fa, f->fetch)[c.fe_any]++;
		f->shared[c.fe_any]++;
	}
	/* A run of idle cycles after this one adds to the same counters
	 * (set_on_idle_cycles). */
	s->last_idle = r->idle;
	acct_ivx_rules(&s->unit[ACCT_IVX], r, full, c.head, c.fe, 1);
}

static inline __attribute__((always_inline)) void set_cycle(struct acct_set *s, const struct cycle_record *r,
								int with_overlap)
{
	struct acct *fa = &s->unit[ACCT_FMT];
	if (r->branches_fetched > 0) {
		/* the rows written are at `fetch` and after: the copies change
		 * only if dispatch (and so perhaps retirement) had reached it */
		int at_fetch = fa->s.fmt.disp == fa->s.fmt.fetch;
		acct_fmt_rows_fetched(fa, r, s->all_paths);
		if (at_fetch)
			note_rows(s);
	}
	/* acct_fmt_follow, on the copies of the rows' seqs (the record's
	 * seqs are never 0: the first instruction's is 1) */
	if ((s->retiring < r->commit_seq) | (s->entering < r->dispatch_seq)) {
		acct_fmt_progress(fa, r);
		note_rows(s);
	}
	/* The rules in four copies, for a full ROB or one with room and a
	 * fetch stalled or not: a full ROB leaves out most of them (no I-side
	 * wait is charged, the ivx counters take their full-ROB branch), an
	 * unstalled fetch the choice of an I-side or empty-ROB cause. The
	 * test on the ROB is the host branch the rules took anyway; the one
	 * on the fetch is one more (fewer host instructions on every
	 * workload: docs/cpi-stacks.md §7). */
	int full = r->rob_full | ((r->dispatched == 0) & (r->rob_occupancy >= r->rob_size));
	if (full) {
		if (r->fetch_stall == FETCH_OK)
			set_rules(s, r, 1, 1);
		else
			set_rules(s, r, 1, 0);
	} else {
		if (r->fetch_stall == FETCH_OK)
			set_rules(s, r, 0, 1);
		else
			set_rules(s, r, 0, 0);
	}
	if (with_overlap)
		follow_overlap(s, r, 1);
}

/* The set's on_cycle without an overlap measurement and with one, chosen
 * when the set is made, so that a cycle does not test for it. */
static void set_on_cycle(void *ctx, const struct cycle_record *r)
{
	set_cycle(ctx, r, 0);
}

static void set_on_cycle_overlap(void *ctx, const struct cycle_record *r)
{
	set_cycle(ctx, r, 1);
}

/* A run of idle cycles like the last one (core_observer.on_idle_cycles):
 * n more of that one's increments at once (the overlap measurement still
 * follows each cycle), or, if it could not be repeated, cycle by cycle. */
static void set_on_idle_cycles(void *ctx, const struct cycle_record *r, uint64_t n)
{
	struct acct_set *s = ctx;
	struct acct *fa = &s->unit[ACCT_FMT];
	struct acct_fmt_state_s *f = &fa->s.fmt;
	/* Every rule reads the same inputs and state again in each cycle of
	 * the run as in the last one (the core keeps the record the same
	 * through a run, nothing entered the ROB, and no event came between),
	 * so it chooses the same counters; but a wrong-path I-TLB walk's rule
	 * reads the cycle. */
	if (s->last_idle && !((r->fetch_stall == FETCH_STALL_WRONG_PATH) & (f->wp_itlb_id != 0))) {
		int full = r->rob_full | ((r->dispatched == 0) & (r->rob_occupancy >= r->rob_size));
		struct set_choice c;
		set_choose(s, r, full, 0, 0, &c);
		s->clock.cycles += n;
		s->unit[ACCT_POWER5].s.p5.t.global[c.k] += n;   /* (an idle cycle commits nothing) */
		f->t.global[c.g] += n;
		f->nonfull += (uint64_t)!full * n;
		if (!full & (c.fe_any != DISCARD)) {
			acct_fmt_local_at(fa, f->fetch)[c.fe_any] += n;
			f->shared[c.fe_any] += n;
		}
		acct_ivx_cycles(&s->unit[ACCT_IVX], r, n);
		follow_overlap(s, r, n);
		return;
	}
	struct cycle_record one;
	memcpy(&one, r, CYCLE_RECORD_FIXED);
	one.branches_fetched = 0;
	for (uint64_t i = 0; i < n; i++, one.cycle++)
		s->obs.on_cycle(s, &one);
}

static size_t set_state_size(void *ctx)
{
	struct acct_set *s = ctx;
	size_t n = sizeof s->clock;
	for (int i = 0; i < s->n_sub; i++)
		n += s->sub[i]->state_size(s->sub[i]->ctx);
	return n;
}

static void set_save(void *ctx, void *blob)
{
	struct acct_set *s = ctx;
	char *p = blob;
	memcpy(p, &s->clock, sizeof s->clock);
	p += sizeof s->clock;
	for (int i = 0; i < s->n_sub; i++) {
		s->sub[i]->save(s->sub[i]->ctx, p);
		p += s->sub[i]->state_size(s->sub[i]->ctx);
	}
}

static void set_restore(void *ctx, const void *blob)
{
	struct acct_set *s = ctx;
	const char *p = blob;
	forget_idle_cycle(s);
	memcpy(&s->clock, p, sizeof s->clock);
	p += sizeof s->clock;
	for (int i = 0; i < s->n_sub; i++) {
		s->sub[i]->restore(s->sub[i]->ctx, p);
		p += s->sub[i]->state_size(s->sub[i]->ctx);
	}
	note_rows(s);
}

struct acct_set *acct_set_new_opts(const struct machine_config *cfg, unsigned flags, struct ivx_err *err)
{
	struct acct_set *s = ivx_calloc(1, sizeof *s);
	if (!s) {
		ivx_error(err, IVX_ESYS, "out of memory");
		return NULL;
	}
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		if (acct_init(&s->unit[m], m, cfg, err) < 0) {
			acct_set_free(s);
			return NULL;
		}
		s->unit[m].clock = &s->clock;
		if (m != ACCT_SFMT)
			s->sub[s->n_sub++] = acct_observer(&s->unit[m]);
	}
	s->unit[ACCT_SFMT].src = &s->unit[ACCT_FMT];
	if (flags & ACCT_SET_OVERLAP) {
		s->ov = acct_overlap_new(cfg, err);
		if (!s->ov) {
			acct_set_free(s);
			return NULL;
		}
		s->sub[s->n_sub++] = acct_overlap_observer(s->ov);
	}
	s->obs = (struct core_observer){
		.name = "acct", .ctx = s,
		.on_insn = set_on_insn, .on_miss = set_on_miss, .on_commit = set_on_commit,
		.on_cycle = s->ov ? set_on_cycle_overlap : set_on_cycle,
		.on_idle_cycles = set_on_idle_cycles,
		.state_size = set_state_size, .save = set_save, .restore = set_restore,
		/* (no unit reads an issue; a correct-path instruction is never
		 * squashed; the FMT takes its rows from the cycle records and
		 * follows dispatch and retirement there; only a mispredicted
		 * branch's resolution changes a count) */
		.insn_filter_at = {
			[INSN_FETCH] = s->ov ? INSN_WANT_MISPREDICT | INSN_WANT_CORRECT_PATH : 0,
			[INSN_DISPATCH] = INSN_WANT_IMISS | INSN_WANT_CORRECT_PATH,
			[INSN_COMPLETE] = INSN_WANT_MISPREDICT | INSN_WANT_CORRECT_PATH,
			[INSN_COMMIT] = INSN_WANT_IMISS | INSN_WANT_CORRECT_PATH,
		},
		.cycle_skip = CYCLE_SKIP_OCCUPANCY | CYCLE_SKIP_ISSUE_HEAD | CYCLE_SKIP_WRONG_PATH_IN_ROB,
		.miss_filter = ACCT_MISS_FILTER,
		.miss_skip_end = ~(ACCT_IMISS_FILTER | (s->ov ? ACCT_OVERLAP_END_FILTER : 0)),
	};
	s->all_paths = (flags & ACCT_SET_ALL_PATHS) != 0;
	forget_idle_cycle(s);
	note_rows(s);
	if (s->all_paths) {
		/* I-miss bits of both paths, and their squashes */
		s->obs.insn_filter_at[INSN_DISPATCH] = INSN_WANT_IMISS;
		s->obs.insn_filter_at[INSN_COMMIT] = INSN_WANT_IMISS;
		s->obs.insn_filter_at[INSN_SQUASH] = INSN_WANT_IMISS;
	}
	return s;
}

struct acct_set *acct_set_new(const struct machine_config *cfg, struct ivx_err *err)
{
	return acct_set_new_opts(cfg, ACCT_SET_OVERLAP, err);
}

struct acct_set *acct_set_new_units(const struct machine_config *cfg, struct ivx_err *err)
{
	return acct_set_new_opts(cfg, 0, err);
}

void acct_set_free(struct acct_set *s)
{
	if (!s)
		return;
	acct_overlap_free(s->ov);
	ivx_free(s);
}

const struct core_observer *acct_set_observer(struct acct_set *s)
{
	return &s->obs;
}

const struct acct *acct_set_unit(const struct acct_set *s, int method)
{
	return method >= 0 && method < ACCT_METHOD_COUNT ? &s->unit[method] : NULL;
}

const struct acct_overlap *acct_set_overlap(const struct acct_set *s)
{
	return s->ov;
}
