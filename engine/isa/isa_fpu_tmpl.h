/*
 * isa_fpu_tmpl.h — the body of isa_fpu.c for one precision. Included twice
 * by isa_fpu.c, with W = 32 (single) and W = 64 (double) and the T_*
 * macros describing the format; not a header of its own.
 */

#define SUF2(n, w) n##w
#define SUF1(n, w) SUF2(n, w)
#define SUF(n) SUF1(n, W)

static inline T_F SUF(tof)(T_U u)
{
	T_F f;
	memcpy(&f, &u, sizeof f);
	return f;
}

static inline T_U SUF(tou)(T_F f)
{
	T_U u;
	memcpy(&u, &f, sizeof u);
	return u;
}

static inline int SUF(isnan)(T_U u) { return (u & ~T_SIGN) > T_EXP; }
static inline int SUF(issnan)(T_U u) { return SUF(isnan)(u) && !(u & T_QBIT); }
static inline int SUF(isinf)(T_U u) { return (u & ~T_SIGN) == T_EXP; }
static inline int SUF(iszero)(T_U u) { return (u & ~T_SIGN) == 0; }

/* FPCR.FZ: a denormal input reads as a zero of its sign, raising IDC. */
static inline T_U SUF(ftz)(const struct cpu *c, T_U u, uint32_t *fl)
{
	if ((c->fpcr & FPCR_FZ) && !(u & T_EXP) && (u & ~T_SIGN)) {
		*fl |= FPSR_IDC;
		return u & T_SIGN;
	}
	return u;
}

/* One NaN operand, as FPProcessNaN: signalling ones are quieted with IOC;
 * FPCR.DN replaces any by the default NaN. */
static inline T_U SUF(nan1)(const struct cpu *c, T_U a, uint32_t *fl)
{
	if (!(a & T_QBIT)) {
		*fl |= FPSR_IOC;
		a |= T_QBIT;
	}
	return (c->fpcr & FPCR_DN) ? T_DNAN : a;
}

static T_U SUF(nans2)(const struct cpu *c, T_U a, T_U b, uint32_t *fl)
{
	if (SUF(issnan)(a))
		return SUF(nan1)(c, a, fl);
	if (SUF(issnan)(b))
		return SUF(nan1)(c, b, fl);
	return SUF(nan1)(c, SUF(isnan)(a) ? a : b, fl);
}

static T_U SUF(nans3)(const struct cpu *c, T_U a, T_U b, T_U d, uint32_t *fl)
{
	if (SUF(issnan)(a))
		return SUF(nan1)(c, a, fl);
	if (SUF(issnan)(b))
		return SUF(nan1)(c, b, fl);
	if (SUF(issnan)(d))
		return SUF(nan1)(c, d, fl);
	return SUF(nan1)(c, SUF(isnan)(a) ? a : SUF(isnan)(b) ? b : d, fl);
}

/* The host operation: op (HOP_*) with the Arm rounding mode `rm`. */
static T_U SUF(host)(int op, T_U a, T_U b, T_U d, int rm, uint32_t *fl)
{
	T_F x = SUF(tof)(a), y = SUF(tof)(b), z = SUF(tof)(d), r;
	uint32_t saved = host_begin(rm);
	FPU_OPAQUE(x);
	FPU_OPAQUE(y);
	FPU_OPAQUE(z);
	switch (op) {
	case HOP_ADD: r = x + y; break;
	case HOP_SUB: r = x - y; break;
	case HOP_MUL: r = x * y; break;
	case HOP_DIV: r = x / y; break;
	case HOP_SQRT: r = T_SQRT(x); break;
	default: r = T_FMA(x, y, z); break;    /* x * y + z */
	}
	FPU_OPAQUE(r);
	*fl |= host_end(saved);
	return SUF(tou)(r);
}

/* After a host operation: the positive default NaN for an invalid one,
 * underflow detected before rounding (a result that rounded up to the
 * smallest normal was tiny: recompute towards zero to find out), and
 * FPCR.FZ flushing tiny results to zero with UFC but without IXC. */
static T_U SUF(finish)(const struct cpu *c, int op, T_U a, T_U b, T_U d, T_U r, uint32_t *fl)
{
	if (SUF(isnan)(r))
		return T_DNAN;
	T_U mag = r & ~T_SIGN;
	int tiny = (*fl & FPSR_UFC) || (mag < T_MINN && mag != 0);
	if (mag == T_MINN && (*fl & FPSR_IXC)) {
		uint32_t f2 = 0;
		T_U rz = SUF(host)(op, a, b, d, FPR_ZERO, &f2);
		if ((rz & ~T_SIGN) < T_MINN) {
			tiny = 1;
			*fl |= FPSR_UFC;
		}
	}
	if (tiny && (c->fpcr & FPCR_FZ)) {
		*fl = (*fl & ~(FPSR_IXC | FPSR_UFC)) | FPSR_UFC;
		return r & T_SIGN;
	}
	return r;
}

static inline int SUF(rmode)(const struct cpu *c)
{
	return (int)((c->fpcr >> FPCR_RMODE_SHIFT) & 3);
}

T_U SUF(fpu_binop)(struct cpu *c, int op, T_U a, T_U b)
{
	uint32_t fl = 0;
	T_U r;
	a = SUF(ftz)(c, a, &fl);
	b = SUF(ftz)(c, b, &fl);
	if (SUF(isnan)(a) || SUF(isnan)(b)) {
		int na = SUF(isnan)(a), nb = SUF(isnan)(b);
		if ((op == FPU_MINNM || op == FPU_MAXNM) && na != nb &&
		    !SUF(issnan)(a) && !SUF(issnan)(b))
			r = na ? b : a;         /* a quiet NaN loses to a number */
		else
			r = SUF(nans2)(c, a, b, &fl);
	} else {
		switch (op) {
		case FPU_MIN: case FPU_MINNM:
			if (SUF(iszero)(a) && SUF(iszero)(b))
				r = a | b;      /* -0 < +0 */
			else
				r = SUF(tof)(a) < SUF(tof)(b) ? a : b;
			break;
		case FPU_MAX: case FPU_MAXNM:
			if (SUF(iszero)(a) && SUF(iszero)(b))
				r = a & b;
			else
				r = SUF(tof)(a) > SUF(tof)(b) ? a : b;
			break;
		default: {
			static const int hop[FPU_BINOP_COUNT] = {
				[FPU_ADD] = HOP_ADD, [FPU_SUB] = HOP_SUB, [FPU_MUL] = HOP_MUL,
				[FPU_DIV] = HOP_DIV, [FPU_NMUL] = HOP_MUL, [FPU_ABD] = HOP_SUB,
			};
			r = SUF(host)(hop[op], a, b, 0, SUF(rmode)(c), &fl);
			r = SUF(finish)(c, hop[op], a, b, 0, r, &fl);
			break;
		}
		}
	}
	if (op == FPU_NMUL)
		r ^= T_SIGN;
	else if (op == FPU_ABD)
		r &= ~T_SIGN;
	c->fpsr |= fl;
	return r;
}

T_U SUF(fpu_fma)(struct cpu *c, T_U a, T_U n, T_U m, int neg_a, int neg_n)
{
	uint32_t fl = 0;
	T_U r;
	if (neg_a)
		a ^= T_SIGN;
	if (neg_n)
		n ^= T_SIGN;
	a = SUF(ftz)(c, a, &fl);
	n = SUF(ftz)(c, n, &fl);
	m = SUF(ftz)(c, m, &fl);
	int infzero = (SUF(isinf)(n) && SUF(iszero)(m)) || (SUF(iszero)(n) && SUF(isinf)(m));
	if (SUF(isnan)(a) && !SUF(issnan)(a) && infzero) {
		fl |= FPSR_IOC;
		r = T_DNAN;
	} else if (SUF(isnan)(a) || SUF(isnan)(n) || SUF(isnan)(m)) {
		r = SUF(nans3)(c, a, n, m, &fl);
	} else {
		r = SUF(host)(HOP_FMA, n, m, a, SUF(rmode)(c), &fl);
		r = SUF(finish)(c, HOP_FMA, n, m, a, r, &fl);
	}
	c->fpsr |= fl;
	return r;
}

T_U SUF(fpu_sqrt)(struct cpu *c, T_U a)
{
	uint32_t fl = 0;
	T_U r;
	a = SUF(ftz)(c, a, &fl);
	if (SUF(isnan)(a)) {
		r = SUF(nan1)(c, a, &fl);
	} else {
		r = SUF(host)(HOP_SQRT, a, 0, 0, SUF(rmode)(c), &fl);
		r = SUF(finish)(c, HOP_SQRT, a, 0, 0, r, &fl);
	}
	c->fpsr |= fl;
	return r;
}

uint64_t SUF(fpu_cmp)(struct cpu *c, T_U a, T_U b, int signal)
{
	uint32_t fl = 0;
	uint64_t nzcv;
	a = SUF(ftz)(c, a, &fl);
	b = SUF(ftz)(c, b, &fl);
	if (SUF(isnan)(a) || SUF(isnan)(b)) {
		if (signal || SUF(issnan)(a) || SUF(issnan)(b))
			fl |= FPSR_IOC;
		nzcv = NZCV_C | NZCV_V;
	} else {
		T_F x = SUF(tof)(a), y = SUF(tof)(b);
		nzcv = x == y ? (NZCV_Z | NZCV_C) : x < y ? NZCV_N : NZCV_C;
	}
	c->fpsr |= fl;
	return nzcv;
}

T_U SUF(fpu_cmpv)(struct cpu *c, int op, T_U a, T_U b)
{
	uint32_t fl = 0;
	int res;
	a = SUF(ftz)(c, a, &fl);
	b = SUF(ftz)(c, b, &fl);
	if (SUF(isnan)(a) || SUF(isnan)(b)) {
		if (op != FPC_EQ || SUF(issnan)(a) || SUF(issnan)(b))
			fl |= FPSR_IOC;
		res = 0;
	} else {
		T_F x = SUF(tof)(a), y = SUF(tof)(b);
		res = op == FPC_EQ ? x == y : op == FPC_GE ? x >= y : x > y;
	}
	c->fpsr |= fl;
	return res ? (T_U)~(T_U)0 : 0;
}

/* x rounded to an integral value in `mode` (not FPR_FPCR). No flags. */
static double SUF(round_mode)(double x, int mode)
{
	switch (mode) {
	case FPR_NEAREST: return roundeven(x);
	case FPR_UP: return ceil(x);
	case FPR_DOWN: return floor(x);
	case FPR_ZERO: return trunc(x);
	default: return round(x);
	}
}

T_U SUF(fpu_rint)(struct cpu *c, T_U a, int mode, int exact)
{
	uint32_t fl = 0;
	T_U r;
	a = SUF(ftz)(c, a, &fl);
	if (mode == FPR_FPCR)
		mode = SUF(rmode)(c);
	if (SUF(isnan)(a)) {
		r = SUF(nan1)(c, a, &fl);
	} else if (SUF(isinf)(a) || SUF(iszero)(a)) {
		r = a;
	} else {
		double x = (double)SUF(tof)(a), y = SUF(round_mode)(x, mode);
		if (exact && y != x)
			fl |= FPSR_IXC;
		r = SUF(tou)((T_F)y);
		if (y == 0)
			r = a & T_SIGN;
	}
	c->fpsr |= fl;
	return r;
}

uint64_t SUF(fpu_to_int)(struct cpu *c, T_U a, int mode, int is_unsigned, int bits, int fbits)
{
	uint32_t fl = 0;
	uint64_t r;
	a = SUF(ftz)(c, a, &fl);
	if (mode == FPR_FPCR)
		mode = SUF(rmode)(c);
	if (SUF(isnan)(a)) {
		fl |= FPSR_IOC;
		r = 0;
	} else {
		double x = (double)SUF(tof)(a);
		if (fbits)
			x = ldexp(x, fbits);
		double y = SUF(round_mode)(x, mode);
		double lo = is_unsigned ? 0.0 : -ldexp(1.0, bits - 1);
		double hi = ldexp(1.0, is_unsigned ? bits : bits - 1);   /* first value out of range */
		if (y < lo || y >= hi) {
			fl |= FPSR_IOC;
			if (y < lo)
				r = is_unsigned ? 0 : (uint64_t)1 << (bits - 1);
			else
				r = is_unsigned ? ~(uint64_t)0 : ((uint64_t)1 << (bits - 1)) - 1;
		} else {
			if (y != x)
				fl |= FPSR_IXC;
			r = is_unsigned ? (uint64_t)y : (uint64_t)(int64_t)y;
		}
		if (bits == 32)
			r &= 0xffffffffu;
	}
	c->fpsr |= fl;
	return r;
}

T_U SUF(fpu_from_int)(struct cpu *c, uint64_t v, int is_signed, int bits, int fbits)
{
	uint32_t fl = 0;
	int64_t s;
	int twice = 0;
	if (bits == 32)
		s = is_signed ? (int64_t)(int32_t)v : (int64_t)(uint32_t)v;
	else if (is_signed || !(v >> 63))
		s = (int64_t)v;
	else {                          /* halve keeping a sticky bit: one rounding */
		s = (int64_t)((v >> 1) | (v & 1));
		twice = 1;
	}
	T_F scale = (T_F)ldexp(1.0, -fbits);
	uint32_t saved = host_begin(SUF(rmode)(c));
	FPU_OPAQUE_I(s);
	T_F f = (T_F)s;
	FPU_OPAQUE(f);
	if (twice)
		f = f + f;
	FPU_OPAQUE(scale);
	f = f * scale;
	FPU_OPAQUE(f);
	fl |= host_end(saved);
	c->fpsr |= fl;
	return SUF(tou)(f);
}

#undef SUF
#undef SUF1
#undef SUF2
