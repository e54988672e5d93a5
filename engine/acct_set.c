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
 * unit per event. Cycle and miss events go to every unit that has them.
 */
#include <stdlib.h>
#include <string.h>
#include "acct_internal.h"

struct acct_set {
	struct core_observer obs;
	struct acct *unit[ACCT_METHOD_COUNT];
	struct acct_overlap *ov;
	const struct core_observer *sub[ACCT_METHOD_COUNT + 1]; /* units, then overlap */
};

static void set_on_insn(void *ctx, const struct insn_event *e)
{
	struct acct_set *s = ctx;
	if (!acct_is_branch(e->uop)) {
		const struct acct *sf = s->unit[ACCT_SFMT];
		if (sf->s.fmt.imiss_bits || (e->stage == INSN_DISPATCH && e->icache_miss))
			sf->obs.on_insn(sf->obs.ctx, e);
		return;
	}
	for (int i = 0; i <= ACCT_METHOD_COUNT; i++)
		if (s->sub[i]->on_insn)
			s->sub[i]->on_insn(s->sub[i]->ctx, e);
}

static void set_on_miss(void *ctx, const struct miss_event *e)
{
	struct acct_set *s = ctx;
	for (int i = 0; i <= ACCT_METHOD_COUNT; i++)
		if (s->sub[i]->on_miss)
			s->sub[i]->on_miss(s->sub[i]->ctx, e);
}

static void set_on_cycle(void *ctx, const struct cycle_record *r)
{
	struct acct_set *s = ctx;
	for (int i = 0; i <= ACCT_METHOD_COUNT; i++)
		s->sub[i]->on_cycle(s->sub[i]->ctx, r);
}

static size_t set_state_size(void *ctx)
{
	struct acct_set *s = ctx;
	size_t n = 0;
	for (int i = 0; i <= ACCT_METHOD_COUNT; i++)
		n += s->sub[i]->state_size(s->sub[i]->ctx);
	return n;
}

static void set_save(void *ctx, void *blob)
{
	struct acct_set *s = ctx;
	char *p = blob;
	for (int i = 0; i <= ACCT_METHOD_COUNT; i++) {
		s->sub[i]->save(s->sub[i]->ctx, p);
		p += s->sub[i]->state_size(s->sub[i]->ctx);
	}
}

static void set_restore(void *ctx, const void *blob)
{
	struct acct_set *s = ctx;
	const char *p = blob;
	for (int i = 0; i <= ACCT_METHOD_COUNT; i++) {
		s->sub[i]->restore(s->sub[i]->ctx, p);
		p += s->sub[i]->state_size(s->sub[i]->ctx);
	}
}

struct acct_set *acct_set_new(const struct machine_config *cfg, struct ivx_err *err)
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
		s->sub[m] = acct_observer(s->unit[m]);
	}
	s->ov = acct_overlap_new(cfg, err);
	if (!s->ov) {
		acct_set_free(s);
		return NULL;
	}
	s->sub[ACCT_METHOD_COUNT] = acct_overlap_observer(s->ov);
	s->obs = (struct core_observer){
		.name = "acct", .ctx = s,
		.on_insn = set_on_insn, .on_miss = set_on_miss, .on_cycle = set_on_cycle,
		.state_size = set_state_size, .save = set_save, .restore = set_restore,
	};
	return s;
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
