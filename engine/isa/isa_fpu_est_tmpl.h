/*
 * isa_fpu_est_tmpl.h — the reciprocal and reciprocal square root
 * estimates and Newton-Raphson steps (FRECPE, FRSQRTE, FRECPX, FRECPS,
 * FRSQRTS), FMULX and FRINT32/64 for one precision. Included by isa_fpu.c after
 * isa_fpu_tmpl.h with the same W / T_* macros plus T_FBITS (fraction
 * bits) and T_BIAS; not a header of its own.
 *
 * The estimates follow the architecture's pseudocode (FPRecipEstimate,
 * FPRSqrtEstimate and their integer kernels in isa_fpu.c) bit for bit:
 * they are defined to 8 bits, so every implementation gives these values.
 */

#define SUF2(n, w) n##w
#define SUF1(n, w) SUF2(n, w)
#define SUF(n) SUF1(n, W)

#define T_FMASK (((T_U)1 << T_FBITS) - 1)
#define T_TWO ((T_U)(T_BIAS + 1) << T_FBITS)
#define T_THREE (T_TWO | ((T_U)1 << (T_FBITS - 1)))
#define T_ONEHALF (((T_U)T_BIAS << T_FBITS) | ((T_U)1 << (T_FBITS - 1)))

static inline int SUF(infzero)(T_U a, T_U b)
{
	return (SUF(isinf)(a) && SUF(iszero)(b)) || (SUF(iszero)(a) && SUF(isinf)(b));
}

/* FMULX: FMUL, except that infinity times zero is 2.0 with the sign of
 * the product. */
T_U SUF(fpu_mulx)(struct cpu *c, T_U a, T_U b)
{
	uint32_t fl = 0;
	T_U fa = SUF(ftz)(c, a, &fl), fb = SUF(ftz)(c, b, &fl);
	c->fpsr |= fl;          /* IDC for a flushed input, whatever follows */
	if (SUF(infzero)(fa, fb)) {
		return ((fa ^ fb) & T_SIGN) | T_TWO;
	}
	return SUF(fpu_binop)(c, FPU_MUL, a, b);
}

/* FRECPS: 2 - a * b with one rounding; infinity times zero gives 2.0.
 * NaNs are those of (-a, b), as the architecture negates a first. */
T_U SUF(fpu_recps)(struct cpu *c, T_U a, T_U b)
{
	uint32_t fl = 0;
	T_U fa = SUF(ftz)(c, a, &fl), fb = SUF(ftz)(c, b, &fl);
	c->fpsr |= fl;          /* IDC for a flushed input, whatever follows */
	if (SUF(infzero)(fa, fb)) {
		return T_TWO;
	}
	return SUF(fpu_fma)(c, T_TWO, a, b, 0, 1);
}

/* FRSQRTS: (3 - a * b) / 2 rounded once. Halving the larger operand is
 * exact when it is above the smallest normal binade, so one fused
 * operation gives the single rounding; otherwise the product is far too
 * small to matter and the result, near 3, halves exactly. */
T_U SUF(fpu_rsqrts)(struct cpu *c, T_U a, T_U b)
{
	uint32_t fl = 0;
	T_U fa = SUF(ftz)(c, a, &fl), fb = SUF(ftz)(c, b, &fl);
	c->fpsr |= fl;          /* IDC for a flushed input, whatever follows */
	if (SUF(infzero)(fa, fb)) {
		return T_ONEHALF;
	}
	if (SUF(isnan)(fa) || SUF(isnan)(fb))
		return SUF(fpu_fma)(c, T_THREE, a, b, 0, 1);
	T_U ma = fa & ~T_SIGN, mb = fb & ~T_SIGN;
	T_U *big = ma >= mb ? &fa : &fb;
	T_U eb = (*big >> T_FBITS) & (T_EXP >> T_FBITS);
	if (eb == (T_EXP >> T_FBITS)) {         /* infinity: (3 - inf) / 2 is the product's infinity */
		return SUF(fpu_fma)(c, T_ONEHALF, fa, fb, 0, 1);
	} else if (eb >= 2) {
		*big -= (T_U)1 << T_FBITS;
		return SUF(fpu_fma)(c, T_ONEHALF, fa, fb, 0, 1);
	}
	return SUF(fpu_fma)(c, T_THREE, fa, fb, 0, 1) - ((T_U)1 << T_FBITS);
}

/* FRECPE */
T_U SUF(fpu_recpe)(struct cpu *c, T_U a)
{
	uint32_t fl = 0;
	T_U r, sign = a & T_SIGN;
	a = SUF(ftz)(c, a, &fl);
	T_U mag = a & ~T_SIGN;
	if (SUF(isnan)(a)) {
		r = SUF(nan1)(c, a, &fl);
	} else if (SUF(isinf)(a)) {
		r = sign;
	} else if (mag == 0) {
		r = sign | T_EXP;
		fl |= FPSR_DZC;
	} else if (mag < (T_QBIT >> 1)) {       /* below 2^-(2^(E-1)): the estimate overflows */
		int rm = SUF(rmode)(c);
		int to_inf = rm == FPR_NEAREST || (rm == FPR_UP && !sign) || (rm == FPR_DOWN && sign);
		r = sign | (to_inf ? T_EXP : T_EXP - 1);
		fl |= FPSR_OFC | FPSR_IXC;
	} else if ((c->fpcr & FPCR_FZ) && mag >= T_EXP - 2 * T_MINN) {
		r = sign;                       /* the estimate would be denormal: flushed */
		fl |= FPSR_UFC;
	} else {
		int64_t exp = (int64_t)(mag >> T_FBITS);
		uint64_t frac = (uint64_t)(mag & T_FMASK);
		if (exp == 0) {
			if (!((frac >> (T_FBITS - 1)) & 1)) {
				exp = -1;
				frac = (frac << 2) & T_FMASK;
			} else {
				frac = (frac << 1) & T_FMASK;
			}
		}
		unsigned est = fpu_recip_estimate(256u | (unsigned)(frac >> (T_FBITS - 8)));
		int64_t rexp = 2 * T_BIAS - 1 - exp;
		uint64_t f = (uint64_t)(est & 0xff) << (T_FBITS - 8);
		if (rexp == 0) {
			f = ((uint64_t)1 << (T_FBITS - 1)) | (f >> 1);
		} else if (rexp == -1) {
			f = ((uint64_t)1 << (T_FBITS - 2)) | (f >> 2);
			rexp = 0;
		}
		r = sign | (T_U)((uint64_t)rexp << T_FBITS) | (T_U)f;
	}
	c->fpsr |= fl;
	return r;
}

/* FRSQRTE */
T_U SUF(fpu_rsqrte)(struct cpu *c, T_U a)
{
	uint32_t fl = 0;
	T_U r;
	a = SUF(ftz)(c, a, &fl);
	if (SUF(isnan)(a)) {
		r = SUF(nan1)(c, a, &fl);
	} else if (SUF(iszero)(a)) {
		r = (a & T_SIGN) | T_EXP;
		fl |= FPSR_DZC;
	} else if (a & T_SIGN) {
		r = T_DNAN;
		fl |= FPSR_IOC;
	} else if (SUF(isinf)(a)) {
		r = 0;
	} else {
		/* the fraction as a double's 52 bits, normalised if denormal */
		int64_t exp = (int64_t)(a >> T_FBITS);
		uint64_t frac = (uint64_t)(a & T_FMASK) << (52 - T_FBITS);
		const uint64_t m52 = ((uint64_t)1 << 52) - 1;
		if (exp == 0) {
			while (!((frac >> 51) & 1)) {
				frac = (frac << 1) & m52;
				exp--;
			}
			frac = (frac << 1) & m52;
		}
		unsigned scaled = (exp & 1) == 0 ? 256u | (unsigned)(frac >> 44) : 128u | (unsigned)(frac >> 45);
		int64_t rexp = (3 * T_BIAS - 1 - exp) / 2;
		unsigned est = fpu_rsqrt_estimate(scaled);
		r = (T_U)((uint64_t)rexp << T_FBITS) | (T_U)((uint64_t)(est & 0xff) << (T_FBITS - 8));
	}
	c->fpsr |= fl;
	return r;
}

/* FRECPX: the exponent inverted, the fraction dropped. */
T_U SUF(fpu_recpx)(struct cpu *c, T_U a)
{
	uint32_t fl = 0;
	T_U r;
	a = SUF(ftz)(c, a, &fl);
	if (SUF(isnan)(a)) {
		r = SUF(nan1)(c, a, &fl);
	} else {
		T_U e = a & T_EXP;
		r = (a & T_SIGN) | (e ? (~e & T_EXP) : T_EXP - T_MINN);
	}
	c->fpsr |= fl;
	return r;
}

/* FRINT32Z/X, FRINT64Z/X: round to an integral value that must fit an
 * intsize-bit integer; a NaN, an infinity or a value out of range gives
 * -2^(intsize-1) with IOC (and no IXC). */
T_U SUF(fpu_rintn)(struct cpu *c, T_U a, int mode, int intsize)
{
	uint32_t fl = 0;
	T_U fa = SUF(ftz)(c, a, &fl);
	T_U minint = T_SIGN | ((T_U)(T_BIAS + intsize - 1) << T_FBITS);
	if (SUF(isnan)(fa) || SUF(isinf)(fa)) {
		c->fpsr |= fl | FPSR_IOC;
		return minint;
	}
	uint32_t before = c->fpsr;
	T_U r = SUF(fpu_rint)(c, fa, mode, 1);
	double v = (double)SUF(tof)(r), lim = ldexp(1.0, intsize - 1);
	if (v >= lim || v < -lim) {
		c->fpsr = before | fl | FPSR_IOC;
		return minint;
	}
	c->fpsr |= fl;
	return r;
}

#undef T_FMASK
#undef T_TWO
#undef T_THREE
#undef T_ONEHALF
#undef SUF
#undef SUF1
#undef SUF2
