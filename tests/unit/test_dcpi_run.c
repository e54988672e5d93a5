/*
 * test_dcpi_run.c — the DCPI sampler on real runs of the crc workload:
 * counter periods stay in [P - dP, P]; an interrupt arrives `skid` cycles
 * after its overflow and takes the pc at the in-order head of that cycle,
 * the same whether the core hands idle cycles over one by one or in runs;
 * the same seed gives the same samples and another seed others; the truth
 * accounts for every cycle; a snapshot restores the sampler exactly,
 * and undoes the end-of-run drain, which happens once;
 * charging the handler slows the program by exactly its cycles; the
 * in-order machine samples its issue head; with a sample every cycle
 * each instruction's samples are its true head cycles.
 *
 * Run from the top of the tree (make unit does); needs data/bin.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>
#include "core_prog.h"
#include "dcpi/dcpi.h"
#include "isa/mem.h"

#define MAX_SAMPLES 20000
#define MAX_CYCLES 4000000

struct samples {
	int n;
	struct dcpi_sample s[MAX_SAMPLES];
};

static void on_sample(void *ctx, const struct dcpi_sample *s)
{
	struct samples *ss = ctx;
	if (ss->n < MAX_SAMPLES)
		ss->s[ss->n++] = *s;
}

/* Every cycle's in-order head, one by one (no on_idle_cycles), and how
 * many records named another head than the core's state at the end of
 * their cycle (core_issue_head_pc, what the polling sampler and the truth
 * read). */
struct heads {
	uint64_t n;
	uint64_t pc[MAX_CYCLES];
	uint64_t stale;
	struct core *c;
	struct core_observer obs;
};

static void heads_cycle(void *ctx, const struct cycle_record *r)
{
	struct heads *h = ctx;
	if (r->cycle < MAX_CYCLES)
		h->pc[r->cycle] = r->issue_head_pc;
	h->stale += r->issue_head_pc != core_issue_head_pc(h->c);
	h->n++;
}

static struct program *prog;

static int load(void **state)
{
	(void)state;
	struct ivx_err err;
	prog = program_load_file("data/bin/workloads/crc", &err);
	return prog ? 0 : -1;
}

static int unload(void **state)
{
	(void)state;
	program_free(prog);
	return 0;
}

struct outcome {
	struct dcpi_stats st;
	struct core_stats cs;
	uint64_t truth_cycles;
	uint64_t truth_hash;        /* every pc's cycles and events */
	uint64_t profile_hash;
	uint64_t profile_cycles;    /* CYCLES samples, all pcs */
	uint64_t profile_off;       /* sum over pcs of |CYCLES samples - true head cycles| */
	int exit_code;
};

/* Run crc with cfg; samples and heads may be NULL. */
static void run(const struct dcpi_config *cfg, const char *const *overrides, struct samples *ss, struct heads *h,
		struct outcome *o)
{
	char *argv[] = { "crc", "1" };
	struct crun r;
	struct ivx_err err;
	assert_int_equal(crun_start(&r, prog, 2, argv, overrides), 0);
	if (h) {
		h->n = h->stale = 0;
		h->c = r.c;
		h->obs = (struct core_observer){ .name = "heads", .ctx = h, .on_cycle = heads_cycle };
		assert_int_equal(core_add_observer(r.c, &h->obs, &err), 0);
	}
	struct dcpi *d = dcpi_new(cfg, r.c, &err);
	if (!d)
		fail_msg("%s", err.msg);
	if (ss) {
		ss->n = 0;
		dcpi_set_sample_hook(d, on_sample, ss);
	}
	if (!cfg->poll) {
		if (core_run(r.c, 0, 0, &err) != IVX_OK)
			fail_msg("%s", err.msg);
	} else {
		/* the driver's loop: run to the sampler's next stop, poll */
		while (!core_done(r.c)) {
			if (core_run(r.c, dcpi_poll_target(d), 0, &err) != IVX_OK)
				fail_msg("%s", err.msg);
			dcpi_poll(d);
		}
	}
	assert_true(core_done(r.c));
	dcpi_flush(d);
	memset(o, 0, sizeof *o);
	dcpi_get_stats(d, &o->st);
	core_stats(r.c, &o->cs);
	o->exit_code = guest_exit_code(r.g);
	o->profile_hash = 14695981039346656037ull;
	for (size_t i = 0; i < dcpi_profile_size(d); i++) {
		uint64_t pc, n;
		int ev;
		if (dcpi_profile_at(d, i, &pc, &ev, &n) == 0)
			o->profile_hash = (o->profile_hash ^ (pc * 31 + (uint64_t)ev) ^ (n << 40)) * 0x100000001b3ull;
	}
	/* the CYCLES samples against the truth, pc by pc: the pcs sampled,
	 * then the true cycles of the pcs never sampled */
	uint64_t truth_sampled = 0;
	for (size_t i = 0; i < dcpi_profile_size(d); i++) {
		uint64_t pc, n;
		int ev;
		if (dcpi_profile_at(d, i, &pc, &ev, &n) != 0 || ev != DCPI_CYCLES)
			continue;
		uint64_t t = dcpi_truth_cycles_at(d, pc);
		o->profile_cycles += n;
		o->profile_off += n > t ? n - t : t - n;
		truth_sampled += t;
	}
	/* the cycles truth, over the code (the core counts it per pc); with
	 * every head recorded, it must be their histogram */
	o->truth_hash = 14695981039346656037ull;
	for (int i = 0; i < program_segment_count(prog); i++) {
		const struct program_segment *sg = program_segment(prog, i);
		if (!(sg->prot & MEM_X))
			continue;
		for (uint64_t pc = sg->vaddr & ~3ull; pc < sg->vaddr + sg->filesz; pc += 4) {
			uint64_t n = dcpi_truth_cycles_at(d, pc);
			o->truth_cycles += n;
			o->truth_hash = (o->truth_hash ^ pc ^ (n << 32)) * 0x100000001b3ull;
			if (h && h->n <= MAX_CYCLES && pc == sg->vaddr) {
				uint64_t k = 0;
				for (uint64_t c = 0; c < h->n; c++)
					k += h->pc[c] == pc;
				assert_int_equal(n, k);
			}
		}
	}
	if (h && h->n <= MAX_CYCLES) {
		/* every recorded head's pc has its cycles (spot-check 64 cycles) */
		for (uint64_t c = 0; c < h->n; c += h->n / 64 + 1) {
			uint64_t pc = h->pc[c], k = 0;
			for (uint64_t j = 0; j < h->n; j++)
				k += h->pc[j] == pc;
			assert_int_equal(dcpi_truth_cycles_at(d, pc), k);
		}
	}
	o->profile_off += o->truth_cycles - truth_sampled;
	for (size_t i = 0; i < dcpi_truth_size(d); i++) {
		struct dcpi_truth t;
		if (dcpi_truth_at(d, i, &t) == 0)
			o->truth_hash = (o->truth_hash ^ t.pc ^ (uint64_t)t.ev[0] << 8 ^ (uint64_t)t.ev[1] << 24 ^
					 (uint64_t)t.ev[2] << 40 ^ (uint64_t)t.ev[3] << 56) * 0x100000001b3ull;
	}
	dcpi_free(d);
	crun_free(&r);
}

static void config(struct dcpi_config *c, uint64_t p, uint64_t dp, uint32_t skid, uint64_t seed)
{
	dcpi_config_defaults(c);
	c->period[DCPI_CYCLES] = p;
	c->delta[DCPI_CYCLES] = dp;
	c->period[DCPI_IMISS] = 16;
	c->delta[DCPI_IMISS] = 4;
	c->skid = skid;
	c->seed = seed;
}

static void periods_are_uniform_in_the_range_and_skid_delays_delivery(void **state)
{
	(void)state;
	static struct samples ss;
	struct dcpi_config c;
	config(&c, 1000, 200, 6, 1);
	struct outcome o;
	run(&c, NULL, &ss, NULL, &o);
	uint64_t prev = 0, lo = UINT64_MAX, hi = 0, sum = 0, n = 0;
	int first = 1;
	for (int i = 0; i < ss.n; i++) {
		const struct dcpi_sample *s = &ss.s[i];
		assert_int_equal(s->deliver_cycle, s->overflow_cycle + 6);
		if (s->event != DCPI_CYCLES)
			continue;
		if (!first) {
			uint64_t p = s->overflow_cycle - prev;
			lo = p < lo ? p : lo;
			hi = p > hi ? p : hi;
			sum += p;
			n++;
		}
		first = 0;
		prev = s->overflow_cycle;
	}
	assert_true(n > 100);
	assert_true(lo >= 800 && hi <= 1000);
	assert_true(lo < 810 && hi > 990);         /* both ends reached */
	double mean = (double)sum / (double)n;
	assert_true(mean > 880 && mean < 920);      /* uniform: 900 */
	assert_int_equal(o.st.samples[DCPI_CYCLES] + o.st.lost, o.st.overflows[DCPI_CYCLES]);
	assert_true(o.st.samples[DCPI_IMISS] > 0);
	assert_int_equal(o.truth_cycles, o.cs.cycles);   /* every cycle has its head */
	assert_int_equal(o.st.cycles, o.cs.cycles);
	assert_int_equal(o.st.events[DCPI_RETIRED], o.cs.committed);
}

static void samples_take_the_head_of_the_delivery_cycle_with_or_without_idle_runs(void **state)
{
	(void)state;
	static struct samples with, without;
	static struct heads h;
	struct dcpi_config c;
	config(&c, 500, 100, 6, 3);
	struct outcome a, b;
	run(&c, NULL, &with, &h, &a);        /* the head observer makes every cycle arrive alone */
	run(&c, NULL, &without, NULL, &b);   /* idle runs arrive in one call */
	assert_true(h.n < MAX_CYCLES);
	assert_int_equal(with.n, without.n);
	assert_true(with.n > 1000);
	for (int i = 0; i < with.n; i++) {
		const struct dcpi_sample *x = &with.s[i], *y = &without.s[i];
		assert_int_equal(x->event, y->event);
		assert_int_equal(x->pc, y->pc);
		assert_int_equal(x->overflow_cycle, y->overflow_cycle);
		assert_int_equal(x->deliver_cycle, y->deliver_cycle);
		assert_int_equal(x->cause_pc, y->cause_pc);
		assert_int_equal(x->hit, y->hit);
		assert_int_equal(with.s[i].pc, h.pc[with.s[i].deliver_cycle]);
		if (with.s[i].event == DCPI_CYCLES)
			assert_int_equal(with.s[i].cause_pc, h.pc[with.s[i].overflow_cycle]);
	}
	assert_int_equal(a.profile_hash, b.profile_hash);
}

static void the_seed_decides_the_samples(void **state)
{
	(void)state;
	struct dcpi_config c;
	struct outcome a, b, x;
	config(&c, 700, 300, 6, 5);
	run(&c, NULL, NULL, NULL, &a);
	run(&c, NULL, NULL, NULL, &b);
	c.seed = 6;
	run(&c, NULL, NULL, NULL, &x);
	assert_int_equal(a.profile_hash, b.profile_hash);
	assert_memory_equal(&a.st, &b.st, sizeof a.st);
	assert_int_not_equal(a.profile_hash, x.profile_hash);
	assert_int_equal(a.cs.cycles, x.cs.cycles);   /* uncharged: the program is untouched */
}

static void a_snapshot_restores_the_sampler(void **state)
{
	(void)state;
	char *argv[] = { "crc", "1" };
	struct crun r;
	struct ivx_err err;
	struct dcpi_config c;
	config(&c, 300, 100, 6, 9);
	c.table_buckets = 8;              /* small: evictions and drains happen */
	c.buffer_entries = 16;
	assert_int_equal(crun_start(&r, prog, 2, argv, NULL), 0);
	struct dcpi *d = dcpi_new(&c, r.c, &err);
	assert_non_null(d);
	assert_int_equal(core_run(r.c, 60000, 0, &err), IVX_OK);
	struct core_snapshot *snap = core_snapshot_save(r.c, &err);
	assert_non_null(snap);
	assert_int_equal(core_run(r.c, 0, 0, &err), IVX_OK);
	struct dcpi_stats first, second;
	dcpi_get_stats(d, &first);
	assert_true(first.evictions > 0 && first.drains > 0);
	assert_int_equal(core_snapshot_restore(r.c, snap, &err), IVX_OK);
	assert_int_equal(core_run(r.c, 0, 0, &err), IVX_OK);
	dcpi_get_stats(d, &second);
	assert_memory_equal(&first, &second, sizeof first);
	core_snapshot_free(snap);
	dcpi_free(d);
	crun_free(&r);
}

/* The explorer drains at every arrival at the end of the run: once, and
 * again after going back to before it. */
static void the_end_drain_happens_once_and_a_snapshot_undoes_it(void **state)
{
	(void)state;
	char *argv[] = { "crc", "1" };
	struct crun r;
	struct ivx_err err;
	struct dcpi_config c;
	config(&c, 300, 100, 6, 9);
	c.table_buckets = 8;
	c.buffer_entries = 16;
	assert_int_equal(crun_start(&r, prog, 2, argv, NULL), 0);
	struct dcpi *d = dcpi_new(&c, r.c, &err);
	assert_non_null(d);
	assert_int_equal(core_run(r.c, 60000, 0, &err), IVX_OK);
	struct core_snapshot *snap = core_snapshot_save(r.c, &err);
	assert_non_null(snap);
	struct dcpi_stats before, first, again, replayed;
	dcpi_get_stats(d, &before);
	assert_false(dcpi_finished(d));
	dcpi_finish(d);
	assert_true(dcpi_finished(d));
	dcpi_get_stats(d, &first);
	assert_int_equal(first.table_flushes, 1);
	assert_true(first.daemon_cycles > before.daemon_cycles);
	dcpi_finish(d);
	dcpi_get_stats(d, &again);
	assert_memory_equal(&first, &again, sizeof first);
	assert_int_equal(core_snapshot_restore(r.c, snap, &err), IVX_OK);
	assert_false(dcpi_finished(d));
	dcpi_get_stats(d, &replayed);
	assert_memory_equal(&before, &replayed, sizeof before);
	dcpi_finish(d);
	dcpi_get_stats(d, &replayed);
	assert_memory_equal(&first, &replayed, sizeof first);
	core_snapshot_free(snap);
	dcpi_free(d);
	crun_free(&r);
}

static void charging_slows_the_program_by_the_handler_cycles(void **state)
{
	(void)state;
	struct dcpi_config c;
	struct outcome free_run, charged;
	config(&c, 2000, 100, 6, 2);
	c.buffer_entries = 4;
	c.table_buckets = 2;
	run(&c, NULL, NULL, NULL, &free_run);
	c.charge = 1;
	run(&c, NULL, NULL, NULL, &charged);
	assert_int_equal(free_run.cs.handler_cycles, 0);
	assert_true(charged.st.drains > 0);
	/* the flush at the end is not charged (the program has exited) */
	assert_true(charged.cs.handler_cycles > 0);
	assert_true(charged.cs.handler_cycles <= charged.st.handler_cycles + charged.st.daemon_cycles);
	assert_true(charged.cs.cycles > free_run.cs.cycles + charged.cs.handler_cycles / 2);
	assert_int_equal(charged.cs.committed, free_run.cs.committed);
	assert_int_equal(charged.exit_code, free_run.exit_code);
}

static void the_in_order_machine_samples_its_issue_head(void **state)
{
	(void)state;
	static struct samples ss;
	static struct heads h;
	static const char *const inorder[] = { "core.mode=inorder", NULL };
	struct dcpi_config c;
	config(&c, 500, 50, 6, 4);
	struct outcome o;
	run(&c, inorder, &ss, &h, &o);
	assert_true(ss.n > 100);
	for (int i = 0; i < ss.n; i++)
		assert_int_equal(ss.s[i].pc, h.pc[ss.s[i].deliver_cycle]);
	assert_int_equal(o.truth_cycles, o.cs.cycles);
	/* (a misprediction resolved with nothing to squash moves the head
	 * to the right path in a cycle that looks idle: 2 cycles of crc) */
	assert_int_equal(h.stale, 0);
}

static void extra_events_share_the_last_counter_in_time_slices(void **state)
{
	(void)state;
	struct dcpi_config c;
	struct outcome o;
	config(&c, 1000, 100, 6, 8);
	c.events = 1u << DCPI_CYCLES | 1u << DCPI_IMISS | 1u << DCPI_DMISS | 1u << DCPI_RETIRED;
	c.counters = 2;
	c.mux_cycles = 5000;
	c.period[DCPI_RETIRED] = 500;
	c.delta[DCPI_RETIRED] = 50;
	c.period[DCPI_DMISS] = 4;
	c.delta[DCPI_DMISS] = 1;
	run(&c, NULL, NULL, NULL, &o);
	/* CYCLES has its own counter all the time; the three others take
	 * turns on the second, each about a third of the time */
	assert_int_equal(o.st.enabled_cycles[DCPI_CYCLES], o.cs.cycles);
	uint64_t shared = o.st.enabled_cycles[DCPI_IMISS] + o.st.enabled_cycles[DCPI_DMISS] +
			  o.st.enabled_cycles[DCPI_RETIRED];
	assert_int_equal(shared, o.cs.cycles);
	for (int e = DCPI_IMISS; e <= DCPI_RETIRED; e++) {
		if (e == DCPI_BRANCHMP || e == DCPI_DTBMISS)
			continue;
		assert_true(o.st.enabled_cycles[e] > o.cs.cycles / 3 - 5000);
		assert_true(o.st.enabled_cycles[e] < o.cs.cycles / 3 + 5000);
		assert_true(o.st.samples[e] > 0);
	}
	assert_int_equal(o.st.enabled_cycles[DCPI_BRANCHMP], 0);
	assert_int_equal(o.st.samples[DCPI_BRANCHMP], 0);
	/* with every event on a counter of its own nothing is shared */
	c.counters = 3;
	c.events = 1u << DCPI_CYCLES | 1u << DCPI_RETIRED;
	run(&c, NULL, NULL, NULL, &o);
	assert_int_equal(o.st.enabled_cycles[DCPI_RETIRED], o.cs.cycles);
	/* RETIRED samples: about committed / mean period */
	double expect = (double)o.cs.committed / 475.0;
	assert_true(o.st.samples[DCPI_RETIRED] > expect * 0.95 && o.st.samples[DCPI_RETIRED] < expect * 1.05 + 2);
}

static void polling_gives_the_samples_of_observing(void **state)
{
	(void)state;
	static struct samples seen, polled;
	struct dcpi_config c;
	struct outcome a, b;
	for (int k = 0; k < 3; k++) {
		config(&c, 700, 300, k == 0 ? 6 : k == 1 ? 0 : 40, 11 + (uint64_t)k);
		if (k == 1)
			c.truth_capacity = 0;   /* with and without the truth */
		c.events = 1u << DCPI_CYCLES | 1u << DCPI_IMISS | 1u << DCPI_DMISS | 1u << DCPI_BRANCHMP;
		c.period[DCPI_DMISS] = 5;
		c.delta[DCPI_DMISS] = 2;
		c.counters = 2;
		c.mux_cycles = 3000;
		static const char *const inorder[] = { "core.mode=inorder", NULL };
		const char *const *ov = k == 2 ? inorder : NULL;   /* the in-order machine too */
		run(&c, ov, &seen, NULL, &a);
		c.poll = 1;
		run(&c, ov, &polled, NULL, &b);
		assert_true(seen.n > 100);
		assert_int_equal(seen.n, polled.n);
		for (int i = 0; i < seen.n; i++) {
			const struct dcpi_sample *x = &seen.s[i], *y = &polled.s[i];
			assert_int_equal(x->event, y->event);
			assert_int_equal(x->pc, y->pc);
			assert_int_equal(x->overflow_cycle, y->overflow_cycle);
			assert_int_equal(x->deliver_cycle, y->deliver_cycle);
			assert_int_equal(x->cause_pc, y->cause_pc);
		}
		assert_int_equal(a.profile_hash, b.profile_hash);
		assert_memory_equal(a.st.enabled_cycles, b.st.enabled_cycles, sizeof a.st.enabled_cycles);
		assert_int_equal(a.st.cycles, b.st.cycles);
		assert_int_equal(a.truth_hash, b.truth_hash);
		assert_int_equal(a.truth_cycles, b.truth_cycles);
		assert_int_equal(a.truth_cycles, k == 1 ? 0 : a.cs.cycles);
	}
	/* a RETIRED overflow needs every cycle observed: no polling */
	struct ivx_err err;
	config(&c, 700, 300, 6, 1);
	c.events |= 1u << DCPI_RETIRED;
	c.poll = 1;
	assert_int_equal(dcpi_config_validate(&c, &err), IVX_EUSAGE);
}

/* A sample every cycle is the truth itself: each instruction gets as many
 * CYCLES samples as cycles at the in-order issue head, the skid's first
 * cycles aside (nothing is delivered before cycle `skid`). So whatever
 * the period, no position in a block (its first instruction after a
 * taken branch or after a long stall) collects samples the truth does not
 * give it: docs/dcpicalc.md, "Merged runs", hashtab.O3. Observing, two
 * cycles of crc once went to the fall-through of a mispredicted `bl` and
 * `b` instead of their targets (heads_cycle's stale records). */
static void a_sample_every_cycle_is_the_truth_per_instruction(void **state)
{
	(void)state;
	static const char *const inorder[] = { "core.mode=inorder", NULL };
	for (int k = 0; k < 4; k++) {
		struct dcpi_config c;
		uint32_t skid = k & 1 ? 6 : 0;
		config(&c, 1, 0, skid, 5);
		c.events = 1u << DCPI_CYCLES;
		c.poll = k >= 2;   /* observing, then polling as ivx profile does */
		struct outcome o;
		run(&c, inorder, NULL, NULL, &o);
		assert_int_equal(o.truth_cycles, o.cs.cycles);
		assert_int_equal(o.st.lost, 0);
		assert_int_equal(o.profile_cycles, o.cs.cycles - skid);
		assert_int_equal(o.profile_off, skid);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(periods_are_uniform_in_the_range_and_skid_delays_delivery),
		cmocka_unit_test(samples_take_the_head_of_the_delivery_cycle_with_or_without_idle_runs),
		cmocka_unit_test(the_seed_decides_the_samples),
		cmocka_unit_test(a_snapshot_restores_the_sampler),
		cmocka_unit_test(the_end_drain_happens_once_and_a_snapshot_undoes_it),
		cmocka_unit_test(charging_slows_the_program_by_the_handler_cycles),
		cmocka_unit_test(the_in_order_machine_samples_its_issue_head),
		cmocka_unit_test(extra_events_share_the_last_counter_in_time_slices),
		cmocka_unit_test(polling_gives_the_samples_of_observing),
		cmocka_unit_test(a_sample_every_cycle_is_the_truth_per_instruction),
	};
	return cmocka_run_group_tests(tests, load, unload);
}
