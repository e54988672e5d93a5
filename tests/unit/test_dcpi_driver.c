/*
 * test_dcpi_driver.c — the DCPI driver's hash table on its own: a sample
 * that matches an entry counts there; a new one takes a free way; in a
 * full bucket the mod-4 round-robin counter picks the victim, which goes
 * to the active overflow buffer; a full buffer is handed over and the
 * other one takes the evictions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "dcpi/dcpi.h"

#define BUCKETS 4
#define BUF 3

struct fixture {
	struct dcpi_entry table[BUCKETS * DCPI_WAYS];
	struct dcpi_entry buf[2][BUF];
	uint32_t fill[2], active, rr;
	struct dcpi_driver dr;
};

static void setup(struct fixture *f)
{
	memset(f, 0, sizeof *f);
	f->dr = (struct dcpi_driver){ .table = f->table, .buf = { f->buf[0], f->buf[1] }, .nbuckets = BUCKETS,
				      .buf_entries = BUF, .fill = f->fill, .active = &f->active, .rr = &f->rr };
}

/* n distinct pcs that all hash to bucket b */
static void same_bucket(uint32_t b, uint64_t *pcs, int n)
{
	int k = 0;
	for (uint64_t pc = 0x400000; k < n; pc += 4)
		if (dcpi_driver_bucket(BUCKETS, 1, pc, DCPI_CYCLES) == b)
			pcs[k++] = pc;
}

static void a_repeated_sample_counts_in_its_entry(void **state)
{
	(void)state;
	struct fixture f;
	setup(&f);
	int full;
	assert_int_equal(dcpi_driver_record(&f.dr, 1, 0x400100, DCPI_CYCLES, &full), DCPI_MISS_FREE);
	for (int i = 0; i < 9; i++)
		assert_int_equal(dcpi_driver_record(&f.dr, 1, 0x400100, DCPI_CYCLES, &full), DCPI_HIT);
	/* another event or pid at the same pc is another entry */
	assert_int_equal(dcpi_driver_record(&f.dr, 1, 0x400100, DCPI_IMISS, &full), DCPI_MISS_FREE);
	assert_int_equal(dcpi_driver_record(&f.dr, 2, 0x400100, DCPI_CYCLES, &full), DCPI_MISS_FREE);
	uint32_t b = dcpi_driver_bucket(BUCKETS, 1, 0x400100, DCPI_CYCLES);
	int found = 0;
	for (int w = 0; w < DCPI_WAYS; w++) {
		struct dcpi_entry *e = &f.table[b * DCPI_WAYS + w];
		if (e->pc == 0x400100 && e->pid == 1 && e->event == DCPI_CYCLES) {
			assert_int_equal(e->count, 10);
			found++;
		}
	}
	assert_int_equal(found, 1);
	assert_int_equal(f.fill[0] + f.fill[1], 0);
	assert_int_equal(sizeof(struct dcpi_entry), 16);   /* four to a 64-byte line */
}

static void evictions_go_round_robin_mod_4_into_the_buffers(void **state)
{
	(void)state;
	struct fixture f;
	setup(&f);
	uint64_t pc[12];
	same_bucket(2, pc, 12);
	int full;
	for (int i = 0; i < 4; i++)
		assert_int_equal(dcpi_driver_record(&f.dr, 1, pc[i], DCPI_CYCLES, &full), DCPI_MISS_FREE);
	/* ways 0,1,2 are evicted in that order into buffer 0, which fills */
	for (int i = 4; i < 7; i++) {
		assert_int_equal(dcpi_driver_record(&f.dr, 1, pc[i], DCPI_CYCLES, &full), DCPI_MISS_EVICT);
		assert_int_equal(f.buf[0][i - 4].pc, pc[i - 4]);
		assert_int_equal(full, i == 6 ? 0 : -1);
	}
	assert_int_equal(f.active, 1);
	/* way 3 next, into buffer 1; then the counter wraps to way 0 (now pc[4]) */
	assert_int_equal(dcpi_driver_record(&f.dr, 1, pc[7], DCPI_CYCLES, &full), DCPI_MISS_EVICT);
	assert_int_equal(f.buf[1][0].pc, pc[3]);
	assert_int_equal(dcpi_driver_record(&f.dr, 1, pc[8], DCPI_CYCLES, &full), DCPI_MISS_EVICT);
	assert_int_equal(f.buf[1][1].pc, pc[4]);
	assert_int_equal(f.rr, 5);
	assert_int_equal(f.table[2 * DCPI_WAYS + 0].pc, pc[8]);
	/* the daemon drains buffer 0; buffer 1 fills and hands over */
	dcpi_driver_drained(&f.dr, 0);
	assert_int_equal(f.fill[0], 0);
	assert_int_equal(dcpi_driver_record(&f.dr, 1, pc[9], DCPI_CYCLES, &full), DCPI_MISS_EVICT);
	assert_int_equal(full, 1);
	assert_int_equal(f.active, 0);
	assert_int_equal(f.buf[1][2].pc, pc[5]);
}

static void an_evicted_entry_keeps_its_count(void **state)
{
	(void)state;
	struct fixture f;
	setup(&f);
	uint64_t pc[5];
	same_bucket(0, pc, 5);
	int full;
	for (int i = 0; i < 4; i++)
		for (int k = 0; k <= i; k++)
			dcpi_driver_record(&f.dr, 7, pc[i], DCPI_DMISS, &full);
	dcpi_driver_record(&f.dr, 7, pc[4], DCPI_DMISS, &full);
	assert_int_equal(f.fill[0], 1);
	assert_int_equal(f.buf[0][0].pc, pc[0]);
	assert_int_equal(f.buf[0][0].count, 1);
	assert_int_equal(f.buf[0][0].pid, 7);
	assert_int_equal(f.buf[0][0].event, DCPI_DMISS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_repeated_sample_counts_in_its_entry),
		cmocka_unit_test(evictions_go_round_robin_mod_4_into_the_buffers),
		cmocka_unit_test(an_evicted_entry_keeps_its_count),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
