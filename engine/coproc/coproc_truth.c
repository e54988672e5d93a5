/*
 * coproc_truth.c — exact value, edge and call-depth profiles, and the
 * interrupt-driven sampling value profiler (see coproc_truth.h).
 *
 * Two open-addressing tables: pairs (key, value) -> count, and the
 * summary per key built at the end. Both double when half full.
 */
#include <stdlib.h>
#include <string.h>
#include "base/alloc.h"
#include "coproc_truth.h"

struct pair {
	uint64_t key, value, count;   /* count 0: empty */
};

struct coproc_truth {
	struct core *core;
	int kind;
	uint64_t period, cost, countdown, samples, overhead, events;
	uint32_t lfsr;
	uint64_t depth;
	struct pair *pairs;
	size_t npairs, cap;           /* used, capacity (power of two) */
	struct truth_key *keys;
	size_t nkeys, kcap;
	struct pair *sorted;          /* the summary's pairs, by key then value */
	size_t nsorted;
	int failed;                   /* out of memory: the profile is incomplete */
	struct core_observer obs;
};

static uint64_t mix(uint64_t k, uint64_t v)
{
	uint64_t x = k * 0x9e3779b97f4a7c15ull ^ (v + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull;
	return x ^ (x >> 31);
}

static int grow(struct coproc_truth *t)
{
	size_t ncap = t->cap ? t->cap * 2 : 4096;
	struct pair *np = ivx_calloc(ncap, sizeof *np);
	if (!np)
		return -1;
	for (size_t i = 0; i < t->cap; i++) {
		struct pair *p = &t->pairs[i];
		if (!p->count)
			continue;
		size_t h = mix(p->key, p->value) & (ncap - 1);
		while (np[h].count)
			h = (h + 1) & (ncap - 1);
		np[h] = *p;
	}
	ivx_free(t->pairs);
	t->pairs = np;
	t->cap = ncap;
	return 0;
}

static void count(struct coproc_truth *t, uint64_t key, uint64_t value)
{
	if (t->npairs * 2 >= t->cap && grow(t) < 0) {
		t->failed = 1;
		return;
	}
	size_t h = mix(key, value) & (t->cap - 1);
	while (t->pairs[h].count) {
		if (t->pairs[h].key == key && t->pairs[h].value == value) {
			t->pairs[h].count++;
			return;
		}
		h = (h + 1) & (t->cap - 1);
	}
	t->pairs[h] = (struct pair){ key, value, 1 };
	t->npairs++;
}

static void on_insn(void *ctx, const struct insn_event *e)
{
	struct coproc_truth *t = ctx;
	if (e->stage != INSN_COMMIT || e->wrong_path)
		return;
	switch (t->kind) {
	case TRUTH_LOADS:
		if (e->kind != INSN_KIND_LOAD)
			return;
		t->events++;
		if (!t->period) {
			count(t, e->pc, e->load_value);
		} else if (--t->countdown == 0) {
			t->lfsr = (t->lfsr >> 1) ^ (-(t->lfsr & 1u) & 0x80200003u);
			t->countdown = t->period / 2 + 1 + t->lfsr % (t->period + 1);
			t->samples++;
			t->overhead += t->cost;
			count(t, e->pc, e->load_value);
			core_interrupt(t->core, t->cost);
		}
		return;
	case TRUTH_BRANCHES:
		if (e->kind != INSN_KIND_COND_BRANCH)
			return;
		t->events++;
		count(t, e->pc, e->taken != 0);
		return;
	case TRUTH_CALLS:
		if (e->kind == INSN_KIND_CALL) {
			t->events++;
			count(t, t->depth + 1, 0);
			if (t->depth < 511)
				t->depth++;
		} else if (e->kind == INSN_KIND_RETURN && t->depth > 0) {
			t->depth--;
		}
		return;
	}
}

struct coproc_truth *coproc_truth_new(struct core *c, int kind, uint64_t period, uint64_t cost, uint64_t seed,
				      struct ivx_err *err)
{
	struct coproc_truth *t = ivx_calloc(1, sizeof *t);
	if (!t || grow(t) < 0) {
		ivx_free(t);
		ivx_error(err, IVX_ESYS, "out of memory");
		return NULL;
	}
	t->core = c;
	t->kind = kind;
	t->period = period;
	t->cost = cost;
	t->lfsr = (uint32_t)(seed * 2654435761u) | 1u;
	t->countdown = period ? period / 2 + 1 : 0;
	t->obs = (struct core_observer){ .name = "coproc-truth", .ctx = t, .on_insn = on_insn };
	t->obs.insn_filter = (kind == TRUTH_LOADS ? INSN_WANT_LOAD : kind == TRUTH_BRANCHES ? INSN_WANT_BRANCH :
			      INSN_WANT_CALL) | INSN_WANT_CORRECT_PATH;
	t->obs.insn_stages = INSN_STAGE_BIT(INSN_COMMIT);
	return t;
}

void coproc_truth_free(struct coproc_truth *t)
{
	if (!t)
		return;
	ivx_free(t->pairs);
	ivx_free(t->keys);
	ivx_free(t->sorted);
	ivx_free(t);
}

const struct core_observer *coproc_truth_observer(struct coproc_truth *t) { return &t->obs; }

static int cmp_key(const void *a, const void *b)
{
	const struct truth_key *x = a, *y = b;
	return x->key < y->key ? -1 : x->key > y->key;
}

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->value < y->value ? -1 : x->value > y->value;
}

int coproc_truth_summarise(struct coproc_truth *t)
{
	/* a sorted copy of the pairs: each key's pairs are then a run (the
	 * table stays usable, so a run can be summarised more than once) */
	size_t n = 0;
	struct pair *s = ivx_malloc((t->npairs ? t->npairs : 1) * sizeof *s);
	struct truth_key *keys = ivx_calloc(t->npairs ? t->npairs : 1, sizeof *keys);
	if (!s || !keys) {
		ivx_free(s);
		ivx_free(keys);
		t->nkeys = 0;
		return 0;
	}
	for (size_t i = 0; i < t->cap; i++)
		if (t->pairs[i].count)
			s[n++] = t->pairs[i];
	qsort(s, n, sizeof *s, cmp_pair);
	ivx_free(t->keys);
	t->keys = keys;
	t->nkeys = 0;
	for (size_t i = 0; i < n; i++) {
		const struct pair *p = &s[i];
		struct truth_key *k = t->nkeys ? &t->keys[t->nkeys - 1] : NULL;
		if (!k || k->key != p->key) {
			k = &t->keys[t->nkeys++];
			k->key = p->key;
			k->first = (uint32_t)i;
		}
		k->nvalues++;
		k->executions += p->count;
		if (p->value == 1)
			k->count1 += p->count;
		/* ties: the smaller value (pairs are sorted), whatever the hash order */
		if (p->count > k->top_count)
			k->top_count = p->count, k->top_value = p->value;
	}
	ivx_free(t->sorted);
	t->sorted = s;
	t->nsorted = n;
	return (int)t->nkeys;
}

const struct truth_key *coproc_truth_key(const struct coproc_truth *t, int i)
{
	return i >= 0 && (size_t)i < t->nkeys ? &t->keys[i] : NULL;
}

const struct truth_key *coproc_truth_find(const struct coproc_truth *t, uint64_t key)
{
	struct truth_key k = { .key = key };
	return t->nkeys ? bsearch(&k, t->keys, t->nkeys, sizeof k, cmp_key) : NULL;
}

int coproc_truth_value(const struct coproc_truth *t, size_t i, uint64_t *value, uint64_t *count)
{
	if (i >= t->nsorted)
		return 0;
	*value = t->sorted[i].value;
	*count = t->sorted[i].count;
	return 1;
}

uint64_t coproc_truth_count(const struct coproc_truth *t, uint64_t key, uint64_t value)
{
	if (!t->cap)
		return 0;
	size_t h = mix(key, value) & (t->cap - 1);
	while (t->pairs[h].count) {
		if (t->pairs[h].key == key && t->pairs[h].value == value)
			return t->pairs[h].count;
		h = (h + 1) & (t->cap - 1);
	}
	return 0;
}

uint64_t coproc_truth_events(const struct coproc_truth *t) { return t->events; }
uint64_t coproc_truth_samples(const struct coproc_truth *t) { return t->samples; }
uint64_t coproc_truth_period(const struct coproc_truth *t) { return t->period; }
uint64_t coproc_truth_overhead(const struct coproc_truth *t) { return t->overhead; }
