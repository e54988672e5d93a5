/*
 * core_backend.c — dispatch (rename into ROB, issue queue and LSQ), issue,
 * writeback and the squash after a resolved misprediction.
 *
 * Dependences are tracked with wake-up lists instead of scanning: renaming
 * links an instruction to the still-unfinished producer of each source
 * register (an edge consumer*4+k in the producer's list); when the
 * producer completes it walks its list and decrements each consumer's
 * `pending`; at zero the consumer's ready bit is set. Issue scans the ready
 * bits from the ROB head, i.e. oldest first; the in-order mode instead
 * walks the ROB in order and stops at the first instruction that cannot go.
 *
 * Issued instructions wait in a completion wheel (one singly linked bucket
 * per cycle; a squash walks the few entries of a bucket to unlink one);
 * the writeback stage empties the bucket of the current cycle. Latencies are known at issue: loads ask
 * the memory system, which answers with the cycle their data arrives.
 *
 * Loads and stores: a store's address is known once its address operands
 * are (as with a separate address-generation step); a load waits until
 * every older store's address is known (conservative disambiguation, as in
 * SimpleScalar's sim-outorder, so memory-order violations cannot occur);
 * then the youngest older store it overlaps forwards its data if it covers
 * the load and has executed, or the load waits (for the data, or for a
 * partially overlapping store to commit). Stores write the D-cache when
 * they commit (core.c).
 */
#include <string.h>
#include "core_internal.h"

#define LIKELY(x)   __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

static inline uint64_t pos_of(const struct core *c, const struct core_insn *r)
{
	return c->s.head + ((core_slot(c, r) - c->s.head) & c->ring_mask);
}

static inline void set_ready(struct core *c, uint32_t slot)
{
	c->ready[slot >> 6] |= 1ull << (slot & 63);
}

static inline void clear_ready(struct core *c, uint32_t slot)
{
	c->ready[slot >> 6] &= ~(1ull << (slot & 63));
}

/* ---- dispatch ------------------------------------------------------------ */

/* Link r to the unfinished producers of its sources and make it the
 * latest writer of its destinations. Fills deps (producer seqs) when
 * `deps` is given; returns how many. */
static inline int rename(struct core *c, struct core_insn *r, uint64_t *deps)
{
	struct core_state *s = &c->s;
	const struct uop *u = r->uop;
	uint32_t slot = core_slot(c, r);
	int nd = 0;
	if (UNLIKELY(r->fault))
		return 0;
	/* Branch-free: whether a source has an unfinished producer is data
	 * the host cannot predict. The edge slot belongs to r, so writing it
	 * when there is no producer is harmless. */
	for (int k = 0; k < u->n_src; k++) {
		uint8_t reg = u->src[k];
		uint64_t seq = s->rename_seq[reg];
		struct core_insn *p = &c->ring[s->rename_slot[reg]];
		int live = (seq != 0) & (p->seq == seq) & core_result_pending(p, reg);
		int32_t e = (int32_t)(slot * 4 + (uint32_t)k), *list = reg == p->wb_reg ? &p->agu_head : &p->dep_head;
		c->edges[e] = *list;
		*list = live ? e : *list;
		r->pending += (uint8_t)live;
		r->pending_addr += (uint8_t)(live & (r->addr_src_mask >> k));
		if (deps && live)
			deps[nd++] = seq;
	}
	for (int k = 0; k < u->n_dst; k++) {
		uint8_t reg = u->dst[k];
		s->rename_slot[reg] = slot;
		s->rename_seq[reg] = r->seq;
	}
	return nd;
}

void core_rebuild_rename(struct core *c)
{
	struct core_state *s = &c->s;
	memset(s->rename_seq, 0, sizeof s->rename_seq);
	for (uint64_t p = s->head; p != s->dispatch; p++) {
		const struct core_insn *r = core_at(c, p);
		if (r->fault)
			continue;
		for (int k = 0; k < r->uop->n_dst; k++) {
			uint8_t reg = r->uop->dst[k];
			s->rename_slot[reg] = core_slot(c, r);
			s->rename_seq[reg] = r->seq;
		}
	}
}

void core_dispatch_stage(struct core *c)
{
	struct core_state *s = &c->s;
	const struct machine_config *cfg = &c->cfg;
	uint64_t avail = s->tail - s->dispatch;
	if (!avail)
		return;
	/* how many the ROB and the issue queue can take this cycle */
	uint32_t limit = cfg->decode_width;
	uint32_t rob_room = cfg->rob_size - (uint32_t)s->rob_count;
	uint32_t iq_room = cfg->iq_size - (uint32_t)s->iq_count;
	if (rob_room < limit)
		limit = rob_room;
	if (iq_room < limit)
		limit = iq_room;
	if (avail < limit)
		limit = (uint32_t)avail;
	int rob_blocks = limit == rob_room && rob_room < cfg->decode_width;
	uint32_t n = 0, wrong = 0;
	uint64_t now = s->cycle;
	for (; n < limit; n++) {
		struct core_insn *r = core_at(c, s->dispatch);
		if (r->ready_cycle > now)
			break;
		if (r->fu == FU_MEM) {
			if ((uint32_t)s->lsq_count >= cfg->lsq_size)
				break;
			s->lsq_count++;
			if (r->op_class == UOP_STORE) {
				c->sq[s->sq_tail++ & (c->sq_size - 1)] = s->dispatch;
				core_sq_filter(c, r, 1);
			}
		}
		uint64_t deps[4];
		int want = core_insn_wanted(c, r, INSN_DISPATCH);
		int nd = rename(c, r, want ? deps : NULL);
		r->state = IS_WAITING;
		s->dispatch++;
		s->rob_count++;
		s->iq_count++;
		if (!r->pending)
			set_ready(c, core_slot(c, r));
		if (UNLIKELY(r->wrong_path | r->mispredicted | s->redirect)) {
			if (!r->wrong_path) {
				if (s->redirect) {  /* first correct-path instruction after a redirect */
					core_miss_end(c, &s->ev_mispredict);
					s->redirect = 0;
				}
				if (r->mispredicted)
					core_miss_begin(c, &s->ev_mispredict, MISS_MISPREDICT, r->seq, r->pc,
							r->next_pc, 1);
			} else {
				wrong++;
			}
		}
		if (want)
			core_insn_event(c, r, INSN_DISPATCH, deps, nd);
	}
	s->stats.dispatched += n;
	s->cc.dispatched = (int)n;        /* dispatch runs once per cycle */
	s->cc.dispatched_correct = (int)(n - wrong);
	/* blocked by a full ROB with an instruction ready to go */
	if (rob_blocks && n == limit && core_at(c, s->dispatch)->ready_cycle <= s->cycle) {
		s->cc.rob_full = 1;
		s->cc.rob_full_wrong_path = core_at(c, s->dispatch)->wrong_path;
	}
}

/* ---- wake-up ------------------------------------------------------------------ */

/* A result is ready: the consumers on list `e` have one source fewer to
 * wait for. */
static inline __attribute__((always_inline)) void wake(struct core *c, int32_t e)
{
	for (; e != CORE_NIL; e = c->edges[e]) {
		struct core_insn *q = &c->ring[e >> 2];
		q->pending--;
		q->pending_addr -= (q->addr_src_mask >> (e & 3)) & 1;
		if (!q->pending)
			set_ready(c, (uint32_t)(e >> 2));
	}
}

/* ---- the completion wheel -------------------------------------------------- */

static inline __attribute__((always_inline)) void wheel_insert(struct core *c, struct core_insn *r)
{
	uint64_t at = r->complete_cycle;
	if (UNLIKELY(at - c->s.cycle >= CORE_WHEEL_SIZE))
		at = c->s.cycle + CORE_WHEEL_SIZE - 1;   /* parked; re-inserted when reached */
	r->wheel_bucket = (int32_t)(at & (CORE_WHEEL_SIZE - 1));
	r->wheel_next = c->wheel[r->wheel_bucket];
	c->wheel[r->wheel_bucket] = (int32_t)core_slot(c, r);
}

/* Take r out of its bucket (squash only: buckets are short, singly linked
 * so inserting and emptying touch no other record). */
static void wheel_unlink(struct core *c, struct core_insn *r)
{
	int32_t slot = (int32_t)core_slot(c, r);
	int32_t *link = &c->wheel[r->wheel_bucket];
	while (*link != slot)
		link = &c->ring[*link].wheel_next;
	*link = r->wheel_next;
	r->wheel_next = CORE_NIL;
}

/* ---- issue ------------------------------------------------------------------ */

struct issue_ctx {
	uint32_t used[FU_COUNT];
	uint32_t left;            /* issue slots left this cycle */
	/* accesses issued this cycle whose written-back base has consumers
	 * (core.agu_issued): woken when the scan is over, so that those issue
	 * from the next cycle on (the address step takes a cycle) */
	uint32_t n_agu;
};

static void begin_dmiss(struct core *c, struct core_insn *r, int kind)
{
	struct core_active a;
	struct core_dmiss *d = &c->dmiss[core_slot(c, r)];
	if (!r->has_dmiss) {
		d->id[0] = d->id[1] = 0;
		r->has_dmiss = 1;
	}
	int k = d->id[0] ? 1 : 0;
	d->id[k] = core_miss_begin(c, &a, kind, r->seq, r->pc, r->mem_addr, !r->wrong_path);
	d->kind[k] = (uint8_t)kind;
}

static void end_dmiss(struct core *c, struct core_insn *r)
{
	struct core_dmiss *d = &c->dmiss[core_slot(c, r)];
	for (int k = 0; k < 2; k++) {
		if (!d->id[k])
			continue;
		struct core_active a = {
			.id = d->id[k], .start = r->issue_cycle, .insn_seq = r->seq, .pc = r->pc,
			.addr = r->mem_addr, .kind = d->kind[k], .correct_path = !r->wrong_path,
		};
		core_miss_end(c, &a);
		d->id[k] = 0;
	}
	r->has_dmiss = 0;
}

static inline int overlaps(const struct core_insn *a, const struct core_insn *b)
{
	return a->mem_addr < b->mem_addr + b->uop->mem_size && b->mem_addr < a->mem_addr + a->uop->mem_size;
}

/* Try to start load r; on success set its complete_cycle. */
static int issue_load(struct core *c, struct core_insn *r)
{
	struct core_state *s = &c->s;
	const struct machine_config *cfg = &c->cfg;
	uint64_t now = s->cycle, sq_mask = c->sq_size - 1;
	if (s->sq_tail != s->sq_head) {
		uint64_t pos = pos_of(c, r);
		while (s->sq_known < s->sq_tail && !core_at(c, c->sq[s->sq_known & sq_mask])->pending_addr)
			s->sq_known++;
		if (s->sq_known < s->sq_tail && c->sq[s->sq_known & sq_mask] < pos)
			return 0;               /* an older store's address is still unknown */
		/* the filter says whether any store in the queue may overlap */
		uint64_t w = r->mem_addr >> 3, last = (r->mem_addr + r->uop->mem_size - 1) >> 3;
		int maybe = 0;
		for (; w <= last; w++)
			maybe |= s->sq_filter[w & (CORE_SQ_FILTER - 1)] != 0;
		for (uint64_t q = maybe ? s->sq_tail : s->sq_head; q > s->sq_head;) {
			uint64_t spos = c->sq[--q & sq_mask];
			if (spos > pos)
				continue;
			const struct core_insn *st = core_at(c, spos);
			if (!overlaps(st, r))
				continue;
			if (st->state == IS_DONE && st->mem_addr <= r->mem_addr &&
			    r->mem_addr + r->uop->mem_size <= st->mem_addr + st->uop->mem_size) {
				r->dcache_level = 1;
				r->complete_cycle = now + cfg->load_latency;
				return 1;
			}
			return 0;               /* wait for its data, or for it to commit */
		}
	}
	if (r->wrong_path && !cfg->wrong_path_memory) {
		r->dcache_level = 1;
		r->complete_cycle = now + cfg->load_latency;
		return 1;
	}
	struct mem_access a;
	if (UNLIKELY(r->seq == c->s.forgive_seq) && core_forgives_data(c)) {
		/* what-if: a hit, the line (and its translation) there as after the miss */
		memsys_warm_data(c->ms, r->mem_addr, 0);
		a = (struct mem_access){ .ready = now + cfg->l1d.latency };
	} else
		memsys_load(c->ms, r->mem_addr, r->uop->mem_size, now, &a);
	if (a.blocked)
		return 0;
	r->complete_cycle = a.ready > now + cfg->load_latency ? a.ready : now + cfg->load_latency;
	r->dcache_level = a.l2_miss ? 3 : a.l1_miss ? 2 : 1;
	r->dtlb_miss = a.tlb_miss;
	r->issue_cycle = now;
	if (UNLIKELY(a.tlb_miss))
		begin_dmiss(c, r, MISS_DTLB);
	if (UNLIKELY(!a.merged && a.l1_miss))
		begin_dmiss(c, r, a.l2_miss ? MISS_L2D : MISS_L1D);
	return 1;
}

/* Try to issue r now. 1 if it went. */
static inline __attribute__((always_inline)) int try_issue(struct core *c, struct core_insn *r, struct issue_ctx *x)
{
	struct core_state *s = &c->s;
	const struct machine_config *cfg = &c->cfg;
	uint64_t now = s->cycle;
	uint32_t lat;
	switch (r->fu) {
	case FU_ALU:
		if (x->used[FU_ALU] >= cfg->alu_units)
			return 0;
		if (UNLIKELY(r->serialize) && pos_of(c, r) != s->head)
			return 0;               /* serializing: only from the ROB head */
		lat = cfg->alu_latency;
		break;
	case FU_MUL:
		if (x->used[FU_MUL] >= cfg->mul_units)
			return 0;
		lat = cfg->mul_latency;
		break;
	case FU_DIV: {
		uint32_t d = 0;
		while (d < cfg->div_units && c->div_free[d] > now)
			d++;
		if (d == cfg->div_units)
			return 0;
		c->div_free[d] = now + cfg->div_latency;   /* not pipelined */
		if (c->div_free[d] > s->units_busy_until)
			s->units_busy_until = c->div_free[d];
		lat = cfg->div_latency;
		break;
	}
	case FU_FP:
		if (x->used[FU_FP] >= cfg->fp_units)
			return 0;
		lat = r->op_class == UOP_FMA ? cfg->fma_latency :
		      r->op_class == UOP_SIMD ? cfg->simd_latency : cfg->fp_latency;
		break;
	case FU_FDIV: {
		uint32_t d = 0;
		while (d < cfg->fdiv_units && c->fdiv_free[d] > now)
			d++;
		if (d == cfg->fdiv_units)
			return 0;
		c->fdiv_free[d] = now + cfg->fdiv_latency; /* not pipelined */
		if (c->fdiv_free[d] > s->units_busy_until)
			s->units_busy_until = c->fdiv_free[d];
		lat = cfg->fdiv_latency;
		break;
	}
	default:
		if (x->used[FU_MEM] >= cfg->mem_ports)
			return 0;
		if (r->op_class == UOP_LOAD) {
			if (!issue_load(c, r))
				return 0;
			lat = (uint32_t)(r->complete_cycle - now);
		} else {
			lat = 1;                /* address and data into the store queue */
		}
		break;
	}
	x->used[r->fu]++;
	x->left--;
	r->complete_cycle = now + (lat ? lat : 1);
	r->issue_cycle = now;
	r->state = IS_ISSUED;
	clear_ready(c, core_slot(c, r));
	s->iq_count--;
	s->stats.issued++;
	s->cc.issued++;
	s->cc.issued_correct += !r->wrong_path;
	wheel_insert(c, r);
	if (UNLIKELY(r->agu_head != CORE_NIL))
		c->agu_issued[x->n_agu++] = (int32_t)core_slot(c, r);
	if (core_insn_wanted(c, r, INSN_ISSUE))
		core_insn_event(c, r, INSN_ISSUE, NULL, 0);
	return 1;
}

static void issue_inorder(struct core *c, struct issue_ctx *x)
{
	struct core_state *s = &c->s;
	if (s->issue_pos < s->head)
		s->issue_pos = s->head;
	while (x->left && s->issue_pos != s->dispatch) {
		struct core_insn *r = core_at(c, s->issue_pos);
		if (r->state == IS_WAITING) {
			if (r->pending || !try_issue(c, r, x))
				break;          /* stall on the first instruction that cannot go */
		}
		s->issue_pos++;
	}
}

static inline __attribute__((always_inline)) void issue_ooo(struct core *c, struct issue_ctx *x)
{
	if (!c->s.iq_count)
		return;
	/* Oldest first: the ready bits from the head's slot on. Only the ROB
	 * [head, dispatch) has ready bits, so the scan covers the words it
	 * spans, not the whole ring; when it wraps back into the head's word,
	 * that word's slots below the head are the youngest. */
	uint32_t start = (uint32_t)(c->s.head & c->ring_mask);
	uint32_t first = start >> 6, w = first, mask = c->ready_words - 1;
	uint64_t left = ((start & 63) + (c->s.dispatch - c->s.head) + 63) >> 6;   /* words to visit */
	uint64_t bits = c->ready[w] & (~0ull << (start & 63));
	for (;;) {
		while (bits) {
			uint32_t slot = w * 64 + (uint32_t)__builtin_ctzll(bits);
			bits &= bits - 1;
			try_issue(c, &c->ring[slot], x);
			if (!x->left)
				return;
		}
		if (--left == 0)
			break;
		w = (w + 1) & mask;
		bits = c->ready[w];
		if (w == first)
			bits &= (1ull << (start & 63)) - 1;
	}
}

void core_issue_stage(struct core *c)
{
	struct issue_ctx x = { .left = c->cfg.issue_width };
	if (c->cfg.inorder)
		issue_inorder(c, &x);
	else
		issue_ooo(c, &x);
	for (uint32_t i = 0; i < x.n_agu; i++) {
		struct core_insn *r = &c->ring[c->agu_issued[i]];
		wake(c, r->agu_head);
		r->agu_head = CORE_NIL;
	}
	c->agu_woke = x.n_agu > 0;
}

/* ---- squash ------------------------------------------------------------------ */

/* Count squashed instruction q, and publish its event if wanted. */
static inline void squashed(struct core *c, const struct core_insn *q)
{
	c->s.stats.squashed++;
	c->s.cc.squashed++;
	if (core_insn_wanted(c, q, INSN_SQUASH))
		core_insn_event(c, q, INSN_SQUASH, NULL, 0);
}

static void squash_after(struct core *c, struct core_insn *br)
{
	struct core_state *s = &c->s;
	uint64_t bpos = pos_of(c, br);
	/* producers that survive forget the consumers being squashed (their
	 * lists are youngest first) */
	for (uint64_t p = s->head; p <= bpos; p++) {
		struct core_insn *q = core_at(c, p);
		if (q->state == IS_DONE)
			continue;
		while (q->dep_head != CORE_NIL && c->ring[q->dep_head >> 2].seq > br->seq)
			q->dep_head = c->edges[q->dep_head];
		while (q->agu_head != CORE_NIL && c->ring[q->agu_head >> 2].seq > br->seq)
			q->agu_head = c->edges[q->agu_head];
	}
	/* the ROB's part (the branch itself is in the ROB): out of the issue
	 * queue or the completion wheel, the ROB and the LSQ */
	for (uint64_t p = bpos + 1; p != s->dispatch; p++) {
		struct core_insn *q = core_at(c, p);
		switch (q->state) {
		case IS_WAITING:
			s->iq_count--;
			clear_ready(c, core_slot(c, q));
			break;
		case IS_ISSUED:
			wheel_unlink(c, q);
			if (q->has_dmiss)
				end_dmiss(c, q);
			break;
		default:
			break;
		}
		s->rob_count--;
		if (q->fu == FU_MEM)
			s->lsq_count--;
		squashed(c, q);
	}
	/* the frontend's part: only counted, at once when no observer takes
	 * their events */
	if (c->insn_want[INSN_SQUASH]) {
		for (uint64_t p = s->dispatch; p != s->tail; p++)
			squashed(c, core_at(c, p));
	} else {
		s->stats.squashed += s->tail - s->dispatch;
		s->cc.squashed += (int)(s->tail - s->dispatch);
	}
	s->tail = bpos + 1;
	if (s->dispatch > s->tail)
		s->dispatch = s->tail;
	if (s->issue_pos > s->tail)
		s->issue_pos = s->tail;
	while (s->sq_tail > s->sq_head && c->sq[(s->sq_tail - 1) & (c->sq_size - 1)] > bpos) {
		s->sq_tail--;
		core_sq_filter(c, core_at(c, c->sq[s->sq_tail & (c->sq_size - 1)]), -1);
	}
	if (s->sq_known > s->sq_tail)
		s->sq_known = s->sq_tail;
	core_rebuild_rename(c);
}

/* The oldest misprediction resolved: squash the wrong path, restore the
 * predictor and the guest, and redirect fetch (from the next cycle). */
static __attribute__((noinline)) void resolve_mispredict(struct core *c, struct core_insn *br)
{
	struct core_state *s = &c->s;
	squash_after(c, br);
	if (!c->cfg.perfect_bpred)
		bpred_recover(c->bp, br->uop, br->pc, &c->preds[core_slot(c, br)].cp, br->taken, br->next_pc);
	guest_spec_end(c->g);
	s->spec = 0;
	if (s->fetch_wait)
		core_fetch_wait_end(c);
	s->fetch_halt = HALT_NONE;
	s->fetch_resume = s->cycle + 1;
	s->redirect = 1;
	s->redirect_pc = br->pc;
	/* The guest's pc, which is the issue head while the frontend is empty
	 * (cycle_record.issue_head_pc), moved to the right path even when
	 * nothing was squashed and the cycle looks idle: its record must name
	 * the head anew, not repeat the last one's. */
	core_event_published(c);
	c->cc_current = 0;
}

/* ---- writeback ---------------------------------------------------------------- */

static inline __attribute__((always_inline)) void complete(struct core *c, struct core_insn *r)
{
	c->activity++;
	r->state = IS_DONE;
	if (UNLIKELY(r->has_dmiss))
		end_dmiss(c, r);
	wake(c, r->dep_head);
	r->dep_head = CORE_NIL;
	if (core_insn_wanted(c, r, INSN_COMPLETE))
		core_insn_event(c, r, INSN_COMPLETE, NULL, 0);
	if (UNLIKELY(r->mispredicted) && !r->wrong_path)
		resolve_mispredict(c, r);
}

/* A parked instruction reached (wheel_insert) that is not due yet: back
 * in the wheel. Out of line, off the completion loop's hot path. */
static __attribute__((noinline)) void repark(struct core *c, struct core_insn *r)
{
	c->activity++;
	wheel_insert(c, r);
}

void core_writeback_stage(struct core *c)
{
	struct core_state *s = &c->s;
	int32_t *bucket = &c->wheel[s->cycle & (CORE_WHEEL_SIZE - 1)];
	while (*bucket != CORE_NIL) {
		struct core_insn *r = &c->ring[*bucket];
		*bucket = r->wheel_next;
		if (UNLIKELY(r->complete_cycle > s->cycle))
			repark(c, r);           /* parked: not yet */
		else
			complete(c, r);
	}
}
