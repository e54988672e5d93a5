/*
 * test_isa_muldiv.c — the 2- and 3-source groups: divides (with the
 * architecture's divide-by-zero and overflow results), variable shifts,
 * multiplies, and CRC32/CRC32C.
 */
#include "isa_test.h"

/* Expected values from qemu-aarch64; see isa_test.h. */
static const struct isa_alu_case muldiv_cases[] = {
	{ 0x9ac20820, "udiv x0, x1, x2", 0x0, 2, { {1, 0x64}, {2, 0x7} }, 0x0, 1, { {0, 0xe} } },
	{ 0x9ac20820, "udiv x0, x1, x2", 0x0, 2, { {1, 0x64}, {2, 0x0} }, 0x0, 1, { {0, 0x0} } },
	{ 0x9ac20820, "udiv x0, x1, x2", 0x0, 2, { {1, 0xffffffffffffffff}, {2, 0x1} }, 0x0, 1, { {0, 0xffffffffffffffff} } },
	{ 0x9ac20820, "udiv x0, x1, x2", 0x0, 2, { {1, 0xffffffffffffffff}, {2, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x1} } },
	{ 0x1ac20820, "udiv w0, w1, w2", 0x0, 2, { {1, 0xffffffff00000064}, {2, 0x100000007} }, 0x0, 1, { {0, 0xe} } },
	{ 0x1ac20820, "udiv w0, w1, w2", 0x0, 2, { {1, 0x64}, {2, 0xffffffff00000000} }, 0x0, 1, { {0, 0x0} } },
	{ 0x1ac20820, "udiv w0, w1, w2", 0x0, 2, { {1, 0xffffffff}, {2, 0x2} }, 0x0, 1, { {0, 0x7fffffff} } },
	{ 0x9ac20c20, "sdiv x0, x1, x2", 0x0, 2, { {1, 0xffffffffffffff9c}, {2, 0x7} }, 0x0, 1, { {0, 0xfffffffffffffff2} } },
	{ 0x9ac20c20, "sdiv x0, x1, x2", 0x0, 2, { {1, 0x64}, {2, 0xfffffffffffffff9} }, 0x0, 1, { {0, 0xfffffffffffffff2} } },
	{ 0x9ac20c20, "sdiv x0, x1, x2", 0x0, 2, { {1, 0xffffffffffffff9c}, {2, 0xfffffffffffffff9} }, 0x0, 1, { {0, 0xe} } },
	{ 0x9ac20c20, "sdiv x0, x1, x2", 0x0, 2, { {1, 0xffffffffffffff9c}, {2, 0x0} }, 0x0, 1, { {0, 0x0} } },
	{ 0x9ac20c20, "sdiv x0, x1, x2", 0x0, 2, { {1, 0x8000000000000000}, {2, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x8000000000000000} } },
	{ 0x9ac20c20, "sdiv x0, x1, x2", 0x0, 2, { {1, 0x8000000000000000}, {2, 0x1} }, 0x0, 1, { {0, 0x8000000000000000} } },
	{ 0x9ac20c20, "sdiv x0, x1, x2", 0x0, 2, { {1, 0x5}, {2, 0xffffffffffffffff} }, 0x0, 1, { {0, 0xfffffffffffffffb} } },
	{ 0x1ac20c20, "sdiv w0, w1, w2", 0x0, 2, { {1, 0x80000000}, {2, 0xffffffff} }, 0x0, 1, { {0, 0x80000000} } },
	{ 0x1ac20c20, "sdiv w0, w1, w2", 0x0, 2, { {1, 0xffffff9c}, {2, 0x7} }, 0x0, 1, { {0, 0xfffffff2} } },
	{ 0x1ac20c20, "sdiv w0, w1, w2", 0x0, 2, { {1, 0x1ffffff9c}, {2, 0x100000007} }, 0x0, 1, { {0, 0xfffffff2} } },
	{ 0x1ac20c20, "sdiv w0, w1, w2", 0x0, 2, { {1, 0xffffff9c}, {2, 0x0} }, 0x0, 1, { {0, 0x0} } },
	{ 0x1ac20c20, "sdiv w0, w1, w2", 0x0, 2, { {1, 0x7}, {2, 0xffffffff} }, 0x0, 1, { {0, 0xfffffff9} } },
	{ 0x9ac22020, "lsl x0, x1, x2", 0x0, 2, { {1, 0x1}, {2, 0x3f} }, 0x0, 1, { {0, 0x8000000000000000} } },
	{ 0x9ac22020, "lsl x0, x1, x2", 0x0, 2, { {1, 0x1}, {2, 0x40} }, 0x0, 1, { {0, 0x1} } },
	{ 0x9ac22020, "lsl x0, x1, x2", 0x0, 2, { {1, 0x3}, {2, 0xffffffffffffff41} }, 0x0, 1, { {0, 0x6} } },
	{ 0x1ac22020, "lsl w0, w1, w2", 0x0, 2, { {1, 0xffffffff}, {2, 0x1f} }, 0x0, 1, { {0, 0x80000000} } },
	{ 0x1ac22020, "lsl w0, w1, w2", 0x0, 2, { {1, 0xffffffff}, {2, 0x20} }, 0x0, 1, { {0, 0xffffffff} } },
	{ 0x1ac22020, "lsl w0, w1, w2", 0x0, 2, { {1, 0xffffffff}, {2, 0x21} }, 0x0, 1, { {0, 0xfffffffe} } },
	{ 0x9ac22420, "lsr x0, x1, x2", 0x0, 2, { {1, 0x8000000000000000}, {2, 0x3f} }, 0x0, 1, { {0, 0x1} } },
	{ 0x9ac22420, "lsr x0, x1, x2", 0x0, 2, { {1, 0x8000000000000000}, {2, 0x7f} }, 0x0, 1, { {0, 0x1} } },
	{ 0x1ac22420, "lsr w0, w1, w2", 0x0, 2, { {1, 0xffffffff80000000}, {2, 0x1f} }, 0x0, 1, { {0, 0x1} } },
	{ 0x1ac22420, "lsr w0, w1, w2", 0x0, 2, { {1, 0xffffffff80000000}, {2, 0x20} }, 0x0, 1, { {0, 0x80000000} } },
	{ 0x9ac22820, "asr x0, x1, x2", 0x0, 2, { {1, 0x8000000000000000}, {2, 0x3f} }, 0x0, 1, { {0, 0xffffffffffffffff} } },
	{ 0x9ac22820, "asr x0, x1, x2", 0x0, 2, { {1, 0x8000000000000000}, {2, 0x40} }, 0x0, 1, { {0, 0x8000000000000000} } },
	{ 0x1ac22820, "asr w0, w1, w2", 0x0, 2, { {1, 0x80000000}, {2, 0x1f} }, 0x0, 1, { {0, 0xffffffff} } },
	{ 0x1ac22820, "asr w0, w1, w2", 0x0, 2, { {1, 0x80000000}, {2, 0x24} }, 0x0, 1, { {0, 0xf8000000} } },
	{ 0x1ac22820, "asr w0, w1, w2", 0x0, 2, { {1, 0x180000000}, {2, 0x4} }, 0x0, 1, { {0, 0xf8000000} } },
	{ 0x9ac22c20, "ror x0, x1, x2", 0x0, 2, { {1, 0x123456789abcdef0}, {2, 0x4} }, 0x0, 1, { {0, 0x123456789abcdef} } },
	{ 0x9ac22c20, "ror x0, x1, x2", 0x0, 2, { {1, 0x123456789abcdef0}, {2, 0x40} }, 0x0, 1, { {0, 0x123456789abcdef0} } },
	{ 0x9ac22c20, "ror x0, x1, x2", 0x0, 2, { {1, 0x123456789abcdef0}, {2, 0x0} }, 0x0, 1, { {0, 0x123456789abcdef0} } },
	{ 0x1ac22c20, "ror w0, w1, w2", 0x0, 2, { {1, 0xffffffff12345678}, {2, 0x8} }, 0x0, 1, { {0, 0x78123456} } },
	{ 0x1ac22c20, "ror w0, w1, w2", 0x0, 2, { {1, 0xffffffff12345678}, {2, 0x20} }, 0x0, 1, { {0, 0x12345678} } },
	{ 0x1ac22c20, "ror w0, w1, w2", 0x0, 2, { {1, 0x80000001}, {2, 0x3f} }, 0x0, 1, { {0, 0x3} } },
	{ 0x9b027c20, "mul x0, x1, x2", 0x0, 2, { {1, 0x100000001}, {2, 0x100000001} }, 0x0, 1, { {0, 0x200000001} } },
	{ 0x1b027c20, "mul w0, w1, w2", 0x0, 2, { {1, 0x10000ffff}, {2, 0x10000ffff} }, 0x0, 1, { {0, 0xfffe0001} } },
	{ 0x9b020c20, "madd x0, x1, x2, x3", 0x0, 3, { {1, 0x3}, {2, 0x4}, {3, 0x5} }, 0x0, 1, { {0, 0x11} } },
	{ 0x1b020c20, "madd w0, w1, w2, w3", 0x0, 3, { {1, 0xffffffff}, {2, 0x2}, {3, 0xffffffff00000003} }, 0x0, 1, { {0, 0x1} } },
	{ 0x9b028c20, "msub x0, x1, x2, x3", 0x0, 3, { {1, 0x3}, {2, 0x4}, {3, 0x5} }, 0x0, 1, { {0, 0xfffffffffffffff9} } },
	{ 0x1b028c20, "msub w0, w1, w2, w3", 0x0, 3, { {1, 0x3}, {2, 0x4}, {3, 0x5} }, 0x0, 1, { {0, 0xfffffff9} } },
	{ 0x9b02fc20, "mneg x0, x1, x2", 0x0, 2, { {1, 0x3}, {2, 0x4} }, 0x0, 1, { {0, 0xfffffffffffffff4} } },
	{ 0x9b220c20, "smaddl x0, w1, w2, x3", 0x0, 3, { {1, 0xffffffff}, {2, 0xfffffffe}, {3, 0xa} }, 0x0, 1, { {0, 0xc} } },
	{ 0x9b220c20, "smaddl x0, w1, w2, x3", 0x0, 3, { {1, 0x80000000}, {2, 0x80000000}, {3, 0x0} }, 0x0, 1, { {0, 0x4000000000000000} } },
	{ 0x9b228c20, "smsubl x0, w1, w2, x3", 0x0, 3, { {1, 0xffffffff}, {2, 0x5}, {3, 0x0} }, 0x0, 1, { {0, 0x5} } },
	{ 0x9b227c20, "smull x0, w1, w2", 0x0, 2, { {1, 0x12345678ffffffff}, {2, 0xfffffffe7fffffff} }, 0x0, 1, { {0, 0xffffffff80000001} } },
	{ 0x9ba20c20, "umaddl x0, w1, w2, x3", 0x0, 3, { {1, 0xffffffff}, {2, 0xffffffff}, {3, 0x1} }, 0x0, 1, { {0, 0xfffffffe00000002} } },
	{ 0x9ba28c20, "umsubl x0, w1, w2, x3", 0x0, 3, { {1, 0xffffffff}, {2, 0xffffffff}, {3, 0x0} }, 0x0, 1, { {0, 0x1ffffffff} } },
	{ 0x9ba27c20, "umull x0, w1, w2", 0x0, 2, { {1, 0x12345678ffffffff}, {2, 0xfffffffe00000002} }, 0x0, 1, { {0, 0x1fffffffe} } },
	{ 0x9b427c20, "smulh x0, x1, x2", 0x0, 2, { {1, 0x8000000000000000}, {2, 0x8000000000000000} }, 0x0, 1, { {0, 0x4000000000000000} } },
	{ 0x9b427c20, "smulh x0, x1, x2", 0x0, 2, { {1, 0xffffffffffffffff}, {2, 0xffffffffffffffff} }, 0x0, 1, { {0, 0x0} } },
	{ 0x9b427c20, "smulh x0, x1, x2", 0x0, 2, { {1, 0xffffffffffffffff}, {2, 0x1} }, 0x0, 1, { {0, 0xffffffffffffffff} } },
	{ 0x9b427c20, "smulh x0, x1, x2", 0x0, 2, { {1, 0x123456789abcdef0}, {2, 0xfedcba9876543210} }, 0x0, 1, { {0, 0xffeb49923cc09532} } },
	{ 0x9bc27c20, "umulh x0, x1, x2", 0x0, 2, { {1, 0xffffffffffffffff}, {2, 0xffffffffffffffff} }, 0x0, 1, { {0, 0xfffffffffffffffe} } },
	{ 0x9bc27c20, "umulh x0, x1, x2", 0x0, 2, { {1, 0x123456789abcdef0}, {2, 0xfedcba9876543210} }, 0x0, 1, { {0, 0x121fa00ad77d7422} } },
	{ 0x9bc27c20, "umulh x0, x1, x2", 0x0, 2, { {1, 0xffffffffffffffff}, {2, 0x1} }, 0x0, 1, { {0, 0x0} } },
	{ 0x1ac24020, "crc32b w0, w1, w2", 0x0, 2, { {1, 0xffffffff}, {2, 0x31} }, 0x0, 1, { {0, 0x7c231048} } },
	{ 0x1ac24420, "crc32h w0, w1, w2", 0x0, 2, { {1, 0x12345678}, {2, 0xabcd} }, 0x0, 1, { {0, 0x5abec668} } },
	{ 0x1ac24820, "crc32w w0, w1, w2", 0x0, 2, { {1, 0xffffffff}, {2, 0x34333231} }, 0x0, 1, { {0, 0x641c1f5c} } },
	{ 0x9ac24c20, "crc32x w0, w1, x2", 0x0, 2, { {1, 0xffffffff}, {2, 0x3837363534333231} }, 0x0, 1, { {0, 0x651f2550} } },
	{ 0x1ac25020, "crc32cb w0, w1, w2", 0x0, 2, { {1, 0xffffffff}, {2, 0x31} }, 0x0, 1, { {0, 0x6f0a661c} } },
	{ 0x1ac25420, "crc32ch w0, w1, w2", 0x0, 2, { {1, 0x0}, {2, 0xffff} }, 0x0, 1, { {0, 0xe9e77d2} } },
	{ 0x1ac25820, "crc32cw w0, w1, w2", 0x0, 2, { {1, 0x87654321}, {2, 0xdeadbeef} }, 0x0, 1, { {0, 0xa53a60b3} } },
	{ 0x9ac25c20, "crc32cx w0, w1, x2", 0x0, 2, { {1, 0xffffffff}, {2, 0x3837363534333231} }, 0x0, 1, { {0, 0x9f787f65} } },
};

static void test_muldiv_table(void **state)
{
	isa_check_alu_cases(*state, muldiv_cases, sizeof muldiv_cases / sizeof muldiv_cases[0]);
}

/* The Arm ARM: division by zero gives zero, INT_MIN / -1 gives INT_MIN
 * (no trap in either case). */
static void test_divide_edges(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	e->c.x[1] = 12345;
	e->c.x[2] = 0;
	assert_int_equal(isa_run(e, 0x9ac20820), ISA_NEXT);      /* udiv x0, x1, x2 */
	assert_int_equal(e->c.x[0], 0);
	e->c.x[0] = 77;
	assert_int_equal(isa_run(e, 0x9ac20c20), ISA_NEXT);      /* sdiv x0, x1, x2 */
	assert_int_equal(e->c.x[0], 0);
	e->c.x[1] = 0x8000000000000000ull;
	e->c.x[2] = ~0ull;
	assert_int_equal(isa_run(e, 0x9ac20c20), ISA_NEXT);      /* sdiv x0, x1, x2 */
	assert_int_equal(e->c.x[0], 0x8000000000000000ull);
	e->c.x[1] = 0xffffffff80000000ull;                       /* upper half ignored */
	e->c.x[2] = 0xffffffff;
	assert_int_equal(isa_run(e, 0x1ac20c20), ISA_NEXT);      /* sdiv w0, w1, w2 */
	assert_int_equal(e->c.x[0], 0x80000000ull);
	e->c.x[1] = -7;
	e->c.x[2] = 2;
	assert_int_equal(isa_run(e, 0x9ac20c20), ISA_NEXT);      /* rounds toward zero */
	assert_int_equal(e->c.x[0], (uint64_t)-3);
}

/* Run the standard check string "123456789" through CRC32X + CRC32B with
 * the usual all-ones seed and final inversion: the published check values
 * are 0xcbf43926 (CRC-32) and 0xe3069283 (CRC-32C). */
static void test_crc_check_values(void **state)
{
	struct isa_env *e = *state;
	static const struct { uint32_t x, b; uint32_t check; } crc[] = {
		{ 0x9ac14c00, 0x1ac24000, 0xcbf43926 },     /* crc32x w0, w0, x1; crc32b w0, w0, w2 */
		{ 0x9ac15c00, 0x1ac25000, 0xe3069283 },     /* crc32cx ...; crc32cb ... */
	};
	for (int i = 0; i < 2; i++) {
		isa_env_reset(e);
		e->c.x[0] = 0xffffffff;
		e->c.x[1] = 0x3837363534333231ull;          /* "12345678" */
		e->c.x[2] = '9';
		assert_int_equal(isa_run(e, crc[i].x), ISA_NEXT);
		assert_int_equal(isa_run(e, crc[i].b), ISA_NEXT);
		assert_int_equal((uint32_t)~e->c.x[0], crc[i].check);
		assert_int_equal(e->c.x[0] >> 32, 0);
	}
}

static void test_muldiv_classes(void **state)
{
	(void)state;
	struct uop u;
	isa_decode(0x9ac20820, T_CODE, &u);          /* udiv */
	assert_int_equal(u.op_class, UOP_DIV);
	isa_decode(0x1ac20c20, T_CODE, &u);          /* sdiv w */
	assert_int_equal(u.op_class, UOP_DIV);
	assert_int_equal(u.n_src, 2);
	isa_decode(0x9b020c20, T_CODE, &u);          /* madd x0, x1, x2, x3 */
	assert_int_equal(u.op_class, UOP_MUL);
	assert_int_equal(u.n_src, 3);
	assert_true(isa_has_src(&u, REG_X(3)));
	assert_int_equal(u.n_dst, 1);
	assert_int_equal(u.dst[0], REG_X(0));
	isa_decode(0x9b027c20, T_CODE, &u);          /* mul: the addend is xzr */
	assert_int_equal(u.op_class, UOP_MUL);
	assert_int_equal(u.n_src, 2);
	isa_decode(0x9b427c20, T_CODE, &u);          /* smulh */
	assert_int_equal(u.op_class, UOP_MUL);
	assert_int_equal(u.n_src, 2);
	isa_decode(0x9ba20c20, T_CODE, &u);          /* umaddl x0, w1, w2, x3 */
	assert_int_equal(u.n_src, 3);
	isa_decode(0x9ac22020, T_CODE, &u);          /* lslv */
	assert_int_equal(u.op_class, UOP_ALU);
	assert_int_equal(u.n_src, 2);
}

static void test_muldiv_unallocated(void **state)
{
	(void)state;
	static const uint32_t words[] = {
		0x1ac00000,     /* 2-source opcode 0 */
		0x3ac00800,     /* 2-source with S=1 */
		0x1ac04c00,     /* crc32x with sf=0 */
		0x9ac04000,     /* crc32b with sf=1 */
		0x1b200000,     /* smaddl with sf=0 */
		0x9b408000,     /* smulh with o0=1 */
		0x9b600000,     /* 3-source op31=011 */
		0x3b000000,     /* 3-source op54 != 0 */
		0x9bc08000,     /* umulh with o0=1 */
		0x1b400000,     /* smulh with sf=0 */
		0x9ad00000,     /* subp (FEAT_MTE) */
		0x9ac01800,     /* 2-source opcode 6 */
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		struct uop u;
		isa_decode(words[i], T_CODE, &u);
		if (u.op_class != UOP_UNSUPPORTED)
			print_error("%08x decoded as class %d\n", words[i], u.op_class);
		assert_int_equal(u.op_class, UOP_UNSUPPORTED);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_muldiv_table, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_divide_edges, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_crc_check_values, isa_env_setup, isa_env_teardown),
		cmocka_unit_test(test_muldiv_classes),
		cmocka_unit_test(test_muldiv_unallocated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
