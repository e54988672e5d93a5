/*
 * acct_internal.h — what the accounting units share behind acct.h: the
 * unit object, the per-method state structs, and the helpers every unit
 * uses to read a cycle record. Only engine/acct*.c include it.
 *
 * A unit's whole mutable state is `struct acct.s` (a union of flat structs
 * with no pointers), so a snapshot is one memcpy of acct_state_size bytes.
 */
#ifndef IVX_ACCT_INTERNAL_H
#define IVX_ACCT_INTERNAL_H

#include <stddef.h>
#include "acct.h"
#include "isa/uop.h"
#include "acct_shadow.h"

/* Largest table the FMT keeps (rows = outstanding branches + 1) and the
 * largest ROB the units accept. */
#define ACCT_FMT_MAX_ROWS 1024
#define ACCT_MAX_ROB 1024
/* ROB ids are the core's slot numbers, which may exceed the ROB size. */
#define ACCT_MAX_ROB_ID 4096

/* Cycles and committed instructions: the same for every unit watching one
 * simulation, so a set of units keeps one copy (struct acct.clock). */
struct acct_clock {
	uint64_t cycles;                   /* on_cycle calls seen */
	uint64_t insns;                    /* instructions committed */
};

/* What every unit counts. */
struct acct_totals {
	struct acct_clock clk;             /* a unit's own; unused in a set */
	/* the global component counters, and one more that nothing reads:
	 * the set's per-cycle rules add to it instead of testing whether to
	 * add (acct_set.c) */
	uint64_t global[ACCT_COMP_COUNT + 1];
};

struct acct_naive_state {
	struct acct_totals t;
	uint64_t events[ACCT_COMP_COUNT];  /* events counted (all paths or correct only) */
};

struct acct_power5_state {
	struct acct_totals t;
	int empty_cause;                   /* enum acct_comp an empty ROB is charged to;
					      ACCT_COMP_COUNT none (the counter nothing reads) */
};

/*
 * The FMT's rows, a field per array (struct acct_fmt_rows points at them,
 * in acct_fmt_state_s.rowmem, `rows` entries each). A branch's fetch,
 * dispatch and retirement each touch a few bytes of its row; with a row's
 * fields side by side (64 bytes), each of them was a host cache miss on a
 * memory-bound program, as the table's ring walks through 16 KB. Fields
 * side by side across rows share those cache lines among 8-64 branches.
 * `local` is the FMT's; the sFMT has no local counters.
 */
struct acct_fmt_rows {
	uint64_t *seq;                     /* branch seq, 0 for the open fetch row */
	uint64_t *start;                   /* nonfull count when it entered the ROB */
	uint8_t *flags;                    /* ACCT_FMT_ROW_* */
	int32_t *rob_id;                   /* its ROB id (shown once dispatched) */
	uint64_t *pc;
	uint64_t *penalty;                 /* branch penalty, once resolved as mispredicted */
	uint64_t *local;                   /* ACCT_FE_COUNT a row: frontend miss cycles
					      fetched before it, valid if ACCT_FMT_ROW_LOCAL */
};
#define ACCT_FMT_ROW_MISPREDICTED 1u       /* resolved as mispredicted */
#define ACCT_FMT_ROW_LOCAL 2u              /* local[] holds its counts (else all 0: a
					      row is opened without writing them) */
/* 64-bit words of rowmem a row takes: seq, start, pc, penalty, the
 * local counters, and one more for rob_id and flags (5 of its bytes) */
#define ACCT_FMT_ROW_WORDS (4 + ACCT_FE_COUNT + 1)

/*
 * The table is a ring addressed by ever-increasing positions (row =
 * position mod rows):
 *
 *     head ........ disp ........ fetch
 *     [ in the ROB ][ in frontend ][open row]
 *
 * rows [head, disp) hold dispatched branches (dispatch head pointer = head,
 * dispatch tail pointer = disp - 1), [disp, fetch) fetched branches not yet
 * dispatched, and row `fetch` is the open row whose local counters collect
 * the frontend miss cycles of the instructions being fetched now; the next
 * branch fetched claims it.
 */
struct acct_fmt_state_s {
	struct acct_totals t;              /* the FMT's totals; the sFMT's but for
					      the I-side components: */
	uint64_t sfmt_global[ACCT_FE_COUNT]; /* the sFMT's global L1I/L2I/I-TLB counters */
	uint64_t head, disp, fetch;        /* ring positions (see above) */
	uint64_t nonfull;                  /* cycles with the ROB not full so far */
	int refill;                        /* global branch counter running */
	uint64_t shared[ACCT_FE_COUNT];    /* sFMT shared local counters */
	int imiss_bits;                    /* sFMT: bits set in imiss[] */
	int imiss_words;                   /* ... all of them in imiss[0 .. imiss_words) */
	uint64_t overflows;
	/* wrong-path I-side misses in progress: the core's fetch_stall says
	 * WRONG_PATH for them, but counter hardware sees a fetch unit waiting
	 * on a miss, so the units rebuild that from the miss events */
	uint64_t wp_itlb_id, wp_itlb_start;
	uint64_t wp_cache_id;
	int wp_cache_kind;                 /* ACCT_FE_L1I or ACCT_FE_L2I */
	uint64_t imiss[ACCT_MAX_ROB_ID / 64]; /* sFMT: I-miss bit per ROB id */
	uint64_t rowmem[ACCT_FMT_MAX_ROWS * ACCT_FMT_ROW_WORDS]; /* the rows (struct acct_fmt_rows) */
};

/* ivx counters (acct_ivx.c): where a misprediction's penalty stands. */
#define ACCT_IVX_TLB_SLOTS 256
enum { ACCT_IVX_BP_NONE, ACCT_IVX_BP_WINDOW, ACCT_IVX_BP_REFILL };

struct acct_ivx_state {
	struct acct_totals t;
	uint64_t bp_seq;                   /* the correct-path mispredicted branch in its
					      window (dispatched, unresolved), 0 none */
	uint64_t bp_pen;                   /* its row's branch penalty counter */
	uint64_t bp_blocked;               /* its row's blocked-head cycles (nothing
					      committed, head on a D-miss or long op) */
	int32_t bp_vfree;                  /* its row's virtual free ROB entries: what a
					      correct path would have left (-1: load at
					      the window's next non-full cycle) */
	int32_t bp_blocked_comp;           /* the component that blocked the head last
					      (ACCT_COMP_COUNT: none) */
	int32_t bp;                        /* ACCT_IVX_BP_* */
	int32_t icause;                    /* I-side component (ACCT_FE_*) that owns
					      starved cycles, -1 none */
	int32_t iwide;                     /* the I-side episode began while the machine
					      issued at half its dispatch width or more */
	uint32_t ihist;                    /* instructions issued in the last 4 cycles
					      the frontend delivered in (no I-side cause,
					      no misprediction), a byte each, the last
					      in the low byte */
	int32_t l1d_drain;                 /* cycles left of an L1 D-miss's drain (a
					      3-bit counter in hardware, 0 none) */
	int32_t pad_;                      /* (keeps the counters below 8-aligned) */
	/* what the read-out (acct_ivx_stack) weighs by the base rate: */
	uint64_t partial[ACCT_FE_COUNT];   /* I-side: dispatch-starved cycles in which
					      the backend still issued (not in global[]) */
	uint64_t work[ACCT_COMP_COUNT];    /* instructions issued in the ROB-full cycles
					      global[] counted behind a long miss (L2D, D-TLB) */
	uint64_t unit_idle[2];             /* of mispredictions' windows: ROB-full cycles
					      with no divider at work, the head on
					      nothing [0] or a long-latency op [1] */
	uint64_t unit_busy;                /* cycles with a divider working */
	uint64_t partial_bp;               /* refill: dispatch-starved cycles in which
					      instructions still committed (older ones or
					      the branch itself), after the machine issued
					      below half its width (not in global[]) */
	uint64_t bp_uidle[2];              /* the window's row: unit_idle's cycles */
	/* The D-TLB bit of each ROB entry (set when a correct-path load's
	 * walk begins), kept here as the seqs of the loads that walked, at
	 * seq mod ACCT_IVX_TLB_SLOTS; and the walk budget of the blocked
	 * head: the cycles of its wait that are the walk's. */
	uint64_t tlb_seq[ACCT_IVX_TLB_SLOTS];
	uint64_t tlb_head;                 /* the head seq tlb_left belongs to */
	uint64_t tlb_left;                 /* its walk cycles not yet charged */
	/* the base-machine shadow (acct_shadow.h): last, a snapshot copies
	 * only the part of its ring the configuration uses */
	struct shadow sh;
};

struct acct {
	int method;                        /* enum acct_method */
	struct core_observer obs;
	/* The unit whose state holds this one's counts: itself, except for
	 * the sFMT of a set, which reads the set's FMT (one table computes
	 * both: they differ only in where I-side miss cycles wait). */
	const struct acct *src;
	/* The set's shared clock, or NULL: the unit counts in s.t.clk. */
	const struct acct_clock *clock;
	/* derived from the configuration, fixed for the unit's life */
	uint32_t penalty[ACCT_COMP_COUNT]; /* naive average penalties */
	uint32_t rows;                     /* FMT rows in use (a power of two) */
	uint32_t rob_size;
	uint32_t itlb_latency;             /* I-TLB walk cycles */
	uint32_t dtlb_latency;             /* D-TLB walk cycles */
	uint32_t dispatch_width;           /* instructions entering the ROB per cycle, at most */
	struct shadow_cfg shcfg;           /* ivx: what its base-machine shadow reads */
	size_t state_size;                 /* bytes of `s` the snapshot copies */
	/* FMT: its rows' arrays, in s.fmt.rowmem (set by acct_fmt_init: the
	 * state does not move, so they need no snapshot) */
	struct acct_fmt_rows fr;
	/* FMT: ROB id -> row of the branch last fetched into that slot. A
	 * hint to find a completing branch without a search, always checked
	 * against the row's seq, so it needs no snapshot. */
	uint16_t rob_row[ACCT_MAX_ROB_ID];
	/* ivx: the read-out's rates for the counters last read
	 * (acct_ivx_component): a reader that asks again before they change,
	 * as the explorer does for events in the same cycle, reuses them.
	 * Keyed by every input, so it needs no snapshot; `memo` points at
	 * `memo_store`, so a read through a const unit can fill it. */
	struct acct_ivx_memo {
		uint64_t cycles, insns, ga, wl, pp;   /* the inputs (cycles 0: none yet) */
		uint64_t ui0, ui1, ub;
		double cpi, f, uf;
	} memo_store, *memo;
	union {
		struct acct_totals t;
		struct acct_naive_state naive;
		struct acct_power5_state p5;
		struct acct_fmt_state_s fmt;
		struct acct_ivx_state ivx;
	} s;
};

/* acct_new's set-up of a zeroed unit in place (a set keeps its units in
 * its own block, acct_set.c); IVX_OK or an error code with err filled. */
int acct_init(struct acct *a, int method, const struct machine_config *cfg, struct ivx_err *err);

/* Per-method set-up: fill a->obs callbacks and a->state_size, zero state. */
void acct_naive_init(struct acct *a);
/* The component a naive unit counts a miss kind's events in
 * (ACCT_COMP_COUNT: none); a set adds to its naive units' counts with it. */
extern const uint8_t acct_naive_comp[MISS_KIND_COUNT];
void acct_power5_init(struct acct *a);
void acct_fmt_init(struct acct *a);
void acct_ivx_init(struct acct *a);

/* Reading a cycle record the way the counters do. */
static inline int acct_rob_full(const struct cycle_record *r)
{
	/* dispatch is the last stage to change the ROB in a cycle, so a cycle
	 * that dispatched nothing and ends full was full at dispatch. */
	return r->rob_full || (r->dispatched == 0 && r->rob_occupancy >= r->rob_size);
}

/* The component a blocked ROB head stands for; -1 none. A store at the
 * head that the memory system refused waits for a D-cache miss to free an
 * MSHR: a long one when misses to memory are in flight, else an L1 one. */
static inline int acct_head_comp(const struct cycle_record *r)
{
	switch (r->head_wait) {
	case HEAD_L1D: return ACCT_L1D;
	case HEAD_L2D: return ACCT_L2D;
	case HEAD_DTLB: return ACCT_DTLB;
	case HEAD_LONG_LATENCY: return ACCT_FU;
	case HEAD_STORE: return r->long_misses_outstanding > 0 ? ACCT_L2D : ACCT_L1D;
	default: return -1;
	}
}

/* The I-side component of a fetch stall, or -1. */
static inline int acct_fetch_comp(int fetch_stall)
{
	switch (fetch_stall) {
	case FETCH_STALL_L1I: return ACCT_FE_L1I;
	case FETCH_STALL_L2I: return ACCT_FE_L2I;
	case FETCH_STALL_ITLB: return ACCT_FE_ITLB;
	default: return -1;
	}
}

static inline int acct_is_branch(const struct uop *u)
{
	return u && u->op_class == UOP_BRANCH;
}

/* The overlap measurement (acct_overlap.c). */
struct acct_overlap {
	struct core_observer obs;
	struct {
		struct acct_overlap_stats st;
		uint64_t wrong_fetch_seq;   /* mispredicted branch fetched, unresolved (0 none) */
		uint64_t pending_dispatch;  /* ... and not yet in the ROB (0 none) */
		uint64_t bp_seq;            /* mispredicted branch whose penalty is running */
		int bp_resolved;            /* ... and it has resolved */
		int64_t long_out;           /* correct-path long backend misses outstanding */
	} s;
};

/* ---- per-cycle updates ----------------------------------------------------
 * Each unit's on_cycle is one of these; acct_set.c calls them directly, so
 * a cycle costs one observer call for all units. */

/* The row that holds ring position pos. */
static inline uint32_t acct_fmt_row_of(const struct acct *a, uint64_t pos)
{
	return (uint32_t)(pos & (a->rows - 1));
}

/* The seq of the branch at ring position pos (0: the open row). */
static inline uint64_t acct_fmt_seq_at(const struct acct *a, uint64_t pos)
{
	return a->fr.seq[acct_fmt_row_of(a, pos)];
}

/* The local counters of ring position pos, to add to: made valid (zeroed)
 * first if the row holds none yet. */
static inline uint64_t *acct_fmt_local_at(struct acct *a, uint64_t pos)
{
	uint32_t i = acct_fmt_row_of(a, pos);
	uint64_t *l = &a->fr.local[(size_t)i * ACCT_FE_COUNT];
	if (!(a->fr.flags[i] & ACCT_FMT_ROW_LOCAL)) {
		a->fr.flags[i] |= ACCT_FMT_ROW_LOCAL;
		for (int k = 0; k < ACCT_FE_COUNT; k++)
			l[k] = 0;
	}
	return l;
}

/* Local counter k of row i (any row), 0 if it holds none. */
static inline uint64_t acct_fmt_local_get(const struct acct *a, uint32_t i, int k)
{
	return a->fr.flags[i] & ACCT_FMT_ROW_LOCAL ? a->fr.local[(size_t)i * ACCT_FE_COUNT + k] : 0;
}

/* What every unit reads from a cycle record, worked out once per cycle. */
struct acct_cycle_view {
	uint64_t committed;
	int full;                          /* the ROB was full at dispatch */
	int head;                          /* acct_head_comp: what a blocked head stands for, -1 */
	int fe;                            /* acct_fetch_comp: correct-path I-side fetch stall, -1 */
};

static inline void acct_cycle_view(const struct cycle_record *r, struct acct_cycle_view *v)
{
	v->committed = (uint64_t)r->committed;
	v->full = acct_rob_full(r);
	v->head = acct_head_comp(r);
	v->fe = acct_fetch_comp(r->fetch_stall);
}

/* A unit's own clock (a unit outside a set). */
static inline void acct_clock_tick(struct acct *a, const struct acct_cycle_view *v)
{
	a->s.t.clk.cycles++;
	a->s.t.clk.insns += v->committed;
}

/* POWER5: zero-commit cycles by cause (acct_power5.c explains). */
static inline void acct_power5_cycle(struct acct *a, const struct cycle_record *r,
				     const struct acct_cycle_view *v)
{
	struct acct_power5_state *s = &a->s.p5;
	/* this cycle's frontend view, as the counters see it during the cycle */
	int redirect = r->fetch_stall == FETCH_STALL_REDIRECT;
	if (v->fe >= 0)
		s->empty_cause = v->fe;
	else if (redirect)
		s->empty_cause = ACCT_BPRED;
	if (v->committed == 0) {
		int k = r->head_wait == HEAD_NONE ? s->empty_cause   /* nothing in the ROB */
						  : v->head;
		if (k >= 0 && k < ACCT_COMP_COUNT)
			s->t.global[k]++;
	}
	/* instructions entering the ROB end the empty-ROB episode */
	if (r->dispatched_correct > 0 && v->fe < 0 && !redirect)
		s->empty_cause = ACCT_COMP_COUNT;
}

/* The I-side miss a fetch unit on a wrong path would wait on this cycle
 * (ACCT_FE_*), or `none`: the core reports a wrong-path wait only as
 * FETCH_STALL_WRONG_PATH, so the FMT rebuilds it from the wrong-path miss
 * events it has seen. (A set passes the counter nothing reads as `none`,
 * and adds to what this returns without a test.) */
static inline int acct_fmt_wrong_path_imiss(const struct acct *a, const struct cycle_record *r, int none)
{
	const struct acct_fmt_state_s *f = &a->s.fmt;
	int w = f->wp_cache_id ? f->wp_cache_kind : none;
	if (__builtin_expect(f->wp_itlb_id != 0, 0))   /* its walk first, then the line */
		w = r->cycle < f->wp_itlb_start + a->itlb_latency || w == none ? ACCT_FE_ITLB : w;
	return w;
}

/* The I-side miss the fetch unit waits on this cycle (any path), or -1,
 * given `fe`, the correct-path one (acct_fetch_comp). */
static inline int acct_fmt_fetch_imiss(const struct acct *a, const struct cycle_record *r, int fe)
{
	if (fe >= 0 || r->fetch_stall != FETCH_STALL_WRONG_PATH)
		return fe;
	return acct_fmt_wrong_path_imiss(a, r, -1);
}

/* FMT and sFMT together: the cycle-by-cycle rules of acct_fmt.c. An I-side
 * miss cycle goes to the FMT's fetch row and to the sFMT's shared
 * counters; everything else is the same in both. */
static inline void acct_fmt_cycle(struct acct *a, const struct cycle_record *r,
				  const struct acct_cycle_view *v)
{
	struct acct_fmt_state_s *f = &a->s.fmt;
	if (f->refill && r->dispatched_correct > 0)
		f->refill = 0;
	if (v->full) {
		if (v->head >= 0)
			f->t.global[v->head]++;
		return;
	}
	f->nonfull++;
	int fe = acct_fmt_fetch_imiss(a, r, v->fe);
	if (fe >= 0) {
		acct_fmt_local_at(a, f->fetch)[fe]++;
		f->shared[fe]++;
	} else if (f->refill) {
		f->t.global[ACCT_BPRED]++;
	}
}

static inline void acct_overlap_cycle(struct acct_overlap *o, const struct cycle_record *r,
				      const struct acct_cycle_view *v)
{
	o->s.st.cycles++;
	if (o->s.pending_dispatch && r->dispatch_seq > o->s.pending_dispatch) {
		/* the mispredicted branch entered the ROB: its penalty starts */
		o->s.bp_seq = o->s.pending_dispatch;
		o->s.bp_resolved = 0;
		o->s.pending_dispatch = 0;
	}
	if (o->s.bp_seq && o->s.bp_resolved && r->dispatched_correct > 0)
		o->s.bp_seq = 0;
	int imiss = o->s.wrong_fetch_seq == 0 && v->fe >= 0;
	int fe = imiss || o->s.bp_seq != 0;
	if (v->full) {
		if (v->head >= 0) {
			o->s.st.full[v->head]++;
			o->s.st.full_issued[v->head] += (uint64_t)r->issued;
		}
	} else {
		if (imiss) {
			o->s.st.imiss_stall++;
			o->s.st.imiss_stall_dispatched += (uint64_t)r->dispatched_correct;
		}
		if (o->s.bp_seq) {
			o->s.st.bp_window++;
			if (!v->committed && v->head >= 0)
				o->s.st.bp_window_head[v->head]++;
		}
	}
	int be = o->s.long_out > 0;
	o->s.st.frontend += (uint64_t)fe;
	o->s.st.long_backend += (uint64_t)be;
	o->s.st.overlap += (uint64_t)(fe && be);
}

/* Per-instruction handlers the set calls directly (it filters first):
 * the sFMT's I-miss bits (any instruction) and the FMT / sFMT row rules
 * (a branch's events only). */
void acct_sfmt_bits(struct acct *a, const struct insn_event *e);
void acct_fmt_branch(struct acct *a, const struct insn_event *e);
/* (the rows' following: acct_fmt_rows.h) */
void acct_power5_insn(struct acct *a, const struct insn_event *e);
/* ivx counters: a mispredicted branch's resolution (the set hands over
 * correct-path ones), and `n` cycles like the record r (n > 1: an idle
 * run, core_observer.on_idle_cycles). */
void acct_ivx_insn(struct acct *a, const struct insn_event *e);
void acct_ivx_cycles(struct acct *a, const struct cycle_record *r, uint64_t n);
/* A misprediction window's virtual ROB over n cycles like r (n > 1: an
 * idle run, nothing committed): the free entries a correct path would
 * have left, loaded at the window's first non-full cycle from the real
 * ROB, then gaining what commits and losing the dispatch width w a cycle
 * (at least 0, at most the ROB). Returns how many of the n cycles still
 * had room after their dispatch. */
static inline uint64_t acct_ivx_vrob(struct acct_ivx_state *s, const struct cycle_record *r, uint32_t w, uint64_t n)
{
	int64_t v = s->bp_vfree, d = (int64_t)r->committed - (int64_t)w, size = r->rob_size;
	uint64_t i = 0, room = 0;
	if (v < 0) {
		v = size - r->rob_occupancy;
		v = v < 0 ? 0 : v;
		room += v > 0;
		i = 1;
	}
	for (; i < n && (v > 0 || d > 0); i++) {
		v += d;
		v = v < 0 ? 0 : v > size ? size : v;
		room += v > 0;
	}
	s->bp_vfree = (int32_t)v;
	return room;
}

/* Did the last 4 cycles the frontend delivered in (ihist) issue at half
 * the dispatch width w or more? */
static inline int acct_ivx_hist_wide(const struct acct_ivx_state *s, uint32_t w)
{
	uint32_t h = s->ihist, sum = (h & 0xff) + (h >> 8 & 0xff) + (h >> 16 & 0xff) + (h >> 24);
	return sum * 2 >= w * 4;
}

/* An L1 D-miss's drain: after a cycle in which the ROB was full behind an
 * L1 D-miss at the head, this many cycles that commit while fewer than
 * the dispatch width issue are still the miss's. */
#define ACCT_IVX_L1D_DRAIN 4

/* The rules of acct_ivx_cycles (acct_ivx.c explains them) given the
 * record read the counters' way: the ROB full (acct_rob_full), the
 * component a blocked head stands for and the correct-path I-side stall
 * (acct_head_comp, acct_fetch_comp), each "none" if not below
 * ACCT_COMP_COUNT / ACCT_FE_COUNT, so a set passes its own reading
 * instead of working it out again. */
static inline __attribute__((always_inline)) void acct_ivx_rules_n(struct acct *a, const struct cycle_record *r, int full, unsigned head,
				    unsigned fe, uint64_t n)
{
	struct acct_ivx_state *s = &a->s.ivx;
	int has_head = head < ACCT_COMP_COUNT;
	int entered = r->dispatched_correct > 0;
	uint64_t issued = (uint64_t)r->issued_correct;
	uint64_t *g = s->t.global;
	uint64_t room;

	/* an I-side episode begins: was the machine issuing at half its
	 * dispatch width or more in the 4 cycles before? */
	if (fe < ACCT_FE_COUNT && s->icause < 0)
		s->iwide = acct_ivx_hist_wide(s, a->dispatch_width);
	/* the issue counts of the last 4 cycles in which the frontend was
	 * delivering, a byte each (the issue width is at most 64; a run of
	 * n > 1 idle cycles issued nothing): a cycle under an I-side miss or
	 * a misprediction does not shift, so an episode that follows another
	 * (or a misprediction) reads the rate the machine ran at before them,
	 * not the stall's own trickle */
	if (s->icause < 0 && fe >= ACCT_FE_COUNT && s->bp == ACCT_IVX_BP_NONE) {
		if (__builtin_expect(n == 1, 1))
			s->ihist = s->ihist << 8 | (uint32_t)issued;
		else
			s->ihist = n < 4 ? s->ihist << (8 * n) : 0;
	}
	/* the I-side cause: set while fetch waits on a correct-path miss,
	 * kept through the refill until instructions enter the ROB again */
	if (fe < ACCT_FE_COUNT)
		s->icause = (int32_t)fe;
	else if (entered)
		s->icause = -1;
	if (s->bp == ACCT_IVX_BP_REFILL && entered)
		s->bp = ACCT_IVX_BP_NONE;

	/* the ROB is full behind an L1 D-miss at the head: when it returns,
	 * the work that completed behind it drains (below) */
	if (full && r->committed == 0 && head == ACCT_L1D)
		s->l1d_drain = ACCT_IVX_L1D_DRAIN;
	s->unit_busy += (uint64_t)r->units_busy * n;   /* (0 or 1) */
	if (full) {
		/* a full ROB behind an unresolved misprediction, no divider at
		 * work and nothing at the head but a long-latency op or none: the
		 * row holds it; had the branch been predicted, the ROB would hold
		 * the correct path's divides (acct_ivx_stack weighs the share) */
		if (s->bp == ACCT_IVX_BP_WINDOW && !r->units_busy && (!has_head || head == ACCT_FU)) {
			s->bp_uidle[head == ACCT_FU] += n;
			if (!has_head)
				return;
		}
		if (has_head) {
			if (head == ACCT_L2D || head == ACCT_DTLB) {
				/* behind a long miss, a cycle in which the frontend
				 * still fetches the correct path is progress the
				 * machine makes anyway (a program whose base is
				 * bound by fetch loses nothing until the frontend's
				 * buffers are full too): not the miss's */
				if (r->fetched > 0 && r->fetch_stall != FETCH_STALL_WRONG_PATH)
					return;
				/* so is one in which a divider works, behind the
				 * memory access (not the walk: acct_ivx_rules): a
				 * base bound by the unpipelined divider (a modulo in
				 * a loop) keeps it busy with or without the miss */
				if (r->units_busy && head == ACCT_L2D)
					return;
				/* what issues is work the window does anyway:
				 * counted, and valued when the stack is read */
				s->work[head] += issued * n;
			}
			g[head] += n;
		}
		return;
	}
	switch (s->bp) {
	case ACCT_IVX_BP_WINDOW:
		/* the row's virtual ROB (acct_ivx_vrob): once a correct path
		 * would have filled it, dispatch would have stalled with a
		 * correct prediction too, and the cycle is not the branch's: the
		 * head's if it is blocked, else base */
		room = acct_ivx_vrob(s, r, a->dispatch_width, n);
		/* the head waits on an L1 D-miss with the ROB less than 3/8
		 * full while instructions past the branch still issue: with a
		 * correct prediction the ROB would have filled behind the miss
		 * with correct-path work and hidden it (little is older than
		 * the branch); the cycle is the branch's. If nothing past the
		 * branch issues, what follows it waits on the miss too (a
		 * chain through the load, as a pointer chase's): the cycle is
		 * blocked, below (gzip-compress warm 5.24% -> 4.86%,
		 * docs/validation.md, the seventh round) */
		if (r->committed == 0 && head == ACCT_L1D && room && r->rob_occupancy * 8 < r->rob_size * 3 &&
		    r->issued > r->issued_correct) {
			s->bp_pen += room;
			return;
		}
		if (r->committed == 0 && has_head) {
			s->bp_blocked += n;
			s->bp_blocked_comp = (int32_t)head;
		} else {
			s->bp_pen += room;
		}
		return;
	case ACCT_IVX_BP_REFILL:
		/* the refill (no correct-path instruction has entered yet)
		 * while instructions still commit (older ones, or the branch
		 * itself: counting only older ones did worse on the tuning set,
		 * docs/validation.md), after the machine ran
		 * below half its width: a partial cycle, as an I-side miss's
		 * (the ROB drains work a chain-bound program would have been
		 * finishing anyway; the read-out charges the share f) */
		if (fe >= ACCT_FE_COUNT && r->committed && !acct_ivx_hist_wide(s, a->dispatch_width)) {
			s->partial_bp += n;
			return;
		}
		/* a refill cycle waiting on an L1 I-cache miss at the redirect
		 * target is the branch's too (an L2 or I-TLB miss stays the
		 * frontend's): with the base from the shadow, this took
		 * busybox-awk warm from 5.34% to 2.66% and the unseen runs warm
		 * from 1.58% to 1.03% (docs/validation.md, the sixth round) */
		g[fe < ACCT_FE_COUNT && fe != ACCT_FE_L1I ? fe : ACCT_BPRED] += n;
		return;
	default:
		break;
	}
	int starved = s->icause >= 0 && !entered;
	/* the head waits on an L1 D-cache miss while a few instructions still
	 * issue, after cycles in which the machine issued below half its
	 * dispatch width: a dependence chain the miss holds up, the miss's
	 * cycle (a program issuing near its width keeps such a miss hidden) */
	if (!starved && r->committed == 0 && issued && head == ACCT_L1D && !acct_ivx_hist_wide(s, a->dispatch_width)) {
		g[head] += n;
		return;
	}
	/* the whole machine waits on a D-side miss at the head (nothing
	 * commits, nothing issues, and not for want of instructions): the
	 * miss's, even with room in the ROB */
	if (!starved && r->committed == 0 && !issued && (head == ACCT_L1D || head == ACCT_L2D || head == ACCT_DTLB)) {
		g[head] += n;
		return;
	}
	/* the drain of an L1 D-miss (l1d_drain, armed above): the first
	 * cycles after it returns that commit while fewer than the dispatch
	 * width issue are the miss's (what completed behind it commits, and
	 * what depends on it only now issues); a cycle that issues at the
	 * width, commits nothing or is starved ends it */
	if (s->l1d_drain && head != ACCT_L1D) {
		if (!starved && r->committed && issued < a->dispatch_width) {
			s->l1d_drain = n >= (uint64_t)s->l1d_drain ? 0 : s->l1d_drain - (int32_t)n;
			g[ACCT_L1D] += n;
			return;
		}
		s->l1d_drain = 0;
	}
	/* dispatch starved: the frontend's cycle if the backend is idle too,
	 * or if the miss came while it issued at half its width or more
	 * (what still issues drains a window the width was emptying);
	 * otherwise a partial one (how much of it was lost depends on how
	 * close to its width the program runs: acct_ivx_stack) */
	if (starved) {
		if (issued && !s->iwide)
			s->partial[s->icause] += n;
		else
			g[s->icause] += n;
	}
}
/* The rules, with the head's walk split off: a head blocked on a load
 * that missed the D-TLB (its ROB entry's bit) and waits on the D-TLB or
 * a D-cache miss gives the first dtlb_latency cycles of its wait to the
 * D-TLB, whatever the core says the load waits on by then (its walk came
 * before its memory access: with a perfect D-TLB the access, and the
 * wait, would have ended that much earlier); the rest stays with the
 * head's own component. A run of idle cycles that crosses the end of the
 * walk is split out of line (acct_ivx_rules_walk), so that the rules are
 * inlined at one place: a second copy made the compiler call them. */
void acct_ivx_rules_walk(struct acct *a, const struct cycle_record *r, int full, unsigned head, unsigned fe,
			 uint64_t n);
static inline __attribute__((always_inline)) void acct_ivx_rules(struct acct *a, const struct cycle_record *r, int full, unsigned head,
				  unsigned fe, uint64_t n)
{
	struct acct_ivx_state *s = &a->s.ivx;
	if ((head == ACCT_L2D || head == ACCT_DTLB || head == ACCT_L1D) && r->head_seq) {
		if (r->head_seq != s->tlb_head) {
			s->tlb_head = r->head_seq;
			s->tlb_left = s->tlb_seq[r->head_seq % ACCT_IVX_TLB_SLOTS] == r->head_seq ? a->dtlb_latency : 0;
		}
		if (s->tlb_left) {
			if (n > s->tlb_left) {
				acct_ivx_rules_walk(a, r, full, head, fe, n);
				return;
			}
			s->tlb_left -= n;
			head = ACCT_DTLB;
		}
	}
	acct_ivx_rules_n(a, r, full, head, fe, n);
}
/* ivx counters: the stack read out of the counters (cycles, committed
 * instructions: the clock's), as acct_ivx.c explains; `since`, if not
 * NULL, the counters at a mark (acct_mark: raw[] is global, work,
 * partial), to read what came after it. */
void acct_ivx_stack(const struct acct *a, uint64_t cycles, uint64_t insns, const uint64_t *since,
		    uint64_t comp[ACCT_COMP_COUNT]);
void acct_ivx_raw(const struct acct *a, uint64_t *raw);
/* The instructions a cycle committed, to the unit's base-machine shadow. */
uint64_t acct_ivx_commit(struct acct *a, uint64_t first, const struct commit_rec *r, int n);
/* Component `comp` of acct_ivx_stack's read-out (since the start), without
 * working out the others (the explorer reads one at every miss event). */
uint64_t acct_ivx_component(const struct acct *a, uint64_t cycles, uint64_t insns, int comp);
void acct_overlap_insn(struct acct_overlap *o, const struct insn_event *e);
/* The units' miss handlers, which a set calls directly (acct_set.c):
 * the ivx counters' (a correct-path misprediction's dispatch, a D-TLB
 * miss's begin), the FMT's (wrong-path I-side misses) and the overlap
 * measurement's (all it reads). Each ignores the events it does not read. */
void acct_ivx_miss(struct acct *a, const struct miss_event *e);
void acct_fmt_miss(struct acct *a, const struct miss_event *e);
void acct_overlap_miss(struct acct_overlap *o, const struct miss_event *e);

/* The miss events the units read: every kind but the ROB-full / ROB-empty
 * episodes (they read those states from the cycle record). */
#define ACCT_MISS_FILTER (~(MISS_BIT(MISS_ROB_FULL) | MISS_BIT(MISS_ROB_EMPTY)) & (MISS_BIT(MISS_KIND_COUNT) - 1))
#define ACCT_IMISS_FILTER (MISS_BIT(MISS_L1I) | MISS_BIT(MISS_L2I) | MISS_BIT(MISS_ITLB))
/* The ends the units read (core_observer.miss_skip_end): the FMT's
 * wrong-path I-side waits (ACCT_IMISS_FILTER) and the overlap
 * measurement's long misses outstanding; the naive units count begins. */
#define ACCT_OVERLAP_END_FILTER (MISS_BIT(MISS_L2D) | MISS_BIT(MISS_DTLB))

/* Snapshot callbacks shared by all units. */
size_t acct_state_size_cb(void *ctx);
void acct_save_cb(void *ctx, void *blob);
void acct_restore_cb(void *ctx, const void *blob);

#endif
