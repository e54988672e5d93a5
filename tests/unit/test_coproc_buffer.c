/*
 * test_coproc_buffer.c — a program sizes the sample buffer it needs
 * (`.param buffer_entries`, value_topk.s asks for 128 records; branch
 * lvp8, docs/coproc.md):
 *   - the co-processor is built with at least that many records, and a
 *     larger setting is kept;
 *   - on a run whose tagged loads retire in bursts (muldiv), the larger
 *     buffer holds them: it fills beyond 32 records and drops fewer (the
 *     governor, which thins the tagging when records are dropped, then
 *     thins less).
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

/* value_topk.s with its `.param buffer_entries` line replaced by `line`
 * (NULL: left out), and, with `one_in_8`, a new value taking a full slot's
 * way 1 in 8 times as before branch evict: at 1 in 2 muldiv's routines
 * are longer, its records too many for the co-processor rather than
 * bursty (368 drops with 128 records against 432 with 32, seed 1). */
static void assemble_topk_buffer(const char *line, int one_in_8, struct coproc_prog *p)
{
	const char *const over[] = { line ? line : "-.param buffer_entries", one_in_8 ? ".const c6 7" : NULL, NULL };
	coproc_test_assemble_with("data/coproc/value_topk.s", over, p);
}

static void the_program_sizes_the_buffer(void **state)
{
	(void)state;
	static struct coproc_prog p, q;
	coproc_test_assemble_file("data/coproc/value_topk.s", &p);
	assemble_topk_buffer(".param buffer_entries 16", 0, &q);
	struct ivx_err err;
	struct coproc_config cc, big;
	coproc_config_defaults(&cc);
	coproc_config_defaults(&big);
	assert_int_equal(coproc_config_set(&big, "buffer=256", &err), 0);
	struct program *prg = coproc_test_load("data/bin/workloads/muldiv");
	struct crun r;
	char *argv[] = { "muldiv", "1" };
	assert_int_equal(crun_start(&r, prg, 2, argv, NULL), 0);
	struct coproc *a = coproc_new(&cc, &p, r.c, &err), *b = coproc_new(&cc, &q, r.c, &err),
		      *c = coproc_new(&big, &p, r.c, &err);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	assert_int_equal(coproc_cfg(a)->buffer, 128);
	assert_int_equal(coproc_cfg(b)->buffer, cc.buffer);   /* the larger setting is kept */
	assert_int_equal(coproc_cfg(c)->buffer, 256);
	coproc_free(a);
	coproc_free(b);
	coproc_free(c);
	crun_free(&r);
	program_free(prg);
}

struct result {
	uint64_t drops, buffer_max;
};

static void run(struct program *prg, char **argv, const struct coproc_prog *p, uint64_t seed, struct result *out)
{
	struct coproc_config cc;
	coproc_test_config(&cc, seed);
	struct coproc_test_run x;
	coproc_test_run(&x, prg, 2, argv, &cc, p);
	struct coproc_stats st;
	coproc_get_stats(x.cp, &st);
	out->drops = st.drops;
	out->buffer_max = st.buffer_max;
	coproc_test_run_free(&x);
}

static void a_larger_buffer_holds_bursts(void **state)
{
	(void)state;
	static struct coproc_prog p, q;
	assemble_topk_buffer(".param buffer_entries 128", 1, &p);
	assemble_topk_buffer(NULL, 1, &q);   /* the default 32 records */
	struct program *prg = coproc_test_load("data/bin/workloads/muldiv");
	char *argv[] = { "muldiv", "1" };
	uint64_t drops_large = 0, drops_small = 0;
	for (uint64_t seed = 1; seed <= 8; seed++) {
		struct result a, b;
		run(prg, argv, &p, seed, &a);
		run(prg, argv, &q, seed, &b);
		assert_true(b.buffer_max == 32 && b.drops > 0);
		assert_true(a.buffer_max > 32);
		assert_true(a.drops < b.drops);
		drops_large += a.drops;
		drops_small += b.drops;
	}
	/* 1648 against 2269 over seeds 1-8 (one seed alone: 180-254 against
	 * 260-317, at seed 1 254 against 282) */
	assert_true(drops_large * 4 < drops_small * 3);
	program_free(prg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_program_sizes_the_buffer),
		cmocka_unit_test(a_larger_buffer_holds_bursts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
