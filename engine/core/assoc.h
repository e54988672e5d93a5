/*
 * assoc.h — a set-associative array with true LRU replacement, shared by
 * the caches, the TLBs (memsys.c) and the BTB (bpred.c).
 *
 * Each set keeps its ways in recency order: way 0 is the most recently
 * used, the last way the next victim. A hit moves its entry to the front;
 * an insert shifts the set down by one and drops the last entry. For the
 * small associativities modelled (1..64) this is cheaper than per-way
 * timestamps and needs no counter that could wrap.
 *
 * An entry is a key (line address, virtual page number or pc >> 2; the low
 * bits select the set) and one 64-bit value whose meaning belongs to the
 * user (dirty bit, walk-completion cycle, branch target). The storage is
 * provided by the caller so a whole memory hierarchy can live in one block
 * that memsys_copy duplicates with one memcpy.
 */
#ifndef IVX_ASSOC_H
#define IVX_ASSOC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ASSOC_INVALID UINT64_MAX   /* key of an empty way */

struct assoc_entry {
	uint64_t key;   /* ASSOC_INVALID when empty */
	uint64_t val;   /* user data */
};

struct assoc {
	uint32_t sets;            /* power of two */
	uint32_t ways;
	uint64_t set_mask;        /* sets - 1 */
	struct assoc_entry *e;    /* sets * ways entries, set-major, MRU first */
};

static inline size_t assoc_entries(uint32_t sets, uint32_t ways)
{
	return (size_t)sets * ways;
}

/* Attach storage (assoc_entries(sets, ways) entries) and empty every way. */
static inline void assoc_init(struct assoc *a, uint32_t sets, uint32_t ways, struct assoc_entry *storage)
{
	a->sets = sets;
	a->ways = ways;
	a->set_mask = sets - 1;
	a->e = storage;
	for (size_t i = 0; i < assoc_entries(sets, ways); i++)
		storage[i] = (struct assoc_entry){ ASSOC_INVALID, 0 };
}

static inline struct assoc_entry *assoc_set(const struct assoc *a, uint64_t key)
{
	return a->e + (size_t)(key & a->set_mask) * a->ways;
}

/* The way holding key in its set, or -1. Does not change recency. */
static inline int assoc_find(const struct assoc *a, uint64_t key)
{
	const struct assoc_entry *s = assoc_set(a, key);
	for (uint32_t w = 0; w < a->ways; w++)
		if (s[w].key == key)
			return (int)w;
	return -1;
}

/* Make way `way` of key's set the most recently used; returns its entry. */
static inline struct assoc_entry *assoc_touch(struct assoc *a, uint64_t key, int way)
{
	struct assoc_entry *s = assoc_set(a, key);
	if (way > 0) {
		struct assoc_entry hit = s[way];
		memmove(s + 1, s, (size_t)way * sizeof *s);
		s[0] = hit;
	}
	return s;
}

/* The entry an insert of key would evict (key ASSOC_INVALID if a way is free). */
static inline struct assoc_entry assoc_victim(const struct assoc *a, uint64_t key)
{
	return assoc_set(a, key)[a->ways - 1];
}

/* Insert key (not present) as most recently used; returns the evicted entry. */
static inline struct assoc_entry assoc_insert(struct assoc *a, uint64_t key, uint64_t val)
{
	struct assoc_entry *s = assoc_set(a, key);
	struct assoc_entry out = s[a->ways - 1];
	memmove(s + 1, s, (size_t)(a->ways - 1) * sizeof *s);
	s[0] = (struct assoc_entry){ key, val };
	return out;
}

/* Touch key if present, else insert it. Returns its entry (MRU). */
static inline struct assoc_entry *assoc_access(struct assoc *a, uint64_t key, uint64_t val_if_new,
					       struct assoc_entry *evicted)
{
	int way = assoc_find(a, key);
	if (way >= 0) {
		if (evicted)
			evicted->key = ASSOC_INVALID;
		return assoc_touch(a, key, way);
	}
	struct assoc_entry out = assoc_insert(a, key, val_if_new);
	if (evicted)
		*evicted = out;
	return assoc_set(a, key);
}

#endif
