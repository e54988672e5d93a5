/*
 * test_dcpi_wait.c — the wait-truth observer's culprit store: per
 * (waiting pc, reason) the instructions the core blamed, with their
 * cycles. The first DCPI_WAIT_TOPK distinct culprits get a slot, the rest
 * go to `other`; the top one is the slot with most cycles; on real
 * in-order runs a dependent instruction's dep-long wait is blamed on the
 * multiply that feeds it, the culprit cycles of every (pc, reason) add up
 * to that pc's cycles for the reason, and a snapshot restores the store
 * exactly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>
#include "core_prog.h"
#include "dcpi/dcpi_wait.h"

static struct cycle_record rec(uint64_t head, int why, uint64_t culprit)
{
	struct cycle_record r;
	memset(&r, 0, sizeof r);
	r.issue_head_pc = head;
	r.issue_wait = why;
	r.issue_wait_pc = culprit;
	return r;
}

/* A core to hang the observer on (it never runs in the first tests). An
 * in-order one by default: records fed by hand are the in-order
 * machine's (out of order the table reads the core's own head counts). */
static struct crun *start(const struct cprog *p, const char *const *ov)
{
	static const char *const inorder[] = { "core.mode=inorder", NULL };
	static struct crun r;
	if (!ov)
		ov = inorder;
	struct program *prog = cp_program(p, 0);
	assert_non_null(prog);
	assert_int_equal(crun_start(&r, prog, 0, NULL, ov), 0);
	return &r;
}

static void stop(struct crun *r)
{
	struct program *p = r->prog;
	crun_free(r);
	program_free(p);
}

static void test_topk_and_other(void **state)
{
	(void)state;
	struct cprog p = { .n = 0 };
	cp_exit(&p);
	struct crun *r = start(&p, NULL);
	struct ivx_err err;
	struct dcpi_wait *w = dcpi_wait_new(r->c, 64, DCPI_WAIT_TAKEN, &err);
	assert_non_null(w);
	/* pc 0x1000 waits for operands: 5 cycles on A, 3 on B, 9 on C (a
	 * third culprit still gets a slot), then 2 on D and 1 on E: no slot */
	struct cycle_record a = rec(0x1000, ISSUE_WAIT_DEP, 0xa0), b = rec(0x1000, ISSUE_WAIT_DEP, 0xb0),
			    c = rec(0x1000, ISSUE_WAIT_DEP, 0xc0), d = rec(0x1000, ISSUE_WAIT_DEP, 0xd0),
			    e = rec(0x1000, ISSUE_WAIT_DEP, 0xe0);
	dcpi_wait_feed(w, &a, 2);
	dcpi_wait_feed(w, &b, 3);
	dcpi_wait_feed(w, &a, 3);
	dcpi_wait_feed(w, &c, 9);
	dcpi_wait_feed(w, &d, 2);
	dcpi_wait_feed(w, &e, 1);
	/* the same pc for another reason is another pair; no culprit: none */
	struct cycle_record f = rec(0x1000, ISSUE_WAIT_DEP_L2D, 0xa0), g = rec(0x1000, ISSUE_WAIT_SLOT, 0);
	dcpi_wait_feed(w, &f, 7);
	dcpi_wait_feed(w, &g, 4);
	struct dcpi_wait_culprit cu;
	assert_int_equal(dcpi_wait_culprit_find(w, 0x1000, ISSUE_WAIT_DEP, &cu), 1);
	assert_int_equal(cu.pc, 0x1000);
	assert_int_equal(cu.reason, ISSUE_WAIT_DEP);
	assert_int_equal(cu.culprit[0], 0xa0);
	assert_int_equal(cu.cycles[0], 5);
	assert_int_equal(cu.culprit[1], 0xb0);
	assert_int_equal(cu.cycles[1], 3);
	assert_int_equal(cu.culprit[2], 0xc0);
	assert_int_equal(cu.cycles[2], 9);
	assert_int_equal(cu.other, 3);
	assert_int_equal(dcpi_wait_culprit_top(&cu), 2);
	assert_int_equal(dcpi_wait_culprit_find(w, 0x1000, ISSUE_WAIT_DEP_L2D, &cu), 1);
	assert_int_equal(cu.culprit[0], 0xa0);
	assert_int_equal(cu.cycles[0], 7);
	assert_int_equal(cu.culprit[1], 0);
	assert_int_equal(dcpi_wait_culprit_find(w, 0x1000, ISSUE_WAIT_SLOT, &cu), 0);
	assert_int_equal(dcpi_wait_culprit_find(w, 0x2000, ISSUE_WAIT_DEP, &cu), 0);
	/* the reasons themselves are all there */
	struct dcpi_wait_pc wp;
	assert_int_equal(dcpi_wait_find(w, 0x1000, &wp), 1);
	assert_int_equal(wp.cycles[ISSUE_WAIT_DEP], 20);
	assert_int_equal(wp.cycles[ISSUE_WAIT_DEP_L2D], 7);
	assert_int_equal(wp.cycles[ISSUE_WAIT_SLOT], 4);
	/* two pairs in the iteration */
	int pairs = 0;
	for (size_t i = 0; i < dcpi_wait_culprit_size(w); i++)
		pairs += dcpi_wait_culprit_at(w, i, &cu);
	assert_int_equal(pairs, 2);
	dcpi_wait_free(w);
	stop(r);
}

/* A random stream of waits with long runs of identical cycles (the fast
 * path) against a plain model of what must be recorded. */
static void test_matches_a_model(void **state)
{
	(void)state;
	struct cprog p = { .n = 0 };
	cp_exit(&p);
	struct crun *r = start(&p, NULL);
	struct ivx_err err;
	struct dcpi_wait *w = dcpi_wait_new(r->c, 256, DCPI_WAIT_TAKEN, &err);
	assert_non_null(w);
	enum { NPC = 4, NR = 3, NC = 5 };
	static const int reasons[NR] = { ISSUE_WAIT_DEP, ISSUE_WAIT_DEP_L2D, ISSUE_WAIT_SLOT };
	uint64_t want_cycles[NPC][NR] = { { 0 } }, slot_pc[NPC][NR][DCPI_WAIT_TOPK] = { { { 0 } } },
		 slot_cy[NPC][NR][DCPI_WAIT_TOPK] = { { { 0 } } }, other[NPC][NR] = { { 0 } };
	uint32_t x = 12345;
	for (int step = 0; step < 4000; step++) {
		x = x * 1103515245u + 12345u;
		int pi = (int)(x >> 8) % NPC, ri = (int)(x >> 12) % NR, ci = (int)(x >> 16) % NC;
		uint64_t cul = reasons[ri] == ISSUE_WAIT_SLOT ? 0 : 0x2000 + 4 * (uint64_t)ci;
		int repeat = 1 + (int)(x >> 20) % 6;
		struct cycle_record c = rec(0x1000 + 4 * (uint64_t)pi, reasons[ri], cul);
		for (int k = 0; k < repeat; k++) {
			uint64_t n = 1 + (uint64_t)((x >> (24 + k)) & 1);
			dcpi_wait_feed(w, &c, n);
			want_cycles[pi][ri] += n;
			if (!cul)
				continue;
			int s = 0;
			while (s < DCPI_WAIT_TOPK && slot_pc[pi][ri][s] && slot_pc[pi][ri][s] != cul)
				s++;
			if (s == DCPI_WAIT_TOPK) {
				other[pi][ri] += n;
			} else {
				slot_pc[pi][ri][s] = cul;
				slot_cy[pi][ri][s] += n;
			}
		}
	}
	for (int pi = 0; pi < NPC; pi++)
		for (int ri = 0; ri < NR; ri++) {
			struct dcpi_wait_pc wp;
			assert_int_equal(dcpi_wait_find(w, 0x1000 + 4 * (uint64_t)pi, &wp), 1);
			assert_int_equal(wp.cycles[reasons[ri]], want_cycles[pi][ri]);
			struct dcpi_wait_culprit cu;
			int has = dcpi_wait_culprit_find(w, 0x1000 + 4 * (uint64_t)pi, reasons[ri], &cu);
			assert_int_equal(has, reasons[ri] != ISSUE_WAIT_SLOT);
			if (!has)
				continue;
			for (int k = 0; k < DCPI_WAIT_TOPK; k++) {
				assert_int_equal(cu.culprit[k], slot_pc[pi][ri][k]);
				assert_int_equal(cu.cycles[k], slot_cy[pi][ri][k]);
			}
			assert_int_equal(cu.other, other[pi][ri]);
		}
	dcpi_wait_free(w);
	stop(r);
}

static void test_full_table_counts_lost(void **state)
{
	(void)state;
	struct cprog p = { .n = 0 };
	cp_exit(&p);
	struct crun *r = start(&p, NULL);
	struct ivx_err err;
	struct dcpi_wait *w = dcpi_wait_new(r->c, 16, DCPI_WAIT_TAKEN, &err);
	assert_non_null(w);
	/* 16 slots hold 12 keys; 20 waiting pcs, 1 cycle each */
	for (uint64_t k = 0; k < 20; k++) {
		struct cycle_record x = rec(0x1000 + 4 * k, ISSUE_WAIT_DEP, 0x500);
		dcpi_wait_feed(w, &x, 1);
	}
	assert_int_equal(dcpi_wait_lost(w), 8);
	assert_int_equal(dcpi_wait_culprit_lost(w), 0);   /* lost pcs never reach the culprit table */
	dcpi_wait_free(w);
	stop(r);
}

/* mul x3, x1, x2 ; add x4, x3, #1 in a loop of 200 */
static struct cprog mul_chain(uint64_t *mul_pc, uint64_t *add_pc)
{
	struct cprog p = { .n = 0 };
	cp_emit(&p, I_MOVZ(9, 200));
	cp_emit(&p, I_MOVZ(1, 3));
	cp_emit(&p, I_MOVZ(2, 5));
	int top = cp_emit(&p, I_MUL(3, 1, 2));
	int add = cp_emit(&p, I_ADDI(4, 3, 1));
	cp_emit(&p, I_SUBSI(9, 9, 1));
	int br = cp_emit(&p, 0);
	p.w[br] = I_BCOND(COND_NE, top - br);
	cp_emit(&p, I_MOVZ(0, 0));
	cp_exit(&p);
	*mul_pc = 0x400000 + 4 * (uint64_t)top;
	*add_pc = 0x400000 + 4 * (uint64_t)add;
	return p;
}

static void test_dependent_blames_its_multiply(void **state)
{
	(void)state;
	uint64_t mul_pc, add_pc;
	struct cprog p = mul_chain(&mul_pc, &add_pc);
	static const char *const inorder[] = { "core.mode=inorder", NULL };
	struct crun *r = start(&p, inorder);
	struct ivx_err err;
	struct dcpi_wait *w = dcpi_wait_new(r->c, 1024, DCPI_WAIT_TAKEN, &err);
	assert_non_null(w);
	assert_int_equal(core_run(r->c, 0, 0, &err), IVX_OK);
	assert_true(core_done(r->c));
	/* the load address: find the add by its wait, whatever the base */
	struct dcpi_wait_culprit cu;
	int found = 0;
	for (size_t i = 0; i < dcpi_wait_culprit_size(w); i++) {
		if (!dcpi_wait_culprit_at(w, i, &cu) || cu.reason != ISSUE_WAIT_DEP_LONG)
			continue;
		found++;
		int t = dcpi_wait_culprit_top(&cu);
		assert_true(t >= 0);
		assert_int_equal(cu.culprit[t], cu.pc - 4);   /* the multiply right before it */
		assert_int_equal(cu.other, 0);
		/* mul latency minus the cycle it issues in, per iteration */
		assert_true(cu.cycles[t] >= 200);
	}
	assert_int_equal(found, 1);
	/* for every (pc, reason) the culprits' cycles and other add up to
	 * the pc's cycles for that reason when the reason always blames
	 * someone (operand waits) */
	for (size_t i = 0; i < dcpi_wait_culprit_size(w); i++) {
		if (!dcpi_wait_culprit_at(w, i, &cu))
			continue;
		struct dcpi_wait_pc wp;
		assert_int_equal(dcpi_wait_find(w, cu.pc, &wp), 1);
		uint64_t sum = cu.other;
		for (int k = 0; k < DCPI_WAIT_TOPK; k++)
			sum += cu.cycles[k];
		if (cu.reason == ISSUE_WAIT_DEP || cu.reason == ISSUE_WAIT_DEP_LONG)
			assert_int_equal(sum, wp.cycles[cu.reason]);
		else
			assert_true(sum <= wp.cycles[cu.reason]);
	}
	dcpi_wait_free(w);
	stop(r);
	(void)mul_pc;
	(void)add_pc;
}

/* Order-free: a sum over entries, since where an entry lands in the
 * table depends on the order pcs arrived in. */
static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ull;
}

static uint64_t fingerprint(const struct dcpi_wait *w)
{
	uint64_t sum = 0;
	struct dcpi_wait_culprit cu;
	for (size_t i = 0; i < dcpi_wait_culprit_size(w); i++) {
		if (!dcpi_wait_culprit_at(w, i, &cu))
			continue;
		uint64_t h = mix(mix(14695981039346656037ull, cu.pc), (uint64_t)cu.reason);
		for (int k = 0; k < DCPI_WAIT_TOPK; k++)
			h = mix(mix(h, cu.culprit[k]), cu.cycles[k]);
		sum += mix(h, cu.other);
	}
	return sum ^ dcpi_wait_culprit_lost(w);
}

static void test_snapshot_restores_culprits(void **state)
{
	(void)state;
	struct cprog p = { .n = 0 };
	for (size_t k = 0; k < sizeof core_mixed_loop / sizeof *core_mixed_loop; k++)
		cp_emit(&p, core_mixed_loop[k]);
	static const char *const inorder[] = { "core.mode=inorder", NULL };
	struct program *prog = cp_program(&p, 65536);
	assert_non_null(prog);
	struct crun r;
	assert_int_equal(crun_start(&r, prog, 0, NULL, inorder), 0);
	struct ivx_err err;
	struct dcpi_wait *w = dcpi_wait_new(r.c, 1024, DCPI_WAIT_TAKEN, &err);
	assert_non_null(w);
	assert_int_equal(core_run(r.c, 20000, 0, &err), IVX_OK);
	struct core_snapshot *s = core_snapshot_save(r.c, &err);
	assert_non_null(s);
	uint64_t at_snap = fingerprint(w);
	assert_int_equal(core_run(r.c, 50000, 0, &err), IVX_OK);
	uint64_t later = fingerprint(w);
	assert_true(later != at_snap);   /* the run went on blaming */
	assert_int_equal(core_snapshot_restore(r.c, s, &err), 0);
	assert_int_equal(fingerprint(w), at_snap);
	assert_int_equal(core_run(r.c, 50000, 0, &err), IVX_OK);
	assert_int_equal(fingerprint(w), later);   /* deterministic replay */
	core_snapshot_free(s);
	dcpi_wait_free(w);
	crun_free(&r);
	program_free(prog);
}

/* The same run with and without taken counts: the branch events (which
 * look up the branch's own entry between cycles) change nothing else. */
static uint64_t mixed_run(unsigned flags)
{
	struct cprog p = { .n = 0 };
	for (size_t k = 0; k < sizeof core_mixed_loop / sizeof *core_mixed_loop; k++)
		cp_emit(&p, core_mixed_loop[k]);
	static const char *const inorder[] = { "core.mode=inorder", NULL };
	struct program *prog = cp_program(&p, 65536);
	assert_non_null(prog);
	struct crun r;
	assert_int_equal(crun_start(&r, prog, 0, NULL, inorder), 0);
	struct ivx_err err;
	struct dcpi_wait *w = dcpi_wait_new(r.c, 1024, flags, &err);
	assert_non_null(w);
	assert_int_equal(core_run(r.c, 60000, 0, &err), IVX_OK);
	uint64_t h = fingerprint(w), taken = 0;
	struct dcpi_wait_pc e;
	for (size_t i = 0; i < dcpi_wait_size(w); i++)
		if (dcpi_wait_at(w, i, &e)) {
			/* (a branch that only ever issued second in its pair has
			 * an entry for its taken count alone) */
			uint64_t x = mix(14695981039346656037ull, e.pc), any = 0;
			for (int k = 0; k < ISSUE_WAIT_COUNT; k++) {
				x = mix(x, e.cycles[k]);
				any |= e.cycles[k];
			}
			h += any ? x : 0;
			taken += e.taken;
		}
	assert_true(flags & DCPI_WAIT_TAKEN ? taken > 0 : taken == 0);
	dcpi_wait_free(w);
	crun_free(&r);
	program_free(prog);
	return h;
}

static void test_taken_counts_change_nothing_else(void **state)
{
	(void)state;
	assert_int_equal(mixed_run(0), mixed_run(DCPI_WAIT_TAKEN));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_topk_and_other),
		cmocka_unit_test(test_matches_a_model),
		cmocka_unit_test(test_full_table_counts_lost),
		cmocka_unit_test(test_dependent_blames_its_multiply),
		cmocka_unit_test(test_snapshot_restores_culprits),
		cmocka_unit_test(test_taken_counts_change_nothing_else),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
