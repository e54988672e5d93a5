/*
 * attrib.c — the oracle and the five sampling policies of attrib.h as one
 * core observer.
 *
 * Within a cycle the core publishes, in this order: commit events (oldest
 * first), the misprediction event's end (first correct-path dispatch after
 * a redirect), dispatch events, then the cycle record. The instruction
 * events only fill this cycle's scratch (the pcs committed, the first pc
 * dispatched, the first correct-path pc dispatched); everything is decided
 * in cycle(), which handles n identical cycles at once (n = 1 from
 * on_cycle, the run length from on_idle_cycles):
 *
 *   state at the commit stage      who gets the cycle (oracle and TIP)
 *   -------------------------      -----------------------------------
 *   r->committed > 0               the committed pcs, 1/n each
 *   ROB was not empty              the head (r->head_pc), by head_wait
 *   ROB empty, flush in progress   the mispredicted branch
 *   ROB empty otherwise            pending, to the next correct-path dispatch
 *
 * "ROB was not empty" reads the previous record's rob_occupancy: the commit
 * stage runs first in a cycle, so it saw what the last cycle left. A flush
 * is in progress from a correct-path misprediction event's begin (the
 * branch's dispatch) to its end; an empty ROB during it means the branch
 * has resolved and committed, and the cycle of the end itself still
 * counts (the commit stage saw the ROB empty before that dispatch).
 *
 * The sampled policies take the same decisions only at sample cycles;
 * policies that look forward (nci, dispatch, tip when drained) keep a
 * count of samples waiting for the next commit / dispatch.
 *
 * State: struct attrib_state followed by the pc table (open addressing,
 * linear probing, pc 0 = empty), one block saved and restored whole.
 */
#include <string.h>
#include "base/alloc.h"
#include "base/mix.h"
#include "attrib.h"

static const char *const policy_names[ATTRIB_POLICY_COUNT] = { "head", "nci", "dispatch", "lci", "tip" };
static const char *const cause_names[ATTRIB_CAUSE_COUNT] = {
	"base", "l1i", "l2i", "itlb", "l1d", "l2d", "dtlb", "bpred", "fu", "other",
};

const char *attrib_policy_name(int p)
{
	return p >= 0 && p < ATTRIB_POLICY_COUNT ? policy_names[p] : "?";
}

const char *attrib_cause_name(int c)
{
	return c >= 0 && c < ATTRIB_CAUSE_COUNT ? cause_names[c] : "?";
}

void attrib_config_defaults(struct attrib_config *c)
{
	memset(c, 0, sizeof *c);
	c->period = 1024;
	c->delta = 64;
	c->seed = 1;
	c->capacity = 65536;
	c->commit_width = 4;
}

int attrib_config_validate(const struct attrib_config *c, struct ivx_err *err)
{
	if (c->period < 1)
		return ivx_error(err, IVX_EUSAGE, "attrib: the period must be at least 1 cycle");
	if (c->delta >= c->period)
		return ivx_error(err, IVX_EUSAGE, "attrib: the period's spread (%llu) must be less than the period (%llu)",
				 (unsigned long long)c->delta, (unsigned long long)c->period);
	if (c->capacity < 16 || (c->capacity & (c->capacity - 1)) || c->capacity > (1u << 24))
		return ivx_error(err, IVX_EUSAGE, "attrib: capacity must be a power of two in 16..16M");
	if (c->commit_width < 1 || c->commit_width > CYCLE_MAX_COMMIT)
		return ivx_error(err, IVX_EUSAGE, "attrib: commit width must be 1..%d", CYCLE_MAX_COMMIT);
	return IVX_OK;
}

#define ATTRIB_SLOT_CACHE 256

struct attrib_state {
	uint64_t unit;              /* units per cycle */
	uint64_t rng;               /* splitmix64 state of the period generator */
	uint64_t next_sample;       /* the next sampled cycle */
	int started;                /* a cycle has been seen (next_sample is set) */
	int finished;
	int prev_occ;               /* ROB occupancy the last cycle left */
	int drain_cause;            /* cause latched in the current ROB-empty episode */
	/* the misprediction being recovered from (the TIP paper's offending
	 * instruction register) */
	uint64_t oir_pc;
	int oir_active;             /* its event has begun and not ended */
	uint64_t oir_begin;         /* the cycle it began (the branch's dispatch) */
	uint64_t ended_pc;          /* the last one whose event ended ... */
	uint64_t ended_cycle;       /* ... and that cycle + 1 (0: none) */
	/* waiting for the next correct-path dispatch (drained cycles) */
	uint64_t drain_pending[ATTRIB_CAUSE_COUNT];  /* oracle units */
	int draining;               /* some drained cycles are pending */
	uint64_t tip_pending[ATTRIB_MODE_COUNT];     /* TIP samples */
	uint64_t nci_pending[ATTRIB_MODE_COUNT];     /* samples waiting for a commit */
	uint64_t disp_pending[ATTRIB_MODE_COUNT];    /* samples waiting for a dispatch */
	uint64_t last_commit_pc;    /* 0 before the first commit */
	/* this cycle's instruction events */
	int n_commit;
	int disp_seen, disp_wrong, cdisp_seen;
	uint64_t disp_pc, cdisp_pc;
	uint64_t commit_pc[CYCLE_MAX_COMMIT];
	struct attrib_stats st;
	uint32_t used;              /* rows in use */
	uint32_t slot_cache[ATTRIB_SLOT_CACHE]; /* direct-mapped by pc: a slot that may hold it */
};

struct attrib {
	struct attrib_config cfg;
	struct core_observer obs;
	struct attrib_state *s;     /* the block: state, then the table */
	struct attrib_row *rows;    /* cfg.capacity slots inside the block */
	size_t bytes;               /* the block's size */
};

static uint64_t draw_period(struct attrib *a)
{
	uint64_t span = a->cfg.delta + 1;
	return a->cfg.period - splitmix64(&a->s->rng) % span;
}

/* The row for pc, created if new; NULL if pc is 0 or the table is full. */
static struct attrib_row *row_for(struct attrib *a, uint64_t pc)
{
	struct attrib_state *s = a->s;
	if (!pc)
		return NULL;
	uint32_t *hint = &s->slot_cache[(pc >> 2) & (ATTRIB_SLOT_CACHE - 1)];
	if (a->rows[*hint].pc == pc)
		return &a->rows[*hint];
	uint32_t mask = a->cfg.capacity - 1;
	uint32_t i = (uint32_t)((pc >> 2) * 0x9e3779b97f4a7c15ull >> 40) & mask;
	for (uint32_t probes = 0; probes <= mask; probes++, i = (i + 1) & mask) {
		if (a->rows[i].pc == pc) {
			*hint = i;
			return &a->rows[i];
		}
		if (!a->rows[i].pc) {
			/* at most 3/4 full, so that probes stay short */
			if (s->used >= a->cfg.capacity / 4 * 3)
				return NULL;
			s->used++;
			a->rows[i].pc = pc;
			*hint = i;
			return &a->rows[i];
		}
	}
	return NULL;
}

static void give_oracle(struct attrib *a, uint64_t pc, int cause, uint64_t units)
{
	if (!units)
		return;
	struct attrib_row *r = row_for(a, pc);
	if (!r) {
		a->s->st.lost += units;
		return;
	}
	r->cause[cause] += units;
	a->s->st.oracle_units += units;
	a->s->st.cause_units[cause] += units;
}

static void give_est(struct attrib *a, int mode, int pol, uint64_t pc, uint64_t units)
{
	if (!units)
		return;
	struct attrib_row *r = row_for(a, pc);
	if (!r) {
		a->s->st.lost_est += units;
		return;
	}
	r->est[mode][pol] += units;
	a->s->st.est_units[mode][pol] += units;
}

static int wait_cause(const struct cycle_record *r)
{
	switch (r->head_wait) {
	case HEAD_L1D: return ATTRIB_L1D;
	case HEAD_L2D: return ATTRIB_L2D;
	case HEAD_DTLB: return ATTRIB_DTLB;
	case HEAD_LONG_LATENCY: return ATTRIB_FU;
	case HEAD_STORE: return r->long_misses_outstanding ? ATTRIB_L2D : ATTRIB_L1D;
	case HEAD_EXECUTING: return ATTRIB_BASE;
	default: return ATTRIB_OTHER;   /* not committing for no reason of its own */
	}
}

/* The cause of an empty-ROB cycle: what fetch waits on, else what it last
 * waited on in this episode (the refill after an I-miss is the miss's). */
static int drain_cause(struct attrib_state *s, int fetch_stall)
{
	switch (fetch_stall) {
	case FETCH_STALL_L1I: s->drain_cause = ATTRIB_L1I; break;
	case FETCH_STALL_L2I: s->drain_cause = ATTRIB_L2I; break;
	case FETCH_STALL_ITLB: s->drain_cause = ATTRIB_ITLB; break;
	case FETCH_STALL_REDIRECT: s->drain_cause = ATTRIB_BPRED; break;
	case FETCH_STALL_OTHER: s->drain_cause = ATTRIB_OTHER; break;
	default: break;
	}
	return s->drain_cause;
}

/* n cycles in which the same instructions commit (n is 1 from the core):
 * each gets its share in the oracle and, with w[m] samples, in TIP (the
 * oldest gets the remainder of an uneven split). One lookup per
 * instruction: the hot path. */
static void computing_cycles(struct attrib *a, uint64_t n_cycles, const uint64_t w[ATTRIB_MODE_COUNT])
{
	struct attrib_state *s = a->s;
	int n = s->n_commit;
	uint64_t each = s->unit / (uint64_t)n, rem = s->unit % (uint64_t)n;
	for (int i = 0; i < n; i++) {
		uint64_t u = each + (i ? 0 : rem);
		struct attrib_row *r = row_for(a, s->commit_pc[i]);
		if (!r) {
			s->st.lost += u * n_cycles;
			s->st.lost_est += u * (w[ATTRIB_SAMPLED] + w[ATTRIB_EVERY]);
			continue;
		}
		r->cause[ATTRIB_BASE] += u * n_cycles;
		s->st.oracle_units += u * n_cycles;
		s->st.cause_units[ATTRIB_BASE] += u * n_cycles;
		for (int m = 0; m < ATTRIB_MODE_COUNT; m++) {
			r->est[m][ATTRIB_TIP] += u * w[m];
			s->st.est_units[m][ATTRIB_TIP] += u * w[m];
		}
	}
}

/* n cycles like r (n > 1 only for idle runs: nothing committed or dispatched). */
static void cycle(struct attrib *a, const struct cycle_record *r, uint64_t n)
{
	struct attrib_state *s = a->s;
	uint64_t U = s->unit;
	if (!s->started) {
		s->started = 1;
		s->next_sample = r->cycle - 1 + draw_period(a);
	}
	uint64_t w[ATTRIB_MODE_COUNT] = { 0, n };
	uint64_t last = r->cycle + n - 1;
	while (s->next_sample <= last) {
		w[ATTRIB_SAMPLED]++;
		s->next_sample += draw_period(a);
	}
	s->st.cycles += n;
	s->st.sample_cycles += w[ATTRIB_SAMPLED];
	int committed = s->n_commit > 0;

	/* the oracle, and TIP at the sampled cycles */
	if (committed) {
		computing_cycles(a, n, w);
	} else if (s->prev_occ > 0) {
		give_oracle(a, r->head_pc, wait_cause(r), n * U);
		for (int m = 0; m < ATTRIB_MODE_COUNT; m++)
			give_est(a, m, ATTRIB_TIP, r->head_pc, w[m] * U);
	} else if (s->ended_cycle == r->cycle + 1 || (s->oir_active && s->oir_begin < r->cycle)) {
		uint64_t br = s->ended_cycle == r->cycle + 1 ? s->ended_pc : s->oir_pc;
		give_oracle(a, br, ATTRIB_BPRED, n * U);
		for (int m = 0; m < ATTRIB_MODE_COUNT; m++)
			give_est(a, m, ATTRIB_TIP, br, w[m] * U);
	} else {
		s->drain_pending[drain_cause(s, r->fetch_stall)] += n * U;
		s->draining = 1;
		for (int m = 0; m < ATTRIB_MODE_COUNT; m++)
			s->tip_pending[m] += w[m];
	}
	if (s->cdisp_seen && s->draining) {
		s->draining = 0;
		for (int k = 0; k < ATTRIB_CAUSE_COUNT; k++) {
			give_oracle(a, s->cdisp_pc, k, s->drain_pending[k]);
			s->drain_pending[k] = 0;
		}
		for (int m = 0; m < ATTRIB_MODE_COUNT; m++) {
			give_est(a, m, ATTRIB_TIP, s->cdisp_pc, s->tip_pending[m] * U);
			s->tip_pending[m] = 0;
		}
	}

	for (int m = 0; m < ATTRIB_MODE_COUNT; m++) {
		/* head: the oldest unretired, as the DCPI sampler reads it */
		give_est(a, m, ATTRIB_HEAD, r->issue_head_pc, w[m] * U);
		/* nci: the oldest instruction committing now or later */
		s->nci_pending[m] += w[m];
		if (committed) {
			give_est(a, m, ATTRIB_NCI, s->commit_pc[0], s->nci_pending[m] * U);
			s->nci_pending[m] = 0;
		}
		/* dispatch: the first instruction entering the ROB now or later */
		s->disp_pending[m] += w[m];
		if (s->disp_seen) {
			if (s->disp_wrong)
				s->st.dropped[m][ATTRIB_DISPATCH] += s->disp_pending[m];
			else
				give_est(a, m, ATTRIB_DISPATCH, s->disp_pc, s->disp_pending[m] * U);
			s->disp_pending[m] = 0;
		}
		/* lci: the youngest instruction committed by now */
		uint64_t lci = committed ? s->commit_pc[s->n_commit - 1] : s->last_commit_pc;
		if (lci)
			give_est(a, m, ATTRIB_LCI, lci, w[m] * U);
		else
			s->st.dropped[m][ATTRIB_LCI] += w[m];
	}

	if (committed)
		s->last_commit_pc = s->commit_pc[s->n_commit - 1];
	s->st.commits += (uint64_t)s->n_commit;
	s->prev_occ = r->rob_occupancy;
	if (r->rob_occupancy > 0)
		s->drain_cause = ATTRIB_BASE;
	s->n_commit = 0;
	s->disp_seen = s->cdisp_seen = 0;
}

static void on_insn(void *ctx, const struct insn_event *e)
{
	struct attrib *a = ctx;
	struct attrib_state *s = a->s;
	if (e->stage == INSN_COMMIT) {
		if (s->n_commit < CYCLE_MAX_COMMIT)
			s->commit_pc[s->n_commit++] = e->pc;
	} else if (e->stage == INSN_DISPATCH) {
		if (!s->disp_seen) {
			s->disp_seen = 1;
			s->disp_pc = e->pc;
			s->disp_wrong = e->wrong_path;
		}
		if (!s->cdisp_seen && !e->wrong_path) {
			s->cdisp_seen = 1;
			s->cdisp_pc = e->pc;
		}
	}
}

static void on_miss(void *ctx, const struct miss_event *e)
{
	struct attrib *a = ctx;
	struct attrib_state *s = a->s;
	if (e->kind != MISS_MISPREDICT || !e->correct_path)
		return;
	if (e->phase == MISS_BEGIN) {
		/* a branch dispatched into an empty ROB does not make this cycle
		 * a flushed one: the flush starts after it (oir_begin) */
		s->oir_pc = e->pc;
		s->oir_active = 1;
		s->oir_begin = e->start;
		s->st.flushes++;
	} else if (s->oir_active) {
		s->oir_active = 0;
		s->ended_pc = s->oir_pc;
		s->ended_cycle = e->end + 1;
	}
}

static void on_cycle(void *ctx, const struct cycle_record *r)
{
	cycle(ctx, r, 1);
}

static void on_idle_cycles(void *ctx, const struct cycle_record *r, uint64_t n)
{
	if (n)
		cycle(ctx, r, n);
}

static size_t state_size(void *ctx)
{
	return ((struct attrib *)ctx)->bytes;
}

static void save(void *ctx, void *blob)
{
	struct attrib *a = ctx;
	memcpy(blob, a->s, a->bytes);
}

static void restore(void *ctx, const void *blob)
{
	struct attrib *a = ctx;
	memcpy(a->s, blob, a->bytes);
}

static uint64_t lcm_upto(uint32_t w)
{
	uint64_t l = 1;
	for (uint64_t k = 2; k <= w && k <= 16; k++) {
		uint64_t x = l, y = k;
		while (y) {
			uint64_t t = x % y;
			x = y;
			y = t;
		}
		l = l / x * k;
	}
	return l;
}

struct attrib *attrib_new(const struct attrib_config *cfg, struct ivx_err *err)
{
	if (attrib_config_validate(cfg, err) < 0)
		return NULL;
	struct attrib *a = ivx_calloc(1, sizeof *a);
	size_t head = (sizeof(struct attrib_state) + 63) & ~(size_t)63;
	size_t bytes = head + (size_t)cfg->capacity * sizeof(struct attrib_row);
	void *blk = a ? ivx_calloc(1, bytes) : NULL;
	if (!blk) {
		ivx_free(a);
		ivx_error(err, IVX_ESYS, "attrib: out of memory for %u instructions", cfg->capacity);
		return NULL;
	}
	a->cfg = *cfg;
	a->s = blk;
	a->rows = (struct attrib_row *)((char *)blk + head);
	a->bytes = bytes;
	a->s->unit = lcm_upto(cfg->commit_width);
	a->s->rng = cfg->seed * 0x100000001b3ull + 0x5851f42d4c957f2dull;
	a->obs = (struct core_observer){
		.name = "attrib",
		.ctx = a,
		.on_insn = on_insn,
		.on_miss = on_miss,
		.on_cycle = on_cycle,
		.on_idle_cycles = on_idle_cycles,
		.state_size = state_size,
		.save = save,
		.restore = restore,
		.insn_filter = 0,
		.insn_stages = INSN_STAGE_BIT(INSN_DISPATCH) | INSN_STAGE_BIT(INSN_COMMIT),
		.miss_filter = MISS_BIT(MISS_MISPREDICT),
	};
	return a;
}

struct attrib *attrib_attach(const struct attrib_config *cfg, struct core *c, struct ivx_err *err)
{
	struct attrib_config k = *cfg;
	k.commit_width = core_config(c)->commit_width;
	struct attrib *a = attrib_new(&k, err);
	if (a && core_add_observer(c, &a->obs, err) < 0) {
		attrib_free(a);
		return NULL;
	}
	return a;
}

void attrib_free(struct attrib *a)
{
	if (!a)
		return;
	ivx_free(a->s);
	ivx_free(a);
}

const struct core_observer *attrib_observer(const struct attrib *a) { return &a->obs; }
const struct attrib_config *attrib_get_config(const struct attrib *a) { return &a->cfg; }
uint64_t attrib_unit(const struct attrib *a) { return a->s->unit; }

void attrib_finish(struct attrib *a)
{
	struct attrib_state *s = a->s;
	if (s->finished)
		return;
	s->finished = 1;
	for (int k = 0; k < ATTRIB_CAUSE_COUNT; k++) {
		s->st.oracle_unattributed += s->drain_pending[k];
		s->drain_pending[k] = 0;
	}
	for (int m = 0; m < ATTRIB_MODE_COUNT; m++) {
		s->st.dropped[m][ATTRIB_TIP] += s->tip_pending[m];
		s->st.dropped[m][ATTRIB_NCI] += s->nci_pending[m];
		s->st.dropped[m][ATTRIB_DISPATCH] += s->disp_pending[m];
		s->tip_pending[m] = s->nci_pending[m] = s->disp_pending[m] = 0;
	}
}

void attrib_get_stats(const struct attrib *a, struct attrib_stats *out)
{
	*out = a->s->st;
}

size_t attrib_rows(const struct attrib *a) { return a->s->used; }

int attrib_row_at(const struct attrib *a, size_t i, struct attrib_row *out)
{
	for (uint32_t k = 0; k < a->cfg.capacity; k++)
		if (a->rows[k].pc && i-- == 0) {
			*out = a->rows[k];
			return 0;
		}
	return -1;
}

size_t attrib_rows_copy(const struct attrib *a, struct attrib_row *out, size_t max)
{
	size_t n = 0;
	for (uint32_t k = 0; k < a->cfg.capacity && n < max; k++)
		if (a->rows[k].pc)
			out[n++] = a->rows[k];
	return n;
}

int attrib_row_of(const struct attrib *a, uint64_t pc, struct attrib_row *out)
{
	uint32_t mask = a->cfg.capacity - 1;
	uint32_t i = (uint32_t)((pc >> 2) * 0x9e3779b97f4a7c15ull >> 40) & mask;
	for (uint32_t probes = 0; pc && probes <= mask && a->rows[i].pc; probes++, i = (i + 1) & mask)
		if (a->rows[i].pc == pc) {
			*out = a->rows[i];
			return 0;
		}
	return -1;
}

uint64_t attrib_row_true(const struct attrib_row *r)
{
	uint64_t t = 0;
	for (int k = 0; k < ATTRIB_CAUSE_COUNT; k++)
		t += r->cause[k];
	return t;
}

int attrib_error(const struct attrib *a, int mode, int policy, double *tv, double *rel)
{
	const struct attrib_state *s = a->s;
	double est_total = (double)s->st.est_units[mode][policy];
	double true_total = (double)s->st.cycles * (double)s->unit;
	*tv = *rel = 1.0;
	if (est_total <= 0 || true_total <= 0)
		return -1;
	double sum = 0, hot_diff = 0, hot_true = 0;
	for (uint32_t k = 0; k < a->cfg.capacity; k++) {
		const struct attrib_row *r = &a->rows[k];
		if (!r->pc)
			continue;
		double t = (double)attrib_row_true(r) / true_total;
		double e = (double)r->est[mode][policy] / est_total;
		double d = e > t ? e - t : t - e;
		sum += d;
		if (t >= 0.01) {
			hot_diff += d;
			hot_true += t;
		}
	}
	/* cycles the oracle could not place count as misplaced by everyone */
	sum += (double)(s->st.oracle_unattributed + s->st.lost) / true_total;
	*tv = sum / 2;
	*rel = hot_true > 0 ? hot_diff / hot_true : 0.0;
	return 0;
}
