/*
 * instrument.c — the instrument table (see instrument.h): the linker's
 * section of registrations, sorted once into attach order.
 */
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "explorer.h"
#include "explorer_break.h"
#include "instrument.h"

extern const struct xinstrument *const __start_ivx_instruments[];
extern const struct xinstrument *const __stop_ivx_instruments[];

static const struct xinstrument **sorted;
static int n_sorted;

static int by_order(const void *a, const void *b)
{
	const struct xinstrument *p = *(const struct xinstrument *const *)a;
	const struct xinstrument *q = *(const struct xinstrument *const *)b;
	return p->order != q->order ? (p->order > q->order) - (p->order < q->order) : strcmp(p->name, q->name);
}

static void build_table(void)
{
	if (sorted)
		return;
	int n = (int)(__stop_ivx_instruments - __start_ivx_instruments);
	sorted = malloc((size_t)(n ? n : 1) * sizeof *sorted);
	if (!sorted)
		return;
	for (int i = 0; i < n; i++)
		sorted[i] = __start_ivx_instruments[i];
	qsort(sorted, (size_t)n, sizeof *sorted, by_order);
	n_sorted = n;
}

int xinstrument_count(void)
{
	build_table();
	return n_sorted;
}

const struct xinstrument *xinstrument_at(int i)
{
	build_table();
	return i >= 0 && i < n_sorted ? sorted[i] : NULL;
}

void *explorer_instrument(const struct explorer *x, const char *name)
{
	for (int i = 0; i < x->n_instruments; i++)
		if (!strcmp(xinstrument_at(i)->name, name))
			return x->instruments[i];
	return NULL;
}

const char *explorer_event_idle(const struct explorer *x, const char *event)
{
	for (int i = 0; i < x->n_instruments; i++) {
		const struct xinstrument *in = xinstrument_at(i);
		for (int k = 0; in->events && in->events[k]; k++)
			if (!strcmp(in->events[k], event))
				return in->idle && x->instruments[i] ? in->idle(x->instruments[i]) : NULL;
	}
	return NULL;
}

void explorer_instrument_event(struct explorer *x, const char *name, uint64_t pc, uint64_t seq, uint64_t addr)
{
	if (x->core)
		explorer_instrument_event_at(x, name, core_current_cycle(x->core), pc, seq, addr);
}

void explorer_instrument_event_at(struct explorer *x, const char *name, uint64_t cycle, uint64_t pc,
				  uint64_t seq, uint64_t addr)
{
	int kind = xev_from_name(name);
	if (kind < XEV_INSTRUMENT || !x->core)
		return;
	struct xevent e = { .kind = kind, .start = cycle, .end = cycle, .ended = 1, .insn_seq = seq,
			    .pc = pc, .addr = addr, .correct_path = 1, .cause = -1 };
	xbreaks_on_event(x->breaks, &e, MISS_BEGIN);
}
