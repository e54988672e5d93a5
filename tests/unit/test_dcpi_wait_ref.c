/*
 * test_dcpi_wait_ref.c — the wait truth (dcpi_wait.h) against a reference
 * that sees every cycle: on the out-of-order machine, where the table
 * takes only the pcs as they first head the machine (on_new_head) and
 * reads their cycles from the core's count, every pc has the cycles and
 * taken count the reference counts cycle by cycle; and with a table too
 * small for the program, the same pcs find room, in the same order, and
 * the cycles of the others are reported lost. On the in-order machine,
 * whose wait reasons come from every cycle's record, the reasons of a pc
 * add up to its cycles. In both, taken counts come from the core's count
 * (on_new_taken) and must equal the reference's instruction events.
 *
 * Run from the top of the tree (make unit does); needs data/bin.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>
#include "core_prog.h"
#include "dcpi/dcpi_wait.h"

#define REF_PCS 8192

/* The reference: every cycle's head (no on_idle_cycles, so the core hands
 * each cycle over), every committed taken branch, and the pcs in the
 * order they first appear in either, up to `room` of them. */
struct ref {
	uint64_t room, cycles, lost;
	int n;
	uint64_t pc[REF_PCS], cyc[REF_PCS], taken[REF_PCS];
	struct core_observer obs;
};

static int ref_slot(struct ref *r, uint64_t pc)
{
	for (int i = 0; i < r->n; i++)
		if (r->pc[i] == pc)
			return i;
	if ((uint64_t)r->n >= r->room || r->n == REF_PCS)
		return -1;
	r->pc[r->n] = pc;
	r->cyc[r->n] = r->taken[r->n] = 0;
	return r->n++;
}

static void ref_cycle(void *ctx, const struct cycle_record *rec)
{
	struct ref *r = ctx;
	int i = ref_slot(r, rec->issue_head_pc);
	r->cycles++;
	if (i < 0)
		r->lost++;
	else
		r->cyc[i]++;
}

static void ref_insn(void *ctx, const struct insn_event *e)
{
	struct ref *r = ctx;
	int i = e->taken ? ref_slot(r, e->pc) : -1;
	if (i >= 0)
		r->taken[i]++;
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

/* Run crc on the machine `overrides` describe, with a wait truth of
 * `capacity` pcs and the reference beside it; compare. */
static void check(const char *const *overrides, uint32_t capacity, int expect_lost)
{
	char *argv[] = { "crc", "1" };
	struct crun run;
	struct ivx_err err;
	assert_int_equal(crun_start(&run, prog, 2, argv, overrides), 0);
	struct dcpi_wait *w = dcpi_wait_new(run.c, capacity, DCPI_WAIT_TAKEN, &err);
	if (!w)
		fail_msg("%s", err.msg);
	struct ref *r = calloc(1, sizeof *r);
	assert_non_null(r);
	r->room = (uint64_t)capacity / 4 * 3;   /* the table's load limit */
	r->obs = (struct core_observer){
		.name = "ref", .ctx = r, .on_cycle = ref_cycle, .on_insn = ref_insn,
		.insn_filter_at = { [INSN_COMMIT] = INSN_WANT_BRANCH | INSN_WANT_CORRECT_PATH },
	};
	assert_int_equal(core_add_observer(run.c, &r->obs, &err), 0);
	if (core_run(run.c, 2000000, 0, &err) != IVX_OK)
		fail_msg("%s", err.msg);

	int found = 0;
	for (size_t i = 0; i < dcpi_wait_size(w); i++) {
		struct dcpi_wait_pc e;
		if (!dcpi_wait_at(w, i, &e))
			continue;
		found++;
		int k = -1;
		for (int j = 0; j < r->n && k < 0; j++)
			if (r->pc[j] == e.pc)
				k = j;
		if (k < 0)
			fail_msg("pc %#llx in the table, not among the reference's first %d",
				 (unsigned long long)e.pc, r->n);
		uint64_t cycles = 0;
		for (int q = 0; q < ISSUE_WAIT_COUNT; q++)
			cycles += e.cycles[q];
		assert_int_equal(cycles, r->cyc[k]);
		assert_int_equal(e.taken, r->taken[k]);
	}
	assert_int_equal(found, r->n);
	assert_int_equal(dcpi_wait_lost(w), r->lost);
	assert_int_equal(r->cycles, core_cycles(run.c));
	if (expect_lost)
		assert_true(r->lost > 0);
	else
		assert_int_equal(r->lost, 0);
	free(r);
	dcpi_wait_free(w);
	crun_free(&run);
}

static void out_of_order_every_pc_has_the_cycles_of_every_cycle(void **state)
{
	(void)state;
	check(NULL, 16384, 0);
}

static void a_full_table_keeps_the_first_pcs_and_reports_the_rest_lost(void **state)
{
	(void)state;
	check(NULL, 64, 1);
}

static void in_order_the_reasons_add_up_to_the_cycles(void **state)
{
	(void)state;
	static const char *const inorder[] = { "core.mode=inorder", NULL };
	check(inorder, 16384, 0);
	check(inorder, 64, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(out_of_order_every_pc_has_the_cycles_of_every_cycle),
		cmocka_unit_test(a_full_table_keeps_the_first_pcs_and_reports_the_rest_lost),
		cmocka_unit_test(in_order_the_reasons_add_up_to_the_cycles),
	};
	return cmocka_run_group_tests(tests, load, unload);
}
