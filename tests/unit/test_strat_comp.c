/*
 * test_strat_comp.c — the stream compressors of engine/strat on small
 * hand-made streams: the hash's three steps, each sampler's exact choice
 * of tuples and counts, H routing by the hash, A_k merging and evicting,
 * every transition of the tagged compressor's state machine, the sketch
 * baselines, determinism and snapshots.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "strat/strat.h"
#include "strat/strat_mc.h"

#define MAX_MSGS 4096

struct log {
	int n_samples, n_messages;
	struct strat_msg samples[MAX_MSGS];
	struct strat_msg messages[MAX_MSGS];
	uint64_t positions[MAX_MSGS];   /* tuple number that made each sample */
	uint64_t pushed;
};

static void log_sample(void *ctx, const struct strat_msg *m)
{
	struct log *l = ctx;
	if (l->n_samples < MAX_MSGS) {
		l->positions[l->n_samples] = l->pushed;
		l->samples[l->n_samples++] = *m;
	}
}

static void log_message(void *ctx, const struct strat_msg *m)
{
	struct log *l = ctx;
	if (l->n_messages < MAX_MSGS)
		l->messages[l->n_messages++] = *m;
}

static struct strat_comp *make(const char *text, uint64_t seed, struct log *l)
{
	struct strat_spec spec;
	struct ivx_err err = { 0 };
	if (strat_spec_parse(text, &spec, &err) < 0)
		fail_msg("%s", err.msg);
	struct strat_comp *c = strat_comp_new(&spec, seed, &err);
	if (!c)
		fail_msg("%s", err.msg);
	memset(l, 0, sizeof *l);
	struct strat_sink sink = { l, log_sample, log_message };
	strat_comp_set_sink(c, &sink);
	return c;
}

static void push(struct strat_comp *c, struct log *l, uint64_t pc, uint64_t val)
{
	l->pushed++;
	strat_comp_push(c, pc, val);
}

/* ---- the hash ---- */

static void test_hash_steps_are_the_papers(void **state)
{
	assert_int_equal(strat_flip(0x0102030405060708ull), 0x0807060504030201ull);
	assert_int_equal(strat_xor_fold(0x12345678, 8), 0x12 ^ 0x34 ^ 0x56 ^ 0x78);
	assert_int_equal(strat_xor_fold(0xfff, 4), 0xf ^ 0xf ^ 0xf);
	assert_int_equal(strat_xor_fold(0xabc, 0), 0);
	/* the table is a permutation of the bytes, applied to each byte */
	const uint8_t *t = strat_random_table();
	int seen[256] = { 0 };
	for (int i = 0; i < 256; i++)
		seen[t[i]]++;
	for (int i = 0; i < 256; i++)
		assert_int_equal(seen[i], 1);
	assert_int_equal(strat_randomize(0x0100ff), (uint64_t)t[1] << 16 | (uint64_t)t[0] << 8 | t[0xff] |
							   (uint64_t)t[0] << 24 | (uint64_t)t[0] << 32 |
							   (uint64_t)t[0] << 40 | (uint64_t)t[0] << 48 |
							   (uint64_t)t[0] << 56);
	uint64_t pc = 0x4005a8, w = 0xdeadbeef;
	assert_int_equal(strat_hash_index(pc, w, 11),
			 strat_xor_fold(strat_flip(strat_randomize(pc)) ^ strat_randomize(w), 11));
	assert_true(strat_hash_index(pc, w, 11) < 2048);
	for (uint64_t k = 1; k < 5000; k++)   /* the fast form is the definition */
		assert_int_equal(strat_hash_index(k * 0x9e3779b97f4a7c15ull, k * k, (int)(k % 20) + 1),
				 strat_xor_fold(strat_flip(strat_randomize(k * 0x9e3779b97f4a7c15ull)) ^ strat_randomize(k * k), (int)(k % 20) + 1));
	assert_int_equal(strat_hash_tag(0x10, 0x3, 2), (0x13 & 3) ^ ((0x13 >> 2) & 3) ^ ((0x13 >> 4) & 3));
}

/* ---- samplers ---- */

static void test_periodic_keeps_every_rth(void **state)
{
	struct log l;
	struct strat_comp *c = make("P4", 1, &l);
	for (uint64_t i = 1; i <= 10; i++)
		push(c, &l, 0x400000, i);
	assert_int_equal(l.n_samples, 2);
	assert_int_equal(l.samples[0].val, 4);
	assert_int_equal(l.samples[0].count, 4);
	assert_int_equal(l.samples[1].val, 8);
	assert_int_equal(l.n_messages, 2);   /* no later stage: samples are messages */
	strat_comp_free(c);
}

static void test_counter_reports_the_gap(void **state)
{
	struct log l;
	/* CR1 takes every tuple: each message stands for one */
	struct strat_comp *c = make("CR1", 1, &l);
	for (uint64_t i = 0; i < 5; i++)
		push(c, &l, 0x400000, i);
	assert_int_equal(l.n_samples, 5);
	for (int i = 0; i < 5; i++)
		assert_int_equal(l.samples[i].count, 1);
	strat_comp_free(c);
	/* CR8: the counts are the gaps between samples: they add up to the
	 * position of the last sample */
	c = make("CR8", 7, &l);
	for (uint64_t i = 0; i < 10000; i++)
		push(c, &l, 0x400000, i);
	uint64_t sum = 0;
	for (int i = 0; i < l.n_samples; i++) {
		assert_int_equal(l.samples[i].count, l.positions[i] - (i ? l.positions[i - 1] : 0));
		sum += l.samples[i].count;
	}
	assert_int_equal(sum, l.positions[l.n_samples - 1]);
	struct strat_cell cell;
	strat_comp_cell(c, 0, &cell);
	assert_int_equal(sum + cell.count, 10000);   /* what the counter holds is the tail */
	strat_comp_free(c);
	/* CP5 counts exactly 5 each time */
	c = make("CP5", 1, &l);
	for (uint64_t i = 0; i < 12; i++)
		push(c, &l, 0x400000, i);
	assert_int_equal(l.n_samples, 2);
	assert_int_equal(l.samples[1].count, 5);
	strat_comp_free(c);
}

static void test_random_rate_and_determinism(void **state)
{
	struct log l, l2;
	struct strat_comp *c = make("R10", 3, &l), *d = make("R10", 3, &l2);
	for (uint64_t i = 0; i < 100000; i++) {
		push(c, &l, 0x400000, i);
		push(d, &l2, 0x400000, i);
	}
	struct strat_comp_stats st;
	strat_comp_stats(c, &st);
	/* binomial(100000, 0.1): sd 95 */
	assert_in_range(st.samples, 10000 - 500, 10000 + 500);
	assert_int_equal(l.samples[0].count, 10);
	assert_int_equal(l.n_samples, l2.n_samples);
	assert_memory_equal(l.positions, l2.positions, sizeof(uint64_t) * (size_t)(l.n_samples < MAX_MSGS ? l.n_samples : MAX_MSGS));
	strat_comp_free(c);
	strat_comp_free(d);
	/* R1 takes everything */
	c = make("R1", 3, &l);
	for (uint64_t i = 0; i < 50; i++)
		push(c, &l, 1, i);
	assert_int_equal(l.n_samples, 50);
	strat_comp_free(c);
}

static void test_countdown_gaps_are_in_1_to_2r(void **state)
{
	struct log l;
	struct strat_comp *c = make("D8", 5, &l);
	for (uint64_t i = 0; i < 20000; i++)
		push(c, &l, 0x400000, i);
	uint64_t lo = 99, hi = 0;
	for (int i = 1; i < l.n_samples; i++) {
		uint64_t gap = l.positions[i] - l.positions[i - 1];
		lo = gap < lo ? gap : lo;
		hi = gap > hi ? gap : hi;
	}
	assert_int_equal(lo, 1);
	assert_int_equal(hi, 16);
	/* the mean gap is r + 1/2: 20000 / 8.5 = 2353 samples */
	assert_in_range(l.n_samples, 2353 - 150, 2353 + 150);
	strat_comp_free(c);
}

/* Two tuples in different strata of 4, and the third in a's. */
static void three_tuples(uint64_t t[3][2])
{
	uint64_t a = 1, b = 2, c3 = 3;
	while (strat_hash_index(0x400000, b, 2) == strat_hash_index(0x400000, a, 2))
		b++;
	c3 = b + 1;
	while (strat_hash_index(0x400000, c3, 2) != strat_hash_index(0x400000, a, 2))
		c3++;
	uint64_t v[3] = { a, b, c3 };
	for (int i = 0; i < 3; i++)
		t[i][0] = 0x400000, t[i][1] = v[i];
}

static void test_hash_routes_each_tuple_to_its_stratum(void **state)
{
	uint64_t t[3][2];
	three_tuples(t);
	struct log l;
	struct strat_comp *c = make("H[P2]4", 1, &l);
	/* a b a b: each stratum sees its own tuple twice -> a then b */
	push(c, &l, t[0][0], t[0][1]);
	push(c, &l, t[1][0], t[1][1]);
	assert_int_equal(l.n_samples, 0);
	push(c, &l, t[0][0], t[0][1]);
	assert_int_equal(l.n_samples, 1);
	assert_int_equal(l.samples[0].val, t[0][1]);
	push(c, &l, t[1][0], t[1][1]);
	assert_int_equal(l.n_samples, 2);
	assert_int_equal(l.samples[1].val, t[1][1]);
	/* c shares a's stratum: c a -> the second of them, a, is sampled */
	push(c, &l, t[2][0], t[2][1]);
	push(c, &l, t[0][0], t[0][1]);
	assert_int_equal(l.n_samples, 3);
	assert_int_equal(l.samples[2].val, t[0][1]);
	struct strat_cell cell;
	strat_comp_cell(c, strat_hash_index(t[0][0], t[0][1], 2), &cell);
	assert_int_equal(cell.messages, 2);
	assert_int_equal(strat_comp_cells(c), 4);
	strat_comp_free(c);
	/* H[CR1]4: messages carry the stratum's own count */
	c = make("H[CR2]4", 1, &l);
	for (int i = 0; i < 40; i++)
		push(c, &l, t[i % 3][0], t[i % 3][1]);
	uint64_t sum = 0;
	for (int i = 0; i < l.n_samples; i++)
		sum += l.samples[i].count;
	struct strat_cell ca, cb;
	strat_comp_cell(c, strat_hash_index(t[0][0], t[0][1], 2), &ca);
	strat_comp_cell(c, strat_hash_index(t[1][0], t[1][1], 2), &cb);
	assert_int_equal(sum + ca.count + cb.count, 40);
	strat_comp_free(c);
}

/* ---- the second level ---- */

static void test_associative_table_merges_and_evicts_lru(void **state)
{
	struct log l;
	struct strat_comp *c = make("P1+A2", 1, &l);
	uint64_t s[] = { 1, 1, 2, 1, 3 };   /* a a b a c */
	for (int i = 0; i < 5; i++)
		push(c, &l, 0x400000, s[i]);
	assert_int_equal(l.n_samples, 5);
	/* c took b's entry (least recently used) */
	assert_int_equal(l.n_messages, 1);
	assert_int_equal(l.messages[0].val, 2);
	assert_int_equal(l.messages[0].count, 1);
	strat_comp_flush(c);
	assert_int_equal(l.n_messages, 3);
	assert_int_equal(l.messages[1].val, 1);
	assert_int_equal(l.messages[1].count, 3);
	assert_int_equal(l.messages[2].val, 3);
	assert_int_equal(l.messages[2].count, 1);
	struct strat_comp_stats st;
	strat_comp_stats(c, &st);
	assert_int_equal(st.samples, 5);
	assert_int_equal(st.messages, 3);
	strat_comp_free(c);
	/* lossless: the counts through A add up to the counts into it */
	c = make("H[P4]8+A16", 1, &l);
	for (uint64_t i = 0; i < 5000; i++)
		push(c, &l, 0x400000 + 4 * (i % 2), i % 3);   /* 6 tuples: they fit */
	strat_comp_flush(c);
	uint64_t in = 0, out = 0;
	for (int i = 0; i < l.n_samples; i++)
		in += l.samples[i].count;
	for (int i = 0; i < l.n_messages; i++)
		out += l.messages[i].count;
	assert_int_equal(in, out);
	assert_true(l.n_messages < l.n_samples);
	strat_comp_free(c);
}

/* ---- the tagged compressor (Figure 6) ---- */

static void cell0(struct strat_comp *c, struct strat_cell *cell)
{
	strat_comp_cell(c, 0, cell);
}

static void test_tagged_state_machine(void **state)
{
	struct log l;
	/* one entry, 8-bit tags (values 1, 2, 3 at pc 0 have tags 1, 2, 3),
	 * hit counter to 64: ShouldEvict at 8 hits, ShouldReplace at 7 misses */
	struct strat_comp *c = make("T8[64]1", 1, &l);
	struct strat_tpolicy tp;
	strat_comp_tpolicy(c, &tp);
	assert_int_equal(tp.evict_hits, 8);
	assert_int_equal(tp.miss_max, 7);
	struct strat_cell e;
	cell0(c, &e);
	assert_int_equal(e.state, STRAT_EMPTY);
	push(c, &l, 0, 1);                      /* E1 */
	cell0(c, &e);
	assert_int_equal(e.state, STRAT_VALID);
	assert_int_equal(e.count, 1);
	push(c, &l, 0, 2);                      /* E4: a miss in Valid */
	cell0(c, &e);
	assert_int_equal(e.state, STRAT_EVICT);
	assert_int_equal(e.evictions, 1);
	for (int i = 0; i < 6; i++)             /* E6a: hits 2..7 */
		push(c, &l, 0, 1);
	cell0(c, &e);
	assert_int_equal(e.state, STRAT_EVICT);
	assert_int_equal(e.count, 7);
	assert_int_equal(l.n_samples, 0);
	push(c, &l, 0, 1);                      /* E6: the 8th hit reports */
	assert_int_equal(l.n_samples, 1);
	assert_int_equal(l.samples[0].val, 1);
	assert_int_equal(l.samples[0].count, 8);
	cell0(c, &e);
	assert_int_equal(e.state, STRAT_EMPTY);
	assert_int_equal(e.count, 1);           /* the miss count carried */
	push(c, &l, 0, 2);                      /* E1 with the carried count */
	cell0(c, &e);
	assert_int_equal(e.state, STRAT_VALID);
	assert_int_equal(e.count, 2);
	push(c, &l, 0, 3);                      /* E4 */
	for (int i = 0; i < 5; i++)             /* E5a: misses 2..6 */
		push(c, &l, 0, 3);
	cell0(c, &e);
	assert_int_equal(e.state, STRAT_EVICT);
	push(c, &l, 0, 3);                      /* E5: the 7th miss replaces */
	cell0(c, &e);
	assert_int_equal(e.state, STRAT_VALID);
	assert_int_equal(e.count, 2 + 7);       /* hits and misses kept */
	struct strat_comp_stats st;
	strat_comp_stats(c, &st);
	assert_int_equal(st.t_replaced, 1);
	assert_int_equal(st.t_evicted, 1);
	for (int i = 0; i < 64 - 9 - 1; i++)    /* E3 up to one short of r */
		push(c, &l, 0, 3);
	assert_int_equal(l.n_samples, 1);
	push(c, &l, 0, 3);                      /* E2: the hit counter saturates */
	assert_int_equal(l.n_samples, 2);
	assert_int_equal(l.samples[1].val, 3);
	assert_int_equal(l.samples[1].count, 64);
	cell0(c, &e);
	assert_int_equal(e.state, STRAT_EMPTY);
	assert_int_equal(e.count, 0);
	strat_comp_free(c);
}

static void test_tagged_ways_hold_distinct_tags(void **state)
{
	struct log l;
	struct strat_comp *c = make("T8[4]2/2", 1, &l);   /* one set of 2 ways */
	for (int i = 0; i < 4; i++) {
		push(c, &l, 0, 1);
		push(c, &l, 0, 2);
	}
	/* both fit: each reaches 4 hits and reports 4 */
	assert_int_equal(l.n_samples, 2);
	assert_int_equal(l.samples[0].count, 4);
	assert_int_equal(l.samples[1].count, 4);
	strat_comp_free(c);
}

/* ---- sketches ---- */

static void test_sketches_bound_their_counts(void **state)
{
	struct log l;
	struct strat_comp *cm = make("CM64x4", 1, &l), *ss = make("SS16", 1, &l);
	uint64_t exact[40] = { 0 };
	uint64_t rng = 7;
	for (int i = 0; i < 20000; i++) {
		/* skewed: value v with weight ~ 1/(v+1) */
		uint64_t v = strat_rng_below(&rng, 40);
		v = strat_rng_below(&rng, v + 1);
		exact[v]++;
		strat_comp_push(cm, 0x400000, v);
		strat_comp_push(ss, 0x400000, v);
	}
	assert_int_equal(l.n_samples, 0);   /* sketches send nothing */
	assert_true(strat_comp_is_sketch(cm));
	for (uint64_t v = 0; v < 40; v++) {
		uint64_t e = strat_comp_query(cm, 0x400000, v);
		assert_true(e >= exact[v]);
		assert_true(e <= exact[v] + (uint64_t)strat_comp_sketch_bound(cm, 20000));
		uint64_t s = strat_comp_query(ss, 0x400000, v);
		if (s)   /* monitored: over by at most n/k */
			assert_true(s >= exact[v] && s <= exact[v] + 20000 / 16);
	}
	/* the heaviest value is monitored */
	assert_true(strat_comp_query(ss, 0x400000, 0) >= exact[0]);
	assert_int_equal(strat_comp_query_pc(cm, 0x400000) >= 20000, 1);
	assert_int_equal(strat_comp_query_pc(ss, 0x400000), 20000);
	strat_comp_free(cm);
	strat_comp_free(ss);
}

/* ---- snapshots ---- */

static void test_snapshot_restores_exactly(void **state)
{
	const char *specs[] = { "H[R16]64+A4", "T2[32]64/2", "SS8", "D4", "CM16x2" };
	for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
		struct log l1, l2;
		struct strat_comp *c = make(specs[k], 9, &l1);
		for (uint64_t i = 0; i < 3000; i++)
			push(c, &l1, 0x400000 + 4 * (i % 11), i % 17);
		size_t n = strat_comp_state_size(c);
		void *blob = malloc(n);
		strat_comp_save(c, blob);
		for (uint64_t i = 0; i < 3000; i++)
			push(c, &l1, 0x400000 + 4 * (i % 5), i % 3);
		struct strat_comp_stats a, b;
		strat_comp_stats(c, &a);
		int before = l1.n_messages;
		uint64_t q1 = strat_comp_query(c, 0x400000, 0);
		strat_comp_restore(c, blob);
		l2 = l1;
		l2.n_messages = 0;
		struct strat_sink sink = { &l2, NULL, log_message };
		strat_comp_set_sink(c, &sink);
		for (uint64_t i = 0; i < 3000; i++)
			strat_comp_push(c, 0x400000 + 4 * (i % 5), i % 3);
		strat_comp_stats(c, &b);
		assert_memory_equal(&a, &b, sizeof a);
		assert_int_equal(strat_comp_query(c, 0x400000, 0), q1);
		(void)before;
		free(blob);
		strat_comp_free(c);
	}
}

/* ---- the Monte Carlo experiment ---- */

static void test_montecarlo_orders_the_classes(void **state)
{
	struct strat_mc_opts o = { 300, 0.3, 1, 1 };
	const char *specs[] = { "R10", "P10", "H[P10]4" };
	double e[3];
	for (int i = 0; i < 3; i++) {
		struct strat_spec s;
		assert_int_equal(strat_spec_parse(specs[i], &s, NULL), 0);
		assert_int_equal(strat_mc_point(&s, 6000, &o, &e[i], NULL), 0);
	}
	assert_true(e[0] > e[1]);
	assert_true(e[1] > e[2]);
	/* R10 at N = 6000, t = 1800: mean |dev| / mean = 0.798 sqrt(1800 * 0.9) / 180 = 5.6% */
	assert_true(e[0] > 4.5 && e[0] < 6.8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_steps_are_the_papers),
		cmocka_unit_test(test_periodic_keeps_every_rth),
		cmocka_unit_test(test_counter_reports_the_gap),
		cmocka_unit_test(test_random_rate_and_determinism),
		cmocka_unit_test(test_countdown_gaps_are_in_1_to_2r),
		cmocka_unit_test(test_hash_routes_each_tuple_to_its_stratum),
		cmocka_unit_test(test_associative_table_merges_and_evicts_lru),
		cmocka_unit_test(test_tagged_state_machine),
		cmocka_unit_test(test_tagged_ways_hold_distinct_tags),
		cmocka_unit_test(test_sketches_bound_their_counts),
		cmocka_unit_test(test_snapshot_restores_exactly),
		cmocka_unit_test(test_montecarlo_orders_the_classes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
