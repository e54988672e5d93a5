/*
 * test_memsys.c — the memory hierarchy's latencies, replacement, MSHRs,
 * TLBs, perfect switches, warm-up and snapshots, each asserted at the exact
 * cycle memsys.h defines:
 *
 *   L1 hit            now + lat(L1)
 *   L1 miss, L2 hit   now + lat(L1) + lat(L2)
 *   L2 miss           now + lat(L1) + lat(L2) + memory latency
 *   TLB miss          the above, starting after the walk
 *
 * Most tests make the TLBs perfect so the cache timing stands alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/memsys.h"

#define L1I 1
#define L1D 2
#define L2 3

static struct machine_config cfg;

/* Defaults with perfect TLBs, then the given overrides. */
static struct memsys *make(const char *const *overrides)
{
	struct ivx_err err = { 0 };
	config_defaults(&cfg);
	cfg.perfect_dtlb = cfg.perfect_itlb = 1;
	for (; overrides && *overrides; overrides++)
		if (config_set(&cfg, *overrides, &err) != IVX_OK)
			fail_msg("%s", err.msg);
	struct memsys *m = memsys_new(&cfg, &err);
	if (!m)
		fail_msg("%s", err.msg);
	return m;
}

static struct mem_access load(struct memsys *m, uint64_t addr, uint64_t now)
{
	struct mem_access a;
	memset(&a, 0xee, sizeof a);
	memsys_load(m, addr, 8, now, &a);
	return a;
}

static struct mem_access fetch(struct memsys *m, uint64_t addr, uint64_t now)
{
	struct mem_access a;
	memsys_ifetch(m, addr, now, &a);
	return a;
}

static const uint64_t A = 0x100000;   /* a line-, page- and set-aligned address */
#define HIT_D   2u                     /* l1d.latency */
#define L2_D    (2u + 9u)
#define MEM_D   (2u + 9u + 250u)

/* ---- latencies -------------------------------------------------------- */

static void test_cold_load_goes_to_memory_then_hits(void **state)
{
	(void)state;
	struct memsys *m = make(NULL);
	struct mem_access a = load(m, A, 100);
	assert_int_equal(a.ready, 100 + MEM_D);
	assert_true(a.l1_miss && a.l2_miss);
	assert_false(a.merged || a.blocked || a.tlb_miss);
	a = load(m, A + 56, 1000);
	assert_int_equal(a.ready, 1000 + HIT_D);
	assert_false(a.l1_miss || a.l2_miss || a.merged);
	struct memsys_stats s;
	memsys_stats(m, &s);
	assert_int_equal(s.l1d_access, 2);
	assert_int_equal(s.l1d_miss, 1);
	assert_int_equal(s.l2_access, 1);
	assert_int_equal(s.l2_miss, 1);
	memsys_free(m);
}

static void test_l1_miss_that_hits_l2_takes_l1_plus_l2_latency(void **state)
{
	(void)state;
	struct memsys *m = make(NULL);
	load(m, A, 0);
	/* Four more lines in A's 4-way L1 set (16 KB / 4 ways: 4 KB apart)
	 * push A out of the L1; in the 2048-set L2 they land elsewhere. */
	for (int i = 1; i <= 4; i++)
		load(m, A + (uint64_t)i * 4096, 1000);
	assert_false(memsys_probe(m, L1D, A));
	assert_true(memsys_probe(m, L2, A));
	struct mem_access a = load(m, A, 5000);
	assert_int_equal(a.ready, 5000 + L2_D);
	assert_true(a.l1_miss);
	assert_false(a.l2_miss || a.merged);
	memsys_free(m);
}

static void test_direct_mapped_icache_misses_on_addresses_8k_apart(void **state)
{
	(void)state;
	struct memsys *m = make(NULL);
	struct mem_access a = fetch(m, A, 0);
	assert_int_equal(a.ready, 0 + 1 + 9 + 250);
	a = fetch(m, A + 8192, 1000);
	assert_true(a.l1_miss);
	assert_false(memsys_probe(m, L1I, A));
	a = fetch(m, A, 2000);   /* conflict miss, served by the L2 */
	assert_true(a.l1_miss);
	assert_false(a.l2_miss);
	assert_int_equal(a.ready, 2000 + 1 + 9);
	a = fetch(m, A + 4, 3000);
	assert_false(a.l1_miss);
	assert_int_equal(a.ready, 3000 + 1);
	memsys_free(m);
}

static void test_four_way_set_keeps_the_four_most_recently_used_lines(void **state)
{
	(void)state;
	struct memsys *m = make(NULL);
	uint64_t line[5];
	for (int i = 0; i < 5; i++)
		line[i] = A + (uint64_t)i * 4096;   /* all in one L1D set */
	for (int i = 0; i < 4; i++)
		load(m, line[i], 1000 * (uint64_t)i);
	load(m, line[0], 5000);                  /* line 1 is now least recent */
	load(m, line[4], 6000);
	assert_true(memsys_probe(m, L1D, line[0]));
	assert_false(memsys_probe(m, L1D, line[1]));
	assert_true(memsys_probe(m, L1D, line[2]));
	assert_true(memsys_probe(m, L1D, line[3]));
	assert_true(memsys_probe(m, L1D, line[4]));
	memsys_free(m);
}

/* ---- MSHRs ------------------------------------------------------------ */

static void test_access_to_line_in_flight_waits_for_the_same_fill(void **state)
{
	(void)state;
	struct memsys *m = make(NULL);
	struct mem_access first = load(m, A, 0);
	struct mem_access second = load(m, A + 8, 5);
	assert_int_equal(second.ready, first.ready);
	assert_true(second.l1_miss && second.l2_miss && second.merged);
	/* Once the fill has arrived it is an ordinary hit. */
	struct mem_access later = load(m, A + 16, first.ready);
	assert_int_equal(later.ready, first.ready + HIT_D);
	assert_false(later.l1_miss || later.merged);
	struct memsys_stats s;
	memsys_stats(m, &s);
	assert_int_equal(s.l1d_miss, 1);
	assert_int_equal(s.l2_miss, 1);
	memsys_free(m);
}

static void test_merge_at_l2_after_an_l1_miss(void **state)
{
	(void)state;
	/* The same line fetched as an instruction and then loaded as data:
	 * the load misses the L1D but joins the I-side's memory access. */
	struct memsys *m = make(NULL);
	struct mem_access f = fetch(m, A, 0);
	struct mem_access a = load(m, A, 3);
	assert_int_equal(a.ready, f.ready);
	assert_true(a.l1_miss && a.l2_miss && a.merged);
	struct memsys_stats s;
	memsys_stats(m, &s);
	assert_int_equal(s.l2_miss, 1);
	assert_int_equal(s.l1d_miss, 1);
	memsys_free(m);
}

static void test_two_l1_lines_of_one_l2_line_share_its_memory_access(void **state)
{
	(void)state;
	const char *o[] = { "l1d.line=32", "l2.line=64", NULL };
	struct memsys *m = make(o);
	struct mem_access a = load(m, A, 0);
	struct mem_access b = load(m, A + 32, 1);   /* another L1 line, same L2 line */
	assert_int_equal(b.ready, a.ready);
	assert_true(b.l1_miss && b.l2_miss && b.merged);
	struct memsys_stats s;
	memsys_stats(m, &s);
	assert_int_equal(s.l1d_miss, 2);
	assert_int_equal(s.l2_miss, 1);
	assert_int_equal(memsys_long_misses_in_flight(m, 10), 1);
	memsys_free(m);
}

static void test_all_mshrs_busy_blocks_and_changes_nothing(void **state)
{
	(void)state;
	const char *o[] = { "l1d.mshrs=2", "perfect.dtlb=0", NULL };
	struct memsys *m = make(o);
	struct mem_access a = load(m, A, 0);
	load(m, A + 64, 0);
	struct memsys_stats before, after;
	memsys_stats(m, &before);
	uint64_t third = A + 0x5000;   /* another page, another line */
	struct mem_access b = load(m, third, 1);
	assert_true(b.blocked);
	memsys_stats(m, &after);
	assert_false(memsys_probe(m, L1D, third));
	assert_false(memsys_probe(m, L2, third));
	assert_int_equal(after.l1d_access, before.l1d_access);
	assert_int_equal(after.dtlb_access, before.dtlb_access);
	assert_int_equal(after.mshr_blocked, before.mshr_blocked + 1);
	/* A merge needs no new MSHR, so it is not blocked. */
	struct mem_access c = load(m, A + 8, 2);
	assert_false(c.blocked);
	assert_true(c.merged);
	/* When a fill frees an MSHR the same access goes ahead, and its TLB
	 * miss shows: the refused attempt did not fill the TLB. */
	b = load(m, third, a.ready);
	assert_false(b.blocked);
	assert_true(b.tlb_miss);
	assert_int_equal(b.ready, a.ready + 30 + MEM_D);
	memsys_free(m);
}

/* The core skips the cycles in which a refused access would be refused
 * again (memsys_take_retry): it must be refused at every cycle before the
 * answer, and here (nothing else in flight changes) accepted at it. */
static void check_refused_until_retry(struct memsys *m, uint64_t addr, uint64_t now)
{
	memsys_take_retry(m);
	assert_true(load(m, addr, now).blocked);
	uint64_t at = memsys_take_retry(m);
	assert_true(at > now && at != UINT64_MAX);
	uint64_t refused = memsys_refused(m);
	for (uint64_t t = now + 1; t < at; t++)
		assert_true(load(m, addr, t).blocked);
	assert_int_equal(memsys_refused(m), refused + (at - now - 1));
	if (at > now + 1)   /* the later refusals give the same answer */
		assert_int_equal(memsys_take_retry(m), at);
	assert_false(load(m, addr, at).blocked);
	assert_int_equal(memsys_take_retry(m), UINT64_MAX);   /* nothing refused since */
}

static void test_refused_access_retry_cycle_is_exact(void **state)
{
	(void)state;
	/* L1 MSHRs busy, the refused access after a D-TLB walk */
	const char *o1[] = { "l1d.mshrs=2", "perfect.dtlb=0", NULL };
	struct memsys *m = make(o1);
	load(m, A, 0);
	load(m, A + 64, 3);
	check_refused_until_retry(m, A + 0x5000, 4);
	memsys_free(m);
	/* L2 MSHRs busy (the L1 has room), no TLB; two is the least a
	 * machine may have (config.c) */
	const char *o2[] = { "l2.mshrs=2", NULL };
	m = make(o2);
	load(m, A, 0);
	load(m, A + 0x20000, 0);
	check_refused_until_retry(m, A + 0x8000, 5);
	memsys_free(m);
}

static void test_l2_mshrs_limit_memory_misses(void **state)
{
	(void)state;
	const char *o[] = { "l2.mshrs=2", NULL };
	struct memsys *m = make(o);
	struct mem_access a = load(m, A, 0);
	load(m, A + 0x20000, 0);
	struct mem_access b = load(m, A + 64, 0);
	assert_true(b.blocked);
	assert_false(memsys_probe(m, L1D, A + 64));
	/* An L1 miss that hits the L2 needs no L2 MSHR. */
	memsys_warm_data(m, A + 128, 0);
	for (int i = 1; i <= 4; i++)
		memsys_warm_data(m, A + 128 + (uint64_t)i * 4096, 0);
	struct mem_access c = load(m, A + 128, 1);
	assert_false(c.blocked);
	assert_int_equal(c.ready, 1 + L2_D);
	b = load(m, A + 64, a.ready);
	assert_false(b.blocked);
	memsys_free(m);
}

static void test_long_misses_in_flight_counts_data_misses_at_l2(void **state)
{
	(void)state;
	struct memsys *m = make(NULL);
	assert_int_equal(memsys_long_misses_in_flight(m, 0), 0);
	struct mem_access a = load(m, A, 10);
	load(m, A + 64, 10);
	fetch(m, A + 0x10000, 10);   /* instruction misses do not count */
	/* The requests reach the L2 after the L1 lookup (2 cycles). */
	assert_int_equal(memsys_long_misses_in_flight(m, 11), 0);
	assert_int_equal(memsys_long_misses_in_flight(m, 12), 2);
	assert_int_equal(memsys_long_misses_in_flight(m, a.ready - 1), 2);
	assert_int_equal(memsys_long_misses_in_flight(m, a.ready), 0);
	memsys_free(m);
}

/* ---- lines crossing --------------------------------------------------- */

static void test_load_crossing_a_line_touches_both_lines(void **state)
{
	(void)state;
	struct memsys *m = make(NULL);
	memsys_warm_data(m, A, 0);            /* first line present, second not */
	struct mem_access a;
	memsys_load(m, A + 60, 8, 100, &a);
	assert_true(memsys_probe(m, L1D, A));
	assert_true(memsys_probe(m, L1D, A + 64));
	assert_int_equal(a.ready, 100 + MEM_D);   /* the later of the two */
	assert_true(a.l1_miss && a.l2_miss);
	assert_false(a.merged);
	struct memsys_stats s;
	memsys_stats(m, &s);
	assert_int_equal(s.l1d_access, 2);
	assert_int_equal(s.l1d_miss, 1);
	memsys_free(m);
}

static void test_crossing_access_without_two_free_mshrs_changes_nothing(void **state)
{
	(void)state;
	const char *o[] = { "l1d.mshrs=2", NULL };
	struct memsys *m = make(o);
	struct mem_access busy = load(m, A + 0x8000, 0);
	struct mem_access a;
	memsys_load(m, A + 60, 8, 1, &a);     /* both halves would miss */
	assert_true(a.blocked);
	assert_false(memsys_probe(m, L1D, A));
	assert_false(memsys_probe(m, L1D, A + 64));
	memsys_load(m, A + 60, 8, busy.ready, &a);
	assert_false(a.blocked);
	assert_true(memsys_probe(m, L1D, A) && memsys_probe(m, L1D, A + 64));
	memsys_free(m);
}

/* ---- stores, write-back, inclusion ------------------------------------ */

/* Store (or load) A, push A out of a 64 KB direct-mapped L2 with a line in
 * the same L2 set, then out of the 4-way L1D; report whether the L2 holds
 * A afterwards. */
static int l2_has_line_after_l1_eviction(int store_first)
{
	const char *o[] = { "l2.size=64K", "l2.assoc=1", NULL };
	struct memsys *m = make(o);
	struct mem_access a;
	if (store_first)
		memsys_store(m, A, 8, 0, &a);
	else
		memsys_load(m, A, 8, 0, &a);
	assert_true(memsys_probe(m, L1D, A));
	load(m, A + 0x10000, 1000);             /* same L2 set, same L1 set */
	assert_false(memsys_probe(m, L2, A));
	assert_true(memsys_probe(m, L1D, A));   /* not inclusive: L1 keeps it */
	for (int i = 1; i <= 3; i++)
		load(m, A + (uint64_t)i * 4096, 2000 * (uint64_t)i);
	assert_false(memsys_probe(m, L1D, A));
	int r = memsys_probe(m, L2, A);
	memsys_free(m);
	return r;
}

static void test_dirty_victim_is_written_back_to_l2_clean_one_is_dropped(void **state)
{
	(void)state;
	assert_true(l2_has_line_after_l1_eviction(1));
	assert_false(l2_has_line_after_l1_eviction(0));
}

static void test_store_miss_allocates_the_line(void **state)
{
	(void)state;
	struct memsys *m = make(NULL);
	struct mem_access a;
	memsys_store(m, A, 8, 0, &a);
	assert_true(a.l1_miss && a.l2_miss);
	assert_int_equal(a.ready, MEM_D);
	a = load(m, A, a.ready);
	assert_false(a.l1_miss);
	memsys_free(m);
}

/* ---- perfect components ---------------------------------------------- */

static void test_perfect_l1d_makes_a_cold_access_an_l1_hit(void **state)
{
	(void)state;
	const char *o[] = { "perfect.l1d=1", NULL };
	struct memsys *m = make(o);
	struct mem_access a = load(m, A, 50);
	assert_int_equal(a.ready, 50 + HIT_D);
	assert_false(a.l1_miss || a.l2_miss);
	struct memsys_stats s;
	memsys_stats(m, &s);
	assert_int_equal(s.l1d_miss, 0);
	assert_int_equal(s.l2_access, 0);
	/* The I-side is unaffected. */
	assert_true(fetch(m, A, 60).l2_miss);
	memsys_free(m);
}

static void test_perfect_l2d_makes_l1d_misses_hit_the_l2(void **state)
{
	(void)state;
	const char *o[] = { "perfect.l2d=1", NULL };
	struct memsys *m = make(o);
	struct mem_access a = load(m, A, 50);
	assert_int_equal(a.ready, 50 + L2_D);
	assert_true(a.l1_miss);
	assert_false(a.l2_miss);
	assert_true(fetch(m, A + 0x40000, 60).l2_miss);
	memsys_free(m);
}

static void test_perfect_i_side_switches(void **state)
{
	(void)state;
	const char *o1[] = { "perfect.l1i=1", NULL };
	struct memsys *m = make(o1);
	struct mem_access a = fetch(m, A, 10);
	assert_int_equal(a.ready, 11);
	assert_false(a.l1_miss);
	assert_true(load(m, A, 20).l2_miss);    /* the D-side is unaffected */
	memsys_free(m);

	const char *o2[] = { "perfect.l2i=1", NULL };
	m = make(o2);
	a = fetch(m, A, 10);
	assert_int_equal(a.ready, 10 + 1 + 9);
	assert_true(a.l1_miss);
	assert_false(a.l2_miss);
	memsys_free(m);

	const char *o3[] = { "perfect.itlb=0", NULL };
	m = make(o3);
	a = fetch(m, A, 10);
	assert_true(a.tlb_miss);
	assert_int_equal(a.ready, 10 + 30 + 1 + 9 + 250);
	memsys_free(m);
}

/* ---- TLBs ------------------------------------------------------------- */

static void test_tlb_miss_adds_the_walk_before_the_cache_access(void **state)
{
	(void)state;
	const char *o[] = { "perfect.dtlb=0", NULL };
	struct memsys *m = make(o);
	struct mem_access a = load(m, A, 0);
	assert_true(a.tlb_miss);
	assert_false(a.tlb_merged);
	assert_int_equal(a.ready, 30 + MEM_D);
	/* Another line of the page while the walk is in flight waits for it. */
	struct mem_access b = load(m, A + 0x800, 1);
	assert_false(b.tlb_miss);
	assert_true(b.tlb_merged);
	assert_int_equal(b.ready, 30 + MEM_D);
	/* After the walk, the page hits. */
	struct mem_access c = load(m, A + 0xc00, 1000);
	assert_false(c.tlb_miss || c.tlb_merged);
	assert_int_equal(c.ready, 1000 + MEM_D);
	struct memsys_stats s;
	memsys_stats(m, &s);
	assert_int_equal(s.dtlb_access, 3);
	assert_int_equal(s.dtlb_miss, 1);
	memsys_free(m);
}

static void test_tlb_replaces_the_least_recently_used_page(void **state)
{
	(void)state;
	const char *o[] = { "perfect.dtlb=0", "dtlb.entries=4", "dtlb.assoc=4", NULL };
	struct memsys *m = make(o);
	for (uint64_t p = 0; p < 4; p++)
		load(m, A + p * 4096, 1000 * p);
	load(m, A, 5000);                        /* page 1 is now least recent */
	assert_true(load(m, A + 4 * 4096, 6000).tlb_miss);
	assert_false(load(m, A, 7000).tlb_miss);
	assert_true(load(m, A + 1 * 4096, 8000).tlb_miss);
	memsys_free(m);
}

/* ---- warm-up ---------------------------------------------------------- */

static void test_warm_up_fills_caches_and_tlbs_without_timing_or_stats(void **state)
{
	(void)state;
	const char *o[] = { "perfect.dtlb=0", "perfect.itlb=0", NULL };
	struct memsys *m = make(o);
	memsys_warm_data(m, A, 1);
	memsys_warm_ifetch(m, A + 0x20000);
	assert_true(memsys_probe(m, L1D, A) && memsys_probe(m, L2, A));
	assert_true(memsys_probe(m, L1I, A + 0x20000) && memsys_probe(m, L2, A + 0x20000));
	struct memsys_stats s;
	memsys_stats(m, &s);
	assert_int_equal(s.l1d_access + s.l1i_access + s.l2_access + s.dtlb_access, 0);
	struct mem_access a = load(m, A, 100);
	assert_int_equal(a.ready, 100 + HIT_D);
	assert_false(a.tlb_miss || a.l1_miss);
	a = fetch(m, A + 0x20000, 100);
	assert_int_equal(a.ready, 101);
	assert_false(a.tlb_miss || a.l1_miss);
	memsys_free(m);
}

/* A fetch from the line of the last fetch, which hit, hits again at once
 * and is counted; warming the I-side in between (here evicting that line
 * from the direct-mapped L1I) is seen by the next fetch. */
static void test_fetch_from_the_last_hit_line_hits_until_the_i_side_changes(void **state)
{
	(void)state;
	struct memsys *m = make(NULL);
	fetch(m, A, 0);                        /* cold: from memory */
	struct mem_access a = fetch(m, A, 1000);
	assert_int_equal(a.ready, 1000 + 1);
	assert_false(a.l1_miss || a.merged || a.blocked);
	a = fetch(m, A + 60, 1001);            /* the same line again */
	assert_int_equal(a.ready, 1001 + 1);
	assert_false(a.l1_miss || a.l2_miss || a.merged || a.blocked || a.tlb_miss);
	memsys_warm_ifetch(m, A + 8192);       /* same set: A is evicted */
	a = fetch(m, A, 2000);
	assert_true(a.l1_miss);
	assert_false(a.l2_miss);
	assert_int_equal(a.ready, 2000 + 1 + 9);
	struct memsys_stats s;
	memsys_stats(m, &s);
	assert_int_equal(s.l1i_access, 4);
	assert_int_equal(s.l1i_miss, 2);
	memsys_free(m);
}

/* ---- snapshots -------------------------------------------------------- */

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* One pseudo-random access; returns a digest of its outcome. */
static uint64_t random_access(struct memsys *m, uint64_t now, uint64_t r)
{
	struct mem_access a;
	uint64_t addr = 0x400000 + (r >> 8) % (3u << 20);
	switch (r & 3) {
	case 0: memsys_ifetch(m, addr & ~3ull, now, &a); break;
	case 1: memsys_store(m, addr, 8, now, &a); break;
	default: memsys_load(m, addr, 1 + (r >> 4) % 16, now, &a); break;
	}
	return a.ready * 64 + a.l1_miss + 2 * a.l2_miss + 4 * a.tlb_miss + 8 * a.merged +
	       16 * a.blocked + 32 * a.tlb_merged;
}

static void test_copy_is_exact(void **state)
{
	(void)state;
	const char *o[] = { "perfect.dtlb=0", "perfect.itlb=0", "l1d.mshrs=3", NULL };
	struct memsys *m = make(o);
	struct memsys *twin = make(o);
	uint64_t now = 0;
	for (int i = 0; i < 20000; i++)
		random_access(m, now += next_rand() % 3, next_rand());
	assert_int_equal(memsys_copy(twin, m), IVX_OK);
	uint64_t saved_rng = rng, saved_now = now;
	uint64_t d1 = 0, d2 = 0;
	for (int i = 0; i < 20000; i++)
		d1 = d1 * 31 + random_access(m, now += next_rand() % 3, next_rand());
	rng = saved_rng;
	now = saved_now;
	for (int i = 0; i < 20000; i++)
		d2 = d2 * 31 + random_access(twin, now += next_rand() % 3, next_rand());
	assert_true(d1 == d2);
	struct memsys_stats s1, s2;
	memsys_stats(m, &s1);
	memsys_stats(twin, &s2);
	assert_memory_equal(&s1, &s2, sizeof s1);
	assert_true(s1.mshr_blocked > 0 && s1.l2_miss > 0 && s1.dtlb_miss > 0);
	memsys_free(m);
	memsys_free(twin);
}

static void test_copy_refuses_a_different_geometry(void **state)
{
	(void)state;
	struct memsys *m = make(NULL);
	const char *o[] = { "l2.size=2M", NULL };
	struct memsys *other = make(o);
	assert_int_not_equal(memsys_copy(other, m), IVX_OK);
	memsys_free(m);
	memsys_free(other);
}

static void test_new_refuses_an_invalid_machine(void **state)
{
	(void)state;
	struct machine_config c;
	struct ivx_err err = { 0 };
	config_defaults(&c);
	c.l1d.line = 48;
	assert_null(memsys_new(&c, &err));
	assert_int_equal(err.code, IVX_EUSAGE);
	assert_non_null(strstr(err.msg, "l1d.line"));
	memsys_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cold_load_goes_to_memory_then_hits),
		cmocka_unit_test(test_l1_miss_that_hits_l2_takes_l1_plus_l2_latency),
		cmocka_unit_test(test_direct_mapped_icache_misses_on_addresses_8k_apart),
		cmocka_unit_test(test_four_way_set_keeps_the_four_most_recently_used_lines),
		cmocka_unit_test(test_access_to_line_in_flight_waits_for_the_same_fill),
		cmocka_unit_test(test_merge_at_l2_after_an_l1_miss),
		cmocka_unit_test(test_two_l1_lines_of_one_l2_line_share_its_memory_access),
		cmocka_unit_test(test_all_mshrs_busy_blocks_and_changes_nothing),
		cmocka_unit_test(test_l2_mshrs_limit_memory_misses),
		cmocka_unit_test(test_long_misses_in_flight_counts_data_misses_at_l2),
		cmocka_unit_test(test_load_crossing_a_line_touches_both_lines),
		cmocka_unit_test(test_crossing_access_without_two_free_mshrs_changes_nothing),
		cmocka_unit_test(test_dirty_victim_is_written_back_to_l2_clean_one_is_dropped),
		cmocka_unit_test(test_store_miss_allocates_the_line),
		cmocka_unit_test(test_perfect_l1d_makes_a_cold_access_an_l1_hit),
		cmocka_unit_test(test_perfect_l2d_makes_l1d_misses_hit_the_l2),
		cmocka_unit_test(test_perfect_i_side_switches),
		cmocka_unit_test(test_tlb_miss_adds_the_walk_before_the_cache_access),
		cmocka_unit_test(test_tlb_replaces_the_least_recently_used_page),
		cmocka_unit_test(test_warm_up_fills_caches_and_tlbs_without_timing_or_stats),
		cmocka_unit_test(test_refused_access_retry_cycle_is_exact),
		cmocka_unit_test(test_fetch_from_the_last_hit_line_hits_until_the_i_side_changes),
		cmocka_unit_test(test_copy_is_exact),
		cmocka_unit_test(test_copy_refuses_a_different_geometry),
		cmocka_unit_test(test_new_refuses_an_invalid_machine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
