/*
 * isa_real.c — a "student's program" for the real-program ISA test
 * (tests/realprog-isa.sh): built with the standard cross compiler and
 * glibc (-static, at -O2 and at -O3), it goes through what such programs
 * execute — printf of floats and doubles, strtod, qsort, libm, glibc's
 * SIMD string functions at many lengths and alignments, memset large
 * enough for DC ZVA, rounding modes and exception flags through <fenv.h>
 * (FPCR, FPSR), atomics (LSE through libgcc's outline atomics), the
 * virtual counter, and loops gcc vectorises at -O3. Its stdout must be
 * byte for byte what qemu-aarch64 prints.
 */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static unsigned seed = 12345;
static unsigned next(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 8;
}

/* Loops the vectoriser turns into Advanced SIMD at -O3. */
#define N 1000
static float fa[N], fb[N], fc[N];
static double da[N], db[N];
static int32_t ia[N], ib[N];
static int16_t ha[N];
static uint8_t ua[N], ub[N];

static void vector_loops(void)
{
	for (int i = 0; i < N; i++) {
		fa[i] = (float)(next() % 2000) / 7.0f - 100.0f;
		fb[i] = (float)(next() % 3000) / 11.0f;
		da[i] = (double)(next() % 100000) / 3.0;
		ia[i] = (int32_t)(next() % 200000) - 100000;
		ha[i] = (int16_t)(next() % 60000 - 30000);
		ua[i] = (uint8_t)next();
	}
	float dot = 0, mx = -1e30f, mn = 1e30f;
	for (int i = 0; i < N; i++) {
		fc[i] = fa[i] * 2.5f + fb[i];           /* saxpy: fmla */
		dot += fa[i] * fb[i];
		mx = fa[i] > mx ? fa[i] : mx;
		mn = fminf(mn, fb[i]);
	}
	double dsum = 0;
	for (int i = 0; i < N; i++) {
		db[i] = sqrt(da[i]) + da[i] / 3.0;
		dsum += db[i];
	}
	int64_t isum = 0;
	int32_t imax = INT32_MIN;
	for (int i = 0; i < N; i++) {
		ib[i] = ia[i] * 3 + (ia[i] >> 2) - ha[i];
		isum += ib[i];
		imax = ib[i] > imax ? ib[i] : imax;
		ub[i] = (uint8_t)(ua[i] + 17) ^ (ua[i] >> 3);
	}
	unsigned hist[8] = { 0 }, bytesum = 0;
	for (int i = 0; i < N; i++) {
		hist[ub[i] & 7]++;
		bytesum += ub[i];
	}
	for (int i = 0; i < N; i++) {
		ia[i] = (int32_t)fc[i];                 /* fcvtzs */
		fb[i] = (float)ib[i];                   /* scvtf */
	}
	int64_t conv = 0;
	float fsum = 0;
	for (int i = 0; i < N; i++) {
		conv += ia[i];
		fsum += fb[i];
	}
	printf("vec: dot %.6e max %.4f min %.4f dsum %.10e\n", (double)dot, (double)mx, (double)mn, dsum);
	printf("vec: isum %lld imax %d bytesum %u hist %u %u %u %u %u %u %u %u\n", (long long)isum, imax,
	       bytesum, hist[0], hist[1], hist[2], hist[3], hist[4], hist[5], hist[6], hist[7]);
	printf("vec: conv %lld fsum %.6e fc[7] %a\n", (long long)conv, (double)fsum, (double)fc[7]);
}

static void strings(void)
{
	static char buf[600], src[600];
	unsigned long h = 0;
	for (int i = 0; i < 599; i++)
		src[i] = (char)('a' + i % 26);
	src[599] = 0;
	for (int len = 0; len < 200; len += 7) {
		for (int al = 0; al < 16; al += 5) {
			memset(buf, 0, sizeof buf);
			memcpy(buf + al, src, (size_t)len);
			h = h * 31 + strlen(buf + al);
			const char *p = strchr(buf + al, 'q');
			h = h * 31 + (p ? (unsigned long)(p - buf) : 999);
			p = memchr(buf + al, 'z', (size_t)len);
			h = h * 31 + (p ? (unsigned long)(p - buf) : 999);
			p = strrchr(buf + al, 'c');
			h = h * 31 + (p ? (unsigned long)(p - buf) : 999);
			h = h * 31 + (unsigned long)(strcmp(buf + al, src) < 0) + 2 * (unsigned long)(strncmp(buf + al, src, (size_t)len) == 0);
			memmove(buf + al + 3, buf + al, (size_t)len);
			h = h * 31 + (unsigned long)(memcmp(buf + al + 3, src, (size_t)len) == 0);
		}
	}
	printf("strings: hash %lx\n", h);
	char big[8192];
	memset(big, 0x5a, sizeof big);                  /* large: DC ZVA for zero */
	memset(big + 100, 0, 6000);
	unsigned s = 0;
	for (size_t i = 0; i < sizeof big; i++)
		s = s * 7 + (unsigned char)big[i];
	printf("memset: %u %s\n", s, strstr("find the needle in the haystack", "needle"));
	char *words[] = { "pear", "apple", "fig", "banana", "cherry", "date", "apricot", "kiwi" };
	qsort(words, 8, sizeof words[0], cmp_str);
	for (int i = 0; i < 8; i++)
		printf("%s%c", words[i], i == 7 ? '\n' : ' ');
}

static void floats(void)
{
	double v[64];
	for (int i = 0; i < 64; i++)
		v[i] = (double)next() / 65536.0 - 100.0;
	qsort(v, 64, sizeof v[0], cmp_double);
	for (int i = 0; i < 64; i += 9)
		printf("%d %.6f %g %e %a\n", i, v[i], v[i] * 3.0, v[i] / 7.0, v[i]);
	float f = 1.0f;
	for (int i = 0; i < 100; i++)
		f = f * 1.01f + (float)i / 3.0f;
	printf("float %f %.9g %.3f\n", (double)f, (double)f, (double)sqrtf(f));
	static const char *nums[] = { "3.14159265358979e-2", "1e308", "1e-320", "-0.0", "0x1.8p3",
				      "inf", "nan", "123456789012345678901234567890", "2.2250738585072011e-308" };
	for (int i = 0; i < 9; i++) {
		double d = strtod(nums[i], NULL);
		printf("strtod %s = %.17g %a %f\n", nums[i], d, d, (double)strtof(nums[i], NULL));
	}
	printf("%.20f %f %f %.0f %.0f\n", 1.0 / 3.0, (double)(float)(1.0 / 3.0), -0.0, 0.5, 2.5);
	printf("libm %.17g %.17g %.17g %.17g %.17g %.17g\n", sin(1.0), cos(2.0), exp(3.5), log(10.0),
	       pow(2.0, 0.5), atan2(1.0, -2.0));
	printf("libm %.9g %.9g %.9g %.17g %.17g\n", (double)sinf(1.0f), (double)expf(2.0f),
	       (double)logf(3.0f), cbrt(27.5), hypot(3.0, 4.5));
	printf("round %f %f %f %f %f %ld %lld\n", floor(-2.5), ceil(2.1), round(2.5), trunc(-2.7),
	       nearbyint(3.5), lrint(4.5), llround(-5.5));
	printf("fma %.17g fmin %g fmax %g fabs %g copysign %g\n", fma(1.0 / 3.0, 3.0, -1.0),
	       fmin(NAN, 2.0), fmax(-0.0, 0.0), fabs(-3.0), copysign(2.0, -0.0));
	long long ll = (long long)(v[63] * 1e6);
	printf("%lld %u %d %lu\n", ll, (unsigned)(v[40] * 1000), (int)-v[3], (unsigned long)1e19);
}

static void fenv(void)
{
	static const int modes[4] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };
	static const char *names[4] = { "nearest", "up", "down", "zero" };
	volatile double x = 1.0, y = 3.0, big = 1e308, tiny = 1e-310;
	for (int m = 0; m < 4; m++) {
		fesetround(modes[m]);
		feclearexcept(FE_ALL_EXCEPT);
		volatile double q = x / y;
		volatile float qf = (float)q;
		volatile double r = rint(2.5), s = sqrt(2.0);
		printf("%-7s %a %a %g %a", names[m], q, (double)qf, r, s);
		printf(" inexact %d", fetestexcept(FE_INEXACT) != 0);
		feclearexcept(FE_ALL_EXCEPT);
		volatile double o = big * 10.0;
		printf(" overflow %d %g", fetestexcept(FE_OVERFLOW) != 0, o);
		feclearexcept(FE_ALL_EXCEPT);
		volatile double u = tiny / 1e10;
		printf(" underflow %d %a", fetestexcept(FE_UNDERFLOW) != 0, u);
		feclearexcept(FE_ALL_EXCEPT);
		volatile double z = x / (y - 3.0);
		printf(" divbyzero %d %g", fetestexcept(FE_DIVBYZERO) != 0, z);
		feclearexcept(FE_ALL_EXCEPT);
		volatile double n = sqrt(-x);
		printf(" invalid %d %d\n", fetestexcept(FE_INVALID) != 0, isnan(n));
	}
	fesetround(FE_TONEAREST);
}

static void atomics(void)
{
	static int counter;
	static long long big;
	for (int i = 0; i < 100; i++) {
		__atomic_fetch_add(&counter, i, __ATOMIC_SEQ_CST);
		__atomic_fetch_or(&big, 1ll << (i % 63), __ATOMIC_ACQ_REL);
	}
	int expected = counter, swapped = __atomic_compare_exchange_n(&counter, &expected, 7, 0,
								     __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	int old = __atomic_exchange_n(&counter, 9, __ATOMIC_RELEASE);
	printf("atomics %d %llx %d %d %d\n", expected, (unsigned long long)big, swapped, old, counter);
	uint64_t t0, t1, f;
	__asm__ volatile("mrs %0, cntvct_el0" : "=r"(t0));
	for (volatile int i = 0; i < 1000; i++)
		;
	__asm__ volatile("mrs %0, cntvct_el0" : "=r"(t1));
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(f));
	printf("counter %s, frequency %s\n", t1 > t0 ? "advances" : "stuck", f ? "set" : "zero");
}

int main(void)
{
	floats();
	strings();
	vector_loops();
	fenv();
	atomics();
	return 0;
}
