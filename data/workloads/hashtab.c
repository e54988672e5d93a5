/*
 * hashtab.c — an open-addressing hash table: insert, hit and miss lookups,
 * deletions.
 *
 * 64-bit keys, multiplicative hashing, linear probing, tombstone-free
 * deletion by backward shift. The table is twice the key count and 16 bytes
 * a slot (default 8 MB), so probes are random accesses that mostly miss in
 * L2; the keys come from a PRNG, so they are independent and several misses
 * overlap.
 *
 * Personality: long D-cache misses (and DTLB misses: 2048 pages) with
 * moderate memory-level parallelism, plus data-dependent probe-loop
 * branches.
 *
 * Scale s: s * 4096 keys. Default 64.
 */
#include "rt.h"

#define DEFAULT_SCALE 64
#define TEST_SCALE 1

struct slot {
	uint64_t key;   /* 0 = empty */
	uint64_t val;
};

struct table {
	struct slot *slots;
	uint64_t mask;   /* capacity - 1, capacity a power of two */
	uint64_t count;
};

static uint64_t hash(uint64_t k)
{
	k ^= k >> 31;
	k *= 0x9e3779b97f4a7c15ull;
	return k ^ (k >> 29);
}

static void table_put(struct table *t, uint64_t key, uint64_t val)
{
	for (uint64_t i = hash(key) & t->mask;; i = (i + 1) & t->mask) {
		if (t->slots[i].key == key) {
			t->slots[i].val = val;
			return;
		}
		if (t->slots[i].key == 0) {
			t->slots[i].key = key;
			t->slots[i].val = val;
			t->count++;
			return;
		}
	}
}

static const struct slot *table_get(const struct table *t, uint64_t key)
{
	for (uint64_t i = hash(key) & t->mask;; i = (i + 1) & t->mask) {
		if (t->slots[i].key == key)
			return &t->slots[i];
		if (t->slots[i].key == 0)
			return NULL;
	}
}

/* Remove key, then shift later members of its probe run back so lookups
 * never need tombstones. */
static int table_del(struct table *t, uint64_t key)
{
	uint64_t i = hash(key) & t->mask;

	while (t->slots[i].key != key) {
		if (t->slots[i].key == 0)
			return 0;
		i = (i + 1) & t->mask;
	}
	for (uint64_t j = (i + 1) & t->mask; t->slots[j].key; j = (j + 1) & t->mask) {
		uint64_t home = hash(t->slots[j].key) & t->mask;
		/* move j into the hole i unless its home lies cyclically in (i, j] */
		if (((j - home) & t->mask) >= ((j - i) & t->mask)) {
			t->slots[i] = t->slots[j];
			i = j;
		}
	}
	t->slots[i].key = 0;
	t->count--;
	return 1;
}

static uint64_t make_key(struct rt_rng *r)
{
	uint64_t k = rt_rng_next(r);
	return k ? k : 1;
}

int main(int argc, char **argv)
{
	uint64_t n = rt_arg_scale(argc, argv, DEFAULT_SCALE) * 4096;
	struct table t = { .mask = 2 * n - 1 };
	struct rt_rng rng;
	uint64_t h = RT_CHECKSUM_INIT, hits = 0, misses = 0, deleted = 0;

	t.slots = calloc(2 * n, sizeof *t.slots);
	rt_check(t.slots, "out of memory");

	rt_rng_seed(&rng, 5);
	for (uint64_t i = 0; i < n; i++)
		table_put(&t, make_key(&rng), i);

	/* the same keys again: all hits */
	rt_rng_seed(&rng, 5);
	for (uint64_t i = 0; i < n; i++) {
		const struct slot *s = table_get(&t, make_key(&rng));
		if (s) {
			hits++;
			h = rt_mix(h, s->val);
		}
	}
	/* other keys: (almost surely) misses */
	rt_rng_seed(&rng, 6);
	for (uint64_t i = 0; i < n; i++)
		misses += table_get(&t, make_key(&rng)) == NULL;

	/* delete every other key, then check what is left */
	rt_rng_seed(&rng, 5);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t k = make_key(&rng);
		if (i & 1)
			deleted += (uint64_t)table_del(&t, k);
	}
	rt_rng_seed(&rng, 5);
	for (uint64_t i = 0; i < n; i++) {
		const struct slot *s = table_get(&t, make_key(&rng));
		rt_check((s != NULL) == !(i & 1), "deleted keys gone, others kept");
	}
	printf("hashtab keys=%lu hits=%lu misses=%lu deleted=%lu left=%lu checksum=%016lx\n",
	       (unsigned long)n, (unsigned long)hits, (unsigned long)misses,
	       (unsigned long)deleted, (unsigned long)t.count, h);
	return 0;
}
