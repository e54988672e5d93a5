/*
 * acct.h — CPI-stack accounting units: the five counter architectures of
 * Eyerman et al. (ASPLOS 2006) as observers of one simulation.
 *
 *   naive          miss events of every path x configured average penalty
 *   naive_nonspec  the same, counting correct-path events only
 *   power5         IBM POWER5: zero-commit cycles charged to the cause
 *   fmt            frontend miss event table (one row per outstanding branch)
 *   sfmt           shared FMT (one set of frontend counters + ROB I-miss bits)
 *   ivx            ivx's counters, beyond the paper: the FMT's events charged
 *                  only in cycles they starve dispatch or commit (acct_ivx.c)
 *
 * Every unit keeps the total cycle count and eight global component
 * counters (enum acct_comp); base = total - their sum, which the naive
 * methods can drive below zero. Units subscribe to the core through
 * acct_observer() and only see what events.h publishes, the way a counter
 * architecture only sees signals of the pipeline. Their state is one flat
 * fixed-size struct, saved and restored with the core's snapshots.
 *
 * An acct_overlap observer measures what the paper's Table 1 reports: the
 * cycles in which a correct-path frontend miss penalty overlaps a long
 * backend (L2 D-cache / D-TLB) miss, using the simulator's knowledge of
 * the correct path.
 *
 * The units are explained for students in docs/cpi-stacks.md.
 */
#ifndef IVX_ACCT_H
#define IVX_ACCT_H

#include <stdint.h>
#include "core/config.h"
#include "base/err.h"
#include "core/events.h"

/* The eight global CPI components (the paper's order). */
enum acct_comp {
	ACCT_L1I,     /* L1 I-cache misses */
	ACCT_L2I,     /* L2 I-cache misses */
	ACCT_ITLB,    /* I-TLB misses */
	ACCT_L1D,     /* L1 D-cache misses (short backend misses) */
	ACCT_L2D,     /* L2 D-cache misses (long backend misses) */
	ACCT_DTLB,    /* D-TLB misses */
	ACCT_BPRED,   /* branch mispredictions */
	ACCT_FU,      /* long-latency functional unit stalls */
	ACCT_COMP_COUNT
};

enum acct_method {
	ACCT_NAIVE,
	ACCT_NAIVE_NONSPEC,
	ACCT_POWER5,
	ACCT_FMT,
	ACCT_SFMT,
	ACCT_IVX,     /* ivx's own counters beyond the paper (acct_ivx.c) */
	ACCT_METHOD_COUNT
};

/* "l1i" "l2i" "itlb" "l1d" "l2d" "dtlb" "bpred" "fu" (JSON keys). */
const char *acct_comp_name(int comp);
/* "L1 I-cache" ... "long-latency unit" (tables, legends). */
const char *acct_comp_label(int comp);
/* "naive" "naive_nonspec" "power5" "fmt" "sfmt" "ivx" (JSON keys, -m options). */
const char *acct_method_name(int method);
/* "naive" "naive non-spec" "IBM POWER5" "FMT" "sFMT" "ivx counters". */
const char *acct_method_label(int method);

/* A CPI stack in cycles. */
struct acct_stack {
	uint64_t cycles;                  /* total cycles observed */
	uint64_t insns;                   /* instructions committed meanwhile */
	uint64_t comp[ACCT_COMP_COUNT];   /* cycles charged to each component */
	int64_t base;                     /* cycles - sum(comp); < 0 when over-charged */
};

/* ---- one accounting unit ---------------------------------------------- */

struct acct;

/* A unit of the given method for a machine `cfg` (penalties of the naive
 * methods come from cfg's [penalty] section; table sizes from the ROB and
 * frontend sizes). NULL with err filled on failure. */
struct acct *acct_new(int method, const struct machine_config *cfg, struct ivx_err *err);
/* Whether the units can account for machine cfg (the ROB they size their
 * tables for): 0, or IVX_EUSAGE with err filled, as acct_new would. */
int acct_check_config(const struct machine_config *cfg, struct ivx_err *err);
void acct_free(struct acct *a);
int acct_method(const struct acct *a);

/* The observer to pass to core_add_observer (owned by the unit). */
const struct core_observer *acct_observer(struct acct *a);

/* The stack accumulated so far. */
void acct_get_stack(const struct acct *a, struct acct_stack *out);

/* The counts of a unit at one moment, to read the stack of what came
 * after (the explorer's `reset stats`). The ivx counters' stack is not a
 * difference of two stacks (it is read out of its counters: acct_ivx.c),
 * so a mark keeps their counters too. */
struct acct_mark {
	struct acct_stack stack;
	uint64_t raw[2 * ACCT_COMP_COUNT + 9]; /* ivx: global, work, partial, unit idle and busy counters, the refill's partial,
						the shadow's instructions and cycles */
};
void acct_mark(const struct acct *a, struct acct_mark *m);
/* The stack of the cycles since mark m was taken. */
void acct_get_stack_since(const struct acct *a, const struct acct_mark *m, struct acct_stack *out);

/* One component of that stack, in cycles (cheaper than the whole stack,
 * for an observer that reads it at every miss event). */
uint64_t acct_component(const struct acct *a, int comp);

/* The counter acct_component(a, comp) reads, for a reader that reads it
 * often (the explorer's per-event charges): its address in the unit's
 * state, which stays valid while the unit lives (a snapshot is restored
 * in place). NULL when the component is not one counter: the naive
 * methods (a count times a penalty) and the ivx counters (a read-out). */
const uint64_t *acct_component_counter(const struct acct *a, int comp);

/* The ivx counters' component `comp` is a read-out (acct_ivx.c): working
 * it out takes a few hundred host instructions, taking what it is worked
 * out from a few dozen. A reader that needs it at many moments but looks
 * at few of the results (the explorer's per-event charges) takes a point
 * at each moment and reads out only the points it needs, later:
 * acct_ivx_point_value(a, &p) equals, to the bit, what acct_component(a,
 * p.comp) returned when p was taken. Points of a unit that is not the ivx
 * counters read as 0. */
struct acct_ivx_point {
	uint64_t cycles, insns;          /* the clock */
	uint64_t ga, wl, pp;             /* sums of the global, work and partial counters */
	uint64_t gs, ws, ps;             /* the same of the short events' (L1I, L1D, bpred) */
	uint64_t ui0, ui1, ub;           /* the unit-idle and unit-busy counters */
	uint64_t g, w, p;                /* comp's global, work and partial (0 past the I-side) counters */
	uint64_t gfu, wfu;               /* the long-latency unit's global and work counters */
	uint64_t sn, sb;                 /* the base-machine shadow's instructions and cycles */
	int comp;
};
void acct_ivx_point_take(const struct acct *a, int comp, struct acct_ivx_point *p);
uint64_t acct_ivx_point_value(const struct acct *a, const struct acct_ivx_point *p);
/* The ivx counters' base-machine shadow so far: the instructions it
 * measured and the base machine's cycles for them (0 and 0 for another
 * method, or before its first window has ended). */
void acct_ivx_shadow(const struct acct *a, uint64_t *insns, uint64_t *cycles);

/* Naive methods: the event counts they multiplied (index enum acct_comp;
 * ACCT_FU counts fu_stall events). Zeros for the other methods. */
void acct_event_counts(const struct acct *a, uint64_t out[ACCT_COMP_COUNT]);

/* Start counting afresh (all counters and tables zero), e.g. after a
 * warm-up period. */
void acct_reset(struct acct *a);

/* ---- FMT / sFMT internals, for the explorer's FMT pane ------------------ */

enum acct_fe { ACCT_FE_L1I, ACCT_FE_L2I, ACCT_FE_ITLB, ACCT_FE_COUNT };

struct acct_fmt_state {
	int rows;                      /* table size (outstanding branches + 1) */
	int fetch;                     /* fetch pointer: the row collecting frontend miss cycles */
	int dispatch_head;             /* oldest branch not yet retired */
	int dispatch_tail;             /* youngest dispatched branch (== head - 1 mod rows: none) */
	int in_rob;                    /* branches between dispatch head and tail */
	int in_frontend;               /* branches fetched but not dispatched */
	int refill;                    /* global branch counter running: after a
	                                  misprediction, until new instructions enter the ROB */
	uint64_t shared[ACCT_FE_COUNT]; /* sFMT: the shared local I-side counters */
	int imiss_bits;                /* sFMT: ROB entries with the I-miss bit set */
	uint64_t overflows;            /* branches not tracked because the table was full */
};

enum acct_fmt_row_state {
	ACCT_ROW_FREE,                 /* not in use */
	ACCT_ROW_OPEN,                 /* the fetch row: collects I-side miss cycles, no branch yet */
	ACCT_ROW_FRONTEND,             /* branch fetched, not yet dispatched */
	ACCT_ROW_ROB,                  /* branch in the ROB: penalty counting (resolved or not,
					  unless it resolved as mispredicted) */
	ACCT_ROW_RESOLVED,             /* resolved as mispredicted, waiting to retire */
};

struct acct_fmt_row {
	uint64_t seq;                  /* the branch's dynamic instruction number (0: open row) */
	uint64_t pc;
	int rob_id;                    /* ROB slot; -1 while in the frontend */
	int state;                     /* enum acct_fmt_row_state */
	int mispredicted;              /* mispredict bit, set when it resolves as mispredicted */
	uint64_t branch_penalty;       /* cycles in the ROB (not counting ROB-full cycles) */
	uint64_t local[ACCT_FE_COUNT]; /* FMT: frontend miss cycles before this branch */
};

/* Cheap reads for an observer that follows one I-side miss (fe: enum
 * acct_fe) through an FMT or sFMT unit. acct_fmt_fetch_count: the FMT's
 * local counter of the fetch row, with the row's ring position in *pos;
 * the sFMT's shared plus global counter. acct_fmt_row_count: the local
 * counter of the FMT row at ring position pos, 0; -1 once the row has
 * retired or been dropped. */
uint64_t acct_fmt_fetch_count(const struct acct *a, int fe, uint64_t *pos);
int acct_fmt_row_count(const struct acct *a, uint64_t pos, int fe, uint64_t *out);

/* 0, or -1 if the unit is not an FMT or sFMT. */
int acct_fmt_state(const struct acct *a, struct acct_fmt_state *out);
/* Row i (0 <= i < rows) of the table. 0 or -1. */
int acct_fmt_row(const struct acct *a, int i, struct acct_fmt_row *out);

/* ---- overlap of frontend and long backend miss penalties (Table 1) ------ */

struct acct_overlap;

struct acct_overlap_stats {
	uint64_t cycles;
	uint64_t frontend;             /* cycles in a correct-path frontend miss penalty */
	uint64_t long_backend;         /* cycles with a correct-path L2D / D-TLB miss outstanding */
	uint64_t overlap;              /* cycles with both */
	uint64_t events[ACCT_COMP_COUNT]; /* correct-path miss events of each kind
	                                     (mispredicts, fu_stalls included) */
	/* Checks of the interval-analysis assumptions behind the FMT: a cycle
	 * it charges to a miss should be a cycle without useful work. */
	uint64_t imiss_stall;             /* ROB not full, correct-path fetch waits on an I-miss */
	uint64_t imiss_stall_dispatched;  /* correct-path instructions that still entered the
	                                     ROB in those cycles (buffered in the frontend) */
	uint64_t full[ACCT_COMP_COUNT];   /* ROB-full cycles by what blocks the head */
	uint64_t full_issued[ACCT_COMP_COUNT]; /* instructions still issued in those cycles */
	uint64_t bp_window;               /* ROB not full, in a misprediction's penalty window */
	uint64_t bp_window_head[ACCT_COMP_COUNT]; /* ... with the ROB head blocked by a
	                                     D-side miss or a long-latency op (the
	                                     branch waits for older work) */
};

struct acct_overlap *acct_overlap_new(const struct machine_config *cfg, struct ivx_err *err);
void acct_overlap_free(struct acct_overlap *o);
const struct core_observer *acct_overlap_observer(struct acct_overlap *o);
void acct_overlap_get(const struct acct_overlap *o, struct acct_overlap_stats *out);

/* ---- all of them on one simulation ---------------------------------------- */

/* The six units and the overlap measurement behind one observer, which
 * hands each unit only the events it reads (most instruction events are
 * of no interest to any unit), so attaching all of them costs little more
 * than attaching one. The units stay individually readable. */
struct acct_set;

/* Options of acct_set_new_opts. */
enum {
	ACCT_SET_OVERLAP = 1,     /* with the acct_overlap measurement */
	/* give wrong-path branches FMT rows and wrong-path instructions
	 * sFMT I-miss bits, as the hardware does, for a view of the table
	 * (the explorer's FMT pane); the counts are the same without, and the
	 * set cheaper: those rows, counters and bits are dropped when the
	 * mispredicted branch resolves */
	ACCT_SET_ALL_PATHS = 2,
};
struct acct_set *acct_set_new_opts(const struct machine_config *cfg, unsigned flags, struct ivx_err *err);
/* = acct_set_new_opts(cfg, ACCT_SET_OVERLAP, err) */
struct acct_set *acct_set_new(const struct machine_config *cfg, struct ivx_err *err);
/* The same without the acct_overlap measurement (acct_set_overlap is NULL):
 * the six units alone, as `make bench` times them. */
struct acct_set *acct_set_new_units(const struct machine_config *cfg, struct ivx_err *err);
void acct_set_free(struct acct_set *s);
const struct core_observer *acct_set_observer(struct acct_set *s);
const struct acct *acct_set_unit(const struct acct_set *s, int method);
const struct acct_overlap *acct_set_overlap(const struct acct_set *s);   /* NULL without */

#endif
