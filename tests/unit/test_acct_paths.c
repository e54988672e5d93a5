/*
 * test_acct_paths.c — a set of accounting units reads only correct-path
 * instructions and computes the FMT and the sFMT with one table
 * (acct_set.c); units on their own read every path, giving wrong-path
 * branches FMT rows as the hardware would, and so does a set made with
 * ACCT_SET_ALL_PATHS (then its table must be the units' table, row for
 * row). All must give exactly the same stacks, on programs whose fetched instructions are mostly
 * wrong-path ones and whose wrong paths miss in the I-cache, and across a
 * snapshot restore.
 *
 * Run from the top of the tree (make unit does); needs data/bin and fails
 * without it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "acct/acct.h"
#include "core/config.h"
#include "core/core.h"
#include "guest/guest.h"
#include "guest/program.h"

static void drop(void *ctx, int fd, const void *buf, size_t len)
{
	(void)ctx, (void)fd, (void)buf, (void)len;
}

struct run {
	struct program *prog;
	struct guest *g;
	struct core *core;
	struct acct_set *set;
	struct acct_set *all;        /* a set with FMT rows for wrong-path branches too */
	struct acct *unit[ACCT_METHOD_COUNT];
};

static void run_open(struct run *r, const char *path, int argc, char **argv)
{
	struct ivx_err err = { 0 };
	memset(r, 0, sizeof *r);
	r->prog = program_load_file(path, &err);
	if (!r->prog)
		fail_msg("%s: %s (make data builds it; the test does not pass without it)", path, err.msg);
	struct guest_options gopt = { .argc = argc, .argv = argv, .seed = 1, .output = drop };
	r->g = guest_new(r->prog, &gopt, &err);
	assert_non_null(r->g);
	struct machine_config cfg;
	config_defaults(&cfg);
	r->core = core_new(&cfg, r->g, &err);
	assert_non_null(r->core);
	r->set = acct_set_new(&cfg, &err);
	assert_non_null(r->set);
	assert_int_equal(core_add_observer(r->core, acct_set_observer(r->set), &err), IVX_OK);
	r->all = acct_set_new_opts(&cfg, ACCT_SET_ALL_PATHS, &err);
	assert_non_null(r->all);
	assert_int_equal(core_add_observer(r->core, acct_set_observer(r->all), &err), IVX_OK);
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		r->unit[m] = acct_new(m, &cfg, &err);
		assert_non_null(r->unit[m]);
		assert_int_equal(core_add_observer(r->core, acct_observer(r->unit[m]), &err), IVX_OK);
	}
}

static void run_close(struct run *r)
{
	for (int m = 0; m < ACCT_METHOD_COUNT; m++)
		acct_free(r->unit[m]);
	acct_set_free(r->set);
	acct_set_free(r->all);
	core_free(r->core);
	guest_free(r->g);
	program_free(r->prog);
}

static void assert_same_stacks(struct run *r)
{
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		struct acct_stack a, b;
		acct_get_stack(acct_set_unit(r->set, m), &a);
		acct_get_stack(r->unit[m], &b);
		if (memcmp(&a, &b, sizeof a)) {
			for (int k = 0; k < ACCT_COMP_COUNT; k++)
				print_message("%s %s: set %llu, unit %llu\n", acct_method_name(m),
					      acct_comp_name(k), (unsigned long long)a.comp[k],
					      (unsigned long long)b.comp[k]);
		}
		assert_memory_equal(&a, &b, sizeof a);
		acct_get_stack(acct_set_unit(r->all, m), &a);
		assert_memory_equal(&a, &b, sizeof a);
	}
	/* with every path, the set's table is the units' table */
	for (int m = ACCT_FMT; m <= ACCT_SFMT; m++) {
		struct acct_fmt_state x, y;
		assert_int_equal(acct_fmt_state(acct_set_unit(r->all, m), &x), 0);
		assert_int_equal(acct_fmt_state(r->unit[m], &y), 0);
		assert_memory_equal(&x, &y, sizeof x);
		for (int i = 0; i < x.rows; i++) {
			struct acct_fmt_row rx, ry;
			assert_int_equal(acct_fmt_row(acct_set_unit(r->all, m), i, &rx), 0);
			assert_int_equal(acct_fmt_row(r->unit[m], i, &ry), 0);
			assert_memory_equal(&rx, &ry, sizeof rx);
		}
	}
}

/* Run `cycles` cycles of a program; the set and the units must agree, and
 * the program must have exercised what the set leaves out. */
static void same_stacks(const char *path, int argc, char **argv, uint64_t cycles, int want_wp_imiss)
{
	struct run r;
	struct ivx_err err = { 0 };
	run_open(&r, path, argc, argv);
	assert_int_equal(core_run(r.core, cycles, 0, &err), IVX_OK);
	assert_same_stacks(&r);
	struct core_stats st;
	core_stats(r.core, &st);
	assert_true(st.squashed > 0);
	if (want_wp_imiss)
		assert_true(st.events_wrong[MISS_L1I] + st.events_wrong[MISS_L2I] > 0);
	/* the FMT had something to charge */
	struct acct_stack s;
	acct_get_stack(acct_set_unit(r.set, ACCT_FMT), &s);
	assert_true(s.comp[ACCT_BPRED] > 0);
	run_close(&r);
}

static void test_interp(void **state)
{
	(void)state;
	char *argv[] = { "interp", "4", NULL };
	same_stacks("data/bin/workloads/interp", 2, argv, 400000, 0);
}

static void test_branchy(void **state)
{
	(void)state;
	char *argv[] = { "branchy", NULL };
	same_stacks("data/bin/workloads/branchy", 1, argv, 400000, 0);
}

static void test_icache(void **state)
{
	(void)state;
	char *argv[] = { "icache", NULL };
	same_stacks("data/bin/workloads/icache", 1, argv, 600000, 1);
}

static void test_kernels(void **state)
{
	(void)state;
	char *k2[] = { "k2", "miss", "100", NULL };
	same_stacks("data/bin/kernels/k2_branch_miss", 3, k2, 0, 0);
	char *k6[] = { "k6", "miss", "100", NULL };
	same_stacks("data/bin/kernels/k6_imiss_under_dmiss", 3, k6, 0, 0);
}

/* Restoring a snapshot of the core (and with it the set's shared clock
 * and table) and running on gives the same stacks as running straight. */
static void test_snapshot_restore(void **state)
{
	(void)state;
	char *argv[] = { "interp", "4", NULL };
	struct run r;
	struct ivx_err err = { 0 };
	run_open(&r, "data/bin/workloads/interp", 2, argv);
	assert_int_equal(core_run(r.core, 100000, 0, &err), IVX_OK);
	struct core_snapshot *snap = core_snapshot_save(r.core, &err);
	assert_non_null(snap);
	assert_int_equal(core_run(r.core, 250000, 0, &err), IVX_OK);
	struct acct_stack first[ACCT_METHOD_COUNT];
	for (int m = 0; m < ACCT_METHOD_COUNT; m++)
		acct_get_stack(acct_set_unit(r.set, m), &first[m]);
	assert_int_equal(core_snapshot_restore(r.core, snap, &err), IVX_OK);
	struct acct_stack mid;
	acct_get_stack(acct_set_unit(r.set, ACCT_SFMT), &mid);
	assert_int_equal(mid.cycles, 100000);
	assert_int_equal(core_run(r.core, 250000, 0, &err), IVX_OK);
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		struct acct_stack again;
		acct_get_stack(acct_set_unit(r.set, m), &again);
		assert_memory_equal(&again, &first[m], sizeof again);
	}
	assert_same_stacks(&r);
	core_snapshot_free(snap);
	run_close(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interp),
		cmocka_unit_test(test_branchy),
		cmocka_unit_test(test_icache),
		cmocka_unit_test(test_kernels),
		cmocka_unit_test(test_snapshot_restore),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
