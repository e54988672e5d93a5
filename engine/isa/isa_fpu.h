/*
 * isa_fpu.h — IEEE 754 arithmetic as the Arm architecture defines it, on
 * bit patterns (uint32_t single, uint64_t double), for the scalar FP
 * (isa_fp.c) and vector FP (isa_simd.c) handlers.
 *
 * Each function reads FPCR from the cpu (rounding mode, FZ, DN) and ORs
 * the exceptions it raises into FPSR. The correctly rounded arithmetic is
 * the host's (x86 SSE / IEEE 754); what the host does differently from Arm
 * is done here in software: NaN propagation (the first signalling NaN,
 * quieted, then the first quiet NaN, in operand order; the default NaN is
 * positive), underflow detected before rounding, flush-to-zero of inputs
 * (IDC) and outputs (UFC, no IXC), saturating conversions to integers.
 */
#ifndef IVX_ISA_FPU_H
#define IVX_ISA_FPU_H

#include <stdint.h>
#include "cpu.h"

/* Rounding modes as FPCR.RMode numbers them, plus ties-away (FCVTAS,
 * FRINTA) and "whatever FPCR says" (FRINTI, FRINTX, SCVTF). */
enum fpu_round { FPR_NEAREST = 0, FPR_UP = 1, FPR_DOWN = 2, FPR_ZERO = 3, FPR_AWAY = 4, FPR_FPCR = 5 };

enum fpu_binop { FPU_ADD, FPU_SUB, FPU_MUL, FPU_DIV, FPU_MIN, FPU_MAX, FPU_MINNM, FPU_MAXNM,
		 FPU_NMUL, FPU_ABD, FPU_BINOP_COUNT };

uint32_t fpu_binop32(struct cpu *c, int op, uint32_t a, uint32_t b);
uint64_t fpu_binop64(struct cpu *c, int op, uint64_t a, uint64_t b);

/* a + n * m with one rounding; neg_a / neg_n negate those operands first
 * (FMSUB: neg_n, FNMADD: both, FNMSUB: neg_a), NaNs included. */
uint32_t fpu_fma32(struct cpu *c, uint32_t a, uint32_t n, uint32_t m, int neg_a, int neg_n);
uint64_t fpu_fma64(struct cpu *c, uint64_t a, uint64_t n, uint64_t m, int neg_a, int neg_n);

uint32_t fpu_sqrt32(struct cpu *c, uint32_t a);
uint64_t fpu_sqrt64(struct cpu *c, uint64_t a);

/* FCMP/FCMPE: NZCV in bits 31..28. `signal`: any NaN raises IOC (FCMPE),
 * otherwise only a signalling one. */
uint64_t fpu_cmp32(struct cpu *c, uint32_t a, uint32_t b, int signal);
uint64_t fpu_cmp64(struct cpu *c, uint64_t a, uint64_t b, int signal);

/* Vector compares (FCMEQ/FCMGE/FCMGT): all ones or zero. */
enum fpu_cmpop { FPC_EQ, FPC_GE, FPC_GT };
uint32_t fpu_cmpv32(struct cpu *c, int op, uint32_t a, uint32_t b);
uint64_t fpu_cmpv64(struct cpu *c, int op, uint64_t a, uint64_t b);

/* Round to an integral value (FRINT*); `exact` raises IXC when it changes
 * the value (FRINTX). */
uint32_t fpu_rint32(struct cpu *c, uint32_t a, int mode, int exact);
uint64_t fpu_rint64(struct cpu *c, uint64_t a, int mode, int exact);

/* To a (u)int of `bits` (32 or 64) after scaling by 2^fbits, saturating
 * (IOC) on overflow and NaN. */
uint64_t fpu_to_int32(struct cpu *c, uint32_t a, int mode, int is_unsigned, int bits, int fbits);
uint64_t fpu_to_int64(struct cpu *c, uint64_t a, int mode, int is_unsigned, int bits, int fbits);

/* From a (u)int of `bits`, divided by 2^fbits, rounded per FPCR. */
uint32_t fpu_from_int32(struct cpu *c, uint64_t v, int is_signed, int bits, int fbits);
uint64_t fpu_from_int64(struct cpu *c, uint64_t v, int is_signed, int bits, int fbits);

/* FCVT between single and double. */
uint64_t fpu_s_to_d(struct cpu *c, uint32_t a);
uint32_t fpu_d_to_s(struct cpu *c, uint64_t a);

/* FRINT32Z/X, FRINT64Z/X (mode FPR_ZERO or FPR_FPCR, intsize 32 or 64). */
uint32_t fpu_rintn32(struct cpu *c, uint32_t a, int mode, int intsize);
uint64_t fpu_rintn64(struct cpu *c, uint64_t a, int mode, int intsize);

/* FJCVTZS: the W result; *z = exact and in range. */
uint32_t fpu_fjcvtzs(struct cpu *c, uint64_t a, int *z);

/* Half precision <-> single / double (isa_fpu_half.c): FPCR rounding,
 * AHP and DN; FZ flushes the single or double side only. */
uint32_t fpu_h_to_s(struct cpu *c, uint16_t h);
uint64_t fpu_h_to_d(struct cpu *c, uint16_t h);
uint16_t fpu_s_to_h(struct cpu *c, uint32_t a);
uint16_t fpu_d_to_h(struct cpu *c, uint64_t a);

/* FCVTXN: double to single, rounding to odd. */
uint32_t fpu_d_to_s_odd(struct cpu *c, uint64_t a);

/* FMULX (infinity times zero is +-2.0), FRECPS (2 - a*b), FRSQRTS
 * ((3 - a*b) / 2), each rounded once. */
uint32_t fpu_mulx32(struct cpu *c, uint32_t a, uint32_t b);
uint64_t fpu_mulx64(struct cpu *c, uint64_t a, uint64_t b);
uint32_t fpu_recps32(struct cpu *c, uint32_t a, uint32_t b);
uint64_t fpu_recps64(struct cpu *c, uint64_t a, uint64_t b);
uint32_t fpu_rsqrts32(struct cpu *c, uint32_t a, uint32_t b);
uint64_t fpu_rsqrts64(struct cpu *c, uint64_t a, uint64_t b);

/* The architecture's 8-bit estimates (FRECPE, FRSQRTE), FRECPX, and the
 * unsigned fixed-point estimates (URECPE, URSQRTE) with their integer
 * kernels RecipEstimate (a in 256..511) and RecipSqrtEstimate (128..511). */
uint32_t fpu_recpe32(struct cpu *c, uint32_t a);
uint64_t fpu_recpe64(struct cpu *c, uint64_t a);
uint32_t fpu_rsqrte32(struct cpu *c, uint32_t a);
uint64_t fpu_rsqrte64(struct cpu *c, uint64_t a);
uint32_t fpu_recpx32(struct cpu *c, uint32_t a);
uint64_t fpu_recpx64(struct cpu *c, uint64_t a);
uint32_t fpu_urecpe(uint32_t a);
uint32_t fpu_ursqrte(uint32_t a);
unsigned fpu_recip_estimate(unsigned a);
unsigned fpu_rsqrt_estimate(unsigned a);

/* The 8-bit FMOV immediate expanded to single / double. */
uint32_t fpu_imm32(unsigned imm8);
uint64_t fpu_imm64(unsigned imm8);

#endif
