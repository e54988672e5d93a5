/*
 * inst_reset.c — `reset stats` (see inst_reset.h). An instrument only for
 * its session-side object (the baseline) and its attach hook, which drops
 * the baseline when the run starts over; it observes nothing.
 */
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "explorer.h"
#include "explorer_trace.h"
#include "guest/program.h"
#include "inst_acct.h"
#include "inst_reset.h"
#include "instrument.h"
#include "isa/mem.h"

/* Commit counts of one executable segment, a counter per instruction word. */
struct seg_counts {
	uint64_t lo, hi;
	uint64_t *n;
};

struct xreset {
	int active;
	uint64_t cycle;                           /* position of the reset */
	struct acct_mark stack[ACCT_METHOD_COUNT];
	int have_stack[ACCT_METHOD_COUNT];
	uint64_t correct[MISS_KIND_COUNT], wrong[MISS_KIND_COUNT];
	uint64_t derived[XEV_COUNT];
	struct seg_counts *segs;
	int n_segs;
};

static void drop(struct xreset *r)
{
	for (int i = 0; i < r->n_segs; i++)
		free(r->segs[i].n);
	free(r->segs);
	memset(r, 0, sizeof *r);
}

static void *xreset_create(struct explorer *x)
{
	return calloc(1, sizeof(struct xreset));
}

static void xreset_free(void *self)
{
	if (!self)
		return;
	drop(self);
	free(self);
}

/* A new run (start, `run`, `restart`): the old baseline is of another run. */
static int xreset_attach(void *self, struct core *c, struct ivx_err *err)
{
	drop(self);
	return 0;
}

static struct xreset *get(const struct explorer *x)
{
	struct xreset *r = explorer_instrument(x, "reset");
	return r && r->active && explorer_cycle(x) >= r->cycle ? r : NULL;
}

uint64_t xreset_since(const struct explorer *x)
{
	const struct xreset *r = get(x);
	return r ? r->cycle : 0;
}

int xreset_stats(struct explorer *x)
{
	struct xreset *r = explorer_instrument(x, "reset");
	if (!r)
		return explorer_error(x, "reset stats: not available");
	struct xreset n = { .active = 1, .cycle = explorer_cycle(x) };
	const struct xacct *xa = explorer_instrument(x, "acct");
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		const struct acct *a = xacct_unit(xa, m);
		if (a) {
			acct_mark(a, &n.stack[m]);
			n.have_stack[m] = 1;
		}
	}
	struct core_stats st;
	core_stats(x->core, &st);
	memcpy(n.correct, st.events_correct, sizeof n.correct);
	memcpy(n.wrong, st.events_wrong, sizeof n.wrong);
	for (int k = MISS_KIND_COUNT; k < XEV_COUNT; k++)
		n.derived[k] = xtrace_event_total(x->trace, k);
	for (int i = 0; i < program_segment_count(x->prog); i++) {
		const struct program_segment *sg = program_segment(x->prog, i);
		if (!(sg->prot & MEM_X))
			continue;
		struct seg_counts *segs = realloc(n.segs, (size_t)(n.n_segs + 1) * sizeof *segs);
		if (!segs)
			goto oom;
		n.segs = segs;
		struct seg_counts *s = &n.segs[n.n_segs];
		s->lo = sg->vaddr & ~(uint64_t)3;
		s->hi = sg->vaddr + sg->filesz;
		s->n = calloc((size_t)((s->hi - s->lo) / 4 + 1), sizeof *s->n);
		if (!s->n)
			goto oom;
		n.n_segs++;
		for (uint64_t pc = s->lo; pc < s->hi; pc += 4)
			s->n[(pc - s->lo) / 4] = core_commits_at(x->core, pc);
	}
	drop(r);
	*r = n;
	return 0;
oom:
	drop(&n);
	return explorer_error(x, "out of memory");
}

int xreset_stack(const struct explorer *x, int method, struct acct_stack *out)
{
	const struct acct *a = xacct_unit(explorer_instrument(x, "acct"), method);
	if (!a)
		return -1;
	const struct xreset *r = get(x);
	if (!r || !r->have_stack[method])
		acct_get_stack(a, out);
	else
		acct_get_stack_since(a, &r->stack[method], out);
	return 0;
}

uint64_t xreset_commits_at(const struct explorer *x, uint64_t pc)
{
	uint64_t n = core_commits_at(x->core, pc);
	const struct xreset *r = get(x);
	if (!r || (pc & 3))
		return n;
	for (int i = 0; i < r->n_segs; i++)
		if (pc >= r->segs[i].lo && pc < r->segs[i].hi)
			return n - r->segs[i].n[(pc - r->segs[i].lo) / 4];
	return n;
}

void xreset_events(const struct explorer *x, uint64_t correct[MISS_KIND_COUNT], uint64_t wrong[MISS_KIND_COUNT])
{
	struct core_stats st;
	core_stats(x->core, &st);
	const struct xreset *r = get(x);
	for (int k = 0; k < MISS_KIND_COUNT; k++) {
		correct[k] = st.events_correct[k] - (r ? r->correct[k] : 0);
		wrong[k] = st.events_wrong[k] - (r ? r->wrong[k] : 0);
	}
}

uint64_t xreset_event_total(const struct explorer *x, int kind)
{
	uint64_t n = xtrace_event_total(x->trace, kind);
	const struct xreset *r = get(x);
	return r && kind >= MISS_KIND_COUNT && kind < XEV_COUNT ? n - r->derived[kind] : n;
}

static const struct xinstrument xinst_reset = {
	.name = "reset",
	.summary = "`reset stats`: CPI stacks, event counts and commit counts from a chosen cycle on",
	.order = 100,
	.create = xreset_create,
	.attach = xreset_attach,
	.free = xreset_free,
	.commands = "reset",
};
XINSTRUMENT_REGISTER(xinst_reset);
