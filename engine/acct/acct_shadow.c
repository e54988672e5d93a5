/*
 * acct_shadow.c — the base-machine shadow of the ivx counters (see
 * acct_shadow.h): each committed instruction's dispatch, issue and commit
 * cycles on the base machine, from those of the instructions before it.
 *
 * The stage rules are the core's (core.c, core_fetch.c, core_backend.c),
 * with its order inside a cycle: commit, writeback, issue, dispatch, fetch.
 * So an instruction dispatches in the cycle a slot is freed by a commit,
 * issues in the cycle its last source completes, and commits the cycle
 * after it completes; fetch stalls while the frontend's instructions fill
 * its pipeline and buffer.
 */
#include <stddef.h>
#include <string.h>
#include "acct_shadow.h"
#include "base/mix.h"

static inline uint64_t later(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

void shadow_cfg_init(struct shadow_cfg *sc, const struct machine_config *cfg)
{
	memset(sc, 0, sizeof *sc);
	sc->line_mask = ~(uint64_t)(cfg->l1i.line - 1);
	sc->fetch_width = cfg->fetch_width;
	sc->depth = cfg->frontend_depth ? cfg->frontend_depth : 1;
	sc->decode_width = cfg->decode_width;
	sc->issue_width = cfg->issue_width;
	sc->commit_width = cfg->commit_width;
	sc->rob_size = cfg->rob_size;
	sc->fe_capacity = sc->depth * cfg->decode_width + cfg->fetch_buffer;
	uint32_t ring = 16;
	while (ring < cfg->rob_size || ring < cfg->decode_width || ring < cfg->commit_width ||
	       (ring < sc->fe_capacity && ring < SHADOW_RING_MAX))
		ring <<= 1;
	sc->ring_mask = ring - 1;
	if (sc->fe_capacity > ring)
		sc->fe_capacity = 0;           /* a buffer that large never fills */
	/* memory ops never outnumber the ROB's entries: a queue as large
	 * never binds */
	sc->lsq_size = cfg->lsq_size < cfg->rob_size ? cfg->lsq_size : 0;
	sc->inorder = cfg->inorder;
	for (int k = 0; k < UOP_CLASS_COUNT; k++) {
		sc->pool_of[k] = SHADOW_ALU;
		sc->lat_of[k] = (uint8_t)(cfg->alu_latency ? cfg->alu_latency : 1);
	}
	sc->pool_of[UOP_MUL] = SHADOW_MUL;
	sc->pool_of[UOP_LOAD] = sc->pool_of[UOP_STORE] = SHADOW_MEM;
	sc->pool_of[UOP_FP] = sc->pool_of[UOP_FMA] = sc->pool_of[UOP_SIMD] = SHADOW_FP;
	sc->pool_of[UOP_DIV] = sc->pool_of[UOP_FDIV] = 0xff;
	sc->slow_of[UOP_FDIV] = 1;
	sc->slow_lat[0] = cfg->div_latency ? cfg->div_latency : 1;
	sc->slow_lat[1] = cfg->fdiv_latency ? cfg->fdiv_latency : 1;
	sc->slow_units[0] = cfg->div_units;
	sc->slow_units[1] = cfg->fdiv_units;
	uint32_t load = cfg->load_latency > cfg->l1d.latency ? cfg->load_latency : cfg->l1d.latency;
	const uint32_t lat[][2] = {
		{ UOP_MUL, cfg->mul_latency }, { UOP_LOAD, load }, { UOP_STORE, 1 }, { UOP_FP, cfg->fp_latency },
		{ UOP_FMA, cfg->fma_latency }, { UOP_SIMD, cfg->simd_latency },
	};
	for (size_t k = 0; k < sizeof lat / sizeof lat[0]; k++)
		sc->lat_of[lat[k][0]] = (uint8_t)(lat[k][1] == 0 ? 1 : lat[k][1] > 255 ? 255 : lat[k][1]);
	const uint32_t cap[SHADOW_POOLS] = { cfg->alu_units, cfg->mul_units, cfg->mem_ports, cfg->fp_units };
	for (int p = 0; p < SHADOW_POOLS; p++)
		sc->cap[p] = (uint8_t)(cap[p] > 255 ? 255 : cap[p]);
}

size_t shadow_size(const struct shadow_cfg *sc)
{
	return offsetof(struct shadow, ring) + ((size_t)sc->ring_mask + 1) * sizeof(struct shadow_slot);
}

/* ---- units ---------------------------------------------------------------- */

/* The issue slot of a pipelined pool: the first cycle from t on with a
 * unit of the pool and an issue slot free. Cycles as far ahead as the
 * reservations reach (SHADOW_RES past dispatch) are not reserved: so far
 * behind its dispatch an instruction waits on a long chain, and nothing
 * issues around it. */
static uint64_t issue_slot(struct shadow *s, const struct shadow_cfg *sc, uint64_t t, uint64_t d, int pool)
{
	for (; t < d + SHADOW_RES; t++) {
		uint64_t k = t & (SHADOW_RES - 1);
		if (s->res_tag[k] != t + 1) {
			s->res_tag[k] = t + 1;
			s->res_used[k] = 0;
		}
		uint8_t *used = (uint8_t *)&s->res_used[k];
		if (used[pool] < sc->cap[pool] && used[SHADOW_POOLS] < sc->issue_width) {
			used[pool]++;
			used[SHADOW_POOLS]++;
			return t;
		}
	}
	return t;
}

static int overlapping(const uint64_t *start, int n, uint64_t t, uint32_t lat)
{
	int busy = 0;
	for (int k = 0; k < n; k++)
		busy += start[k] < t + lat && t < start[k] + lat;
	return busy;
}

/* An unpipelined unit (divider): when the operation ready at t starts.
 * Intervals that ended before dispatch (d) are forgotten first.
 *
 * One unit (the default machine's divider and FP divider): the core gives
 * it to whichever operation is ready first (the oldest of those ready
 * together), so from t the operation starts at the first time no
 * operation that started by then still runs; an older one placed to start
 * within its interval (not ready yet at t) is moved after it, and so on.
 * The older one's result was handed on already: only the unit's busy
 * time is kept right, and a chain through it comes out early. The
 * intervals are kept sorted and never overlap; when SHADOW_SLOW are in
 * use, the earliest is forgotten and nothing starts before its end (a
 * floor), so a forgotten interval is never run over.
 *
 * Several units: the first start from t on at which fewer than `units`
 * of the operations placed so far overlap [start, start + lat); a
 * younger one fills a gap before older ones only if it fits, and when
 * the table is full the earliest is forgotten. */
static uint64_t slow_place(struct shadow *s, const struct shadow_cfg *sc, int which, uint64_t t, uint64_t d)
{
	uint64_t *start = s->slow[which].start;
	uint32_t lat = sc->slow_lat[which];
	int units = (int)sc->slow_units[which], n = 0;
	for (int k = 0; k < s->slow[which].n; k++)
		if (start[k] + lat > d)
			start[n++] = start[k];
	if (units == 1) {
		uint64_t at = t > s->slow[which].floor ? t : s->slow[which].floor;
		int k = 0;
		for (; k < n && start[k] <= at; k++)
			if (start[k] + lat > at)
				at = start[k] + lat;
		uint64_t end = at + lat;   /* older ones placed inside it move after it */
		for (int m = k; m < n && start[m] < end; m++) {
			start[m] = end;
			end += lat;
		}
		if (n == SHADOW_SLOW) {    /* full: forget the earliest, and the time before its end */
			if (start[0] + lat > s->slow[which].floor)
				s->slow[which].floor = start[0] + lat;
			memmove(start, start + 1, (size_t)--n * sizeof *start);
			k = k > 0 ? k - 1 : 0;
		}
		memmove(start + k + 1, start + k, (size_t)(n - k) * sizeof *start);
		start[k] = at;
		s->slow[which].n = n + 1;
		return at;
	}
	uint64_t at = t;
	if (overlapping(start, n, t, lat) >= units) {
		at = UINT64_MAX;
		for (int k = 0; k < n; k++) {
			uint64_t end = start[k] + lat;
			if (end > t && end < at && overlapping(start, n, end, lat) < units)
				at = end;
		}
	}
	if (n == SHADOW_SLOW) {            /* full: forget the earliest */
		int e = 0;
		for (int k = 1; k < n; k++)
			e = start[k] < start[e] ? k : e;
		start[e] = start[--n];
	}
	start[n++] = at;
	s->slow[which].n = n;
	return at;
}

/* ---- stores ---------------------------------------------------------------- */

static inline uint32_t filter_word(uint64_t w)
{
	return (uint32_t)(w & (SHADOW_SQ_FILTER - 1));
}

static void filter_add(struct shadow *s, const struct shadow_store *st, int delta)
{
	for (uint64_t w = st->addr >> 3; w <= (st->addr + st->size - 1) >> 3; w++)
		s->st_filter[filter_word(w)] = (uint8_t)(s->st_filter[filter_word(w)] + delta);
}

/* Forget the stores committed by cycle d: a load dispatched then finds
 * them in the cache. */
static void stores_commit(struct shadow *s, uint64_t d)
{
	while (s->st_head < s->st_n && s->st[s->st_head & (SHADOW_SQ - 1)].commit <= d)
		filter_add(s, &s->st[s->st_head++ & (SHADOW_SQ - 1)], -1);
}

/* When a load of [a0, a1) dispatched at d can issue, from t: after every
 * older store's address is known, and after the youngest older store it
 * overlaps executed (if that one covers it: forwarding) or committed. */
static uint64_t load_ready(struct shadow *s, uint64_t a0, uint64_t a1, uint64_t d, uint64_t t)
{
	t = later(t, s->addr_known);
	stores_commit(s, d);
	int maybe = 0;
	for (uint64_t w = a0 >> 3; w <= (a1 - 1) >> 3; w++)
		maybe |= s->st_filter[filter_word(w)];
	if (!maybe)
		return t;
	for (uint64_t q = s->st_n; q-- > s->st_head;) {
		const struct shadow_store *st = &s->st[q & (SHADOW_SQ - 1)];
		if (st->addr < a1 && a0 < st->addr + st->size)
			return later(t, st->addr <= a0 && a1 <= st->addr + st->size ? st->done : st->commit);
	}
	return t;
}

static void store_add(struct shadow *s, uint64_t addr, uint32_t size, uint64_t done, uint64_t commit)
{
	if (s->st_n - s->st_head == SHADOW_SQ)
		filter_add(s, &s->st[s->st_head++ & (SHADOW_SQ - 1)], -1);
	struct shadow_store *st = &s->st[s->st_n++ & (SHADOW_SQ - 1)];
	*st = (struct shadow_store){ .addr = addr, .size = size, .done = done, .commit = commit };
	filter_add(s, st, 1);
}

/* ---- one instruction --------------------------------------------------------- */

static void shadow_one(struct shadow *s, const struct shadow_cfg *sc, const struct commit_rec *r)
{
	const struct uop *u = r->uop;
	int cls = u->op_class;
	uint64_t i = s->n++, m = sc->ring_mask;
	struct shadow_slot *ring = s->ring;

	/* fetch: the instructions of a line, fetch_width at most, ending
	 * after a taken branch or a system call; a block waits for room in
	 * the frontend, and after a system call for its commit */
	uint64_t line = r->pc & sc->line_mask;
	if (!s->block_open || line != s->block_line || s->block_n >= sc->fetch_width) {
		uint64_t f = later(s->block_fetch + 1, s->resume);
		if (sc->fe_capacity)
			f = later(f, ring[(i - sc->fe_capacity) & m].disp);
		s->block_fetch = f;
		s->block_line = line;
		s->block_n = 0;
		s->block_open = 1;
	}
	s->block_n++;
	if ((cls == UOP_BRANCH && r->taken) || cls == UOP_SYSCALL)
		s->block_open = 0;

	/* dispatch: in order, decode_width a cycle, into a free ROB (and
	 * LSQ) entry, freed by a commit in the same cycle. (The ring's
	 * entries before the first instruction, or before a window, read as
	 * 0 or as times of an earlier window: none later than now.) */
	uint64_t d = later(s->block_fetch + sc->depth, ring[(i - 1) & m].disp);
	d = later(d, ring[(i - sc->decode_width) & m].disp + 1);
	d = later(d, ring[(i - sc->rob_size) & m].commit);
	int mem = cls == UOP_LOAD || cls == UOP_STORE;
	if (mem && sc->lsq_size)
		d = later(d, ring[(s->n_mem - sc->lsq_size) & m].mem_commit);

	/* issue: the cycle after dispatch, once the sources are ready */
	uint64_t t = d + 1;
	for (int k = 0; k < u->n_src; k++)
		t = later(t, s->reg_ready[u->src[k]]);
	uint32_t size = u->mem_size ? u->mem_size : 1;
	if (cls == UOP_LOAD)
		t = load_ready(s, r->mem_addr, r->mem_addr + size, d, t);
	else if (cls == UOP_SYSCALL)
		t = later(t, ring[(i - 1) & m].commit);   /* from the ROB head only */
	if (sc->inorder)
		t = later(t, s->last_issue);
	uint32_t lat;
	if (sc->pool_of[cls] == 0xff) {
		int which = sc->slow_of[cls];
		t = slow_place(s, sc, which, t, d);
		lat = sc->slow_lat[which];
	} else {
		t = issue_slot(s, sc, t, d, sc->pool_of[cls]);
		lat = sc->lat_of[cls];
	}
	s->last_issue = t;
	uint64_t done = t + lat;
	if (cls == UOP_STORE) {
		/* its address is known once the base and index registers are
		 * (the data registers only feed the store) */
		uint64_t a = d + 1;
		for (int k = 0; k < u->n_src; k++) {
			uint8_t reg = u->src[k];
			if (reg == u->rn || (reg == u->rm && u->rm != u->rd && u->rm != u->ra))
				a = later(a, s->reg_ready[reg]);
		}
		s->addr_known = later(s->addr_known, a);
	}
	for (int k = 0; k < u->n_dst; k++)
		s->reg_ready[u->dst[k]] = done;
	if (u->wb_base)
		s->reg_ready[u->wb_base - 1] = t + 1;   /* the written-back base: the address step */

	/* commit: in order, commit_width a cycle, the cycle after it completes */
	uint64_t c = later(done + 1, ring[(i - 1) & m].commit);
	c = later(c, ring[(i - sc->commit_width) & m].commit + 1);
	ring[i & m].disp = d;
	ring[i & m].commit = c;
	if (mem)
		ring[s->n_mem++ & m].mem_commit = c;
	if (cls == UOP_STORE)
		store_add(s, r->mem_addr, size, done, c);
	else if (cls == UOP_SYSCALL)
		s->resume = c + 1;
	s->last_commit = c;
}

/* ---- sampling ------------------------------------------------------------------ */

/* The first instruction of period p's window: somewhere in the period, by
 * a fixed hash of p (splitmix64 from state p), so that windows do not keep
 * falling on the same place of a loop whose length divides the period. */
uint64_t shadow_window(uint64_t p)
{
	uint64_t x = p;
	return p * SHADOW_PERIOD + splitmix64(&x) % (SHADOW_PERIOD - SHADOW_WINDOW + 1);
}

uint64_t shadow_commit(struct shadow *s, const struct shadow_cfg *sc, uint64_t first, const struct commit_rec *r, int n)
{
	if (!s->started) {
		s->started = 1;
		s->win_start = shadow_window(first / SHADOW_PERIOD);
		if (s->win_start < first)
			s->win_start = shadow_window(first / SHADOW_PERIOD + 1);
	}
	for (int k = 0; k < n; k++) {
		uint64_t pos = first + (uint64_t)k;
		if (pos < s->win_start)
			continue;
		if (pos == s->win_start) {     /* an empty pipeline */
			s->resume = s->last_commit;
			s->block_open = 0;
			s->win_n = 0;
		}
		shadow_one(s, sc, &r[k]);
		if (++s->win_n == SHADOW_WARMUP)
			s->mark = s->last_commit;
		if (s->win_n == SHADOW_WINDOW) {
			s->meas_insns += SHADOW_WINDOW - SHADOW_WARMUP;
			s->meas_cycles += s->last_commit - s->mark;
			s->win_start = shadow_window(pos / SHADOW_PERIOD + 1);
		}
	}
	/* in a window: the next; else its first */
	uint64_t next = first + (uint64_t)n;
	return next > s->win_start ? next : s->win_start;
}
