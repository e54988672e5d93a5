/*
 * test_core_forgive.c — core_forgive, the what-if behind `ivx cost`: the
 * one event named does not happen, every other one does, and the program
 * computes the same thing.
 *
 * Run from the top of the tree (make unit does); needs data/bin/kernels.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>
#include "core_prog.h"

/* Correct-path begins of one miss kind, and whether `watch` had one. */
struct counter {
	int kind;
	uint64_t begins, watch, watch_hits, nth_seq, n;
	struct core_observer obs;
};

static void on_miss(void *ctx, const struct miss_event *m)
{
	struct counter *k = ctx;
	if (m->phase != MISS_BEGIN || !m->correct_path)
		return;
	if (++k->begins == k->n)
		k->nth_seq = m->insn_seq;
	k->watch_hits += m->insn_seq == k->watch;
}

static void run(const char *path, char **argv, int kind, uint64_t forgive, struct counter *k, char *out,
		size_t n)
{
	struct ivx_err err;
	struct program *prog = program_load_file(path, &err);
	assert_non_null(prog);
	struct crun r;
	assert_int_equal(crun_start(&r, prog, 3, argv, NULL), 0);
	k->obs = (struct core_observer){ .name = "count", .ctx = k, .on_miss = on_miss,
					 .miss_filter = MISS_BIT(kind), .miss_skip_end = MISS_BIT(kind) };
	assert_int_equal(core_add_observer(r.c, &k->obs, &err), 0);
	if (forgive)
		core_forgive(r.c, kind, forgive);
	assert_int_equal(core_run(r.c, 0, 0, &err), IVX_OK);
	assert_true(core_done(r.c));
	snprintf(out, n, "%d %.*s", guest_exit_code(r.g), (int)r.out_len, r.out);
	crun_free(&r);
	program_free(prog);
}

static void forgive_one(const char *path, const char *mode, int kind)
{
	char *argv[] = { "k", (char *)mode, "10" };
	char out1[4200], out2[4200];
	struct counter base = { .kind = kind, .n = 5 };
	run(path, argv, kind, 0, &base, out1, sizeof out1);
	assert_true(base.begins > 5);
	assert_true(base.nth_seq != 0);
	struct counter what_if = { .kind = kind, .watch = base.nth_seq };
	run(path, argv, kind, base.nth_seq, &what_if, out2, sizeof out2);
	assert_int_equal(what_if.watch_hits, 0);
	assert_int_equal(what_if.begins, base.begins - 1);
	assert_string_equal(out1, out2);
}

static void a_forgiven_misprediction_is_predicted_correctly(void **state)
{
	(void)state;
	forgive_one("data/bin/kernels/k2_branch_miss", "miss", MISS_MISPREDICT);
}

static void a_forgiven_long_miss_hits(void **state)
{
	(void)state;
	forgive_one("data/bin/kernels/k3_long_dmiss", "miss", MISS_L2D);
}

static void a_forgiven_icache_miss_hits(void **state)
{
	(void)state;
	forgive_one("data/bin/kernels/k1_icache_miss", "miss", MISS_L1I);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_forgiven_misprediction_is_predicted_correctly),
		cmocka_unit_test(a_forgiven_long_miss_hits),
		cmocka_unit_test(a_forgiven_icache_miss_hits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
