/*
 * memsys.h — the memory hierarchy as the timing model sees it: L1 I-cache,
 * L1 D-cache, unified L2, main memory, I-TLB and D-TLB, with MSHRs so
 * misses are non-blocking and misses to a line already in flight merge.
 *
 * It is a latency model: an access made at cycle `now` returns the cycle its
 * data is ready and which levels missed; tag state is updated at access
 * time, and an MSHR entry remembers each outstanding line until its fill
 * cycle, so a later access to that line waits for the same fill (a
 * secondary miss, not a new miss event). When every MSHR of a level is busy
 * the access is refused (`blocked`) and the core retries next cycle.
 *
 * Timing, exactly (lat = a level's hit latency; t = now, or the end of the
 * page walk when the TLB misses): an L1 hit is ready at t + lat(L1); an L1
 * miss that hits the L2 at t + lat(L1) + lat(L2); an L2 miss at t + lat(L1)
 * + lat(L2) + memory latency. A merged access is ready when the fill it
 * joined is. `merged` means no new miss began at the deepest level the
 * access reached (it joined an L1 MSHR, or an L2 MSHR after missing L1).
 * docs/config.md describes the model in full.
 *
 * Perfect components (config [perfect]) are applied here: a perfect L1D
 * makes every data access an L1 hit, a perfect L2 for data makes L1D misses
 * hit in L2, and likewise for the I-side and TLBs.
 *
 * All state is in plain arrays owned by the memsys object; memsys_copy
 * makes an exact copy for snapshots. No allocation after memsys_new.
 */
#ifndef IVX_MEMSYS_H
#define IVX_MEMSYS_H

#include <stdint.h>
#include "config.h"
#include "base/err.h"

struct memsys;

struct mem_access {
	uint64_t ready;    /* cycle the data (or fetch block) is available */
	uint8_t l1_miss;   /* missed the L1 (I or D), primary or merged */
	uint8_t l2_miss;   /* also missed the L2 (went to memory) */
	uint8_t tlb_miss;  /* the TLB missed (page walk included in ready) */
	uint8_t merged;    /* joined a miss already in flight (secondary miss) */
	uint8_t blocked;   /* no MSHR free: nothing happened, retry later */
	uint8_t tlb_merged; /* waited for a page walk another access started (not a new TLB miss) */
};

struct memsys *memsys_new(const struct machine_config *cfg, struct ivx_err *err);
void memsys_free(struct memsys *m);

/* Instruction fetch of the block containing addr. */
void memsys_ifetch(struct memsys *m, uint64_t addr, uint64_t now, struct mem_access *out);
/* Data load of `size` bytes at addr (an access crossing a line touches both). */
void memsys_load(struct memsys *m, uint64_t addr, unsigned size, uint64_t now, struct mem_access *out);
/* Data store, performed when the store commits (write-allocate, write-back). */
void memsys_store(struct memsys *m, uint64_t addr, unsigned size, uint64_t now, struct mem_access *out);

/* Functional warm-up (fast-forward): update tags, LRU and TLBs as these
 * accesses would, with no timing and no MSHRs. */
void memsys_warm_ifetch(struct memsys *m, uint64_t addr);
void memsys_warm_data(struct memsys *m, uint64_t addr, int is_store);

/* Data-side L2 (memory) misses in flight at cycle `now`, for the cycle
 * record (what a store refused at the ROB head waits on). Not const: the
 * answer is remembered until it can change. */
int memsys_long_misses_in_flight(struct memsys *m, uint64_t now);

/* The first cycle after now at which memsys_long_misses_in_flight may
 * answer differently (UINT64_MAX: never, as long as nothing is allocated). */
uint64_t memsys_long_misses_until(struct memsys *m, uint64_t now);

/* Skipping cycles in which nothing can happen (core.c): accesses refused
 * so far (memsys_stats' mshr_blocked); the earliest cycle at which an
 * access refused since the last call might be accepted if made again
 * (UINT64_MAX: none refused), which starts afresh; and n more refusals,
 * those the skipped cycles would have made. */
uint64_t memsys_refused(const struct memsys *m);
uint64_t memsys_take_retry(struct memsys *m);
void memsys_skip_refused(struct memsys *m, uint64_t n);

struct memsys_stats {
	uint64_t l1i_access, l1i_miss, l1d_access, l1d_miss, l2_access, l2_miss;
	uint64_t itlb_access, itlb_miss, dtlb_access, dtlb_miss, mshr_blocked;
};
void memsys_stats(const struct memsys *m, struct memsys_stats *out);

/* For the explorer's `info caches`: is the line holding addr present? */
int memsys_probe(const struct memsys *m, int level /* 1 = L1I, 2 = L1D, 3 = L2 */, uint64_t addr);

int memsys_copy(struct memsys *dst, const struct memsys *src);
/* Host bytes of its state (what a copy holds). */
size_t memsys_state_bytes(const struct memsys *m);
#endif
