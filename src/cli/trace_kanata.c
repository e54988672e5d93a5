/*
 * trace_kanata.c — the Kanata 0004 trace writer (see trace_kanata.h).
 *
 * The format is tab-separated lines, one command each: "Kanata\t0004"
 * header, "C=\tN" the first cycle, "C\tD" cycles elapsed, "I" a new
 * instruction (file id, simulator id, thread), "L" its label (type 0 left
 * pane, 1 hover), "S"/"E" stage start/end on a lane, "W" a wake-up
 * dependence, "R" retire (type 0) or flush (type 1). Cycles only move
 * forward, which the core's event order guarantees.
 *
 * Instructions in flight are found by seq in a fixed table (no per-event
 * allocation); the trace is not an engine snapshot participant because a
 * file cannot be rewound.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "isa/disasm.h"
#include "trace_kanata.h"
#include "isa/uop.h"

#define TK_SLOTS 65536

enum { TK_NONE, TK_F, TK_DS, TK_EX, TK_CM };
static const char *const tk_stage[] = { "", "F", "Ds", "Ex", "Cm" };

struct tk_slot {
	uint64_t seq;             /* 0 = free */
	uint64_t id;              /* file id */
	int stage;
};

struct trace_kanata {
	FILE *f;
	uint64_t lo, hi;
	int started;
	uint64_t last_cycle;
	uint64_t next_id, next_retire;
	struct core_observer obs;
	struct tk_slot slots[TK_SLOTS];
};

static void advance(struct trace_kanata *t, uint64_t cycle)
{
	if (!t->started) {
		fprintf(t->f, "C=\t%llu\n", (unsigned long long)cycle);
		t->started = 1;
		t->last_cycle = cycle;
	} else if (cycle > t->last_cycle) {
		fprintf(t->f, "C\t%llu\n", (unsigned long long)(cycle - t->last_cycle));
		t->last_cycle = cycle;
	}
}

static struct tk_slot *find(struct trace_kanata *t, uint64_t seq)
{
	struct tk_slot *s = &t->slots[seq & (TK_SLOTS - 1)];
	return s->seq == seq ? s : NULL;
}

static void stage(struct trace_kanata *t, struct tk_slot *s, int st)
{
	if (s->stage != TK_NONE)
		fprintf(t->f, "E\t%llu\t0\t%s\n", (unsigned long long)s->id, tk_stage[s->stage]);
	if (st != TK_NONE)
		fprintf(t->f, "S\t%llu\t0\t%s\n", (unsigned long long)s->id, tk_stage[st]);
	s->stage = st;
}

static void on_fetch(struct trace_kanata *t, const struct insn_event *e)
{
	if (e->cycle < t->lo || (t->hi && e->cycle >= t->hi))
		return;
	advance(t, e->cycle);
	struct tk_slot *s = &t->slots[e->seq & (TK_SLOTS - 1)];
	s->seq = e->seq;
	s->id = t->next_id++;
	s->stage = TK_NONE;
	char text[96];
	disasm_word(e->uop->word, e->pc, text, sizeof text);
	fprintf(t->f, "I\t%llu\t%llu\t0\n", (unsigned long long)s->id, (unsigned long long)e->seq);
	fprintf(t->f, "L\t%llu\t0\t%08llx: %s\n", (unsigned long long)s->id, (unsigned long long)e->pc, text);
	fprintf(t->f, "L\t%llu\t1\tseq %llu%s%s%s\n", (unsigned long long)s->id, (unsigned long long)e->seq,
		e->wrong_path ? ", wrong path" : "", e->mispredicted ? ", mispredicted" : "",
		e->icache_miss ? ", I-cache/I-TLB miss" : "");
	stage(t, s, TK_F);
}

static void tk_on_insn(void *ctx, const struct insn_event *e)
{
	struct trace_kanata *t = ctx;
	if (e->stage == INSN_FETCH) {
		on_fetch(t, e);
		return;
	}
	struct tk_slot *s = find(t, e->seq);
	if (!s)
		return;
	advance(t, e->cycle);
	switch (e->stage) {
	case INSN_DISPATCH:
		stage(t, s, TK_DS);
		for (int k = 0; k < e->n_deps && k < 4; k++) {
			const struct tk_slot *p = find(t, e->dep_seq[k]);
			if (p)
				fprintf(t->f, "W\t%llu\t%llu\t0\n", (unsigned long long)s->id, (unsigned long long)p->id);
		}
		break;
	case INSN_ISSUE:
		stage(t, s, TK_EX);
		if (e->dcache_level > 1 || e->dtlb_miss)
			fprintf(t->f, "L\t%llu\t1\t, %s%s\n", (unsigned long long)s->id,
				e->dcache_level == 3 ? "L2 miss" : e->dcache_level == 2 ? "L1 miss" : "",
				e->dtlb_miss ? " D-TLB miss" : "");
		break;
	case INSN_COMPLETE:
		stage(t, s, TK_CM);
		break;
	case INSN_COMMIT:
	case INSN_SQUASH:
		stage(t, s, TK_NONE);
		fprintf(t->f, "R\t%llu\t%llu\t%d\n", (unsigned long long)s->id,
			(unsigned long long)(e->stage == INSN_COMMIT ? t->next_retire++ : 0),
			e->stage == INSN_COMMIT ? 0 : 1);
		s->seq = 0;
		break;
	default:
		break;
	}
}

struct trace_kanata *trace_kanata_new(FILE *f, uint64_t lo, uint64_t hi, struct ivx_err *err)
{
	struct trace_kanata *t = calloc(1, sizeof *t);
	if (!t) {
		ivx_error(err, IVX_ESYS, "out of host memory");
		return NULL;
	}
	t->f = f;
	t->lo = lo;
	t->hi = hi;
	fprintf(t->f, "Kanata\t0004\n");
	t->obs = (struct core_observer){ .name = "kanata", .ctx = t, .on_insn = tk_on_insn };
	return t;
}

const struct core_observer *trace_kanata_observer(struct trace_kanata *t)
{
	return &t->obs;
}

void trace_kanata_free(struct trace_kanata *t)
{
	free(t);
}
