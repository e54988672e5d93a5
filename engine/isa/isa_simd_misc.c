/*
 * isa_simd_misc.c — Advanced SIMD groups split from isa_simd.c (whose
 * decoder calls these; the field use is the same, see there):
 *   two-register misc: REV16 REV32 REV64, CLS CLZ CNT NOT RBIT, ABS NEG
 *     (S), CMEQ CMGE CMGT CMLE CMLT against zero (S), SADDLP UADDLP SADALP
 *     UADALP, XTN SQXTN UQXTN SQXTUN (S), SHLL; FP: FABS FNEG FSQRT FRINT*,
 *     FCVT{N,P,M,Z,A}{S,U} and SCVTF/UCVTF (S), FCMEQ/GE/GT/LE/LT zero (S),
 *     FCVTN FCVTL (single <-> double)
 *   across lanes: ADDV SMAXV UMAXV SMINV UMINV SADDLV UADDLV, FMAXV FMINV
 *     FMAXNMV FMINNMV
 *   shift by immediate: SSHR USHR SSRA USRA SRSHR URSHR SRSRA URSRA SHL SLI
 *     SRI (S), SHRN RSHRN, SQSHRN UQSHRN SQSHRUN (and rounding forms),
 *     SSHLL USHLL, SCVTF UCVTF FCVTZS FCVTZU (fixed point, S)
 * (S: also the scalar form.)
 */
#include "isa_simd.h"

/* ---- two-register misc ---- */

enum {
	M_REV16, M_REV32, M_REV64, M_CLS, M_CLZ, M_CNT, M_NOT, M_RBIT, M_ABS, M_NEG,
	M_CMGT0, M_CMGE0, M_CMEQ0, M_CMLE0, M_CMLT0, M_FABS, M_FNEG, M_FSQRT,
	M_FCMGT0, M_FCMGE0, M_FCMEQ0, M_FCMLE0, M_FCMLT0, M_FRINT, M_FCVT_S, M_FCVT_U,
	M_SCVTF, M_UCVTF,
};

static uint64_t rev_within(uint64_t x, unsigned es, unsigned container)
{
	/* reverse the es-sized elements inside each container-byte group of an 8-byte word */
	uint64_t r = 0;
	unsigned eb = 1u << es, per = container / eb;
	for (unsigned i = 0; i < 8 / eb; i++) {
		unsigned g = i / per, k = i % per;
		unsigned j = g * per + (per - 1 - k);
		r |= ((x >> (8 * eb * i)) & emask(es)) << (8 * eb * j);
	}
	return r;
}

static uint64_t misc_op(struct cpu *c, const struct uop *u, uint64_t a, int64_t sa)
{
	unsigned es = u->f0, bits = 8u << es;
	uint64_t m = emask(es);
	int dbl = es == 3;
	switch (u->f1) {
	case M_CLS: {
		uint64_t x = (sa < 0 ? ~a : a) & m;
		return x ? (uint64_t)(__builtin_clzll(x) - (64 - (int)bits) - 1) : bits - 1;
	}
	case M_CLZ: return (a & m) ? (uint64_t)(__builtin_clzll(a & m) - (64 - (int)bits)) : bits;
	case M_CNT: return (uint64_t)__builtin_popcountll(a & m);
	case M_NOT: return ~a;
	case M_RBIT: {
		uint64_t r = 0;
		for (unsigned i = 0; i < bits; i++)
			r |= ((a >> i) & 1) << (bits - 1 - i);
		return r;
	}
	case M_ABS: return sa < 0 ? -(uint64_t)sa : a;        /* wraps for the minimum, as Arm does */
	case M_NEG: return -(uint64_t)sa;
	case M_CMGT0: return sa > 0 ? m : 0;
	case M_CMGE0: return sa >= 0 ? m : 0;
	case M_CMEQ0: return (a & m) == 0 ? m : 0;
	case M_CMLE0: return sa <= 0 ? m : 0;
	case M_CMLT0: return sa < 0 ? m : 0;
	case M_FABS: return a & (m >> 1);
	case M_FNEG: return a ^ ~(m >> 1);
	case M_FSQRT: return dbl ? fpu_sqrt64(c, a) : fpu_sqrt32(c, (uint32_t)a);
	case M_FCMGT0: return isa_simd_fp_op(c, F_CMGT, dbl, a, 0, 0);
	case M_FCMGE0: return isa_simd_fp_op(c, F_CMGE, dbl, a, 0, 0);
	case M_FCMEQ0: return isa_simd_fp_op(c, F_CMEQ, dbl, a, 0, 0);
	case M_FCMLE0: return isa_simd_fp_op(c, F_CMGE, dbl, 0, a, 0);
	case M_FCMLT0: return isa_simd_fp_op(c, F_CMGT, dbl, 0, a, 0);
	case M_FRINT: return dbl ? fpu_rint64(c, a, (int)u->imm & 7, (int)u->imm >> 3)
				 : fpu_rint32(c, (uint32_t)a, (int)u->imm & 7, (int)u->imm >> 3);
	case M_FCVT_S: case M_FCVT_U:
		return dbl ? fpu_to_int64(c, a, (int)u->imm & 7, u->f1 == M_FCVT_U, 64, (int)u->imm2)
			   : fpu_to_int32(c, (uint32_t)a, (int)u->imm & 7, u->f1 == M_FCVT_U, 32, (int)u->imm2);
	case M_SCVTF: case M_UCVTF:
		return dbl ? fpu_from_int64(c, a, u->f1 == M_SCVTF, 64, (int)u->imm2)
			   : fpu_from_int32(c, a, u->f1 == M_SCVTF, 32, (int)u->imm2);
	default: return a;
	}
}

static int h_misc(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = u->f2 >> es;
	const vreg vn = c->v[u->rn];
	vreg r;
	if (u->f1 <= M_REV64) {
		unsigned container = u->f1 == M_REV16 ? 2 : u->f1 == M_REV32 ? 4 : 8;
		r.d[0] = rev_within(vn.d[0], es, container);
		r.d[1] = rev_within(vn.d[1], es, container);
	} else {
		for (unsigned i = 0; i < n; i++)
			lset(&r, es, i, misc_op(c, u, lget(&vn, es, i), lgets(&vn, es, i)));
	}
	vput(c, u->rd, &r, u->f2);
	return ISA_NEXT;
}

/* Pairwise long add: f3 bit 0 unsigned, bit 1 accumulate (SADALP) */
static int h_addlp(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = u->f2 >> (es + 1);
	const vreg vn = c->v[u->rn], vd = c->v[u->rd];
	vreg r;
	for (unsigned i = 0; i < n; i++) {
		uint64_t s = (u->f3 & 1) ? lget(&vn, es, 2 * i) + lget(&vn, es, 2 * i + 1)
					 : (uint64_t)(lgets(&vn, es, 2 * i) + lgets(&vn, es, 2 * i + 1));
		if (u->f3 & 2)
			s += lget(&vd, es + 1, i);
		lset(&r, es + 1, i, s);
	}
	vput(c, u->rd, &r, u->f2);
	return ISA_NEXT;
}

/* Narrowing (XTN, SQXTN, UQXTN, SQXTUN; FCVTN): f0 = destination es; the
 * "2" forms (f3 bit 2) write the upper half and keep the lower. f1: 0 XTN,
 * 1 SQXTN, 2 UQXTN, 3 SQXTUN, 4 FCVTN. */
static int h_narrow(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = 8 >> es, base = (u->f3 & 4) ? n : 0;
	const vreg vn = c->v[u->rn];
	vreg r = c->v[u->rd];
	if (!(u->f3 & 4))
		memset(&r, 0, sizeof r);
	if (u->f3 & 1) {                        /* scalar: one element, rest zero */
		n = 1;
		memset(&r, 0, sizeof r);
	}
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = lget(&vn, es + 1, i), x;
		int64_t sa = lgets(&vn, es + 1, i);
		switch (u->f1) {
		case 0: x = a; break;
		case 1: x = sat_s(c, sa, es); break;
		case 2: x = sat_u(c, (__int128)a, es); break;
		case 3: x = sat_u(c, sa, es); break;
		default: x = fpu_d_to_s(c, a); break;
		}
		lset(&r, es, base + i, x);
	}
	c->v[u->rd] = r;
	return ISA_NEXT;
}

/* Lengthening from the lower or (f3 bit 2) upper half: f0 = source es;
 * f1: 0 SSHLL/USHLL by imm (f3 bit 0 unsigned), 1 FCVTL, 2 SHLL. */
static int h_widen(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = 8 >> es, base = (u->f3 & 4) ? n : 0;
	const vreg vn = c->v[u->rn];
	vreg r;
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = (u->f3 & 1) ? lget(&vn, es, base + i) : (uint64_t)lgets(&vn, es, base + i), x;
		if (u->f1 == 1)
			x = fpu_s_to_d(c, (uint32_t)a);
		else
			x = a << u->imm;
		lset(&r, es + 1, i, x);
	}
	c->v[u->rd] = r;
	return ISA_NEXT;
}

/* ---- across lanes ---- */

enum { A_ADDV, A_SMAXV, A_UMAXV, A_SMINV, A_UMINV, A_SADDLV, A_UADDLV, A_FMAXV, A_FMINV, A_FMAXNMV, A_FMINNMV };

static int h_across(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = u->f2 >> es;
	const vreg *vn = &c->v[u->rn];
	uint64_t acc = lget(vn, es, 0);
	int64_t sacc = lgets(vn, es, 0);
	vreg r;
	memset(&r, 0, sizeof r);
	if (u->f1 >= A_FMAXV) {
		/* pairwise tree, as the architecture's Reduce() */
		static const int ops[] = { F_MAX, F_MIN, F_MAXNM, F_MINNM };
		uint64_t t[4];
		for (unsigned i = 0; i < n; i++)
			t[i] = lget(vn, es, i);
		for (unsigned w = n; w > 1; w /= 2)
			for (unsigned i = 0; i < w / 2; i++)
				t[i] = isa_simd_fp_op(c, ops[u->f1 - A_FMAXV], es == 3, t[2 * i], t[2 * i + 1], 0);
		lset(&r, es, 0, t[0]);
		c->v[u->rd] = r;
		return ISA_NEXT;
	}
	for (unsigned i = 1; i < n; i++) {
		uint64_t a = lget(vn, es, i);
		int64_t sa = lgets(vn, es, i);
		switch (u->f1) {
		case A_ADDV: acc += a; break;
		case A_SMAXV: if (sa > sacc) sacc = sa; break;
		case A_UMAXV: if (a > acc) acc = a; break;
		case A_SMINV: if (sa < sacc) sacc = sa; break;
		case A_UMINV: if (a < acc) acc = a; break;
		case A_SADDLV: sacc += sa; break;
		case A_UADDLV: acc += a; break;
		}
	}
	if (u->f1 == A_SMAXV || u->f1 == A_SMINV)
		acc = (uint64_t)sacc;
	if (u->f1 == A_SADDLV)
		lset(&r, es + 1, 0, (uint64_t)sacc);
	else if (u->f1 == A_UADDLV)
		lset(&r, es + 1, 0, acc);
	else
		lset(&r, es, 0, acc);
	c->v[u->rd] = r;
	return ISA_NEXT;
}


/* ---- immediates and shifts ---- */


/* f1: 0 SSHR 1 USHR 2 SSRA 3 USRA 4 SRSHR 5 URSHR 6 SRSRA 7 URSRA 8 SHL
 * 9 SLI 10 SRI; imm = shift */
static int h_shift(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = u->f2 >> es, sh = (unsigned)u->imm, bits = 8u << es;
	const vreg vn = c->v[u->rn], vd = c->v[u->rd];
	uint64_t m = emask(es);
	vreg r;
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = lget(&vn, es, i), d = lget(&vd, es, i), x;
		__int128 s = lgets(&vn, es, i);
		unsigned op = u->f1;
		if (op < 8) {
			int uns = op & 1, rnd = (op >> 2) & 1, acc = (op >> 1) & 1;
			__int128 v = uns ? (__int128)a : s;
			if (rnd)
				v += (__int128)1 << (sh - 1);
			x = (uint64_t)(v >> sh);
			if (acc)
				x += d;
		} else if (op == 8) {
			x = sh >= 64 ? 0 : a << sh;
		} else if (op == 9) {
			uint64_t keep = sh >= 64 ? m : (1ull << sh) - 1;
			x = (sh >= 64 ? 0 : a << sh) | (d & keep);
		} else {
			uint64_t ins = sh >= bits ? 0 : m >> sh;
			x = (sh >= bits ? 0 : a >> sh) | (d & ~ins);
		}
		lset(&r, es, i, x & m);
	}
	vput(c, u->rd, &r, u->f2);
	return ISA_NEXT;
}

/* Shift right narrow: f0 = destination es, imm = shift; f1: 0 SHRN,
 * 1 SQSHRN, 2 UQSHRN, 3 SQSHRUN; f3 bit 1 rounding, bit 2 upper half,
 * bit 0 scalar. */
static int h_shrn(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = 8 >> es, base = (u->f3 & 4) ? n : 0, sh = (unsigned)u->imm;
	const vreg vn = c->v[u->rn];
	vreg r = c->v[u->rd];
	if (!(u->f3 & 4) || (u->f3 & 1))
		memset(&r, 0, sizeof r);
	if (u->f3 & 1)
		n = 1;
	for (unsigned i = 0; i < n; i++) {
		__int128 v = (u->f1 == 2 || u->f1 == 0) ? (__int128)lget(&vn, es + 1, i) : (__int128)lgets(&vn, es + 1, i);
		if (u->f3 & 2)
			v += (__int128)1 << (sh - 1);
		v >>= sh;
		uint64_t x;
		switch (u->f1) {
		case 0: x = (uint64_t)v; break;
		case 1: x = sat_s(c, v, es); break;
		default: x = sat_u(c, v, es); break;
		}
		lset(&r, es, base + i, x);
	}
	c->v[u->rd] = r;
	return ISA_NEXT;
}

/* ---- decoders ---- */

/* FP lane size and count checks shared by misc and shifts: returns the
 * element es (2 or 3) or -1. */
static int fp_es(unsigned sz, unsigned q, int scalar)
{
	if (sz && !q && !scalar)
		return -1;
	return 2 + (int)sz;
}

void isa_simd_dec_misc(uint32_t w, struct uop *u, int scalar)
{
	unsigned q = (w >> 30) & 1, uns = (w >> 29) & 1, size = isa_bits(w, 23, 22), opc = isa_bits(w, 16, 12);
	unsigned bytes = scalar ? 1u << size : q ? 16 : 8;
	unsigned key = (uns << 5) | opc;
	int op = -1, es = (int)size, cls = UOP_SIMD;
	int64_t imm = 0;
	switch (key) {
	case 0x00: op = M_REV64; if (size == 3) return; break;
	case 0x01: op = M_REV16; if (size != 0) return; break;
	case 0x20: op = M_REV32; if (size > 1) return; break;
	case 0x02: case 0x22: case 0x06: case 0x26:
		if (scalar || size == 3)
			return;
		set_simd(u, w, h_addlp, UOP_SIMD, 0, opc == 6);
		u->f0 = (uint8_t)size;
		u->f2 = (uint8_t)bytes;
		u->f3 = (uint8_t)(uns | ((opc == 6) << 1));
		return;
	case 0x04: op = M_CLS; break;
	case 0x24: op = M_CLZ; break;
	case 0x05: op = M_CNT; if (size != 0) return; break;
	case 0x25:
		if (size > 1)
			return;
		op = size ? M_RBIT : M_NOT;
		es = 0;
		break;
	case 0x08: op = M_CMGT0; break;
	case 0x28: op = M_CMGE0; break;
	case 0x09: op = M_CMEQ0; break;
	case 0x29: op = M_CMLE0; break;
	case 0x0a: op = M_CMLT0; break;
	case 0x0b: op = M_ABS; break;
	case 0x2b: op = M_NEG; break;
	case 0x12: case 0x32: case 0x14: case 0x34: {   /* XTN, SQXTUN, SQXTN, UQXTN */
		if (size == 3)
			return;
		static const uint8_t nops[4] = { 0, 3, 1, 2 };
		unsigned k = ((opc == 0x14) << 1) | uns;
		if (scalar && k == 0)
			return;
		set_simd(u, w, h_narrow, UOP_SIMD, 0, q && !scalar);
		u->f0 = (uint8_t)size;
		u->f1 = nops[k];
		u->f3 = (uint8_t)((scalar ? 1 : 0) | (q && !scalar ? 4 : 0));
		return;
	}
	case 0x33:                              /* SHLL */
		if (scalar || size == 3)
			return;
		set_simd(u, w, h_widen, UOP_SIMD, 0, 0);
		u->f0 = (uint8_t)size;
		u->f1 = 2;
		u->imm = 8 << size;
		u->f3 = (uint8_t)(1 | (q << 2));
		return;
	case 0x16: case 0x17:                   /* FCVTN, FCVTL (single <-> double only) */
		if (scalar || size != 1)
			return;
		if (opc == 0x16) {
			set_simd(u, w, h_narrow, UOP_FP, 0, q);
			u->f0 = 2;
			u->f1 = 4;
			u->f3 = (uint8_t)(q << 2);
		} else {
			set_simd(u, w, h_widen, UOP_FP, 0, 0);
			u->f0 = 2;
			u->f1 = 1;
			u->f3 = (uint8_t)(1 | (q << 2));
		}
		return;
	default: {
		/* FP: the size<1> bit (a) selects within the opcode */
		unsigned a = size >> 1, sz = size & 1;
		unsigned fkey = (uns << 6) | (a << 5) | opc;
		es = fp_es(sz, q, scalar);
		if (es < 0)
			return;
		cls = UOP_FP;
		switch (fkey) {
		case 0x2f: op = M_FABS; break;
		case 0x6f: op = M_FNEG; break;
		case 0x7f: op = M_FSQRT; cls = UOP_FDIV; break;
		case 0x2c: op = M_FCMGT0; break;
		case 0x6c: op = M_FCMGE0; break;
		case 0x2d: op = M_FCMEQ0; break;
		case 0x6d: op = M_FCMLE0; break;
		case 0x2e: op = M_FCMLT0; break;
		case 0x18: op = M_FRINT; imm = FPR_NEAREST; break;
		case 0x19: op = M_FRINT; imm = FPR_DOWN; break;
		case 0x38: op = M_FRINT; imm = FPR_UP; break;
		case 0x39: op = M_FRINT; imm = FPR_ZERO; break;
		case 0x58: op = M_FRINT; imm = FPR_AWAY; break;
		case 0x59: op = M_FRINT; imm = FPR_FPCR | 8; break;     /* FRINTX */
		case 0x79: op = M_FRINT; imm = FPR_FPCR; break;         /* FRINTI */
		case 0x1a: op = M_FCVT_S; imm = FPR_NEAREST; break;
		case 0x1b: op = M_FCVT_S; imm = FPR_DOWN; break;
		case 0x1c: op = M_FCVT_S; imm = FPR_AWAY; break;
		case 0x3a: op = M_FCVT_S; imm = FPR_UP; break;
		case 0x3b: op = M_FCVT_S; imm = FPR_ZERO; break;
		case 0x5a: op = M_FCVT_U; imm = FPR_NEAREST; break;
		case 0x5b: op = M_FCVT_U; imm = FPR_DOWN; break;
		case 0x5c: op = M_FCVT_U; imm = FPR_AWAY; break;
		case 0x7a: op = M_FCVT_U; imm = FPR_UP; break;
		case 0x7b: op = M_FCVT_U; imm = FPR_ZERO; break;
		case 0x1d: op = M_SCVTF; break;
		case 0x5d: op = M_UCVTF; break;
		default: return;
		}
		if (scalar && (op == M_FABS || op == M_FNEG || op == M_FSQRT || op == M_FRINT))
			return;                 /* those scalar forms are the FP ones */
		if (scalar)
			bytes = 1u << es;
		break;
	}
	}
	if (cls == UOP_SIMD) {
		if (size == 3 && !q && !scalar)
			return;
		if (scalar && (op < M_ABS || op > M_CMLT0 || size != 3))
			return;                 /* scalar integer: 64-bit ABS NEG CMxx zero only */
		if ((op == M_CLS || op == M_CLZ) && size == 3)
			return;
	}
	set_simd(u, w, h_misc, cls, 0, 0);
	u->f0 = (uint8_t)es;
	u->f1 = (uint8_t)op;
	u->f2 = (uint8_t)bytes;
	u->imm = imm;
}

void isa_simd_dec_across(uint32_t w, struct uop *u)
{
	unsigned q = (w >> 30) & 1, uns = (w >> 29) & 1, size = isa_bits(w, 23, 22), opc = isa_bits(w, 16, 12);
	unsigned key = (uns << 5) | opc;
	int op;
	switch (key) {
	case 0x1b: op = A_ADDV; break;
	case 0x0a: op = A_SMAXV; break;
	case 0x2a: op = A_UMAXV; break;
	case 0x1a: op = A_SMINV; break;
	case 0x3a: op = A_UMINV; break;
	case 0x03: op = A_SADDLV; break;
	case 0x23: op = A_UADDLV; break;
	case 0x2c: case 0x2f:                   /* FMAXNMV/FMINNMV, FMAXV/FMINV: 4S only */
		if (!q || (size & 1))
			return;
		op = opc == 0x0c ? ((size >> 1) ? A_FMINNMV : A_FMAXNMV) : ((size >> 1) ? A_FMINV : A_FMAXV);
		set_simd(u, w, h_across, UOP_FP, 0, 0);
		u->f0 = 2;
		u->f1 = (uint8_t)op;
		u->f2 = 16;
		return;
	default: return;
	}
	if (size == 3 || (size == 2 && !q))
		return;
	set_simd(u, w, h_across, UOP_SIMD, 0, 0);
	u->f0 = (uint8_t)size;
	u->f1 = (uint8_t)op;
	u->f2 = (uint8_t)(q ? 16 : 8);
}


void isa_simd_dec_shift(uint32_t w, struct uop *u, int scalar)
{
	unsigned q = (w >> 30) & 1, uns = (w >> 29) & 1, immh = isa_bits(w, 22, 19), immb = isa_bits(w, 18, 16);
	unsigned opc = isa_bits(w, 15, 11);
	if (immh == 0)
		return;                         /* modified immediate: handled before */
	unsigned es = 31u - (unsigned)__builtin_clz(immh), esize = 8u << es;
	unsigned immhb = (immh << 3) | immb;
	unsigned rsh = 2 * esize - immhb, lsh = immhb - esize;
	unsigned bytes = scalar ? 1u << es : q ? 16 : 8;
	int right_op = -1;
	switch (opc) {
	case 0x00: right_op = uns; break;               /* SSHR USHR */
	case 0x02: right_op = 2 + uns; break;           /* SSRA USRA */
	case 0x04: right_op = 4 + uns; break;           /* SRSHR URSHR */
	case 0x06: right_op = 6 + uns; break;           /* SRSRA URSRA */
	case 0x08:                                      /* SRI */
		if (!uns)
			return;
		right_op = 10;
		break;
	case 0x0a:                                      /* SHL, SLI */
		if (es == 3 ? (!q && !scalar) : scalar)
			return;
		set_simd(u, w, h_shift, UOP_SIMD, 0, uns);
		u->f0 = (uint8_t)es;
		u->f1 = (uint8_t)(uns ? 9 : 8);
		u->f2 = (uint8_t)bytes;
		u->imm = lsh;
		return;
	case 0x10: case 0x11: case 0x12: case 0x13: {   /* SHRN/RSHRN, SQSHR(U)N, UQSHRN and rounding */
		if (es == 3)
			return;
		unsigned kind = ((opc >> 1) & 1) ? (uns ? 2 : 1) : (uns ? 3 : 0);
		if (scalar && kind == 0)
			return;
		set_simd(u, w, h_shrn, UOP_SIMD, 0, q && !scalar);
		u->f0 = (uint8_t)es;
		u->f1 = (uint8_t)kind;
		u->f3 = (uint8_t)((scalar ? 1 : 0) | ((opc & 1) << 1) | (q && !scalar ? 4 : 0));
		u->imm = rsh;                   /* from the double-width element */
		return;
	}
	case 0x14:                                      /* SSHLL, USHLL */
		if (scalar || es == 3)
			return;
		set_simd(u, w, h_widen, UOP_SIMD, 0, 0);
		u->f0 = (uint8_t)es;
		u->f1 = 0;
		u->f3 = (uint8_t)(uns | (q << 2));
		u->imm = lsh;
		return;
	case 0x1c: case 0x1f: {                         /* SCVTF/UCVTF, FCVTZS/FCVTZU fixed */
		if (es < 2 || (es == 3 && !q && !scalar))
			return;
		set_simd(u, w, h_misc, UOP_FP, 0, 0);
		u->f0 = (uint8_t)es;
		u->f1 = (uint8_t)(opc == 0x1c ? (uns ? M_UCVTF : M_SCVTF) : (uns ? M_FCVT_U : M_FCVT_S));
		u->f2 = (uint8_t)bytes;
		u->imm = FPR_ZERO;
		u->imm2 = rsh;
		return;
	}
	default:
		return;
	}
	if (es == 3 ? (!q && !scalar) : scalar)
		return;
	set_simd(u, w, h_shift, UOP_SIMD, 0, right_op >= 2);
	u->f0 = (uint8_t)es;
	u->f1 = (uint8_t)right_op;
	u->f2 = (uint8_t)bytes;
	u->imm = rsh;
}
