/*
 * test_isa_simd.c — Advanced SIMD: the operations glibc's string routines
 * are built from (CMEQ, CMHS, UMAXP, ADDP, SHRN, BIT/BIF/BSL, EXT, TBL,
 * DUP, MOVI, MVNI, INS, UMOV, UZP1, UMINV, ADDV, XTN, shifts), saturation
 * setting FPSR.QC, vector FP, the 64-bit forms clearing the upper half,
 * and the structure loads and stores (LD1/ST1 multiple, post-index, LD1R,
 * single lanes, LD2 de-interleaving) with the SIMD&FP register loads and
 * stores in their addressing modes. Expected values are worked out by
 * hand from the lane definitions.
 */
#include "isa_test.h"

#define D (T_DATA + 0x100)

static void vset(struct isa_env *e, int r, uint64_t lo, uint64_t hi)
{
	e->c.v[r].d[0] = lo;
	e->c.v[r].d[1] = hi;
}

static void expect_v(struct isa_env *e, int r, uint64_t lo, uint64_t hi, const char *what)
{
	if (e->c.v[r].d[0] != lo || e->c.v[r].d[1] != hi)
		fail_msg("%s: v%d = %016llx:%016llx, expected %016llx:%016llx", what, r,
			 (unsigned long long)e->c.v[r].d[1], (unsigned long long)e->c.v[r].d[0],
			 (unsigned long long)hi, (unsigned long long)lo);
}

struct simd_case {
	uint32_t word;
	const char *text;
	uint64_t v0[2], v1[2], v2[2];
	uint64_t want[2];
};

static const struct simd_case cases[] = {
	{ 0x6e228c20, "cmeq v0.16b, v1.16b, v2.16b", { 0, 0 }, { 0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull },
	  { 0x0700050003000100ull, 0xff0e0d0c0b0a09ffull }, { 0xff00ff00ff00ffffull, 0x00ffffffffffff00ull } },
	{ 0x6ea23c20, "cmhs v0.4s, v1.4s, v2.4s", { 0, 0 }, { 5, 0xffffffff00000001ull }, { 6, 0x0000000100000001ull },
	  { 0xffffffff00000000ull, 0xffffffffffffffffull } },
	{ 0x6e22a420, "umaxp v0.16b, v1.16b, v2.16b", { 0, 0 }, { 0x0102030405060708ull, 0x1020304050607080ull },
	  { 0xff00000000000001ull, 0 }, { 0x2040608002040608ull, 0x00000000ff000001ull } },
	{ 0x4ee2bc20, "addp v0.2d, v1.2d, v2.2d", { 0, 0 }, { 1, 2 }, { 10, 20 }, { 3, 30 } },
	{ 0x0f0c8420, "shrn v0.8b, v1.8h, #4", { ~0ull, ~0ull }, { 0x0ff00f0000ff1234ull, 0xabcd00010010ff00ull },
	  { 0, 0 }, { 0xbc0001f0fff00f23ull, 0 } },
	{ 0x6ea21c20, "bit v0.16b, v1.16b, v2.16b", { 0xaaaaaaaaaaaaaaaaull, 0 }, { 0x5555555555555555ull, ~0ull },
	  { 0x00000000ffffffffull, 0xf0ull }, { 0xaaaaaaaa55555555ull, 0xf0ull } },
	{ 0x6ee21c20, "bif v0.16b, v1.16b, v2.16b", { 0xaaaaaaaaaaaaaaaaull, 0 }, { 0x5555555555555555ull, ~0ull },
	  { 0x00000000ffffffffull, 0xf0ull }, { 0x55555555aaaaaaaaull, ~0xf0ull } },
	{ 0x6e621c20, "bsl v0.16b, v1.16b, v2.16b", { 0x00000000ffffffffull, 0 }, { 0x1111111111111111ull, 0 },
	  { 0x2222222222222222ull, 3 }, { 0x2222222211111111ull, 3 } },
	{ 0x6e021820, "ext v0.16b, v1.16b, v2.16b, #3", { 0, 0 }, { 0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull },
	  { 0x1716151413121110ull, 0x1f1e1d1c1b1a1918ull }, { 0x0a09080706050403ull, 0x1211100f0e0d0c0bull } },
	{ 0x4e020020, "tbl v0.16b, {v1.16b}, v2.16b", { 0, 0 }, { 0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull },
	  { 0x000f10ff01020304ull, 0x0808080808080808ull }, { 0x000f000001020304ull, 0x0808080808080808ull } },
	{ 0x4e140420, "dup v0.4s, v1.s[2]", { 0, 0 }, { 0, 0xaaaaaaaa12345678ull }, { 0, 0 },
	  { 0x1234567812345678ull, 0x1234567812345678ull } },
	{ 0x4f02e400, "movi v0.16b, #0x40", { 1, 2 }, { 0, 0 }, { 0, 0 }, { 0x4040404040404040ull, 0x4040404040404040ull } },
	{ 0x6f002640, "mvni v0.4s, #0x12, lsl #8", { 1, 2 }, { 0, 0 }, { 0, 0 },
	  { 0xffffedffffffedffull, 0xffffedffffffedffull } },
	{ 0x4e021820, "uzp1 v0.16b, v1.16b, v2.16b", { 0, 0 }, { 0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull },
	  { 0x1716151413121110ull, 0x1f1e1d1c1b1a1918ull }, { 0x0e0c0a0806040200ull, 0x1e1c1a1816141210ull } },
	{ 0x6e31a820, "uminv b0, v1.16b", { 5, 5 }, { 0x0706050403020109ull, 0x0f0e0d0c0b0a0908ull }, { 0, 0 }, { 1, 0 } },
	{ 0x4eb1b820, "addv s0, v1.4s", { 5, 5 }, { 0x0000000200000001ull, 0xffffffff00000004ull }, { 0, 0 }, { 6, 0 } },
	{ 0x0e212820, "xtn v0.8b, v1.8h", { ~0ull, ~0ull }, { 0x0004000300020001ull, 0x1208ff07f006ab05ull }, { 0, 0 },
	  { 0x0807060504030201ull, 0 } },
	{ 0x6f3d0420, "ushr v0.4s, v1.4s, #3", { 0, 0 }, { 0x8000000000000010ull, 0xffffffff00000007ull }, { 0, 0 },
	  { 0x1000000000000002ull, 0x1fffffff00000000ull } },
	{ 0x4f410420, "sshr v0.2d, v1.2d, #63", { 0, 0 }, { 0x8000000000000000ull, 0x7fffffffffffffffull }, { 0, 0 },
	  { ~0ull, 0 } },
	{ 0x4ea21c20, "orr v0.16b, v1.16b, v2.16b", { 0, 0 }, { 0xf0, 0x0f }, { 0x0f, 0xf0 }, { 0xff, 0xff } },
	{ 0x4e22d420, "fadd v0.4s, v1.4s, v2.4s", { 0, 0 }, { 0x400000003f800000ull, 0x7f80000040400000ull },
	  { 0x3f8000003f800000ull, 0xff80000040400000ull }, { 0x4040000040000000ull, 0x7fc0000040c00000ull } },
	{ 0x5ef1b820, "addp d0, v1.2d", { 7, 7 }, { 40, 2 }, { 0, 0 }, { 42, 0 } },
	{ 0x5e1c0420, "mov s0, v1.s[3]", { 7, 7 }, { 0, 0x1234567800000000ull }, { 0, 0 }, { 0x12345678, 0 } },
};

static void test_cases(void **state)
{
	struct isa_env *e = *state;
	int failures = 0;
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const struct simd_case *t = &cases[k];
		isa_env_reset(e);
		vset(e, 0, t->v0[0], t->v0[1]);
		vset(e, 1, t->v1[0], t->v1[1]);
		vset(e, 2, t->v2[0], t->v2[1]);
		int r = isa_run(e, t->word);
		if (r != ISA_NEXT || e->c.v[0].d[0] != t->want[0] || e->c.v[0].d[1] != t->want[1]) {
			print_error("%08x %s: result %d, v0 %016llx:%016llx, expected %016llx:%016llx\n", t->word,
				    t->text, r, (unsigned long long)e->c.v[0].d[1], (unsigned long long)e->c.v[0].d[0],
				    (unsigned long long)t->want[1], (unsigned long long)t->want[0]);
			failures++;
		}
		int imm = (t->word & 0x9ff80400u) == 0x0f000400u;      /* MOVI/MVNI read no vector */
		if (!isa_has_dst(&e->u, REG_V(0)) || isa_has_src(&e->u, REG_V(1)) == imm) {
			print_error("%08x %s: dependences\n", t->word, t->text);
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

static void test_general_registers(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	e->c.x[1] = 0x1234567890abcdefull;
	assert_int_equal(isa_run(e, 0x4e010c20), ISA_NEXT);     /* dup v0.16b, w1 */
	expect_v(e, 0, 0xefefefefefefefefull, 0xefefefefefefefefull, "dup");
	assert_true(isa_has_src(&e->u, REG_X(1)));
	assert_int_equal(isa_run(e, 0x4e0c1c20), ISA_NEXT);     /* mov v0.s[1], w1 */
	expect_v(e, 0, 0x90abcdefefefefefull, 0xefefefefefefefefull, "ins");
	assert_true(isa_has_src(&e->u, REG_V(0)));
	vset(e, 1, 0x00000000aa000000ull, 0);
	assert_int_equal(isa_run(e, 0x0e073c20), ISA_NEXT);     /* umov w0, v1.b[3] */
	assert_int_equal(e->c.x[0], 0xaa);
	assert_true(isa_has_dst(&e->u, REG_X(0)));
}

static void test_saturation_sets_qc(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	vset(e, 1, 0x7f01, 0);
	vset(e, 2, 0x0101, 0);
	assert_int_equal(isa_run(e, 0x4e220c20), ISA_NEXT);     /* sqadd v0.16b, v1.16b, v2.16b */
	expect_v(e, 0, 0x7f02, 0, "sqadd");
	assert_int_equal(e->c.fpsr, FPSR_QC);
	e->c.fpsr = 0;
	vset(e, 1, 0x0101, 0);
	assert_int_equal(isa_run(e, 0x4e220c20), ISA_NEXT);
	assert_int_equal(e->c.fpsr, 0);
}

static void test_fmla(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	vset(e, 0, 0x3ff0000000000000ull, 0x4000000000000000ull);       /* 1, 2 */
	vset(e, 1, 0x4000000000000000ull, 0x4008000000000000ull);       /* 2, 3 */
	vset(e, 2, 0x4008000000000000ull, 0x4010000000000000ull);       /* 3, 4 */
	assert_int_equal(isa_run(e, 0x4e62cc20), ISA_NEXT);     /* fmla v0.2d, v1.2d, v2.2d */
	expect_v(e, 0, 0x401c000000000000ull, 0x402c000000000000ull, "fmla");   /* 7, 14 */
	assert_int_equal(e->u.op_class, UOP_FMA);
	assert_true(isa_has_src(&e->u, REG_V(0)));
}

static void fill(struct isa_env *e)
{
	uint8_t b[128];
	for (int i = 0; i < 128; i++)
		b[i] = (uint8_t)i;
	isa_poke(e, D, b, sizeof b);
}

static void test_structures(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	fill(e);
	e->c.x[1] = D;
	assert_int_equal(isa_run(e, 0x4c407020), ISA_NEXT);     /* ld1 {v0.16b}, [x1] */
	expect_v(e, 0, 0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull, "ld1");
	assert_int_equal(e->u.mem_size, 16);
	assert_int_equal(e->c.mem_addr, D);
	assert_int_equal(isa_run(e, 0x4cdfa020), ISA_NEXT);     /* ld1 {v0.16b, v1.16b}, [x1], #32 */
	expect_v(e, 1, 0x1716151413121110ull, 0x1f1e1d1c1b1a1918ull, "ld1 second register");
	assert_int_equal(e->c.x[1], D + 32);
	assert_true(isa_has_dst(&e->u, REG_X(1)));
	e->c.x[1] = D;
	assert_int_equal(isa_run(e, 0x4c408420), ISA_NEXT);     /* ld2 {v0.8h, v1.8h}, [x1] */
	expect_v(e, 0, 0x0d0c090805040100ull, 0x1d1c191815141110ull, "ld2 even halfwords");
	expect_v(e, 1, 0x0f0e0b0a07060302ull, 0x1f1e1b1a17161312ull, "ld2 odd halfwords");
	assert_int_equal(isa_run(e, 0x4d40c820), ISA_NEXT);     /* ld1r {v0.4s}, [x1] */
	expect_v(e, 0, 0x0302010003020100ull, 0x0302010003020100ull, "ld1r");
	vset(e, 0, 1, 2);
	assert_int_equal(isa_run(e, 0x4d408020), ISA_NEXT);     /* ld1 {v0.s}[2], [x1] */
	expect_v(e, 0, 1, 0x0000000003020100ull, "ld1 lane");
	vset(e, 2, 0x1111111111111111ull, 0x2222222222222222ull);
	vset(e, 3, 0x3333333333333333ull, 0x4444444444444444ull);
	e->c.x[1] = D + 64;
	assert_int_equal(isa_run(e, 0x4c00a822), ISA_NEXT);     /* st1 {v2.4s, v3.4s}, [x1] */
	assert_int_equal(isa_peek(e, D + 64, 8), 0x1111111111111111ull);
	assert_int_equal(isa_peek(e, D + 88, 8), 0x4444444444444444ull);
	assert_true(isa_has_src(&e->u, REG_V(2)) && isa_has_src(&e->u, REG_V(3)));
	e->c.x[2] = 8;
	vset(e, 0, 5, 0xabcdef);
	assert_int_equal(isa_run(e, 0x4d828420), ISA_NEXT);     /* st1 {v0.d}[1], [x1], x2 */
	assert_int_equal(isa_peek(e, D + 64, 8), 0xabcdef);
	assert_int_equal(e->c.x[1], D + 72);
}

static void test_register_loads_stores(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	fill(e);
	e->c.x[1] = D;
	vset(e, 0, ~0ull, ~0ull);
	assert_int_equal(isa_run(e, 0x3dc00420), ISA_NEXT);     /* ldr q0, [x1, #16] */
	expect_v(e, 0, 0x1716151413121110ull, 0x1f1e1d1c1b1a1918ull, "ldr q");
	assert_int_equal(isa_run(e, 0xbc404420), ISA_NEXT);     /* ldr s0, [x1], #4 */
	expect_v(e, 0, 0x03020100, 0, "ldr s (upper bits cleared)");
	assert_int_equal(e->c.x[1], D + 4);
	e->c.x[2] = 3;
	assert_int_equal(isa_run(e, 0x7c627820), ISA_NEXT);     /* ldr h0, [x1, x2, lsl #1] */
	expect_v(e, 0, 0x0b0a, 0, "ldr h");
	e->c.x[1] = D + 64;
	vset(e, 0, 0x8877665544332211ull, 0);
	assert_int_equal(isa_run(e, 0xfc1f8c20), ISA_NEXT);     /* str d0, [x1, #-8]! */
	assert_int_equal(e->c.x[1], D + 56);
	assert_int_equal(isa_peek(e, D + 56, 8), 0x8877665544332211ull);
	e->c.x[1] = D;
	assert_int_equal(isa_run(e, 0xad410420), ISA_NEXT);     /* ldp q0, q1, [x1, #32] */
	expect_v(e, 0, 0x2726252423222120ull, 0x2f2e2d2c2b2a2928ull, "ldp q0");
	expect_v(e, 1, 0x3736353433323130ull, 0x8877665544332211ull, "ldp q1 (bytes 56..63 stored above)");
	assert_int_equal(e->u.mem_size, 32);
	/* a store that runs into the read-only page changes nothing */
	struct cpu before;
	e->c.x[1] = T_RO - 8;
	vset(e, 0, 1, 2);
	before = e->c;
	assert_int_equal(isa_run(e, 0x3d800020), ISA_FAULT);    /* str q0, [x1] */
	assert_int_equal(e->c.fault_addr, T_RO);
	assert_int_equal(isa_peek(e, T_RO - 8, 8), 0);
	e->c.fault_addr = before.fault_addr;
	e->c.fault_kind = before.fault_kind;
	e->c.mem_addr = before.mem_addr;
	isa_assert_cpu_equal(&before, &e->c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cases, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_general_registers, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_saturation_sets_qc, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_fmla, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_structures, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_register_loads_stores, isa_env_setup, isa_env_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
