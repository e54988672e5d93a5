/*
 * acct_shadow.h — the base-machine shadow of the ivx counters: the cycles
 * the committed instructions would have taken on the paper's base machine
 * (every cache, TLB and the branch predictor perfect, the long-latency
 * units real), worked out as they commit. Only engine/acct*.c include it.
 *
 * Every counter rule misses some of what the base machine does: the base
 * is where they all leave their errors (docs/validation.md). The shadow
 * measures it instead: it replays the committed stream through the base
 * machine's timing, one instruction at a time, in order: fetch blocks
 * (a line, fetch_width at most, ending after a taken branch or a system
 * call), the frontend's depth and buffer, dispatch width, ROB and LSQ,
 * the sources' ready times, the units (pipelined ones by a reservation of
 * issue slots, the unpipelined divider by its busy intervals), issue
 * width, loads waiting for older stores' addresses and forwarded stores,
 * commit width. Nothing misses, so no time needs to be known but its own.
 *
 * What it cannot do is let a younger instruction delay an older one: a
 * divide ready first takes the divider in the core, but the shadow placed
 * the older divide already; the younger fills a gap before it if one is
 * long enough (slow_place). docs/cpi-stacks.md gives the hardware.
 */
#ifndef IVX_ACCT_SHADOW_H
#define IVX_ACCT_SHADOW_H

#include <stdint.h>
#include "core/config.h"
#include "core/events.h"
#include "isa/uop.h"

#define SHADOW_RING_MAX 2048   /* dispatch/commit times kept: >= rob_size, lsq_size */
#define SHADOW_RES 512         /* issue-slot reservations: cycles ahead of dispatch */
#define SHADOW_SQ 128          /* stores kept for forwarding */
#define SHADOW_SQ_FILTER 256   /* in-flight stores per 8-byte word hash */
#define SHADOW_SLOW 32         /* busy intervals kept per unpipelined unit */
/* Sampling: of every SHADOW_PERIOD committed instructions, the shadow
 * follows a window of SHADOW_WINDOW, from an empty pipeline; the first
 * SHADOW_WARMUP of them fill it, the rest are measured. */
#define SHADOW_PERIOD 32768
#define SHADOW_WINDOW 2048
#define SHADOW_WARMUP 512

enum { SHADOW_ALU, SHADOW_MUL, SHADOW_MEM, SHADOW_FP, SHADOW_POOLS };

/* What the shadow reads of the configuration (fixed for its life). */
struct shadow_cfg {
	uint64_t line_mask;                /* ~(I-cache line - 1) */
	uint32_t fetch_width, depth, decode_width, issue_width, commit_width;
	uint32_t rob_size, lsq_size;       /* lsq_size 0: never binds (room in the ring) */
	uint32_t fe_capacity;              /* frontend pipeline + buffer; 0: never binds */
	uint32_t ring_mask;
	uint32_t slow_lat[2];              /* divider, FP divider */
	uint32_t slow_units[2];
	int inorder;                       /* core.mode = inorder: issue in program order */
	uint8_t pool_of[UOP_CLASS_COUNT];  /* SHADOW_* pool, or 0xff: an unpipelined unit */
	uint8_t slow_of[UOP_CLASS_COUNT];  /* 0 divider, 1 FP divider */
	uint8_t lat_of[UOP_CLASS_COUNT];
	uint8_t cap[SHADOW_POOLS];         /* units per pool */
};

struct shadow_slot {
	uint64_t disp, commit;             /* of instruction i, at i & ring_mask */
	uint64_t mem_commit;               /* of the j-th memory op, at j & ring_mask */
};

struct shadow_store {
	uint64_t addr, done, commit;
	uint32_t size, pad_;
};

/* The state (in the ivx counters' state, so a snapshot copies it). */
struct shadow {
	uint64_t started;                  /* win_start is set */
	uint64_t win_start;                /* the next (or this) window's first (core_committed numbering) */
	uint64_t win_n;                    /* instructions followed in this window */
	uint64_t mark;                     /* the shadow's cycle at the end of the warm-up */
	uint64_t meas_insns, meas_cycles;  /* measured: instructions and base-machine cycles */
	uint64_t n;                        /* instructions followed */
	uint64_t n_mem;                    /* loads and stores seen */
	uint64_t last_commit;              /* the base machine's cycles so far */
	uint64_t last_issue;
	uint64_t block_fetch, block_line;  /* the fetch block being filled */
	uint32_t block_n;
	int32_t block_open;
	uint64_t resume;                   /* after a system call: fetch from here */
	uint64_t addr_known;               /* latest time an older store's address is known */
	uint64_t st_n, st_head;            /* stores seen; the oldest still in flight */
	uint64_t reg_ready[REG_COUNT];
	uint8_t st_filter[SHADOW_SQ_FILTER];
	struct shadow_store st[SHADOW_SQ];
	struct {
		uint64_t start[SHADOW_SLOW];   /* one unit: sorted */
		uint64_t floor;               /* one unit: nothing starts before (a forgotten end) */
		int32_t n, pad_;
	} slow[2];
	uint64_t res_tag[SHADOW_RES];
	uint64_t res_used[SHADOW_RES];     /* a byte per pool, then the issue count */
	struct shadow_slot ring[SHADOW_RING_MAX]; /* last: a snapshot copies ring_mask + 1 */
};

void shadow_cfg_init(struct shadow_cfg *sc, const struct machine_config *cfg);
/* The bytes of struct shadow in use with this configuration. */
size_t shadow_size(const struct shadow_cfg *sc);
/* The first instruction of period p's window (core_committed numbering:
 * the window of period p starts in [p x SHADOW_PERIOD, (p + 1) x
 * SHADOW_PERIOD - SHADOW_WINDOW]). */
uint64_t shadow_window(uint64_t p);
/* The n instructions committed from number `first` on; returns the number
 * of the next one it wants (core_observer.on_commit). */
uint64_t shadow_commit(struct shadow *s, const struct shadow_cfg *sc, uint64_t first, const struct commit_rec *r, int n);

#endif
