/*
 * strat_comp.c — a running compressor: the first stage (a sampler, a
 * stratified sampler, the tagged compressor or a sketch baseline) and up
 * to three A_k tables behind it.
 *
 * All running state lives in one allocation (`st`, a header followed by
 * the stages' arrays), so a snapshot is one memcpy of a constant size and
 * nothing is allocated per tuple.
 *
 * Samplers (section 3.1, 3.3). Each stratum (one for R, D, P; n for
 * H[X]n, chosen by strat_hash_index) keeps a position and, with C, the
 * count since its last message:
 *   R_r   selects a tuple with probability 1/r (no state: H[R] = R)
 *   D_r   countdown random: selects when a countdown, drawn uniformly
 *         from [1, 2r] after each selection, reaches zero
 *   P_r   selects every r-th tuple (the r-th, 2r-th, ...)
 * A message carries count r, or with C the tuples its stratum saw since
 * its previous message (the last one included).
 *
 * Tagged compressor (section 4, Figure 6). Each entry of a `ways`-way
 * table holds a state, a partial tag (strat_hash_tag), a hit counter
 * saturating at r and a miss counter saturating at miss_max = 7 (3 bits):
 *
 *            E1 alloc           E4 miss              E5a miss
 *   Empty ------------> Valid -----------> Evict <-----------+
 *     ^  ^  E2 hit = r    |  ^ E3 hit        |  |  E6a hit    |
 *     |  +----------------+  +---------------+  +-------------+
 *     |      E6 hit, ShouldEvict                |
 *     +-----------------------------------------+  E5 ShouldReplace:
 *                                                  Evict -> Valid (new tag)
 *
 *   E1  a tuple finds an Empty way: tag := its tag, hit += 1 (hit may
 *       carry the miss count of an E6)
 *   E2  hit reaches r: message <tuple, hit>, entry Empty, counters 0
 *   E3  tag hit in Valid: hit += 1
 *   E4  miss in Valid: Evict, miss := 1 (the tuple can only be reported
 *       when it comes back, as only its tag is stored)
 *   E5a miss in Evict: miss += 1
 *   E5  ShouldReplace (miss = miss_max): the new tuple takes the entry
 *       with hit := hit + miss (counts are kept, not reset: they hold the
 *       length of the entry's stream), Valid
 *   E6a tag hit in Evict: hit += 1
 *   E6  ShouldEvict (hit >= evict_hits = max(2, r/8)): message <tuple,
 *       hit>, Empty, hit := miss (the competitors' count goes to the next
 *       tuple to allocate), miss := 0
 * The paper's text leaves ShouldEvict and ShouldReplace to its figure;
 * these thresholds are our reading (3-bit miss counter, and a reported
 * count worth a message), kept in strat_comp_tpolicy. A miss picks the
 * way to act on: an Evict way with the most misses, else the Valid way
 * with the fewest hits (the first of equals).
 *
 * A_k (section 3.4): k fully associative <tuple, count> entries with
 * 16-bit counters. A message that matches adds its count; one that does
 * not takes the least recently used entry, whose contents leave as a
 * message; a count that would pass 65535 sends the entry first.
 *
 * Baselines at equal memory (not in the paper): Count-Min (w x d 32-bit
 * cells, every tuple adds 1 to one cell per row, and so does its pc's
 * key; a count is the smallest of its cells) and Space-Saving (k
 * monitored tuples; an unmonitored tuple replaces the one with the
 * smallest count and inherits that count plus one). They send nothing:
 * software reads them (strat_comp_query).
 */
#include <stdlib.h>
#include <string.h>
#include "base/alloc.h"
#include "strat.h"

#define A_COUNT_MAX 0xffffu
#define T_MISS_MAX 7u

struct scell {            /* one stratum of a sampler */
	uint32_t pos;         /* P: tuples since the last selection; D: the countdown */
	uint32_t since;       /* C: tuples since the last message */
	uint32_t messages;
};

struct tentry {           /* one entry of the tagged compressor */
	uint8_t state;        /* enum strat_tstate */
	uint8_t miss;
	uint16_t tag;
	uint32_t hit;
	uint32_t messages;
	uint32_t evictions;
};

struct aentry {           /* one entry of an A_k table */
	uint64_t pc, val;
	uint32_t count;       /* 0: free */
	uint32_t pad;
	uint64_t used;        /* LRU stamp */
};

struct ssentry {          /* one monitored tuple of Space-Saving */
	uint64_t pc, val;
	uint64_t count, err;
};

struct header {
	uint64_t rng;
	uint64_t clock;       /* A's LRU clock */
	struct strat_comp_stats stats;
	uint32_t ss_used;
	uint32_t pad;
};

struct strat_comp {
	struct strat_spec spec;
	struct strat_sink sink;
	struct strat_tpolicy tp;
	int index_bits;       /* H, T: bits of the stratum / set index */
	const strat_fold_table *htab;   /* the hash's tables for index_bits (NULL: slow path) */
	uint32_t n_cells;     /* sampler strata or T entries */
	size_t size;          /* bytes of st */
	void *st;             /* the state: header, then the arrays below */
	struct header *h;
	struct scell *cells;
	struct tentry *tent;
	struct aentry *a[STRAT_MAX_STAGES];
	uint32_t *cm;
	struct ssentry *ss;
	uint32_t *ss_heap;    /* entry indices, min-heap on count */
	uint32_t *ss_pos;     /* entry -> heap position */
	uint32_t *ss_slot;    /* open addressing: entry index + 1, 0 = empty */
	uint32_t ss_mask;
};

static int log2u(uint32_t n)
{
	int b = 0;
	while ((1u << b) < n)
		b++;
	return b;
}

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

struct strat_comp *strat_comp_new(const struct strat_spec *spec, uint64_t seed, struct ivx_err *err)
{
	if (spec->n_stages < 1 || spec->n_stages > STRAT_MAX_STAGES) {
		ivx_error(err, IVX_EUSAGE, "compressor spec has no stages");
		return NULL;
	}
	struct strat_comp *c = ivx_calloc(1, sizeof *c);
	if (!c) {
		ivx_error(err, IVX_ESYS, "out of memory");
		return NULL;
	}
	c->spec = *spec;
	const struct strat_stage *s0 = &spec->stage[0];
	/* the layout: offsets first, one allocation */
	size_t off = align8(sizeof(struct header));
	size_t o_cells = 0, o_t = 0, o_cm = 0, o_ss = 0, o_heap = 0, o_pos = 0, o_slot = 0, o_a[STRAT_MAX_STAGES] = { 0 };
	uint32_t ss_slots = 0;
	switch (s0->kind) {
	case STRAT_R: case STRAT_D: case STRAT_P:
		c->n_cells = s0->strata;
		c->index_bits = log2u(s0->strata);
		o_cells = off;
		off = align8(off + (size_t)c->n_cells * sizeof(struct scell));
		break;
	case STRAT_T:
		c->n_cells = s0->entries;
		c->index_bits = log2u(s0->entries / s0->ways);
		o_t = off;
		off = align8(off + (size_t)c->n_cells * sizeof(struct tentry));
		c->tp.miss_max = T_MISS_MAX;
		c->tp.evict_hits = s0->rate / 8 > 2 ? s0->rate / 8 : 2;
		break;
	case STRAT_CM:
		o_cm = off;
		off = align8(off + (size_t)s0->entries * s0->ways * sizeof(uint32_t));
		break;
	case STRAT_SS:
		ss_slots = 1u << (log2u(s0->entries) + 1);
		c->ss_mask = ss_slots - 1;
		o_ss = off;
		off = align8(off + (size_t)s0->entries * sizeof(struct ssentry));
		o_heap = off;
		off = align8(off + (size_t)s0->entries * sizeof(uint32_t));
		o_pos = off;
		off = align8(off + (size_t)s0->entries * sizeof(uint32_t));
		o_slot = off;
		off = align8(off + (size_t)ss_slots * sizeof(uint32_t));
		break;
	default:
		break;
	}
	c->htab = c->index_bits ? strat_hash_fold_table(c->index_bits) : NULL;
	for (int i = 0; i < spec->n_stages; i++)
		if (spec->stage[i].kind == STRAT_A) {
			o_a[i] = off;
			off = align8(off + (size_t)spec->stage[i].entries * sizeof(struct aentry));
		}
	c->size = off;
	c->st = ivx_calloc(1, off);
	if (!c->st) {
		ivx_free(c);
		ivx_error(err, IVX_ESYS, "out of memory for the compressor's tables");
		return NULL;
	}
	char *base = c->st;
	c->h = (struct header *)base;
	c->cells = o_cells ? (struct scell *)(base + o_cells) : NULL;
	c->tent = o_t ? (struct tentry *)(base + o_t) : NULL;
	c->cm = o_cm ? (uint32_t *)(base + o_cm) : NULL;
	c->ss = o_ss ? (struct ssentry *)(base + o_ss) : NULL;
	c->ss_heap = o_heap ? (uint32_t *)(base + o_heap) : NULL;
	c->ss_pos = o_pos ? (uint32_t *)(base + o_pos) : NULL;
	c->ss_slot = o_slot ? (uint32_t *)(base + o_slot) : NULL;
	for (int i = 0; i < spec->n_stages; i++)
		c->a[i] = o_a[i] ? (struct aentry *)(base + o_a[i]) : NULL;
	c->h->rng = strat_rng_seed(seed);
	if (s0->kind == STRAT_D)
		for (uint32_t i = 0; i < c->n_cells; i++)
			c->cells[i].pos = 1 + (uint32_t)strat_rng_below(&c->h->rng, 2ull * s0->rate);
	return c;
}

void strat_comp_free(struct strat_comp *c)
{
	if (!c)
		return;
	ivx_free(c->st);
	ivx_free(c);
}

void strat_comp_set_sink(struct strat_comp *c, const struct strat_sink *sink)
{
	c->sink = *sink;
}

const struct strat_spec *strat_comp_spec(const struct strat_comp *c)
{
	return &c->spec;
}

/* ---- later stages -------------------------------------------------------- */

static void out_message(struct strat_comp *c, const struct strat_msg *m)
{
	c->h->stats.messages++;
	if (c->sink.message)
		c->sink.message(c->sink.ctx, m);
}

/* Message m into stage i (an A table) or, past the last, to software. */
static void stage_in(struct strat_comp *c, int i, const struct strat_msg *m)
{
	if (i >= c->spec.n_stages) {
		out_message(c, m);
		return;
	}
	struct aentry *a = c->a[i];
	uint32_t k = c->spec.stage[i].entries, victim = 0;
	uint64_t oldest = UINT64_MAX;
	c->h->clock++;
	for (uint32_t j = 0; j < k; j++) {
		if (a[j].count && a[j].pc == m->pc && a[j].val == m->val) {
			if (a[j].count + m->count > A_COUNT_MAX) {
				struct strat_msg out = { a[j].pc, a[j].val, a[j].count };
				a[j].count = 0;
				stage_in(c, i + 1, &out);
			}
			if (m->count > A_COUNT_MAX) {   /* too big to hold: straight on */
				stage_in(c, i + 1, m);
				return;
			}
			a[j].count += (uint32_t)m->count;
			a[j].used = c->h->clock;
			return;
		}
		uint64_t u = a[j].count ? a[j].used : 0;
		if (u < oldest)
			oldest = u, victim = j;
	}
	if (a[victim].count) {
		struct strat_msg out = { a[victim].pc, a[victim].val, a[victim].count };
		a[victim].count = 0;
		stage_in(c, i + 1, &out);
	}
	if (m->count > A_COUNT_MAX) {
		stage_in(c, i + 1, m);
		return;
	}
	a[victim].pc = m->pc;
	a[victim].val = m->val;
	a[victim].count = (uint32_t)m->count;
	a[victim].used = c->h->clock;
}

static void sample_out(struct strat_comp *c, uint64_t pc, uint64_t val, uint64_t count)
{
	struct strat_msg m = { pc, val, count };
	c->h->stats.samples++;
	if (c->sink.sample)
		c->sink.sample(c->sink.ctx, &m);
	stage_in(c, 1, &m);
}

void strat_comp_flush(struct strat_comp *c)
{
	for (int i = 1; i < c->spec.n_stages; i++) {
		struct aentry *a = c->a[i];
		/* oldest first, so the order does not depend on the slots */
		for (;;) {
			uint32_t best = UINT32_MAX;
			for (uint32_t j = 0; j < c->spec.stage[i].entries; j++)
				if (a[j].count && (best == UINT32_MAX || a[j].used < a[best].used))
					best = j;
			if (best == UINT32_MAX)
				break;
			struct strat_msg out = { a[best].pc, a[best].val, a[best].count };
			a[best].count = 0;
			stage_in(c, i + 1, &out);
		}
	}
}

/* ---- first stages -------------------------------------------------------- */

static void push_sampler(struct strat_comp *c, const struct strat_stage *s, uint64_t pc, uint64_t val)
{
	uint32_t i = c->htab ? strat_hash_index_t(c->htab, pc, val) :
		     c->index_bits ? strat_hash_index(pc, val, c->index_bits) : 0;
	struct scell *e = &c->cells[i];
	int sel = 0;
	e->since++;
	switch (s->kind) {
	case STRAT_R:
		sel = strat_rng_below(&c->h->rng, s->rate) == 0;
		break;
	case STRAT_D:
		if (--e->pos == 0) {
			sel = 1;
			e->pos = 1 + (uint32_t)strat_rng_below(&c->h->rng, 2ull * s->rate);
		}
		break;
	default:
		if (++e->pos >= s->rate) {
			sel = 1;
			e->pos = 0;
		}
		break;
	}
	if (!sel)
		return;
	uint64_t count = s->counter ? e->since : s->rate;
	e->since = 0;
	e->messages++;
	sample_out(c, pc, val, count);
}

static void t_report(struct strat_comp *c, struct tentry *e, uint64_t pc, uint64_t val)
{
	e->messages++;
	sample_out(c, pc, val, e->hit);
}

static void push_tagged(struct strat_comp *c, const struct strat_stage *s, uint64_t pc, uint64_t val)
{
	uint32_t set = c->htab ? strat_hash_index_t(c->htab, pc, val) : strat_hash_index(pc, val, c->index_bits);
	uint16_t tag = (uint16_t)strat_hash_tag(pc, val, (int)s->tag_bits);
	struct tentry *w = &c->tent[(size_t)set * s->ways];
	struct tentry *empty = NULL, *victim = NULL;
	for (uint32_t j = 0; j < s->ways; j++) {
		struct tentry *e = &w[j];
		if (e->state == STRAT_EMPTY) {
			if (!empty)
				empty = e;
			continue;
		}
		if (e->tag == tag) {
			e->hit++;
			if (e->state == STRAT_VALID && e->hit >= s->rate) {          /* E2 */
				t_report(c, e, pc, val);
				e->state = STRAT_EMPTY;
				e->hit = e->miss = 0;
			} else if (e->state == STRAT_EVICT &&
				   (e->hit >= c->tp.evict_hits || e->hit >= s->rate)) { /* E6 */
				t_report(c, e, pc, val);
				c->h->stats.t_evicted++;
				e->state = STRAT_EMPTY;
				e->hit = e->miss;
				e->miss = 0;
			}                                                           /* E3, E6a */
			return;
		}
		if (!victim || (e->state == STRAT_EVICT && (victim->state != STRAT_EVICT || e->miss > victim->miss)) ||
		    (e->state == STRAT_VALID && victim->state == STRAT_VALID && e->hit < victim->hit))
			victim = e;
	}
	if (empty) {                                                            /* E1 */
		empty->state = STRAT_VALID;
		empty->tag = tag;
		empty->hit++;
		empty->miss = 0;
		if (empty->hit >= s->rate) {
			t_report(c, empty, pc, val);
			empty->state = STRAT_EMPTY;
			empty->hit = 0;
		}
		return;
	}
	if (victim->state == STRAT_VALID) {                                     /* E4 */
		victim->state = STRAT_EVICT;
		victim->miss = 1;
		victim->evictions++;
		return;
	}
	if (++victim->miss < c->tp.miss_max)                                    /* E5a */
		return;
	victim->tag = tag;                                                      /* E5 */
	victim->hit += victim->miss;
	victim->miss = 0;
	victim->state = STRAT_VALID;
	c->h->stats.t_replaced++;
	if (victim->hit >= s->rate) {
		t_report(c, victim, pc, val);
		victim->state = STRAT_EMPTY;
		victim->hit = 0;
	}
}

static uint64_t mix(uint64_t pc, uint64_t val, uint32_t row)
{
	return strat_rng_seed(pc * 0x9e3779b97f4a7c15ull ^ val ^ ((uint64_t)row << 58) ^ row);
}

#define PC_KEY(pc) ((pc) | (1ull << 55))

static void cm_add(struct strat_comp *c, const struct strat_stage *s, uint64_t pc, uint64_t val)
{
	for (uint32_t r = 0; r < s->ways; r++) {
		uint32_t *cell = &c->cm[(size_t)r * s->entries + mix(pc, val, r) % s->entries];
		if (*cell < UINT32_MAX)
			(*cell)++;
	}
}

static uint64_t cm_get(const struct strat_comp *c, uint64_t pc, uint64_t val)
{
	const struct strat_stage *s = &c->spec.stage[0];
	uint64_t m = UINT64_MAX;
	for (uint32_t r = 0; r < s->ways; r++) {
		uint32_t v = c->cm[(size_t)r * s->entries + mix(pc, val, r) % s->entries];
		if (v < m)
			m = v;
	}
	return m;
}

/* Space-Saving: a hash index on the tuples and a min-heap on the counts. */
static uint32_t ss_find(const struct strat_comp *c, uint64_t pc, uint64_t val, uint32_t *slot)
{
	uint32_t i = (uint32_t)mix(pc, val, 9) & c->ss_mask;
	for (;; i = (i + 1) & c->ss_mask) {
		uint32_t e = c->ss_slot[i];
		if (!e || (c->ss[e - 1].pc == pc && c->ss[e - 1].val == val)) {
			*slot = i;
			return e;
		}
	}
}

static void ss_unindex(struct strat_comp *c, uint32_t i)
{
	/* backward-shift deletion keeps every probe chain unbroken */
	c->ss_slot[i] = 0;
	for (uint32_t j = (i + 1) & c->ss_mask; c->ss_slot[j]; j = (j + 1) & c->ss_mask) {
		const struct ssentry *e = &c->ss[c->ss_slot[j] - 1];
		uint32_t home = (uint32_t)mix(e->pc, e->val, 9) & c->ss_mask;
		/* move j to i if its home is not in (i, j] cyclically */
		if (((j - home) & c->ss_mask) >= ((j - i) & c->ss_mask)) {
			c->ss_slot[i] = c->ss_slot[j];
			c->ss_slot[j] = 0;
			i = j;
		}
	}
}

static void ss_sift_down(struct strat_comp *c, uint32_t p)
{
	uint32_t n = c->h->ss_used;
	for (;;) {
		uint32_t l = 2 * p + 1, r = l + 1, m = p;
		if (l < n && c->ss[c->ss_heap[l]].count < c->ss[c->ss_heap[m]].count)
			m = l;
		if (r < n && c->ss[c->ss_heap[r]].count < c->ss[c->ss_heap[m]].count)
			m = r;
		if (m == p)
			return;
		uint32_t t = c->ss_heap[p];
		c->ss_heap[p] = c->ss_heap[m];
		c->ss_heap[m] = t;
		c->ss_pos[c->ss_heap[p]] = p;
		c->ss_pos[c->ss_heap[m]] = m;
		p = m;
	}
}

static void ss_add(struct strat_comp *c, const struct strat_stage *s, uint64_t pc, uint64_t val)
{
	uint32_t slot, e = ss_find(c, pc, val, &slot);
	if (e) {
		c->ss[e - 1].count++;
		ss_sift_down(c, c->ss_pos[e - 1]);
		return;
	}
	if (c->h->ss_used < s->entries) {
		/* a new entry with count 1 is a minimum: it belongs at the root's
		 * level; appending it keeps the heap since no count is below 1 */
		uint32_t i = c->h->ss_used++;
		c->ss[i] = (struct ssentry){ pc, val, 1, 0 };
		c->ss_slot[slot] = i + 1;
		/* sift up */
		uint32_t p = i;
		c->ss_heap[p] = i;
		c->ss_pos[i] = p;
		while (p && c->ss[c->ss_heap[(p - 1) / 2]].count > c->ss[c->ss_heap[p]].count) {
			uint32_t q = (p - 1) / 2, t = c->ss_heap[p];
			c->ss_heap[p] = c->ss_heap[q];
			c->ss_heap[q] = t;
			c->ss_pos[c->ss_heap[p]] = p;
			c->ss_pos[c->ss_heap[q]] = q;
			p = q;
		}
		return;
	}
	uint32_t m = c->ss_heap[0], oslot;
	ss_find(c, c->ss[m].pc, c->ss[m].val, &oslot);
	ss_unindex(c, oslot);
	uint64_t min = c->ss[m].count;
	c->ss[m] = (struct ssentry){ pc, val, min + 1, min };
	ss_find(c, pc, val, &slot);
	c->ss_slot[slot] = m + 1;
	ss_sift_down(c, 0);
}

void strat_comp_push(struct strat_comp *c, uint64_t pc, uint64_t val)
{
	const struct strat_stage *s = &c->spec.stage[0];
	c->h->stats.tuples++;
	switch (s->kind) {
	case STRAT_R: case STRAT_D: case STRAT_P:
		push_sampler(c, s, pc, val);
		break;
	case STRAT_T:
		push_tagged(c, s, pc, val);
		break;
	case STRAT_A: {
		/* A alone: every tuple is a message of count 1 into the table */
		struct strat_msg m = { pc, val, 1 };
		c->h->stats.samples++;
		if (c->sink.sample)
			c->sink.sample(c->sink.ctx, &m);
		stage_in(c, 0, &m);
		break;
	}
	case STRAT_CM:
		cm_add(c, s, pc, val);
		cm_add(c, s, PC_KEY(pc), 0);
		break;
	default:
		ss_add(c, s, pc, val);
		break;
	}
}

int strat_comp_is_sketch(const struct strat_comp *c)
{
	return c->spec.stage[0].kind == STRAT_CM || c->spec.stage[0].kind == STRAT_SS;
}

uint64_t strat_comp_query(const struct strat_comp *c, uint64_t pc, uint64_t val)
{
	if (c->spec.stage[0].kind == STRAT_CM)
		return cm_get(c, pc, val);
	if (c->spec.stage[0].kind == STRAT_SS) {
		uint32_t slot, e = ss_find(c, pc, val, &slot);
		return e ? c->ss[e - 1].count : 0;
	}
	return 0;
}

uint64_t strat_comp_query_pc(const struct strat_comp *c, uint64_t pc)
{
	if (c->spec.stage[0].kind == STRAT_CM)
		return cm_get(c, PC_KEY(pc), 0);
	uint64_t sum = 0;
	if (c->spec.stage[0].kind == STRAT_SS)
		for (uint32_t i = 0; i < c->h->ss_used; i++)
			if (c->ss[i].pc == pc)
				sum += c->ss[i].count;
	return sum;
}

double strat_comp_sketch_bound(const struct strat_comp *c, uint64_t n)
{
	const struct strat_stage *s = &c->spec.stage[0];
	if (s->kind == STRAT_CM)   /* each tuple also adds its pc key: 2n in the rows */
		return 2.718281828 * 2.0 * (double)n / s->entries;
	if (s->kind == STRAT_SS)
		return (double)n / s->entries;
	return 0.0;
}

/* ---- introspection and snapshots ---------------------------------------- */

uint32_t strat_comp_cells(const struct strat_comp *c)
{
	return c->n_cells ? c->n_cells : 1;
}

void strat_comp_cell(const struct strat_comp *c, uint32_t i, struct strat_cell *out)
{
	const struct strat_stage *s = &c->spec.stage[0];
	memset(out, 0, sizeof *out);
	out->max = s->rate;
	if (c->cells && i < c->n_cells) {
		const struct scell *e = &c->cells[i];
		out->count = s->counter ? e->since : e->pos;
		out->messages = e->messages;
		if (s->kind == STRAT_D)
			out->max = 2 * s->rate;
	} else if (c->tent && i < c->n_cells) {
		const struct tentry *e = &c->tent[i];
		out->count = e->hit;
		out->messages = e->messages;
		out->evictions = e->evictions;
		out->state = e->state;
	}
}

void strat_comp_stats(const struct strat_comp *c, struct strat_comp_stats *out)
{
	*out = c->h->stats;
}

void strat_comp_tpolicy(const struct strat_comp *c, struct strat_tpolicy *out)
{
	*out = c->tp;
}

size_t strat_comp_state_size(const struct strat_comp *c)
{
	return c->size;
}

void strat_comp_save(const struct strat_comp *c, void *blob)
{
	memcpy(blob, c->st, c->size);
}

void strat_comp_restore(struct strat_comp *c, const void *blob)
{
	memcpy(c->st, blob, c->size);
}
