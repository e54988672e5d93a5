/*
 * test_isa_excl.c — exclusive and ordered accesses: LDXR/STXR and their
 * acquire/release forms, the pair forms, LDAR/STLR, LDAPR, CLREX, the
 * single-thread exclusive monitor (a store-exclusive succeeds iff the
 * monitor is armed for the same address, and always disarms it), and the
 * natural-alignment rule for all of them.
 */
#include "isa_test.h"

#define S (T_DATA + 0x400)

static void put_pattern(struct isa_env *e)
{
	isa_poke64(e, S, 0x8877665544332211ull);
	isa_poke64(e, S + 8, 0xffeeddccbbaa9988ull);
}

static const struct {
	uint32_t ldxr, stxr;
	const char *text;
	int size;
	uint64_t loaded;        /* from S */
} excl[] = {
	{ 0x085f7c20, 0x08027c23, "ldxrb w0 / stxrb w2, w3", 1, 0x11 },
	{ 0x485f7c20, 0x4802fc23, "ldxrh w0 / stlxrh w2, w3", 2, 0x2211 },
	{ 0x885ffc20, 0x8802fc23, "ldaxr w0 / stlxr w2, w3", 4, 0x44332211 },
	{ 0xc85f7c20, 0xc8027c23, "ldxr x0 / stxr w2, x3", 8, 0x8877665544332211ull },
};

static void test_exclusive_pair_up(void **state)
{
	struct isa_env *e = *state;
	for (size_t k = 0; k < sizeof excl / sizeof excl[0]; k++) {
		put_pattern(e);
		isa_env_reset(e);
		e->c.x[1] = S;
		e->c.x[3] = 0x0102030405060708ull;
		assert_int_equal(isa_run(e, excl[k].ldxr), ISA_NEXT);
		assert_int_equal(e->c.x[0], excl[k].loaded);
		assert_int_equal(e->c.excl_valid, 1);
		assert_int_equal(e->c.excl_addr, S);
		assert_int_equal(e->c.excl_size, excl[k].size);
		assert_int_equal(e->c.mem_addr, S);
		assert_int_equal(e->u.mem_size, excl[k].size);
		assert_int_equal(e->u.op_class, UOP_LOAD);

		assert_int_equal(isa_run(e, excl[k].stxr), ISA_NEXT);
		assert_int_equal(e->c.x[2], 0);                        /* success */
		assert_int_equal(e->c.excl_valid, 0);
		uint64_t mask = excl[k].size == 8 ? ~0ull : (1ull << (8 * excl[k].size)) - 1;
		uint64_t want = (0x8877665544332211ull & ~mask) | (0x0102030405060708ull & mask);
		assert_int_equal(isa_peek(e, S, 8), want);
		assert_int_equal(e->c.mem_addr, S);
		assert_int_equal(e->u.op_class, UOP_STORE);
		assert_int_equal(e->u.mem_size, excl[k].size);

		/* the monitor is spent: a second store-exclusive fails, stores nothing */
		e->c.x[3] = 0;
		assert_int_equal(isa_run(e, excl[k].stxr), ISA_NEXT);
		assert_int_equal(e->c.x[2], 1);
		assert_int_equal(isa_peek(e, S, 8), want);
	}
}

static void test_exclusive_failures(void **state)
{
	struct isa_env *e = *state;
	put_pattern(e);
	isa_env_reset(e);
	e->c.x[1] = S;
	e->c.x[3] = 0;

	/* never armed */
	assert_int_equal(isa_run(e, 0xc8027c23), ISA_NEXT);      /* stxr w2, x3, [x1] */
	assert_int_equal(e->c.x[2], 1);
	assert_int_equal(isa_peek(e, S, 8), 0x8877665544332211ull);

	/* armed for another address: fails, and disarms */
	assert_int_equal(isa_run(e, 0xc85f7c20), ISA_NEXT);      /* ldxr x0, [x1] */
	e->c.x[1] = S + 8;
	assert_int_equal(isa_run(e, 0xc8027c23), ISA_NEXT);
	assert_int_equal(e->c.x[2], 1);
	assert_int_equal(e->c.excl_valid, 0);
	assert_int_equal(isa_peek(e, S + 8, 8), 0xffeeddccbbaa9988ull);

	/* CLREX disarms */
	e->c.x[1] = S;
	assert_int_equal(isa_run(e, 0xc85f7c20), ISA_NEXT);
	assert_int_equal(isa_run(e, 0xd5033f5f), ISA_NEXT);      /* clrex */
	assert_int_equal(e->u.op_class, UOP_NOP);
	assert_int_equal(e->c.excl_valid, 0);
	assert_int_equal(isa_run(e, 0xc8027c23), ISA_NEXT);
	assert_int_equal(e->c.x[2], 1);
	assert_int_equal(isa_peek(e, S, 8), 0x8877665544332211ull);

	/* a status register of wzr is discarded, the store still happens */
	e->c.x[3] = 0x55;
	assert_int_equal(isa_run(e, 0xc85f7c20), ISA_NEXT);
	assert_int_equal(isa_run(e, 0xc81f7c23), ISA_NEXT);      /* stxr wzr, x3, [x1] */
	assert_int_equal(isa_peek(e, S, 8), 0x55);
	assert_int_equal(e->u.n_dst, 0);
}

static void test_exclusive_pairs(void **state)
{
	struct isa_env *e = *state;
	put_pattern(e);
	isa_env_reset(e);
	e->c.x[1] = S;
	assert_int_equal(isa_run(e, 0xc87f1020), ISA_NEXT);      /* ldxp x0, x4, [x1] */
	assert_int_equal(e->c.x[0], 0x8877665544332211ull);
	assert_int_equal(e->c.x[4], 0xffeeddccbbaa9988ull);
	assert_int_equal(e->c.excl_size, 16);
	assert_int_equal(e->u.mem_size, 16);
	assert_int_equal(e->u.n_dst, 2);
	e->c.x[3] = 0x3333333333333333ull;
	e->c.x[5] = 0x5555555555555555ull;
	assert_int_equal(isa_run(e, 0xc8221423), ISA_NEXT);      /* stxp w2, x3, x5, [x1] */
	assert_int_equal(e->c.x[2], 0);
	assert_int_equal(isa_peek(e, S, 8), 0x3333333333333333ull);
	assert_int_equal(isa_peek(e, S + 8, 8), 0x5555555555555555ull);
	assert_int_equal(e->u.op_class, UOP_STORE);
	assert_int_equal(e->u.mem_size, 16);
	assert_int_equal(e->u.n_src, 3);
	assert_int_equal(e->u.n_dst, 1);
	assert_int_equal(e->u.dst[0], REG_X(2));

	put_pattern(e);
	e->c.x[1] = S + 8;
	assert_int_equal(isa_run(e, 0x887f9020), ISA_NEXT);      /* ldaxp w0, w4, [x1] */
	assert_int_equal(e->c.x[0], 0xbbaa9988ull);
	assert_int_equal(e->c.x[4], 0xffeeddccull);
	assert_int_equal(e->c.excl_size, 8);
	assert_int_equal(isa_run(e, 0x88229423), ISA_NEXT);      /* stlxp w2, w3, w5, [x1] */
	assert_int_equal(e->c.x[2], 0);
	assert_int_equal(isa_peek(e, S + 8, 8), 0x5555555533333333ull);
}

static void test_ordered(void **state)
{
	struct isa_env *e = *state;
	static const struct { uint32_t word; const char *text; uint64_t want; int size; } loads[] = {
		{ 0xc8dffc20, "ldar x0, [x1]", 0x8877665544332211ull, 8 },
		{ 0x08dffc20, "ldarb w0, [x1]", 0x11, 1 },
		{ 0x48dffc20, "ldarh w0, [x1]", 0x2211, 2 },
		{ 0x88dffc20, "ldar w0, [x1]", 0x44332211, 4 },
		{ 0xf8bfc020, "ldapr x0, [x1]", 0x8877665544332211ull, 8 },
		{ 0x38bfc020, "ldaprb w0, [x1]", 0x11, 1 },
		{ 0x78bfc020, "ldaprh w0, [x1]", 0x2211, 2 },
		{ 0xb8bfc020, "ldapr w0, [x1]", 0x44332211, 4 },
	};
	static const struct { uint32_t word; const char *text; int size; } stores[] = {
		{ 0xc89ffc23, "stlr x3, [x1]", 8 },
		{ 0x089ffc23, "stlrb w3, [x1]", 1 },
		{ 0x489ffc23, "stlrh w3, [x1]", 2 },
		{ 0x889ffc23, "stlr w3, [x1]", 4 },
	};
	for (size_t k = 0; k < sizeof loads / sizeof loads[0]; k++) {
		put_pattern(e);
		isa_env_reset(e);
		e->c.x[1] = S;
		assert_int_equal(isa_run(e, loads[k].word), ISA_NEXT);
		assert_int_equal(e->c.x[0], loads[k].want);
		assert_int_equal(e->u.op_class, UOP_LOAD);
		assert_int_equal(e->u.mem_size, loads[k].size);
		assert_int_equal(e->c.excl_valid, 0);                  /* not exclusive */
		/* misaligned by one element-size fraction: alignment fault */
		if (loads[k].size > 1) {
			uint64_t x0 = e->c.x[0];
			e->c.x[1] = S + (uint64_t)loads[k].size / 2;
			assert_int_equal(isa_run(e, loads[k].word), ISA_FAULT);
			assert_int_equal(e->c.fault_kind, FAULT_ALIGN);
			assert_int_equal(e->c.fault_addr, S + (uint64_t)loads[k].size / 2);
			assert_int_equal(e->c.x[0], x0);
		}
	}
	for (size_t k = 0; k < sizeof stores / sizeof stores[0]; k++) {
		put_pattern(e);
		isa_env_reset(e);
		e->c.x[1] = S + 8;
		e->c.x[3] = 0x0102030405060708ull;
		assert_int_equal(isa_run(e, stores[k].word), ISA_NEXT);
		uint64_t mask = stores[k].size == 8 ? ~0ull : (1ull << (8 * stores[k].size)) - 1;
		assert_int_equal(isa_peek(e, S + 8, 8),
				 (0xffeeddccbbaa9988ull & ~mask) | (0x0102030405060708ull & mask));
		assert_int_equal(e->u.op_class, UOP_STORE);
		assert_int_equal(e->u.mem_size, stores[k].size);
		assert_int_equal(e->u.n_dst, 0);
		if (stores[k].size > 1) {
			e->c.x[1] = S + 1;
			assert_int_equal(isa_run(e, stores[k].word), ISA_FAULT);
			assert_int_equal(e->c.fault_kind, FAULT_ALIGN);
			assert_int_equal(isa_peek(e, S, 8), 0x8877665544332211ull);
		}
	}
}

/* Misaligned or faulting exclusives change nothing: no register, no memory,
 * no monitor. */
static void test_exclusive_faults(void **state)
{
	struct isa_env *e = *state;
	put_pattern(e);
	isa_env_reset(e);
	uint64_t x0 = e->c.x[0], x2 = e->c.x[2];

	e->c.x[1] = S + 4;
	assert_int_equal(isa_run(e, 0xc85f7c20), ISA_FAULT);     /* ldxr x0, [x1] */
	assert_int_equal(e->c.fault_kind, FAULT_ALIGN);
	assert_int_equal(e->c.x[0], x0);
	assert_int_equal(e->c.excl_valid, 0);
	e->c.x[1] = S + 1;
	assert_int_equal(isa_run(e, 0x485f7c20), ISA_FAULT);     /* ldxrh w0, [x1] */
	assert_int_equal(e->c.fault_kind, FAULT_ALIGN);
	assert_int_equal(isa_run(e, 0x085f7c20), ISA_NEXT);      /* ldxrb: any address */
	assert_int_equal(e->c.x[0], 0x22);
	e->c.x[1] = S + 8;
	assert_int_equal(isa_run(e, 0xc87f1020), ISA_FAULT);     /* ldxp x0, x4: needs 16 */
	assert_int_equal(e->c.fault_kind, FAULT_ALIGN);
	assert_int_equal(e->c.excl_addr, S + 1);                 /* the ldxrb's monitor */

	e->c.x[1] = S + 4;
	assert_int_equal(isa_run(e, 0xc8027c23), ISA_FAULT);     /* stxr w2, x3, [x1] */
	assert_int_equal(e->c.fault_kind, FAULT_ALIGN);
	assert_int_equal(e->c.x[2], x2);
	assert_int_equal(isa_peek(e, S, 8), 0x8877665544332211ull);

	e->c.x[1] = T_NONE;
	assert_int_equal(isa_run(e, 0xc85f7c20), ISA_FAULT);
	assert_int_equal(e->c.fault_kind, FAULT_READ);
	assert_int_equal(e->c.fault_addr, T_NONE);
	assert_int_equal(e->c.excl_addr, S + 1);

	/* armed on a read-only page; the store-exclusive faults and keeps it */
	e->c.x[1] = T_RO;
	assert_int_equal(isa_run(e, 0xc85f7c20), ISA_NEXT);
	assert_int_equal(isa_run(e, 0xc8027c23), ISA_FAULT);
	assert_int_equal(e->c.fault_kind, FAULT_WRITE);
	assert_int_equal(e->c.x[2], x2);
	assert_int_equal(e->c.excl_valid, 1);
	assert_int_equal(e->c.excl_addr, T_RO);
}

static void test_exclusive_operands(void **state)
{
	(void)state;
	struct uop u;
	isa_decode(0xc8027c23, T_CODE, &u);          /* stxr w2, x3, [x1] */
	assert_int_equal(u.n_src, 2);
	assert_true(isa_has_src(&u, REG_X(1)));
	assert_true(isa_has_src(&u, REG_X(3)));
	assert_int_equal(u.n_dst, 1);
	assert_int_equal(u.dst[0], REG_X(2));
	isa_decode(0xc8027c3f, T_CODE, &u);          /* stxr w2, xzr, [x1] */
	assert_int_equal(u.n_src, 1);
	isa_decode(0xc85f7fe0, T_CODE, &u);          /* ldxr x0, [sp] */
	assert_int_equal(u.n_src, 1);
	assert_int_equal(u.src[0], REG_SP);
	assert_int_equal(u.n_dst, 1);
	assert_int_equal(u.dst[0], REG_X(0));
	isa_decode(0xc89ffc23, T_CODE, &u);          /* stlr x3, [x1] */
	assert_int_equal(u.n_src, 2);
	assert_int_equal(u.n_dst, 0);

	/* the CAS family shares this space (test_isa_atomic.c runs them) */
	static const uint32_t lse[] = {
		0xc8a07c00,     /* cas x0, x0, [x0] */
		0x08207c00,     /* casp w0, w1, w0, w1, [x0] */
		0x08e07c00,     /* casab w0, w0, [x0] */
	};
	for (size_t i = 0; i < sizeof lse / sizeof lse[0]; i++) {
		isa_decode(lse[i], T_CODE, &u);
		assert_int_equal(u.op_class, UOP_LOAD);
	}
	static const uint32_t bad[] = {
		0xc8a07800,     /* cas with bits 14..10 != 11111 */
		0x08217c00,     /* casp with an odd Rs */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		isa_decode(bad[i], T_CODE, &u);
		assert_int_equal(u.op_class, UOP_UNSUPPORTED);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_exclusive_pair_up, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_exclusive_failures, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_exclusive_pairs, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_ordered, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_exclusive_faults, isa_env_setup, isa_env_teardown),
		cmocka_unit_test(test_exclusive_operands),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
