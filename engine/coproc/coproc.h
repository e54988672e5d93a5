/*
 * coproc.h — the programmable profiling co-processor (Zilles & Sohi,
 * HPCA 2001) attached to the core model.
 *
 *   decode (INSN_DISPATCH)          retire (INSN_COMMIT, correct path)
 *   ┌──────────────────────┐        ┌─────────────────────────────┐
 *   │ class filter          │ tag    │ tagged? write a record with │
 *   │ AND PC filter:        ├──────▶ │ the program's fields into   │
 *   │  (hash(pc) & mask)    │        │ the sample buffer; full:    │
 *   │   == match, and the   │        │ stall retirement or drop    │
 *   │  ignore bit of hash   │        └──────────────┬──────────────┘
 *   │  clear                │                       │ head record
 *   └──────────────────────┘        ┌──────────────▼──────────────┐
 *                                   │ co-processor (own clock):   │
 *                                   │ DFE: class -> routine start │
 *                                   │ microcode, registers, CAM,  │
 *                                   │ data array, LFSR;           │
 *                                   │ DONE -> next record,        │
 *                                   │ INTERRUPT -> main processor │
 *                                   │ handler (cost charged with  │
 *                                   │ core_interrupt)             │
 *                                   └─────────────────────────────┘
 *
 * The main processor's interrupt handler is modelled in C
 * (coproc_handler.c): it reads the co-processor's state, folds it into the
 * profile in memory, sets PC-filter ignore bits for loads it is confident
 * about, resets the arrays and lets the co-processor go on. Its cost is a
 * fixed part plus a part per slot read and per ignore bit set.
 *
 * Everything that changes during a run (filters, buffer, registers,
 * arrays, the in-memory profile, statistics) is in one block saved and
 * restored by the observer's state_size/save/restore.
 */
#ifndef IVX_COPROC_H
#define IVX_COPROC_H

#include <stdint.h>
#include "base/err.h"
#include "core/core.h"
#include "core/events.h"
#include "coproc_prog.h"

enum coproc_policy { COPROC_STALL, COPROC_DROP, COPROC_REPLACE };

/* Sizes and costs; every field is a key of coproc_config_set. */
struct coproc_config {
	uint32_t buffer;        /* sample buffer records */
	uint32_t cam;           /* associative array entries */
	uint32_t data;          /* data array words */
	uint32_t ucode;         /* microcode array words */
	uint32_t ignore;        /* PC filter ignore-bit table entries (power of two) */
	uint32_t clock_div;     /* core cycles per co-processor cycle */
	uint32_t policy;        /* enum coproc_policy */
	uint32_t int_cycles;    /* handler: fixed cost per interrupt */
	uint32_t slot_cycles;   /* handler: per slot or entry read */
	uint32_t mask_cycles;   /* handler: per ignore bit set */
	uint32_t mispredict;    /* co-processor cycles lost to a mispredicted microbranch */
	uint32_t watchdog;      /* co-processor cycles one record may take before it is abandoned */
	uint64_t timer;         /* main-processor timer period, cycles (completion check) */
	uint64_t resample;      /* cycles between re-samplings of masked loads (0: never) */
	uint32_t profile;       /* entries of the in-memory profile table */
	uint64_t seed;          /* LFSR seed */
	uint32_t tagrate;       /* tag 1 in N filtered instructions at random (0: adapt N to the drops) */
};

void coproc_config_defaults(struct coproc_config *c);
const char *coproc_policy_name(uint32_t policy);
/* "key=value"; the error names the key and the range. */
int coproc_config_set(struct coproc_config *c, const char *assignment, struct ivx_err *err);
/* Keys in order, for help and docs; NULL past the end. */
const char *coproc_config_key(int i);
const char *coproc_config_help(int i);
/* The i-th value a key with a fixed set of them takes ("policy": stall,
 * drop, replace), NULL past the end and for a numeric key (the explorer's
 * Tab after `coproc set policy=`). */
const char *coproc_config_value_word(const char *key, int i);
int coproc_config_get(const struct coproc_config *c, int i, char *buf, size_t n);

struct coproc;

/* cfg raised to the sizes program p asks for (.param buffer_entries,
 * cam_entries, data_words, profile_entries); larger settings are kept. */
void coproc_config_for(struct coproc_config *cfg, const struct coproc_prog *p);

/* Whether program p runs on a co-processor of cfg raised by
 * coproc_config_for (its microcode fits, its slots and their ways have
 * CAM entries): coproc_new's own check, for a caller that wants to know
 * before it builds a core. */
int coproc_check(const struct coproc_config *cfg, const struct coproc_prog *p, struct ivx_err *err);

/* A co-processor loaded with program p (copied) observing core c. Add its
 * observer with core_add_observer(c, coproc_observer(cp), err). */
struct coproc *coproc_new(const struct coproc_config *cfg, const struct coproc_prog *p, struct core *c,
			  struct ivx_err *err);
void coproc_free(struct coproc *cp);
const struct core_observer *coproc_observer(struct coproc *cp);
const struct coproc_prog *coproc_program(const struct coproc *cp);
const struct coproc_config *coproc_cfg(const struct coproc *cp);

/* Called for each INTERRUPT the microcode takes (the explorer's
 * `catch coproc-interrupt`): pc of the record being processed. */
void coproc_set_interrupt_hook(struct coproc *cp, void (*fn)(void *ctx, uint64_t pc, uint64_t seq), void *ctx);

/* What became of a correct-path execution of a profiled instruction
 * (diagnostics, `ivx coproc --fates`): the class filter was off (profile
 * complete), its hashed pc was outside the PC filter's partition, its
 * ignore bit was set, the random tagger skipped it, or it was tagged and
 * on retiring dropped at a full buffer or written as a record. Reported
 * at decode for the first four (the simulator knows the path; the
 * hardware would not), at retirement for the last two. */
enum coproc_fate {
	COPROC_FATE_OFF, COPROC_FATE_PARTITION, COPROC_FATE_IGNORED, COPROC_FATE_UNTAGGED,
	COPROC_FATE_DROPPED, COPROC_FATE_RECORDED, COPROC_NFATES
};
void coproc_set_fate_hook(struct coproc *cp, void (*fn)(void *ctx, uint64_t pc, uint64_t value, int fate),
			  void *ctx);

/* The end of the run: the handler harvests what the slots still hold
 * (its cost is counted in final_cycles, not charged to the finished run).
 * Idempotent. */
void coproc_finish(struct coproc *cp);

enum coproc_state { CPS_IDLE, CPS_RUNNING, CPS_STOPPED };

struct coproc_stats {
	uint64_t decoded;        /* instructions of the tagged classes seen at decode */
	uint64_t tagged;         /* ... that both filters tagged (all paths) */
	uint64_t retired_tagged; /* tagged instructions that retired */
	uint64_t records;        /* records written into the buffer */
	uint64_t drops;          /* records dropped on a full buffer (policy drop, replace) */
	uint64_t untagged;       /* instructions both filters passed that the random tagger skipped */
	uint64_t stalls;         /* retirements that found the buffer full (policy stall) */
	uint64_t stall_cycles;   /* core cycles charged for them */
	uint64_t interrupts;     /* INTERRUPTs taken by the microcode */
	uint64_t timer_actions;  /* timer ticks on which the handler acted */
	uint64_t handler_cycles; /* core cycles charged for handlers */
	uint64_t final_cycles;   /* the end-of-run harvest (not charged) */
	uint64_t masked;         /* ignore bits set */
	uint64_t resamples;      /* re-samplings: masked loads unmasked to be re-checked */
	uint64_t unmasked;       /* loads unmasked by them */
	uint64_t backed_off;     /* masked loads a re-sampling left masked (resample_backoff) */
	uint64_t held;           /* loads held (ignored) until the next time slice */
	uint64_t spilled;        /* spill-ring entries merged (value_topk.s: replaced slots) */
	uint64_t thinned;        /* thinning-table entries the handler wrote (`.param spread`) */
	uint64_t stale;          /* records dropped at the DFE: their bucket's thinning
				    changed since they were tagged (`.param even`) */
	uint64_t first_tags;     /* tags of a bucket's first records, the random tagger
				    passed over (`.param first`) */
	uint64_t uinsns;         /* microinstructions executed */
	uint64_t cp_cycles;      /* co-processor busy cycles */
	uint64_t ubranch_miss;   /* mispredicted microbranches */
	uint64_t routines;       /* records processed to DONE or INTERRUPT */
	uint64_t abandoned;      /* records abandoned by the watchdog or running off the microcode */
	uint64_t profile_full;   /* harvested entries lost to a full profile table */
	int buffer_count;        /* records in the buffer now */
	int buffer_max;          /* the most ever */
	int state;               /* enum coproc_state */
	int upc;                 /* microcode pc (-1 idle) */
	int routine_kind;        /* class of the record being processed, -1 idle */
	uint64_t head_pc;        /* its pc */
	int pc_width;            /* PC filter mask width and match now */
	uint32_t pc_match;
	int complete;            /* the handler declared the profile complete */
	int tag_shift;           /* the random tagger tags 1 in 2^tag_shift now */
	int finished;            /* coproc_finish has run (final_cycles is its harvest) */
};
void coproc_get_stats(const struct coproc *cp, struct coproc_stats *s);
/* The tagger's and the buffer's options a program set (ours): how many of
 * a bucket's first records are tagged whatever the random tagger draws
 * (`.param first`, 0 none), and the core cycle before which a full buffer
 * stalls retirement whatever the policy (`.param young_stall`; 0 when
 * unset or when the policy stalls anyway). */
int coproc_first_sight(const struct coproc *cp);
uint64_t coproc_young_stall(const struct coproc *cp);

/* The co-processor's register files (for panes and tests): value and
 * index registers, the flags (COPROC_FLAG_*, set by the latest operation
 * that sets each) and the LFSR `rand` draws from. */
enum { COPROC_FLAG_Z = 1, COPROC_FLAG_L = 2, COPROC_FLAG_H = 4, COPROC_FLAG_S = 8 };
uint64_t coproc_vreg(const struct coproc *cp, int i);
uint32_t coproc_ireg(const struct coproc *cp, int i);
unsigned coproc_flags(const struct coproc *cp);
uint32_t coproc_lfsr(const struct coproc *cp);

/* Slots as the value and edge programs lay them out: CAM entry i and the
 * data words b0+i .. b3+i (docs/coproc.md). */
struct coproc_slot {
	int valid;
	uint64_t pc;
	uint64_t w[4];           /* data[b0+i], data[b1+i], data[b2+i], data[b3+i] */
	int masked;              /* the pc's ignore bit is set */
};
int coproc_slot_count(const struct coproc *cp);
void coproc_slot(const struct coproc *cp, int i, struct coproc_slot *out);

/* The in-memory profile the handler builds. */
#define COPROC_PVALS 4
struct coproc_pentry {
	uint64_t pc;
	uint64_t total;          /* samples observed (total counters) */
	uint64_t wtotal;         /* value_topk_ipw.s (`.param weighted`): the
				    samples weighted by their records' weight
				    (2^k, tagged 1 in 2^k), the estimate's
				    denominator; 0 otherwise */
	uint64_t reweighted;     /* of total, samples `skip_weight` added (a
				    re-check counted again for the rounds it
				    skips); total - reweighted were harvested */
	uint64_t base;           /* total when last unmasked by a re-sampling: the
				    confidence test counts the samples since */
	uint64_t visit;          /* value: the time slice (timer period) of its
				    latest samples, + 1 */
	uint32_t visits;         /* value: time slices its samples came from */
	uint32_t slice_samples;  /* value: samples in the latest of them */
	int held;                /* value: ignored until the next time slice */
	/* `.param spread N` (ours): the load's thinning t (its bucket of the
	 * thinning table tags 1 in 2^t of what the random tagger tags), and
	 * the samples harvest number `hv` gave it, thinned by `hv_thin0` */
	uint32_t thin, hv_thin0;
	uint64_t hv, hv_samples;
	/* `.param even` (ours): the thinning its records since the handler's
	 * previous read were tagged at, once read number thin_read - 1 has
	 * changed it */
	uint32_t thin_was;
	uint64_t thin_read;
	/* `.param even`: own hits of ways evicted from the load's slot, spilled
	 * since its total last came (their samples are in that total, which
	 * comes later), and the same hits weighted as they were counted */
	uint64_t pend_hits, pend_weighted;
	int masked;
	/* the value handler's `resample_backoff` (ours): a load whose re-check agreed
	 * with the profile sits out `skip` re-samplings (doubling, up to the
	 * parameter), `skip_left` of them still to go; the re-check compares
	 * the share of `recheck_value` among the new samples with its share
	 * when the load was unmasked (`recheck_count` over `recheck_den`, the
	 * estimate's count and denominator then; `recheck` is set while it runs) */
	uint32_t skip, skip_left;
	uint32_t agreed;         /* re-checks in a row that agreed */
	int recheck;
	uint64_t recheck_value, recheck_count, recheck_den;
	int nvals;
	/* per value: samples equal to it while it was the active value
	 * (count), and samples seen while it was active (region; 0 for
	 * programs that count outcomes, as edge); at_unmask, its count when
	 * a re-sampling last unmasked the load (for `skip_weight`) */
	struct { uint64_t value, count, region, at_unmask; } val[COPROC_PVALS];
};
int coproc_profile_size(const struct coproc *cp);    /* table entries */
/* Entry i, 0 if the entry is empty. */
int coproc_profile_entry(const struct coproc *cp, int i, struct coproc_pentry *out);
/* The entry of pc: 1, or 0 if the profile has none. */
int coproc_profile_find(const struct coproc *cp, uint64_t pc, struct coproc_pentry *out);
/* The estimated invariance of an entry: its largest value count over its
 * total samples (over wtotal when the program weighs its samples). */
double coproc_pentry_invariance(const struct coproc_pentry *e);
/* The same estimate corrected for the winner's curse (ours, `ivx coproc
 * --estimate shrink`). The largest of several sample shares overstates
 * the largest true share when the values' shares are close: a load whose
 * four values come a quarter each shows a top share of about 0.31 in 77
 * samples. When the values held cover at least 95% of the samples (the
 * whole distribution is seen, so nothing else biases the estimate), their
 * shares are shrunk toward their mean by the part of their spread that
 * sampling alone explains (James-Stein), and the top one is returned;
 * otherwise the plain estimate. `share` holds the n values' shares of the
 * samples (n <= COPROC_PVALS), `samples` how many samples they come from. */
double coproc_top_share_shrunk(const double *share, int n, uint64_t samples);
double coproc_pentry_invariance_shrunk(const struct coproc_pentry *e);
/* The index of e's value with the most samples, -1 if it has none; and
 * the estimates' denominator (its samples, or their weights). */
int coproc_pentry_top(const struct coproc_pentry *e);
uint64_t coproc_pentry_samples(const struct coproc_pentry *e);
/* The samples e counted for `value` (0 for a value it does not hold). */
uint64_t coproc_pentry_value_count(const struct coproc_pentry *e, uint64_t value);
/* The estimated share of `value` among the load's executions, by the same
 * rule (0 for a value the entry does not hold). */
double coproc_pentry_value_share(const struct coproc_pentry *e, uint64_t value);

/* Results a handler keeps beside the profile (callstack: 0 max depth,
 * 1 returns to an unexpected address, 2 returns at depth 0). */
uint64_t coproc_aux(const struct coproc *cp, int i);

/* The PC filter's hash and whether pc is ignored now. */
uint32_t coproc_pc_hash(const struct coproc *cp, uint64_t pc);
int coproc_pc_ignored(const struct coproc *cp, uint64_t pc);

#endif
