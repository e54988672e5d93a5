/*
 * explorer_break.c — breakpoints and catchpoints (see explorer_break.h).
 *
 * The list is small (a user's breakpoints), so every candidate event scans
 * it; the common case — no code breakpoints — is one counter test per
 * instruction event.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "explorer_break.h"
#include "explorer_expr.h"
#include "explorer_trace.h"

struct xbreaks {
	struct explorer *x;
	struct xbp *bps;
	int count, cap;
	int next_num;
	int n_code, n_cycle;      /* enabled-or-not counts, to skip quickly */
	int mode;
	int hit_pending;
	struct xbreak_hit hit;
	/* XB_RECORD: hits to pass over (the stop a reverse search starts
	 * from), so that the first other hit of a cycle is the one kept */
	int (*skip)(void *ctx, const struct xbreak_hit *h);
	void *skip_ctx;
	char error[300];
	int error_pending;
	struct core_observer obs;
};

static void recount(struct xbreaks *b)
{
	b->n_code = b->n_cycle = 0;
	for (int i = 0; i < b->count; i++) {
		if (b->bps[i].type == XBP_CODE)
			b->n_code++;
		if (b->bps[i].type == XBP_CYCLE)
			b->n_cycle++;
	}
}

/* Test one candidate: condition, ignore count; 1 if it is a hit. */
static int test(struct xbreaks *b, struct xbp *bp, const struct xevent *ev, uint64_t cycle)
{
	if (!bp->enabled)
		return 0;
	if (bp->cond) {
		struct xexpr_env env = { .x = b->x, .ev = ev, .cycle = cycle };
		struct xval v;
		char err[200];
		if (xexpr_eval(bp->cond, &env, &v, err, sizeof err) < 0) {
			if (b->mode == XB_STOP) {
				snprintf(b->error, sizeof b->error,
					 "Error in testing condition for breakpoint %d: %s", bp->num, err);
				b->error_pending = 1;
				return 1;
			}
			return 0;
		}
		if (v.is_str ? !v.str[0] : v.is_float ? v.fnum == 0 : !v.num)
			return 0;
	}
	if (b->mode == XB_STOP && bp->ignore > 0) {
		bp->ignore--;
		bp->hits++;       /* as gdb: a crossing it ignores still counts */
		bp->run_held++;   /* ... and the run summary must not say it never held */
		return 0;
	}
	return 1;
}

static void hit(struct xbreaks *b, struct xbp *bp, const struct xbreak_hit *h)
{
	if (b->hit_pending)
		return;   /* the first hit of the cycle is the one reported, going either way */
	struct xbreak_hit found = *h;
	found.bp = bp->num;
	found.type = bp->type;
	if (b->mode == XB_RECORD && b->skip && b->skip(b->skip_ctx, &found))
		return;
	if (b->mode == XB_STOP) {
		bp->hits++;
		core_request_stop(b->x->core);
	}
	b->hit = found;
	b->hit_pending = 1;
}

static void on_insn(void *ctx, const struct insn_event *e)
{
	struct xbreaks *b = ctx;
	if (!b->n_code || b->mode == XB_OFF || e->wrong_path || e->stage != b->x->set.break_stage)
		return;
	for (int i = 0; i < b->count; i++) {
		struct xbp *bp = &b->bps[i];
		if (bp->type != XBP_CODE || bp->addr != e->pc)
			continue;
		struct xevent pseudo = { .kind = -1, .insn_seq = e->seq, .pc = e->pc,
					 .addr = e->mem_addr, .correct_path = 1, .mispredicted = e->mispredicted,
					 .start = e->cycle, .end = e->cycle, .ended = 1 };
		if (!test(b, bp, &pseudo, e->cycle))
			continue;
		struct xbreak_hit h = { .seq = e->seq, .pc = e->pc, .stage = e->stage, .cycle = e->cycle };
		hit(b, bp, &h);
	}
}

/* Cycle breakpoints are not an observer: a run ends its slices at the
 * next one (xbreaks_next_cycle) and asks here when it gets there, so a
 * cycle breakpoint costs nothing per cycle and the core may still hand
 * runs of idle cycles over in one call. */
void xbreaks_check_position(struct xbreaks *b, const struct core *c)
{
	uint64_t pos = core_cycles(c);
	if (!b->n_cycle || b->mode == XB_OFF || pos == 0)
		return;
	for (int i = 0; i < b->count; i++) {
		struct xbp *bp = &b->bps[i];
		/* position pos is the end of the cycle numbered pos - 1 */
		if (bp->type != XBP_CYCLE || bp->cycle != pos || !test(b, bp, NULL, pos - 1))
			continue;
		struct rob_view head = { 0 };
		if (core_rob_occupancy(c) > 0)
			core_rob_entry(c, 0, &head);
		struct xbreak_hit h = { .seq = head.seq, .pc = head.pc, .cycle = pos - 1 };
		hit(b, bp, &h);
	}
}

uint64_t xbreaks_next_cycle(const struct xbreaks *b, uint64_t after)
{
	uint64_t next = UINT64_MAX;
	for (int i = 0; i < b->count; i++) {
		const struct xbp *bp = &b->bps[i];
		if (bp->type == XBP_CYCLE && bp->enabled && bp->cycle > after && bp->cycle < next)
			next = bp->cycle;
	}
	return next;
}

void xbreaks_on_event(void *ctx, const struct xevent *e, int phase)
{
	struct xbreaks *b = ctx;
	if (b->mode == XB_OFF || (!e->correct_path && !b->x->set.catch_wrong_path))
		return;
	for (int i = 0; i < b->count; i++) {
		struct xbp *bp = &b->bps[i];
		if (bp->type != XBP_CATCH || bp->ev_kind != e->kind)
			continue;
		if ((phase == MISS_END) != (bp->at_end != 0))
			continue;
		/* Derived events are reported when they happen: at their end. */
		uint64_t cycle = phase == MISS_END || e->kind >= MISS_KIND_COUNT ? e->end : e->start;
		if (b->mode == XB_STOP && bp->enabled) {
			bp->run_tested++;
			if (e->ended && e->end - e->start > bp->run_longest)
				bp->run_longest = e->end - e->start;
		}
		if (!test(b, bp, e, cycle))
			continue;
		struct xbreak_hit h = { .has_event = 1, .ev = *e, .phase = phase,
					.seq = e->insn_seq, .pc = e->pc, .cycle = cycle };
		hit(b, bp, &h);
	}
}

struct xbreaks *xbreaks_new(struct explorer *x)
{
	struct xbreaks *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	b->x = x;
	b->next_num = 1;
	b->mode = XB_STOP;
	b->obs = (struct core_observer){
		.name = "explorer-breakpoints", .ctx = b,
		.on_insn = on_insn,
	};
	return b;
}

void xbreaks_free(struct xbreaks *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->count; i++)
		xexpr_free(b->bps[i].cond);
	free(b->bps);
	free(b);
}

int xbreaks_attach(struct xbreaks *b, struct core *c, struct ivx_err *err)
{
	struct core_observer o = b->obs;
	int code = 0, caught = 0;
	for (int i = 0; i < b->count; i++) {
		code |= b->bps[i].type == XBP_CODE && b->bps[i].enabled;
		caught |= b->bps[i].type == XBP_CATCH && b->bps[i].enabled;
	}
	if (!code)
		o.on_insn = NULL;
	/* events reach the catchpoints through the recorder: only if any */
	xtrace_set_sink(b->x->trace, caught ? xbreaks_on_event : NULL, b);
	core_remove_observer(c, b);
	return core_add_observer(c, &o, err);
}

void xbreaks_set_mode(struct xbreaks *b, int mode)
{
	b->mode = mode;
	b->hit_pending = 0;
	b->error_pending = 0;
}

void xbreaks_set_skip(struct xbreaks *b, int (*skip)(void *ctx, const struct xbreak_hit *h), void *ctx)
{
	b->skip = skip;
	b->skip_ctx = ctx;
}

int xbreaks_add(struct xbreaks *b, const struct xbp *bp)
{
	if (b->count == b->cap) {
		int cap = b->cap ? b->cap * 2 : 8;
		struct xbp *n = realloc(b->bps, (size_t)cap * sizeof *n);
		if (!n)
			return -1;
		b->bps = n;
		b->cap = cap;
	}
	struct xbp *slot = &b->bps[b->count++];
	*slot = *bp;
	slot->num = bp->internal ? 0 : b->next_num++;
	recount(b);
	return slot->num;
}

struct xbp *xbreaks_find(struct xbreaks *b, int num)
{
	for (int i = 0; i < b->count; i++)
		if (b->bps[i].num == num)
			return &b->bps[i];
	return NULL;
}

int xbreaks_delete(struct xbreaks *b, int num)
{
	for (int i = 0; i < b->count; i++)
		if (b->bps[i].num == num) {
			xexpr_free(b->bps[i].cond);
			memmove(&b->bps[i], &b->bps[i + 1], (size_t)(b->count - i - 1) * sizeof b->bps[0]);
			b->count--;
			recount(b);
			return 0;
		}
	return -1;
}

int xbreaks_count(const struct xbreaks *b)
{
	return b->count;
}

struct xbp *xbreaks_at(struct xbreaks *b, int i)
{
	return i >= 0 && i < b->count ? &b->bps[i] : NULL;
}

int xbreaks_take_hit(struct xbreaks *b, struct xbreak_hit *out)
{
	if (!b->hit_pending)
		return 0;
	*out = b->hit;
	b->hit_pending = 0;
	return 1;
}

const char *xbreaks_take_error(struct xbreaks *b)
{
	if (!b->error_pending)
		return NULL;
	b->error_pending = 0;
	return b->error;
}

void xbreaks_run_begin(struct xbreaks *b)
{
	for (int i = 0; i < b->count; i++)
		b->bps[i].run_tested = b->bps[i].run_longest = b->bps[i].run_held = 0;
}

void xbreaks_program_restarted(struct xbreaks *b)
{
	for (int i = 0; i < b->count; i++)
		b->bps[i].hits = 0;
}

void xbreaks_run_summary(struct xbreaks *b, int short_form, char *buf, size_t n)
{
	size_t used = 0;
	buf[0] = 0;
	for (int i = 0; i < b->count && used < n; i++) {
		const struct xbp *bp = &b->bps[i];
		if (bp->type != XBP_CATCH || !bp->enabled || !bp->cond || !bp->run_tested || bp->internal)
			continue;
		char d[128], longest[64] = "";
		xbreaks_describe(bp, d, sizeof d);
		int timed = bp->at_end && bp->ev_kind < MISS_KIND_COUNT;
		if (short_form) {
			if (timed)
				snprintf(longest, sizeof longest, ", longest %llu cycles",
					 (unsigned long long)bp->run_longest);
			snprintf(buf, n, "catchpoint %d: %llu %s tested%s", bp->num,
				 (unsigned long long)bp->run_tested, xev_name(bp->ev_kind), longest);
			return;
		}
		if (bp->run_held)
			continue;     /* it held, its ignore count skipped those: not "none" */
		if (timed)
			snprintf(longest, sizeof longest, "; the longest lasted %llu cycles",
				 (unsigned long long)bp->run_longest);
		used += (size_t)snprintf(buf + used, n - used,
					 "Catchpoint %d (%s if %s) held for none of the %llu %s events tested in this run%s\n",
					 bp->num, d, xexpr_text(bp->cond), (unsigned long long)bp->run_tested,
					 xev_name(bp->ev_kind), longest);
	}
}

void xbreaks_describe(const struct xbp *bp, char *buf, size_t n)
{
	switch (bp->type) {
	case XBP_CODE:
		snprintf(buf, n, "%s", bp->where);
		break;
	case XBP_CYCLE:
		snprintf(buf, n, "cycle %llu", (unsigned long long)bp->cycle);
		break;
	default:
		/* overlap and interval happen at one moment; an interval is
		 * reported when it ends */
		if (bp->ev_kind == XEV_INTERVAL)
			snprintf(buf, n, "interval ends");
		else if (bp->ev_kind == XEV_OVERLAP || bp->ev_kind >= XEV_INSTRUMENT)
			snprintf(buf, n, "%s", xev_name(bp->ev_kind));   /* (an instrument's events are moments too) */
		else
			snprintf(buf, n, "%s %s", xev_name(bp->ev_kind), bp->at_end ? "ends" : "begins");
		break;
	}
}
