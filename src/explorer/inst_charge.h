/*
 * inst_charge.h — what each CPI accounting method charged one miss event,
 * and (on demand) what the event really cost.
 *
 * Charged: an observer beside the accounting set reads, at every begin and
 * end of a miss event, each method's counter of the event's component, and
 * hands what the counter gained since the last such moment to one event:
 * the oldest of that component in progress (the one the ROB head waits
 * for), or, with none in progress, the one that ended last (cycles charged
 * after an event, such as POWER5's empty-ROB cycles while the front end
 * refills after an I-cache miss, are its doing). Every cycle a method
 * charges to a component goes to exactly one event, so overlapping misses
 * do not both claim it. (inst_charge.c reads the counters only when the
 * event a component's cycles go to changes, which gives the same charges
 * to the bit.) The naive methods charge each event their fixed
 * [penalty] (naive non-spec: correct-path events only). The FMT's I-side
 * cycles are read from the table row that collected them (they reach the
 * global counter only when the next branch retires); the sFMT's from its
 * shared counters plus its global ones. Its state is observer state, so
 * reverse stepping restores it.
 *
 * True cost: ivx cost's counterfactual for one event. From the state just
 * before the event (replayed from the explorer's snapshots), run to a point
 * well past it twice, as it was and with only that event taken away
 * (core_forgive), and count the cycles between the two at the same
 * committed-instruction count; then go back to where the run was.
 */
#ifndef IVX_INST_CHARGE_H
#define IVX_INST_CHARGE_H

#include <stdint.h>
#include "acct/acct.h"
#include "explorer.h"

/* The accounting component a miss kind is charged to, or -1 (rob-full, ...). */
int xcharge_comp(int kind);

/* What each method (enum acct_method) charged event e: 0 with out[] and
 * known[] filled (known[m] 0: the method's count could not be read, e.g.
 * the FMT row was reused), or -1 when the event is not a miss event with
 * a component, is still in progress, or is no longer remembered. */
int xcharge_get(const struct explorer *x, const struct xevent *e, int64_t out[ACCT_METHOD_COUNT],
		int known[ACCT_METHOD_COUNT]);

/* Per instruction, since the start of the run: the correct-path miss
 * events it began, and the cycles it spent at the ROB head while nothing
 * committed (a stall). 0; 1 when the table is full and some instructions
 * are not counted; -1 without the instrument. */
int xcharge_pc_counts(const struct explorer *x, uint64_t pc, uint64_t *misses, uint64_t *stalls);

/* The true cost of e, if `info cost` measured it in this run: 0 and *cycles. */
int xcharge_true_cost(const struct explorer *x, const struct xevent *e, int64_t *cycles);

struct xcost_result {
	int64_t penalty;          /* cycles the event cost */
	uint64_t from_cycle;      /* engine cycle the two runs started from */
	uint64_t target;          /* committed-instruction count both ran to */
	uint64_t with, without;   /* engine cycles at which they reached it */
	int ended;                /* the program ended inside the window */
};

/* Measure e's true cost (ivx cost's counterfactual) and leave the run where
 * it was. 0, or -1 with explorer_error. */
int xcharge_measure(struct explorer *x, const struct xevent *e, struct xcost_result *out);

#endif
