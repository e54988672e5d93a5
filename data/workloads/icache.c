/*
 * icache.c — a code footprint that thrashes the instruction cache.
 *
 * 256 distinct functions of about 68 instructions each (~70 KB of code,
 * nine times an 8 KB L1 I-cache, well inside a 1 MB L2) are called one after
 * the other from straight-line code, round after round. Every function is
 * evicted long before it runs again, so each of its ~5 lines misses in the
 * L1 I-cache and hits in L2. Calls are direct and returns are predicted by a
 * return stack, so branch prediction plays no part; the bodies are
 * single-cycle integer operations with short dependence chains.
 *
 * The functions come from the preprocessor: FN(nnnn) for the 256 base-4
 * numbers 0000..3333 (read as octal literals: distinct constants, so no two
 * bodies are identical and nothing gets folded).
 *
 * Personality: L1 I-cache misses dominate.
 *
 * Scale s: 16 * s rounds over all 256 functions. Default 100.
 */
#include "rt.h"

#define DEFAULT_SCALE 100
#define TEST_SCALE 1

/* One step: xor a constant, add a shifted copy, xor a shifted copy. */
#define MIX(x, c) (x = (((x) ^ (uint32_t)(c)) + ((x) << 5)) ^ ((x) >> 3))

#define BODY(n)                                                      \
	MIX(x, (n) * 0x9e37u + 0x1001u);  MIX(x, (n) * 0x85ebu + 0x2203u); \
	MIX(x, (n) * 0xc2b2u + 0x3305u);  MIX(x, (n) * 0x27d4u + 0x4407u); \
	MIX(x, (n) * 0x1656u + 0x5509u);  MIX(x, (n) * 0x61c8u + 0x660bu); \
	MIX(x, (n) * 0x7feeu + 0x770du);  MIX(x, (n) * 0x3c6eu + 0x880fu); \
	MIX(x, (n) * 0xa54fu + 0x9911u);  MIX(x, (n) * 0x510eu + 0xaa13u); \
	MIX(x, (n) * 0x9b05u + 0xbb15u);  MIX(x, (n) * 0x1f83u + 0xcc17u); \
	MIX(x, (n) * 0x5be0u + 0xdd19u);  MIX(x, (n) * 0xcd19u + 0xee1bu); \
	MIX(x, (n) * 0x6a09u + 0xff1du);  MIX(x, (n) * 0xbb67u + 0x1f1fu);

#define FN(n) \
	static __attribute__((noinline)) uint32_t f##n(uint32_t x) { BODY(0##n) return x; }
#define CALL(n) x = f##n(x);

#define R4(m, p)   m(p##0) m(p##1) m(p##2) m(p##3)
#define R16(m, p)  R4(m, p##0) R4(m, p##1) R4(m, p##2) R4(m, p##3)
#define R64(m, p)  R16(m, p##0) R16(m, p##1) R16(m, p##2) R16(m, p##3)
#define R256(m)    R64(m, 0) R64(m, 1) R64(m, 2) R64(m, 3)

R256(FN)

static __attribute__((noinline)) uint32_t one_round(uint32_t x)
{
	R256(CALL)
	return x;
}

int main(int argc, char **argv)
{
	unsigned long rounds = rt_arg_scale(argc, argv, DEFAULT_SCALE) * 16;
	uint64_t h = RT_CHECKSUM_INIT;
	uint32_t x = 12345;

	for (unsigned long r = 0; r < rounds; r++) {
		x = one_round(x + (uint32_t)r);
		h = rt_mix(h, x);
	}
	printf("icache functions=256 rounds=%lu checksum=%016lx\n", rounds, h);
	return 0;
}
