/*
 * isa_simd.c — Advanced SIMD (vector and scalar) data processing.
 *
 * Covered (vector, 64- and 128-bit; the scalar forms where noted with S):
 *   three same: ADD SUB MUL MLA MLS (S: ADD SUB), SHADD UHADD SRHADD URHADD
 *     SHSUB UHSUB, SQADD UQADD SQSUB UQSUB (S), CMEQ CMTST CMGT CMGE CMHI
 *     CMHS (S), SMAX UMAX SMIN UMIN SMAXP UMAXP SMINP UMINP ADDP, SABD UABD
 *     SABA UABA, SSHL USHL (S), AND BIC ORR ORN EOR BSL BIT BIF, PMUL;
 *     FP: FADD FSUB FMUL FDIV FMAX FMIN FMAXNM FMINNM FMLA FMLS FABD FCMEQ
 *     FCMGE FCMGT FACGE FACGT FADDP FMAXP FMINP FMAXNMP FMINNMP (S: the
 *     compares and FABD)
 *   scalar pairwise: ADDP, FADDP FMAXP FMINP FMAXNMP FMINNMP
 *   two-register misc, across lanes, shift by immediate: isa_simd_misc.c
 *     (with the instructions each covers)
 *   copy, permute, EXT, TBL/TBX and modified immediate: isa_simd_move.c
 *   three different: SADDL UADDL SADDW UADDW SSUBL USUBL SSUBW USUBW ADDHN
 *     SUBHN SABAL UABAL SABDL UABDL SMLAL UMLAL SMLSL UMLSL SMULL UMULL
 *   by element: MUL MLA MLS SMULL UMULL SMLAL UMLAL SMLSL UMLSL, FMUL FMLA
 *     FMLS (S: FMUL FMLA FMLS)
 * The rest of Advanced SIMD is decoded by the other isa_simd_*.c files
 * (see isa_simd.h): saturating, rounding and polynomial integer forms
 * (isa_simd_sat.c), FP estimates and steps, FMULX, FCVTXN, FRINT32/64 and
 * half-precision conversions (isa_simd_fpe.c), AES, SHA and the dot
 * product (isa_simd_crypto.c); SHA-512 and SHA-3 are in isa_simd_sha3.c
 * (their own row of isa.c's table). Half-precision arithmetic, BFloat16,
 * the complex-number, FHM and int8 matrix extensions, SM3 and SM4 decode
 * as unsupported.
 *
 * One handler per encoding group reads the operation from f1; lanes are
 * read and written through lget/lset. A 64-bit (Q = 0) vector result
 * clears the upper half of the destination, and a scalar one everything
 * above its element.
 *
 * Field use: rd, rn, rm, ra index cpu.v[] (rd/rn index cpu.x[] for DUP
 * general, INS general, UMOV, SMOV); f0 = log2 element size; f1 = op;
 * f2 = bytes of the operation (8 or 16, or the element size for scalar
 * forms); f3 = flags / unsigned; imm = shift / index / immediate; imm2 =
 * second index.
 */
#include <string.h>
#include "isa_simd.h"

/* ---- three same (integer) ---- */

enum {
	I_ADD, I_SUB, I_MUL, I_MLA, I_MLS, I_SHADD, I_UHADD, I_SRHADD, I_URHADD, I_SHSUB, I_UHSUB,
	I_SQADD, I_UQADD, I_SQSUB, I_UQSUB, I_CMEQ, I_CMTST, I_CMGT, I_CMGE, I_CMHI, I_CMHS,
	I_SMAX, I_UMAX, I_SMIN, I_UMIN, I_SABD, I_UABD, I_SABA, I_UABA, I_SSHL, I_USHL, I_PMUL,
	I_SMAXP, I_UMAXP, I_SMINP, I_UMINP, I_ADDP,
};

static uint64_t sshl(uint64_t a, int64_t sa, unsigned es, int is_unsigned)
{
	int sh = (int8_t)sa, bits = 8 << es;
	if (sh >= 0)
		return sh >= bits ? 0 : a << sh;
	sh = -sh;
	if (is_unsigned)
		return sh >= bits ? 0 : (a & emask(es)) >> sh;
	int64_t s = isa_sext(a & emask(es), bits);
	return (uint64_t)(sh >= bits ? (s < 0 ? -1 : 0) : s >> sh);
}

static uint64_t pmul8(uint64_t a, uint64_t b)
{
	uint64_t r = 0;
	for (int i = 0; i < 8; i++)
		if ((b >> i) & 1)
			r ^= a << i;
	return r;
}

static uint64_t int_op(struct cpu *c, int op, unsigned es, uint64_t a, uint64_t b, int64_t sa, int64_t sb,
		       uint64_t d)
{
	uint64_t m = emask(es);
	switch (op) {
	case I_ADD: return a + b;
	case I_SUB: return a - b;
	case I_MUL: return a * b;
	case I_MLA: return d + a * b;
	case I_MLS: return d - a * b;
	case I_SHADD: return (uint64_t)(((__int128)sa + sb) >> 1);
	case I_UHADD: return (uint64_t)(((unsigned __int128)a + b) >> 1);
	case I_SRHADD: return (uint64_t)(((__int128)sa + sb + 1) >> 1);
	case I_URHADD: return (uint64_t)(((unsigned __int128)a + b + 1) >> 1);
	case I_SHSUB: return (uint64_t)(((__int128)sa - sb) >> 1);
	case I_UHSUB: return (uint64_t)(((__int128)a - (__int128)b) >> 1);
	case I_SQADD: return sat_s(c, (__int128)sa + sb, es);
	case I_UQADD: return sat_u(c, (__int128)a + b, es);
	case I_SQSUB: return sat_s(c, (__int128)sa - sb, es);
	case I_UQSUB: return sat_u(c, (__int128)a - (__int128)b, es);
	case I_CMEQ: return a == b ? m : 0;
	case I_CMTST: return (a & b) ? m : 0;
	case I_CMGT: return sa > sb ? m : 0;
	case I_CMGE: return sa >= sb ? m : 0;
	case I_CMHI: return a > b ? m : 0;
	case I_CMHS: return a >= b ? m : 0;
	case I_SMAX: case I_SMAXP: return sa > sb ? a : b;
	case I_UMAX: case I_UMAXP: return a > b ? a : b;
	case I_SMIN: case I_SMINP: return sa < sb ? a : b;
	case I_UMIN: case I_UMINP: return a < b ? a : b;
	case I_SABD: return sa > sb ? (uint64_t)(sa - sb) : (uint64_t)(sb - sa);
	case I_UABD: return a > b ? a - b : b - a;
	case I_SABA: return d + (sa > sb ? (uint64_t)(sa - sb) : (uint64_t)(sb - sa));
	case I_UABA: return d + (a > b ? a - b : b - a);
	case I_SSHL: return sshl(a, sb, es, 0);
	case I_USHL: return sshl(a, sb, es, 1);
	case I_PMUL: return pmul8(a, b);
	default: return a + b;                  /* ADDP */
	}
}

static int h_int3(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = u->f2 >> es;
	const vreg *vn = &c->v[u->rn], *vm = &c->v[u->rm], *vd = &c->v[u->rd];
	vreg r;
	for (unsigned i = 0; i < n; i++)
		lset(&r, es, i, int_op(c, u->f1, es, lget(vn, es, i), lget(vm, es, i), lgets(vn, es, i),
				       lgets(vm, es, i), lget(vd, es, i)));
	vput(c, u->rd, &r, u->f2);
	return ISA_NEXT;
}

/* Pairwise: the concatenation Vm:Vn, adjacent pairs. */
static int h_int3p(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = u->f2 >> es;
	vreg cat[2] = { c->v[u->rn], c->v[u->rm] }, r;
	for (unsigned i = 0; i < n; i++) {
		const vreg *src = &cat[(2 * i) / n];
		unsigned j = (2 * i) % n;
		lset(&r, es, i, int_op(c, u->f1, es, lget(src, es, j), lget(src, es, j + 1), lgets(src, es, j),
				       lgets(src, es, j + 1), 0));
	}
	vput(c, u->rd, &r, u->f2);
	return ISA_NEXT;
}

/* Logical, on whole 64-bit halves: f1 = AND BIC ORR ORN EOR BSL BIT BIF */
static int h_logic(struct cpu *c, const struct uop *u)
{
	vreg r;
	for (int i = 0; i < 2; i++) {
		uint64_t n = c->v[u->rn].d[i], m = c->v[u->rm].d[i], d = c->v[u->rd].d[i];
		switch (u->f1) {
		case 0: r.d[i] = n & m; break;
		case 1: r.d[i] = n & ~m; break;
		case 2: r.d[i] = n | m; break;
		case 3: r.d[i] = n | ~m; break;
		case 4: r.d[i] = n ^ m; break;
		case 5: r.d[i] = (d & n) | (~d & m); break;       /* BSL */
		case 6: r.d[i] = (n & m) | (d & ~m); break;       /* BIT */
		default: r.d[i] = (d & m) | (n & ~m); break;      /* BIF */
		}
	}
	vput(c, u->rd, &r, u->f2);
	return ISA_NEXT;
}

/* ---- three same (FP) ---- */

uint64_t isa_simd_fp_op(struct cpu *c, int op, int dbl, uint64_t a, uint64_t b, uint64_t d)
{
	static const int bin[] = { [F_ADD] = FPU_ADD, [F_SUB] = FPU_SUB, [F_MUL] = FPU_MUL, [F_DIV] = FPU_DIV,
				   [F_MAX] = FPU_MAX, [F_MIN] = FPU_MIN, [F_MAXNM] = FPU_MAXNM,
				   [F_MINNM] = FPU_MINNM, [F_ABD] = FPU_ABD };
	uint64_t sign = dbl ? 1ull << 63 : 1ull << 31;
	switch (op) {
	case F_MLA: case F_MLS:
		return dbl ? fpu_fma64(c, d, a, b, 0, op == F_MLS) : fpu_fma32(c, (uint32_t)d, (uint32_t)a, (uint32_t)b, 0, op == F_MLS);
	case F_CMEQ: return dbl ? fpu_cmpv64(c, FPC_EQ, a, b) : fpu_cmpv32(c, FPC_EQ, (uint32_t)a, (uint32_t)b);
	case F_CMGE: return dbl ? fpu_cmpv64(c, FPC_GE, a, b) : fpu_cmpv32(c, FPC_GE, (uint32_t)a, (uint32_t)b);
	case F_CMGT: return dbl ? fpu_cmpv64(c, FPC_GT, a, b) : fpu_cmpv32(c, FPC_GT, (uint32_t)a, (uint32_t)b);
	case F_ACGE: case F_ACGT: {
		int k = op == F_ACGE ? FPC_GE : FPC_GT;
		int na = dbl ? (a & ~sign) > 0x7ff0000000000000ull : (a & ~sign) > 0x7f800000u;
		int nb = dbl ? (b & ~sign) > 0x7ff0000000000000ull : (b & ~sign) > 0x7f800000u;
		/* FPAbs leaves NaNs alone, so the signalling test sees them as they are */
		if (!na)
			a &= ~sign;
		if (!nb)
			b &= ~sign;
		return dbl ? fpu_cmpv64(c, k, a, b) : fpu_cmpv32(c, k, (uint32_t)a, (uint32_t)b);
	}
	default:
		return dbl ? fpu_binop64(c, bin[op], a, b) : fpu_binop32(c, bin[op], (uint32_t)a, (uint32_t)b);
	}
}

static int h_fp3(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = u->f2 >> es;
	const vreg vn = c->v[u->rn], vm = c->v[u->rm], vd = c->v[u->rd];
	vreg r;
	for (unsigned i = 0; i < n; i++)
		lset(&r, es, i, isa_simd_fp_op(c, u->f1, es == 3, lget(&vn, es, i), lget(&vm, es, i), lget(&vd, es, i)));
	vput(c, u->rd, &r, u->f2);
	return ISA_NEXT;
}

static int h_fp3p(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = u->f2 >> es;
	vreg cat[2] = { c->v[u->rn], c->v[u->rm] }, r;
	for (unsigned i = 0; i < n; i++) {
		const vreg *src = &cat[(2 * i) / n];
		unsigned j = (2 * i) % n;
		lset(&r, es, i, isa_simd_fp_op(c, u->f1, es == 3, lget(src, es, j), lget(src, es, j + 1), 0));
	}
	vput(c, u->rd, &r, u->f2);
	return ISA_NEXT;
}

/* By element: Vm[imm] against every lane (f3 bit 0: FP) */
static int h_elem(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = u->f2 >> es;
	const vreg vn = c->v[u->rn], vd = c->v[u->rd];
	uint64_t b = lget(&c->v[u->rm], es, (unsigned)u->imm);
	int64_t sb = lgets(&c->v[u->rm], es, (unsigned)u->imm);
	vreg r;
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = lget(&vn, es, i);
		if (u->f3 & 1)
			lset(&r, es, i, isa_simd_fp_op(c, u->f1, es == 3, a, b, lget(&vd, es, i)));
		else
			lset(&r, es, i, int_op(c, u->f1, es, a, b, lgets(&vn, es, i), sb, lget(&vd, es, i)));
	}
	vput(c, u->rd, &r, u->f2);
	return ISA_NEXT;
}

/* ---- three different ---- */

/* f0 = narrow es; f1: 0 ADDL 1 ADDW 2 SUBL 3 SUBW 4 ADDHN 5 ABAL 6 SUBHN
 * 7 ABDL 8 MLAL 10 MLSL 12 MULL; f3 bit 0 unsigned, bit 2 upper half
 * ("2" forms); bit 1: by element (rm lane in imm). */
static int h_diff(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = 8 >> es, base = (u->f3 & 4) ? n : 0;
	int uns = u->f3 & 1;
	const vreg vn = c->v[u->rn], vm = c->v[u->rm], vd = c->v[u->rd];
	vreg r;
	if (u->f1 == 4 || u->f1 == 6) {         /* high narrow: wide inputs, narrow out */
		r = vd;
		if (!(u->f3 & 4))
			memset(&r, 0, sizeof r);
		for (unsigned i = 0; i < n; i++) {
			uint64_t a = lget(&vn, es + 1, i), b = lget(&vm, es + 1, i);
			uint64_t x = u->f1 == 4 ? a + b : a - b;
			if (uns)                /* RADDHN, RSUBHN */
				x += 1ull << ((8u << es) - 1);
			lset(&r, es, base + i, x >> (8u << es));
		}
		c->v[u->rd] = r;
		return ISA_NEXT;
	}
	for (unsigned i = 0; i < n; i++) {
		int wide_n = u->f1 == 1 || u->f1 == 3;
		__int128 a = wide_n ? (uns ? (__int128)lget(&vn, es + 1, i) : lgets(&vn, es + 1, i))
				    : (uns ? (__int128)lget(&vn, es, base + i) : lgets(&vn, es, base + i));
		unsigned bi = (u->f3 & 2) ? (unsigned)u->imm : base + i;
		__int128 b = uns ? (__int128)lget(&vm, es, bi) : lgets(&vm, es, bi);
		__int128 d = lget(&vd, es + 1, i), x;
		switch (u->f1) {
		case 0: case 1: x = a + b; break;
		case 2: case 3: x = a - b; break;
		case 5: x = d + (a > b ? a - b : b - a); break;
		case 7: x = a > b ? a - b : b - a; break;
		case 8: x = d + a * b; break;
		case 10: x = d - a * b; break;
		default: x = a * b; break;
		}
		lset(&r, es + 1, i, (uint64_t)x);
	}
	c->v[u->rd] = r;
	return ISA_NEXT;
}

/* ---- decoders ---- */

static void dec_3same(uint32_t w, struct uop *u, int scalar)
{
	unsigned q = (w >> 30) & 1, uns = (w >> 29) & 1, size = isa_bits(w, 23, 22), opc = isa_bits(w, 15, 11);
	unsigned bytes = scalar ? 1u << size : q ? 16 : 8;
	if (opc >= 0x18) {                      /* FP */
		unsigned a = size >> 1, sz = size & 1, key = (uns << 6) | (a << 5) | opc;
		int op = -1, pair = 0, cls = UOP_FP;
		switch (key) {
		case 0x18: op = F_MAXNM; break;
		case 0x19: op = F_MLA; cls = UOP_FMA; break;
		case 0x1a: op = F_ADD; break;
		case 0x1c: op = F_CMEQ; break;
		case 0x1e: op = F_MAX; break;
		case 0x38: op = F_MINNM; break;
		case 0x39: op = F_MLS; cls = UOP_FMA; break;
		case 0x3a: op = F_SUB; break;
		case 0x3e: op = F_MIN; break;
		case 0x58: op = F_MAXNM; pair = 1; break;
		case 0x5a: op = F_ADD; pair = 1; break;
		case 0x5b: op = F_MUL; break;
		case 0x5c: op = F_CMGE; break;
		case 0x5d: op = F_ACGE; break;
		case 0x5e: op = F_MAX; pair = 1; break;
		case 0x5f: op = F_DIV; cls = UOP_FDIV; break;
		case 0x78: op = F_MINNM; pair = 1; break;
		case 0x7a: op = F_ABD; break;
		case 0x7c: op = F_CMGT; break;
		case 0x7d: op = F_ACGT; break;
		case 0x7e: op = F_MIN; pair = 1; break;
		default: return;
		}
		if ((sz && !q && !scalar) || (scalar && (pair || (op != F_CMEQ && op != F_CMGE && op != F_CMGT &&
								   op != F_ACGE && op != F_ACGT && op != F_ABD))))
			return;
		set_simd(u, w, pair ? h_fp3p : h_fp3, cls, 1, op == F_MLA || op == F_MLS);
		u->f0 = (uint8_t)(2 + sz);
		u->f1 = (uint8_t)op;
		u->f2 = (uint8_t)(scalar ? 4u << sz : bytes);
		return;
	}
	if (opc == 3) {                         /* logical */
		if (scalar)
			return;
		set_simd(u, w, h_logic, UOP_SIMD, 1, uns && size);
		u->f1 = (uint8_t)((uns << 2) | size);
		u->f2 = (uint8_t)bytes;
		return;
	}
	static const int8_t ops[2][24] = {
		{ I_SHADD, I_SQADD, I_SRHADD, -1, I_SHSUB, I_SQSUB, I_CMGT, I_CMGE, I_SSHL, -1, -1, -1,
		  I_SMAX, I_SMIN, I_SABD, I_SABA, I_ADD, I_CMTST, I_MLA, I_MUL, I_SMAXP, I_SMINP, -1, I_ADDP },
		{ I_UHADD, I_UQADD, I_URHADD, -1, I_UHSUB, I_UQSUB, I_CMHI, I_CMHS, I_USHL, -1, -1, -1,
		  I_UMAX, I_UMIN, I_UABD, I_UABA, I_SUB, I_CMEQ, I_MLS, I_PMUL, I_UMAXP, I_UMINP, -1, -1 },
	};
	int op = ops[uns][opc];
	if (op < 0)
		return;
	if (op == I_PMUL && size != 0)
		return;
	if (size == 3 && !(op == I_ADD || op == I_SUB || op == I_CMEQ || op == I_CMTST || op == I_CMGT ||
			   op == I_CMGE || op == I_CMHI || op == I_CMHS || op == I_SSHL || op == I_USHL ||
			   op == I_SQADD || op == I_UQADD || op == I_SQSUB || op == I_UQSUB || op == I_ADDP))
		return;
	if (size == 3 && !q && !scalar)
		return;
	if (scalar) {
		/* scalar forms: 64-bit ADD SUB CMxx SSHL USHL; saturating at any size */
		int sat = op == I_SQADD || op == I_UQADD || op == I_SQSUB || op == I_UQSUB;
		int d_only = op == I_ADD || op == I_SUB || op == I_CMEQ || op == I_CMTST || op == I_CMGT ||
			     op == I_CMGE || op == I_CMHI || op == I_CMHS || op == I_SSHL || op == I_USHL;
		if (!sat && !(d_only && size == 3))
			return;
	}
	int pair = op == I_SMAXP || op == I_UMAXP || op == I_SMINP || op == I_UMINP || op == I_ADDP;
	if (pair && size == 3 && op != I_ADDP)
		return;
	set_simd(u, w, pair ? h_int3p : h_int3, UOP_SIMD, 1,
		 op == I_MLA || op == I_MLS || op == I_SABA || op == I_UABA);
	u->f0 = (uint8_t)size;
	u->f1 = (uint8_t)op;
	u->f2 = (uint8_t)bytes;
}

static void dec_diff(uint32_t w, struct uop *u)
{
	unsigned q = (w >> 30) & 1, uns = (w >> 29) & 1, size = isa_bits(w, 23, 22), opc = isa_bits(w, 15, 12);
	if (size == 3)
		return;
	switch (opc) {
	case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8: case 10: case 12:
		break;
	default:
		return;                         /* saturating doubling, PMULL */
	}
	set_simd(u, w, h_diff, UOP_SIMD, 1,
		 opc == 5 || opc == 8 || opc == 10 || ((opc == 4 || opc == 6) && q));
	u->f0 = (uint8_t)size;
	u->f1 = (uint8_t)opc;
	u->f3 = (uint8_t)(uns | (q << 2));
}

static void dec_elem(uint32_t w, struct uop *u, int scalar)
{
	unsigned q = (w >> 30) & 1, uns = (w >> 29) & 1, size = isa_bits(w, 23, 22), opc = isa_bits(w, 15, 12);
	unsigned l = (w >> 21) & 1, m = (w >> 20) & 1, h = (w >> 11) & 1;
	unsigned rm = isa_bits(w, 19, 16), idx;
	if (size == 1) {
		idx = (h << 2) | (l << 1) | m;
	} else {
		rm |= m << 4;
		idx = size == 2 ? (h << 1) | l : h;
	}
	if (opc == 1 || opc == 5 || opc == 9) {         /* FMLA FMLS FMUL (by element) */
		if (uns || size < 2 || (size == 3 && (l || (!q && !scalar))))
			return;                 /* FMULX, FCMLA, half precision */
		set_simd(u, w, h_elem, opc == 9 ? UOP_FP : UOP_FMA, 0, opc != 9);
		u->rm = (uint8_t)rm;
		isa_src_v(u, rm);
		u->f0 = (uint8_t)size;
		u->f1 = (uint8_t)(opc == 1 ? F_MLA : opc == 5 ? F_MLS : F_MUL);
		u->f2 = (uint8_t)(scalar ? 1u << size : q ? 16 : 8);
		u->f3 = 1;
		u->imm = idx;
		return;
	}
	if (scalar || size == 0 || size == 3)
		return;
	if (opc == 8 || (uns && (opc == 0 || opc == 4))) {     /* MUL, MLA, MLS */
		if (!uns && opc != 8)
			return;
		if (uns && opc == 8)
			return;
		set_simd(u, w, h_elem, UOP_SIMD, 0, opc != 8);
		u->rm = (uint8_t)rm;
		isa_src_v(u, rm);
		u->f0 = (uint8_t)size;
		u->f1 = (uint8_t)(opc == 8 ? I_MUL : opc == 0 ? I_MLA : I_MLS);
		u->f2 = (uint8_t)(q ? 16 : 8);
		u->imm = idx;
		return;
	}
	if (opc == 10 || opc == 2 || opc == 6) {        /* SMULL/UMULL, SMLAL/UMLAL, SMLSL/UMLSL */
		set_simd(u, w, h_diff, UOP_SIMD, 0, opc != 10);
		u->rm = (uint8_t)rm;
		isa_src_v(u, rm);
		u->f0 = (uint8_t)size;
		u->f1 = (uint8_t)(opc == 10 ? 12 : opc == 2 ? 8 : 10);
		u->f3 = (uint8_t)(uns | 2 | (q << 2));
		u->imm = idx;
	}
}


/* Scalar pairwise: ADDP Dd, Vn.2D; FADDP FMAXP FMINP FMAXNMP FMINNMP */
static int h_scalar_pair(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0;
	const vreg *vn = &c->v[u->rn];
	uint64_t a = lget(vn, es, 0), b = lget(vn, es, 1);
	vreg r;
	memset(&r, 0, sizeof r);
	lset(&r, es, 0, (u->f3 & 1) ? isa_simd_fp_op(c, u->f1, es == 3, a, b, 0) : a + b);
	c->v[u->rd] = r;
	return ISA_NEXT;
}

static void dec_scalar_pair(uint32_t w, struct uop *u)
{
	unsigned uns = (w >> 29) & 1, size = isa_bits(w, 23, 22), opc = isa_bits(w, 16, 12);
	if (!uns) {
		if (opc != 0x1b || size != 3)
			return;
		set_simd(u, w, h_scalar_pair, UOP_SIMD, 0, 0);
		u->f0 = 3;
		return;
	}
	int op;
	switch (opc) {
	case 0x0c: op = (size >> 1) ? F_MINNM : F_MAXNM; break;
	case 0x0d: if (size >> 1) return; op = F_ADD; break;
	case 0x0f: op = (size >> 1) ? F_MIN : F_MAX; break;
	default: return;
	}
	set_simd(u, w, h_scalar_pair, UOP_FP, 0, 0);
	u->f0 = (uint8_t)(2 + (size & 1));
	u->f1 = (uint8_t)op;
	u->f3 = 1;
}

/* The forms of this file; isa_dec_simd below tries the other SIMD files
 * for what is left unsupported. */
static void dec_simd_base(uint32_t w, struct uop *u)
{
	int scalar = (w >> 28) & 1;
	if (w >> 31)
		return;
	if (scalar && !((w >> 30) & 1))
		return;                         /* scalar FP space: other table rows */
	if ((w >> 24) & 1) {
		if ((w >> 10) & 1) {
			if (!scalar && isa_bits(w, 22, 19) == 0)
				isa_simd_dec_modimm(w, u);
			else if (!((w >> 23) & 1))
				isa_simd_dec_shift(w, u, scalar);
		} else {
			dec_elem(w, u, scalar);
		}
		return;
	}
	if (!((w >> 21) & 1)) {
		if ((w >> 15) & 1)
			return;
		if ((w >> 10) & 1) {            /* copy */
			if (isa_bits(w, 23, 21) == 0)
				isa_simd_dec_copy(w, u, scalar);
			return;
		}
		if (scalar)
			return;
		isa_simd_dec_perm(w, u);       /* permute, EXT, TBL (isa_simd_move.c) */
		return;
	}
	if ((w >> 10) & 1) {
		dec_3same(w, u, scalar);
		return;
	}
	if (isa_bits(w, 11, 10) == 2) {
		unsigned sel = isa_bits(w, 20, 17);
		if (sel == 0)
			isa_simd_dec_misc(w, u, scalar);
		else if (sel == 8)
			scalar ? dec_scalar_pair(w, u) : isa_simd_dec_across(w, u);
		return;
	}
	if (!scalar && isa_bits(w, 11, 10) == 0)
		dec_diff(w, u);
}

/* Advanced SIMD, vector (0 Q U 0111 ...) and scalar (01 U 1111 ...). */
void isa_dec_simd(uint32_t w, struct uop *u)
{
	dec_simd_base(w, u);
	if (u->op_class == UOP_UNSUPPORTED)
		isa_dec_simd_sat(w, u);
	if (u->op_class == UOP_UNSUPPORTED)
		isa_dec_simd_fpe(w, u);
	if (u->op_class == UOP_UNSUPPORTED)
		isa_dec_simd_crypto(w, u);
}
