/*
 * test_isa_fp.c — scalar floating point: arithmetic with Arm's NaN rules
 * (first signalling NaN quieted, then first quiet NaN, positive default
 * NaN, FPCR.DN), FPCR rounding modes, FPSR cumulative flags (underflow
 * detected before rounding, flush-to-zero with IDC/UFC), fused
 * multiply-add negations, compares setting NZCV, conversions that
 * saturate, rounding to integral, moves between X and V, and the
 * architectural zeroing of the upper vector bits. Every expected value
 * follows from the Arm ARM pseudocode by hand; the differential tester
 * (tests/difftest) checks the same instructions against qemu at random.
 */
#include "isa_test.h"

#define SNAN_D 0x7ff0000000000002ull
#define QNAN_D 0x7ff8000000000001ull
#define DNAN_D 0x7ff8000000000000ull
#define RN 0u
#define RP (1u << 22)
#define RM (2u << 22)
#define RZ (3u << 22)

struct fp_case {
	uint32_t word;
	const char *text;
	uint32_t fpcr;
	uint64_t v1, v2, v3;    /* low 64 bits of V1..V3 (the high halves hold junk) */
	uint64_t want;          /* low 64 bits of V0 (high half must be zero) */
	uint32_t fpsr;          /* exact flags raised */
};

static const struct fp_case cases[] = {
	{ 0x1e622820, "fadd d0, d1, d2", RN, 0x3ff8000000000000ull, 0x4002000000000000ull, 0,
	  0x400e000000000000ull, 0 },                                     /* 1.5 + 2.25 = 3.75 */
	{ 0x1e221820, "fdiv s0, s1, s2 (1/3, nearest)", RN, 0x3f800000, 0x40400000, 0, 0x3eaaaaab, FPSR_IXC },
	{ 0x1e221820, "fdiv s0, s1, s2 (1/3, towards zero)", RZ, 0x3f800000, 0x40400000, 0, 0x3eaaaaaa, FPSR_IXC },
	{ 0x1e221820, "fdiv s0, s1, s2 (-1/3, towards -inf)", RM, 0xbf800000, 0x40400000, 0, 0xbeaaaaab, FPSR_IXC },
	{ 0x1e221820, "fdiv s0, s1, s2 (1/0)", RN, 0x3f800000, 0, 0, 0x7f800000, FPSR_DZC },
	{ 0x1e623820, "fsub d0, d1, d2 (inf - inf)", RN, 0x7ff0000000000000ull, 0x7ff0000000000000ull, 0,
	  DNAN_D, FPSR_IOC },
	{ 0x1e622820, "fadd d0, d1, d2 (qnan + snan)", RN, QNAN_D, SNAN_D, 0, 0x7ff8000000000002ull, FPSR_IOC },
	{ 0x1e622820, "fadd d0, d1, d2 (-qnan + 1)", RN, 0xfff8000000000005ull, 0x3ff0000000000000ull, 0,
	  0xfff8000000000005ull, 0 },
	{ 0x1e622820, "fadd d0, d1, d2 (qnan + snan, DN)", RN | FPCR_DN, QNAN_D, SNAN_D, 0, DNAN_D, FPSR_IOC },
	{ 0x1e622820, "fadd d0, d1, d2 (max + max)", RN, 0x7fefffffffffffffull, 0x7fefffffffffffffull, 0,
	  0x7ff0000000000000ull, FPSR_OFC | FPSR_IXC },
	{ 0x1e622820, "fadd d0, d1, d2 (max + max, towards zero)", RZ, 0x7fefffffffffffffull,
	  0x7fefffffffffffffull, 0, 0x7fefffffffffffffull, FPSR_OFC | FPSR_IXC },
	/* (1 - 2^-24) * 2^-126 rounds up to the smallest normal: tiny before rounding */
	{ 0x1e220820, "fmul s0, s1, s2 (rounds up to the smallest normal)", RN, 0x3f7fffff, 0x00800000, 0,
	  0x00800000, FPSR_UFC | FPSR_IXC },
	{ 0x1e220820, "fmul s0, s1, s2 (same, flush to zero)", RN | FPCR_FZ, 0x3f7fffff, 0x00800000, 0,
	  0, FPSR_UFC },
	{ 0x1e220820, "fmul s0, s1, s2 (denormal input, flush to zero)", RN | FPCR_FZ, 0x00000001, 0x3f800000, 0,
	  0, FPSR_IDC },
	{ 0x1e220820, "fmul s0, s1, s2 (exact denormal result)", RN, 0x00000002, 0x3f000000, 0, 1, 0 },
	{ 0x1f420c20, "fmadd d0, d1, d2, d3 (2*3 + 1)", RN, 0x4000000000000000ull, 0x4008000000000000ull,
	  0x3ff0000000000000ull, 0x401c000000000000ull, 0 },
	{ 0x1f620c20, "fnmadd d0, d1, d2, d3 (-1 - 2*3)", RN, 0x4000000000000000ull, 0x4008000000000000ull,
	  0x3ff0000000000000ull, 0xc01c000000000000ull, 0 },
	{ 0x1f028c20, "fmsub s0, s1, s2, s3 (1 - 2*3)", RN, 0x40000000, 0x40400000, 0x3f800000, 0xc0a00000, 0 },
	{ 0x1f028c20, "fmsub s0, s1, s2, s3 (qnan Rn is negated)", RN, 0x7fc00001, 0x40400000, 0x3f800000,
	  0xffc00001, 0 },
	{ 0x1f420c20, "fmadd d0, d1, d2, d3 (inf * 0 + qnan)", RN, 0x7ff0000000000000ull, 0, QNAN_D, DNAN_D,
	  FPSR_IOC },
	{ 0x1e625820, "fmin d0, d1, d2 (+0, -0)", RN, 0, 0x8000000000000000ull, 0, 0x8000000000000000ull, 0 },
	{ 0x1e626820, "fmaxnm d0, d1, d2 (qnan, 2)", RN, QNAN_D, 0x4000000000000000ull, 0,
	  0x4000000000000000ull, 0 },
	{ 0x1e626820, "fmaxnm d0, d1, d2 (snan, 2)", RN, SNAN_D, 0x4000000000000000ull, 0,
	  0x7ff8000000000002ull, FPSR_IOC },
	{ 0x1e61c020, "fsqrt d0, d1 (-1)", RN, 0xbff0000000000000ull, 0, 0, DNAN_D, FPSR_IOC },
	{ 0x1e61c020, "fsqrt d0, d1 (-0)", RN, 0x8000000000000000ull, 0, 0, 0x8000000000000000ull, 0 },
	{ 0x1e614020, "fneg d0, d1 (snan: no processing)", RN, SNAN_D, 0, 0, 0xfff0000000000002ull, 0 },
	{ 0x1e20c020, "fabs s0, s1", RN, 0xbfc00000, 0, 0, 0x3fc00000, 0 },
	{ 0x1e624020, "fcvt s0, d1 (1/3)", RN, 0x3fd5555555555555ull, 0, 0, 0x3eaaaaab, FPSR_IXC },
	{ 0x1e624020, "fcvt s0, d1 (snan)", RN, 0xfff0000020000000ull, 0, 0, 0xffc00001, FPSR_IOC },
	{ 0x1e22c020, "fcvt d0, s1 (qnan payload)", RN, 0x7fc00003, 0, 0, 0x7ff8000060000000ull, 0 },
	{ 0x1e674020, "frintx d0, d1 (2.5)", RN, 0x4004000000000000ull, 0, 0, 0x4000000000000000ull, FPSR_IXC },
	{ 0x1e664020, "frinta d0, d1 (2.5)", RN, 0x4004000000000000ull, 0, 0, 0x4008000000000000ull, 0 },
	{ 0x1e67c020, "frinti d0, d1 (2.1, towards +inf)", RP, 0x4000cccccccccccdull, 0, 0,
	  0x4008000000000000ull, 0 },
	{ 0x1e664020, "frinta d0, d1 (-0.4)", RN, 0xbfd999999999999aull, 0, 0, 0x8000000000000000ull, 0 },
	{ 0x1e621c20, "fcsel d0, d1, d2, ne (Z clear)", RN, 1, 2, 0, 1, 0 },
	{ 0x1e6e1000, "fmov d0, #1.0", RN, 0, 0, 0, 0x3ff0000000000000ull, 0 },
	{ 0x1e3c1000, "fmov s0, #-0.5", RN, 0, 0, 0, 0xbf000000, 0 },
};

static void set_v(struct isa_env *e, int r, uint64_t lo)
{
	e->c.v[r].d[0] = lo;
	e->c.v[r].d[1] = 0x1122334455667788ull;
}

static void test_arith_cases(void **state)
{
	struct isa_env *e = *state;
	int failures = 0;
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const struct fp_case *t = &cases[k];
		isa_env_reset(e);
		e->c.fpcr = t->fpcr;
		set_v(e, 0, 0xdeadbeefdeadbeefull);
		set_v(e, 1, t->v1);
		set_v(e, 2, t->v2);
		set_v(e, 3, t->v3);
		int r = isa_run(e, t->word);
		if (r != ISA_NEXT || e->c.v[0].d[0] != t->want || e->c.v[0].d[1] != 0 || e->c.fpsr != t->fpsr) {
			print_error("%08x %s: result %d, v0 %016llx:%016llx (want %016llx), fpsr %#x (want %#x)\n",
				    t->word, t->text, r, (unsigned long long)e->c.v[0].d[1],
				    (unsigned long long)e->c.v[0].d[0], (unsigned long long)t->want, e->c.fpsr, t->fpsr);
			failures++;
		}
		if (!isa_has_dst(&e->u, REG_V(0))) {
			print_error("%08x %s: V0 is not a dependence destination\n", t->word, t->text);
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

static void test_flags_are_sticky(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	e->c.fpsr = FPSR_DZC;
	set_v(e, 1, 0x3f800000);
	set_v(e, 2, 0x40400000);
	isa_run(e, 0x1e221820);                         /* fdiv s0, s1, s2: inexact */
	assert_int_equal(e->c.fpsr, FPSR_DZC | FPSR_IXC);
}

struct cmp_case {
	uint32_t word;
	const char *text;
	uint64_t v1, v2;
	uint64_t nzcv;
	uint32_t fpsr;
};

static void test_compares(void **state)
{
	static const struct cmp_case t[] = {
		{ 0x1e622020, "fcmp d1, d2 (1 < 2)", 0x3ff0000000000000ull, 0x4000000000000000ull, NZCV_N, 0 },
		{ 0x1e622020, "fcmp d1, d2 (2 == 2)", 0x4000000000000000ull, 0x4000000000000000ull, NZCV_Z | NZCV_C, 0 },
		{ 0x1e622020, "fcmp d1, d2 (-0 == +0)", 0x8000000000000000ull, 0, NZCV_Z | NZCV_C, 0 },
		{ 0x1e622020, "fcmp d1, d2 (3 > 2)", 0x4008000000000000ull, 0x4000000000000000ull, NZCV_C, 0 },
		{ 0x1e622020, "fcmp d1, d2 (qnan)", QNAN_D, 0, NZCV_C | NZCV_V, 0 },
		{ 0x1e622020, "fcmp d1, d2 (snan)", SNAN_D, 0, NZCV_C | NZCV_V, FPSR_IOC },
		{ 0x1e222030, "fcmpe s1, s2 (qnan)", 0x7fc00000, 0, NZCV_C | NZCV_V, FPSR_IOC },
		{ 0x1e602028, "fcmp d1, #0.0 (-1)", 0xbff0000000000000ull, 0x4000000000000000ull, NZCV_N, 0 },
	};
	struct isa_env *e = *state;
	for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
		isa_env_reset(e);
		set_v(e, 1, t[k].v1);
		set_v(e, 2, t[k].v2);
		assert_int_equal(isa_run(e, t[k].word), ISA_NEXT);
		if (e->c.nzcv != t[k].nzcv || e->c.fpsr != t[k].fpsr)
			fail_msg("%s: nzcv %#llx fpsr %#x", t[k].text, (unsigned long long)e->c.nzcv, e->c.fpsr);
		assert_true(isa_has_dst(&e->u, REG_NZCV));
	}
	/* fccmp d1, d2, #4, eq: condition fails -> NZCV = 0100 */
	isa_env_reset(e);
	e->c.nzcv = 0;
	assert_int_equal(isa_run(e, 0x1e620424), ISA_NEXT);
	assert_int_equal(e->c.nzcv, NZCV_Z);
	assert_true(isa_has_src(&e->u, REG_NZCV));
}

struct cvt_case {
	uint32_t word;
	const char *text;
	uint32_t fpcr;
	uint64_t in;            /* V1 low bits, or X1 for int -> FP */
	uint64_t want;          /* X0, or V0 low bits */
	uint32_t fpsr;
	int to_v;
};

static void test_conversions(void **state)
{
	static const struct cvt_case t[] = {
		{ 0x1e780020, "fcvtzs w0, d1 (3.7)", RN, 0x400d99999999999aull, 3, FPSR_IXC, 0 },
		{ 0x1e780020, "fcvtzs w0, d1 (-3.7)", RN, 0xc00d99999999999aull, 0xfffffffdull, FPSR_IXC, 0 },
		{ 0x1e780020, "fcvtzs w0, d1 (1e10)", RN, 0x4202a05f20000000ull, 0x7fffffff, FPSR_IOC, 0 },
		{ 0x1e780020, "fcvtzs w0, d1 (nan)", RN, QNAN_D, 0, FPSR_IOC, 0 },
		{ 0x1e790020, "fcvtzu w0, d1 (-0.5)", RN, 0xbfe0000000000000ull, 0, FPSR_IXC, 0 },
		{ 0x1e790020, "fcvtzu w0, d1 (-1)", RN, 0xbff0000000000000ull, 0, FPSR_IOC, 0 },
		{ 0x9e380020, "fcvtzs x0, s1 (-2^63)", RN, 0xdf000000, 0x8000000000000000ull, 0, 0 },
		{ 0x9e380020, "fcvtzs x0, s1 (2^63)", RN, 0x5f000000, 0x7fffffffffffffffull, FPSR_IOC, 0 },
		{ 0x9e640020, "fcvtas x0, d1 (2.5)", RN, 0x4004000000000000ull, 3, FPSR_IXC, 0 },
		{ 0x9e600020, "fcvtns x0, d1 (2.5)", RN, 0x4004000000000000ull, 2, FPSR_IXC, 0 },
		{ 0x9e700020, "fcvtms x0, d1 (-2.5)", RN, 0xc004000000000000ull, (uint64_t)-3, FPSR_IXC, 0 },
		{ 0x1e58f020, "fcvtzs w0, d1, #4 (1.5 * 16)", RN, 0x3ff8000000000000ull, 24, 0, 0 },
		{ 0x9e620020, "scvtf d0, x1 (-1)", RN, (uint64_t)-1, 0xbff0000000000000ull, 0, 1 },
		{ 0x9e630020, "ucvtf d0, x1 (2^64 - 1)", RN, ~0ull, 0x43f0000000000000ull, FPSR_IXC, 1 },
		{ 0x9e630020, "ucvtf d0, x1 (2^64 - 1, towards zero)", RZ, ~0ull, 0x43efffffffffffffull, FPSR_IXC, 1 },
		{ 0x1e220020, "scvtf s0, w1 (2^24 + 1)", RN, 0x01000001, 0x4b800000, FPSR_IXC, 1 },
	};
	struct isa_env *e = *state;
	for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
		isa_env_reset(e);
		e->c.fpcr = t[k].fpcr;
		set_v(e, 1, t[k].in);
		e->c.x[1] = t[k].in;
		assert_int_equal(isa_run(e, t[k].word), ISA_NEXT);
		uint64_t got = t[k].to_v ? e->c.v[0].d[0] : e->c.x[0];
		if (got != t[k].want || e->c.fpsr != t[k].fpsr)
			fail_msg("%s: got %#llx fpsr %#x", t[k].text, (unsigned long long)got, e->c.fpsr);
		assert_true(isa_has_dst(&e->u, t[k].to_v ? REG_V(0) : REG_X(0)));
	}
}

static void test_moves(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	set_v(e, 1, 0x0123456789abcdefull);
	e->c.v[1].d[1] = 0xfedcba9876543210ull;
	assert_int_equal(isa_run(e, 0x9e660020), ISA_NEXT);     /* fmov x0, d1 */
	assert_int_equal(e->c.x[0], 0x0123456789abcdefull);
	assert_int_equal(isa_run(e, 0x1e260020), ISA_NEXT);     /* fmov w0, s1 */
	assert_int_equal(e->c.x[0], 0x89abcdefull);
	e->c.x[1] = 0x1111222233334444ull;
	e->c.v[0].d[0] = 5;
	e->c.v[0].d[1] = 6;
	assert_int_equal(isa_run(e, 0x9eaf0020), ISA_NEXT);     /* fmov v0.d[1], x1 */
	assert_int_equal(e->c.v[0].d[0], 5);
	assert_int_equal(e->c.v[0].d[1], 0x1111222233334444ull);
	assert_int_equal(isa_run(e, 0x9e670020), ISA_NEXT);     /* fmov d0, x1: upper half cleared */
	assert_int_equal(e->c.v[0].d[0], 0x1111222233334444ull);
	assert_int_equal(e->c.v[0].d[1], 0);
	assert_true(isa_has_src(&e->u, REG_X(1)));
}

static void test_fpcr_fpsr(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	e->c.x[1] = ~0ull;
	assert_int_equal(isa_run(e, 0xd51b4401), ISA_NEXT);     /* msr fpcr, x1 */
	assert_int_equal(e->c.fpcr, FPCR_MASK);                 /* trap enables read as zero */
	assert_int_equal(isa_run(e, 0xd53b4400), ISA_NEXT);     /* mrs x0, fpcr */
	assert_int_equal(e->c.x[0], FPCR_MASK);
	assert_int_equal(isa_run(e, 0xd51b4421), ISA_NEXT);     /* msr fpsr, x1 */
	assert_int_equal(e->c.fpsr, FPSR_MASK);
	assert_int_equal(isa_run(e, 0xd53b4420), ISA_NEXT);     /* mrs x0, fpsr */
	assert_int_equal(e->c.x[0], FPSR_MASK);
	assert_int_equal(e->u.op_class, UOP_SYSTEM);
}

static void test_classes(void **state)
{
	(void)state;
	static const struct { uint32_t w; int cls; } t[] = {
		{ 0x1e622820, UOP_FP }, { 0x1e221820, UOP_FDIV }, { 0x1e61c020, UOP_FDIV },
		{ 0x1f420c20, UOP_FMA }, { 0x9e670020, UOP_SIMD }, { 0x9e620020, UOP_FP },
	};
	for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
		struct uop u;
		isa_decode(t[k].w, T_CODE, &u);
		assert_int_equal(u.op_class, t[k].cls);
	}
	struct uop u;
	isa_decode(0x1f420c20, T_CODE, &u);                     /* fmadd d0, d1, d2, d3 */
	assert_true(isa_has_src(&u, REG_V(1)) && isa_has_src(&u, REG_V(2)) && isa_has_src(&u, REG_V(3)));
	assert_true(isa_has_dst(&u, REG_V(0)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_arith_cases, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_flags_are_sticky, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_compares, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_conversions, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_moves, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_fpcr_fpsr, isa_env_setup, isa_env_teardown),
		cmocka_unit_test(test_classes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
