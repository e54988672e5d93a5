/*
 * dt_fp.c — emitters for floating point and Advanced SIMD.
 *
 * The data-processing forms draw a whole encoding class at random: the
 * class's fixed bits plus random bits in every field (type, size, Q, U,
 * opcode, registers, immediates). A draw is kept only if ivx's own decoder
 * (engine/isa, linked in) implements it and it writes no general register
 * the harness relies on (X28, SP); so every implemented encoding of the
 * class can come up, and the qemu comparison then checks decode and
 * behaviour at once. An encoding ivx accepts but the architecture does not
 * makes qemu raise SIGILL, which shows as a difference too.
 *
 * Operands are whatever V0..V31 hold: the block's initial vectors are drawn
 * by dt_fp_value (NaNs quiet and signalling with payloads, infinities,
 * zeros, denormals, the smallest normals, values near integer and overflow
 * boundaries, random bits), and the FPCR form changes the rounding mode,
 * flush-to-zero and default-NaN within a block, so every rounding mode is
 * exercised and FPSR's cumulative flags are compared at the end.
 *
 * The load/store forms are built field by field like dt_mem.c's, so every
 * access lands in the scratch area.
 */
#include <string.h>
#include "dt.h"
#include "isa/isa.h"
#include "isa/uop.h"

#define R(g) dt_gen_rng(g)

static uint32_t fp32_value(struct dt_rng *r)
{
	static const uint32_t edge[] = {
		0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, /* 0, 1, inf */
		0x7fc00000, 0xffc00000, 0x7fc00001, 0x7f800001, 0xffbfffff, 0x7fa00000, /* NaNs */
		0x00000001, 0x807fffff, 0x00800000, 0x80800000, 0x007fffff, 0x00400000, /* denormal, min */
		0x7f7fffff, 0xff7fffff, 0x3f000000, 0x3fc00000, 0x40200000, 0xbfc00000, /* max, .5 1.5 2.5 */
		0x4f000000, 0xcf000000, 0x5f000000, 0xdf000000, 0x4f800000, 0x4effffff, /* 2^31, 2^63, 2^32 */
		0x34000000, 0x33800000, 0x00ffffff, 0x0c000000,
	};
	switch (dt_below(r, 6)) {
	case 0: case 1: return edge[dt_below(r, sizeof edge / sizeof edge[0])];
	case 2: return (uint32_t)dt_rand(r) & 0x807fffffu;                    /* zero/denormal exponent */
	case 3: return ((uint32_t)dt_range(r, 100, 160) << 23) | ((uint32_t)dt_rand(r) & 0x807fffffu);
	default: return (uint32_t)dt_rand(r);
	}
}

static uint64_t fp64_value(struct dt_rng *r)
{
	static const uint64_t edge[] = {
		0, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
		0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull, 0xfff8000000000001ull,
		0x7ff0000000000001ull, 0xfff4000000000000ull, 0x0000000000000001ull, 0x800fffffffffffffull,
		0x0010000000000000ull, 0x8010000000000000ull, 0x7fefffffffffffffull, 0x3fe0000000000000ull,
		0x3ff8000000000000ull, 0x4004000000000000ull, 0x41e0000000000000ull, 0xc1e0000000000000ull,
		0x43e0000000000000ull, 0xc3e0000000000000ull, 0x41f0000000000000ull, 0x43f0000000000000ull,
		0x380fffffffffffffull, 0x36a0000000000000ull, 0x47efffffe0000000ull, 0x3ca0000000000000ull,
	};
	switch (dt_below(r, 6)) {
	case 0: case 1: return edge[dt_below(r, sizeof edge / sizeof edge[0])];
	case 2: return dt_rand(r) & 0x800fffffffffffffull;
	case 3: return ((uint64_t)dt_range(r, 0x380, 0x47f) << 52) | (dt_rand(r) & 0x800fffffffffffffull);
	default: return dt_rand(r);
	}
}

/* 64 bits of integer lanes of one random size, each an edge of that size
 * (0, +-1, the signed and unsigned extremes and their neighbours) or a
 * byte-sized shift amount between -70 and 70 (the shifts by register read
 * the low byte of each lane), so saturation and every shift distance
 * come up in all lane sizes. */
static uint64_t lane_value(struct dt_rng *r)
{
	unsigned es = (unsigned)dt_below(r, 4), bits = 8u << es;
	uint64_t m = es == 3 ? ~0ull : (1ull << bits) - 1, v = 0;
	for (unsigned i = 0; i < 64 / bits; i++) {
		uint64_t smin = 1ull << (bits - 1), x;
		switch (dt_below(r, 9)) {
		case 0: x = 0; break;
		case 1: x = 1; break;
		case 2: x = m; break;                   /* -1, unsigned max */
		case 3: x = smin; break;                /* signed min */
		case 4: x = smin - 1; break;            /* signed max */
		case 5: x = smin + dt_range(r, -2, 2); break;
		case 6: x = (uint64_t)dt_range(r, -70, 70) & 0xff; break;
		case 7: x = 1ull << dt_below(r, bits); break;
		default: x = dt_rand(r); break;
		}
		v |= (x & m) << (i * bits);
	}
	return v;
}

uint64_t dt_fp_value(struct dt_rng *r)
{
	switch (dt_below(r, 5)) {
	case 0: return fp64_value(r);
	case 1: return (uint64_t)fp32_value(r) | (uint64_t)fp32_value(r) << 32;
	case 2: return dt_value(r);
	case 3: return lane_value(r);
	default: return dt_rand(r);
	}
}

/* Does ivx implement `w`, and does it leave X28 and SP alone? */
static int dt_fp_ok(uint32_t w)
{
	struct uop u;
	isa_decode(w, 0x400000, &u);
	if (u.op_class == UOP_UNSUPPORTED)
		return 0;
	for (int i = 0; i < u.n_dst; i++)
		if (u.dst[i] == REG_X(DT_BASE_REG) || u.dst[i] == REG_SP)
			return 0;
	return 1;
}

/* FJCVTZS is only drawn by dt_emit_fjcvtzs (see there). */
static int dt_is_fjcvtzs(uint32_t w) { return (w & 0xfffffc00u) == 0x1e7e0000u; }

/* Draw from a class: fixed bits | random bits under `mask`, until ivx
 * takes one (classes are dense enough that this ends quickly). */
static void dt_draw(struct dt_gen *g, uint32_t fixed, uint32_t mask)
{
	for (int tries = 0; tries < 4000; tries++) {
		uint32_t w = fixed | ((uint32_t)dt_rand(R(g)) & mask);
		if (dt_fp_ok(w) && !dt_is_fjcvtzs(w)) {
			dt_emit(g, w);
			return;
		}
	}
	dt_emit_setup(g, 0xd503201fu);  /* NOP, not counted: nothing drawn that ivx takes */
}

#define RD_RN_RM 0x001f03ffu            /* Rm (20..16), Rn, Rd */
#define TYPE     0x00c00000u

void dt_emit_fp_dp1(struct dt_gen *g) { dt_draw(g, 0x1e204000u, TYPE | 0x001f8000u | 0x3ffu); }
void dt_emit_fp_dp2(struct dt_gen *g) { dt_draw(g, 0x1e200800u, TYPE | RD_RN_RM | 0xf000u); }
void dt_emit_fp_dp3(struct dt_gen *g) { dt_draw(g, 0x1f000000u, 0x00ffffffu); }
void dt_emit_fp_cmp(struct dt_gen *g)
{
	if (dt_below(R(g), 2))
		dt_draw(g, 0x1e202000u, TYPE | (RD_RN_RM & ~0x1fu) | 0x18u);          /* FCMP(E) */
	else
		dt_draw(g, 0x1e200400u, TYPE | RD_RN_RM | 0xf000u);                /* FCCMP(E) */
}
void dt_emit_fp_csel(struct dt_gen *g) { dt_draw(g, 0x1e200c00u, TYPE | RD_RN_RM | 0xf000u); }
void dt_emit_fp_imm(struct dt_gen *g) { dt_draw(g, 0x1e201000u, TYPE | 0x001fe01fu); }
void dt_emit_fp_cvt(struct dt_gen *g) { dt_draw(g, 0x1e200000u, 0x80000000u | TYPE | 0x001f03ffu); }
void dt_emit_fp_fixed(struct dt_gen *g) { dt_draw(g, 0x1e000000u, 0x80000000u | TYPE | 0x001fffffu); }

/* MSR FPCR with a random rounding mode, FZ, DN and AHP (mostly nearest, no
 * flush); sometimes MSR FPSR (clearing or setting flags) or MRS of either. */
void dt_emit_fpcr(struct dt_gen *g)
{
	int rt = dt_reg_dst(g);
	switch (dt_below(R(g), 6)) {
	case 0: case 1: case 2: {
		uint64_t v = (uint64_t)dt_below(R(g), 4) << 22;
		if (dt_below(R(g), 3) == 0)
			v |= 1u << 24;                  /* FZ */
		if (dt_below(R(g), 3) == 0)
			v |= 1u << 25;                  /* DN */
		if (dt_below(R(g), 4) == 0)
			v |= 1u << 26;                  /* AHP: only half-precision conversions see it */
		dt_set_reg(g, rt, v);
		dt_emit(g, 0xd51b4400u | (uint32_t)rt);
		break;
	}
	case 3:
		dt_set_reg(g, rt, dt_below(R(g), 2) ? 0 : dt_rand(R(g)) & 0x0800009full);
		dt_emit(g, 0xd51b4420u | (uint32_t)rt);
		break;
	case 4: dt_emit(g, 0xd53b4400u | (uint32_t)rt); break;
	default: dt_emit(g, 0xd53b4420u | (uint32_t)rt); break;
	}
}

#define QU   0x60000000u                /* Q, U */
#define SIZE 0x00c00000u

void dt_emit_simd_3same(struct dt_gen *g) { dt_draw(g, 0x0e200400u, QU | SIZE | RD_RN_RM | 0x0000f800u); }
void dt_emit_simd_fp3(struct dt_gen *g) { dt_draw(g, 0x0e20c400u, QU | SIZE | RD_RN_RM | 0x00003800u); }
void dt_emit_simd_misc(struct dt_gen *g) { dt_draw(g, 0x0e200800u, QU | SIZE | 0x0001f3ffu); }
void dt_emit_simd_across(struct dt_gen *g) { dt_draw(g, 0x0e300800u, QU | SIZE | 0x0001f3ffu); }
void dt_emit_simd_copy(struct dt_gen *g) { dt_draw(g, 0x0e000400u, QU | 0x001f7bffu); }
void dt_emit_simd_perm(struct dt_gen *g)
{
	switch (dt_below(R(g), 3)) {
	case 0: dt_draw(g, 0x0e000800u, 0x40000000u | SIZE | RD_RN_RM | 0x7000u); break;   /* ZIP UZP TRN */
	case 1: dt_draw(g, 0x2e000000u, 0x40000000u | RD_RN_RM | 0x7800u); break;          /* EXT */
	default: dt_draw(g, 0x0e000000u, 0x40000000u | RD_RN_RM | 0x7000u); break;         /* TBL TBX */
	}
}
void dt_emit_simd_imm(struct dt_gen *g) { dt_draw(g, 0x0f000400u, QU | 0x0007f3ffu); }
void dt_emit_simd_shift(struct dt_gen *g) { dt_draw(g, 0x0f000400u, QU | 0x007ffbffu); }
void dt_emit_simd_diff(struct dt_gen *g) { dt_draw(g, 0x0e200000u, QU | SIZE | RD_RN_RM | 0xf000u); }
void dt_emit_simd_elem(struct dt_gen *g) { dt_draw(g, 0x0f000000u, QU | SIZE | 0x003ffbffu); }
void dt_emit_simd_scalar(struct dt_gen *g) { dt_draw(g, 0x5e000000u, 0x21ffffffu); }

/* One of a list of (fixed bits, random bits) encodings, uniformly. */
struct dt_enc { uint32_t fixed, mask; };

static void dt_draw_list(struct dt_gen *g, const struct dt_enc *e, size_t n)
{
	size_t k = (size_t)dt_below(R(g), n);
	dt_draw(g, e[k].fixed, e[k].mask);
}

#define Q      0x40000000u
#define U      0x20000000u
#define SZ     0x00400000u
#define ELEM   0x003f0bffu              /* L, M, Rm, H, Rn, Rd */
#define IMMSH  0x007f03ffu              /* immh, immb, Rn, Rd */

/* Saturating, rounding and polynomial integer forms: shifts by register,
 * doubling multiplies (same, long, by element, RDM), shifts by immediate
 * with saturation, SUQADD USQADD SQABS SQNEG, PMULL; vector and scalar. */
void dt_emit_simd_sat(struct dt_gen *g)
{
	static const struct dt_enc e[] = {
		{ 0x0e204c00u, QU | SIZE | RD_RN_RM }, { 0x5e204c00u, U | SIZE | RD_RN_RM },   /* [SU]QSHL */
		{ 0x0e205400u, QU | SIZE | RD_RN_RM }, { 0x5e205400u, U | SIZE | RD_RN_RM },   /* [SU]RSHL */
		{ 0x0e205c00u, QU | SIZE | RD_RN_RM }, { 0x5e205c00u, U | SIZE | RD_RN_RM },   /* [SU]QRSHL */
		{ 0x0e20b400u, QU | SIZE | RD_RN_RM }, { 0x5e20b400u, U | SIZE | RD_RN_RM },   /* SQ(R)DMULH */
		{ 0x2e008400u, Q | SIZE | RD_RN_RM | 0x800u }, { 0x7e008400u, SIZE | RD_RN_RM | 0x800u }, /* SQRDMLxH */
		{ 0x0e209000u, Q | SIZE | RD_RN_RM | 0x6000u }, { 0x5e209000u, SIZE | RD_RN_RM | 0x6000u }, /* SQDMxLx */
		{ 0x0e20e000u, Q | SIZE | RD_RN_RM },                                          /* PMULL */
		{ 0x0f003000u, Q | SIZE | ELEM | 0x4000u }, { 0x5f003000u, SIZE | ELEM | 0x4000u }, /* SQDMLAL/SL elem */
		{ 0x0f00b000u, Q | SIZE | ELEM }, { 0x5f00b000u, SIZE | ELEM },               /* SQDMULL elem */
		{ 0x0f00c000u, Q | SIZE | ELEM | 0x1000u }, { 0x5f00c000u, SIZE | ELEM | 0x1000u }, /* SQ(R)DMULH elem */
		{ 0x2f00d000u, Q | SIZE | ELEM | 0x2000u }, { 0x7f00d000u, SIZE | ELEM | 0x2000u }, /* SQRDMLxH elem */
		{ 0x0f007400u, QU | IMMSH }, { 0x5f007400u, U | IMMSH },                      /* [SU]QSHL # */
		{ 0x2f006400u, Q | IMMSH }, { 0x7f006400u, IMMSH },                           /* SQSHLU */
		{ 0x0e203800u, QU | SIZE | 0x3ffu }, { 0x5e203800u, U | SIZE | 0x3ffu },      /* SUQADD USQADD */
		{ 0x0e207800u, QU | SIZE | 0x3ffu }, { 0x5e207800u, U | SIZE | 0x3ffu },      /* SQABS SQNEG */
	};
	dt_draw_list(g, e, sizeof e / sizeof e[0]);
}

/* FJCVTZS with FPCR.FZ cleared first: qemu 7.2 sets Z for a positive
 * denormal that FZ flushes, where the architecture (FPToFixedJS) clears it
 * (qemu issue 2375, fixed in later versions); with FZ clear both agree.
 * ivx follows the architecture. */
static void dt_emit_fjcvtzs(struct dt_gen *g)
{
	uint32_t t = (uint32_t)dt_reg_dst(g);
	dt_emit_setup(g, 0xd53b4400u | t);                      /* MRS Xt, FPCR */
	dt_emit_setup(g, 0x9267f800u | (t << 5) | t);           /* AND Xt, Xt, #~(1 << 24) */
	dt_emit_setup(g, 0xd51b4400u | t);                      /* MSR FPCR, Xt */
	uint32_t rn = (uint32_t)dt_below(R(g), 32), rd = (uint32_t)dt_reg_dst(g);
	dt_emit(g, 0x1e7e0000u | (rn << 5) | rd);
}

/* FP estimates and steps: FRECPE FRSQRTE FRECPX URECPE URSQRTE, FRECPS
 * FRSQRTS, FMULX (also by element), FCVTXN; vector and scalar. Also
 * FJCVTZS and FRINT32/64 (scalar and vector). */
void dt_emit_simd_fpest(struct dt_gen *g)
{
	static const struct dt_enc e[] = {
		{ 0x0e20dc00u, Q | SZ | RD_RN_RM }, { 0x5e20dc00u, SZ | RD_RN_RM },           /* FMULX */
		{ 0x0e20fc00u, Q | SZ | RD_RN_RM }, { 0x5e20fc00u, SZ | RD_RN_RM },           /* FRECPS */
		{ 0x0ea0fc00u, Q | SZ | RD_RN_RM }, { 0x5ea0fc00u, SZ | RD_RN_RM },           /* FRSQRTS */
		{ 0x0ea1d800u, QU | SZ | 0x3ffu }, { 0x5ea1d800u, U | SZ | 0x3ffu },          /* FRECPE FRSQRTE */
		{ 0x0ea1c800u, QU | 0x3ffu },                                                 /* URECPE URSQRTE */
		{ 0x5ea1f800u, SZ | 0x3ffu },                                                 /* FRECPX */
		{ 0x2e616800u, Q | 0x3ffu }, { 0x7e616800u, 0x3ffu },                         /* FCVTXN */
		{ 0x2f809000u, Q | SZ | ELEM }, { 0x7f809000u, SZ | ELEM },                   /* FMULX elem */
		{ 0x1e284000u, SZ | 0x18000u | 0x3ffu },                                      /* FRINT32/64 scalar */
		{ 0x0e21e800u, QU | SZ | 0x1000u | 0x3ffu },                                  /* FRINT32/64 vector */
	};
	size_t n = sizeof e / sizeof e[0];
	if (dt_below(R(g), n + 1) == n)
		dt_emit_fjcvtzs(g);
	else
		dt_draw_list(g, e, n);
}

/* --- loads and stores of SIMD&FP registers --------------------------------- */

/* An effective address for sz bytes inside scratch; a quarter of them at
 * the page boundary in the middle. */
static int64_t dt_fp_ea(struct dt_gen *g, int64_t sz)
{
	if (dt_below(R(g), 4))
		return dt_range(R(g), 0, DT_SCRATCH - sz);
	return dt_range(R(g), DT_SP_OFFSET - sz, DT_SP_OFFSET);
}

/* LDR/STR B H S D Q: unsigned offset, unscaled, pre/post-index, register offset. */
void dt_emit_ld_fp(struct dt_gen *g)
{
	int lg = (int)dt_below(R(g), 5), load = (int)dt_below(R(g), 2);
	int64_t sz = 1 << lg;
	uint32_t size = lg == 4 ? 0 : (uint32_t)lg, opc = (uint32_t)load | (lg == 4 ? 2u : 0u);
	uint32_t rt = (uint32_t)dt_below(R(g), 32), rn = (uint32_t)dt_reg_dst(g);
	uint32_t top = size << 30 | opc << 22 | rn << 5 | rt;
	int64_t ea = dt_fp_ea(g, sz);
	switch (dt_below(R(g), 4)) {
	case 0: {                                       /* unsigned offset */
		int64_t imm = dt_below(R(g), (uint64_t)(ea / sz) + 1);
		dt_set_base(g, (int)rn, ea - imm * sz);
		dt_emit(g, 0x3d000000u | top | (uint32_t)imm << 10);
		break;
	}
	case 1: case 2: {                               /* unscaled, post, pre */
		int64_t imm9 = dt_range(R(g), -256, 255);
		uint32_t kind = (uint32_t)dt_below(R(g), 3);    /* 0 unscaled, 1 post, 2 pre */
		dt_set_base(g, (int)rn, kind == 1 ? ea : ea - imm9);
		dt_emit(g, 0x3c000000u | top | ((uint32_t)imm9 & 0x1ff) << 12 | (kind == 0 ? 0u : kind == 1 ? 1u : 3u) << 10);
		break;
	}
	default: {                                      /* register offset */
		int rm;
		do
			rm = dt_reg_dst(g);
		while ((uint32_t)rm == rn);
		uint32_t s = (uint32_t)dt_below(R(g), 2), opt = dt_below(R(g), 2) ? 3u : 6u;   /* LSL / SXTW */
		int64_t idx = dt_range(R(g), -16, 16);
		int64_t scaled = s ? idx * sz : idx;
		dt_set_base(g, (int)rn, ea - scaled);
		dt_set_reg(g, rm, opt == 6 ? (uint64_t)(uint32_t)(int32_t)idx | 0xabcd000000000000ull : (uint64_t)idx);
		dt_emit(g, 0x3c200800u | top | (uint32_t)rm << 16 | opt << 13 | s << 12);
		break;
	}
	}
}

/* LDP/STP/LDNP/STNP of S D Q, every index mode. */
void dt_emit_ld_fp_pair(struct dt_gen *g)
{
	uint32_t opc = (uint32_t)dt_below(R(g), 3), load = (uint32_t)dt_below(R(g), 2);
	int64_t sz = 4 << opc;
	uint32_t idx = (uint32_t)dt_below(R(g), 4);     /* 0 no-alloc, 1 post, 2 offset, 3 pre */
	uint32_t rt = (uint32_t)dt_below(R(g), 32), rt2;
	do
		rt2 = (uint32_t)dt_below(R(g), 32);
	while (load && rt2 == rt);
	uint32_t rn = (uint32_t)dt_reg_dst(g);
	int64_t ea = dt_fp_ea(g, 2 * sz);
	int64_t imm7 = dt_range(R(g), -8, 8);
	dt_set_base(g, (int)rn, idx == 1 ? ea : ea - imm7 * sz);
	dt_emit(g, 0x2c000000u | opc << 30 | idx << 23 | load << 22 | ((uint32_t)imm7 & 0x7f) << 15 |
		rt2 << 10 | rn << 5 | rt);
}

void dt_emit_ld_fp_literal(struct dt_gen *g)
{
	uint32_t opc = (uint32_t)dt_below(R(g), 3);
	int bytes = 4 << opc;
	int off = (int)dt_below(R(g), (uint64_t)(DT_POOL_WORDS * 4 / bytes)) * bytes;
	dt_emit_fix(g, 0x1c000000u | opc << 30 | (uint32_t)dt_below(R(g), 32), DT_FIX_LIT, off & ~3);
}

/* LD1-LD4/ST1-ST4 (multiple and single structures, LDnR), with and without
 * post-index (immediate or register). */
void dt_emit_ld_simd(struct dt_gen *g)
{
	for (int tries = 0; tries < 1000; tries++) {
		int single = (int)dt_below(R(g), 2);
		uint32_t w = (single ? 0x0d000000u : 0x0c000000u) | ((uint32_t)dt_rand(R(g)) & 0x4060fc1fu);
		uint32_t post = (uint32_t)dt_below(R(g), 2);
		struct uop u;
		isa_decode(w, 0x400000, &u);    /* no offset form: the access size */
		if (u.op_class == UOP_UNSUPPORTED)
			continue;
		int64_t sz = u.mem_size;
		uint32_t rn = (uint32_t)dt_reg_dst(g), rm = 31;
		int64_t ea = dt_fp_ea(g, sz);
		dt_set_base(g, (int)rn, ea);
		if (post) {
			if (dt_below(R(g), 2)) {
				do
					rm = (uint32_t)dt_reg_dst(g);
				while (rm == rn);
				dt_set_reg(g, (int)rm, (uint64_t)dt_range(R(g), -64, 64));
			}
			w |= 1u << 23 | rm << 16;
		}
		dt_emit(g, w | rn << 5);
		return;
	}
}

/* --- LSE atomics ----------------------------------------------------------- */

/* LDADD..LDUMIN, SWP, CAS, CASP with random size and ordering bits, on an
 * aligned address; no register is both base and data. */
void dt_emit_ld_atomic(struct dt_gen *g)
{
	uint32_t kind = (uint32_t)dt_below(R(g), 4), ar = (uint32_t)dt_below(R(g), 4);
	uint32_t size = (uint32_t)dt_below(R(g), 4), rn, rs, rt;
	int64_t bytes = 1 << size;
	if (kind == 3) {                                /* CASP: even pairs, 4 or 8 bytes each */
		size = 2 + (uint32_t)dt_below(R(g), 2);
		bytes = 2 << size;
	}
	do {
		rs = (uint32_t)dt_reg_dst(g);
		rt = (uint32_t)dt_reg_dst(g);
		if (kind == 3) {
			rs &= ~1u;
			rt &= ~1u;
		}
		rn = (uint32_t)dt_reg_dst(g);
	} while (rn == rs || rn == rt || (kind == 3 && (rs == 28 || rt == 28 || rs == 30 || rt == 30 ||
						       rn == rs + 1 || rn == rt + 1)));
	if (kind != 3 && dt_below(R(g), 6) == 0)
		rt = 31;                                /* ST* aliases, CAS of XZR */
	int64_t ea = dt_fp_ea(g, bytes) & ~(bytes - 1);
	dt_set_base(g, (int)rn, ea);
	if (kind == 2 && dt_below(R(g), 2)) {
		/* a CAS that succeeds: Rs = the current memory value */
		dt_emit(g, size << 30 | 0x38400000u | 0x01000000u | rn << 5 | rs);    /* LDR Rs, [Rn] */
	}
	uint32_t a = ar >> 1, r = ar & 1;
	switch (kind) {
	case 0: case 1: {                               /* LD<op> or SWP */
		uint32_t o3 = kind == 1 ? 1u : 0u, opc = kind == 1 ? 0u : (uint32_t)dt_below(R(g), 8);
		dt_emit(g, size << 30 | 0x38200000u | a << 23 | r << 22 | rs << 16 | o3 << 15 | opc << 12 |
			rn << 5 | rt);
		break;
	}
	case 2:
		dt_emit(g, size << 30 | 0x08a07c00u | a << 22 | rs << 16 | r << 15 | rn << 5 | rt);
		break;
	default:
		dt_emit(g, (size - 2) << 30 | 0x08207c00u | a << 22 | rs << 16 | r << 15 | rn << 5 | rt);
		break;
	}
}

/* The cryptographic extensions (AES, SHA-1, SHA-256, SHA-512, SHA-3) and
 * the dot product. */
void dt_emit_simd_crypto(struct dt_gen *g)
{
	static const struct dt_enc e[] = {
		{ 0x4e284800u, 0x3000u | 0x3ffu },                                            /* AESE AESD AESMC AESIMC */
		{ 0x5e000000u, 0x7000u | RD_RN_RM },                                          /* SHA1C .. SHA256SU1 */
		{ 0x5e280800u, 0x3000u | 0x3ffu },                                            /* SHA1H SHA1SU1 SHA256SU0 */
		{ 0x0e809400u, QU | RD_RN_RM },                                               /* SDOT UDOT */
		{ 0x0f80e000u, QU | ELEM },                                                   /* SDOT UDOT (element) */
		{ 0xce000000u, 0x00200000u | RD_RN_RM | 0x7c00u },                           /* EOR3 BCAX */
		{ 0xce608000u, RD_RN_RM | 0x0c00u },                                          /* SHA512H H2 SU1, RAX1 */
		{ 0xcec08000u, 0x3ffu },                                                      /* SHA512SU0 */
		{ 0xce800000u, RD_RN_RM | 0xfc00u },                                          /* XAR */
	};
	dt_draw_list(g, e, sizeof e / sizeof e[0]);
}
