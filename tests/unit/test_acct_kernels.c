/*
 * test_acct_kernels.c — end to end: the micro-kernels of data/kernels run
 * on the core with the six accounting units attached, next to the 13
 * reference simulations, and each kernel's event must show up where
 * interval analysis says (the paper's §3) — in the FMT, close to the
 * reference, and in the baselines with their known failure modes.
 *
 * Run from the top of the tree (make unit does); needs data/bin/kernels and fails
 * without it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "acct/acct.h"
#include "core/config.h"
#include "guest/guest.h"
#include "guest/program.h"
#include "acct/refstack.h"

struct result {
	struct refstack_stack ref, inv;
	struct refstack_stack m[ACCT_METHOD_COUNT];  /* counter stacks, CPI */
	struct acct_overlap_stats ov;
	uint64_t insns, cycles;
	uint64_t naive_events[ACCT_COMP_COUNT];
};

static void drop(void *ctx, int fd, const void *buf, size_t len)
{
	(void)ctx, (void)fd, (void)buf, (void)len;
}

static void to_cpi(const struct acct_stack *a, struct refstack_stack *o)
{
	o->cpi = (double)a->cycles / (double)a->insns;
	o->base = (double)a->base / (double)a->insns;
	for (int k = 0; k < ACCT_COMP_COUNT; k++)
		o->comp[k] = (double)a->comp[k] / (double)a->insns;
}

/* Run kernel NAME in MODE (100 repetitions, its default). 0, or -1 when the
 * kernel is not built. */
static void run_kernel(const char *name, const char *mode, struct result *out)
{
	char path[256];
	snprintf(path, sizeof path, "data/bin/kernels/%s", name);
	struct ivx_err err = { 0 };
	struct program *prog = program_load_file(path, &err);
	if (!prog)
		fail_msg("%s: %s (make data builds it; the test does not pass without it)", name, err.msg);
	char *argv[] = { (char *)name, (char *)mode, (char *)"100", NULL };
	struct machine_config cfg;
	config_defaults(&cfg);
	struct acct_set *set = acct_set_new(&cfg, &err);
	assert_non_null(set);
	struct refstack_job jobs[REF_RUN_COUNT];
	memset(jobs, 0, sizeof jobs);
	for (int r = 0; r < REF_RUN_COUNT; r++) {
		jobs[r].prog = prog;
		jobs[r].gopt = (struct guest_options){ .argc = 3, .argv = argv, .seed = 1, .output = drop };
		refstack_config(&cfg, r, 1, &jobs[r].cfg);
	}
	jobs[REF_REAL].obs[jobs[REF_REAL].n_obs++] = acct_set_observer(set);
	assert_int_equal(refstack_run_jobs(jobs, REF_RUN_COUNT, 2, &err), IVX_OK);
	uint64_t cycles[REF_RUN_COUNT], insns[REF_RUN_COUNT];
	for (int r = 0; r < REF_RUN_COUNT; r++) {
		assert_true(jobs[r].exited);
		cycles[r] = jobs[r].cycles;
		insns[r] = jobs[r].insns;
	}
	refstack_combine(cycles, insns, &out->ref, &out->inv);
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		struct acct_stack s;
		acct_get_stack(acct_set_unit(set, m), &s);
		assert_int_equal(s.cycles, jobs[REF_REAL].cycles);
		assert_int_equal(s.insns, jobs[REF_REAL].insns);
		to_cpi(&s, &out->m[m]);
	}
	acct_event_counts(acct_set_unit(set, ACCT_NAIVE), out->naive_events);
	acct_overlap_get(acct_set_overlap(set), &out->ov);
	out->insns = jobs[REF_REAL].insns;
	out->cycles = jobs[REF_REAL].cycles;
	acct_set_free(set);
	program_free(prog);
}

static double row(const struct refstack_stack *s, int r)
{
	return r == 0 ? s->base : s->comp[r - 1];
}

/* max over base and components of |s - ref| / ref CPI */
static double max_error(const struct refstack_stack *s, const struct refstack_stack *ref)
{
	double m = 0.0;
	for (int r = 0; r <= ACCT_COMP_COUNT; r++)
		m = fmax(m, fabs(row(s, r) - row(ref, r)) / ref->cpi);
	return m;
}

static double iside(const struct refstack_stack *s)
{
	return s->comp[ACCT_L1I] + s->comp[ACCT_L2I] + s->comp[ACCT_ITLB];
}

/* Cycles per correct-path event of component k. */
static double per_event(const struct result *r, const struct refstack_stack *s, int k)
{
	return s->comp[k] * (double)r->insns / (double)r->ov.events[k];
}

/* Every kernel, every mode: the FMT within the paper's accuracy, the sFMT
 * close to it, and all stacks adding up to the measured CPI. */
static void check_common(const char *what, const struct result *r)
{
	double ef = max_error(&r->m[ACCT_FMT], &r->ref);
	double es = max_error(&r->m[ACCT_SFMT], &r->ref);
	print_message("%-32s CPI %.4f  FMT error %.2f%%  sFMT %.2f%%\n", what, r->ref.cpi, 100 * ef, 100 * es);
	assert_true(ef <= 0.03);
	assert_true(fabs(es - ef) <= 0.01);
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		double sum = r->m[m].base;
		for (int k = 0; k < ACCT_COMP_COUNT; k++)
			sum += r->m[m].comp[k];
		assert_true(fabs(sum - r->ref.cpi) < 1e-9);
	}
}

/* L1 I-cache misses, two per repetition: each costs about the miss delay
 * (the L2 latency); POWER5 only sees the cycles after the ROB drained. */
static void test_k1_icache_miss(void **state)
{
	(void)state;
	struct result r;
	run_kernel("k1_icache_miss", "miss", &r);
	check_common("k1_icache_miss miss", &r);
	struct machine_config cfg;
	config_defaults(&cfg);
	assert_true(r.ov.events[ACCT_L1I] >= 200);
	double ref = per_event(&r, &r.ref, ACCT_L1I), fmt = per_event(&r, &r.m[ACCT_FMT], ACCT_L1I);
	double p5 = per_event(&r, &r.m[ACCT_POWER5], ACCT_L1I);
	print_message("  cycles per L1 I-miss: ref %.2f FMT %.2f POWER5 %.2f\n", ref, fmt, p5);
	assert_true(fabs(fmt - cfg.l2.latency) <= 1.0);
	assert_true(fabs(fmt - ref) <= 0.25 * ref);
	assert_true(p5 < fmt && p5 < ref);
	assert_true(fabs(iside(&r.m[ACCT_FMT]) - iside(&r.ref)) <= 0.1 * iside(&r.ref));
}

/* Isolated mispredictions: penalty = resolution time + frontend refill,
 * more than the frontend length the naive method assumes, and more than
 * the empty-ROB cycles POWER5 counts. */
static void test_k2_branch_miss(void **state)
{
	(void)state;
	struct result r;
	run_kernel("k2_branch_miss", "miss", &r);
	check_common("k2_branch_miss miss", &r);
	struct machine_config cfg;
	config_defaults(&cfg);
	double ref = per_event(&r, &r.ref, ACCT_BPRED), fmt = per_event(&r, &r.m[ACCT_FMT], ACCT_BPRED);
	print_message("  cycles per misprediction: ref %.2f FMT %.2f naive %.2f POWER5 %.2f\n", ref, fmt,
		      per_event(&r, &r.m[ACCT_NAIVE], ACCT_BPRED), per_event(&r, &r.m[ACCT_POWER5], ACCT_BPRED));
	assert_true(ref > cfg.frontend_depth);
	assert_true(fabs(fmt - ref) <= 2.0);
	assert_true(per_event(&r, &r.m[ACCT_POWER5], ACCT_BPRED) < ref);
	assert_true(r.naive_events[ACCT_BPRED] > 0);
	assert_true(r.m[ACCT_NAIVE].comp[ACCT_BPRED] < r.ref.comp[ACCT_BPRED]);
}

/* One isolated long miss per repetition: the penalty is the ROB-full time. */
static void test_k3_long_dmiss(void **state)
{
	(void)state;
	struct result r;
	run_kernel("k3_long_dmiss", "miss", &r);
	check_common("k3_long_dmiss miss", &r);
	assert_true(r.ov.events[ACCT_L2D] >= 100);
	assert_true(fabs(r.m[ACCT_FMT].comp[ACCT_L2D] - r.ref.comp[ACCT_L2D]) <= 0.05 * r.ref.comp[ACCT_L2D]);
}

/* Two independent long misses per repetition overlap: they cost about one
 * miss. Naive charges both, and its base CPI goes negative. */
static void test_k4_overlapping_dmiss(void **state)
{
	(void)state;
	struct result miss, single;
	run_kernel("k4_overlapping_dmiss", "miss", &miss);
	run_kernel("k4_overlapping_dmiss", "single", &single);
	check_common("k4_overlapping_dmiss miss", &miss);
	check_common("k4_overlapping_dmiss single", &single);
	/* one more miss per repetition than "single" */
	assert_true(miss.ov.events[ACCT_L2D] >= single.ov.events[ACCT_L2D] + 95);
	/* the second miss adds little */
	assert_true(miss.ref.comp[ACCT_L2D] < 1.25 * single.ref.comp[ACCT_L2D]);
	assert_true(fabs(miss.m[ACCT_FMT].comp[ACCT_L2D] - miss.ref.comp[ACCT_L2D]) <= 0.1 * miss.ref.comp[ACCT_L2D]);
	assert_true(miss.m[ACCT_NAIVE].comp[ACCT_L2D] > 1.6 * miss.ref.comp[ACCT_L2D]);
	assert_true(miss.m[ACCT_NAIVE].base < 0);
}

/* Two dependent long misses cannot overlap: about twice one miss. */
static void test_k5_dependent_dmiss(void **state)
{
	(void)state;
	struct result miss, single;
	run_kernel("k5_dependent_dmiss", "miss", &miss);
	run_kernel("k5_dependent_dmiss", "single", &single);
	check_common("k5_dependent_dmiss miss", &miss);
	check_common("k5_dependent_dmiss single", &single);
	assert_true(miss.ref.comp[ACCT_L2D] > 1.6 * single.ref.comp[ACCT_L2D]);
	assert_true(miss.m[ACCT_FMT].comp[ACCT_L2D] > 1.6 * single.m[ACCT_FMT].comp[ACCT_L2D]);
	assert_true(fabs(miss.m[ACCT_FMT].comp[ACCT_L2D] - miss.ref.comp[ACCT_L2D]) <= 0.1 * miss.ref.comp[ACCT_L2D]);
}

/* I-cache misses in the shadow of long D-cache misses: they cost nothing
 * (the ROB fills behind the load anyway), so which component gets the
 * overlapped cycles is a convention. The FMT gives them to the frontend,
 * since the ROB is not yet full, as the normal-order reference does (it
 * turns the I-cache real first); the inverse order gives them to the L2. */
static void test_k6_imiss_under_dmiss(void **state)
{
	(void)state;
	struct result both, dmiss;
	run_kernel("k6_imiss_under_dmiss", "miss", &both);
	run_kernel("k6_imiss_under_dmiss", "dmiss", &dmiss);
	check_common("k6_imiss_under_dmiss miss", &both);
	check_common("k6_imiss_under_dmiss dmiss", &dmiss);
	assert_true(both.ov.events[ACCT_L1I] >= dmiss.ov.events[ACCT_L1I] + 190);
	/* hidden: the I-misses add (almost) no cycles */
	assert_true(fabs(both.ref.cpi - dmiss.ref.cpi) <= 0.01 * dmiss.ref.cpi);
	double ref = both.ref.comp[ACCT_L1I] - dmiss.ref.comp[ACCT_L1I];
	double inv = both.inv.comp[ACCT_L1I] - dmiss.inv.comp[ACCT_L1I];
	double fmt = both.m[ACCT_FMT].comp[ACCT_L1I] - dmiss.m[ACCT_FMT].comp[ACCT_L1I];
	print_message("  L1 I-cache CPI added by the hidden misses: ref %.4f inverse %.4f FMT %.4f\n", ref, inv, fmt);
	assert_true(ref > 0.01);
	assert_true(inv < 0.25 * ref);
	assert_true(fmt > 0.5 * ref);
	/* Table 1: frontend penalties under long misses */
	assert_true(both.ov.overlap > dmiss.ov.overlap + both.ov.cycles / 200);
}

/* Without the event, the same code: nothing to charge beyond the common
 * warm-up, and the FMT still matches. */
static void test_nomiss_modes(void **state)
{
	(void)state;
	static const char *const k[] = { "k1_icache_miss", "k2_branch_miss", "k3_long_dmiss",
					 "k4_overlapping_dmiss", "k5_dependent_dmiss", "k6_imiss_under_dmiss" };
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
		struct result r;
		run_kernel(k[i], "nomiss", &r);
		char what[64];
		snprintf(what, sizeof what, "%s nomiss", k[i]);
		check_common(what, &r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_k1_icache_miss),
		cmocka_unit_test(test_k2_branch_miss),
		cmocka_unit_test(test_k3_long_dmiss),
		cmocka_unit_test(test_k4_overlapping_dmiss),
		cmocka_unit_test(test_k5_dependent_dmiss),
		cmocka_unit_test(test_k6_imiss_under_dmiss),
		cmocka_unit_test(test_nomiss_modes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
