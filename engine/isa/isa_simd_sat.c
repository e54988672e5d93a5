/*
 * isa_simd_sat.c — the saturating, rounding and polynomial integer forms
 * of Advanced SIMD that isa_simd.c leaves out (vector and scalar):
 *
 *   three same: SQSHL UQSHL SRSHL URSHL SQRSHL UQRSHL (by register),
 *     SQDMULH SQRDMULH
 *   three same extra (ARMv8.1 RDM): SQRDMLAH SQRDMLSH
 *   three different: SQDMLAL SQDMLSL SQDMULL (and the "2" forms), PMULL
 *     (8-bit lanes, and 64-bit lanes: the crypto extension's PMULL)
 *   by element: SQDMULH SQRDMULH SQDMLAL SQDMLSL SQDMULL, SQRDMLAH SQRDMLSH
 *   shift by immediate: SQSHL UQSHL SQSHLU
 *   two-register misc: SUQADD USQADD SQABS SQNEG
 *
 * Each result that clips sets FPSR.QC (sat_s/sat_u in isa_simd.h). Shifts
 * by register take the signed low byte of each Vm lane, so amounts past
 * the lane width and negative ones (right shifts) are all defined; the
 * arithmetic is done in 128 bits so nothing but the saturation clips.
 *
 * Field use: f0 = log2 element size (the narrow one for long forms), f1 =
 * op, f2 = bytes written (8, 16, or the element size for scalars), f3 =
 * flags (below), imm = immediate shift or element index.
 */
#include "isa_simd.h"

enum {
	Q_SQSHL, Q_UQSHL, Q_SRSHL, Q_URSHL, Q_SQRSHL, Q_UQRSHL, Q_SQDMULH, Q_SQRDMULH,
	Q_SQRDMLAH, Q_SQRDMLSH, Q_SQSHLI, Q_UQSHLI, Q_SQSHLU, Q_SUQADD, Q_USQADD, Q_SQABS, Q_SQNEG,
	Q_SQDMLAL, Q_SQDMLSL, Q_SQDMULL,
};

/* f3 bits of the same-size handler */
#define F3_ELEM  2      /* Vm operand is lane imm of Vm */
#define F3_IMM   8      /* the second operand is the immediate shift */
/* f3 bits of the long handlers */
#define F3_SCALAR 1
#define F3_UPPER  4

/* x << sh (sh < 0: a right shift by -sh, rounded when rnd), then sat:
 * 0 truncates to the lane, 1 saturates signed, 2 unsigned. */
static uint64_t shl_gen(struct cpu *c, __int128 x, int sh, unsigned es, int rnd, int sat)
{
	int bits = 8 << es;
	__int128 r;
	if (sh >= 0) {
		if (!sat)
			return sh >= bits ? 0 : ((uint64_t)x << sh) & emask(es);
		if (x == 0)
			r = 0;
		else if (sh >= bits)
			r = x < 0 ? -((__int128)1 << 100) : (__int128)1 << 100;   /* clips */
		else
			r = x * ((__int128)1 << sh);    /* |x| <= 2^64, sh < 64: fits */
	} else {
		int k = -sh > bits + 1 ? bits + 1 : -sh;   /* past bits + 1 all give the same */
		if (rnd)
			x += (__int128)1 << (k - 1);
		r = x >> k;
	}
	if (sat == 1)
		return sat_s(c, r, es);
	if (sat == 2)
		return sat_u(c, r, es);
	return (uint64_t)r & emask(es);
}

static uint64_t sat_op(struct cpu *c, unsigned op, unsigned es, uint64_t a, int64_t sa, uint64_t b, int64_t sb,
		       uint64_t d, int64_t sd)
{
	int bits = 8 << es, sh = (int8_t)b;
	/* the doubling multiplies only exist for 16- and 32-bit lanes */
	__int128 half = (__int128)1 << (bits - 1), p = es < 3 ? 2 * (__int128)sa * sb : 0;
	switch (op) {
	case Q_SQSHL: return shl_gen(c, sa, sh, es, 0, 1);
	case Q_UQSHL: return shl_gen(c, a, sh, es, 0, 2);
	case Q_SRSHL: return shl_gen(c, sa, sh, es, 1, 0);
	case Q_URSHL: return shl_gen(c, a, sh, es, 1, 0);
	case Q_SQRSHL: return shl_gen(c, sa, sh, es, 1, 1);
	case Q_UQRSHL: return shl_gen(c, a, sh, es, 1, 2);
	case Q_SQDMULH: return sat_s(c, p >> bits, es);
	case Q_SQRDMULH: return sat_s(c, (p + half) >> bits, es);
	case Q_SQRDMLAH: return sat_s(c, ((__int128)sd * ((__int128)1 << bits) + p + half) >> bits, es);
	case Q_SQRDMLSH: return sat_s(c, ((__int128)sd * ((__int128)1 << bits) - p + half) >> bits, es);
	case Q_SQSHLI: return shl_gen(c, sa, (int)b, es, 0, 1);
	case Q_UQSHLI: return shl_gen(c, a, (int)b, es, 0, 2);
	case Q_SQSHLU: return shl_gen(c, sa, (int)b, es, 0, 2);
	case Q_SUQADD: return sat_s(c, (__int128)sd + a, es);
	case Q_USQADD: return sat_u(c, (__int128)d + sa, es);
	case Q_SQABS: return sat_s(c, sa < 0 ? -(__int128)sa : sa, es);
	default: return sat_s(c, -(__int128)sa, es);        /* SQNEG */
	}
}

/* Same-size lanes (vector or scalar). */
static int h_sat(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = u->f2 >> es;
	const vreg vn = c->v[u->rn], vm = c->v[u->rm], vd = c->v[u->rd];
	vreg r;
	for (unsigned i = 0; i < n; i++) {
		uint64_t b;
		int64_t sb;
		if (u->f3 & F3_IMM) {
			b = (uint64_t)u->imm;
			sb = u->imm;
		} else {
			unsigned j = (u->f3 & F3_ELEM) ? (unsigned)u->imm : i;
			b = lget(&vm, es, j);
			sb = lgets(&vm, es, j);
		}
		lset(&r, es, i, sat_op(c, u->f1, es, lget(&vn, es, i), lgets(&vn, es, i), b, sb, lget(&vd, es, i),
				       lgets(&vd, es, i)));
	}
	vput(c, u->rd, &r, u->f2);
	return ISA_NEXT;
}

/* Saturating doubling multiply long: narrow es f0 in, es + 1 out; the
 * "2" forms read the upper half of Vn (and of Vm unless by element). */
static int h_satl(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = (u->f3 & F3_SCALAR) ? 1 : 8 >> es, base = (u->f3 & F3_UPPER) ? n : 0;
	const vreg vn = c->v[u->rn], vm = c->v[u->rm], vd = c->v[u->rd];
	vreg r;
	for (unsigned i = 0; i < n; i++) {
		int64_t sa = lgets(&vn, es, base + i);
		int64_t sb = lgets(&vm, es, (u->f3 & F3_ELEM) ? (unsigned)u->imm : base + i);
		int64_t p = (int64_t)sat_s(c, 2 * (__int128)sa * sb, es + 1);
		int64_t sd = lgets(&vd, es + 1, i);
		uint64_t x = u->f1 == Q_SQDMULL ? (uint64_t)p
			   : sat_s(c, u->f1 == Q_SQDMLAL ? (__int128)sd + p : (__int128)sd - p, es + 1);
		lset(&r, es + 1, i, x);
	}
	vput(c, u->rd, &r, (u->f3 & F3_SCALAR) ? 2u << es : 16);
	return ISA_NEXT;
}

/* Carry-less multiply of the low `bits` of a and b, 128-bit result. */
static unsigned __int128 clmul(uint64_t a, uint64_t b, int bits)
{
	unsigned __int128 r = 0;
	for (int i = 0; i < bits; i++)
		if ((b >> i) & 1)
			r ^= (unsigned __int128)a << i;
	return r;
}

/* PMULL: 8 bytes to 8 halfwords (f0 = 0) or one doubleword to a
 * quadword (f0 = 3), from the lower or (F3_UPPER) upper half. */
static int h_pmull(struct cpu *c, const struct uop *u)
{
	unsigned upper = (u->f3 & F3_UPPER) ? 1 : 0;
	const vreg vn = c->v[u->rn], vm = c->v[u->rm];
	vreg r;
	if (u->f0 == 3) {
		unsigned __int128 p = clmul(vn.d[upper], vm.d[upper], 64);
		r.d[0] = (uint64_t)p;
		r.d[1] = (uint64_t)(p >> 64);
	} else {
		for (unsigned i = 0; i < 8; i++)
			r.h[i] = (uint16_t)clmul(vn.b[8 * upper + i], vm.b[8 * upper + i], 8);
	}
	c->v[u->rd] = r;
	return ISA_NEXT;
}

/* ---- decoders ---- */

static void set_sat(struct uop *u, uint32_t w, int op, unsigned es, unsigned bytes, int has_m, int reads_d)
{
	set_simd(u, w, h_sat, UOP_SIMD, has_m, reads_d);
	u->f0 = (uint8_t)es;
	u->f1 = (uint8_t)op;
	u->f2 = (uint8_t)bytes;
}

static void dec_3same(uint32_t w, struct uop *u, int scalar)
{
	unsigned q = (w >> 30) & 1, uns = (w >> 29) & 1, size = isa_bits(w, 23, 22), opc = isa_bits(w, 15, 11);
	unsigned bytes = scalar ? 1u << size : q ? 16 : 8;
	int op;
	switch (opc) {
	case 0x09: op = uns ? Q_UQSHL : Q_SQSHL; break;
	case 0x0a: op = uns ? Q_URSHL : Q_SRSHL; if (scalar && size != 3) return; break;
	case 0x0b: op = uns ? Q_UQRSHL : Q_SQRSHL; break;
	case 0x16:
		if (size == 0 || size == 3)
			return;
		op = uns ? Q_SQRDMULH : Q_SQDMULH;
		break;
	default: return;
	}
	if (!scalar && size == 3 && !q)
		return;
	set_sat(u, w, op, size, bytes, 1, 0);
}

/* Three same extra: SQRDMLAH, SQRDMLSH (ARMv8.1) */
static void dec_3extra(uint32_t w, struct uop *u, int scalar)
{
	unsigned q = (w >> 30) & 1, uns = (w >> 29) & 1, size = isa_bits(w, 23, 22), opc = isa_bits(w, 14, 11);
	if (!uns || opc > 1 || size == 0 || size == 3)
		return;
	set_sat(u, w, opc ? Q_SQRDMLSH : Q_SQRDMLAH, size, scalar ? 1u << size : q ? 16 : 8, 1, 1);
}

static void dec_diff(uint32_t w, struct uop *u, int scalar)
{
	unsigned q = (w >> 30) & 1, uns = (w >> 29) & 1, size = isa_bits(w, 23, 22), opc = isa_bits(w, 15, 12);
	if (uns)
		return;
	if (opc == 14 && !scalar) {             /* PMULL, PMULL2 */
		if (size != 0 && size != 3)
			return;
		set_simd(u, w, h_pmull, UOP_SIMD, 1, 0);
		u->f0 = (uint8_t)size;
		u->f3 = (uint8_t)(q ? F3_UPPER : 0);
		return;
	}
	if ((opc != 9 && opc != 11 && opc != 13) || size == 0 || size == 3)
		return;
	set_simd(u, w, h_satl, UOP_SIMD, 1, opc != 13);
	u->f0 = (uint8_t)size;
	u->f1 = (uint8_t)(opc == 9 ? Q_SQDMLAL : opc == 11 ? Q_SQDMLSL : Q_SQDMULL);
	u->f3 = (uint8_t)(scalar ? F3_SCALAR : q ? F3_UPPER : 0);
}

static void dec_elem(uint32_t w, struct uop *u, int scalar)
{
	unsigned q = (w >> 30) & 1, uns = (w >> 29) & 1, size = isa_bits(w, 23, 22), opc = isa_bits(w, 15, 12);
	unsigned l = (w >> 21) & 1, m = (w >> 20) & 1, h = (w >> 11) & 1;
	unsigned rm = isa_bits(w, 19, 16), idx;
	if (size == 0 || size == 3)
		return;
	if (size == 1) {
		idx = (h << 2) | (l << 1) | m;
	} else {
		rm |= m << 4;
		idx = (h << 1) | l;
	}
	int op;
	switch ((uns << 4) | opc) {
	case 0x03: op = Q_SQDMLAL; break;
	case 0x07: op = Q_SQDMLSL; break;
	case 0x0b: op = Q_SQDMULL; break;
	case 0x0c: op = Q_SQDMULH; break;
	case 0x0d: op = Q_SQRDMULH; break;
	case 0x1d: op = Q_SQRDMLAH; break;
	case 0x1f: op = Q_SQRDMLSH; break;
	default: return;
	}
	if (op >= Q_SQDMLAL) {
		set_simd(u, w, h_satl, UOP_SIMD, 0, op != Q_SQDMULL);
		u->f3 = (uint8_t)(F3_ELEM | (scalar ? F3_SCALAR : q ? F3_UPPER : 0));
	} else {
		set_simd(u, w, h_sat, UOP_SIMD, 0, op == Q_SQRDMLAH || op == Q_SQRDMLSH);
		u->f2 = (uint8_t)(scalar ? 1u << size : q ? 16 : 8);
		u->f3 = F3_ELEM;
	}
	u->rm = (uint8_t)rm;
	isa_src_v(u, rm);
	u->f0 = (uint8_t)size;
	u->f1 = (uint8_t)op;
	u->imm = idx;
}

static void dec_shift(uint32_t w, struct uop *u, int scalar)
{
	unsigned q = (w >> 30) & 1, uns = (w >> 29) & 1, immh = isa_bits(w, 22, 19), immb = isa_bits(w, 18, 16);
	unsigned opc = isa_bits(w, 15, 11);
	unsigned es = 31u - (unsigned)__builtin_clz(immh), esize = 8u << es;
	int op;
	if (opc == 0x0e)
		op = uns ? Q_UQSHLI : Q_SQSHLI;
	else if (opc == 0x0c && uns)
		op = Q_SQSHLU;
	else
		return;
	if (!scalar && es == 3 && !q)
		return;
	set_sat(u, w, op, es, scalar ? 1u << es : q ? 16 : 8, 0, 0);
	u->f3 = F3_IMM;
	u->imm = ((immh << 3) | immb) - esize;
}

static void dec_misc(uint32_t w, struct uop *u, int scalar)
{
	unsigned q = (w >> 30) & 1, uns = (w >> 29) & 1, size = isa_bits(w, 23, 22), opc = isa_bits(w, 16, 12);
	int op;
	switch ((uns << 5) | opc) {
	case 0x03: op = Q_SUQADD; break;
	case 0x23: op = Q_USQADD; break;
	case 0x07: op = Q_SQABS; break;
	case 0x27: op = Q_SQNEG; break;
	default: return;
	}
	if (!scalar && size == 3 && !q)
		return;
	set_sat(u, w, op, size, scalar ? 1u << size : q ? 16 : 8, 0, op == Q_SUQADD || op == Q_USQADD);
}

/* Same dispatch on the class bits as isa_simd.c's decoder. */
void isa_dec_simd_sat(uint32_t w, struct uop *u)
{
	int scalar = (w >> 28) & 1;
	if (w >> 31 || (scalar && !((w >> 30) & 1)))
		return;
	if ((w >> 24) & 1) {
		if ((w >> 10) & 1) {
			if (isa_bits(w, 22, 19) != 0 && !((w >> 23) & 1))
				dec_shift(w, u, scalar);
		} else {
			dec_elem(w, u, scalar);
		}
		return;
	}
	if (!((w >> 21) & 1)) {
		if (((w >> 15) & 1) && ((w >> 10) & 1))
			dec_3extra(w, u, scalar);
		return;
	}
	if ((w >> 10) & 1)
		dec_3same(w, u, scalar);
	else if (isa_bits(w, 11, 10) == 2 && isa_bits(w, 20, 17) == 0)
		dec_misc(w, u, scalar);
	else if (isa_bits(w, 11, 10) == 0)
		dec_diff(w, u, scalar);
}
