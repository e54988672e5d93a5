/*
 * test_core_kinds.c — what the core tells instruments about each
 * instruction (events.h): its kind, the value a load loaded, a branch's
 * direction and successor, and the class filters an instrument subscribes
 * with (loads, stores, calls, long-latency operations).
 *
 * The truth is a second, purely functional guest stepped in lockstep with
 * the committed instructions: the core's functional oracle runs ahead at
 * fetch, so the value a load loaded must be remembered from then, and a
 * commit-time read of the register would be wrong.
 *
 * Run from the top of the tree (make unit does); needs data/bin.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>
#include "core_prog.h"
#include "isa/cpu.h"
#include "isa/uop.h"

struct lockstep {
	struct guest *oracle;
	uint64_t commits, loads, branches, mismatches;
	uint64_t kind_count[INSN_KIND_COUNT];
	char first[200];
	struct core_observer obs;
};

static void mismatch(struct lockstep *l, const char *what, uint64_t pc)
{
	if (!l->mismatches++)
		snprintf(l->first, sizeof l->first, "%s at pc 0x%llx (commit %llu)", what,
			 (unsigned long long)pc, (unsigned long long)l->commits);
}

static int expected_kind(const struct uop *u)
{
	switch (u->op_class) {
	case UOP_ALU: return INSN_KIND_ALU;
	case UOP_MUL: return INSN_KIND_MUL;
	case UOP_DIV: return INSN_KIND_DIV;
	case UOP_LOAD: return INSN_KIND_LOAD;
	case UOP_STORE: return INSN_KIND_STORE;
	case UOP_SYSCALL: return INSN_KIND_SYSCALL;
	case UOP_FP: case UOP_FMA: return INSN_KIND_FP;
	case UOP_FDIV: return INSN_KIND_FDIV;
	case UOP_SIMD: return INSN_KIND_SIMD;
	case UOP_BRANCH:
		switch (u->branch_kind) {
		case BRANCH_COND: return INSN_KIND_COND_BRANCH;
		case BRANCH_CALL: case BRANCH_CALL_INDIRECT: return INSN_KIND_CALL;
		case BRANCH_INDIRECT: return INSN_KIND_INDIRECT;
		case BRANCH_RETURN: return INSN_KIND_RETURN;
		default: return INSN_KIND_JUMP;
		}
	default: return INSN_KIND_OTHER;
	}
}

static void lockstep_insn(void *ctx, const struct insn_event *e)
{
	struct lockstep *l = ctx;
	if (e->stage != INSN_COMMIT)
		return;
	struct guest_step st;
	struct ivx_err err;
	if (guest_step(l->oracle, &st, &err) < 0 || st.pc != e->pc) {
		mismatch(l, "oracle out of step", e->pc);
		return;
	}
	l->commits++;
	l->kind_count[e->kind]++;
	if (e->kind != expected_kind(st.uop))
		mismatch(l, "kind", e->pc);
	if (e->word != st.uop->word)
		mismatch(l, "word", e->pc);
	if (e->next_pc != st.next_pc)
		mismatch(l, "next_pc", e->pc);
	if (e->kind == INSN_KIND_LOAD) {
		l->loads++;
		if (e->load_value != guest_cpu_const(l->oracle)->x[st.uop->rd])
			mismatch(l, "load_value", e->pc);
	} else if (e->load_value != 0) {
		mismatch(l, "load_value of a non-load", e->pc);
	}
	if (insn_kind_is_branch(e->kind)) {
		l->branches++;
		if (e->taken != st.taken)
			mismatch(l, "taken", e->pc);
	}
}

static void discard(void *ctx, int fd, const void *buf, size_t len)
{
	(void)ctx, (void)fd, (void)buf, (void)len;
}


static void committed_loads_carry_the_value_they_loaded_at_fetch(void **state)
{
	(void)state;
	/* hashtab stores into the table it later loads from, and runs far
	 * ahead of commit: a load's register is overwritten long before it
	 * commits. */
	struct program *prog = cp_load_file("data/bin/workloads/hashtab");
	assert_non_null(prog);
	char *argv[] = { "hashtab", "4" };
	struct ivx_err err;
	struct guest_options go = { .argc = 2, .argv = argv, .seed = 1, .output = discard };
	struct lockstep l = { .oracle = guest_new(prog, &go, &err) };
	assert_non_null(l.oracle);
	l.obs = (struct core_observer){ .name = "lockstep", .ctx = &l, .on_insn = lockstep_insn,
					.insn_stages = INSN_STAGE_BIT(INSN_COMMIT) };
	struct crun r;
	assert_int_equal(crun_start(&r, prog, 2, argv, NULL), 0);
	assert_int_equal(core_add_observer(r.c, &l.obs, &err), 0);
	assert_int_equal(core_run(r.c, 0, 0, &err), IVX_OK);
	if (l.mismatches)
		fail_msg("%llu mismatches; first: %s", (unsigned long long)l.mismatches, l.first);
	assert_int_equal(l.commits, core_committed(r.c));
	assert_true(l.loads > 100000);
	assert_true(l.branches > 10000);
	assert_true(l.kind_count[INSN_KIND_STORE] > 1000);
	assert_true(l.kind_count[INSN_KIND_CALL] > 50);
	assert_true(l.kind_count[INSN_KIND_RETURN] > 50);
	crun_free(&r);
	guest_free(l.oracle);
	program_free(prog);
}

/* Counts per kind and a fingerprint of what one class filter selects. */
struct classobs {
	uint32_t filter;          /* what it subscribed with (0: the reference) */
	uint64_t n[INSN_STAGE_COUNT], hash;
	struct core_observer obs;
};

static int selects(uint32_t filter, const struct insn_event *e)
{
	int k = e->kind;
	int m = ((filter & INSN_WANT_LOAD) && k == INSN_KIND_LOAD) ||
		((filter & INSN_WANT_STORE) && k == INSN_KIND_STORE) ||
		((filter & INSN_WANT_CALL) && (k == INSN_KIND_CALL || k == INSN_KIND_RETURN)) ||
		((filter & INSN_WANT_LONG_LATENCY) && (k == INSN_KIND_MUL || k == INSN_KIND_DIV)) ||
		((filter & INSN_WANT_BRANCH) && insn_kind_is_branch(k));
	return m && (!(filter & INSN_WANT_CORRECT_PATH) || !e->wrong_path);
}

static const uint32_t filters[] = {
	INSN_WANT_LOAD, INSN_WANT_STORE, INSN_WANT_CALL, INSN_WANT_LONG_LATENCY,
	INSN_WANT_LOAD | INSN_WANT_CORRECT_PATH, INSN_WANT_CALL | INSN_WANT_BRANCH,
};
#define N_FILTERS (sizeof filters / sizeof filters[0])

static struct classobs ref_of[N_FILTERS];

static void mix(uint64_t *h, const struct insn_event *e)
{
	uint64_t f[6] = { (uint64_t)e->stage, e->cycle, e->seq, e->pc, e->load_value, (uint64_t)e->kind };
	const uint8_t *b = (const uint8_t *)f;
	for (size_t i = 0; i < sizeof f; i++)
		*h = (*h ^ b[i]) * 0x100000001b3ull;
}

static void class_insn(void *ctx, const struct insn_event *e)
{
	struct classobs *c = ctx;
	if (c->filter) {
		c->n[e->stage]++;
		mix(&c->hash, e);
		return;
	}
	for (size_t f = 0; f < N_FILTERS; f++)
		if (selects(filters[f], e)) {
			ref_of[f].n[e->stage]++;
			mix(&ref_of[f].hash, e);
		}
}

static void class_filters_deliver_exactly_their_instructions(void **state)
{
	(void)state;
	/* recursion (calls, returns), multiplies and divides, loads, stores */
	struct program *prog = cp_load_file("data/bin/workloads/recurse");
	assert_non_null(prog);
	char *argv[] = { "recurse", "1" };
	struct crun r;
	struct ivx_err err;
	assert_int_equal(crun_start(&r, prog, 2, argv, NULL), 0);
	memset(ref_of, 0, sizeof ref_of);
	struct classobs ref = { .filter = 0 }, sub[N_FILTERS];
	ref.obs = (struct core_observer){ .name = "ref", .ctx = &ref, .on_insn = class_insn };
	assert_int_equal(core_add_observer(r.c, &ref.obs, &err), 0);
	for (size_t f = 0; f < N_FILTERS; f++) {
		sub[f] = (struct classobs){ .filter = filters[f] };
		sub[f].obs = (struct core_observer){ .name = "sub", .ctx = &sub[f], .on_insn = class_insn,
						     .insn_filter = filters[f] };
		assert_int_equal(core_add_observer(r.c, &sub[f].obs, &err), 0);
	}
	assert_int_equal(core_run(r.c, 0, 200000, &err), IVX_OK);
	for (size_t f = 0; f < N_FILTERS; f++) {
		assert_true(ref_of[f].n[INSN_COMMIT] > 100);
		for (int st = 0; st < INSN_STAGE_COUNT; st++)
			assert_int_equal(sub[f].n[st], ref_of[f].n[st]);
		assert_int_equal(sub[f].hash, ref_of[f].hash);
	}
	crun_free(&r);
	program_free(prog);
}

static void kind_names_round_trip(void **state)
{
	(void)state;
	for (int k = 0; k < INSN_KIND_COUNT; k++)
		assert_int_equal(insn_kind_from_name(insn_kind_name(k)), k);
	assert_int_equal(insn_kind_from_name("nonsense"), -1);
	assert_string_equal(insn_kind_name(INSN_KIND_COUNT), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(committed_loads_carry_the_value_they_loaded_at_fetch),
		cmocka_unit_test(class_filters_deliver_exactly_their_instructions),
		cmocka_unit_test(kind_names_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
