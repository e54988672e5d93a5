/*
 * dcpi.c — the sampling profiler as a core observer (see dcpi.h): the
 * performance counters, their randomized periods, interrupt delivery after
 * the skid, the handler's cost, the daemon's aggregation and the truth.
 *
 * Time is followed through cycle records: on_cycle for each cycle that
 * moved, on_idle_cycles for a run of identical idle ones, which advance()
 * walks in steps that end exactly at the next counter overflow, the next
 * delivery or the next multiplexing switch. Since every cycle of an idle
 * run has the same in-order head, a sample delivered inside the run gets
 * the exact pc it would get cycle by cycle; only a handler charged to the
 * core (config charge) starts at the end of the run (core.h,
 * core_interrupt), a trade-off docs/dcpi.md measures.
 *
 * Miss events arrive through on_miss (begins only): the counter of their
 * event moves at the cycle the miss begins, attributed to the missing
 * instruction's pc in the truth.
 *
 * State: one block (struct dcpi_state followed by the driver's table and
 * buffers, the daemon's and the truth's tables), saved and restored whole.
 */
#include <stdlib.h>
#include <string.h>
#include "base/alloc.h"
#include "dcpi.h"

static const char *const event_names[DCPI_EVENT_COUNT] = {
	"cycles", "imiss", "dmiss", "branchmp", "dtbmiss", "retired",
};

const char *dcpi_event_name(int ev)
{
	return ev >= 0 && ev < DCPI_EVENT_COUNT ? event_names[ev] : "?";
}

int dcpi_event_from_name(const char *name)
{
	for (int e = 0; e < DCPI_EVENT_COUNT; e++)
		if (!strcmp(name, event_names[e]))
			return e;
	return -1;
}

void dcpi_config_defaults(struct dcpi_config *c)
{
	memset(c, 0, sizeof *c);
	c->events = 1u << DCPI_CYCLES | 1u << DCPI_IMISS;
	c->counters = 2;
	for (int e = 0; e < DCPI_EVENT_COUNT; e++) {
		c->period[e] = 4096;     /* ivx's choice: the paper gives CYCLES only */
		c->delta[e] = 256;
	}
	c->period[DCPI_CYCLES] = 65536;  /* uniform in [60K, 64K] */
	c->delta[DCPI_CYCLES] = 4096;
	c->skid = 6;
	c->seed = 1;
	c->mux_cycles = 65536;
	c->table_buckets = 4096;         /* 16K entries, as in section 5.3 */
	c->buffer_entries = 8192;        /* 8K samples per overflow buffer */
	c->daemon_capacity = 16384;
	c->truth_capacity = 16384;
	c->cost_intr = 214;              /* best-case interrupt setup and teardown (5.2) */
	c->cost_hit = 416;               /* Table 4, SPECint95, cycles */
	c->cost_miss = 700;
	c->cost_drain_entry = 175;       /* the daemon's per-sample cost, per entry */
	c->pid = 1;
	c->clock_mhz = 333;
}

static int pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int dcpi_config_validate(const struct dcpi_config *c, struct ivx_err *err)
{
	if (!c->events || c->events >> DCPI_EVENT_COUNT)
		return ivx_error(err, IVX_EUSAGE, "sampling: no events chosen");
	if (c->counters < 1 || c->counters > DCPI_MAX_COUNTERS)
		return ivx_error(err, IVX_EUSAGE, "sampling: counters must be 1..%d", DCPI_MAX_COUNTERS);
	for (int e = 0; e < DCPI_EVENT_COUNT; e++) {
		if (!(c->events >> e & 1))
			continue;
		if (!c->period[e] || c->delta[e] >= c->period[e])
			return ivx_error(err, IVX_EUSAGE, "sampling: %s period needs P >= 1 and 0 <= dP < P",
					 event_names[e]);
	}
	if (c->skid > 1000000)
		return ivx_error(err, IVX_EUSAGE, "sampling: skid must be at most 1000000 cycles");
	if (!c->mux_cycles)
		return ivx_error(err, IVX_EUSAGE, "sampling: the multiplexing slice must be at least 1 cycle");
	if (!pow2(c->table_buckets) || c->table_buckets > (1u << 24))
		return ivx_error(err, IVX_EUSAGE, "sampling: table buckets must be a power of two up to 2^24");
	if (!c->buffer_entries || c->buffer_entries > (1u << 24))
		return ivx_error(err, IVX_EUSAGE, "sampling: overflow buffers need 1 to 2^24 entries");
	if (!pow2(c->daemon_capacity) || c->daemon_capacity < 16 || c->daemon_capacity > (1u << 24) ||
	    (c->truth_capacity && (!pow2(c->truth_capacity) || c->truth_capacity < 16 ||
				   c->truth_capacity > (1u << 24))))
		return ivx_error(err, IVX_EUSAGE,
				 "sampling: daemon and truth capacities must be powers of two, 16 to 2^24 (truth: 0 = off)");
	if (c->poll && (c->events >> DCPI_RETIRED & 1))
		return ivx_error(err, IVX_EUSAGE, "sampling: polling needs no retired event");
	if (!c->clock_mhz)
		return ivx_error(err, IVX_EUSAGE, "sampling: the clock must be at least 1 MHz");
	return IVX_OK;
}

int dcpi_parse_events(const char *list, uint32_t *mask, struct ivx_err *err)
{
	uint32_t m = 0;
	const char *p = list;
	while (*p) {
		const char *q = strchr(p, ',');
		size_t n = q ? (size_t)(q - p) : strlen(p);
		char word[32];
		if (!n || n >= sizeof word)
			return ivx_error(err, IVX_EUSAGE, "events: '%s' is not a list like cycles,imiss", list);
		memcpy(word, p, n);
		word[n] = 0;
		int e = dcpi_event_from_name(word);
		if (e < 0)
			return ivx_error(err, IVX_EUSAGE,
					 "events: unknown event '%s' (cycles, imiss, dmiss, branchmp, dtbmiss, retired)",
					 word);
		m |= 1u << e;
		p += n + (q != NULL);
		if (q && !*p)
			return ivx_error(err, IVX_EUSAGE, "events: '%s' ends with a comma", list);
	}
	if (!m)
		return ivx_error(err, IVX_EUSAGE, "events: empty list");
	*mask = m;
	return IVX_OK;
}

static int parse_num(const char *s, const char *end, uint64_t *out)
{
	if (s == end || (size_t)(end - s) > 20)
		return -1;
	uint64_t v = 0;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

int dcpi_parse_period(struct dcpi_config *c, const char *spec, struct ivx_err *err)
{
	const char *eq = strchr(spec, '=');
	const char *num = eq ? eq + 1 : spec;
	int ev = -1;
	if (eq) {
		char word[32];
		size_t n = (size_t)(eq - spec);
		if (n >= sizeof word || (memcpy(word, spec, n), word[n] = 0, (ev = dcpi_event_from_name(word)) < 0))
			return ivx_error(err, IVX_EUSAGE, "period: unknown event in '%s'", spec);
	}
	const char *colon = strchr(num, ':');
	uint64_t p, d;
	if (parse_num(num, colon ? colon : num + strlen(num), &p) < 0 ||
	    (colon && parse_num(colon + 1, colon + 1 + strlen(colon + 1), &d) < 0))
		return ivx_error(err, IVX_EUSAGE, "period: '%s' is not P[:dP] or EVENT=P[:dP] (decimal numbers)", spec);
	if (!colon)
		d = p / 16;
	if (!p || d >= p)
		return ivx_error(err, IVX_EUSAGE, "period: '%s' needs P >= 1 and dP < P", spec);
	if (ev >= 0) {
		c->period[ev] = p;
		c->delta[ev] = d;
		return IVX_OK;
	}
	for (int e = 0; e < DCPI_EVENT_COUNT; e++) {
		c->period[e] = e == DCPI_CYCLES ? p : (p / 16 ? p / 16 : 1);
		c->delta[e] = e == DCPI_CYCLES ? d : d / 16;
	}
	return IVX_OK;
}

/* ---- the state block ---------------------------------------------------- */

struct dcpi_ctr {
	uint64_t remaining;     /* events to the next overflow */
	uint64_t period;        /* this period's length */
	uint64_t rng;           /* the event's generator (splitmix64) */
};

struct dcpi_pend {
	int event;
	uint64_t overflow, deliver, cause_pc;
};

#define TRUTH_CACHE 256

struct dcpi_state {
	struct dcpi_ctr ctr[DCPI_EVENT_COUNT];
	struct dcpi_pend pend[DCPI_MAX_PENDING];
	uint32_t pend_head, pend_n;
	uint32_t mux_idx;       /* which multiplexed event holds the shared counter */
	uint32_t active_mask;   /* events counting now */
	uint64_t next_switch;   /* cycle of the next multiplexing switch (0: not started) */
	/* Lazy accounting (advance): the counters and enabled cycles are
	 * brought up to date only when something happens. */
	uint64_t synced;        /* cycles before this one are accounted for */
	uint64_t seen;          /* cycles before this one have been observed */
	uint64_t next_stop;     /* the first cycle whose record needs the slow path */
	int started;
	int finished;           /* dcpi_finish has run (in the state: a snapshot from
				   before the end of the run restores an undrained sampler) */
	uint32_t fill[2], active, rr;       /* the driver's buffers and round-robin */
	uint64_t daemon_used, truth_used;
	/* a direct-mapped cache in front of the truth table: pc -> slot + 1
	 * (a loop's pcs stay in it; the table's hash costs more) */
	uint64_t tc_pc[TRUTH_CACHE];
	uint32_t tc_idx[TRUTH_CACHE];
	struct dcpi_stats st;
	struct dcpi_sample last;   /* the last sample delivered (valid if st.samples_total) */
};

struct dcpi {
	struct dcpi_config cfg;
	struct core *core;
	void *block;
	size_t block_size;
	struct dcpi_state *s;
	struct dcpi_driver dr;
	uint64_t *daemon_keys, *daemon_counts;
	uint64_t *truth_keys;
	struct dcpi_truth *truth;
	int n_dedicated;
	int dedicated[DCPI_EVENT_COUNT];   /* events with a counter of their own */
	int n_mux;
	int mux[DCPI_EVENT_COUNT];         /* events sharing the last counter */
	dcpi_sample_fn hook;
	void *hook_ctx;
};

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A period uniform in [P - dP, P] (dP + 1 values; the modulo bias is below
 * 2^-40 for any dP under 2^24). */
static uint64_t draw_period(struct dcpi *d, int ev)
{
	struct dcpi_ctr *k = &d->s->ctr[ev];
	uint64_t span = d->cfg.delta[ev] + 1;
	return d->cfg.period[ev] - splitmix64(&k->rng) % span;
}

/* ---- open-addressed tables (daemon, truth) -------------------------------- */

/* The slot of key (nonzero) in keys[cap], inserting it; -1 when the table
 * is three-quarters full and the key is new. */
static int64_t table_slot(uint64_t *keys, uint32_t cap, uint64_t key, uint64_t *used)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ull;
	uint32_t mask = cap - 1, i = (uint32_t)(h >> 32) & mask;
	for (;; i = (i + 1) & mask) {
		if (keys[i] == key)
			return i;
		if (!keys[i]) {
			if (*used >= (uint64_t)cap / 4 * 3)
				return -1;
			keys[i] = key;
			(*used)++;
			return i;
		}
	}
}

static void daemon_add(struct dcpi *d, uint64_t pc, int ev, uint64_t count)
{
	int64_t i = table_slot(d->daemon_keys, d->cfg.daemon_capacity, (pc << 3 | (uint64_t)ev) + 1,
			       &d->s->daemon_used);
	if (i < 0)
		d->s->st.daemon_lost += count;
	else
		d->daemon_counts[i] += count;
}

static struct dcpi_truth *truth_at(struct dcpi *d, uint64_t pc)
{
	struct dcpi_state *s = d->s;
	uint32_t c = (uint32_t)(pc >> 2) & (TRUTH_CACHE - 1);
	uint64_t i;
	if (s->tc_idx[c] && s->tc_pc[c] == pc) {
		i = s->tc_idx[c] - 1;
	} else {
		int64_t k = table_slot(d->truth_keys, d->cfg.truth_capacity, pc + 1, &s->truth_used);
		if (k < 0)
			return NULL;
		i = (uint64_t)k;
		d->truth[i].pc = pc;
		s->tc_pc[c] = pc;
		s->tc_idx[c] = (uint32_t)i + 1;
	}
	return &d->truth[i];
}

/* ---- counters and interrupts ------------------------------------------- */

static void daemon_drain(struct dcpi *d, int buf)
{
	struct dcpi_state *s = d->s;
	uint32_t n = s->fill[buf];
	for (uint32_t i = 0; i < n; i++) {
		const struct dcpi_entry *e = &d->dr.buf[buf][i];
		daemon_add(d, e->pc, e->event, e->count);
	}
	s->st.drained_entries += n;
	uint64_t cost = (uint64_t)n * d->cfg.cost_drain_entry;
	s->st.daemon_cycles += cost;
	dcpi_driver_drained(&d->dr, buf);
	if (d->cfg.charge && cost)
		core_interrupt(d->core, cost);
}

static void overflow(struct dcpi *d, int ev, uint64_t cycle, uint64_t cause_pc)
{
	struct dcpi_state *s = d->s;
	struct dcpi_ctr *k = &s->ctr[ev];
	s->st.overflows[ev]++;
	s->st.period_events[ev] += k->period;
	k->period = k->remaining = draw_period(d, ev);
	if (s->pend_n == DCPI_MAX_PENDING) {
		s->st.lost++;
		return;
	}
	struct dcpi_pend *p = &s->pend[(s->pend_head + s->pend_n++) % DCPI_MAX_PENDING];
	*p = (struct dcpi_pend){ ev, cycle, cycle + d->cfg.skid, cause_pc };
	if (p->deliver < s->next_stop)
		s->next_stop = p->deliver;
	if (d->cfg.poll)
		core_request_stop(d->core);   /* the driver must come back by the delivery */
}

static void deliver(struct dcpi *d, uint64_t pc)
{
	struct dcpi_state *s = d->s;
	struct dcpi_pend p = s->pend[s->pend_head];
	s->pend_head = (s->pend_head + 1) % DCPI_MAX_PENDING;
	s->pend_n--;
	int full;
	int r = dcpi_driver_record(&d->dr, d->cfg.pid, pc, p.event, &full);
	s->st.samples[p.event]++;
	s->st.samples_total++;
	s->st.hits += r == DCPI_HIT;
	s->st.misses += r != DCPI_HIT;
	s->st.evictions += r == DCPI_MISS_EVICT;
	uint64_t cost = d->cfg.cost_intr + (r == DCPI_HIT ? d->cfg.cost_hit : d->cfg.cost_miss);
	s->st.handler_cycles += cost;
	if (d->cfg.charge)
		core_interrupt(d->core, cost);
	if (full >= 0) {
		s->st.drains++;
		daemon_drain(d, full);
	}
	s->last = (struct dcpi_sample){
		.event = p.event, .pid = d->cfg.pid, .pc = pc, .overflow_cycle = p.overflow,
		.deliver_cycle = p.deliver, .cause_pc = p.cause_pc, .hit = r == DCPI_HIT,
	};
	if (d->hook)
		d->hook(d->hook_ctx, &s->last);
}

/* n events of ev at `cycle`, caused by cause_pc. */
static void count_events(struct dcpi *d, int ev, uint64_t n, uint64_t cycle, uint64_t cause_pc)
{
	struct dcpi_ctr *k = &d->s->ctr[ev];
	while (n >= k->remaining) {
		n -= k->remaining;
		overflow(d, ev, cycle, cause_pc);
	}
	k->remaining -= n;
}

static void mux_switch(struct dcpi *d)
{
	struct dcpi_state *s = d->s;
	s->active_mask &= ~(1u << d->mux[s->mux_idx]);
	s->mux_idx = (s->mux_idx + 1) % (uint32_t)d->n_mux;
	s->active_mask |= 1u << d->mux[s->mux_idx];
}

/* The first cycle at which something happens: the CYCLES counter
 * overflows, an interrupt is due, or (at the end of the cycle before
 * next_switch) the shared counter changes hands. */
static void plan_next_stop(struct dcpi *d)
{
	struct dcpi_state *s = d->s;
	uint64_t stop = UINT64_MAX;
	if (s->active_mask & 1u << DCPI_CYCLES)
		stop = s->synced + s->ctr[DCPI_CYCLES].remaining - 1;
	if (s->pend_n && s->pend[s->pend_head].deliver < stop)
		stop = s->pend[s->pend_head].deliver;
	if (d->n_mux > 1 && s->next_switch - 1 < stop)
		stop = s->next_switch - 1;
	s->next_stop = stop;
}

/* Account the cycles from s->synced to `upto` (exclusive), in which
 * nothing happens (plan_next_stop saw to it). */
static void sync_to(struct dcpi *d, uint64_t upto)
{
	struct dcpi_state *s = d->s;
	if (upto <= s->synced)
		return;
	uint64_t span = upto - s->synced;
	for (uint32_t m = s->active_mask; m; m &= m - 1)
		s->st.enabled_cycles[__builtin_ctz(m)] += span;
	if (s->active_mask & 1u << DCPI_CYCLES)
		s->ctr[DCPI_CYCLES].remaining -= span;
	s->synced = upto;
}

/* The slow path: n cycles from c0 on, stepping to each overflow, delivery
 * and multiplexing switch. */
static void advance_slow(struct dcpi *d, uint64_t pc, uint64_t c0, uint64_t n)
{
	struct dcpi_state *s = d->s;
	if (!s->started) {
		s->started = 1;
		s->synced = c0;
		if (d->n_mux > 1)
			s->next_switch = c0 + d->cfg.mux_cycles;
	}
	sync_to(d, c0);
	while (n) {
		uint64_t step = n;
		int cyc = s->active_mask & 1u << DCPI_CYCLES;
		if (cyc && s->ctr[DCPI_CYCLES].remaining < step)
			step = s->ctr[DCPI_CYCLES].remaining;
		if (s->pend_n) {
			uint64_t dl = s->pend[s->pend_head].deliver;
			uint64_t left = dl >= c0 ? dl - c0 + 1 : 1;
			if (left < step)
				step = left;
		}
		if (d->n_mux > 1 && s->next_switch - c0 < step)
			step = s->next_switch - c0;
		for (uint32_t m = s->active_mask; m; m &= m - 1)
			s->st.enabled_cycles[__builtin_ctz(m)] += step;
		uint64_t last = c0 + step - 1;
		if (cyc && !(s->ctr[DCPI_CYCLES].remaining -= step))
			overflow(d, DCPI_CYCLES, last, pc);
		while (s->pend_n && s->pend[s->pend_head].deliver <= last)
			deliver(d, pc);
		c0 += step;
		n -= step;
		if (d->n_mux > 1 && c0 >= s->next_switch) {
			mux_switch(d);
			s->next_switch = c0 + d->cfg.mux_cycles;
		}
	}
	s->synced = c0;
	plan_next_stop(d);
}

/* n cycles from c0 on, all with in-order head pc: the counters when
 * something happens in them (the core counts the truth of cycles). */
static inline void advance(struct dcpi *d, uint64_t pc, uint64_t c0, uint64_t n)
{
	struct dcpi_state *s = d->s;
	s->st.cycles += n;
	s->seen = c0 + n;
	if (c0 + n - 1 >= s->next_stop || !s->started)
		advance_slow(d, pc, c0, n);
}

/* ---- observer ------------------------------------------------------------ */

static void obs_cycle(void *ctx, const struct cycle_record *r)
{
	struct dcpi *d = ctx;
	if (r->committed) {
		d->s->st.events[DCPI_RETIRED] += (uint64_t)r->committed;
		if (d->s->active_mask & 1u << DCPI_RETIRED)
			count_events(d, DCPI_RETIRED, (uint64_t)r->committed, r->cycle, 0);
	}
	advance(d, r->issue_head_pc, r->cycle, 1);
}

static void obs_idle(void *ctx, const struct cycle_record *r, uint64_t n)
{
	struct dcpi *d = ctx;
	advance(d, r->issue_head_pc, r->cycle, n);
}

static void obs_miss(void *ctx, const struct miss_event *e)
{
	struct dcpi *d = ctx;
	int ev;
	switch (e->kind) {
	case MISS_L1I: case MISS_L2I: ev = DCPI_IMISS; break;
	case MISS_L1D: case MISS_L2D: ev = DCPI_DMISS; break;
	case MISS_DTLB: ev = DCPI_DTBMISS; break;
	case MISS_MISPREDICT:
		if (!e->correct_path)
			return;
		ev = DCPI_BRANCHMP;
		break;
	default:
		return;
	}
	d->s->st.events[ev]++;
	if (d->cfg.truth_capacity) {
		struct dcpi_truth *t = truth_at(d, e->pc);
		if (t)
			t->ev[ev - DCPI_IMISS]++;
		else
			d->s->st.truth_lost++;
	}
	if (d->s->active_mask & 1u << ev)
		count_events(d, ev, 1, e->start, e->pc);
}

static size_t obs_size(void *ctx)
{
	return ((struct dcpi *)ctx)->block_size;
}

static void obs_save(void *ctx, void *blob)
{
	struct dcpi *d = ctx;
	memcpy(blob, d->block, d->block_size);
}

static void obs_restore(void *ctx, const void *blob)
{
	struct dcpi *d = ctx;
	memcpy(d->block, blob, d->block_size);
}

/* ---- life ------------------------------------------------------------------ */

static size_t align16(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

struct dcpi *dcpi_new(const struct dcpi_config *cfg, struct core *c, struct ivx_err *err)
{
	if (dcpi_config_validate(cfg, err) < 0)
		return NULL;
	if (core_count_commits(c, err) < 0 || (cfg->truth_capacity && core_count_head_cycles(c, err) < 0))
		return NULL;
	struct dcpi *d = ivx_calloc(1, sizeof *d);
	if (!d) {
		ivx_error(err, IVX_ESYS, "out of host memory (sampler)");
		return NULL;
	}
	d->cfg = *cfg;
	d->core = c;
	size_t entries = (size_t)cfg->table_buckets * DCPI_WAYS;
	size_t off_table = align16(sizeof(struct dcpi_state));
	size_t off_buf0 = off_table + entries * sizeof(struct dcpi_entry);
	size_t off_buf1 = off_buf0 + (size_t)cfg->buffer_entries * sizeof(struct dcpi_entry);
	size_t off_dkeys = off_buf1 + (size_t)cfg->buffer_entries * sizeof(struct dcpi_entry);
	size_t off_dcounts = off_dkeys + (size_t)cfg->daemon_capacity * 8;
	size_t off_tkeys = off_dcounts + (size_t)cfg->daemon_capacity * 8;
	size_t off_truth = off_tkeys + (size_t)cfg->truth_capacity * 8;
	d->block_size = off_truth + (size_t)cfg->truth_capacity * sizeof(struct dcpi_truth);
	d->block = ivx_calloc(1, d->block_size);
	if (!d->block) {
		ivx_free(d);
		ivx_error(err, IVX_ESYS, "out of host memory (sampler tables)");
		return NULL;
	}
	char *b = d->block;
	d->s = (struct dcpi_state *)b;
	d->dr = (struct dcpi_driver){
		.table = (struct dcpi_entry *)(b + off_table),
		.buf = { (struct dcpi_entry *)(b + off_buf0), (struct dcpi_entry *)(b + off_buf1) },
		.nbuckets = cfg->table_buckets, .buf_entries = cfg->buffer_entries,
		.fill = d->s->fill, .active = &d->s->active, .rr = &d->s->rr,
	};
	d->daemon_keys = (uint64_t *)(b + off_dkeys);
	d->daemon_counts = (uint64_t *)(b + off_dcounts);
	d->truth_keys = (uint64_t *)(b + off_tkeys);
	d->truth = (struct dcpi_truth *)(b + off_truth);

	/* Counters: the events in order (CYCLES first) each get one while
	 * they last; with more events than counters the last counter is
	 * shared, in slices of mux_cycles. */
	int list[DCPI_EVENT_COUNT], n = 0;
	for (int e = 0; e < DCPI_EVENT_COUNT; e++)
		if (cfg->events >> e & 1)
			list[n++] = e;
	int ded = n <= cfg->counters ? n : cfg->counters - 1;
	for (int i = 0; i < n; i++) {
		if (i < ded)
			d->dedicated[d->n_dedicated++] = list[i];
		else
			d->mux[d->n_mux++] = list[i];
	}
	struct dcpi_state *s = d->s;
	for (int i = 0; i < d->n_dedicated; i++)
		s->active_mask |= 1u << d->dedicated[i];
	if (d->n_mux)
		s->active_mask |= 1u << d->mux[0];
	for (int e = 0; e < DCPI_EVENT_COUNT; e++) {
		s->ctr[e].rng = cfg->seed * 0x100000001b3ull + (uint64_t)e * 0x632be59bd9b4e019ull;
		s->ctr[e].period = s->ctr[e].remaining = draw_period(d, e);
	}
	if (cfg->poll) {
		s->started = 1;
		s->synced = s->seen = core_cycles(c);
		if (d->n_mux > 1)
			s->next_switch = s->synced + cfg->mux_cycles;
		plan_next_stop(d);
	}
	struct core_observer obs = {
		.name = "dcpi",
		.ctx = d,
		.on_cycle = cfg->poll ? NULL : obs_cycle,
		/* A charged handler starts the cycle after its interrupt: in a
		 * run of idle cycles that would be where the run was cut (a
		 * step, a slice of continue), so such runs are not taken and
		 * every cycle comes on its own. */
		.on_idle_cycles = cfg->poll || cfg->charge ? NULL : obs_idle,
		.on_miss = obs_miss,
		.state_size = obs_size,
		.save = obs_save,
		.restore = obs_restore,
		.miss_filter = MISS_BIT(MISS_L1I) | MISS_BIT(MISS_L2I) | MISS_BIT(MISS_L1D) | MISS_BIT(MISS_L2D) |
			       MISS_BIT(MISS_DTLB) | MISS_BIT(MISS_MISPREDICT),
	};
	if (!cfg->truth_capacity) {
		/* no truth: only the misses of the sampled events */
		uint32_t f = 0;
		if (cfg->events >> DCPI_IMISS & 1)
			f |= MISS_BIT(MISS_L1I) | MISS_BIT(MISS_L2I);
		if (cfg->events >> DCPI_DMISS & 1)
			f |= MISS_BIT(MISS_L1D) | MISS_BIT(MISS_L2D);
		if (cfg->events >> DCPI_DTBMISS & 1)
			f |= MISS_BIT(MISS_DTLB);
		if (cfg->events >> DCPI_BRANCHMP & 1)
			f |= MISS_BIT(MISS_MISPREDICT);
		obs.miss_filter = f;
		if (!f)
			obs.on_miss = NULL;
	}
	obs.miss_skip_end = obs.miss_filter;
	if (core_add_observer(c, &obs, err) < 0) {
		dcpi_free(d);
		return NULL;
	}
	return d;
}

void dcpi_free(struct dcpi *d)
{
	if (!d)
		return;
	ivx_free(d->block);
	ivx_free(d);
}

uint64_t dcpi_poll_target(const struct dcpi *d)
{
	return d->s->next_stop == UINT64_MAX ? UINT64_MAX : d->s->next_stop + 1;
}

void dcpi_poll(struct dcpi *d)
{
	struct dcpi_state *s = d->s;
	uint64_t now = core_cycles(d->core);
	if (now <= s->seen)
		return;
	s->st.cycles += now - s->seen;
	uint64_t from = s->seen;
	s->seen = now;
	advance_slow(d, core_issue_head_pc(d->core), from, now - from);
}

const struct dcpi_config *dcpi_config(const struct dcpi *d)
{
	return &d->cfg;
}

void dcpi_set_sample_hook(struct dcpi *d, dcpi_sample_fn fn, void *ctx)
{
	d->hook = fn;
	d->hook_ctx = ctx;
}

void dcpi_flush(struct dcpi *d)
{
	struct dcpi_state *s = d->s;
	size_t entries = (size_t)d->cfg.table_buckets * DCPI_WAYS;
	uint64_t n = 0;
	for (size_t i = 0; i < entries; i++) {
		struct dcpi_entry *e = &d->dr.table[i];
		if (!e->count)
			continue;
		daemon_add(d, e->pc, e->event, e->count);
		memset(e, 0, sizeof *e);
		n++;
	}
	s->st.table_flushes++;
	s->st.drained_entries += n;
	s->st.daemon_cycles += n * d->cfg.cost_drain_entry;
	for (int b = 0; b < 2; b++)
		if (s->fill[b])
			daemon_drain(d, b);
}

void dcpi_finish(struct dcpi *d)
{
	if (d->s->finished)
		return;
	d->s->finished = 1;
	dcpi_flush(d);
}

int dcpi_finished(const struct dcpi *d)
{
	return d->s->finished;
}

/* ---- getters ------------------------------------------------------------- */

/* Cycles observed but not yet accounted to the counters. */
static uint64_t unsynced(const struct dcpi_state *s)
{
	return s->started && s->seen > s->synced ? s->seen - s->synced : 0;
}

void dcpi_get_stats(const struct dcpi *d, struct dcpi_stats *out)
{
	*out = d->s->st;
	out->truth_lost += d->cfg.truth_capacity ? core_head_cycles_outside(d->core) : 0;
	uint64_t lag = unsynced(d->s);
	for (uint32_t m = d->s->active_mask; m && lag; m &= m - 1)
		out->enabled_cycles[__builtin_ctz(m)] += lag;
	out->events[DCPI_CYCLES] = out->cycles;
	out->buffer_fill[0] = d->s->fill[0];
	out->buffer_fill[1] = d->s->fill[1];
	out->active_buffer = (int)d->s->active;
	out->rr = d->s->rr;
}

double dcpi_overhead_pct(const struct dcpi *d)
{
	const struct dcpi_stats *st = &d->s->st;
	return st->cycles ? 100.0 * (double)(st->handler_cycles + st->daemon_cycles) / (double)st->cycles : 0.0;
}

int dcpi_last_sample(const struct dcpi *d, struct dcpi_sample *out)
{
	if (!d->s->st.samples_total)
		return 0;
	*out = d->s->last;
	return 1;
}

int dcpi_counter_count(const struct dcpi *d)
{
	return d->n_dedicated + (d->n_mux > 0);
}

int dcpi_counter_at(const struct dcpi *d, int i, struct dcpi_counter_view *out)
{
	if (i < 0 || i >= dcpi_counter_count(d))
		return -1;
	int ev = i < d->n_dedicated ? d->dedicated[i] : d->mux[d->s->mux_idx];
	const struct dcpi_ctr *k = &d->s->ctr[ev];
	uint64_t remaining = k->remaining - (ev == DCPI_CYCLES ? unsynced(d->s) : 0);
	*out = (struct dcpi_counter_view){
		.event = ev, .n_mux = i < d->n_dedicated ? 1 : d->n_mux,
		.value = k->period - remaining, .period = k->period, .to_overflow = remaining,
	};
	return 0;
}

int dcpi_pending_count(const struct dcpi *d)
{
	return (int)d->s->pend_n;
}

int dcpi_pending_at(const struct dcpi *d, int i, int *event, uint64_t *deliver_cycle, uint64_t *cause_pc)
{
	if (i < 0 || (uint32_t)i >= d->s->pend_n)
		return -1;
	const struct dcpi_pend *p = &d->s->pend[(d->s->pend_head + (uint32_t)i) % DCPI_MAX_PENDING];
	*event = p->event;
	*deliver_cycle = p->deliver;
	*cause_pc = p->cause_pc;
	return 0;
}

uint32_t dcpi_table_buckets(const struct dcpi *d)
{
	return d->cfg.table_buckets;
}

int dcpi_bucket_used(const struct dcpi *d, uint32_t b)
{
	if (b >= d->cfg.table_buckets)
		return 0;
	int n = 0;
	for (int w = 0; w < DCPI_WAYS; w++)
		n += d->dr.table[(size_t)b * DCPI_WAYS + (size_t)w].count != 0;
	return n;
}

int dcpi_bucket_entry(const struct dcpi *d, uint32_t b, int w, struct dcpi_entry *out)
{
	if (b >= d->cfg.table_buckets || w < 0 || w >= DCPI_WAYS)
		return -1;
	*out = d->dr.table[(size_t)b * DCPI_WAYS + (size_t)w];
	return 0;
}

int dcpi_buffer_entry(const struct dcpi *d, int buf, uint32_t i, struct dcpi_entry *out)
{
	if (buf < 0 || buf > 1 || i >= d->s->fill[buf])
		return -1;
	*out = d->dr.buf[buf][i];
	return 0;
}

size_t dcpi_profile_size(const struct dcpi *d)
{
	return d->cfg.daemon_capacity;
}

int dcpi_profile_at(const struct dcpi *d, size_t i, uint64_t *pc, int *event, uint64_t *samples)
{
	if (i >= d->cfg.daemon_capacity || !d->daemon_keys[i])
		return -1;
	uint64_t k = d->daemon_keys[i] - 1;
	*pc = k >> 3;
	*event = (int)(k & 7);
	*samples = d->daemon_counts[i];
	return 0;
}

size_t dcpi_truth_size(const struct dcpi *d)
{
	return d->cfg.truth_capacity;
}

int dcpi_truth_at(const struct dcpi *d, size_t i, struct dcpi_truth *out)
{
	if (i >= d->cfg.truth_capacity || !d->truth_keys[i])
		return -1;
	*out = d->truth[i];
	out->cycles = core_head_cycles_at(d->core, out->pc);
	return 0;
}

uint64_t dcpi_truth_cycles_at(const struct dcpi *d, uint64_t pc)
{
	return d->cfg.truth_capacity ? core_head_cycles_at(d->core, pc) : 0;
}

uint64_t dcpi_truth_count(const struct dcpi *d, const struct dcpi_truth *t, int ev)
{
	if (ev == DCPI_CYCLES)
		return core_head_cycles_at(d->core, t->pc);
	if (ev == DCPI_RETIRED)
		return core_commits_at(d->core, t->pc);
	return ev > DCPI_CYCLES && ev < DCPI_RETIRED ? t->ev[ev - DCPI_IMISS] : 0;
}
