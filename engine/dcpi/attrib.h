/*
 * attrib.h — per-instruction cycle attribution on the out-of-order
 * machine: what the sampling policies real hardware uses would tell a
 * programmer, next to the simulator's exact answer.
 *
 * dcpicalc's model (an in-order pipeline where the instruction at the
 * issue head is the one that waits) does not hold out of order: many
 * instructions are in flight, and "which instruction is this cycle's?" has
 * several hardware answers. One `struct attrib` observes a core and, from
 * one run, builds
 *
 *   the oracle   every cycle, the instruction(s) the commit stage exposes
 *                the latency of (time-proportional attribution, Gottschall
 *                et al., MICRO 2021), split by cause as a CPI stack is:
 *                  computing  n instructions commit: 1/n of the cycle each,
 *                             cause base;
 *                  stalled    nothing commits, the ROB is not empty: the
 *                             ROB head, cause what it waits for (L1D, L2D,
 *                             D-TLB, long-latency unit, base if a short op);
 *                  flushed    the ROB is empty after a misprediction: the
 *                             mispredicted branch, cause bpred (until the
 *                             first correct-path instruction enters the ROB);
 *                  drained    the ROB is empty otherwise: the next correct-
 *                             path instruction to enter it, cause what
 *                             stopped the frontend (L1I, L2I, I-TLB, other
 *                             for a system call's halt) — latched for the
 *                             episode, so the refill after the line arrives
 *                             goes to the same miss;
 *   five sampling policies, each estimating the same per-instruction share
 *   of cycles from samples taken at cycles chosen with a seeded randomized
 *   period (uniform in [P - dP, P], as the DCPI sampler draws them), and
 *   also from a sample at EVERY cycle (mode ATTRIB_EVERY: the policy's
 *   bias alone, without sampling noise):
 *                  head      the oldest unretired instruction (ROB head; if
 *                            empty, the frontend's oldest): the DCPI
 *                            sampler's pc (cycle_record.issue_head_pc);
 *                  nci       the next instruction to commit (Intel PEBS);
 *                  dispatch  the next instruction to enter the ROB, tagged
 *                            (AMD IBS, Arm SPE); a tagged wrong-path
 *                            instruction is squashed and its sample lost;
 *                  lci       the instruction that committed last;
 *                  tip       the oracle's rules at the sampled cycle (TIP).
 *
 * Amounts are kept in integer units: one cycle is attrib_unit() units, the
 * least common multiple of 1..commit width (up to 16), so splitting a
 * cycle among the instructions committing in it is exact.
 *
 * The core is observed through events.h only (commits and dispatches,
 * misprediction events, cycle records and runs of idle cycles). All run
 * state is one block, the observer's snapshot state; nothing is allocated
 * after attrib_new. docs/attribution.md explains it for students.
 */
#ifndef IVX_ATTRIB_H
#define IVX_ATTRIB_H

#include <stddef.h>
#include <stdint.h>
#include "core/core.h"
#include "core/events.h"
#include "base/err.h"

enum attrib_policy {
	ATTRIB_HEAD,      /* oldest unretired (ROB head) */
	ATTRIB_NCI,       /* next-committing (PEBS-like) */
	ATTRIB_DISPATCH,  /* dispatch tagging (IBS/SPE-like) */
	ATTRIB_LCI,       /* last-committed */
	ATTRIB_TIP,       /* time-proportional commit-stage attribution */
	ATTRIB_POLICY_COUNT
};

enum attrib_mode {
	ATTRIB_SAMPLED,   /* samples at randomized-period cycles */
	ATTRIB_EVERY,     /* a sample at every cycle */
	ATTRIB_MODE_COUNT
};

/* The oracle's causes: the CPI stack's components, base and other. */
enum attrib_cause {
	ATTRIB_BASE,      /* committing, or the head is a short op in flight */
	ATTRIB_L1I, ATTRIB_L2I, ATTRIB_ITLB,
	ATTRIB_L1D, ATTRIB_L2D, ATTRIB_DTLB,
	ATTRIB_BPRED,     /* flushed after a misprediction */
	ATTRIB_FU,        /* the head waits on a long-latency unit */
	ATTRIB_OTHER,     /* fetch halted by a system call, the end of the program */
	ATTRIB_CAUSE_COUNT
};

/* "head", "nci", "dispatch", "lci", "tip"; "?" if unknown. */
const char *attrib_policy_name(int p);
/* "base", "l1i", "l2i", "itlb", "l1d", "l2d", "dtlb", "bpred", "fu", "other". */
const char *attrib_cause_name(int c);

struct attrib_config {
	uint64_t period;      /* P: the longest sampling period, cycles (>= 1) */
	uint64_t delta;       /* dP: periods are uniform in [P - dP, P] (dP < P) */
	uint64_t seed;        /* the period generator's seed */
	uint32_t capacity;    /* table slots (power of two); 3/4 of them can hold pcs */
	uint32_t commit_width;/* the machine's (sets the unit); attrib_attach fills it */
};

/* period 1024, delta 64, seed 1, capacity 65536, commit width 4. */
void attrib_config_defaults(struct attrib_config *c);
int attrib_config_validate(const struct attrib_config *c, struct ivx_err *err);

struct attrib;

/* An attributor not yet observing anything (tests feed attrib_observer's
 * callbacks by hand). NULL with err on a bad configuration or no memory. */
struct attrib *attrib_new(const struct attrib_config *cfg, struct ivx_err *err);
/* attrib_new with the core's commit width, added as the core's observer
 * (before its first cycle). */
struct attrib *attrib_attach(const struct attrib_config *cfg, struct core *c, struct ivx_err *err);
void attrib_free(struct attrib *a);
/* The observer it registers (ctx included). */
const struct core_observer *attrib_observer(const struct attrib *a);
const struct attrib_config *attrib_get_config(const struct attrib *a);

/* End of the run: what still waits for an instruction that will never
 * come (drained cycles at the very end, samples pending for a next commit
 * or dispatch) is counted as unattributed / dropped. Idempotent. */
void attrib_finish(struct attrib *a);

/* Units per cycle. */
uint64_t attrib_unit(const struct attrib *a);

struct attrib_stats {
	uint64_t cycles;                  /* cycles observed */
	uint64_t commits;                 /* instructions committed */
	uint64_t sample_cycles;           /* cycles sampled in ATTRIB_SAMPLED mode */
	uint64_t oracle_units;            /* units the oracle gave to instructions */
	uint64_t oracle_unattributed;     /* units left at the end (attrib_finish) */
	uint64_t cause_units[ATTRIB_CAUSE_COUNT];   /* the oracle's units by cause */
	uint64_t est_units[ATTRIB_MODE_COUNT][ATTRIB_POLICY_COUNT]; /* units attributed */
	uint64_t dropped[ATTRIB_MODE_COUNT][ATTRIB_POLICY_COUNT];   /* samples lost */
	uint64_t lost;                    /* oracle units with no room in the table */
	uint64_t lost_est;                /* estimate units with no room in the table */
	uint64_t flushes;                 /* correct-path mispredictions seen */
};
void attrib_get_stats(const struct attrib *a, struct attrib_stats *out);

/* One static instruction. */
struct attrib_row {
	uint64_t pc;
	uint64_t cause[ATTRIB_CAUSE_COUNT];                 /* the oracle, units by cause */
	uint64_t est[ATTRIB_MODE_COUNT][ATTRIB_POLICY_COUNT]; /* each policy, units */
};
/* Rows in use, and row i of them (in table order: no particular order). */
size_t attrib_rows(const struct attrib *a);
int attrib_row_at(const struct attrib *a, size_t i, struct attrib_row *out);
/* Copy up to max rows in use into out (table order); returns how many. */
size_t attrib_rows_copy(const struct attrib *a, struct attrib_row *out, size_t max);
/* The row for pc: 0, or -1 if pc never got anything. */
int attrib_row_of(const struct attrib *a, uint64_t pc, struct attrib_row *out);
uint64_t attrib_row_true(const struct attrib_row *r);   /* the oracle's total units */

/* A policy's per-instruction error against the oracle, as fractions:
 *   tv   half the sum over instructions of |estimated share - true share|:
 *        the fraction of the cycles the policy puts on the wrong
 *        instruction (0 = exact, 1 = all wrong);
 *   rel  the cycle-weighted mean relative error over the instructions with
 *        at least 1% of the true cycles: sum |est - true| / sum true over
 *        those instructions.
 * Shares: of the units the policy attributed, and of all cycles. Returns
 * 0, or -1 when the policy attributed nothing (both set to 1). */
int attrib_error(const struct attrib *a, int mode, int policy, double *tv, double *rel);

#endif
