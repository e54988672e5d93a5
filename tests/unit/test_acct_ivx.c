/*
 * test_acct_ivx.c — the rules of the ivx counters (engine/acct/acct_ivx.c)
 * on hand-written pipeline histories, beside what the FMT charges for the
 * same cycles. Each scenario's comment is the timeline; c<N> is cycle N.
 * The unit on its own and the one inside a set must agree in every one.
 */
#include <stdlib.h>
#include "test_acct_fake.h"

/* The ivx unit's stack is exactly `want` (others 0), alone and in the set. */
static void assert_ivx(struct fake *f, const uint64_t want[ACCT_COMP_COUNT])
{
	struct acct_stack s, t;
	acct_get_stack(f->unit[ACCT_IVX], &s);
	for (int k = 0; k < ACCT_COMP_COUNT; k++) {
		if (s.comp[k] != want[k])
			print_error("ivx: %s = %llu, expected %llu\n", acct_comp_name(k),
				    (unsigned long long)s.comp[k], (unsigned long long)want[k]);
		assert_int_equal(s.comp[k], want[k]);
	}
	acct_get_stack(acct_set_unit(f->set, ACCT_IVX), &t);
	assert_memory_equal(&s, &t, sizeof s);
}

/* One cycle closed with `issued` correct-path instructions issued. */
static void cycle_issuing(struct fake *f, int issued, int fetch_stall, int occupancy, int head_wait, int rob_full)
{
	f->rec.issued = issued;
	f->rec.issued_correct = issued;
	fake_end(f, fetch_stall, occupancy, head_wait, rob_full);
}

/* A correct-path misprediction of branch `seq` begins (at its dispatch,
 * as the core reports it: with the branch's seq). */
static void mispredict_begins(struct fake *f, uint64_t seq)
{
	struct miss_event e = { .kind = MISS_MISPREDICT, .phase = MISS_BEGIN, .id = ++f->miss_id,
				.start = f->cycle, .insn_seq = seq, .correct_path = 1 };
	FAKE_EACH_OBSERVER(f, o, if (o->on_miss && (!o->miss_filter || (o->miss_filter & MISS_BIT(e.kind))))
				      o->on_miss(o->ctx, &e));
}

/* n cycles in which instruction seq, seq+1, ... enter the ROB, one a cycle. */
static uint64_t dispatch_each(struct fake *f, uint64_t seq, int n, int fetch_stall, int occupancy)
{
	for (int i = 0; i < n; i++, seq++) {
		fake_insn(f, INSN_FETCH, seq, &f->alu, -1, 0);
		fake_insn(f, INSN_DISPATCH, seq, &f->alu, (int)seq % 8, 0);
		cycle_issuing(f, 1, fetch_stall, occupancy, HEAD_EXECUTING, 0);
	}
	return seq;
}

/* n steady cycles before a scenario: k instructions (from seq on) enter
 * the ROB, issue and commit in each; they set the program's base rate,
 * k per cycle (the default machine dispatches 4). */
static uint64_t steady(struct fake *f, uint64_t seq, int n, int k)
{
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < k; j++, seq++) {
			fake_insn(f, INSN_FETCH, seq, &f->alu, -1, 0);
			fake_insn(f, INSN_DISPATCH, seq, &f->alu, (int)seq % 8, 0);
			fake_insn(f, INSN_COMMIT, seq, &f->alu, (int)seq % 8, 0);
		}
		cycle_issuing(f, k, FETCH_OK, 4, HEAD_EXECUTING, 0);
	}
	return seq;
}

/*
 * An L1 I-cache miss the frontend's buffer covers.
 *   c0-c8   fetch waits on the miss; an instruction from the buffer enters
 *           the ROB and one issues every cycle
 *   c9      the line is there
 * The FMT charges the 9 cycles of the miss (to the branch row fetching
 * it, test_acct_scenarios.c); dispatch never starved, so the ivx counters
 * charge nothing.
 */
static void test_imiss_covered_by_frontend(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	uint64_t m = fake_miss_begin(&f, MISS_L1I, 1);
	uint64_t seq = dispatch_each(&f, 1, 9, FETCH_STALL_L1I, 3);
	fake_miss_end(&f, m, MISS_L1I, 1);
	dispatch_each(&f, seq, 1, FETCH_OK, 3);
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ 0 });
	fake_free(&f);
}

/*
 * An L1 I-cache miss that starves dispatch, after 200 steady cycles that
 * commit k instructions each (k = 4: the machine's width; k = 1: a
 * dependence-bound program).
 *   c0-c2   fetch waits; the buffer still feeds the ROB (3 cycles)
 *   c3-c5   fetch waits; nothing enters the ROB, the ROB still issues:
 *           3 partial cycles
 *   c6-c8   fetch waits; nothing enters, nothing issues: the ROB is dry
 *   c9-c10  the line is there, the refill: nothing enters yet
 *   c11     the missed block's first instruction enters the ROB
 * The 5 starved and idle cycles (c6-c10) are the miss's. The partial ones
 * are too if the miss came while the machine issued at half its dispatch
 * width or more (8 instructions or more in the 4 cycles before c0: k = 4
 * and k = 2), else it takes the share f = min(1, (1 / (4 x CPI*))^2) of
 * them, CPI* the cycles no counter took per committed instruction
 * (acct_ivx.c), worked out with f in turn from f = 0:
 *   k = 4: every starved cycle, 8 (the FMT's view of a machine running
 *          at its width; the share would say the same: CPI* = (212 - 5 -
 *          3f) / 800 settles at f = 0.96, 5 + 2.88);
 *   k = 2: every starved cycle, 8 (the share alone: CPI* = (212 - 5 -
 *          3f) / 400 = 0.52, f = 0.23, 5 + 0.7 = 6);
 *   k = 1: 200 instructions; CPI* = (212 - 5 - 3f) / 200 = 1.03,
 *          f = 0.06: 5 + 0.18 = 5, the idle ones only (the ROB's chain
 *          kept the machine busy in c3-c5).
 */
static void imiss_starving_dispatch(int k, uint64_t want)
{
	struct fake f;
	fake_init(&f);
	uint64_t seq = steady(&f, 1, 200, k);
	uint64_t m = fake_miss_begin(&f, MISS_L1I, 1);
	seq = dispatch_each(&f, seq, 3, FETCH_STALL_L1I, 3);
	for (int i = 0; i < 3; i++)
		cycle_issuing(&f, 1, FETCH_STALL_L1I, 2, HEAD_EXECUTING, 0);
	fake_idle(&f, 3, FETCH_STALL_L1I, 1, HEAD_EXECUTING, 0);
	fake_miss_end(&f, m, MISS_L1I, 1);
	fake_idle(&f, 2, FETCH_OK, 1, HEAD_EXECUTING, 0);
	dispatch_each(&f, seq, 1, FETCH_OK, 2);
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_L1I] = want });
	/* after the refill, starved cycles are nobody's */
	fake_idle(&f, 4, FETCH_OK, 0, HEAD_NONE, 0);
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_L1I] = want });
	fake_free(&f);
}

static void test_imiss_starving_width_bound(void **state)
{
	(void)state;
	imiss_starving_dispatch(4, 8);
}

static void test_imiss_starving_half_width(void **state)
{
	(void)state;
	imiss_starving_dispatch(2, 8);
}

static void test_imiss_starving_dependence_bound(void **state)
{
	(void)state;
	imiss_starving_dispatch(1, 5);
}

/*
 * The same miss with no instruction committed at all: there is no base
 * rate to weigh the partial cycles by (CPI* = 0), so they count whole,
 * as at the machine's width: 5 + 3.
 */
static void test_imiss_without_base_rate(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	uint64_t m = fake_miss_begin(&f, MISS_L1I, 1);
	uint64_t seq = dispatch_each(&f, 1, 3, FETCH_STALL_L1I, 3);
	for (int i = 0; i < 3; i++)
		cycle_issuing(&f, 1, FETCH_STALL_L1I, 2, HEAD_EXECUTING, 0);
	fake_idle(&f, 3, FETCH_STALL_L1I, 1, HEAD_EXECUTING, 0);
	fake_miss_end(&f, m, MISS_L1I, 1);
	fake_idle(&f, 2, FETCH_OK, 1, HEAD_EXECUTING, 0);
	dispatch_each(&f, seq, 1, FETCH_OK, 2);
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_L1I] = 8 });
	fake_free(&f);
}

/*
 * A mispredicted branch B (seq 2) waiting behind a divide at the ROB head.
 *   c0      1 (a divide) and B enter the ROB
 *   c1-c4   nothing commits: the head is the divide (4 cycles)
 *   c5      the divide commits
 *   c6-c7   B's operands are ready, it executes (head: B, executing)
 *   c8      B resolves mispredicted; c8-c9 the refill, ROB empty
 *   c10     the first correct-path instruction enters the ROB
 * FMT: the whole window and the refill, c0-c9 = 10 cycles to the branch.
 * ivx: the 4 blocked cycles go to the divide's unit (what the machine
 * lost with a correct prediction too), the branch gets 5: c8, in which B
 * itself commits, is a refill cycle that still commits after the machine
 * ran below half its width (here: no history), a partial one whose share
 * f = (1 / (4 x CPI*))^2 is about 0.06 (CPI* = (11 - 9) / 2 committed):
 * test_refill_still_committing. (A 64-entry ROB: a correct path would not
 * have filled it in the window, see test_branch_window_fills_virtual_rob.)
 */
static void test_branch_behind_long_latency_head(void **state)
{
	(void)state;
	struct fake f;
	fake_init_rob(&f, 64);
	fake_insn(&f, INSN_FETCH, 1, &f.div, 0, 0);
	fake_insn(&f, INSN_FETCH, 2, &f.branch, 1, F_MISPRED);
	fake_insn(&f, INSN_DISPATCH, 1, &f.div, 0, 0);
	fake_insn(&f, INSN_DISPATCH, 2, &f.branch, 1, F_MISPRED);
	mispredict_begins(&f, 2);
	fake_end(&f, FETCH_STALL_WRONG_PATH, 2, HEAD_EXECUTING, 0);        /* c0 */
	fake_idle(&f, 4, FETCH_STALL_WRONG_PATH, 2, HEAD_LONG_LATENCY, 0); /* c1-c4 */
	fake_insn(&f, INSN_COMMIT, 1, &f.div, 0, 0);
	fake_end(&f, FETCH_STALL_WRONG_PATH, 1, HEAD_EXECUTING, 0);        /* c5 */
	fake_idle(&f, 2, FETCH_STALL_WRONG_PATH, 1, HEAD_EXECUTING, 0);    /* c6-c7 */
	fake_insn(&f, INSN_COMPLETE, 2, &f.branch, 1, F_MISPRED);
	fake_insn(&f, INSN_COMMIT, 2, &f.branch, 1, F_MISPRED);
	fake_end(&f, FETCH_STALL_REDIRECT, 0, HEAD_NONE, 0);               /* c8 */
	fake_end(&f, FETCH_STALL_REDIRECT, 0, HEAD_NONE, 0);               /* c9 */
	fake_insn(&f, INSN_FETCH, 3, &f.alu, -1, 0);
	fake_insn(&f, INSN_DISPATCH, 3, &f.alu, 2, 0);
	fake_end(&f, FETCH_OK, 1, HEAD_EXECUTING, 0);                      /* c10 */
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_BPRED), 10);
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_BPRED] = 5, [ACCT_FU] = 4 });
	fake_free(&f);
}

/*
 * A misprediction whose window fills the ROB while the divider stands
 * idle, after 40 steady cycles committing one instruction each, with the
 * divider at work in all of them (a divide-bound program, `dividing`) or
 * in none.
 *   c0      B (mispredicted) enters the ROB; the ROB not full: penalty
 *   c1-c6   the ROB full of B's wrong path, the head a multiply (a
 *           long-latency op), no divider at work
 *   c7-c10  the same, the head executing (nothing to charge it to)
 *   c11     B resolves; c11-c12 the refill
 *   c13     the first correct-path instruction enters the ROB
 * FMT: the window's full cycles to the head (FU 6, the rest base), the
 * branch 3 (c0 and the refill). ivx without divides: the same. ivx in the
 * divide-bound program: the 10 divider-idle full cycles are the branch's
 * in the share g = min(1, (D / (C - A - 4g))^2), D = 40 cycles with the
 * divider at work, C = 54, A = 9 counted: g = 0.94 after the read-out's
 * rounds: bpred 3 + 10 x 0.94 = 12, FU 6 - 6 x 0.94 = 0. With a correct
 * prediction the ROB would have held the next divides. (A 64-entry ROB,
 * 8 in it at c0: c0 has room for a correct path.) c11, in which B itself
 * commits after cycles issuing one a cycle (below half the width), is a
 * partial refill cycle (test_refill_still_committing) whose share is
 * about 0.06 here (CPI* near 1): the branch keeps 2 of the 3; in the
 * divide-bound program, with that cycle left in the base cycles, g comes
 * out a little lower: bpred 11, FU 1.
 */
static void branch_with_idle_divider(int dividing, const uint64_t want[ACCT_COMP_COUNT])
{
	struct fake f;
	fake_init_rob(&f, 64);
	uint64_t seq = 1;
	for (int i = 0; i < 40; i++, seq++) {
		fake_insn(&f, INSN_FETCH, seq, &f.div, -1, 0);
		fake_insn(&f, INSN_DISPATCH, seq, &f.div, (int)seq % 8, 0);
		fake_insn(&f, INSN_COMMIT, seq, &f.div, (int)seq % 8, 0);
		f.rec.units_busy = dividing;
		cycle_issuing(&f, 1, FETCH_OK, 4, HEAD_EXECUTING, 0);
	}
	uint64_t b = seq++;
	fake_insn(&f, INSN_FETCH, b, &f.branch, -1, F_MISPRED);
	fake_insn(&f, INSN_DISPATCH, b, &f.branch, 0, F_MISPRED);
	mispredict_begins(&f, b);
	fake_end(&f, FETCH_STALL_WRONG_PATH, 8, HEAD_EXECUTING, 0);                        /* c0 */
	fake_idle(&f, 6, FETCH_STALL_WRONG_PATH, (int)f.cfg.rob_size, HEAD_LONG_LATENCY, 1); /* c1-c6 */
	fake_idle(&f, 4, FETCH_STALL_WRONG_PATH, (int)f.cfg.rob_size, HEAD_EXECUTING, 1);    /* c7-c10 */
	fake_insn(&f, INSN_COMPLETE, b, &f.branch, 0, F_MISPRED);
	fake_insn(&f, INSN_COMMIT, b, &f.branch, 0, F_MISPRED);
	fake_end(&f, FETCH_STALL_REDIRECT, 0, HEAD_NONE, 0);                               /* c11 */
	fake_end(&f, FETCH_STALL_REDIRECT, 0, HEAD_NONE, 0);                               /* c12 */
	fake_insn(&f, INSN_FETCH, seq, &f.alu, -1, 0);
	fake_insn(&f, INSN_DISPATCH, seq, &f.alu, 1, 0);
	fake_end(&f, FETCH_OK, 1, HEAD_EXECUTING, 0);                                      /* c13 */
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_BPRED), 3);
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_FU), 6);
	assert_ivx(&f, want);
	fake_free(&f);
}

static void test_branch_with_idle_divider_divide_bound(void **state)
{
	(void)state;
	branch_with_idle_divider(1, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_BPRED] = 11, [ACCT_FU] = 1 });
}

static void test_branch_with_idle_divider_no_divides(void **state)
{
	(void)state;
	branch_with_idle_divider(0, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_BPRED] = 2, [ACCT_FU] = 6 });
}

/*
 * The same window, but the branch turns out predicted correctly: its row
 * (penalty and blocked cycles) is never charged, as in the FMT. The five
 * cycles in which the whole machine waits on the load's L1 D-cache miss
 * at the head (nothing commits or issues) are the miss's (the FMT: base,
 * the ROB is not full).
 */
static void test_correct_branch_charges_nothing(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	fake_insn(&f, INSN_FETCH, 1, &f.load, 0, 0);
	fake_insn(&f, INSN_FETCH, 2, &f.branch, 1, 0);
	fake_insn(&f, INSN_DISPATCH, 1, &f.load, 0, 0);
	fake_insn(&f, INSN_DISPATCH, 2, &f.branch, 1, 0);
	fake_end(&f, FETCH_OK, 2, HEAD_EXECUTING, 0);
	fake_idle(&f, 5, FETCH_OK, 2, HEAD_L1D, 0);
	fake_insn(&f, INSN_COMPLETE, 2, &f.branch, 1, 0);
	fake_insn(&f, INSN_COMMIT, 1, &f.load, 0, 0);
	fake_insn(&f, INSN_COMMIT, 2, &f.branch, 1, 0);
	fake_end(&f, FETCH_OK, 0, HEAD_NONE, 0);
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_L1D), 0);
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_L1D] = 5 });
	fake_free(&f);
}

/*
 * D-side misses at the head of a ROB that is not full.
 *   c0-c2   head: an L1 D-cache miss; nothing commits or issues (3)
 *   c3-c4   head: the same miss; younger work issues, one a cycle, after
 *           cycles that issued below half the dispatch width (2)
 *   c5-c6   head: an L2 D-cache miss; nothing commits or issues (2)
 *   c7      head: a D-TLB walk; nothing commits or issues (1)
 *   c8      head: a divide; nothing commits or issues (1)
 *   c9-c10  head: an L1 D-cache miss, nothing issues, but fetch waits
 *           on an I-cache miss and nothing enters the ROB (2)
 * The machine stood still waiting on the miss in c0-c2, c5-c7: those
 * cycles are the misses' (L1D 3, L2D 2, D-TLB 1). In c3-c4 the little
 * that issues is a chain the L1 miss holds up: the miss's too (L1D 5;
 * test_l1d_miss_at_width has a machine that hides it); c8 waits on a
 * unit, not a miss (base, as the FMT);
 * c9-c10 are the I-side miss's (starved and idle), not the head's. The
 * FMT charges none of the D-side cycles (the ROB is never full).
 */
static void test_machine_waits_on_dmiss(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	fake_idle(&f, 3, FETCH_OK, 4, HEAD_L1D, 0);
	for (int i = 0; i < 2; i++)
		cycle_issuing(&f, 1, FETCH_OK, 4, HEAD_L1D, 0);
	fake_idle(&f, 2, FETCH_OK, 4, HEAD_L2D, 0);
	fake_idle(&f, 1, FETCH_OK, 4, HEAD_DTLB, 0);
	fake_idle(&f, 1, FETCH_OK, 4, HEAD_LONG_LATENCY, 0);
	uint64_t m = fake_miss_begin(&f, MISS_L1I, 1);
	fake_idle(&f, 2, FETCH_STALL_L1I, 4, HEAD_L1D, 0);
	fake_miss_end(&f, m, MISS_L1I, 1);
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_L1D), 0);
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_L2D), 0);
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_L1I] = 2, [ACCT_L1D] = 5, [ACCT_L2D] = 2, [ACCT_DTLB] = 1 });
	fake_free(&f);
}

/*
 * The ROB full behind misses, after 20 steady cycles committing 2
 * instructions each (40).
 *   c0-c3   behind an L2 D-cache miss, nothing issues        (4)
 *   c4-c6   behind it, the window still issues two a cycle    (3, work 6)
 *   c7-c8   behind a D-TLB walk, one issues                   (2, work 2)
 *   c9-c10  behind an L1 D-cache miss, one issues             (2)
 * FMT: every full cycle to the head's miss (7, 2, 2). ivx: the same
 * cycles, but behind a long miss (L2 D-cache, D-TLB) the instructions
 * issued are work the machine does anyway, given back at the base rate
 * CPI* = (31 cycles - 11 counted) / (40 committed - 8 issued behind long
 * misses) = 0.625: L2D 7 - 6 x 0.625 = 3.25 -> 3, D-TLB 2 - 2 x 0.625 =
 * 0.75 -> 1. An L1 miss keeps its cycles (its latency is short: what
 * issues meanwhile is not covering it).
 */
static void test_full_rob_with_work(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	steady(&f, 1, 20, 2);
	fake_idle(&f, 4, FETCH_OK, 8, HEAD_L2D, 1);
	for (int i = 0; i < 3; i++)
		cycle_issuing(&f, 2, FETCH_OK, 8, HEAD_L2D, 1);
	for (int i = 0; i < 2; i++)
		cycle_issuing(&f, 1, FETCH_OK, 8, HEAD_DTLB, 1);
	for (int i = 0; i < 2; i++)
		cycle_issuing(&f, 1, FETCH_OK, 8, HEAD_L1D, 1);
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_L2D), 7);
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_DTLB), 2);
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_L1D), 2);
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_L2D] = 3, [ACCT_DTLB] = 1, [ACCT_L1D] = 2 });
	fake_free(&f);
}

/*
 * The ROB full behind an L2 D-cache miss while the frontend still
 * fetches, after 20 steady cycles committing 2 instructions each.
 *   c0-c2   the ROB full, the head's miss outstanding; fetch delivers
 *           instructions into the frontend's buffers (3)
 *   c3-c6   the same, the frontend full too: nothing fetched (4)
 * The FMT charges all 7 to the miss. A program whose base is bound by
 * its fetch (a loop of taken branches) loses nothing while the frontend
 * still fetches: the ivx counters charge c3-c6 only (L2D 4). Fetching
 * down a wrong path is no such progress: those cycles stay the miss's.
 */
static void full_rob_while_fetching(int fetch_stall, uint64_t want)
{
	struct fake f;
	fake_init(&f);
	steady(&f, 1, 20, 2);
	for (int i = 0; i < 3; i++) {
		f.rec.fetched = 4;
		fake_end(&f, fetch_stall, 8, HEAD_L2D, 1);
	}
	fake_idle(&f, 4, FETCH_OK, 8, HEAD_L2D, 1);
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_L2D), 7);
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_L2D] = want });
	fake_free(&f);
}

static void test_full_rob_while_fetching(void **state)
{
	(void)state;
	full_rob_while_fetching(FETCH_OK, 4);
}

static void test_full_rob_while_fetching_wrong_path(void **state)
{
	(void)state;
	full_rob_while_fetching(FETCH_STALL_WRONG_PATH, 7);
}

/*
 * The work behind a long miss outweighs its cycles: 4 steady cycles at 1
 * per cycle, then 2 full cycles behind an L2 D-cache miss issuing 4 each.
 * CPI* = (6 - 2) / (4 - 8 < 0): no base rate, nothing given back (2);
 * with 40 more steady cycles, CPI* = (46 - 2) / (44 - 8) = 1.22 and the
 * work (8 x 1.22) exceeds the 2 cycles: the component is 0, not below.
 */
static void test_work_exceeds_cycles(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	uint64_t seq = steady(&f, 1, 4, 1);
	for (int i = 0; i < 2; i++)
		cycle_issuing(&f, 4, FETCH_OK, 8, HEAD_L2D, 1);
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_L2D] = 2 });
	steady(&f, seq, 40, 1);
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ 0 });
	fake_free(&f);
}

/*
 * Reverse stepping: a snapshot taken inside a misprediction window and
 * restored gives the same counts when the same cycles run again (a
 * 64-entry ROB: the window's virtual ROB never fills; half full while
 * the head waits on the L1 D-miss, so those cycles stay blocked, see
 * test_branch_window_l1d_near_empty_rob).
 */
static void test_snapshot_inside_window(void **state)
{
	(void)state;
	struct fake f;
	fake_init_rob(&f, 64);
	fake_insn(&f, INSN_FETCH, 1, &f.branch, 0, F_MISPRED);
	fake_insn(&f, INSN_DISPATCH, 1, &f.branch, 0, F_MISPRED);
	mispredict_begins(&f, 1);
	fake_end(&f, FETCH_STALL_WRONG_PATH, 1, HEAD_EXECUTING, 0);
	fake_idle(&f, 2, FETCH_STALL_WRONG_PATH, 32, HEAD_L1D, 0);
	const struct core_observer *o = acct_observer(f.unit[ACCT_IVX]);
	size_t n = o->state_size(o->ctx);
	void *blob = malloc(n);
	assert_non_null(blob);
	o->save(o->ctx, blob);
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			o->restore(o->ctx, blob);
		struct cycle_record r;
		memset(&r, 0, sizeof r);
		r.rob_size = (int)f.cfg.rob_size;
		r.rob_occupancy = 1;
		r.head_wait = HEAD_EXECUTING;
		r.fetch_stall = FETCH_STALL_WRONG_PATH;
		o->on_cycle(o->ctx, &r);
		struct insn_event e = { .stage = INSN_COMPLETE, .seq = 1, .uop = &f.branch, .mispredicted = 1 };
		o->on_insn(o->ctx, &e);
		struct acct_stack s;
		acct_get_stack(f.unit[ACCT_IVX], &s);
		assert_int_equal(s.comp[ACCT_BPRED], 2);   /* c0 and the replayed cycle */
		assert_int_equal(s.comp[ACCT_L1D], 2);     /* the blocked cycles */
		assert_int_equal(s.cycles, 4);
	}
	free(blob);
	fake_free(&f);
}

/*
 * The stack since a mark (the explorer's `reset stats`) is read out of
 * what the counters gained after it, not the difference of two stacks.
 * The I-cache miss of test_imiss_without_base_rate (no instruction
 * committed: its 3 partial cycles count whole, L1I 8), a mark, then 200
 * cycles committing one instruction each. The whole run's stack now
 * weighs the partial cycles by the base rate (CPI* about 1.03: L1I 5),
 * less than at the mark, so a difference of stacks would be 5 - 8 < 0;
 * since the mark, nothing was charged: L1I 0, every cycle base. The FMT's
 * stack since a mark is the plain difference.
 */
static void test_stack_since_mark(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	uint64_t m = fake_miss_begin(&f, MISS_L1I, 1);
	uint64_t seq = dispatch_each(&f, 1, 3, FETCH_STALL_L1I, 3);
	for (int i = 0; i < 3; i++)
		cycle_issuing(&f, 1, FETCH_STALL_L1I, 2, HEAD_EXECUTING, 0);
	fake_idle(&f, 3, FETCH_STALL_L1I, 1, HEAD_EXECUTING, 0);
	fake_miss_end(&f, m, MISS_L1I, 1);
	fake_idle(&f, 2, FETCH_OK, 1, HEAD_EXECUTING, 0);
	seq = dispatch_each(&f, seq, 1, FETCH_OK, 2);
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_L1I] = 8 });
	struct acct_mark mk, fmk;
	acct_mark(f.unit[ACCT_IVX], &mk);
	acct_mark(f.unit[ACCT_FMT], &fmk);
	struct acct_stack fmt_then;
	acct_get_stack(f.unit[ACCT_FMT], &fmt_then);
	steady(&f, seq, 200, 1);
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_L1I] = 5 });
	struct acct_stack s, fs, fnow;
	acct_get_stack_since(f.unit[ACCT_IVX], &mk, &s);
	assert_int_equal(s.cycles, 200);
	assert_int_equal(s.insns, 200);
	for (int k = 0; k < ACCT_COMP_COUNT; k++)
		assert_int_equal(s.comp[k], 0);
	assert_int_equal(s.base, 200);
	acct_get_stack_since(f.unit[ACCT_FMT], &fmk, &fs);
	acct_get_stack(f.unit[ACCT_FMT], &fnow);
	for (int k = 0; k < ACCT_COMP_COUNT; k++)
		assert_int_equal(fs.comp[k], fnow.comp[k] - fmt_then.comp[k]);
	assert_int_equal(fs.base, fnow.base - fmt_then.base);
	fake_free(&f);
}

/*
 * An I-side miss that follows another, after 200 steady cycles issuing
 * and committing 2 instructions each (half the dispatch width: 8 in any
 * 4 of them).
 *   c0-c2   fetch waits on miss A; nothing enters the ROB, one issues a
 *           cycle (3 starved cycles)
 *   c3      A's line is there; an instruction enters the ROB (one issues)
 *   c4-c6   fetch waits on miss B; the same (3 starved cycles)
 *   c7      B's line is there; an instruction enters
 * A came while the machine ran at half its width: its starved cycles are
 * its own whole (3). B came after cycles that issued one each (c0-c3),
 * but those were A's trickle, not the machine's rate: the issue history
 * moves only in cycles the frontend delivers in, and still holds the
 * steady cycles, so B's are whole too (L1I 6). Read from the 4 cycles
 * just before B, they would be partial cycles weighed by the base rate
 * (CPI* about 0.51, f = 0.24: 3 + 0.7 = 4).
 */
static void test_imiss_after_imiss(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	uint64_t seq = steady(&f, 1, 200, 2);
	for (int miss = 0; miss < 2; miss++) {
		uint64_t m = fake_miss_begin(&f, MISS_L1I, 1);
		for (int i = 0; i < 3; i++)
			cycle_issuing(&f, 1, FETCH_STALL_L1I, 2, HEAD_EXECUTING, 0);
		fake_miss_end(&f, m, MISS_L1I, 1);
		seq = dispatch_each(&f, seq, 1, FETCH_OK, 2);
	}
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_L1I] = 6 });
	fake_free(&f);
}

/*
 * An L1 D-cache miss at the head of a ROB that is not full, after 20
 * steady cycles issuing and committing k instructions each.
 *   c0-c1   head: the miss; nothing commits, two younger instructions
 *           issue a cycle
 * k = 4 (the width): the machine ran at its width up to the miss and the
 * ROB still finds work: the miss is hidden, c0-c1 are base (the FMT's
 * view too). k = 1: the machine was issuing below half its dispatch
 * width: what issues now is the chain the miss holds up, and c0-c1 are
 * the miss's (L1D 2).
 */
static void l1d_miss_after(int k, uint64_t want)
{
	struct fake f;
	fake_init(&f);
	steady(&f, 1, 20, k);
	for (int i = 0; i < 2; i++)
		cycle_issuing(&f, 2, FETCH_OK, 6, HEAD_L1D, 0);
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_L1D), 0);
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_L1D] = want });
	fake_free(&f);
}

static void test_l1d_miss_at_width(void **state)
{
	(void)state;
	l1d_miss_after(4, 0);
}

static void test_l1d_miss_below_half_width(void **state)
{
	(void)state;
	l1d_miss_after(1, 2);
}

/*
 * A misprediction window longer than a correct path would need to fill
 * the ROB, in an 8-entry ROB and in a 64-entry one.
 *   c0      B (mispredicted) enters the ROB; 2 entries taken
 *   c1-c5   B waits for its operands at the head (executing), nothing
 *           commits, the wrong path trickles in (ROB not full)
 *   c6      B resolves; c6-c7 the refill
 *   c8      the first correct-path instruction enters the ROB
 * FMT: c0-c7 = 8 cycles to the branch. ivx: the row's virtual ROB starts
 * with the 6 free entries (8-entry ROB) and loses the dispatch width (4)
 * a cycle with nothing committing: after c2 a correct path would have
 * filled the ROB and dispatch would have stalled anyway, so c2-c5 are
 * not the branch's (base): c0, c1 and the refill, 4. With 64 entries
 * the correct path would still be entering: all 8, as the FMT. Less, in
 * both, c6: B itself commits in it, a partial refill cycle
 * (test_refill_still_committing) whose share is near 0 here (one
 * instruction committed in 9 cycles): 3 and 7.
 */
static void branch_window_in_rob(uint32_t rob_size, uint64_t want)
{
	struct fake f;
	fake_init_rob(&f, rob_size);
	fake_insn(&f, INSN_FETCH, 1, &f.branch, 0, F_MISPRED);
	fake_insn(&f, INSN_DISPATCH, 1, &f.branch, 0, F_MISPRED);
	mispredict_begins(&f, 1);
	fake_end(&f, FETCH_STALL_WRONG_PATH, 2, HEAD_EXECUTING, 0);     /* c0 */
	fake_idle(&f, 5, FETCH_STALL_WRONG_PATH, 3, HEAD_EXECUTING, 0); /* c1-c5 */
	fake_insn(&f, INSN_COMPLETE, 1, &f.branch, 0, F_MISPRED);
	fake_insn(&f, INSN_COMMIT, 1, &f.branch, 0, F_MISPRED);
	fake_end(&f, FETCH_STALL_REDIRECT, 0, HEAD_NONE, 0);            /* c6 */
	fake_end(&f, FETCH_STALL_REDIRECT, 0, HEAD_NONE, 0);            /* c7 */
	fake_insn(&f, INSN_FETCH, 2, &f.alu, -1, 0);
	fake_insn(&f, INSN_DISPATCH, 2, &f.alu, 1, 0);
	fake_end(&f, FETCH_OK, 1, HEAD_EXECUTING, 0);                   /* c8 */
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_BPRED), 8);
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_BPRED] = want });
	fake_free(&f);
}

static void test_branch_window_fills_virtual_rob(void **state)
{
	(void)state;
	branch_window_in_rob(8, 3);
}

static void test_branch_window_with_room(void **state)
{
	(void)state;
	branch_window_in_rob(64, 7);
}

/* A correct-path load `seq` misses the D-TLB (its walk begins at issue). */
static void dtlb_miss_begins(struct fake *f, uint64_t seq)
{
	struct miss_event e = { .kind = MISS_DTLB, .phase = MISS_BEGIN, .id = ++f->miss_id,
				.start = f->cycle, .insn_seq = seq, .correct_path = 1 };
	FAKE_EACH_OBSERVER(f, o, if (o->on_miss && (!o->miss_filter || (o->miss_filter & MISS_BIT(e.kind))))
				      o->on_miss(o->ctx, &e));
}

/* n cycles, the ROB full behind head `seq` waiting on head_wait, nothing
 * issuing or fetched, a divider at work or not. */
static void full_behind(struct fake *f, int n, uint64_t seq, int head_wait, int units_busy)
{
	for (int i = 0; i < n; i++) {
		f->rec.head_seq = seq;
		f->rec.units_busy = units_busy;
		fake_end(f, FETCH_OK, 8, head_wait, 1);
	}
}

/*
 * A load that missed the D-TLB and then the L2 D-cache blocks the full
 * ROB, after 20 steady cycles committing 2 instructions each; the walk
 * takes W cycles (dtlb.miss_latency, 30 by default).
 *   load 100 walks (its D-TLB miss begins); load 99 holds the head
 *   c0-c4   load 99 at the head, on the L2 D-cache              (5)
 *   c5-c14  load 100 at the head, still walking (the core: D-TLB) (10)
 *   c15-c54 load 100 at the head, on its memory access            (40)
 *   load 101 walks; its line is in the L2
 *   c55-c56 load 101 at the head, on the L2 (the core: L1D)       (2)
 * The FMT charges what the core says the head waits on: D-TLB 10, L2D
 * 45, L1D 2. With a perfect D-TLB the load's access would have begun W
 * cycles earlier, and its wait at the head ended that much earlier: the
 * ivx counters give the first W cycles of its wait to the D-TLB (30) and
 * the rest to the L2 D-cache (20 + load 99's 5). Load 99 never walked:
 * its cycles stay the L2 D-cache's. Load 101's 2 are within its walk's
 * W: the D-TLB's (32).
 */
static void test_full_rob_behind_walked_load(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	uint32_t w = f.cfg.dtlb.miss_latency;
	assert_true(w == 30);
	steady(&f, 1, 20, 2);
	dtlb_miss_begins(&f, 100);
	full_behind(&f, 5, 99, HEAD_L2D, 0);
	full_behind(&f, 10, 100, HEAD_DTLB, 0);
	full_behind(&f, 40, 100, HEAD_L2D, 0);
	dtlb_miss_begins(&f, 101);
	full_behind(&f, 2, 101, HEAD_L1D, 0);
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_DTLB), 10);
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_L2D), 45);
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_L1D), 2);
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_DTLB] = 32, [ACCT_L2D] = 25 });
	fake_free(&f);
}

/*
 * The divider works while the ROB is full behind an L2 D-cache miss,
 * after 20 steady cycles committing 2 instructions each.
 *   c0-c3   the head (load 50) on its memory access, a divider working (4)
 *   c4-c6   the same, the divider idle                                (3)
 *   load 60 walked the D-TLB:
 *   c7-c8   load 60 at the head on its memory access, a divider working (2)
 * The FMT charges all 9 to the head's component (L2D). A program whose
 * base is bound by its divider (a modulo in a loop, ptrchase's shuffle)
 * makes that progress behind the miss anyway: the ivx counters leave
 * c0-c3 out (L2D 3). The walk's cycles stay the walk's (D-TLB 2): with a
 * perfect D-TLB the load's wait would have been that much shorter,
 * whatever else ran.
 */
static void test_full_rob_divider_working(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f);
	steady(&f, 1, 20, 2);
	full_behind(&f, 4, 50, HEAD_L2D, 1);
	full_behind(&f, 3, 50, HEAD_L2D, 0);
	dtlb_miss_begins(&f, 60);
	full_behind(&f, 2, 60, HEAD_L2D, 1);
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_L2D), 9);
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_L2D] = 3, [ACCT_DTLB] = 2 });
	fake_free(&f);
}

/*
 * The refill after a misprediction while the ROB still drains, after 40
 * steady cycles issuing and committing k instructions each.
 *   c0      three older instructions and B (mispredicted) enter the ROB
 *   c1-c3   B has resolved: the refill; one older instruction commits a
 *           cycle (B itself with the last)
 *   c4      the refill, the ROB empty, nothing commits
 *   c5      the first correct-path instruction enters the ROB
 * FMT: c0-c4 = 5 cycles to the branch. ivx, k = 4 (the machine issued at
 * its width before the window): the same, every refill cycle is lost.
 * k = 1 (below half the dispatch width): c1-c3 still commit, partial
 * cycles of the branch's (the ROB drains work a chain-bound program would
 * have been finishing anyway) charged in the share f = (1 / (4 x CPI*))^2
 * of acct_ivx_stack: CPI* = (46 - 2 - 3f) / 43, near 1, f = 0.06: 2.
 */
static void refill_still_committing(int k, uint64_t want)
{
	struct fake f;
	fake_init_rob(&f, 64);
	uint64_t seq = steady(&f, 1, 40, k), b = seq + 3;
	for (uint64_t i = seq; i < b; i++) {
		fake_insn(&f, INSN_FETCH, i, &f.alu, -1, 0);
		fake_insn(&f, INSN_DISPATCH, i, &f.alu, (int)i % 8, 0);
	}
	fake_insn(&f, INSN_FETCH, b, &f.branch, -1, F_MISPRED);
	fake_insn(&f, INSN_DISPATCH, b, &f.branch, (int)b % 8, F_MISPRED);
	mispredict_begins(&f, b);
	fake_end(&f, FETCH_STALL_WRONG_PATH, 8, HEAD_EXECUTING, 0);       /* c0 */
	fake_insn(&f, INSN_COMPLETE, b, &f.branch, (int)b % 8, F_MISPRED);
	for (uint64_t i = seq; i < b; i++) {
		fake_insn(&f, INSN_COMMIT, i, &f.alu, (int)i % 8, 0);
		if (i + 1 == b)
			fake_insn(&f, INSN_COMMIT, b, &f.branch, (int)b % 8, F_MISPRED);
		fake_end(&f, FETCH_STALL_REDIRECT, (int)(b - i - 1), HEAD_EXECUTING, 0); /* c1-c3 */
	}
	fake_end(&f, FETCH_STALL_REDIRECT, 0, HEAD_NONE, 0);               /* c4 */
	fake_insn(&f, INSN_FETCH, b + 1, &f.alu, -1, 0);
	fake_insn(&f, INSN_DISPATCH, b + 1, &f.alu, 0, 0);
	fake_end(&f, FETCH_OK, 1, HEAD_EXECUTING, 0);                      /* c5 */
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_BPRED), 5);
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_BPRED] = want });
	fake_free(&f);
}

static void test_refill_still_committing(void **state)
{
	(void)state;
	refill_still_committing(1, 2);
}

static void test_refill_still_committing_at_width(void **state)
{
	(void)state;
	refill_still_committing(4, 5);
}

/*
 * An L1 D-cache miss at the head of a nearly empty ROB inside a
 * misprediction window (a 128-entry ROB, `occupancy` entries taken while
 * the head waits), after 20 cycles issuing and committing 4 a cycle.
 *   c0      load L and B (mispredicted, its operand L's value) enter
 *   c1-c4   L misses in the L1 D-cache and holds the head; nothing commits
 *   c5      L commits; B executes
 *   c6      B resolves and commits; c6-c7 the refill
 *   c8      the first correct-path instruction enters the ROB
 * In c1-c4, `wrong_issued` wrong-path instructions issue a cycle.
 * FMT: c0-c7 = 8 cycles to the branch (the ROB is never full). ivx with
 * the ROB half full (64) in c1-c4: the blocked cycles are L's, given to
 * the L1 D-cache when B resolves mispredicted (L1D 4, bpred 4). With 10
 * entries (less than 3/8 of the ROB) and the wrong path issuing: a
 * correct path would have filled the ROB behind L and found work the
 * miss does not hold up, hiding it; the machine stood still because the
 * branch sent fetch down the wrong path: all 8 are the branch's. With 10
 * entries and nothing past B issuing, what follows B waits on L too (a
 * chain through the load): blocked, as with 64 (L1D 4, bpred 4).
 */
static void branch_window_l1d(int occupancy, int wrong_issued, const uint64_t want[ACCT_COMP_COUNT])
{
	struct fake f;
	fake_init_rob(&f, 128);
	uint64_t seq = steady(&f, 1, 20, 4), l = seq, b = seq + 1;
	fake_insn(&f, INSN_FETCH, l, &f.load, -1, 0);
	fake_insn(&f, INSN_FETCH, b, &f.branch, -1, F_MISPRED);
	fake_insn(&f, INSN_DISPATCH, l, &f.load, 0, 0);
	fake_insn(&f, INSN_DISPATCH, b, &f.branch, 1, F_MISPRED);
	mispredict_begins(&f, b);
	fake_end(&f, FETCH_STALL_WRONG_PATH, 4, HEAD_EXECUTING, 0);            /* c0 */
	for (int c = 1; c <= 4; c++) {                                         /* c1-c4 */
		f.rec.issued = wrong_issued;
		fake_end(&f, FETCH_STALL_WRONG_PATH, occupancy, HEAD_L1D, 0);
	}
	fake_insn(&f, INSN_COMMIT, l, &f.load, 0, 0);
	fake_end(&f, FETCH_STALL_WRONG_PATH, occupancy, HEAD_EXECUTING, 0);    /* c5 */
	fake_insn(&f, INSN_COMPLETE, b, &f.branch, 1, F_MISPRED);
	fake_insn(&f, INSN_COMMIT, b, &f.branch, 1, F_MISPRED);
	fake_end(&f, FETCH_STALL_REDIRECT, 0, HEAD_NONE, 0);                   /* c6 */
	fake_end(&f, FETCH_STALL_REDIRECT, 0, HEAD_NONE, 0);                   /* c7 */
	fake_insn(&f, INSN_FETCH, b + 1, &f.alu, -1, 0);
	fake_insn(&f, INSN_DISPATCH, b + 1, &f.alu, 2, 0);
	fake_end(&f, FETCH_OK, 1, HEAD_EXECUTING, 0);                          /* c8 */
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_BPRED), 8);
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_L1D), 0);
	assert_ivx(&f, want);
	fake_free(&f);
}

static void test_branch_window_l1d_half_full_rob(void **state)
{
	(void)state;
	branch_window_l1d(64, 2, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_L1D] = 4, [ACCT_BPRED] = 4 });
}

static void test_branch_window_l1d_near_empty_rob(void **state)
{
	(void)state;
	branch_window_l1d(10, 2, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_BPRED] = 8 });
}

static void test_branch_window_l1d_chain(void **state)
{
	(void)state;
	branch_window_l1d(10, 0, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_L1D] = 4, [ACCT_BPRED] = 4 });
}

/*
 * The drain of an L1 D-cache miss that filled the ROB, after 20 cycles
 * issuing and committing 4 a cycle (an 8-entry ROB).
 *   c0-c2   the ROB full behind the miss at the head, nothing commits
 *   c3-c7   the miss has returned: 4 instructions commit a cycle (what
 *           completed behind it), `issued` issue
 * FMT: the 3 full cycles (L1D 3). ivx, issuing 1 a cycle: the first 4
 * cycles that commit while fewer than the dispatch width issue are the
 * miss's too (what depends on it only now issues): L1D 7, c7 base. Issuing
 * at the width (4): the machine is back at its rate, the drain ends at
 * c3: L1D 3.
 */
static void l1d_drain(int issued, uint64_t want)
{
	struct fake f;
	fake_init(&f);
	uint64_t seq = steady(&f, 1, 20, 4);
	fake_idle(&f, 3, FETCH_OK, 8, HEAD_L1D, 1);                /* c0-c2 */
	for (int c = 0; c < 5; c++) {                               /* c3-c7 */
		for (int j = 0; j < 4; j++, seq++) {
			fake_insn(&f, INSN_FETCH, seq, &f.alu, -1, 0);
			fake_insn(&f, INSN_DISPATCH, seq, &f.alu, (int)seq % 8, 0);
			fake_insn(&f, INSN_COMMIT, seq, &f.alu, (int)seq % 8, 0);
		}
		cycle_issuing(&f, issued, FETCH_OK, 6, HEAD_EXECUTING, 0);
	}
	assert_int_equal(fake_comp(&f, ACCT_FMT, ACCT_L1D), 3);
	assert_ivx(&f, (uint64_t[ACCT_COMP_COUNT]){ [ACCT_L1D] = want });
	fake_free(&f);
}

static void test_l1d_drain_after_full_rob(void **state)
{
	(void)state;
	l1d_drain(1, 7);
}

static void test_l1d_drain_ends_at_width(void **state)
{
	(void)state;
	l1d_drain(4, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_imiss_covered_by_frontend),
		cmocka_unit_test(test_imiss_starving_width_bound),
		cmocka_unit_test(test_imiss_starving_half_width),
		cmocka_unit_test(test_imiss_starving_dependence_bound),
		cmocka_unit_test(test_imiss_without_base_rate),
		cmocka_unit_test(test_branch_behind_long_latency_head),
		cmocka_unit_test(test_branch_with_idle_divider_divide_bound),
		cmocka_unit_test(test_branch_with_idle_divider_no_divides),
		cmocka_unit_test(test_correct_branch_charges_nothing),
		cmocka_unit_test(test_machine_waits_on_dmiss),
		cmocka_unit_test(test_full_rob_with_work),
		cmocka_unit_test(test_full_rob_while_fetching),
		cmocka_unit_test(test_full_rob_while_fetching_wrong_path),
		cmocka_unit_test(test_work_exceeds_cycles),
		cmocka_unit_test(test_snapshot_inside_window),
		cmocka_unit_test(test_stack_since_mark),
		cmocka_unit_test(test_imiss_after_imiss),
		cmocka_unit_test(test_l1d_miss_at_width),
		cmocka_unit_test(test_l1d_miss_below_half_width),
		cmocka_unit_test(test_branch_window_fills_virtual_rob),
		cmocka_unit_test(test_branch_window_with_room),
		cmocka_unit_test(test_full_rob_behind_walked_load),
		cmocka_unit_test(test_full_rob_divider_working),
		cmocka_unit_test(test_refill_still_committing),
		cmocka_unit_test(test_refill_still_committing_at_width),
		cmocka_unit_test(test_branch_window_l1d_half_full_rob),
		cmocka_unit_test(test_branch_window_l1d_near_empty_rob),
		cmocka_unit_test(test_branch_window_l1d_chain),
		cmocka_unit_test(test_l1d_drain_after_full_rob),
		cmocka_unit_test(test_l1d_drain_ends_at_width),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
