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
 */
#ifndef IVX_DCPI_WAIT_H
#define IVX_DCPI_WAIT_H

#include <stdint.h>
#include "core/core.h"
#include "core/events.h"
#include "base/err.h"

struct dcpi_wait;

/* An observer of c recording up to `capacity` pcs (a power of two, 16 to
 * 2^24). NULL with err on a bad capacity or no memory. */
struct dcpi_wait *dcpi_wait_new(struct core *c, uint32_t capacity, struct ivx_err *err);
void dcpi_wait_free(struct dcpi_wait *w);

struct dcpi_wait_pc {
	uint64_t pc;
	uint64_t taken;                    /* committed taken (branches) */
	uint64_t cycles[ISSUE_WAIT_COUNT]; /* at the issue head, by enum issue_wait */
};
/* Recorded pcs, in no particular order; lost: cycles of pcs that found no
 * room. */
size_t dcpi_wait_size(const struct dcpi_wait *w);
int dcpi_wait_at(const struct dcpi_wait *w, size_t i, struct dcpi_wait_pc *out);
uint64_t dcpi_wait_lost(const struct dcpi_wait *w);

#endif
