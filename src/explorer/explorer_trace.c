/*
 * explorer_trace.c — the explorer's recorder (see explorer_trace.h).
 *
 * All state has a fixed size (the core requires it of observers that are
 * snapshotted): one plain struct of rings and derived-event trackers, so a
 * snapshot is one memcpy. (Commits per instruction, for the code pane,
 * are the core's: core_commits_at.)
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

#define MAX_LONG 64

/* Per instruction (the code pane's other counts, read through
 * xcharge_pc_counts): correct-path miss events it began, and cycles it
 * sat at the ROB head while nothing committed. An open-addressed table of
 * fixed size, so a snapshot is a copy; once it is three quarters full,
 * new instructions are counted in `lost` only. Kept here rather than in
 * the charges' observer: the recorder reads every cycle record anyway,
 * and one subscriber less saves the core a call every cycle. */
#define PC_SLOTS 4096
struct pc_count {
	uint64_t pc;                       /* 0: free */
	uint64_t misses, stalls;
};

/* A timeline entry: what the pane draws of a cycle record, in 16 bytes
 * (the widths' and the ROB's largest configurable sizes, 64 and 4096, fit
 * in the fields). A block copy of the record's leading 68 bytes takes
 * fewer host instructions, but the ring is five times the size, and so is
 * its share of every snapshot; the two measured the same in time. */
struct tl_entry {
	uint64_t cycle;
	uint16_t rob_occupancy;
	uint8_t dispatched, issued, issued_correct, committed;
	uint8_t flags;                          /* TL_* */
};
#define TL_ROB_FULL 1
#define TL_WRONG_PATH_IN_ROB 2

struct trace_state {
	/* The timeline, run-length coded: entry k stands for the cycles from
	 * its own to the next entry's (the newest: to newest_cycle()), all
	 * alike (a run of idle cycles is one entry, not a copy per cycle). The
	 * ring holds at least its last XTRACE_CYCLES cycles. */
	struct tl_entry cycles[XTRACE_CYCLES];   /* ring */
	uint64_t n_cycles;                       /* entries ever written */
	/* The last cycle of the last idle run (newest_cycle: the newest
	 * cycle is the later of it and the newest entry's; a cycle record
	 * leaves it as it is, one store less a cycle) */
	uint64_t idle_end;
	struct xevent events[XTRACE_EVENTS];     /* ring, in begin order */
	uint64_t n_events;
	/* The ring slot of the miss event with engine id i, at i mod
	 * XTRACE_EVENTS (checked against the slot's id: a newer event may
	 * have taken either), so an ending miss is found without a search. */
	uint16_t slot_of_id[XTRACE_EVENTS];
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
	struct xevent last_ended;                /* the last that did (stale outside a stall) */
	/* ROB-full and ROB-empty episodes, from the cycle records: a loop
	 * that fills the ROB begins and ends one every few cycles, a program
	 * that mispredicts or misses in the I-cache empties it as often, and
	 * a miss event for each would cost more than the rest of the
	 * recording. */
	struct episode {
		int on;
		uint64_t event;                  /* its begin's n_events + 1 */
		uint64_t start;
	} rob_full, rob_empty;
	/* per instruction */
	struct pc_count pcs[PC_SLOTS];
	uint32_t pcs_used;
	uint32_t last_stall, prev_stall;   /* slots of the last two stalls (hints, checked) */
	uint64_t lost;                     /* counts of instructions the full table could not take */
};

struct xtrace {
	struct trace_state s;
	xtrace_sink_fn sink;
	void *sink_ctx;
	struct core_observer obs;
};

/* ---- per-instruction counts -------------------------------------------- */

static uint32_t pc_hash(uint64_t pc)
{
	return (uint32_t)((pc >> 2) * 0x9e3779b1u) % PC_SLOTS;
}

static struct pc_count *pc_slot(struct trace_state *s, uint64_t pc, int add)
{
	if (!pc)
		return NULL;
	uint32_t h = pc_hash(pc);
	for (uint32_t i = 0; i < PC_SLOTS; i++, h = (h + 1) % PC_SLOTS) {
		if (s->pcs[h].pc == pc)
			return &s->pcs[h];
		if (!s->pcs[h].pc) {
			if (!add || s->pcs_used >= PC_SLOTS * 3 / 4)
				return NULL;
			s->pcs_used++;
			s->pcs[h].pc = pc;
			return &s->pcs[h];
		}
	}
	return NULL;
}

/* pc_slot(s, pc, 1), inline where pc sits at its hash's own slot (the
 * table is at most three quarters full, so most do) */
static inline struct pc_count *pc_slot_add(struct trace_state *s, uint64_t pc)
{
	struct pc_count *c = &s->pcs[pc_hash(pc)];
	return c->pc == pc && pc ? c : pc_slot(s, pc, 1);
}

/* n cycles like r at the ROB head, whose pc is in neither of the last
 * two stalls' slots (kept out of line: see count_stalls). */
static __attribute__((noinline)) void count_stalls_other(struct trace_state *s, const struct cycle_record *r,
							  uint64_t n)
{
	struct pc_count *c = pc_slot_add(s, r->head_pc);
	if (!c) {
		s->lost += n;
		return;
	}
	s->prev_stall = s->last_stall;
	s->last_stall = (uint32_t)(c - s->pcs);
	c->stalls += n;
}

/* n cycles like r at the ROB head (the caller has tested that nothing
 * committed). A stall lasts many cycles, so its slot is nearly always
 * the last one's; else the one before, as in a loop whose head stalls in
 * turn on two instructions (muldiv's divide and the multiply after it).
 * Both are tested here, the table out of line (it would leave the
 * per-cycle function registers to save). */
static inline void count_stalls(struct trace_state *s, const struct cycle_record *r, uint64_t n)
{
	if (!r->head_seq || !r->head_pc)
		return;
	struct pc_count *c = &s->pcs[s->last_stall];
	if (__builtin_expect(c->pc == r->head_pc, 1)) {
		c->stalls += n;
		return;
	}
	c = &s->pcs[s->prev_stall];
	if (c->pc == r->head_pc) {
		s->prev_stall = s->last_stall;
		s->last_stall = (uint32_t)(c - s->pcs);
		c->stalls += n;
		return;
	}
	count_stalls_other(s, r, n);
}

/* ---- events ------------------------------------------------------------- */

static void emit(struct xtrace *t, const struct xevent *e, int phase)
{
	if (t->sink)
		t->sink(t->sink_ctx, e, phase);
}

_Static_assert(XTRACE_EVENTS <= 65536, "a ring slot fits a slot_of_id entry");

static struct xevent *record_event(struct xtrace *t, const struct xevent *e)
{
	uint64_t i = t->s.n_events++ % XTRACE_EVENTS;
	struct xevent *slot = &t->s.events[i];
	*slot = *e;
	if (e->kind < MISS_KIND_COUNT && e->id)   /* (the episodes have no engine id) */
		t->s.slot_of_id[e->id % XTRACE_EVENTS] = (uint16_t)i;
	if (e->correct_path && e->kind >= 0 && e->kind < XEV_COUNT)
		t->s.totals[e->kind]++;
	return slot;
}

static struct xevent *find_event(struct xtrace *t, uint64_t id)
{
	struct xevent *hit = &t->s.events[t->s.slot_of_id[id % XTRACE_EVENTS]];
	if (hit->kind < MISS_KIND_COUNT && hit->id == id)
		return hit;
	/* (its slot taken: the event may still be in the ring) */
	uint64_t n = t->s.n_events < XTRACE_EVENTS ? t->s.n_events : XTRACE_EVENTS;
	for (uint64_t i = 0; i < n; i++) {
		struct xevent *e = &t->s.events[(t->s.n_events - 1 - i) % XTRACE_EVENTS];
		if (e->kind < MISS_KIND_COUNT && e->id == id)
			return e;
	}
	return NULL;
}

/* (derived and episode_changed are rare: kept out of line, they leave
 * the per-cycle function no stack frame to set up) */
static __attribute__((noinline)) void derived(struct xtrace *t, int kind, uint64_t start, uint64_t end, const struct xevent *from)
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

/* A miss event begins: its entry, built in its ring slot field by field
 * (as record_event would copy it there: a miss event begins every dozen
 * cycles on muldiv), and the totals. */
static inline __attribute__((always_inline)) struct xevent *event_begun(struct trace_state *s,
									 const struct miss_event *me)
{
	uint64_t i = s->n_events++ % XTRACE_EVENTS;
	struct xevent *e = &s->events[i];
	e->kind = me->kind;
	e->id = me->id;
	e->start = me->start;
	e->end = 0;
	e->ended = 0;
	e->insn_seq = me->insn_seq;
	e->pc = me->pc;
	e->addr = me->addr;
	e->correct_path = me->correct_path;
	e->cause = 0;
	e->mispredicted = me->kind == MISS_MISPREDICT;
	if (me->id)
		s->slot_of_id[me->id % XTRACE_EVENTS] = (uint16_t)i;
	s->totals[me->kind] += (uint64_t)(me->correct_path != 0);
	return e;
}

/* A correct-path long miss *e (me) begins: it joins the list of long
 * ones, and if another instruction's long miss is outstanding, an
 * overlap is derived (a D-TLB miss and the L2 miss of the same load are
 * one stall, not an overlap; one overlap per instruction). Out of line:
 * long misses are rare beside the rest. */
static __attribute__((noinline)) void long_begin(struct xtrace *t, const struct miss_event *me, const struct xevent *e)
{
	struct trace_state *s = &t->s;
	int other = 0, same = 0;
	for (int k = 0; k < s->n_long; k++) {
		other |= s->long_seqs[k] != me->insn_seq;
		same |= s->long_seqs[k] == me->insn_seq;
	}
	if (s->n_long < MAX_LONG) {
		s->long_seqs[s->n_long] = me->insn_seq;
		s->long_ids[s->n_long++] = me->id;
	}
	if (other && !same)
		derived(t, XEV_OVERLAP, me->start, me->start, e);
}

/* The correct-path long miss `id` ends: it leaves the list. */
static __attribute__((noinline)) void long_end(struct trace_state *s, uint64_t id)
{
	for (int k = 0; k < s->n_long; k++)
		if (s->long_ids[k] == id) {
			s->n_long--;
			s->long_ids[k] = s->long_ids[s->n_long];
			s->long_seqs[k] = s->long_seqs[s->n_long];
			break;
		}
}

/* A miss event begins (a miss event begins every dozen cycles on
 * muldiv: the usual path makes no calls but the sink's, and the rare
 * work is out of line). */
static void miss_begin(struct xtrace *t, const struct miss_event *me)
{
	struct trace_state *s = &t->s;
	struct xevent *e = event_begun(s, me);
	emit(t, e, MISS_BEGIN);
	if (!me->correct_path)
		return;
	if (me->pc) {
		struct pc_count *pc = pc_slot_add(s, me->pc);
		if (pc)
			pc->misses++;
		else
			s->lost++;
	}
	if (is_miss(me->kind))
		s->misses_active++;
	if (is_long(me->kind))
		long_begin(t, me, e);
	else if (is_frontend(me->kind) &&
		 (s->last_head_wait == HEAD_L2D || s->last_head_wait == HEAD_DTLB))
		derived(t, XEV_OVERLAP, me->start, me->start, e);
}

/* The miss event *e (in the ring, or a stand-in) ends. */
static inline void miss_end_of(struct xtrace *t, const struct miss_event *me, struct xevent *e)
{
	struct trace_state *s = &t->s;
	e->end = me->end;
	e->ended = 1;
	emit(t, e, MISS_END);
	if (!me->correct_path)
		return;
	if (is_miss(me->kind)) {
		if (s->misses_active > 0)
			s->misses_active--;
		/* (last_ended is read only at the end of a stall in which some
		 * miss ended, and the stall's start clears miss_ended: so only
		 * an end during a stall needs the copy) */
		if (s->stalled) {
			s->last_ended = *e;
			s->miss_ended = 1;
		}
	}
	if (is_long(me->kind))
		long_end(s, me->id);
}

/* One that is no longer at its slot_of_id entry: the ring is searched,
 * and if it began before the ring's memory, what we know of it ends. */
static __attribute__((noinline)) void miss_end_elsewhere(struct xtrace *t, const struct miss_event *me)
{
	struct xevent *e = find_event(t, me->id);
	struct xevent tmp = {
		.kind = me->kind, .id = me->id, .start = me->start,
		.insn_seq = me->insn_seq, .pc = me->pc, .addr = me->addr,
		.correct_path = me->correct_path,
	};
	miss_end_of(t, me, e ? e : &tmp);
}

static void miss_end(struct xtrace *t, const struct miss_event *me)
{
	struct trace_state *s = &t->s;
	struct xevent *e = &s->events[s->slot_of_id[me->id % XTRACE_EVENTS]];
	if (__builtin_expect(!(e->kind < MISS_KIND_COUNT && e->id == me->id), 0)) {
		miss_end_elsewhere(t, me);
		return;
	}
	miss_end_of(t, me, e);
}

static void on_miss(void *ctx, const struct miss_event *me)
{
	if (me->phase == MISS_BEGIN)
		miss_begin(ctx, me);
	else
		miss_end(ctx, me);
}

/* A ROB-full or ROB-empty episode begins or ends with this cycle, as the
 * core's MISS_ROB_FULL or MISS_ROB_EMPTY event would (begin: the cycle
 * dispatch found the ROB full, or that ended with it empty; end: the first
 * cycle that did not). Its id is 0: the core's ids are not known here,
 * and none is 0. */
static __attribute__((noinline)) void episode_changed(struct xtrace *t, struct episode *ep, int kind, int on,
						       int correct_path, uint64_t cycle)
{
	struct trace_state *s = &t->s;
	ep->on = on;
	if (on) {
		/* (built in its ring slot: no engine id, so no slot_of_id entry;
		 * an episode begins every few cycles in a loop that fills the ROB) */
		ep->start = cycle;
		ep->event = s->n_events + 1;
		struct xevent *e = &s->events[s->n_events++ % XTRACE_EVENTS];
		*e = (struct xevent){ .kind = kind, .start = cycle, .correct_path = correct_path };
		s->totals[kind] += (uint64_t)(correct_path != 0);
		emit(t, e, MISS_BEGIN);
		return;
	}
	struct xevent tmp, *e;
	if (ep->event && s->n_events - (ep->event - 1) <= XTRACE_EVENTS) {
		e = &s->events[(ep->event - 1) % XTRACE_EVENTS];
	} else {   /* (begun before the ring's memory) */
		tmp = (struct xevent){ .kind = kind, .start = ep->start, .correct_path = 1 };
		e = &tmp;
	}
	e->end = cycle;
	e->ended = 1;
	emit(t, e, MISS_END);
}

static inline void record_timeline(struct trace_state *s, const struct cycle_record *r)
{
	struct tl_entry *e = &s->cycles[s->n_cycles++ % XTRACE_CYCLES];
	e->cycle = r->cycle;
	e->rob_occupancy = (uint16_t)r->rob_occupancy;
	e->dispatched = (uint8_t)r->dispatched;
	e->issued = (uint8_t)r->issued;
	e->issued_correct = (uint8_t)r->issued_correct;
	e->committed = (uint8_t)r->committed;
	/* (both flags are 0 or 1 in the record) */
	e->flags = (uint8_t)(r->rob_full * TL_ROB_FULL | r->wrong_path_in_rob * TL_WRONG_PATH_IN_ROB);
}

/* A cycle record, or the first of n idle cycles like it. */
static inline void follow_cycle(struct xtrace *t, const struct cycle_record *r, uint64_t n)
{
	struct trace_state *s = &t->s;
	if (!r->committed)
		count_stalls(s, r, n);
	int empty = r->rob_occupancy == 0;
	if (__builtin_expect((r->rob_full != s->rob_full.on) | (empty != s->rob_empty.on), 0)) {
		/* (in the order the core's end of cycle has them) */
		if (empty != s->rob_empty.on)
			episode_changed(t, &s->rob_empty, MISS_ROB_EMPTY, empty, 1, r->cycle);
		if (r->rob_full != s->rob_full.on)
			episode_changed(t, &s->rob_full, MISS_ROB_FULL, r->rob_full, !r->rob_full_wrong_path, r->cycle);
	}
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

static void on_cycle(void *ctx, const struct cycle_record *r)
{
	follow_cycle(ctx, r, 1);
}

/* n idle cycles like the last one (core_observer.on_idle_cycles): the
 * first may start a stall; after it, the state stays as it is and only
 * the timeline and the head's stall cycles grow: the first cycle's entry
 * stands for all n. */
static void on_idle_cycles(void *ctx, const struct cycle_record *r, uint64_t n)
{
	struct xtrace *t = ctx;
	follow_cycle(t, r, n);
	t->s.idle_end = r->cycle + n - 1;
}

/* ---- snapshots ---------------------------------------------------------- */

static size_t state_size(void *ctx)
{
	struct xtrace *t = ctx;
	return sizeof t->s;
}

static void save(void *ctx, void *blob)
{
	struct xtrace *t = ctx;
	memcpy(blob, &t->s, sizeof t->s);
}

static void restore(void *ctx, const void *blob)
{
	struct xtrace *t = ctx;
	memcpy(&t->s, blob, sizeof t->s);
}

/* ---- public ------------------------------------------------------------- */

struct xtrace *xtrace_new(void)
{
	struct xtrace *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->obs = (struct core_observer){
		.name = "explorer-trace", .ctx = t,
		.on_miss = on_miss, .on_cycle = on_cycle, .on_idle_cycles = on_idle_cycles,
		.cycle_skip = CYCLE_SKIP_OCCUPANCY | CYCLE_SKIP_ISSUE_HEAD,
		.state_size = state_size, .save = save, .restore = restore,
		.miss_filter = (MISS_BIT(MISS_KIND_COUNT) - 1) & ~(MISS_BIT(MISS_ROB_FULL) | MISS_BIT(MISS_ROB_EMPTY)),
	};
	return t;
}

void xtrace_free(struct xtrace *t)
{
	if (!t)
		return;
	free(t);
}

void xtrace_reset(struct xtrace *t)
{
	memset(&t->s, 0, sizeof t->s);
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

/* The newest cycle the ring holds (n_cycles > 0): the newest entry's,
 * or the end of the idle run it stands for. (Entries' cycles increase,
 * and an idle run's end is earlier than the next entry's cycle.) */
static uint64_t newest_cycle(const struct trace_state *s)
{
	uint64_t c = s->cycles[(s->n_cycles - 1) % XTRACE_CYCLES].cycle;
	return s->idle_end > c ? s->idle_end : c;
}

/* The entries in the ring: [oldest, n_cycles). */
static uint64_t oldest_entry(const struct trace_state *s)
{
	return s->n_cycles > XTRACE_CYCLES ? s->n_cycles - XTRACE_CYCLES : 0;
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
	const struct tl_entry *e = &s->cycles[lo % XTRACE_CYCLES];
	*out = (struct xtl_cycle){
		.cycle = want, .dispatched = e->dispatched, .issued = e->issued,
		.issued_correct = e->issued_correct, .committed = e->committed,
		.rob_occupancy = e->rob_occupancy,
		.rob_full = !!(e->flags & TL_ROB_FULL),
		.wrong_path_in_rob = !!(e->flags & TL_WRONG_PATH_IN_ROB),
	};
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

int xtrace_pc_counts(const struct xtrace *t, uint64_t pc, uint64_t *misses, uint64_t *stalls)
{
	const struct pc_count *c = pc_slot((struct trace_state *)&t->s, pc, 0);   /* (a lookup) */
	*misses = c ? c->misses : 0;
	*stalls = c ? c->stalls : 0;
	return t->s.lost ? 1 : 0;
}
