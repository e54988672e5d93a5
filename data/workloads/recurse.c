/*
 * recurse.c — deep and wide recursion.
 *
 * Three recursive computations, none of which GCC can turn into a loop
 * (each combines the callee's result non-linearly after the call):
 *   chain(d)   a single line of calls 4000 deep, each frame holding state
 *              that is used after the return (~190 KB of stack in use);
 *   fib(n)     doubly recursive Fibonacci: ~30 K short calls, depth 20;
 *   ack(2, n)  Ackermann: many calls, depth up to 2n + 3.
 * Needs at most ~256 KB of stack.
 *
 * Personality: calls, returns and stack spills/fills; return-address
 * prediction beyond the return stack's depth; stack lines that outgrow the
 * L1 D-cache on the way down and come back on the way up.
 *
 * Scale s: s rounds of the three. Default 40.
 */
#include "rt.h"

#define DEFAULT_SCALE 40
#define TEST_SCALE 1
#define CHAIN_DEPTH 4000

static __attribute__((noinline)) uint64_t chain(uint64_t d, uint64_t seed)
{
	uint64_t local[3] = { seed ^ d, seed + d * 3, seed >> (d & 7) };

	if (d == 0)
		return seed;
	uint64_t r = chain(d - 1, seed * 6364136223846793005ull + 1442695040888963407ull);
	return (r ^ local[d % 3]) * 31 + (r >> 7) + local[(d + 1) % 3];
}

static __attribute__((noinline)) uint64_t fib(unsigned n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

static __attribute__((noinline)) uint64_t ack(uint64_t m, uint64_t n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}

int main(int argc, char **argv)
{
	unsigned long rounds = rt_arg_scale(argc, argv, DEFAULT_SCALE);
	uint64_t h = RT_CHECKSUM_INIT;

	for (unsigned long r = 0; r < rounds; r++) {
		h = rt_mix(h, chain(CHAIN_DEPTH - (r % 16), r + 1));
		h = rt_mix(h, fib(19 + (unsigned)(r % 3)));
		uint64_t a = ack(2, 100 + r % 50);
		rt_check(a == 2 * (100 + r % 50) + 3, "Ackermann(2, n) = 2n + 3");
		h = rt_mix(h, a);
	}
	printf("recurse rounds=%lu checksum=%016lx\n", rounds, h);
	return 0;
}
