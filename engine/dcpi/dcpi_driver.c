/*
 * dcpi_driver.c — the device driver's sample aggregation (DCPI section
 * 4.2.1): a hash table of (pid, pc, event) -> count in buckets of four
 * 16-byte entries (one 64-byte cache line each), and a pair of overflow
 * buffers for the entries it evicts.
 *
 * A sample hashes to one bucket. If one of its four entries holds the
 * same (pid, pc, event), its count goes up (a hit). Otherwise the sample
 * takes an empty entry if the bucket has one, or else evicts the entry at
 * way rr % 4 (rr: a single round-robin counter, incremented at every
 * eviction) into the active overflow buffer. A buffer that fills is
 * handed to the daemon and the other one takes the evictions meanwhile.
 *
 * The memory belongs to the caller (it is part of the profiler's
 * snapshot block); this file only reads and writes it.
 */
#include <string.h>
#include "dcpi.h"

/* The paper does not give its hash function: ivx mixes the triple with a
 * multiplicative hash (Knuth's golden-ratio constant) and takes the top
 * bits, so nearby pcs spread over the table. */
uint32_t dcpi_driver_bucket(uint32_t nbuckets, uint32_t pid, uint64_t pc, int event)
{
	uint64_t h = (pc >> 2) ^ ((uint64_t)(pid & 0xffff) << 46) ^ ((uint64_t)event << 62);
	h *= 0x9e3779b97f4a7c15ull;
	h ^= h >> 29;
	return (uint32_t)(h % nbuckets);
}

/* Append e to the active buffer; switch buffers when it fills. */
static void evict_to_buffer(struct dcpi_driver *dr, const struct dcpi_entry *e, int *full)
{
	uint32_t a = *dr->active;
	dr->buf[a][dr->fill[a]++] = *e;
	if (dr->fill[a] == dr->buf_entries) {
		*full = (int)a;
		*dr->active = a ^ 1;
	}
}

int dcpi_driver_record(struct dcpi_driver *dr, uint32_t pid, uint64_t pc, int event, int *full)
{
	*full = -1;
	struct dcpi_entry *b = dr->table + (size_t)dcpi_driver_bucket(dr->nbuckets, pid, pc, event) * DCPI_WAYS;
	int free_way = -1;
	for (int w = 0; w < DCPI_WAYS; w++) {
		struct dcpi_entry *e = &b[w];
		if (!e->count) {
			if (free_way < 0)
				free_way = w;
			continue;
		}
		if (e->pc == pc && e->pid == (uint16_t)pid && e->event == (uint8_t)event) {
			if (e->count == UINT32_MAX) {
				/* a full count goes to the daemon; the entry starts over */
				evict_to_buffer(dr, e, full);
				e->count = 0;
			}
			e->count++;
			return DCPI_HIT;
		}
	}
	struct dcpi_entry fresh = { .pc = pc, .pid = (uint16_t)pid, .event = (uint8_t)event, .count = 1 };
	if (free_way >= 0) {
		b[free_way] = fresh;
		return DCPI_MISS_FREE;
	}
	int way = (int)(*dr->rr % DCPI_WAYS);
	(*dr->rr)++;
	evict_to_buffer(dr, &b[way], full);
	b[way] = fresh;
	return DCPI_MISS_EVICT;
}

void dcpi_driver_drained(struct dcpi_driver *dr, int buf)
{
	dr->fill[buf] = 0;
	memset(dr->buf[buf], 0, (size_t)dr->buf_entries * sizeof(struct dcpi_entry));
}
