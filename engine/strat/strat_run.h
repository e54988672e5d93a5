/*
 * strat_run.h — the stratified-sampling instrument on the core: the
 * selector, the compressor, the exact profile, and the software side.
 *
 * Selection at retirement (INSN_COMMIT, so on the correct path only):
 *   value   loads:                        <pc, first loaded register>
 *   edge    conditional branches, jumps,  <pc, successor> — the next
 *           indirect jumps and returns    instruction executed: the
 *                                         target if taken, pc + 4 if not
 *   call    direct and indirect calls     <pc, callee>
 * Several profiles share one compressor; each tuple carries its profile's
 * tag (the profile's bit number) in the pc's top byte.
 *
 * The software side (section 2.2 and 5.3.2): the last stage's messages
 * queue in a hardware buffer; when `batch` (>= 100) are queued, the
 * handler is interrupted, costing int_cycles + msg_cycles per message
 * (214 and 30 by default). The cycles are counted as overhead, and with
 * `charge` also given to the core (core_interrupt), which then stops
 * fetching for that long. At the end the last partial batch is delivered.
 * The profile the error is measured on is every message the first stage
 * sent (later stages and the queue only delay them, losslessly).
 */
#ifndef IVX_STRAT_RUN_H
#define IVX_STRAT_RUN_H

#include <stdint.h>
#include "base/err.h"
#include "strat.h"
#include "strat_prof.h"

struct core;
struct core_observer;

enum {
	STRAT_PROFILE_VALUE = 1,
	STRAT_PROFILE_EDGE = 2,
	STRAT_PROFILE_CALL = 4,
};
/* "value" | "edge" | "call" | a comma-separated list: the mask, 0 if bad. */
unsigned strat_profile_parse(const char *s);
const char *strat_profile_name(unsigned bit);

struct strat_run_opts {
	struct strat_spec spec;
	unsigned profiles;        /* STRAT_PROFILE_* mask */
	uint64_t seed;
	uint32_t batch;           /* messages per interrupt (>= 100) */
	uint32_t int_cycles;      /* 214 */
	uint32_t msg_cycles;      /* 30 */
	int charge;               /* core_interrupt the handler's cycles */
	uint32_t capacity;        /* profile table tuples */
	int growable;             /* see strat_prof.h: no snapshots then */
	uint64_t checkpoint;      /* call on_checkpoint every this many events (0: never) */
	int no_exact;             /* keep no exact profile (no error; to time the compressor alone) */
};
void strat_run_opts_default(struct strat_run_opts *o);

struct strat_run;

struct strat_run *strat_run_new(const struct strat_run_opts *o, struct ivx_err *err);
void strat_run_free(struct strat_run *r);
/* Add it to the core (it keeps c for core_interrupt and core_cycles). */
int strat_run_attach(struct strat_run *r, struct core *c, struct ivx_err *err);
const struct core_observer *strat_run_observer(const struct strat_run *r);

/* Hooks (may be NULL): an interrupt was taken at the tuple of pc / seq;
 * `events` tuples have been selected (every opts.checkpoint). */
struct strat_run_hooks {
	void *ctx;
	void (*on_interrupt)(void *ctx, uint64_t pc, uint64_t seq, uint32_t messages);
	void (*on_checkpoint)(void *ctx, uint64_t events);
};
void strat_run_set_hooks(struct strat_run *r, const struct strat_run_hooks *h);

/* End of run: the A tables send what they hold, the last batch goes.
 * Once: a second call does nothing. The flag is in the snapshot, so a
 * run restored to before its end finishes again when it gets there. */
void strat_run_finish(struct strat_run *r);

struct strat_run_stats {
	uint64_t events;                  /* tuples selected */
	uint64_t events_by[3];            /* per profile (value, edge, call) */
	uint64_t samples;                 /* first-stage messages */
	uint64_t messages;                /* messages to software */
	uint64_t delivered;               /* of those, handled so far */
	uint64_t interrupts;
	uint64_t overhead_cycles;         /* interrupts * int + delivered * msg */
	uint32_t queued;                  /* waiting in the buffer */
	uint32_t batch;
	int finished;                     /* strat_run_finish has run */
	uint64_t cycles;                  /* the core's cycles without handlers */
	double overhead_fraction;         /* overhead_cycles / cycles */
};
void strat_run_stats(const struct strat_run *r, struct strat_run_stats *out);

double strat_run_error(const struct strat_run *r, const struct strat_err_params *ep, struct strat_err_detail *d);
const struct strat_comp *strat_run_comp(const struct strat_run *r);
const struct strat_prof *strat_run_prof(const struct strat_run *r);

#endif
