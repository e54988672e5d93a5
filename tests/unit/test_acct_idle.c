/*
 * test_acct_idle.c — runs of idle cycles handed over in one call
 * (core_observer.on_idle_cycles) count exactly as cycle by cycle.
 *
 * The same program runs on three cores, each with an accounting set of
 * the six units and an ACCT_SET_ALL_PATHS set:
 *   batched   core_run, and an extra observer that takes runs too and
 *             counts how many cycles came in runs (so the test knows
 *             the batching happened);
 *   stepped   core_cycle one cycle at a time (a held-back cycle is handed
 *             over before core_cycle returns: runs of one);
 *   plain     core_run with an observer that has no on_idle_cycles, so
 *             the core publishes every cycle.
 * All stacks and FMT tables must be equal, also after the batched core
 * restores a snapshot taken in the middle of a run.
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

enum { BATCHED, STEPPED, PLAIN, N_CORES };

/* Counts how cycles arrive and checks the promise of on_idle_cycles: a
 * run continues the numbering, repeats the last record on_cycle gave and
 * follows it with no miss event in between. */
struct counter {
	uint64_t single, in_runs, runs;
	uint64_t next_cycle;
	int event_since;
	struct cycle_record last;
};

static void same_but_cycle(const struct cycle_record *a, const struct cycle_record *b)
{
	assert_int_equal(a->idle, 1);
	assert_int_equal(a->fetch_stall, b->fetch_stall);
	assert_int_equal(a->head_wait, b->head_wait);
	assert_int_equal(a->rob_full, b->rob_full);
	assert_int_equal(a->rob_full_wrong_path, b->rob_full_wrong_path);
	assert_int_equal(a->long_misses_outstanding, b->long_misses_outstanding);
	assert_int_equal(a->units_busy, b->units_busy);
	assert_int_equal(a->rob_occupancy, b->rob_occupancy);
	assert_int_equal(a->frontend_occupancy, b->frontend_occupancy);
	assert_int_equal(a->head_seq, b->head_seq);
	assert_int_equal(a->dispatch_seq, b->dispatch_seq);
	assert_int_equal(a->commit_seq, b->commit_seq);
	assert_int_equal(b->fetched | b->dispatched | b->issued | b->committed | b->squashed, 0);
}

static void count_cycle(void *ctx, const struct cycle_record *r)
{
	struct counter *k = ctx;
	assert_int_equal(r->cycle, k->next_cycle);
	k->next_cycle = r->cycle + 1;
	k->single++;
	k->event_since = 0;
	memcpy(&k->last, r, CYCLE_RECORD_FIXED);
}

static void count_run(void *ctx, const struct cycle_record *r, uint64_t n)
{
	struct counter *k = ctx;
	assert_true(n > 0);
	assert_int_equal(r->cycle, k->next_cycle);
	assert_false(k->event_since);
	same_but_cycle(&k->last, r);
	k->next_cycle = r->cycle + n;
	k->in_runs += n;
	k->runs++;
}

static void count_miss(void *ctx, const struct miss_event *e)
{
	struct counter *k = ctx;
	(void)e;
	k->event_since = 1;
}

static void drop(void *ctx, int fd, const void *buf, size_t len)
{
	(void)ctx, (void)fd, (void)buf, (void)len;
}

struct sim {
	struct guest *g;
	struct core *core;
	struct acct_set *set, *all;
	struct counter count;
	struct core_observer counter;
};

static void sim_open(struct sim *s, const struct program *prog, int kind, int argc, char **argv)
{
	struct ivx_err err = { 0 };
	memset(s, 0, sizeof *s);
	struct guest_options gopt = { .argc = argc, .argv = argv, .seed = 1, .output = drop };
	s->g = guest_new(prog, &gopt, &err);
	assert_non_null(s->g);
	struct machine_config cfg;
	config_defaults(&cfg);
	s->core = core_new(&cfg, s->g, &err);
	assert_non_null(s->core);
	s->set = acct_set_new_units(&cfg, &err);
	s->all = acct_set_new_opts(&cfg, ACCT_SET_ALL_PATHS, &err);
	assert_non_null(s->set);
	assert_non_null(s->all);
	assert_int_equal(core_add_observer(s->core, acct_set_observer(s->set), &err), IVX_OK);
	assert_int_equal(core_add_observer(s->core, acct_set_observer(s->all), &err), IVX_OK);
	s->counter = (struct core_observer){
		.name = "counter", .ctx = &s->count, .on_cycle = count_cycle, .on_miss = count_miss,
		.on_idle_cycles = kind == PLAIN ? NULL : count_run,
	};
	assert_int_equal(core_add_observer(s->core, &s->counter, &err), IVX_OK);
}

static void sim_close(struct sim *s)
{
	acct_set_free(s->set);
	acct_set_free(s->all);
	core_free(s->core);
	guest_free(s->g);
}

static void sim_run(struct sim *s, int kind, uint64_t to_cycle)
{
	struct ivx_err err = { 0 };
	if (kind == STEPPED) {
		while (core_cycles(s->core) < to_cycle && !core_done(s->core))
			assert_int_equal(core_cycle(s->core, &err), IVX_OK);
	} else {
		assert_int_equal(core_run(s->core, to_cycle, 0, &err), IVX_OK);
	}
}

static void assert_same_accounting(struct sim *a, struct sim *b)
{
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		const struct acct_set *sets[2][2] = { { a->set, a->all }, { b->set, b->all } };
		for (int k = 0; k < 2; k++) {
			struct acct_stack x, y;
			acct_get_stack(acct_set_unit(sets[0][k], m), &x);
			acct_get_stack(acct_set_unit(sets[1][k], m), &y);
			assert_memory_equal(&x, &y, sizeof x);
		}
	}
	const struct acct *fa = acct_set_unit(a->all, ACCT_FMT), *fb = acct_set_unit(b->all, ACCT_FMT);
	struct acct_fmt_state sa, sb;
	assert_int_equal(acct_fmt_state(fa, &sa), 0);
	assert_int_equal(acct_fmt_state(fb, &sb), 0);
	assert_memory_equal(&sa, &sb, sizeof sa);
	for (int i = 0; i < sa.rows; i++) {
		struct acct_fmt_row ra, rb;
		assert_int_equal(acct_fmt_row(fa, i, &ra), 0);
		assert_int_equal(acct_fmt_row(fb, i, &rb), 0);
		assert_memory_equal(&ra, &rb, sizeof ra);
	}
}

/* Run `path` to `cycles` three ways; compare at a third, two thirds and
 * the end. The batched core also goes back to the first third once. */
static void same_counts(const char *path, int argc, char **argv, uint64_t cycles)
{
	struct ivx_err err = { 0 };
	struct program *prog = program_load_file(path, &err);
	if (!prog)
		fail_msg("%s: %s (make data builds it; the test does not pass without it)", path, err.msg);
	struct sim sim[N_CORES];
	for (int k = 0; k < N_CORES; k++)
		sim_open(&sim[k], prog, k, argc, argv);
	struct core_snapshot *snap = NULL;
	for (int part = 1; part <= 3; part++) {
		for (int k = 0; k < N_CORES; k++)
			sim_run(&sim[k], k, cycles * part / 3);
		assert_same_accounting(&sim[BATCHED], &sim[PLAIN]);
		assert_same_accounting(&sim[STEPPED], &sim[PLAIN]);
		if (part == 1) {
			snap = core_snapshot_save(sim[BATCHED].core, &err);
			assert_non_null(snap);
		}
	}
	/* every cycle reached each observer once, one way or the other */
	for (int k = 0; k < N_CORES; k++)
		assert_int_equal(sim[k].count.single + sim[k].count.in_runs, core_cycles(sim[k].core));
	assert_int_equal(sim[PLAIN].count.in_runs, 0);
	/* the runs really happened: most of these programs' cycles are idle */
	assert_true(sim[BATCHED].count.in_runs > core_cycles(sim[BATCHED].core) / 4);
	assert_true(sim[BATCHED].count.runs < sim[BATCHED].count.in_runs / 4);
	assert_true(sim[STEPPED].count.in_runs > 0);

	assert_int_equal(core_snapshot_restore(sim[BATCHED].core, snap, &err), IVX_OK);
	sim[BATCHED].count.next_cycle = core_cycles(sim[BATCHED].core);   /* it has no snapshot state */
	sim_run(&sim[BATCHED], BATCHED, cycles);
	assert_same_accounting(&sim[BATCHED], &sim[PLAIN]);
	core_snapshot_free(snap);
	for (int k = 0; k < N_CORES; k++)
		sim_close(&sim[k]);
	program_free(prog);
}

static void test_ptrchase(void **state)
{
	(void)state;
	char *argv[] = { "ptrchase", "32" };
	same_counts("data/bin/workloads/ptrchase", 2, argv, 300000);
}

static void test_muldiv(void **state)
{
	(void)state;
	char *argv[] = { "muldiv", "160" };
	same_counts("data/bin/workloads/muldiv", 2, argv, 300000);
}

static void test_stream(void **state)
{
	(void)state;
	char *argv[] = { "stream", "32" };
	same_counts("data/bin/workloads/stream", 2, argv, 300000);
}

static void test_long_miss_kernel(void **state)
{
	(void)state;
	char *argv[] = { "k5_dependent_dmiss", "miss", "20" };
	same_counts("data/bin/kernels/k5_dependent_dmiss", 3, argv, 200000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ptrchase),
		cmocka_unit_test(test_muldiv),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_long_miss_kernel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
