/*
 * isa_internal.h — what the isa*.c files share, and nothing else does.
 *
 * The A64 integer set is split by encoding group: isa_dpi.c (data
 * processing, immediate), isa_dpr.c (data processing, register), isa_ls.c
 * (loads and stores), isa_muldiv.c (multiply, divide, variable shifts,
 * CRC32), isa_br.c (branches, exceptions, system). Each file
 * exports one decoder per encoding class; isa.c holds the table that maps
 * (mask, match) to those decoders.
 *
 * A decoder receives a uop that isa_decode has already zeroed and marked
 * unsupported (pc and word set). It either fills in exec, op_class, operands
 * and dependences, or leaves the uop unsupported for an unallocated or
 * unimplemented sub-encoding.
 *
 * The helpers below do the fiddly, repeated parts once: register-31
 * resolution, dependence lists, condition codes and flag arithmetic.
 */
#ifndef IVX_ISA_INTERNAL_H
#define IVX_ISA_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "cpu.h"
#include "uop.h"

typedef void (*isa_decode_fn)(uint32_t word, struct uop *u);

/* Bits hi..lo of w (hi - lo < 31). */
static inline uint32_t isa_bits(uint32_t w, int hi, int lo)
{
	return (w >> lo) & ((1u << (hi - lo + 1)) - 1);
}

/* Sign-extend the low `width` bits of v. */
static inline int64_t isa_sext(uint64_t v, int width)
{
	return (int64_t)(v << (64 - width)) >> (64 - width);
}

/* Register field n as an operand index: 31 is SP, the zero register (read)
 * or the write sink, as the encoding says. CPU_SP == 31, so the SP form is
 * the field itself. */
static inline uint8_t isa_rzr(uint32_t n) { return n == 31 ? CPU_ZR : (uint8_t)n; }
static inline uint8_t isa_rsink(uint32_t n) { return n == 31 ? CPU_ZR_SINK : (uint8_t)n; }
static inline uint8_t isa_rsp(uint32_t n) { return (uint8_t)n; }

/* Dependences: operand indices 0..31 are exactly REG_X(0..30) and REG_SP;
 * the zero register and the sink are no dependence at all. */
static inline void isa_src(struct uop *u, uint8_t idx)
{
	if (idx <= CPU_SP)
		u->src[u->n_src++] = idx;
}

static inline void isa_dst(struct uop *u, uint8_t idx)
{
	if (idx <= CPU_SP)
		u->dst[u->n_dst++] = idx;
}

/* SIMD&FP register n (0..31) as a dependence. Lists that are full drop the
 * extra registers (see uop.h). */
static inline void isa_src_v(struct uop *u, unsigned n)
{
	if (u->n_src < sizeof u->src)
		u->src[u->n_src++] = REG_V(n & 31);
}

static inline void isa_dst_v(struct uop *u, unsigned n)
{
	if (u->n_dst < sizeof u->dst)
		u->dst[u->n_dst++] = REG_V(n & 31);
}

/* A pre- or post-indexed access's base register, written back. */
static inline void isa_dst_wb(struct uop *u)
{
	isa_dst(u, u->rn);
	u->wb_base = (uint8_t)(u->rn + 1);
}

static inline void isa_src_nzcv(struct uop *u) { u->src[u->n_src++] = REG_NZCV; }
static inline void isa_dst_nzcv(struct uop *u) { u->dst[u->n_dst++] = REG_NZCV; }

/* Set handler and class in one go. */
static inline void isa_set(struct uop *u, uop_exec_fn fn, int op_class)
{
	u->exec = fn;
	u->op_class = (uint8_t)op_class;
}

/* The uop for an encoding we do not implement (isa.c). */
void isa_set_unsupported(struct uop *u);

/*
 * Condition codes. isa_cond_mask(cond) is a 16-bit set of the NZCV nibbles
 * for which `cond` holds, computed at decode; at run time the test is a
 * shift and an AND. c->nzcv only ever holds bits 31..28, so nzcv >> 28 is
 * the nibble.
 */
uint16_t isa_cond_mask(unsigned cond);

static inline int isa_cond_pass(uint64_t nzcv, uint64_t mask)
{
	return (int)((mask >> (nzcv >> 28)) & 1);
}

/* Flag arithmetic, returning NZCV in bits 31..28. */
static inline uint64_t isa_nz64(uint64_t r)
{
	return ((r >> 63) << 31) | ((uint64_t)(r == 0) << 30);
}

static inline uint64_t isa_nz32(uint32_t r)
{
	return ((uint64_t)(r >> 31) << 31) | ((uint64_t)(r == 0) << 30);
}

/* a + b + cin, 64-bit: *res gets the sum, the return value the flags. */
static inline uint64_t isa_addc64(uint64_t a, uint64_t b, uint64_t cin, uint64_t *res)
{
	uint64_t t, r;
	uint64_t c = (uint64_t)__builtin_add_overflow(a, b, &t);
	c |= (uint64_t)__builtin_add_overflow(t, cin, &r);
	uint64_t v = ((a ^ r) & (b ^ r)) >> 63;
	*res = r;
	return isa_nz64(r) | (c << 29) | (v << 28);
}

/* a + b + cin, 32-bit (inputs already truncated to 32 bits). */
static inline uint64_t isa_addc32(uint32_t a, uint32_t b, uint64_t cin, uint64_t *res)
{
	uint64_t wide = (uint64_t)a + b + cin;
	uint32_t r = (uint32_t)wide;
	uint64_t v = (uint64_t)(((a ^ r) & (b ^ r)) >> 31);
	*res = r;
	return isa_nz32(r) | ((wide >> 32) << 29) | (v << 28);
}

/* The logical-immediate bit pattern for (N, imms, immr) at `datasize` bits
 * (DecodeBitMasks with immediate = TRUE). Returns 0 for a reserved
 * combination (a valid mask is never 0), else the mask in *wmask. */
int isa_decode_bit_masks(unsigned n, unsigned imms, unsigned immr, unsigned datasize,
			 uint64_t *wmask);

/* Decoders, one per encoding class (see the table in isa.c). */
/* isa_dpi.c */
void isa_dec_pcrel(uint32_t w, struct uop *u);
void isa_dec_addsub_imm(uint32_t w, struct uop *u);
void isa_dec_logic_imm(uint32_t w, struct uop *u);
void isa_dec_movw(uint32_t w, struct uop *u);
void isa_dec_bitfield(uint32_t w, struct uop *u);
void isa_dec_extr(uint32_t w, struct uop *u);
/* isa_dpr.c */
void isa_dec_logic_reg(uint32_t w, struct uop *u);
void isa_dec_addsub_shift(uint32_t w, struct uop *u);
void isa_dec_addsub_ext(uint32_t w, struct uop *u);
void isa_dec_adc(uint32_t w, struct uop *u);
void isa_dec_ccmp(uint32_t w, struct uop *u);
void isa_dec_csel(uint32_t w, struct uop *u);
void isa_dec_dp1(uint32_t w, struct uop *u);
void isa_dec_dp2(uint32_t w, struct uop *u);
void isa_dec_dp3(uint32_t w, struct uop *u);
/* isa_ls.c */
void isa_dec_ld_lit(uint32_t w, struct uop *u);
void isa_dec_ldst_excl(uint32_t w, struct uop *u);
void isa_dec_ldapr(uint32_t w, struct uop *u);
void isa_dec_ldst_pair(uint32_t w, struct uop *u);
void isa_dec_ldst_imm9(uint32_t w, struct uop *u);
void isa_dec_ldst_reg(uint32_t w, struct uop *u);
void isa_dec_ldst_uimm(uint32_t w, struct uop *u);
/* isa_br.c */
void isa_dec_b(uint32_t w, struct uop *u);
void isa_dec_bcond(uint32_t w, struct uop *u);
void isa_dec_cb(uint32_t w, struct uop *u);
void isa_dec_tb(uint32_t w, struct uop *u);
void isa_dec_br_reg(uint32_t w, struct uop *u);
void isa_dec_exception(uint32_t w, struct uop *u);
void isa_dec_udf(uint32_t w, struct uop *u);
void isa_dec_hint(uint32_t w, struct uop *u);
void isa_dec_barrier(uint32_t w, struct uop *u);
void isa_dec_sysreg(uint32_t w, struct uop *u);
void isa_dec_sys(uint32_t w, struct uop *u);
/* isa_fpls.c */
void isa_dec_fp_ld_lit(uint32_t w, struct uop *u);
void isa_dec_fp_ldst_pair(uint32_t w, struct uop *u);
void isa_dec_fp_ldst_uimm(uint32_t w, struct uop *u);
void isa_dec_fp_ldst_imm9(uint32_t w, struct uop *u);
void isa_dec_fp_ldst_reg(uint32_t w, struct uop *u);
void isa_dec_simd_ldst_multi(uint32_t w, struct uop *u);
void isa_dec_simd_ldst_single(uint32_t w, struct uop *u);
/* isa_fp.c */
void isa_dec_fp_dp1(uint32_t w, struct uop *u);
void isa_dec_fp_dp2(uint32_t w, struct uop *u);
void isa_dec_fp_dp3(uint32_t w, struct uop *u);
void isa_dec_fp_cmp(uint32_t w, struct uop *u);
void isa_dec_fp_ccmp(uint32_t w, struct uop *u);
void isa_dec_fp_csel(uint32_t w, struct uop *u);
void isa_dec_fp_imm(uint32_t w, struct uop *u);
void isa_dec_fp_int(uint32_t w, struct uop *u);
void isa_dec_fp_fixed(uint32_t w, struct uop *u);
/* isa_simd.c */
void isa_dec_simd(uint32_t w, struct uop *u);
/* isa_simd_sha3.c */
void isa_dec_simd_sha3(uint32_t w, struct uop *u);
/* isa_atomic.c */
void isa_dec_atomic(uint32_t w, struct uop *u);
void isa_dec_cas(uint32_t w, struct uop *u);

#endif
