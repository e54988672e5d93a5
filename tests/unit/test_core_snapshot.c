/*
 * test_core_snapshot.c — snapshots restore the engine exactly (re-running
 * gives the same events, statistics and guest state), and a core that
 * stops committing reports a deadlock with the ROB head instead of hanging.
 * The deadlocks are injected by corrupting the core's state through
 * core_internal.h, since a healthy core cannot be driven into one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include "core/core_internal.h"
#include "core_prog.h"

static const uint32_t mixed_words[] = {
	0xd2a00a0a, 0xd2860725, 0xd28000a6, 0xd2817709, 0x9b0618a5, 0xd365fca7, 0x92401ce7,
	0xf8677943, 0x8b070063, 0xf8277943, 0xb6480065, 0x9100056b, 0x9ac608ac, 0x8b030021,
	0xf1000529, 0x54fffea1, 0x92401c20, 0xd2800bc8, 0xd4000001,
};  /* the mixed loop of test_core_basic.c */

static struct program *mixed_program(void)
{
	static struct cprog p;
	p.n = 0;
	for (size_t i = 0; i < sizeof mixed_words / sizeof mixed_words[0]; i++)
		cp_emit(&p, mixed_words[i]);
	return cp_program(&p, 1 << 16);
}

struct probe {
	int wrong_path_in_rob;
	struct core_observer obs;
};

static void probe_cycle(void *ctx, const struct cycle_record *r)
{
	((struct probe *)ctx)->wrong_path_in_rob = r->wrong_path_in_rob;
}

struct outcome {
	uint64_t hash;
	struct core_stats st;
	struct cpu cpu;
	int rob;
	struct rob_view head;
	uint64_t commits[sizeof mixed_words / sizeof mixed_words[0]];   /* per instruction */
};

static void run_k(struct crun *r, struct evcheck *e, uint64_t k, struct outcome *o)
{
	uint64_t until = core_cycles(r->c) + k;
	assert_int_equal(core_run(r->c, until, 0, &r->err), IVX_OK);
	o->hash = e->hash;
	core_stats(r->c, &o->st);
	o->cpu = *guest_cpu(r->g);
	o->rob = core_rob_occupancy(r->c);
	memset(&o->head, 0, sizeof o->head);
	core_rob_entry(r->c, 0, &o->head);
	for (size_t i = 0; i < sizeof o->commits / sizeof o->commits[0]; i++)
		o->commits[i] = core_commits_at(r->c, EB_TEXT + EB_CODE_OFF + 4 * i);
}

static void assert_same(const struct outcome *a, const struct outcome *b)
{
	assert_int_equal(a->hash, b->hash);
	assert_memory_equal(&a->st, &b->st, sizeof a->st);
	assert_memory_equal(a->cpu.x, b->cpu.x, sizeof a->cpu.x);
	assert_int_equal(a->cpu.pc, b->cpu.pc);
	assert_int_equal(a->rob, b->rob);
	assert_int_equal(a->head.seq, b->head.seq);
	assert_memory_equal(a->commits, b->commits, sizeof a->commits);
}

static void restoring_replays_identically(void **state)
{
	(void)state;
	struct program *prog = mixed_program();
	struct crun r;
	static struct evcheck e;
	struct probe pr = { 0 };
	pr.obs = (struct core_observer){ .name = "probe", .ctx = &pr, .on_cycle = probe_cycle };
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	assert_int_equal(core_count_commits(r.c, &r.err), IVX_OK);
	core_add_observer(r.c, ev_observer(&e), NULL);
	core_add_observer(r.c, &pr.obs, NULL);
	/* snapshot in the middle of a wrong path, so the guest is speculating */
	assert_int_equal(core_run(r.c, 5000, 0, &r.err), IVX_OK);
	while (!pr.wrong_path_in_rob)
		assert_int_equal(core_cycle(r.c, &r.err), IVX_OK);
	uint64_t c0 = core_cycles(r.c);
	struct core_snapshot *sn = core_snapshot_save(r.c, &r.err);
	assert_non_null(sn);
	assert_true(core_snapshot_bytes(sn) > 0);
	struct outcome first, second, third;
	struct outcome at_snapshot;
	run_k(&r, &e, 0, &at_snapshot);
	run_k(&r, &e, 4000, &first);
	assert_true(first.commits[4] > at_snapshot.commits[4]);   /* the loop went on */
	assert_int_equal(core_snapshot_restore(r.c, sn, &r.err), IVX_OK);
	assert_int_equal(core_cycles(r.c), c0);
	struct outcome restored;
	run_k(&r, &e, 0, &restored);
	assert_memory_equal(restored.commits, at_snapshot.commits, sizeof restored.commits);
	run_k(&r, &e, 4000, &second);
	assert_same(&first, &second);
	/* and to the end of the program */
	assert_int_equal(core_snapshot_restore(r.c, sn, &r.err), IVX_OK);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	third.hash = e.hash;
	core_stats(r.c, &third.st);
	assert_true(core_done(r.c));
	/* everything drained: the store-queue filter is back to zero */
	for (int i = 0; i < CORE_SQ_FILTER; i++)
		assert_int_equal(r.c->s.sq_filter[i], 0);
	assert_int_equal(r.c->s.sq_tail, r.c->s.sq_head);
	core_snapshot_free(sn);
	crun_free(&r);

	/* a run that never snapshotted ends the same */
	static struct evcheck e2;
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	core_add_observer(r.c, ev_observer(&e2), NULL);
	core_add_observer(r.c, &pr.obs, NULL);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	struct core_stats st;
	core_stats(r.c, &st);
	assert_memory_equal(&st, &third.st, sizeof st);
	assert_int_equal(e2.hash, third.hash);
	crun_free(&r);
	program_free(prog);
}

static void a_snapshot_of_another_machine_is_refused(void **state)
{
	(void)state;
	struct program *prog = mixed_program();
	struct crun a, b;
	const char *big[] = { "core.rob_size=256", NULL };
	assert_int_equal(crun_start(&a, prog, 0, NULL, NULL), 0);
	struct core_snapshot *sn = core_snapshot_save(a.c, &a.err);
	assert_non_null(sn);
	assert_int_equal(crun_start(&b, prog, 0, NULL, big), 0);
	assert_true(core_snapshot_restore(b.c, sn, &b.err) < 0);
	crun_free(&b);
	/* nor is one of a core that did not count commits by one that does */
	assert_int_equal(crun_start(&b, prog, 0, NULL, NULL), 0);
	assert_int_equal(core_count_commits(b.c, &b.err), IVX_OK);
	assert_true(core_snapshot_restore(b.c, sn, &b.err) < 0);
	core_snapshot_free(sn);
	crun_free(&a);
	crun_free(&b);
	program_free(prog);
}

static const char *const quick_deadlock[] = { "sim.deadlock_cycles=2000", NULL };

static void an_operand_that_never_arrives_is_a_deadlock(void **state)
{
	(void)state;
	struct program *prog = mixed_program();
	struct crun r;
	assert_int_equal(crun_start(&r, prog, 0, NULL, quick_deadlock), 0);
	assert_int_equal(core_run(r.c, 2000, 0, &r.err), IVX_OK);
	/* make the youngest waiting correct-path instruction wait for a producer
	 * that does not exist */
	struct core *c = r.c;
	struct core_insn *victim = NULL;
	for (uint64_t p = c->s.head; p != c->s.dispatch; p++)
		if (core_at(c, p)->state == IS_WAITING && !core_at(c, p)->wrong_path)
			victim = core_at(c, p);
	assert_non_null(victim);
	uint32_t slot = (uint32_t)(victim - c->ring);
	victim->pending++;
	c->ready[slot >> 6] &= ~(1ull << (slot & 63));
	int rc = core_run(r.c, 0, 0, &r.err);
	assert_int_equal(rc, IVX_EDEADLOCK);
	print_message("%s\n", r.err.msg);
	assert_non_null(strstr(r.err.msg, "ROB head"));
	assert_non_null(strstr(r.err.msg, "never became ready"));
	assert_true(core_cycles(r.c) < 2000 + 3000);
	crun_free(&r);
	program_free(prog);
}

static void a_frontend_that_never_delivers_is_a_deadlock(void **state)
{
	(void)state;
	struct program *prog = mixed_program();
	struct crun r;
	assert_int_equal(crun_start(&r, prog, 0, NULL, quick_deadlock), 0);
	assert_int_equal(core_run(r.c, 2000, 0, &r.err), IVX_OK);
	/* a frontend stuck as if waiting for a system call that is not there
	 * (re-applied every cycle: a resolving misprediction would lift it) */
	int rc = IVX_OK;
	while (rc == IVX_OK && core_cycles(r.c) < 20000) {
		r.c->s.fetch_halt = HALT_SYSCALL;
		rc = core_cycle(r.c, &r.err);
	}
	assert_int_equal(rc, IVX_EDEADLOCK);
	print_message("%s\n", r.err.msg);
	assert_non_null(strstr(r.err.msg, "ROB empty"));
	crun_free(&r);
	program_free(prog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(restoring_replays_identically),
		cmocka_unit_test(a_snapshot_of_another_machine_is_refused),
		cmocka_unit_test(an_operand_that_never_arrives_is_a_deadlock),
		cmocka_unit_test(a_frontend_that_never_delivers_is_a_deadlock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
