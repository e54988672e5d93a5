/*
 * test_core_interrupt.c — core_interrupt, the way a profiler charges its
 * interrupt handler to the simulated program: during the handler's cycles
 * nothing is fetched, dispatched or committed; the program's results do
 * not change, only its cycle count; and a snapshot taken inside a handler
 * restores it exactly.
 *
 * The profiler here takes every cycle record as it happens (it has no
 * on_idle_cycles), so its interrupts land on the cycle it asks for; one
 * that takes runs of idle cycles learns of them, and interrupts, later.
 *
 * Run from the top of the tree (make unit does); needs data/bin.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>
#include "core_prog.h"

#define PERIOD 5000      /* cycles between interrupts */
#define HANDLER 214      /* cycles per handler (the stratified-sampling paper's figure) */

struct profiler {
	struct core *core;
	uint64_t interrupts;
	uint64_t in_handler_cycles, moved_in_handler;
	uint64_t handler_end;     /* the handler's cycles are those before this one */
	struct core_observer obs;
};

static void check_cycle(struct profiler *p, const struct cycle_record *r, uint64_t n)
{
	if (r->cycle < p->handler_end) {
		uint64_t in = (p->handler_end - r->cycle < n) ? p->handler_end - r->cycle : n;
		p->in_handler_cycles += in;
		if (r->fetched || r->dispatched || r->committed || r->fetch_stall != FETCH_STALL_OTHER)
			p->moved_in_handler++;
	}
}

static void on_cycle(void *ctx, const struct cycle_record *r)
{
	struct profiler *p = ctx;
	check_cycle(p, r, 1);
	if (r->cycle % PERIOD == PERIOD - 1) {
		core_interrupt(p->core, HANDLER);
		p->interrupts++;
		p->handler_end = r->cycle + 1 + HANDLER;
	}
}

static size_t prof_size(void *ctx) { return sizeof(struct profiler); }
static void prof_save(void *ctx, void *blob) { memcpy(blob, ctx, sizeof(struct profiler)); }
static void prof_restore(void *ctx, const void *blob)
{
	struct profiler *p = ctx;
	struct core *c = p->core;
	struct core_observer o = p->obs;
	memcpy(p, blob, sizeof *p);
	p->core = c;
	p->obs = o;
}


struct outcome {
	uint64_t cycles, committed, handler_cycles;
	int exit_code;
	char out[256];
};

static void run(struct program *prog, int profiled, struct profiler *p, struct outcome *o)
{
	char *argv[] = { "crc", "1" };
	struct crun r;
	struct ivx_err err;
	assert_int_equal(crun_start(&r, prog, 2, argv, NULL), 0);
	if (profiled) {
		memset(p, 0, sizeof *p);
		p->core = r.c;
		p->obs = (struct core_observer){ .name = "profiler", .ctx = p, .on_cycle = on_cycle,
						 .state_size = prof_size,
						 .save = prof_save, .restore = prof_restore };
		assert_int_equal(core_add_observer(r.c, &p->obs, &err), 0);
	}
	if (core_run(r.c, 0, 0, &err) != IVX_OK)
		fail_msg("%s", err.msg);
	assert_true(core_done(r.c));
	struct core_stats st;
	core_stats(r.c, &st);
	o->cycles = st.cycles;
	o->committed = st.committed;
	o->handler_cycles = st.handler_cycles;
	o->exit_code = guest_exit_code(r.g);
	snprintf(o->out, sizeof o->out, "%.*s", (int)r.out_len, r.out);
	crun_free(&r);
}

static void a_handler_costs_cycles_and_changes_nothing_else(void **state)
{
	(void)state;
	struct program *prog = cp_load_file("data/bin/workloads/crc");
	assert_non_null(prog);
	struct outcome plain, prof;
	struct profiler p;
	run(prog, 0, NULL, &plain);
	run(prog, 1, &p, &prof);
	assert_true(p.interrupts > 10);
	assert_int_equal(prof.committed, plain.committed);
	assert_int_equal(prof.exit_code, plain.exit_code);
	assert_string_equal(prof.out, plain.out);
	assert_int_equal(plain.handler_cycles, 0);
	/* every interrupt's handler ran in full, unless the program ended in it */
	assert_true(prof.handler_cycles <= p.interrupts * HANDLER);
	assert_true(prof.handler_cycles > (p.interrupts - 1) * HANDLER);
	assert_int_equal(p.moved_in_handler, 0);
	assert_int_equal(p.in_handler_cycles, prof.handler_cycles);
	/* the work in flight overlaps a little of each handler, never more */
	assert_true(prof.cycles > plain.cycles + prof.handler_cycles / 2);
	assert_true(prof.cycles <= plain.cycles + prof.handler_cycles + p.interrupts * 64);
	program_free(prog);
}

static void a_snapshot_inside_a_handler_restores_it(void **state)
{
	(void)state;
	struct program *prog = cp_load_file("data/bin/workloads/crc");
	assert_non_null(prog);
	char *argv[] = { "crc", "1" };
	struct crun r;
	struct ivx_err err;
	struct profiler p = { 0 };
	assert_int_equal(crun_start(&r, prog, 2, argv, NULL), 0);
	p.core = r.c;
	p.obs = (struct core_observer){ .name = "profiler", .ctx = &p, .on_cycle = on_cycle,
					.state_size = prof_size,
					.save = prof_save, .restore = prof_restore };
	assert_int_equal(core_add_observer(r.c, &p.obs, &err), 0);
	/* 100 cycles into the third handler */
	if (core_run(r.c, 3 * PERIOD + 100, 0, &err) != IVX_OK)
		fail_msg("%s", err.msg);
	struct core_snapshot *snap = core_snapshot_save(r.c, &err);
	assert_non_null(snap);
	assert_int_equal(core_run(r.c, 0, 0, &err), IVX_OK);
	struct core_stats first, again;
	core_stats(r.c, &first);
	assert_int_equal(core_snapshot_restore(r.c, snap, &err), IVX_OK);
	assert_int_equal(core_run(r.c, 0, 0, &err), IVX_OK);
	core_stats(r.c, &again);
	assert_int_equal(again.cycles, first.cycles);
	assert_int_equal(again.handler_cycles, first.handler_cycles);
	assert_int_equal(again.committed, first.committed);
	core_snapshot_free(snap);
	crun_free(&r);
	program_free(prog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_handler_costs_cycles_and_changes_nothing_else),
		cmocka_unit_test(a_snapshot_inside_a_handler_restores_it),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
