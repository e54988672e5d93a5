/*
 * isa_simd_fpe.c — the Advanced SIMD floating-point forms that isa_simd.c
 * leaves out (vector, scalar and by element where they exist):
 *
 *   three same: FMULX FRECPS FRSQRTS
 *   two-register misc: FRECPE FRSQRTE, FRECPX (scalar only), URECPE
 *     URSQRTE (vector only), FCVTXN (and FCVTXN2), FCVTN FCVTL between
 *     half and single precision (isa_simd.c has single <-> double),
 *     FRINT32Z FRINT32X FRINT64Z FRINT64X (ARMv8.5)
 *   by element: FMULX
 *
 * The arithmetic is in isa_fpu.c (fpu_recpe32 ...): FPCR rounding, FZ and
 * DN apply and FPSR collects the exceptions as for the other FP forms.
 *
 * Field use: f0 = log2 element size (2 or 3), f1 = op, f2 = bytes written,
 * f3 bit 1: Vm is lane imm of Vm (by element).
 */
#include "isa_simd.h"

enum { E_MULX, E_RECPS, E_RSQRTS };
enum { U_RECPE, U_RSQRTE, U_RECPX, U_URECPE, U_URSQRTE, U_FRINT32Z, U_FRINT32X, U_FRINT64Z, U_FRINT64X };

static int h_fpe2(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = u->f2 >> es;
	const vreg vn = c->v[u->rn], vm = c->v[u->rm];
	vreg r;
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = lget(&vn, es, i), b = lget(&vm, es, (u->f3 & 2) ? (unsigned)u->imm : i), x;
		if (es == 3)
			x = u->f1 == E_MULX ? fpu_mulx64(c, a, b) : u->f1 == E_RECPS ? fpu_recps64(c, a, b)
									 : fpu_rsqrts64(c, a, b);
		else
			x = u->f1 == E_MULX ? fpu_mulx32(c, (uint32_t)a, (uint32_t)b)
			    : u->f1 == E_RECPS ? fpu_recps32(c, (uint32_t)a, (uint32_t)b)
					       : fpu_rsqrts32(c, (uint32_t)a, (uint32_t)b);
		lset(&r, es, i, x);
	}
	vput(c, u->rd, &r, u->f2);
	return ISA_NEXT;
}

static int h_fpe1(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = u->f2 >> es;
	const vreg vn = c->v[u->rn];
	vreg r;
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = lget(&vn, es, i), x;
		switch (u->f1) {
		case U_RECPE: x = es == 3 ? fpu_recpe64(c, a) : fpu_recpe32(c, (uint32_t)a); break;
		case U_RSQRTE: x = es == 3 ? fpu_rsqrte64(c, a) : fpu_rsqrte32(c, (uint32_t)a); break;
		case U_RECPX: x = es == 3 ? fpu_recpx64(c, a) : fpu_recpx32(c, (uint32_t)a); break;
		case U_URECPE: x = fpu_urecpe((uint32_t)a); break;
		case U_URSQRTE: x = fpu_ursqrte((uint32_t)a); break;
		default: {
			int mode = u->f1 == U_FRINT32Z || u->f1 == U_FRINT64Z ? FPR_ZERO : FPR_FPCR, bits = u->f1 >= U_FRINT64Z ? 64 : 32;
			x = es == 3 ? fpu_rintn64(c, a, mode, bits) : fpu_rintn32(c, (uint32_t)a, mode, bits);
			break;
		}
		}
		lset(&r, es, i, x);
	}
	vput(c, u->rd, &r, u->f2);
	return ISA_NEXT;
}

/* FCVTXN: f3 bit 0 scalar, bit 2 upper half (FCVTXN2 keeps the lower). */
static int h_fcvtxn(struct cpu *c, const struct uop *u)
{
	const vreg vn = c->v[u->rn];
	vreg r = c->v[u->rd];
	unsigned n = (u->f3 & 1) ? 1 : 2, base = (u->f3 & 4) ? 2 : 0;
	if (!(u->f3 & 4))
		memset(&r, 0, sizeof r);
	for (unsigned i = 0; i < n; i++)
		r.s[base + i] = fpu_d_to_s_odd(c, vn.d[i]);
	c->v[u->rd] = r;
	return ISA_NEXT;
}

/* FCVTN/FCVTN2 single -> half, FCVTL/FCVTL2 half -> single: f1 0 narrow,
 * 1 widen; f3 bit 2 upper half. */
static int h_fcvt_half(struct cpu *c, const struct uop *u)
{
	const vreg vn = c->v[u->rn];
	unsigned base = (u->f3 & 4) ? 4 : 0;
	vreg r;
	if (u->f1 == 0) {
		r = c->v[u->rd];
		if (!base)
			memset(&r, 0, sizeof r);
		for (unsigned i = 0; i < 4; i++)
			r.h[base + i] = fpu_s_to_h(c, vn.s[i]);
	} else {
		for (unsigned i = 0; i < 4; i++)
			r.s[i] = fpu_h_to_s(c, vn.h[base + i]);
	}
	c->v[u->rd] = r;
	return ISA_NEXT;
}

static void dec_3same(uint32_t w, struct uop *u, int scalar)
{
	unsigned q = (w >> 30) & 1, uns = (w >> 29) & 1, size = isa_bits(w, 23, 22), opc = isa_bits(w, 15, 11);
	unsigned sz = size & 1, key = (uns << 6) | ((size >> 1) << 5) | opc;
	int op;
	switch (key) {
	case 0x1b: op = E_MULX; break;
	case 0x1f: op = E_RECPS; break;
	case 0x3f: op = E_RSQRTS; break;
	default: return;
	}
	if (sz && !q && !scalar)
		return;
	set_simd(u, w, h_fpe2, op == E_MULX ? UOP_FP : UOP_FMA, 1, 0);
	u->f0 = (uint8_t)(2 + sz);
	u->f1 = (uint8_t)op;
	u->f2 = (uint8_t)(scalar ? 4u << sz : q ? 16 : 8);
}

static void dec_misc(uint32_t w, struct uop *u, int scalar)
{
	unsigned q = (w >> 30) & 1, uns = (w >> 29) & 1, size = isa_bits(w, 23, 22), opc = isa_bits(w, 16, 12);
	unsigned sz = size & 1, key = (uns << 6) | ((size >> 1) << 5) | opc;
	int op;
	if (key == 0x56) {                      /* FCVTXN, FCVTXN2: size 01 only */
		if (size != 1)
			return;
		set_simd(u, w, h_fcvtxn, UOP_FP, 0, q && !scalar);
		u->f3 = (uint8_t)(scalar ? 1 : q ? 4 : 0);
		return;
	}
	if ((key == 0x16 || key == 0x17) && size == 0 && !scalar) {    /* FCVTN, FCVTL with H */
		set_simd(u, w, h_fcvt_half, UOP_FP, 0, key == 0x16 && q);
		u->f1 = (uint8_t)(key == 0x17);
		u->f3 = (uint8_t)(q << 2);
		return;
	}
	switch (key) {
	case 0x3d: op = U_RECPE; break;
	case 0x7d: op = U_RSQRTE; break;
	case 0x3f: op = U_RECPX; if (!scalar) return; break;
	case 0x3c: op = U_URECPE; if (scalar || sz) return; break;
	case 0x7c: op = U_URSQRTE; if (scalar || sz) return; break;
	case 0x1e: op = U_FRINT32Z; if (scalar) return; break;
	case 0x5e: op = U_FRINT32X; if (scalar) return; break;
	case 0x1f: op = U_FRINT64Z; if (scalar) return; break;
	case 0x5f: op = U_FRINT64X; if (scalar) return; break;
	default: return;
	}
	if (sz && !q && !scalar)
		return;
	set_simd(u, w, h_fpe1, UOP_FP, 0, 0);
	u->f0 = (uint8_t)(2 + sz);
	u->f1 = (uint8_t)op;
	u->f2 = (uint8_t)(scalar ? 4u << sz : q ? 16 : 8);
}

/* FMULX (by element) */
static void dec_elem(uint32_t w, struct uop *u, int scalar)
{
	unsigned q = (w >> 30) & 1, uns = (w >> 29) & 1, size = isa_bits(w, 23, 22), opc = isa_bits(w, 15, 12);
	unsigned l = (w >> 21) & 1, h = (w >> 11) & 1;
	if (!uns || opc != 9 || size < 2 || (size == 3 && (l || (!q && !scalar))))
		return;
	set_simd(u, w, h_fpe2, UOP_FP, 0, 0);
	u->rm = (uint8_t)isa_bits(w, 20, 16);
	isa_src_v(u, u->rm);
	u->f0 = (uint8_t)size;
	u->f1 = E_MULX;
	u->f2 = (uint8_t)(scalar ? 1u << size : q ? 16 : 8);
	u->f3 = 2;
	u->imm = size == 2 ? (h << 1) | l : h;
}

void isa_dec_simd_fpe(uint32_t w, struct uop *u)
{
	int scalar = (w >> 28) & 1;
	if (w >> 31 || (scalar && !((w >> 30) & 1)))
		return;
	if ((w >> 24) & 1) {
		if (!((w >> 10) & 1))
			dec_elem(w, u, scalar);
		return;
	}
	if (!((w >> 21) & 1))
		return;
	if ((w >> 10) & 1)
		dec_3same(w, u, scalar);
	else if (isa_bits(w, 11, 10) == 2 && isa_bits(w, 20, 17) == 0)
		dec_misc(w, u, scalar);
}
