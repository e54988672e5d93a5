/*
 * test_isa_simd_ext.c — the Advanced SIMD forms beyond what gcc and glibc
 * commonly emit: saturating doubling multiplies and saturating/rounding
 * shifts (with FPSR.QC), the FP reciprocal estimates and steps (the
 * architecture's 8-bit estimate tables), FMULX, FCVTXN (round to odd),
 * half-precision conversions, PMULL, AES, SHA1H, SHA-3, the dot product,
 * RDM, FJCVTZS and FRINT32Z. Expected values are worked out by hand from the
 * Arm ARM's pseudocode (MixColumns from FIPS-197's example column); the
 * differential tester compares all of them with qemu at random.
 */
#include "isa_test.h"
#include "isa/isa_fpu.h"

struct ext_case {
	uint32_t word;
	const char *text;
	uint64_t v0[2], v1[2], v2[2];
	uint64_t want[2];
	uint32_t fpsr;          /* FPSR after, from 0 */
};

#define QC FPSR_QC

static const struct ext_case cases[] = {
	{ 0x4e62b420, "sqdmulh v0.8h, v1.8h, v2.8h", { 0, 0 }, { 0x7fffffff40008000ull, 0 },
	  { 0x7fff000140008000ull, 0 }, { 0x7ffeffff20007fffull, 0 }, QC },
	{ 0x5ee25420, "srshl d0, d1, d2", { 9, 9 }, { (uint64_t)-5, 7 }, { 0xff, 0 }, { (uint64_t)-2, 0 }, 0 },
	{ 0x6f0f7420, "uqshl v0.16b, v1.16b, #7", { 9, 9 }, { 0x0201, 0 }, { 0, 0 }, { 0xff80, 0 }, QC },
	{ 0x7f246420, "sqshlu s0, s1, #4", { 9, 9 }, { 5, 0 }, { 0, 0 }, { 0x50, 0 }, 0 },
	{ 0x5ea1d820, "frecpe s0, s1", { 9, 9 }, { 0x3f800000, 0 }, { 0, 0 }, { 0x3f7f8000, 0 }, 0 },
	{ 0x6ea1d820, "frsqrte v0.4s, v1.4s", { 0, 0 }, { 0x408000003f800000ull, 0xbf80000000000000ull }, { 0, 0 },
	  { 0x3eff80003f7f8000ull, 0x7fc000007f800000ull }, FPSR_DZC | FPSR_IOC },
	{ 0x5e62fc20, "frecps d0, d1, d2", { 9, 9 }, { 0x3ff8000000000000ull, 0 }, { 0x3fe0000000000000ull, 0 },
	  { 0x3ff4000000000000ull, 0 }, 0 },
	{ 0x6fc29820, "fmulx v0.2d, v1.2d, v2.d[1]", { 0, 0 }, { 0x7ff0000000000000ull, 0x4008000000000000ull },
	  { 0, 0x8000000000000000ull }, { 0xc000000000000000ull, 0x8000000000000000ull }, 0 },
	{ 0x4e284820, "aese v0.16b, v1.16b", { 0, 0 }, { 0x53, 0 }, { 0, 0 },
	  { 0x63636363636363edull, 0x6363636363636363ull }, 0 },
	{ 0x4e285820, "aesd v0.16b, v1.16b", { 0x63636363636363edull, 0x6363636363636363ull }, { 0, 0 }, { 0, 0 },
	  { 0x53, 0 }, 0 },
	{ 0x4e286820, "aesmc v0.16b, v1.16b", { 9, 9 }, { 0x455313db, 0 }, { 0, 0 }, { 0xbca14d8e, 0 }, 0 },
	{ 0x4e287820, "aesimc v0.16b, v1.16b", { 9, 9 }, { 0xbca14d8e, 0 }, { 0, 0 }, { 0x455313db, 0 }, 0 },
	{ 0x5e280820, "sha1h s0, s1", { 9, 9 }, { 4, 7 }, { 0, 0 }, { 1, 0 }, 0 },
	{ 0x4e829420, "sdot v0.4s, v1.16b, v2.16b", { 100, 0 }, { 0x8080808004030201ull, 0 },
	  { 0x80808080ffffffffull, 0 }, { 0x000100000000005aull, 0 }, 0 },
	{ 0x1e284020, "frint32z s0, s1", { 9, 9 }, { 0x4f32d05e, 0 }, { 0, 0 }, { 0xcf000000, 0 }, FPSR_IOC },
	{ 0x0e217820, "fcvtl v0.4s, v1.4h", { 9, 9 }, { 0xc00000017c003c00ull, 0 }, { 0, 0 },
	  { 0x7f8000003f800000ull, 0xc000000033800000ull }, 0 },
	{ 0x7e616820, "fcvtxn s0, d1", { 9, 9 }, { 0x3ff0000000001000ull, 0 }, { 0, 0 }, { 0x3f800001, 0 }, FPSR_IXC },
	{ 0x0ee2e020, "pmull v0.1q, v1.1d, v2.1d", { 9, 9 }, { 0x8000000000000003ull, 0 }, { 3, 0 },
	  { 0x8000000000000005ull, 1 }, 0 },
	{ 0x0f723020, "sqdmlal v0.4s, v1.4h, v2.h[3]", { 0x0000000a00000000ull, 0 }, { 0x00028000, 0 },
	  { 0x8000000000000000ull, 0 }, { 0xfffe000a7fffffffull, 0 }, QC },
	{ 0x5e207820, "sqabs b0, b1", { 9, 9 }, { 0x80, 0 }, { 0, 0 }, { 0x7f, 0 }, QC },
	{ 0x2e428420, "sqrdmlah v0.4h, v1.4h, v2.4h", { 0x00017000, 0 }, { 0x00014000, 0 }, { 0x00014000, 0 },
	  { 0x00017fff, 0 }, QC },
	{ 0x0ea1c820, "urecpe v0.2s, v1.2s", { 9, 9 }, { 0x7fffffff80000000ull, 0 }, { 0, 0 },
	  { 0xffffffffff800000ull, 0 }, 0 },
	{ 0xce020420, "eor3 v0.16b, v1.16b, v2.16b, v1.16b", { 9, 9 }, { 0x1234, 0x5678 }, { 0xff00, 0xf0 },
	  { 0xff00, 0xf0 }, 0 },
	{ 0xce628c20, "rax1 v0.2d, v1.2d, v2.2d", { 9, 9 }, { 1, 0 }, { 0x8000000000000000ull, 1 }, { 0, 2 }, 0 },
	{ 0xce821020, "xar v0.2d, v1.2d, v2.2d, #4", { 9, 9 }, { 0xf0, 1 }, { 0, 0 },
	  { 0xf, 0x1000000000000000ull }, 0 },
	{ 0x1e23c020, "fcvt h0, s1", { 9, 9 }, { 0x3f800000, 0 }, { 0, 0 }, { 0x3c00, 0 }, 0 },
	{ 0x1e23c020, "fcvt h0, s1 (65520 overflows)", { 9, 9 }, { 0x477ff000, 0 }, { 0, 0 }, { 0x7c00, 0 },
	  FPSR_OFC | FPSR_IXC },
};

static void test_cases(void **state)
{
	struct isa_env *e = *state;
	int failures = 0;
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const struct ext_case *t = &cases[k];
		isa_env_reset(e);
		e->c.v[0].d[0] = t->v0[0], e->c.v[0].d[1] = t->v0[1];
		e->c.v[1].d[0] = t->v1[0], e->c.v[1].d[1] = t->v1[1];
		e->c.v[2].d[0] = t->v2[0], e->c.v[2].d[1] = t->v2[1];
		int r = isa_run(e, t->word);
		if (r != ISA_NEXT || e->c.v[0].d[0] != t->want[0] || e->c.v[0].d[1] != t->want[1] ||
		    e->c.fpsr != t->fpsr) {
			print_error("%08x %s: result %d, v0 %016llx:%016llx fpsr %x, expected %016llx:%016llx fpsr %x\n",
				    t->word, t->text, r, (unsigned long long)e->c.v[0].d[1],
				    (unsigned long long)e->c.v[0].d[0], e->c.fpsr, (unsigned long long)t->want[1],
				    (unsigned long long)t->want[0], t->fpsr);
			failures++;
		}
		if (!isa_has_dst(&e->u, REG_V(0)) || !isa_has_src(&e->u, REG_V(1))) {
			print_error("%08x %s: dependences\n", t->word, t->text);
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

/* FJCVTZS: modulo 2^32 towards zero; Z only when exact and in range. */
static void test_fjcvtzs(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	e->c.v[1].d[0] = 0x41f0000000580000ull;                /* 2^32 + 5.5 */
	assert_int_equal(isa_run(e, 0x1e7e0020), ISA_NEXT);     /* fjcvtzs w0, d1 */
	assert_int_equal(e->c.x[0], 5);
	assert_int_equal(e->c.nzcv, 0);
	assert_int_equal(e->c.fpsr, FPSR_IOC);
	assert_true(isa_has_dst(&e->u, REG_NZCV));
	e->c.fpsr = 0;
	e->c.nzcv = NZCV_N;
	e->c.v[1].d[0] = 0xc008000000000000ull;                /* -3.0 */
	assert_int_equal(isa_run(e, 0x1e7e0020), ISA_NEXT);
	assert_int_equal(e->c.x[0], 0xfffffffdu);
	assert_int_equal(e->c.nzcv, NZCV_Z);
	assert_int_equal(e->c.fpsr, 0);
	e->c.v[1].d[0] = 0x8000000000000000ull;                /* -0.0: not exact for JavaScript */
	assert_int_equal(isa_run(e, 0x1e7e0020), ISA_NEXT);
	assert_int_equal(e->c.x[0], 0);
	assert_int_equal(e->c.nzcv, 0);
}

/* The estimate kernels at the ends of their domains (RecipEstimate and
 * RecipSqrtEstimate from the Arm ARM). */
static void test_estimate_kernels(void **state)
{
	(void)state;
	assert_int_equal(fpu_recip_estimate(256), 511);
	assert_int_equal(fpu_recip_estimate(511), 256);
	assert_int_equal(fpu_rsqrt_estimate(128), 511);
	assert_int_equal(fpu_rsqrt_estimate(511), 256);
	assert_int_equal(fpu_rsqrt_estimate(256), 361);
	/* the pseudocode's loop, counted up from 512, for every input */
	for (unsigned a = 128; a < 512; a++) {
		unsigned x = a < 256 ? a * 2 + 1 : ((a >> 1) << 1) * 2 + 2, b = 512;
		while ((uint64_t)x * (b + 1) * (b + 1) < (1ull << 28))
			b++;
		assert_int_equal(fpu_rsqrt_estimate(a), (b + 1) / 2);
	}
}

/* Timing classes (docs/guest-abi.md): integer, crypto and dot product are
 * simd, the estimates fp, the Newton-Raphson steps fma. */
static void test_classes(void **state)
{
	static const struct { uint32_t word; int cls; } t[] = {
		{ 0x4e62b420, UOP_SIMD }, { 0x5ee25420, UOP_SIMD }, { 0x4e284820, UOP_SIMD },
		{ 0x4e829420, UOP_SIMD }, { 0x0ee2e020, UOP_SIMD }, { 0x5ea1d820, UOP_FP },
		{ 0x6fc29820, UOP_FP }, { 0x7e616820, UOP_FP }, { 0x1e7e0020, UOP_FP },
		{ 0x5e62fc20, UOP_FMA },
	};
	(void)state;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct uop u;
		isa_decode(t[i].word, 0x400000, &u);
		if (u.op_class != t[i].cls)
			fail_msg("%08x: class %d, expected %d", t[i].word, u.op_class, t[i].cls);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cases, isa_env_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_fjcvtzs, isa_env_setup, isa_env_teardown),
		cmocka_unit_test(test_estimate_kernels),
		cmocka_unit_test(test_classes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
