/*
 * dcpi_wait.h — the truth behind dcpicalc's culprits: per pc, the cycles
 * the instruction spent at the head of the issue stage split by why it
 * waited there (cycle_record.issue_wait, in-order mode), and per branch
 * how often it was taken (so edge frequencies have a truth too).
 *
 * A core observer of its own, next to the sampler (dcpi.h), so a run that
 * needs no culprit truth pays nothing for it. All state is one block that
 * is the observer's snapshot. Keyed by cycle_record.issue_head_pc, the pc
 * the sampler and its cycle truth use, so the reasons of a pc add up to
 * its cycle truth.
 *
 * Beside it, per (pc, reason), the instructions the core blamed for the
 * wait (cycle_record.issue_wait_pc: the producer, the missing load, the
 * mispredicted branch, ...): the first DCPI_WAIT_TOPK distinct culprits
 * with their cycles, and the cycles of any further ones as `other`. A
 * fixed-size table in the same block, so no allocation while running and
 * the snapshot covers it; the culprit with most cycles is exact whenever
 * `other` is below its count (an instruction has one or two producers per
 * operand, so the slots rarely run out).
 */
#ifndef IVX_DCPI_WAIT_H
#define IVX_DCPI_WAIT_H

#include <stdint.h>
#include "core/core.h"
#include "core/events.h"
#include "base/err.h"

struct dcpi_wait;

/* An observer of c recording up to `capacity` pcs (a power of two, 16 to
 * 2^24); with DCPI_WAIT_TAKEN it also counts taken branches (an event
 * per committed branch: the explorer, which has no edges to check, leaves
 * it out). NULL with err on a bad capacity or no memory. */
enum { DCPI_WAIT_TAKEN = 1 };
struct dcpi_wait *dcpi_wait_new(struct core *c, uint32_t capacity, unsigned flags, struct ivx_err *err);
void dcpi_wait_free(struct dcpi_wait *w);

struct dcpi_wait_pc {
	uint64_t pc;
	uint64_t taken;                    /* committed taken (branches; with DCPI_WAIT_TAKEN) */
	uint64_t cycles[ISSUE_WAIT_COUNT]; /* at the issue head, by enum issue_wait */
};
/* Recorded pcs, in no particular order; lost: cycles of pcs that found no
 * room. */
size_t dcpi_wait_size(const struct dcpi_wait *w);
int dcpi_wait_at(const struct dcpi_wait *w, size_t i, struct dcpi_wait_pc *out);
uint64_t dcpi_wait_lost(const struct dcpi_wait *w);
/* The entry of pc: 1 and *out, or 0 when pc has none. */
int dcpi_wait_find(const struct dcpi_wait *w, uint64_t pc, struct dcpi_wait_pc *out);

#define DCPI_WAIT_TOPK 3
struct dcpi_wait_culprit {
	uint64_t pc;                       /* the waiting instruction (issue head) */
	int reason;                        /* enum issue_wait */
	uint64_t culprit[DCPI_WAIT_TOPK];  /* blamed pcs in order of arrival, 0: free */
	uint64_t cycles[DCPI_WAIT_TOPK];   /* cycles blamed on each */
	uint64_t other;                    /* cycles blamed on pcs that found no slot */
};
/* Recorded (pc, reason) pairs that had a culprit, in no particular order
 * (the same iteration as dcpi_wait_size/at); lost: cycles whose pair found
 * no room in the table. */
size_t dcpi_wait_culprit_size(const struct dcpi_wait *w);
int dcpi_wait_culprit_at(const struct dcpi_wait *w, size_t i, struct dcpi_wait_culprit *out);
int dcpi_wait_culprit_find(const struct dcpi_wait *w, uint64_t pc, int reason, struct dcpi_wait_culprit *out);
uint64_t dcpi_wait_culprit_lost(const struct dcpi_wait *w);
/* Record n cycles like r, as the core's observer does (for unit tests
 * that need a culprit pattern no small program produces). */
void dcpi_wait_feed(struct dcpi_wait *w, const struct cycle_record *r, uint64_t n);
/* The slot with most cycles of c (-1 if none). */
int dcpi_wait_culprit_top(const struct dcpi_wait_culprit *c);

#endif
