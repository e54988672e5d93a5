/*
 * memsys.c — caches, TLBs and MSHRs as a latency model (see memsys.h).
 *
 * Structure of one line access (access_line), in two phases so that an
 * access refused for lack of an MSHR changes nothing:
 *
 *   lookup   TLB -> L1 MSHRs -> L1 tags -> L2 MSHRs -> L2 tags
 *            decides hit / merged / miss at each level, the ready cycle,
 *            and which MSHRs a new miss would take (blocked if none)
 *   update   TLB fill or LRU touch, L1 dirty victim written back into the
 *            L2 tags, L2 and L1 fills, MSHR allocation, statistics
 *
 * Policies (docs/config.md): true LRU everywhere; L1D write-back and
 * write-allocate, a store miss fetches the line like a load; writebacks
 * cost no time (an ideal write buffer) but do update the L2 tags; the L2 is
 * neither inclusive nor exclusive (an L2 eviction leaves the L1s alone); an
 * MSHR is busy from the access until its fill cycle; page walks are not
 * limited in number, and an access to a page whose walk is in flight waits
 * for that walk (tlb_merged). The tags are updated when the access is made,
 * not when its data arrives; the MSHRs carry the arrival time.
 *
 * All state lives in one block (`pool`) plus the scalars of struct memsys,
 * so memsys_copy is a struct copy, one memcpy and a pointer rebase.
 */
#include <string.h>
#include "base/alloc.h"
#include "assoc.h"
#include "memsys.h"

#define MSHR_MEM  1u   /* the fill comes from memory (an L2 miss) */
#define MSHR_DATA 2u   /* requested by the data side */

struct mshr {
	uint64_t line;    /* line address at this level */
	uint64_t start;   /* cycle the request reached this level */
	uint64_t fill;    /* cycle the data is ready; free from then on */
	uint64_t flags;   /* MSHR_* */
};

struct level {
	struct assoc tags;    /* value bit 0: dirty */
	uint32_t line_shift;
	uint32_t latency;
	uint32_t n_mshr;
	struct mshr *mshr;
	uint64_t latest_fill; /* no MSHR is busy at or after this cycle */
	uint64_t allocs;      /* MSHR allocations so far (memsys.long_memo) */
};

struct tlb {
	struct assoc tags;    /* value: cycle the walk that filled it ends */
	uint32_t page_shift;
	uint32_t miss_latency;
};

enum side { SIDE_I, SIDE_D };

struct memsys {
	struct machine_config cfg;
	struct level l1i, l1d, l2;
	struct tlb itlb, dtlb;
	/* memsys_long_misses_in_flight's last answer, `count`, holds for the
	 * cycles [from, until) as long as the L2 allocates no MSHR (allocs):
	 * a store refused at the ROB head asks every cycle, and the scan of
	 * the L2 MSHRs would cost more than the cycle */
	struct { uint64_t from, until, allocs; int count; } long_memo;
	/* The L1I line of the last instruction fetch when it was a fast hit
	 * (UINT64_MAX: none). Only I-fetches and I-side warming change the
	 * I-TLB and L1I (each clears it), and a fast hit leaves them as they
	 * were, so a fetch from the same line is a fast hit again: fetch
	 * blocks often come from one line several cycles in a row. */
	uint64_t ifetch_hit_line;
	struct memsys_stats st;
	uint64_t writebacks;      /* dirty L1D lines written into the L2 */
	/* The earliest cycle at which an access refused since the last
	 * memsys_take_retry might no longer be refused, if made again then
	 * (UINT64_MAX: none refused): the core skips the cycles before it */
	uint64_t retry_at;
	void *pool;
	size_t pool_bytes;
};

/* Outcome of one line access, filled by the lookup phase. */
struct line_result {
	uint64_t ready;
	uint64_t t1, t2;          /* cycle the access reaches L1, L2 */
	uint64_t vpn, line1, line2;
	int tlb_way;              /* -1: TLB miss (or perfect) */
	int l1_way;               /* -1: L1 miss (or perfect) */
	int l1_mshr, l2_mshr;     /* MSHR to allocate (new miss) or -1 */
	uint8_t tlb_miss, tlb_merged, l1_miss, l2_miss, merged, blocked;
	uint8_t l1_new, l2_new;   /* a new (primary) miss at that level */
	uint8_t l2_hit;           /* an L1 miss served by the L2 tags (or a perfect L2) */
};

static uint32_t log2u(uint64_t v)
{
	uint32_t s = 0;
	while ((1ull << s) < v)
		s++;
	return s;
}

/* ---- MSHRs ------------------------------------------------------------ */

/* The MSHR holding `line` in flight at cycle t, or -1. */
static int mshr_match(const struct level *l, uint64_t line, uint64_t t)
{
	if (t >= l->latest_fill)
		return -1;
	for (uint32_t i = 0; i < l->n_mshr; i++)
		if (l->mshr[i].line == line && l->mshr[i].fill > t)
			return (int)i;
	return -1;
}

/* A free MSHR at cycle t (lowest index, for determinism), or -1. */
static int mshr_free(const struct level *l, uint64_t t)
{
	if (t >= l->latest_fill)
		return 0;
	for (uint32_t i = 0; i < l->n_mshr; i++)
		if (l->mshr[i].fill <= t)
			return (int)i;
	return -1;
}

/* The earliest fill after cycle t (UINT64_MAX: none). */
static uint64_t mshr_next_fill(const struct level *l, uint64_t t)
{
	uint64_t next = UINT64_MAX;
	for (uint32_t i = 0; i < l->n_mshr; i++)
		if (l->mshr[i].fill > t && l->mshr[i].fill < next)
			next = l->mshr[i].fill;
	return next;
}

/* An access made at cycle now found level l's MSHRs busy at cycle t
 * (t - now: the TLB walk and the levels above, which stay the same while
 * the access is refused, as nothing is allocated): the same access made
 * later is refused again until t reaches the next fill. */
static void note_refused(struct memsys *m, const struct level *l, uint64_t now, uint64_t t)
{
	uint64_t fill = mshr_next_fill(l, t);
	uint64_t at = fill == UINT64_MAX ? UINT64_MAX : fill - (t - now);
	if (at < m->retry_at)
		m->retry_at = at;
}

static int mshr_free_count(const struct level *l, uint64_t t)
{
	int n = 0;
	for (uint32_t i = 0; i < l->n_mshr; i++)
		n += l->mshr[i].fill <= t;
	return n;
}

static void mshr_alloc(struct level *l, int i, uint64_t line, uint64_t start, uint64_t fill,
		       uint64_t flags)
{
	l->mshr[i] = (struct mshr){ line, start, fill, flags };
	l->allocs++;
	if (fill > l->latest_fill)
		l->latest_fill = fill;
}

/* ---- construction ----------------------------------------------------- */

static size_t level_bytes(const struct cache_config *c)
{
	uint32_t sets = c->size / c->line / c->assoc;
	return assoc_entries(sets, c->assoc) * sizeof(struct assoc_entry) + c->mshrs * sizeof(struct mshr);
}

static char *level_init(struct level *l, const struct cache_config *c, char *p)
{
	uint32_t sets = c->size / c->line / c->assoc;
	assoc_init(&l->tags, sets, c->assoc, (struct assoc_entry *)p);
	p += assoc_entries(sets, c->assoc) * sizeof(struct assoc_entry);
	l->mshr = (struct mshr *)p;
	l->n_mshr = c->mshrs;
	memset(l->mshr, 0, c->mshrs * sizeof(struct mshr));
	l->line_shift = log2u(c->line);
	l->latency = c->latency;
	l->latest_fill = 0;
	return p + c->mshrs * sizeof(struct mshr);
}

static size_t tlb_bytes(const struct tlb_config *t)
{
	return (size_t)t->entries * sizeof(struct assoc_entry);
}

static char *tlb_init(struct tlb *t, const struct tlb_config *c, char *p)
{
	assoc_init(&t->tags, c->entries / c->assoc, c->assoc, (struct assoc_entry *)p);
	t->page_shift = log2u(c->page);
	t->miss_latency = c->miss_latency;
	return p + tlb_bytes(c);
}

struct memsys *memsys_new(const struct machine_config *cfg, struct ivx_err *err)
{
	if (config_validate(cfg, err) < 0)
		return NULL;
	struct memsys *m = ivx_calloc(1, sizeof *m);
	size_t bytes = level_bytes(&cfg->l1i) + level_bytes(&cfg->l1d) + level_bytes(&cfg->l2) +
		       tlb_bytes(&cfg->itlb) + tlb_bytes(&cfg->dtlb);
	void *pool = m ? ivx_malloc(bytes) : NULL;
	if (!pool) {
		ivx_free(m);
		ivx_error(err, IVX_ESYS, "out of memory for the memory hierarchy (%zu bytes)", bytes);
		return NULL;
	}
	m->cfg = *cfg;
	m->retry_at = UINT64_MAX;
	m->ifetch_hit_line = UINT64_MAX;
	m->pool = pool;
	m->pool_bytes = bytes;
	char *p = pool;
	p = level_init(&m->l1i, &cfg->l1i, p);
	p = level_init(&m->l1d, &cfg->l1d, p);
	p = level_init(&m->l2, &cfg->l2, p);
	p = tlb_init(&m->itlb, &cfg->itlb, p);
	tlb_init(&m->dtlb, &cfg->dtlb, p);
	return m;
}

void memsys_free(struct memsys *m)
{
	if (!m)
		return;
	ivx_free(m->pool);
	ivx_free(m);
}

static int same_shape(const struct level *a, const struct level *b)
{
	return a->tags.sets == b->tags.sets && a->tags.ways == b->tags.ways && a->n_mshr == b->n_mshr;
}

size_t memsys_state_bytes(const struct memsys *m)
{
	return sizeof *m + m->pool_bytes;
}

int memsys_copy(struct memsys *dst, const struct memsys *src)
{
	if (dst == src)
		return IVX_OK;
	if (dst->pool_bytes != src->pool_bytes || !same_shape(&dst->l1i, &src->l1i) ||
	    !same_shape(&dst->l1d, &src->l1d) || !same_shape(&dst->l2, &src->l2) ||
	    dst->itlb.tags.sets != src->itlb.tags.sets || dst->itlb.tags.ways != src->itlb.tags.ways ||
	    dst->dtlb.tags.sets != src->dtlb.tags.sets || dst->dtlb.tags.ways != src->dtlb.tags.ways)
		return IVX_EUSAGE;
	void *pool = dst->pool;
	memcpy(pool, src->pool, src->pool_bytes);
	*dst = *src;
	dst->pool = pool;
	/* Point every array at the same offset in dst's block. */
	char *base = pool;
	const char *sbase = src->pool;
#define REBASE(field) ((field) = (void *)(base + ((const char *)(field) - sbase)))
	REBASE(dst->l1i.tags.e);
	REBASE(dst->l1i.mshr);
	REBASE(dst->l1d.tags.e);
	REBASE(dst->l1d.mshr);
	REBASE(dst->l2.tags.e);
	REBASE(dst->l2.mshr);
	REBASE(dst->itlb.tags.e);
	REBASE(dst->dtlb.tags.e);
#undef REBASE
	return IVX_OK;
}

/* ---- one line --------------------------------------------------------- */

/*
 * Look up (and unless `dry`, perform) the access of `side` to the line
 * holding addr, made at cycle now. With `force`, a new miss that finds no
 * free MSHR proceeds without one instead of blocking (second half of a
 * line-crossing access whose MSHRs were reserved by the first check).
 */
static void access_line(struct memsys *m, enum side side, uint64_t addr, uint64_t now, int is_store,
			int dry, int force, struct line_result *r)
{
	const struct machine_config *c = &m->cfg;
	struct tlb *tlb = side == SIDE_I ? &m->itlb : &m->dtlb;
	struct level *l1 = side == SIDE_I ? &m->l1i : &m->l1d;
	struct level *l2 = &m->l2;
	int perfect_tlb = side == SIDE_I ? c->perfect_itlb : c->perfect_dtlb;
	int perfect_l1 = side == SIDE_I ? c->perfect_l1i : c->perfect_l1d;
	int perfect_l2 = side == SIDE_I ? c->perfect_l2i : c->perfect_l2d;

	memset(r, 0, sizeof *r);
	r->tlb_way = r->l1_way = r->l1_mshr = r->l2_mshr = -1;

	/* Lookup phase: nothing below changes state. */
	uint64_t t = now;
	if (!perfect_tlb) {
		r->vpn = addr >> tlb->page_shift;
		r->tlb_way = assoc_find(&tlb->tags, r->vpn);
		if (r->tlb_way < 0) {
			r->tlb_miss = 1;
			t = now + tlb->miss_latency;
		} else {
			uint64_t walk_end = assoc_set(&tlb->tags, r->vpn)[r->tlb_way].val;
			if (walk_end > now) {
				r->tlb_merged = 1;
				t = walk_end;
			}
		}
	}
	r->t1 = t;
	if (perfect_l1) {
		r->ready = t + l1->latency;
		goto update;
	}
	r->line1 = addr >> l1->line_shift;
	int in_flight = mshr_match(l1, r->line1, t);
	r->l1_way = assoc_find(&l1->tags, r->line1);
	if (in_flight >= 0) {
		const struct mshr *e = &l1->mshr[in_flight];
		r->ready = e->fill > t + l1->latency ? e->fill : t + l1->latency;
		r->l1_miss = r->merged = 1;
		r->l2_miss = (e->flags & MSHR_MEM) != 0;
		goto update;
	}
	if (r->l1_way >= 0) {
		r->ready = t + l1->latency;
		goto update;
	}
	r->l1_miss = r->l1_new = 1;
	r->l1_mshr = mshr_free(l1, t);
	if (r->l1_mshr < 0 && !force) {
		r->blocked = 1;
		note_refused(m, l1, now, t);
		return;
	}
	r->t2 = t + l1->latency;
	r->line2 = addr >> l2->line_shift;
	if (perfect_l2) {
		r->l2_hit = 1;
		r->ready = r->t2 + l2->latency;
		goto update;
	}
	in_flight = mshr_match(l2, r->line2, r->t2);
	if (in_flight >= 0) {
		const struct mshr *e = &l2->mshr[in_flight];
		r->ready = e->fill > r->t2 + l2->latency ? e->fill : r->t2 + l2->latency;
		r->l2_miss = r->merged = 1;
		goto update;
	}
	if (assoc_find(&l2->tags, r->line2) >= 0) {
		r->l2_hit = 1;
		r->ready = r->t2 + l2->latency;
		goto update;
	}
	r->l2_miss = r->l2_new = 1;
	r->l2_mshr = mshr_free(l2, r->t2);
	if (r->l2_mshr < 0 && !force) {
		r->blocked = 1;
		note_refused(m, l2, now, r->t2);
		return;
	}
	r->ready = r->t2 + l2->latency + c->memory_latency;

update:
	if (dry)
		return;
	/* Update phase. */
	if (side == SIDE_I) {
		m->st.itlb_access++;
		m->st.l1i_access++;
	} else {
		m->st.dtlb_access++;
		m->st.l1d_access++;
	}
	if (!perfect_tlb) {
		if (r->tlb_miss) {
			assoc_insert(&tlb->tags, r->vpn, r->t1);
			if (side == SIDE_I)
				m->st.itlb_miss++;
			else
				m->st.dtlb_miss++;
		} else {
			assoc_touch(&tlb->tags, r->vpn, r->tlb_way);
		}
	}
	if (perfect_l1)
		return;
	if (!r->l1_new) {
		/* Hit, or merged with a fill whose line may since have been evicted. */
		if (r->l1_way >= 0) {
			struct assoc_entry *e = assoc_touch(&l1->tags, r->line1, r->l1_way);
			e->val |= (uint64_t)is_store;
		}
		return;
	}
	if (side == SIDE_I)
		m->st.l1i_miss++;
	else
		m->st.l1d_miss++;
	m->st.l2_access++;
	/* Write a dirty victim back into the L2 before the L2 fill, so the
	 * demanded line is the most recently used there. */
	struct assoc_entry victim = assoc_victim(&l1->tags, r->line1);
	if (victim.key != ASSOC_INVALID && (victim.val & 1)) {
		uint64_t wb = (victim.key << l1->line_shift) >> l2->line_shift;
		assoc_access(&l2->tags, wb, 0, NULL)->val |= 1;
		m->writebacks++;
	}
	if (r->l2_hit || r->l2_new) {
		assoc_access(&l2->tags, r->line2, 0, NULL);
	} else {
		int way = assoc_find(&l2->tags, r->line2);  /* merged at L2 */
		if (way >= 0)
			assoc_touch(&l2->tags, r->line2, way);
	}
	if (r->l2_new) {
		m->st.l2_miss++;
		if (r->l2_mshr >= 0)
			mshr_alloc(l2, r->l2_mshr, r->line2, r->t2, r->ready,
				   MSHR_MEM | (side == SIDE_D ? MSHR_DATA : 0));
	}
	assoc_insert(&l1->tags, r->line1, (uint64_t)is_store);
	if (r->l1_mshr >= 0)
		mshr_alloc(l1, r->l1_mshr, r->line1, r->t1, r->ready, r->l2_miss ? MSHR_MEM : 0);
}

static void result_out(const struct line_result *r, struct mem_access *out)
{
	out->ready = r->ready;
	out->l1_miss = r->l1_miss;
	out->l2_miss = r->l2_miss;
	out->tlb_miss = r->tlb_miss;
	out->tlb_merged = r->tlb_merged;
	out->merged = r->merged;
	out->blocked = r->blocked;
}

/* ---- public accesses -------------------------------------------------- */

/*
 * The common case without the general machinery: the page is the most
 * recently used in its TLB set with its walk finished, and the line the
 * most recently used in its L1 set with no fill pending. Nothing changes
 * but statistics and the dirty bit. Returns 0 when the general path must
 * decide. Inlined into each caller, so that the side (and whether it is
 * a store) is a constant there rather than a test on every access.
 */
static inline __attribute__((always_inline)) int fast_hit(struct memsys *m, enum side side, uint64_t addr, uint64_t now, int is_store,
		    struct mem_access *out)
{
	const struct machine_config *c = &m->cfg;
	struct tlb *tlb = side == SIDE_I ? &m->itlb : &m->dtlb;
	struct level *l1 = side == SIDE_I ? &m->l1i : &m->l1d;
	if (side == SIDE_I ? c->perfect_l1i : c->perfect_l1d)
		return 0;
	if (!(side == SIDE_I ? c->perfect_itlb : c->perfect_dtlb)) {
		uint64_t vpn = addr >> tlb->page_shift;
		const struct assoc_entry *e = assoc_set(&tlb->tags, vpn);
		if (e->key != vpn || e->val > now)
			return 0;
	}
	uint64_t line = addr >> l1->line_shift;
	struct assoc_entry *e = assoc_set(&l1->tags, line);
	if (e->key != line || mshr_match(l1, line, now) >= 0)
		return 0;
	e->val |= (uint64_t)is_store;
	if (side == SIDE_I) {
		m->st.itlb_access++;
		m->st.l1i_access++;
	} else {
		m->st.dtlb_access++;
		m->st.l1d_access++;
	}
	memset(out, 0, sizeof *out);
	out->ready = now + l1->latency;
	return 1;
}

void memsys_ifetch(struct memsys *m, uint64_t addr, uint64_t now, struct mem_access *out)
{
	struct line_result r;
	uint64_t line = addr >> m->l1i.line_shift;
	if (line == m->ifetch_hit_line) {
		/* what fast_hit does when it succeeds */
		m->st.itlb_access++;
		m->st.l1i_access++;
		memset(out, 0, sizeof *out);
		out->ready = now + m->l1i.latency;
		return;
	}
	if (fast_hit(m, SIDE_I, addr, now, 0, out)) {
		m->ifetch_hit_line = line;
		return;
	}
	m->ifetch_hit_line = UINT64_MAX;
	access_line(m, SIDE_I, addr, now, 0, 0, 0, &r);
	if (r.blocked)
		m->st.mshr_blocked++;
	result_out(&r, out);
}

/* A data access that is not a fast hit; one crossing a line boundary is
 * two line accesses that both happen or, if either would block, neither. */
static void data_access_general(struct memsys *m, uint64_t addr, unsigned size, uint64_t now, int is_store,
				struct mem_access *out)
{
	uint64_t last = addr + (size ? size - 1 : 0);
	uint32_t shift = m->l1d.line_shift;
	struct line_result a, b;
	if ((addr >> shift) == (last >> shift)) {
		access_line(m, SIDE_D, addr, now, is_store, 0, 0, &a);
		if (a.blocked)
			m->st.mshr_blocked++;
		result_out(&a, out);
		return;
	}
	uint64_t second = (last >> shift) << shift;
	access_line(m, SIDE_D, addr, now, is_store, 1, 0, &a);
	access_line(m, SIDE_D, second, now, is_store, 1, 0, &b);
	int blocked = a.blocked || b.blocked;
	/* Two new misses at one level need two free MSHRs. */
	if (!blocked && a.l1_new && b.l1_new) {
		uint64_t t = a.t1 < b.t1 ? a.t1 : b.t1;
		blocked = mshr_free_count(&m->l1d, t) < 2;
		if (blocked)
			note_refused(m, &m->l1d, now, t);
	}
	if (!blocked && a.l2_new && b.l2_new && a.line2 != b.line2) {
		uint64_t t = a.t2 < b.t2 ? a.t2 : b.t2;
		blocked = mshr_free_count(&m->l2, t) < 2;
		if (blocked)
			note_refused(m, &m->l2, now, t);
	}
	if (blocked) {
		m->st.mshr_blocked++;
		memset(out, 0, sizeof *out);
		out->blocked = 1;
		return;
	}
	access_line(m, SIDE_D, addr, now, is_store, 0, 0, &a);
	access_line(m, SIDE_D, second, now, is_store, 0, 1, &b);
	out->ready = a.ready > b.ready ? a.ready : b.ready;
	out->l1_miss = a.l1_miss | b.l1_miss;
	out->l2_miss = a.l2_miss | b.l2_miss;
	out->tlb_miss = a.tlb_miss | b.tlb_miss;
	out->tlb_merged = (a.tlb_merged | b.tlb_merged) && !out->tlb_miss;
	out->merged = out->l1_miss && !a.l1_new && !b.l1_new;
	out->blocked = 0;
}

/* A data access: the fast hit of an access within one line, else the
 * general path. */
static inline __attribute__((always_inline)) void data_access(struct memsys *m, uint64_t addr, unsigned size,
							      uint64_t now, int is_store, struct mem_access *out)
{
	uint64_t last = addr + (size ? size - 1 : 0);
	uint32_t shift = m->l1d.line_shift;
	if ((addr >> shift) == (last >> shift) && fast_hit(m, SIDE_D, addr, now, is_store, out))
		return;
	data_access_general(m, addr, size, now, is_store, out);
}

void memsys_load(struct memsys *m, uint64_t addr, unsigned size, uint64_t now, struct mem_access *out)
{
	data_access(m, addr, size, now, 0, out);
}

void memsys_store(struct memsys *m, uint64_t addr, unsigned size, uint64_t now, struct mem_access *out)
{
	data_access(m, addr, size, now, 1, out);
}

/* ---- warm-up ---------------------------------------------------------- */

static void warm_line(struct memsys *m, enum side side, uint64_t addr, int is_store)
{
	struct tlb *tlb = side == SIDE_I ? &m->itlb : &m->dtlb;
	struct level *l1 = side == SIDE_I ? &m->l1i : &m->l1d;
	struct level *l2 = &m->l2;
	assoc_access(&tlb->tags, addr >> tlb->page_shift, 0, NULL);
	uint64_t line1 = addr >> l1->line_shift;
	int way = assoc_find(&l1->tags, line1);
	if (way >= 0) {
		assoc_touch(&l1->tags, line1, way)->val |= (uint64_t)is_store;
		return;
	}
	struct assoc_entry victim = assoc_victim(&l1->tags, line1);
	if (victim.key != ASSOC_INVALID && (victim.val & 1)) {
		uint64_t wb = (victim.key << l1->line_shift) >> l2->line_shift;
		assoc_access(&l2->tags, wb, 0, NULL)->val |= 1;
	}
	assoc_access(&l2->tags, addr >> l2->line_shift, 0, NULL);
	assoc_insert(&l1->tags, line1, (uint64_t)is_store);
}

void memsys_warm_ifetch(struct memsys *m, uint64_t addr)
{
	m->ifetch_hit_line = UINT64_MAX;
	warm_line(m, SIDE_I, addr, 0);
}

void memsys_warm_data(struct memsys *m, uint64_t addr, int is_store)
{
	warm_line(m, SIDE_D, addr, is_store);
}

/* ---- queries ---------------------------------------------------------- */

int memsys_long_misses_in_flight(struct memsys *m, uint64_t now)
{
	const struct level *l2 = &m->l2;
	if (now >= l2->latest_fill)
		return 0;
	if (m->long_memo.allocs == l2->allocs && now >= m->long_memo.from && now < m->long_memo.until)
		return m->long_memo.count;
	int n = 0;
	uint64_t until = UINT64_MAX;    /* the next start or fill after now */
	for (uint32_t i = 0; i < l2->n_mshr; i++) {
		const struct mshr *e = &l2->mshr[i];
		if (!(e->flags & MSHR_DATA) || now >= e->fill)
			continue;
		if (e->start <= now)
			n++;
		uint64_t next = e->start > now ? e->start : e->fill;
		if (next < until)
			until = next;
	}
	m->long_memo.from = now;
	m->long_memo.until = until;
	m->long_memo.allocs = l2->allocs;
	m->long_memo.count = n;
	return n;
}

uint64_t memsys_long_misses_until(struct memsys *m, uint64_t now)
{
	if (now >= m->l2.latest_fill)
		return UINT64_MAX;
	memsys_long_misses_in_flight(m, now);
	return m->long_memo.until;
}

uint64_t memsys_refused(const struct memsys *m)
{
	return m->st.mshr_blocked;
}

uint64_t memsys_take_retry(struct memsys *m)
{
	uint64_t at = m->retry_at;
	m->retry_at = UINT64_MAX;
	return at;
}

void memsys_skip_refused(struct memsys *m, uint64_t n)
{
	m->st.mshr_blocked += n;
}

void memsys_stats(const struct memsys *m, struct memsys_stats *out)
{
	*out = m->st;
}

int memsys_probe(const struct memsys *m, int level, uint64_t addr)
{
	const struct level *l = level == 1 ? &m->l1i : level == 2 ? &m->l1d : level == 3 ? &m->l2 : NULL;
	if (!l)
		return 0;
	return assoc_find(&l->tags, addr >> l->line_shift) >= 0;
}
