/*
 * strat_prof.c — exact and estimated profiles in two open-addressing
 * tables, and the error metric of section 5.3.1 (see strat_prof.h).
 *
 * Slots are never deleted, so linear probing needs no tombstones. The
 * tables and counters sit in one allocation (header, tuple slots, pc
 * slots): a snapshot is one memcpy.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
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
	uint32_t tmask, pmask;
	struct strat_prof_stats st;
};

struct strat_prof {
	int growable;
	size_t size;
	void *mem;
	struct phead *h;
	struct tslot *t;
	struct pslot *pcs;
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
	uint32_t pcap = tcap / 4 < 16 ? 16 : tcap / 4;
	size_t size = sizeof(struct phead) + (size_t)tcap * sizeof(struct tslot) + (size_t)pcap * sizeof(struct pslot);
	void *mem = calloc(1, size);
	if (!mem)
		return -1;
	p->mem = mem;
	p->size = size;
	p->h = mem;
	p->t = (struct tslot *)((char *)mem + sizeof(struct phead));
	p->pcs = (struct pslot *)(p->t + tcap);
	p->h->tmask = tcap - 1;
	p->h->pmask = pcap - 1;
	return 0;
}

struct strat_prof *strat_prof_new(uint32_t capacity, int growable, struct ivx_err *err)
{
	struct strat_prof *p = calloc(1, sizeof *p);
	if (!p || layout(p, pow2_at_least(capacity)) < 0) {
		free(p);
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
	free(p->mem);
	free(p);
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
	uint32_t m = p->h->pmask, i = (uint32_t)hash2(pc, 0x51) & m;
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
	for (uint32_t i = 0; i <= old.h->pmask; i++)
		if (old.pcs[i].exact)
			*pfind(p, old.pcs[i].pc) = old.pcs[i];
	free(old.mem);
	return 0;
}

void strat_prof_exact(struct strat_prof *p, uint64_t pc, uint64_t val)
{
	struct tslot *t = tfind(p, pc, val);
	struct pslot *s = pfind(p, pc);
	if (!t->exact || !s->exact) {
		/* a new tuple (and maybe pc): is there room? */
		int full = (p->h->st.tuples + 1) * 4 > (uint64_t)(p->h->tmask + 1) * 3 ||
			   (!s->exact && (p->h->st.pcs + 1) * 4 > (uint64_t)(p->h->pmask + 1) * 3);
		if (full) {
			if (!p->growable || grow(p) < 0) {
				p->h->st.dropped++;
				return;
			}
			t = tfind(p, pc, val);
			s = pfind(p, pc);
		}
		if (!t->exact) {
			t->pc = pc;
			t->val = val;
			p->h->st.tuples++;
		}
		if (!s->exact) {
			s->pc = pc;
			p->h->st.pcs++;
		}
	}
	if (t->exact < UINT32_MAX)
		t->exact++;
	s->exact++;
	p->h->st.events++;
}

void strat_prof_estimate(struct strat_prof *p, uint64_t pc, uint64_t val, uint64_t count)
{
	struct tslot *t = tfind(p, pc, val);
	struct pslot *s = pfind(p, pc);
	p->h->st.estimated += count;
	if (!t->exact || !s->exact)
		return;   /* dropped from a full table */
	t->est = t->est + count > UINT32_MAX ? UINT32_MAX : (uint32_t)(t->est + count);
	s->est += count;
}

double strat_prof_error(struct strat_prof *p, const struct strat_err_params *ep, const struct strat_comp *sketch,
			struct strat_err_detail *d)
{
	struct strat_err_detail dd = { 0 };
	for (uint32_t i = 0; i <= p->h->pmask; i++)
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
	for (uint32_t i = 0; i <= p->h->pmask; i++) {
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
	*out = p->h->st;
}

uint32_t strat_prof_slots(const struct strat_prof *p)
{
	return p->h->tmask + 1;
}

int strat_prof_row(const struct strat_prof *p, uint32_t slot, struct strat_prof_row *out)
{
	if (slot > p->h->tmask || !p->t[slot].exact)
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
}
