/*
 * branchy.c — data-dependent, unpredictable branches.
 *
 * Each value from a pseudo-random stream walks a three-level decision tree
 * whose thresholds split the values evenly, so every level is a coin toss no
 * predictor can learn; each leaf updates a different table, which keeps GCC
 * from turning the tree into conditional selects. A fourth, biased branch
 * (taken 1 time in 8) gives the predictor something partly learnable.
 *
 * Personality: branch mispredictions dominate (about 1.6 per value: each
 * coin-toss level is guessed wrong half the time); data stays in L1.
 *
 * Scale s: s * 16384 values. Default 128.
 */
#include "rt.h"

#define DEFAULT_SCALE 128
#define TEST_SCALE 1

static uint32_t leaf_a[16], leaf_b[16], leaf_c[16], leaf_d[16];
static uint64_t leaf_e[16], leaf_f[16], leaf_g[16], leaf_h[16];
static uint32_t rare[8];

static void classify(uint32_t x)
{
	unsigned k = x & 15;

	if (x < 0x80000000u) {
		if (x < 0x40000000u) {
			if (x & 0x100000) leaf_a[k] += 1;
			else leaf_b[k] ^= x;
		} else {
			if (x & 0x100000) leaf_c[k] += x >> 7;
			else leaf_d[k] -= 3;
		}
	} else {
		if (x < 0xc0000000u) {
			if (x & 0x100000) leaf_e[k] += x;
			else leaf_f[k] ^= (uint64_t)x << 9;
		} else {
			if (x & 0x100000) leaf_g[k] += 7;
			else leaf_h[k] = leaf_h[k] * 5 + 1;
		}
	}
	if ((x & 0x70) == 0x30)
		rare[x & 7]++;
}

int main(int argc, char **argv)
{
	unsigned long n = rt_arg_scale(argc, argv, DEFAULT_SCALE) * 16384;
	struct rt_rng rng;

	rt_rng_seed(&rng, 7);
	for (unsigned long i = 0; i < n; i++)
		classify((uint32_t)(rt_rng_next(&rng) >> 32));

	uint64_t h = RT_CHECKSUM_INIT;
	for (int k = 0; k < 16; k++) {
		h = rt_mix(h, leaf_a[k]);
		h = rt_mix(h, leaf_b[k]);
		h = rt_mix(h, leaf_c[k]);
		h = rt_mix(h, leaf_d[k]);
		h = rt_mix(h, leaf_e[k]);
		h = rt_mix(h, leaf_f[k]);
		h = rt_mix(h, leaf_g[k]);
		h = rt_mix(h, leaf_h[k]);
	}
	for (int k = 0; k < 8; k++)
		h = rt_mix(h, rare[k]);
	printf("branchy values=%lu checksum=%016lx\n", n, h);
	return 0;
}
