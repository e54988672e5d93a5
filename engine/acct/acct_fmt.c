/*
 * acct_fmt.c — the frontend miss event table (FMT) and its shared variant
 * (sFMT), the counter architectures Eyerman et al. propose (§4).
 *
 * Interval analysis says: an I-cache / I-TLB miss costs its miss delay; a
 * branch misprediction costs the time from the branch entering the ROB
 * until correct-path instructions enter the ROB again; a long backend miss
 * costs the cycles the ROB is full behind it; overlapping penalties go to
 * the frontend unless the ROB is full. The counters below implement exactly
 * that, cycle by cycle.
 *
 * The FMT is a ring with one row per outstanding branch (layout in
 * acct_internal.h): fetch pointer, dispatch head and dispatch tail. A row
 * holds the branch's ROB id, a mispredict bit, a branch penalty counter
 * and local L1I / L2I / I-TLB counters.
 *
 *   fetch of a branch       it claims the open row (whose local counters hold
 *                           the I-side miss cycles of the instructions fetched
 *                           before it, since the previous branch) and the
 *                           fetch pointer advances to a fresh zeroed row
 *   dispatch of a branch    the dispatch tail advances to it; its ROB id shows
 *                           (the cycle record's dispatch_seq says how far
 *                           dispatch got: no event per branch)
 *   every cycle             ROB full: the cycle goes to the global L1D, L2D,
 *   (acct_fmt_cycle,        D-TLB or long-latency counter by what blocks the
 *    acct_internal.h)       ROB head. Otherwise every branch in the
 *                           ROB (from the cycle it entered) gains a penalty
 *                           cycle, and a fetch stalled on an I-side
 *                           miss adds a cycle to that counter of the fetch
 *                           row; a fetch not stalled on an I-miss while the
 *                           refill flag is up adds to the global branch
 *                           counter. (The core reports a wrong-path fetch as
 *                           FETCH_STALL_WRONG_PATH; an I-side miss it waits on
 *                           is recovered from the miss events, since hardware
 *                           cannot tell paths apart.)
 *   branch resolves         mispredicted: mispredict bit set, its penalty
 *                           added to the global branch counter, refill flag
 *                           up; dispatch tail back to it, fetch pointer to the
 *                           row after it (rows of the wrong path and their
 *                           I-side counts are dropped)
 *   first correct-path      refill flag down
 *     dispatch after that
 *   branch retires          its local counters are added to the global
 *                           counters; the dispatch head advances (row freed)
 *                           (from the record's commit_seq, or before an
 *                           I-miss instruction's commit, to keep the order)
 *
 * Choices where the paper is terse, so that no cycle is charged twice and
 * no wrong-path miss is charged (docs/cpi-stacks.md says more):
 *  - a branch's penalty is the number of cycles from the one it enters the
 *    ROB up to the one before the first correct-path instruction enters
 *    after the redirect, the paper's "cycles between" the two; the cycle
 *    it enters is counted whole, although the branch and the instructions
 *    before it in its dispatch group were useful work;
 *  - "when a branch completes" is read as resolution for the branch
 *    penalty (so the global branch counter then covers exactly the frontend
 *    refill) and as retirement for the local I-side counters (a branch that
 *    resolves early may itself be on a wrong path);
 *  - a cycle in which the refill after a misprediction waits on an I-cache
 *    miss is charged to the I-cache (the reference stacks do the same, as
 *    they turn the I-cache real after the predictor).
 *
 * A branch's penalty is computed as "ROB-not-full cycles so far minus as
 * many when it entered the ROB", which equals incrementing every row each
 * such cycle, at O(1) per cycle.
 *
 * The sFMT keeps the rows for branch penalties but one shared set of local
 * I-side counters. One table computes both: an I-side miss cycle goes to
 * the fetch row's local counter (FMT) and to the shared one (sFMT), and
 * each has its own global I-side counters; everything else is the same.
 * The sFMT also has an I-miss bit per ROB entry (set for an instruction
 * whose fetch missed). Retiring an instruction with the bit adds the shared
 * counters to the globals, zeroes them and clears all I-miss bits; the
 * retirement of a mispredicted branch zeroes the shared counters (what
 * they hold was fetched after it; its penalty went to the global counter
 * when it resolved, as in the FMT). Its known inaccuracy: an I-miss before
 * a mispredicted branch that retires after a wrong-path I-miss counts the
 * wrong-path miss cycles too.
 */
#include <stddef.h>
#include <string.h>
#include "acct_internal.h"
#include "acct_fmt_rows.h"

#define seq_at acct_fmt_seq_at
#define row_of acct_fmt_row_of
#define open_row acct_fmt_open_row
#define retire_upto acct_fmt_retire_upto
#define branch_fetched acct_fmt_branch_fetched


/* Lay the rows' arrays out in s.fmt.rowmem for a->rows rows. */
static void rows_init(struct acct *a)
{
	uint64_t *m = a->s.fmt.rowmem;
	size_t n = a->rows;
	a->fr.seq = m;
	a->fr.start = m + n;
	a->fr.pc = m + 2 * n;
	a->fr.penalty = m + 3 * n;
	a->fr.local = m + 4 * n;
	a->fr.rob_id = (int32_t *)(m + (4 + ACCT_FE_COUNT) * n);
	a->fr.flags = (uint8_t *)(a->fr.rob_id + n);
}

/* Position of the branch `seq` in [lo, hi), or UINT64_MAX. Positions hold
 * branches in fetch order, so seq increases with position. */
static uint64_t find_pos(struct acct *a, uint64_t lo, uint64_t hi, uint64_t seq)
{
	if (lo >= hi || seq < seq_at(a, lo) || seq > seq_at(a, hi - 1))
		return UINT64_MAX;      /* e.g. a wrong-path branch whose row is gone */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		uint64_t s = seq_at(a, mid);
		if (s == seq)
			return mid;
		if (s < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return UINT64_MAX;
}

/* Position of the dispatched branch `e` in [lo, hi), or UINT64_MAX: the
 * ROB id hint first, the search if the hint is stale. */
static uint64_t locate(struct acct *a, uint64_t lo, uint64_t hi, const struct insn_event *e)
{
	const struct acct_fmt_state_s *f = &a->s.fmt;
	if (e->rob_index >= 0 && e->rob_index < ACCT_MAX_ROB_ID) {
		uint64_t row = a->rob_row[e->rob_index];
		uint64_t pos = f->head + ((row - f->head) & (a->rows - 1));
		if (pos >= lo && pos < hi && seq_at(a, pos) == e->seq)
			return pos;
	}
	return find_pos(a, lo, hi, e->seq);
}





static void mispredict_resolved(struct acct *a, uint64_t pos)
{
	struct acct_fmt_state_s *f = &a->s.fmt;
	uint32_t i = row_of(a, pos);
	a->fr.flags[i] |= ACCT_FMT_ROW_MISPREDICTED;
	a->fr.penalty[i] = f->nonfull - a->fr.start[i];
	f->t.global[ACCT_BPRED] += a->fr.penalty[i];
	f->refill = 1;
	f->disp = pos + 1;
	f->fetch = pos + 1;
	open_row(a, f->fetch);
}

/* Only a mispredicted correct-path branch's resolution changes the table:
 * the hardware counts a branch's penalty for as long as it is in the ROB,
 * resolved or not, and adds it up only for a misprediction. (A wrong-path
 * branch never redirects fetch.) */
static void branch_completed(struct acct *a, const struct insn_event *e)
{
	struct acct_fmt_state_s *f = &a->s.fmt;
	if (!e->mispredicted || e->wrong_path)
		return;
	uint64_t pos = locate(a, f->head, f->disp, e);
	if (pos == UINT64_MAX)
		return;
	if (!(a->fr.flags[row_of(a, pos)] & ACCT_FMT_ROW_MISPREDICTED))
		mispredict_resolved(a, pos);
}

static void branch_squashed(struct acct *a, const struct insn_event *e)
{
	struct acct_fmt_state_s *f = &a->s.fmt;
	uint64_t pos = find_pos(a, f->head, f->fetch, e->seq);
	if (pos == UINT64_MAX)
		return;
	/* Everything from this branch on is gone; what the open row had
	 * collected was fetched after it, so it goes too. */
	f->fetch = pos;
	if (f->disp > pos)
		f->disp = pos;
	open_row(a, pos);
}

static int imiss_test(const struct acct_fmt_state_s *f, int i)
{
	return (f->imiss[i >> 6] >> (i & 63)) & 1;
}

static void imiss_set(struct acct_fmt_state_s *f, int i, int on)
{
	uint64_t bit = (uint64_t)1 << (i & 63);
	if (on && !(f->imiss[i >> 6] & bit)) {
		f->imiss[i >> 6] |= bit;
		f->imiss_bits++;
		if (f->imiss_words <= i >> 6)
			f->imiss_words = (i >> 6) + 1;
	} else if (!on && (f->imiss[i >> 6] & bit)) {
		f->imiss[i >> 6] &= ~bit;
		f->imiss_bits--;
	}
}

/* sFMT: per-instruction I-miss bits in the ROB. */
void acct_sfmt_bits(struct acct *a, const struct insn_event *e)
{
	struct acct_fmt_state_s *f = &a->s.fmt;
	int i = e->rob_index;
	if (i < 0 || i >= ACCT_MAX_ROB_ID)
		return;
	if (!f->imiss_bits && !(e->stage == INSN_DISPATCH && e->icache_miss))
		return;                 /* no bit to set, test or clear */
	switch (e->stage) {
	case INSN_DISPATCH:
		imiss_set(f, i, e->icache_miss != 0);
		break;
	case INSN_SQUASH:
		imiss_set(f, i, 0);
		break;
	case INSN_COMMIT:
		if (imiss_test(f, i)) {
			retire_upto(a, e->seq);     /* older branches first, in order */
			for (int k = 0; k < ACCT_FE_COUNT; k++)
				f->sfmt_global[k] += f->shared[k];
			memset(f->shared, 0, sizeof f->shared);
			/* (of its 512 bytes, the ROB ids in use span a few words) */
			memset(f->imiss, 0, (size_t)f->imiss_words * sizeof f->imiss[0]);
			f->imiss_bits = 0;
			f->imiss_words = 0;
		}
		break;
	default:
		break;
	}
}

void acct_fmt_branch(struct acct *a, const struct insn_event *e)
{
	switch (e->stage) {
	case INSN_FETCH: branch_fetched(a, e->seq, e->pc, e->rob_index); break;
	case INSN_COMPLETE: branch_completed(a, e); break;
	case INSN_SQUASH: branch_squashed(a, e); break;
	default: break;         /* dispatch and retirement: acct_fmt_progress */
	}
}


static void fmt_on_insn(void *ctx, const struct insn_event *e)
{
	acct_sfmt_bits(ctx, e);
	if (acct_is_branch(e->uop))
		acct_fmt_branch(ctx, e);
}

/* Wrong-path I-side misses, so a fetch unit waiting on one is seen as such. */
void acct_fmt_miss(struct acct *a, const struct miss_event *e)
{
	struct acct_fmt_state_s *f = &a->s.fmt;
	if (e->correct_path)
		return;
	if (e->kind == MISS_ITLB) {
		if (e->phase == MISS_BEGIN) {
			f->wp_itlb_id = e->id;
			f->wp_itlb_start = e->start;
		} else if (f->wp_itlb_id == e->id) {
			f->wp_itlb_id = 0;
		}
	} else if (e->kind == MISS_L1I || e->kind == MISS_L2I) {
		if (e->phase == MISS_BEGIN) {
			f->wp_cache_id = e->id;
			f->wp_cache_kind = e->kind == MISS_L1I ? ACCT_FE_L1I : ACCT_FE_L2I;
		} else if (f->wp_cache_id == e->id) {
			f->wp_cache_id = 0;
		}
	}
}

static void fmt_on_miss(void *ctx, const struct miss_event *e)
{
	acct_fmt_miss(ctx, e);
}

static void fmt_on_cycle(void *ctx, const struct cycle_record *r)
{
	struct acct_cycle_view v;
	acct_cycle_view(r, &v);
	acct_clock_tick(ctx, &v);
	acct_fmt_follow(ctx, r);
	acct_fmt_cycle(ctx, r, &v);
}

void acct_fmt_init(struct acct *a)
{
	memset(&a->s, 0, sizeof a->s);
	a->state_size = offsetof(struct acct_fmt_state_s, rowmem) + (size_t)a->rows * ACCT_FMT_ROW_WORDS * sizeof(uint64_t);
	rows_init(a);
	open_row(a, 0);
	a->obs.on_insn = fmt_on_insn;
	a->obs.on_miss = fmt_on_miss;
	/* every path: a unit on its own allocates rows for wrong-path branches
	 * too, as the hardware would (a set does not need to: acct_set.c) */
	memset(a->obs.insn_filter_at, 0, sizeof a->obs.insn_filter_at);
	a->obs.insn_filter_at[INSN_FETCH] = INSN_WANT_BRANCH;
	a->obs.insn_filter_at[INSN_DISPATCH] = INSN_WANT_IMISS;
	a->obs.insn_filter_at[INSN_COMPLETE] = INSN_WANT_BRANCH;
	a->obs.insn_filter_at[INSN_COMMIT] = INSN_WANT_IMISS;
	a->obs.insn_filter_at[INSN_SQUASH] = INSN_WANT_BRANCH | INSN_WANT_IMISS;
	a->obs.miss_filter = ACCT_IMISS_FILTER;   /* wrong-path I-side waits */
	a->obs.on_cycle = fmt_on_cycle;
}

uint64_t acct_fmt_fetch_count(const struct acct *a, int fe, uint64_t *pos)
{
	const struct acct_fmt_state_s *f = &a->src->s.fmt;
	*pos = f->fetch;
	if (a->method == ACCT_SFMT)
		return f->sfmt_global[fe] + f->shared[fe];
	return acct_fmt_local_get(a->src, row_of(a, f->fetch), fe);
}

int acct_fmt_row_count(const struct acct *a, uint64_t pos, int fe, uint64_t *out)
{
	const struct acct_fmt_state_s *f = &a->src->s.fmt;
	if (pos < f->head || pos > f->fetch)
		return -1;             /* retired (its count is global now) or dropped */
	*out = acct_fmt_local_get(a->src, row_of(a, pos), fe);
	return 0;
}

int acct_fmt_state(const struct acct *a, struct acct_fmt_state *out)
{
	if (a->method != ACCT_FMT && a->method != ACCT_SFMT)
		return -1;
	const struct acct_fmt_state_s *f = &a->src->s.fmt;
	memset(out, 0, sizeof *out);
	out->rows = (int)a->rows;
	out->fetch = (int)(f->fetch % a->rows);
	out->dispatch_head = (int)(f->head % a->rows);
	out->dispatch_tail = (int)((f->disp + a->rows - 1) % a->rows);
	out->in_rob = (int)(f->disp - f->head);
	out->in_frontend = (int)(f->fetch - f->disp);
	out->refill = f->refill;
	if (a->method == ACCT_SFMT)
		memcpy(out->shared, f->shared, sizeof out->shared);
	out->imiss_bits = f->imiss_bits;
	out->overflows = f->overflows;
	return 0;
}

int acct_fmt_row(const struct acct *a, int i, struct acct_fmt_row *out)
{
	if ((a->method != ACCT_FMT && a->method != ACCT_SFMT) || i < 0 || (uint32_t)i >= a->rows)
		return -1;
	const struct acct_fmt_state_s *f = &a->src->s.fmt;
	const struct acct *t = a->src;           /* the table's unit */
	unsigned flags = t->fr.flags[i];
	/* The position this row holds, counting from the dispatch head. */
	uint64_t pos = f->head + ((uint64_t)i + a->rows - f->head % a->rows) % a->rows;
	memset(out, 0, sizeof *out);
	out->rob_id = -1;
	if (pos > f->fetch) {
		out->state = ACCT_ROW_FREE;
		return 0;
	}
	out->seq = t->fr.seq[i];
	out->pc = t->fr.pc[i];
	out->mispredicted = (flags & ACCT_FMT_ROW_MISPREDICTED) != 0;
	if (a->method == ACCT_FMT)
		for (int k = 0; k < ACCT_FE_COUNT; k++)
			out->local[k] = acct_fmt_local_get(t, (uint32_t)i, k);
	if (pos == f->fetch) {
		out->state = ACCT_ROW_OPEN;
		out->seq = 0;
		out->pc = 0;
	} else if (pos >= f->disp) {
		out->state = ACCT_ROW_FRONTEND;
	} else {
		out->rob_id = t->fr.rob_id[i];
		out->state = out->mispredicted ? ACCT_ROW_RESOLVED : ACCT_ROW_ROB;
		out->branch_penalty = out->mispredicted ? t->fr.penalty[i] : f->nonfull - t->fr.start[i];
	}
	return 0;
}
