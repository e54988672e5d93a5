/*
 * acct_fmt_rows.h — how the FMT's table follows branches through the
 * pipeline (acct_fmt.c explains the table): a branch's row is claimed at
 * its fetch, dispatched and retired. Only engine/acct*.c include it.
 *
 * Inline here, not in acct_fmt.c, because a set of units (acct_set.c)
 * runs them from its per-cycle rules for every cycle that fetches,
 * dispatches or retires a branch: out of line, the calls and their loops'
 * set-up cost more than the rows' own work.
 */
#ifndef IVX_ACCT_FMT_ROWS_H
#define IVX_ACCT_FMT_ROWS_H

#include <string.h>
#include "acct_internal.h"

/* Row `pos` becomes the open row: no branch (seq 0), no local counts, not
 * mispredicted. Its other fields are written before they are read again
 * (the branch's fetch, its dispatch, its resolution), so they are left as
 * they are: the ring then touches fewer host cache lines. */
static inline void acct_fmt_open_row(struct acct *a, uint64_t pos)
{
	uint32_t i = acct_fmt_row_of(a, pos);
	a->fr.seq[i] = 0;
	a->fr.flags[i] = 0;
}

/* A branch fetched claims the open row, with room left in the table. The
 * ROB id's hint (rob_row) is set now rather than at dispatch: the slot is
 * the branch's from its fetch until it leaves, and dispatch then only
 * marks the row's start. */
static inline __attribute__((always_inline)) void acct_fmt_claim_row(struct acct *a, uint64_t seq, uint64_t pc, int rob_index)
{
	struct acct_fmt_state_s *f = &a->s.fmt;
	uint32_t i = acct_fmt_row_of(a, f->fetch);
	a->fr.seq[i] = seq;
	a->fr.pc[i] = pc;
	a->fr.rob_id[i] = rob_index;  /* shown once it has entered the ROB */
	/* (an id out of range lands on some slot's hint: a hint is checked) */
	a->rob_row[(uint32_t)rob_index & (ACCT_MAX_ROB_ID - 1)] = (uint16_t)i;
	f->fetch++;
	acct_fmt_open_row(a, f->fetch);
}

static inline __attribute__((always_inline)) void acct_fmt_branch_fetched(struct acct *a, uint64_t seq, uint64_t pc, int rob_index)
{
	struct acct_fmt_state_s *f = &a->s.fmt;
	if (f->fetch - f->head + 2 > a->rows) {
		/* Table full: the branch goes untracked and the open row keeps
		 * collecting. Sized so it cannot happen with the configured
		 * pipeline; counted so it would show. */
		f->overflows++;
		return;
	}
	acct_fmt_claim_row(a, seq, pc, rob_index);
}

/* Branches fetched before instructions with seq `dispatch_seq` have
 * entered the ROB by the end of this cycle: the dispatch tail moves over
 * them and their penalty counts from this cycle on. (The cycle record
 * says how far dispatch got, so this needs no event per branch.) */
static inline __attribute__((always_inline)) void acct_fmt_dispatch_upto(struct acct *a, uint64_t dispatch_seq)
{
	struct acct_fmt_state_s *f = &a->s.fmt;
	while (f->disp < f->fetch) {
		uint32_t i = acct_fmt_row_of(a, f->disp);
		if (a->fr.seq[i] >= dispatch_seq)
			break;
		a->fr.start[i] = f->nonfull;
		f->disp++;
	}
}

/* Branches older than `commit_seq` have retired: their local counters go
 * to the global ones and the dispatch head moves over them. */
static inline __attribute__((always_inline)) void acct_fmt_retire_upto(struct acct *a, uint64_t commit_seq)
{
	struct acct_fmt_state_s *f = &a->s.fmt;
	while (f->head < f->disp) {
		uint32_t i = acct_fmt_row_of(a, f->head);
		if (a->fr.seq[i] >= commit_seq)
			break;
		unsigned flags = a->fr.flags[i];
		if (__builtin_expect(flags != 0, 0)) {   /* (most rows: neither) */
			if (flags & ACCT_FMT_ROW_LOCAL)
				for (int k = 0; k < ACCT_FE_COUNT; k++)
					f->t.global[k] += a->fr.local[(size_t)i * ACCT_FE_COUNT + k];
			if (flags & ACCT_FMT_ROW_MISPREDICTED) {
				/* sFMT: a mispredicted branch retires; what the
				 * shared counters hold since the older I-miss
				 * instructions retired was fetched after it, on
				 * its wrong path (or just after the redirect) */
				memset(f->shared, 0, sizeof f->shared);
			}
		}
		f->head++;
	}
}

/* FMT / sFMT, at the start of each cycle's rules: branches dispatched and
 * retired during the cycle, read from the record's dispatch_seq and
 * commit_seq. */
static inline void acct_fmt_progress(struct acct *a, const struct cycle_record *r)
{
	acct_fmt_retire_upto(a, r->commit_seq);
	acct_fmt_dispatch_upto(a, r->dispatch_seq);
}

/* acct_fmt_rows_fetched when the table may fill: a test per branch (out
 * of line: it never runs with the configured pipeline). */
static __attribute__((noinline, unused)) void acct_fmt_rows_fetched_full(struct acct *a, const struct cycle_record *r,
									int all_paths)
{
	for (int i = 0; i < r->branches_fetched; i++) {
		const struct fetched_branch *b = &r->branch_fetched[i];
		if (all_paths | !b->wrong_path)
			acct_fmt_branch_fetched(a, b->seq, b->pc, b->rob_index);
	}
}

/* The rows of the branches a cycle record lists as fetched, instead of
 * their fetch events (a set): of both paths, or of the correct path only. */
static inline void acct_fmt_rows_fetched(struct acct *a, const struct cycle_record *r, int all_paths)
{
	const struct acct_fmt_state_s *f = &a->s.fmt;
	int n = r->branches_fetched;
	/* Room for all of them (the table is sized so that it never fills):
	 * one test for the cycle instead of one per branch. */
	if (__builtin_expect(f->fetch - f->head + 1 + (uint64_t)n > a->rows, 0)) {
		acct_fmt_rows_fetched_full(a, r, all_paths);
		return;
	}
	for (int i = 0; i < n; i++) {
		const struct fetched_branch *b = &r->branch_fetched[i];
		if (all_paths | !b->wrong_path)
			acct_fmt_claim_row(a, b->seq, b->pc, b->rob_index);
	}
}

/* acct_fmt_progress, called only when some row moves (most cycles none
 * does). */
static inline void acct_fmt_follow(struct acct *a, const struct cycle_record *r)
{
	const struct acct_fmt_state_s *f = &a->s.fmt;
	/* the open row's seq is 0, so an empty range never matches... */
	uint64_t retiring = acct_fmt_seq_at(a, f->head) - 1;
	uint64_t entering = acct_fmt_seq_at(a, f->disp) - 1;
	/* ... as 0 - 1 is the largest seq: one test per cycle */
	if ((retiring < r->commit_seq - 1) | (entering < r->dispatch_seq - 1))
		acct_fmt_progress(a, r);
}

#endif
