/*
 * strat_prof.c — exact and estimated profiles in an open-addressing
 * table, and the error metric of section 5.3.1 (see strat_prof.h).
 *
 * Slots are never deleted, so linear probing needs no tombstones. The
 * table and counters sit in one allocation (header, tuple slots): a
 * snapshot is one memcpy. Per-pc counts are sums over a pc's tuples; they
 * are built only when asked for (error, listings) into a scratch table
 * that is a cache, not state, so the hot path touches one slot a tuple.
 * The scratch table is sized by the pcs it holds (kept at most half
 * full, doubled as pcs are found), not by the tuples: a long run has
 * millions of tuples but about a thousand pcs. Every sum that depends on
 * an order is taken in the tuple table's order, so the scratch table's
 * size never changes a result.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "base/alloc.h"
#include "strat.h"
#include "strat_prof.h"

struct tslot {
	uint64_t pc, val;
	uint32_t exact, est;  /* exact == 0: free */
};

struct pslot {
	uint64_t pc;
	uint64_t exact, est;  /* exact == 0: free */
	uint64_t scratch;     /* the error pass's invariant sum */
};

struct phead {
	uint32_t tmask, pad;
	struct strat_prof_stats st;   /* st.pcs is filled by prepare() */
};

struct strat_prof {
	int growable;
	size_t size;
	void *mem;
	struct phead *h;
	struct tslot *t;
	struct pslot *pcs;            /* scratch: per-pc sums */
	uint32_t pmask;
	uint64_t prepared_at;         /* st.events + st.estimated when last built (+1) */
};

static uint32_t pow2_at_least(uint32_t n)
{
	uint32_t p = 16;
	while (p < n && p < (1u << 30))
		p <<= 1;
	return p;
}

static uint64_t hash2(uint64_t a, uint64_t b)
{
	uint64_t z = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) * 0xc2b2ae3d27d4eb4full;
	z ^= z >> 29;
	z *= 0xbf58476d1ce4e5b9ull;
	return z ^ (z >> 32);
}

static int layout(struct strat_prof *p, uint32_t tcap)
{
	size_t size = sizeof(struct phead) + (size_t)tcap * sizeof(struct tslot);
	void *mem = ivx_calloc(1, size);
	if (!mem)
		return -1;
	p->mem = mem;
	p->size = size;
	p->h = mem;
	p->t = (struct tslot *)((char *)mem + sizeof(struct phead));
	p->h->tmask = tcap - 1;
	return 0;
}

struct strat_prof *strat_prof_new(uint32_t capacity, int growable, struct ivx_err *err)
{
	struct strat_prof *p = ivx_calloc(1, sizeof *p);
	if (!p || layout(p, pow2_at_least(capacity)) < 0) {
		ivx_free(p);
		ivx_error(err, IVX_ESYS, "out of memory for the profile tables");
		return NULL;
	}
	p->growable = growable;
	return p;
}

void strat_prof_free(struct strat_prof *p)
{
	if (!p)
		return;
	ivx_free(p->mem);
	ivx_free(p->pcs);
	ivx_free(p);
}

static struct tslot *tfind(const struct strat_prof *p, uint64_t pc, uint64_t val)
{
	uint32_t m = p->h->tmask, i = (uint32_t)hash2(pc, val) & m;
	while (p->t[i].exact && (p->t[i].pc != pc || p->t[i].val != val))
		i = (i + 1) & m;
	return &p->t[i];
}

static struct pslot *pfind(const struct strat_prof *p, uint64_t pc)
{
	uint32_t m = p->pmask, i = (uint32_t)hash2(pc, 0x51) & m;
	while (p->pcs[i].exact && p->pcs[i].pc != pc)
		i = (i + 1) & m;
	return &p->pcs[i];
}

/* Double both tables (growable profiles only). */
static int grow(struct strat_prof *p)
{
	struct strat_prof old = *p;
	uint32_t tcap = old.h->tmask + 1;
	if (tcap >= (1u << 30) || layout(p, tcap * 2) < 0) {
		*p = old;
		return -1;
	}
	p->h->st = old.h->st;
	for (uint32_t i = 0; i <= old.h->tmask; i++)
		if (old.t[i].exact)
			*tfind(p, old.t[i].pc, old.t[i].val) = old.t[i];
	ivx_free(old.mem);
	return 0;
}

void strat_prof_exact(struct strat_prof *p, uint64_t pc, uint64_t val)
{
	struct tslot *t = tfind(p, pc, val);
	if (!t->exact) {
		/* a new tuple: is there room? */
		if ((p->h->st.tuples + 1) * 4 > (uint64_t)(p->h->tmask + 1) * 3) {
			if (!p->growable || grow(p) < 0) {
				p->h->st.dropped++;
				return;
			}
			t = tfind(p, pc, val);
		}
		t->pc = pc;
		t->val = val;
		p->h->st.tuples++;
	}
	if (t->exact < UINT32_MAX)
		t->exact++;
	p->h->st.events++;
}

void strat_prof_estimate(struct strat_prof *p, uint64_t pc, uint64_t val, uint64_t count)
{
	struct tslot *t = tfind(p, pc, val);
	p->h->st.estimated += count;
	if (!t->exact)
		return;   /* dropped from a full table */
	t->est = t->est + count > UINT32_MAX ? UINT32_MAX : (uint32_t)(t->est + count);
}

/* Double the scratch table, keeping the sums built so far: -1 when it
 * cannot be allocated (the old table is kept). */
static int pcs_grow(struct strat_prof *p)
{
	uint32_t ocap = p->pmask + 1, cap = ocap * 2;
	struct pslot *old = p->pcs, *np = cap > ocap ? ivx_calloc(cap, sizeof *np) : NULL;
	if (!np)
		return -1;
	p->pcs = np;
	p->pmask = cap - 1;
	for (uint32_t i = 0; i < ocap; i++)
		if (old[i].exact)
			*pfind(p, old[i].pc) = old[i];
	ivx_free(old);
	return 0;
}

/* Build the per-pc sums (exact, est) if the profile changed since; a
 * cache: -1 only when it cannot be allocated. */
static int prepare(struct strat_prof *p)
{
	uint64_t stamp = p->h->st.events + p->h->st.estimated + 1;
	if (p->pcs && p->prepared_at == stamp)
		return 0;
	if (!p->pcs) {
		p->pcs = ivx_calloc(16, sizeof *p->pcs);
		if (!p->pcs)
			return -1;
		p->pmask = 15;
	} else {
		memset(p->pcs, 0, (size_t)(p->pmask + 1) * sizeof *p->pcs);
	}
	uint64_t pcs = 0;
	for (uint32_t i = 0; i <= p->h->tmask; i++) {
		const struct tslot *t = &p->t[i];
		if (!t->exact)
			continue;
		struct pslot *s = pfind(p, t->pc);
		if (!s->exact) {
			if ((pcs + 1) * 2 > (uint64_t)p->pmask + 1) {
				if (pcs_grow(p) < 0)
					return -1;
				s = pfind(p, t->pc);
			}
			s->pc = t->pc;
			pcs++;
		}
		s->exact += t->exact;
		s->est += t->est;
	}
	p->h->st.pcs = pcs;
	p->prepared_at = stamp;
	return 0;
}

double strat_prof_error(struct strat_prof *p, const struct strat_err_params *ep, const struct strat_comp *sketch,
			struct strat_err_detail *d)
{
	struct strat_err_detail dd = { 0 };
	if (prepare(p) < 0)
		return NAN;
	for (uint32_t i = 0; i <= p->pmask; i++)
		p->pcs[i].scratch = 0;
	/* pass 1: each frequent pc's invariant executions */
	for (uint32_t i = 0; i <= p->h->tmask; i++) {
		const struct tslot *t = &p->t[i];
		if (!t->exact)
			continue;
		struct pslot *s = pfind(p, t->pc);
		if (s->exact >= ep->min_exec && t->exact >= ep->invariant * (double)s->exact)
			s->scratch += t->exact;
	}
	/* pass 2: the weighted error over the selected tuples */
	double sum = 0.0, bsum = 0.0, bound_n = 0.0;
	if (sketch)
		bound_n = strat_comp_sketch_bound(sketch, p->h->st.events);
	for (uint32_t i = 0; i <= p->h->tmask; i++) {
		const struct tslot *t = &p->t[i];
		if (!t->exact)
			continue;
		const struct pslot *s = pfind(p, t->pc);
		if (s->exact < ep->min_exec || t->exact < ep->invariant * (double)s->exact ||
		    (double)s->scratch < ep->coverage * (double)s->exact)
			continue;
		double ii = (double)t->exact / (double)s->exact;
		uint64_t nv = t->est, npc = s->est;
		if (sketch) {
			nv = strat_comp_query(sketch, t->pc, t->val);
			npc = strat_comp_query_pc(sketch, t->pc);
		}
		double ip = npc ? (double)nv / (double)npc : 0.0;
		if (ip > 1.0)
			ip = 1.0;
		sum += (double)t->exact * fabs(ii - ip);
		if (sketch) {
			/* over-estimates of at most B in n(v) and n(pc) move the
			 * invariance by at most B / n_i(pc) */
			double b = bound_n / (double)s->exact;
			bsum += (double)t->exact * (b < 1.0 ? b : 1.0);
		}
		dd.tuples++;
		dd.weight += t->exact;
	}
	for (uint32_t i = 0; i <= p->pmask; i++) {
		const struct pslot *s = &p->pcs[i];
		if (s->exact >= ep->min_exec && (double)s->scratch >= ep->coverage * (double)s->exact && s->scratch)
			dd.pcs++;
	}
	if (dd.weight)
		dd.bound = bsum / (double)dd.weight;
	if (d)
		*d = dd;
	return dd.weight ? sum / (double)dd.weight : NAN;
}

void strat_prof_stats(const struct strat_prof *p, struct strat_prof_stats *out)
{
	prepare((struct strat_prof *)p);   /* the cache only: st.pcs */
	*out = p->h->st;
}

size_t strat_prof_host_bytes(const struct strat_prof *p)
{
	return sizeof *p + p->size + (p->pcs ? (size_t)(p->pmask + 1) * sizeof *p->pcs : 0);
}

uint32_t strat_prof_slots(const struct strat_prof *p)
{
	return p->h->tmask + 1;
}

int strat_prof_row(const struct strat_prof *p, uint32_t slot, struct strat_prof_row *out)
{
	if (slot > p->h->tmask || !p->t[slot].exact || prepare((struct strat_prof *)p) < 0)
		return 0;
	const struct tslot *t = &p->t[slot];
	const struct pslot *s = pfind(p, t->pc);
	*out = (struct strat_prof_row){ t->pc, t->val, t->exact, t->est, s->exact, s->est };
	return 1;
}

size_t strat_prof_state_size(const struct strat_prof *p)
{
	return p->size;
}

void strat_prof_save(const struct strat_prof *p, void *blob)
{
	memcpy(blob, p->mem, p->size);
}

void strat_prof_restore(struct strat_prof *p, const void *blob)
{
	memcpy(p->mem, blob, p->size);
	p->prepared_at = 0;
}
