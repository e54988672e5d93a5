/*
 * test_coproc_adapt.c — value_topk_adapt.s (ours, an option, branch
 * adapt22): value_topk_ring.s with the choice between a tally and a slot
 * made per load. A load whose tally has 16 records since the last harvest
 * is hot and tries for a slot with every record (the others one in 4),
 * and a record whose try fails is counted in the tally instead of lost.
 * Checked on muldiv's whole run with the program cut to 8 slots (as
 * test_coproc_tally.c cuts value_topk_ring.s), so that its 47 loads churn
 * them, and spreading off:
 *   - every record is counted exactly once: the profile's samples equal
 *     the records, and no entry counts more hits for its values than
 *     samples, also when every tally record tries for a slot (the
 *     threshold at 1), where value_topk_ring.s (its draw made to fire
 *     every time) loses the records whose try failed (9-11 of about 900);
 *   - a hot tally takes a slot: with the one-in-4 draw off, muldiv's
 *     hottest load (a table of 8 values) reaches a slot through the
 *     threshold alone, and the profile has the four values its ways
 *     counted and its 529 samples; with the threshold out of reach too it
 *     stays a tally of one value (whose total stops at 255, the 8-bit
 *     counters: records are lost there, which the draw prevents in the
 *     shipped program).
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

#define ADAPT "data/coproc/value_topk_adapt.s"
#define RING "data/coproc/value_topk_ring.s"
/* 8 slots, as test_coproc_tally.c cuts value_topk_ring.s; spreading off */
#define EIGHT_SLOTS ".param slots 8", ".const c3 7", ".const c5 8", ".const c8 32", ".const c9 16", ".const c2 32", \
		    ".param buffer_entries 32", ".const c6 7", ".param spread 0"
#define NO_DRAW ".const c11 0xffffffffffff"   /* the one-in-4 draw never fires */

struct result {
	uint64_t records, samples;
	uint64_t overcounted;   /* profile entries whose values' counts add up to more than their total */
	int hot_values;         /* values the profile has for the most executed load */
	uint64_t hot_samples;   /* ... and its samples */
};

static void run(const char *path, const char *const *over, uint64_t seed, struct result *out)
{
	struct program *prg = coproc_test_load("data/bin/workloads/muldiv");
	struct coproc_test_run x;
	coproc_test_run_muldiv(&x, prg, path, over, seed, NULL);
	memset(out, 0, sizeof *out);
	struct coproc_stats st;
	coproc_get_stats(x.cp, &st);
	out->records = st.records;
	uint64_t most = 0;
	for (int i = 0;; i++) {
		const struct truth_key *k = coproc_truth_key(x.truth, i);
		if (!k)
			break;
		struct coproc_pentry e;
		if (!coproc_profile_find(x.cp, k->key, &e))
			continue;
		out->samples += e.total;
		if (k->executions > most) {
			most = k->executions;
			out->hot_values = e.nvals;
			out->hot_samples = e.total;
		}
	}
	out->overcounted = coproc_test_overcounted(x.cp);
	coproc_test_run_free(&x);
	program_free(prg);
}

static void every_record_is_counted_once(void **state)
{
	(void)state;
	static const char *const eight[] = { EIGHT_SLOTS, NULL };
	static const char *const all_try[] = { EIGHT_SLOTS, ".const c13 1", NULL };
	static const char *const ring_all_try[] = { EIGHT_SLOTS, ".const c11 0", NULL };
	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct result a, t, r;
		run(ADAPT, eight, seed, &a);
		assert_true(a.records > 500);
		assert_true(a.samples == a.records);
		assert_true(a.overcounted == 0);
		run(ADAPT, all_try, seed, &t);
		assert_true(t.records > 500);
		assert_true(t.samples == t.records);
		assert_true(t.overcounted == 0);
		run(RING, ring_all_try, seed, &r);   /* its failed tries are lost */
		assert_true(r.samples < r.records);
		assert_true(r.samples * 100 >= r.records * 98);
	}
}

static void a_hot_tally_takes_a_slot(void **state)
{
	(void)state;
	static const char *const hot[] = { EIGHT_SLOTS, NO_DRAW, NULL };
	static const char *const never[] = { EIGHT_SLOTS, NO_DRAW, ".const c13 0x10000000000", NULL };
	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct result h, n;
		run(ADAPT, hot, seed, &h);
		run(ADAPT, never, seed, &n);
		assert_int_equal(h.hot_values, 4);   /* its slot's four ways */
		assert_true(h.hot_samples > 500);
		assert_int_equal(n.hot_values, 1);   /* a tally's one value */
		assert_true(n.hot_samples <= 255);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_record_is_counted_once),
		cmocka_unit_test(a_hot_tally_takes_a_slot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
#undef EIGHT_SLOTS
