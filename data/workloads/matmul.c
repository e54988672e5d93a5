/*
 * matmul.c — integer matrix multiply, C = A x B, 32-bit elements.
 *
 * Plain i-k-j loops: the inner loop streams a row of B and a row of C with
 * one multiply-add per element. Three 128 x 128 matrices (192 KB) do not fit
 * the 16 KB L1 D-cache but sit in the L2. No SIMD: the runtime is built with
 * -mgeneral-regs-only, so even -O3 stays scalar (it unrolls instead).
 *
 * Personality: multiply-add throughput, L1 misses that hit in L2, perfectly
 * predictable loop branches.
 *
 * Scale s: N = 32 * s. Default 4 (N = 128, 2 M multiply-adds).
 */
#include "rt.h"

#define DEFAULT_SCALE 4
#define TEST_SCALE 1

static void matmul(int32_t *restrict c, const int32_t *restrict a,
		   const int32_t *restrict b, long n)
{
	for (long i = 0; i < n * n; i++)
		c[i] = 0;
	for (long i = 0; i < n; i++)
		for (long k = 0; k < n; k++) {
			int32_t aik = a[i * n + k];
			for (long j = 0; j < n; j++)
				c[i * n + j] += aik * b[k * n + j];
		}
}

int main(int argc, char **argv)
{
	long n = (long)rt_arg_scale(argc, argv, DEFAULT_SCALE) * 32;
	int32_t *a = malloc((size_t)(n * n) * sizeof *a);
	int32_t *b = malloc((size_t)(n * n) * sizeof *b);
	int32_t *c = malloc((size_t)(n * n) * sizeof *c);
	uint64_t h = RT_CHECKSUM_INIT;
	int64_t trace = 0;

	rt_check(a && b && c, "out of memory");
	for (long i = 0; i < n; i++)
		for (long j = 0; j < n; j++) {
			a[i * n + j] = (int32_t)((i * 7 + j * 3) % 19) - 9;
			b[i * n + j] = (int32_t)((i * 5 + j * 11) % 23) - 11;
		}
	matmul(c, a, b, n);
	for (long i = 0; i < n; i++) {
		trace += c[i * n + i];
		for (long j = 0; j < n; j++)
			h = rt_mix(h, (uint32_t)c[i * n + j]);
	}
	printf("matmul n=%ld trace=%ld checksum=%016lx\n", n, (long)trace, h);
	return 0;
}
