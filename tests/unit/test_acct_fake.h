/*
 * test_acct_fake.h — a hand-driven "core" for the accounting unit tests:
 * the test says, cycle by cycle, which instruction events and miss events
 * happen and what the cycle summary looks like, and every accounting unit
 * sees exactly that, in the core's order (instruction and miss events of
 * a cycle first, then its cycle record).
 */
#ifndef TEST_ACCT_FAKE_H
#define TEST_ACCT_FAKE_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "acct/acct.h"
#include "core/config.h"
#include "isa/uop.h"

struct fake {
	struct acct *unit[ACCT_METHOD_COUNT];
	struct acct_overlap *ov;
	struct acct_set *set;        /* the same units behind one filtering observer */
	uint64_t cycle;
	uint64_t miss_id;
	struct cycle_record rec;     /* the cycle being built; reset by fake_end */
	uint64_t dispatch_seq, commit_seq; /* the record's: all below have entered / left the ROB */
	struct uop alu, branch, load, div;
	struct machine_config cfg;
};

/* A small machine: an 8-entry ROB (or rob_size), explicit naive penalties. */
static inline void fake_config_rob(struct machine_config *c, uint32_t rob_size)
{
	config_defaults(c);
	c->rob_size = rob_size;
	c->penalty_l1i = 9;
	c->penalty_l2i = 250;
	c->penalty_itlb = 30;
	c->penalty_l1d = 9;
	c->penalty_l2d = 250;
	c->penalty_dtlb = 30;
	c->penalty_bpred = 5;
	c->penalty_fu = 20;
}

static inline void fake_reset_rec(struct fake *f)
{
	memset(&f->rec, 0, sizeof f->rec);
	f->rec.cycle = f->cycle;
	f->rec.rob_size = (int)f->cfg.rob_size;
}

/* fake_init with a ROB of rob_size entries. */
static inline void fake_init_rob(struct fake *f, uint32_t rob_size)
{
	memset(f, 0, sizeof *f);
	fake_config_rob(&f->cfg, rob_size);
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		f->unit[m] = acct_new(m, &f->cfg, NULL);
		assert_non_null(f->unit[m]);
	}
	f->ov = acct_overlap_new(&f->cfg, NULL);
	assert_non_null(f->ov);
	f->set = acct_set_new(&f->cfg, NULL);
	assert_non_null(f->set);
	f->alu.op_class = UOP_ALU;
	f->branch.op_class = UOP_BRANCH;
	f->branch.branch_kind = BRANCH_COND;
	f->load.op_class = UOP_LOAD;
	f->div.op_class = UOP_DIV;
	fake_reset_rec(f);
}

static inline void fake_init(struct fake *f)
{
	fake_init_rob(f, 8);
}

static inline void fake_free(struct fake *f)
{
	for (int m = 0; m < ACCT_METHOD_COUNT; m++)
		acct_free(f->unit[m]);
	acct_overlap_free(f->ov);
	acct_set_free(f->set);
}

/* Every observer: the six units, the overlap measurement, the set. */
#define FAKE_N_OBSERVERS (ACCT_METHOD_COUNT + 2)
#define FAKE_EACH_OBSERVER(f, o, body)                                              \
	do {                                                                        \
		for (int fk_ = 0; fk_ < FAKE_N_OBSERVERS; fk_++) {                  \
			const struct core_observer *o = fk_ < ACCT_METHOD_COUNT      \
				? acct_observer((f)->unit[fk_])                     \
				: fk_ == ACCT_METHOD_COUNT ? acct_overlap_observer((f)->ov) \
				: acct_set_observer((f)->set);                      \
			body;                                                       \
		}                                                                   \
	} while (0)

/* Flags of an instruction event. */
enum { F_WRONG = 1, F_MISPRED = 2, F_IMISS = 4 };

static inline void fake_insn(struct fake *f, int stage, uint64_t seq, const struct uop *u, int rob, int flags)
{
	struct insn_event e = {
		.stage = stage, .cycle = f->cycle, .seq = seq, .pc = 0x1000 + 4 * seq, .uop = u,
		.rob_index = rob, .wrong_path = !!(flags & F_WRONG), .mispredicted = !!(flags & F_MISPRED),
		.icache_miss = !!(flags & F_IMISS),
	};
	/* the core's filter: only the events an observer asked for */
	FAKE_EACH_OBSERVER(f, o, {
		int per_stage = 0;
		for (int s_ = 0; s_ < INSN_STAGE_COUNT; s_++)
			per_stage |= o->insn_filter_at[s_] != 0;
		uint32_t w = per_stage ? o->insn_filter_at[stage] : o->insn_filter;
		int cls = ((w & INSN_WANT_BRANCH) && u->op_class == UOP_BRANCH) ||
			  ((w & INSN_WANT_IMISS) && e.icache_miss) ||
			  ((w & INSN_WANT_MISPREDICT) && u->op_class == UOP_BRANCH && e.mispredicted);
		int path = !(w & INSN_WANT_CORRECT_PATH) || !e.wrong_path;
		int stage_ok = per_stage ? w != 0 : !o->insn_stages || (o->insn_stages & INSN_STAGE_BIT(stage));
		if (o->on_insn && stage_ok && (!w || (cls && path)))
			o->on_insn(o->ctx, &e);
	});
	/* the record's fetched branches; in-order progress
	 * (instructions enter and leave the ROB in seq order in every
	 * scenario) */
	if (stage == INSN_FETCH && u->op_class == UOP_BRANCH) {
		struct fetched_branch *b = &f->rec.branch_fetched[f->rec.branches_fetched++];
		b->seq = e.seq;
		b->pc = e.pc;
		b->rob_index = e.rob_index;
		b->wrong_path = e.wrong_path;
	} else if (stage == INSN_DISPATCH) {
		f->rec.dispatched++;
		if (!(flags & F_WRONG))
			f->rec.dispatched_correct++;
		if (seq + 1 > f->dispatch_seq)
			f->dispatch_seq = seq + 1;
	} else if (stage == INSN_COMMIT) {
		f->rec.committed++;
		if (seq + 1 > f->commit_seq)
			f->commit_seq = seq + 1;
	}
}

/* Begin a miss event now; returns its id for fake_miss_end. */
static inline uint64_t fake_miss_begin(struct fake *f, int kind, int correct_path)
{
	struct miss_event e = { .kind = kind, .phase = MISS_BEGIN, .id = ++f->miss_id,
				.start = f->cycle, .correct_path = correct_path };
	FAKE_EACH_OBSERVER(f, o, if (o->on_miss && (!o->miss_filter || (o->miss_filter & MISS_BIT(kind))))
				      o->on_miss(o->ctx, &e));
	return e.id;
}

static inline void fake_miss_end(struct fake *f, uint64_t id, int kind, int correct_path)
{
	struct miss_event e = { .kind = kind, .phase = MISS_END, .id = id, .end = f->cycle,
				.correct_path = correct_path };
	FAKE_EACH_OBSERVER(f, o, if (o->on_miss && (!o->miss_filter || (o->miss_filter & MISS_BIT(kind))))
				      o->on_miss(o->ctx, &e));
}

/* Close the current cycle with this state (the record's dispatched and
 * committed counts come from the events of the cycle). */
static inline void fake_end(struct fake *f, int fetch_stall, int occupancy, int head_wait, int rob_full)
{
	f->rec.fetch_stall = fetch_stall;
	f->rec.rob_occupancy = occupancy;
	f->rec.head_wait = head_wait;
	f->rec.rob_full = rob_full;
	f->rec.dispatch_seq = f->dispatch_seq;
	/* an empty ROB: everything dispatched has left it */
	f->rec.commit_seq = occupancy == 0 && f->dispatch_seq > f->commit_seq ? f->dispatch_seq : f->commit_seq;
	FAKE_EACH_OBSERVER(f, o, if (o->on_cycle) o->on_cycle(o->ctx, &f->rec));
	f->cycle++;
	fake_reset_rec(f);
}

/* n identical cycles with no events. */
static inline void fake_idle(struct fake *f, int n, int fetch_stall, int occupancy, int head_wait, int rob_full)
{
	for (int i = 0; i < n; i++)
		fake_end(f, fetch_stall, occupancy, head_wait, rob_full);
}

static inline void fake_stack(struct fake *f, int method, struct acct_stack *s)
{
	acct_get_stack(f->unit[method], s);
}

/* Assert that a unit's stack is exactly: the given components (others 0). */
static inline uint64_t fake_comp(struct fake *f, int method, int comp)
{
	struct acct_stack s;
	acct_get_stack(f->unit[method], &s);
	return s.comp[comp];
}

#endif
