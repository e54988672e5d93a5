/*
 * dcpicalc_calls.c — ivx's interprocedural step (dcpicalc_calls.h).
 *
 * The paper's analysis sees one procedure at a time, so the frequency of a
 * procedure's entry comes only from its own samples: a function that runs
 * a few dozen cycles per call, or whose every issue point stalls (a load
 * that misses each call), is estimated badly. Its callers know better: a
 * procedure runs as often as its call sites together, and a call site is
 * an instruction of a block the caller's analysis estimated, often with
 * many samples. This module makes that first pass: every procedure with
 * samples is analysed with ivx's estimator, and per called entry the call
 * sites' executions (block frequency x period) and variances are summed.
 * The second pass (cmd_dcpicalc.c) gives each procedure its callers' sum
 * (dcc_set_calls) to weigh with its own estimate.
 *
 * A call site weighs by the variance its block's class has after the
 * flow reconciliation (so a block of low confidence whose neighbours pin
 * it down counts fully). One estimated at zero with low confidence (no
 * sample: by the sampling period's measure it runs rarely, yet it may run
 * a thousand times) makes the callee's calls unknown. Only direct calls
 * (BL) name their target. An image with any indirect
 * call (BLR) gives no answer for any of its procedures: an unseen caller
 * would make the sum too low. Call sites in procedures without samples
 * count as never run.
 *
 * A procedure's calls to itself are left out of its sum: they are not
 * known from outside, and its own analysis ties them to its entry (the
 * entry runs as often as the calls from outside plus its own call sites,
 * an equation of the reconciliation in dcpicalc.c). For such a procedure
 * the calls from outside are usually few (main calling fib once), so a
 * call site estimated at zero does not make them unknown but adds its
 * bound (no sample in its block's M cycles: F M below about 1), and the
 * unanalysed procedures without samples add one call per period.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "dcpi/dcpicalc.h"
#include "dcpicalc_calls.h"
#include "guest/program.h"
#include "guest/symtab.h"

struct callee {
	char *image;
	uint64_t entry;
	double execs, var;     /* sum over call sites: executions, their variance */
	int unknown;           /* a call site without an estimate */
	int rare;              /* call sites estimated at zero with low confidence */
	double rare_var;       /* ... their variance: no sample in their block's M cycles */
	int self;              /* the procedure calls itself */
};

struct dcpicalc_calls {
	struct callee *v;
	size_t n, cap;
	char **indirect;       /* images with an indirect call */
	size_t n_indirect;
};

static struct callee *callee_at(struct dcpicalc_calls *c, const char *image, uint64_t entry)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].entry == entry && !strcmp(c->v[i].image, image))
			return &c->v[i];
	if (c->n == c->cap) {
		size_t nc = c->cap ? 2 * c->cap : 64;
		struct callee *v = realloc(c->v, nc * sizeof *v);
		if (!v)
			return NULL;
		c->v = v;
		c->cap = nc;
	}
	struct callee *e = &c->v[c->n];
	*e = (struct callee){ .image = strdup(image), .entry = entry };
	if (!e->image)
		return NULL;
	c->n++;
	return e;
}

static int note_indirect(struct dcpicalc_calls *c, const char *image)
{
	for (size_t i = 0; i < c->n_indirect; i++)
		if (!strcmp(c->indirect[i], image))
			return 0;
	char **v = realloc(c->indirect, (c->n_indirect + 1) * sizeof *v);
	if (!v)
		return -1;
	c->indirect = v;
	if (!(c->indirect[c->n_indirect] = strdup(image)))
		return -1;
	c->n_indirect++;
	return 0;
}

/* The call sites of one procedure with samples, from its analysis. */
static int add_sites(struct dcpicalc_calls *c, const struct machine_config *mc, const char *image,
		     struct dcpicalc_proc *pr, char *msg, size_t msg_n)
{
	struct ivx_err err = { 0 };
	struct dcc *a = dcc_new(pr->code, pr->n, mc, &err);
	if (!a) {
		snprintf(msg, msg_n, "%s", err.msg);
		return -1;
	}
	dcc_set_estimator(a, DCC_EST_IVX);
	struct dcc_profile prof = { 0 };
	for (int e = 0; e < 5; e++) {
		prof.samples[e] = pr->samples[e];
		prof.period[e] = pr->period[e];
	}
	if (dcc_estimate(a, &prof, &err) < 0) {
		snprintf(msg, msg_n, "%s", err.msg);
		dcc_free(a);
		return -1;
	}
	double period = pr->period[0] > 0 ? pr->period[0] : 1;
	for (size_t i = 0; i < pr->n; i++) {
		const struct dcc_insn *x = &pr->code[i];
		if (x->kind != INSN_KIND_CALL || !x->target)
			continue;
		struct callee *e = callee_at(c, image, x->target);
		if (!e) {
			dcc_free(a);
			snprintf(msg, msg_n, "dcpicalc: out of memory");
			return -1;
		}
		/* a call to itself is not a call from outside: the procedure's
		 * own analysis ties it to its entry (reconcile() in dcpicalc.c) */
		if (x->target == pr->code[0].pc) {
			e->self = 1;
			continue;
		}
		const struct dcc_block *b = dcc_block_at(a, (size_t)dcc_result_at(a, i)->block);
		if (b->freq == 0 && b->conf < 1) {
			/* no sample in the block's M cycles: F M is about 1 at
			 * most, which bounds it only on the scale of the
			 * sampling period */
			double m = b->m_total > 1 ? b->m_total : 1;
			e->rare++;
			e->rare_var += period * period / (m * m);
			continue;
		}
		if (b->freq < 0 || !(b->var > 0)) {
			e->unknown = 1;
			continue;
		}
		e->execs += b->freq * period;
		e->var += b->var * period * period;
	}
	dcc_free(a);
	return 0;
}

struct dcpicalc_calls *dcpicalc_calls_new(void)
{
	return calloc(1, sizeof(struct dcpicalc_calls));
}

int dcpicalc_calls_add(struct dcpicalc_calls *c, const struct machine_config *mc, const char *image,
		       struct dcpicalc_proc *pr, char *msg, size_t msg_n)
{
	for (size_t j = 0; j < pr->n; j++)
		if (pr->code[j].kind == INSN_KIND_CALL && !pr->code[j].target && note_indirect(c, image) < 0) {
			snprintf(msg, msg_n, "dcpicalc: out of memory");
			return -1;
		}
	if (pr->samples[0] && dcpicalc_proc_samples(pr))
		return add_sites(c, mc, image, pr, msg, msg_n);
	return 0;
}

struct gather_ctx {
	struct dcpicalc_calls *c;
	const struct dcpicalc_db *d;
};

static int gather_proc(void *ctx, const char *image, struct dcpicalc_proc *pr)
{
	struct gather_ctx *g = ctx;
	char msg[512];
	if (dcpicalc_calls_add(g->c, &g->d->mc, image, pr, msg, sizeof msg) < 0) {
		cli_error("%s", msg);
		return -1;
	}
	return 0;
}

struct dcpicalc_calls *dcpicalc_calls_gather(struct dcpicalc_db *d)
{
	struct dcpicalc_calls *c = dcpicalc_calls_new();
	if (!c) {
		cli_error("dcpicalc: out of memory");
		return NULL;
	}
	struct gather_ctx g = { c, d };
	if (dcpicalc_each_proc(d, gather_proc, &g) != 0) {
		dcpicalc_calls_free(c);
		return NULL;
	}
	return c;
}

void dcpicalc_calls_free(struct dcpicalc_calls *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].image);
	for (size_t i = 0; i < c->n_indirect; i++)
		free(c->indirect[i]);
	free(c->v);
	free(c->indirect);
	free(c);
}

int dcpicalc_calls_of(const struct dcpicalc_calls *c, const char *image, uint64_t entry, double period,
		      double *calls, double *var)
{
	if (!c || period <= 0)
		return -1;
	for (size_t i = 0; i < c->n_indirect; i++)
		if (!strcmp(c->indirect[i], image))
			return -1;
	for (size_t i = 0; i < c->n; i++) {
		const struct callee *e = &c->v[i];
		if (e->entry != entry || strcmp(e->image, image))
			continue;
		/* a call site estimated at zero leaves the calls unknown (it
		 * may run a thousand times between samples), except for a
		 * procedure that calls itself: there the calls from outside
		 * are typically few beside the recursion, and their bound
		 * weighs in its entry equation */
		if (e->unknown || (e->rare && !e->self))
			return -1;
		double v = (e->var + e->rare_var) / (period * period);
		/* ... and the call sites in procedures without a sample (never
		 * analysed: main calling a recursive fib once) ran in less
		 * than a sampling period's cycles: about one per period at most */
		if (e->self)
			v += 1.0;
		if (!(v > 0))
			return -1;
		*calls = e->execs / period;
		*var = v;
		return 0;
	}
	return -1;
}
