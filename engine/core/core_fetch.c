/*
 * core_fetch.c — the fetch stage and fast-forwarding.
 *
 * Fetch works on blocks: the instructions from the fetch pc up to the end
 * of its I-cache line, at most fetch_width of them, ending early after a
 * branch predicted taken. Each block costs one I-cache + I-TLB access
 * (memsys_ifetch). A hit delivers the block in the same cycle (the hit
 * latency is part of the frontend depth); a miss stalls fetch for the
 * extra cycles, then delivers the block without a second access.
 *
 * Delivering a block steps the guest one instruction at a time: the guest
 * is the oracle, so the actual successor of every branch is known here.
 * When the predicted successor differs, the branch is mispredicted and
 * fetch follows the prediction: the guest enters speculative mode
 * (guest_spec_begin, after the branch so its checkpoint is the correct
 * state) and its pc is set to the predicted pc. Every later instruction is
 * wrong-path until the branch resolves (core_backend.c squashes and calls
 * guest_spec_end). Branches on the wrong path are predicted too and fetch
 * follows their predictions; they never redirect (only the oldest, real
 * misprediction does). A wrong path that reaches something it cannot run
 * (a would-be fault, trap or system call) halts fetch until the squash.
 *
 * On the correct path a system call runs when it is fetched (its output
 * appears then) and fetch halts until it commits; a fault or trap is
 * recorded on a final instruction that ends the run when it commits.
 */
#include <stddef.h>
#include <string.h>
#include "core_internal.h"
#include "isa/cpu.h"

/* Stands in for an instruction that could not be fetched at all. */
static const struct uop fault_uop = { .op_class = UOP_HALT };

/* Functional-unit pool of each uop class. */
static const uint8_t fu_of_class[UOP_CLASS_COUNT] = {
	[UOP_LOAD] = FU_MEM, [UOP_STORE] = FU_MEM, [UOP_MUL] = FU_MUL, [UOP_DIV] = FU_DIV,
	[UOP_FP] = FU_FP, [UOP_FMA] = FU_FP, [UOP_SIMD] = FU_FP, [UOP_FDIV] = FU_FDIV,
};

/* The INSN_WANT_* classes of each micro-op class and branch kind, in one
 * lookup on the fetch path. */
#define B(kind, bits) [UOP_BRANCH][kind] = INSN_WANT_BRANCH | (bits)
static const uint8_t want_of_uop[UOP_CLASS_COUNT][BRANCH_RETURN + 1] = {
	[UOP_LOAD][BRANCH_NONE] = INSN_WANT_LOAD, [UOP_STORE][BRANCH_NONE] = INSN_WANT_STORE,
	[UOP_MUL][BRANCH_NONE] = INSN_WANT_LONG_LATENCY, [UOP_DIV][BRANCH_NONE] = INSN_WANT_LONG_LATENCY,
	B(BRANCH_NONE, 0), B(BRANCH_COND, 0), B(BRANCH_UNCOND, 0), B(BRANCH_INDIRECT, 0),
	B(BRANCH_CALL, INSN_WANT_CALL), B(BRANCH_CALL_INDIRECT, INSN_WANT_CALL),
	B(BRANCH_RETURN, INSN_WANT_CALL),
};
#undef B

/* The event classes (ev_bits) of r, from its static uop and its fetch. */
static inline uint32_t core_ev_bits(const struct core_insn *r)
{
	uint32_t bits = want_of_uop[r->op_class][r->uop->branch_kind] | (r->icache_miss ? INSN_WANT_IMISS : 0);
	return CORE_EV_ANY | bits | (r->wrong_path ? 0 : CORE_EV_CP(bits));
}

/* Unit, long-latency and serializing flags, event classes (table lookups:
 * a switch over the class is an unpredictable indirect jump on the hot
 * path). */
static inline void classify(const struct core *c, struct core_insn *r)
{
	const struct uop *u = r->uop;
	r->fu = fu_of_class[u->op_class];
	r->ev_bits = core_ev_bits(r);
	r->long_latency = (uint8_t)((c->long_classes >> u->op_class) & 1);
	r->serialize = u->op_class == UOP_SYSCALL;
	r->wb_reg = (uint8_t)(u->wb_base - 1);   /* (0: REG_NONE) */
	if (u->op_class == UOP_STORE) {
		/* The base and index registers form the address; the data
		 * registers (rd, ra) only feed the store's data. */
		for (int k = 0; k < u->n_src; k++) {
			uint8_t reg = u->src[k];
			if (reg == u->rn || (reg == u->rm && u->rm != u->rd && u->rm != u->ra))
				r->addr_src_mask |= (uint8_t)(1u << k);
		}
	}
}

/* The next ring slot. Fields are set one by one: a memset of the whole
 * record is a slow `rep stos` on the hottest path. */
static inline struct core_insn *alloc_insn(struct core *c, const struct guest_step *st)
{
	struct core_state *s = &c->s;
	struct core_insn *r = core_at(c, s->tail++);
	/* Read the report field by field: guest_step has just written them
	 * one by one, and a wider (vectorized) load spanning two of those
	 * stores cannot be forwarded from the store buffer — a long stall on
	 * every instruction. The empty asm keeps the compiler from merging. */
	uint64_t pc = st->pc, next_pc = st->next_pc, mem_addr = st->mem_addr;
	__asm__("" : "+r"(pc), "+r"(next_pc), "+r"(mem_addr));
	r->seq = s->next_seq++;
	r->pc = pc;
	r->uop = st->uop ? st->uop : &fault_uop;
	r->op_class = r->uop->op_class;
	r->next_pc = next_pc;
	r->pred_next = next_pc;
	r->mem_addr = mem_addr;
	r->ready_cycle = s->cycle + c->depth;
	r->dep_head = CORE_NIL;
	r->agu_head = CORE_NIL;
	r->state = IS_FRONTEND;
	r->fu = FU_ALU;
	r->wrong_path = (uint8_t)s->spec;
	r->taken = (uint8_t)st->taken;
	memset(&r->pending, 0, offsetof(struct core_insn, zero_end) - offsetof(struct core_insn, pending));
	s->stats.fetched++;
	s->cc.fetched++;
	return r;
}

/* After a block is fetched (cc.fetched instructions, at the young end
 * of the ring): if it came late, for cycle_record.issue_wait, mark its
 * instructions with why and whom to blame. `late` is the I-side miss it
 * waited on; else it is late if it refills the frontend after a
 * misprediction, fetched on the correct path: its first instruction's
 * wrong_path is the speculation state the block started in. */
static inline void mark_late(struct core *c, int late)
{
	struct core_state *s = &c->s;
	uint32_t n = (uint32_t)s->cc.fetched;
	if (!n)
		return;
	uint64_t first = s->tail - n, pc, mask = c->ring_mask;
	const struct core_insn *r0 = core_at(c, first);
	if (late != ISSUE_WAIT_NONE)
		pc = r0->pc;                    /* the fetch address */
	else if (s->redirect && !r0->wrong_path) {
		late = ISSUE_WAIT_MISPREDICT;
		pc = s->redirect_pc;
	} else
		return;
	for (uint64_t slot = first & mask; n--; slot = (slot + 1) & mask) {
		c->ring[slot].fe_cause = (uint8_t)late;
		c->ring[slot].fe_pc = pc;
	}
}

/* Predict branch r; on a misprediction make the guest follow the
 * prediction. Returns whether fetch follows a taken branch (which ends
 * the fetch block, even to the next instruction). */
static int predict(struct core *c, struct core_insn *r)
{
	struct core_state *s = &c->s;
	uint64_t pred = r->next_pc;
	int taken = r->taken;
	if (!c->cfg.perfect_bpred) {
		/* predicted straight into the side array: no copy of the
		 * checkpoint (which would also defeat store forwarding) */
		struct bpred_prediction *p = &c->preds[core_slot(c, r)];
		bpred_predict(c->bp, r->uop, r->pc, p);
		taken = p->taken && p->target;
		pred = taken ? p->target : r->pc + 4;
	}
	if (__builtin_expect(pred != r->next_pc, 0) && r->seq == s->forgive_seq &&
	    s->forgive_kind == MISS_MISPREDICT) {
		pred = r->next_pc;   /* what-if (core_forgive): predicted correctly */
		taken = r->taken;
	}
	if (pred != r->next_pc) {
		r->mispredicted = 1;
		r->ev_bits |= INSN_WANT_MISPREDICT | (r->wrong_path ? 0 : CORE_EV_CP(INSN_WANT_MISPREDICT));
		r->pred_next = pred;
		if (!s->spec) {
			guest_spec_begin(c->g);
			s->spec = 1;
		}
		guest_cpu(c->g)->pc = pred;
	}
	return taken;
}

/* Start the access for the block at pc. 1: it hit, deliver now; 0: fetch
 * waits (miss outstanding, or no MSHR free). */
static int access_block(struct core *c, uint64_t pc)
{
	struct core_state *s = &c->s;
	int correct = !s->spec;
	if (!correct && !c->cfg.wrong_path_memory)
		return 1;
	if (__builtin_expect(s->next_seq == s->forgive_seq, 0)) {
		int k = s->forgive_kind;
		if (k == MISS_L1I || k == MISS_L2I || k == MISS_ITLB) {
			memsys_warm_ifetch(c->ms, pc);   /* what-if (core_forgive): the block hits */
			return 1;
		}
	}
	struct mem_access a;
	memsys_ifetch(c->ms, pc, s->cycle, &a);
	if (a.blocked)
		return 0;
	uint64_t hit_ready = s->cycle + c->cfg.l1i.latency;
	if (a.ready <= hit_ready)
		return 1;
	c->activity++;
	s->fetch_wait = 1;
	s->fetch_wait_until = s->cycle + (a.ready - hit_ready);
	s->fetch_walk_end = s->cycle + (a.tlb_miss ? c->cfg.itlb.miss_latency : 0);
	s->fetch_wait_correct = correct;
	s->fetch_wait_kind = a.l2_miss ? MISS_L2I : a.l1_miss ? MISS_L1I : -1;
	uint64_t line = pc & c->line_mask;
	int k = 0;
	if (a.tlb_miss)
		core_miss_begin(c, &s->ifetch_ev[k++], MISS_ITLB, s->next_seq, pc, line, correct);
	if (s->fetch_wait_kind >= 0)
		core_miss_begin(c, &s->ifetch_ev[k++], s->fetch_wait_kind, s->next_seq, pc, line, correct);
	return 0;
}

/* Stop waiting for an outstanding I-side miss: it arrived, or a redirect
 * abandoned it. */
void core_fetch_wait_end(struct core *c)
{
	struct core_state *s = &c->s;
	core_miss_end(c, &s->ifetch_ev[0]);
	core_miss_end(c, &s->ifetch_ev[1]);
	s->fetch_wait = 0;
}

int core_fetch_stage(struct core *c, struct ivx_err *err)
{
	struct core_state *s = &c->s;
	(void)err;
	if (s->fetch_halt || s->cycle < s->fetch_resume)
		return IVX_OK;
	/* Why this block comes late (mark_late, after the loop: fe_cause is
	 * cleared with the rest of a new record, and a timely block pays
	 * nothing per instruction): an I-side miss, or a redirect. */
	int imiss = 0, late = ISSUE_WAIT_NONE;
	struct guest *g = c->g;
	struct cpu *cpu = guest_cpu(g);
	if (s->fetch_wait) {
		if (s->cycle < s->fetch_wait_until)
			return IVX_OK;
		core_fetch_wait_end(c);
		imiss = 1;
		late = s->fetch_wait_kind == MISS_L2I ? ISSUE_WAIT_L2I :
		       s->fetch_wait_kind == MISS_L1I ? ISSUE_WAIT_L1I : ISSUE_WAIT_ITLB;
	} else {
		if (s->tail - s->dispatch >= c->fe_capacity)
			return IVX_OK;       /* fetch buffer full */
		if (!access_block(c, cpu->pc))
			return IVX_OK;
	}
	/* as many as fit (a miss waits with the buffer untouched: only
	 * dispatch and squashes change it meanwhile, both freeing room) */
	uint32_t room = c->fe_capacity - (uint32_t)(s->tail - s->dispatch);
	uint32_t width = room < c->cfg.fetch_width ? room : c->cfg.fetch_width;
	guest_set_time_ns(g, s->time_base + s->cycle);   /* 1 GHz */
	uint64_t line = cpu->pc & c->line_mask;
	for (uint32_t n = 0; n < width; n++) {
		if ((cpu->pc & c->line_mask) != line)
			break;
		struct guest_step st;
		int rc = guest_step(g, &st, &s->fault_err);
		if (rc < 0) {
			/* correct path: the run ends when this commits */
			struct core_insn *r = alloc_insn(c, &st);
			r->fault = 1;
			r->fu = FU_ALU;
			r->op_class = UOP_HALT;        /* whatever it was, it only stops the run */
			r->wb_reg = REG_NONE;
			r->icache_miss = (uint8_t)imiss;
			r->ev_bits = core_ev_bits(r);
			s->fetch_halt = HALT_FAULT;
			if (core_insn_wanted(c, r, INSN_FETCH))
				core_insn_event(c, r, INSN_FETCH, NULL, 0);
			break;
		}
		if (st.result != ISA_NEXT && st.result != ISA_TAKEN) {
			s->fetch_halt = HALT_WRONG_PATH;
			c->activity++;
			break;
		}
		struct core_insn *r = alloc_insn(c, &st);
		r->icache_miss = (uint8_t)imiss;
		imiss = 0;
		classify(c, r);
		/* the block ends after r: a branch predicted taken (even to the
		 * next instruction), or a system call */
		int ends = 0;
		if ((c->fetch_more >> r->op_class) & 1) {
			if (r->op_class == UOP_LOAD) {
				r->load_value = cpu->x[r->uop->rd];   /* (read only for loads) */
			} else if (r->op_class == UOP_BRANCH) {
				ends = predict(c, r);
				if (c->n_cycle_sub) {
					struct fetched_branch *b = &s->cc.branch_fetched[s->cc.branches_fetched++];
					b->seq = r->seq;
					b->pc = r->pc;
					b->rob_index = (int)core_slot(c, r);
					b->wrong_path = r->wrong_path;
				}
			} else {
				ends = 1;                      /* UOP_SYSCALL */
			}
		}
		if (core_insn_wanted(c, r, INSN_FETCH))
			core_insn_event(c, r, INSN_FETCH, NULL, 0);
		if (ends) {
			if (r->op_class == UOP_SYSCALL)
				s->fetch_halt = HALT_SYSCALL;   /* serialize: resume when it commits */
			break;
		}
	}
	if (__builtin_expect((late | s->redirect) != 0, 0))
		mark_late(c, late);
	return IVX_OK;
}

/* Run up to n instructions functionally, warming what the core keeps;
 * with `until` > 0, stop before the until-th arrival at stop_pc (*reached = 1). */
static int fast_forward(struct core *c, uint64_t n, uint64_t until, uint64_t stop_pc, int *reached,
			struct ivx_err *err)
{
	struct core_state *s = &c->s;
	if (s->tail != s->head || s->spec)
		return ivx_error(err, IVX_EUSAGE, "fast-forward needs an empty pipeline (before timing starts)");
	struct guest *g = c->g;
	struct cpu *cpu = guest_cpu(g);
	uint64_t last_line = ~(uint64_t)0;
	for (uint64_t i = 0; i < n && guest_state(g) == GUEST_RUNNING; i++) {
		uint64_t pc = cpu->pc;
		if (until && pc == stop_pc && --until == 0) {
			*reached = 1;
			break;
		}
		if ((pc & c->line_mask) != last_line) {
			memsys_warm_ifetch(c->ms, pc);
			last_line = pc & c->line_mask;
		}
		struct guest_step st;
		int rc = guest_step(g, &st, err);
		if (rc < 0)
			return rc;
		const struct uop *u = st.uop;
		if (u->op_class == UOP_LOAD || u->op_class == UOP_STORE)
			memsys_warm_data(c->ms, st.mem_addr, u->op_class == UOP_STORE);
		else if (u->op_class == UOP_BRANCH && !c->cfg.perfect_bpred)
			bpred_warm(c->bp, u, pc, st.taken, st.next_pc);
	}
	if (guest_state(g) == GUEST_EXITED)
		s->done = 1;
	if (guest_insns(g) > s->cycle)            /* the clock goes on from the instructions run */
		s->time_base = guest_insns(g) - s->cycle;
	return IVX_OK;
}

int core_fastforward(struct core *c, uint64_t n, struct ivx_err *err)
{
	int reached = 0;
	return fast_forward(c, n, 0, 0, &reached, err);
}

int core_fastforward_until(struct core *c, uint64_t pc, uint64_t count, uint64_t max_insns, struct ivx_err *err)
{
	int reached = 0;
	if (!count)
		return ivx_error(err, IVX_EUSAGE, "fast-forward until the 0th arrival at 0x%llx", (unsigned long long)pc);
	int rc = fast_forward(c, max_insns ? max_insns : UINT64_MAX, count, pc, &reached, err);
	if (rc < 0 || reached)
		return rc;
	if (guest_state(c->g) == GUEST_EXITED)
		return ivx_error(err, IVX_EUSAGE, "the program exited before reaching 0x%llx%s", (unsigned long long)pc,
				 count > 1 ? " that many times" : "");
	return ivx_error(err, IVX_EUSAGE, "0x%llx not reached in %llu instructions", (unsigned long long)pc,
			 (unsigned long long)max_insns);
}
