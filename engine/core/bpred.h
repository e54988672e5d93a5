/*
 * bpred.h — branch prediction: a hybrid of a bimodal and a gshare predictor
 * with a chooser (McFarling style), a set-associative BTB for targets and a
 * return-address stack.
 *
 * The frontend predicts at fetch (bpred_predict), updating the global history
 * and RAS speculatively; every prediction returns a checkpoint the core keeps
 * with the branch, so a misprediction restores history and RAS exactly
 * (bpred_recover). Tables are trained when the branch commits
 * (bpred_update). With perfect prediction (config [perfect] bpred=1) the
 * core does not consult this module at all.
 *
 * Targets: every branch except a return gets its target from the BTB, which
 * learns targets of taken branches at commit; a BTB miss predicts
 * fall-through, even for an unconditional branch (as in SimpleScalar).
 * Returns use the RAS. bpred.c and docs/config.md give the details.
 */
#ifndef IVX_BPRED_H
#define IVX_BPRED_H

#include <stdint.h>
#include "config.h"
#include "base/err.h"

struct bpred;
struct uop;

struct bpred_checkpoint {
	uint64_t history;     /* global history before this branch */
	uint32_t ras_top;     /* RAS pointer before this branch */
	uint64_t ras_top_value; /* the top entry before this branch, restored on recovery
				   (repairs a wrong-path return followed by a call) */
	uint32_t bimodal_index, gshare_index, chooser_index; /* for the update */
	uint64_t pred_target; /* the target predicted (0 = none), for statistics */
	uint8_t pred_taken;   /* the direction predicted, before the BTB lookup */
	uint8_t bimodal_taken, gshare_taken; /* each component's vote, to train the chooser */
};

/* Fetch continues at `target` when `taken`, else at pc + 4. A branch can
 * only be predicted taken with a target: when the BTB (or, for a return, the
 * RAS) has none, the prediction is fall-through whatever the direction
 * predictor said. A misprediction is a wrong next pc. */
struct bpred_prediction {
	int taken;            /* fetch redirects to target */
	uint64_t target;      /* predicted next pc when taken (0 when not taken) */
	struct bpred_checkpoint cp;
};

struct bpred *bpred_new(const struct machine_config *cfg, struct ivx_err *err);
void bpred_free(struct bpred *b);

/* Predict the branch `u` at pc; updates speculative history/RAS. */
void bpred_predict(struct bpred *b, const struct uop *u, uint64_t pc, struct bpred_prediction *out);

/* After a misprediction of the branch predicted with `cp`: restore history
 * and RAS as they were before it, then apply its actual outcome. */
void bpred_recover(struct bpred *b, const struct uop *u, uint64_t pc,
		   const struct bpred_checkpoint *cp, int taken, uint64_t target);

/* Train with the actual outcome when the branch commits. */
void bpred_update(struct bpred *b, const struct uop *u, uint64_t pc,
		  const struct bpred_checkpoint *cp, int taken, uint64_t target);

/* Functional warm-up: predict-and-train in one go, no timing. */
void bpred_warm(struct bpred *b, const struct uop *u, uint64_t pc, int taken, uint64_t target);

struct bpred_stats { uint64_t lookups, dir_miss, target_miss; };
void bpred_stats(const struct bpred *b, struct bpred_stats *out);

int bpred_copy(struct bpred *dst, const struct bpred *src);
/* Host bytes of its state (what a copy holds). */
size_t bpred_state_bytes(const struct bpred *b);

#endif
