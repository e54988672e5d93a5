/*
 * test_isa_br.c — branches (targets, taken/not taken, link register,
 * branch kinds and dependences), exception generation, hints, barriers,
 * MRS/MSR, the unsupported system and SIMD/FP space, and the printable
 * class and branch-kind names.
 */
#include "isa_test.h"

#define PC 0x400800ull

struct br_case {
	uint32_t word;
	const char *text;
	int64_t off;            /* target - pc */
	int kind;
	uint64_t x3, nzcv;      /* inputs */
	int taken;
	int src;                /* the dependence source, or -1 */
};

static const struct br_case br_cases[] = {
	{ 0x14000040, "b .+0x100", 0x100, BRANCH_UNCOND, 0, 0, 1, -1 },
	{ 0x17ffffff, "b .-4", -4, BRANCH_UNCOND, 0, 0, 1, -1 },
	{ 0x54000040, "b.eq .+8", 8, BRANCH_COND, 0, NZCV_Z, 1, REG_NZCV },
	{ 0x54000040, "b.eq .+8", 8, BRANCH_COND, 0, NZCV_N | NZCV_C | NZCV_V, 0, REG_NZCV },
	{ 0x54800001, "b.ne .-0x100000", -0x100000, BRANCH_COND, 0, 0, 1, REG_NZCV },
	{ 0x5400006e, "b.al .+12", 12, BRANCH_COND, 0, 0, 1, REG_NZCV },
	{ 0x5400006f, "b.nv .+12", 12, BRANCH_COND, 0, NZCV_Z, 1, REG_NZCV },
	{ 0xb4000083, "cbz x3, .+16", 16, BRANCH_COND, 0, 0, 1, REG_X(3) },
	{ 0xb4000083, "cbz x3, .+16", 16, BRANCH_COND, 1ull << 63, 0, 0, REG_X(3) },
	{ 0xb5ffff83, "cbnz x3, .-16", -16, BRANCH_COND, 1ull << 32, 0, 1, REG_X(3) },
	{ 0x34000083, "cbz w3, .+16", 16, BRANCH_COND, 1ull << 32, 0, 1, REG_X(3) },
	{ 0x35000083, "cbnz w3, .+16", 16, BRANCH_COND, 0xffffffff00000000ull, NZCV_Z, 0, REG_X(3) },
	{ 0x35000083, "cbnz w3, .+16", 16, BRANCH_COND, 0x80000000ull, 0, 1, REG_X(3) },
	{ 0xb6f80103, "tbz x3, #63, .+32", 32, BRANCH_COND, 0x7fffffffffffffffull, 0, 1, REG_X(3) },
	{ 0xb6f80103, "tbz x3, #63, .+32", 32, BRANCH_COND, 0x8000000000000000ull, 0, 0, REG_X(3) },
	{ 0x3707ff03, "tbnz w3, #0, .-32", -32, BRANCH_COND, 1, 0, 1, REG_X(3) },
	{ 0x362bffe3, "tbz w3, #5, .+0x7ffc", 0x7ffc, BRANCH_COND, ~0x20ull, 0, 1, REG_X(3) },
	{ 0xb7440003, "tbnz x3, #40, .-0x8000", -0x8000, BRANCH_COND, 1ull << 40, 0, 1, REG_X(3) },
	{ 0xb7440003, "tbnz x3, #40, .-0x8000", -0x8000, BRANCH_COND, ~(1ull << 40), 0, 0, REG_X(3) },
};

static void test_direct_branches(void **state)
{
	struct isa_env *e = *state;
	for (size_t k = 0; k < sizeof br_cases / sizeof br_cases[0]; k++) {
		const struct br_case *t = &br_cases[k];
		isa_env_reset(e);
		e->c.pc = PC;
		e->c.x[3] = t->x3;
		e->c.nzcv = t->nzcv;
		uint64_t before[CPU_NREGS];
		memcpy(before, e->c.x, sizeof before);
		int r = isa_run(e, t->word);
		if (r != (t->taken ? ISA_TAKEN : ISA_NEXT))
			print_error("%s: result %d\n", t->text, r);
		assert_int_equal(r, t->taken ? ISA_TAKEN : ISA_NEXT);
		assert_int_equal(e->c.pc, t->taken ? PC + (uint64_t)t->off : PC + 4);
		assert_int_equal(e->u.target, PC + (uint64_t)t->off);
		assert_int_equal(e->u.op_class, UOP_BRANCH);
		assert_int_equal(e->u.branch_kind, t->kind);
		assert_memory_equal(before, e->c.x, sizeof before);
		assert_int_equal(e->c.nzcv, t->nzcv);
		assert_int_equal(e->u.n_dst, 0);
		assert_int_equal(e->u.n_src, t->src >= 0);
		if (t->src >= 0)
			assert_int_equal(e->u.src[0], t->src);
	}
}

/* Every condition against every flag combination, with the conditions
 * spelled out as the Arm ARM's ConditionHolds table. */
static int cond_holds(unsigned cond, unsigned f)
{
	int n = (f >> 3) & 1, z = (f >> 2) & 1, c = (f >> 1) & 1, v = f & 1;
	switch (cond) {
	case 0: return z;                       /* EQ */
	case 1: return !z;                      /* NE */
	case 2: return c;                       /* CS */
	case 3: return !c;                      /* CC */
	case 4: return n;                       /* MI */
	case 5: return !n;                      /* PL */
	case 6: return v;                       /* VS */
	case 7: return !v;                      /* VC */
	case 8: return c && !z;                 /* HI */
	case 9: return !c || z;                 /* LS */
	case 10: return n == v;                 /* GE */
	case 11: return n != v;                 /* LT */
	case 12: return !z && n == v;           /* GT */
	case 13: return z || n != v;            /* LE */
	default: return 1;                      /* AL, NV */
	}
}

static void test_conditions(void **state)
{
	struct isa_env *e = *state;
	for (unsigned cond = 0; cond < 16; cond++) {
		for (unsigned f = 0; f < 16; f++) {
			isa_env_reset(e);
			e->c.nzcv = (uint64_t)f << 28;
			uint32_t bcond = 0x54000040 | cond;                     /* b.<cond> .+8 */
			int r = isa_run(e, bcond);
			assert_int_equal(r, cond_holds(cond, f) ? ISA_TAKEN : ISA_NEXT);
			assert_int_equal(e->c.pc, T_CODE + (cond_holds(cond, f) ? 8 : 4));
			/* csinc x0, x1, x2, <cond> with x1 = 10, x2 = 20 */
			e->c.x[1] = 10;
			e->c.x[2] = 20;
			assert_int_equal(isa_run(e, 0x9a820420 | (cond << 12)), ISA_NEXT);
			assert_int_equal(e->c.x[0], cond_holds(cond, f) ? 10 : 21);
		}
	}
}

static void test_calls_and_returns(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	e->c.pc = PC;
	assert_int_equal(isa_run(e, 0x95ffffff), ISA_TAKEN);     /* bl .+0x7fffffc */
	assert_int_equal(e->c.pc, PC + 0x7fffffc);
	assert_int_equal(e->c.x[30], PC + 4);
	assert_int_equal(e->u.branch_kind, BRANCH_CALL);
	assert_int_equal(e->u.n_dst, 1);
	assert_int_equal(e->u.dst[0], REG_X(30));
	assert_int_equal(e->u.n_src, 0);

	e->c.pc = PC;
	assert_int_equal(isa_run(e, 0x96000000), ISA_TAKEN);     /* bl .-0x8000000 */
	assert_int_equal(e->c.pc, PC - 0x8000000);
	assert_int_equal(e->u.target, PC - 0x8000000);

	e->c.pc = PC;
	e->c.x[5] = 0x401234;
	assert_int_equal(isa_run(e, 0xd61f00a0), ISA_TAKEN);     /* br x5 */
	assert_int_equal(e->c.pc, 0x401234);
	assert_int_equal(e->u.branch_kind, BRANCH_INDIRECT);
	assert_int_equal(e->u.n_src, 1);
	assert_int_equal(e->u.src[0], REG_X(5));
	assert_int_equal(e->u.n_dst, 0);

	e->c.pc = PC;
	assert_int_equal(isa_run(e, 0xd63f00a0), ISA_TAKEN);     /* blr x5 */
	assert_int_equal(e->c.pc, 0x401234);
	assert_int_equal(e->c.x[30], PC + 4);
	assert_int_equal(e->u.branch_kind, BRANCH_CALL_INDIRECT);
	assert_int_equal(e->u.src[0], REG_X(5));
	assert_int_equal(e->u.n_dst, 1);
	assert_int_equal(e->u.dst[0], REG_X(30));

	e->c.pc = PC;
	e->c.x[30] = 0x405678;
	assert_int_equal(isa_run(e, 0xd63f03c0), ISA_TAKEN);     /* blr x30: old x30 is the target */
	assert_int_equal(e->c.pc, 0x405678);
	assert_int_equal(e->c.x[30], PC + 4);

	assert_int_equal(isa_run(e, 0xd65f03c0), ISA_TAKEN);     /* ret */
	assert_int_equal(e->c.pc, PC + 4);
	assert_int_equal(e->u.branch_kind, BRANCH_RETURN);
	assert_int_equal(e->u.src[0], REG_X(30));

	e->c.x[7] = 0x40abc0;
	assert_int_equal(isa_run(e, 0xd65f00e0), ISA_TAKEN);     /* ret x7 */
	assert_int_equal(e->c.pc, 0x40abc0);
	assert_int_equal(e->u.branch_kind, BRANCH_RETURN);
	assert_int_equal(e->u.src[0], REG_X(7));

	assert_int_equal(isa_run(e, 0xd61f03e0), ISA_TAKEN);     /* br xzr */
	assert_int_equal(e->c.pc, 0);
	assert_int_equal(e->u.n_src, 0);
}

/* Pointer authentication with the keys disabled: the authenticating
 * branches are BR, BLR and RET of the same register. */
static void test_pac_branches(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	e->c.pc = PC;
	e->c.x[30] = 0x405678;
	assert_int_equal(isa_run(e, 0xd65f0bff), ISA_TAKEN);     /* retaa */
	assert_int_equal(e->c.pc, 0x405678);
	assert_int_equal(e->u.branch_kind, BRANCH_RETURN);
	assert_int_equal(e->u.src[0], REG_X(30));
	assert_int_equal(isa_run(e, 0xd65f0fff), ISA_TAKEN);     /* retab */
	assert_int_equal(e->c.pc, 0x405678);

	e->c.pc = PC;
	e->c.x[1] = 0x401234;
	assert_int_equal(isa_run(e, 0xd71f0822), ISA_TAKEN);     /* braa x1, x2 */
	assert_int_equal(e->c.pc, 0x401234);
	assert_int_equal(e->u.branch_kind, BRANCH_INDIRECT);

	e->c.pc = PC;
	assert_int_equal(isa_run(e, 0xd63f083f), ISA_TAKEN);     /* blraaz x1 */
	assert_int_equal(e->c.pc, 0x401234);
	assert_int_equal(e->c.x[30], PC + 4);
	assert_int_equal(e->u.branch_kind, BRANCH_CALL_INDIRECT);

	e->c.pc = PC;
	assert_int_equal(isa_run(e, 0xd73f0c22), ISA_TAKEN);     /* blrab x1, x2 */
	assert_int_equal(e->c.pc, 0x401234);
	assert_int_equal(e->c.x[30], PC + 4);

	/* signing and authenticating leave the pointer; stripping makes the
	 * top bits copies of bit 55 (XPACD keeps the top byte: TBI) */
	e->c.x[0] = 0x401000;
	assert_int_equal(isa_run(e, 0xdac10020), ISA_NEXT);      /* pacia x0, x1 */
	assert_int_equal(isa_run(e, 0xdac11020), ISA_NEXT);      /* autia x0, x1 */
	assert_int_equal(isa_run(e, 0xdac123e0), ISA_NEXT);      /* paciza x0 */
	assert_int_equal(e->c.x[0], 0x401000);
	e->c.x[0] = 0x0012000000401000ull;
	assert_int_equal(isa_run(e, 0xdac143e0), ISA_NEXT);      /* xpaci x0 */
	assert_int_equal(e->c.x[0], 0x401000);
	e->c.x[0] = 0x1a12000000401000ull;
	assert_int_equal(isa_run(e, 0xdac147e0), ISA_NEXT);      /* xpacd x0 */
	assert_int_equal(e->c.x[0], 0x1a00000000401000ull);
}

static void test_exceptions(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	assert_int_equal(isa_run(e, 0xd4000001), ISA_SVC);       /* svc #0 */
	assert_int_equal(e->c.pc, T_CODE);                       /* not advanced */
	assert_int_equal(e->u.op_class, UOP_SYSCALL);
	assert_int_equal(e->u.imm, 0);
	assert_true(isa_has_src(&e->u, REG_X(8)));
	assert_true(isa_has_dst(&e->u, REG_X(0)));
	assert_int_equal(isa_run(e, 0xd4024681), ISA_SVC);       /* svc #0x1234 */
	assert_int_equal(e->u.imm, 0x1234);

	static const uint32_t halts[] = {
		0xd4200000,     /* brk #0 */
		0xd43e0000,     /* brk #0xf000 */
		0xd4400000,     /* hlt #0 */
		0x00000000,     /* udf #0 */
		0x0000ffff,     /* udf #0xffff */
	};
	for (size_t i = 0; i < sizeof halts / sizeof halts[0]; i++) {
		assert_int_equal(isa_run(e, halts[i]), ISA_HALT);
		assert_int_equal(e->u.op_class, UOP_HALT);
		assert_int_equal(e->c.pc, T_CODE);
	}
}

/* Hints and barriers: nothing at all changes (CLREX only disarms the
 * monitor). */
static void test_hints_and_barriers(void **state)
{
	struct isa_env *e = *state;
	static const uint32_t words[] = {
		0xd503201f, 0xd503203f, 0xd503205f, 0xd503207f,         /* nop yield wfe wfi */
		0xd503209f, 0xd50320bf, 0xd503245f, 0xd503233f,         /* sev sevl bti paciasp */
		0xd50323bf, 0xd5032fff, 0xd503221f, 0xd503229f,         /* autiasp hint#0x7f esb csdb */
		0xd5033bbf, 0xd5033f9f, 0xd5033fdf, 0xd50330ff,         /* dmb ish, dsb sy, isb, sb */
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		isa_env_reset(e);
		e->c.excl_valid = 1;
		e->c.excl_addr = T_DATA;
		struct cpu before = e->c;
		assert_int_equal(isa_run(e, words[i]), ISA_NEXT);
		assert_int_equal(e->u.op_class, UOP_NOP);
		assert_int_equal(e->u.n_src + e->u.n_dst, 0);
		before.pc += 4;
		isa_assert_cpu_equal(&before, &e->c);
	}
	isa_env_reset(e);
	e->c.excl_valid = 1;
	assert_int_equal(isa_run(e, 0xd503355f), ISA_NEXT);      /* clrex #5 */
	assert_int_equal(e->c.excl_valid, 0);
	assert_int_equal(e->u.op_class, UOP_NOP);
}

static void test_system_registers(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	e->c.nzcv = NZCV_N | NZCV_V;
	assert_int_equal(isa_run(e, 0xd53b4200), ISA_NEXT);      /* mrs x0, nzcv */
	assert_int_equal(e->c.x[0], NZCV_N | NZCV_V);
	assert_int_equal(e->u.op_class, UOP_SYSTEM);
	assert_int_equal(e->u.src[0], REG_NZCV);
	assert_int_equal(e->u.dst[0], REG_X(0));

	e->c.x[1] = 0xffffffffffffffffull;
	assert_int_equal(isa_run(e, 0xd51b4201), ISA_NEXT);      /* msr nzcv, x1: only bits 31..28 */
	assert_int_equal(e->c.nzcv, 0xf0000000ull);
	assert_int_equal(e->u.src[0], REG_X(1));
	assert_int_equal(e->u.dst[0], REG_NZCV);
	assert_int_equal(isa_run(e, 0xd51b421f), ISA_NEXT);      /* msr nzcv, xzr */
	assert_int_equal(e->c.nzcv, 0);
	assert_int_equal(e->u.n_src, 0);

	e->c.x[3] = 0x7ff0000012345678ull;
	assert_int_equal(isa_run(e, 0xd51bd043), ISA_NEXT);      /* msr tpidr_el0, x3 */
	assert_int_equal(e->c.tpidr_el0, 0x7ff0000012345678ull);
	assert_int_equal(isa_run(e, 0xd53bd042), ISA_NEXT);      /* mrs x2, tpidr_el0 */
	assert_int_equal(e->c.x[2], 0x7ff0000012345678ull);
	assert_int_equal(e->u.op_class, UOP_SYSTEM);

	uint64_t before[CPU_NREGS];
	memcpy(before, e->c.x, sizeof before);
	assert_int_equal(isa_run(e, 0xd53b421f), ISA_NEXT);      /* mrs xzr, nzcv */
	assert_memory_equal(before, e->c.x, 32 * sizeof before[0]);
	assert_int_equal(e->u.n_dst, 0);
}

static void test_unsupported(void **state)
{
	struct isa_env *e = *state;
	static const uint32_t words[] = {
		0xd53be0c0,     /* mrs x0, cntvctss_el0 (FEAT_ECV, not advertised) */
		0xd50342df,     /* msr daifset, #2 */
		0xd4000002,     /* hvc #0 */
		0xd4000003,     /* smc #0 */
		0xd4a00001,     /* dcps1 */
		0xd69f03e0,     /* eret */
		0xd65f0bfe,     /* retaa with Rm != 31: reserved */
		0xd61f0820,     /* braaz x1 with Rm != 31: reserved */
		0x54000050,     /* bc.eq (FEAT_HBC) */
		0xd5380000,     /* mrs x0, midr_el1 (no HWCAP_CPUID) */
		0xd53be020,     /* mrs x0, cntpct_el0 */
		0xd51be040,     /* msr cntvct_el0, x0 (read-only) */
		0xd5087e20,     /* dc civac at op1 0: dc cisw (EL1) */
		0x0e40d420,     /* fadd v0.4h, v1.4h, v0.4h (half precision) */
		0xce420c20,     /* sm3ss1 v0.4s, v1.4s, v2.4s, v3.4s */
		0x1ee22820,     /* fadd h0, h1, h2 (half precision) */
		0xffffffff,
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		isa_env_reset(e);
		struct cpu before = e->c;
		int r = isa_run(e, words[i]);
		if (e->u.op_class != UOP_UNSUPPORTED)
			print_error("%08x decoded as class %d\n", words[i], e->u.op_class);
		assert_int_equal(e->u.op_class, UOP_UNSUPPORTED);
		assert_int_equal(r, ISA_UNSUPPORTED);
		assert_int_equal(e->u.word, words[i]);
		assert_int_equal(e->u.pc, T_CODE);
		assert_int_equal(e->u.branch_kind, BRANCH_NONE);
		assert_int_equal(e->u.n_src + e->u.n_dst + e->u.mem_size, 0);
		isa_assert_cpu_equal(&before, &e->c);
	}
}

static void test_names(void **state)
{
	(void)state;
	static const char *const classes[UOP_CLASS_COUNT] = {
		"nop", "alu", "mul", "div", "load", "store", "branch", "system", "syscall",
		"halt", "unsupported", "fp", "fma", "fdiv", "simd",
	};
	for (int i = 0; i < UOP_CLASS_COUNT; i++)
		assert_string_equal(uop_class_name(i), classes[i]);
	assert_string_equal(uop_class_name(UOP_CLASS_COUNT), "?");
	assert_string_equal(uop_class_name(-1), "?");
	static const char *const kinds[] = {
		"none", "cond", "uncond", "call", "indirect", "call-indirect", "return",
	};
	for (int i = 0; i <= BRANCH_RETURN; i++)
		assert_string_equal(branch_kind_name(i), kinds[i]);
	assert_string_equal(branch_kind_name(BRANCH_RETURN + 1), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_direct_branches, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_conditions, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_calls_and_returns, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_exceptions, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_hints_and_barriers, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_system_registers, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_pac_branches, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_unsupported, isa_env_setup, isa_env_teardown),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
