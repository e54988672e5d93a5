/*
 * isa_simd.h — what the Advanced SIMD files (isa_simd.c, isa_simd_misc.c,
 * isa_simd_move.c, isa_simd_sat.c, isa_simd_fpe.c, isa_simd_crypto.c) share: lane access on
 * a 128-bit register, writing a result that clears the bytes above it,
 * saturation setting FPSR.QC, and the common operand setup of a SIMD uop.
 *
 * isa_simd.c decodes first (with isa_simd_misc.c for two-register misc,
 * across lanes and shift by immediate, isa_simd_move.c for copy, permute,
 * EXT, TBL and modified immediate); a word it leaves unsupported is offered to
 * isa_simd_sat.c (saturating, rounding and polynomial integer forms), then
 * to isa_simd_fpe.c (FP estimates, steps, FMULX, FCVTXN, FRINT32/64, half
 * conversions), then to isa_simd_crypto.c (AES, SHA, dot product).
 */
#ifndef IVX_ISA_SIMD_H
#define IVX_ISA_SIMD_H

#include <string.h>
#include "isa_internal.h"
#include "isa_fpu.h"

typedef union cpu_vreg vreg;

static inline uint64_t lget(const vreg *v, unsigned es, unsigned i)
{
	switch (es) {
	case 0: return v->b[i];
	case 1: return v->h[i];
	case 2: return v->s[i];
	default: return v->d[i];
	}
}

static inline int64_t lgets(const vreg *v, unsigned es, unsigned i)
{
	switch (es) {
	case 0: return v->sb[i];
	case 1: return v->sh[i];
	case 2: return v->ss[i];
	default: return v->sd[i];
	}
}

static inline void lset(vreg *v, unsigned es, unsigned i, uint64_t x)
{
	switch (es) {
	case 0: v->b[i] = (uint8_t)x; break;
	case 1: v->h[i] = (uint16_t)x; break;
	case 2: v->s[i] = (uint32_t)x; break;
	default: v->d[i] = x; break;
	}
}

/* Write a result of `bytes` bytes: the rest of the register becomes zero. */
static inline void vput(struct cpu *c, unsigned rd, vreg *r, unsigned bytes)
{
	if (bytes < 16)
		memset(r->b + bytes, 0, 16 - bytes);
	c->v[rd] = *r;
}

static inline uint64_t emask(unsigned es)
{
	return es == 3 ? ~0ull : (1ull << (8u << es)) - 1;
}

static inline int64_t smax_of(unsigned es) { return (int64_t)(emask(es) >> 1); }
static inline int64_t smin_of(unsigned es) { return -smax_of(es) - 1; }

/* Signed saturation of x to an element of es, setting QC when it clips. */
static inline uint64_t sat_s(struct cpu *c, __int128 x, unsigned es)
{
	if (x > smax_of(es)) {
		c->fpsr |= FPSR_QC;
		return (uint64_t)smax_of(es);
	}
	if (x < smin_of(es)) {
		c->fpsr |= FPSR_QC;
		return (uint64_t)smin_of(es);
	}
	return (uint64_t)(int64_t)x;
}

static inline uint64_t sat_u(struct cpu *c, __int128 x, unsigned es)
{
	if (x > (__int128)emask(es)) {
		c->fpsr |= FPSR_QC;
		return emask(es);
	}
	if (x < 0) {
		c->fpsr |= FPSR_QC;
		return 0;
	}
	return (uint64_t)x;
}

/* Operand setup: rd, rn, rm from their usual fields; rn always read, rm
 * when has_m, rd when the operation accumulates or keeps part of it. */
static inline void set_simd(struct uop *u, uint32_t w, uop_exec_fn fn, int cls, int has_m, int reads_d)
{
	isa_set(u, fn, cls);
	u->rd = (uint8_t)isa_bits(w, 4, 0);
	u->rn = (uint8_t)isa_bits(w, 9, 5);
	u->rm = (uint8_t)isa_bits(w, 20, 16);
	isa_src_v(u, u->rn);
	if (has_m)
		isa_src_v(u, u->rm);
	if (reads_d)
		isa_src_v(u, u->rd);
	isa_dst_v(u, u->rd);
}

/* The vector FP binary operations of isa_simd.c (op: F_*), shared by the
 * groups in the other files. */
enum {
	F_ADD, F_SUB, F_MUL, F_DIV, F_MAX, F_MIN, F_MAXNM, F_MINNM, F_ABD, F_MLA, F_MLS,
	F_CMEQ, F_CMGE, F_CMGT, F_ACGE, F_ACGT,
};
uint64_t isa_simd_fp_op(struct cpu *c, int op, int dbl, uint64_t a, uint64_t b, uint64_t d);

/* isa_simd_misc.c: two-register misc, across lanes, shift by immediate */
void isa_simd_dec_misc(uint32_t w, struct uop *u, int scalar);
void isa_simd_dec_across(uint32_t w, struct uop *u);
void isa_simd_dec_shift(uint32_t w, struct uop *u, int scalar);

/* isa_simd_move.c: the data-movement groups of isa_simd.c's decoder */
void isa_simd_dec_copy(uint32_t w, struct uop *u, int scalar);
void isa_simd_dec_perm(uint32_t w, struct uop *u);
void isa_simd_dec_modimm(uint32_t w, struct uop *u);

void isa_dec_simd_sat(uint32_t w, struct uop *u);
void isa_dec_simd_fpe(uint32_t w, struct uop *u);
void isa_dec_simd_crypto(uint32_t w, struct uop *u);

#endif
