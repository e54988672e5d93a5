/*
 * inst_charge.c — per-event charges of the accounting methods, the code
 * pane's per-instruction miss and stall counts (which the recorder keeps:
 * xtrace_pc_counts), and the true cost of one event on demand (see
 * inst_charge.h).
 *
 * The observer runs after the accounting set (instrument order 1), so at
 * an event's begin or end the set has already taken that event into its
 * counts, the same at both. Its state (rings keyed by engine ids and
 * sequence numbers, the per-component trackers and the log of held-back
 * ivx read-outs) is one flat struct, one memcpy for a snapshot. The true
 * costs measured by `info cost` are facts of the run (the same every time
 * it passes the event), kept in the session object until the next
 * restart. It takes no cycle records: only miss events and the fetch of
 * mispredicted branches.
 */
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "guest/guest.h"
#include "explorer_break.h"
#include "explorer_snap.h"
#include "explorer_trace.h"
#include "inst_acct.h"
#include "inst_charge.h"
#include "instrument.h"

#define CHARGE_RING 1024           /* as many as the events pane keeps */
#define FETCH_RING 64              /* mispredicted branches fetched, not yet dispatched */
#define TRUE_COSTS 64              /* `info cost` results kept */

/* One miss event: what each method has charged it so far. */
struct charge_ent {
	uint64_t id;                       /* engine event id (0: empty) */
	int64_t v[ACCT_METHOD_COUNT];
	int64_t fmt_begin;                 /* FMT I-side: the row's count at the begin */
	uint64_t fe_row;                   /* ... the row collecting the cycles */
	uint64_t fetch_cycle;              /* mispredict: the branch's fetch + 1 (0: unknown) */
	uint32_t known;                    /* bit m: v[m] is valid */
	uint32_t ended;
};

/* The events of one component in progress. A cycle a method charges to
 * the component goes to the oldest of them in program order (the one the
 * ROB head waits for), so two overlapping misses do not both claim it;
 * with none in progress, to the one that ended last (what is charged after
 * an event ends, such as POWER5's empty-ROB cycles while the front end
 * refills after an I-cache miss, is still its doing). So every cycle a
 * method charges to a component goes to exactly one event. */
#define TRACK 32
struct comp_track {
	int64_t last[ACCT_METHOD_COUNT];   /* counts when `owner` took over */
	uint64_t id[TRACK], seq[TRACK];
	int n;
	uint64_t last_ended;               /* id of the last one that ended (0: none) */
	uint64_t owner;                    /* the event the cycles go to now (0: none) */
};

/* The ivx counters' charges, held back (acct_ivx_point): their read-out
 * costs a few hundred host instructions, and every change of a
 * component's owner needs one, while only the last CHARGE_RING events'
 * charges can ever be asked for. So a transition of a component
 * (transition()) only takes the read-out's inputs, in this log; a
 * read-out is worked out when the entry leaves the log (the oldest, when
 * it is full) or when a charge is asked for (flush_ivx), and only if some
 * event still in the ring needs it: the event the entry's cycles go to,
 * or the one the component's next entry gives cycles to (which needs
 * this read-out as its starting count). An event that has left the ring
 * never comes back, so the charges read are those an eager read-out at
 * every transition gives, to the bit. */
#define IVX_LOG 2048                /* a power of 2 */
struct ivx_pend {
	uint64_t owner;                    /* the event its cycles go to (engine id; 0: none) */
	uint64_t next;                     /* the owner of comp's next entry + 1 (0: none yet) */
	struct acct_ivx_point p;
};

struct charge_state {
	struct charge_ent ev[CHARGE_RING];           /* at id % CHARGE_RING */
	struct comp_track track[ACCT_COMP_COUNT];
	struct { uint64_t seq, cycle; } fetch[FETCH_RING];   /* at seq % FETCH_RING */
	struct ivx_pend ivx_log[IVX_LOG];  /* log number n at n % IVX_LOG */
	uint64_t ivx_first, ivx_end;       /* the log numbers held: [first, end) */
	uint64_t ivx_newest[ACCT_COMP_COUNT]; /* log number + 1 of comp's newest entry (0: none held) */
};

struct true_cost {
	uint64_t id, start;
	int kind;
	int64_t penalty;
};

struct xcharge {
	struct explorer *x;
	struct core_observer obs;
	struct charge_state *s;            /* NULL before the first attach */
	uint32_t penalty[ACCT_COMP_COUNT]; /* the naive methods' [penalty] */
	const struct acct *unit[ACCT_METHOD_COUNT]; /* the accounting set's, this run's */
	/* What a transition of each component reads, worked out at attach:
	 * the methods whose count is one counter, with its address
	 * (acct_component_counter), and those read with count_now (the sFMT's
	 * I-side counts); naive methods, the FMT's I-side rows and the ivx
	 * counters (push_ivx) are not read there. */
	struct { int m; const uint64_t *ctr; } direct[ACCT_COMP_COUNT][ACCT_METHOD_COUNT];
	int n_direct[ACCT_COMP_COUNT];
	int slow[ACCT_COMP_COUNT][ACCT_METHOD_COUNT];
	int n_slow[ACCT_COMP_COUNT];
	uint32_t known;                    /* bit m: method m charges events (not naive, present) */
	struct true_cost costs[TRUE_COSTS];
	int n_costs;
};

static const int comp_of_kind[MISS_KIND_COUNT] = {
	[MISS_L1I] = ACCT_L1I, [MISS_L2I] = ACCT_L2I, [MISS_ITLB] = ACCT_ITLB,
	[MISS_L1D] = ACCT_L1D, [MISS_L2D] = ACCT_L2D, [MISS_DTLB] = ACCT_DTLB,
	[MISS_MISPREDICT] = ACCT_BPRED, [MISS_FU_STALL] = ACCT_FU,
	[MISS_ROB_FULL] = -1, [MISS_ROB_EMPTY] = -1,
};

int xcharge_comp(int kind)
{
	return kind >= 0 && kind < MISS_KIND_COUNT ? comp_of_kind[kind] : -1;
}

static int is_naive(int m)
{
	return m == ACCT_NAIVE || m == ACCT_NAIVE_NONSPEC;
}

/* Method m's count of component `comp` now; the FMT's I-side: of the row
 * at ring position `row`. 0, or -1 if it cannot be read (the row has gone). */
static int count_now(const struct xcharge *xc, int m, int comp, uint64_t row, int64_t *out)
{
	const struct acct *a = xc->unit[m];
	uint64_t v, pos;
	if (!a)
		return -1;
	if (comp <= ACCT_ITLB && m == ACCT_FMT) {
		if (acct_fmt_row_count(a, row, comp - ACCT_L1I, &v) < 0)
			return -1;
	} else if (comp <= ACCT_ITLB && m == ACCT_SFMT) {
		v = acct_fmt_fetch_count(a, comp - ACCT_L1I, &pos);
	} else {
		v = acct_component(a, comp);
	}
	*out = (int64_t)v;
	return 0;
}

static void charge_insn(void *ctx, const struct insn_event *e)
{
	struct xcharge *xc = ctx;
	xc->s->fetch[e->seq % FETCH_RING].seq = e->seq;
	xc->s->fetch[e->seq % FETCH_RING].cycle = e->cycle;
}

static int fmt_iside(int m, int comp)
{
	return m == ACCT_FMT && comp <= ACCT_ITLB;
}

/* The ring entry of the event with engine id `id`, if it is still there. */
static struct charge_ent *live(struct charge_state *s, uint64_t id)
{
	struct charge_ent *c = &s->ev[id % CHARGE_RING];
	return id && c->id == id ? c : NULL;
}

/* The oldest entry of the ivx log, which an event still in the ring
 * needs: its read-out, charged as transition() would have. (Out of line:
 * most entries leave unread.) */
static __attribute__((noinline)) void read_out_oldest(struct xcharge *xc)
{
	struct charge_state *s = xc->s;
	const struct ivx_pend *e = &s->ivx_log[s->ivx_first % IVX_LOG];
	struct comp_track *t = &s->track[e->p.comp];
	struct charge_ent *owner = live(s, e->owner);
	int64_t now = (int64_t)acct_ivx_point_value(xc->unit[ACCT_IVX], &e->p);
	if (owner)
		owner->v[ACCT_IVX] += now - t->last[ACCT_IVX];
	t->last[ACCT_IVX] = now;
}

/* Does an event still in the ring need the read-out of the ivx log's
 * oldest entry: the event its cycles go to, or the one its component's
 * next entry gives cycles to? */
static inline int oldest_needed(struct charge_state *s)
{
	const struct ivx_pend *e = &s->ivx_log[s->ivx_first % IVX_LOG];
	return live(s, e->owner) || !e->next || live(s, e->next - 1);
}

/* The oldest entry leaves the log (read out already, or not needed). */
static inline void drop_oldest(struct charge_state *s)
{
	int comp = s->ivx_log[s->ivx_first % IVX_LOG].p.comp;
	if (s->ivx_newest[comp] == s->ivx_first + 1)
		s->ivx_newest[comp] = 0;
	s->ivx_first++;
}

/* The oldest entry leaves the log, read out if it is needed. */
static void pop_ivx(struct xcharge *xc)
{
	if (oldest_needed(xc->s))
		read_out_oldest(xc);
	drop_oldest(xc->s);
}

/* The ivx counters' count of comp now, to go to `owner` (a
 * transition). If the log is full, its oldest entry must not be needed
 * (or have been read out): it is dropped. */
static inline void push_ivx(struct xcharge *xc, int comp, const struct charge_ent *owner)
{
	struct charge_state *s = xc->s;
	if (s->ivx_end - s->ivx_first == IVX_LOG)
		drop_oldest(s);
	uint64_t n = s->ivx_end++;
	struct ivx_pend *e = &s->ivx_log[n % IVX_LOG];
	uint64_t owner_id = owner ? owner->id : 0;
	e->owner = owner_id;
	e->next = 0;
	if (s->ivx_newest[comp])
		s->ivx_log[(s->ivx_newest[comp] - 1) % IVX_LOG].next = owner_id + 1;
	s->ivx_newest[comp] = n + 1;
	/* (last: a tail call from transition) */
	acct_ivx_point_take(xc->unit[ACCT_IVX], comp, &e->p);
}

/* Every held-back read-out worked out: the ivx charges and the tracks'
 * last counts as an eager read-out leaves them. */
static void flush_ivx(struct xcharge *xc)
{
	while (xc->s->ivx_first != xc->s->ivx_end)
		pop_ivx(xc);
}

/* The event comp's cycles go to (0: none): the oldest in progress in
 * program order, or with none in progress the one that ended last. */
static uint64_t owner_of(const struct comp_track *t)
{
	if (!t->n)
		return t->last_ended;
	int best = 0;
	for (int i = 1; i < t->n; i++)
		if (t->seq[i] < t->seq[best])
			best = i;
	return t->id[best];
}

/* transition() for the methods read with count_now (the sFMT's I-side
 * counts): out of line, as they are rare. */
static __attribute__((noinline)) void transition_slow(struct xcharge *xc, int comp, struct charge_ent *owner)
{
	struct comp_track *t = &xc->s->track[comp];
	for (int i = 0; i < xc->n_slow[comp]; i++) {
		int m = xc->slow[comp][i];
		int64_t now;
		if (count_now(xc, m, comp, 0, &now) < 0)
			continue;
		if (owner)
			owner->v[m] += now - t->last[m];
		t->last[m] = now;
	}
}

/* The rest of a transition after the direct counts, when some of it is
 * rare work: the methods read with count_now, the read-out of the ivx
 * log's oldest entry, then the ivx point. */
static __attribute__((noinline)) void transition_rest(struct xcharge *xc, int comp, struct charge_ent *owner)
{
	if (xc->n_slow[comp])
		transition_slow(xc, comp, owner);
	if (!xc->unit[ACCT_IVX])
		return;
	if (xc->s->ivx_end - xc->s->ivx_first == IVX_LOG)
		pop_ivx(xc);
	push_ivx(xc, comp, owner);   /* (read out later, if needed) */
}

/* Hand the cycles each method charged to `comp` since owner_id took
 * over to it (if it is still in the ring), as the owner changes.
 * While the owner stays the same nothing is read: the counts it gains
 * over several begins and ends add up to the difference of the counts
 * at the two ends of its stretch, to the bit (the differences telescope
 * in 64-bit arithmetic, the ivx read-outs' too), so only a change of
 * owner needs the counts. On a program whose events of a component come
 * one after another (muldiv's long-latency stalls), the owner changes at
 * each begin and not at the end: half the transitions. (Out of line,
 * as a tail call: the begin's and the end's own paths stay short.) */
static __attribute__((noinline)) void transition(struct xcharge *xc, int comp, uint64_t owner_id)
{
	struct comp_track *t = &xc->s->track[comp];
	struct charge_ent *owner = live(xc->s, owner_id);
	for (int i = 0; i < xc->n_direct[comp]; i++) {
		int m = xc->direct[comp][i].m;
		int64_t now = (int64_t)*xc->direct[comp][i].ctr;
		if (owner)
			owner->v[m] += now - t->last[m];
		t->last[m] = now;
	}
	struct charge_state *s = xc->s;
	int ivx = xc->unit[ACCT_IVX] != NULL;
	/* (the rare work out of line, as a tail call: the usual path makes
	 * no call before the ivx point's and needs no stack frame) */
	if (__builtin_expect(xc->n_slow[comp] || (ivx && s->ivx_end - s->ivx_first == IVX_LOG && oldest_needed(s)), 0)) {
		transition_rest(xc, comp, owner);
		return;
	}
	if (ivx)
		push_ivx(xc, comp, owner);   /* (read out later, if needed) */
}

/* Hand comp's cycles to the event they go to now, if that has changed. */
static inline void take_over(struct xcharge *xc, struct comp_track *t, int comp)
{
	uint64_t o = owner_of(t);
	if (o != t->owner) {
		uint64_t was = t->owner;
		t->owner = o;
		transition(xc, comp, was);
	}
}

/* The FMT's I-side charges an event what the row collecting its
 * fetch's miss cycles counted from its begin to its end: at the begin,
 * the row and its count; at the end, what it gained (nothing if the row
 * was dropped, or dropped and reopened: a wrong-path fetch). Then the
 * change of owner, if any. Out of line, as transition(). */
static __attribute__((noinline)) void fmt_iside_update(struct xcharge *xc, struct charge_ent *c, int comp, int begin)
{
	int64_t now;
	if (begin)
		c->fmt_begin = (int64_t)acct_fmt_fetch_count(xc->unit[ACCT_FMT], comp - ACCT_L1I, &c->fe_row);
	else
		c->v[ACCT_FMT] = count_now(xc, ACCT_FMT, comp, c->fe_row, &now) == 0 && now >= c->fmt_begin ?
				 now - c->fmt_begin : 0;
	take_over(xc, &xc->s->track[comp], comp);
}

/* An event of comp begins: its entry, and a place among those in
 * progress. (charge_begin and charge_end are apart, and their calls come
 * last, as tail calls: each is shorter than one function for both, with
 * fewer registers to save.) */
static __attribute__((noinline)) void charge_begin(struct xcharge *xc, const struct miss_event *e, int comp)
{
	struct charge_ent *c = &xc->s->ev[e->id % CHARGE_RING];
	struct comp_track *t = &xc->s->track[comp];
	/* (field by field: a memset of the entry costs twice the stores) */
	c->id = e->id;
	for (int m = 0; m < ACCT_METHOD_COUNT; m++)
		c->v[m] = 0;
	c->fmt_begin = 0;
	c->fe_row = 0;
	c->fetch_cycle = 0;
	c->known = xc->known;
	c->ended = 0;
	if (e->kind == MISS_MISPREDICT) {
		const typeof(xc->s->fetch[0]) *f = &xc->s->fetch[e->insn_seq % FETCH_RING];
		c->fetch_cycle = f->seq == e->insn_seq ? f->cycle + 1 : 0;
	}
	if (t->n < TRACK) {
		t->id[t->n] = e->id;
		t->seq[t->n++] = e->insn_seq;
	} else {
		c->known = 0;     /* (more in progress than tracked: not attributed) */
	}
	/* (the counters do not move during this call: reading them after
	 * the change of state reads what they were before it) */
	if (__builtin_expect(comp <= ACCT_ITLB && xc->unit[ACCT_FMT] != NULL, 0)) {
		fmt_iside_update(xc, c, comp, 1);
		return;
	}
	take_over(xc, t, comp);
}

/* An event of comp ends. */
static __attribute__((noinline)) void charge_end(struct xcharge *xc, const struct miss_event *e, int comp)
{
	struct charge_ent *c = &xc->s->ev[e->id % CHARGE_RING];
	struct comp_track *t = &xc->s->track[comp];
	if (t->n == 1 && t->id[0] == e->id)   /* (the usual: one at a time) */
		t->n = 0;
	else
		for (int i = 0; i < t->n; i++)
			if (t->id[i] == e->id) {
				t->id[i] = t->id[--t->n];
				t->seq[i] = t->seq[t->n];
				break;
			}
	if (c->id == e->id && !c->ended) {
		t->last_ended = e->id;
		/* the naive methods' [penalty] (the second: correct-path
		 * events only) */
		c->v[ACCT_NAIVE] = (int64_t)xc->penalty[comp];
		c->v[ACCT_NAIVE_NONSPEC] = e->correct_path ? (int64_t)xc->penalty[comp] : 0;
		c->known |= 1u << ACCT_NAIVE | 1u << ACCT_NAIVE_NONSPEC;
		c->ended = 1;
		if (__builtin_expect(fmt_iside(ACCT_FMT, comp) && (c->known >> ACCT_FMT & 1), 0)) {
			fmt_iside_update(xc, c, comp, 0);
			return;
		}
	}
	take_over(xc, t, comp);
}

static void charge_miss(void *ctx, const struct miss_event *e)
{
	/* (the observer's filter takes only the kinds with a component) */
	int comp = comp_of_kind[e->kind];
	if (e->phase == MISS_BEGIN)
		charge_begin(ctx, e, comp);
	else
		charge_end(ctx, e, comp);
}

static size_t charge_state_size(void *ctx)
{
	return sizeof(struct charge_state);
}

static void charge_save(void *ctx, void *blob)
{
	memcpy(blob, ((struct xcharge *)ctx)->s, sizeof(struct charge_state));
}

static void charge_restore(void *ctx, const void *blob)
{
	memcpy(((struct xcharge *)ctx)->s, blob, sizeof(struct charge_state));
}

static void *xcharge_create(struct explorer *x)
{
	struct xcharge *xc = calloc(1, sizeof *xc);
	if (xc)
		xc->x = x;
	return xc;
}

static void xcharge_free(void *self)
{
	struct xcharge *xc = self;
	if (!xc)
		return;
	free(xc->s);
	free(xc);
}

static int xcharge_attach(void *self, struct core *c, struct ivx_err *err)
{
	struct xcharge *xc = self;
	if (!xc->s && !(xc->s = malloc(sizeof *xc->s)))
		return ivx_error(err, IVX_ESYS, "out of memory");
	memset(xc->s, 0, sizeof *xc->s);
	xc->n_costs = 0;
	const struct machine_config *cfg = core_config(c);
	const uint32_t pen[ACCT_COMP_COUNT] = {
		cfg->penalty_l1i, cfg->penalty_l2i, cfg->penalty_itlb, cfg->penalty_l1d,
		cfg->penalty_l2d, cfg->penalty_dtlb, cfg->penalty_bpred, cfg->penalty_fu,
	};
	memcpy(xc->penalty, pen, sizeof pen);
	for (int m = 0; m < ACCT_METHOD_COUNT; m++)   /* (attached before: order 0) */
		xc->unit[m] = xacct_unit(explorer_instrument(xc->x, "acct"), m);
	xc->known = 0;
	for (int m = 0; m < ACCT_METHOD_COUNT; m++)
		if (!is_naive(m) && xc->unit[m])
			xc->known |= 1u << m;
	for (int k = 0; k < ACCT_COMP_COUNT; k++) {
		xc->n_direct[k] = xc->n_slow[k] = 0;
		for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
			if (is_naive(m) || m == ACCT_IVX || fmt_iside(m, k) || !xc->unit[m])
				continue;
			const uint64_t *ctr = k <= ACCT_ITLB && m == ACCT_SFMT ? NULL :
					      acct_component_counter(xc->unit[m], k);
			if (ctr) {
				xc->direct[k][xc->n_direct[k]].m = m;
				xc->direct[k][xc->n_direct[k]++].ctr = ctr;
			} else {
				xc->slow[k][xc->n_slow[k]++] = m;
			}
		}
	}
	uint32_t kinds = 0;
	for (int k = 0; k < MISS_KIND_COUNT; k++)
		if (xcharge_comp(k) >= 0)
			kinds |= MISS_BIT(k);
	xc->obs = (struct core_observer){
		.name = "charge", .ctx = xc, .on_miss = charge_miss, .on_insn = charge_insn,
		.miss_filter = kinds,
		.state_size = charge_state_size, .save = charge_save, .restore = charge_restore,
	};
	/* the fetch of a correct-path mispredicted branch (`info cost` starts
	 * there): a wrong-path one is never measured, and on a branchy
	 * program most mispredicted fetches are on a wrong path */
	xc->obs.insn_filter_at[INSN_FETCH] = INSN_WANT_MISPREDICT | INSN_WANT_CORRECT_PATH;
	return core_add_observer(c, &xc->obs, err);
}

static const struct charge_ent *find(const struct explorer *x, const struct xevent *e)
{
	const struct xcharge *xc = explorer_instrument(x, "charge");
	if (!xc || !xc->s || e->kind >= MISS_KIND_COUNT || xcharge_comp(e->kind) < 0 || !e->id)
		return NULL;
	const struct charge_ent *c = &xc->s->ev[e->id % CHARGE_RING];
	return c->id == e->id ? c : NULL;
}

int xcharge_get(const struct explorer *x, const struct xevent *e, int64_t out[ACCT_METHOD_COUNT],
		int known[ACCT_METHOD_COUNT])
{
	const struct charge_ent *c = find(x, e);
	if (!c || !c->ended)
		return -1;
	struct xcharge *xc = explorer_instrument(x, "charge");
	flush_ivx(xc);
	int comp = xcharge_comp(e->kind);
	const struct comp_track *t = &xc->s->track[comp];
	int owner = !t->n && t->last_ended == e->id;   /* still gaining what comes after it */
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		int64_t now;
		out[m] = c->v[m];
		known[m] = c->known >> m & 1;
		if (owner && !is_naive(m) && !fmt_iside(m, comp) && count_now(xc, m, comp, 0, &now) == 0)
			out[m] += now - t->last[m];
	}
	return 0;
}

int xcharge_true_cost(const struct explorer *x, const struct xevent *e, int64_t *cycles)
{
	const struct xcharge *xc = explorer_instrument(x, "charge");
	for (int i = 0; xc && i < xc->n_costs; i++)
		if (xc->costs[i].id == e->id && xc->costs[i].start == e->start && xc->costs[i].kind == e->kind) {
			*cycles = xc->costs[i].penalty;
			return 0;
		}
	return -1;
}

int xcharge_pc_counts(const struct explorer *x, uint64_t pc, uint64_t *misses, uint64_t *stalls)
{
	const struct xcharge *xc = explorer_instrument(x, "charge");
	*misses = *stalls = 0;
	if (!xc || !xc->s)
		return -1;
	/* (the recorder counts them: it reads every cycle record anyway) */
	return xtrace_pc_counts(x->trace, pc, misses, stalls);
}

/* ---- the counterfactual ------------------------------------------------- */

/* Run the core to `committed` instructions (or the end): the cycle then. */
static int run_to(struct core *c, uint64_t committed, uint64_t *cycles, int *ended, struct ivx_err *err)
{
	if (core_run(c, 0, committed, err) < 0)
		return -1;
	*cycles = core_cycles(c);
	*ended |= core_done(c) || core_committed(c) < committed;
	return 0;
}

/* The state at `cycle`: the snapshot before it, then on to it. */
static int seek(struct explorer *x, uint64_t cycle, struct ivx_err *err)
{
	if (xsnaps_restore_cycle(x->snaps, x->core, cycle, err) < 0)
		return -1;
	return core_run_to_cycle(x->core, cycle, err);
}

static int measure(struct explorer *x, const struct xevent *e, uint64_t from, struct xcost_result *out,
		   struct ivx_err *err)
{
	struct core *c = x->core;
	if (seek(x, from, err) < 0)
		return -1;
	const struct machine_config *cfg = core_config(c);
	/* as ivx cost: past the ROB and the frontend, then 256 more */
	uint64_t reach = cfg->rob_size + cfg->fetch_buffer + cfg->frontend_depth * cfg->fetch_width + 256;
	struct core_snapshot *snap = core_snapshot_save(c, err);
	if (!snap)
		return -1;
	out->from_cycle = core_cycles(c);
	out->target = core_committed(c) + reach;
	out->ended = 0;
	int rc = run_to(c, out->target, &out->with, &out->ended, err);
	if (rc == 0)
		rc = core_snapshot_restore(c, snap, err);
	if (rc == 0) {
		core_forgive(c, e->kind, e->insn_seq);
		rc = run_to(c, out->target, &out->without, &out->ended, err);
	}
	core_snapshot_free(snap);
	out->penalty = (int64_t)out->with - (int64_t)out->without;
	return rc;
}

int xcharge_measure(struct explorer *x, const struct xevent *e, struct xcost_result *out)
{
	struct xcharge *xc = explorer_instrument(x, "charge");
	const struct charge_ent *c = find(x, e);
	if (!xc || e->kind > MISS_MISPREDICT || !e->id)
		return explorer_error(x, "only l1i, l2i, itlb, l1d, l2d, dtlb and mispredict events can be "
				      "taken away (ivx cost's kinds)");
	if (!e->correct_path)
		return explorer_error(x, "a wrong-path event delays nothing that commits: there is no cost to measure");
	/* where ivx cost stops: a misprediction is decided at the branch's
	 * fetch, the others at their begin */
	uint64_t from = e->start;
	if (e->kind == MISS_MISPREDICT) {
		if (!c || !c->fetch_cycle)
			return explorer_error(x, "the fetch of this branch is no longer remembered");
		from = c->fetch_cycle - 1;
	}
	uint64_t here = core_cycles(x->core), high = x->high_water;
	if (explorer_can_go_back(x, from) < 0)
		return -1;
	struct ivx_err err = { 0 };
	x->high_water = UINT64_MAX;          /* the guest's output is not printed again */
	xbreaks_set_mode(x->breaks, XB_OFF);
	/* the two runs are thrown away: a call of theirs that changed the
	 * host's directories would meet the real run again, changed */
	guest_freeze_host(x->guest, 1);
	int rc = measure(x, e, from, out, &err);
	guest_freeze_host(x->guest, 0);
	/* back to where the run was, exactly */
	struct ivx_err err2 = { 0 };
	if (seek(x, here, &err2) < 0)
		rc = -1, err = err2;
	xbreaks_set_mode(x->breaks, XB_STOP);
	explorer_end_of_run(x);   /* (the seek left the state before it) */
	x->high_water = high;
	explorer_state_changed(x);
	if (rc < 0)
		return explorer_error(x, "cannot measure it: %s", err.msg);
	if (xcharge_true_cost(x, e, &(int64_t){ 0 }) < 0) {
		struct true_cost *t = &xc->costs[xc->n_costs < TRUE_COSTS ? xc->n_costs++ : TRUE_COSTS - 1];
		*t = (struct true_cost){ .id = e->id, .start = e->start, .kind = e->kind, .penalty = out->penalty };
	}
	return 0;
}

static const struct xinstrument xinst_charge = {
	.name = "charge",
	.summary = "what each accounting method charged each miss event; its true cost on demand (info cost)",
	.order = 1,
	.create = xcharge_create,
	.attach = xcharge_attach,
	.free = xcharge_free,
};
XINSTRUMENT_REGISTER(xinst_charge);
