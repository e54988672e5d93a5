/*
 * test_coproc_shrink.c — the invariance estimate corrected for the
 * winner's curse (`ivx coproc --estimate shrink`, ours; docs/coproc.md):
 *   - four values of a quarter each, seen in 77 samples as 0.31, 0.26,
 *     0.22, 0.21 (the plain estimate: 0.31), are brought back to 0.25;
 *   - a clear top value is left almost as it is;
 *   - held values covering less than 95% of the samples, a single value,
 *     or too few samples leave the plain estimate exactly;
 *   - weighted counts (shares summing a little past 1) keep their scale;
 *   - a profile entry is shrunk from its harvested samples: counts a
 *     skipped re-check earned (`reweighted`) do not make it surer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "coproc/coproc.h"

static void test_flat_values_come_back(void **state)
{
	(void)state;
	const double share[] = { 24 / 77.0, 20 / 77.0, 17 / 77.0, 16 / 77.0 };
	double est = coproc_top_share_shrunk(share, 4, 77);
	assert_true(est > 0.24 && est < 0.26);
	/* with many more samples the same spread is real: kept */
	assert_true(coproc_top_share_shrunk(share, 4, 100000) > 0.31);
}

static void test_clear_top_kept(void **state)
{
	(void)state;
	const double share[] = { 0.90, 0.06, 0.04 };
	double est = coproc_top_share_shrunk(share, 3, 100);
	assert_true(est > 0.89 && est <= 0.90);
	const double two[] = { 0.60, 0.40 };   /* 200 samples: 0.20 apart is 5.8 sigma */
	est = coproc_top_share_shrunk(two, 2, 200);
	assert_true(est > 0.59 && est <= 0.60);
}

static void test_plain_where_not_covered(void **state)
{
	(void)state;
	const double part[] = { 0.31, 0.26, 0.22 };   /* 0.79 of the samples */
	assert_true(coproc_top_share_shrunk(part, 3, 77) == 0.31);
	const double one[] = { 0.97 };
	assert_true(coproc_top_share_shrunk(one, 1, 77) == 0.97);
	const double flat[] = { 0.5, 0.5 };
	assert_true(coproc_top_share_shrunk(flat, 2, 1) == 0.5);
	assert_true(coproc_top_share_shrunk(flat, 0, 77) == 0.0);
}

static void test_weighted_scale(void **state)
{
	(void)state;
	/* the flat case with its shares 2% high (weighted counts): the
	 * estimate is 2% high too, not pulled to a share of 1 */
	const double share[] = { 1.02 * 24 / 77, 1.02 * 20 / 77, 1.02 * 17 / 77, 1.02 * 16 / 77 };
	double est = coproc_top_share_shrunk(share, 4, 77);
	assert_true(est > 1.02 * 0.24 && est < 1.02 * 0.26);
}

static void test_pentry(void **state)
{
	(void)state;
	struct coproc_pentry e;
	memset(&e, 0, sizeof e);
	e.pc = 0x400000;
	e.total = 77;
	e.nvals = 4;
	const uint64_t counts[] = { 24, 20, 17, 16 };
	for (int k = 0; k < 4; k++) {
		e.val[k].value = (uint64_t)k;
		e.val[k].count = counts[k];
	}
	assert_true(coproc_pentry_invariance(&e) > 0.31);
	double shrunk = coproc_pentry_invariance_shrunk(&e);
	assert_true(shrunk > 0.24 && shrunk < 0.26);
	/* the same shares from 7 harvested samples and 70 earned by skipped
	 * re-checks: even less sure, shrunk all the way */
	e.reweighted = 70;
	assert_true(fabs(coproc_pentry_invariance_shrunk(&e) - 0.25) < 1e-9);
	/* and 770 harvested samples: the spread is real, barely moved */
	e.reweighted = 0;
	e.total = 770;
	for (int k = 0; k < 4; k++)
		e.val[k].count = counts[k] * 10;
	assert_true(coproc_pentry_invariance_shrunk(&e) > 0.30);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat_values_come_back),
		cmocka_unit_test(test_clear_top_kept),
		cmocka_unit_test(test_plain_where_not_covered),
		cmocka_unit_test(test_weighted_scale),
		cmocka_unit_test(test_pentry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
