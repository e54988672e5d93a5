/*
 * test_core_events.c — what the core publishes, and to whom: observers'
 * instruction (class and stage) and miss filters deliver exactly the matching part of the
 * full event stream; the cycle record's wrong_path_in_rob agrees with the
 * ROB; stores that miss begin miss events at their commit that end when
 * the line is filled, and those still in flight survive a snapshot.
 * (core_internal.h only to see the list of store misses in flight.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include "core/core_internal.h"
#include "core_prog.h"

/* add rd, rn, #imm, lsl 12 */
#define I_ADDI12(rd, rn, imm) (0x91400000u | ((uint32_t)(imm) << 10) | ((rn) << 5) | (rd))


static struct program *mixed_program(void)
{
	static struct cprog p;
	p.n = 0;
	for (size_t i = 0; i < sizeof core_mixed_loop / sizeof core_mixed_loop[0]; i++)
		cp_emit(&p, core_mixed_loop[i]);
	return cp_program(&p, 1 << 16);
}

/* `passes` times: n stores of x1 from 0x500000 on, `stride` bytes apart
 * (stride_pages: that many 4 KB pages apart), then a countdown of `delay`
 * iterations so the stores' lines arrive before the next pass or the
 * exit. */
static struct program *store_program(int passes, int n, int stride, int stride_pages, int delay,
				     size_t data_len)
{
	static struct cprog p;
	p.n = 0;
	cp_emit(&p, I_MOVZ(1, 42));
	cp_emit(&p, I_MOVZ(13, passes));
	int pass = cp_emit(&p, I_MOVZ16(10, 0x50));
	cp_emit(&p, I_MOVZ(11, n));
	int loop = cp_emit(&p, I_STR(1, 10, 0));
	cp_emit(&p, stride_pages ? I_ADDI12(10, 10, stride_pages) : I_ADDI(10, 10, stride));
	cp_emit(&p, I_SUBSI(11, 11, 1));
	cp_emit(&p, I_BCOND(COND_NE, loop - p.n));
	cp_emit(&p, I_MOVZ(12, delay));
	int wait = cp_emit(&p, I_SUBSI(12, 12, 1));
	cp_emit(&p, I_BCOND(COND_NE, wait - p.n));
	cp_emit(&p, I_SUBSI(13, 13, 1));
	cp_emit(&p, I_BCOND(COND_NE, pass - p.n));
	cp_emit(&p, I_MOVZ(0, 0));
	cp_exit(&p);
	return cp_program(&p, data_len);
}

/* ---- instruction filters ------------------------------------------------ */

static void mix_insn(uint64_t *h, const struct insn_event *e)
{
	uint64_t f[12] = { (uint64_t)e->stage, e->cycle, e->seq, e->pc, (uint64_t)e->rob_index,
			   (uint64_t)e->wrong_path, (uint64_t)e->mispredicted, (uint64_t)e->icache_miss,
			   (uint64_t)e->dcache_level, (uint64_t)e->dtlb_miss, e->mem_addr, (uint64_t)e->n_deps };
	const uint8_t *b = (const uint8_t *)f;
	for (size_t i = 0; i < sizeof f; i++)
		*h = (*h ^ b[i]) * 0x100000001b3ull;
	for (int k = 0; k < e->n_deps; k++)
		*h = (*h ^ e->dep_seq[k]) * 0x100000001b3ull;
}

static int insn_matches(uint32_t filter, const struct insn_event *e)
{
	return ((filter & INSN_WANT_BRANCH) && e->uop->op_class == UOP_BRANCH) ||
	       ((filter & INSN_WANT_IMISS) && e->icache_miss);
}

/* An observer with an instruction filter: fingerprints what it gets. */
struct fobs {
	uint64_t hash, n;
	struct core_observer obs;
};

static void fobs_insn(void *ctx, const struct insn_event *e)
{
	struct fobs *f = ctx;
	mix_insn(&f->hash, e);
	f->n++;
}

static void fobs_init(struct fobs *f, uint32_t filter)
{
	memset(f, 0, sizeof *f);
	f->hash = 0xcbf29ce484222325ull;
	f->obs = (struct core_observer){ .name = "f", .ctx = f, .on_insn = fobs_insn, .insn_filter = filter };
}

/* Without a filter: fingerprints, per filter value 1..3, the events that
 * filter selects, and (index 4) the branch events of two stages. */
#define REF_STAGES (INSN_STAGE_BIT(INSN_DISPATCH) | INSN_STAGE_BIT(INSN_SQUASH))
struct ref {
	uint64_t hash[5], n[5], total;
	struct core_observer obs;
};

static void ref_insn(void *ctx, const struct insn_event *e)
{
	struct ref *r = ctx;
	r->total++;
	for (uint32_t f = 1; f < 4; f++)
		if (insn_matches(f, e)) {
			mix_insn(&r->hash[f], e);
			r->n[f]++;
		}
	if (insn_matches(INSN_WANT_BRANCH, e) && (REF_STAGES & INSN_STAGE_BIT(e->stage))) {
		mix_insn(&r->hash[4], e);
		r->n[4]++;
	}
}

static void an_instruction_filter_delivers_exactly_the_matching_events(void **state)
{
	(void)state;
	struct program *prog = mixed_program();
	struct crun r;
	struct ref ref = { .obs = { .name = "ref", .on_insn = ref_insn } };
	ref.obs.ctx = &ref;
	for (int f = 1; f < 5; f++)
		ref.hash[f] = 0xcbf29ce484222325ull;
	struct fobs fb, fi, fbi, fbs, fb2, fi2;
	fobs_init(&fb, INSN_WANT_BRANCH);
	fobs_init(&fi, INSN_WANT_IMISS);
	fobs_init(&fbi, INSN_WANT_BRANCH | INSN_WANT_IMISS);
	fobs_init(&fbs, INSN_WANT_BRANCH);
	fbs.obs.insn_stages = REF_STAGES;
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	core_add_observer(r.c, &fb.obs, NULL);
	core_add_observer(r.c, &ref.obs, NULL);
	core_add_observer(r.c, &fi.obs, NULL);
	core_add_observer(r.c, &fbi.obs, NULL);
	core_add_observer(r.c, &fbs.obs, NULL);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	assert_true(core_done(r.c));
	crun_free(&r);
	/* the test means something: both kinds occur, and not everything matches */
	assert_true(ref.n[INSN_WANT_BRANCH] > 1000);
	assert_true(ref.n[INSN_WANT_IMISS] > 0);
	assert_true(ref.n[3] < ref.total);
	assert_int_equal(fb.n, ref.n[INSN_WANT_BRANCH]);
	assert_int_equal(fb.hash, ref.hash[INSN_WANT_BRANCH]);
	assert_int_equal(fi.n, ref.n[INSN_WANT_IMISS]);
	assert_int_equal(fi.hash, ref.hash[INSN_WANT_IMISS]);
	assert_int_equal(fbi.n, ref.n[3]);
	assert_int_equal(fbi.hash, ref.hash[3]);
	assert_true(ref.n[4] > 0 && ref.n[4] < ref.n[INSN_WANT_BRANCH]);   /* some squashed branches */
	assert_int_equal(fbs.n, ref.n[4]);
	assert_int_equal(fbs.hash, ref.hash[4]);

	/* with no unfiltered observer the core skips the other events
	 * before building them: the filtered streams are the same */
	fobs_init(&fb2, INSN_WANT_BRANCH);
	fobs_init(&fi2, INSN_WANT_IMISS);
	uint64_t n_fbs = fbs.n, h_fbs = fbs.hash;
	fobs_init(&fbs, INSN_WANT_BRANCH);
	fbs.obs.insn_stages = REF_STAGES;
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	core_add_observer(r.c, &fb2.obs, NULL);
	core_add_observer(r.c, &fi2.obs, NULL);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	crun_free(&r);
	assert_int_equal(fb2.n, fb.n);
	assert_int_equal(fb2.hash, fb.hash);
	assert_int_equal(fi2.n, fi.n);
	assert_int_equal(fi2.hash, fi.hash);
	/* ... also when the only observer wants two stages */
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	core_add_observer(r.c, &fbs.obs, NULL);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	crun_free(&r);
	assert_int_equal(fbs.n, n_fbs);
	assert_int_equal(fbs.hash, h_fbs);

	/* removing the unfiltered observer mid-run narrows what the core
	 * builds; the filtered one still sees all of its events */
	fobs_init(&fb2, INSN_WANT_BRANCH);
	struct fobs all;
	fobs_init(&all, 0);
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	core_add_observer(r.c, &all.obs, NULL);
	core_add_observer(r.c, &fb2.obs, NULL);
	assert_int_equal(core_run(r.c, 3000, 0, &r.err), IVX_OK);
	uint64_t seen = all.n;
	core_remove_observer(r.c, &all);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	crun_free(&r);
	assert_int_equal(all.n, seen);
	assert_int_equal(fb2.n, fb.n);
	assert_int_equal(fb2.hash, fb.hash);
	program_free(prog);
}

/* Only the events from cycle `from` on. */
struct late {
	uint64_t from, hash, n;
	struct core_observer obs;
};

static void late_insn(void *ctx, const struct insn_event *e)
{
	struct late *l = ctx;
	if (e->cycle < l->from)
		return;
	mix_insn(&l->hash, e);
	l->n++;
}

static void late_init(struct late *l, uint64_t from)
{
	memset(l, 0, sizeof *l);
	l->from = from;
	l->hash = 0xcbf29ce484222325ull;
	l->obs = (struct core_observer){ .name = "late", .ctx = l, .on_insn = late_insn,
					 .insn_filter = INSN_WANT_BRANCH | INSN_WANT_IMISS };
}

/* The core keeps the records' event classes only while some observer
 * has on_insn: one added in mid-run, or a snapshot taken without one,
 * must still see every event of the instructions already in flight. */
static void an_observer_added_in_mid_run_sees_the_instructions_in_flight(void **state)
{
	(void)state;
	const uint64_t from = 4000;
	struct program *prog = mixed_program();
	struct crun r;
	struct late ref, mid;
	late_init(&ref, from);
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	core_add_observer(r.c, &ref.obs, NULL);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	crun_free(&r);
	assert_true(ref.n > 1000);

	late_init(&mid, from);
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	assert_int_equal(core_run(r.c, from, 0, &r.err), IVX_OK);
	assert_true(core_rob_occupancy(r.c) > 0);
	struct core_snapshot *sn = core_snapshot_save(r.c, &r.err);   /* without observers */
	assert_non_null(sn);
	core_add_observer(r.c, &mid.obs, NULL);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	assert_int_equal(mid.n, ref.n);
	assert_int_equal(mid.hash, ref.hash);

	/* and restoring that snapshot under the observer replays the same */
	late_init(&mid, from);
	assert_int_equal(core_snapshot_restore(r.c, sn, &r.err), IVX_OK);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	assert_int_equal(mid.n, ref.n);
	assert_int_equal(mid.hash, ref.hash);
	core_snapshot_free(sn);
	crun_free(&r);
	program_free(prog);
}

/* ---- miss filters ------------------------------------------------------- */

struct mobs {
	uint32_t want;            /* the unfiltered one: kinds to fingerprint */
	uint32_t no_end;          /* ... leaving out the ends of these */
	uint64_t hash, n, total;
	struct core_observer obs;
};

static void mobs_miss(void *ctx, const struct miss_event *m)
{
	struct mobs *o = ctx;
	o->total++;
	if (o->want && !(o->want & MISS_BIT(m->kind)))
		return;
	if (m->phase == MISS_END && (o->no_end & MISS_BIT(m->kind)))
		return;
	uint64_t f[9] = { (uint64_t)m->kind, (uint64_t)m->phase, m->id, m->start, m->end, m->insn_seq,
			  m->pc, m->addr, (uint64_t)m->correct_path };
	const uint8_t *b = (const uint8_t *)f;
	for (size_t i = 0; i < sizeof f; i++)
		o->hash = (o->hash ^ b[i]) * 0x100000001b3ull;
	o->n++;
}

/* Run the mixed program to its end with these miss observers, in order. */
static void run_mixed_with(struct mobs *const *obs, int n, struct core_stats *st)
{
	struct program *prog = mixed_program();
	struct crun r;
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	for (int i = 0; i < n; i++)
		core_add_observer(r.c, &obs[i]->obs, NULL);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	core_stats(r.c, st);
	crun_free(&r);
	program_free(prog);
}

static void a_miss_filter_delivers_only_the_chosen_kinds(void **state)
{
	(void)state;
	const uint32_t kinds = MISS_BIT(MISS_MISPREDICT) | MISS_BIT(MISS_L2D) | MISS_BIT(MISS_FU_STALL);
	struct mobs ref = { .want = kinds, .hash = 0xcbf29ce484222325ull };
	struct mobs filt = { .hash = 0xcbf29ce484222325ull };
	ref.obs = (struct core_observer){ .name = "ref", .ctx = &ref, .on_miss = mobs_miss };
	filt.obs = (struct core_observer){ .name = "filt", .ctx = &filt, .on_miss = mobs_miss,
					   .miss_filter = kinds };
	struct core_stats st;
	run_mixed_with((struct mobs *[]){ &filt, &ref }, 2, &st);
	assert_true(st.events_correct[MISS_MISPREDICT] > 0 && st.events_correct[MISS_L2D] > 0);
	assert_true(ref.n > 0 && ref.n < ref.total);
	assert_int_equal(filt.total, ref.n);
	assert_int_equal(filt.hash, ref.hash);
}

/* An observer that skips the ends of some kinds gets their begins and
 * every other event exactly as one that takes everything sees them. */
static void a_miss_skip_end_drops_only_those_ends(void **state)
{
	(void)state;
	const uint32_t kinds = MISS_BIT(MISS_MISPREDICT) | MISS_BIT(MISS_L2D) | MISS_BIT(MISS_L1D);
	const uint32_t no_end = MISS_BIT(MISS_L1D) | MISS_BIT(MISS_MISPREDICT);
	struct mobs ref = { .want = kinds, .no_end = no_end, .hash = 0xcbf29ce484222325ull };
	struct mobs all = { .want = kinds, .hash = 0xcbf29ce484222325ull };
	struct mobs filt = { .hash = 0xcbf29ce484222325ull };
	ref.obs = (struct core_observer){ .name = "ref", .ctx = &ref, .on_miss = mobs_miss };
	all.obs = (struct core_observer){ .name = "all", .ctx = &all, .on_miss = mobs_miss };
	filt.obs = (struct core_observer){ .name = "filt", .ctx = &filt, .on_miss = mobs_miss,
					   .miss_filter = kinds, .miss_skip_end = no_end };
	struct core_stats st;
	run_mixed_with((struct mobs *[]){ &filt, &ref, &all }, 3, &st);
	assert_true(st.events_correct[MISS_L1D] > 0 && st.events_correct[MISS_L2D] > 0);
	/* the skipped ends exist (an observer next to it still gets them) */
	assert_true(ref.n < all.n);
	assert_int_equal(filt.total, ref.n);
	assert_int_equal(filt.hash, ref.hash);
}

/* ---- the cycle record ---------------------------------------------------- */

struct wpcheck {
	struct core *c;
	uint64_t cycles, with_wrong_path, mismatches;
	struct core_observer obs;
};

static void wp_cycle(void *ctx, const struct cycle_record *r)
{
	struct wpcheck *w = ctx;
	int any = 0;
	for (int i = 0; i < core_rob_occupancy(w->c); i++) {
		struct rob_view v;
		assert_int_equal(core_rob_entry(w->c, i, &v), 0);
		any |= v.wrong_path;
	}
	w->cycles++;
	w->with_wrong_path += any;
	w->mismatches += any != r->wrong_path_in_rob;
}

static void wrong_path_in_rob_agrees_with_the_rob(void **state)
{
	(void)state;
	struct program *prog = mixed_program();
	struct crun r;
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	struct wpcheck w = { .c = r.c };
	w.obs = (struct core_observer){ .name = "wp", .ctx = &w, .on_cycle = wp_cycle };
	core_add_observer(r.c, &w.obs, NULL);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	crun_free(&r);
	assert_true(w.with_wrong_path > 100);
	assert_true(w.with_wrong_path < w.cycles);
	assert_int_equal(w.mismatches, 0);
	program_free(prog);
}

/* ---- store misses ------------------------------------------------------- */

#define MAX_SEQ 8192
#define MAX_EV  1024

struct stcheck {
	uint64_t commit_cycle[MAX_SEQ];   /* stores: cycle of INSN_COMMIT */
	int n_ev;
	struct { uint64_t id, seq, start, end; int kind, correct_path, ended; } ev[MAX_EV];
	int errors;
	struct core_observer obs;
};

static void st_insn(void *ctx, const struct insn_event *e)
{
	struct stcheck *s = ctx;
	if (e->stage == INSN_COMMIT && e->uop->op_class == UOP_STORE) {
		if (e->seq >= MAX_SEQ)
			s->errors++;
		else
			s->commit_cycle[e->seq] = e->cycle;
	}
}

static void st_miss(void *ctx, const struct miss_event *m)
{
	struct stcheck *s = ctx;
	if (m->kind != MISS_L1D && m->kind != MISS_L2D && m->kind != MISS_DTLB)
		return;
	if (m->phase == MISS_BEGIN) {
		if (s->n_ev == MAX_EV) {
			s->errors++;
			return;
		}
		s->ev[s->n_ev].id = m->id;
		s->ev[s->n_ev].seq = m->insn_seq;
		s->ev[s->n_ev].start = m->start;
		s->ev[s->n_ev].kind = m->kind;
		s->ev[s->n_ev].correct_path = m->correct_path;
		s->ev[s->n_ev++].ended = 0;
		return;
	}
	for (int i = 0; i < s->n_ev; i++)
		if (s->ev[i].id == m->id) {
			s->ev[i].end = m->end;
			s->ev[i].ended++;
			return;
		}
	s->errors++;                  /* ended, never began */
}

static void st_init(struct stcheck *s)
{
	memset(s, 0, sizeof *s);
	s->obs = (struct core_observer){ .name = "st", .ctx = s, .on_insn = st_insn, .on_miss = st_miss };
}

/* Counts of the store events per kind; checks each one against its store. */
static void check_store_events(const struct stcheck *s, const struct machine_config *cfg,
			       int counts[MISS_KIND_COUNT])
{
	uint64_t longest = cfg->dtlb.miss_latency + cfg->l1d.latency + cfg->l2.latency + cfg->memory_latency;
	assert_int_equal(s->errors, 0);
	memset(counts, 0, sizeof(int) * MISS_KIND_COUNT);
	for (int i = 0; i < s->n_ev; i++) {
		assert_true(s->ev[i].seq < MAX_SEQ);
		assert_true(s->commit_cycle[s->ev[i].seq] != 0);      /* only stores in these programs */
		assert_int_equal(s->ev[i].start, s->commit_cycle[s->ev[i].seq]);
		assert_int_equal(s->ev[i].correct_path, 1);
		assert_int_equal(s->ev[i].ended, 1);
		assert_true(s->ev[i].end > s->ev[i].start);
		assert_true(s->ev[i].end - s->ev[i].start <= longest);
		counts[s->ev[i].kind]++;
	}
}

static void a_store_miss_begins_at_its_commit_and_ends_at_the_fill(void **state)
{
	(void)state;
	/* 64 stores to 64 lines never touched before: 64 write-allocate
	 * misses served by memory, on two pages */
	struct program *prog = store_program(1, 64, 128, 0, 1000, 8192);
	struct crun r;
	static struct stcheck s;
	st_init(&s);
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	core_add_observer(r.c, &s.obs, NULL);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	assert_true(core_done(r.c));
	int counts[MISS_KIND_COUNT];
	check_store_events(&s, &r.cfg, counts);
	assert_int_equal(counts[MISS_L2D], 64);
	assert_int_equal(counts[MISS_L1D], 0);
	assert_int_equal(counts[MISS_DTLB], 2);
	/* they are counted as events on the correct path */
	struct core_stats st;
	core_stats(r.c, &st);
	assert_int_equal(st.events_correct[MISS_L2D], 64);
	assert_int_equal(st.events_correct[MISS_DTLB], 2);
	crun_free(&r);
	program_free(prog);

	/* 8 stores per line: the first misses, the others merge into its
	 * miss (or hit once it is filled) and begin nothing */
	prog = store_program(1, 64, 8, 0, 1000, 8192);
	st_init(&s);
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	core_add_observer(r.c, &s.obs, NULL);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	check_store_events(&s, &r.cfg, counts);
	assert_int_equal(counts[MISS_L2D], 8);
	assert_int_equal(counts[MISS_L1D], 0);
	assert_int_equal(counts[MISS_DTLB], 1);
	crun_free(&r);
	program_free(prog);

	/* with a perfect D-cache only the D-TLB misses remain */
	static const char *const perfect[] = { "perfect.l1d=1", NULL };
	prog = store_program(1, 64, 128, 0, 1000, 8192);
	st_init(&s);
	assert_int_equal(crun_start(&r, prog, 0, NULL, perfect), 0);
	core_add_observer(r.c, &s.obs, NULL);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	check_store_events(&s, &r.cfg, counts);
	assert_int_equal(counts[MISS_L1D] + counts[MISS_L2D], 0);
	assert_int_equal(counts[MISS_DTLB], 2);
	crun_free(&r);
	program_free(prog);
}

static void a_store_that_hits_in_the_l2_is_an_l1d_miss(void **state)
{
	(void)state;
	/* A 1 KB direct-mapped L1D holds 16 of the 64 lines: the first pass
	 * brings all 64 into the L2 (from memory), the second misses the L1
	 * on every one of them again and finds it in the L2. */
	static const char *const small_l1[] = { "l1d.size=1K", "l1d.assoc=1", NULL };
	struct program *prog = store_program(2, 64, 64, 0, 1000, 8192);
	struct crun r;
	static struct stcheck s;
	st_init(&s);
	assert_int_equal(crun_start(&r, prog, 0, NULL, small_l1), 0);
	core_add_observer(r.c, &s.obs, NULL);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	assert_true(core_done(r.c));
	int counts[MISS_KIND_COUNT];
	check_store_events(&s, &r.cfg, counts);
	assert_int_equal(counts[MISS_L2D], 64);
	assert_int_equal(counts[MISS_L1D], 64);
	assert_int_equal(counts[MISS_DTLB], 1);
	/* each pass's events begin in that pass: the L1D ones after every L2D one */
	uint64_t last_l2d = 0, first_l1d = UINT64_MAX;
	for (int i = 0; i < s.n_ev; i++) {
		if (s.ev[i].kind == MISS_L2D && s.ev[i].start > last_l2d)
			last_l2d = s.ev[i].start;
		if (s.ev[i].kind == MISS_L1D && s.ev[i].start < first_l1d)
			first_l1d = s.ev[i].start;
	}
	assert_true(last_l2d < first_l1d);
	crun_free(&r);
	program_free(prog);
}

/* Many store misses in flight at once (each D-TLB walk takes 1000 cycles)
 * grow the core's list; a snapshot taken then, restored into a fresh core,
 * ends them exactly as the original run does. */
static void many_store_misses_in_flight_survive_a_snapshot(void **state)
{
	(void)state;
	static const char *const slow_walks[] = { "perfect.l1d=1", "dtlb.miss_latency=1000", "dtlb.entries=256",
						  NULL };
	struct program *prog = store_program(1, 100, 0, 1, 3000, 101 * 4096);
	struct crun a, b;
	static struct evcheck e;
	static struct stcheck s;
	st_init(&s);
	assert_int_equal(crun_start(&a, prog, 0, NULL, slow_walks), 0);
	uint32_t cap0 = a.c->smiss_cap;
	core_add_observer(a.c, ev_observer(&e), NULL);
	core_add_observer(a.c, &s.obs, NULL);
	uint32_t most = 0;
	while (!core_done(a.c) && core_cycles(a.c) < 600) {
		assert_int_equal(core_cycle(a.c, &a.err), IVX_OK);
		if (a.c->s.n_smiss > most)
			most = a.c->s.n_smiss;
	}
	assert_true(most > cap0);                 /* it had to grow */
	uint32_t in_flight = a.c->s.n_smiss;
	assert_true(in_flight > 50);              /* and many are still in flight */
	struct core_snapshot *sn = core_snapshot_save(a.c, &a.err);
	assert_non_null(sn);
	assert_int_equal(core_run(a.c, 0, 0, &a.err), IVX_OK);
	assert_true(core_done(a.c));
	assert_int_equal(a.c->s.n_smiss, 0);
	assert_int_equal(e.errors, 0);
	uint64_t hash = e.hash, cycles = core_cycles(a.c);
	int counts[MISS_KIND_COUNT];
	check_store_events(&s, &a.cfg, counts);
	assert_int_equal(counts[MISS_DTLB], 100);

	/* a fresh core (with its initial, smaller list) takes the snapshot */
	assert_int_equal(crun_start(&b, prog, 0, NULL, slow_walks), 0);
	assert_true(b.c->smiss_cap < in_flight);
	assert_int_equal(core_add_observer(b.c, &e.obs, NULL), 0);   /* same ctx: its blob is restored */
	assert_int_equal(core_snapshot_restore(b.c, sn, &b.err), IVX_OK);
	assert_int_equal(core_run(b.c, 0, 0, &b.err), IVX_OK);
	assert_true(core_done(b.c));
	assert_int_equal(core_cycles(b.c), cycles);
	assert_int_equal(e.errors, 0);
	assert_int_equal(e.hash, hash);
	core_snapshot_free(sn);
	crun_free(&a);
	crun_free(&b);
	program_free(prog);
}

/* ---- correct-path and per-stage filters; in-order progress ------------- */

/* What acct_set.c asks for: correct-path mispredicted branches at fetch
 * and completion, correct-path I-miss instructions at dispatch and commit. */
static int set_wants(const struct insn_event *e)
{
	int branch = e->uop->op_class == UOP_BRANCH, imiss = e->icache_miss != 0;
	if (e->wrong_path)
		return 0;
	if (e->stage == INSN_FETCH || e->stage == INSN_COMPLETE)
		return branch && e->mispredicted;
	if (e->stage == INSN_DISPATCH || e->stage == INSN_COMMIT)
		return imiss;
	return 0;
}

/* Unfiltered: fingerprints what set_wants selects, and checks each cycle
 * record's dispatch_seq / commit_seq against the frontend and the ROB as
 * the event stream shows them (two FIFOs of seqs), and its list of fetched
 * branches against the cycle's fetch events. */
struct progress {
	uint64_t hash, n, wrong, mispredicted;
	struct fetched_branch br[CYCLE_MAX_FETCH];
	int n_br;
	uint64_t fe[4096], rob[4096];         /* rings: fetched, dispatched */
	uint64_t fe_head, fe_tail, rob_head, rob_tail, last_fetched;
	uint64_t cycles_checked, branches_listed;
	int bad;
	struct core_observer obs;
};

static void progress_insn(void *ctx, const struct insn_event *e)
{
	struct progress *p = ctx;
	if (set_wants(e)) {
		mix_insn(&p->hash, e);
		p->n++;
	}
	p->wrong += e->wrong_path && e->stage == INSN_FETCH;
	switch (e->stage) {
	case INSN_FETCH:
		p->fe[p->fe_tail++ % 4096] = e->seq;
		p->last_fetched = e->seq;
		if (e->uop->op_class == UOP_BRANCH) {
			p->br[p->n_br++] = (struct fetched_branch){ .seq = e->seq, .pc = e->pc,
								    .rob_index = e->rob_index,
								    .wrong_path = e->wrong_path };
			p->mispredicted += e->mispredicted && !e->wrong_path;
		}
		break;
	case INSN_DISPATCH:
		p->bad |= p->fe_head == p->fe_tail || p->fe[p->fe_head % 4096] != e->seq;
		p->fe_head++;
		p->rob[p->rob_tail++ % 4096] = e->seq;
		break;
	case INSN_COMMIT:
		p->bad |= p->rob_head == p->rob_tail || p->rob[p->rob_head % 4096] != e->seq;
		p->rob_head++;
		break;
	case INSN_SQUASH:               /* it and everything younger go */
		while (p->fe_tail > p->fe_head && p->fe[(p->fe_tail - 1) % 4096] >= e->seq)
			p->fe_tail--;
		while (p->rob_tail > p->rob_head && p->rob[(p->rob_tail - 1) % 4096] >= e->seq)
			p->rob_tail--;
		break;
	default:
		break;
	}
}

static void progress_cycle(void *ctx, const struct cycle_record *r)
{
	struct progress *p = ctx;
	uint64_t disp = p->fe_head < p->fe_tail ? p->fe[p->fe_head % 4096] : p->last_fetched + 1;
	uint64_t commit = p->rob_head < p->rob_tail ? p->rob[p->rob_head % 4096] : disp;
	if (r->dispatch_seq != disp || r->commit_seq != commit) {
		if (!p->bad)
			print_message("cycle %llu: dispatch_seq %llu (events: %llu), commit_seq %llu (%llu)\n",
				      (unsigned long long)r->cycle, (unsigned long long)r->dispatch_seq,
				      (unsigned long long)disp, (unsigned long long)r->commit_seq,
				      (unsigned long long)commit);
		p->bad = 1;
	}
	p->bad |= r->branches_fetched != p->n_br;
	for (int i = 0; i < p->n_br && i < r->branches_fetched; i++)
		p->bad |= r->branch_fetched[i].seq != p->br[i].seq || r->branch_fetched[i].pc != p->br[i].pc ||
			  r->branch_fetched[i].rob_index != p->br[i].rob_index ||
			  r->branch_fetched[i].wrong_path != p->br[i].wrong_path;
	p->branches_listed += (uint64_t)r->branches_fetched;
	p->n_br = 0;
	p->cycles_checked++;
}

/* An observer with set_wants' filter, per stage. */
static void set_like_fobs(struct fobs *f)
{
	fobs_init(f, 0);
	f->obs.insn_filter_at[INSN_FETCH] = INSN_WANT_MISPREDICT | INSN_WANT_CORRECT_PATH;
	f->obs.insn_filter_at[INSN_COMPLETE] = INSN_WANT_MISPREDICT | INSN_WANT_CORRECT_PATH;
	f->obs.insn_filter_at[INSN_DISPATCH] = INSN_WANT_IMISS | INSN_WANT_CORRECT_PATH;
	f->obs.insn_filter_at[INSN_COMMIT] = INSN_WANT_IMISS | INSN_WANT_CORRECT_PATH;
}

static void correct_path_and_per_stage_filters_and_progress(void **state)
{
	(void)state;
	struct program *prog = mixed_program();
	struct crun r;
	static struct progress p;
	memset(&p, 0, sizeof p);
	p.hash = 0xcbf29ce484222325ull;
	p.obs = (struct core_observer){ .name = "progress", .ctx = &p, .on_insn = progress_insn,
					.on_cycle = progress_cycle };
	struct fobs f;
	set_like_fobs(&f);
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	core_add_observer(r.c, &p.obs, NULL);
	core_add_observer(r.c, &f.obs, NULL);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	uint64_t cycles = core_cycles(r.c);
	crun_free(&r);
	assert_false(p.bad);
	assert_int_equal(p.cycles_checked, cycles);
	assert_true(p.wrong > 100);             /* wrong paths were there to leave out */
	assert_true(p.mispredicted > 10);       /* and correctly predicted branches too */
	assert_true(p.branches_listed > 1000 && p.branches_listed > 2 * p.mispredicted);
	assert_true(p.n > 100);
	assert_int_equal(f.n, p.n);
	assert_int_equal(f.hash, p.hash);
	/* alone, the filtered observer gets the same */
	set_like_fobs(&f);
	assert_int_equal(crun_start(&r, prog, 0, NULL, NULL), 0);
	core_add_observer(r.c, &f.obs, NULL);
	assert_int_equal(core_run(r.c, 0, 0, &r.err), IVX_OK);
	crun_free(&r);
	assert_int_equal(f.n, p.n);
	assert_int_equal(f.hash, p.hash);
	program_free(prog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(an_instruction_filter_delivers_exactly_the_matching_events),
		cmocka_unit_test(correct_path_and_per_stage_filters_and_progress),
		cmocka_unit_test(an_observer_added_in_mid_run_sees_the_instructions_in_flight),
		cmocka_unit_test(a_miss_filter_delivers_only_the_chosen_kinds),
		cmocka_unit_test(a_miss_skip_end_drops_only_those_ends),
		cmocka_unit_test(wrong_path_in_rob_agrees_with_the_rob),
		cmocka_unit_test(a_store_miss_begins_at_its_commit_and_ends_at_the_fill),
		cmocka_unit_test(a_store_that_hits_in_the_l2_is_an_l1d_miss),
		cmocka_unit_test(many_store_misses_in_flight_survive_a_snapshot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
