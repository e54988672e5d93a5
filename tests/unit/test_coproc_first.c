/*
 * test_coproc_first.c — value_topk_first.s (ours, an option, branch
 * first): value_topk_even.s with `.param first 2`, so that a load that
 * runs only a few times is still sampled. Checked on muldiv's whole run
 * with the random tagger fixed at 1 in 1024 (tagrate=1024), so that it
 * alone would miss most loads:
 *   - with `first 2` nearly every load of the run has a profile entry;
 *     with `first 0` (value_topk_even.s's tagging) most have none;
 *   - the first-sight tags are counted (stats first_tags) and only with
 *     `first`; no bucket's counter passes `first` (2 bits of storage);
 *   - a load run once or twice, alone in its bucket, is sampled every
 *     time it runs (its samples are its executions), where the tagger
 *     alone would take one in 1024.
 * And value_topk_young.s (value_topk_first.s with `.param young_stall`),
 * on the same run with the governor's rate: while the run is young a
 * full buffer stalls retirement instead of dropping (young_stall past the
 * run's end: no drop, stalls and their cycles charged; with 0 the drop
 * policy from the start, as value_topk_first.s: drops, no stall).
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
#include "coproc/coproc_internal.h"

#define FIRST "data/coproc/value_topk_first.s"
#define YOUNG "data/coproc/value_topk_young.s"

struct result {
	int loads, profiled;         /* loads run, and those with a profile entry */
	int rare, rare_all;          /* loads run at most twice alone in their bucket,
					and those sampled every time */
	uint64_t first_tags, drops;
	int seen_max;                /* the largest bucket counter */
};

static void run(const char *first, struct result *out)
{
	const char *const over[] = { first, NULL };
	struct program *prg = coproc_test_load("data/bin/workloads/muldiv");
	struct coproc_test_run x;
	coproc_test_run_muldiv(&x, prg, FIRST, over, 1, "tagrate=1024");
	memset(out, 0, sizeof *out);
	static int in_bucket[1 << 16];
	memset(in_bucket, 0, sizeof in_bucket);
	for (int i = 0;; i++) {
		const struct truth_key *k = coproc_truth_key(x.truth, i);
		if (!k)
			break;
		in_bucket[coproc_pc_hash(x.cp, k->key)]++;
	}
	for (int i = 0;; i++) {
		const struct truth_key *k = coproc_truth_key(x.truth, i);
		if (!k)
			break;
		struct coproc_pentry e;
		int found = coproc_profile_find(x.cp, k->key, &e);
		out->loads++;
		out->profiled += found;
		if (k->executions <= 2 && in_bucket[coproc_pc_hash(x.cp, k->key)] == 1) {
			out->rare++;
			out->rare_all += found && e.total == k->executions;
		}
	}
	struct coproc_stats st;
	coproc_get_stats(x.cp, &st);
	out->first_tags = st.first_tags;
	out->drops = st.drops;
	for (uint32_t h = 0; h <= x.cp->hash_mask; h++)
		if (x.cp->seen[h] > out->seen_max)
			out->seen_max = x.cp->seen[h];
	coproc_test_run_free(&x);
	program_free(prg);
}

static void first_sight_samples_rare_loads(void **state)
{
	(void)state;
	struct result with, without;
	run(".param first 2", &with);
	run(".param first 0", &without);
	print_message("first 2: %d of %d loads profiled, %llu first tags, %llu drops, counters up to %d, "
		      "%d of %d rare loads sampled every time\n", with.profiled, with.loads,
		      (unsigned long long)with.first_tags, (unsigned long long)with.drops, with.seen_max,
		      with.rare_all, with.rare);
	print_message("first 0: %d of %d loads profiled, %llu first tags\n", without.profiled, without.loads,
		      (unsigned long long)without.first_tags);
	assert_int_equal(with.loads, without.loads);
	assert_true(with.profiled * 10 >= with.loads * 9);
	assert_true(without.profiled * 2 < without.loads);
	assert_true(with.first_tags > 0);
	assert_int_equal(without.first_tags, 0);
	assert_int_equal(with.seen_max, 2);
	assert_true(with.rare > 0);
	assert_int_equal(with.rare_all, with.rare);
}

static void young(const char *young_stall, struct coproc_stats *st)
{
	const char *const over[] = { young_stall, NULL };
	struct program *prg = coproc_test_load("data/bin/workloads/muldiv");
	struct coproc_test_run x;
	coproc_test_run_muldiv(&x, prg, YOUNG, over, 1, NULL);
	coproc_get_stats(x.cp, st);
	coproc_test_run_free(&x);
	program_free(prg);
}

static void a_young_run_stalls(void **state)
{
	(void)state;
	struct coproc_stats whole, none;
	young(".param young_stall 1000000000", &whole);
	young(".param young_stall 0", &none);
	print_message("young throughout: %llu drops, %llu stalls (%llu cycles); never: %llu drops, %llu stalls\n",
		      (unsigned long long)whole.drops, (unsigned long long)whole.stalls,
		      (unsigned long long)whole.stall_cycles, (unsigned long long)none.drops,
		      (unsigned long long)none.stalls);
	assert_int_equal(whole.drops, 0);
	assert_true(whole.stalls > 0 && whole.stall_cycles > 0);
	assert_true(none.drops > 0);
	assert_int_equal(none.stalls, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(first_sight_samples_rare_loads),
		cmocka_unit_test(a_young_run_stalls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
