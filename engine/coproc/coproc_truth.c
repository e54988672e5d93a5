/*
 * coproc_truth.c — exact value, edge and call-depth profiles, and the
 * interrupt-driven sampling value profiler (see coproc_truth.h).
 *
 * An open-addressing table of pairs (key, value) -> count, doubled when
 * 3/4 full (linear probing stays short at that load), and the summary
 * built from it: a copy of the pairs sorted by key then value, and one
 * entry per key. The summary is rebuilt only when something was counted
 * since, and the previous one is freed before the next is built, so a
 * long run holds the table and at most one copy. A finished run's
 * profile can be frozen: the table is freed and the summary answers.
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
	size_t nkeys;
	struct pair *sorted;          /* the summary's pairs, by key then value */
	size_t nsorted;
	uint64_t summarised_at;       /* events + 1 when the summary was built, 0 none */
	int frozen;                   /* the table is freed: the summary answers, nothing is counted */
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
	if (t->npairs * 4 >= t->cap * 3 && grow(t) < 0) {
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
	if (e->stage != INSN_COMMIT || e->wrong_path || t->frozen)
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

static int pair_less(const struct pair *x, const struct pair *y)
{
	return x->key != y->key ? x->key < y->key : x->value < y->value;
}

/* Sort pairs by key then value, in place (qsort would take a buffer as
 * large as the array). The pairs are distinct, so the order is total and
 * the result does not depend on the input's order. Quicksort with the
 * median of three, recursing into the smaller part (depth at most
 * log2 n), insertion sort for short runs; the input comes in hash order. */
static void sort_pairs(struct pair *a, size_t n)
{
	while (n > 16) {
		struct pair *m = &a[n / 2], *z = &a[n - 1], t;
		if (pair_less(m, a))
			t = *m, *m = *a, *a = t;
		if (pair_less(z, m)) {
			t = *z, *z = *m, *m = t;
			if (pair_less(m, a))
				t = *m, *m = *a, *a = t;
		}
		struct pair piv = *m;
		size_t i = 0, j = n - 1;
		for (;;) {
			while (pair_less(&a[i], &piv))
				i++;
			while (pair_less(&piv, &a[j]))
				j--;
			if (i >= j)
				break;
			t = a[i], a[i] = a[j], a[j] = t;
			i++, j--;
		}
		/* a[0..j] <= piv <= a[j+1..n-1] */
		size_t left = j + 1;
		if (left < n - left) {
			sort_pairs(a, left);
			a += left, n -= left;
		} else {
			sort_pairs(a + left, n - left);
			n = left;
		}
	}
	for (size_t i = 1; i < n; i++) {
		struct pair x = a[i];
		size_t j = i;
		for (; j > 0 && pair_less(&x, &a[j - 1]); j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

int coproc_truth_summarise(struct coproc_truth *t)
{
	/* a sorted copy of the pairs: each key's pairs are then a run (the
	 * table stays usable, so a run can be summarised more than once) */
	if (t->summarised_at == t->events + 1)
		return (int)t->nkeys;   /* nothing counted since */
	ivx_free(t->sorted);
	ivx_free(t->keys);
	t->sorted = NULL;
	t->keys = NULL;
	t->nsorted = t->nkeys = 0;
	t->summarised_at = 0;
	size_t n = 0, nkeys = 0;
	struct pair *s = ivx_malloc((t->npairs ? t->npairs : 1) * sizeof *s);
	if (!s)
		return 0;
	for (size_t i = 0; i < t->cap; i++)
		if (t->pairs[i].count)
			s[n++] = t->pairs[i];
	sort_pairs(s, n);
	for (size_t i = 0; i < n; i++)
		nkeys += !i || s[i].key != s[i - 1].key;
	struct truth_key *keys = ivx_calloc(nkeys ? nkeys : 1, sizeof *keys);
	if (!keys) {
		ivx_free(s);
		return 0;
	}
	t->keys = keys;
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
	t->sorted = s;
	t->nsorted = n;
	t->summarised_at = t->events + 1;
	return (int)t->nkeys;
}

int coproc_truth_freeze(struct coproc_truth *t)
{
	if (t->frozen)
		return 0;
	if (!coproc_truth_summarise(t) && t->npairs)
		return -1;   /* out of memory: the table stays */
	ivx_free(t->pairs);
	t->pairs = NULL;
	t->cap = 0;
	t->frozen = 1;
	return 0;
}

size_t coproc_truth_host_bytes(const struct coproc_truth *t)
{
	return sizeof *t + t->cap * sizeof *t->pairs + t->nsorted * sizeof *t->sorted + t->nkeys * sizeof *t->keys;
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
	if (t->frozen) {
		/* the key's run of the sorted pairs, values ascending */
		const struct truth_key *k = coproc_truth_find(t, key);
		size_t lo = k ? k->first : 0, hi = k ? (size_t)k->first + k->nvalues : 0;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (t->sorted[mid].value == value)
				return t->sorted[mid].count;
			if (t->sorted[mid].value < value)
				lo = mid + 1;
			else
				hi = mid;
		}
		return 0;
	}
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
