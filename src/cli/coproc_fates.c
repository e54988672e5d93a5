/*
 * coproc_fates.c — per-load accounting of what the co-processor did with
 * each correct-path execution (`ivx coproc --fates`, docs/coproc.md): the
 * fate counts, and the values of the executions written as records and of
 * those run while the load's own ignore bit was set, so a load's sampled
 * invariance can be compared with its true one and with what it did while
 * masked. Two open-addressing tables that double when half full.
 */
#include <stdlib.h>
#include <string.h>
#include "coproc_fates.h"

struct fate_load {
	uint64_t pc;                 /* 0: empty */
	uint64_t n[FATE_N];
};

/* (pc, value, kind) -> count; kind 0 recorded, 1 run while its own bit was
 * set, 2 passed both filters (tagged or skipped by the random tagger), 3
 * tagged (recorded or dropped at a full buffer) */
struct fate_value {
	uint64_t pc, value, count;
	int kind;
};

struct coproc_fates {
	struct coproc *cp;
	struct fate_load *loads;
	size_t nloads, cap_loads;
	struct fate_value *vals;
	size_t nvals, cap_vals;
	int sorted;               /* vals is a sorted array of nvals now */
};

static size_t mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x9e3779b97f4a7c15ull;
	return (size_t)(x ^ x >> 29);
}

static struct fate_load *load_slot(struct fate_load *t, size_t cap, uint64_t pc)
{
	size_t i = mix(pc) & (cap - 1);
	while (t[i].pc && t[i].pc != pc)
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static struct fate_value *value_slot(struct fate_value *t, size_t cap, uint64_t pc, uint64_t value, int kind)
{
	size_t i = mix(pc * 31 + value * 7 + (uint64_t)kind) & (cap - 1);
	while (t[i].count && !(t[i].pc == pc && t[i].value == value && t[i].kind == kind))
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static int grow_loads(struct coproc_fates *f)
{
	size_t cap = f->cap_loads * 2;
	struct fate_load *t = calloc(cap, sizeof *t);
	if (!t)
		return -1;
	for (size_t i = 0; i < f->cap_loads; i++)
		if (f->loads[i].pc)
			*load_slot(t, cap, f->loads[i].pc) = f->loads[i];
	free(f->loads);
	f->loads = t;
	f->cap_loads = cap;
	return 0;
}

static int grow_vals(struct coproc_fates *f)
{
	size_t cap = f->cap_vals * 2;
	struct fate_value *t = calloc(cap, sizeof *t);
	if (!t)
		return -1;
	for (size_t i = 0; i < f->cap_vals; i++) {
		const struct fate_value *v = &f->vals[i];
		if (v->count)
			*value_slot(t, cap, v->pc, v->value, v->kind) = *v;
	}
	free(f->vals);
	f->vals = t;
	f->cap_vals = cap;
	return 0;
}

static void add_value(struct coproc_fates *f, uint64_t pc, uint64_t value, int kind)
{
	if (2 * (f->nvals + 1) > f->cap_vals && grow_vals(f) < 0)
		return;
	struct fate_value *v = value_slot(f->vals, f->cap_vals, pc, value, kind);
	if (!v->count) {
		v->pc = pc;
		v->value = value;
		v->kind = kind;
		f->nvals++;
	}
	v->count++;
}

static void on_fate(void *ctx, uint64_t pc, uint64_t value, int fate)
{
	struct coproc_fates *f = ctx;
	if (f->sorted)
		return;
	if (fate == COPROC_FATE_IGNORED) {
		struct coproc_pentry e;
		if (!(coproc_profile_find(f->cp, pc, &e) && (e.masked || e.held)))
			fate = FATE_IGNORED_OTHER;
		else
			add_value(f, pc, value, 1);
	} else if (fate == COPROC_FATE_RECORDED) {
		add_value(f, pc, value, 0);
	}
	if (fate == COPROC_FATE_RECORDED || fate == COPROC_FATE_DROPPED || fate == COPROC_FATE_UNTAGGED)
		add_value(f, pc, value, 2);
	if (fate == COPROC_FATE_RECORDED || fate == COPROC_FATE_DROPPED)
		add_value(f, pc, value, 3);
	if (2 * (f->nloads + 1) > f->cap_loads && grow_loads(f) < 0)
		return;
	struct fate_load *l = load_slot(f->loads, f->cap_loads, pc);
	if (!l->pc) {
		l->pc = pc;
		f->nloads++;
	}
	l->n[fate]++;
}

struct coproc_fates *coproc_fates_new(struct coproc *cp)
{
	struct coproc_fates *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	f->cp = cp;
	f->cap_loads = 1024;
	f->cap_vals = 4096;
	f->loads = calloc(f->cap_loads, sizeof *f->loads);
	f->vals = calloc(f->cap_vals, sizeof *f->vals);
	if (!f->loads || !f->vals) {
		coproc_fates_free(f);
		return NULL;
	}
	coproc_set_fate_hook(cp, on_fate, f);
	return f;
}

void coproc_fates_free(struct coproc_fates *f)
{
	if (!f)
		return;
	free(f->loads);
	free(f->vals);
	free(f);
}

int coproc_fates_get(const struct coproc_fates *f, uint64_t pc, uint64_t n[FATE_N])
{
	const struct fate_load *l = load_slot(f->loads, f->cap_loads, pc);
	if (!l->pc)
		return 0;
	memcpy(n, l->n, sizeof l->n);
	return 1;
}

static int by_pc_kind(const void *a, const void *b)
{
	const struct fate_value *x = a, *y = b;
	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	return x->kind - y->kind;
}

/* Of pc's executions of `kind`: the largest value's count, the true top
 * value's and all of them. The first call turns the value table into a
 * sorted array (no more counting after it). */
static size_t shares(struct coproc_fates *f, uint64_t pc, uint64_t top, int kind, uint64_t *best, uint64_t *topn,
		     uint64_t *all)
{
	*best = *topn = *all = 0;
	if (!f->sorted) {
		size_t n = 0;
		for (size_t i = 0; i < f->cap_vals; i++)
			if (f->vals[i].count)
				f->vals[n++] = f->vals[i];
		qsort(f->vals, n, sizeof *f->vals, by_pc_kind);
		f->nvals = n;
		f->sorted = 1;
		coproc_set_fate_hook(f->cp, NULL, NULL);
	}
	size_t lo = 0, hi = f->nvals;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (f->vals[mid].pc < pc || (f->vals[mid].pc == pc && f->vals[mid].kind < kind))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < f->nvals && f->vals[i].pc == pc && f->vals[i].kind == kind; i++) {
		const struct fate_value *v = &f->vals[i];
		*all += v->count;
		if (v->count > *best)
			*best = v->count;
		if (v->value == top)
			*topn = v->count;
	}
	return lo;
}

/* The largest value of pc's executions of `kind` (0 if none). */
static uint64_t top_value(const struct coproc_fates *f, size_t lo, uint64_t pc, int kind)
{
	uint64_t best = 0, val = 0;
	for (size_t i = lo; i < f->nvals && f->vals[i].pc == pc && f->vals[i].kind == kind; i++)
		if (f->vals[i].count > best) {
			best = f->vals[i].count;
			val = f->vals[i].value;
		}
	return val;
}

/* The mean largest-value share of n draws (with replacement) from the
 * values of the executions at vals[lo..] of pc and `kind`, over SIM_REPS
 * repetitions with a fixed generator: what a uniformly random sample of n
 * records would show, so recorded_top_share minus it is what is not
 * explained by the sample's size. */
#define SIM_REPS 16
static double sampled_top_share(const struct coproc_fates *f, size_t lo, uint64_t pc, int kind, uint64_t n,
				uint64_t all)
{
	size_t k = 0;
	while (lo + k < f->nvals && f->vals[lo + k].pc == pc && f->vals[lo + k].kind == kind)
		k++;
	if (!n || !k)
		return 0;
	uint64_t *cum = malloc(k * sizeof *cum), *hits = malloc(k * sizeof *hits);
	if (!cum || !hits) {
		free(cum);
		free(hits);
		return 0;
	}
	uint64_t c = 0, x = 0x9e3779b97f4a7c15ull ^ pc;
	for (size_t i = 0; i < k; i++)
		cum[i] = c += f->vals[lo + i].count;
	double sum = 0;
	for (int rep = 0; rep < SIM_REPS; rep++) {
		memset(hits, 0, k * sizeof *hits);
		uint64_t best = 0;
		for (uint64_t d = 0; d < n; d++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			uint64_t u = x % all;
			size_t a = 0, b = k - 1;
			while (a < b) {
				size_t m = (a + b) / 2;
				if (cum[m] > u)
					b = m;
				else
					a = m + 1;
			}
			if (++hits[a] > best)
				best = hits[a];
		}
		sum += (double)best / (double)n;
	}
	free(cum);
	free(hits);
	return sum / SIM_REPS;
}

void coproc_fates_json(struct coproc_fates *f, FILE *out, uint64_t pc, uint64_t top)
{
	static const char *const names[FATE_N] = { "off", "partition", "ignored_own", "untagged",
						   "dropped", "recorded", "ignored_other" };
	uint64_t n[FATE_N];
	if (!coproc_fates_get(f, pc, n))
		return;
	fprintf(out, ",\"fates\":{");
	for (int k = 0; k < FATE_N; k++)
		fprintf(out, "%s\"%s\":%llu", k ? "," : "", names[k], (unsigned long long)n[k]);
	fprintf(out, "}");
	uint64_t best, topn, all;
	shares(f, pc, top, 0, &best, &topn, &all);
	uint64_t nrec = all;
	if (all)
		fprintf(out, ",\"recorded_top_share\":%.6f,\"recorded_true_top_share\":%.6f", (double)best / (double)all,
			(double)topn / (double)all);
	shares(f, pc, top, 1, &best, &topn, &all);
	if (all)
		fprintf(out, ",\"masked_true_top_share\":%.6f", (double)topn / (double)all);
	size_t lo = shares(f, pc, top, 2, &best, &topn, &all);
	if (!all)
		return;
	fprintf(out, ",\"eligible_top_share\":%.6f,\"eligible_true_top_share\":%.6f", (double)best / (double)all,
		(double)topn / (double)all);
	/* (b) taken apart: the share of the eligible executions' top value
	 * among the tagged and among the recorded ones (no maximum taken, so
	 * a random sample would show eligible_top_share on average), and the
	 * largest share a random sample of as many records would show */
	uint64_t etop = top_value(f, lo, pc, 2), eall = all;
	shares(f, pc, etop, 3, &best, &topn, &all);
	if (all)
		fprintf(out, ",\"tagged_top_share\":%.6f,\"tagged_eligible_top_share\":%.6f",
			(double)best / (double)all, (double)topn / (double)all);
	shares(f, pc, etop, 0, &best, &topn, &all);
	if (all)
		fprintf(out, ",\"recorded_eligible_top_share\":%.6f,\"sampled_top_share\":%.6f",
			(double)topn / (double)all, sampled_top_share(f, lo, pc, 2, nrec, eall));
}
