/*
 * test_core_basic.c — the core model on tiny hand-built programs: results
 * equal the functional emulator's, throughput and latencies are those the
 * configuration promises, the wrong path is squashed without a trace,
 * loads forward from and wait for older stores, and bad input stops with a
 * reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include "core_prog.h"

/* Run `p` to completion on the timing model; returns cycles. */
static uint64_t run_timing(struct crun *r, const struct cprog *p, const char *const *ov)
{
	struct program *prog = cp_program(p, 1 << 16);
	assert_non_null(prog);
	assert_int_equal(crun_start(r, prog, 0, NULL, ov), 0);
	assert_int_equal(core_run(r->c, 0, 0, &r->err), IVX_OK);
	assert_true(core_done(r->c));
	return core_cycles(r->c);
}

static void finish(struct crun *r)
{
	struct program *prog = r->prog;
	crun_free(r);
	program_free(prog);
}

/* The same program run functionally: its final registers. */
static void functional_regs(const struct cprog *p, struct cpu *out, int *exit_code)
{
	struct program *prog = cp_program(p, 1 << 16);
	char *argv[] = { (char *)"t", NULL };
	struct guest_options o = { .argc = 1, .argv = argv, .seed = 1 };
	struct ivx_err err;
	struct guest *g = guest_new(prog, &o, &err);
	assert_non_null(g);
	assert_int_equal(guest_run(g, 0, &err), IVX_OK);
	assert_int_equal(guest_state(g), GUEST_EXITED);
	*out = *guest_cpu(g);
	*exit_code = guest_exit_code(g);
	guest_free(g);
	program_free(prog);
}


static void mixed(struct cprog *p)
{
	p->n = 0;
	for (size_t i = 0; i < sizeof core_mixed_loop / sizeof core_mixed_loop[0]; i++)
		cp_emit(p, core_mixed_loop[i]);
}

static void a_mispredicting_loop_ends_with_the_functional_state(void **state)
{
	(void)state;
	static struct cprog p;
	mixed(&p);
	struct cpu want;
	int want_exit;
	functional_regs(&p, &want, &want_exit);
	struct crun r;
	run_timing(&r, &p, NULL);
	struct core_stats st;
	core_stats(r.c, &st);
	assert_true(st.mispredicts > 100);      /* the tbz is data dependent */
	assert_true(st.squashed > st.mispredicts);
	const struct cpu *got = guest_cpu(r.g);
	for (int i = 0; i <= CPU_SP; i++)
		assert_int_equal(got->x[i], want.x[i]);
	assert_int_equal(got->nzcv, want.nzcv);
	assert_int_equal(guest_exit_code(r.g), want_exit);
	assert_int_equal(st.committed, guest_insns(r.g));
	finish(&r);
}

/* 32 independent adds + loop control per iteration, 2000 iterations. */
static void independent_adds(struct cprog *p, int dependent)
{
	p->n = 0;
	cp_emit(p, I_MOVZ(9, 2000));
	int loop = p->n;
	for (int i = 0; i < 32; i++)
		cp_emit(p, dependent ? I_ADDI(1, 1, 1) : I_ADDI(1 + i % 8, 10, i));
	cp_emit(p, I_SUBSI(9, 9, 1));
	cp_emit(p, I_BCOND(COND_NE, loop - p->n));
	cp_emit(p, I_MOVZ(0, 0));
	cp_exit(p);
}

static void independent_work_runs_at_the_dispatch_width(void **state)
{
	(void)state;
	static struct cprog p;
	independent_adds(&p, 0);
	struct crun r;
	uint64_t cycles = run_timing(&r, &p, NULL);
	double ipc = (double)core_committed(r.c) / (double)cycles;
	print_message("IPC %.3f (dispatch width 4)\n", ipc);
	assert_true(ipc > 3.6);
	assert_true(ipc <= 4.0);                 /* decode/dispatch/commit width */
	finish(&r);
}

static void a_dependent_chain_runs_one_per_cycle(void **state)
{
	(void)state;
	static struct cprog p;
	independent_adds(&p, 1);
	struct crun r;
	uint64_t cycles = run_timing(&r, &p, NULL);
	double per_iter = (double)cycles / 2000.0;
	print_message("%.2f cycles per 32-add chain\n", per_iter);
	assert_true(per_iter > 31.5 && per_iter < 33.5);
	finish(&r);
}

/* A chain of n ops of `word` (reading and writing x1) per iteration. */
static void chain_of(struct cprog *p, uint32_t word, int n, int iters)
{
	p->n = 0;
	cp_emit(p, I_MOVZ(9, iters));
	cp_emit(p, I_MOVZ(2, 1));
	cp_emit(p, I_MOVZ(1, 7));
	int loop = p->n;
	for (int i = 0; i < n; i++)
		cp_emit(p, word);
	cp_emit(p, I_SUBSI(9, 9, 1));
	cp_emit(p, I_BCOND(COND_NE, loop - p->n));
	cp_emit(p, I_MOVZ(0, 0));
	cp_exit(p);
}

static void multiplies_take_the_configured_latency(void **state)
{
	(void)state;
	static struct cprog p;
	chain_of(&p, I_MUL(1, 1, 2), 16, 500);
	const char *ov[] = { "latency.mul=5", NULL };
	struct crun r;
	uint64_t cycles = run_timing(&r, &p, ov);
	double per_iter = (double)cycles / 500.0;
	print_message("%.2f cycles per 16 multiplies of latency 5\n", per_iter);
	assert_true(per_iter > 16 * 5 - 1 && per_iter < 16 * 5 + 3);
	struct core_stats st;
	core_stats(r.c, &st);
	assert_true(st.events_correct[MISS_FU_STALL] > 0);   /* mul >= long_latency_threshold */
	finish(&r);
}

static void the_divider_is_not_pipelined(void **state)
{
	(void)state;
	static struct cprog p;
	/* 8 independent divides per iteration */
	p.n = 0;
	cp_emit(&p, I_MOVZ(9, 200));
	cp_emit(&p, I_MOVZ(10, 1000));
	cp_emit(&p, I_MOVZ(11, 7));
	int loop = p.n;
	for (int i = 0; i < 8; i++)
		cp_emit(&p, I_UDIV(1 + i, 10, 11));
	cp_emit(&p, I_SUBSI(9, 9, 1));
	cp_emit(&p, I_BCOND(COND_NE, loop - p.n));
	cp_emit(&p, I_MOVZ(0, 0));
	cp_exit(&p);
	struct crun r;
	uint64_t one = run_timing(&r, &p, NULL);
	finish(&r);
	print_message("8 divides: %.2f cycles with one divider\n", one / 200.0);
	assert_true(one / 200.0 > 8 * 20 - 2 && one / 200.0 < 8 * 20 + 4);
	const char *two_units[] = { "units.div=2", NULL };
	uint64_t two = run_timing(&r, &p, two_units);
	finish(&r);
	print_message("8 divides: %.2f cycles with two dividers\n", two / 200.0);
	assert_true(two / 200.0 > 4 * 20 - 2 && two / 200.0 < 4 * 20 + 4);
}

/* 16 accesses per iteration walking up from sp, each through the base
 * the one before wrote back (post-index: `ldr x2, [x1], #8`, then `sub
 * x1, x1, #128` back to sp), or each loading the next base itself (`ldr
 * x1, [x1]`, from sp, which holds its own address): one chain through
 * all 500 iterations. */
#define I_LDR_POST(rt, rn, imm) (0xf8400400u | (((uint32_t)(imm) & 0x1ff) << 12) | ((rn) << 5) | (rt))
#define I_STR_PRE(rt, rn, imm)  (0xf8000c00u | (((uint32_t)(imm) & 0x1ff) << 12) | ((rn) << 5) | (rt))
#define I_SUBI(rd, rn, imm)     (0xd1000000u | ((uint32_t)(imm) << 10) | ((rn) << 5) | (rd))

static uint64_t base_chain_cycles(uint32_t word, int walks, const char *const *ov)
{
	static struct cprog p;
	p.n = 0;
	cp_emit(&p, I_MOVZ(9, 500));
	cp_emit(&p, I_ADDI(1, 31, 0));          /* mov x1, sp */
	cp_emit(&p, I_STR(1, 1, 0));            /* str x1, [x1] */
	int loop = p.n;
	for (int i = 0; i < 16; i++)
		cp_emit(&p, word);
	if (walks)
		cp_emit(&p, I_SUBI(1, 1, 16 * 8));
	cp_emit(&p, I_SUBSI(9, 9, 1));
	cp_emit(&p, I_BCOND(COND_NE, loop - p.n));
	cp_emit(&p, I_MOVZ(0, 0));
	cp_exit(&p);
	struct crun r;
	uint64_t cycles = run_timing(&r, &p, ov);
	finish(&r);
	return cycles;
}

/* The base register a pre- or post-indexed access writes back is ready
 * the cycle after the access issues, not with its data: a chain through
 * it runs at one access a cycle, whatever the load latency, in both core
 * modes; a chain through the loaded data runs at the load latency. */
static void a_written_back_base_is_ready_after_the_address_step(void **state)
{
	(void)state;
	const char *lat2[] = { "latency.load=2", NULL }, *lat6[] = { "latency.load=6", NULL };
	const char *inorder6[] = { "latency.load=6", "core.mode=inorder", NULL };
	double post2 = base_chain_cycles(I_LDR_POST(2, 1, 8), 1, lat2) / 500.0;
	double post6 = base_chain_cycles(I_LDR_POST(2, 1, 8), 1, lat6) / 500.0;
	double post6_inorder = base_chain_cycles(I_LDR_POST(2, 1, 8), 1, inorder6) / 500.0;
	double store6 = base_chain_cycles(I_STR_PRE(9, 1, 8), 1, lat6) / 500.0;
	double data6 = base_chain_cycles(I_LDR(1, 1, 0), 0, lat6) / 500.0;
	print_message("16 chained accesses: post-index load %.2f (load latency 2), %.2f (6), %.2f (6, in order); "
		      "pre-index store %.2f; data-dependent load %.2f (6)\n", post2, post6, post6_inorder, store6, data6);
	/* (the 17th step of the chain: the sub) */
	assert_true(post2 > 16.5 && post2 < 18.5);
	assert_true(post6 > 16.5 && post6 < 18.5);
	assert_true(post6_inorder > 16.5 && post6_inorder < 18.5);
	assert_true(store6 > 16.5 && store6 < 18.5);
	assert_true(data6 > 16 * 6 - 1 && data6 < 16 * 6 + 2);
}

static void perfect_prediction_fetches_no_wrong_path(void **state)
{
	(void)state;
	static struct cprog p;
	mixed(&p);
	const char *ov[] = { "perfect.bpred=1", NULL };
	struct crun r;
	uint64_t perfect = run_timing(&r, &p, ov);
	struct core_stats st;
	core_stats(r.c, &st);
	assert_int_equal(st.mispredicts, 0);
	assert_int_equal(st.squashed, 0);
	assert_int_equal(st.fetched, st.committed);
	assert_int_equal(st.events_correct[MISS_MISPREDICT], 0);
	finish(&r);
	uint64_t real = run_timing(&r, &p, NULL);
	finish(&r);
	print_message("mixed loop: %llu cycles, %llu with perfect prediction\n", (unsigned long long)real,
		      (unsigned long long)perfect);
	assert_true(real > perfect);
}

/* A taken branch the cold predictor calls not-taken; the fall-through
 * (wrong path) loads from address 0, which must not stop the run. */
static void a_fault_on_the_wrong_path_is_harmless(void **state)
{
	(void)state;
	static struct cprog p;
	p.n = 0;
	cp_emit(&p, I_MOVZ(0, 0));
	cp_emit(&p, I_MOVZ(1, 1));
	cp_emit(&p, I_CBNZ(1, 3));
	cp_emit(&p, I_LDR(2, 0, 0));
	cp_emit(&p, I_LDR(3, 0, 8));
	cp_emit(&p, I_MOVZ(0, 5));
	cp_exit(&p);
	struct crun r;
	run_timing(&r, &p, NULL);
	struct core_stats st;
	core_stats(r.c, &st);
	assert_int_equal(st.mispredicts, 1);
	assert_int_equal(guest_exit_code(r.g), 5);
	assert_int_equal(st.committed, 6);
	finish(&r);
}

static void a_fault_on_the_correct_path_stops_when_it_commits(void **state)
{
	(void)state;
	static struct cprog p;
	p.n = 0;
	cp_emit(&p, I_MOVZ(0, 0));
	cp_emit(&p, I_MOVZ(1, 1));
	cp_emit(&p, I_LDR(2, 0, 0));
	cp_emit(&p, I_MOVZ(0, 5));
	cp_exit(&p);
	struct program *prog = cp_program(&p, 64);
	struct crun r;
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	int rc = core_run(r.c, 0, 0, &r.err);
	assert_int_equal(rc, IVX_EGUEST);
	assert_non_null(strstr(r.err.msg, "address 0x0"));
	assert_int_equal(core_committed(r.c), 2);       /* the two movz before it */
	assert_false(core_done(r.c));
	finish(&r);
}

/* Records issue/complete cycles of the instructions at given pcs. */
struct times {
	uint64_t pc[4], issue[4], complete[4];
	int level[4];
	struct core_observer obs;
};

static void times_on_insn(void *ctx, const struct insn_event *e)
{
	struct times *t = ctx;
	for (int i = 0; i < 4; i++) {
		if (e->pc != t->pc[i] || e->wrong_path)
			continue;
		if (e->stage == INSN_ISSUE)
			t->issue[i] = e->cycle;
		if (e->stage == INSN_COMPLETE) {
			t->complete[i] = e->cycle;
			t->level[i] = e->dcache_level;
		}
	}
}

static uint64_t pc_of(int index) { return EB_TEXT + EB_CODE_OFF + 4 * (uint64_t)index; }

static void a_load_forwards_from_an_older_store(void **state)
{
	(void)state;
	static struct cprog p;
	p.n = 0;
	cp_emit(&p, I_MOVZ16(10, 0x50));
	cp_emit(&p, I_MOVZ(1, 42));
	int st = cp_emit(&p, I_STR(1, 10, 64));
	int ld = cp_emit(&p, I_LDR(2, 10, 64));
	cp_emit(&p, I_ADDI(0, 2, 0));
	cp_exit(&p);
	struct program *prog = cp_program(&p, 4096);
	struct crun r;
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	struct times t = { .pc = { pc_of(st), pc_of(ld) } };
	t.obs = (struct core_observer){ .name = "t", .ctx = &t, .on_insn = times_on_insn };
	assert_int_equal(core_add_observer(r.c, &t.obs, NULL), 0);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	assert_int_equal(guest_exit_code(r.g), 42);
	/* the line was never touched before: only forwarding makes it a hit */
	assert_int_equal(t.level[1], 1);
	assert_int_equal(t.complete[1] - t.issue[1], r.cfg.load_latency);
	/* so the load begins no miss event; the only one is the store's own
	 * write-allocate miss when it commits (the line comes from memory) */
	struct core_stats s;
	core_stats(r.c, &s);
	assert_int_equal(s.events_correct[MISS_L1D], 0);
	assert_int_equal(s.events_correct[MISS_L2D], 1);
	finish(&r);
}

static void a_load_waits_for_an_older_store_address(void **state)
{
	(void)state;
	static struct cprog p;
	p.n = 0;
	cp_emit(&p, I_MOVZ16(10, 0x50));
	cp_emit(&p, I_MOVZ(11, 1));
	int div = cp_emit(&p, I_UDIV(12, 10, 11));      /* x12 = x10, after 20 cycles */
	cp_emit(&p, I_STR(11, 12, 128));                /* its address waits for the divide */
	int ld = cp_emit(&p, I_LDR(2, 10, 512));        /* a different address */
	cp_emit(&p, I_MOVZ(0, 0));
	cp_exit(&p);
	struct program *prog = cp_program(&p, 4096);
	struct crun r;
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	struct times t = { .pc = { pc_of(div), pc_of(ld) } };
	t.obs = (struct core_observer){ .name = "t", .ctx = &t, .on_insn = times_on_insn };
	assert_int_equal(core_add_observer(r.c, &t.obs, NULL), 0);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	assert_true(t.issue[1] >= t.complete[0]);
	finish(&r);
}

static void two_runs_are_identical(void **state)
{
	(void)state;
	static struct cprog p;
	mixed(&p);
	static struct evcheck e1, e2;
	struct core_stats s1, s2;
	struct crun r;
	struct program *prog = cp_program(&p, 1 << 16);
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	core_add_observer(r.c, ev_observer(&e1), NULL);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	core_stats(r.c, &s1);
	crun_free(&r);
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	core_add_observer(r.c, ev_observer(&e2), NULL);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	core_stats(r.c, &s2);
	finish(&r);
	assert_memory_equal(&s1, &s2, sizeof s1);
	assert_int_equal(e1.hash, e2.hash);
	assert_int_equal(e1.errors, 0);
}

static void the_event_stream_is_consistent(void **state)
{
	(void)state;
	static struct cprog p;
	mixed(&p);
	static struct evcheck e;
	struct crun r;
	struct program *prog = cp_program(&p, 1 << 16);
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	core_add_observer(r.c, ev_observer(&e), NULL);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	struct core_stats st;
	core_stats(r.c, &st);
	if (e.errors)
		fail_msg("%s", e.first_error);
	for (int k = 0; k < MISS_KIND_COUNT; k++) {
		assert_int_equal(e.begins[k], st.events_correct[k] + st.events_wrong[k]);
		assert_int_equal(e.begins_correct[k], st.events_correct[k]);
	}
	/* at the end only state-based events may still be open */
	assert_true(e.n_open <= 2);
	assert_int_equal(e.insn[INSN_COMMIT], st.committed);
	assert_int_equal(e.insn[INSN_FETCH], st.fetched);
	assert_int_equal(e.insn[INSN_SQUASH], st.squashed);
	assert_int_equal(e.insn[INSN_FETCH], e.insn[INSN_COMMIT] + e.insn[INSN_SQUASH]);
	assert_int_equal(e.cycles, st.cycles);
	assert_int_equal(st.events_correct[MISS_MISPREDICT], st.mispredicts);
	assert_true(st.events_correct[MISS_L2D] > 0);        /* cold table lines */
	finish(&r);
}

static void in_order_issue_is_slower_and_dual_issue(void **state)
{
	(void)state;
	static struct cprog p;
	independent_adds(&p, 0);
	const char *ov[] = { "core.mode=inorder", "core.issue_width=2", NULL };
	struct crun r;
	uint64_t cycles = run_timing(&r, &p, ov);
	double ipc = (double)core_committed(r.c) / (double)cycles;
	finish(&r);
	print_message("in-order dual issue: IPC %.3f\n", ipc);
	assert_true(ipc > 1.8 && ipc <= 2.0);
	mixed(&p);
	uint64_t inorder = run_timing(&r, &p, ov);
	finish(&r);
	uint64_t ooo = run_timing(&r, &p, NULL);
	finish(&r);
	print_message("mixed loop: in-order %llu cycles, out-of-order %llu\n", (unsigned long long)inorder,
		      (unsigned long long)ooo);
	assert_true(inorder > ooo);
}

static void an_impossible_configuration_is_refused(void **state)
{
	(void)state;
	static struct cprog p;
	independent_adds(&p, 0);
	struct program *prog = cp_program(&p, 64);
	struct crun r;
	const char *ov[] = { "core.rob_size=2", NULL };
	assert_int_equal(crun_start(&r, prog, 0, NULL, ov), -1);
	assert_non_null(strstr(r.err.msg, "rob_size"));
	finish(&r);
}


static void run_stats(const struct cprog *p, const char *const *ov, struct core_stats *st)
{
	struct crun r;
	run_timing(&r, p, ov);
	core_stats(r.c, st);
	finish(&r);
}

/* A data-dependent branch that resolves late (it waits for a divide)
 * guarding a load that streams through memory: the wrong path runs ahead
 * and its loads, independent of the divide, miss. */
static const uint32_t wrong_path_loads_words[] = {
	0xd2a00a0a, /* mov x10, #0x500000 */
	0xd2860725, /* mov x5, #0x3039 */
	0xd28000a6, /* mov x6, #0x5 */
	0xd2803209, /* mov x9, #400 */
	0x9b0618a5, /* loop: madd x5, x5, x6, x6 */
	0x9ac608a7, /* udiv x7, x5, x6 */
	0xd365fce8, /* lsr x8, x7, #37 */
	0x92400108, /* and x8, x8, #0x1 */
	0xb4000048, /* cbz x8, skip */
	0xf9400141, /* ldr x1, [x10] */
	0x9101014a, /* skip: add x10, x10, #0x40 */
	0xf1000529, /* subs x9, x9, #0x1 */
	0x54ffff01, /* b.ne loop */
	0xd2800000, /* mov x0, #0 */
	0xd2800bc8, /* mov x8, #94 */
	0xd4000001, /* svc #0 */
};

static void perfect_components_and_wrong_path_memory_switch_events_off(void **state)
{
	(void)state;
	static struct cprog p;
	p.n = 0;
	for (size_t i = 0; i < sizeof wrong_path_loads_words / sizeof wrong_path_loads_words[0]; i++)
		cp_emit(&p, wrong_path_loads_words[i]);
	struct core_stats real, off, l1d, l2d, tlbs, icache;
	run_stats(&p, NULL, &real);
	assert_true(real.events_wrong[MISS_L1D] + real.events_wrong[MISS_L2D] > 0);
	assert_true(real.events_correct[MISS_L2D] > 0 && real.events_correct[MISS_L1I] + real.events_correct[MISS_L2I] > 0);
	assert_true(real.events_correct[MISS_DTLB] + real.events_wrong[MISS_DTLB] > 0);
	assert_true(real.events_correct[MISS_ITLB] > 0);

	const char *no_wp[] = { "wrongpath.memory=0", NULL };
	run_stats(&p, no_wp, &off);
	for (int k = MISS_L1I; k <= MISS_DTLB; k++)
		assert_int_equal(off.events_wrong[k], 0);
	assert_true(off.squashed > 0);                     /* the wrong path still runs */

	const char *pl1d[] = { "perfect.l1d=1", NULL };
	run_stats(&p, pl1d, &l1d);
	assert_int_equal(l1d.events_correct[MISS_L1D] + l1d.events_correct[MISS_L2D], 0);
	assert_int_equal(l1d.events_wrong[MISS_L1D] + l1d.events_wrong[MISS_L2D], 0);
	assert_true(l1d.cycles < real.cycles);

	const char *pl2d[] = { "perfect.l2d=1", NULL };
	run_stats(&p, pl2d, &l2d);
	assert_int_equal(l2d.events_correct[MISS_L2D], 0);
	assert_true(l2d.events_correct[MISS_L1D] > 0);     /* the L1 still misses, into a perfect L2 */

	const char *ptlb[] = { "perfect.itlb=1", "perfect.dtlb=1", NULL };
	run_stats(&p, ptlb, &tlbs);
	assert_int_equal(tlbs.events_correct[MISS_ITLB] + tlbs.events_correct[MISS_DTLB], 0);
	assert_int_equal(tlbs.events_wrong[MISS_ITLB] + tlbs.events_wrong[MISS_DTLB], 0);

	const char *pi[] = { "perfect.l1i=1", NULL };
	run_stats(&p, pi, &icache);
	assert_int_equal(icache.events_correct[MISS_L1I] + icache.events_correct[MISS_L2I], 0);
	assert_true(icache.events_correct[MISS_ITLB] > 0);
}

/* Memory latency beyond the completion wheel's 1024 buckets: loads park and
 * re-insert, and wrong-path ones are squashed while parked. */
static void latencies_longer_than_the_wheel_work(void **state)
{
	(void)state;
	static struct cprog p;
	p.n = 0;
	for (size_t i = 0; i < sizeof wrong_path_loads_words / sizeof wrong_path_loads_words[0]; i++)
		cp_emit(&p, wrong_path_loads_words[i]);
	struct cpu want;
	int want_exit;
	functional_regs(&p, &want, &want_exit);
	const char *ov[] = { "memory.latency=2500", NULL };
	struct crun r;
	uint64_t cycles = run_timing(&r, &p, ov);
	struct core_stats st;
	core_stats(r.c, &st);
	assert_true(st.events_wrong[MISS_L2D] > 0);
	assert_true(cycles > 2500 * 10);
	for (int i = 0; i <= CPU_SP; i++)
		assert_int_equal(guest_cpu(r.g)->x[i], want.x[i]);
	assert_int_equal(guest_exit_code(r.g), want_exit);
	finish(&r);
}

/* Commits per instruction (core_count_commits) on the mixed loop: each
 * straight-line instruction once, the loop's 3000 times, the two in the
 * tbz's shadow as often as the guest's own count of their results says,
 * wrong-path instructions never (the counts add up to the commits). */
static void commit_counts_are_exact(void **state)
{
	(void)state;
	struct cprog p;
	mixed(&p);
	struct program *prog = cp_program(&p, 1 << 16);
	assert_non_null(prog);
	struct crun r;
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	assert_int_equal(core_commits_at(r.c, EB_TEXT + EB_CODE_OFF), 0);   /* not counted yet */
	assert_int_equal(core_count_commits(r.c, &r.err), IVX_OK);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	assert_true(core_done(r.c));
	uint64_t pc0 = EB_TEXT + EB_CODE_OFF, sum = 0;
	for (int i = 0; i < p.n; i++)
		sum += core_commits_at(r.c, pc0 + 4 * (uint64_t)i);
	assert_int_equal(sum, core_committed(r.c));
	for (int i = 0; i < 4; i++)
		assert_int_equal(core_commits_at(r.c, pc0 + 4 * (uint64_t)i), 1);
	for (int i = 4; i <= 10; i++)
		assert_int_equal(core_commits_at(r.c, pc0 + 4 * (uint64_t)i), 3000);
	uint64_t not_skipped = guest_cpu(r.g)->x[11];   /* add x11, x11, #1 in the shadow */
	assert_true(not_skipped > 0 && not_skipped < 3000);
	assert_int_equal(core_commits_at(r.c, pc0 + 4 * 11), not_skipped);
	assert_int_equal(core_commits_at(r.c, pc0 + 4 * 12), not_skipped);
	for (int i = 13; i <= 15; i++)
		assert_int_equal(core_commits_at(r.c, pc0 + 4 * (uint64_t)i), 3000);
	for (int i = 16; i < p.n; i++)
		assert_int_equal(core_commits_at(r.c, pc0 + 4 * (uint64_t)i), 1);
	/* outside the code, or not an instruction's address */
	assert_int_equal(core_commits_at(r.c, pc0 - 0x1000), 0);
	assert_int_equal(core_commits_at(r.c, pc0 + 4 * 4 + 2), 0);
	assert_int_equal(core_commits_at(r.c, 0x7fff0000), 0);
	finish(&r);

	/* asked for once the run has begun: refused, with a reason */
	assert_int_equal(crun_start(&r, cp_program(&p, 1 << 16), 0, NULL, NULL), 0);
	assert_int_equal(core_cycle(r.c, &r.err), IVX_OK);
	assert_true(core_count_commits(r.c, &r.err) < 0);
	assert_non_null(strstr(r.err.msg, "before the first cycle"));
	finish(&r);
}

/* A code segment zero-filled far beyond its file bytes (1 GiB here)
 * holds nothing that can commit: the counters cover the words the program
 * decoded, so a snapshot stays small instead of copying 2 GiB of them. */
static void commit_counts_cover_only_the_decoded_code(void **state)
{
	(void)state;
	struct cprog p = { .n = 0 };
	cp_emit(&p, I_MOVZ(9, 1000));
	cp_emit(&p, I_ADDI(1, 1, 1));        /* loop */
	cp_emit(&p, I_SUBSI(9, 9, 1));
	cp_emit(&p, I_BCOND(COND_NE, -2));
	cp_exit(&p);
	struct eb_image im = eb_build(p.w, (size_t)p.n, 0);
	eb_phdr(&im, 0)->p_memsz = 1u << 30;
	eb_phdr(&im, 1)->p_vaddr = EB_TEXT + (1u << 30) + 0x1000;
	struct ivx_err err;
	struct program *prog = program_load_image(im.bytes, im.len, "t", &err);
	free(im.bytes);
	assert_non_null(prog);
	struct crun r;
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	assert_int_equal(core_count_commits(r.c, &r.err), IVX_OK);
	struct core_snapshot *sn = core_snapshot_save(r.c, &r.err);
	assert_non_null(sn);
	assert_true(core_snapshot_bytes(sn) < (16u << 20));
	core_snapshot_free(sn);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	assert_true(core_done(r.c));
	uint64_t pc0 = EB_TEXT + EB_CODE_OFF;
	assert_int_equal(core_commits_at(r.c, pc0), 1);
	for (int i = 1; i <= 3; i++)
		assert_int_equal(core_commits_at(r.c, pc0 + 4 * (uint64_t)i), 1000);
	assert_int_equal(core_commits_at(r.c, pc0 + (1u << 20)), 0);   /* in the fill */
	finish(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_mispredicting_loop_ends_with_the_functional_state),
		cmocka_unit_test(independent_work_runs_at_the_dispatch_width),
		cmocka_unit_test(a_dependent_chain_runs_one_per_cycle),
		cmocka_unit_test(multiplies_take_the_configured_latency),
		cmocka_unit_test(the_divider_is_not_pipelined),
		cmocka_unit_test(a_written_back_base_is_ready_after_the_address_step),
		cmocka_unit_test(perfect_prediction_fetches_no_wrong_path),
		cmocka_unit_test(a_fault_on_the_wrong_path_is_harmless),
		cmocka_unit_test(a_fault_on_the_correct_path_stops_when_it_commits),
		cmocka_unit_test(a_load_forwards_from_an_older_store),
		cmocka_unit_test(a_load_waits_for_an_older_store_address),
		cmocka_unit_test(two_runs_are_identical),
		cmocka_unit_test(the_event_stream_is_consistent),
		cmocka_unit_test(in_order_issue_is_slower_and_dual_issue),
		cmocka_unit_test(an_impossible_configuration_is_refused),
		cmocka_unit_test(perfect_components_and_wrong_path_memory_switch_events_off),
		cmocka_unit_test(latencies_longer_than_the_wheel_work),
		cmocka_unit_test(commit_counts_are_exact),
		cmocka_unit_test(commit_counts_cover_only_the_decoded_code),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
