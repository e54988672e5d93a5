/*
 * dcpi_wait.c — per-pc issue-stage wait reasons and taken counts (see
 * dcpi_wait.h). One open-addressed table, pc -> entry, in the snapshot
 * block, with a direct-mapped cache pc -> slot in front of it: the issue
 * head moves every cycle or two, to a pc looked up before (a loop's), and
 * hashing and probing for it every cycle was the wait truth's largest
 * cost. The cache is in the block too, so a restored state finds it as
 * the table it caches.
 *
 * Out of order, every head cycle waits for the same reason (none), and
 * the core counts head cycles per pc itself (core_count_head_cycles, as
 * the sampler's truth has it): the table then takes only the pcs, in the
 * order they first head the machine (on_new_head), and the cycles of
 * those outside the counted code; a pc's cycles are read from the core.
 * The same pcs claim the same slots as when every cycle is observed, so
 * the table fills (and loses pcs) the same way, for a fraction of the
 * cost. In order, the wait reasons come from every cycle's record.
 * Taken counts likewise, in both modes: the core counts taken commits
 * (core_count_taken) and the table hears of a branch's first
 * (on_new_taken), instead of an instruction event for every branch.
 */
#include <string.h>
#include "base/alloc.h"
#include "dcpi_wait.h"

struct wait_state {
	uint64_t used, lost;
};

#define WAIT_CACHE 4096             /* entries of the pc -> slot cache (a power of two) */
struct wait_cache {
	uint64_t key;               /* pc + 1 (0 = empty) */
	uint64_t slot;
};

struct dcpi_wait {
	struct core *core;
	int heads_counted;          /* out of order: the core counts the head cycles */
	uint32_t cap;
	void *block;
	size_t block_size;
	struct wait_state *s;
	uint64_t *keys;             /* pc + 1 (0 = empty) */
	struct dcpi_wait_pc *ent;
	struct wait_cache *cache;   /* [WAIT_CACHE], by pc / 4 */
};

/* pc's slot, claimed if new; -1 if the table is full. */
static int64_t lookup(struct dcpi_wait *w, uint64_t pc)
{
	struct wait_state *s = w->s;
	uint64_t key = pc + 1, h = key * 0x9e3779b97f4a7c15ull;
	uint32_t mask = w->cap - 1, i = (uint32_t)(h >> 32) & mask;
	for (;; i = (i + 1) & mask) {
		if (w->keys[i] == key)
			break;
		if (!w->keys[i]) {
			if (s->used >= (uint64_t)w->cap / 4 * 3)
				return -1;
			w->keys[i] = key;
			w->ent[i].pc = pc;
			s->used++;
			break;
		}
	}
	return i;
}

/* lookup() through the cache. */
static inline int64_t slot_of(struct dcpi_wait *w, uint64_t pc)
{
	struct wait_cache *e = &w->cache[(pc >> 2) & (WAIT_CACHE - 1)];
	if (e->key == pc + 1)
		return (int64_t)e->slot;
	int64_t i = lookup(w, pc);
	if (i >= 0)
		*e = (struct wait_cache){ pc + 1, (uint64_t)i };
	return i;
}

static inline void add(struct dcpi_wait *w, const struct cycle_record *r, uint64_t n)
{
	int64_t i = slot_of(w, r->issue_head_pc);
	if (i < 0) {
		w->s->lost += n;
		return;
	}
	int k = r->issue_wait >= 0 && r->issue_wait < ISSUE_WAIT_COUNT ? r->issue_wait : ISSUE_WAIT_NONE;
	w->ent[i].cycles[k] += n;
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

struct dcpi_wait *dcpi_wait_new(struct core *c, uint32_t capacity, struct ivx_err *err)
{
	if (capacity < 16 || capacity > (1u << 24) || (capacity & (capacity - 1))) {
		ivx_error(err, IVX_EUSAGE, "wait truth: capacity must be a power of two, 16 to 2^24");
		return NULL;
	}
	struct dcpi_wait *w = ivx_calloc(1, sizeof *w);
	size_t size = sizeof(struct wait_state) + (size_t)capacity * (sizeof(uint64_t) + sizeof(struct dcpi_wait_pc)) +
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
	w->keys = (uint64_t *)(w->s + 1);
	w->ent = (struct dcpi_wait_pc *)(w->keys + capacity);
	w->cache = (struct wait_cache *)(w->ent + capacity);
	w->heads_counted = !core_config(c)->inorder;
	struct core_observer obs = {
		.name = "dcpi-wait",
		.ctx = w,
		.on_new_taken = obs_new_taken,
		.state_size = obs_size,
		.save = obs_save,
		.restore = obs_restore,
	};
	if (w->heads_counted) {
		obs.on_new_head = obs_new_head;
	} else {
		obs.on_cycle = obs_cycle;
		obs.on_idle_cycles = obs_idle;
		obs.cycle_head_only = 1;   /* issue_head_pc and issue_wait: the core builds no more */
	}
	if ((w->heads_counted && core_count_head_cycles(c, err) < 0) || core_count_taken(c, err) < 0 ||
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
