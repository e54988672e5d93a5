/*
 * core_internal.h — the core model's state, shared by its files:
 *
 *   core.c           creation, the cycle loop, commit (and the miss events
 *                    of stores), statistics, events
 *   core_fetch.c     fetch (I-cache, prediction, wrong path), fast-forward
 *   core_backend.c   dispatch/rename, issue, writeback, squash
 *   core_snapshot.c  snapshots
 *
 * Every in-flight instruction lives in one circular array, `ring`, in
 * fetch order. Three positions (monotonic counters; slot = pos & mask)
 * split it:
 *
 *      head            dispatch              tail
 *       |   ROB (dispatched) |  frontend (fetched) |   free
 *
 * commit advances head, dispatch advances dispatch, fetch advances tail,
 * and a squash pulls tail (and dispatch) back. Every other structure is a
 * fixed-size array too (dependence edges, the completion wheel, the store
 * queue, ready bits), all in one allocation, `block`, so a snapshot is one
 * memcpy of it plus `struct core_state`. The one exception is the list of
 * the miss events of stores that have left the ROB (`smiss`): its length
 * has no useful bound from the configuration, so it grows by doubling when
 * it is full — only when more store misses are in flight than ever
 * before, never per cycle in a steady state.
 *
 * Not for other modules: they use core.h.
 */
#ifndef IVX_CORE_INTERNAL_H
#define IVX_CORE_INTERNAL_H

#include <stdint.h>
#include "bpred.h"
#include "core.h"
#include "guest/guest.h"
#include "memsys.h"
#include "isa/uop.h"

#define CORE_MAX_OBSERVERS 16
#define CORE_COUNT_RANGES  8              /* executable segments with commit counts */
#define CORE_WHEEL_SIZE    1024           /* completion wheel buckets (power of two) */
#define CORE_NIL           (-1)           /* empty link */
#define CORE_SQ_FILTER     256            /* store-queue filter buckets (power of two) */
/* ev_bits: an instruction's INSN_WANT_* class bits in the low half; the
 * same bits again, shifted up by CORE_EV_CP_SHIFT, when it is on the
 * correct path (for observers that add INSN_WANT_CORRECT_PATH); and
 * CORE_EV_ANY, which every instruction has (an observer with filter 0). */
#define CORE_EV_CP_SHIFT   16
#define CORE_EV_CP(bits)   ((uint32_t)(bits) << CORE_EV_CP_SHIFT)
#define CORE_EV_ANY        0x80000000u

/* Where an instruction is. */
enum insn_state {
	IS_FRONTEND,      /* fetched, in the frontend pipeline / fetch buffer */
	IS_WAITING,       /* in the ROB and the issue queue */
	IS_ISSUED,        /* executing; completes at complete_cycle */
	IS_DONE,          /* completed; waits to commit */
};

/* Functional-unit pools. */
enum core_fu { FU_ALU, FU_MUL, FU_DIV, FU_MEM, FU_FP, FU_FDIV, FU_COUNT };

/* Why fetch is halted (until a squash or a commit lifts it). */
enum fetch_halt {
	HALT_NONE,
	HALT_SYSCALL,     /* after a correct-path SVC, until it commits */
	HALT_FAULT,       /* after a correct-path fault/trap: the run ends at its commit */
	HALT_WRONG_PATH,  /* the wrong path reached something it cannot run */
};

/* One in-flight instruction: 128 bytes (a power of two, so slot numbers
 * are a shift away, and the ring stays in the L1 cache); rarely used parts
 * live in side arrays indexed by the same slot: the predictor checkpoint
 * of branches (preds) and the miss events of loads (dmiss). The fields from
 * `pending` to `zero_end` are cleared together when a slot is reused. */
struct core_insn {
	uint64_t seq;             /* dynamic instruction number (never reused) */
	uint64_t pc;
	uint64_t next_pc;         /* actual successor on its path */
	uint64_t pred_next;       /* successor the frontend followed */
	uint64_t mem_addr;        /* loads/stores: effective address */
	const struct uop *uop;
	uint64_t ready_cycle;     /* earliest dispatch (fetch + frontend depth) */
	uint64_t issue_cycle;     /* valid once issued */
	uint64_t complete_cycle;  /* once issued: when the result is ready */
	int32_t dep_head;         /* first edge of the list of consumers waiting on it */
	int32_t wheel_next;       /* next in its completion wheel bucket while issued */
	int32_t wheel_bucket;     /* the bucket it is linked in */
	uint32_t ev_bits;         /* CORE_EV_ANY | the INSN_WANT_* classes it belongs to */
	uint8_t state;            /* enum insn_state */
	uint8_t op_class;         /* uop->op_class, kept here to spare a cache line */
	uint8_t fu;               /* enum core_fu */
	uint8_t wrong_path;       /* fetched down a mispredicted path */
	uint8_t taken;            /* branch: actually taken */
	/* cleared at allocation: */
	uint8_t pending;          /* source operands not yet available */
	uint8_t pending_addr;     /* stores: address operands not yet available */
	uint8_t addr_src_mask;    /* stores: bit k = src[k] forms the address */
	uint8_t mispredicted;     /* branch: the followed successor is not the actual one */
	uint8_t icache_miss;      /* first instruction of a block whose fetch missed */
	uint8_t dcache_level;     /* loads: 1 L1, 2 L2, 3 memory */
	uint8_t dtlb_miss;
	uint8_t fault;            /* correct-path fault/trap: the run stops when it commits */
	uint8_t long_latency;     /* mul/div at least long_latency_threshold cycles */
	uint8_t has_dmiss;        /* dmiss[slot] holds events begun by this load */
	uint8_t serialize;        /* system call: issues only from the ROB head */
	uint8_t fe_cause;         /* enum issue_wait: why its fetch came late (0: it did not;
				     set only then, with fe_pc, not on every fetch) */
	uint8_t zero_end[1];
	uint8_t wb_reg;           /* pre/post-indexed load or store: the base register
				     it writes back (ready at the address step), else REG_NONE */
	uint8_t pad[1];
	int32_t agu_head;         /* ... first edge of the consumers waiting on that base */
	uint64_t load_value;      /* loads: the first register loaded (set at fetch) */
	uint64_t fe_pc;           /* ... the instruction to blame (fetch address, branch); stale
				     when fe_cause is 0 */
};

/* D-side miss events a load began (ended when its data returns). */
struct core_dmiss {
	uint64_t id[2];           /* 0 = unused */
	uint8_t kind[2];
};

/* A miss event of a committed store, in progress until its line is filled
 * (the store itself has left the ROB). */
struct core_smiss {
	uint64_t id, start, end;  /* end: the fill cycle, when it is published */
	uint64_t insn_seq, pc, addr;
	int kind;                 /* MISS_L1D, MISS_L2D or MISS_DTLB */
};

/* A state-based miss event in progress (rob_full, rob_empty, fu_stall,
 * mispredict, the I-side events of the outstanding fetch). */
struct core_active {
	uint64_t id;              /* 0 = none in progress */
	uint64_t start;
	uint64_t insn_seq, pc, addr;
	int kind;
	int correct_path;
};

struct core_state {
	uint64_t cycle;           /* the cycle being (or next to be) simulated */
	uint64_t units_busy_until; /* the first cycle every divider and FP divider is free */
	uint64_t next_seq;
	uint64_t next_event_id;
	uint64_t head, dispatch, tail;   /* ring positions */
	uint64_t issue_pos;       /* in-order mode: oldest instruction not yet issued */
	uint64_t sq_head, sq_tail;       /* store queue: ring positions of stores in the ROB */
	uint64_t sq_known;        /* stores in [sq_head, sq_known) have their address */
	uint16_t sq_filter[CORE_SQ_FILTER]; /* stores in the queue per 8-byte word hash:
				     a load whose words all count 0 overlaps none */
	int rob_count, iq_count, lsq_count;

	/* fetch */
	uint64_t fetch_resume;    /* no fetch before this cycle (redirect bubble) */
	int fetch_halt;           /* enum fetch_halt */
	int fetch_wait;           /* an I-side miss is outstanding */
	uint64_t fetch_wait_until;/* ... and its block arrives at this cycle */
	uint64_t fetch_walk_end;  /* I-TLB walk part ends here */
	int fetch_wait_kind;      /* MISS_L1I or MISS_L2I (or -1: TLB only) */
	int fetch_wait_correct;
	struct core_active ifetch_ev[2];

	/* wrong path */
	int spec;                 /* fetch is past an unresolved misprediction */
	int redirect;             /* resolved; no correct-path dispatch since */
	uint64_t redirect_pc;     /* the branch whose misprediction was resolved last */

	/* state-based events */
	struct core_active ev_mispredict, ev_rob_full, ev_rob_empty, ev_fu_stall;

	/* miss events of committed stores: smiss[0 .. n_smiss), in begin order */
	uint32_t n_smiss;
	uint64_t smiss_next_end;  /* the earliest end among them (UINT64_MAX: none) */

	/* rename map: latest in-flight writer of each register */
	uint32_t rename_slot[REG_COUNT];
	uint64_t rename_seq[REG_COUNT];

	uint64_t time_base;       /* guest clock (ns) at cycle 0: continues the functional clock */
	uint64_t last_commit_cycle;
	uint64_t handler_until;   /* core_interrupt: in a handler in the cycles before this one */
	uint64_t forgive_seq;     /* core_forgive: this instruction's event does not happen (0: none) */
	int forgive_kind;         /* ... the event's miss kind */
	int done;                 /* the exit has committed */
	int stop_requested;
	struct ivx_err fault_err; /* the error of the faulting instruction (fetch_halt == HALT_FAULT) */

	struct core_stats stats;
	/* This cycle's record (its counts reset every cycle): the stages
	 * count into it (fetched .. squashed, rob_full, head_wait when
	 * nothing committed), publish_cycle fills in the rest. */
	struct cycle_record cc;
};

/* An observer's callback, with the instruction classes it wants (on_insn). */
struct core_sub {
	void *ctx;
	union {
		void (*insn)(void *ctx, const struct insn_event *e);
		void (*cycle)(void *ctx, const struct cycle_record *r);
		void (*head)(void *ctx, uint64_t pc, uint64_t n);
		void (*taken)(void *ctx, uint64_t pc);
		uint64_t (*commit)(void *ctx, uint64_t first, const struct commit_rec *r, int n);
	} fn;
	void (*idle)(void *ctx, const struct cycle_record *r, uint64_t n); /* cycle: on_idle_cycles */
	uint32_t want[INSN_STAGE_COUNT]; /* insn, per stage: the ev_bits it wants
				     (CORE_EV_ANY: all; 0: none) */
	uint64_t from;                  /* commit: the first committed instruction it wants */
};

struct core {
	struct machine_config cfg;
	struct guest *g;
	struct memsys *ms;
	struct bpred *bp;
	struct core_observer obs[CORE_MAX_OBSERVERS];
	int n_obs;
	/* The observers that have each callback, in order, so publishing
	 * loops over exactly those (miss events: miss_takers below). insn_want[stage] is the union of what
	 * the subscribers want at that stage, tested against a record's
	 * ev_bits before any instruction event is built; miss_mask is the
	 * union of the miss masks, tested before a miss event is. */
	struct core_sub insn_sub[CORE_MAX_OBSERVERS];
	struct core_sub cycle_sub[CORE_MAX_OBSERVERS];
	struct core_sub head_sub[CORE_MAX_OBSERVERS];   /* on_new_head */
	struct core_sub taken_sub[CORE_MAX_OBSERVERS];  /* on_new_taken */
	struct core_sub commit_sub[CORE_MAX_OBSERVERS]; /* on_commit */
	int n_insn_sub, n_cycle_sub, n_head_sub, n_taken_sub, n_commit_sub;
	/* this cycle's commits, for on_commit (filled only when a subscriber
	 * may want one; not state: handed over within the cycle), and the
	 * least of the subscribers' `from` */
	struct commit_rec commits[CYCLE_MAX_COMMIT];
	uint64_t commit_from;
	uint32_t insn_want[INSN_STAGE_COUNT]; /* per stage: the union of the subs' want */
	int keep_load_values;     /* some observer may receive loads: fetch records their values */
	uint32_t fetch_more;      /* bit per uop class: fetch does more than allocate and
				     classify (branches, system calls, and loads while
				     keep_load_values); one test for the others */
	uint32_t miss_mask, miss_end_mask;
	/* ... and per phase and kind, the miss subscribers that take it, in
	 * order: a program with a miss event every few cycles (muldiv's
	 * divider stalls) would otherwise test every subscriber's mask at
	 * each begin and end */
	struct core_miss_taker {
		void *ctx;
		void (*fn)(void *ctx, const struct miss_event *e);
	} miss_takers[2][MISS_KIND_COUNT][CORE_MAX_OBSERVERS];
	uint8_t n_miss_takers[2][MISS_KIND_COUNT];
	/* s.cc's occupancies and in-order positions are those of the last
	 * published cycle, so a cycle in which nothing moved need not work
	 * them out again (publish_cycle). Cleared when observers change and
	 * on a snapshot restore. */
	int cc_current;
	/* Runs of idle cycles held back for the observers' on_idle_cycles
	 * (publish_cycle): whether every cycle subscriber takes them; whether
	 * the last record published may be repeated (it was idle and no event
	 * was published since), with what it showed; how many cycles repeat
	 * it so far, and the first of them (its fixed part, CYCLE_RECORD_FIXED).
	 * Nothing is pending whenever core_run or core_cycle has returned. */
	int idle_batching;
	int idle_repeatable;
	int cycle_head_only;      /* every cycle subscriber reads only the head fields (publish_head) */
	uint32_t cycle_skip;      /* CYCLE_SKIP_* fields no cycle subscriber reads (publish_cycle) */
	int end_of_cycle_work;    /* head cycles counted or a cycle subscriber: end_of_cycle's
				     one test for both (update_wants, core_count_head_cycles) */
	struct idle_key {
		int fetch_stall, head_wait, rob_full, rob_full_wrong_path, long_misses_outstanding;
		int issue_wait;
		uint64_t issue_wait_pc;
		int units_busy;
	} idle_key;
	uint64_t idle_pending;
	struct cycle_record idle_first;
	/* Counts what changes the core's state without moving an instruction
	 * (an instruction completing, a miss event beginning or ending, fetch
	 * starting to wait or halting): a cycle in which nothing moved and
	 * this did not change leaves the state as it found it, so the cycles
	 * after it repeat it until the next known event time (core.c,
	 * skip_quiet). Not state: only compared within one cycle. */
	uint64_t activity;

	struct core_state s;

	/* derived sizes */
	uint32_t ring_size;       /* power of two >= rob + frontend capacity */
	uint64_t ring_mask;
	uint32_t fe_capacity;     /* instructions the frontend holds */
	uint32_t sq_size;         /* power of two >= lsq_size */
	uint64_t line_mask;       /* ~(I-cache line - 1) */
	uint32_t depth;           /* frontend depth, at least 1 */
	uint32_t long_classes;    /* bit per uop class: a long-latency unit (fu_stall) */

	/* the arrays, all inside `block` */
	void *block;
	size_t block_bytes;
	struct core_insn *ring;
	struct bpred_prediction *preds; /* per slot: branch predictions and checkpoints */
	struct core_dmiss *dmiss; /* per slot: D-side miss events */
	int32_t *edges;           /* edge e = consumer slot * 4 + src index: next edge */
	uint64_t *ready;          /* bit per ring slot: operands ready, not issued */
	int32_t *wheel;           /* bucket heads */
	uint64_t *sq;             /* store queue */
	uint64_t *div_free;       /* per divider: first cycle it is free */
	uint64_t *fdiv_free;      /* per FP divider: first cycle it is free */
	uint32_t ready_words;
	/* the slots of the accesses the issue stage has issued whose written-
	 * back base has consumers (used within one issue stage: not state),
	 * and whether the last issue stage woke any (for issue_wait) */
	int32_t agu_issued[CONFIG_MAX_WIDTH];
	int agu_woke;

	/* outside the block (it grows): see struct core_smiss */
	struct core_smiss *smiss;
	uint32_t smiss_cap;

	/* Commits per decoded instruction word of the executable segments
	 * (core_count_commits; NULL: not counted), also outside the block:
	 * only the explorer asks for them. Almost every pc is in the first
	 * range. */
	uint64_t *commit_counts;
	size_t n_commit_counts;
	struct count_range { uint64_t base, span, first; } count_range[CORE_COUNT_RANGES];
	int n_count_ranges;
	/* Cycles each instruction word spent as cycle_record.issue_head_pc
	 * (core_count_head_cycles; NULL: not counted): n_commit_counts + 1
	 * counters, the last one for pcs outside the counted code. */
	uint64_t *head_counts;
	/* Committed taken branches per counted word (core_count_taken; NULL:
	 * not counted); n_commit_counts counters. */
	uint64_t *taken_counts;
};

/* The slot of pc in commit_counts, or -1 outside the counted code. */
static inline long core_count_slot(const struct core *c, uint64_t pc)
{
	/* one unsigned test: a pc below the base wraps and fails it too (the
	 * first range's counters start at slot 0) */
	uint64_t off = pc - c->count_range[0].base;
	if (__builtin_expect(off < c->count_range[0].span, 1))
		return (long)(off >> 2);
	for (int i = 1; i < c->n_count_ranges; i++) {
		off = pc - c->count_range[i].base;
		if (off < c->count_range[i].span)
			return (long)(c->count_range[i].first + (off >> 2));
	}
	return -1;
}

_Static_assert(sizeof(struct core_insn) == 128, "struct core_insn should be 128 bytes");

static inline struct core_insn *core_at(const struct core *c, uint64_t pos)
{
	return &c->ring[pos & c->ring_mask];
}

/* Whether producer p's result in register reg is still to come: a
 * written-back base is there once its access has issued (the address
 * step), any other result once p is done. */
static inline int core_result_pending(const struct core_insn *p, uint8_t reg)
{
	return reg == p->wb_reg ? p->state == IS_WAITING : p->state != IS_DONE;
}

static inline uint32_t core_slot(const struct core *c, const struct core_insn *r)
{
	return (uint32_t)(r - c->ring);
}

/* Count store r in (delta 1) or out of (-1) the store-queue filter. */
static inline void core_sq_filter(struct core *c, const struct core_insn *r, int delta)
{
	uint64_t w = r->mem_addr >> 3, last = (r->mem_addr + r->uop->mem_size - 1) >> 3;
	for (; w <= last; w++)
		c->s.sq_filter[w & (CORE_SQ_FILTER - 1)] += (uint16_t)delta;
}

/* Why fetch delivered no correct-path instructions (enum fetch_stall),
 * for the cycle record. */
static inline int core_fetch_stall_reason(const struct core *c)
{
	const struct core_state *s = &c->s;
	if (__builtin_expect(s->cycle < s->handler_until, 0))
		return FETCH_STALL_OTHER;   /* in an interrupt handler (core_interrupt) */
	if (s->fetch_wait && s->fetch_wait_correct) {
		if (s->cycle < s->fetch_walk_end || s->fetch_wait_kind < 0)
			return FETCH_STALL_ITLB;
		return s->fetch_wait_kind == MISS_L2I ? FETCH_STALL_L2I : FETCH_STALL_L1I;
	}
	if (s->redirect)
		return FETCH_STALL_REDIRECT;
	if (s->spec)
		return FETCH_STALL_WRONG_PATH;
	if (s->fetch_halt)
		return FETCH_STALL_OTHER;
	return FETCH_OK;
}

/* struct core's fetch_more. */
static inline uint32_t core_fetch_more(int keep_load_values)
{
	return 1u << UOP_BRANCH | 1u << UOP_SYSCALL | (keep_load_values ? 1u << UOP_LOAD : 0);
}

/* core_forgive: is the forgiven event a data-side one? */
static inline int core_forgives_data(const struct core *c)
{
	int k = c->s.forgive_kind;
	return k == MISS_L1D || k == MISS_L2D || k == MISS_DTLB;
}

/* Whether some observer wants r's event of `stage` (a constant at every
 * call site of core_insn_event: an unwanted event costs one test). */
static inline int core_insn_wanted(const struct core *c, const struct core_insn *r, int stage)
{
	return (c->insn_want[stage] & r->ev_bits) != 0;
}

/* core.c: event publication, store misses */
void core_flush_idle(struct core *c);   /* hand held-back idle cycles over */
static inline void core_event_published(struct core *c)
{
	if (__builtin_expect(c->idle_pending != 0, 0))
		core_flush_idle(c);
	c->idle_repeatable = 0;
}
int core_smiss_reserve(struct core *c, uint32_t n);   /* room for n; IVX_OK or IVX_ESYS */
uint64_t core_miss_begin(struct core *c, struct core_active *a, int kind, uint64_t insn_seq,
			 uint64_t pc, uint64_t addr, int correct_path);
void core_miss_end(struct core *c, struct core_active *a);
void core_insn_event(struct core *c, const struct core_insn *r, int stage, const uint64_t *deps, int n_deps);

/* core_fetch.c */
int core_fetch_stage(struct core *c, struct ivx_err *err);
void core_fetch_wait_end(struct core *c);

/* core_backend.c */
void core_dispatch_stage(struct core *c);
void core_issue_stage(struct core *c);
void core_writeback_stage(struct core *c);
void core_rebuild_rename(struct core *c);

#endif
