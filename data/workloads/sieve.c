/*
 * sieve.c — the sieve of Eratosthenes over odd numbers, one bit each.
 *
 * Marking multiples of each prime is a read-modify-write of a bit at a
 * stride of p bits: small primes walk the bitmap nearly sequentially, large
 * ones touch one word per line. The bitmap (768 KB by default)
 * is about the size of the L2. Counting uses a population count done with
 * shifts and masks (no FP/SIMD).
 *
 * Personality: store-heavy strided access, L1 misses hitting in L2, highly
 * predictable inner loops with a short data-dependent outer test.
 *
 * Scale s: sieve up to s * 65536. Default 192 (12.6 M numbers).
 */
#include "rt.h"

#define DEFAULT_SCALE 192
#define TEST_SCALE 1

static unsigned popcount64(uint64_t x)
{
	x = x - ((x >> 1) & 0x5555555555555555ull);
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned)((x * 0x0101010101010101ull) >> 56);
}

int main(int argc, char **argv)
{
	uint64_t limit = rt_arg_scale(argc, argv, DEFAULT_SCALE) * 65536;
	uint64_t nbits = limit / 2;          /* bit i stands for 2i + 1 */
	uint64_t nwords = (nbits + 63) / 64;
	uint64_t *composite = calloc(nwords, 8);
	uint64_t h = RT_CHECKSUM_INIT;

	rt_check(composite, "out of memory");
	composite[0] |= 1;                   /* 1 is not prime */
	for (uint64_t i = 1; (2 * i + 1) * (2 * i + 1) < limit; i++) {
		if (composite[i / 64] >> (i % 64) & 1)
			continue;
		uint64_t p = 2 * i + 1;
		for (uint64_t j = (p * p) / 2; j < nbits; j += p)
			composite[j / 64] |= 1ull << (j % 64);
	}
	/* bits past nbits in the last word are not numbers: mark them */
	if (nbits % 64)
		composite[nwords - 1] |= ~0ull << (nbits % 64);

	uint64_t primes = 1;                 /* the prime 2 */
	for (uint64_t w = 0; w < nwords; w++) {
		primes += 64 - popcount64(composite[w]);
		if (w % 1024 == 0)
			h = rt_mix(h, composite[w]);
	}
	/* the largest prime below the limit */
	uint64_t last = 2;
	for (uint64_t i = nbits; i-- > 0;)
		if (!(composite[i / 64] >> (i % 64) & 1)) {
			last = 2 * i + 1;
			break;
		}
	printf("sieve limit=%lu primes=%lu largest=%lu checksum=%016lx\n",
	       (unsigned long)limit, (unsigned long)primes, (unsigned long)last, h);
	return 0;
}
