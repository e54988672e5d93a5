/*
 * test_acct_scenarios.c — every accounting unit sees the same hand-written
 * pipeline history and must charge exactly the cycles the paper's rules
 * give. Each scenario's comment is the timeline; c<N> is cycle N.
 */
#include <stdlib.h>
#include "test_acct_fake.h"

static void assert_only(struct fake *f, int method, const uint64_t want[ACCT_COMP_COUNT])
{
	struct acct_stack s;
	acct_get_stack(f->unit[method], &s);
	for (int k = 0; k < ACCT_COMP_COUNT; k++) {
		if (s.comp[k] != want[k])
			print_error("%s: %s = %llu, expected %llu\n", acct_method_name(method),
				    acct_comp_name(k), (unsigned long long)s.comp[k],
				    (unsigned long long)want[k]);
		assert_int_equal(s.comp[k], want[k]);
	}
	int64_t sum = 0;
	for (int k = 0; k < ACCT_COMP_COUNT; k++)
		sum += (int64_t)want[k];
	assert_int_equal(s.base, (int64_t)s.cycles - sum);
	/* the set, which skips the events a unit does not read, agrees */
	struct acct_stack t;
	acct_get_stack(acct_set_unit(f->set, method), &t);
	assert_memory_equal(&s, &t, sizeof s);
	struct acct_overlap_stats a, b;
	acct_overlap_get(f->ov, &a);
	acct_overlap_get(acct_set_overlap(f->set), &b);
	assert_memory_equal(&a, &b, sizeof a);
}

/*
 * An I-cache miss on the wrong path of a mispredicted branch B (seq 2).
 *   c0      fetch 1, B (mispredicted)
 *   c1      fetch wrong-path 3 and branch 4; 1 and B enter the ROB
 *   c2-c6   wrong-path fetch waits on an L1 I-cache miss (5 cycles)
 *   c7      miss returns; 1 completes
 *   c8      1 commits; B resolves: 3, 4 squashed; refill starts
 *   c9      B commits; c10-c11 refill, ROB empty
 *   c12     first correct-path instruction (5) enters the ROB
 * Interval analysis: the misprediction costs the cycles from B entering the
 * ROB to correct-path instructions entering it, c1-c11 = 11; the
 * wrong-path I-miss costs nothing.
 */
static void test_icache_miss_on_mispredicted_path(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	fake_insn(&f, INSN_FETCH, 1, &f.alu, -1, 0);
	fake_insn(&f, INSN_FETCH, 2, &f.branch, 1, F_MISPRED);  /* its ROB slot from fetch on */
	uint64_t mp = fake_miss_begin(&f, MISS_MISPREDICT, 1);
	fake_end(&f, FETCH_OK, 0, HEAD_NONE, 0);
	fake_insn(&f, INSN_FETCH, 3, &f.alu, -1, F_WRONG);
	fake_insn(&f, INSN_FETCH, 4, &f.branch, -1, F_WRONG);
	fake_insn(&f, INSN_DISPATCH, 1, &f.alu, 0, 0);
	fake_insn(&f, INSN_DISPATCH, 2, &f.branch, 1, F_MISPRED);
	fake_end(&f, FETCH_STALL_WRONG_PATH, 2, HEAD_NONE, 0);

	struct acct_fmt_state st;
	assert_int_equal(acct_fmt_state(f.unit[ACCT_FMT], &st), 0);
	assert_int_equal(st.in_rob, 1);
	assert_int_equal(st.in_frontend, 1);

	/* the core reports a wrong-path fetch as such; the I-miss shows in
	 * the miss events */
	uint64_t im = fake_miss_begin(&f, MISS_L1I, 0);
	fake_idle(&f, 5, FETCH_STALL_WRONG_PATH, 2, HEAD_EXECUTING, 0); /* c2-c6 */
	struct acct_fmt_row row;
	assert_int_equal(acct_fmt_state(f.unit[ACCT_FMT], &st), 0);
	assert_int_equal(acct_fmt_row(f.unit[ACCT_FMT], st.fetch, &row), 0);
	assert_int_equal(row.local[ACCT_FE_L1I], 5);
	fake_miss_end(&f, im, MISS_L1I, 0);
	fake_insn(&f, INSN_COMPLETE, 1, &f.alu, 0, 0);
	fake_end(&f, FETCH_STALL_WRONG_PATH, 2, HEAD_EXECUTING, 0);     /* c7 */
	fake_insn(&f, INSN_COMMIT, 1, &f.alu, 0, 0);
	fake_insn(&f, INSN_COMPLETE, 2, &f.branch, 1, F_MISPRED);
	fake_insn(&f, INSN_SQUASH, 4, &f.branch, -1, F_WRONG);
	fake_insn(&f, INSN_SQUASH, 3, &f.alu, -1, F_WRONG);
	fake_miss_end(&f, mp, MISS_MISPREDICT, 1);
	fake_end(&f, FETCH_STALL_REDIRECT, 1, HEAD_NONE, 0);            /* c8 */

	assert_int_equal(acct_fmt_state(f.unit[ACCT_FMT], &st), 0);
	assert_int_equal(st.in_rob, 1);
	assert_int_equal(st.in_frontend, 0);
	assert_int_equal(st.refill, 1);
	assert_int_equal(acct_fmt_row(f.unit[ACCT_FMT], st.dispatch_tail, &row), 0);
	assert_int_equal(row.seq, 2);
	assert_int_equal(row.mispredicted, 1);
	assert_int_equal(row.branch_penalty, 7);                        /* c1-c7 */
	assert_int_equal(row.state, ACCT_ROW_RESOLVED);
	assert_int_equal(row.rob_id, 1);
	/* the fetch row restarted empty: the wrong-path miss cycles (which the
	 * FMT did count, see below) are gone */
	assert_int_equal(acct_fmt_row(f.unit[ACCT_FMT], st.fetch, &row), 0);
	assert_int_equal(row.state, ACCT_ROW_OPEN);
	assert_int_equal(row.local[ACCT_FE_L1I], 0);

	fake_insn(&f, INSN_COMMIT, 2, &f.branch, 1, F_MISPRED);
	fake_end(&f, FETCH_STALL_REDIRECT, 0, HEAD_NONE, 0);            /* c9 */
	fake_end(&f, FETCH_STALL_REDIRECT, 0, HEAD_NONE, 0);            /* c10 */
	fake_insn(&f, INSN_FETCH, 5, &f.alu, -1, 0);
	fake_end(&f, FETCH_OK, 0, HEAD_NONE, 0);                        /* c11 */
	fake_insn(&f, INSN_DISPATCH, 5, &f.alu, 2, 0);
	fake_end(&f, FETCH_OK, 1, HEAD_NONE, 0);                        /* c12 */
	/* a later correct-path branch retires: nothing of the wrong path shows up */
	fake_insn(&f, INSN_FETCH, 6, &f.branch, -1, 0);
	fake_insn(&f, INSN_DISPATCH, 6, &f.branch, 3, 0);
	fake_insn(&f, INSN_COMPLETE, 5, &f.alu, 2, 0);
	fake_insn(&f, INSN_COMPLETE, 6, &f.branch, 3, 0);
	fake_end(&f, FETCH_OK, 2, HEAD_EXECUTING, 0);                   /* c13 */
	fake_insn(&f, INSN_COMMIT, 5, &f.alu, 2, 0);
	fake_insn(&f, INSN_COMMIT, 6, &f.branch, 3, 0);
	fake_end(&f, FETCH_OK, 0, HEAD_NONE, 0);                        /* c14 */

	uint64_t fmt[ACCT_COMP_COUNT] = { [ACCT_BPRED] = 11 };
	assert_only(&f, ACCT_FMT, fmt);
	assert_only(&f, ACCT_SFMT, fmt);
	/* POWER5: only the empty-ROB cycles after B retired (c10-c12) */
	uint64_t p5[ACCT_COMP_COUNT] = { [ACCT_BPRED] = 3 };
	assert_only(&f, ACCT_POWER5, p5);
	/* naive charges the wrong-path miss; non-spec does not */
	uint64_t nv[ACCT_COMP_COUNT] = { [ACCT_L1I] = 9, [ACCT_BPRED] = 5 };
	assert_only(&f, ACCT_NAIVE, nv);
	uint64_t ns[ACCT_COMP_COUNT] = { [ACCT_BPRED] = 5 };
	assert_only(&f, ACCT_NAIVE_NONSPEC, ns);

	struct acct_stack s;
	fake_stack(&f, ACCT_FMT, &s);
	assert_int_equal(s.cycles, 15);
	assert_int_equal(s.insns, 4);
	struct acct_overlap_stats ov;
	acct_overlap_get(f.ov, &ov);
	assert_int_equal(ov.frontend, 11);                              /* c1-c11 */
	assert_int_equal(ov.overlap, 0);
	assert_int_equal(ov.events[ACCT_BPRED], 1);
	assert_int_equal(ov.events[ACCT_L1I], 0);
	fake_free(&f);
}

/*
 * A correct-path L1 I-cache miss of 9 cycles while an older instruction is
 * still executing.
 *   c0      1 fetched and dispatched
 *   c1-c9   fetch waits on the miss; 1 completes c7, commits c8
 *   c10     2 (first of the missed block) and branch 3 fetched
 *   c10-c12 frontend refill, c13 2 and 3 enter the ROB
 *   c14     both complete, c15 both commit
 * The penalty is the miss delay, 9. POWER5 sees only the empty-ROB cycles
 * c9-c13.
 */
static void test_correct_path_icache_miss(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	fake_insn(&f, INSN_FETCH, 1, &f.alu, -1, 0);
	fake_insn(&f, INSN_DISPATCH, 1, &f.alu, 0, 0);
	fake_end(&f, FETCH_OK, 1, HEAD_NONE, 0);                        /* c0 */
	uint64_t im = fake_miss_begin(&f, MISS_L1I, 1);
	fake_idle(&f, 6, FETCH_STALL_L1I, 1, HEAD_EXECUTING, 0);        /* c1-c6 */
	fake_insn(&f, INSN_COMPLETE, 1, &f.alu, 0, 0);
	fake_end(&f, FETCH_STALL_L1I, 1, HEAD_EXECUTING, 0);            /* c7 */
	fake_insn(&f, INSN_COMMIT, 1, &f.alu, 0, 0);
	fake_end(&f, FETCH_STALL_L1I, 0, HEAD_NONE, 0);                 /* c8 */
	fake_end(&f, FETCH_STALL_L1I, 0, HEAD_NONE, 0);                 /* c9 */
	fake_miss_end(&f, im, MISS_L1I, 1);
	fake_insn(&f, INSN_FETCH, 2, &f.alu, -1, F_IMISS);
	fake_insn(&f, INSN_FETCH, 3, &f.branch, -1, 0);
	fake_end(&f, FETCH_OK, 0, HEAD_NONE, 0);                        /* c10 */
	fake_idle(&f, 2, FETCH_OK, 0, HEAD_NONE, 0);                    /* c11-c12 */
	fake_insn(&f, INSN_DISPATCH, 2, &f.alu, 1, F_IMISS);
	fake_insn(&f, INSN_DISPATCH, 3, &f.branch, 2, 0);
	fake_end(&f, FETCH_OK, 2, HEAD_NONE, 0);                        /* c13 */
	fake_insn(&f, INSN_COMPLETE, 2, &f.alu, 1, F_IMISS);
	fake_insn(&f, INSN_COMPLETE, 3, &f.branch, 2, 0);
	fake_end(&f, FETCH_OK, 2, HEAD_EXECUTING, 0);                   /* c14 */

	/* Not yet retired: the FMT row of branch 3 holds the 9 cycles, the
	 * sFMT's shared counter too, and no global counter has them yet. */
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_L1I), 0);
	assert_int_equal(fake_comp(&f, ACCT_SFMT, ACCT_L1I), 0);
	struct acct_fmt_state st;
	struct acct_fmt_row row;
	assert_int_equal(acct_fmt_state(f.unit[ACCT_FMT], &st), 0);
	assert_int_equal(st.in_rob, 1);
	assert_int_equal(acct_fmt_row(f.unit[ACCT_FMT], st.dispatch_head, &row), 0);
	assert_int_equal(row.seq, 3);
	assert_int_equal(row.local[ACCT_FE_L1I], 9);
	assert_int_equal(row.mispredicted, 0);
	assert_int_equal(acct_fmt_state(f.unit[ACCT_SFMT], &st), 0);
	assert_int_equal(st.shared[ACCT_FE_L1I], 9);
	assert_int_equal(st.imiss_bits, 1);

	fake_insn(&f, INSN_COMMIT, 2, &f.alu, 1, F_IMISS);
	fake_insn(&f, INSN_COMMIT, 3, &f.branch, 2, 0);
	fake_end(&f, FETCH_OK, 0, HEAD_NONE, 0);                        /* c15 */

	uint64_t exact[ACCT_COMP_COUNT] = { [ACCT_L1I] = 9 };
	assert_only(&f, ACCT_FMT, exact);
	assert_only(&f, ACCT_SFMT, exact);
	assert_only(&f, ACCT_NAIVE, exact);
	assert_only(&f, ACCT_NAIVE_NONSPEC, exact);
	uint64_t p5[ACCT_COMP_COUNT] = { [ACCT_L1I] = 5 };
	assert_only(&f, ACCT_POWER5, p5);
	assert_int_equal(acct_fmt_state(f.unit[ACCT_SFMT], &st), 0);
	assert_int_equal(st.shared[ACCT_FE_L1I], 0);
	assert_int_equal(st.imiss_bits, 0);
	struct acct_overlap_stats ov;
	acct_overlap_get(f.ov, &ov);
	assert_int_equal(ov.frontend, 9);
	assert_int_equal(ov.events[ACCT_L1I], 1);
	fake_free(&f);
}

/*
 * A misprediction under a full ROB: branch B (seq 4) waits behind a load
 * that misses to memory.
 *   c0       load 1, 2, 3, B dispatched (8-entry ROB); the load misses L2
 *   c1       wrong-path 5-8 fill the ROB
 *   c2-c20   ROB full, head = the L2 miss (19 cycles)
 *   c21      1-3 commit
 *   c22      B resolves, wrong path squashed; c23 B commits; c24 refill
 *   c25      correct-path 9 enters the ROB
 * FMT: L2D = the ROB-full cycles (19); branch penalty = B's ROB-not-full
 * cycles before resolution (c0, c1, c21) + refill (c22-c24) = 6.
 */
static void misprediction_full_rob_part1(struct fake *f)
{
	fake_insn(f, INSN_FETCH, 1, &f->load, -1, 0);
	fake_insn(f, INSN_FETCH, 2, &f->alu, -1, 0);
	fake_insn(f, INSN_FETCH, 3, &f->alu, -1, 0);
	fake_insn(f, INSN_FETCH, 4, &f->branch, -1, F_MISPRED);
	for (int i = 1; i <= 4; i++)
		fake_insn(f, INSN_DISPATCH, (uint64_t)i, i == 1 ? &f->load : i == 4 ? &f->branch : &f->alu,
			  i - 1, i == 4 ? F_MISPRED : 0);
	uint64_t l2 = fake_miss_begin(f, MISS_L2D, 1);
	assert_int_equal(l2, 1);
	fake_miss_begin(f, MISS_MISPREDICT, 1);
	fake_end(f, FETCH_STALL_WRONG_PATH, 4, HEAD_NONE, 0);           /* c0 */
	for (int i = 5; i <= 8; i++) {
		fake_insn(f, INSN_FETCH, (uint64_t)i, &f->alu, -1, F_WRONG);
		fake_insn(f, INSN_DISPATCH, (uint64_t)i, &f->alu, i - 1, F_WRONG);
	}
	fake_end(f, FETCH_STALL_WRONG_PATH, 8, HEAD_L2D, 0);            /* c1 */
	fake_idle(f, 8, FETCH_OK, 8, HEAD_L2D, 1);                      /* c2-c9 */
}

static void misprediction_full_rob_part2(struct fake *f)
{
	fake_idle(f, 10, FETCH_OK, 8, HEAD_L2D, 1);                     /* c10-c19 */
	fake_miss_end(f, 1, MISS_L2D, 1);
	for (int i = 1; i <= 3; i++)
		fake_insn(f, INSN_COMPLETE, (uint64_t)i, i == 1 ? &f->load : &f->alu, i - 1, 0);
	fake_end(f, FETCH_OK, 8, HEAD_L2D, 1);                          /* c20 */
	for (int i = 1; i <= 3; i++)
		fake_insn(f, INSN_COMMIT, (uint64_t)i, i == 1 ? &f->load : &f->alu, i - 1, 0);
	fake_end(f, FETCH_OK, 5, HEAD_NONE, 0);                         /* c21 */
	fake_insn(f, INSN_COMPLETE, 4, &f->branch, 3, F_MISPRED);
	for (int i = 8; i >= 5; i--)
		fake_insn(f, INSN_SQUASH, (uint64_t)i, &f->alu, i - 1, F_WRONG);
	fake_end(f, FETCH_STALL_REDIRECT, 1, HEAD_EXECUTING, 0);        /* c22 */
	fake_insn(f, INSN_COMMIT, 4, &f->branch, 3, F_MISPRED);
	fake_end(f, FETCH_STALL_REDIRECT, 0, HEAD_NONE, 0);             /* c23 */
	fake_insn(f, INSN_FETCH, 9, &f->alu, -1, 0);
	fake_end(f, FETCH_OK, 0, HEAD_NONE, 0);                         /* c24 */
	fake_insn(f, INSN_DISPATCH, 9, &f->alu, 4, 0);
	fake_end(f, FETCH_OK, 1, HEAD_NONE, 0);                         /* c25 */
}

static void test_misprediction_under_full_rob(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	misprediction_full_rob_part1(&f);
	misprediction_full_rob_part2(&f);
	uint64_t fmt[ACCT_COMP_COUNT] = { [ACCT_L2D] = 19, [ACCT_BPRED] = 6 };
	assert_only(&f, ACCT_FMT, fmt);
	assert_only(&f, ACCT_SFMT, fmt);
	/* POWER5: every zero-commit cycle with the miss at the head (c1-c20),
	 * and the empty ROB after the misprediction (c24, c25) */
	uint64_t p5[ACCT_COMP_COUNT] = { [ACCT_L2D] = 20, [ACCT_BPRED] = 2 };
	assert_only(&f, ACCT_POWER5, p5);
	uint64_t nv[ACCT_COMP_COUNT] = { [ACCT_L2D] = 250, [ACCT_BPRED] = 5 };
	assert_only(&f, ACCT_NAIVE, nv);
	struct acct_overlap_stats ov;
	acct_overlap_get(f.ov, &ov);
	assert_int_equal(ov.cycles, 26);
	assert_int_equal(ov.frontend, 25);          /* c0-c24: B's penalty window */
	assert_int_equal(ov.long_backend, 20);      /* c0-c19: the miss outstanding */
	assert_int_equal(ov.overlap, 20);
	fake_free(&f);
}

/* Snapshots: restoring the saved state and replaying the same events gives
 * the same stacks. */
static void test_snapshot_replay(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	misprediction_full_rob_part1(&f);
	void *blob[FAKE_N_OBSERVERS];
	FAKE_EACH_OBSERVER(&f, o, {
		blob[fk_] = malloc(o->state_size(o->ctx));
		assert_non_null(blob[fk_]);
		o->save(o->ctx, blob[fk_]);
	});
	uint64_t cycle = f.cycle, miss_id = f.miss_id;
	uint64_t dispatch_seq = f.dispatch_seq, commit_seq = f.commit_seq;
	misprediction_full_rob_part2(&f);
	struct acct_stack first[ACCT_METHOD_COUNT], second[ACCT_METHOD_COUNT];
	for (int m = 0; m < ACCT_METHOD_COUNT; m++)
		fake_stack(&f, m, &first[m]);
	/* scribble on every unit, then restore */
	fake_idle(&f, 50, FETCH_STALL_L2I, 8, HEAD_L1D, 1);
	FAKE_EACH_OBSERVER(&f, o, o->restore(o->ctx, blob[fk_]));
	f.cycle = cycle;
	f.miss_id = miss_id;
	f.dispatch_seq = dispatch_seq;
	f.commit_seq = commit_seq;
	fake_reset_rec(&f);
	misprediction_full_rob_part2(&f);
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		fake_stack(&f, m, &second[m]);
		assert_memory_equal(&first[m], &second[m], sizeof first[m]);
	}
	assert_int_equal(first[ACCT_FMT].comp[ACCT_L2D], 19);
	for (int i = 0; i < FAKE_N_OBSERVERS; i++)
		free(blob[i]);
	fake_free(&f);
}

/*
 * Two overlapping long misses: loads 1 and 3 both miss to memory; the ROB
 * fills at c1 and stays full until the data returns at c200.
 * Interval analysis: one miss penalty, the ROB-full time (200 cycles).
 * Naive charges 2 x 250 = 500 > 203 total cycles: a negative base.
 */
static void test_two_overlapping_long_misses(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	for (int i = 1; i <= 8; i++) {
		const struct uop *u = (i == 1 || i == 3) ? &f.load : &f.alu;
		fake_insn(&f, INSN_FETCH, (uint64_t)i, u, -1, 0);
		fake_insn(&f, INSN_DISPATCH, (uint64_t)i, u, i - 1, 0);
	}
	uint64_t m1 = fake_miss_begin(&f, MISS_L2D, 1);
	uint64_t m2 = fake_miss_begin(&f, MISS_L2D, 1);
	fake_end(&f, FETCH_OK, 8, HEAD_NONE, 0);                        /* c0 */
	fake_idle(&f, 199, FETCH_OK, 8, HEAD_L2D, 1);                   /* c1-c199 */
	fake_miss_end(&f, m1, MISS_L2D, 1);
	fake_miss_end(&f, m2, MISS_L2D, 1);
	for (int i = 1; i <= 8; i++)
		fake_insn(&f, INSN_COMPLETE, (uint64_t)i, &f.alu, i - 1, 0);
	fake_end(&f, FETCH_OK, 8, HEAD_L2D, 1);                         /* c200 */
	for (int i = 1; i <= 4; i++)
		fake_insn(&f, INSN_COMMIT, (uint64_t)i, &f.alu, i - 1, 0);
	fake_end(&f, FETCH_OK, 4, HEAD_NONE, 0);                        /* c201 */
	for (int i = 5; i <= 8; i++)
		fake_insn(&f, INSN_COMMIT, (uint64_t)i, &f.alu, i - 1, 0);
	fake_end(&f, FETCH_OK, 0, HEAD_NONE, 0);                        /* c202 */

	uint64_t one[ACCT_COMP_COUNT] = { [ACCT_L2D] = 200 };
	assert_only(&f, ACCT_FMT, one);
	assert_only(&f, ACCT_SFMT, one);
	assert_only(&f, ACCT_POWER5, one);
	uint64_t two[ACCT_COMP_COUNT] = { [ACCT_L2D] = 500 };
	assert_only(&f, ACCT_NAIVE, two);
	assert_only(&f, ACCT_NAIVE_NONSPEC, two);
	struct acct_stack s;
	fake_stack(&f, ACCT_NAIVE, &s);
	assert_int_equal(s.cycles, 203);
	assert_true(s.base < 0);
	assert_int_equal(s.base, 203 - 500);
	fake_stack(&f, ACCT_FMT, &s);
	assert_int_equal(s.base, 3);
	assert_int_equal(s.insns, 8);
	struct acct_overlap_stats ov;
	acct_overlap_get(f.ov, &ov);
	assert_int_equal(ov.long_backend, 200);
	assert_int_equal(ov.frontend, 0);
	assert_int_equal(ov.events[ACCT_L2D], 2);
	fake_free(&f);
}

/*
 * The sFMT's known inaccuracy (§4.1): a correct-path I-miss X, then a
 * mispredicted branch B, then a wrong-path I-miss Y; X retires while Y is
 * in progress, so the shared counter it empties holds Y's cycles too.
 *   c0-c8    fetch waits on X's miss (9 cycles); c9 X (1) and B (2) fetched
 *   c10      X and B enter the ROB; c11-c14 wrong-path miss Y
 *   c11      X completes, c12 X retires
 *   c15      B resolves; c16 B retires; c17 correct path enters the ROB
 */
static void test_sfmt_counts_wrong_path_miss_after_older_imiss(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	uint64_t x = fake_miss_begin(&f, MISS_L1I, 1);
	fake_idle(&f, 9, FETCH_STALL_L1I, 0, HEAD_NONE, 0);             /* c0-c8 */
	fake_miss_end(&f, x, MISS_L1I, 1);
	fake_insn(&f, INSN_FETCH, 1, &f.alu, -1, F_IMISS);
	fake_insn(&f, INSN_FETCH, 2, &f.branch, -1, F_MISPRED);
	fake_end(&f, FETCH_OK, 0, HEAD_NONE, 0);                        /* c9 */
	fake_insn(&f, INSN_FETCH, 3, &f.alu, -1, F_WRONG);
	fake_insn(&f, INSN_DISPATCH, 1, &f.alu, 0, F_IMISS);
	fake_insn(&f, INSN_DISPATCH, 2, &f.branch, 1, F_MISPRED);
	fake_end(&f, FETCH_STALL_WRONG_PATH, 2, HEAD_NONE, 0);          /* c10 */
	uint64_t y = fake_miss_begin(&f, MISS_L1I, 0);
	fake_insn(&f, INSN_COMPLETE, 1, &f.alu, 0, F_IMISS);
	fake_end(&f, FETCH_STALL_WRONG_PATH, 2, HEAD_EXECUTING, 0);     /* c11 */
	fake_insn(&f, INSN_COMMIT, 1, &f.alu, 0, F_IMISS);
	fake_end(&f, FETCH_STALL_WRONG_PATH, 1, HEAD_NONE, 0);          /* c12 */
	fake_idle(&f, 2, FETCH_STALL_WRONG_PATH, 1, HEAD_EXECUTING, 0); /* c13-c14 */
	fake_miss_end(&f, y, MISS_L1I, 0);
	fake_insn(&f, INSN_COMPLETE, 2, &f.branch, 1, F_MISPRED);
	fake_insn(&f, INSN_SQUASH, 3, &f.alu, -1, F_WRONG);
	fake_end(&f, FETCH_STALL_REDIRECT, 1, HEAD_EXECUTING, 0);       /* c15 */
	fake_insn(&f, INSN_COMMIT, 2, &f.branch, 1, F_MISPRED);
	fake_end(&f, FETCH_STALL_REDIRECT, 0, HEAD_NONE, 0);            /* c16 */
	fake_insn(&f, INSN_FETCH, 4, &f.alu, -1, 0);
	fake_insn(&f, INSN_DISPATCH, 4, &f.alu, 2, 0);
	fake_end(&f, FETCH_OK, 1, HEAD_NONE, 0);                        /* c17 */

	/* FMT: X's 9 cycles (in B's row, retired with B); B: c10-c14 in the
	 * ROB + refill c15-c16 = 7 */
	uint64_t fmt[ACCT_COMP_COUNT] = { [ACCT_L1I] = 9, [ACCT_BPRED] = 7 };
	assert_only(&f, ACCT_FMT, fmt);
	/* sFMT: X's retirement at c12 empties 9 + Y's first cycle (c11) */
	uint64_t sfmt[ACCT_COMP_COUNT] = { [ACCT_L1I] = 10, [ACCT_BPRED] = 7 };
	assert_only(&f, ACCT_SFMT, sfmt);
	fake_free(&f);
}

/*
 * The sFMT keeps an older I-miss across a younger misprediction: X's miss
 * cycles are still in the shared counters when B resolves, since X waits
 * behind a divide; they reach the global counter when X retires, and B's
 * retirement then clears what is left.
 *   c0-c8    fetch waits on X's miss; divide 1 at the ROB head
 *   c9       X (2) and B (3) fetched; c10 both enter the ROB
 *   c11      B resolves; c11-c13 refill; c14 correct path enters the ROB
 *            (B's penalty: c10-c13, from its entry up to c14)
 *   c15      the divide completes; c16 1, X, B retire
 */
static void test_sfmt_keeps_older_imiss_across_misprediction(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	fake_insn(&f, INSN_FETCH, 1, &f.div, -1, 0);
	fake_insn(&f, INSN_DISPATCH, 1, &f.div, 0, 0);
	uint64_t x = fake_miss_begin(&f, MISS_L1I, 1);
	fake_end(&f, FETCH_STALL_L1I, 1, HEAD_NONE, 0);                 /* c0 */
	fake_idle(&f, 8, FETCH_STALL_L1I, 1, HEAD_LONG_LATENCY, 0);     /* c1-c8 */
	fake_miss_end(&f, x, MISS_L1I, 1);
	fake_insn(&f, INSN_FETCH, 2, &f.alu, -1, F_IMISS);
	fake_insn(&f, INSN_FETCH, 3, &f.branch, -1, F_MISPRED);
	fake_end(&f, FETCH_STALL_WRONG_PATH, 1, HEAD_LONG_LATENCY, 0);  /* c9 */
	fake_insn(&f, INSN_DISPATCH, 2, &f.alu, 1, F_IMISS);
	fake_insn(&f, INSN_DISPATCH, 3, &f.branch, 2, F_MISPRED);
	fake_end(&f, FETCH_STALL_WRONG_PATH, 3, HEAD_LONG_LATENCY, 0);  /* c10 */
	fake_insn(&f, INSN_COMPLETE, 2, &f.alu, 1, F_IMISS);
	fake_insn(&f, INSN_COMPLETE, 3, &f.branch, 2, F_MISPRED);
	fake_end(&f, FETCH_STALL_REDIRECT, 3, HEAD_LONG_LATENCY, 0);    /* c11 */
	struct acct_fmt_state st;
	assert_int_equal(acct_fmt_state(f.unit[ACCT_SFMT], &st), 0);
	assert_int_equal(st.shared[ACCT_FE_L1I], 9);
	fake_idle(&f, 2, FETCH_STALL_REDIRECT, 3, HEAD_LONG_LATENCY, 0); /* c12-c13 */
	fake_insn(&f, INSN_DISPATCH, 4, &f.alu, 3, 0);
	fake_end(&f, FETCH_OK, 4, HEAD_LONG_LATENCY, 0);                /* c14 */
	fake_insn(&f, INSN_COMPLETE, 1, &f.div, 0, 0);
	fake_end(&f, FETCH_OK, 4, HEAD_LONG_LATENCY, 0);                /* c15 */
	fake_insn(&f, INSN_COMMIT, 1, &f.div, 0, 0);
	fake_insn(&f, INSN_COMMIT, 2, &f.alu, 1, F_IMISS);
	fake_insn(&f, INSN_COMMIT, 3, &f.branch, 2, F_MISPRED);
	fake_end(&f, FETCH_OK, 1, HEAD_NONE, 0);                        /* c16 */
	uint64_t want[ACCT_COMP_COUNT] = { [ACCT_L1I] = 9, [ACCT_BPRED] = 4 };
	assert_only(&f, ACCT_FMT, want);
	assert_only(&f, ACCT_SFMT, want);
	assert_int_equal(acct_fmt_state(f.unit[ACCT_SFMT], &st), 0);
	assert_int_equal(st.shared[ACCT_FE_L1I], 0);
	fake_free(&f);
}

/* ROB-full cycles go to what blocks the head; cycles with a ROB that is not
 * full go to no backend component in the FMT, while POWER5 charges every
 * zero-commit cycle. A store the memory system refused waits on an L1
 * D-cache miss, or a long one when misses to memory are outstanding. */
static void test_full_rob_head_causes(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	static const int waits[] = { HEAD_L1D, HEAD_L2D, HEAD_DTLB, HEAD_LONG_LATENCY, HEAD_EXECUTING, HEAD_STORE };
	for (size_t i = 0; i < sizeof waits / sizeof waits[0]; i++) {
		fake_idle(&f, 3, FETCH_OK, 8, waits[i], 1);
		fake_idle(&f, 2, FETCH_OK, 5, waits[i], 0);
	}
	/* a refused store while a miss to memory is outstanding */
	f.rec.long_misses_outstanding = 1;
	fake_end(&f, FETCH_OK, 8, HEAD_STORE, 1);
	uint64_t fmt[ACCT_COMP_COUNT] = { [ACCT_L1D] = 6, [ACCT_L2D] = 4, [ACCT_DTLB] = 3, [ACCT_FU] = 3 };
	assert_only(&f, ACCT_FMT, fmt);
	assert_only(&f, ACCT_SFMT, fmt);
	uint64_t p5[ACCT_COMP_COUNT] = { [ACCT_L1D] = 10, [ACCT_L2D] = 6, [ACCT_DTLB] = 5, [ACCT_FU] = 5 };
	assert_only(&f, ACCT_POWER5, p5);
	/* a full ROB takes precedence over a frontend stall in the FMT */
	fake_idle(&f, 4, FETCH_STALL_L2I, 8, HEAD_L2D, 1);
	fake_idle(&f, 1, FETCH_STALL_L2I, 7, HEAD_L2D, 0);
	struct acct_fmt_state st;
	struct acct_fmt_row row;
	assert_int_equal(acct_fmt_state(f.unit[ACCT_FMT], &st), 0);
	assert_int_equal(acct_fmt_row(f.unit[ACCT_FMT], st.fetch, &row), 0);
	assert_int_equal(row.local[ACCT_FE_L2I], 1);
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_L2D), 8);
	fake_free(&f);
}

/* Naive counts fu_stall events of every path; non-spec the correct path. */
static void test_naive_event_counts(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	uint64_t a = fake_miss_begin(&f, MISS_FU_STALL, 1);
	uint64_t b = fake_miss_begin(&f, MISS_DTLB, 0);
	uint64_t c = fake_miss_begin(&f, MISS_ITLB, 1);
	fake_miss_begin(&f, MISS_ROB_FULL, 1);
	fake_end(&f, FETCH_OK, 1, HEAD_EXECUTING, 0);
	fake_miss_end(&f, a, MISS_FU_STALL, 1);
	fake_miss_end(&f, b, MISS_DTLB, 0);
	fake_miss_end(&f, c, MISS_ITLB, 1);
	fake_end(&f, FETCH_OK, 1, HEAD_EXECUTING, 0);
	uint64_t nv[ACCT_COMP_COUNT] = { [ACCT_FU] = 20, [ACCT_DTLB] = 30, [ACCT_ITLB] = 30 };
	assert_only(&f, ACCT_NAIVE, nv);
	uint64_t ns[ACCT_COMP_COUNT] = { [ACCT_FU] = 20, [ACCT_ITLB] = 30 };
	assert_only(&f, ACCT_NAIVE_NONSPEC, ns);
	uint64_t ev[ACCT_COMP_COUNT];
	acct_event_counts(f.unit[ACCT_NAIVE], ev);
	assert_int_equal(ev[ACCT_DTLB], 1);
	assert_int_equal(ev[ACCT_FU], 1);
	acct_event_counts(f.unit[ACCT_FMT], ev);
	assert_int_equal(ev[ACCT_DTLB], 0);
	fake_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_icache_miss_on_mispredicted_path),
		cmocka_unit_test(test_correct_path_icache_miss),
		cmocka_unit_test(test_misprediction_under_full_rob),
		cmocka_unit_test(test_snapshot_replay),
		cmocka_unit_test(test_two_overlapping_long_misses),
		cmocka_unit_test(test_sfmt_counts_wrong_path_miss_after_older_imiss),
		cmocka_unit_test(test_sfmt_keeps_older_imiss_across_misprediction),
		cmocka_unit_test(test_full_rob_head_causes),
		cmocka_unit_test(test_naive_event_counts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
