/*
 * test_acct_component.c — the cheap getters an observer uses to follow one
 * miss event through the accounting units (the explorer's per-event
 * charges, src/explorer/inst_charge.c): acct_component equals the stack's
 * component for every method at every moment, and the FMT's I-side cycles
 * read with acct_fmt_fetch_count at each correct-path L1I miss's begin
 * and acct_fmt_row_count at its end add up to the FMT's whole L1I
 * component (k1_icache_miss: every I-miss cycle is inside an event).
 * acct_component_counter is the counter behind a plain component (NULL
 * for the naive methods and the ivx counters). And the ivx counters' points (acct_ivx_point_take) read out at the end
 * of the run give, to the bit, what acct_component gave when each was
 * taken (the explorer reads its charges that way, later).
 *
 * Run from the top of the tree (make unit does); needs data/bin/kernels.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "acct/acct.h"
#include "acct/refstack.h"
#include "core/config.h"
#include "guest/guest.h"
#include "guest/program.h"

struct follow {
	struct acct_set *set;
	uint64_t pos, begin;              /* the L1I miss in progress (one at a time) */
	uint64_t id;
	uint64_t sum;                     /* FMT cycles of all of them */
	uint64_t events, checks, mismatches;
	struct core_observer obs;
	/* ivx points taken at events, with the component then */
#define POINTS 512
	struct acct_ivx_point point[POINTS];
	uint64_t point_then[POINTS];
	int n_points;
};

static void drop(void *ctx, int fd, const void *buf, size_t len)
{
	(void)ctx, (void)fd, (void)buf, (void)len;
}

static void check_components(struct follow *f)
{
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		struct acct_stack s;
		const struct acct *a = acct_set_unit(f->set, m);
		acct_get_stack(a, &s);
		for (int k = 0; k < ACCT_COMP_COUNT; k++) {
			f->checks++;
			f->mismatches += acct_component(a, k) != s.comp[k];
			/* the one counter behind it, where there is one */
			const uint64_t *ctr = acct_component_counter(a, k);
			int plain = m != ACCT_NAIVE && m != ACCT_NAIVE_NONSPEC && m != ACCT_IVX;
			f->checks++;
			f->mismatches += plain ? !ctr || *ctr != s.comp[k] : ctr != NULL;
			if (m == ACCT_IVX && f->n_points < POINTS && (f->checks / ACCT_COMP_COUNT) % 7 == 0) {
				acct_ivx_point_take(a, k, &f->point[f->n_points]);
				f->point_then[f->n_points++] = s.comp[k];
			}
		}
	}
}

static void on_miss(void *ctx, const struct miss_event *e)
{
	struct follow *f = ctx;
	const struct acct *fmt = acct_set_unit(f->set, ACCT_FMT);
	check_components(f);
	if (e->kind != MISS_L1I || !e->correct_path)
		return;
	if (e->phase == MISS_BEGIN) {
		f->id = e->id;
		f->begin = acct_fmt_fetch_count(fmt, ACCT_FE_L1I, &f->pos);
		return;
	}
	uint64_t now;
	if (e->id == f->id && acct_fmt_row_count(fmt, f->pos, ACCT_FE_L1I, &now) == 0) {
		f->sum += now - f->begin;
		f->events++;
	}
}

/* Run PATH with argv on cfg (max_cycles, 0: to the end) with the units
 * and f's observer; every check_components holds. */
static void run_followed(struct follow *f, const char *path, char **argv, int argc,
			 struct machine_config *cfg, uint64_t max_cycles)
{
	struct ivx_err err = { 0 };
	struct program *prog = program_load_file(path, &err);
	if (!prog)
		fail_msg("%s: %s (make data builds it)", path, err.msg);
	f->set = acct_set_new(cfg, &err);
	assert_non_null(f->set);
	f->obs = (struct core_observer){ .name = "follow", .ctx = f, .on_miss = on_miss };
	struct refstack_job job;
	memset(&job, 0, sizeof job);
	job.prog = prog;
	job.gopt = (struct guest_options){ .argc = argc, .argv = argv, .seed = 1, .output = drop };
	job.max_cycles = max_cycles;
	refstack_config(cfg, REF_REAL, 1, &job.cfg);
	job.obs[job.n_obs++] = acct_set_observer(f->set);   /* first: the units see an event first */
	job.obs[job.n_obs++] = &f->obs;
	assert_int_equal(refstack_run_jobs(&job, 1, 1, &err), IVX_OK);
	program_free(prog);
	check_components(f);
	assert_true(f->checks > 1000);
	assert_int_equal(f->mismatches, 0);
}

/* The ivx points, read out now, in reverse order (the rates' memo holds
 * some other moment's each time), give what the stack gave then. */
static void check_points(struct follow *f)
{
	const struct acct *ivx = acct_set_unit(f->set, ACCT_IVX);
	int nonzero = 0;
	assert_true(f->n_points > 100);
	for (int i = f->n_points - 1; i >= 0; i--) {
		assert_int_equal(acct_ivx_point_value(ivx, &f->point[i]), f->point_then[i]);
		nonzero += f->point_then[i] != 0;
	}
	assert_true(nonzero > 10);
}

static void test_component_getters(void **state)
{
	(void)state;
	char *argv[] = { (char *)"k1_icache_miss", (char *)"miss", (char *)"20", NULL };
	struct machine_config cfg;
	config_defaults(&cfg);
	struct follow f = { 0 };
	run_followed(&f, "data/bin/kernels/k1_icache_miss", argv, 3, &cfg, 0);
	check_points(&f);
	/* a point of another unit reads as 0 */
	struct acct_ivx_point other;
	acct_ivx_point_take(acct_set_unit(f.set, ACCT_FMT), ACCT_L1I, &other);
	assert_int_equal(acct_ivx_point_value(acct_set_unit(f.set, ACCT_FMT), &other), 0);
	struct acct_stack s;
	acct_get_stack(acct_set_unit(f.set, ACCT_FMT), &s);
	assert_true(f.events >= 40);           /* two a repetition */
	assert_int_equal(f.sum, s.comp[ACCT_L1I]);
	acct_set_free(f.set);
}

/* The points again where the ivx counters' miss cycles exceed what the
 * shadow leaves, so the short events give up the excess (acct_ivx.c,
 * ivx_scale): icache on the 16-wide core of data/configs/big.ini, whose
 * L1I counter is over once its code is in the L2 (the first 300k cycles
 * are nearly all L2 misses, and there even the old read-out kept L1I
 * small). */
static void test_points_short_give_up(void **state)
{
	(void)state;
	char *argv[] = { (char *)"icache", (char *)"100", NULL };
	struct machine_config cfg;
	struct ivx_err err = { 0 };
	config_defaults(&cfg);
	if (config_load(&cfg, "data/configs/big.ini", &err) < 0)
		fail_msg("%s", err.msg);
	struct follow f = { 0 };
	run_followed(&f, "data/bin/workloads/icache", argv, 2, &cfg, 600000);
	check_points(&f);
	/* that regime: the L2 I-cache keeps its counters' cycles, the L1
	 * I-cache gives up most of its own (shared in proportion: L1I
	 * 133,680 cycles, L2I 228,585) */
	struct acct_stack s;
	acct_get_stack(acct_set_unit(f.set, ACCT_IVX), &s);
	assert_true(s.comp[ACCT_L2I] > 4 * s.comp[ACCT_L1I]);
	acct_set_free(f.set);
	/* and on the default machine, where the short events' partial L1I
	 * cycles weigh in their sum (a point without them reads 0x7831
	 * cycles where the stack read 0) */
	struct follow g = { 0 };
	config_defaults(&cfg);
	run_followed(&g, "data/bin/workloads/icache", argv, 2, &cfg, 400000);
	check_points(&g);
	acct_set_free(g.set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_component_getters),
		cmocka_unit_test(test_points_short_give_up),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
