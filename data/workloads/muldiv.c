/*
 * muldiv.c — multiply- and divide-heavy integer arithmetic.
 *
 * Per round: gcd of pseudo-random pairs (Euclid: a dependent chain of
 * remainders), modular exponentiation with 64-bit products reduced by %,
 * integer square roots by Newton's method (a divide per step), and a
 * polynomial evaluated with multiply-adds. Everything fits in registers.
 *
 * Personality: long-latency, unpipelined divides (UDIV/SDIV) on the critical
 * path, pipelined multiplies; few misses, loop branches mostly predictable.
 *
 * Scale s: s rounds. Default 160.
 */
#include "rt.h"

#define DEFAULT_SCALE 160
#define TEST_SCALE 1

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* b^e mod m for m < 2^32, so every product fits in 64 bits. */
static uint64_t powmod(uint64_t b, uint64_t e, uint64_t m)
{
	uint64_t r = 1;

	b %= m;
	while (e) {
		if (e & 1)
			r = r * b % m;
		b = b * b % m;
		e >>= 1;
	}
	return r;
}

static uint64_t isqrt(uint64_t n)
{
	if (n < 2)
		return n;
	uint64_t x = n, y = (x + 1) / 2;
	while (y < x) {
		x = y;
		y = (x + n / x) / 2;
	}
	return x;
}

static int64_t poly(int64_t x)
{
	int64_t acc = 0;
	static const int64_t coef[8] = { 3, -7, 11, -13, 17, -19, 23, -29 };

	for (int i = 0; i < 8; i++)
		acc = acc * x + coef[i];
	return acc;
}

int main(int argc, char **argv)
{
	unsigned long rounds = rt_arg_scale(argc, argv, DEFAULT_SCALE);
	struct rt_rng rng;
	uint64_t h = RT_CHECKSUM_INIT;

	rt_rng_seed(&rng, 13);
	for (unsigned long r = 0; r < rounds; r++) {
		uint64_t acc = 0;
		for (int i = 0; i < 512; i++) {
			uint64_t a = rt_rng_next(&rng) >> 1, b = rt_rng_next(&rng) >> 20;
			acc += gcd(a, b | 1);
		}
		for (int i = 0; i < 256; i++) {
			uint64_t m = (rt_rng_next(&rng) >> 33) | 1;
			acc ^= powmod(rt_rng_next(&rng), rt_rng_next(&rng) >> 48, m);
		}
		for (int i = 0; i < 512; i++) {
			uint64_t v = rt_rng_next(&rng) >> (i & 31);
			uint64_t s = isqrt(v);
			rt_check(s * s <= v && (s + 1) * (s + 1) > v, "isqrt");
			acc += s;
		}
		for (int i = 0; i < 512; i++) {
			int64_t x = (int64_t)(rt_rng_next(&rng) >> 56) - 128;
			acc += (uint64_t)(poly(x) / (x | 1));
		}
		h = rt_mix(h, acc);
	}
	printf("muldiv rounds=%lu checksum=%016lx\n", rounds, h);
	return 0;
}
