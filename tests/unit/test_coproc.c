/*
 * test_coproc.c — the profiling co-processor on the core model:
 *   - the edge program under the stall policy counts every conditional
 *     branch exactly (no record lost, the DFE, CAM and counters work);
 *   - the PC filter tags exactly the loads whose hash matches;
 *   - a full buffer drops (and counts) records under policy drop without
 *     touching the core, and stalls the core under policy stall;
 *   - data-array counters and index registers saturate, and INTERRUPT
 *     charges the handler to the core;
 *   - a snapshot restores the co-processor exactly (reverse stepping);
 *   - thrashing (more loads than slots) partitions the program, and a
 *     partition that yields few records is left at the next timer tick;
 *   - time slices: partitions take turns a timer period each, and loads
 *     are masked only from samples of several periods;
 *   - the exact profile's host memory: one table, one summary.
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
#include "core_prog.h"
#include "coproc/coproc.h"
#include "coproc/coproc_truth.h"

static struct program *load(const char *path)
{
	struct ivx_err err;
	struct program *p = program_load_file(path, &err);
	if (!p)
		fail_msg("%s: %s", path, err.msg);
	return p;
}

static struct coproc_prog cprog;

static void assemble_file(const char *path)
{
	struct ivx_err err;
	if (coproc_asm_file(path, NULL, NULL, &cprog, &err) < 0)
		fail_msg("%s", err.msg);
}

static void assemble_text(const char *src)
{
	struct ivx_err err;
	if (coproc_asm(src, strlen(src), "test", &cprog, &err) < 0)
		fail_msg("%s", err.msg);
}

struct outcome {
	struct core_stats core;
	struct coproc_stats cp;
	uint64_t truth_events;
	int exit_code;
};

/* Run crc 1 (a few hundred thousand cycles) with cprog and the settings;
 * keep the co-processor and the truth in *cpo / *truth when non-NULL. */
static void run(struct program *prog, const char *const *settings, int truth_kind, struct outcome *o,
		struct crun *r, struct coproc **cpo, struct coproc_truth **trutho)
{
	char *argv[] = { "crc", "1" };
	struct ivx_err err;
	struct coproc_config cc;
	coproc_config_defaults(&cc);
	for (int i = 0; settings && settings[i]; i++)
		if (coproc_config_set(&cc, settings[i], &err) < 0)
			fail_msg("%s", err.msg);
	assert_int_equal(crun_start(r, prog, 2, argv, NULL), 0);
	struct coproc_truth *t = coproc_truth_new(r->c, truth_kind, 0, 0, 0, &err);
	assert_non_null(t);
	assert_int_equal(core_add_observer(r->c, coproc_truth_observer(t), &err), 0);
	struct coproc *cp = coproc_new(&cc, &cprog, r->c, &err);
	if (!cp)
		fail_msg("%s", err.msg);
	assert_int_equal(core_add_observer(r->c, coproc_observer(cp), &err), 0);
	if (core_run(r->c, 0, 0, &err) != IVX_OK)
		fail_msg("%s", err.msg);
	assert_true(core_done(r->c));
	coproc_finish(cp);
	core_stats(r->c, &o->core);
	coproc_get_stats(cp, &o->cp);
	o->truth_events = coproc_truth_events(t);
	o->exit_code = guest_exit_code(r->g);
	coproc_truth_summarise(t);
	if (cpo)
		*cpo = cp;
	else
		coproc_free(cp);
	if (trutho)
		*trutho = t;
	else
		coproc_truth_free(t);
}

/* Start `prog` (argv NAME 1) with cprog on the co-processor attached,
 * configured with `setting` if not NULL. */
static struct coproc *start_with_coproc(struct crun *r, struct program *prog, char *name, const char *setting)
{
	char *argv[] = { name, "1" };
	struct ivx_err err;
	struct coproc_config cc;
	coproc_config_defaults(&cc);
	if (setting)
		assert_int_equal(coproc_config_set(&cc, setting, &err), 0);
	assert_int_equal(crun_start(r, prog, 2, argv, NULL), 0);
	struct coproc *cp = coproc_new(&cc, &cprog, r->c, &err);
	assert_non_null(cp);
	assert_int_equal(core_add_observer(r->c, coproc_observer(cp), &err), 0);
	return cp;
}

static void plain_run(struct program *prog, struct core_stats *st)
{
	char *argv[] = { "crc", "1" };
	struct crun r;
	struct ivx_err err;
	assert_int_equal(crun_start(&r, prog, 2, argv, NULL), 0);
	assert_int_equal(core_run(r.c, 0, 0, &err), IVX_OK);
	core_stats(r.c, st);
	crun_free(&r);
}

static void edge_profile_is_exact_when_retirement_stalls(void **state)
{
	(void)state;
	struct program *prog = load("data/bin/workloads/crc");
	assemble_file("data/coproc/edge.s");
	const char *set[] = { "policy=stall", NULL };
	struct outcome o;
	struct crun r;
	struct coproc *cp;
	struct coproc_truth *t;
	run(prog, set, TRUTH_BRANCHES, &o, &r, &cp, &t);
	assert_int_equal(o.cp.drops, 0);
	assert_int_equal(o.cp.records, o.truth_events);
	assert_true(o.cp.records > 1000);
	int n = 0;
	for (const struct truth_key *k; (k = coproc_truth_key(t, n)); n++) {
		struct coproc_pentry e;
		assert_true(coproc_profile_find(cp, k->key, &e));
		assert_int_equal(e.total, k->executions);
		uint64_t taken = 0;
		for (int v = 0; v < e.nvals; v++)
			if (e.val[v].value == 1)
				taken = e.val[v].count;
		assert_int_equal(taken, k->count1);
	}
	assert_true(n > 10);
	coproc_free(cp);
	coproc_truth_free(t);
	crun_free(&r);
	program_free(prog);
}

static void the_pc_filter_tags_the_matching_loads_only(void **state)
{
	(void)state;
	struct program *prog = load("data/bin/workloads/crc");
	/* count every record; tag loads whose hash ends in binary 01 */
	assemble_text(".classes load\n.fields pc\n.dfe load l\n.pcfilter 2 1\nl: nop -> DONE\n");
	const char *set[] = { "policy=stall", NULL };
	struct outcome o;
	struct crun r;
	struct coproc *cp;
	struct coproc_truth *t;
	run(prog, set, TRUTH_LOADS, &o, &r, &cp, &t);
	uint64_t want = 0, all = 0;
	for (int i = 0; coproc_truth_key(t, i); i++) {
		const struct truth_key *k = coproc_truth_key(t, i);
		all += k->executions;
		if ((coproc_pc_hash(cp, k->key) & 3) == 1)
			want += k->executions;
	}
	assert_true(want > 0 && want < all);
	assert_int_equal(o.cp.records, want);
	assert_int_equal(o.cp.retired_tagged, want);
	assert_true(o.cp.tagged >= want);   /* wrong-path loads are tagged too */
	coproc_free(cp);
	coproc_truth_free(t);
	crun_free(&r);
	program_free(prog);
}

static void a_full_buffer_drops_or_stalls(void **state)
{
	(void)state;
	struct program *prog = load("data/bin/workloads/crc");
	/* a slow routine on a slow clock: the buffer overflows */
	assemble_text(".classes load\n.fields pc\n.dfe load l\nl: nop\nnop\nnop\nnop -> DONE\n");
	struct core_stats plain;
	plain_run(prog, &plain);
	const char *drop[] = { "buffer=2", "clock_div=4", "policy=drop", "tagrate=1", NULL };
	const char *stall[] = { "buffer=2", "clock_div=4", "policy=stall", NULL };
	struct outcome d, s;
	struct crun r;
	run(prog, drop, TRUTH_LOADS, &d, &r, NULL, NULL);
	crun_free(&r);
	run(prog, stall, TRUTH_LOADS, &s, &r, NULL, NULL);
	crun_free(&r);
	/* drop: every retired tagged load is a record or a drop; the core
	 * does not notice */
	assert_true(d.cp.drops > 100);
	assert_int_equal(d.cp.records + d.cp.drops, d.cp.retired_tagged);
	assert_int_equal(d.cp.retired_tagged, d.truth_events);
	assert_int_equal(d.core.cycles, plain.cycles);
	assert_int_equal(d.cp.stall_cycles, 0);
	/* stall: nothing lost; the core pays */
	assert_int_equal(s.cp.drops, 0);
	assert_int_equal(s.cp.records, s.truth_events);
	assert_true(s.cp.stall_cycles > 1000);
	assert_int_equal(s.core.handler_cycles, s.cp.stall_cycles);
	assert_true(s.core.cycles > plain.cycles + s.cp.stall_cycles / 2);
	assert_int_equal(s.core.committed, plain.committed);
	assert_int_equal(s.exit_code, 0);
	program_free(prog);
}

static void counters_and_index_registers_saturate(void **state)
{
	(void)state;
	struct program *prog = load("data/bin/workloads/crc");
	/* a 4-bit counter saturates at the 15th load; from then on every
	 * load interrupts */
	assemble_text(".classes load\n.fields pc\n.dfe load l\n.cwidth 4\nl: inc [b0 + 0] -> sat INTERRUPT\n"
		      "nop -> DONE\n");
	const char *set[] = { "policy=stall", "int_cycles=7", NULL };
	struct outcome o;
	struct crun r;
	run(prog, set, TRUTH_LOADS, &o, &r, NULL, NULL);
	crun_free(&r);
	assert_int_equal(o.cp.interrupts, o.truth_events - 14);
	assert_int_equal(o.cp.handler_cycles, 7 * o.cp.interrupts);
	assert_int_equal(o.core.handler_cycles, o.cp.handler_cycles + o.cp.stall_cycles);
	/* a 3-bit index register saturates at the 8th increment */
	assemble_text(".classes load\n.fields pc\n.dfe load l\n.iwidth 3\nl: add i0, i0, 1 -> sat INTERRUPT\n"
		      "nop -> DONE\n");
	run(prog, set, TRUTH_LOADS, &o, &r, NULL, NULL);
	crun_free(&r);
	assert_int_equal(o.cp.interrupts, o.truth_events - 7);
	program_free(prog);
}

static void a_snapshot_restores_the_coprocessor(void **state)
{
	(void)state;
	struct program *prog = load("data/bin/workloads/crc");
	assemble_file("data/coproc/value.s");
	struct crun r;
	struct ivx_err err;
	struct coproc *cp = start_with_coproc(&r, prog, "crc", NULL);
	assert_int_equal(core_run(r.c, 50000, 0, &err), IVX_OK);
	struct core_snapshot *snap = core_snapshot_save(r.c, &err);
	assert_non_null(snap);
	assert_int_equal(core_run(r.c, 0, 0, &err), IVX_OK);
	struct coproc_stats first, again;
	coproc_get_stats(cp, &first);
	int n = coproc_profile_size(cp);
	struct coproc_pentry *p1 = calloc((size_t)n, sizeof *p1);
	for (int i = 0; i < n; i++)
		coproc_profile_entry(cp, i, &p1[i]);
	assert_true(first.interrupts > 0);
	assert_int_equal(core_snapshot_restore(r.c, snap, &err), IVX_OK);
	assert_int_equal(core_run(r.c, 0, 0, &err), IVX_OK);
	coproc_get_stats(cp, &again);
	assert_memory_equal(&first, &again, sizeof first);
	for (int i = 0; i < n; i++) {
		struct coproc_pentry e;
		memset(&e, 0, sizeof e);
		coproc_profile_entry(cp, i, &e);
		assert_memory_equal(&e, &p1[i], sizeof e);
	}
	free(p1);
	core_snapshot_free(snap);
	coproc_free(cp);
	crun_free(&r);
	program_free(prog);
}

/* Assemble data/coproc/value.s with some of its .param/.const lines
 * replaced by `params`. */
static void assemble_value_with(const char *const *params)
{
	FILE *f = fopen("data/coproc/value.s", "rb");
	assert_non_null(f);
	static char src[20000], line[512];
	src[0] = 0;
	while (fgets(line, sizeof line, f)) {
		int replaced = 0;   /* value.s's .param lines the test sets differently */
		for (int i = 0; params[i]; i++) {
			const char *sp = strchr(params[i] + 7, ' ');
			replaced |= !strncmp(line, params[i], (size_t)(sp - params[i]) + 1);
		}
		if (!replaced)
			strcat(src, line);
	}
	fclose(f);
	for (int i = 0; params[i]; i++)
		strcat(strcat(src, params[i]), "\n");
	assemble_text(src);
}

/* More loads than slots, all about as frequent: replacements pile up, the
 * microcode interrupts with reason 2 and the handler splits the program
 * into PC-filter partitions. */
static void thrashing_partitions_the_program(void **state)
{
	(void)state;
	struct program *prog = load("data/bin/workloads/interp");
	static const char *const eight[] = { ".param slots 8", ".const c3 7", ".const c2 256", NULL };
	assemble_value_with(eight);   /* 8 slots for an 8-entry CAM */
	struct crun r;
	struct ivx_err err;
	struct coproc *cp = start_with_coproc(&r, prog, "interp", "cam=8");
	int widest = 0;
	while (!core_done(r.c)) {
		assert_int_equal(core_run(r.c, core_cycles(r.c) + 1000, 0, &err), IVX_OK);
		struct coproc_stats s;
		coproc_get_stats(cp, &s);
		if (s.pc_width > widest)
			widest = s.pc_width;
		assert_true(s.pc_match < (1u << s.pc_width) || s.pc_width == 0);
	}
	assert_true(widest >= 1);
	coproc_free(cp);
	crun_free(&r);
	program_free(prog);
}

/* Re-sampling unmasks the masked loads every `resample` cycles (at a
 * timer tick); they are masked again after `confident` new samples, which
 * the profile adds to what it knew. */
static void resampling_unmasks_and_rechecks_masked_loads(void **state)
{
	(void)state;
	struct program *prog = load("data/bin/workloads/crc");
	assemble_file("data/coproc/value.s");
	static const char *const off[] = { "timer=10000", NULL };
	static const char *const on[] = { "timer=10000", "resample=40000", NULL };
	struct outcome a, b;
	struct crun ra, rb;
	struct coproc *cpa, *cpb;
	run(prog, off, TRUTH_LOADS, &a, &ra, &cpa, NULL);
	run(prog, on, TRUTH_LOADS, &b, &rb, &cpb, NULL);
	assert_int_equal(a.cp.resamples, 0);
	assert_int_equal(a.cp.unmasked, 0);
	assert_true(a.cp.masked > 0);
	assert_true(b.cp.resamples >= a.core.cycles / 40000 - 1);
	assert_true(b.cp.unmasked > 0);
	assert_true(b.cp.masked > a.cp.masked);            /* re-checked, then masked again */
	assert_true(b.cp.records > a.cp.records);          /* the re-checks' samples */
	int rechecked = 0;
	uint64_t samples_a = 0, samples_b = 0;
	for (int i = 0; i < coproc_profile_size(cpb); i++) {
		struct coproc_pentry e, ea;
		if (!coproc_profile_entry(cpb, i, &e))
			continue;
		samples_b += e.total;
		if (e.base) {
			assert_true(e.base <= e.total);   /* samples since the last unmasking */
			rechecked++;
		}
		if (coproc_profile_find(cpa, e.pc, &ea))
			assert_int_equal(ea.base, 0);
	}
	for (int i = 0; i < coproc_profile_size(cpa); i++) {
		struct coproc_pentry e;
		if (coproc_profile_entry(cpa, i, &e))
			samples_a += e.total;
	}
	assert_true(rechecked > 0);
	assert_true(samples_b > samples_a);
	coproc_free(cpa);
	coproc_free(cpb);
	crun_free(&ra);
	crun_free(&rb);
	program_free(prog);
}

/* A partition whose loads yield fewer than `low_yield` records in a timer
 * period is left at the tick (the handler goes on to the next one and,
 * after the last, merges them): with a low_yield no partition reaches,
 * four partitions are merged back into one within a few periods; with
 * low_yield 1 only a period without a record moves on, so the partition
 * holding crc's hot loop keeps the filter. */
static int width_after(const char *low_yield, uint64_t cycles, uint64_t *actions)
{
	char src[512];
	snprintf(src, sizeof src,
		 ".name lowyield\n.handler value\n.classes load\n.fields pc value\n.dfe load l\n"
		 ".pcfilter 2 0\n.param low_yield %s\nl: nop -> DONE\n", low_yield);
	assemble_text(src);
	struct program *prog = load("data/bin/workloads/crc");
	struct crun r;
	struct ivx_err err;
	struct coproc *cp = start_with_coproc(&r, prog, "crc", "timer=10000");
	assert_int_equal(core_run(r.c, cycles, 0, &err), IVX_OK);
	assert_false(core_done(r.c));   /* loads still run: the ticks had work */
	struct coproc_stats s;
	coproc_get_stats(cp, &s);
	*actions = s.timer_actions;
	coproc_free(cp);
	crun_free(&r);
	program_free(prog);
	return s.pc_width;
}

static void a_low_yield_partition_is_left_at_the_timer(void **state)
{
	(void)state;
	uint64_t fast, slow;
	assert_int_equal(width_after("1000000", 100000, &fast), 0);   /* 4 + 2 moves, then width 0 */
	assert_true(fast >= 6);
	assert_int_equal(width_after("1", 100000, &slow), 2);
	assert_true(slow < fast);
}

/* Time slices (value.s's slice_div, slice_ticks, min_visits, hold): once
 * the slots thrash, a load is masked only after samples from min_visits
 * timer periods, a load with `hold` samples in a period is ignored until
 * the next one, and the partitions take turns a period each. Without
 * them (min_visits 1, hold 0, slice_ticks 0), loads are masked from the
 * samples of a single period. */
static int masked_from_one_slice(const char *const *params, int *held, uint64_t *moves)
{
	assemble_value_with(params);
	struct program *prog = load("data/bin/workloads/interp");
	struct crun r;
	struct ivx_err err;
	struct coproc *cp = start_with_coproc(&r, prog, "interp", "cam=8");
	while (!core_done(r.c))
		assert_int_equal(core_run(r.c, core_cycles(r.c) + 100000, 0, &err), IVX_OK);
	int one = 0, masked = 0;
	for (int i = 0; i < coproc_profile_size(cp); i++) {
		struct coproc_pentry e;
		if (!coproc_profile_entry(cp, i, &e) || !e.masked)
			continue;
		masked++;
		one += e.visits < 3;
	}
	assert_true(masked > 0);
	struct coproc_stats s;
	coproc_get_stats(cp, &s);
	*held = (int)s.held;
	*moves = s.timer_actions;
	coproc_free(cp);
	crun_free(&r);
	program_free(prog);
	return one;
}

static void time_slices_spread_a_loads_samples(void **state)
{
	(void)state;
	/* 8 slots (the CAM has 8 entries, so that interp's loads thrash
	 * them); thrashing declared after 256 replacements, as when value.s
	 * had 64 slots */
#define EIGHT_SLOTS ".param slots 8", ".const c3 7", ".const c2 256"
	static const char *const on[] = { EIGHT_SLOTS, NULL };
	static const char *const off[] = { EIGHT_SLOTS, ".param min_visits 1", ".param hold 0", ".param slice_ticks 0",
					   ".param slice_div 0", NULL };
#undef EIGHT_SLOTS
	int held_on, held_off;
	uint64_t moves_on, moves_off;
	assert_int_equal(masked_from_one_slice(on, &held_on, &moves_on), 0);
	assert_true(masked_from_one_slice(off, &held_off, &moves_off) > 0);
	assert_true(held_on > 0);
	assert_int_equal(held_off, 0);
	assert_true(moves_on > moves_off);
}

/* value.s's resample_thrashed: once the slots have thrashed, every masked
 * load is unmasked every that many cycles; a program whose loads fit in
 * the slots never thrashes and is never re-sampled, unless the program
 * asks for it from the start (resample_every, value_topk.s's). */
/* One run; *samples (if not NULL) gets the profile's samples, summed
 * over its loads. */
static struct coproc_stats resample_run(const char *workload, const char *cam, const char *const *params,
					uint64_t *samples)
{
	assemble_value_with(params);
	char path[64], name[32];
	snprintf(path, sizeof path, "data/bin/workloads/%s", workload);
	snprintf(name, sizeof name, "%s", workload);
	struct program *prog = load(path);
	struct crun r;
	struct ivx_err err;
	struct coproc *cp = start_with_coproc(&r, prog, name, cam);
	while (!core_done(r.c))
		assert_int_equal(core_run(r.c, core_cycles(r.c) + 100000, 0, &err), IVX_OK);
	struct coproc_stats s;
	coproc_get_stats(cp, &s);
	if (samples) {
		*samples = 0;
		for (int i = 0; i < coproc_profile_size(cp); i++) {
			struct coproc_pentry e;
			if (coproc_profile_entry(cp, i, &e))
				*samples += e.total;
		}
	}
	coproc_free(cp);
	crun_free(&r);
	program_free(prog);
	return s;
}

static void thrashing_slots_resample_masked_loads(void **state)
{
	(void)state;
#define EIGHT_SLOTS ".param slots 8", ".const c3 7", ".const c2 256"
	static const char *const on[] = { EIGHT_SLOTS, ".param resample_thrashed 10000", NULL };
	static const char *const off[] = { EIGHT_SLOTS, ".param resample_thrashed 0", NULL };
	static const char *const backoff[] = { EIGHT_SLOTS, ".param resample_thrashed 10000", ".param resample_backoff 7",
					       NULL };
	static const char *const weigh[] = { EIGHT_SLOTS, ".param resample_thrashed 10000", ".param resample_backoff 7",
					     ".param skip_weight 1", NULL };
#undef EIGHT_SLOTS
	static const char *const fits[] = { ".param resample_thrashed 20000", NULL };
	static const char *const every[] = { ".param resample_thrashed 20000", ".param resample_every 20000", NULL };
	uint64_t plain, weighed;   /* the profile's samples without and with skip_weight */
	struct coproc_stats a = resample_run("interp", "cam=8", on, NULL);
	assert_true(a.resamples > 0);
	assert_true(a.unmasked > 0);
	assert_int_equal(a.backed_off, 0);
	struct coproc_stats b = resample_run("interp", "cam=8", off, NULL);
	assert_int_equal(b.resamples, 0);
	assert_int_equal(b.unmasked, 0);
	assert_true(b.masked > 0);
	/* resample_backoff: loads whose re-check agreed sit out later rounds,
	 * so fewer are unmasked */
	struct coproc_stats d = resample_run("interp", "cam=8", backoff, &plain);
	assert_true(d.resamples > 0);
	assert_true(d.backed_off > 0);
	assert_true(d.unmasked < a.unmasked);
	/* without skip_weight the profile holds at most the samples that
	 * reached the co-processor; with it a re-check that earns a load
	 * skipped rounds counts for them too (0.243 samples a record
	 * without, 0.270 with, when written) */
	assert_true(plain <= d.records);
	struct coproc_stats w = resample_run("interp", "cam=8", weigh, &weighed);
	assert_true(w.backed_off > 0);
	assert_true((double)weighed / (double)w.records > (double)plain / (double)d.records * 1.05);
	struct coproc_stats c = resample_run("crc", "timer=10000", fits, NULL);   /* 128 slots: no thrashing */
	assert_true(c.masked > 0);
	assert_int_equal(c.resamples, 0);
	struct coproc_stats e = resample_run("crc", "timer=10000", every, NULL);
	assert_true(e.resamples > 0);
	assert_true(e.unmasked > 0);
	assert_true(e.masked > c.masked);   /* its loads are masked again after each round */
}

/* `.param spread N` (ours): a load that gives more than N samples a timer
 * period (and N since the previous harvest) is thinned: its bucket of the
 * thinning table makes the random tagger tag it 2^t times more rarely, so
 * its samples come from more of its run (muldiv's hot load, 8 values of
 * 12.5%: never confident enough to be masked early); without it nothing
 * is thinned. */
static void spreading_thins_a_hot_load(void **state)
{
	(void)state;
	static const char *const off[] = { ".param resample_thrashed 0", NULL };
	static const char *const on[] = { ".param resample_thrashed 0", ".param spread 16", NULL };
	struct program *prog = load("data/bin/workloads/muldiv");
	struct crun r[2];
	struct ivx_err err;
	struct coproc *cp[2];
	uint32_t thin = 0;
	struct coproc_stats s[2];
	for (int k = 0; k < 2; k++) {
		assemble_value_with(k ? on : off);
		cp[k] = start_with_coproc(&r[k], prog, "muldiv", "timer=10000");
		while (!core_done(r[k].c))
			assert_int_equal(core_run(r[k].c, core_cycles(r[k].c) + 100000, 0, &err), IVX_OK);
		coproc_get_stats(cp[k], &s[k]);
		for (int i = 0; i < coproc_profile_size(cp[k]); i++) {
			struct coproc_pentry e;
			if (!coproc_profile_entry(cp[k], i, &e))
				continue;
			if (k)
				thin = e.thin > thin ? e.thin : thin;
			else
				assert_int_equal(e.thin, 0);
		}
	}
	assert_int_equal(s[0].thinned, 0);
	assert_true(s[1].thinned > 0);
	assert_true(thin > 0);
	assert_true(s[1].untagged > s[0].untagged);
	assert_true(s[1].records < s[0].records);
	for (int k = 0; k < 2; k++) {
		coproc_free(cp[k]);
		crun_free(&r[k]);
	}
	program_free(prog);
}

/* The exact profile lists every load's (value, count) pairs, ascending,
 * summing to its executions; lookups agree. The co-processor's estimate
 * of a load's invariance is the largest of its values' estimated shares
 * (the paper's per-value measure uses the shares). */
static void the_exact_profile_lists_each_loads_values(void **state)
{
	(void)state;
	struct program *prog = load("data/bin/workloads/crc");
	assemble_file("data/coproc/value.s");
	struct outcome o;
	struct crun r;
	struct coproc *cp;
	struct coproc_truth *t;
	run(prog, NULL, TRUTH_LOADS, &o, &r, &cp, &t);
	int n = 0, shares = 0;
	for (const struct truth_key *k; (k = coproc_truth_key(t, n)); n++) {
		uint64_t sum = 0, top = 0, prev = 0, v, c;
		for (uint32_t j = 0; j < k->nvalues; j++) {
			assert_true(coproc_truth_value(t, k->first + j, &v, &c));
			assert_true(j == 0 || v > prev);
			assert_int_equal(coproc_truth_count(t, k->key, v), c);
			prev = v;
			sum += c;
			top = c > top ? c : top;
		}
		assert_int_equal(sum, k->executions);
		assert_int_equal(top, k->top_count);
		struct coproc_pentry e;
		if (!coproc_profile_find(cp, k->key, &e))
			continue;
		double best = 0;
		for (int q = 0; q < e.nvals; q++) {
			double f = coproc_pentry_value_share(&e, e.val[q].value);
			assert_true(f >= 0 && f <= 1);
			best = f > best ? f : best;
		}
		assert_true(best == coproc_pentry_invariance(&e) || best == 0);
		shares += best > 0;
		assert_true(coproc_pentry_value_share(&e, 0x123456789abcull) == 0);
	}
	assert_true(n > 10);
	assert_true(shares > 0);
	assert_int_equal(coproc_truth_count(t, 0x1, 0x2), 0);
	coproc_truth_free(t);
	coproc_free(cp);
	crun_free(&r);
	program_free(prog);
}

/* Feed one retired load to a truth observer (no core needed: period 0). */
static void commit_load(struct coproc_truth *t, uint64_t pc, uint64_t value)
{
	const struct core_observer *obs = coproc_truth_observer(t);
	struct insn_event e = { .stage = INSN_COMMIT, .pc = pc, .kind = INSN_KIND_LOAD, .load_value = value };
	obs->on_insn(obs->ctx, &e);
}

/* The exact profile's host memory: the pair table doubles at 3/4 full
 * (3000 pairs fit the first 4096 slots), and summarising holds one
 * sorted copy of the pairs and one entry per key, built again only when
 * something was counted since; frozen, it frees the table and answers
 * from the summary. */
static void the_exact_profile_holds_one_table_and_one_summary(void **state)
{
	(void)state;
	struct ivx_err err;
	struct coproc_truth *t = coproc_truth_new(NULL, TRUTH_LOADS, 0, 0, 0, &err);
	assert_non_null(t);
	const size_t pair = 3 * sizeof(uint64_t), key = sizeof(struct truth_key);
	size_t empty = coproc_truth_host_bytes(t);
	for (uint64_t pc = 0; pc < 30; pc++)
		for (uint64_t v = 0; v < 100; v++) {
			commit_load(t, 0x400000 + 4 * pc, v);
			commit_load(t, 0x400000 + 4 * pc, v);
		}
	assert_int_equal(coproc_truth_events(t), 6000);
	assert_int_equal(coproc_truth_host_bytes(t), empty);   /* still 4096 slots */
	assert_int_equal(coproc_truth_summarise(t), 30);
	size_t summarised = empty + 3000 * pair + 30 * key;
	assert_int_equal(coproc_truth_host_bytes(t), summarised);
	const struct truth_key *k0 = coproc_truth_key(t, 0);
	assert_int_equal(coproc_truth_summarise(t), 30);   /* nothing new: kept */
	assert_ptr_equal(coproc_truth_key(t, 0), k0);
	assert_int_equal(coproc_truth_host_bytes(t), summarised);
	/* a new pair: the summary is built again, the old one freed */
	commit_load(t, 0x500000, 7);
	assert_int_equal(coproc_truth_summarise(t), 31);
	assert_int_equal(coproc_truth_host_bytes(t), empty + 3001 * pair + 31 * key);
	const struct truth_key *k = coproc_truth_find(t, 0x500000);
	assert_non_null(k);
	assert_int_equal(k->executions, 1);
	assert_int_equal(k->top_value, 7);
	/* past 3/4 of 4096 (3072 pairs) the table doubles */
	for (uint64_t v = 0; v < 72; v++)
		commit_load(t, 0x500004, v);
	assert_int_equal(coproc_truth_summarise(t), 32);
	assert_int_equal(coproc_truth_host_bytes(t), empty + 4096 * pair + 3073 * pair + 32 * key);
	/* frozen: the table is freed, the summary answers the same counts,
	 * and nothing more is counted */
	assert_int_equal(coproc_truth_freeze(t), 0);
	assert_int_equal(coproc_truth_host_bytes(t), empty - 4096 * pair + 3073 * pair + 32 * key);
	size_t pairs = 0;
	for (int q = 0; coproc_truth_key(t, q); q++) {
		const struct truth_key *kq = coproc_truth_key(t, q);
		for (uint32_t j = 0; j < kq->nvalues; j++, pairs++) {
			uint64_t v, c;
			assert_true(coproc_truth_value(t, kq->first + j, &v, &c));
			assert_int_equal(c, kq->key < 0x500000 ? 2 : 1);
			assert_int_equal(coproc_truth_count(t, kq->key, v), c);
		}
	}
	assert_int_equal(pairs, 3073);
	assert_int_equal(coproc_truth_count(t, 0x400000, 100), 0);
	assert_int_equal(coproc_truth_count(t, 0x400002, 1), 0);
	commit_load(t, 0x600000, 1);
	assert_int_equal(coproc_truth_events(t), 6073);
	assert_int_equal(coproc_truth_summarise(t), 32);
	coproc_truth_free(t);
}

static void settings_are_checked(void **state)
{
	(void)state;
	struct coproc_config c;
	struct ivx_err err;
	coproc_config_defaults(&c);
	assert_int_equal(coproc_config_set(&c, "buffer=8", &err), 0);
	assert_int_equal(c.buffer, 8);
	assert_int_equal(coproc_config_set(&c, "policy=stall", &err), 0);
	assert_int_equal(c.policy, COPROC_STALL);
	assert_true(coproc_config_set(&c, "buffer=0", &err) < 0);
	assert_string_equal(err.msg, "coproc buffer: 0 is outside 1..4096");
	assert_true(coproc_config_set(&c, "ignore=1000", &err) < 0);
	assert_string_equal(err.msg, "coproc ignore: 1000 is not a power of two");
	assert_true(coproc_config_set(&c, "colour=red", &err) < 0);
	assert_true(coproc_config_set(&c, "policy=maybe", &err) < 0);
	assert_true(coproc_config_set(&c, "buffer", &err) < 0);
	/* numbers as on the command line: k/M/G suffixes, decimal despite a
	 * leading zero, 0x hex */
	assert_int_equal(coproc_config_set(&c, "timer=50k", &err), 0);
	assert_int_equal(c.timer, 50000);
	assert_int_equal(coproc_config_set(&c, "resample=2M", &err), 0);
	assert_int_equal(c.resample, 2000000);
	assert_int_equal(coproc_config_set(&c, "timer=1G", &err), 0);
	assert_int_equal(c.timer, 1000000000);
	assert_int_equal(coproc_config_set(&c, "buffer=010", &err), 0);
	assert_int_equal(c.buffer, 10);
	assert_int_equal(coproc_config_set(&c, "buffer=0x20", &err), 0);
	assert_int_equal(c.buffer, 32);
	assert_true(coproc_config_set(&c, "buffer=5k", &err) < 0);
	assert_string_equal(err.msg, "coproc buffer: 5k is outside 1..4096");
	assert_true(coproc_config_set(&c, "buffer=k", &err) < 0);
	assert_string_equal(err.msg, "coproc buffer: 'k' is not a number");
	assert_true(coproc_config_set(&c, "buffer=5kk", &err) < 0);
	assert_true(coproc_config_set(&c, "seed=99999999999999999999k", &err) < 0);
	/* value.s lays out 128 slots: a smaller CAM would alias them */
	assemble_file("data/coproc/value.s");
	coproc_config_defaults(&c);
	assert_int_equal(coproc_config_set(&c, "cam=64", &err), 0);
	assert_null(coproc_new(&c, &cprog, NULL, &err));
	assert_string_equal(err.msg, "program value uses 128 slots; the CAM has 64 entries (-C cam=N; in the explorer coproc set cam=N)");
	/* a program's .param cam_entries raises the CAM before the check:
	 * value_topk.s asks for 640 and runs with -C cam=64 */
	assemble_file("data/coproc/value_topk.s");
	struct coproc *cp = coproc_new(&c, &cprog, NULL, &err);
	if (!cp)
		fail_msg("value_topk with cam=64: %s", err.msg);
	assert_int_equal(coproc_cfg(cp)->cam, 640);
	coproc_free(cp);
	assert_int_equal(coproc_check(&c, &cprog, &err), 0);
	/* slots with ways need slots x (ways + 1) entries */
	assemble_text(".classes load\n.fields pc\n.dfe load s\n.param slots 128\n.param ways 4\n"
		      ".param cam_entries 512\ns: nop -> DONE\n");
	assert_true(coproc_check(&c, &cprog, &err) < 0);
	assert_string_equal(err.msg, "program unnamed uses 128 slots of 5 CAM entries (640); the CAM has 512 entries "
			    "(.param cam_entries N, -C cam=N; in the explorer coproc set cam=N)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(edge_profile_is_exact_when_retirement_stalls),
		cmocka_unit_test(resampling_unmasks_and_rechecks_masked_loads),
		cmocka_unit_test(the_pc_filter_tags_the_matching_loads_only),
		cmocka_unit_test(a_full_buffer_drops_or_stalls),
		cmocka_unit_test(counters_and_index_registers_saturate),
		cmocka_unit_test(a_snapshot_restores_the_coprocessor),
		cmocka_unit_test(thrashing_partitions_the_program),
		cmocka_unit_test(a_low_yield_partition_is_left_at_the_timer),
		cmocka_unit_test(time_slices_spread_a_loads_samples),
		cmocka_unit_test(thrashing_slots_resample_masked_loads),
		cmocka_unit_test(spreading_thins_a_hot_load),
		cmocka_unit_test(the_exact_profile_lists_each_loads_values),
		cmocka_unit_test(the_exact_profile_holds_one_table_and_one_summary),
		cmocka_unit_test(settings_are_checked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
