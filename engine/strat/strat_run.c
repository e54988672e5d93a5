/*
 * strat_run.c — the instrument on the core (strat_run.h): one observer
 * taking committed loads or control transfers, the compressor and exact
 * profile behind it, and the interrupt-batched software side with its
 * cost. Its snapshot is the run's counters, the compressor's blob and the
 * profile's blob, one after the other.
 */
#include <stdlib.h>
#include <string.h>
#include "base/alloc.h"
#include "core/core.h"
#include "core/events.h"
#include "strat_run.h"

struct rstate {               /* the run's own counters (snapshot) */
	uint64_t events, events_by[3];
	uint64_t delivered, interrupts, overhead_cycles;
	uint32_t queued;
	uint32_t finished;        /* strat_run_finish has run */
	uint64_t next_checkpoint;
};

struct strat_run {
	struct strat_run_opts o;
	struct strat_comp *comp;
	struct strat_prof *prof;
	struct core *core;
	struct strat_run_hooks hooks;
	struct core_observer obs;
	struct rstate s;
	uint64_t cur_pc, cur_seq;     /* the tuple being pushed (for hooks) */
};

unsigned strat_profile_parse(const char *s)
{
	unsigned m = 0;
	while (s && *s) {
		const char *e = strchr(s, ',');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (n == 5 && !strncmp(s, "value", 5))
			m |= STRAT_PROFILE_VALUE;
		else if (n == 4 && !strncmp(s, "edge", 4))
			m |= STRAT_PROFILE_EDGE;
		else if (n == 4 && !strncmp(s, "call", 4))
			m |= STRAT_PROFILE_CALL;
		else
			return 0;
		s = e ? e + 1 : NULL;
		if (e && !*s)
			return 0;
	}
	return m;
}

const char *strat_profile_name(unsigned bit)
{
	return bit == STRAT_PROFILE_VALUE ? "value" : bit == STRAT_PROFILE_EDGE ? "edge" :
	       bit == STRAT_PROFILE_CALL ? "call" : "?";
}

void strat_run_opts_default(struct strat_run_opts *o)
{
	memset(o, 0, sizeof *o);
	strat_spec_parse("H[P256]2048", &o->spec, NULL);
	o->profiles = STRAT_PROFILE_VALUE;
	o->seed = 1;
	o->batch = 100;
	o->int_cycles = 214;
	o->msg_cycles = 30;
	o->capacity = 1u << 16;
}

/* ---- the software side -------------------------------------------------- */

static void interrupt(struct strat_run *r)
{
	uint64_t cost = r->o.int_cycles + (uint64_t)r->o.msg_cycles * r->s.queued;
	uint32_t n = r->s.queued;
	r->s.overhead_cycles += cost;
	r->s.delivered += n;
	r->s.interrupts++;
	r->s.queued = 0;
	if (r->o.charge && r->core)
		core_interrupt(r->core, cost);
	if (r->hooks.on_interrupt)
		r->hooks.on_interrupt(r->hooks.ctx, r->cur_pc, r->cur_seq, n);
}

static void on_sample(void *ctx, const struct strat_msg *m)
{
	struct strat_run *r = ctx;
	strat_prof_estimate(r->prof, m->pc, m->val, m->count);
}

static void on_message(void *ctx, const struct strat_msg *m)
{
	struct strat_run *r = ctx;
	(void)m;
	if (++r->s.queued >= r->o.batch)
		interrupt(r);
}

/* ---- selection ------------------------------------------------------------- */

static void take(struct strat_run *r, int prof_index, uint64_t pc, uint64_t val, uint64_t seq)
{
	uint64_t tpc = strat_tag_pc(pc, (unsigned)prof_index);
	r->cur_pc = pc;
	r->cur_seq = seq;
	r->s.events++;
	r->s.events_by[prof_index]++;
	if (!r->o.no_exact)
		strat_prof_exact(r->prof, tpc, val);
	strat_comp_push(r->comp, tpc, val);
	if (r->o.checkpoint && r->s.events >= r->s.next_checkpoint) {
		r->s.next_checkpoint += r->o.checkpoint;
		if (r->hooks.on_checkpoint)
			r->hooks.on_checkpoint(r->hooks.ctx, r->s.events);
	}
}

static void on_insn(void *ctx, const struct insn_event *e)
{
	struct strat_run *r = ctx;
	if (e->stage != INSN_COMMIT || e->wrong_path)
		return;
	unsigned p = r->o.profiles;
	switch (e->kind) {
	case INSN_KIND_LOAD:
		if (p & STRAT_PROFILE_VALUE)
			take(r, 0, e->pc, e->load_value, e->seq);
		break;
	case INSN_KIND_COND_BRANCH: case INSN_KIND_JUMP: case INSN_KIND_INDIRECT: case INSN_KIND_RETURN:
		if (p & STRAT_PROFILE_EDGE)
			take(r, 1, e->pc, e->next_pc, e->seq);
		break;
	case INSN_KIND_CALL:
		if (p & STRAT_PROFILE_CALL)
			take(r, 2, e->pc, e->next_pc, e->seq);
		break;
	default:
		break;
	}
}

static size_t run_state_size(void *ctx)
{
	struct strat_run *r = ctx;
	return sizeof r->s + strat_comp_state_size(r->comp) + strat_prof_state_size(r->prof);
}

static void run_save(void *ctx, void *blob)
{
	struct strat_run *r = ctx;
	char *b = blob;
	memcpy(b, &r->s, sizeof r->s);
	strat_comp_save(r->comp, b + sizeof r->s);
	strat_prof_save(r->prof, b + sizeof r->s + strat_comp_state_size(r->comp));
}

static void run_restore(void *ctx, const void *blob)
{
	struct strat_run *r = ctx;
	const char *b = blob;
	memcpy(&r->s, b, sizeof r->s);
	strat_comp_restore(r->comp, b + sizeof r->s);
	strat_prof_restore(r->prof, b + sizeof r->s + strat_comp_state_size(r->comp));
}

struct strat_run *strat_run_new(const struct strat_run_opts *o, struct ivx_err *err)
{
	if (!o->profiles) {
		ivx_error(err, IVX_EUSAGE, "no profile selected (value, edge or call)");
		return NULL;
	}
	if (o->batch < 100) {
		ivx_error(err, IVX_EUSAGE, "an interrupt must carry at least 100 messages (batch %u)", o->batch);
		return NULL;
	}
	struct strat_run *r = ivx_calloc(1, sizeof *r);
	if (!r) {
		ivx_error(err, IVX_ESYS, "out of memory");
		return NULL;
	}
	r->o = *o;
	r->comp = strat_comp_new(&o->spec, o->seed, err);
	r->prof = r->comp ? strat_prof_new(o->capacity, o->growable, err) : NULL;
	if (!r->prof) {
		strat_run_free(r);
		return NULL;
	}
	struct strat_sink sink = { r, on_sample, on_message };
	strat_comp_set_sink(r->comp, &sink);
	r->s.next_checkpoint = o->checkpoint;
	uint32_t want = 0;
	if (o->profiles & STRAT_PROFILE_VALUE)
		want |= INSN_WANT_LOAD;
	if (o->profiles & (STRAT_PROFILE_EDGE | STRAT_PROFILE_CALL))
		want |= INSN_WANT_BRANCH;
	r->obs = (struct core_observer){
		.name = "strat",
		.ctx = r,
		.on_insn = on_insn,
		.insn_filter_at = { [INSN_COMMIT] = want | INSN_WANT_CORRECT_PATH },
	};
	if (!o->growable) {
		r->obs.state_size = run_state_size;
		r->obs.save = run_save;
		r->obs.restore = run_restore;
	}
	return r;
}

void strat_run_free(struct strat_run *r)
{
	if (!r)
		return;
	strat_comp_free(r->comp);
	strat_prof_free(r->prof);
	ivx_free(r);
}

int strat_run_attach(struct strat_run *r, struct core *c, struct ivx_err *err)
{
	r->core = c;
	return core_add_observer(c, &r->obs, err);
}

const struct core_observer *strat_run_observer(const struct strat_run *r)
{
	return &r->obs;
}

void strat_run_set_hooks(struct strat_run *r, const struct strat_run_hooks *h)
{
	r->hooks = *h;
}

void strat_run_finish(struct strat_run *r)
{
	if (r->s.finished)
		return;
	r->s.finished = 1;
	strat_comp_flush(r->comp);
	if (r->s.queued)
		interrupt(r);
}

void strat_run_stats(const struct strat_run *r, struct strat_run_stats *out)
{
	struct strat_comp_stats cs;
	strat_comp_stats(r->comp, &cs);
	memset(out, 0, sizeof *out);
	out->events = r->s.events;
	memcpy(out->events_by, r->s.events_by, sizeof out->events_by);
	out->samples = cs.samples;
	out->messages = cs.messages;
	out->delivered = r->s.delivered;
	out->interrupts = r->s.interrupts;
	out->overhead_cycles = r->s.overhead_cycles;
	out->queued = r->s.queued;
	out->batch = r->o.batch;
	out->finished = r->s.finished != 0;
	if (r->core) {
		struct core_stats st;
		core_stats(r->core, &st);
		out->cycles = st.cycles - st.handler_cycles;
	}
	out->overhead_fraction = out->cycles ? (double)out->overhead_cycles / (double)out->cycles : 0.0;
}

double strat_run_error(const struct strat_run *r, const struct strat_err_params *ep, struct strat_err_detail *d)
{
	return strat_prof_error(r->prof, ep, strat_comp_is_sketch(r->comp) ? r->comp : NULL, d);
}

const struct strat_comp *strat_run_comp(const struct strat_run *r)
{
	return r->comp;
}

const struct strat_prof *strat_run_prof(const struct strat_run *r)
{
	return r->prof;
}
