/*
 * isa_test.h — what the test_isa_*.c unit tests share: a cpu wired to a
 * small guest memory, and helpers that decode and run one instruction word.
 *
 * Guest memory in every test:
 *   T_DATA .. +0x2000   read/write (two pages)
 *   T_RO   .. +0x1000   read-only, right after the read/write pages
 *   T_NONE              unmapped, right after the read-only page
 *
 * Table-driven ALU cases (struct isa_alu_case) list the input registers and
 * NZCV, and the registers and NZCV expected afterwards. The expected values
 * were produced by running each word under qemu-aarch64 (-cpu max) with the
 * same inputs and every other register (SP included) set to isa_test_fill(i).
 * A case passes only if the listed registers and NZCV match, every other
 * register is untouched, pc advanced by 4, and every register that changed
 * is among the uop's dependence destinations.
 */
#ifndef IVX_ISA_TEST_H
#define IVX_ISA_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "isa/cpu.h"
#include "isa/isa.h"
#include "isa/mem.h"
#include "isa/uop.h"

#define T_CODE 0x400000ull
#define T_DATA 0x10000ull
#define T_RO   0x12000ull
#define T_NONE 0x13000ull

#define T_UNUSED __attribute__((unused))

struct isa_env {
	struct cpu c;
	struct mem *m;
	struct uop u;       /* the last instruction decoded by isa_run */
};

struct isa_rv {
	uint8_t r;          /* 0..30 = X0..X30, 31 = SP */
	uint64_t v;
};

struct isa_alu_case {
	uint32_t word;
	const char *text;   /* what the word is, for failure messages */
	uint64_t nzcv_in;
	int n_in;
	struct isa_rv in[4];
	uint64_t nzcv_out;
	int n_out;
	struct isa_rv out[3];
};

/* The value register i holds unless a test says otherwise. */
static T_UNUSED uint64_t isa_test_fill(int i)
{
	return 0x5a00000000000000ull | ((uint64_t)i << 40) |
	       ((uint64_t)(0x1111 * (i + 1)) << 8) | (uint64_t)(0x40 + i);
}

static T_UNUSED void isa_env_reset(struct isa_env *e)
{
	struct mem *m = e->m;
	memset(&e->c, 0, sizeof e->c);
	for (int i = 0; i < 32; i++)
		e->c.x[i] = isa_test_fill(i);
	e->c.pc = T_CODE;
	e->c.mem = m;
	e->c.ctr_el0 = ISA_CTR_VALUE;   /* as guest_new starts a guest */
}

static T_UNUSED int isa_env_setup(void **state)
{
	struct isa_env *e = calloc(1, sizeof *e);
	assert_non_null(e);
	e->m = mem_new();
	assert_non_null(e->m);
	assert_int_equal(mem_map(e->m, T_DATA, 0x2000, MEM_R | MEM_W, "data", NULL), 0);
	assert_int_equal(mem_map(e->m, T_RO, 0x1000, MEM_R, "ro", NULL), 0);
	isa_env_reset(e);
	*state = e;
	return 0;
}

static T_UNUSED int isa_env_teardown(void **state)
{
	struct isa_env *e = *state;
	mem_free(e->m);
	free(e);
	return 0;
}

/* Decode `word` at the current pc into e->u and execute it; on ISA_NEXT the
 * pc advances by 4, as the run loop does. Returns the handler's result. */
static T_UNUSED int isa_run(struct isa_env *e, uint32_t word)
{
	isa_decode(word, e->c.pc, &e->u);
	assert_non_null(e->u.exec);
	int r = e->u.exec(&e->c, &e->u);
	if (r == ISA_NEXT)
		e->c.pc += 4;
	return r;
}

static T_UNUSED void isa_poke(struct isa_env *e, uint64_t addr, const void *buf, size_t n)
{
	uint64_t bad;
	assert_int_equal(mem_write_bytes(e->m, addr, buf, n, 0, &bad), 0);
}

static T_UNUSED void isa_poke64(struct isa_env *e, uint64_t addr, uint64_t v)
{
	isa_poke(e, addr, &v, 8);
}

static T_UNUSED uint64_t isa_peek(struct isa_env *e, uint64_t addr, size_t n)
{
	uint64_t v = 0, bad;
	assert_true(n <= 8);
	assert_int_equal(mem_read_bytes(e->m, addr, &v, n, 0, &bad), 0);
	return v;
}

static T_UNUSED int isa_has_dst(const struct uop *u, int reg)
{
	for (int i = 0; i < u->n_dst; i++)
		if (u->dst[i] == reg)
			return 1;
	return 0;
}

static T_UNUSED int isa_has_src(const struct uop *u, int reg)
{
	for (int i = 0; i < u->n_src; i++)
		if (u->src[i] == reg)
			return 1;
	return 0;
}

/* Architected state equal, field by field (no padding compared). */
static T_UNUSED void isa_assert_cpu_equal(const struct cpu *a, const struct cpu *b)
{
	assert_memory_equal(a->x, b->x, sizeof a->x);
	assert_int_equal(a->pc, b->pc);
	assert_int_equal(a->nzcv, b->nzcv);
	assert_int_equal(a->tpidr_el0, b->tpidr_el0);
	assert_int_equal(a->excl_valid, b->excl_valid);
	assert_int_equal(a->excl_addr, b->excl_addr);
	assert_int_equal(a->excl_size, b->excl_size);
	assert_int_equal(a->fpcr, b->fpcr);
	assert_int_equal(a->fpsr, b->fpsr);
	assert_memory_equal(a->v, b->v, sizeof a->v);
}

/* Run every case (see the top of this file); report each mismatch, then
 * fail if there was any. */
static T_UNUSED void isa_check_alu_cases(struct isa_env *e, const struct isa_alu_case *t, size_t n)
{
	int failures = 0;
	for (size_t k = 0; k < n; k++) {
		const struct isa_alu_case *tc = &t[k];
		uint64_t want[32], before[32];
		isa_env_reset(e);
		for (int i = 0; i < tc->n_in; i++)
			e->c.x[tc->in[i].r] = tc->in[i].v;
		e->c.nzcv = tc->nzcv_in;
		for (int i = 0; i < 32; i++)
			want[i] = before[i] = e->c.x[i];
		for (int i = 0; i < tc->n_out; i++)
			want[tc->out[i].r] = tc->out[i].v;
		int r = isa_run(e, tc->word);
		if (r != ISA_NEXT || e->c.pc != T_CODE + 4) {
			print_error("%08x %s: result %d, pc %#llx\n", tc->word, tc->text, r,
				    (unsigned long long)e->c.pc);
			failures++;
			continue;
		}
		for (int i = 0; i < 32; i++) {
			if (e->c.x[i] != want[i]) {
				print_error("%08x %s: x%d = %#llx, expected %#llx\n", tc->word, tc->text, i,
					    (unsigned long long)e->c.x[i], (unsigned long long)want[i]);
				failures++;
			}
			if (e->c.x[i] != before[i] && !isa_has_dst(&e->u, i)) {
				print_error("%08x %s: x%d changed but is not a dependence destination\n",
					    tc->word, tc->text, i);
				failures++;
			}
		}
		if (e->c.nzcv != tc->nzcv_out) {
			print_error("%08x %s: nzcv = %#llx, expected %#llx\n", tc->word, tc->text,
				    (unsigned long long)e->c.nzcv, (unsigned long long)tc->nzcv_out);
			failures++;
		}
		if (tc->nzcv_out != tc->nzcv_in && !isa_has_dst(&e->u, REG_NZCV)) {
			print_error("%08x %s: nzcv changed but is not a dependence destination\n",
				    tc->word, tc->text);
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

#endif
