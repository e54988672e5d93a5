/*
 * mix.h — splitmix64 (Steele, Lea and Flood), the one integer mixer the
 * engine's deterministic choices share: DCPI's randomized sampling periods
 * and the ivx counters' shadow windows. Fast, and the same numbers on
 * every host.
 */
#ifndef IVX_MIX_H
#define IVX_MIX_H

#include <stdint.h>

/* The next number of the sequence whose state is *x (which it advances). */
static inline uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif
