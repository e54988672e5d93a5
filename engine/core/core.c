/*
 * core.c — the core model's skeleton: creation, the cycle loop, commit,
 * the state-based miss events, statistics and observers.
 *
 * One cycle runs the stages back to front so each sees what the others
 * left at the end of the previous cycle (ChampSim's operate() order):
 *
 *   commit     retire up to commit_width done instructions from the ROB head
 *              (stores write the D-cache here and begin the miss events of
 *              their misses, which end when the line is filled; branches
 *              train the predictor)
 *   writeback  instructions whose latency ran out complete; their consumers
 *              wake up; a mispredicted branch resolves and squashes
 *   issue      oldest-first (or in order) to the functional units
 *   dispatch   frontend -> ROB/IQ/LSQ with renaming
 *   fetch      one I-cache access per block, predict, step the guest
 *
 * then the cycle's summary (cycle_record) and the state-based events
 * (rob_empty, rob_full, fu_stall) are published. The stage functions live
 * in core_fetch.c and core_backend.c.
 */
#include <stdio.h>
#include <string.h>
#include "base/alloc.h"
#include "core_internal.h"
#include "isa/disasm.h"
#include "isa/mem.h"
#include "guest/program.h"

static uint32_t pow2_at_least(uint32_t n)
{
	uint32_t p = 1;
	while (p < n)
		p <<= 1;
	return p;
}

/* Carve the arrays out of one allocation, so snapshots are one memcpy. */
static size_t layout(struct core *c, char *base)
{
	size_t off = 0;
#define CARVE(ptr, type, count)                                                   \
	do {                                                                      \
		off = (off + 63) & ~(size_t)63;                                   \
		if (base)                                                         \
			c->ptr = (type *)(void *)(base + off);                    \
		off += sizeof(type) * (size_t)(count);                            \
	} while (0)
	CARVE(ring, struct core_insn, c->ring_size);
	CARVE(preds, struct bpred_prediction, c->ring_size);
	CARVE(dmiss, struct core_dmiss, c->ring_size);
	CARVE(edges, int32_t, c->ring_size * 4);
	CARVE(ready, uint64_t, c->ready_words);
	CARVE(wheel, int32_t, CORE_WHEEL_SIZE);
	CARVE(sq, uint64_t, c->sq_size);
	CARVE(div_free, uint64_t, c->cfg.div_units ? c->cfg.div_units : 1);
	CARVE(fdiv_free, uint64_t, c->cfg.fdiv_units ? c->cfg.fdiv_units : 1);
#undef CARVE
	return off;
}

static void reset_state(struct core *c)
{
	memset(c->block, 0, c->block_bytes);
	for (uint32_t i = 0; i < CORE_WHEEL_SIZE; i++)
		c->wheel[i] = CORE_NIL;
	memset(&c->s, 0, sizeof c->s);
	c->s.next_seq = 1;
	c->s.next_event_id = 1;
	c->s.smiss_next_end = UINT64_MAX;
	c->s.cc.rob_size = (int)c->cfg.rob_size;   /* never changes */
}

struct core *core_new(const struct machine_config *cfg, struct guest *g, struct ivx_err *err)
{
	if (config_validate(cfg, err) < 0)
		return NULL;
	struct core *c = ivx_calloc(1, sizeof *c);
	if (!c) {
		ivx_error(err, IVX_ESYS, "out of host memory");
		return NULL;
	}
	c->cfg = *cfg;
	c->g = g;
	c->depth = cfg->frontend_depth ? cfg->frontend_depth : 1;
	/* the pipe stages hold a dispatch group each, plus the fetch buffer */
	c->fe_capacity = c->depth * cfg->decode_width + cfg->fetch_buffer;
	c->ring_size = pow2_at_least(cfg->rob_size + c->fe_capacity + 1);
	if (c->ring_size < 64)
		c->ring_size = 64;
	c->ring_mask = c->ring_size - 1;
	c->ready_words = c->ring_size / 64;
	c->sq_size = pow2_at_least(cfg->lsq_size ? cfg->lsq_size : 1);
	c->line_mask = ~(uint64_t)(cfg->l1i.line - 1);
	if (cfg->mul_latency >= cfg->long_latency_threshold)
		c->long_classes |= 1u << UOP_MUL;
	if (cfg->div_latency >= cfg->long_latency_threshold)
		c->long_classes |= 1u << UOP_DIV;
	if (cfg->fp_latency >= cfg->long_latency_threshold)
		c->long_classes |= 1u << UOP_FP;
	if (cfg->fma_latency >= cfg->long_latency_threshold)
		c->long_classes |= 1u << UOP_FMA;
	if (cfg->fdiv_latency >= cfg->long_latency_threshold)
		c->long_classes |= 1u << UOP_FDIV;
	if (cfg->simd_latency >= cfg->long_latency_threshold)
		c->long_classes |= 1u << UOP_SIMD;
	c->fetch_more = core_fetch_more(0);
	c->block_bytes = layout(c, NULL);
	c->block = ivx_aligned_alloc(64, (c->block_bytes + 63) & ~(size_t)63);
	if (!c->block) {
		ivx_free(c);
		ivx_error(err, IVX_ESYS, "out of host memory");
		return NULL;
	}
	layout(c, c->block);
	if (core_smiss_reserve(c, 2 * (cfg->l1d.mshrs + cfg->commit_width)) < 0) {
		core_free(c);
		ivx_error(err, IVX_ESYS, "out of host memory");
		return NULL;
	}
	c->ms = memsys_new(&c->cfg, err);
	c->bp = c->ms ? bpred_new(&c->cfg, err) : NULL;
	if (!c->bp) {
		core_free(c);
		return NULL;
	}
	reset_state(c);
	guest_cpu(g)->ctr_el0 = config_ctr_el0(cfg);
	/* the guest's clock ran at 1 ns per instruction so far: go on from there */
	c->s.time_base = guest_insns(g);
	return c;
}

void core_free(struct core *c)
{
	if (!c)
		return;
	memsys_free(c->ms);
	bpred_free(c->bp);
	ivx_free(c->block);
	ivx_free(c->smiss);
	ivx_free(c->commit_counts);
	ivx_free(c->head_counts);
	ivx_free(c->taken_counts);
	ivx_free(c);
}

/* ---- observers and events --------------------------------------------- */

/* The ev_bits an instruction filter (INSN_WANT_* bits; 0 = all) selects. */
static uint32_t ev_mask(uint32_t f)
{
	if (!f)
		return CORE_EV_ANY;
	uint32_t classes = f & INSN_WANT_CLASSES;
	return f & INSN_WANT_CORRECT_PATH ? CORE_EV_CP(classes) : classes;
}

/* The parts of this cycle's record that only cycle subscribers read
 * (publish_cycle, and quiet_until for them): without one, the stages do
 * not fill them in and cycle() does not reset them. */
static inline void reset_record_extra(struct cycle_record *cc)
{
	cc->branches_fetched = 0;
	cc->rob_full_wrong_path = 0;
	cc->head_wait = HEAD_NONE;
}

/* Rebuild the per-callback subscriber lists and the union of the
 * instruction filters. */
static void update_wants(struct core *c)
{
	core_flush_idle(c);
	int had_cycle_sub = c->n_cycle_sub;
	/* The same cycle subscribers afterwards (the explorer re-attaches its
	 * breakpoints before every run forward) keep the last record and a run
	 * of idle cycles going: where a user stops must not change what an
	 * observer is handed after it. */
	struct core_sub old_cycle_sub[CORE_MAX_OBSERVERS];
	memcpy(old_cycle_sub, c->cycle_sub, (size_t)had_cycle_sub * sizeof *old_cycle_sub);
	int old_cc_current = c->cc_current, old_idle_repeatable = c->idle_repeatable;
	c->cc_current = 0;
	c->idle_repeatable = 0;
	c->n_insn_sub = c->n_cycle_sub = c->n_head_sub = c->n_taken_sub = c->n_commit_sub = 0;
	c->commit_from = 0;
	memset(c->insn_want, 0, sizeof c->insn_want);
	c->keep_load_values = 0;
	c->miss_mask = c->miss_end_mask = 0;
	memset(c->n_miss_takers, 0, sizeof c->n_miss_takers);
	for (int i = 0; i < c->n_obs; i++) {
		const struct core_observer *o = &c->obs[i];
		if (o->on_insn) {
			int per_stage = 0;
			for (int st = 0; st < INSN_STAGE_COUNT; st++)
				per_stage |= o->insn_filter_at[st] != 0;
			struct core_sub *sub = &c->insn_sub[c->n_insn_sub++];
			*sub = (struct core_sub){ .ctx = o->ctx, .fn.insn = o->on_insn };
			for (int st = 0; st < INSN_STAGE_COUNT; st++) {
				uint32_t m;
				if (per_stage)
					m = o->insn_filter_at[st] ? ev_mask(o->insn_filter_at[st]) : 0;
				else if (o->insn_stages && !(o->insn_stages & INSN_STAGE_BIT(st)))
					m = 0;
				else
					m = ev_mask(o->insn_filter);
				sub->want[st] = m;
				c->insn_want[st] |= m;
				if (m & (CORE_EV_ANY | INSN_WANT_LOAD | CORE_EV_CP(INSN_WANT_LOAD)))
					c->keep_load_values = 1;
			}
		}
		if (o->on_miss) {
			uint32_t m = o->miss_filter ? o->miss_filter : ~0u;
			uint32_t m_end = m & ~o->miss_skip_end;
			c->miss_mask |= m;
			c->miss_end_mask |= m_end;
			for (int k = 0; k < MISS_KIND_COUNT; k++)
				for (int ph = 0; ph < 2; ph++)
					if ((ph == MISS_BEGIN ? m : m_end) & MISS_BIT(k))
						c->miss_takers[ph][k][c->n_miss_takers[ph][k]++] =
							(struct core_miss_taker){ .ctx = o->ctx, .fn = o->on_miss };
		}
		if (o->on_cycle)
			c->cycle_sub[c->n_cycle_sub++] = (struct core_sub){
				.ctx = o->ctx, .fn.cycle = o->on_cycle, .idle = o->on_idle_cycles };
		if (o->on_new_head)
			c->head_sub[c->n_head_sub++] = (struct core_sub){ .ctx = o->ctx, .fn.head = o->on_new_head };
		if (o->on_new_taken)
			c->taken_sub[c->n_taken_sub++] = (struct core_sub){ .ctx = o->ctx, .fn.taken = o->on_new_taken };
		if (o->on_commit)
			c->commit_sub[c->n_commit_sub++] = (struct core_sub){ .ctx = o->ctx, .fn.commit = o->on_commit };
	}
	c->fetch_more = core_fetch_more(c->keep_load_values);
	if (!had_cycle_sub && c->n_cycle_sub)
		reset_record_extra(&c->s.cc);   /* (not kept up to date without one) */
	int old_batching = c->idle_batching, old_head_only = c->cycle_head_only;
	uint32_t old_skip = c->cycle_skip;
	c->idle_batching = c->cycle_head_only = c->n_cycle_sub > 0;
	c->end_of_cycle_work = c->n_cycle_sub > 0 || c->head_counts;
	c->cycle_skip = ~0u;
	for (int i = 0; i < c->n_obs; i++)
		if (c->obs[i].on_cycle) {
			c->idle_batching &= c->obs[i].on_idle_cycles != NULL;
			c->cycle_head_only &= c->obs[i].cycle_head_only != 0;
			c->cycle_skip &= c->obs[i].cycle_skip;
		}
	int same = had_cycle_sub && had_cycle_sub == c->n_cycle_sub && old_batching == c->idle_batching &&
		   old_head_only == c->cycle_head_only && old_skip == c->cycle_skip;
	for (int i = 0; same && i < had_cycle_sub; i++)
		same = old_cycle_sub[i].ctx == c->cycle_sub[i].ctx && old_cycle_sub[i].fn.cycle == c->cycle_sub[i].fn.cycle &&
		       old_cycle_sub[i].idle == c->cycle_sub[i].idle;
	if (same) {
		c->cc_current = old_cc_current;
		c->idle_repeatable = old_idle_repeatable;
	}
}

void core_flush_idle(struct core *c)
{
	uint64_t n = c->idle_pending;
	if (!n)
		return;
	c->idle_pending = 0;
	for (int i = 0; i < c->n_cycle_sub; i++)
		c->cycle_sub[i].idle(c->cycle_sub[i].ctx, &c->idle_first, n);
}

int core_add_observer(struct core *c, const struct core_observer *obs, struct ivx_err *err)
{
	if (c->n_obs == CORE_MAX_OBSERVERS)
		return ivx_error(err, IVX_EUSAGE, "too many observers (at most %d)", CORE_MAX_OBSERVERS);
	c->obs[c->n_obs++] = *obs;
	update_wants(c);
	return IVX_OK;
}

void core_remove_observer(struct core *c, void *ctx)
{
	int j = 0;
	for (int i = 0; i < c->n_obs; i++)
		if (c->obs[i].ctx != ctx)
			c->obs[j++] = c->obs[i];
	c->n_obs = j;
	update_wants(c);
}

static void publish_miss(struct core *c, const struct core_active *a, int phase, uint64_t end)
{
	struct miss_event e = {
		.kind = a->kind, .phase = phase, .id = a->id, .start = a->start, .end = end,
		.insn_seq = a->insn_seq, .pc = a->pc, .addr = a->addr, .correct_path = a->correct_path,
	};
	core_event_published(c);
	/* (observers are added and removed between runs, never from a
	 * callback: the list stays as it is while it is walked) */
	const struct core_miss_taker *t = c->miss_takers[phase][a->kind];
	for (const struct core_miss_taker *end = t + c->n_miss_takers[phase][a->kind]; t < end; t++)
		t->fn(t->ctx, &e);
}

/* Begin a miss event now; *a remembers it until core_miss_end. */
uint64_t core_miss_begin(struct core *c, struct core_active *a, int kind, uint64_t insn_seq,
			 uint64_t pc, uint64_t addr, int correct_path)
{
	c->activity++;
	a->id = c->s.next_event_id++;
	a->start = c->s.cycle;
	a->kind = kind;
	a->insn_seq = insn_seq;
	a->pc = pc;
	a->addr = addr;
	a->correct_path = correct_path;
	if (correct_path)
		c->s.stats.events_correct[kind]++;
	else
		c->s.stats.events_wrong[kind]++;
	if (c->miss_mask & MISS_BIT(kind))
		publish_miss(c, a, MISS_BEGIN, 0);
	return a->id;
}

/* End the event in *a at the current cycle (no-op if none is in progress). */
void core_miss_end(struct core *c, struct core_active *a)
{
	if (!a->id)
		return;
	c->activity++;
	if (c->miss_end_mask & MISS_BIT(a->kind))
		publish_miss(c, a, MISS_END, c->s.cycle);
	a->id = 0;
}

/* Publish an event of r to the observers that want it. Callers test
 * core_insn_wanted first. */
/* Each micro-op class's kind; branches by their branch kind. */
static const uint8_t kind_of_class[UOP_CLASS_COUNT] = {
	[UOP_ALU] = INSN_KIND_ALU, [UOP_MUL] = INSN_KIND_MUL, [UOP_DIV] = INSN_KIND_DIV,
	[UOP_LOAD] = INSN_KIND_LOAD, [UOP_STORE] = INSN_KIND_STORE, [UOP_SYSCALL] = INSN_KIND_SYSCALL,
	[UOP_FP] = INSN_KIND_FP, [UOP_FMA] = INSN_KIND_FP, [UOP_FDIV] = INSN_KIND_FDIV,
	[UOP_SIMD] = INSN_KIND_SIMD,
};
static const uint8_t kind_of_branch[BRANCH_RETURN + 1] = {
	[BRANCH_NONE] = INSN_KIND_JUMP, [BRANCH_COND] = INSN_KIND_COND_BRANCH,
	[BRANCH_UNCOND] = INSN_KIND_JUMP, [BRANCH_CALL] = INSN_KIND_CALL,
	[BRANCH_INDIRECT] = INSN_KIND_INDIRECT, [BRANCH_CALL_INDIRECT] = INSN_KIND_CALL,
	[BRANCH_RETURN] = INSN_KIND_RETURN,
};

static inline int insn_kind_of(int op_class, int branch_kind)
{
	return op_class == UOP_BRANCH ? kind_of_branch[branch_kind] : kind_of_class[op_class];
}

void core_insn_event(struct core *c, const struct core_insn *r, int stage, const uint64_t *deps, int n_deps)
{
	/* Field by field: an initializer zeroes the whole record first, with
	 * a slow `rep stos`. */
	struct insn_event e;
	e.stage = stage;
	e.cycle = c->s.cycle;
	e.seq = r->seq;
	e.pc = r->pc;
	e.uop = r->uop;
	e.kind = insn_kind_of(r->op_class, r->uop->branch_kind);
	e.word = r->uop->word;
	e.taken = r->taken;
	e.next_pc = r->next_pc;
	e.load_value = r->op_class == UOP_LOAD ? r->load_value : 0;
	e.rob_index = (int)core_slot(c, r);
	e.wrong_path = r->wrong_path;
	e.mispredicted = r->mispredicted;
	e.icache_miss = r->icache_miss;
	e.dcache_level = r->dcache_level;
	e.dtlb_miss = r->dtlb_miss;
	e.mem_addr = r->mem_addr;
	e.n_deps = n_deps;
	e.dep_seq[0] = e.dep_seq[1] = e.dep_seq[2] = e.dep_seq[3] = 0;
	for (int k = 0; k < n_deps; k++)
		e.dep_seq[k] = deps[k];
	core_event_published(c);
	for (int i = 0; i < c->n_insn_sub; i++)
		if (c->insn_sub[i].want[stage] & r->ev_bits)
			c->insn_sub[i].fn.insn(c->insn_sub[i].ctx, &e);
}

/* ---- store misses ------------------------------------------------------ */

/* Make room for n store-miss events in all. */
int core_smiss_reserve(struct core *c, uint32_t n)
{
	if (n <= c->smiss_cap)
		return IVX_OK;
	uint32_t cap = c->smiss_cap ? c->smiss_cap : 16;
	while (cap < n)
		cap *= 2;
	struct core_smiss *p = ivx_realloc(c->smiss, cap * sizeof *p);
	if (!p)
		return IVX_ESYS;
	c->smiss = p;
	c->smiss_cap = cap;
	return IVX_OK;
}

/* Store r, performed now (access a), begins an event of `kind` that ends
 * when its line is filled. */
static void store_miss_begin(struct core *c, const struct core_insn *r, int kind, const struct mem_access *a)
{
	struct core_state *s = &c->s;
	struct core_active ev;
	core_miss_begin(c, &ev, kind, r->seq, r->pc, r->mem_addr, 1);
	struct core_smiss *m = &c->smiss[s->n_smiss++];
	m->id = ev.id;
	m->start = ev.start;
	m->end = a->ready > s->cycle ? a->ready : s->cycle + 1;
	m->insn_seq = r->seq;
	m->pc = r->pc;
	m->addr = r->mem_addr;
	m->kind = kind;
	if (m->end < s->smiss_next_end)
		s->smiss_next_end = m->end;
}

/* The events of store r's misses (the same as a load's, core_backend.c
 * issue_load: a D-TLB miss, a primary cache miss). IVX_OK or IVX_ESYS. */
static __attribute__((noinline)) int store_misses_begin(struct core *c, const struct core_insn *r,
							const struct mem_access *a)
{
	if (core_smiss_reserve(c, c->s.n_smiss + 2) < 0)
		return IVX_ESYS;
	if (a->tlb_miss)
		store_miss_begin(c, r, MISS_DTLB, a);
	if (!a->merged && a->l1_miss)
		store_miss_begin(c, r, a->l2_miss ? MISS_L2D : MISS_L1D, a);
	return IVX_OK;
}

/* End the store-miss events whose lines are filled by now. A finished
 * event's place goes to the last one: the order of the list, and so of
 * events ending in the same cycle, is arbitrary but deterministic. */
static __attribute__((noinline)) void store_misses_end(struct core *c)
{
	struct core_state *s = &c->s;
	uint64_t next = UINT64_MAX;
	for (uint32_t i = 0; i < s->n_smiss;) {
		struct core_smiss *m = &c->smiss[i];
		if (m->end > s->cycle) {
			if (m->end < next)
				next = m->end;
			i++;
			continue;
		}
		struct core_active a = {
			.id = m->id, .start = m->start, .insn_seq = m->insn_seq, .pc = m->pc,
			.addr = m->addr, .kind = m->kind, .correct_path = 1,
		};
		core_miss_end(c, &a);
		*m = c->smiss[--s->n_smiss];
	}
	s->smiss_next_end = next;
}

/* ---- commit ------------------------------------------------------------ */

/* What the unfinished instruction at the ROB head waits for. */
static int head_wait_of(const struct core *c, const struct core_insn *r)
{
	uint64_t now = c->s.cycle;
	if (r->state == IS_DONE)
		return r->op_class == UOP_STORE ? HEAD_STORE : HEAD_NONE;
	if (r->op_class == UOP_LOAD && r->state == IS_ISSUED) {
		if (r->dtlb_miss && now < r->issue_cycle + c->cfg.dtlb.miss_latency)
			return HEAD_DTLB;
		if (r->dcache_level == 3)
			return HEAD_L2D;
		if (r->dcache_level == 2)
			return HEAD_L1D;
		return HEAD_EXECUTING;
	}
	if (r->long_latency)
		return HEAD_LONG_LATENCY;
	return HEAD_EXECUTING;
}

/* A taken branch at pc commits (core_count_taken): its count, and the
 * observers' on_new_taken if it is the first time or pc is not counted.
 * Out of line: the commit loop of every other instruction stays as it is. */
static __attribute__((noinline)) void count_taken(struct core *c, uint64_t pc)
{
	long slot = core_count_slot(c, pc);
	if ((slot >= 0 && c->taken_counts[slot]++) || !c->n_taken_sub)
		return;
	core_flush_idle(c);   /* (the cycles before come first) */
	for (int i = 0; i < c->n_taken_sub; i++)
		c->taken_sub[i].fn.taken(c->taken_sub[i].ctx, pc);
}

/* Retire r: 1 if it committed, 0 if it cannot yet, or IVX_ESYS (no host
 * memory to record a store's miss events: the run cannot go on). */
static inline __attribute__((always_inline)) int commit_one(struct core *c, struct core_insn *r)
{
	struct core_state *s = &c->s;
	const struct uop *u = r->uop;
	switch (r->op_class) {
	case UOP_STORE: {
		struct mem_access a;
		if (__builtin_expect(r->seq == s->forgive_seq, 0) && core_forgives_data(c)) {
			memsys_warm_data(c->ms, r->mem_addr, 1);
			a = (struct mem_access){ .ready = s->cycle + c->cfg.l1d.latency };
		} else
			memsys_store(c->ms, r->mem_addr, u->mem_size, s->cycle, &a);
		if (a.blocked)
			return 0;            /* no MSHR for the write: retry next cycle */
		r->dtlb_miss = a.tlb_miss;
		r->dcache_level = a.l2_miss ? 3 : a.l1_miss ? 2 : 1;
		if (__builtin_expect(a.tlb_miss | (a.l1_miss & !a.merged), 0) && store_misses_begin(c, r, &a) < 0)
			return IVX_ESYS;
		core_sq_filter(c, r, -1);
		s->sq_head++;
		if (s->sq_known < s->sq_head)
			s->sq_known = s->sq_head;
		break;
	}
	case UOP_BRANCH:
		s->stats.branches++;
		s->stats.mispredicts += r->mispredicted;
		if (!c->cfg.perfect_bpred)
			bpred_update(c->bp, u, r->pc, &c->preds[core_slot(c, r)].cp, r->taken, r->next_pc);
		if (__builtin_expect(c->taken_counts != NULL, 0) && r->taken)
			count_taken(c, r->pc);
		break;
	case UOP_SYSCALL:
		if (guest_state(c->g) == GUEST_EXITED)
			s->done = 1;
		if (s->fetch_halt == HALT_SYSCALL) {
			s->fetch_halt = HALT_NONE;
			if (s->fetch_resume < s->cycle + 1)
				s->fetch_resume = s->cycle + 1;
		}
		break;
	default:
		break;
	}
	if (r->fu == FU_MEM)
		s->lsq_count--;
	s->cc.committed++;
	if (c->commit_counts) {
		long slot = core_count_slot(c, r->pc);
		if (slot >= 0)
			c->commit_counts[slot]++;
	}
	s->stats.committed++;
	if (core_insn_wanted(c, r, INSN_COMMIT))
		core_insn_event(c, r, INSN_COMMIT, NULL, 0);
	s->head++;
	s->rob_count--;
	return 1;
}

/* This cycle's n commits to the subscribers that want one of them. They
 * are the n ring slots before the head, untouched until fetch. */
static __attribute__((noinline)) void publish_commits(struct core *c, int n)
{
	const struct core_state *s = &c->s;
	uint64_t first = s->stats.committed - (uint64_t)n, from = UINT64_MAX;
	for (int k = 0; k < n; k++) {
		const struct core_insn *r = core_at(c, s->head - (uint64_t)n + (uint64_t)k);
		c->commits[k] = (struct commit_rec){ .uop = r->uop, .pc = r->pc, .mem_addr = r->mem_addr,
						     .taken = r->taken };
	}
	for (int i = 0; i < c->n_commit_sub; i++) {
		struct core_sub *sub = &c->commit_sub[i];
		if (first + (uint64_t)n > sub->from)
			sub->from = sub->fn.commit(sub->ctx, first, c->commits, n);
		from = sub->from < from ? sub->from : from;
	}
	c->commit_from = from;
}

static int commit_stage(struct core *c, struct ivx_err *err)
{
	struct core_state *s = &c->s;
	/* (dispatch and the width do not change while committing; only a
	 * system call's commit sets done) */
	int n = 0, width = (int)c->cfg.commit_width;
	uint64_t end = s->dispatch;
	while (n < width && s->head != end && !s->done) {
		struct core_insn *r = core_at(c, s->head);
		if (r->state != IS_DONE)
			break;
		if (__builtin_expect(r->fault, 0)) {
			if (err)
				*err = s->fault_err;
			return s->fault_err.code ? s->fault_err.code : IVX_EGUEST;
		}
		int k = commit_one(c, r);
		if (__builtin_expect(k < 0, 0))
			return ivx_error(err, IVX_ESYS, "out of host memory (miss events of stores)");
		if (!k)
			break;
		n++;
	}
	if (n) {
		s->last_commit_cycle = s->cycle;
		if (__builtin_expect(c->n_commit_sub != 0, 0) && s->stats.committed > c->commit_from)
			publish_commits(c, n);
		if (!s->ev_fu_stall.id)
			return IVX_OK;
	}
	/* fu_stall: a long-latency op blocks the head */
	const struct core_insn *h = s->head != s->dispatch ? core_at(c, s->head) : NULL;
	int fu_blocked = !n && h && h->long_latency && h->state != IS_DONE;
	if (s->ev_fu_stall.id && (!fu_blocked || s->ev_fu_stall.insn_seq != h->seq))
		core_miss_end(c, &s->ev_fu_stall);
	if (fu_blocked && !s->ev_fu_stall.id)
		core_miss_begin(c, &s->ev_fu_stall, MISS_FU_STALL, h->seq, h->pc, 0, !h->wrong_path);
	if (h && !n && c->n_cycle_sub)   /* (only cycle subscribers read it) */
		s->cc.head_wait = head_wait_of(c, h);
	return IVX_OK;
}

/* ---- the cycle ---------------------------------------------------------- */

/* cycle_record.issue_head_pc (events.h): the in-order issue head, or the
 * ROB head, falling back to the frontend and then to the fetch address. */
static inline __attribute__((always_inline)) uint64_t issue_head_pc(const struct core *c)
{
	const struct core_state *s = &c->s;
	uint64_t p = s->head;
	if (c->cfg.inorder && s->issue_pos > p)
		p = s->issue_pos;
	if (p < s->dispatch)
		return core_at(c, p)->pc;
	if (s->dispatch != s->tail)
		return core_at(c, s->dispatch)->pc;
	return guest_cpu_const(c->g)->pc;
}

/* cycle_record.issue_wait (events.h), in-order mode: why the oldest
 * instruction not yet issued is still waiting at the end of this cycle,
 * and whom to blame (*pc). Read after every stage has run, so it names
 * what kept the instruction from issuing this cycle. */
static const struct core_insn *producer_of(const struct core *c, const struct core_insn *r, uint64_t p,
					  int woken_now)
{
	const struct core_state *s = &c->s;
	const struct uop *u = r->uop;
	for (int k = 0; k < u->n_src; k++) {
		for (uint64_t q = p; q-- > s->head;) {
			const struct core_insn *w = core_at(c, q);
			int writes = 0;
			for (int d = 0; d < w->uop->n_dst; d++)
				writes |= w->uop->dst[d] == u->src[k];
			if (!writes)
				continue;
			/* woken_now: only an access issued in this cycle,
			 * whose written-back base woke r after the issue
			 * stage had passed it */
			int waits = woken_now ? w->wb_reg == u->src[k] && w->state != IS_WAITING &&
						w->issue_cycle == s->cycle :
					    core_result_pending(w, u->src[k]);
			if (waits)
				return w;
			break;          /* the youngest writer is done: this operand is ready */
		}
	}
	return NULL;
}

static int frontend_wait(const struct core_insn *r, uint64_t *pc)
{
	if (!r->fe_cause) {
		*pc = 0;                /* (fe_pc is set only with a cause) */
		return ISSUE_WAIT_FRONTEND;
	}
	*pc = r->fe_pc;
	return r->fe_cause;
}

static int issue_wait_of(const struct core *c, uint64_t *pc)
{
	const struct core_state *s = &c->s;
	uint64_t now = s->cycle, p = s->issue_pos > s->head ? s->issue_pos : s->head;
	*pc = 0;
	if (p < s->dispatch) {
		const struct core_insn *r = core_at(c, p);
		if (r->state != IS_WAITING)
			return ISSUE_WAIT_NONE;
		if (r->wrong_path) {
			*pc = s->ev_mispredict.id ? s->ev_mispredict.pc : s->redirect_pc;
			return ISSUE_WAIT_MISPREDICT;
		}
		if (p >= s->dispatch - (uint64_t)s->cc.dispatched)
			return frontend_wait(r, pc);   /* dispatched after this cycle's issue */
		if (!r->pending && c->agu_woke) {
			/* ready only since the issue stage's address steps */
			const struct core_insn *q = producer_of(c, r, p, 1);
			if (q) {
				*pc = q->pc;
				return ISSUE_WAIT_DEP;
			}
		}
		if (r->pending) {
			const struct core_insn *q = producer_of(c, r, p, 0);
			if (!q)
				return ISSUE_WAIT_DEP;
			*pc = q->pc;
			if (q->op_class == UOP_LOAD && q->state == IS_ISSUED) {
				if (q->dtlb_miss && now < q->issue_cycle + c->cfg.dtlb.miss_latency)
					return ISSUE_WAIT_DEP_DTLB;
				return q->dcache_level == 3 ? ISSUE_WAIT_DEP_L2D :
				       q->dcache_level == 2 ? ISSUE_WAIT_DEP_L1D : ISSUE_WAIT_DEP;
			}
			return q->fu == FU_ALU || q->fu == FU_MEM ? ISSUE_WAIT_DEP : ISSUE_WAIT_DEP_LONG;
		}
		if (s->cc.issued >= (int)c->cfg.issue_width)
			return ISSUE_WAIT_SLOT;
		if (r->serialize)
			return ISSUE_WAIT_SERIAL;
		if (r->op_class == UOP_LOAD)
			return ISSUE_WAIT_MEM;
		return ISSUE_WAIT_UNIT;
	}
	if (s->dispatch != s->tail) {
		const struct core_insn *r = core_at(c, s->dispatch);
		if (r->wrong_path) {
			*pc = s->ev_mispredict.id ? s->ev_mispredict.pc : s->redirect_pc;
			return ISSUE_WAIT_MISPREDICT;
		}
		if (r->ready_cycle > now || s->cc.dispatched >= (int)c->cfg.decode_width || s->head == s->dispatch)
			return frontend_wait(r, pc);
		/* ready to dispatch, but the ROB, issue queue or LSQ is full */
		const struct core_insn *h = core_at(c, s->head);
		*pc = h->pc;
		if (h->op_class == UOP_LOAD && h->state == IS_ISSUED && (h->dcache_level >= 2 || h->dtlb_miss))
			return ISSUE_WAIT_FULL_DMISS;
		if (h->op_class == UOP_STORE && h->state == IS_DONE)
			return ISSUE_WAIT_FULL_STORE;
		return ISSUE_WAIT_FULL_OTHER;
	}
	if (s->spec || s->redirect) {
		*pc = s->ev_mispredict.id ? s->ev_mispredict.pc : s->redirect_pc;
		return ISSUE_WAIT_MISPREDICT;
	}
	if (s->fetch_wait) {
		*pc = guest_cpu_const(c->g)->pc;
		return s->fetch_wait_kind == MISS_L2I ? ISSUE_WAIT_L2I :
		       s->fetch_wait_kind == MISS_L1I ? ISSUE_WAIT_L1I : ISSUE_WAIT_ITLB;
	}
	if (s->fetch_halt == HALT_SYSCALL)
		return ISSUE_WAIT_SERIAL;
	return ISSUE_WAIT_FRONTEND;
}

/* publish_cycle when every cycle subscriber reads only the in-order head
 * (core_observer.cycle_head_only): the record's cycle, idle flag, issue
 * head and wait reason, and idle cycles held back while those repeat. */
static void publish_head(struct core *c)
{
	struct core_state *s = &c->s;
	struct cycle_record *rec = &s->cc;
	rec->cycle = s->cycle;
	rec->idle = !(rec->fetched | rec->dispatched | rec->issued | rec->committed | rec->squashed);
	rec->issue_wait = c->cfg.inorder ? issue_wait_of(c, &rec->issue_wait_pc) : ISSUE_WAIT_NONE;
	if (rec->idle) {
		struct idle_key *k = &c->idle_key;
		if (c->idle_repeatable && rec->issue_wait == k->issue_wait && rec->issue_wait_pc == k->issue_wait_pc) {
			if (!c->idle_pending++)
				memcpy(&c->idle_first, rec, CYCLE_RECORD_FIXED);
			return;
		}
		core_flush_idle(c);
		c->idle_repeatable = c->idle_batching;
		k->issue_wait = rec->issue_wait;
		k->issue_wait_pc = rec->issue_wait_pc;
		if (c->cc_current)
			goto publish;   /* nothing moved: the issue head is the last cycle's */
	} else {
		core_event_published(c);
	}
	c->cc_current = 1;
	rec->issue_head_pc = issue_head_pc(c);
publish:
	for (int i = 0; i < c->n_cycle_sub; i++)
		c->cycle_sub[i].fn.cycle(c->cycle_sub[i].ctx, rec);
}

/* Complete this cycle's record (the stages filled in the counts) and
 * pass it on. The record is published in place: copying it would read
 * back, in wider loads, counts just written field by field, which the
 * host cannot forward from its store buffer. */
static void publish_cycle(struct core *c)
{
	struct core_state *s = &c->s;
	struct cycle_record *rec = &s->cc;
	rec->cycle = s->cycle;
	rec->fetch_stall = core_fetch_stall_reason(c);
	/* a scan of the L2 MSHRs: only when a refused store holds the head,
	 * the one case it tells apart (events.h) */
	rec->long_misses_outstanding =
		rec->head_wait == HEAD_STORE ? memsys_long_misses_in_flight(c->ms, s->cycle) : 0;
	/* Nothing fetched, dispatched, issued, committed or squashed: the
	 * occupancies and positions are the last cycle's. */
	int moved = rec->dispatched | rec->committed | rec->squashed;
	rec->idle = !(moved | rec->fetched | rec->issued);
	rec->units_busy = s->units_busy_until > s->cycle;
	if (c->cfg.inorder)   /* (else ISSUE_WAIT_NONE, as core_new left it) */
		rec->issue_wait = issue_wait_of(c, &rec->issue_wait_pc);
	if (rec->idle) {
		const struct idle_key *k = &c->idle_key;
		if (c->idle_repeatable && rec->fetch_stall == k->fetch_stall && rec->head_wait == k->head_wait &&
		    rec->units_busy == k->units_busy &&
		    rec->rob_full == k->rob_full && rec->rob_full_wrong_path == k->rob_full_wrong_path &&
		    rec->long_misses_outstanding == k->long_misses_outstanding &&
		    rec->issue_wait == k->issue_wait && rec->issue_wait_pc == k->issue_wait_pc) {
			/* one more cycle like the last one published: hold it back */
			if (!c->idle_pending++)
				memcpy(&c->idle_first, rec, CYCLE_RECORD_FIXED);
			return;
		}
		core_flush_idle(c);
		c->idle_repeatable = c->idle_batching;
		c->idle_key = (struct idle_key){
			rec->fetch_stall, rec->head_wait, rec->rob_full, rec->rob_full_wrong_path,
			rec->long_misses_outstanding, rec->issue_wait, rec->issue_wait_pc, rec->units_busy,
		};
		if (c->cc_current)
			goto publish;
	} else {
		core_event_published(c);   /* (what an active cycle does to a run, too) */
	}
	/* The ROB's occupancy and the in-order positions move only when
	 * something is dispatched, committed or squashed (fetching into an
	 * empty frontend gives dispatch_seq the value it had: next_seq). A
	 * memory-bound program's ROB sits full in most cycles while its
	 * loads and their dependants issue around the blocked head. */
	if (moved | !c->cc_current) {
		c->cc_current = 1;
		rec->rob_occupancy = s->rob_count;
		rec->dispatch_seq = s->dispatch != s->tail ? core_at(c, s->dispatch)->seq : s->next_seq;
		rec->commit_seq = rec->dispatch_seq;
		rec->head_seq = rec->head_pc = 0;
		if (s->head != s->dispatch) {
			const struct core_insn *h = core_at(c, s->head);
			rec->commit_seq = rec->head_seq = h->seq;
			rec->head_pc = h->pc;
		}
	}
	/* (the fields some subscriber reads: tested once here, they cost an
	 * accounting set or the explorer a few percent of a cycle; an
	 * accounting set reads none of them) */
	uint32_t skip = c->cycle_skip;
	if (skip != CYCLE_SKIP_ALL) {
		if (!(skip & CYCLE_SKIP_OCCUPANCY)) {
			rec->lsq_occupancy = s->lsq_count;
			rec->frontend_occupancy = (int)(s->tail - s->dispatch);
		}
		if (!(skip & CYCLE_SKIP_ISSUE_HEAD))
			rec->issue_head_pc = issue_head_pc(c);
		/* While speculating, the wrong path is the young end of the ring, so
		 * the ROB holds some of it iff its youngest entry is wrong-path. */
		if (!(skip & CYCLE_SKIP_WRONG_PATH_IN_ROB))
			rec->wrong_path_in_rob = s->spec && s->dispatch != s->head && core_at(c, s->dispatch - 1)->wrong_path;
	}
publish:
	/* (the first subscriber outside the loop: usually the only one) */
	c->cycle_sub[0].fn.cycle(c->cycle_sub[0].ctx, rec);
	for (int i = 1; i < c->n_cycle_sub; i++)
		c->cycle_sub[i].fn.cycle(c->cycle_sub[i].ctx, rec);
}

/* n cycles more whose in-order head is pc: its count (core_count_head_cycles),
 * and the observers' on_new_head when pc is new or not counted. */
static inline void count_head(struct core *c, uint64_t pc, uint64_t n)
{
	long slot = core_count_slot(c, pc);
	uint64_t *count = &c->head_counts[slot >= 0 ? (size_t)slot : c->n_commit_counts];
	if (__builtin_expect(c->n_head_sub && (slot < 0 || !*count), 0)) {
		core_flush_idle(c);   /* (the cycles before come first) */
		for (int i = 0; i < c->n_head_sub; i++)
			c->head_sub[i].fn.head(c->head_sub[i].ctx, pc, n);
	}
	*count += n;
}

static inline void end_of_cycle(struct core *c)
{
	struct core_state *s = &c->s;
	if (__builtin_expect(!s->rob_count, 0)) {
		if (!s->ev_rob_empty.id)
			core_miss_begin(c, &s->ev_rob_empty, MISS_ROB_EMPTY, 0, 0, 0, 1);
	} else if (s->ev_rob_empty.id) {
		core_miss_end(c, &s->ev_rob_empty);
	}
	if (__builtin_expect(s->cc.rob_full, 0)) {
		if (!s->ev_rob_full.id)
			core_miss_begin(c, &s->ev_rob_full, MISS_ROB_FULL, 0, 0, 0, !s->cc.rob_full_wrong_path);
	} else if (s->ev_rob_full.id) {
		core_miss_end(c, &s->ev_rob_full);
	}
	s->stats.cycles++;
	if (!c->end_of_cycle_work)
		return;
	if (c->head_counts)
		count_head(c, issue_head_pc(c), 1);
	if (c->n_cycle_sub) {
		if (c->cycle_head_only)
			publish_head(c);
		else
			publish_cycle(c);
	}
}

static int deadlock(struct core *c, struct ivx_err *err)
{
	struct core_state *s = &c->s;
	char where[256], why[96];
	if (s->head == s->dispatch) {
		const char *f = s->fetch_halt == HALT_SYSCALL ? "halted after a system call" :
				s->fetch_halt == HALT_WRONG_PATH ? "halted on a wrong path" :
				s->fetch_wait ? "waiting for an instruction fetch" : "not delivering";
		guest_describe_pc(c->g, guest_cpu_const(c->g)->pc, where, sizeof where);
		return ivx_error(err, IVX_EDEADLOCK,
				 "deadlock: nothing committed for %llu cycles (cycle %llu); ROB empty, fetch %s at %s",
				 (unsigned long long)(s->cycle - s->last_commit_cycle),
				 (unsigned long long)s->cycle, f, where);
	}
	const struct core_insn *h = core_at(c, s->head);
	static const char *const states[] = { "in the frontend", "waiting to issue", "executing", "done" };
	if (h->state == IS_WAITING)
		snprintf(why, sizeof why, "%d source operand(s) never became ready", h->pending);
	else if (h->state == IS_ISSUED)
		snprintf(why, sizeof why, "completes at cycle %llu", (unsigned long long)h->complete_cycle);
	else if (h->state == IS_DONE)
		snprintf(why, sizeof why, "cannot commit (store refused by the memory system)");
	else
		snprintf(why, sizeof why, "?");
	guest_describe_pc(c->g, h->pc, where, sizeof where);
	return ivx_error(err, IVX_EDEADLOCK,
			 "deadlock: nothing committed for %llu cycles (cycle %llu); ROB head seq %llu %s, %s: %s; "
			 "ROB %d/%u, IQ %d, LSQ %d",
			 (unsigned long long)(s->cycle - s->last_commit_cycle), (unsigned long long)s->cycle,
			 (unsigned long long)h->seq, where, states[h->state], why, s->rob_count,
			 c->cfg.rob_size, s->iq_count, s->lsq_count);
}

/* The end of a cycle: the clock, and the deadlock check (nothing
 * committed for deadlock_cycles; a handler's cycles are not the
 * program's failure to commit). */
static inline int cycle_end(struct core *c, struct ivx_err *err)
{
	struct core_state *s = &c->s;
	s->cycle++;
	/* progress >= last_commit_cycle: one test rules the check out on
	 * almost every cycle */
	if (__builtin_expect(s->cycle - s->last_commit_cycle <= c->cfg.deadlock_cycles, 1))
		return IVX_OK;
	uint64_t progress = s->last_commit_cycle > s->handler_until ? s->last_commit_cycle : s->handler_until;
	if (!s->done && s->cycle > progress && s->cycle - progress > c->cfg.deadlock_cycles)
		return deadlock(c, err);
	return IVX_OK;
}

/* One cycle; publishing it may leave it held back (core_flush_idle). */
static int cycle(struct core *c, struct ivx_err *err)
{
	struct core_state *s = &c->s;
	if (s->done)
		return IVX_OK;
	/* reset the counts the stages fill in (not the whole record: zeroing
	 * it would be a `rep stos`, slow, every cycle) */
	_Static_assert(offsetof(struct cycle_record, rob_occupancy) - offsetof(struct cycle_record, fetched) ==
		       7 * sizeof(int), "fetched .. issued_correct are seven ints in a row");
	struct cycle_record *cc = &s->cc;
	memset(&cc->fetched, 0,
	       offsetof(struct cycle_record, rob_occupancy) - offsetof(struct cycle_record, fetched));
	cc->rob_full = 0;
	if (c->n_cycle_sub)
		reset_record_extra(cc);
	/* in an interrupt handler (core_interrupt): nothing commits, dispatches or is fetched */
	int in_handler = __builtin_expect(s->cycle < s->handler_until, 0);
	int rc = in_handler ? IVX_OK : commit_stage(c, err);
	if (rc < 0)
		return rc;
	if (__builtin_expect(s->smiss_next_end <= s->cycle, 0))
		store_misses_end(c);
	if (!s->done) {
		core_writeback_stage(c);
		core_issue_stage(c);
		if (in_handler) {
			s->stats.handler_cycles++;
		} else {
			core_dispatch_stage(c);
			rc = core_fetch_stage(c, err);
			if (rc < 0)
				return rc;
		}
	}
	end_of_cycle(c);
	return cycle_end(c, err);
}

int core_cycle(struct core *c, struct ivx_err *err)
{
	int rc = cycle(c, err);
	core_flush_idle(c);
	return rc;
}

/* ---- skipping quiet cycles ------------------------------------------------ */

/* Cycle t - 1 was quiet: nothing moved, and nothing changed the state but
 * the clock (struct core's `activity`; the memory system refusing
 * accesses changes only its count of refusals). Every stage then finds
 * at cycle t what it found at t - 1 and does the same, until the clock
 * reaches a time some decision compares it with. The first cycle from t
 * on (at most `limit`) at which that may happen: */
static uint64_t quiet_until(struct core *c, uint64_t t, uint64_t limit, int refused)
{
	const struct core_state *s = &c->s;
	uint64_t until = limit;
#define QUIET_UNTIL(x)                                                  \
	do {                                                            \
		uint64_t x_ = (x);                                      \
		if (x_ >= t && x_ < until)                              \
			until = x_;                                     \
	} while (0)
	QUIET_UNTIL(s->fetch_resume);             /* a redirect's bubble ends */
	if (s->fetch_wait) {
		QUIET_UNTIL(s->fetch_wait_until);  /* the I-side miss delivers */
		QUIET_UNTIL(s->fetch_walk_end);    /* its I-TLB part ends (fetch_stall) */
	}
	QUIET_UNTIL(s->handler_until);            /* an interrupt handler ends */
	QUIET_UNTIL(s->smiss_next_end);           /* a store's miss event ends */
	if (s->tail != s->dispatch)               /* the oldest fetched may dispatch */
		QUIET_UNTIL(core_at(c, s->dispatch)->ready_cycle);
	for (uint32_t d = 0; d < c->cfg.div_units; d++)
		QUIET_UNTIL(c->div_free[d]);      /* a divider frees up */
	for (uint32_t d = 0; d < c->cfg.fdiv_units; d++)
		QUIET_UNTIL(c->fdiv_free[d]);
	if (s->head != s->dispatch) {             /* the head's D-TLB walk ends (head_wait) */
		const struct core_insn *h = core_at(c, s->head);
		if (h->op_class == UOP_LOAD && h->state == IS_ISSUED && h->dtlb_miss)
			QUIET_UNTIL(h->issue_cycle + c->cfg.dtlb.miss_latency);
	}
	if (c->cfg.inorder && c->n_cycle_sub) {   /* the issue head's producer's D-TLB walk ends (issue_wait) */
		uint64_t p = s->issue_pos > s->head ? s->issue_pos : s->head;
		const struct core_insn *r = p < s->dispatch ? core_at(c, p) : NULL;
		const struct core_insn *q = r && r->state == IS_WAITING && r->pending ? producer_of(c, r, p, 0) : NULL;
		if (q && q->op_class == UOP_LOAD && q->state == IS_ISSUED && q->dtlb_miss)
			QUIET_UNTIL(q->issue_cycle + c->cfg.dtlb.miss_latency);
	}
	if (c->n_cycle_sub && s->cc.head_wait == HEAD_STORE)   /* the record's long_misses_outstanding */
		QUIET_UNTIL(memsys_long_misses_until(c->ms, t - 1));
	/* the deadlock check fires after the cycle progress + deadlock_cycles */
	uint64_t progress = s->last_commit_cycle > s->handler_until ? s->last_commit_cycle : s->handler_until;
	QUIET_UNTIL(progress + c->cfg.deadlock_cycles);
#undef QUIET_UNTIL
	if (refused) {
		/* a refused access may be accepted; an answer older than t - 1
		 * (left by a cycle that was not quiet) says nothing: no skip */
		uint64_t at = memsys_take_retry(c->ms);
		if (at < until)
			until = at < t ? t : at;
	}
	/* an instruction completes (or a parked one is looked at again) */
	for (uint64_t x = t; x < until && x - t < CORE_WHEEL_SIZE; x++)
		if (c->wheel[x & (CORE_WHEEL_SIZE - 1)] != CORE_NIL) {
			until = x;
			break;
		}
	return until;
}

/* After a quiet cycle, account the cycles that would repeat it, up to
 * `limit` cycles in all, as if each had been simulated: the clock, the
 * statistics, the memory system's refusals, and the observers' records
 * (held back as a run of idle cycles, as publish_cycle holds back each
 * such cycle). */
static void skip_quiet(struct core *c, uint64_t refused, uint64_t limit)
{
	struct core_state *s = &c->s;
	uint64_t t = s->cycle;
	uint64_t n = quiet_until(c, t, t + limit, refused != 0) - t;
	if (!n)
		return;
	if (c->n_cycle_sub) {
		if (!c->idle_pending++) {
			memcpy(&c->idle_first, &s->cc, CYCLE_RECORD_FIXED);
			c->idle_first.cycle = t;
		}
		c->idle_pending += n - 1;
	}
	if (t < s->handler_until)
		s->stats.handler_cycles += n;
	if (c->head_counts)   /* the head is the quiet cycle's, n times over */
		count_head(c, issue_head_pc(c), n);
	if (refused)
		memsys_skip_refused(c->ms, refused * n);
	s->stats.cycles += n;
	s->cycle += n;
}

int core_run(struct core *c, uint64_t max_cycles, uint64_t max_insns, struct ivx_err *err)
{
	struct core_state *s = &c->s;
	int rc = IVX_OK;
	s->stop_requested = 0;
	/* The activity and refusal counts as cycle `known` found them, taken
	 * at the end of the cycle before when nothing moved in it: a busy
	 * cycle pays only the test that something moved, and the first quiet
	 * cycle after it is simulated, not skipped (the skip starts a cycle
	 * later, with the same results). */
	uint64_t known = UINT64_MAX, activity = 0, refused = 0;
	/* (0: no limit; one compare per cycle each) */
	uint64_t cycles_end = max_cycles ? max_cycles : UINT64_MAX, insns_end = max_insns ? max_insns : UINT64_MAX;
	while (!s->done && !s->stop_requested) {
		if (s->stats.cycles >= cycles_end || s->stats.committed >= insns_end)
			break;
		rc = cycle(c, err);
		if (rc < 0)
			break;
		const struct cycle_record *cc = &s->cc;
		if (cc->committed || cc->issued || cc->fetched || cc->dispatched || cc->squashed)
			continue;
		/* quiet: nothing moved, the state is as the cycle found it, and
		 * the observers take the cycles that repeat it as one run */
		if (known == s->cycle - 1 && activity == c->activity && !s->done && !s->stop_requested &&
		    (!c->n_cycle_sub || c->idle_repeatable))
			skip_quiet(c, memsys_refused(c->ms) - refused,
				   max_cycles ? max_cycles - s->stats.cycles : UINT64_MAX - s->cycle);
		known = s->cycle;
		activity = c->activity;
		refused = memsys_refused(c->ms);
	}
	core_flush_idle(c);
	return rc;
}

int core_run_to_cycle(struct core *c, uint64_t cycle, struct ivx_err *err)
{
	return core_cycles(c) < cycle ? core_run(c, cycle, 0, err) : IVX_OK;
}

void core_request_stop(struct core *c) { c->s.stop_requested = 1; }

void core_forgive(struct core *c, int kind, uint64_t seq)
{
	c->activity++;   /* (a cycle in which an observer calls it is not quiet) */
	c->s.forgive_kind = kind;
	c->s.forgive_seq = seq;
}

void core_interrupt(struct core *c, uint64_t handler_cycles)
{
	struct core_state *s = &c->s;
	c->activity++;   /* (a cycle in which an observer calls it is not quiet) */
	uint64_t from = s->handler_until > s->cycle + 1 ? s->handler_until : s->cycle + 1;
	s->handler_until = from + handler_cycles;
}
int core_done(const struct core *c) { return c->s.done; }
uint64_t core_issue_head_pc(const struct core *c) { return issue_head_pc(c); }
uint64_t core_cycles(const struct core *c) { return c->s.stats.cycles; }
uint64_t core_current_cycle(const struct core *c) { return c->s.cycle; }
uint64_t core_committed(const struct core *c) { return c->s.stats.committed; }
const struct machine_config *core_config(const struct core *c) { return &c->cfg; }
struct guest *core_guest(const struct core *c) { return c->g; }
void core_stats(const struct core *c, struct core_stats *out) { *out = c->s.stats; }
int core_rob_occupancy(const struct core *c) { return c->s.rob_count; }
int core_rob_size(const struct core *c) { return (int)c->cfg.rob_size; }

int core_count_commits(struct core *c, struct ivx_err *err)
{
	if (c->commit_counts)
		return IVX_OK;
	if (c->s.stats.cycles)
		return ivx_error(err, IVX_EUSAGE, "commit counts must be asked for before the first cycle");
	const struct program *p = guest_program(c->g);
	size_t n = 0;
	/* One counter per word the program decoded (program_code_run): the
	 * zero-filled rest of a segment beyond its file bytes holds nothing
	 * that can commit, and a hostile ELF can make it gigabytes. */
	for (int i = 0; i < program_segment_count(p) && c->n_count_ranges < CORE_COUNT_RANGES; i++) {
		const struct program_segment *seg = program_segment(p, i);
		const struct uop *first, *end;
		if (!(seg->prot & MEM_X) || program_code_run(p, seg->vaddr & ~3ull, &first, &end) < 0)
			continue;
		struct count_range *r = &c->count_range[c->n_count_ranges++];
		r->base = seg->vaddr & ~3ull;
		r->span = 4 * (uint64_t)(end - first);
		r->first = n;
		n += (size_t)(end - first);
	}
	c->commit_counts = ivx_calloc(n ? n : 1, sizeof *c->commit_counts);
	if (!c->commit_counts) {
		c->n_count_ranges = 0;
		return ivx_error(err, IVX_ESYS, "out of host memory");
	}
	c->n_commit_counts = n;
	return IVX_OK;
}

int core_count_head_cycles(struct core *c, struct ivx_err *err)
{
	if (c->head_counts)
		return IVX_OK;
	if (core_count_commits(c, err) < 0)
		return -1;
	c->head_counts = ivx_calloc(c->n_commit_counts + 1, sizeof *c->head_counts);
	if (!c->head_counts)
		return ivx_error(err, IVX_ESYS, "out of host memory");
	c->end_of_cycle_work = 1;
	return IVX_OK;
}

int core_count_taken(struct core *c, struct ivx_err *err)
{
	if (c->taken_counts)
		return IVX_OK;
	if (core_count_commits(c, err) < 0)
		return -1;
	c->taken_counts = ivx_calloc(c->n_commit_counts ? c->n_commit_counts : 1, sizeof *c->taken_counts);
	if (!c->taken_counts)
		return ivx_error(err, IVX_ESYS, "out of host memory");
	return IVX_OK;
}

uint64_t core_taken_at(const struct core *c, uint64_t pc)
{
	long slot = c->taken_counts ? core_count_slot(c, pc) : -1;
	return slot >= 0 ? c->taken_counts[slot] : 0;
}

uint64_t core_head_cycles_at(const struct core *c, uint64_t pc)
{
	long slot = c->head_counts ? core_count_slot(c, pc) : -1;
	return slot >= 0 ? c->head_counts[slot] : 0;
}

uint64_t core_head_cycles_outside(const struct core *c)
{
	return c->head_counts ? c->head_counts[c->n_commit_counts] : 0;
}

int core_counts_pc(const struct core *c, uint64_t pc)
{
	return c->commit_counts && core_count_slot(c, pc) >= 0;
}

uint64_t core_commits_at(const struct core *c, uint64_t pc)
{
	long slot = c->commit_counts && !(pc & 3) ? core_count_slot(c, pc) : -1;
	return slot >= 0 ? c->commit_counts[slot] : 0;
}

int core_rob_entry(const struct core *c, int i, struct rob_view *out)
{
	const struct core_state *s = &c->s;
	if (i < 0 || i >= s->rob_count)
		return -1;
	const struct core_insn *r = core_at(c, s->head + (uint64_t)i);
	memset(out, 0, sizeof *out);
	out->seq = r->seq;
	out->pc = r->pc;
	out->uop = r->uop;
	out->wrong_path = r->wrong_path;
	out->mem_addr = r->mem_addr;
	switch (r->state) {
	case IS_WAITING:
		out->state = ROB_DISPATCHED;
		break;
	case IS_ISSUED:
		/* the cycle counter already points past the last simulated cycle */
		out->state = r->issue_cycle + 1 == s->cycle ? ROB_ISSUED : ROB_EXECUTING;
		out->cycles_left = (int)(r->complete_cycle >= s->cycle ? r->complete_cycle - s->cycle + 1 : 0);
		break;
	default:
		out->state = ROB_DONE;
		break;
	}
	out->wait = head_wait_of(c, r);
	return 0;
}
