/*
 * test_coproc_weight.c — records weighted by the inverse of the rate they
 * were tagged at (branch lvp9, docs/coproc.md; value_topk_ipw.s):
 *   - the record field `weight` is 2^k for a record tagged while the
 *     random tagger tagged 1 in 2^k (a fixed rate: every record; the
 *     governor: the rate when it was tagged), so the weights' sum
 *     estimates the loads executed;
 *   - `adds` saturates at `.awidth`, `inc` at `.cwidth`;
 *   - value_topk_ipw.s's weighted totals reach the profile (`wtotal`, the
 *     estimate's denominator): 4 x the samples at a fixed 1 in 4, and
 *     none for value_topk.s.
 *
 * Run from the top of the tree (make unit does); needs data/bin.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "coproc_run.h"

/* Sums the records' weights (v0) and counts them (v1); the same into a
 * data word with inc (v2, 8-bit counters) and with adds (v3, 32-bit). */
static const char wsum_src[] =
	".name wsum\n"
	".handler none\n"
	".classes load\n"
	".fields pc\n"
	".dfe load r\n"
	".cwidth 8\n"
	".awidth 32\n"
	"r: add v0, v0, weight\n"
	"   add v1, v1, 1\n"
	"   inc [b0 + 0]\n"
	"   ld v2, [b0 + 0]\n"
	"   adds [b1 + 0], weight\n"
	"   ld v3, [b1 + 0] -> DONE\n"
	".base b1 1\n";

static void config(struct coproc_config *cc, const char *tagrate, uint64_t seed)
{
	struct ivx_err err;
	coproc_test_config(cc, seed);
	assert_int_equal(coproc_config_set(cc, tagrate, &err), 0);
}

static void the_weight_is_the_inverse_rate(void **state)
{
	(void)state;
	static struct coproc_prog p;
	struct ivx_err err;
	if (coproc_asm(wsum_src, strlen(wsum_src), "wsum.s", &p, &err) < 0)
		fail_msg("%s", err.msg);
	struct program *prg = coproc_test_load("data/bin/workloads/muldiv");
	char *argv[] = { "muldiv", "1" };
	struct coproc_config cc;
	struct coproc_test_run x;
	struct coproc_stats st;

	/* a fixed rate: every record weighs 2^k */
	const char *rates[] = { "tagrate=1", "tagrate=4", "tagrate=16" };
	const uint64_t w[] = { 1, 4, 16 };
	for (int k = 0; k < 3; k++) {
		config(&cc, rates[k], 1);
		coproc_test_run(&x, prg, 2, argv, &cc, &p);
		coproc_get_stats(x.cp, &st);
		uint64_t n = coproc_vreg(x.cp, 1);
		assert_true(n > 255);                  /* 289 at 1 in 16 */
		assert_int_equal(n, st.routines);
		assert_int_equal(coproc_vreg(x.cp, 0), w[k] * n);
		assert_int_equal(coproc_vreg(x.cp, 2), 255);            /* inc: .cwidth 8 */
		assert_int_equal(coproc_vreg(x.cp, 3), w[k] * n);       /* adds: .awidth 32 */
		coproc_test_run_free(&x);
	}

	/* the governor: the rate changes, and each record weighs the rate's
	 * inverse when it was tagged, so the weights add up to about the
	 * loads that retired tagged or not (less the dropped records') */
	for (uint64_t seed = 1; seed <= 3; seed++) {
		config(&cc, "tagrate=0", seed);
		coproc_test_run(&x, prg, 2, argv, &cc, &p);
		coproc_get_stats(x.cp, &st);
		uint64_t n = coproc_vreg(x.cp, 1), sum = coproc_vreg(x.cp, 0);
		uint64_t loads = coproc_truth_events(x.truth);
		assert_true(st.untagged > 0);          /* the governor thinned the tagging */
		assert_true(sum > n);                  /* ... and those records weigh more */
		assert_true(sum * 10 > loads * 8 && sum * 10 < loads * 12);
		assert_true(n * 10 < loads * 9);       /* a count of records alone falls short */
		coproc_test_run_free(&x);
	}
	program_free(prg);
}

static void assembler_knows_weight_and_awidth(void **state)
{
	(void)state;
	static struct coproc_prog p;
	struct ivx_err err;
	const char *bad = ".name x\n.handler none\n.classes load\n.dfe load r\n.awidth 64\nr: nop -> DONE\n";
	assert_int_equal(coproc_asm(bad, strlen(bad), "x.s", &p, &err), IVX_EINPUT);
	assert_non_null(strstr(err.msg, "x.s:5:"));
	assert_non_null(strstr(err.msg, ".awidth"));
	/* weight, like kind, needs no .fields */
	const char *ok = ".name x\n.handler none\n.classes load\n.dfe load r\nr: mov v0, weight -> DONE\n";
	assert_int_equal(coproc_asm(ok, strlen(ok), "x.s", &p, &err), 0);
	assert_int_equal(p.awidth, 0);
	char line[128];
	coproc_disasm_insn(&p, 0, line, sizeof line);
	assert_non_null(strstr(line, "weight"));
}

/* Run value_topk[_ipw].s on muldiv at `tagrate`; out: entries with
 * samples, entries whose wtotal is `mul` x total, entries with wtotal. */
static void profile_weights(const char *path, const char *tagrate, uint64_t mul, int *entries, int *scaled, int *weighted)
{
	static struct coproc_prog p;
	coproc_test_assemble_file(path, &p);
	struct program *prg = coproc_test_load("data/bin/workloads/muldiv");
	char *argv[] = { "muldiv", "1" };
	struct coproc_config cc;
	config(&cc, tagrate, 1);
	struct coproc_test_run x;
	coproc_test_run(&x, prg, 2, argv, &cc, &p);
	*entries = *scaled = *weighted = 0;
	for (int i = 0; i < coproc_profile_size(x.cp); i++) {
		struct coproc_pentry e;
		if (!coproc_profile_entry(x.cp, i, &e) || !e.total)
			continue;
		++*entries;
		*scaled += e.wtotal == mul * e.total;
		*weighted += e.wtotal != 0;
		double inv = coproc_pentry_invariance(&e);
		assert_true(inv >= 0.0 && inv <= 1.0);
	}
	coproc_test_run_free(&x);
	program_free(prg);
}

static void the_handler_weighs_the_estimate(void **state)
{
	(void)state;
	int n, scaled, weighted;
	profile_weights("data/coproc/value_topk_ipw.s", "tagrate=4", 4, &n, &scaled, &weighted);
	assert_true(n > 20);
	assert_int_equal(scaled, n);           /* every sample weighs 4 */
	profile_weights("data/coproc/value_topk_ipw.s", "tagrate=0", 1, &n, &scaled, &weighted);
	assert_int_equal(weighted, n);
	assert_true(scaled < n);               /* the governor's thinning weighs some more */
	profile_weights("data/coproc/value_topk.s", "tagrate=4", 4, &n, &scaled, &weighted);
	assert_int_equal(weighted, 0);         /* unweighted: the estimate is over the samples */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_weight_is_the_inverse_rate),
		cmocka_unit_test(assembler_knows_weight_and_awidth),
		cmocka_unit_test(the_handler_weighs_the_estimate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
