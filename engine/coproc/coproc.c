/*
 * coproc.c — the profiling co-processor: the decode-time filters, the
 * sample buffer, and the microcoded machine that consumes it.
 *
 * Time. The co-processor keeps its own clock, counted in core cycles
 * (`now`); one microinstruction takes clock_div core cycles, a
 * mispredicted microbranch `mispredict` co-processor cycles more. The
 * core's cycle records (on_cycle, on_idle_cycles) advance it to the core's
 * time: it runs while records wait, and idles otherwise. A tagged
 * retirement first brings it up to date, then writes its record.
 *
 * A full buffer. With policy drop the record is counted and discarded.
 * With policy replace (ours) it takes the place of a random queued record
 * other than the head (the one being processed), which is dropped.
 * With policy stall the co-processor runs ahead until it frees an entry;
 * the core cycles that took beyond the retirement's cycle are charged to
 * the core with core_interrupt (nothing fetched, dispatched or committed
 * meanwhile). This approximates a retirement stall without a core hook:
 * the retirement itself has happened, and the other instructions retiring
 * in the same cycle go on; the cycles are the same. A program's `.param
 * young_stall N` (ours) makes every policy stall before core cycle N:
 * a short run's loads are then all sampled (nothing is dropped, so the
 * governor keeps the tagger at full rate), at the stalls' cost.
 *
 * Microinstruction semantics (one operation and one branch slot each):
 *   flags  Z result zero (cmp: equal), L cmp less-than (unsigned),
 *          H lookup hit, S saturated (inc/adds, or an index register write)
 *   index registers saturate at 2^iwidth - 1 (and at 0 when subtracting);
 *   data-array counters saturate at 2^cwidth - 1 (inc) and 2^awidth - 1
 *   (adds; awidth defaults to cwidth, wider for weighted counts); array
 *   indices wrap.
 *   The record field `weight` is 2^k for an instruction tagged while the
 *   random tagger tagged 1 in 2^k (its rate, and its pc's thinning,
 *   `.param spread`): the tag keeps k from decode on.
 */
#include <stdlib.h>
#include <string.h>
#include "base/alloc.h"
#include "coproc_internal.h"

/* ---- the PC filter ------------------------------------------------------ */

uint32_t coproc_pc_hash(const struct coproc *cp, uint64_t pc)
{
	uint64_t x = pc >> 2;
	x ^= x >> 13;
	x ^= x >> 7;
	return (uint32_t)x & cp->hash_mask;
}

int coproc_pc_ignored(const struct coproc *cp, uint64_t pc)
{
	return cp->ignore[coproc_pc_hash(cp, pc)];
}

void coproc_set_ignore(struct coproc *cp, uint64_t pc)
{
	cp->ignore[coproc_pc_hash(cp, pc)] = 1;
}

/* ---- microcode --------------------------------------------------------- */

static const struct coproc_rec *head(const struct coproc *cp)
{
	return &cp->buf[cp->r.head];
}

static uint64_t rd(const struct coproc *cp, const struct cp_uinsn *u, uint8_t o)
{
	if (o < CPR_I)
		return cp->r.v[o];
	if (o < CPR_C)
		return cp->r.i[o - CPR_I];
	if (o < CPR_B)
		return cp->prog.creg[o - CPR_C];
	const struct coproc_rec *h = head(cp);
	switch (o) {
	case CPR_F_PC: return h->pc;
	case CPR_F_VALUE: return h->value;
	case CPR_F_ADDR: return h->addr;
	case CPR_F_TARGET: return h->target;
	case CPR_F_TAKEN: return h->taken;
	case CPR_F_KIND: return h->kind;
	case CPR_F_WEIGHT: return h->weight;
	case CPR_IMM: return (uint64_t)u->imm;
	}
	return 0;
}

/* Write a destination; index registers saturate. */
static void wr(struct coproc *cp, uint8_t o, uint64_t v, int underflow)
{
	if (o < CPR_I) {
		cp->r.v[o] = v;
	} else if (o < CPR_C) {
		if (underflow) {
			v = 0;
			cp->r.flags |= FLAG_S;
		} else if (v > cp->imax) {
			v = cp->imax;
			cp->r.flags |= FLAG_S;
		}
		cp->r.i[o - CPR_I] = (uint32_t)v;
	}
}

static uint32_t lfsr_step(uint32_t x)
{
	/* Galois LFSR, maximal length (taps 32, 22, 2, 1) */
	return (x >> 1) ^ (-(x & 1u) & 0x80200003u);
}

/* The random tagger's generator: xorshift32, a linear generator over
 * GF(2) like an LFSR that yields a fresh word per decoded instruction
 * (a one-bit-shift LFSR's consecutive low bits are the same bits shifted,
 * so "low k bits zero" would come in bursts). */
static uint32_t xorshift32(uint32_t x)
{
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return x;
}

/* The governor (ours; tagrate=0, the default): the random tagger's rate
 * follows the buffer's drops. Over every GOV_WINDOW tagged retirements,
 * more than GOV_HIGH drops halve the rate, none doubles it again (up to
 * every instruction). What reaches the buffer is then a random sample of
 * the tagged instructions, not the ones that happen to retire just after
 * an entry was freed: with many drops, which records get in depends on
 * how long the co-processor took on the records before them, which
 * depends on their values, so a load whose values come in a fixed order
 * is seen through a comb (muldiv, docs/coproc.md). */
#define GOV_WINDOW 256
#define GOV_HIGH 4
#define GOV_MAX_SHIFT 10

static void govern(struct coproc *cp, int dropped)
{
	struct coproc_run *r = &cp->r;
	if (cp->cfg.tagrate)
		return;
	r->win_drops += (uint32_t)dropped;
	if (++r->win_n < GOV_WINDOW)
		return;
	if (r->win_drops > GOV_HIGH && r->tag_shift < GOV_MAX_SHIFT)
		r->tag_shift++;
	else if (!r->win_drops && r->tag_shift > 0)
		r->tag_shift--;
	r->win_n = r->win_drops = 0;
}

static int cond_holds(int cond, int f)
{
	switch (cond) {
	case CPC_ALWAYS: return 1;
	case CPC_Z: return !!(f & FLAG_Z);
	case CPC_NZ: return !(f & FLAG_Z);
	case CPC_LT: return !!(f & FLAG_L);
	case CPC_GE: return !(f & FLAG_L);
	case CPC_HIT: return !!(f & FLAG_H);
	case CPC_MISS: return !(f & FLAG_H);
	case CPC_SAT: return !!(f & FLAG_S);
	case CPC_NSAT: return !(f & FLAG_S);
	}
	return 0;
}

static void finish_record(struct coproc *cp)
{
	struct coproc_run *r = &cp->r;
	r->head = (r->head + 1) % (int)cp->cfg.buffer;
	r->count--;
	r->state = r->state == CPS_STOPPED ? CPS_STOPPED : CPS_IDLE;
	r->upc = -1;
	r->st.routines++;
}

static void settle(struct coproc *cp);

/* Charge the main processor cost cycles of handler; inside a run of idle
 * cycles that waits for settle. */
static void charge(struct coproc *cp, uint64_t cost)
{
	if (cp->r.in_idle)
		cp->r.idle_interrupts += cost;
	else
		core_interrupt(cp->core, cost);
}

static void take_interrupt(struct coproc *cp)
{
	const struct coproc_rec *h = head(cp);
	uint64_t pc = h->pc, seq = h->seq;
	cp->r.st.interrupts++;
	uint64_t cost = coproc_handle_interrupt(cp);
	cp->r.st.handler_cycles += cost;
	if (cost)
		charge(cp, cost);
	finish_record(cp);
	if (cp->hook)
		cp->hook(cp->hook_ctx, pc, seq);
}

/* Execute the microinstruction at upc. */
static void step(struct coproc *cp)
{
	struct coproc_run *r = &cp->r;
	const struct cp_uinsn *u = &cp->prog.insn[r->upc];
	uint64_t a = u->a != CPR_NONE ? rd(cp, u, u->a) : 0;
	uint64_t b = u->b != CPR_NONE ? rd(cp, u, u->b) : 0;
	uint64_t res = 0, x;
	int f = r->flags & (FLAG_H | FLAG_L);
	uint32_t addr = (cp->prog.breg[u->base] + (uint32_t)a) % cp->cfg.data;
	r->flags = f;
	switch (u->op) {
	case CP_NOP: res = 1; break;
	case CP_MOV: res = a; wr(cp, u->dst, res, 0); break;
	case CP_ADD: res = a + b; wr(cp, u->dst, res < a ? UINT64_MAX : res, 0); break;
	case CP_SUB: {
		int under = u->dst >= CPR_I && u->dst < CPR_C && b > a;
		res = under ? 0 : a - b;
		wr(cp, u->dst, res, under);
		break;
	}
	case CP_AND: res = a & b; wr(cp, u->dst, res, 0); break;
	case CP_OR: res = a | b; wr(cp, u->dst, res, 0); break;
	case CP_XOR: res = a ^ b; wr(cp, u->dst, res, 0); break;
	case CP_SHL: res = a << (b & 63); wr(cp, u->dst, res, 0); break;
	case CP_SHR: res = a >> (b & 63); wr(cp, u->dst, res, 0); break;
	case CP_CMP:
		res = a - b;
		r->flags = (r->flags & FLAG_H) | (a < b ? FLAG_L : 0);
		break;
	case CP_LOOKUP: {
		uint32_t i;
		r->flags &= ~FLAG_H;
		for (i = 0; i < cp->cfg.cam; i++)
			if (cp->cam_valid[i] && cp->cam_key[i] == a)
				break;
		if (i < cp->cfg.cam) {
			r->flags |= FLAG_H;
			res = i;
		}
		wr(cp, u->dst, res, 0);
		res = 1;   /* Z means nothing for a lookup */
		break;
	}
	case CP_CAMW:
		cp->cam_key[a % cp->cfg.cam] = b;
		cp->cam_valid[a % cp->cfg.cam] = 1;
		res = 1;
		break;
	case CP_CAMINV: cp->cam_valid[a % cp->cfg.cam] = 0; res = 1; break;
	case CP_LD: res = cp->data[addr]; wr(cp, u->dst, res, 0); break;
	case CP_ST: cp->data[addr] = b; res = 1; break;
	case CP_INC:
	case CP_ADDS:
		x = cp->data[addr];
	{
		uint64_t max = u->op == CP_INC ? cp->cmax : cp->amax;
		b = u->op == CP_INC ? 1 : b;
		x = (x >= max || max - x <= b) ? max : x + b;
		if (x == max)
			r->flags |= FLAG_S;
		cp->data[addr] = x;
		res = x;
		break;
	}
	case CP_RAND:
		r->lfsr = lfsr_step(r->lfsr);
		res = r->lfsr & a;
		wr(cp, u->dst, res, 0);
		break;
	case CP_HASH: res = coproc_pc_hash(cp, a); wr(cp, u->dst, res, 0); break;
	}
	if (res == 0)
		r->flags |= FLAG_Z;
	r->now += cp->cfg.clock_div;
	r->st.uinsns++;
	r->st.cp_cycles++;
	int taken = u->tkind != CPT_NONE && cond_holds(u->cond, r->flags);
	if (u->tkind != CPT_NONE && u->cond != CPC_ALWAYS) {
		if (cp->pred[r->upc % cp->cfg.ucode] != taken) {
			r->now += (uint64_t)cp->cfg.mispredict * cp->cfg.clock_div;
			r->st.cp_cycles += cp->cfg.mispredict;
			r->st.ubranch_miss++;
		}
		cp->pred[r->upc % cp->cfg.ucode] = (uint8_t)taken;
	}
	if (!taken) {
		r->upc++;
	} else if (u->tkind == CPT_DONE) {
		finish_record(cp);
		return;
	} else if (u->tkind == CPT_INTERRUPT) {
		take_interrupt(cp);
		return;
	} else {
		r->upc = u->tkind == CPT_LABEL ? u->target : cp->prog.treg[u->target];
	}
	if (r->upc >= cp->prog.n_insns ||
	    r->now - r->routine_start > (uint64_t)cp->cfg.watchdog * cp->cfg.clock_div) {
		r->st.abandoned++;
		finish_record(cp);
	}
}

/* Start the routine for the record at the head (the DFE). */
static void start_routine(struct coproc *cp)
{
	struct coproc_run *r = &cp->r;
	int kind = head(cp)->kind;
	int start = kind < INSN_KIND_COUNT ? cp->prog.dfe[kind] : -1;
	if (cp->even && head(cp)->thin != cp->thin[head(cp)->bucket]) {
		/* `.param even`: the handler changed its bucket's thinning
		 * since it was tagged; the handler weighs the records it
		 * reads by the thinning they have now (a 4-bit compare) */
		r->st.stale++;
		start = -1;
	}
	if (start < 0) {
		finish_record(cp);
		return;
	}
	r->upc = start;
	r->state = CPS_RUNNING;
	r->routine_start = r->now;
}

/* Run until core time `t` (or, with `until_space`, until the buffer has a
 * free entry, whatever the time). */
static void advance(struct coproc *cp, uint64_t t, int until_space)
{
	struct coproc_run *r = &cp->r;
	for (;;) {
		if (until_space ? r->count < (int)cp->cfg.buffer : r->now >= t)
			break;
		if (r->state == CPS_RUNNING) {
			step(cp);
		} else if (r->count) {
			start_routine(cp);
		} else {
			if (r->now < t)
				r->now = t;
			break;
		}
	}
}

/* ---- the observer -------------------------------------------------------- */

/* The fields the running program asked for, of the retiring e, into rec. */
static void write_record(const struct coproc *cp, struct coproc_rec *rec, const struct insn_event *e, int shift,
			 int thin)
{
	uint32_t fl = cp->prog.fields;
	rec->pc = (fl & CPF_PC) ? e->pc : 0;
	rec->value = (fl & CPF_VALUE) ? e->load_value : 0;
	rec->addr = (fl & CPF_ADDR) ? e->mem_addr : 0;
	rec->target = (fl & CPF_TARGET) ? e->next_pc : 0;
	rec->taken = (fl & CPF_TAKEN) ? (uint8_t)e->taken : 0;
	rec->kind = (uint8_t)e->kind;
	rec->seq = e->seq;
	rec->weight = 1u << shift;
	rec->thin = (uint8_t)thin;
	rec->bucket = coproc_pc_hash(cp, e->pc);
}

/* e retires, tagged while the tagger tagged 1 in 2^shift and its bucket's
 * thinning was thin. */
static void retire(struct coproc *cp, const struct insn_event *e, int shift, int thin)
{
	struct coproc_run *r = &cp->r;
	int size = (int)cp->cfg.buffer;
	r->st.retired_tagged++;
	advance(cp, e->cycle, 0);
	if (r->count == size) {
		/* (`.param young_stall`: a young run stalls, whatever the policy) */
		if (cp->cfg.policy != COPROC_STALL && e->cycle >= cp->young_stall) {
			r->st.drops++;
			govern(cp, 1);
			if (cp->fate)
				cp->fate(cp->fate_ctx, e->pc, e->load_value, COPROC_FATE_DROPPED);
			if (cp->cfg.policy == COPROC_REPLACE) {
				/* a random queued record's place, but the head's
				 * (being processed: then the new record goes) */
				r->tag_rng = xorshift32(r->tag_rng);
				uint32_t k = r->tag_rng % cp->cfg.buffer;
				if (k)
					write_record(cp, &cp->buf[(r->head + (int)k) % size], e, shift, thin);
			}
			return;
		}
		r->st.stalls++;
		advance(cp, 0, 1);
		uint64_t from = e->cycle > r->stall_until ? e->cycle : r->stall_until;
		if (r->now > from) {
			core_interrupt(cp->core, r->now - from);
			r->st.stall_cycles += r->now - from;
			r->stall_until = r->now;
		}
	}
	govern(cp, 0);
	if (cp->fate)
		cp->fate(cp->fate_ctx, e->pc, e->load_value, COPROC_FATE_RECORDED);
	struct coproc_rec *rec = &cp->buf[(r->head + r->count) % size];
	write_record(cp, rec, e, shift, thin);
	if (cp->seen[rec->bucket] < cp->first)
		cp->seen[rec->bucket]++;
	r->count++;
	r->st.records++;
	if (r->count > r->st.buffer_max)
		r->st.buffer_max = r->count;
}

/* Tell the diagnostics hook why a correct-path instruction was not tagged. */
static void fate(const struct coproc *cp, const struct insn_event *e, int why)
{
	if (cp->fate && !e->wrong_path)
		cp->fate(cp->fate_ctx, e->pc, e->load_value, why);
}

static void on_insn(void *ctx, const struct insn_event *e)
{
	struct coproc *cp = ctx;
	struct coproc_run *r = &cp->r;
	settle(cp);
	if (!(cp->prog.classes >> e->kind & 1))
		return;
	uint64_t *tag = &cp->tags[e->seq & (TAG_RING - 1)];
	if (e->stage == INSN_DISPATCH) {
		r->st.decoded++;
		if (!r->tagging) {
			fate(cp, e, COPROC_FATE_OFF);
			return;
		}
		uint32_t h = coproc_pc_hash(cp, e->pc);
		uint32_t m = (1u << r->pc_width) - 1;
		if ((h & m) != r->pc_match || cp->ignore[h]) {
			fate(cp, e, (h & m) != r->pc_match ? COPROC_FATE_PARTITION : COPROC_FATE_IGNORED);
			return;
		}
		/* the random tagger: 1 in 2^tag_shift, and 2^thin[h] times
		 * more rarely for a load the handler thins (`.param spread`);
		 * with `.param even` a thinned bucket's entry is its shift,
		 * the governor's when that is larger */
		int shift = (int)r->tag_shift + cp->thin[h];
		if (cp->even)
			shift = cp->thin[h] > r->tag_shift ? cp->thin[h] : (int)r->tag_shift;
		/* `.param first`: a bucket with fewer than `first` records in
		 * the buffer so far is tagged at once (the record's weight 1),
		 * unless the buffer is half full: these tags must not themselves
		 * cause drops, which would make the governor thin every load */
		if (shift && cp->seen[h] < cp->first && r->count * 2 < (int)cp->cfg.buffer) {
			shift = 0;
			r->st.first_tags++;
		}
		if (shift) {
			r->tag_rng = xorshift32(r->tag_rng);
			if (r->tag_rng >> (32 - shift)) {
				r->st.untagged++;
				fate(cp, e, COPROC_FATE_UNTAGGED);
				return;
			}
		}
		/* the rate rides with the tag: the record's weight is the
		 * rate's inverse when it was tagged, not when it retires */
		*tag = (e->seq + 1) | (uint64_t)shift << (64 - TAG_SHIFT_BITS) |
		       (uint64_t)cp->thin[h] << (64 - TAG_META_BITS);
		r->st.tagged++;
	} else if (e->stage == INSN_COMMIT && *tag && (*tag << TAG_META_BITS) == (e->seq + 1) << TAG_META_BITS) {
		int shift = (int)(*tag >> (64 - TAG_SHIFT_BITS));
		int thin = (int)(*tag >> (64 - TAG_META_BITS)) & ((1 << TAG_THIN_BITS) - 1);
		*tag = 0;
		retire(cp, e, shift, thin);
	}
}

static void tick(struct coproc *cp, uint64_t cycle)
{
	struct coproc_run *r = &cp->r;
	if (cycle < r->next_timer)
		return;
	r->ticks++;
	r->timer_period = 0;
	uint64_t records = r->st.records - r->records_at_tick;
	int executed = r->st.decoded != r->decoded_at_tick;
	r->records_at_tick = r->st.records;
	r->decoded_at_tick = r->st.decoded;
	uint64_t cost = coproc_handle_timer(cp, records, executed);
	/* the handler may program the timer's next period (time slices) */
	if (r->timer_period)
		r->next_timer = cycle + r->timer_period;
	else
		r->next_timer = cycle - cycle % cp->cfg.timer + cp->cfg.timer;
	if (cp->cfg.resample && cycle >= r->next_resample) {
		r->next_resample = cycle + cp->cfg.resample;
		cost += coproc_handle_resample(cp);
	}
	if (cost) {
		r->st.timer_actions++;
		r->st.handler_cycles += cost;
		charge(cp, cost);
	}
}

/* What a run of idle cycles left waiting: its handlers' cycles, then the
 * timer tick at its last cycle. The core hands idle cycles over when
 * something else happens (an event, a cycle that differs) or when a run
 * stops; settling them at the next callback instead gives every way of
 * cutting a stretch of idle cycles into runs the result of the uncut one,
 * where that next callback came in the same cycle as the hand-over. */
static void settle(struct coproc *cp)
{
	struct coproc_run *r = &cp->r;
	if (r->idle_interrupts) {
		uint64_t cost = r->idle_interrupts;
		r->idle_interrupts = 0;
		core_interrupt(cp->core, cost);
	}
	if (r->idle_tick) {
		r->idle_tick = 0;
		tick(cp, r->idle_tick_at);
	}
}

static void on_cycle(void *ctx, const struct cycle_record *rec)
{
	struct coproc *cp = ctx;
	settle(cp);
	advance(cp, rec->cycle + 1, 0);
	tick(cp, rec->cycle);
}

static void on_idle(void *ctx, const struct cycle_record *rec, uint64_t n)
{
	struct coproc *cp = ctx;
	struct coproc_run *r = &cp->r;
	r->in_idle = 1;
	advance(cp, rec->cycle + n, 0);
	r->in_idle = 0;
	r->idle_tick = 1;               /* (a later run of the same stretch moves it) */
	r->idle_tick_at = rec->cycle + n - 1;
}

static size_t state_size(void *ctx)
{
	struct coproc *cp = ctx;
	return sizeof cp->r + cp->mem_size;
}

static void save(void *ctx, void *blob)
{
	struct coproc *cp = ctx;
	memcpy(blob, &cp->r, sizeof cp->r);
	memcpy((char *)blob + sizeof cp->r, cp->mem, cp->mem_size);
}

static void restore(void *ctx, const void *blob)
{
	struct coproc *cp = ctx;
	memcpy(&cp->r, blob, sizeof cp->r);
	memcpy(cp->mem, (const char *)blob + sizeof cp->r, cp->mem_size);
}

static uint32_t want_bits(uint32_t classes)
{
	uint32_t w = 0;
	for (int k = 0; k < INSN_KIND_COUNT; k++) {
		if (!(classes >> k & 1))
			continue;
		if (k == INSN_KIND_LOAD)
			w |= INSN_WANT_LOAD;
		else if (k == INSN_KIND_STORE)
			w |= INSN_WANT_STORE;
		else if (k == INSN_KIND_CALL || k == INSN_KIND_RETURN)
			w |= INSN_WANT_CALL;
		else if (insn_kind_is_branch(k))
			w |= INSN_WANT_BRANCH;
		else if (k == INSN_KIND_MUL || k == INSN_KIND_DIV)
			w |= INSN_WANT_LONG_LATENCY;
	}
	return w;
}

/* ---- life cycle ----------------------------------------------------------- */

static size_t align8(size_t n) { return (n + 7) & ~(size_t)7; }

/* *size raised to the program's `.param name` when that is larger (the
 * assembler keeps it within the -C maximum). */
static void size_at_least(uint32_t *size, const struct coproc_prog *p, const char *name)
{
	int64_t need = coproc_prog_param(p, name, 0);
	if (need > (int64_t)*size)
		*size = (uint32_t)need;
}

/* A program may say how large the parts it relies on must be; the
 * co-processor is built at least that large, as the hardware is sized for
 * its programs, and a larger setting is kept:
 *   cam_entries, data_words  the layout it lays itself out in
 *        (value_topk.s: a pc entry and 4 (load, value) entries a slot);
 *   buffer_entries  the records its sample buffer holds: loads retire in
 *        bursts, and a buffer too small for them drops records while the
 *        co-processor is mostly idle; the governor then thins every load's
 *        tagging and lukewarm loads keep a few records, whose largest
 *        value's share overstates their invariance (docs/coproc.md,
 *        branch lvp8);
 *   profile_entries  the handler's profile table in the main processor's
 *        memory: one entry per load it has seen (with value_topk.s's spill
 *        ring, sqlite3's 12,168), and a full table drops new loads'
 *        samples. */
void coproc_config_for(struct coproc_config *cfg, const struct coproc_prog *p)
{
	size_at_least(&cfg->cam, p, "cam_entries");
	size_at_least(&cfg->data, p, "data_words");
	size_at_least(&cfg->buffer, p, "buffer_entries");
	size_at_least(&cfg->profile, p, "profile_entries");
}

int coproc_check(const struct coproc_config *given, const struct coproc_prog *p, struct ivx_err *err)
{
	struct coproc_config sized = *given, *cfg = &sized;
	coproc_config_for(cfg, p);   /* (what the program asks for first) */
	if (p->n_insns > (int)cfg->ucode)
		return ivx_error(err, IVX_EUSAGE, "program %s has %d microinstructions; the microcode array holds %u "
				 "(-C ucode=N; in the explorer coproc set ucode=N)", p->name, p->n_insns, cfg->ucode);
	/* the program lays its slots out in the data array for that many CAM
	 * entries, and each slot's ways after them: fewer would alias them */
	int64_t slots = coproc_prog_param(p, "slots", 0), ways = coproc_prog_param(p, "ways", 0);
	if (slots * (ways + 1) > (int64_t)cfg->cam) {
		if (ways)
			return ivx_error(err, IVX_EUSAGE, "program %s uses %lld slots of %lld CAM entries (%lld); the CAM "
					 "has %u entries (.param cam_entries N, -C cam=N; in the explorer coproc set cam=N)",
					 p->name, (long long)slots, (long long)ways + 1, (long long)(slots * (ways + 1)),
					 cfg->cam);
		return ivx_error(err, IVX_EUSAGE, "program %s uses %lld slots; the CAM has %u entries (-C cam=N; in the explorer coproc set cam=N)",
				 p->name, (long long)slots, cfg->cam);
	}
	if (cfg->ignore & (cfg->ignore - 1))
		return ivx_error(err, IVX_EUSAGE, "ignore=%u is not a power of two", cfg->ignore);
	return 0;
}

struct coproc *coproc_new(const struct coproc_config *cfg, const struct coproc_prog *p, struct core *c,
			  struct ivx_err *err)
{
	if (coproc_check(cfg, p, err) < 0)
		return NULL;
	struct coproc *cp = ivx_calloc(1, sizeof *cp);
	if (!cp) {
		ivx_error(err, IVX_ESYS, "out of memory");
		return NULL;
	}
	cp->cfg = *cfg;
	cp->prog = *p;
	cp->core = c;
	coproc_config_for(&cp->cfg, p);
	cfg = &cp->cfg;
	size_t sz[9] = {
		align8(TAG_RING * sizeof(uint64_t)),
		align8(cfg->buffer * sizeof(struct coproc_rec)),
		align8(cfg->cam * sizeof(uint64_t)),
		align8(cfg->cam),
		align8(cfg->data * sizeof(uint64_t)),
		align8(cfg->ignore),
		align8(cfg->ucode),
		align8(cfg->ignore),
		align8(cfg->ignore),
	};
	size_t prof = cfg->profile * sizeof(struct coproc_pentry);
	cp->mem_size = prof;
	for (int i = 0; i < 9; i++)
		cp->mem_size += sz[i];
	cp->mem = ivx_calloc(1, cp->mem_size);
	if (!cp->mem) {
		ivx_free(cp);
		ivx_error(err, IVX_ESYS, "out of memory");
		return NULL;
	}
	char *m = cp->mem;
	cp->tags = (uint64_t *)m, m += sz[0];
	cp->buf = (struct coproc_rec *)m, m += sz[1];
	cp->cam_key = (uint64_t *)m, m += sz[2];
	cp->cam_valid = (uint8_t *)m, m += sz[3];
	cp->data = (uint64_t *)m, m += sz[4];
	cp->ignore = (uint8_t *)m, m += sz[5];
	cp->pred = (uint8_t *)m, m += sz[6];
	cp->thin = (uint8_t *)m, m += sz[7];
	cp->seen = (uint8_t *)m, m += sz[8];
	cp->profile = (struct coproc_pentry *)m;
	cp->imax = p->iwidth >= 32 ? 0xffffffffu : (1ull << p->iwidth) - 1;
	cp->cmax = (1ull << p->cwidth) - 1;
	cp->amax = p->awidth ? (1ull << p->awidth) - 1 : cp->cmax;
	cp->hash_mask = cfg->ignore - 1;
	cp->even = coproc_prog_param(p, "even", 0) != 0;
	cp->first = (int)coproc_prog_param(p, "first", 0);
	cp->young_stall = (uint64_t)coproc_prog_param(p, "young_stall", 0);
	struct coproc_run *r = &cp->r;
	r->upc = -1;
	r->state = CPS_IDLE;
	r->tagging = 1;
	r->pc_width = p->pc_width;
	r->pc_match = p->pc_match;
	r->lfsr = (uint32_t)(cfg->seed ^ (cfg->seed >> 32));
	if (!r->lfsr)
		r->lfsr = 0xace1u;
	r->tag_rng = (uint32_t)(cfg->seed * 0x9e3779b97f4a7c15ull >> 32) | 1u;
	for (uint32_t n = cfg->tagrate; n > 1; n >>= 1)
		r->tag_shift++;
	r->next_timer = cfg->timer;
	r->next_resample = cfg->resample;
	r->partition_left = (int)coproc_prog_param(p, "partition_interrupts", 4);
	uint32_t w = want_bits(p->classes);
	cp->obs = (struct core_observer){
		.name = "coproc",
		.ctx = cp,
		.on_insn = on_insn,
		.on_cycle = on_cycle,
		.on_idle_cycles = on_idle,
		.state_size = state_size,
		.save = save,
		.restore = restore,
	};
	cp->obs.insn_filter_at[INSN_DISPATCH] = w;
	cp->obs.insn_filter_at[INSN_COMMIT] = w | INSN_WANT_CORRECT_PATH;
	return cp;
}

void coproc_free(struct coproc *cp)
{
	if (!cp)
		return;
	ivx_free(cp->mem);
	ivx_free(cp);
}

const struct core_observer *coproc_observer(struct coproc *cp) { return &cp->obs; }
const struct coproc_prog *coproc_program(const struct coproc *cp) { return &cp->prog; }
const struct coproc_config *coproc_cfg(const struct coproc *cp) { return &cp->cfg; }

void coproc_set_interrupt_hook(struct coproc *cp, void (*fn)(void *, uint64_t, uint64_t), void *ctx)
{
	cp->hook = fn;
	cp->hook_ctx = ctx;
}

void coproc_set_fate_hook(struct coproc *cp, void (*fn)(void *, uint64_t, uint64_t, int), void *ctx)
{
	cp->fate = fn;
	cp->fate_ctx = ctx;
}

void coproc_finish(struct coproc *cp)
{
	if (cp->r.finished)
		return;
	settle(cp);
	cp->r.finished = 1;
	cp->r.st.final_cycles += coproc_handle_final(cp);
}

void coproc_get_stats(const struct coproc *cp, struct coproc_stats *s)
{
	const struct coproc_run *r = &cp->r;
	*s = r->st;
	s->buffer_count = r->count;
	s->state = r->state;
	s->upc = r->state == CPS_RUNNING ? r->upc : -1;
	s->routine_kind = r->state == CPS_RUNNING ? head(cp)->kind : -1;
	s->head_pc = r->count ? head(cp)->pc : 0;
	s->pc_width = r->pc_width;
	s->pc_match = r->pc_match;
	s->complete = r->complete;
	s->tag_shift = r->tag_shift;
	s->finished = r->finished;
}

int coproc_first_sight(const struct coproc *cp) { return cp->first; }

uint64_t coproc_young_stall(const struct coproc *cp)
{
	return cp->cfg.policy == COPROC_STALL ? 0 : cp->young_stall;
}

uint64_t coproc_vreg(const struct coproc *cp, int i) { return i >= 0 && i < COPROC_NV ? cp->r.v[i] : 0; }
uint32_t coproc_ireg(const struct coproc *cp, int i) { return i >= 0 && i < COPROC_NI ? cp->r.i[i] : 0; }
unsigned coproc_flags(const struct coproc *cp) { return (unsigned)cp->r.flags; }
uint32_t coproc_lfsr(const struct coproc *cp) { return cp->r.lfsr; }

int coproc_slot_count(const struct coproc *cp)
{
	int64_t n = coproc_prog_param(&cp->prog, "slots", cp->cfg.cam);
	return n < 0 ? 0 : n > (int64_t)cp->cfg.cam ? (int)cp->cfg.cam : (int)n;
}

void coproc_slot(const struct coproc *cp, int i, struct coproc_slot *out)
{
	memset(out, 0, sizeof *out);
	if (i < 0 || (uint32_t)i >= cp->cfg.cam)
		return;
	out->valid = cp->cam_valid[i];
	out->pc = cp->cam_key[i];
	for (int k = 0; k < 4; k++)
		out->w[k] = cp->data[(cp->prog.breg[k] + (uint32_t)i) % cp->cfg.data];
	out->masked = out->valid && coproc_pc_ignored(cp, out->pc);
}

int coproc_profile_size(const struct coproc *cp) { return (int)cp->cfg.profile; }

int coproc_profile_entry(const struct coproc *cp, int i, struct coproc_pentry *out)
{
	if (i < 0 || (uint32_t)i >= cp->cfg.profile || !cp->profile[i].pc)
		return 0;
	*out = cp->profile[i];
	return 1;
}

/* The estimated share of a value among a load's executions: the samples
 * that matched it while it was the active value, over every sample of the
 * load. Samples the slot saw while other values were active, or before a
 * harvest reset it, count against it: the paper's estimation gives such
 * unaccounted samples to other values. Its region (hits + misses while
 * active) would give the share within its own stretch only, and a load's
 * values repeat over short stretches (temporal value locality): measured,
 * region-based shares overestimated the invariance of the real programs'
 * loads by more (docs/coproc.md). */
/* An estimate's denominator: the samples, or their weights when the
 * program weighs them (value_topk_ipw.s). */
uint64_t coproc_pentry_samples(const struct coproc_pentry *e)
{
	return e->wtotal ? e->wtotal : e->total;
}

int coproc_pentry_top(const struct coproc_pentry *e)
{
	int top = -1;
	for (int k = 0; k < e->nvals; k++)
		if (top < 0 || e->val[k].count > e->val[top].count)
			top = k;
	return top;
}

uint64_t coproc_pentry_value_count(const struct coproc_pentry *e, uint64_t value)
{
	for (int k = 0; k < e->nvals; k++)
		if (e->val[k].value == value)
			return e->val[k].count;
	return 0;
}

double coproc_pentry_value_share(const struct coproc_pentry *e, uint64_t value)
{
	uint64_t den = coproc_pentry_samples(e);
	return den ? (double)coproc_pentry_value_count(e, value) / (double)den : 0.0;
}

double coproc_pentry_invariance(const struct coproc_pentry *e)
{
	int top = coproc_pentry_top(e);
	uint64_t den = coproc_pentry_samples(e);
	return den && top >= 0 ? (double)e->val[top].count / (double)den : 0.0;
}

/* Where the held values cover less of the samples, some went to values the
 * profile lost (slots and ways replaced), which biases the estimate down,
 * and shrinking would add to that: measured, shrinking every load made
 * bzip2-compress 0.35 points worse (docs/coproc-history.md, branch debias). */
#define SHRINK_MIN_COVER 0.95

double coproc_top_share_shrunk(const double *share, int n, uint64_t samples)
{
	double sum = 0, top = 0;
	for (int k = 0; k < n; k++) {
		sum += share[k];
		if (share[k] > top)
			top = share[k];
	}
	if (n < 2 || samples < 2 || sum < SHRINK_MIN_COVER)
		return top;
	/* in shares of what the held values cover (their sum can pass 1 by
	 * rounding of weighted counts), then back */
	double mean = 1.0 / n, spread = 0;
	for (int k = 0; k < n; k++)
		spread += (share[k] / sum - mean) * (share[k] / sum - mean);
	spread /= n - 1;
	double noise = mean * (1 - mean) / (double)samples;   /* a share's sampling variance */
	double keep = spread > noise ? 1 - noise / spread : 0;
	return (mean + keep * (top / sum - mean)) * sum;
}

double coproc_pentry_invariance_shrunk(const struct coproc_pentry *e)
{
	uint64_t den = coproc_pentry_samples(e);
	if (!den)
		return 0.0;
	double share[COPROC_PVALS];
	for (int k = 0; k < e->nvals; k++)
		share[k] = (double)e->val[k].count / (double)den;
	/* the samples the shares come from: harvested ones, not the counts a
	 * skipped re-check earned (`skip_weight`) or the weights of `even` */
	return coproc_top_share_shrunk(share, e->nvals, e->total - e->reweighted);
}
