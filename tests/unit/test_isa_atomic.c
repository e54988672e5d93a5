/*
 * test_isa_atomic.c — the LSE atomics (LDADD, LDCLR, LDSET, SWP, LDSMAX,
 * LDUMIN, the ST* aliases, CAS, CASP) and the system registers glibc
 * reads (DCZID_EL0, DC ZVA, CNTFRQ_EL0, CNTVCT_EL0): values, sizes,
 * dependences, alignment and permission faults that leave the state as it
 * was.
 */
#include "isa_test.h"

#define A (T_DATA + 0x100)

struct at_case {
	uint32_t word;
	const char *text;
	uint64_t mem, x2, x3, x4, x5;   /* memory (8 bytes at A) and registers before */
	uint64_t want_mem, want_x0;     /* after */
};

static const struct at_case cases[] = {
	{ 0xb8220020, "ldadd w2, w0, [x1]", 0x1111111180000001ull, 0xffffffff80000001ull, 0, 0, 0,
	  0x1111111100000002ull, 0x80000001 },
	{ 0xf8e20020, "ldaddal x2, x0, [x1]", 5, 7, 0, 0, 0, 12, 5 },
	{ 0x38228020, "swpb w2, w0, [x1]", 0x1234, 0xabcd, 0, 0, 0, 0x12cd, 0x34 },
	{ 0x78221020, "ldclrh w2, w0, [x1]", 0xffff, 0x0f0f, 0, 0, 0, 0xf0f0, 0xffff },
	{ 0xb8224020, "ldsmax w2, w0, [x1]", 0xfffffffe, 3, 0, 0, 0, 3, 0xfffffffe },
	{ 0xf8227020, "ldumin x2, x0, [x1]", 9, 4, 0, 0, 0, 4, 9 },
};

static void test_ld_ops(void **state)
{
	struct isa_env *e = *state;
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const struct at_case *t = &cases[k];
		isa_env_reset(e);
		isa_poke64(e, A, t->mem);
		e->c.x[1] = A;
		e->c.x[2] = t->x2;
		assert_int_equal(isa_run(e, t->word), ISA_NEXT);
		if (isa_peek(e, A, 8) != t->want_mem || e->c.x[0] != t->want_x0)
			fail_msg("%s: mem %#llx x0 %#llx", t->text, (unsigned long long)isa_peek(e, A, 8),
				 (unsigned long long)e->c.x[0]);
		assert_true(isa_has_dst(&e->u, REG_X(0)));
		assert_true(isa_has_src(&e->u, REG_X(2)));
		assert_int_equal(e->c.mem_addr, A);
		assert_int_equal(e->u.op_class, UOP_LOAD);
	}
	/* stadd w2, [x1]: the old value goes nowhere */
	isa_env_reset(e);
	isa_poke64(e, A, 1);
	e->c.x[1] = A;
	e->c.x[2] = 2;
	uint64_t before[32];
	memcpy(before, e->c.x, sizeof before);
	assert_int_equal(isa_run(e, 0xb822003f), ISA_NEXT);
	assert_int_equal(isa_peek(e, A, 8), 3);
	assert_memory_equal(before, e->c.x, sizeof before);
}

static void test_cas(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	isa_poke64(e, A, 0x100000005ull);
	e->c.x[1] = A;
	e->c.x[2] = 5;
	e->c.x[3] = 9;
	assert_int_equal(isa_run(e, 0x88a27c23), ISA_NEXT);     /* cas w2, w3, [x1]: equal */
	assert_int_equal(isa_peek(e, A, 8), 0x100000009ull);
	assert_int_equal(e->c.x[2], 5);
	assert_true(isa_has_dst(&e->u, REG_X(2)) && isa_has_src(&e->u, REG_X(3)));
	e->c.x[2] = 4;
	assert_int_equal(isa_run(e, 0x88a27c23), ISA_NEXT);     /* not equal: memory kept */
	assert_int_equal(isa_peek(e, A, 8), 0x100000009ull);
	assert_int_equal(e->c.x[2], 9);
	e->c.x[2] = 0x100000009ull;
	e->c.x[3] = 7;
	assert_int_equal(isa_run(e, 0xc8e2fc23), ISA_NEXT);     /* casal x2, x3, [x1] */
	assert_int_equal(isa_peek(e, A, 8), 7);
	/* casp x2, x3, x4, x5, [x1] */
	isa_poke64(e, A, 1);
	isa_poke64(e, A + 8, 2);
	e->c.x[2] = 1;
	e->c.x[3] = 2;
	e->c.x[4] = 10;
	e->c.x[5] = 20;
	assert_int_equal(isa_run(e, 0x48227c24), ISA_NEXT);
	assert_int_equal(isa_peek(e, A, 8), 10);
	assert_int_equal(isa_peek(e, A + 8, 8), 20);
	assert_int_equal(e->c.x[2], 1);
	assert_int_equal(e->c.x[3], 2);
	assert_int_equal(e->u.mem_size, 16);
}

static void test_faults(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	e->c.x[1] = A + 2;
	struct cpu before = e->c;
	assert_int_equal(isa_run(e, 0xb8220020), ISA_FAULT);    /* ldadd, misaligned */
	assert_int_equal(e->c.fault_kind, FAULT_ALIGN);
	e->c.x[1] = T_RO;
	before = e->c;
	assert_int_equal(isa_run(e, 0x88a27c23), ISA_FAULT);    /* cas on a read-only page */
	assert_int_equal(e->c.fault_kind, FAULT_WRITE);
	e->c.fault_kind = before.fault_kind;
	e->c.fault_addr = before.fault_addr;
	e->c.mem_addr = before.mem_addr;
	isa_assert_cpu_equal(&before, &e->c);
}

static void test_system_registers(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	assert_int_equal(isa_run(e, 0xd53b00e0), ISA_NEXT);     /* mrs x0, dczid_el0 */
	assert_int_equal(e->c.x[0], ISA_DCZID_VALUE);
	assert_int_equal(4u << e->c.x[0], ISA_DCZ_BLOCK);       /* 2^BS words */
	assert_int_equal(isa_run(e, 0xd53be000), ISA_NEXT);     /* mrs x0, cntfrq_el0 */
	assert_int_equal(e->c.x[0], ISA_CNTFRQ_HZ);
	/* mrs x2, ctr_el0: 64-byte minimum D and I lines (log2 of 16 words),
	 * as glibc's sysconf and libgcc's __clear_cache read them ... */
	assert_int_equal(isa_run(e, 0xd53b0022), ISA_NEXT);
	assert_int_equal(e->c.x[2], ISA_CTR_VALUE);
	assert_int_equal(4u << ((e->c.x[2] >> 16) & 15), 64);
	assert_int_equal(4u << (e->c.x[2] & 15), 64);
	assert_int_equal(isa_ctr_el0(64, 64, 64), ISA_CTR_VALUE);
	/* ... unless the machine has other lines: the cpu's value, from
	 * isa_ctr_el0 (I 32, D 128, written back 128 bytes) */
	e->c.ctr_el0 = isa_ctr_el0(32, 128, 128);
	assert_int_equal(isa_run(e, 0xd53b0022), ISA_NEXT);
	assert_int_equal(e->c.x[2], 0x8545c003);
	assert_int_equal(4u << ((e->c.x[2] >> 16) & 15), 128);
	assert_int_equal(4u << (e->c.x[2] & 15), 32);
	e->c.x[3] = 5;
	assert_int_equal(isa_run(e, 0xd53bd063), ISA_NEXT);     /* mrs x3, tpidrro_el0: 0, as Linux */
	assert_int_equal(e->c.x[3], 0);
	uint64_t pc = e->c.pc;
	assert_int_equal(isa_run(e, 0xd53be040), ISA_ENV);      /* mrs x0, cntvct_el0: the run loop supplies it */
	assert_int_equal(e->c.pc, pc);
	assert_int_equal(e->u.rd, 0);
	/* dc zva, x1 zeroes the aligned 64-byte block around x1 */
	uint8_t ones[256];
	memset(ones, 0xff, sizeof ones);
	isa_poke(e, A, ones, sizeof ones);
	e->c.x[1] = A + 64 + 13;
	assert_int_equal(isa_run(e, 0xd50b7421), ISA_NEXT);
	assert_int_equal(isa_peek(e, A + 56, 8), ~0ull);
	for (int i = 0; i < 64; i += 8)
		assert_int_equal(isa_peek(e, A + 64 + (uint64_t)i, 8), 0);
	assert_int_equal(isa_peek(e, A + 128, 8), ~0ull);
	assert_int_equal(e->c.mem_addr, A + 64);
	assert_int_equal(e->u.op_class, UOP_STORE);
	assert_int_equal(e->u.mem_size, 64);
	e->c.x[1] = T_RO + 8;
	assert_int_equal(isa_run(e, 0xd50b7421), ISA_FAULT);
	assert_int_equal(e->c.fault_addr, T_RO);
	assert_int_equal(isa_run(e, 0xd50b7b21), ISA_NEXT);     /* dc cvau: a no-op */
	assert_int_equal(isa_run(e, 0xd50b7521), ISA_NEXT);     /* ic ivau */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ld_ops, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_cas, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_faults, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_system_registers, isa_env_setup, isa_env_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
