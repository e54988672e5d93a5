/*
 * isa_fp.c — A64 scalar floating point, single and double precision.
 *
 * Covered: FADD FSUB FMUL FNMUL FDIV FMIN FMAX FMINNM FMAXNM, FMADD FMSUB
 * FNMADD FNMSUB, FMOV (register, immediate, general: W/X <-> S/D and
 * X <-> V.D[1]), FABS FNEG FSQRT, FCVT between S and D, FRINTN/P/M/Z/A/X/I,
 * FCMP/FCMPE (register and zero), FCCMP/FCCMPE, FCSEL, SCVTF/UCVTF and
 * FCVT{N,P,M,Z,A}{S,U} to and from W and X, and their fixed-point forms.
 * FCVT between H and S/D (isa_fpu_half.c), FJCVTZS, FRINT32Z/X and
 * FRINT64Z/X. Not covered: half-precision arithmetic (type 11 otherwise).
 *
 * The arithmetic itself is in isa_fpu.c (Arm rounding, NaNs and flags);
 * handlers here only move operands. Writing an S or D register zeroes the
 * rest of the 128-bit vector register, as the architecture says.
 *
 * Field use: rd, rn, rm, ra index cpu.v[] (or cpu.x[] for the general-
 * register side of FMOV and the conversions); f0 = type (0 single,
 * 1 double); f1 = operation / rounding mode; f2 = extra (negations,
 * signedness, condition); f3 = integer width (32/64); imm = fbits, NZCV or
 * the FMOV immediate; imm2 = condition mask.
 */
#include <string.h>
#include "isa_internal.h"
#include "isa_fpu.h"

static inline void set_s(struct cpu *c, unsigned r, uint32_t v)
{
	c->v[r].d[0] = v;
	c->v[r].d[1] = 0;
}

static inline void set_d(struct cpu *c, unsigned r, uint64_t v)
{
	c->v[r].d[0] = v;
	c->v[r].d[1] = 0;
}

/* ---- handlers ---- */

static int h_fp2_s(struct cpu *c, const struct uop *u)
{
	set_s(c, u->rd, fpu_binop32(c, u->f1, c->v[u->rn].s[0], c->v[u->rm].s[0]));
	return ISA_NEXT;
}

static int h_fp2_d(struct cpu *c, const struct uop *u)
{
	set_d(c, u->rd, fpu_binop64(c, u->f1, c->v[u->rn].d[0], c->v[u->rm].d[0]));
	return ISA_NEXT;
}

/* f2: bit 0 negate the addend, bit 1 negate Rn */
static int h_fma_s(struct cpu *c, const struct uop *u)
{
	set_s(c, u->rd, fpu_fma32(c, c->v[u->ra].s[0], c->v[u->rn].s[0], c->v[u->rm].s[0],
				  u->f2 & 1, u->f2 >> 1));
	return ISA_NEXT;
}

static int h_fma_d(struct cpu *c, const struct uop *u)
{
	set_d(c, u->rd, fpu_fma64(c, c->v[u->ra].d[0], c->v[u->rn].d[0], c->v[u->rm].d[0],
				  u->f2 & 1, u->f2 >> 1));
	return ISA_NEXT;
}

static int h_fmov_s(struct cpu *c, const struct uop *u) { set_s(c, u->rd, c->v[u->rn].s[0]); return ISA_NEXT; }
static int h_fmov_d(struct cpu *c, const struct uop *u) { set_d(c, u->rd, c->v[u->rn].d[0]); return ISA_NEXT; }
static int h_fabs_s(struct cpu *c, const struct uop *u) { set_s(c, u->rd, c->v[u->rn].s[0] & 0x7fffffffu); return ISA_NEXT; }
static int h_fabs_d(struct cpu *c, const struct uop *u) { set_d(c, u->rd, c->v[u->rn].d[0] & ~(1ull << 63)); return ISA_NEXT; }
static int h_fneg_s(struct cpu *c, const struct uop *u) { set_s(c, u->rd, c->v[u->rn].s[0] ^ 0x80000000u); return ISA_NEXT; }
static int h_fneg_d(struct cpu *c, const struct uop *u) { set_d(c, u->rd, c->v[u->rn].d[0] ^ (1ull << 63)); return ISA_NEXT; }
static int h_fsqrt_s(struct cpu *c, const struct uop *u) { set_s(c, u->rd, fpu_sqrt32(c, c->v[u->rn].s[0])); return ISA_NEXT; }
static int h_fsqrt_d(struct cpu *c, const struct uop *u) { set_d(c, u->rd, fpu_sqrt64(c, c->v[u->rn].d[0])); return ISA_NEXT; }
static int h_fcvt_sd(struct cpu *c, const struct uop *u) { set_d(c, u->rd, fpu_s_to_d(c, c->v[u->rn].s[0])); return ISA_NEXT; }
static int h_fcvt_ds(struct cpu *c, const struct uop *u) { set_s(c, u->rd, fpu_d_to_s(c, c->v[u->rn].d[0])); return ISA_NEXT; }
/* half precision: a result H clears the register above it, as S and D do */
static int h_fcvt_hs(struct cpu *c, const struct uop *u) { set_s(c, u->rd, fpu_h_to_s(c, c->v[u->rn].h[0])); return ISA_NEXT; }
static int h_fcvt_hd(struct cpu *c, const struct uop *u) { set_d(c, u->rd, fpu_h_to_d(c, c->v[u->rn].h[0])); return ISA_NEXT; }
static int h_fcvt_sh(struct cpu *c, const struct uop *u) { set_s(c, u->rd, fpu_s_to_h(c, c->v[u->rn].s[0])); return ISA_NEXT; }
static int h_fcvt_dh(struct cpu *c, const struct uop *u) { set_s(c, u->rd, fpu_d_to_h(c, c->v[u->rn].d[0])); return ISA_NEXT; }

/* FRINT32/64: f1 = rounding mode, f2 = integer size */
static int h_frintn_s(struct cpu *c, const struct uop *u)
{
	set_s(c, u->rd, fpu_rintn32(c, c->v[u->rn].s[0], u->f1, u->f2));
	return ISA_NEXT;
}

static int h_frintn_d(struct cpu *c, const struct uop *u)
{
	set_d(c, u->rd, fpu_rintn64(c, c->v[u->rn].d[0], u->f1, u->f2));
	return ISA_NEXT;
}

/* FJCVTZS Wd, Dn: NZCV = 0 Z 0 0 */
static int h_fjcvtzs(struct cpu *c, const struct uop *u)
{
	int z;
	c->x[u->rd] = fpu_fjcvtzs(c, c->v[u->rn].d[0], &z);
	c->nzcv = z ? NZCV_Z : 0;
	return ISA_NEXT;
}

/* f1 = rounding mode, f2 = exact (FRINTX) */
static int h_frint_s(struct cpu *c, const struct uop *u)
{
	set_s(c, u->rd, fpu_rint32(c, c->v[u->rn].s[0], u->f1, u->f2));
	return ISA_NEXT;
}

static int h_frint_d(struct cpu *c, const struct uop *u)
{
	set_d(c, u->rd, fpu_rint64(c, c->v[u->rn].d[0], u->f1, u->f2));
	return ISA_NEXT;
}

/* f1: bit 0 compare with zero, bit 1 signalling (FCMPE) */
static int h_fcmp_s(struct cpu *c, const struct uop *u)
{
	uint32_t b = (u->f1 & 1) ? 0 : c->v[u->rm].s[0];
	c->nzcv = fpu_cmp32(c, c->v[u->rn].s[0], b, u->f1 >> 1);
	return ISA_NEXT;
}

static int h_fcmp_d(struct cpu *c, const struct uop *u)
{
	uint64_t b = (u->f1 & 1) ? 0 : c->v[u->rm].d[0];
	c->nzcv = fpu_cmp64(c, c->v[u->rn].d[0], b, u->f1 >> 1);
	return ISA_NEXT;
}

/* imm2 = condition mask, imm = NZCV if the condition fails */
static int h_fccmp_s(struct cpu *c, const struct uop *u)
{
	if (isa_cond_pass(c->nzcv, u->imm2))
		c->nzcv = fpu_cmp32(c, c->v[u->rn].s[0], c->v[u->rm].s[0], u->f1 >> 1);
	else
		c->nzcv = (uint64_t)u->imm;
	return ISA_NEXT;
}

static int h_fccmp_d(struct cpu *c, const struct uop *u)
{
	if (isa_cond_pass(c->nzcv, u->imm2))
		c->nzcv = fpu_cmp64(c, c->v[u->rn].d[0], c->v[u->rm].d[0], u->f1 >> 1);
	else
		c->nzcv = (uint64_t)u->imm;
	return ISA_NEXT;
}

static int h_fcsel(struct cpu *c, const struct uop *u)
{
	uint64_t v = isa_cond_pass(c->nzcv, u->imm2) ? c->v[u->rn].d[0] : c->v[u->rm].d[0];
	if (u->f0 == 0)
		v &= 0xffffffffu;
	set_d(c, u->rd, v);
	return ISA_NEXT;
}

static int h_fmov_imm(struct cpu *c, const struct uop *u)
{
	set_d(c, u->rd, (uint64_t)u->imm);
	return ISA_NEXT;
}

/* FMOV general: W/X <- S/D/V.D[1] (f1 = 0) and back (f1 = 1); f2 = which
 * 64-bit half of V (FMOV Xd, Vn.D[1]); f3 = width. */
static int h_fmov_to_x(struct cpu *c, const struct uop *u)
{
	uint64_t v = c->v[u->rn].d[u->f2];
	c->x[u->rd] = u->f3 == 32 ? (uint32_t)v : v;
	return ISA_NEXT;
}

static int h_fmov_from_x(struct cpu *c, const struct uop *u)
{
	uint64_t v = c->x[u->rn];
	if (u->f2) {
		c->v[u->rd].d[1] = v;   /* the low half is kept */
	} else {
		set_d(c, u->rd, u->f3 == 32 ? (uint32_t)v : v);
	}
	return ISA_NEXT;
}

/* FP -> int: f1 = rounding, f2 = unsigned, f3 = int width, imm = fbits */
static int h_cvt_to_int_s(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = fpu_to_int32(c, c->v[u->rn].s[0], u->f1, u->f2, u->f3, (int)u->imm);
	return ISA_NEXT;
}

static int h_cvt_to_int_d(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = fpu_to_int64(c, c->v[u->rn].d[0], u->f1, u->f2, u->f3, (int)u->imm);
	return ISA_NEXT;
}

/* int -> FP: f2 = signed, f3 = int width, imm = fbits */
static int h_cvt_from_int_s(struct cpu *c, const struct uop *u)
{
	set_s(c, u->rd, fpu_from_int32(c, c->x[u->rn], u->f2, u->f3, (int)u->imm));
	return ISA_NEXT;
}

static int h_cvt_from_int_d(struct cpu *c, const struct uop *u)
{
	set_d(c, u->rd, fpu_from_int64(c, c->x[u->rn], u->f2, u->f3, (int)u->imm));
	return ISA_NEXT;
}

/* ---- decoders ---- */

/* Vd = op(Vn[, Vm]) with the usual dependences. */
static void set_vop(struct uop *u, uop_exec_fn fn, int cls, uint32_t w, int has_m)
{
	isa_set(u, fn, cls);
	u->rd = (uint8_t)isa_bits(w, 4, 0);
	u->rn = (uint8_t)isa_bits(w, 9, 5);
	isa_src_v(u, u->rn);
	if (has_m) {
		u->rm = (uint8_t)isa_bits(w, 20, 16);
		isa_src_v(u, u->rm);
	}
	isa_dst_v(u, u->rd);
}

void isa_dec_fp_dp2(uint32_t w, struct uop *u)
{
	static const int ops[9] = { FPU_MUL, FPU_DIV, FPU_ADD, FPU_SUB, FPU_MAX, FPU_MIN,
				    FPU_MAXNM, FPU_MINNM, FPU_NMUL };
	unsigned type = isa_bits(w, 23, 22), opc = isa_bits(w, 15, 12);
	if (type > 1 || opc > 8)
		return;
	set_vop(u, type ? h_fp2_d : h_fp2_s, opc == 1 ? UOP_FDIV : UOP_FP, w, 1);
	u->f0 = (uint8_t)type;
	u->f1 = (uint8_t)ops[opc];
}

void isa_dec_fp_dp3(uint32_t w, struct uop *u)
{
	unsigned type = isa_bits(w, 23, 22), o1 = (w >> 21) & 1, o0 = (w >> 15) & 1;
	if (type > 1)
		return;
	set_vop(u, type ? h_fma_d : h_fma_s, UOP_FMA, w, 1);
	u->ra = (uint8_t)isa_bits(w, 14, 10);
	isa_src_v(u, u->ra);
	u->f0 = (uint8_t)type;
	/* FMADD: a + n*m; FMSUB: a - n*m; FNMADD: -a - n*m; FNMSUB: -a + n*m */
	u->f2 = (uint8_t)(o1 | ((o0 ^ o1) << 1));
}

void isa_dec_fp_dp1(uint32_t w, struct uop *u)
{
	unsigned type = isa_bits(w, 23, 22), opc = isa_bits(w, 20, 15);
	if (type == 3 && (opc == 4 || opc == 5)) {      /* FCVT Sd, Hn / Dd, Hn */
		set_vop(u, opc == 4 ? h_fcvt_hs : h_fcvt_hd, UOP_FP, w, 0);
		return;
	}
	if (type <= 1 && opc == 7) {                    /* FCVT Hd, Sn / Hd, Dn */
		set_vop(u, type ? h_fcvt_dh : h_fcvt_sh, UOP_FP, w, 0);
		return;
	}
	if (type > 1)
		return;
	int d = (int)type;
	switch (opc) {
	case 0: set_vop(u, d ? h_fmov_d : h_fmov_s, UOP_FP, w, 0); break;
	case 1: set_vop(u, d ? h_fabs_d : h_fabs_s, UOP_FP, w, 0); break;
	case 2: set_vop(u, d ? h_fneg_d : h_fneg_s, UOP_FP, w, 0); break;
	case 3: set_vop(u, d ? h_fsqrt_d : h_fsqrt_s, UOP_FDIV, w, 0); break;
	case 4:
		if (!d)
			return;
		set_vop(u, h_fcvt_ds, UOP_FP, w, 0);
		break;
	case 5:
		if (d)
			return;
		set_vop(u, h_fcvt_sd, UOP_FP, w, 0);
		break;
	case 16: case 17: case 18: case 19:     /* FRINT32Z, FRINT32X, FRINT64Z, FRINT64X */
		set_vop(u, d ? h_frintn_d : h_frintn_s, UOP_FP, w, 0);
		u->f1 = (opc & 1) ? FPR_FPCR : FPR_ZERO;
		u->f2 = (opc & 2) ? 64 : 32;
		break;
	case 8: case 9: case 10: case 11: case 12: case 14: case 15: {
		/* FRINTN, P, M, Z, A, -, X, I */
		static const uint8_t modes[8] = { FPR_NEAREST, FPR_UP, FPR_DOWN, FPR_ZERO, FPR_AWAY, 0,
						  FPR_FPCR, FPR_FPCR };
		set_vop(u, d ? h_frint_d : h_frint_s, UOP_FP, w, 0);
		u->f1 = modes[opc - 8];
		u->f2 = opc == 14;
		break;
	}
	default:
		return;
	}
	u->f0 = (uint8_t)type;
}

void isa_dec_fp_cmp(uint32_t w, struct uop *u)
{
	unsigned type = isa_bits(w, 23, 22), opc2 = isa_bits(w, 4, 0);
	if (type > 1 || isa_bits(w, 15, 14) != 0 || (opc2 & 7) != 0)
		return;
	isa_set(u, type ? h_fcmp_d : h_fcmp_s, UOP_FP);
	u->f0 = (uint8_t)type;
	u->f1 = (uint8_t)(((opc2 >> 3) & 1) | ((opc2 >> 4) << 1));
	u->rn = (uint8_t)isa_bits(w, 9, 5);
	u->rm = (uint8_t)isa_bits(w, 20, 16);
	isa_src_v(u, u->rn);
	if (!(u->f1 & 1))
		isa_src_v(u, u->rm);
	isa_dst_nzcv(u);
}

void isa_dec_fp_ccmp(uint32_t w, struct uop *u)
{
	unsigned type = isa_bits(w, 23, 22);
	if (type > 1)
		return;
	isa_set(u, type ? h_fccmp_d : h_fccmp_s, UOP_FP);
	u->f0 = (uint8_t)type;
	u->f1 = (uint8_t)(((w >> 4) & 1) << 1);
	u->rn = (uint8_t)isa_bits(w, 9, 5);
	u->rm = (uint8_t)isa_bits(w, 20, 16);
	u->imm = (int64_t)isa_bits(w, 3, 0) << 28;
	u->imm2 = isa_cond_mask(isa_bits(w, 15, 12));
	isa_src_v(u, u->rn);
	isa_src_v(u, u->rm);
	isa_src_nzcv(u);
	isa_dst_nzcv(u);
}

void isa_dec_fp_csel(uint32_t w, struct uop *u)
{
	unsigned type = isa_bits(w, 23, 22);
	if (type > 1)
		return;
	set_vop(u, h_fcsel, UOP_FP, w, 1);
	u->f0 = (uint8_t)type;
	u->imm2 = isa_cond_mask(isa_bits(w, 15, 12));
	isa_src_nzcv(u);
}

void isa_dec_fp_imm(uint32_t w, struct uop *u)
{
	unsigned type = isa_bits(w, 23, 22), imm8 = isa_bits(w, 20, 13);
	if (type > 1 || isa_bits(w, 9, 5) != 0)
		return;
	isa_set(u, h_fmov_imm, UOP_FP);
	u->f0 = (uint8_t)type;
	u->imm = type ? (int64_t)fpu_imm64(imm8) : (int64_t)fpu_imm32(imm8);
	u->rd = (uint8_t)isa_bits(w, 4, 0);
	isa_dst_v(u, u->rd);
}

static void set_to_int(struct uop *u, uint32_t w, unsigned type, int mode, int is_unsigned, int fbits)
{
	isa_set(u, type ? h_cvt_to_int_d : h_cvt_to_int_s, UOP_FP);
	u->f0 = (uint8_t)type;
	u->f1 = (uint8_t)mode;
	u->f2 = (uint8_t)is_unsigned;
	u->f3 = (uint8_t)((w >> 31) ? 64 : 32);
	u->imm = fbits;
	u->rn = (uint8_t)isa_bits(w, 9, 5);
	isa_src_v(u, u->rn);
	u->rd = isa_rsink(isa_bits(w, 4, 0));
	isa_dst(u, u->rd);
}

static void set_from_int(struct uop *u, uint32_t w, unsigned type, int is_signed, int fbits)
{
	isa_set(u, type ? h_cvt_from_int_d : h_cvt_from_int_s, UOP_FP);
	u->f0 = (uint8_t)type;
	u->f2 = (uint8_t)is_signed;
	u->f3 = (uint8_t)((w >> 31) ? 64 : 32);
	u->imm = fbits;
	u->rn = isa_rzr(isa_bits(w, 9, 5));
	isa_src(u, u->rn);
	u->rd = (uint8_t)isa_bits(w, 4, 0);
	isa_dst_v(u, u->rd);
}

void isa_dec_fp_int(uint32_t w, struct uop *u)
{
	unsigned sf = w >> 31, type = isa_bits(w, 23, 22), rmode = isa_bits(w, 20, 19);
	unsigned opc = isa_bits(w, 18, 16);
	if (opc >= 6) {                         /* FMOV general */
		int to_x = opc == 6, hi = 0;
		if (sf == 0 && type == 0 && rmode == 0)
			;
		else if (sf == 1 && type == 1 && rmode == 0)
			;
		else if (sf == 1 && type == 2 && rmode == 1)
			hi = 1;
		else if (sf == 0 && type == 1 && rmode == 3 && opc == 6) {
			isa_set(u, h_fjcvtzs, UOP_FP);          /* FJCVTZS */
			u->rn = (uint8_t)isa_bits(w, 9, 5);
			isa_src_v(u, u->rn);
			u->rd = isa_rsink(isa_bits(w, 4, 0));
			isa_dst(u, u->rd);
			isa_dst_nzcv(u);
			return;
		} else
			return;                 /* half precision */
		isa_set(u, to_x ? h_fmov_to_x : h_fmov_from_x, UOP_SIMD);
		u->f2 = (uint8_t)hi;
		u->f3 = (uint8_t)(sf ? 64 : 32);
		if (to_x) {
			u->rn = (uint8_t)isa_bits(w, 9, 5);
			isa_src_v(u, u->rn);
			u->rd = isa_rsink(isa_bits(w, 4, 0));
			isa_dst(u, u->rd);
		} else {
			u->rn = isa_rzr(isa_bits(w, 9, 5));
			isa_src(u, u->rn);
			u->rd = (uint8_t)isa_bits(w, 4, 0);
			if (hi)
				isa_src_v(u, u->rd);
			isa_dst_v(u, u->rd);
		}
		return;
	}
	if (type > 1)
		return;
	switch (opc) {
	case 0: case 1: {                       /* FCVT{N,P,M,Z}{S,U} */
		static const int modes[4] = { FPR_NEAREST, FPR_UP, FPR_DOWN, FPR_ZERO };
		set_to_int(u, w, type, modes[rmode], opc & 1, 0);
		break;
	}
	case 2: case 3:                         /* SCVTF, UCVTF */
		if (rmode != 0)
			return;
		set_from_int(u, w, type, opc == 2, 0);
		break;
	case 4: case 5:                         /* FCVTAS, FCVTAU */
		if (rmode != 0)
			return;
		set_to_int(u, w, type, FPR_AWAY, opc & 1, 0);
		break;
	}
}

void isa_dec_fp_fixed(uint32_t w, struct uop *u)
{
	unsigned sf = w >> 31, type = isa_bits(w, 23, 22), rmode = isa_bits(w, 20, 19);
	unsigned opc = isa_bits(w, 18, 16), scale = isa_bits(w, 15, 10);
	int fbits = 64 - (int)scale;
	if (type > 1 || (!sf && scale < 32))
		return;
	if (rmode == 3 && opc < 2)              /* FCVTZS, FCVTZU */
		set_to_int(u, w, type, FPR_ZERO, opc & 1, fbits);
	else if (rmode == 0 && (opc == 2 || opc == 3))
		set_from_int(u, w, type, opc == 2, fbits);
}
