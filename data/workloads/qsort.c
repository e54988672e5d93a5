/*
 * qsort.c — quicksort of pseudo-random 32-bit keys.
 *
 * Median-of-three quicksort, recursing into the smaller part and looping on
 * the larger, insertion sort below 16 elements. The result is checked to be
 * sorted, so a wrong emulation cannot go unnoticed.
 *
 * Personality: the partition comparisons are data dependent and close to
 * 50/50, so branch mispredictions are frequent; accesses are sequential
 * from both ends (L1 misses stream well); recursion adds calls and returns.
 *
 * Scale s: s * 4096 keys. Default 48 (192 K keys, 768 KB).
 */
#include "rt.h"

#define DEFAULT_SCALE 48
#define TEST_SCALE 1

static void insertion_sort(uint32_t *a, long n)
{
	for (long i = 1; i < n; i++) {
		uint32_t key = a[i];
		long j = i - 1;
		while (j >= 0 && a[j] > key) {
			a[j + 1] = a[j];
			j--;
		}
		a[j + 1] = key;
	}
}

static void swap(uint32_t *a, long i, long j)
{
	uint32_t t = a[i];
	a[i] = a[j];
	a[j] = t;
}

static void quicksort(uint32_t *a, long n)
{
	while (n > 16) {
		long mid = n / 2;
		if (a[mid] < a[0]) swap(a, mid, 0);
		if (a[n - 1] < a[0]) swap(a, n - 1, 0);
		if (a[n - 1] < a[mid]) swap(a, n - 1, mid);
		uint32_t pivot = a[mid];

		long i = 0, j = n - 1;
		for (;;) {
			while (a[i] < pivot) i++;
			while (a[j] > pivot) j--;
			if (i >= j)
				break;
			swap(a, i, j);
			i++;
			j--;
		}
		/* [0, j] <= pivot <= [j+1, n) */
		long left = j + 1;
		if (left < n - left) {
			quicksort(a, left);
			a += left;
			n -= left;
		} else {
			quicksort(a + left, n - left);
			n = left;
		}
	}
	insertion_sort(a, n);
}

int main(int argc, char **argv)
{
	long n = (long)rt_arg_scale(argc, argv, DEFAULT_SCALE) * 4096;
	uint32_t *a = malloc((size_t)n * sizeof *a);
	struct rt_rng rng;
	uint64_t h = RT_CHECKSUM_INIT;

	rt_check(a, "out of memory");
	rt_rng_seed(&rng, 11);
	for (long i = 0; i < n; i++)
		a[i] = (uint32_t)(rt_rng_next(&rng) >> 32);
	quicksort(a, n);
	for (long i = 1; i < n; i++)
		rt_check(a[i - 1] <= a[i], "sorted");
	for (long i = 0; i < n; i += 97)
		h = rt_mix(h, a[i]);
	printf("qsort n=%ld min=%u max=%u checksum=%016lx\n", n, a[0], a[n - 1], h);
	return 0;
}
