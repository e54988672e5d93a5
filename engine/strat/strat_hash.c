/*
 * strat_hash.c — the stratifying hash of the paper's section 3.5 and the
 * seeded generator every random component draws from.
 *
 * index(pc, w) = xor-fold(flip(randomize(pc)) ^ randomize(w), bits):
 * randomize sends each byte through one fixed table of 256 random bytes
 * (a permutation, so no two bytes collide), flip reverses the byte order
 * of the pc so its busy low bytes meet the value's quiet high bytes, and
 * xor-fold cuts the 64-bit word into `bits`-bit chunks and xors them.
 * The table is a constant of the "hardware": it is built from a fixed
 * seed, not from the run's, so a spec means the same strata in every run.
 */
#include "strat.h"

static uint8_t table[256];
/* The same table by byte position, shifted into place, for the index:
 * pos[i][b] = table[b] << 8i, and flipped: flip[i][b] = table[b] << 8(7-i). */
static uint64_t pos[8][256], flip[8][256];
static int table_ready;

uint64_t strat_rng_seed(uint64_t s)
{
	/* splitmix64 of the seed: nearby seeds give unrelated states */
	uint64_t z = s + 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return z ? z : 0x2545f4914f6cdd1dull;
}

uint64_t strat_rng_next(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dull;
}

uint64_t strat_rng_below(uint64_t *s, uint64_t n)
{
	/* the top 32 bits scaled: bias below 2^-32 * n, immaterial here */
	if (n <= 1)
		return 0;
	if (n <= 0xffffffffull)
		return ((strat_rng_next(s) >> 32) * n) >> 32;
	return strat_rng_next(s) % n;
}

static void build_table(void)
{
	uint64_t s = strat_rng_seed(0x5eed5a57);
	for (int i = 0; i < 256; i++)
		table[i] = (uint8_t)i;
	for (int i = 255; i > 0; i--) {   /* Fisher-Yates */
		int j = (int)strat_rng_below(&s, (uint64_t)i + 1);
		uint8_t t = table[i];
		table[i] = table[j];
		table[j] = t;
	}
	for (int i = 0; i < 8; i++)
		for (int b = 0; b < 256; b++) {
			pos[i][b] = (uint64_t)table[b] << (8 * i);
			flip[i][b] = (uint64_t)table[b] << (8 * (7 - i));
		}
	table_ready = 1;
}

const uint8_t *strat_random_table(void)
{
	if (!table_ready)
		build_table();
	return table;
}

uint64_t strat_randomize(uint64_t w)
{
	const uint8_t *t = strat_random_table();
	uint64_t r = 0;
	for (int b = 0; b < 64; b += 8)
		r |= (uint64_t)t[(w >> b) & 0xff] << b;
	return r;
}

uint64_t strat_flip(uint64_t w)
{
	return __builtin_bswap64(w);
}

uint32_t strat_xor_fold(uint64_t w, int bits)
{
	if (bits <= 0)
		return 0;
	if (bits >= 64)
		return (uint32_t)w;
	uint64_t mask = (1ull << bits) - 1, r = 0;
	for (; w; w >>= bits)
		r ^= w & mask;
	return (uint32_t)r;
}

/* Folded tables by width, built on first use (static: 33 x 16 KB of
 * zero pages until then). */
static strat_fold_table fold_tab[33];
static uint8_t fold_ready[33];

const strat_fold_table *strat_hash_fold_table(int bits)
{
	if (bits < 1 || bits > 32)
		return NULL;
	if (!fold_ready[bits]) {
		if (!table_ready)
			build_table();
		for (int i = 0; i < 8; i++)
			for (int b = 0; b < 256; b++) {
				fold_tab[bits][i][b] = strat_xor_fold(flip[i][b], bits);
				fold_tab[bits][8 + i][b] = strat_xor_fold(pos[i][b], bits);
			}
		fold_ready[bits] = 1;
	}
	return &fold_tab[bits];
}

uint32_t strat_hash_index(uint64_t pc, uint64_t w, int bits)
{
	const strat_fold_table *t = strat_hash_fold_table(bits);
	if (t)
		return strat_hash_index_t(t, pc, w);
	/* = strat_xor_fold(strat_flip(strat_randomize(pc)) ^ strat_randomize(w), bits),
	 * with the byte tables already in place (test_strat_comp checks) */
	if (!table_ready)
		build_table();
	uint64_t h = 0;
	for (int i = 0; i < 8; i++, pc >>= 8, w >>= 8)
		h ^= flip[i][pc & 0xff] ^ pos[i][w & 0xff];
	return strat_xor_fold(h, bits);
}

uint32_t strat_hash_tag(uint64_t pc, uint64_t w, int bits)
{
	return strat_xor_fold(pc ^ w, bits);
}
