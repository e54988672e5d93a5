/*
 * test_coproc_sampling.c — what reaches the co-processor's sample buffer
 * when it cannot keep up (docs/coproc.md, "The random tagger"):
 *   - tagrate=N tags about one in N of the instructions the filters pass,
 *     at random, without touching the core;
 *   - the governor (tagrate=0, the default) thins the tagging until the
 *     buffer hardly drops, where plain tagging drops most records;
 *   - policy replace puts a dropped record in a random queued record's
 *     place; every retired tagged instruction is a record or a drop;
 *   - on muldiv, whose hot load reads its values in a fixed order, the
 *     records that get into a full buffer are a comb over that order
 *     unless they are tagged at random: the governor removes the error
 *     the comb causes.
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

static struct coproc_prog cprog;

static void assemble(const char *src, const char *name)
{
	struct ivx_err err;
	if (coproc_asm(src, strlen(src), name, &cprog, &err) < 0)
		fail_msg("%s", err.msg);
}

struct outcome {
	struct core_stats core;
	struct coproc_stats cp;
	uint64_t truth_events;
	double weighted_error;   /* execution-weighted |est - true| over every load */
};

/* Run data/bin/workloads/NAME ARG with cprog and the settings (NULL-ended). */
static void run(const char *name, const char *arg, const char *const *settings, struct outcome *o)
{
	char path[256];
	snprintf(path, sizeof path, "data/bin/workloads/%s", name);
	struct ivx_err err;
	struct program *prog = coproc_test_load(path);
	char *argv[] = { (char *)name, (char *)arg };
	struct coproc_config cc;
	coproc_config_defaults(&cc);
	for (int i = 0; settings && settings[i]; i++)
		if (coproc_config_set(&cc, settings[i], &err) < 0)
			fail_msg("%s", err.msg);
	struct coproc_test_run x;
	coproc_test_run(&x, prog, 2, argv, &cc, &cprog);
	struct coproc *cp = x.cp;
	struct coproc_truth *t = x.truth;
	core_stats(x.r.c, &o->core);
	coproc_get_stats(cp, &o->cp);
	o->truth_events = coproc_truth_events(t);
	double num = 0, den = 0;
	for (int i = 0; coproc_truth_key(t, i); i++) {
		const struct truth_key *k = coproc_truth_key(t, i);
		struct coproc_pentry e;
		double est = coproc_profile_find(cp, k->key, &e) ? coproc_pentry_invariance(&e) : 0.0;
		double tru = (double)k->top_count / (double)k->executions;
		num += (double)k->executions * (est > tru ? est - tru : tru - est);
		den += (double)k->executions;
	}
	o->weighted_error = den > 0 ? num / den : 0;
	coproc_test_run_free(&x);
	program_free(prog);
}

/* A routine of 4 co-processor cycles a record, every record counted. */
static const char *const slow = ".classes load\n.fields pc\n.dfe load l\nl: nop\nnop\nnop\nnop -> DONE\n";

static void tagrate_tags_one_in_n_at_random(void **state)
{
	(void)state;
	assemble(slow, "slow");
	const char *all[] = { "policy=stall", "tagrate=1", NULL };
	const char *quarter[] = { "policy=stall", "tagrate=4", NULL };
	struct outcome a, q;
	run("crc", "1", all, &a);
	run("crc", "1", quarter, &q);
	assert_int_equal(a.cp.records, a.truth_events);
	assert_int_equal(a.cp.untagged, 0);
	/* a quarter of the retired loads, give or take the randomness */
	assert_true(q.cp.records > q.truth_events / 4 - q.truth_events / 40);
	assert_true(q.cp.records < q.truth_events / 4 + q.truth_events / 40);
	assert_int_equal(q.cp.drops, 0);
	assert_int_equal(q.cp.tag_shift, 2);
	assert_true(q.cp.untagged > q.cp.tagged * 2);
	/* fewer records, fewer stalls */
	assert_true(q.cp.stall_cycles < a.cp.stall_cycles / 2);
}

static void the_governor_thins_tagging_until_few_records_drop(void **state)
{
	(void)state;
	assemble(slow, "slow");
	/* a slow co-processor: with every load tagged the buffer overflows */
	const char *plain[] = { "buffer=2", "clock_div=4", "policy=drop", "tagrate=1", NULL };
	const char *governed[] = { "buffer=2", "clock_div=4", "policy=drop", NULL };
	struct outcome p, g;
	run("crc", "1", plain, &p);
	run("crc", "1", governed, &g);
	assert_true(p.cp.drops > p.cp.records);
	assert_int_equal(p.cp.untagged, 0);
	/* governed: most loads are skipped at decode, few records dropped */
	assert_true(g.cp.untagged > 0);
	assert_true(g.cp.tag_shift > 0);
	/* (a 2-record buffer loses some records to the randomness of arrivals
	 * even at a low rate; plain tagging loses over four fifths) */
	assert_true(g.cp.drops * 5 < g.cp.records);
	assert_int_equal(g.cp.records + g.cp.drops, g.cp.retired_tagged);
	/* the core does not notice either way */
	assert_int_equal(g.core.cycles, p.core.cycles);
	assert_int_equal(g.core.handler_cycles, 0);
}

static void policy_replace_keeps_a_random_queued_record(void **state)
{
	(void)state;
	assemble(slow, "slow");
	const char *drop[] = { "buffer=4", "clock_div=4", "policy=drop", "tagrate=1", NULL };
	const char *replace[] = { "buffer=4", "clock_div=4", "policy=replace", "tagrate=1", NULL };
	struct outcome d, r;
	run("crc", "1", drop, &d);
	run("crc", "1", replace, &r);
	/* the same records get in or are lost; a replacement changes which */
	assert_true(r.cp.drops > 100);
	assert_int_equal(r.cp.records + r.cp.drops, r.cp.retired_tagged);
	assert_int_equal(r.cp.retired_tagged, r.truth_events);
	assert_int_equal(d.cp.records + d.cp.drops, d.cp.retired_tagged);
	assert_int_equal(r.core.cycles, d.core.cycles);
	struct coproc_config c;
	struct ivx_err err;
	coproc_config_defaults(&c);
	assert_int_equal(c.tagrate, 0);
	assert_int_equal(coproc_config_set(&c, "policy=replace", &err), 0);
	assert_int_equal(c.policy, COPROC_REPLACE);
	assert_string_equal(coproc_policy_name(c.policy), "replace");
	assert_true(coproc_config_set(&c, "tagrate=3", &err) < 0);
	assert_string_equal(err.msg, "coproc tagrate: 3 is not a power of two");
	assert_true(coproc_config_set(&c, "policy=sometimes", &err) < 0);
	assert_string_equal(err.msg, "coproc policy: 'sometimes' is not stall, drop or replace");
}

/* muldiv's hot load reads 8 values of 12.5% each in a fixed order. With
 * every load tagged and the buffer full, which ones get in depends on the
 * co-processor's time on the records before, so one value looks far more
 * frequent than it is; tagged at random they do not. */
static void random_tagging_removes_the_comb_on_a_fixed_order_load(void **state)
{
	(void)state;
	coproc_test_assemble_file("data/coproc/value.s", &cprog);
	const char *comb[] = { "tagrate=1", NULL };
	struct outcome c, g;
	run("muldiv", "1", comb, &c);
	run("muldiv", "1", NULL, &g);
	assert_true(c.weighted_error > 0.15);
	assert_true(g.weighted_error < 0.10);
	assert_true(g.cp.untagged > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tagrate_tags_one_in_n_at_random),
		cmocka_unit_test(the_governor_thins_tagging_until_few_records_drop),
		cmocka_unit_test(policy_replace_keeps_a_random_queued_record),
		cmocka_unit_test(random_tagging_removes_the_comb_on_a_fixed_order_load),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
