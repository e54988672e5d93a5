/*
 * test_alloc_fail.c — every allocation the engine makes can fail, and each
 * failure ends in an error code and a one-line message: no crash, nothing
 * leaked (make check runs this under ASan's leak checker), and a failed
 * snapshot restore leaves the core as it was.
 *
 * The walk of SQLite's test_malloc.c: make request 1 fail and run the
 * scenario, then request 2, and so on, until a run in which the armed
 * request is never reached; that run must equal the run without any
 * failure. The scenario is what a session does: load a program, create
 * the guest, the core and the CPI accounting set, count commits, run,
 * save a snapshot, run on, restore it and run to the same point again.
 *
 * Run from the top of the tree (make unit does); needs data/bin.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "acct/acct.h"
#include "base/alloc.h"
#include "core/config.h"
#include "core/core.h"
#include "guest/guest.h"
#include "guest/program.h"
#include "isa/disasm.h"

#define PROG "data/bin/kernels/k3_long_dmiss"

struct outcome {
	uint64_t cycles, committed;
	struct acct_stack fmt;          /* the FMT's stack: observers restored too */
	int restore_retried;            /* a restore failed, was retried and matched */
};

static void drop(void *ctx, int fd, const void *buf, size_t len)
{
	(void)ctx, (void)fd, (void)buf, (void)len;
}

/* The scenario. IVX_OK with *out filled, or the first error's status
 * with err filled; everything created is freed either way. */
static int scenario(struct outcome *out, struct ivx_err *err)
{
	char *argv[] = { (char *)"k3_long_dmiss", (char *)"miss", (char *)"100", NULL };
	struct guest_options gopt = { .argc = 3, .argv = argv, .seed = 1, .output = drop };
	struct machine_config cfg;
	config_defaults(&cfg);
	struct program *prog = NULL;
	struct guest *g = NULL;
	struct core *c = NULL;
	struct acct_set *set = NULL;
	struct core_snapshot *sn = NULL;
	int rc = IVX_ESYS;
	memset(out, 0, sizeof *out);

	if (!(prog = program_load_file(PROG, err)) || !(g = guest_new(prog, &gopt, err)) ||
	    !(c = core_new(&cfg, g, err)) || !(set = acct_set_new(&cfg, err)))
		goto done;
	if ((rc = core_add_observer(c, acct_set_observer(set), err)) < 0 ||
	    (rc = core_count_commits(c, err)) < 0 || (rc = core_run(c, 2000, 0, err)) < 0)
		goto done;
	if (!(sn = core_snapshot_save(c, err))) {
		rc = err->code;
		goto done;
	}
	if ((rc = core_run(c, 4000, 0, err)) < 0)
		goto done;
	uint64_t before = core_cycles(c);
	if ((rc = core_snapshot_restore(c, sn, err)) < 0) {
		/* nothing changed: the core is where it was, and restoring
		 * again without the failure works */
		struct ivx_err again = { 0 };
		assert_int_equal(core_cycles(c), before);
		ivx_alloc_fail_at(0);
		assert_int_equal(core_snapshot_restore(c, sn, &again), IVX_OK);
		out->restore_retried = 1;
	} else {
		assert_int_equal(core_cycles(c), 2000);
	}
	if (out->restore_retried) {
		struct ivx_err e2 = { 0 };
		assert_int_equal(core_run(c, 4000, 0, &e2), IVX_OK);
		rc = IVX_OK;
	} else if ((rc = core_run(c, 4000, 0, err)) < 0) {
		goto done;
	}
	out->cycles = core_cycles(c);
	out->committed = core_committed(c);
	acct_get_stack(acct_set_unit(set, ACCT_FMT), &out->fmt);
done:
	core_snapshot_free(sn);
	core_free(c);
	acct_set_free(set);
	guest_free(g);
	program_free(prog);
	return rc;
}

static void every_allocation_failure_is_clean(void **state)
{
	(void)state;
	struct outcome ref, o;
	struct ivx_err err = { 0 };
	ivx_alloc_fail_at(0);
	int rc = scenario(&ref, &err);
	if (rc < 0)
		fail_msg("%s", err.msg);
	uint64_t requests = ivx_alloc_count();
	assert_true(requests > 10);
	assert_int_equal(ref.cycles, 4000);

	uint64_t n, failed_runs = 0, retried = 0;
	for (n = 1;; n++) {
		memset(&err, 0, sizeof err);
		ivx_alloc_fail_at(n);
		rc = scenario(&o, &err);
		int failed = ivx_alloc_failed();
		ivx_alloc_fail_at(0);
		if (o.restore_retried) {
			/* the retried restore ran on to the same end */
			assert_int_equal(rc, IVX_OK);
			assert_int_equal(o.cycles, ref.cycles);
			assert_memory_equal(&o.fmt, &ref.fmt, sizeof o.fmt);
			retried++;
			continue;
		}
		if (!failed) {
			/* past the last request: the plain run again */
			assert_int_equal(rc, IVX_OK);
			assert_int_equal(o.cycles, ref.cycles);
			assert_int_equal(o.committed, ref.committed);
			assert_memory_equal(&o.fmt, &ref.fmt, sizeof o.fmt);
			break;
		}
		if (rc != IVX_ESYS)
			fail_msg("request %llu failed but the scenario returned %d (%s)",
				 (unsigned long long)n, rc, err.msg);
		if (!err.msg[0] || strchr(err.msg, '\n'))
			fail_msg("request %llu: no one-line message", (unsigned long long)n);
		failed_runs++;
	}
	assert_int_equal(n, requests + 1);
	assert_true(retried > 0);
	print_message("  %llu allocation requests; each failure reported (%llu runs, %llu restores retried)\n",
		      (unsigned long long)requests, (unsigned long long)failed_runs, (unsigned long long)retried);
}

/* The hook itself: only the armed request fails, counting restarts. */
static void only_the_armed_request_fails(void **state)
{
	(void)state;
	ivx_alloc_fail_at(3);
	void *a = ivx_malloc(8), *b = ivx_calloc(1, 8);
	char *s = ivx_strdup("x");
	void *d = ivx_malloc(8);
	assert_non_null(a);
	assert_non_null(b);
	assert_null(s);
	assert_true(ivx_alloc_failed());
	assert_non_null(d);
	assert_int_equal(ivx_alloc_count(), 4);
	ivx_free(a), ivx_free(b), ivx_free(d);
	ivx_alloc_fail_at(0);
	assert_false(ivx_alloc_failed());
	assert_int_equal(ivx_alloc_count(), 0);
	ivx_free(NULL);
}

/* Capstone allocates through the engine's allocator: a failed open falls
 * back to ".inst", and the next call opens the handle after all. */
static void capstone_allocates_through_the_engine(void **state)
{
	(void)state;
	char buf[64];
	ivx_alloc_fail_at(1);
	assert_string_equal(disasm_word(0xd503201f, 0x400000, buf, sizeof buf), ".inst 0xd503201f");
	assert_true(ivx_alloc_failed());
	ivx_alloc_fail_at(0);
	assert_string_equal(disasm_word(0xd503201f, 0x400000, buf, sizeof buf), "nop");
	assert_true(ivx_alloc_count() > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(only_the_armed_request_fails),
		cmocka_unit_test(capstone_allocates_through_the_engine),
		cmocka_unit_test(every_allocation_failure_is_clean),
	};
	return cmocka_run_group_tests_name("alloc_fail", tests, NULL, NULL);
}
