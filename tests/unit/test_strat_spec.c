/*
 * test_strat_spec.c — the compressor spec grammar (good specs print back
 * canonically, bad ones get one line naming the column and what was
 * expected; the fuzz harness replays them), and the error metric of the
 * paper's section 5.3.1 on a hand-made profile.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "strat/strat.h"
#include "strat/strat_prof.h"
#include "../fuzz/strat_spec.c"

static void test_good_specs_print_back(void **state)
{
	static const char *const cases[][2] = {
		{ "R256", "R256" },
		{ "P256", "P256" },
		{ "CR10", "CR10" },
		{ "D256", "D256" },
		{ "H[P256]2048", "H[P256]2048" },
		{ " H [ CR10 ] 4 ", "H[CR10]4" },
		{ "H[P256]2048+A16", "H[P256]2048+A16" },
		{ "R256+A16+A4", "R256+A16+A4" },
		{ "T2[256]2048/2", "T2[256]2048/2" },
		{ "T2[256]2048/1", "T2[256]2048" },
		{ "A16", "A16" },
		{ "CM1024x4", "CM1024x4" },
		{ "SS512", "SS512" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct strat_spec s;
		struct ivx_err err = { 0 };
		if (strat_spec_parse(cases[i][0], &s, &err) < 0)
			fail_msg("'%s': %s", cases[i][0], err.msg);
		char buf[128];
		strat_spec_format(&s, buf, sizeof buf);
		assert_string_equal(buf, cases[i][1]);
	}
	struct strat_spec s;
	assert_int_equal(strat_spec_parse("H[P256]2048+A16", &s, NULL), 0);
	assert_int_equal(s.n_stages, 2);
	assert_int_equal(s.stage[0].kind, STRAT_P);
	assert_int_equal(s.stage[0].rate, 256);
	assert_int_equal(s.stage[0].strata, 2048);
	assert_int_equal(s.stage[1].kind, STRAT_A);
	assert_int_equal(s.stage[1].entries, 16);
	/* an 8-bit counter per stratum */
	assert_int_equal(strat_spec_bits(&s), 2048 * 8);
}

static const char *const bad[][2] = {
	{ "", "at column 1 expected a stage" },
	{ "X4", "at column 1 expected a stage" },
	{ "P", "at column 2 expected a sampling rate, found end of spec" },
	{ "P0", "a sampling rate must be 1..16777216" },
	{ "P99999999999999999999", "a sampling rate must be 1..16777216" },
	{ "H[P256]2000", "the number of strata must be a power of two" },
	{ "H[P256", "expected ']'" },
	{ "H(P256)4", "at column 2 expected '['" },
	{ "H[A16]4", "expected a sampler R, D or P" },
	{ "H[H[P2]2]2", "expected a sampler R, D or P" },
	{ "CX4", "expected a sampler R, D or P after C" },
	{ "P256+", "only an associative table may follow '+'" },
	{ "P256+P4", "only an associative table may follow '+'" },
	{ "P256 A16", "expected '+' or end of spec, found 'A'" },
	{ "A0", "the table size k must be 1..4096" },
	{ "T2[256]2048/3", "the associativity must be a power of two" },
	{ "T2[256]2/4", "the associativity exceeds the entries" },
	{ "T0[256]2048", "the tag bits must be 1..16" },
	{ "T2[1]2048", "the hit counter's maximum must be 2..65536" },
	{ "CM1024", "expected 'x'" },
	{ "CM1024x9", "the sketch depth must be 1..8" },
	{ "SS16+A4", "a sketch sends no messages" },
	{ "P1+A1+A1+A1+A1", "at most 4 stages" },
	{ "P2\tx", "found 'x'" },
	{ "P2\n", "byte 0x0a at column 3 is not printable" },
	{ "P2\xff", "byte 0xff at column 3 is not printable" },
};

static void test_bad_specs_say_where_and_what(void **state)
{
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct strat_spec s;
		struct ivx_err err = { 0 };
		assert_int_equal(strat_spec_parse(bad[i][0], &s, &err), IVX_EUSAGE);
		if (!strstr(err.msg, bad[i][1]))
			fail_msg("'%s': got \"%s\", want \"%s\"", bad[i][0], err.msg, bad[i][1]);
		assert_null(strchr(err.msg, '\n'));
	}
	char longer[STRAT_SPEC_MAX + 8];
	memset(longer, ' ', sizeof longer - 1);
	longer[sizeof longer - 1] = 0;
	struct ivx_err err = { 0 };
	struct strat_spec s;
	assert_int_equal(strat_spec_parse(longer, &s, &err), IVX_EUSAGE);
	assert_non_null(strstr(err.msg, "longer than"));
}

/* The fuzz harness over every bad spec and good one (it aborts on a
 * broken invariant). */
static void test_fuzz_harness_replays(void **state)
{
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		LLVMFuzzerTestOneInput((const uint8_t *)bad[i][0], strlen(bad[i][0]));
	const char *good[] = { "H[P256]2048+A16", "T2[256]2048/2", "SS64", "CM64x4", "D3+A2+A2+A2", "H[CD7]8" };
	for (size_t i = 0; i < sizeof good / sizeof *good; i++)
		LLVMFuzzerTestOneInput((const uint8_t *)good[i], strlen(good[i]));
	/* a few mutations of a good spec: every byte replaced */
	char m[16];
	for (int pos = 0; pos < 11; pos++)
		for (int b = 1; b < 256; b += 7) {
			strcpy(m, "H[P256]2048");
			m[pos] = (char)b;
			LLVMFuzzerTestOneInput((const uint8_t *)m, strlen(m));
		}
}

/* ---- the error metric ---- */

static void many(struct strat_prof *p, uint64_t pc, uint64_t val, int n)
{
	for (int i = 0; i < n; i++)
		strat_prof_exact(p, pc, val);
}

static void test_error_metric_selects_and_weights(void **state)
{
	struct strat_prof *p = strat_prof_new(4096, 0, NULL);
	struct strat_err_params ep = STRAT_ERR_PARAMS_PAPER;
	/* A: 1000 executions, values 1 (600) and 2 (400): selected */
	many(p, 0xa0, 1, 600);
	many(p, 0xa0, 2, 400);
	/* B: 1000 executions of 1000 different values: none invariant */
	for (int i = 0; i < 1000; i++)
		strat_prof_exact(p, 0xb0, 1000 + i);
	/* C: 999 executions, one value: too rare */
	many(p, 0xc0, 5, 999);
	/* D: two values at 15% each (invariant) but covering only 30% */
	many(p, 0xd0, 1, 150);
	many(p, 0xd0, 2, 150);
	for (int i = 0; i < 700; i++)
		strat_prof_exact(p, 0xd0, 5000 + i);
	struct strat_err_detail d;
	/* nothing reported yet: I_p = 0, error = the invariance itself */
	double e = strat_prof_error(p, &ep, NULL, &d);
	assert_int_equal(d.tuples, 2);
	assert_int_equal(d.pcs, 1);
	assert_int_equal(d.weight, 1000);
	assert_true(fabs(e - (600 * 0.6 + 400 * 0.4) / 1000.0) < 1e-12);
	/* software saw the two values equally often: e(v) = 0.1 each */
	strat_prof_estimate(p, 0xa0, 1, 256);
	strat_prof_estimate(p, 0xa0, 2, 256);
	strat_prof_estimate(p, 0xc0, 5, 1000);   /* not selected: no effect */
	e = strat_prof_error(p, &ep, NULL, &d);
	assert_true(fabs(e - 0.1) < 1e-12);
	/* exact estimate: error 0 */
	strat_prof_estimate(p, 0xa0, 1, 344);
	strat_prof_estimate(p, 0xa0, 2, 144);
	e = strat_prof_error(p, &ep, NULL, &d);
	assert_true(fabs(e) < 1e-12);
	struct strat_prof_stats st;
	strat_prof_stats(p, &st);
	assert_int_equal(st.events, 1000 + 1000 + 999 + 1000);
	assert_int_equal(st.pcs, 4);
	strat_prof_free(p);
	/* no selected tuple: NaN */
	p = strat_prof_new(64, 0, NULL);
	many(p, 0xa0, 1, 10);
	assert_true(isnan(strat_prof_error(p, &ep, NULL, NULL)));
	strat_prof_free(p);
}

static void test_fixed_table_drops_growable_grows(void **state)
{
	struct strat_prof *p = strat_prof_new(16, 0, NULL), *g = strat_prof_new(16, 1, NULL);
	size_t size = strat_prof_state_size(p);
	for (int i = 0; i < 100; i++) {
		strat_prof_exact(p, 0x10, (uint64_t)i);
		strat_prof_exact(g, 0x10, (uint64_t)i);
	}
	struct strat_prof_stats a, b;
	strat_prof_stats(p, &a);
	strat_prof_stats(g, &b);
	assert_int_equal(a.tuples, 12);   /* 3/4 of 16 */
	assert_int_equal(a.dropped, 88);
	assert_int_equal(strat_prof_state_size(p), size);
	assert_int_equal(b.tuples, 100);
	assert_int_equal(b.dropped, 0);
	uint64_t sum = 0;
	struct strat_prof_row row;
	for (uint32_t s = 0; s < strat_prof_slots(g); s++)
		if (strat_prof_row(g, s, &row))
			sum += row.exact;
	assert_int_equal(sum, 100);
	strat_prof_free(p);
	strat_prof_free(g);
	strat_prof_free(NULL);
	strat_comp_free(NULL);
}

/* The per-pc sums the error is built from take memory by the pcs, not
 * the tuples: 3 pcs of 100,000 distinct tuples keep the cache at its
 * first 16 slots (it was sized at twice the tuples, 262,144 slots). */
static void the_pc_sums_grow_with_pcs_not_tuples(void **state)
{
	struct strat_prof *g = strat_prof_new(16, 1, NULL);
	const size_t pslot = 4 * sizeof(uint64_t);
	size_t handle = strat_prof_host_bytes(g) - strat_prof_state_size(g);   /* no cache yet */
	for (uint64_t i = 0; i < 100000; i++)
		strat_prof_exact(g, 0x10 + 4 * (i % 3), i);
	struct strat_prof_stats st;
	strat_prof_stats(g, &st);
	assert_int_equal(st.tuples, 100000);
	assert_int_equal(st.pcs, 3);
	assert_int_equal(strat_prof_host_bytes(g) - strat_prof_state_size(g) - handle, 16 * pslot);
	/* 100 more pcs: doubled as they are found, at most half full */
	for (uint64_t pc = 0; pc < 100; pc++)
		strat_prof_exact(g, 0x1000 + 4 * pc, 1);
	struct strat_err_params ep = STRAT_ERR_PARAMS_PAPER;
	assert_true(isnan(strat_prof_error(g, &ep, NULL, NULL)));   /* no pc is invariant or frequent */
	strat_prof_stats(g, &st);
	assert_int_equal(st.pcs, 103);
	assert_int_equal(strat_prof_host_bytes(g) - strat_prof_state_size(g) - handle, 256 * pslot);
	strat_prof_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_specs_print_back),
		cmocka_unit_test(test_bad_specs_say_where_and_what),
		cmocka_unit_test(test_fuzz_harness_replays),
		cmocka_unit_test(test_error_metric_selects_and_weights),
		cmocka_unit_test(test_fixed_table_drops_growable_grows),
		cmocka_unit_test(the_pc_sums_grow_with_pcs_not_tuples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
