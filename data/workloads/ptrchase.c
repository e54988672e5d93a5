/*
 * ptrchase.c — pointer chasing around one random cycle of 64-byte nodes.
 *
 * Personality: every load's address is the previous load's result and the
 * footprint (default 32 MB) is far beyond the 1 MB L2, so nearly every step
 * is a long D-cache miss that cannot overlap with the next one: memory
 * latency, no memory-level parallelism (and a DTLB miss per step: the
 * nodes span 8192 pages). The setup phase (Sattolo shuffle)
 * is itself random-access but independent, so it overlaps misses.
 *
 * Scale s: s MB of nodes (s * 16384 nodes of one cache line each); the
 * chase takes 8 steps per node. Default 32.
 */
#include "rt.h"

#define DEFAULT_SCALE 32
#define TEST_SCALE 1
#define STEPS_PER_NODE 8

struct node {
	struct node *next;  /* the chain; one node per 64-byte line */
	uint64_t val;       /* summed along the way */
	uint64_t pad[6];
};

int main(int argc, char **argv)
{
	size_t n = rt_arg_scale(argc, argv, DEFAULT_SCALE) * 16384;
	struct node *nodes = malloc(n * sizeof *nodes);
	struct rt_rng rng;
	rt_check(nodes, "out of memory");
	rt_check(sizeof(struct node) == 64, "node is one cache line");

	for (size_t i = 0; i < n; i++) {
		nodes[i].next = &nodes[i];
		nodes[i].val = i * 2654435761u;
	}
	/* Sattolo's algorithm: swapping with a strictly smaller index turns
	 * the identity into a single cycle through all n nodes. */
	rt_rng_seed(&rng, 42);
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = rt_rng_below(&rng, i);
		struct node *t = nodes[i].next;
		nodes[i].next = nodes[j].next;
		nodes[j].next = t;
	}

	size_t steps = n * STEPS_PER_NODE;
	const struct node *p = &nodes[0];
	uint64_t sum = 0;
	for (size_t i = 0; i < steps; i++) {
		p = p->next;
		sum += p->val;
	}
	/* Count the cycle length once, to check the permutation. */
	size_t len = 0;
	p = &nodes[0];
	do {
		p = p->next;
		len++;
	} while (p != &nodes[0]);
	rt_check(len == n, "one cycle through every node");

	printf("ptrchase nodes=%lu steps=%lu checksum=%016lx\n",
	       (unsigned long)n, (unsigned long)steps, rt_mix(RT_CHECKSUM_INIT, sum));
	return 0;
}
