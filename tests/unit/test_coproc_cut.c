/*
 * test_coproc_cut.c — where a run is cut must not change what the
 * co-processor does. `ivx coproc --interval` runs the core in slices, the
 * explorer in steps (re-attaching its breakpoint observer before each);
 * either used to change the run on sieve (997-cycle slices: 56 fewer
 * instructions committed by cycle 997,000), because a timer tick
 * and the handler cycles of a run of idle cycles were settled when the
 * core handed the run over, and a cut hands it over early.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "coproc_run.h"

#define CUT_LIMIT 997000

/* What a run leaves: the core's counts, the co-processor's statistics and
 * a digest of its profile table. */
struct outcome {
	uint64_t cycles, committed;
	struct coproc_stats st;
	uint64_t profile_digest;
	int profile_entries;
};

static void no_insn(void *ctx, const struct insn_event *e)
{
	(void)ctx, (void)e;
}

static char dummy_ctx;

/* Run path with value_topk (and the exact profile beside it, as `ivx
 * coproc` does) to CUT_LIMIT cycles in slices of `slice` cycles
 * (0: one run); with reattach, an observer of instructions only is removed
 * and added again between slices, as the explorer does with its
 * breakpoints. */
static void run_cut(const char *path, const char *arg, uint64_t slice, int reattach, struct outcome *o)
{
	struct coproc_prog p;
	struct coproc_config cc;
	struct ivx_err err;
	coproc_test_assemble_file("data/coproc/value_topk.s", &p);
	coproc_test_config(&cc, 1);
	struct program *prog = coproc_test_load(path);
	struct crun r;
	char *argv[] = { (char *)path, (char *)arg, NULL };
	assert_int_equal(crun_start(&r, prog, arg ? 2 : 1, argv, NULL), 0);
	struct coproc *cp = coproc_new(&cc, &p, r.c, &err);
	if (!cp)
		fail_msg("%s", err.msg);
	struct coproc_truth *truth = coproc_truth_new(r.c, TRUTH_LOADS, 0, 0, 0, &err);
	assert_non_null(truth);
	assert_int_equal(core_add_observer(r.c, coproc_truth_observer(truth), &err), 0);
	assert_int_equal(core_add_observer(r.c, coproc_observer(cp), &err), 0);
	struct core_observer extra = { .name = "extra", .ctx = &dummy_ctx, .on_insn = no_insn,
				       .insn_filter = INSN_WANT_BRANCH };
	assert_int_equal(core_add_observer(r.c, &extra, &err), 0);
	while (!core_done(r.c) && core_cycles(r.c) < CUT_LIMIT) {
		uint64_t lim = slice && core_cycles(r.c) + slice < CUT_LIMIT ? core_cycles(r.c) + slice : CUT_LIMIT;
		if (core_run(r.c, lim, 0, &err) != IVX_OK)
			fail_msg("%s", err.msg);
		if (reattach) {
			core_remove_observer(r.c, &dummy_ctx);
			assert_int_equal(core_add_observer(r.c, &extra, &err), 0);
		}
	}
	coproc_finish(cp);
	o->cycles = core_cycles(r.c);
	o->committed = core_committed(r.c);
	coproc_get_stats(cp, &o->st);
	o->profile_entries = coproc_profile_size(cp);
	o->profile_digest = 0;
	for (int i = 0; i < o->profile_entries; i++) {
		struct coproc_pentry e;
		if (coproc_profile_entry(cp, i, &e))
			o->profile_digest = o->profile_digest * 1000003 + e.pc * 31 + e.total;
	}
	coproc_free(cp);
	coproc_truth_free(truth);
	crun_free(&r);
	program_free(prog);
}

static void same_outcome(const struct outcome *a, const struct outcome *b, const char *what)
{
	if (a->cycles != b->cycles || a->committed != b->committed)
		fail_msg("%s: %llu cycles / %llu committed, against %llu / %llu in one run", what,
			 (unsigned long long)b->cycles, (unsigned long long)b->committed,
			 (unsigned long long)a->cycles, (unsigned long long)a->committed);
	assert_int_equal(b->st.records, a->st.records);
	assert_int_equal(b->st.interrupts, a->st.interrupts);
	assert_int_equal(b->st.timer_actions, a->st.timer_actions);
	assert_int_equal(b->st.handler_cycles, a->st.handler_cycles);
	assert_int_equal(b->st.uinsns, a->st.uinsns);
	assert_int_equal(b->profile_entries, a->profile_entries);
	assert_true(b->profile_digest == a->profile_digest);
}

/* path with argument arg (NULL: none, the program's own default) */
static void cuts_change_nothing(const char *path, const char *arg)
{
	struct outcome whole, cut;
	run_cut(path, arg, 0, 0, &whole);
	if (whole.st.records < 100)   /* something to move */
		fail_msg("%s: %llu records", path, (unsigned long long)whole.st.records);
	static const uint64_t slices[] = { 33333, 997 };
	for (size_t i = 0; i < sizeof slices / sizeof *slices; i++) {
		char what[64];
		snprintf(what, sizeof what, "slices of %llu cycles", (unsigned long long)slices[i]);
		run_cut(path, arg, slices[i], 0, &cut);
		same_outcome(&whole, &cut, what);
		snprintf(what, sizeof what, "slices of %llu cycles, re-attached", (unsigned long long)slices[i]);
		run_cut(path, arg, slices[i], 1, &cut);
		same_outcome(&whole, &cut, what);
	}
}

static void sieve_cut_anywhere(void **state)
{
	(void)state;
	cuts_change_nothing("data/bin/workloads/sieve", NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sieve_cut_anywhere),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
