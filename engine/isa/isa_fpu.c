/*
 * isa_fpu.c — Arm floating-point arithmetic on top of the host's IEEE 754
 * unit (see isa_fpu.h for what is done in software and why).
 *
 * Every host operation runs between host_begin and host_end, which install
 * the guest's rounding mode with all exceptions masked and the flags clear,
 * then collect the flags and restore the host's own state, so the
 * simulator's FP code never sees the guest's rounding mode. FPU_OPAQUE
 * pins the operands and result between the two: the compiler may not move
 * the arithmetic across them or fold it at build time.
 */
#define _GNU_SOURCE             /* roundeven */
#include <math.h>
#include <string.h>
#include "isa_fpu.h"

#if defined(__x86_64__)
static inline uint32_t host_begin(int rmode)
{
	/* MXCSR rounding control: 0 nearest, 1 down, 2 up, 3 zero */
	static const uint32_t rc[4] = { 0, 2u << 13, 1u << 13, 3u << 13 };
	uint32_t saved, csr = 0x1f80u | rc[rmode & 3];
	__asm__ volatile("stmxcsr %0" : "=m"(saved));
	__asm__ volatile("ldmxcsr %0" : : "m"(csr));
	return saved;
}

static inline uint32_t host_end(uint32_t saved)
{
	uint32_t m, f = 0;
	__asm__ volatile("stmxcsr %0" : "=m"(m));
	__asm__ volatile("ldmxcsr %0" : : "m"(saved));
	if (m & 0x01) f |= FPSR_IOC;
	if (m & 0x04) f |= FPSR_DZC;
	if (m & 0x08) f |= FPSR_OFC;
	if (m & 0x10) f |= FPSR_UFC;
	if (m & 0x20) f |= FPSR_IXC;
	return f;
}
#define FPU_OPAQUE(v) __asm__ volatile("" : "+x"(v))
#define FPU_OPAQUE_I(v) __asm__ volatile("" : "+r"(v))
#else
#include <fenv.h>
#pragma STDC FENV_ACCESS ON
static inline uint32_t host_begin(int rmode)
{
	static const int fe[4] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };
	uint32_t saved = (uint32_t)fegetround();
	fesetround(fe[rmode & 3]);
	feclearexcept(FE_ALL_EXCEPT);
	return saved;
}

static inline uint32_t host_end(uint32_t saved)
{
	int m = fetestexcept(FE_ALL_EXCEPT);
	uint32_t f = 0;
	if (m & FE_INVALID) f |= FPSR_IOC;
	if (m & FE_DIVBYZERO) f |= FPSR_DZC;
	if (m & FE_OVERFLOW) f |= FPSR_OFC;
	if (m & FE_UNDERFLOW) f |= FPSR_UFC;
	if (m & FE_INEXACT) f |= FPSR_IXC;
	feclearexcept(FE_ALL_EXCEPT);
	fesetround((int)saved);
	return f;
}
#define FPU_OPAQUE(v) __asm__ volatile("" : "+m"(v))
#define FPU_OPAQUE_I(v) __asm__ volatile("" : "+m"(v))
#endif

enum { HOP_ADD, HOP_SUB, HOP_MUL, HOP_DIV, HOP_SQRT, HOP_FMA };

/* The architecture's RecipEstimate: a in 256..511 (0.5 <= x < 1 in
 * units of 2^-9), the reciprocal in 256..511 rounded to nearest. */
unsigned fpu_recip_estimate(unsigned a)
{
	a = a * 2 + 1;
	unsigned b = (1u << 19) / a;
	return (b + 1) / 2;
}

/* RecipSqrtEstimate: a in 128..511 (0.25 <= x < 1 in units of 2^-9); b is
 * the largest integer with a * b^2 below 2^28 found from 512 up, as the
 * pseudocode's loop does (started from the square root, not from 512). */
unsigned fpu_rsqrt_estimate(unsigned a)
{
	if (a < 256) {
		a = a * 2 + 1;
	} else {
		a = (a >> 1) << 1;
		a = (a + 1) * 2;
	}
	uint64_t b = (uint64_t)sqrt((double)(1u << 28) / a);
	if (b > 2)
		b -= 2;
	if (b < 512)
		b = 512;
	while ((uint64_t)a * (b + 1) * (b + 1) < (1ull << 28))
		b++;
	return (unsigned)(b + 1) / 2;
}

#define W 32
#define T_U uint32_t
#define T_F float
#define T_SIGN 0x80000000u
#define T_EXP 0x7f800000u
#define T_QBIT 0x00400000u
#define T_DNAN 0x7fc00000u
#define T_MINN 0x00800000u
#define T_SQRT sqrtf
#define T_FMA fmaf
#define T_FBITS 23
#define T_BIAS 127
#include "isa_fpu_tmpl.h"
#include "isa_fpu_est_tmpl.h"
#undef W
#undef T_U
#undef T_F
#undef T_SIGN
#undef T_EXP
#undef T_QBIT
#undef T_DNAN
#undef T_MINN
#undef T_SQRT
#undef T_FMA
#undef T_FBITS
#undef T_BIAS

#define W 64
#define T_U uint64_t
#define T_F double
#define T_SIGN 0x8000000000000000ull
#define T_EXP 0x7ff0000000000000ull
#define T_QBIT 0x0008000000000000ull
#define T_DNAN 0x7ff8000000000000ull
#define T_MINN 0x0010000000000000ull
#define T_SQRT sqrt
#define T_FMA fma
#define T_FBITS 52
#define T_BIAS 1023
#include "isa_fpu_tmpl.h"
#include "isa_fpu_est_tmpl.h"

uint64_t fpu_s_to_d(struct cpu *c, uint32_t a)
{
	uint32_t fl = 0;
	uint64_t r;
	a = ftz32(c, a, &fl);
	if (isnan32(a)) {
		if (issnan32(a))
			fl |= FPSR_IOC;
		r = (c->fpcr & FPCR_DN) ? 0x7ff8000000000000ull :
		    ((uint64_t)(a >> 31) << 63) | 0x7ff8000000000000ull | ((uint64_t)(a & 0x3fffff) << 29);
	} else {
		r = tou64((double)tof32(a));    /* exact */
	}
	c->fpsr |= fl;
	return r;
}

static uint32_t d_to_s_host(uint64_t a, int rm, uint32_t *fl)
{
	double x = tof64(a);
	uint32_t saved = host_begin(rm);
	FPU_OPAQUE(x);
	float r = (float)x;
	FPU_OPAQUE(r);
	*fl |= host_end(saved);
	return tou32(r);
}

uint32_t fpu_d_to_s(struct cpu *c, uint64_t a)
{
	uint32_t fl = 0, r;
	a = ftz64(c, a, &fl);
	if (isnan64(a)) {
		if (issnan64(a))
			fl |= FPSR_IOC;
		r = (c->fpcr & FPCR_DN) ? 0x7fc00000u :
		    ((uint32_t)(a >> 63) << 31) | 0x7fc00000u | (uint32_t)((a >> 29) & 0x3fffff);
	} else {
		r = d_to_s_host(a, rmode32(c), &fl);
		uint32_t mag = r & 0x7fffffffu;
		int tiny = (fl & FPSR_UFC) || (mag < 0x00800000u && mag != 0);
		if (mag == 0x00800000u && (fl & FPSR_IXC)) {
			uint32_t f2 = 0;
			if ((d_to_s_host(a, FPR_ZERO, &f2) & 0x7fffffffu) < 0x00800000u) {
				tiny = 1;
				fl |= FPSR_UFC;
			}
		}
		if (tiny && (c->fpcr & FPCR_FZ)) {
			fl = (fl & ~FPSR_IXC) | FPSR_UFC;
			r &= 0x80000000u;
		}
	}
	c->fpsr |= fl;
	return r;
}

/* FCVTXN: double to single rounding to odd (truncate, then set the lowest
 * bit if anything was lost), so a later rounding to a narrower format is
 * not a double rounding. Towards zero, "tiny after rounding" is "tiny
 * before", so the host's flags serve. */
uint32_t fpu_d_to_s_odd(struct cpu *c, uint64_t a)
{
	uint32_t fl = 0, r;
	a = ftz64(c, a, &fl);
	if (isnan64(a)) {
		c->fpsr |= fl;
		return fpu_d_to_s(c, a);
	}
	r = d_to_s_host(a, FPR_ZERO, &fl);
	if ((fl & FPSR_IXC) && !isinf32(r))
		r |= 1;
	uint32_t mag = r & 0x7fffffffu;
	if ((c->fpcr & FPCR_FZ) && mag != 0 && mag < 0x00800000u) {
		fl = (fl & ~FPSR_IXC) | FPSR_UFC;
		r &= 0x80000000u;
	}
	c->fpsr |= fl;
	return r;
}

/* FJCVTZS: double to int32 as JavaScript's ToInt32 (towards zero, modulo
 * 2^32); *z is set when the conversion was exact and in range (it
 * becomes PSTATE.Z), else IOC (out of range, NaN, infinity) or IXC. */
uint32_t fpu_fjcvtzs(struct cpu *c, uint64_t a, int *z)
{
	uint32_t fl = 0, r = 0;
	uint64_t fa = ftz64(c, a, &fl);
	*z = 1;
	if (isnan64(fa) || isinf64(fa)) {
		fl |= FPSR_IOC;
		*z = 0;
	} else {
		double x = tof64(fa), t = trunc(x), m = fmod(t, 4294967296.0);
		if (m < 0)
			m += 4294967296.0;      /* exact: integers below 2^53 */
		r = (uint32_t)m;
		if (t < -2147483648.0 || t > 2147483647.0) {
			fl |= FPSR_IOC;
			*z = 0;
		} else if (t != x) {
			fl |= FPSR_IXC;
			*z = 0;
		} else if (x == 0 && ((fa >> 63) || (a & 0x000fffffffffffffull))) {
			*z = 0;                 /* -0, or a denormal flushed to +0 */
		}
	}
	c->fpsr |= fl;
	return r;
}

/* URECPE / URSQRTE: the FP estimate kernels on a 32-bit fixed-point
 * fraction; inputs below 0.5 (0.25) give all ones. */
uint32_t fpu_urecpe(uint32_t a)
{
	if (!(a >> 31))
		return 0xffffffffu;
	return fpu_recip_estimate(a >> 23) << 23;
}

uint32_t fpu_ursqrte(uint32_t a)
{
	if (!(a >> 30))
		return 0xffffffffu;
	return fpu_rsqrt_estimate(a >> 23) << 23;
}

uint32_t fpu_imm32(unsigned imm8)
{
	uint32_t a = (imm8 >> 7) & 1, b = (imm8 >> 6) & 1, cd = (imm8 >> 4) & 3, efgh = imm8 & 15;
	uint32_t exp = b ? (0x7cu | cd) : (0x80u | cd);
	return (a << 31) | (exp << 23) | (efgh << 19);
}

uint64_t fpu_imm64(unsigned imm8)
{
	uint64_t a = (imm8 >> 7) & 1, b = (imm8 >> 6) & 1, cd = (imm8 >> 4) & 3, efgh = imm8 & 15;
	uint64_t exp = b ? (0x3fcu | cd) : (0x400u | cd);
	return (a << 63) | (exp << 52) | (efgh << 48);
}
