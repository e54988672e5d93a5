/*
 * test_mem.c — guest memory regions keep their contents through unmaps,
 * resizes and copies, and a copy into fresh buffers stores only the pages
 * that are not all zero (what keeps snapshots small).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "isa/mem.h"

#define PAGE MEM_PAGE_SIZE
#define BASE 0x100000ull

static void put(struct mem *m, uint64_t addr, uint8_t v)
{
	uint64_t bad = 0;
	assert_int_equal(mem_write_bytes(m, addr, &v, 1, 0, &bad), 0);
}

static uint8_t get(struct mem *m, uint64_t addr)
{
	uint8_t v = 0xee;
	uint64_t bad = 0;
	assert_int_equal(mem_read_bytes(m, addr, &v, 1, 0, &bad), 0);
	return v;
}

static int mapped(struct mem *m, uint64_t addr)
{
	return mem_find(m, addr) != NULL;
}

/* 64 pages, three of them written. */
static struct mem *sample(void)
{
	struct mem *m = mem_new();
	assert_non_null(m);
	assert_int_equal(mem_map(m, BASE, 64 * PAGE, MEM_R | MEM_W, "test", NULL), 0);
	put(m, BASE + 3, 0x11);
	put(m, BASE + 20 * PAGE + 100, 0x22);
	put(m, BASE + 64 * PAGE - 1, 0x33);
	return m;
}

static void a_fresh_copy_stores_only_nonzero_pages(void **state)
{
	(void)state;
	struct mem *src = sample(), *dst = mem_new();
	assert_int_equal(mem_copy(dst, src, NULL), 0);
	assert_int_equal(dst->copied_bytes, 3 * PAGE);
	assert_int_equal(dst->mapped_bytes, 64 * PAGE);
	for (uint64_t a = BASE; a < BASE + 64 * PAGE; a += 97)
		assert_int_equal(get(dst, a), get(src, a));
	assert_int_equal(get(dst, BASE + 20 * PAGE + 100), 0x22);
	assert_int_equal(get(dst, BASE + 64 * PAGE - 1), 0x33);
	mem_free(src);
	mem_free(dst);
}

static void copying_back_restores_every_byte(void **state)
{
	(void)state;
	struct mem *live = sample(), *snap = mem_new();
	assert_int_equal(mem_copy(snap, live, NULL), 0);
	put(live, BASE + 3, 0x99);             /* a page the copy has */
	put(live, BASE + 40 * PAGE, 0x98);     /* a page it left out (zero) */
	assert_int_equal(mem_copy(live, snap, NULL), 0);   /* same region: in place */
	/* (pages the host never backed on either side are neither read nor written) */
	assert_in_range(live->copied_bytes, 3 * PAGE, 64 * PAGE);
	assert_int_equal(get(live, BASE + 3), 0x11);
	assert_int_equal(get(live, BASE + 40 * PAGE), 0);
	assert_int_equal(get(live, BASE + 20 * PAGE + 100), 0x22);
	mem_free(live);
	mem_free(snap);
}

static void unmapping_part_of_a_region_keeps_the_rest(void **state)
{
	(void)state;
	struct mem *m = sample();
	assert_int_equal(mem_unmap(m, BASE + 60 * PAGE, 4 * PAGE, NULL), 0);   /* tail */
	assert_int_equal(mem_unmap(m, BASE, 2 * PAGE, NULL), 0);                /* head */
	assert_int_equal(mem_unmap(m, BASE + 10 * PAGE, PAGE, NULL), 0);        /* middle */
	assert_false(mapped(m, BASE));
	assert_false(mapped(m, BASE + 10 * PAGE));
	assert_false(mapped(m, BASE + 60 * PAGE));
	assert_true(mapped(m, BASE + 2 * PAGE));
	assert_int_equal(get(m, BASE + 20 * PAGE + 100), 0x22);
	assert_int_equal(m->mapped_bytes, (64 - 4 - 2 - 1) * PAGE);
	mem_unmap_all(m);
	assert_int_equal(m->mapped_bytes, 0);
	assert_false(mapped(m, BASE + 20 * PAGE));
	mem_free(m);
}

static void a_grown_region_reads_zero_beyond_its_old_end(void **state)
{
	(void)state;
	struct mem *m = sample();
	assert_int_equal(mem_resize(m, BASE, 32 * PAGE, NULL), 0);
	assert_int_equal(get(m, BASE + 20 * PAGE + 100), 0x22);
	assert_false(mapped(m, BASE + 40 * PAGE));
	assert_int_equal(mem_resize(m, BASE, 200 * PAGE, NULL), 0);
	assert_int_equal(get(m, BASE + 3), 0x11);
	assert_int_equal(get(m, BASE + 63 * PAGE), 0);   /* was 0x33 before the shrink */
	assert_int_equal(get(m, BASE + 199 * PAGE), 0);
	put(m, BASE + 199 * PAGE, 0x44);
	assert_int_equal(get(m, BASE + 199 * PAGE), 0x44);
	mem_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_fresh_copy_stores_only_nonzero_pages),
		cmocka_unit_test(copying_back_restores_every_byte),
		cmocka_unit_test(unmapping_part_of_a_region_keeps_the_rest),
		cmocka_unit_test(a_grown_region_reads_zero_beyond_its_old_end),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
