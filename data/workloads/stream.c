/*
 * stream.c — streaming copy: STREAM-style copy, scale, add and triad over
 * three arrays much larger than the 1 MB L2.
 *
 * Personality: long D-cache misses, but sequential and independent, so many
 * are in flight at once (high memory-level parallelism); one miss per eight
 * 8-byte accesses. Branches are loop branches only: near-perfect prediction.
 *
 * Scale s: arrays of s * 16384 uint64 (s * 128 KB each), 4 passes of the
 * four kernels. Default 32 (3 x 4 MB).
 */
#include "rt.h"

#define DEFAULT_SCALE 32
#define TEST_SCALE 1
#define PASSES 4

static void copy(uint64_t *restrict c, const uint64_t *restrict a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		c[i] = a[i];
}

static void scale(uint64_t *restrict b, const uint64_t *restrict c, uint64_t k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		b[i] = k * c[i];
}

static void add(uint64_t *restrict c, const uint64_t *restrict a,
		const uint64_t *restrict b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		c[i] = a[i] + b[i];
}

static void triad(uint64_t *restrict a, const uint64_t *restrict b,
		  const uint64_t *restrict c, uint64_t k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] = b[i] + k * c[i];
}

int main(int argc, char **argv)
{
	size_t n = rt_arg_scale(argc, argv, DEFAULT_SCALE) * 16384;
	uint64_t *a = malloc(n * sizeof *a);
	uint64_t *b = malloc(n * sizeof *b);
	uint64_t *c = malloc(n * sizeof *c);
	rt_check(a && b && c, "out of memory");

	for (size_t i = 0; i < n; i++) {
		a[i] = i * 3 + 1;
		b[i] = i ^ 0x5555;
		c[i] = 0;
	}
	for (int p = 0; p < PASSES; p++) {
		copy(c, a, n);
		scale(b, c, 3, n);
		add(c, a, b, n);
		triad(a, b, c, 5, n);
	}

	uint64_t h = RT_CHECKSUM_INIT;
	for (size_t i = 0; i < n; i += 61)
		h = rt_mix(h, a[i] + b[i] * 7 + c[i] * 13);
	printf("stream n=%lu passes=%d checksum=%016lx\n", (unsigned long)n, PASSES, h);
	return 0;
}
