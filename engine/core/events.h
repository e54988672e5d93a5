/*
 * events.h — what the core model publishes, and how observers subscribe.
 *
 * The core knows none of its observers (CPI accounting units, profilers,
 * breakpoints, panes, trace writers). It calls, through one small table of
 * function pointers per observer:
 *
 *   on_insn   at each step of an instruction's life: fetched, dispatched
 *             into the ROB, issued, completed (result ready / branch
 *             resolved), committed, squashed;
 *   on_miss   when a miss event begins and when it ends;
 *   on_cycle  once at the end of every cycle, with a summary of that cycle.
 *
 * All records are only valid during the call. Observers must not allocate
 * per call on the hot path. An observer that reads only some instruction
 * or miss events says which (insn_filter, miss_filter): the core then
 * skips the others before building them.
 *
 * The vocabulary here is the core's own (stages, miss kinds, instruction
 * kinds, what the ROB head waits on), never an observer's: an accounting
 * method, a profiler or a sampler maps it onto its own terms. An
 * instrument needs nothing but this header, core.h, config.h and err.h. An observer that keeps state
 * provides state_size/save/restore so engine snapshots (reverse stepping)
 * include it.
 */
#ifndef IVX_EVENTS_H
#define IVX_EVENTS_H

#include <stddef.h>
#include <stdint.h>

struct uop;

/* ---- instruction kinds ------------------------------------------------ */

/* What an instruction is, coarsely, for observers that must not look at
 * the decoder's micro-ops (instruments see only the core's headers). */
enum insn_kind {
	INSN_KIND_OTHER,      /* nop, barrier, system register move, halt */
	INSN_KIND_ALU,        /* single-cycle integer operation */
	INSN_KIND_MUL,        /* integer multiply */
	INSN_KIND_DIV,        /* integer divide */
	INSN_KIND_LOAD,       /* any load (pairs, exclusive, acquire, literal) */
	INSN_KIND_STORE,      /* any store */
	INSN_KIND_COND_BRANCH,/* B.cond, CBZ/CBNZ, TBZ/TBNZ */
	INSN_KIND_JUMP,       /* B: direct, unconditional */
	INSN_KIND_CALL,       /* BL, BLR */
	INSN_KIND_INDIRECT,   /* BR */
	INSN_KIND_RETURN,     /* RET */
	INSN_KIND_SYSCALL,    /* SVC */
	INSN_KIND_FP,         /* FP arithmetic, fused multiply-add, compare, convert (scalar, vector) */
	INSN_KIND_FDIV,       /* FP divide, square root */
	INSN_KIND_SIMD,       /* Advanced SIMD integer, permutes, moves between X and V */
	INSN_KIND_COUNT
};
/* "other", "alu", "mul", "div", "load", "store", "cond-branch", "jump",
 * "call", "indirect", "return", "syscall", "fp", "fdiv", "simd"; -1 / "?"
 * when unknown. */
const char *insn_kind_name(int kind);
int insn_kind_from_name(const char *name);
/* Control transfers: every kind from INSN_KIND_COND_BRANCH to INSN_KIND_RETURN. */
static inline int insn_kind_is_branch(int kind)
{
	return kind >= INSN_KIND_COND_BRANCH && kind <= INSN_KIND_RETURN;
}

/* ---- miss events ------------------------------------------------------ */

enum miss_kind {
	MISS_L1I,         /* L1 I-cache miss (hits in L2) */
	MISS_L2I,         /* instruction fetch misses L2 too (goes to memory) */
	MISS_ITLB,        /* I-TLB miss */
	MISS_L1D,         /* load or store misses L1 D-cache, hits L2 */
	MISS_L2D,         /* load or store misses L2 (long-latency, goes to memory) */
	MISS_DTLB,        /* D-TLB miss of a load or store */
	MISS_MISPREDICT,  /* branch misprediction: its dispatch .. the first correct-path
			     dispatch after the redirect */
	MISS_FU_STALL,    /* long-latency unit (mul/div) blocks the ROB head */
	MISS_ROB_FULL,    /* dispatch stalled because the ROB is full */
	MISS_ROB_EMPTY,   /* the ROB is empty */
	MISS_KIND_COUNT
};

/* Names as used on the command line and in JSON: "l1i", "l2i", "itlb", "l1d",
 * "l2d", "dtlb", "mispredict", "fu_stall", "rob_full", "rob_empty". */
const char *miss_kind_name(int kind);
int miss_kind_from_name(const char *name);   /* -1 if unknown; accepts '-' for '_' */

enum miss_phase { MISS_BEGIN, MISS_END };

struct miss_event {
	int kind;             /* enum miss_kind */
	int phase;            /* enum miss_phase */
	uint64_t id;          /* event sequence number (unique per run, in begin order) */
	uint64_t start;       /* cycle the event began */
	uint64_t end;         /* cycle it ended (valid with MISS_END; 0 at MISS_BEGIN) */
	uint64_t insn_seq;    /* the instruction it belongs to (0 for rob_full/empty) */
	uint64_t pc;          /* that instruction's pc (fetch address for I-side) */
	uint64_t addr;        /* data address (D-side), fetch line (I-side) */
	int correct_path;     /* 1 if on the correct path (known at fetch; stores: always) */
};

/* D-side events: a load begins them when it issues, a store when it
 * commits (stores write the D-cache at commit); both end when the data
 * arrives / the line is filled. Only primary cache misses begin l1d/l2d. */

/* ---- instruction life ------------------------------------------------- */

enum insn_stage {
	INSN_FETCH,       /* left the I-cache into the frontend pipeline */
	INSN_DISPATCH,    /* entered the ROB (renamed) */
	INSN_ISSUE,       /* sent to a functional unit / memory */
	INSN_COMPLETE,    /* result ready; for branches: resolved */
	INSN_COMMIT,      /* retired in order */
	INSN_SQUASH,      /* thrown away (wrong path) */
	INSN_STAGE_COUNT
};

struct insn_event {
	int stage;              /* enum insn_stage */
	uint64_t cycle;
	uint64_t seq;           /* dynamic instruction number, increasing in fetch order (wrong path too) */
	uint64_t pc;
	const struct uop *uop;  /* static decode (class, registers, branch kind), for
				   the core's own layers; instruments read `kind` */
	int kind;               /* enum insn_kind */
	uint32_t word;          /* the instruction word */
	int taken;              /* control transfer: it went to next_pc (known from fetch) */
	uint64_t next_pc;       /* the instruction's actual successor on its path */
	uint64_t load_value;    /* loads: the first 64-bit register it loaded (a pair's
				   first register), from fetch on; 0 otherwise. Recorded
				   for loads fetched while an observer that can receive
				   loads (filter 0 or INSN_WANT_LOAD) is subscribed */
	int rob_index;          /* the ROB slot it occupies or will occupy (the core
				   allocates it at fetch; a slot number may exceed
				   the ROB size), -1 if none */
	int wrong_path;         /* fetched down a mispredicted path */
	int mispredicted;       /* a branch whose prediction was wrong (known at fetch) */
	int icache_miss;        /* the first instruction of a fetch block that missed in the
				   L1 I-cache or I-TLB */
	int dcache_level;       /* loads from INSN_ISSUE on, stores at INSN_COMMIT: 1 = L1 hit,
				   2 = L2 hit, 3 = memory; 0 otherwise */
	int dtlb_miss;          /* loads/stores, the same stages: D-TLB missed */
	uint64_t mem_addr;      /* loads/stores: effective address */
	/* INSN_DISPATCH only: the in-flight producers it waits on (their seq),
	 * e.g. for a trace's wake-up arrows. 0 deps at the other stages. */
	int n_deps;
	uint64_t dep_seq[4];
};

/* ---- per-cycle summary ----------------------------------------------- */

#define CYCLE_MAX_COMMIT 64     /* the largest core.commit_width */
#define CYCLE_MAX_FETCH 64      /* the largest core.fetch_width */

/* Why the frontend delivered no correct-path instructions this cycle. */
enum fetch_stall {
	FETCH_OK,             /* delivering (or the fetch buffer is full) */
	FETCH_STALL_L1I,      /* waiting on an L1 I-cache miss (served by L2) */
	FETCH_STALL_L2I,      /* waiting on an instruction fetch from memory */
	FETCH_STALL_ITLB,     /* waiting on an I-TLB miss */
	FETCH_STALL_REDIRECT, /* refilling after a misprediction was resolved */
	FETCH_STALL_WRONG_PATH, /* fetching, but down a mispredicted path */
	FETCH_STALL_OTHER,    /* halted after a syscall/trap, or program end */
};

/* What the instruction at the ROB head is waiting for. */
enum head_wait {
	HEAD_NONE,            /* ROB empty, or head committed this cycle */
	HEAD_EXECUTING,       /* short-latency op in flight or waiting to issue */
	HEAD_L1D,             /* load served by L2 */
	HEAD_L2D,             /* load served by memory */
	HEAD_DTLB,            /* D-TLB miss */
	HEAD_LONG_LATENCY,    /* multiply/divide in a long-latency unit */
	HEAD_STORE,           /* store waiting to drain */
};

/* In-order mode (core.mode=inorder): why the instruction at the head of
 * the issue stage (issue_head_pc, below) did not issue this cycle, with
 * the instruction to blame in cycle_record.issue_wait_pc. The truth
 * behind dcpicalc's culprits (docs/dcpicalc.md). */
enum issue_wait {
	ISSUE_WAIT_NONE,      /* out-of-order mode, or nothing to issue */
	ISSUE_WAIT_SLOT,      /* ready: the cycle's issue slots went to older ones */
	ISSUE_WAIT_DEP,       /* operand of a short-latency producer (ALU, load hit); pc: producer */
	ISSUE_WAIT_DEP_LONG,  /* operand of a multiply, divide or FP op; pc: producer */
	ISSUE_WAIT_DEP_L1D,   /* operand of a load served by the L2; pc: the load */
	ISSUE_WAIT_DEP_L2D,   /* ... of a load served by memory; pc: the load */
	ISSUE_WAIT_DEP_DTLB,  /* ... of a load walking the D-TLB; pc: the load */
	ISSUE_WAIT_UNIT,      /* its functional unit is busy (unpipelined divider) */
	ISSUE_WAIT_MEM,       /* a load waits for an older store or a free MSHR */
	ISSUE_WAIT_SERIAL,    /* serializing (system call): waits for the ROB to drain */
	ISSUE_WAIT_FULL_DMISS,/* not dispatched, ROB/LSQ full behind a missing load; pc: it */
	ISSUE_WAIT_FULL_STORE,/* ... behind a store that cannot write; pc: it */
	ISSUE_WAIT_FULL_OTHER,/* ... behind anything else; pc: the ROB head */
	ISSUE_WAIT_FRONTEND,  /* still in the frontend pipeline (fetch bandwidth, refill) */
	ISSUE_WAIT_L1I,       /* its fetch missed the L1 I-cache; pc: the fetch */
	ISSUE_WAIT_L2I,       /* ... and the L2 */
	ISSUE_WAIT_ITLB,      /* ... the I-TLB */
	ISSUE_WAIT_MISPREDICT,/* wrong path, or refill after a misprediction; pc: the branch */
	ISSUE_WAIT_COUNT
};
/* "none", "slot", "dep", "dep-long", "dep-l1d", "dep-l2d", "dep-dtlb",
 * "unit", "mem", "serial", "full-dmiss", "full-store", "full-other",
 * "frontend", "l1i", "l2i", "itlb", "mispredict"; "?" when unknown. */
const char *issue_wait_name(int w);

struct cycle_record {
	uint64_t cycle;
	int fetched;            /* instructions fetched into the frontend */
	int dispatched;         /* instructions entering the ROB (all paths) */
	int dispatched_correct; /* ... of which on the correct path */
	int issued;
	int committed;
	int squashed;
	int issued_correct;     /* ... of the issued, those on the correct path */
	int rob_occupancy;      /* after this cycle */
	int rob_size;
	int rob_full;           /* dispatch was blocked by a full ROB */
	int rob_full_wrong_path; /* ... and the instruction it kept out is on a wrong path */
	int lsq_occupancy;
	int frontend_occupancy; /* instructions between fetch and dispatch */
	int fetch_stall;        /* enum fetch_stall */
	int head_wait;          /* enum head_wait */
	int idle;               /* nothing fetched, dispatched, issued, committed or
				   squashed: the occupancies and in-order positions
				   are the previous cycle's */
	uint64_t head_seq;      /* instruction at the ROB head (0 if empty) */
	uint64_t head_pc;
	/* In-order progress, so an observer needs no event per instruction
	 * to follow it: every instruction with a smaller seq has entered the
	 * ROB (dispatch_seq), has left it (commit_seq), or was squashed. */
	uint64_t dispatch_seq;
	uint64_t commit_seq;
	int wrong_path_in_rob;  /* some ROB entries are on a wrong path */
	int long_misses_outstanding; /* head_wait == HEAD_STORE: L2 D-cache misses in flight
					(is the refused store waiting on memory?); else 0 */
	/* The oldest instruction still at the machine's in-order head, where a
	 * sampling interrupt finds its pc: in-order mode (core.mode=inorder),
	 * the head of the issue stage (the oldest not yet issued); out-of-order
	 * mode, the oldest not yet committed (head_pc). When no such
	 * instruction is in the ROB, the frontend's oldest; when the frontend
	 * is empty too, the address fetch is at. */
	uint64_t issue_head_pc;
	/* In-order mode: why that instruction waits (enum issue_wait) and the
	 * instruction to blame (0 if none); ISSUE_WAIT_NONE out of order. */
	int issue_wait;
	uint64_t issue_wait_pc;
	/* 1 while an unpipelined unit (a divider or FP divider, any path) is
	 * still working at the end of the cycle, 0 when all are free. */
	int units_busy;
	/* (the fields above are the record's fixed part: CYCLE_RECORD_FIXED) */
	/* The branches fetched this cycle (both paths), oldest first, so an
	 * observer that tracks every branch needs no instruction event each. */
	int branches_fetched;
	struct fetched_branch {
		uint64_t seq, pc;
		int rob_index;
		int wrong_path;
	} branch_fetched[CYCLE_MAX_FETCH];
};

/* Fields of the record a cycle subscriber can do without
 * (core_observer.cycle_skip). */
#define CYCLE_SKIP_OCCUPANCY 1u          /* lsq_occupancy, frontend_occupancy */
#define CYCLE_SKIP_ISSUE_HEAD 2u         /* issue_head_pc */
#define CYCLE_SKIP_WRONG_PATH_IN_ROB 4u  /* wrong_path_in_rob */
#define CYCLE_SKIP_ALL 7u                /* all three (an accounting set) */

/* The bytes of a record before its lists: what a run of idle cycles
 * repeats (core_observer.on_idle_cycles). */
#define CYCLE_RECORD_FIXED offsetof(struct cycle_record, branches_fetched)

/* ---- the commit stream ----------------------------------------------- */

/* What core_observer.on_commit is told of each committed instruction:
 * less than an insn_event, so a subscriber that follows every instruction
 * (the ivx counters' base-machine shadow, engine/acct) costs the core a
 * few stores per instruction instead of an event. */
struct commit_rec {
	const struct uop *uop;  /* static decode (class, registers) */
	uint64_t pc;
	uint64_t mem_addr;      /* loads/stores: effective address */
	int taken;              /* a branch that was taken (it ended its fetch block) */
};

/* ---- subscription ---------------------------------------------------- */

struct core_observer {
	const char *name;
	void *ctx;
	void (*on_insn)(void *ctx, const struct insn_event *e);     /* may be NULL */
	void (*on_miss)(void *ctx, const struct miss_event *e);     /* may be NULL */
	void (*on_cycle)(void *ctx, const struct cycle_record *r);  /* may be NULL */
	/* May be NULL. `n` cycles in a row just like the last one on_cycle
	 * described, but numbered r->cycle .. r->cycle + n - 1: idle (nothing
	 * moved), the same fetch stall, ROB head and ROB-full state, and no
	 * event between them. If every observer with on_cycle has this, the
	 * core hands over such runs in one call (a miss-bound program spends
	 * most of its cycles in them); it always does so before any later
	 * callback and before core_run or core_cycle returns. */
	void (*on_idle_cycles)(void *ctx, const struct cycle_record *r, uint64_t n);
	/* Nonzero: on_cycle and on_idle_cycles read nothing of the record but
	 * cycle, idle, issue_head_pc, issue_wait and issue_wait_pc (a truth
	 * kept per in-order head). If every cycle subscriber says so, the core
	 * works out only those fields, and holds back every idle cycle that
	 * repeats them; the other fields are then undefined. */
	int cycle_head_only;
	/* The CYCLE_SKIP_* fields of the record on_cycle and on_idle_cycles
	 * never read (0: it may read every one). A field every cycle
	 * subscriber skips is left undefined. */
	uint32_t cycle_skip;
	/* May be NULL; only while the core counts head cycles
	 * (core_count_head_cycles, core.h), which must be turned on before the
	 * first cycle, as must the observer be added. Called at the end of a
	 * cycle (or of a run of n such cycles) whose in-order head,
	 * cycle_record.issue_head_pc, is pc, when that is the first time pc
	 * heads the machine; or, for a pc outside the counted code
	 * (core_counts_pc), every time. The core counts the rest
	 * (core_head_cycles_at): a per-pc truth of head cycles needs no cycle
	 * record, just these calls, which come in the order the pcs first
	 * appear. */
	void (*on_new_head)(void *ctx, uint64_t pc, uint64_t n);
	/* May be NULL; only while the core counts taken branches
	 * (core_count_taken, core.h), turned on, and the observer added,
	 * before the first cycle. Called as a branch at pc commits taken, if
	 * it is the first time, or every time for a pc outside the counted
	 * code; the core counts the rest (core_taken_at). In the order of the
	 * commits, and before the on_new_head of the cycle's head. */
	void (*on_new_taken)(void *ctx, uint64_t pc);
	/* May be NULL. The n (>= 1) instructions a cycle committed, oldest
	 * first (all on the correct path), after the commit stage; `first` is
	 * the number of the first (core_committed() before them). Returns the
	 * number of the next one it wants: the core hands over no cycle's
	 * commits that all come before it (it may still hand over some: after
	 * a snapshot is restored, or an observer added, it asks again). */
	uint64_t (*on_commit)(void *ctx, uint64_t first, const struct commit_rec *r, int n);
	/* Snapshot support (all NULL for a stateless observer). */
	size_t (*state_size)(void *ctx);
	void (*save)(void *ctx, void *blob);
	void (*restore)(void *ctx, const void *blob);
	/* Which instruction events on_insn receives: 0 = every event of every
	 * instruction; else the events of the instructions matching one of
	 * the INSN_WANT_* class bits set, and of no other. An event
	 * no observer wants costs the core one test instead of building the
	 * record and making the calls. The filters are read when the
	 * observer is added. */
	uint32_t insn_filter;
	/* ... and of those, only the stages s with INSN_STAGE_BIT(s) set
	 * (0 = all stages). */
	uint32_t insn_stages;
	/* Finer than the two above, if any is nonzero: the INSN_WANT_* bits
	 * wanted at each stage (0: none at that stage); insn_filter and
	 * insn_stages are then ignored. */
	uint32_t insn_filter_at[INSN_STAGE_COUNT];
	/* Which miss events on_miss receives: 0 = all; else only those of the
	 * kinds k with MISS_BIT(k) set (rob_full, for one, can begin and end
	 * every few cycles in a loop that fills the ROB). */
	uint32_t miss_filter;
	/* Of those kinds, the ones whose MISS_END it has no use for (0: it
	 * takes every end). A unit that counts misses as they begin needs
	 * none, and an end nobody takes costs the core one test instead of
	 * a round of calls (and does not cut a run of idle cycles short). */
	uint32_t miss_skip_end;
};

/* Instruction classes an observer can ask for (insn_filter and
 * insn_filter_at): any combination of the class bits, optionally with
 * INSN_WANT_CORRECT_PATH. There is room for 15 class bits. */
#define INSN_WANT_BRANCH 1u   /* any control transfer (insn_kind_is_branch) */
#define INSN_WANT_IMISS  2u   /* icache_miss set (its fetch missed) */
#define INSN_WANT_CORRECT_PATH 4u /* with the class bits: only instructions on the
				     correct path (most fetched instructions of a
				     branchy program are wrong-path ones) */
#define INSN_WANT_MISPREDICT 8u /* a mispredicted branch (known from its fetch on) */
#define INSN_WANT_LOAD   0x10u  /* INSN_KIND_LOAD */
#define INSN_WANT_STORE  0x20u  /* INSN_KIND_STORE */
#define INSN_WANT_CALL   0x40u  /* INSN_KIND_CALL and INSN_KIND_RETURN */
#define INSN_WANT_LONG_LATENCY 0x80u /* multiplies and divides (INSN_KIND_MUL/DIV) */
#define INSN_WANT_CLASSES 0xfbu /* every class bit defined so far */
#define INSN_STAGE_BIT(stage) (1u << (stage))   /* for insn_stages */
#define MISS_BIT(kind)   (1u << (kind))          /* for miss_filter */

#endif
