/*
 * test_attrib.c — per-instruction cycle attribution (engine/dcpi/attrib.h).
 *
 * First a hand-made cycle sequence fed straight to the observer's
 * callbacks, whose every attribution is worked out below by the rules of
 * docs/attribution.md: a drained ROB after an L2 I-miss, two instructions
 * committing together, a load stalling the head for ten cycles (one
 * cycle record, then a run of nine idle ones), a mispredicted branch
 * whose flush empties the ROB, a wrong-path instruction tagged at
 * dispatch, and drained cycles left at the end. Then the real core on
 * data/bin/kernels/k3_long_dmiss: the oracle accounts for every cycle,
 * TIP sampling every cycle is the oracle, the missing load owns its miss
 * cycles, and a snapshot restores the attributor exactly.
 *
 * Run from the top of the tree (make unit does); needs data/bin.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>
#include "core_prog.h"
#include "dcpi/attrib.h"

/* ---- the hand-made sequence ------------------------------------------------ */

enum { PA = 0x100, PB = 0x104, PC = 0x108, PD = 0x10c, PW = 0x200, PE = 0x300, PF = 0x304 };

struct feed {
	const struct core_observer *o;
	struct cycle_record r;
};

static void commit(struct feed *f, uint64_t pc)
{
	struct insn_event e = { .stage = INSN_COMMIT, .cycle = f->r.cycle, .pc = pc };
	f->o->on_insn(f->o->ctx, &e);
	f->r.committed++;
}

static void dispatch(struct feed *f, uint64_t pc, int wrong)
{
	struct insn_event e = { .stage = INSN_DISPATCH, .cycle = f->r.cycle, .pc = pc, .wrong_path = wrong };
	f->o->on_insn(f->o->ctx, &e);
	f->r.dispatched++;
}

static void mispredict(struct feed *f, int phase, uint64_t pc, uint64_t start)
{
	struct miss_event m = { .kind = MISS_MISPREDICT, .phase = phase, .pc = pc, .start = start,
				.end = phase == MISS_END ? f->r.cycle : 0, .correct_path = 1 };
	f->o->on_miss(f->o->ctx, &m);
}

/* End cycle f->r.cycle with this state, and start the next. */
static void end_cycle(struct feed *f, int occ, int stall, int wait, uint64_t head, uint64_t issue_head)
{
	f->r.rob_occupancy = occ;
	f->r.fetch_stall = stall;
	f->r.head_wait = wait;
	f->r.head_pc = head;
	f->r.issue_head_pc = issue_head;
	f->o->on_cycle(f->o->ctx, &f->r);
	f->r.cycle++;
	f->r.committed = f->r.dispatched = 0;
}

/* The sequence of the file comment: 22 cycles, 0..21. With period 4 and
 * no spread, cycles 3, 7, 11, 15 and 19 are the sampled ones. */
static void play(struct attrib *a)
{
	struct feed f = { .o = attrib_observer(a) };
	end_cycle(&f, 0, FETCH_STALL_L2I, HEAD_NONE, 0, PA);   /* 0: drained, l2i */
	end_cycle(&f, 0, FETCH_OK, HEAD_NONE, 0, PA);          /* 1: refill, still l2i */
	dispatch(&f, PA, 0);
	dispatch(&f, PB, 0);
	end_cycle(&f, 2, FETCH_OK, HEAD_NONE, PA, PA);         /* 2: drained; A arrives */
	commit(&f, PA);
	commit(&f, PB);
	dispatch(&f, PC, 0);
	end_cycle(&f, 1, FETCH_OK, HEAD_NONE, PC, PC);         /* 3: A and B commit */
	end_cycle(&f, 1, FETCH_OK, HEAD_L2D, PC, PC);          /* 4: C waits on memory */
	f.o->on_idle_cycles(f.o->ctx, &(struct cycle_record){ .cycle = 5, .rob_occupancy = 1,
				     .head_wait = HEAD_L2D, .head_pc = PC, .issue_head_pc = PC }, 9);
	f.r.cycle = 14;                                        /* 5..13: the same */
	commit(&f, PC);
	mispredict(&f, MISS_BEGIN, PD, 14);
	dispatch(&f, PD, 0);
	end_cycle(&f, 1, FETCH_STALL_WRONG_PATH, HEAD_NONE, PD, PD); /* 14: C commits, D enters */
	dispatch(&f, PW, 1);
	end_cycle(&f, 2, FETCH_STALL_WRONG_PATH, HEAD_EXECUTING, PD, PD); /* 15: D resolves */
	commit(&f, PD);
	end_cycle(&f, 0, FETCH_STALL_REDIRECT, HEAD_NONE, 0, PE);    /* 16: D commits, W squashed */
	end_cycle(&f, 0, FETCH_STALL_REDIRECT, HEAD_NONE, 0, PE);    /* 17: flushed */
	end_cycle(&f, 0, FETCH_OK, HEAD_NONE, 0, PE);                /* 18: flushed */
	mispredict(&f, MISS_END, PD, 14);
	dispatch(&f, PE, 0);
	end_cycle(&f, 1, FETCH_OK, HEAD_NONE, PE, PE);         /* 19: flushed until E arrives */
	commit(&f, PE);
	end_cycle(&f, 0, FETCH_STALL_OTHER, HEAD_NONE, 0, PF); /* 20: E commits */
	end_cycle(&f, 0, FETCH_STALL_OTHER, HEAD_NONE, 0, PF); /* 21: drained, never resolved */
	attrib_finish(a);
}

static struct attrib *hand_attrib(uint64_t period)
{
	struct attrib_config cfg;
	attrib_config_defaults(&cfg);
	cfg.period = period;
	cfg.delta = 0;
	cfg.commit_width = 4;
	struct ivx_err err;
	struct attrib *a = attrib_new(&cfg, &err);
	assert_non_null(a);
	return a;
}

static uint64_t cause_of(struct attrib *a, uint64_t pc, int cause)
{
	struct attrib_row r;
	return attrib_row_of(a, pc, &r) < 0 ? 0 : r.cause[cause];
}

static uint64_t est_of(struct attrib *a, int mode, int pol, uint64_t pc)
{
	struct attrib_row r;
	return attrib_row_of(a, pc, &r) < 0 ? 0 : r.est[mode][pol];
}

/* The oracle: every cycle to the instruction the commit stage exposes. */
static void test_oracle_rules(void **state)
{
	struct attrib *a = hand_attrib(4);
	play(a);
	uint64_t U = attrib_unit(a);
	assert_int_equal(U, 12);                      /* lcm(1..4) */
	/* A: cycles 0-2 drained by the L2 I-miss, half of cycle 3 */
	assert_int_equal(cause_of(a, PA, ATTRIB_L2I), 3 * U);
	assert_int_equal(cause_of(a, PA, ATTRIB_BASE), U / 2);
	assert_int_equal(cause_of(a, PB, ATTRIB_BASE), U / 2);
	/* C: stalled at the head 4-13 on memory, commits alone in 14 */
	assert_int_equal(cause_of(a, PC, ATTRIB_L2D), 10 * U);
	assert_int_equal(cause_of(a, PC, ATTRIB_BASE), U);
	/* D: head in 15 (executing), commits in 16, flushed 17-19 */
	assert_int_equal(cause_of(a, PD, ATTRIB_BASE), 2 * U);
	assert_int_equal(cause_of(a, PD, ATTRIB_BPRED), 3 * U);
	assert_int_equal(cause_of(a, PE, ATTRIB_BASE), U);
	assert_int_equal(cause_of(a, PW, ATTRIB_BASE), 0);
	struct attrib_stats st;
	attrib_get_stats(a, &st);
	assert_int_equal(st.cycles, 22);
	assert_int_equal(st.commits, 5);
	assert_int_equal(st.oracle_unattributed, U);  /* cycle 21 */
	assert_int_equal(st.oracle_units + st.oracle_unattributed, 22 * U);
	assert_int_equal(st.flushes, 1);
	attrib_free(a);
}

/* Each policy with a sample at every cycle. */
static void test_policies_every_cycle(void **state)
{
	struct attrib *a = hand_attrib(4);
	play(a);
	uint64_t U = attrib_unit(a);
	const int M = ATTRIB_EVERY;
	/* head: the record's issue_head_pc */
	assert_int_equal(est_of(a, M, ATTRIB_HEAD, PA), 3 * U);
	assert_int_equal(est_of(a, M, ATTRIB_HEAD, PC), 11 * U);
	assert_int_equal(est_of(a, M, ATTRIB_HEAD, PD), 2 * U);
	assert_int_equal(est_of(a, M, ATTRIB_HEAD, PE), 4 * U);
	assert_int_equal(est_of(a, M, ATTRIB_HEAD, PF), 2 * U);
	/* nci: the first to commit at or after the sample */
	assert_int_equal(est_of(a, M, ATTRIB_NCI, PA), 4 * U);
	assert_int_equal(est_of(a, M, ATTRIB_NCI, PB), 0);
	assert_int_equal(est_of(a, M, ATTRIB_NCI, PC), 11 * U);
	assert_int_equal(est_of(a, M, ATTRIB_NCI, PD), 2 * U);
	assert_int_equal(est_of(a, M, ATTRIB_NCI, PE), 4 * U);
	/* dispatch: the first to enter the ROB; W's tag is lost with W */
	assert_int_equal(est_of(a, M, ATTRIB_DISPATCH, PA), 3 * U);
	assert_int_equal(est_of(a, M, ATTRIB_DISPATCH, PC), 1 * U);
	assert_int_equal(est_of(a, M, ATTRIB_DISPATCH, PD), 11 * U);
	assert_int_equal(est_of(a, M, ATTRIB_DISPATCH, PW), 0);
	assert_int_equal(est_of(a, M, ATTRIB_DISPATCH, PE), 4 * U);
	/* lci: the youngest committed so far (none before cycle 3) */
	assert_int_equal(est_of(a, M, ATTRIB_LCI, PA), 0);
	assert_int_equal(est_of(a, M, ATTRIB_LCI, PB), 11 * U);
	assert_int_equal(est_of(a, M, ATTRIB_LCI, PC), 2 * U);
	assert_int_equal(est_of(a, M, ATTRIB_LCI, PD), 4 * U);
	assert_int_equal(est_of(a, M, ATTRIB_LCI, PE), 2 * U);
	struct attrib_stats st;
	attrib_get_stats(a, &st);
	assert_int_equal(st.dropped[M][ATTRIB_NCI], 1);       /* cycle 21 */
	assert_int_equal(st.dropped[M][ATTRIB_DISPATCH], 3);  /* W, and 20-21 */
	assert_int_equal(st.dropped[M][ATTRIB_LCI], 3);       /* 0-2 */
	assert_int_equal(st.dropped[M][ATTRIB_TIP], 1);       /* 21, as the oracle */
	/* TIP at every cycle is the oracle */
	for (size_t i = 0; i < attrib_rows(a); i++) {
		struct attrib_row r;
		assert_int_equal(attrib_row_at(a, i, &r), 0);
		assert_int_equal(r.est[M][ATTRIB_TIP], attrib_row_true(&r));
	}
	double tv, rel;
	assert_int_equal(attrib_error(a, M, ATTRIB_TIP, &tv, &rel), 0);
	/* only the unattributed last cycle counts against it */
	assert_true(fabs(tv - 1.0 / 22) < 1e-12);
	assert_int_equal(attrib_error(a, M, ATTRIB_LCI, &tv, &rel), 0);
	assert_true(tv > 0.5);   /* LCI puts C's miss on B */
	attrib_free(a);
}

/* The sampled cycles, idle runs included: 3, 7, 11, 15, 19. */
static void test_sampled_cycles(void **state)
{
	struct attrib *a = hand_attrib(4);
	play(a);
	uint64_t U = attrib_unit(a);
	const int M = ATTRIB_SAMPLED;
	struct attrib_stats st;
	attrib_get_stats(a, &st);
	assert_int_equal(st.sample_cycles, 5);
	assert_int_equal(est_of(a, M, ATTRIB_TIP, PA), U / 2);
	assert_int_equal(est_of(a, M, ATTRIB_TIP, PB), U / 2);
	assert_int_equal(est_of(a, M, ATTRIB_TIP, PC), 2 * U);  /* 7 and 11, inside the idle run */
	assert_int_equal(est_of(a, M, ATTRIB_TIP, PD), 2 * U);  /* 15 stalled, 19 flushed */
	assert_int_equal(est_of(a, M, ATTRIB_HEAD, PC), 3 * U);
	assert_int_equal(est_of(a, M, ATTRIB_HEAD, PD), U);
	assert_int_equal(est_of(a, M, ATTRIB_HEAD, PE), U);
	assert_int_equal(est_of(a, M, ATTRIB_NCI, PA), U);
	assert_int_equal(est_of(a, M, ATTRIB_NCI, PC), 2 * U);
	assert_int_equal(est_of(a, M, ATTRIB_NCI, PD), U);
	assert_int_equal(est_of(a, M, ATTRIB_NCI, PE), U);
	assert_int_equal(est_of(a, M, ATTRIB_DISPATCH, PC), U);
	assert_int_equal(est_of(a, M, ATTRIB_DISPATCH, PD), 2 * U);
	assert_int_equal(st.dropped[M][ATTRIB_DISPATCH], 1);    /* 15 tags W */
	assert_int_equal(est_of(a, M, ATTRIB_DISPATCH, PE), U);
	assert_int_equal(est_of(a, M, ATTRIB_LCI, PB), 3 * U);
	assert_int_equal(est_of(a, M, ATTRIB_LCI, PC), U);
	assert_int_equal(est_of(a, M, ATTRIB_LCI, PD), U);
	attrib_free(a);
}

/* Bad configurations are refused with a message. */
static void test_config_errors(void **state)
{
	struct attrib_config cfg;
	struct ivx_err err;
	attrib_config_defaults(&cfg);
	assert_int_equal(attrib_config_validate(&cfg, &err), IVX_OK);
	cfg.delta = cfg.period;
	assert_true(attrib_config_validate(&cfg, &err) < 0);
	attrib_config_defaults(&cfg);
	cfg.capacity = 1000;
	assert_true(attrib_config_validate(&cfg, &err) < 0);
	assert_null(attrib_new(&cfg, &err));
	assert_non_null(strstr(err.msg, "power of two"));
	attrib_free(NULL);
}

/* A full table: new instructions are counted as lost, not placed, and the
 * lookups stay short (at most 3/4 of the slots are used). */
static void test_full_table(void **state)
{
	struct attrib_config cfg;
	attrib_config_defaults(&cfg);
	cfg.capacity = 16;
	cfg.period = 1;
	cfg.delta = 0;
	struct ivx_err err;
	struct attrib *a = attrib_new(&cfg, &err);
	assert_non_null(a);
	struct feed f = { .o = attrib_observer(a) };
	for (int i = 0; i < 40; i++) {
		commit(&f, 0x1000 + 4 * (uint64_t)i);
		dispatch(&f, 0x2000 + 4 * (uint64_t)i, 0);
		end_cycle(&f, 1, FETCH_OK, HEAD_NONE, 0x2000, 0x2000);
	}
	attrib_finish(a);
	struct attrib_stats st;
	attrib_get_stats(a, &st);
	assert_int_equal(attrib_rows(a), 12);
	assert_true(st.lost > 0);
	assert_int_equal(st.oracle_units + st.lost + st.oracle_unattributed, 40 * attrib_unit(a));
	attrib_free(a);
}

/* ---- the real core ---------------------------------------------------------- */

static void test_k3_long_dmiss(void **state)
{
	struct program *prog = cp_load_file("data/bin/kernels/k3_long_dmiss");
	assert_non_null(prog);
	char *argv[] = { "k3_long_dmiss", "miss", "100" };
	struct crun r;
	assert_int_equal(crun_start(&r, prog, 3, argv, NULL), 0);
	struct attrib_config cfg;
	attrib_config_defaults(&cfg);
	cfg.period = 64;
	cfg.delta = 4;
	struct ivx_err err;
	struct attrib *a = attrib_attach(&cfg, r.c, &err);
	assert_non_null(a);
	assert_int_equal(core_run(r.c, 0, 0, &err), IVX_OK);
	attrib_finish(a);
	struct attrib_stats st;
	attrib_get_stats(a, &st);
	uint64_t U = attrib_unit(a), cycles = core_cycles(r.c);
	assert_int_equal(st.cycles, cycles);
	assert_int_equal(st.commits, core_committed(r.c));
	assert_int_equal(st.oracle_units + st.oracle_unattributed + st.lost, cycles * U);
	assert_true(st.oracle_unattributed <= 2 * U);
	/* The instruction with the most l2d cycles is a load that owns
	 * nearly all the run's l2d cycles: the missing load of the loop. */
	struct attrib_row best = { 0 };
	for (size_t i = 0; i < attrib_rows(a); i++) {
		struct attrib_row row;
		attrib_row_at(a, i, &row);
		if (row.cause[ATTRIB_L2D] > best.cause[ATTRIB_L2D])
			best = row;
		assert_int_equal(row.est[ATTRIB_EVERY][ATTRIB_TIP], attrib_row_true(&row));
	}
	assert_true(best.cause[ATTRIB_L2D] * 100 >= st.cause_units[ATTRIB_L2D] * 85);
	assert_true(best.cause[ATTRIB_L2D] * 2 >= attrib_row_true(&best));
	const struct uop *u = program_uop(prog, best.pc);
	assert_non_null(u);
	assert_int_equal(u->word & 0xffc00000u, 0xf9400000u);   /* ldr xT, [xN, #imm] */
	/* sampled TIP follows it; the last-committed policy does not */
	assert_true(best.est[ATTRIB_SAMPLED][ATTRIB_TIP] * 10 >= attrib_row_true(&best) * 8 *
		    st.est_units[ATTRIB_SAMPLED][ATTRIB_TIP] / (cycles * U));
	assert_true(best.est[ATTRIB_EVERY][ATTRIB_LCI] * 10 < attrib_row_true(&best));
	attrib_free(a);
	crun_free(&r);
	program_free(prog);
}

/* Reverse stepping: restoring a snapshot restores the attributor, and the
 * replay gives the same attribution. */
static void test_snapshot(void **state)
{
	struct program *prog = cp_load_file("data/bin/kernels/k3_long_dmiss");
	assert_non_null(prog);
	char *argv[] = { "k3_long_dmiss", "miss", "6" };
	struct crun r;
	assert_int_equal(crun_start(&r, prog, 3, argv, NULL), 0);
	struct attrib_config cfg;
	attrib_config_defaults(&cfg);
	cfg.period = 50;
	cfg.delta = 10;
	struct ivx_err err;
	struct attrib *a = attrib_attach(&cfg, r.c, &err);
	assert_non_null(a);
	assert_int_equal(core_run(r.c, 3000, 0, &err), IVX_OK);
	struct core_snapshot *snap = core_snapshot_save(r.c, &err);
	assert_non_null(snap);
	assert_int_equal(core_run(r.c, 0, 0, &err), IVX_OK);
	struct attrib_stats first, again;
	attrib_get_stats(a, &first);
	struct attrib_row row1;
	assert_int_equal(attrib_row_at(a, 0, &row1), 0);
	assert_int_equal(core_snapshot_restore(r.c, snap, &err), IVX_OK);
	struct attrib_stats mid;
	attrib_get_stats(a, &mid);
	assert_true(mid.cycles < first.cycles);
	assert_int_equal(core_run(r.c, 0, 0, &err), IVX_OK);
	attrib_get_stats(a, &again);
	assert_memory_equal(&first, &again, sizeof first);
	struct attrib_row row2;
	assert_int_equal(attrib_row_at(a, 0, &row2), 0);
	assert_memory_equal(&row1, &row2, sizeof row1);
	core_snapshot_free(snap);
	attrib_free(a);
	crun_free(&r);
	program_free(prog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oracle_rules),
		cmocka_unit_test(test_policies_every_cycle),
		cmocka_unit_test(test_sampled_cycles),
		cmocka_unit_test(test_config_errors),
		cmocka_unit_test(test_full_table),
		cmocka_unit_test(test_k3_long_dmiss),
		cmocka_unit_test(test_snapshot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
