/*
 * bpred.c — McFarling's combining predictor, a BTB and a return-address
 * stack (see bpred.h).
 *
 *   direction  conditional branches only: a bimodal table of 2-bit counters
 *              indexed by pc, a gshare table indexed by pc XOR the global
 *              history (folded to the index width), and a chooser indexed
 *              by pc that picks gshare when >= 2. All counters start at 1
 *              (weakly not-taken / weakly bimodal).
 *   target     every branch but a return takes its target from the BTB
 *              (set-associative, LRU), as in SimpleScalar: a branch whose
 *              BTB lookup misses is predicted fall-through even when it is
 *              unconditional, and is mispredicted if it is taken. The BTB
 *              is filled and its LRU order updated at commit with the
 *              targets of taken branches, so wrong-path branches never
 *              pollute it.
 *   returns    a circular RAS: BL/BLR push pc + 4, RET pops; an entry that
 *              was never written (0) predicts fall-through.
 *
 * The global history holds the directions fetch actually followed for
 * conditional branches (a taken prediction without a target counts as
 * not-taken) and is updated speculatively at predict time. Recovery puts
 * back the history, the RAS pointer and the RAS top entry from the
 * checkpoint, then applies the branch's real outcome.
 *
 * Statistics count committed branches (bpred_update): dir_miss when a
 * conditional branch went the other way than predicted, target_miss when a
 * taken branch predicted taken had a wrong or missing target.
 */
#include <string.h>
#include "base/alloc.h"
#include "assoc.h"
#include "bpred.h"
#include "isa/uop.h"

struct bpred {
	uint32_t bimodal_mask, gshare_mask, chooser_mask;
	uint32_t index_bits;      /* log2(gshare entries), the history fold width */
	int fold_history;         /* the history is wider than the gshare index */
	uint64_t history_mask;
	uint32_t ras_n;
	uint64_t history;         /* speculative global history, newest in bit 0 */
	uint32_t ras_top;         /* index of the top entry */
	struct assoc btb;         /* key pc >> 2, value target */
	uint64_t *ras;
	uint8_t *bimodal, *gshare, *chooser;
	struct bpred_stats st;
	void *pool;
	size_t pool_bytes;
};

static uint32_t log2u(uint64_t v)
{
	uint32_t s = 0;
	while ((1ull << s) < v)
		s++;
	return s;
}

struct bpred *bpred_new(const struct machine_config *cfg, struct ivx_err *err)
{
	if (config_validate(cfg, err) < 0)
		return NULL;
	size_t btb_n = cfg->btb_entries;
	size_t bytes = btb_n * sizeof(struct assoc_entry) + cfg->ras_entries * sizeof(uint64_t) +
		       cfg->bimodal_entries + cfg->gshare_entries + cfg->chooser_entries;
	struct bpred *b = ivx_calloc(1, sizeof *b);
	char *p = b ? ivx_malloc(bytes) : NULL;
	if (!p) {
		ivx_free(b);
		ivx_error(err, IVX_ESYS, "out of memory for the branch predictor (%zu bytes)", bytes);
		return NULL;
	}
	b->pool = p;
	b->pool_bytes = bytes;
	assoc_init(&b->btb, cfg->btb_entries / cfg->btb_assoc, cfg->btb_assoc, (struct assoc_entry *)p);
	p += btb_n * sizeof(struct assoc_entry);
	b->ras = (uint64_t *)p;
	b->ras_n = cfg->ras_entries;
	memset(b->ras, 0, cfg->ras_entries * sizeof(uint64_t));
	p += cfg->ras_entries * sizeof(uint64_t);
	b->bimodal = (uint8_t *)p;
	p += cfg->bimodal_entries;
	b->gshare = (uint8_t *)p;
	p += cfg->gshare_entries;
	b->chooser = (uint8_t *)p;
	memset(b->bimodal, 1, cfg->bimodal_entries + cfg->gshare_entries + cfg->chooser_entries);
	b->bimodal_mask = cfg->bimodal_entries - 1;
	b->gshare_mask = cfg->gshare_entries - 1;
	b->chooser_mask = cfg->chooser_entries - 1;
	b->index_bits = log2u(cfg->gshare_entries);
	b->history_mask = cfg->gshare_history ? (~0ull >> (64 - cfg->gshare_history)) : 0;
	b->fold_history = cfg->gshare_history > b->index_bits;
	return b;
}

void bpred_free(struct bpred *b)
{
	if (!b)
		return;
	ivx_free(b->pool);
	ivx_free(b);
}

size_t bpred_state_bytes(const struct bpred *b)
{
	return sizeof *b + b->pool_bytes;
}

int bpred_copy(struct bpred *dst, const struct bpred *src)
{
	if (dst == src)
		return IVX_OK;
	if (dst->pool_bytes != src->pool_bytes || dst->btb.sets != src->btb.sets ||
	    dst->btb.ways != src->btb.ways || dst->ras_n != src->ras_n ||
	    dst->bimodal_mask != src->bimodal_mask || dst->gshare_mask != src->gshare_mask)
		return IVX_EUSAGE;
	void *pool = dst->pool;
	memcpy(pool, src->pool, src->pool_bytes);
	*dst = *src;
	dst->pool = pool;
	char *base = pool;
	const char *sbase = src->pool;
#define REBASE(field) ((field) = (void *)(base + ((const char *)(field) - sbase)))
	REBASE(dst->btb.e);
	REBASE(dst->ras);
	REBASE(dst->bimodal);
	REBASE(dst->gshare);
	REBASE(dst->chooser);
#undef REBASE
	return IVX_OK;
}

/* The history XOR-folded down to the gshare index width. */
static uint64_t fold(const struct bpred *b, uint64_t h)
{
	uint64_t x = 0;
	if (!b->fold_history)
		return h;
	if (!b->index_bits)
		return 0;
	for (; h; h >>= b->index_bits)
		x ^= h;
	return x;
}

static uint64_t btb_target(const struct bpred *b, uint64_t pc)
{
	int way = assoc_find(&b->btb, pc >> 2);
	return way < 0 ? 0 : assoc_set(&b->btb, pc >> 2)[way].val;
}

static void ras_push(struct bpred *b, uint64_t ret)
{
	b->ras_top = (b->ras_top + 1) % b->ras_n;
	b->ras[b->ras_top] = ret;
}

static uint64_t ras_pop(struct bpred *b)
{
	uint64_t v = b->ras[b->ras_top];
	b->ras_top = (b->ras_top + b->ras_n - 1) % b->ras_n;
	return v;
}

static void push_history(struct bpred *b, int taken)
{
	b->history = ((b->history << 1) | (uint64_t)(taken != 0)) & b->history_mask;
}

void bpred_predict(struct bpred *b, const struct uop *u, uint64_t pc, struct bpred_prediction *out)
{
	struct bpred_checkpoint *cp = &out->cp;
	uint64_t idx = pc >> 2;
	cp->bimodal_taken = cp->gshare_taken = 0;
	cp->history = b->history;
	cp->ras_top = b->ras_top;
	cp->ras_top_value = b->ras[b->ras_top];
	cp->bimodal_index = (uint32_t)(idx & b->bimodal_mask);
	cp->gshare_index = (uint32_t)((idx ^ fold(b, b->history)) & b->gshare_mask);
	cp->chooser_index = (uint32_t)(idx & b->chooser_mask);

	uint64_t target = 0;
	int dir = 1;
	switch (u->branch_kind) {
	case BRANCH_COND:
		cp->bimodal_taken = b->bimodal[cp->bimodal_index] >= 2;
		cp->gshare_taken = b->gshare[cp->gshare_index] >= 2;
		dir = b->chooser[cp->chooser_index] >= 2 ? cp->gshare_taken : cp->bimodal_taken;
		target = dir ? btb_target(b, pc) : 0;
		push_history(b, target != 0);
		break;
	case BRANCH_UNCOND:
	case BRANCH_INDIRECT:
		target = btb_target(b, pc);
		break;
	case BRANCH_CALL:
	case BRANCH_CALL_INDIRECT:
		target = btb_target(b, pc);
		ras_push(b, pc + 4);
		break;
	case BRANCH_RETURN:
		target = ras_pop(b);
		break;
	default:
		dir = 0;
		break;
	}
	cp->pred_taken = (uint8_t)dir;
	cp->pred_target = target;
	out->taken = target != 0;
	out->target = target;
}

void bpred_recover(struct bpred *b, const struct uop *u, uint64_t pc,
		   const struct bpred_checkpoint *cp, int taken, uint64_t target)
{
	b->history = cp->history;
	b->ras_top = cp->ras_top;
	b->ras[b->ras_top] = cp->ras_top_value;
	switch (u->branch_kind) {
	case BRANCH_COND:
		push_history(b, taken);
		break;
	case BRANCH_CALL:
	case BRANCH_CALL_INDIRECT:
		ras_push(b, pc + 4);
		break;
	case BRANCH_RETURN:
		ras_pop(b);
		break;
	default:
		break;
	}
}

static void counter_train(uint8_t *c, int up)
{
	if (up && *c < 3)
		(*c)++;
	else if (!up && *c > 0)
		(*c)--;
}

static void train(struct bpred *b, const struct uop *u, uint64_t pc, const struct bpred_checkpoint *cp,
		  int taken, uint64_t target)
{
	if (u->branch_kind == BRANCH_COND) {
		counter_train(&b->bimodal[cp->bimodal_index], taken);
		counter_train(&b->gshare[cp->gshare_index], taken);
		/* The chooser learns only when the components disagree. */
		if (cp->bimodal_taken != cp->gshare_taken)
			counter_train(&b->chooser[cp->chooser_index], cp->gshare_taken == (taken != 0));
	}
	if (taken && u->branch_kind != BRANCH_RETURN && u->branch_kind != BRANCH_NONE)
		assoc_access(&b->btb, pc >> 2, target, NULL)->val = target;
}

void bpred_update(struct bpred *b, const struct uop *u, uint64_t pc,
		  const struct bpred_checkpoint *cp, int taken, uint64_t target)
{
	b->st.lookups++;
	if (u->branch_kind == BRANCH_COND && cp->pred_taken != (taken != 0))
		b->st.dir_miss++;
	else if (taken && cp->pred_target != target)
		b->st.target_miss++;
	train(b, u, pc, cp, taken, target);
}

void bpred_warm(struct bpred *b, const struct uop *u, uint64_t pc, int taken, uint64_t target)
{
	struct bpred_prediction p;
	bpred_predict(b, u, pc, &p);
	uint64_t predicted = p.taken ? p.target : pc + 4;
	uint64_t actual = taken ? target : pc + 4;
	if (predicted != actual || (u->branch_kind == BRANCH_COND && p.taken != (taken != 0)))
		bpred_recover(b, u, pc, &p.cp, taken, target);
	train(b, u, pc, &p.cp, taken, target);
}

void bpred_stats(const struct bpred *b, struct bpred_stats *out)
{
	*out = b->st;
}
