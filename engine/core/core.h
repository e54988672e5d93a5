/*
 * core.h — the cycle-level superscalar core model (out-of-order, or
 * in-order with config core.mode=inorder).
 *
 * The core drives a guest (guest.h) as its functional oracle: instructions
 * execute functionally when fetched, so the core knows at fetch whether a
 * branch was mispredicted and every later instruction is wrong-path until
 * the branch resolves at execute; wrong-path instructions really flow
 * through the pipeline (and, unless switched off, touch caches and TLBs),
 * then are squashed and the guest's architected state restored.
 *
 * Each cycle runs commit -> writeback/complete -> issue -> dispatch ->
 * frontend -> fetch, so every stage sees the state the others left at the
 * end of the previous cycle. The core publishes instruction, miss and cycle
 * events (events.h) to its observers and knows nothing else about them.
 *
 * Everything the core owns — pipeline, memory system, predictor, the guest's
 * state, observers' state — is captured by core_snapshot_save and restored
 * exactly by core_snapshot_restore.
 */
#ifndef IVX_CORE_H
#define IVX_CORE_H

#include <stdint.h>
#include "config.h"
#include "base/err.h"
#include "events.h"

struct core;
struct guest;
struct uop;

/* Create a core running guest `g` (not owned; must outlive the core). The
 * configuration is copied and validated. */
struct core *core_new(const struct machine_config *cfg, struct guest *g, struct ivx_err *err);
void core_free(struct core *c);

/* Observers are called in the order they were added. At most 16. */
int core_add_observer(struct core *c, const struct core_observer *obs, struct ivx_err *err);
void core_remove_observer(struct core *c, void *ctx);

/* Warm caches, TLBs and predictor by running n instructions functionally. */
int core_fastforward(struct core *c, uint64_t n, struct ivx_err *err);
/* The same until the next instruction is the one at pc for the count-th
 * time (count >= 1; that instruction is not run: timing starts with it),
 * at most max_insns instructions (0 = no limit). An error if the program
 * exits first or the limit is reached. */
int core_fastforward_until(struct core *c, uint64_t pc, uint64_t count, uint64_t max_insns, struct ivx_err *err);

/* Simulate one cycle. */
int core_cycle(struct core *c, struct ivx_err *err);

/* Simulate until the program has exited and its exit has committed, a
 * limit is reached (0 = none; max_insns counts committed instructions), or
 * an observer called core_request_stop. Returns IVX_OK or an error (guest
 * fault on the correct path, unsupported instruction, deadlock: no commit
 * for config deadlock_cycles, with the ROB head and the reason). */
int core_run(struct core *c, uint64_t max_cycles, uint64_t max_insns, struct ivx_err *err);

/* core_run to cycle `cycle`, and nothing when the core is there or past
 * it (core_run's limit 0 would be no limit: stopping "at cycle 0" would
 * run the program to its end). */
int core_run_to_cycle(struct core *c, uint64_t cycle, struct ivx_err *err);

/* Ask core_run to return at the end of the current cycle. */
void core_request_stop(struct core *c);

/* An interrupt whose handler costs the program `handler_cycles` cycles
 * (a profiler charging its work to the simulated machine): from the next
 * cycle on, for that many cycles, nothing is fetched, dispatched or
 * committed; instructions already issued still complete and misses in
 * flight still end. Interrupts taken while one is being handled queue up
 * behind it. The cycles are counted in core_stats.handler_cycles; the
 * cycle records show fetch halted (FETCH_STALL_OTHER). An observer may
 * call it from any callback; the handler starts after the last cycle
 * simulated, which is the cycle of the record only for observers without
 * on_idle_cycles (runs of idle cycles reach the others late). */
void core_interrupt(struct core *c, uint64_t handler_cycles);

/* What-if, for measuring what one miss event really costs: the event of
 * `kind` that the instruction with dynamic number `seq` (insn_event.seq;
 * for I-side events the miss_event's insn_seq) would cause does not
 * happen. MISS_MISPREDICT: the branch is predicted correctly (the
 * predictor is still consulted and trained as usual). MISS_L1D, MISS_L2D,
 * MISS_DTLB: its data access hits the L1 and the D-TLB: the line and its
 * translation are installed at once, so the caches hold afterwards what
 * they would after the miss, without its latency. MISS_L1I, MISS_L2I,
 * MISS_ITLB: the fetch of its block hits, in the same way.
 * Set it before the instruction is fetched (mispredict, I-side) or
 * issued (D-side), e.g. right after restoring a snapshot; one event at a
 * time (a new call replaces the last; seq 0 clears it). It is part of
 * the core's state (snapshots keep it). */
void core_forgive(struct core *c, int kind, uint64_t seq);

int core_done(const struct core *c);            /* the exit has committed */
/* The pc a cycle record's issue_head_pc (events.h) would give now: for a
 * sampler that runs the core to a chosen cycle instead of observing
 * every cycle. */
uint64_t core_issue_head_pc(const struct core *c);
uint64_t core_cycles(const struct core *c);     /* cycles simulated so far */
/* The engine number (0-based, as in events) of the cycle being simulated:
 * during an observer's callback, the cycle its event belongs to (for runs
 * of idle cycles handed over late, the cycle they were handed over in). */
uint64_t core_current_cycle(const struct core *c);
uint64_t core_committed(const struct core *c);  /* instructions committed */
const struct machine_config *core_config(const struct core *c);
struct guest *core_guest(const struct core *c);

struct core_stats {
	uint64_t cycles, committed, fetched, dispatched, issued, squashed;
	uint64_t branches, mispredicts;
	uint64_t handler_cycles;  /* cycles spent in interrupt handlers (core_interrupt) */
	uint64_t events_correct[MISS_KIND_COUNT]; /* miss events begun on the correct path */
	uint64_t events_wrong[MISS_KIND_COUNT];   /* ... on a wrong path */
};
void core_stats(const struct core *c, struct core_stats *out);

/* Commits per static instruction (the explorer's code pane; later the
 * exact counts that sampled estimates are checked against). Off until
 * core_count_commits turns it on, before the first cycle: one counter per
 * instruction word the program decoded (program_code_run), counted in the
 * commit stage itself and kept in snapshots. */
int core_count_commits(struct core *c, struct ivx_err *err);
/* Instructions committed at pc (0 outside the program's code or when not
 * counted). */
uint64_t core_commits_at(const struct core *c, uint64_t pc);
/* Cycles per static instruction at the machine's in-order head (the
 * cycle record's issue_head_pc: where a sampling interrupt lands), the
 * exact truth a sampling profiler is checked against, without observing
 * every cycle. Off until turned on before the first cycle (it turns on
 * commit counting too: the same counted code); kept in snapshots. */
int core_count_head_cycles(struct core *c, struct ivx_err *err);
/* Cycles whose head was pc (0 outside the counted code or when not counted). */
uint64_t core_head_cycles_at(const struct core *c, uint64_t pc);
/* Cycles whose head pc was outside the counted code (or 0). */
uint64_t core_head_cycles_outside(const struct core *c);
/* Taken branches committed per static instruction (the truth of a
 * profile's edge frequencies), without an event per branch. Off until
 * turned on before the first cycle (it turns on commit counting too: the
 * same counted code); kept in snapshots. */
int core_count_taken(struct core *c, struct ivx_err *err);
/* Taken commits of the branch at pc (0 outside the counted code or when
 * not counted). */
uint64_t core_taken_at(const struct core *c, uint64_t pc);
/* Whether pc is in the counted code (0 when nothing is counted). */
int core_counts_pc(const struct core *c, uint64_t pc);

/* ROB contents for the explorer: entry 0 is the head. */
enum rob_state { ROB_DISPATCHED, ROB_ISSUED, ROB_EXECUTING, ROB_DONE };
struct rob_view {
	uint64_t seq, pc;
	const struct uop *uop;
	int state;            /* enum rob_state */
	int cycles_left;      /* while executing: cycles until done (estimate) */
	int wrong_path;
	int wait;             /* enum head_wait: what holds it */
	uint64_t mem_addr;
};
int core_rob_occupancy(const struct core *c);
int core_rob_size(const struct core *c);
int core_rob_entry(const struct core *c, int i, struct rob_view *out);   /* 0 or -1 */

/* Snapshots: a complete copy of the engine state (core, memory system,
 * predictor, guest, observers). Restoring gives exactly the state at the
 * time of saving, so re-running produces identical events. */
struct core_snapshot;
struct core_snapshot *core_snapshot_save(const struct core *c, struct ivx_err *err);
int core_snapshot_restore(struct core *c, const struct core_snapshot *s, struct ivx_err *err);
void core_snapshot_free(struct core_snapshot *s);
size_t core_snapshot_bytes(const struct core_snapshot *s);
/* The guest state a snapshot holds (read only: e.g. guest_host_changes). */
const struct guest *core_snapshot_guest(const struct core_snapshot *s);

#endif
