/*
 * coproc_internal.h — the co-processor's state, shared by the machine
 * (coproc.c) and the main processor's handlers (coproc_handler.c).
 *
 * All run state is in `struct coproc_run` (no pointers) followed by the
 * arrays in one block `mem`: a snapshot is a copy of both.
 */
#ifndef IVX_COPROC_INTERNAL_H
#define IVX_COPROC_INTERNAL_H

#include "coproc.h"

#define TAG_SHIFT_BITS 6      /* a tag keeps the tagger's shift (weight 2^shift) */
#define TAG_THIN_BITS 4       /* ... and below it its bucket's thinning (`even`) */
#define TAG_META_BITS (TAG_SHIFT_BITS + TAG_THIN_BITS)
#define COPROC_THIN_MAX 7      /* the thinning table's 3-bit entries */
#define COPROC_EVEN_MAX 15     /* ... 4-bit with `.param even` (whole shifts) */
#define TAG_RING 1024          /* in-flight tag bits, by seq (more than any ROB + frontend) */

struct coproc_rec {
	uint64_t pc, value, addr, target, seq;
	uint8_t kind, taken;
	uint8_t thin;             /* its bucket's thinning when it was tagged (`even`) */
	uint32_t bucket;          /* its pc's bucket of the ignore and thinning tables */
	uint32_t weight;          /* 2^k: tagged at a rate of 1 in 2^k (k <= 16, tagrate 65536) */
};

enum { FLAG_Z = COPROC_FLAG_Z, FLAG_L = COPROC_FLAG_L, FLAG_H = COPROC_FLAG_H, FLAG_S = COPROC_FLAG_S };

struct coproc_run {
	uint64_t now;             /* co-processor time, in core cycles */
	uint64_t stall_until;     /* core cycle the latest retirement stall ends */
	uint64_t next_timer;      /* core cycle of the next timer tick */
	uint64_t next_resample;   /* first tick at or after it re-samples (config resample) */
	uint64_t next_prog_resample;   /* resample_every / resample_thrashed: time of the next re-sampling (0: not set) */
	uint64_t records_at_tick; /* stats.records at the previous tick */
	uint64_t decoded_at_tick; /* stats.decoded at the previous tick */
	uint64_t routine_start;   /* co-processor time the current record started */
	uint64_t v[COPROC_NV];
	uint32_t i[COPROC_NI];
	uint32_t lfsr;
	uint32_t tag_rng;         /* the random tagger's generator (decode) */
	int tag_shift;            /* it tags 1 in 2^tag_shift */
	uint32_t win_n, win_drops;/* the governor's window: tagged retirements, drops */
	int flags;
	int state;                /* enum coproc_state */
	int upc;
	int head, count;          /* sample buffer ring */
	int pc_width;
	uint32_t pc_match;
	int tagging;              /* the class filter is on */
	int complete;
	int finished;
	int partition_left;       /* interrupts left in this partition */
	int partition_ticks;      /* timer ticks in this partition */
	int held;                 /* profile entries held (ignored until the next slice) */
	int thrashed;             /* the value program's slots have thrashed */
	int young;                /* progress-sized slices still shorter than the timer */
	uint64_t ticks;           /* timer ticks so far: the time slice's number */
	uint64_t harvests;        /* value handler's harvests so far (`spread`) */
	uint64_t harvest_at;      /* co-processor time of the latest harvest */
	uint64_t reads;           /* value handler's reads of the slots or the spill
				     ring so far, a ring read alone included (`even`) */
	uint64_t timer_period;    /* the handler's choice of the next period (0: config timer) */
	uint64_t aux[4];          /* handler results (callstack: max depth, mismatches, underflows) */
	/* A run of idle cycles is settled at the co-processor's next callback
	 * (coproc.c, settle), not when the core hands it over, so that where
	 * a run is cut (stepping, --interval) cannot change what follows. */
	int in_idle;              /* inside on_idle: interrupts wait */
	int idle_tick;            /* a timer tick waits, at idle_tick_at */
	uint64_t idle_tick_at;
	uint64_t idle_interrupts; /* handler cycles waiting to be charged */
	struct coproc_stats st;
};

struct coproc {
	struct coproc_config cfg;
	struct coproc_prog prog;
	struct core *core;
	struct core_observer obs;
	void (*hook)(void *ctx, uint64_t pc, uint64_t seq);
	void *hook_ctx;
	void (*fate)(void *ctx, uint64_t pc, uint64_t value, int fate);   /* diagnostics, may be NULL */
	void *fate_ctx;
	uint64_t imax, cmax, amax; /* index register / data counter (inc, adds) maxima */
	uint32_t hash_mask;       /* ignore - 1 */
	int even;                 /* `.param even` (ours): a thinned bucket's entry is
				     its whole shift, at least the governor's */
	int first;                /* `.param first` (ours, 0-3): a bucket's first that many
				     records are tagged whatever the random tagger draws */
	uint64_t young_stall;     /* `.param young_stall` (ours): before this core cycle
				     a full buffer stalls retirement, whatever the policy */
	struct coproc_run r;
	/* the block: */
	void *mem;
	size_t mem_size;
	uint64_t *tags;           /* [TAG_RING] seq + 1 of tagged instructions, the
				     tagger's shift then in the top TAG_SHIFT_BITS */
	struct coproc_rec *buf;   /* [cfg.buffer] */
	uint64_t *cam_key;        /* [cfg.cam] */
	uint8_t *cam_valid;       /* [cfg.cam] */
	uint64_t *data;           /* [cfg.data] */
	uint8_t *ignore;          /* [cfg.ignore] one byte per bit, for clarity */
	uint8_t *thin;            /* [cfg.ignore] the thinning table: bucket h's records
				     are tagged 1 in 2^thin[h] times more rarely
				     (0..COPROC_THIN_MAX, 3 bits; `.param spread`); with
				     `.param even`, 1 in 2^max(thin[h], k) when not 0
				     (0..COPROC_EVEN_MAX, 4 bits) */
	uint8_t *pred;            /* [cfg.ucode] 1-bit microbranch predictors */
	uint8_t *seen;            /* [cfg.ignore] `.param first`: the bucket's records that
				     entered the buffer, up to `first` (2 bits) */
	struct coproc_pentry *profile; /* [cfg.profile] */
};

/* `.param even`: add a load's total of `total` samples, weighted w, to its
 * weighted total; the samples of it already counted as spilled hits keep
 * the weight they were counted with (coproc_handler.c). */
void coproc_even_total(struct coproc_pentry *e, uint64_t total, uint64_t w);
/* Handlers (coproc_handler.c): the main processor's software. Each
 * returns the core cycles it costs. */
uint64_t coproc_handle_interrupt(struct coproc *cp);
uint64_t coproc_handle_timer(struct coproc *cp, uint64_t records, int executed);
uint64_t coproc_handle_resample(struct coproc *cp);
uint64_t coproc_handle_final(struct coproc *cp);
void coproc_set_ignore(struct coproc *cp, uint64_t pc);

#endif
