/*
 * isa_fpu_half.c — conversions between half precision and single/double
 * (FCVT with an H operand, FCVTL/FCVTN with 16-bit lanes), in software:
 * the host has no portable half type, and Arm's alternative half
 * precision (FPCR.AHP: no infinities or NaNs, one more binade) is not
 * IEEE's anyway.
 *
 * As the architecture's FPConvert: a single or double input is flushed
 * by FPCR.FZ (IDC); a half input or output is never flushed (FZ16 does
 * not apply to conversions); rounding is FPCR's; with AHP a NaN becomes
 * zero and an infinity or an overflow the largest value, each with IOC
 * instead of the IEEE flags.
 */
#include <math.h>
#include <string.h>
#include "isa_fpu.h"

/* A half's value as a double (exact), NaNs and infinities included. */
static uint64_t half_to_double_bits(struct cpu *c, uint16_t h, uint32_t *fl)
{
	uint64_t sign = (uint64_t)(h >> 15) << 63;
	unsigned e = (h >> 10) & 31, f = h & 0x3ff;
	int ahp = (c->fpcr & FPCR_AHP) != 0;
	if (e == 31 && !ahp) {
		if (!f)
			return sign | 0x7ff0000000000000ull;
		if (!(f & 0x200))
			*fl |= FPSR_IOC;
		if (c->fpcr & FPCR_DN)
			return 0x7ff8000000000000ull;
		return sign | 0x7ff8000000000000ull | ((uint64_t)(f & 0x1ff) << 42);
	}
	double v = e ? ldexp((double)(f | 0x400), (int)e - 25) : ldexp((double)f, -24);
	uint64_t r;
	memcpy(&r, &v, sizeof r);
	return sign | r;
}

uint32_t fpu_h_to_s(struct cpu *c, uint16_t h)
{
	uint32_t fl = 0;
	uint64_t d = half_to_double_bits(c, h, &fl);
	uint32_t r;
	if ((d & ~(1ull << 63)) > 0x7ff0000000000000ull) {     /* NaN: keep the top payload bits */
		r = (uint32_t)(d >> 63) << 31 | 0x7fc00000u | (uint32_t)((d >> 29) & 0x3fffff);
	} else {
		double v;
		memcpy(&v, &d, sizeof v);
		float f = (float)v;             /* exact */
		memcpy(&r, &f, sizeof r);
	}
	c->fpsr |= fl;
	return r;
}

uint64_t fpu_h_to_d(struct cpu *c, uint16_t h)
{
	uint32_t fl = 0;
	uint64_t d = half_to_double_bits(c, h, &fl);
	c->fpsr |= fl;
	return d;
}

/* Round the double `a` (not a NaN) to half precision. */
static uint16_t double_to_half(struct cpu *c, uint64_t a, uint32_t *fl)
{
	uint16_t sign = (uint16_t)((a >> 48) & 0x8000);
	uint64_t mag = a & ~(1ull << 63);
	int ahp = (c->fpcr & FPCR_AHP) != 0;
	int rm = (int)((c->fpcr >> FPCR_RMODE_SHIFT) & 3);
	if (mag == 0x7ff0000000000000ull) {
		if (ahp) {
			*fl |= FPSR_IOC;
			return sign | 0x7fff;
		}
		return sign | 0x7c00;
	}
	if (mag == 0)
		return sign;
	int e = (int)(mag >> 52);
	uint64_t m = mag & ((1ull << 52) - 1);
	if (e == 0) {                           /* double denormal: normalise */
		e = 1;
		while (!(m >> 52)) {
			m <<= 1;
			e--;
		}
	} else {
		m |= 1ull << 52;
	}
	int ue = e - 1023;                      /* value = m * 2^(ue - 52), 2^52 <= m < 2^53 */
	int shift = ue >= -14 ? 42 : 42 + (-14 - ue);
	uint64_t q, rem, halfway;
	if (shift > 60) {                       /* far below the smallest denormal */
		q = 0;
		rem = 1;
		halfway = 4;
	} else {
		q = m >> shift;
		rem = m & ((1ull << shift) - 1);
		halfway = 1ull << (shift - 1);
	}
	int up;
	switch (rm) {
	case FPR_NEAREST: up = rem > halfway || (rem == halfway && (q & 1)); break;
	case FPR_UP: up = rem && !sign; break;
	case FPR_DOWN: up = rem && sign; break;
	default: up = 0; break;
	}
	q += (uint64_t)up;
	uint64_t enc = ue >= -14 ? ((uint64_t)(ue + 15) << 10) + q - 0x400 : q;
	if (ahp ? enc > 0x7fff : enc >= 0x7c00) {
		if (ahp) {
			*fl |= FPSR_IOC;
			return sign | 0x7fff;
		}
		int to_inf = rm == FPR_NEAREST || (rm == FPR_UP && !sign) || (rm == FPR_DOWN && sign);
		*fl |= FPSR_OFC | FPSR_IXC;
		return sign | (to_inf ? 0x7c00 : 0x7bff);
	}
	if (rem) {
		*fl |= FPSR_IXC;
		if (ue < -14)
			*fl |= FPSR_UFC;        /* tiny before rounding, and inexact */
	}
	return (uint16_t)(sign | enc);
}

/* A single or double NaN to half: zero with IOC under AHP, else the
 * default NaN (DN) or the quieted NaN with its top payload bits. */
static uint16_t nan_to_half(struct cpu *c, unsigned sign, int snan, uint64_t top9, uint32_t *fl)
{
	if (snan || (c->fpcr & FPCR_AHP))
		*fl |= FPSR_IOC;
	if (c->fpcr & FPCR_AHP)
		return (uint16_t)(sign << 15);
	if (c->fpcr & FPCR_DN)
		return 0x7e00;
	return (uint16_t)((sign << 15) | 0x7e00 | (top9 & 0x1ff));
}

uint16_t fpu_d_to_h(struct cpu *c, uint64_t a)
{
	uint32_t fl = 0;
	uint16_t r;
	if ((c->fpcr & FPCR_FZ) && !(a & 0x7ff0000000000000ull) && (a & ~(1ull << 63))) {
		fl |= FPSR_IDC;
		a &= 1ull << 63;
	}
	if ((a & ~(1ull << 63)) > 0x7ff0000000000000ull)
		r = nan_to_half(c, (unsigned)(a >> 63), !(a & 0x0008000000000000ull), a >> 42, &fl);
	else
		r = double_to_half(c, a, &fl);
	c->fpsr |= fl;
	return r;
}

uint16_t fpu_s_to_h(struct cpu *c, uint32_t a)
{
	uint32_t fl = 0;
	uint16_t r;
	if ((c->fpcr & FPCR_FZ) && !(a & 0x7f800000u) && (a & 0x7fffffffu)) {
		fl |= FPSR_IDC;
		a &= 0x80000000u;
	}
	if ((a & 0x7fffffffu) > 0x7f800000u) {
		r = nan_to_half(c, a >> 31, !(a & 0x00400000u), a >> 13, &fl);
	} else {
		float f;
		memcpy(&f, &a, sizeof f);
		double v = (double)f;           /* exact */
		uint64_t d;
		memcpy(&d, &v, sizeof d);
		r = double_to_half(c, d, &fl);
	}
	c->fpsr |= fl;
	return r;
}
