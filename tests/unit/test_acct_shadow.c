/*
 * test_acct_shadow.c — the ivx counters' base-machine shadow
 * (engine/acct/acct_shadow.c): run on the base machine itself, the cycles
 * it works out for the instructions it measured are that machine's; on
 * the real machine, the ivx stack's base and long-latency unit are the
 * shadow's base and the miss components share the rest; it samples a
 * window of every period; a snapshot restores it exactly.
 *
 * Run from the top of the tree (make unit does); needs data/bin/workloads.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "acct/acct.h"
#include "acct/refstack.h"
#include "acct/acct_shadow.h"
#include "core/config.h"
#include "core/core.h"
#include "guest/guest.h"
#include "guest/program.h"

#define PERIOD SHADOW_PERIOD
#define MEASURED (SHADOW_WINDOW - SHADOW_WARMUP)
#define MAX_INSNS 400000

/* the cycle each instruction committed in, by its number */
struct commits {
	struct core_observer obs;
	uint64_t cycle[MAX_INSNS + 64];
	uint64_t n;
};

static void on_insn(void *ctx, const struct insn_event *e)
{
	struct commits *k = ctx;
	if (k->n < MAX_INSNS + 64)
		k->cycle[k->n++] = e->cycle;
}

static void drop(void *ctx, int fd, const void *buf, size_t len)
{
	(void)ctx, (void)fd, (void)buf, (void)len;
}

/* Run workload `name` (default arguments) for `insns` instructions as
 * machine `run` of the reference sequence, with the ivx counters; `big`:
 * on an 8-wide core with a 256-entry ROB instead of the default one. */
static struct acct *run_ivx(const char *name, int run, int inorder, int big, uint64_t insns,
			    struct refstack_job *job, struct commits *k)
{
	struct ivx_err err = { 0 };
	char path[256];
	snprintf(path, sizeof path, "data/bin/workloads/%s", name);
	struct program *prog = program_load_file(path, &err);
	if (!prog)
		fail_msg("%s: %s (make data builds it)", name, err.msg);
	struct machine_config cfg;
	config_defaults(&cfg);
	cfg.inorder = inorder;
	if (big) {
		cfg.fetch_width = 16;
		cfg.decode_width = cfg.issue_width = cfg.commit_width = 8;
		cfg.rob_size = cfg.iq_size = 256;
		cfg.lsq_size = 128;
	}
	static char *argv[] = { (char *)"w", NULL };
	memset(job, 0, sizeof *job);
	job->prog = prog;
	job->gopt = (struct guest_options){ .argc = 1, .argv = argv, .seed = 1, .output = drop };
	refstack_config(&cfg, run, 0, &job->cfg);
	job->max_insns = insns;
	struct acct *a = acct_new(ACCT_IVX, &job->cfg, &err);
	assert_non_null(a);
	job->obs[job->n_obs++] = acct_observer(a);
	if (k) {
		k->obs = (struct core_observer){ .name = "commits", .ctx = k, .on_insn = on_insn,
						 .insn_stages = INSN_STAGE_BIT(INSN_COMMIT) };
		job->obs[job->n_obs++] = &k->obs;
	}
	assert_int_equal(refstack_run_jobs(job, 1, 1, &err), IVX_OK);
	program_free(prog);
	return a;
}

/* On the base machine (every cache, TLB and the predictor perfect), the
 * shadow's cycles for the instructions it measured are the machine's for
 * the same instructions, within 2% (it replays the same machine's rules;
 * each window starts from an empty pipeline, the machine did not). The
 * workloads stress its parts: stores forwarded to loads (-O0 code), the
 * unpipelined divider, the memory ports, a dependence-bound interpreter,
 * and the in-order core; and the divider on a core whose ROB holds more
 * divides than the shadow keeps busy intervals for (SHADOW_SLOW: a
 * forgotten interval once let the shadow run two divides at once there,
 * and its base was a third short). */
static void test_shadow_is_the_base_machine(void **state)
{
	(void)state;
	const struct { const char *name; int inorder, big; } w[] = {
		{ "crc.O0", 0, 0 }, { "muldiv", 0, 0 }, { "matmul.O0", 0, 0 }, { "interp.O1", 0, 0 }, { "sieve", 0, 0 },
		{ "qsort", 1, 0 }, { "crc", 1, 0 }, { "muldiv", 0, 1 },
	};
	static struct commits k;
	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
		struct refstack_job job;
		k.n = 0;
		struct acct *a = run_ivx(w[i].name, REF_BASE, w[i].inorder, w[i].big, MAX_INSNS, &job, &k);
		uint64_t n, cyc, machine = 0, measured = 0;
		acct_ivx_shadow(a, &n, &cyc);
		for (uint64_t p = 0;; p++) {
			uint64_t from = shadow_window(p) + SHADOW_WARMUP - 1, to = shadow_window(p) + SHADOW_WINDOW - 1;
			if (to >= k.n)
				break;
			machine += k.cycle[to] - k.cycle[from];
			measured += MEASURED;
		}
		const char *core = w[i].inorder ? "in order" : w[i].big ? "out of order, 256-entry ROB" : "out of order";
		printf("  %-10s %s: %llu instructions measured, base machine %llu cycles, shadow %llu\n", w[i].name,
		       core, (unsigned long long)n, (unsigned long long)machine, (unsigned long long)cyc);
		assert_int_equal(n, measured);
		assert_true(n >= 10 * MEASURED);
		assert_true(cyc > machine * 0.98 && cyc < machine * 1.02);
		acct_free(a);
	}
}

/* On the real machine: base + long-latency unit is the shadow's base for
 * the run's instructions, and the other components share the rest. */
static void test_stack_takes_the_shadows_base(void **state)
{
	(void)state;
	struct refstack_job job;
	struct acct *a = run_ivx("interp.O1", REF_REAL, 0, 0, 300000, &job, NULL);
	uint64_t n, cyc;
	acct_ivx_shadow(a, &n, &cyc);
	assert_true(n > 0);
	struct acct_stack st;
	acct_get_stack(a, &st);
	double want = (double)cyc / (double)n * (double)st.insns;
	double got = (double)st.base + (double)st.comp[ACCT_FU];
	assert_true(got > want - 8 && got < want + 8);        /* rounding of the 8 components */
	uint64_t miss = 0;
	for (int k = 0; k < ACCT_COMP_COUNT; k++)
		miss += k == ACCT_FU ? 0 : st.comp[k];
	assert_true(miss > 0);
	assert_int_equal((int64_t)miss + st.base + (int64_t)st.comp[ACCT_FU], (int64_t)st.cycles);
	acct_free(a);
}

/* One window of every period: after N instructions, a whole number of
 * windows measured, one for each period that ended (and perhaps the one
 * in progress). */
static void test_one_window_a_period(void **state)
{
	(void)state;
	struct refstack_job job;
	struct acct *a = run_ivx("crc", REF_REAL, 0, 0, 10 * PERIOD, &job, NULL);
	uint64_t n, cyc;
	acct_ivx_shadow(a, &n, &cyc);
	assert_int_equal(n % MEASURED, 0);
	assert_true(n >= 9 * MEASURED && n <= 10 * MEASURED);
	assert_true(cyc > 0);
	acct_free(a);
}

/* A snapshot taken in the middle of a window, restored: the same stack
 * and the same shadow after the same run on. */
static void test_snapshot_restores_the_shadow(void **state)
{
	(void)state;
	struct ivx_err err = { 0 };
	struct program *prog = program_load_file("data/bin/workloads/interp.O1", &err);
	assert_non_null(prog);
	static char *argv[] = { (char *)"w", NULL };
	struct guest_options gopt = { .argc = 1, .argv = argv, .seed = 1, .output = drop };
	struct guest *g = guest_new(prog, &gopt, &err);
	assert_non_null(g);
	struct machine_config cfg;
	config_defaults(&cfg);
	struct core *c = core_new(&cfg, g, &err);
	assert_non_null(c);
	struct acct_set *set = acct_set_new(&cfg, &err);
	assert_non_null(set);
	assert_int_equal(core_add_observer(c, acct_set_observer(set), &err), IVX_OK);
	const struct acct *ivx = acct_set_unit(set, ACCT_IVX);
	/* save points 1500 instructions apart over a period and more: one
	 * of them falls in each 2048-instruction window, and a window that
	 * ends within the next 1500 proves it */
	int inside = 0;
	assert_true(core_run(c, 0, 2 * PERIOD, &err) >= 0);
	for (int k = 0; k < 25; k++) {
		struct acct_stack first, again;
		uint64_t n0, c0, n1, c1, n2, c2, to = core_committed(c) + 1500;
		acct_ivx_shadow(ivx, &n0, &c0);
		struct core_snapshot *sn = core_snapshot_save(c, &err);
		assert_non_null(sn);
		assert_true(core_run(c, 0, to, &err) >= 0);
		acct_get_stack(ivx, &first);
		acct_ivx_shadow(ivx, &n1, &c1);
		assert_int_equal(core_snapshot_restore(c, sn, &err), IVX_OK);
		assert_true(core_run(c, 0, to, &err) >= 0);
		acct_get_stack(ivx, &again);
		acct_ivx_shadow(ivx, &n2, &c2);
		assert_int_equal(n1, n2);
		assert_int_equal(c1, c2);
		assert_memory_equal(&first, &again, sizeof first);
		inside += n1 != n0;
		core_snapshot_free(sn);
	}
	assert_true(inside > 0);
	acct_set_free(set);
	core_free(c);
	guest_free(g);
	program_free(prog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shadow_is_the_base_machine),
		cmocka_unit_test(test_stack_takes_the_shadows_base),
		cmocka_unit_test(test_one_window_a_period),
		cmocka_unit_test(test_snapshot_restores_the_shadow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
