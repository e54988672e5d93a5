/*
 * test_bpred.c — the branch predictor: what the bimodal and gshare
 * components can learn, how the chooser combines them, the BTB and RAS,
 * speculative history with exact recovery, statistics and snapshots.
 *
 * `run_branch` plays the core's part: predict at fetch, recover if the
 * predicted next pc was wrong, train at commit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/bpred.h"
#include "isa/uop.h"

static struct bpred *make(const char *const *overrides)
{
	struct machine_config cfg;
	struct ivx_err err = { 0 };
	config_defaults(&cfg);
	for (; overrides && *overrides; overrides++)
		if (config_set(&cfg, *overrides, &err) != IVX_OK)
			fail_msg("%s", err.msg);
	struct bpred *b = bpred_new(&cfg, &err);
	if (!b)
		fail_msg("%s", err.msg);
	return b;
}

static struct uop branch(int kind, uint64_t pc, uint64_t target)
{
	struct uop u;
	memset(&u, 0, sizeof u);
	u.op_class = UOP_BRANCH;
	u.branch_kind = (uint8_t)kind;
	u.pc = pc;
	u.target = target;
	return u;
}

static uint64_t next_pc(const struct bpred_prediction *p, uint64_t pc)
{
	return p->taken ? p->target : pc + 4;
}

/* Predict, recover on a wrong next pc, train; 1 if the prediction was right. */
static int run_branch(struct bpred *b, const struct uop *u, int taken, uint64_t target)
{
	struct bpred_prediction p;
	bpred_predict(b, u, u->pc, &p);
	uint64_t actual = taken ? target : u->pc + 4;
	int right = next_pc(&p, u->pc) == actual;
	if (!right)
		bpred_recover(b, u, u->pc, &p.cp, taken, target);
	bpred_update(b, u, u->pc, &p.cp, taken, target);
	return right;
}

/* ---- direction -------------------------------------------------------- */

static void test_bimodal_learns_an_always_taken_branch(void **state)
{
	(void)state;
	struct bpred *b = make(NULL);
	struct uop u = branch(BRANCH_COND, 0x1000, 0x800);
	/* Counters start weakly not-taken and the BTB empty: the first
	 * outcome is mispredicted, then the branch is learnt. */
	assert_false(run_branch(b, &u, 1, 0x800));
	int right = 0;
	for (int i = 0; i < 50; i++)
		right += run_branch(b, &u, 1, 0x800);
	assert_int_equal(right, 50);
	struct bpred_prediction p;
	bpred_predict(b, &u, u.pc, &p);
	assert_true(p.taken);
	assert_int_equal(p.target, 0x800);
	bpred_free(b);
}

static int alternating_accuracy(const char *const *overrides)
{
	struct bpred *b = make(overrides);
	struct uop u = branch(BRANCH_COND, 0x2000, 0x1f00);
	for (int i = 0; i < 200; i++)
		run_branch(b, &u, i & 1, 0x1f00);
	int right = 0;
	for (int i = 200; i < 300; i++)
		right += run_branch(b, &u, i & 1, 0x1f00);
	bpred_free(b);
	return right;
}

static void test_gshare_learns_an_alternating_pattern_that_bimodal_cannot(void **state)
{
	(void)state;
	assert_int_equal(alternating_accuracy(NULL), 100);
	/* Without history both components are pc-indexed: a bimodal predictor. */
	const char *bimodal_only[] = { "bpred.gshare_history=0", NULL };
	assert_true(alternating_accuracy(bimodal_only) <= 60);
}

static void test_chooser_keeps_bimodal_for_a_branch_gshare_confuses(void **state)
{
	(void)state;
	/* An always-taken branch next to a random one, with a gshare table so
	 * small that the random branch keeps retraining the counters the
	 * biased one uses: gshare is unreliable for it, bimodal is right, and
	 * the chooser must settle on bimodal. */
	const char *o[] = { "bpred.gshare_entries=16", NULL };
	struct bpred *b = make(o);
	struct uop noisy = branch(BRANCH_COND, 0x3000, 0x3100);
	struct uop biased = branch(BRANCH_COND, 0x3040, 0x2f00);
	uint64_t x = 12345;
	int right = 0;
	for (int i = 0; i < 3000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		run_branch(b, &noisy, (int)(x >> 63), 0x3100);
		int r = run_branch(b, &biased, 1, 0x2f00);
		if (i >= 2000)
			right += r;
	}
	assert_int_equal(right, 1000);
	bpred_free(b);
}

/* ---- targets ---------------------------------------------------------- */

static void test_btb_miss_predicts_fall_through_even_for_unconditional(void **state)
{
	(void)state;
	struct bpred *b = make(NULL);
	struct uop u = branch(BRANCH_UNCOND, 0x4000, 0x4800);
	struct bpred_prediction p;
	bpred_predict(b, &u, u.pc, &p);
	assert_false(p.taken);
	assert_int_equal(p.cp.pred_taken, 1);   /* the direction is known... */
	assert_int_equal(p.target, 0);          /* ...the target is not */
	bpred_recover(b, &u, u.pc, &p.cp, 1, 0x4800);
	bpred_update(b, &u, u.pc, &p.cp, 1, 0x4800);
	bpred_predict(b, &u, u.pc, &p);
	assert_true(p.taken);
	assert_int_equal(p.target, 0x4800);
	bpred_free(b);
}

static void test_indirect_branch_predicts_its_last_target(void **state)
{
	(void)state;
	struct bpred *b = make(NULL);
	struct uop u = branch(BRANCH_INDIRECT, 0x5000, 0);
	assert_false(run_branch(b, &u, 1, 0x5a00));
	assert_true(run_branch(b, &u, 1, 0x5a00));
	assert_false(run_branch(b, &u, 1, 0x5b00));
	assert_true(run_branch(b, &u, 1, 0x5b00));
	bpred_free(b);
}

static void test_btb_is_set_associative_lru(void **state)
{
	(void)state;
	/* 4 entries, 2 ways: 2 sets chosen by bit 2 of the pc. */
	const char *o[] = { "bpred.btb_entries=4", "bpred.btb_assoc=2", NULL };
	struct bpred *b = make(o);
	struct uop u0 = branch(BRANCH_UNCOND, 0x6000, 0x100);
	struct uop u1 = branch(BRANCH_UNCOND, 0x6008, 0x200);
	struct uop u2 = branch(BRANCH_UNCOND, 0x6010, 0x300);
	struct uop other_set = branch(BRANCH_UNCOND, 0x6004, 0x400);
	run_branch(b, &u0, 1, 0x100);
	run_branch(b, &u1, 1, 0x200);
	run_branch(b, &other_set, 1, 0x400);
	assert_true(run_branch(b, &u0, 1, 0x100));   /* u1 is now least recent */
	run_branch(b, &u2, 1, 0x300);                /* evicts u1 */
	assert_true(run_branch(b, &u0, 1, 0x100));
	assert_true(run_branch(b, &u2, 1, 0x300));
	assert_true(run_branch(b, &other_set, 1, 0x400));
	assert_false(run_branch(b, &u1, 1, 0x200));
	bpred_free(b);
}

static void test_wrong_path_branches_do_not_train_the_btb(void **state)
{
	(void)state;
	struct bpred *b = make(NULL);
	struct uop u = branch(BRANCH_UNCOND, 0x7000, 0x7400);
	struct bpred_prediction p;
	bpred_predict(b, &u, u.pc, &p);   /* fetched, then squashed: no update */
	bpred_predict(b, &u, u.pc, &p);
	assert_false(p.taken);
	bpred_free(b);
}

/* ---- return address stack -------------------------------------------- */

static void test_ras_predicts_returns_of_nested_calls(void **state)
{
	(void)state;
	struct bpred *b = make(NULL);
	uint64_t calls[3] = { 0x10000, 0x20000, 0x30000 };
	for (int i = 0; i < 3; i++) {
		struct uop c = branch(BRANCH_CALL, calls[i], calls[i] + 0x1000);
		run_branch(b, &c, 1, calls[i] + 0x1000);
	}
	struct uop ret = branch(BRANCH_RETURN, 0x90000, 0);
	for (int i = 2; i >= 0; i--) {
		struct bpred_prediction p;
		bpred_predict(b, &ret, ret.pc, &p);
		assert_true(p.taken);
		assert_int_equal(p.target, calls[i] + 4);
		bpred_update(b, &ret, ret.pc, &p.cp, 1, calls[i] + 4);
	}
	bpred_free(b);
}

static void test_ras_deeper_than_its_entries_loses_the_oldest_returns(void **state)
{
	(void)state;
	const char *o[] = { "bpred.ras_entries=4", NULL };
	struct bpred *b = make(o);
	for (uint64_t i = 0; i < 6; i++) {
		struct uop c = branch(BRANCH_CALL_INDIRECT, 0x10000 * (i + 1), 0);
		run_branch(b, &c, 1, 0x100000);
	}
	struct uop ret = branch(BRANCH_RETURN, 0x200000, 0);
	int right = 0;
	for (uint64_t i = 6; i >= 1; i--) {
		int r = run_branch(b, &ret, 1, 0x10000 * i + 4);
		assert_int_equal(r, i > 2);   /* the four innermost are right */
		right += r;
	}
	assert_int_equal(right, 4);
	bpred_free(b);
}

/* ---- speculation and recovery ---------------------------------------- */

static void test_history_is_updated_speculatively_at_predict(void **state)
{
	(void)state;
	struct bpred *b = make(NULL);
	struct uop u = branch(BRANCH_COND, 0x8000, 0x7000);
	for (int i = 0; i < 10; i++)
		run_branch(b, &u, 1, 0x7000);       /* now predicted taken */
	struct bpred_prediction p1, p2;
	bpred_predict(b, &u, u.pc, &p1);
	bpred_predict(b, &u, u.pc, &p2);
	assert_true(p1.taken);
	assert_true(p2.cp.history == (((p1.cp.history << 1) | 1) & 0x1fff));
	bpred_free(b);
}

static void test_recover_restores_history_then_applies_the_outcome(void **state)
{
	(void)state;
	struct bpred *b = make(NULL);
	struct uop c = branch(BRANCH_COND, 0x9000, 0x9100);
	struct uop w = branch(BRANCH_COND, 0x9200, 0x9300);
	struct uop next = branch(BRANCH_COND, 0x9400, 0x9500);
	for (int i = 0; i < 10; i++)
		run_branch(b, &c, 1, 0x9100);
	/* Reference: the branch resolved at once, then `next`. */
	struct bpred *ref = make(NULL);
	assert_int_equal(bpred_copy(ref, b), IVX_OK);
	struct bpred_prediction p, q, r;
	bpred_predict(ref, &c, c.pc, &p);
	bpred_recover(ref, &c, c.pc, &p.cp, 0, 0);
	bpred_predict(ref, &next, next.pc, &r);
	/* Real: the branch is predicted taken, wrong-path branches follow. */
	bpred_predict(b, &c, c.pc, &p);
	assert_true(p.taken);
	for (int i = 0; i < 5; i++)
		bpred_predict(b, &w, w.pc, &q);
	bpred_recover(b, &c, c.pc, &p.cp, 0, 0);
	bpred_predict(b, &next, next.pc, &q);
	assert_true(q.cp.history == r.cp.history);
	assert_int_equal(q.cp.gshare_index, r.cp.gshare_index);
	assert_true(q.cp.history == ((p.cp.history << 1) & 0x1fff));
	bpred_free(b);
	bpred_free(ref);
}

static void test_recover_repairs_the_ras_after_a_wrong_path_return_and_call(void **state)
{
	(void)state;
	struct bpred *b = make(NULL);
	struct uop call_a = branch(BRANCH_CALL, 0xa000, 0xb000);
	struct uop call_b = branch(BRANCH_CALL, 0xb010, 0xc000);
	run_branch(b, &call_a, 1, 0xb000);
	run_branch(b, &call_b, 1, 0xc000);
	struct uop cond = branch(BRANCH_COND, 0xc020, 0xc080);
	struct bpred_prediction p, q;
	bpred_predict(b, &cond, cond.pc, &p);
	/* Wrong path: a return pops, a call overwrites the popped slot. */
	struct uop ret = branch(BRANCH_RETURN, 0xc040, 0);
	struct uop call_w = branch(BRANCH_CALL, 0xd000, 0xe000);
	bpred_predict(b, &ret, ret.pc, &q);
	bpred_predict(b, &call_w, call_w.pc, &q);
	bpred_recover(b, &cond, cond.pc, &p.cp, 1, 0xc080);
	bpred_predict(b, &ret, ret.pc, &q);
	assert_int_equal(q.target, 0xb014);
	bpred_predict(b, &ret, ret.pc, &q);
	assert_int_equal(q.target, 0xa004);
	bpred_free(b);
}

static void test_recover_of_a_call_keeps_its_own_return_address(void **state)
{
	(void)state;
	struct bpred *b = make(NULL);
	struct uop call = branch(BRANCH_CALL, 0xf000, 0xf800);
	struct bpred_prediction p;
	bpred_predict(b, &call, call.pc, &p);   /* BTB miss: mispredicted */
	assert_false(p.taken);
	bpred_recover(b, &call, call.pc, &p.cp, 1, 0xf800);
	struct uop ret = branch(BRANCH_RETURN, 0xf900, 0);
	bpred_predict(b, &ret, ret.pc, &p);
	assert_true(p.taken);
	assert_int_equal(p.target, 0xf004);
	bpred_free(b);
}

/* ---- statistics, warm-up, snapshots ---------------------------------- */

static void test_stats_count_committed_branches_and_classify_misses(void **state)
{
	(void)state;
	struct bpred *b = make(NULL);
	struct uop cond = branch(BRANCH_COND, 0x11000, 0x11100);
	struct uop ind = branch(BRANCH_INDIRECT, 0x12000, 0);
	run_branch(b, &cond, 1, 0x11100);   /* direction wrong (weakly not-taken) */
	run_branch(b, &ind, 1, 0x13000);    /* target missing */
	run_branch(b, &ind, 1, 0x13000);    /* right */
	struct bpred_prediction p;
	bpred_predict(b, &cond, cond.pc, &p);   /* wrong path: not counted */
	struct bpred_stats s;
	bpred_stats(b, &s);
	assert_int_equal(s.lookups, 3);
	assert_int_equal(s.dir_miss, 1);
	assert_int_equal(s.target_miss, 1);
	bpred_free(b);
}

static void test_warm_trains_without_counting(void **state)
{
	(void)state;
	struct bpred *b = make(NULL);
	struct uop u = branch(BRANCH_COND, 0x14000, 0x13f00);
	for (int i = 0; i < 4; i++)
		bpred_warm(b, &u, u.pc, 1, 0x13f00);
	struct bpred_prediction p;
	bpred_predict(b, &u, u.pc, &p);
	assert_true(p.taken);
	assert_int_equal(p.target, 0x13f00);
	struct bpred_stats s;
	bpred_stats(b, &s);
	assert_int_equal(s.lookups, 0);
	/* Warm-up leaves the speculative state as the real outcomes would. */
	struct uop call = branch(BRANCH_CALL, 0x15000, 0x16000);
	struct uop ret = branch(BRANCH_RETURN, 0x16010, 0);
	bpred_warm(b, &call, call.pc, 1, 0x16000);
	bpred_predict(b, &ret, ret.pc, &p);
	assert_int_equal(p.target, 0x15004);
	bpred_free(b);
}

static uint64_t random_branches(struct bpred *b, uint64_t *x, int n)
{
	static const int kinds[] = { BRANCH_COND, BRANCH_COND, BRANCH_COND, BRANCH_UNCOND,
				     BRANCH_CALL, BRANCH_RETURN, BRANCH_INDIRECT, BRANCH_CALL_INDIRECT };
	uint64_t digest = 0;
	for (int i = 0; i < n; i++) {
		*x = *x * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t pc = 0x40000 + ((*x >> 20) % 4096) * 4;
		struct uop u = branch(kinds[(*x >> 40) & 7], pc, pc + 0x100);
		int taken = u.branch_kind != BRANCH_COND || ((*x >> 50) & 3) != 0;
		uint64_t target = u.branch_kind == BRANCH_RETURN ? 0x40000 + ((*x >> 30) % 64) * 4
				  : pc + 0x100 + ((*x >> 56) & 1) * 8 * (u.branch_kind >= BRANCH_INDIRECT);
		struct bpred_prediction p;
		bpred_predict(b, &u, pc, &p);
		digest = digest * 31 + (p.taken ? p.target : pc + 4) + p.cp.gshare_index;
		if ((p.taken ? p.target : pc + 4) != (taken ? target : pc + 4))
			bpred_recover(b, &u, pc, &p.cp, taken, target);
		bpred_update(b, &u, pc, &p.cp, taken, target);
	}
	return digest;
}

static void test_copy_is_exact(void **state)
{
	(void)state;
	struct bpred *b = make(NULL), *twin = make(NULL);
	uint64_t x = 7;
	random_branches(b, &x, 30000);
	assert_int_equal(bpred_copy(twin, b), IVX_OK);
	uint64_t x2 = x;
	uint64_t d1 = random_branches(b, &x, 30000);
	uint64_t d2 = random_branches(twin, &x2, 30000);
	assert_true(d1 == d2);
	struct bpred_stats s1, s2;
	bpred_stats(b, &s1);
	bpred_stats(twin, &s2);
	assert_memory_equal(&s1, &s2, sizeof s1);
	assert_true(s1.dir_miss > 0 && s1.target_miss > 0);
	const char *o[] = { "bpred.btb_entries=512", NULL };
	struct bpred *other = make(o);
	assert_int_not_equal(bpred_copy(other, b), IVX_OK);
	bpred_free(other);
	bpred_free(b);
	bpred_free(twin);
}

static void test_new_refuses_an_invalid_machine(void **state)
{
	(void)state;
	struct machine_config c;
	struct ivx_err err = { 0 };
	config_defaults(&c);
	c.gshare_entries = 3000;
	assert_null(bpred_new(&c, &err));
	assert_non_null(strstr(err.msg, "bpred.gshare_entries"));
	bpred_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bimodal_learns_an_always_taken_branch),
		cmocka_unit_test(test_gshare_learns_an_alternating_pattern_that_bimodal_cannot),
		cmocka_unit_test(test_chooser_keeps_bimodal_for_a_branch_gshare_confuses),
		cmocka_unit_test(test_btb_miss_predicts_fall_through_even_for_unconditional),
		cmocka_unit_test(test_indirect_branch_predicts_its_last_target),
		cmocka_unit_test(test_btb_is_set_associative_lru),
		cmocka_unit_test(test_wrong_path_branches_do_not_train_the_btb),
		cmocka_unit_test(test_ras_predicts_returns_of_nested_calls),
		cmocka_unit_test(test_ras_deeper_than_its_entries_loses_the_oldest_returns),
		cmocka_unit_test(test_history_is_updated_speculatively_at_predict),
		cmocka_unit_test(test_recover_restores_history_then_applies_the_outcome),
		cmocka_unit_test(test_recover_repairs_the_ras_after_a_wrong_path_return_and_call),
		cmocka_unit_test(test_recover_of_a_call_keeps_its_own_return_address),
		cmocka_unit_test(test_stats_count_committed_branches_and_classify_misses),
		cmocka_unit_test(test_warm_trains_without_counting),
		cmocka_unit_test(test_copy_is_exact),
		cmocka_unit_test(test_new_refuses_an_invalid_machine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
