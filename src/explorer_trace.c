/*
 * explorer_trace.c — the explorer's recorder (see explorer_trace.h).
 *
 * All state has a fixed size (the core requires it of observers that are
 * snapshotted): one plain struct of rings and derived-event trackers, and
 * an array of commit counts with one slot per instruction word of the
 * program's executable segments. A snapshot is two memcpys.
 *
 * Derived events:
 *   overlap   a correct-path long backend miss (L2 D-cache, D-TLB) begins
 *             while another instruction's is outstanding; or a frontend miss (L1I,
 *             L2I, I-TLB) begins while the ROB head waits on a long miss.
 *   interval  correct-path issue resumes after a stall: at least one cycle
 *             in which no correct-path instruction issued while a miss
 *             event was in progress, and some miss event ended meanwhile.
 *             start = first stalled cycle, end = the cycle issue resumed;
 *             pc/insn are those of the miss that ended last.
 * Both are instantaneous: begin and end are reported in the same call.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "explorer_trace.h"
#include "mem.h"
#include "program.h"

#define MAX_LONG 64

struct trace_state {
	/* The timeline, run-length coded: entry k stands for cycles[k].cycle
	 * and the repeat[k] cycles after it, all alike (a run of idle cycles
	 * is one entry, not a copy per cycle). The cycles of successive
	 * entries follow on, so the ring holds at least its last
	 * XTRACE_CYCLES cycles. */
	struct xtl_cycle cycles[XTRACE_CYCLES];  /* ring */
	uint64_t repeat[XTRACE_CYCLES];
	uint64_t n_cycles;                       /* entries ever written */
	struct xevent events[XTRACE_EVENTS];     /* ring, in begin order */
	uint64_t n_events;
	uint64_t totals[XEV_COUNT];
	/* overlap */
	uint64_t long_ids[MAX_LONG];             /* outstanding long misses (engine ids) */
	uint64_t long_seqs[MAX_LONG];            /* ... and their instructions */
	int n_long;
	int last_head_wait;
	/* interval */
	int misses_active;                       /* correct-path miss events in progress */
	int stalled;                             /* in a stall */
	uint64_t stall_start;
	int miss_ended;                          /* some miss ended during the stall */
	struct xevent last_ended;
	/* ROB-full episodes, from the cycle records (a loop that fills the ROB
	 * begins and ends one every few cycles: a miss event each would cost
	 * more than the rest of the recording) */
	int rob_full;
	uint64_t rob_full_event;                 /* its begin's n_events + 1 */
	uint64_t rob_full_start;
};

#define MAX_RANGES 8

/* An executable segment: its instructions' counts start at counts[first]. */
struct code_range { uint64_t base, end, first; };

struct xtrace {
	struct trace_state s;
	/* Commits per static instruction, one slot per word of executable
	 * segments: a fixed size, as snapshots require of observer state. */
	uint64_t *counts;
	size_t n_counts;
	struct code_range ranges[MAX_RANGES];
	int n_ranges;
	xtrace_sink_fn sink;
	void *sink_ctx;
	struct core_observer obs;
};

/* ---- commit counts ------------------------------------------------------ */

/* The slot of pc in counts[], or -1 outside the program's code. */
static inline long count_slot(const struct xtrace *t, uint64_t pc)
{
	/* almost every pc is in the first range: one test (unsigned wrap
	 * makes pc below the base fail it too) */
	if (pc - t->ranges[0].base < t->ranges[0].end - t->ranges[0].base && !(pc & 3))
		return (long)((pc - t->ranges[0].base) / 4);
	for (int i = 1; i < t->n_ranges; i++)
		if (pc >= t->ranges[i].base && pc < t->ranges[i].end && !(pc & 3))
			return (long)(t->ranges[i].first + (pc - t->ranges[i].base) / 4);
	return -1;
}

uint64_t xtrace_commits_at(const struct xtrace *t, uint64_t pc)
{
	long i = count_slot(t, pc);
	return i < 0 ? 0 : t->counts[i];
}

/* ---- events ------------------------------------------------------------- */

static void emit(struct xtrace *t, const struct xevent *e, int phase)
{
	if (t->sink)
		t->sink(t->sink_ctx, e, phase);
}

static struct xevent *record_event(struct xtrace *t, const struct xevent *e)
{
	struct xevent *slot = &t->s.events[t->s.n_events++ % XTRACE_EVENTS];
	*slot = *e;
	if (e->correct_path && e->kind >= 0 && e->kind < XEV_COUNT)
		t->s.totals[e->kind]++;
	return slot;
}

static struct xevent *find_event(struct xtrace *t, uint64_t id)
{
	uint64_t n = t->s.n_events < XTRACE_EVENTS ? t->s.n_events : XTRACE_EVENTS;
	for (uint64_t i = 0; i < n; i++) {
		struct xevent *e = &t->s.events[(t->s.n_events - 1 - i) % XTRACE_EVENTS];
		if (e->kind < MISS_KIND_COUNT && e->id == id)
			return e;
	}
	return NULL;
}

static void derived(struct xtrace *t, int kind, uint64_t start, uint64_t end, const struct xevent *from)
{
	struct xevent d = *from;
	d.kind = kind;
	d.cause = from->kind;
	d.id = 0;
	d.start = start;
	d.end = end;
	d.ended = 1;
	d.correct_path = 1;
	record_event(t, &d);
	emit(t, &d, MISS_BEGIN);
	emit(t, &d, MISS_END);
}

static int is_long(int kind)
{
	return kind == MISS_L2D || kind == MISS_DTLB;
}

static int is_frontend(int kind)
{
	return kind == MISS_L1I || kind == MISS_L2I || kind == MISS_ITLB;
}

/* Miss kinds that can interrupt issue (ROB full/empty are consequences). */
static int is_miss(int kind)
{
	return kind != MISS_ROB_FULL && kind != MISS_ROB_EMPTY;
}

static void on_miss(void *ctx, const struct miss_event *me)
{
	struct xtrace *t = ctx;
	struct trace_state *s = &t->s;
	if (me->phase == MISS_BEGIN) {
		struct xevent e = {
			.kind = me->kind, .id = me->id, .start = me->start,
			.insn_seq = me->insn_seq, .pc = me->pc, .addr = me->addr,
			.correct_path = me->correct_path, .mispredicted = me->kind == MISS_MISPREDICT,
		};
		record_event(t, &e);
		emit(t, &e, MISS_BEGIN);
		if (!me->correct_path)
			return;
		if (is_miss(me->kind))
			s->misses_active++;
		if (is_long(me->kind)) {
			/* Another instruction's long miss (a D-TLB miss and the L2
			 * miss of the same load are one stall, not an overlap). */
			int other = 0, same = 0;
			for (int i = 0; i < s->n_long; i++) {
				other |= s->long_seqs[i] != me->insn_seq;
				same |= s->long_seqs[i] == me->insn_seq;
			}
			if (other && !same)   /* one overlap per instruction */
				derived(t, XEV_OVERLAP, me->start, me->start, &e);
			if (s->n_long < MAX_LONG) {
				s->long_seqs[s->n_long] = me->insn_seq;
				s->long_ids[s->n_long++] = me->id;
			}
		} else if (is_frontend(me->kind) &&
			   (s->last_head_wait == HEAD_L2D || s->last_head_wait == HEAD_DTLB)) {
			derived(t, XEV_OVERLAP, me->start, me->start, &e);
		}
		return;
	}
	struct xevent *e = find_event(t, me->id);
	struct xevent tmp;
	if (!e) {   /* begun before the ring's memory: report what we know */
		tmp = (struct xevent){
			.kind = me->kind, .id = me->id, .start = me->start,
			.insn_seq = me->insn_seq, .pc = me->pc, .addr = me->addr,
			.correct_path = me->correct_path,
		};
		e = &tmp;
	}
	e->end = me->end;
	e->ended = 1;
	emit(t, e, MISS_END);
	if (!me->correct_path)
		return;
	if (is_miss(me->kind)) {
		if (s->misses_active > 0)
			s->misses_active--;
		s->last_ended = *e;
		if (s->stalled)
			s->miss_ended = 1;
	}
	if (is_long(me->kind))
		for (int i = 0; i < s->n_long; i++)
			if (s->long_ids[i] == me->id) {
				s->n_long--;
				s->long_ids[i] = s->long_ids[s->n_long];
				s->long_seqs[i] = s->long_seqs[s->n_long];
				break;
			}
}

/* A ROB-full episode begins or ends with this cycle, as the core's
 * MISS_ROB_FULL event would (begin: the cycle dispatch found the ROB full;
 * end: the first cycle it did not). Its id is 0: the core's ids are not
 * known here, and none is 0. */
static void rob_full_changed(struct xtrace *t, const struct cycle_record *r)
{
	struct trace_state *s = &t->s;
	s->rob_full = r->rob_full;
	if (r->rob_full) {
		struct xevent e = { .kind = MISS_ROB_FULL, .start = r->cycle,
				    .correct_path = !r->rob_full_wrong_path };
		s->rob_full_start = r->cycle;
		s->rob_full_event = s->n_events + 1;
		record_event(t, &e);
		emit(t, &e, MISS_BEGIN);
		return;
	}
	struct xevent tmp = { .kind = MISS_ROB_FULL, .start = s->rob_full_start, .correct_path = 1 };
	struct xevent *e = &tmp;
	if (s->rob_full_event && s->n_events - (s->rob_full_event - 1) <= XTRACE_EVENTS)
		e = &s->events[(s->rob_full_event - 1) % XTRACE_EVENTS];
	e->end = r->cycle;
	e->ended = 1;
	emit(t, e, MISS_END);
}

/* Commit counts from the record: no instruction event per commit. */
static inline void count_commits(struct xtrace *t, const struct cycle_record *r)
{
	/* count_slot's test of the first range, with the range in locals (a
	 * count's store could alias it; calling count_slot here cost 3-5 more
	 * host instructions a cycle on crc) */
	uint64_t base = t->ranges[0].base, span = t->ranges[0].end - base;
	uint64_t *counts = t->counts;
	for (int k = 0; k < r->committed; k++) {
		uint64_t pc = r->commit_pc[k];
		if (pc - base < span && !(pc & 3)) {
			counts[(pc - base) / 4]++;
		} else {
			long i = count_slot(t, pc);
			if (i >= 0)
				counts[i]++;
		}
	}
}

/* The fields the timeline copies sit where the cycle record has them. */
#define SAME_PLACE(f) _Static_assert(offsetof(struct xtl_cycle, f) == offsetof(struct cycle_record, f), \
				     "xtl_cycle." #f " is not where cycle_record has it")
SAME_PLACE(cycle); SAME_PLACE(fetched); SAME_PLACE(dispatched); SAME_PLACE(dispatched_correct);
SAME_PLACE(issued); SAME_PLACE(committed); SAME_PLACE(squashed); SAME_PLACE(issued_correct);
SAME_PLACE(rob_occupancy); SAME_PLACE(rob_size); SAME_PLACE(rob_full); SAME_PLACE(rob_full_wrong_path);
SAME_PLACE(lsq_occupancy); SAME_PLACE(frontend_occupancy); SAME_PLACE(fetch_stall);
SAME_PLACE(head_wait); SAME_PLACE(idle);
#define XTL_COPIED offsetof(struct xtl_cycle, wrong_path_in_rob)
_Static_assert(XTL_COPIED == offsetof(struct xtl_cycle, idle) + sizeof(int),
	       "xtl_cycle: the copied block ends with idle");

/* One block copy and one field: converting and storing the fields one
 * by one cost about twice as much, every cycle. */
static inline void record_timeline(struct trace_state *s, const struct cycle_record *r)
{
	uint64_t k = s->n_cycles++ % XTRACE_CYCLES;
	struct xtl_cycle *c = &s->cycles[k];
	s->repeat[k] = 0;
	memcpy(c, r, XTL_COPIED);
	c->wrong_path_in_rob = r->wrong_path_in_rob;
}

static void on_cycle(void *ctx, const struct cycle_record *r)
{
	struct xtrace *t = ctx;
	struct trace_state *s = &t->s;
	if (__builtin_expect(r->rob_full != s->rob_full, 0))
		rob_full_changed(t, r);
	count_commits(t, r);
	record_timeline(s, r);
	s->last_head_wait = r->head_wait;

	if (r->issued_correct == 0) {
		if (!s->stalled && s->misses_active > 0) {
			s->stalled = 1;
			s->stall_start = r->cycle;
			s->miss_ended = 0;
		}
	} else if (s->stalled) {
		if (s->miss_ended)
			derived(t, XEV_INTERVAL, s->stall_start, r->cycle, &s->last_ended);
		s->stalled = 0;
		s->miss_ended = 0;
	}
}

/* n idle cycles like the last one (core_observer.on_idle_cycles): the
 * first may start a stall; after it, the state stays as it is and only
 * the timeline grows: the first cycle's entry repeats n - 1 times. */
static void on_idle_cycles(void *ctx, const struct cycle_record *r, uint64_t n)
{
	struct xtrace *t = ctx;
	struct trace_state *s = &t->s;
	on_cycle(t, r);
	s->repeat[(s->n_cycles - 1) % XTRACE_CYCLES] += n - 1;
}

/* ---- snapshots ---------------------------------------------------------- */

static size_t state_size(void *ctx)
{
	struct xtrace *t = ctx;
	return sizeof t->s + t->n_counts * sizeof t->counts[0];
}

static void save(void *ctx, void *blob)
{
	struct xtrace *t = ctx;
	memcpy(blob, &t->s, sizeof t->s);
	memcpy((char *)blob + sizeof t->s, t->counts, t->n_counts * sizeof t->counts[0]);
}

static void restore(void *ctx, const void *blob)
{
	struct xtrace *t = ctx;
	memcpy(&t->s, blob, sizeof t->s);
	memcpy(t->counts, (const char *)blob + sizeof t->s, t->n_counts * sizeof t->counts[0]);
}

/* ---- public ------------------------------------------------------------- */

struct xtrace *xtrace_new(const struct program *prog)
{
	struct xtrace *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	for (int i = 0; i < program_segment_count(prog) && t->n_ranges < MAX_RANGES; i++) {
		const struct program_segment *seg = program_segment(prog, i);
		if (!(seg->prot & MEM_X))
			continue;
		struct code_range *r = &t->ranges[t->n_ranges++];
		r->base = seg->vaddr & ~3ull;
		r->end = seg->vaddr + seg->memsz;
		r->first = t->n_counts;
		t->n_counts += (r->end - r->base + 3) / 4;
	}
	t->counts = calloc(t->n_counts ? t->n_counts : 1, sizeof *t->counts);
	if (!t->counts) {
		free(t);
		return NULL;
	}
	t->obs = (struct core_observer){
		.name = "explorer-trace", .ctx = t,
		.on_miss = on_miss, .on_cycle = on_cycle, .on_idle_cycles = on_idle_cycles,
		.state_size = state_size, .save = save, .restore = restore,
		.miss_filter = (MISS_BIT(MISS_KIND_COUNT) - 1) & ~MISS_BIT(MISS_ROB_FULL),
	};
	return t;
}

void xtrace_free(struct xtrace *t)
{
	if (!t)
		return;
	free(t->counts);
	free(t);
}

void xtrace_reset(struct xtrace *t)
{
	memset(&t->s, 0, sizeof t->s);
	memset(t->counts, 0, t->n_counts * sizeof *t->counts);
}

const struct core_observer *xtrace_observer(struct xtrace *t)
{
	return &t->obs;
}

void xtrace_set_sink(struct xtrace *t, xtrace_sink_fn fn, void *ctx)
{
	t->sink = fn;
	t->sink_ctx = ctx;
}

/* The entries in the ring: [oldest, n_cycles). */
static uint64_t oldest_entry(const struct trace_state *s)
{
	return s->n_cycles > XTRACE_CYCLES ? s->n_cycles - XTRACE_CYCLES : 0;
}

static uint64_t newest_cycle(const struct trace_state *s)
{
	uint64_t k = (s->n_cycles - 1) % XTRACE_CYCLES;
	return s->cycles[k].cycle + s->repeat[k];
}

int xtrace_cycle_count(const struct xtrace *t)
{
	const struct trace_state *s = &t->s;
	if (!s->n_cycles)
		return 0;
	uint64_t span = newest_cycle(s) - s->cycles[oldest_entry(s) % XTRACE_CYCLES].cycle + 1;
	return span < XTRACE_CYCLES ? (int)span : XTRACE_CYCLES;
}

int xtrace_cycle_at(const struct xtrace *t, int i, struct xtl_cycle *out)
{
	const struct trace_state *s = &t->s;
	if (i < 0 || i >= xtrace_cycle_count(t))
		return -1;
	uint64_t want = newest_cycle(s) - (uint64_t)i;
	/* the last entry that starts at or before `want` (entries' cycles
	 * increase along the ring) */
	uint64_t lo = oldest_entry(s), hi = s->n_cycles - 1;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;
		if (s->cycles[mid % XTRACE_CYCLES].cycle <= want)
			lo = mid;
		else
			hi = mid - 1;
	}
	*out = s->cycles[lo % XTRACE_CYCLES];
	out->cycle = want;
	return 0;
}

int xtrace_event_count(const struct xtrace *t)
{
	return t->s.n_events < XTRACE_EVENTS ? (int)t->s.n_events : XTRACE_EVENTS;
}

const struct xevent *xtrace_event_at(const struct xtrace *t, int i)
{
	if (i < 0 || i >= xtrace_event_count(t))
		return NULL;
	return &t->s.events[(t->s.n_events - 1 - (uint64_t)i) % XTRACE_EVENTS];
}

uint64_t xtrace_event_total(const struct xtrace *t, int kind)
{
	return kind >= 0 && kind < XEV_COUNT ? t->s.totals[kind] : 0;
}
