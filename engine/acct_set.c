/*
 * acct_set.c — the five accounting units and the overlap measurement as
 * one observer (see acct.h).
 *
 * The core calls an observer for every stage of every instruction; the
 * units only read a few of those events:
 *   FMT / sFMT rows     branch events (fetch, dispatch, complete, commit, squash)
 *   sFMT I-miss bits    dispatch of an instruction whose fetch missed, and
 *                       commit / squash while some bit is set
 *   POWER5              completion of a mispredicted branch
 *   overlap             events of mispredicted branches
 *   naive               none (miss events only)
 * so one dispatcher that drops everything else saves an indirect call per
 * unit per event. Cycle records go to every unit, through direct calls
 * of their per-cycle rules (acct_internal.h); miss events (rare) through
 * the units' own observers.
 */
#include <stdlib.h>
#include <string.h>
#include "acct_internal.h"

struct acct_set {
	struct core_observer obs;
	struct acct *unit[ACCT_METHOD_COUNT];
	struct acct_overlap *ov;
	const struct core_observer *sub[ACCT_METHOD_COUNT + 1]; /* units, then overlap */
	int n_sub;
};

static void set_on_insn(void *ctx, const struct insn_event *e)
{
	struct acct_set *s = ctx;
	struct acct *sf = s->unit[ACCT_SFMT];
	/* acct_fmt_insn of each, without its per-call tests of the method */
	if (sf->s.fmt.imiss_bits || (e->stage == INSN_DISPATCH && e->icache_miss))
		acct_sfmt_bits(sf, e);
	if (!acct_is_branch(e->uop))
		return;
	if (e->stage == INSN_ISSUE)
		return;                 /* no unit reads a branch's issue (filtered too) */
	acct_fmt_branch(s->unit[ACCT_FMT], e);
	acct_fmt_branch(sf, e);
	if (e->mispredicted && !e->wrong_path) {
		acct_power5_insn(s->unit[ACCT_POWER5], e);
		if (s->ov)
			acct_overlap_insn(s->ov, e);
	}
}

static void set_on_miss(void *ctx, const struct miss_event *e)
{
	struct acct_set *s = ctx;
	for (int i = 0; i < s->n_sub; i++)
		if (s->sub[i]->on_miss)
			s->sub[i]->on_miss(s->sub[i]->ctx, e);
}

static void set_on_cycle(void *ctx, const struct cycle_record *r)
{
	struct acct_set *s = ctx;
	struct acct_cycle_view v;
	acct_cycle_view(r, &v);
	acct_naive_cycle(s->unit[ACCT_NAIVE], &v);
	acct_naive_cycle(s->unit[ACCT_NAIVE_NONSPEC], &v);
	acct_power5_cycle(s->unit[ACCT_POWER5], r, &v);
	/* the FMT and sFMT see the same miss events, so the same I-side wait */
	int fe = acct_fmt_fetch_imiss(s->unit[ACCT_FMT], r, &v);
	acct_fmt_cycle(s->unit[ACCT_FMT], r, &v, fe);
	acct_fmt_cycle(s->unit[ACCT_SFMT], r, &v, fe);
	if (s->ov)
		acct_overlap_cycle(s->ov, r, &v);
}

static size_t set_state_size(void *ctx)
{
	struct acct_set *s = ctx;
	size_t n = 0;
	for (int i = 0; i < s->n_sub; i++)
		n += s->sub[i]->state_size(s->sub[i]->ctx);
	return n;
}

static void set_save(void *ctx, void *blob)
{
	struct acct_set *s = ctx;
	char *p = blob;
	for (int i = 0; i < s->n_sub; i++) {
		s->sub[i]->save(s->sub[i]->ctx, p);
		p += s->sub[i]->state_size(s->sub[i]->ctx);
	}
}

static void set_restore(void *ctx, const void *blob)
{
	struct acct_set *s = ctx;
	const char *p = blob;
	for (int i = 0; i < s->n_sub; i++) {
		s->sub[i]->restore(s->sub[i]->ctx, p);
		p += s->sub[i]->state_size(s->sub[i]->ctx);
	}
}

static struct acct_set *set_new(const struct machine_config *cfg, int with_overlap, struct ivx_err *err)
{
	struct acct_set *s = calloc(1, sizeof *s);
	if (!s) {
		ivx_error(err, IVX_ESYS, "out of memory");
		return NULL;
	}
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		s->unit[m] = acct_new(m, cfg, err);
		if (!s->unit[m]) {
			acct_set_free(s);
			return NULL;
		}
		s->sub[s->n_sub++] = acct_observer(s->unit[m]);
	}
	if (with_overlap) {
		s->ov = acct_overlap_new(cfg, err);
		if (!s->ov) {
			acct_set_free(s);
			return NULL;
		}
		s->sub[s->n_sub++] = acct_overlap_observer(s->ov);
	}
	s->obs = (struct core_observer){
		.name = "acct", .ctx = s,
		.on_insn = set_on_insn, .on_miss = set_on_miss, .on_cycle = set_on_cycle,
		.state_size = set_state_size, .save = set_save, .restore = set_restore,
		.insn_filter = INSN_WANT_BRANCH | INSN_WANT_IMISS,
		/* set_on_insn drops every INSN_ISSUE: let the core skip them */
		.insn_stages = ((1u << INSN_STAGE_COUNT) - 1) & ~INSN_STAGE_BIT(INSN_ISSUE),
		.miss_filter = ACCT_MISS_FILTER,
	};
	return s;
}

struct acct_set *acct_set_new(const struct machine_config *cfg, struct ivx_err *err)
{
	return set_new(cfg, 1, err);
}

struct acct_set *acct_set_new_units(const struct machine_config *cfg, struct ivx_err *err)
{
	return set_new(cfg, 0, err);
}

void acct_set_free(struct acct_set *s)
{
	if (!s)
		return;
	for (int m = 0; m < ACCT_METHOD_COUNT; m++)
		acct_free(s->unit[m]);
	acct_overlap_free(s->ov);
	free(s);
}

const struct core_observer *acct_set_observer(struct acct_set *s)
{
	return &s->obs;
}

const struct acct *acct_set_unit(const struct acct_set *s, int method)
{
	return method >= 0 && method < ACCT_METHOD_COUNT ? s->unit[method] : NULL;
}

const struct acct_overlap *acct_set_overlap(const struct acct_set *s)
{
	return s->ov;
}
