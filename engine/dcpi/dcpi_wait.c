/*
 * dcpi_wait.c — per-pc issue-stage wait reasons and taken counts, and per
 * (pc, reason) the culprits the core blamed (see dcpi_wait.h). Two
 * open-addressed tables in the snapshot block, pc -> entry and
 * (pc, reason) -> culprit entry. In front of the pc table, a one-entry
 * cache of the last pc (an instruction usually heads the issue stage for
 * several cycles in a row, waiting for the same thing) and a
 * direct-mapped cache pc -> slot (the head moves every cycle or two, to a
 * pc looked up before: a loop's); both are in the block, so a restored
 * state finds them as the table they cache.
 *
 * Out of order, every head cycle waits for the same reason (none) and
 * blames no one, and the core counts head cycles per pc itself
 * (core_count_head_cycles, as the sampler's truth has it): the table then
 * takes only the pcs, in the order they first head the machine
 * (on_new_head), and the cycles of those outside the counted code; a pc's
 * cycles are read from the core. The same pcs claim the same slots as
 * when every cycle is observed, so the table fills (and loses pcs) the
 * same way, for a fraction of the cost. In order, the wait reasons and
 * culprits come from every cycle's record, of which the core builds only
 * the head fields (cycle_head_only). Taken counts, when asked for, come
 * from the core too (core_count_taken; the table hears of a branch's
 * first taken commit, on_new_taken), not from an event per branch.
 */
#include <string.h>
#include "base/alloc.h"
#include "dcpi_wait.h"

#define WAIT_CACHE 4096             /* entries of the pc -> slot cache (a power of two) */
struct wait_cache {
	uint64_t key;               /* pc + 1 (0 = empty) */
	uint64_t slot;
};

struct wait_state {
	uint64_t used, lost, last_pc;
	int64_t last_slot;          /* slot of last_pc, -1 if none */
	uint64_t c_used, c_lost, c_last_key;
	int64_t c_last_slot;        /* slot of c_last_key, -1 if none */
	/* the last cycle recorded: its pc (last_pc), reason and culprit, and
	 * where its culprit cycles went (the culprit slot k of c_last_slot;
	 * -1 other, -2 nowhere: no culprit or no room), so a run of identical
	 * cycles costs two additions each */
	int last_reason;            /* -1: none cached */
	int last_k;
	uint64_t last_culprit;
};

struct dcpi_wait {
	struct core *core;
	int heads_counted;          /* out of order: the core counts the head cycles */
	int taken;                  /* DCPI_WAIT_TAKEN: the core counts taken commits */
	uint32_t cap;
	void *block;
	size_t block_size;
	struct wait_state *s;
	uint64_t *keys;             /* pc + 1 (0 = empty) */
	struct dcpi_wait_pc *ent;
	uint64_t *ckeys;            /* culprit_key() (0 = empty) */
	struct dcpi_wait_culprit *cent;
	struct wait_cache *cache;   /* [WAIT_CACHE], by pc / 4 */
};

/* pcs are 4-byte aligned and below 2^58 on AArch64 guests, and a reason
 * fits in 5 bits: the pair packs into one nonzero word. */
static uint64_t culprit_key(uint64_t pc, int reason)
{
	return (pc << 5 | (uint64_t)reason) + 1;
}

/* The slot of key in keys[cap] (inserting it when new_ok and there is
 * room): -1 when absent or full. */
static int64_t probe(uint64_t *keys, uint32_t cap, uint64_t key, uint64_t *used, int new_ok)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ull;
	uint32_t mask = cap - 1, i = (uint32_t)(h >> 32) & mask;
	for (;; i = (i + 1) & mask) {
		if (keys[i] == key)
			return i;
		if (!keys[i]) {
			if (!new_ok || *used >= (uint64_t)cap / 4 * 3)
				return -1;
			keys[i] = key;
			(*used)++;
			return i;
		}
	}
}

static int64_t slot_of(struct dcpi_wait *w, uint64_t pc)
{
	struct wait_state *s = w->s;
	if (s->last_slot >= 0 && s->last_pc == pc)
		return s->last_slot;
	s->last_reason = -1;   /* the fast path of add() was for the old pc */
	struct wait_cache *e = &w->cache[(pc >> 2) & (WAIT_CACHE - 1)];
	int64_t i;
	if (e->key == pc + 1) {
		i = (int64_t)e->slot;
	} else {
		uint64_t used = s->used;
		if ((i = probe(w->keys, w->cap, pc + 1, &s->used, 1)) < 0)
			return -1;
		if (s->used != used)
			w->ent[i].pc = pc;
		*e = (struct wait_cache){ pc + 1, (uint64_t)i };
	}
	s->last_pc = pc;
	s->last_slot = i;
	return i;
}

/* Adds n cycles of (pc, reason) blamed on culprit; returns where they
 * went (the slot k, -1 other, -2 no room). */
static int add_culprit(struct dcpi_wait *w, uint64_t pc, int reason, uint64_t culprit, uint64_t n)
{
	struct wait_state *s = w->s;
	uint64_t key = culprit_key(pc, reason);
	int64_t i = s->c_last_slot >= 0 && s->c_last_key == key ? s->c_last_slot : -1;
	if (i < 0) {
		uint64_t used = s->c_used;
		if ((i = probe(w->ckeys, w->cap, key, &s->c_used, 1)) < 0) {
			s->c_lost += n;
			return -2;
		}
		if (s->c_used != used) {
			w->cent[i].pc = pc;
			w->cent[i].reason = reason;
		}
		s->c_last_key = key;
		s->c_last_slot = i;
	}
	struct dcpi_wait_culprit *c = &w->cent[i];
	for (int k = 0; k < DCPI_WAIT_TOPK; k++) {
		if (c->culprit[k] == culprit) {
			c->cycles[k] += n;
			return k;
		}
		if (!c->culprit[k]) {
			c->culprit[k] = culprit;
			c->cycles[k] = n;
			return k;
		}
	}
	c->other += n;
	return -1;
}

static void add(struct dcpi_wait *w, const struct cycle_record *r, uint64_t n)
{
	struct wait_state *s = w->s;
	int k = r->issue_wait >= 0 && r->issue_wait < ISSUE_WAIT_COUNT ? r->issue_wait : ISSUE_WAIT_NONE;
	uint64_t cul = k != ISSUE_WAIT_NONE ? r->issue_wait_pc : 0;
	if (s->last_slot >= 0 && s->last_pc == r->issue_head_pc && s->last_reason == k && s->last_culprit == cul) {
		/* the same wait as last recorded (the usual case: a stall
		 * lasts many cycles) */
		w->ent[s->last_slot].cycles[k] += n;
		if (s->last_k >= 0)
			w->cent[s->c_last_slot].cycles[s->last_k] += n;
		else if (s->last_k == -1)
			w->cent[s->c_last_slot].other += n;
		else if (cul)
			s->c_lost += n;
		return;
	}
	int64_t i = slot_of(w, r->issue_head_pc);
	if (i < 0) {
		s->lost += n;
		s->last_reason = -1;
		return;
	}
	w->ent[i].cycles[k] += n;
	s->last_k = cul ? add_culprit(w, r->issue_head_pc, k, cul, n) : -2;
	s->last_reason = k;
	s->last_culprit = cul;
}

void dcpi_wait_feed(struct dcpi_wait *w, const struct cycle_record *r, uint64_t n)
{
	add(w, r, n);
}

static void obs_cycle(void *ctx, const struct cycle_record *r) { add(ctx, r, 1); }
static void obs_idle(void *ctx, const struct cycle_record *r, uint64_t n) { add(ctx, r, n); }

/* Out of order: pc heads the machine for the first time, or is not
 * counted by the core (its cycles are then the table's to count). */
static void obs_new_head(void *ctx, uint64_t pc, uint64_t n)
{
	struct dcpi_wait *w = ctx;
	int64_t i = slot_of(w, pc);
	if (i < 0)
		w->s->lost += core_counts_pc(w->core, pc) ? 0 : n;   /* (counted pcs: dcpi_wait_lost) */
	else if (!core_counts_pc(w->core, pc))
		w->ent[i].cycles[ISSUE_WAIT_NONE] += n;
}

/* A branch at pc commits taken for the first time, or is not counted by
 * the core (its taken count is then the table's). */
static void obs_new_taken(void *ctx, uint64_t pc)
{
	struct dcpi_wait *w = ctx;
	int64_t i = slot_of(w, pc);
	if (i >= 0 && !core_counts_pc(w->core, pc))
		w->ent[i].taken++;
}

static size_t obs_size(void *ctx) { return ((struct dcpi_wait *)ctx)->block_size; }
static void obs_save(void *ctx, void *blob)
{
	struct dcpi_wait *w = ctx;
	memcpy(blob, w->block, w->block_size);
}
static void obs_restore(void *ctx, const void *blob)
{
	struct dcpi_wait *w = ctx;
	memcpy(w->block, blob, w->block_size);
}

struct dcpi_wait *dcpi_wait_new(struct core *c, uint32_t capacity, unsigned flags, struct ivx_err *err)
{
	if (capacity < 16 || capacity > (1u << 24) || (capacity & (capacity - 1))) {
		ivx_error(err, IVX_EUSAGE, "wait truth: capacity must be a power of two, 16 to 2^24");
		return NULL;
	}
	struct dcpi_wait *w = ivx_calloc(1, sizeof *w);
	size_t size = sizeof(struct wait_state) +
		      (size_t)capacity * (2 * sizeof(uint64_t) + sizeof(struct dcpi_wait_pc) +
					  sizeof(struct dcpi_wait_culprit)) +
		      WAIT_CACHE * sizeof(struct wait_cache);
	void *block = w ? ivx_calloc(1, size) : NULL;
	if (!block) {
		ivx_free(w);
		ivx_error(err, IVX_ESYS, "wait truth: out of memory");
		return NULL;
	}
	w->core = c;
	w->cap = capacity;
	w->block = block;
	w->block_size = size;
	w->s = block;
	w->s->last_slot = -1;
	w->s->c_last_slot = -1;
	w->s->last_reason = -1;
	w->keys = (uint64_t *)(w->s + 1);
	w->ent = (struct dcpi_wait_pc *)(w->keys + capacity);
	w->ckeys = (uint64_t *)(w->ent + capacity);
	w->cent = (struct dcpi_wait_culprit *)(w->ckeys + capacity);
	w->cache = (struct wait_cache *)(w->cent + capacity);
	w->heads_counted = !core_config(c)->inorder;
	w->taken = (flags & DCPI_WAIT_TAKEN) != 0;
	struct core_observer obs = {
		.name = "dcpi-wait",
		.ctx = w,
		.state_size = obs_size,
		.save = obs_save,
		.restore = obs_restore,
	};
	if (w->taken)
		obs.on_new_taken = obs_new_taken;
	if (w->heads_counted) {
		obs.on_new_head = obs_new_head;
	} else {
		obs.on_cycle = obs_cycle;
		obs.on_idle_cycles = obs_idle;
		obs.cycle_head_only = 1;   /* issue head, wait reason and culprit: the core builds no more */
	}
	if ((w->heads_counted && core_count_head_cycles(c, err) < 0) || (w->taken && core_count_taken(c, err) < 0) ||
	    core_add_observer(c, &obs, err) < 0) {
		dcpi_wait_free(w);
		return NULL;
	}
	return w;
}

void dcpi_wait_free(struct dcpi_wait *w)
{
	if (!w)
		return;
	ivx_free(w->block);
	ivx_free(w);
}

size_t dcpi_wait_size(const struct dcpi_wait *w)
{
	return w->cap;
}

int dcpi_wait_at(const struct dcpi_wait *w, size_t i, struct dcpi_wait_pc *out)
{
	if (i >= w->cap || !w->keys[i])
		return 0;
	*out = w->ent[i];
	if (w->taken)
		out->taken += core_taken_at(w->core, out->pc);
	if (w->heads_counted)
		out->cycles[ISSUE_WAIT_NONE] += core_head_cycles_at(w->core, out->pc);
	return 1;
}

uint64_t dcpi_wait_lost(const struct dcpi_wait *w)
{
	if (!w->heads_counted)
		return w->s->lost;
	/* the counted pcs' cycles the table has no room for: every cycle
	 * (counted from the first) has one head */
	uint64_t kept = 0;
	for (size_t i = 0; i < w->cap; i++) {
		struct dcpi_wait_pc e;
		if (dcpi_wait_at(w, i, &e))
			kept += e.cycles[ISSUE_WAIT_NONE];
	}
	return core_cycles(w->core) - kept;
}

int dcpi_wait_find(const struct dcpi_wait *w, uint64_t pc, struct dcpi_wait_pc *out)
{
	uint64_t used = w->s->used;
	int64_t i = probe(w->keys, w->cap, pc + 1, &used, 0);
	return i >= 0 && dcpi_wait_at(w, (size_t)i, out);
}

size_t dcpi_wait_culprit_size(const struct dcpi_wait *w)
{
	return w->cap;
}

int dcpi_wait_culprit_at(const struct dcpi_wait *w, size_t i, struct dcpi_wait_culprit *out)
{
	if (i >= w->cap || !w->ckeys[i])
		return 0;
	*out = w->cent[i];
	return 1;
}

int dcpi_wait_culprit_find(const struct dcpi_wait *w, uint64_t pc, int reason, struct dcpi_wait_culprit *out)
{
	uint64_t used = w->s->c_used;
	int64_t i = probe(w->ckeys, w->cap, culprit_key(pc, reason), &used, 0);
	if (i < 0)
		return 0;
	*out = w->cent[i];
	return 1;
}

uint64_t dcpi_wait_culprit_lost(const struct dcpi_wait *w)
{
	return w->s->c_lost;
}

int dcpi_wait_culprit_top(const struct dcpi_wait_culprit *c)
{
	int best = -1;
	for (int k = 0; k < DCPI_WAIT_TOPK; k++)
		if (c->culprit[k] && (best < 0 || c->cycles[k] > c->cycles[best]))
			best = k;
	return best;
}
