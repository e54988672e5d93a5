/*
 * coproc_handler.c — the main processor's side of profiling: the software
 * that runs when the co-processor interrupts (or the timer ticks), reads
 * the co-processor's state through its special addresses, folds it into
 * the profile in memory and programs the filters.
 *
 * It is modelled in C; each handler returns what it costs the main
 * processor in cycles: config int_cycles per interrupt, slot_cycles per
 * slot or entry it reads and mask_cycles per ignore bit it sets.
 *
 *   value      slot i = CAM entry i (the load's pc) and data words
 *              b0+i active value, b1+i hits, b2+i total, b3+i misses;
 *              i4 holds the reason (1 slots hold the working set,
 *              2 thrashing, 3 a total counter saturated). Harvest every
 *              slot, mask loads characterised with confidence, move the
 *              PC filter (divide the program into partitions on
 *              thrashing, step through them, merge them again), reset.
 *              With `.param ways K` (value_topk.s, ours) slot i's total
 *              is b1+i and its K (load, value) ways are CAM entries
 *              i + slots*(j+1), with counts at b1 and inherited counts
 *              at b3 + entry (harvest_ways). With `.param
 *              spill_entries N` also the spill ring at b2 (harvest_spill):
 *              what the slots replaced since the last harvest had seen.
 *              value_topk_ring.s (ours) also writes there its tallies,
 *              loads without a slot counted in ring entries; with
 *              `.param ring_full_thrashes` a full ring (reason 4) counts
 *              as thrashing, and with `harvest_ring_alone` its
 *              interrupt reads the ring and not the slots.
 *              With `.param spread N` (ours) a load giving more than N
 *              samples a timer period is thinned at the tagger
 *              (maybe_thin), so its samples come from all of its run;
 *              with `.param even 1` too (ours) a thinned load is tagged
 *              at a rate of its own, is neither masked nor held, and
 *              its samples are weighted by the inverse of their rate
 *              (even_weight), so they are a fair sample of its run.
 *   edge       slot i = CAM entry i (a branch pc), b0+i taken and b1+i
 *              not-taken counts. Harvest, reset.
 *   callstack  b1+d calls made at depth d (d < param depth); i1 deepest
 *              depth, i2 returns that did not go back to their call's
 *              successor, i3 returns at depth 0. Harvest the histogram.
 *
 * The value profile's estimate of a load's invariance is the largest
 * count of hits a single active value accumulated, over the load's total
 * samples: samples the slot saw while some other value was active (and
 * lost when the active value was re-selected) count against it, as in the
 * paper's estimation where unaccounted samples go to other values.
 */
#include <math.h>
#include <string.h>
#include "coproc_internal.h"

/* ---- the profile table (open addressing by pc) ------------------------- */

static struct coproc_pentry *probe(const struct coproc *cp, uint64_t pc, int create)
{
	uint32_t n = cp->cfg.profile;
	uint32_t h = (uint32_t)(((pc >> 2) * 0x9e3779b97f4a7c15ull) >> 40) % n;
	for (uint32_t k = 0; k < n; k++) {
		struct coproc_pentry *e = &cp->profile[(h + k) % n];
		if (e->pc == pc)
			return e;
		if (!e->pc) {
			if (!create)
				return NULL;
			e->pc = pc;
			return e;
		}
	}
	return NULL;
}

static struct coproc_pentry *pentry(struct coproc *cp, uint64_t pc)
{
	return probe(cp, pc, 1);
}

int coproc_profile_find(const struct coproc *cp, uint64_t pc, struct coproc_pentry *out)
{
	const struct coproc_pentry *e = pc ? probe(cp, pc, 0) : NULL;
	if (!e)
		return 0;
	*out = *e;
	return 1;
}

/* Add `total` samples to pc, and to value `count` hits seen over a region
 * of `region` samples. */
static struct coproc_pentry *padd(struct coproc *cp, uint64_t pc, uint64_t total, uint64_t value, uint64_t count,
				  uint64_t region)
{
	struct coproc_pentry *e = pentry(cp, pc);
	if (!e) {
		cp->r.st.profile_full++;
		return NULL;
	}
	e->total += total;
	if (!count && !region)
		return e;
	int k, low = 0;
	for (k = 0; k < e->nvals; k++) {
		if (e->val[k].value == value) {
			e->val[k].count += count;
			e->val[k].region += region;
			return e;
		}
		if (e->val[k].count < e->val[low].count)
			low = k;
	}
	if (e->nvals < COPROC_PVALS) {
		k = e->nvals++;
	} else if (count > e->val[low].count) {
		k = low;   /* keep the largest counts: the smallest is forgotten */
	} else {
		return e;
	}
	e->val[k].value = value;
	e->val[k].count = count;
	e->val[k].region = region;
	e->val[k].at_unmask = 0;
	return e;
}

static int64_t param(const struct coproc *cp, const char *name, int64_t dflt)
{
	return coproc_prog_param(&cp->prog, name, dflt);
}

/* The value program's (load, value) entries per slot: 0 for value.s (one
 * active value per slot), value_topk.s's `.param ways` (ours). */
static int value_ways(const struct coproc *cp)
{
	int64_t w = coproc_prog_param(&cp->prog, "ways", 0);
	return w < 0 ? 0 : w > 64 ? 64 : (int)w;
}

/* Invalidate the CAM, clear the slots' data words and the index registers.
 * With ways, a slot's words are at b1 and b3 + its CAM entries (the slot's
 * and its ways'). */
static void reset_slots(struct coproc *cp, int slots)
{
	memset(cp->cam_valid, 0, cp->cfg.cam);
	int n = slots * (value_ways(cp) + 1);
	for (int k = 0; k < COPROC_NB; k++)
		for (int i = 0; i < n; i++)
			cp->data[(cp->prog.breg[k] + (uint32_t)i) % cp->cfg.data] = 0;
	memset(cp->r.i, 0, sizeof cp->r.i);
	cp->r.flags = 0;
}

static uint64_t word(const struct coproc *cp, int base, int i)
{
	return cp->data[(cp->prog.breg[base] + (uint32_t)i) % cp->cfg.data];
}

/* ---- value profiling ----------------------------------------------------- */

/* `skip_weight` (ours): a re-check whose load then sits out `rounds`
 * re-samplings stands for them too, so its samples count 1 + rounds
 * times (each value's hits since the unmasking, and the samples), as if
 * the load behaved in the rounds nobody looked at as in the one that was
 * looked at. Without it the rounds a load is seen in weigh by their
 * samples, and the back-off picks the rounds by how they turned out. */
static void weigh_recheck(struct coproc_pentry *e, uint32_t rounds, int even)
{
	if (e->wtotal && !even)
		return;   /* weighted samples (value_topk_ipw.s): not combined */
	for (int k = 0; k < e->nvals; k++)
		if (e->val[k].count > e->val[k].at_unmask)
			e->val[k].count += rounds * (e->val[k].count - e->val[k].at_unmask);
	/* `even`: the weighted samples since the unmasking, likewise */
	if (even && e->wtotal > e->recheck_den)
		e->wtotal += rounds * (e->wtotal - e->recheck_den);
	uint64_t again = rounds * (e->total - e->base);
	e->total += again;
	e->reweighted += again;
}

/* A re-checked load is masked again: if its new samples gave the value
 * the profile had on top about the share the profile gave it (within
 * `stable_sigmas` tenths of a binomial standard deviation, and at least
 * `stable_permille`), it agreed; after `stable_agreements` agreements in
 * a row it sits out twice as many re-samplings as last time, plus one
 * (at most `resample_backoff`); a disagreement: none. So on a long run
 * the loads whose behaviour does not change stop costing re-checks, and
 * the profiler's overhead follows the working set and its changes, not
 * the run's length. */
static void judge_recheck(struct coproc *cp, struct coproc_pentry *e, uint64_t n)
{
	e->recheck = 0;
	int64_t most = param(cp, "resample_backoff", 0);
	uint64_t den = coproc_pentry_samples(e) - e->recheck_den;
	if (most <= 0 || !n || !den || !e->recheck_den)
		return;
	uint64_t now_count = coproc_pentry_value_count(e, e->recheck_value);
	uint64_t gained = now_count > e->recheck_count ? now_count - e->recheck_count : 0;
	double was = (double)e->recheck_count / (double)e->recheck_den;
	double d = fabs((double)gained / (double)den - was);
	/* within `stable_sigmas` tenths of a binomial standard deviation of n
	 * samples, and at least `stable_permille` */
	double tol = param(cp, "stable_sigmas", 0) / 10.0 * sqrt(was * (1 - was) / (double)n);
	double floor_tol = param(cp, "stable_permille", 100) / 1000.0;
	if (d <= (tol > floor_tol ? tol : floor_tol)) {
		uint64_t next = 2 * (uint64_t)e->skip + 1;
		if (++e->agreed >= (uint64_t)param(cp, "stable_agreements", 1))
			e->skip = (uint32_t)(next > (uint64_t)most ? (uint64_t)most : next);
	} else {
		e->skip = 0;
		e->agreed = 0;
	}
	e->skip_left = e->skip;
	if (e->skip && param(cp, "skip_weight", 0))
		weigh_recheck(e, e->skip, cp->even);
}

/* Mask a load once its invariance is known well enough: many samples and
 * a clear bias either way, or simply very many samples. */
static uint64_t maybe_mask(struct coproc *cp, struct coproc_pentry *e)
{
	if (!e || e->masked)
		return 0;
	if (cp->even && e->thin)
		return 0;   /* `even`: a thinned load is sampled all its run */
	double inv = coproc_pentry_invariance(e);
	uint64_t n = e->total - e->base;   /* samples since it was last unmasked */
	int64_t conf = param(cp, "confident", 32), enough = param(cp, "enough", 512);
	double hi = param(cp, "hi_permille", 900) / 1000.0, lo = param(cp, "lo_permille", 100) / 1000.0;
	if (!((n >= (uint64_t)conf && (inv >= hi || inv <= lo)) || n >= (uint64_t)enough))
		return 0;
	/* A load's samples from one stretch of time can all carry a value
	 * that repeats only over that stretch: judge it once they come from
	 * `min_visits` separate time slices. */
	if (cp->r.thrashed && e->visits < (uint32_t)param(cp, "min_visits", 1))
		return 0;
	e->masked = 1;
	coproc_set_ignore(cp, e->pc);
	cp->r.st.masked++;
	if (e->recheck)
		judge_recheck(cp, e, n);
	return cp->cfg.mask_cycles;
}

/* Hold a load that has given `hold` samples in this time slice: its
 * ignore bit is set until the next timer tick, so its samples spread
 * over the run's slices instead of coming from one stretch, and its slot
 * goes to other loads meanwhile. */
static uint64_t maybe_hold(struct coproc *cp, struct coproc_pentry *e)
{
	int64_t hold = param(cp, "hold", 0);
	if (!cp->r.thrashed || !e || e->masked || e->held || !hold || e->slice_samples < (uint64_t)hold)
		return 0;
	if (cp->even && e->thin)
		return 0;   /* `even`: ... and its rate caps its samples */
	e->held = 1;
	cp->r.held++;
	cp->r.st.held++;
	coproc_set_ignore(cp, e->pc);
	return cp->cfg.mask_cycles;
}

/* A new time slice: clear the held loads' ignore bits (the masked loads'
 * are set again: they may share a bit). */
static uint64_t release_held(struct coproc *cp)
{
	struct coproc_run *r = &cp->r;
	if (!r->held)
		return 0;
	uint64_t n = 0;
	for (uint32_t i = 0; i < cp->cfg.profile; i++) {
		struct coproc_pentry *e = &cp->profile[i];
		if (e->pc && e->held) {
			e->held = 0;
			cp->ignore[coproc_pc_hash(cp, e->pc)] = 0;
			n++;
		}
	}
	for (uint32_t i = 0; i < cp->cfg.profile; i++)
		if (cp->profile[i].pc && cp->profile[i].masked)
			coproc_set_ignore(cp, cp->profile[i].pc);
	r->held = 0;
	return n * cp->cfg.mask_cycles;
}

/* `.param even`: a load's total of `total` samples arrives, weighted w
 * (its slot's harvest, or its slot's spill). Samples of it already counted
 * as evicted ways' own hits at an earlier read keep the weight their
 * value's count got then, so that a sample's value and its share of the
 * denominator are weighted alike (the governor's k, and so w, can change
 * between two reads: busybox bzip2 -c -9 bench.sql at seed 9 had a value
 * counted 16 times against a total counted 2 times). */
void coproc_even_total(struct coproc_pentry *e, uint64_t total, uint64_t w)
{
	uint64_t early = e->pend_hits < total ? e->pend_hits : total;
	e->wtotal += (total - early) * w + (e->pend_hits ? e->pend_weighted * early / e->pend_hits : 0);
	e->pend_hits = e->pend_weighted = 0;
}

/* `.param even 1` (ours, branch even22): each harvested sample of a
 * load stands for 2^s executions, s the shift it was tagged at: its
 * thinning t if the load is thinned (`spread`; with `even` an entry of
 * the thinning table is the bucket's whole shift), and at least the
 * governor's k. The handler adds the samples 2^s times to the
 * estimate's denominator (the profile's wtotal) and to the values'
 * counts, so a stretch tagged at a lower rate weighs as much per
 * execution as one tagged at a higher rate; the rules (masking,
 * holds, spreading's rate) stay in samples. Only the handler writes
 * the table, so t is constant between two of its reads, and a read
 * that has changed a load's t already (an earlier entry of the same
 * load) remembers the t its records had. k moves between reads (every
 * 256 tagged retirements): the weight takes it at the read. Returns
 * 2^s, or 0 without `even`. */
static uint64_t even_weight(const struct coproc *cp, uint64_t pc)
{
	if (!cp->even)
		return 0;
	const struct coproc_pentry *e = probe(cp, pc, 0);
	uint32_t t = e && e->thin_read == cp->r.reads + 1 ? e->thin_was : cp->thin[coproc_pc_hash(cp, pc)];
	uint32_t k = cp->r.tag_shift;
	return 1ull << (t > k ? t : k);
}

/* value_topk.s's slot i (ours): CAM entry i holds the load's pc and way j
 * is CAM entry i + slots * (j + 1), keyed by the value xor the pc shifted
 * left by `key_shift`; b1 + entry holds the slot's total and each way's
 * count, b3 + entry the count a way inherited when it was taken over
 * (space-saving: a new value takes the way with the smallest count and
 * goes on from it + 1). Each way's count, less `inherited_permille` of
 * what it inherited, is added to its value. Returns the profile entry and
 * adds the words read to *cost. */
static struct coproc_pentry *harvest_ways(struct coproc *cp, int i, int slots, int ways, uint64_t *cost)
{
	uint64_t pc = cp->cam_key[i];
	uint64_t w = even_weight(cp, pc);
	struct coproc_pentry *e = padd(cp, pc, word(cp, 1, i), 0, 0, 0);
	if (e && param(cp, "weighted", 0))
		e->wtotal += word(cp, 3, i);   /* the slot's weighted total */
	if (e && w)
		coproc_even_total(e, word(cp, 1, i), w);
	if (!w)
		w = 1;
	int shift = (int)param(cp, "key_shift", 40) & 63;
	uint64_t less = (uint64_t)param(cp, "inherited_permille", 0);
	for (int j = 0; j < ways; j++) {
		int k = i + slots * (j + 1);
		if ((uint32_t)k >= cp->cfg.cam || !cp->cam_valid[k])
			continue;
		*cost += cp->cfg.slot_cycles;
		uint64_t n = word(cp, 1, k), inh = word(cp, 3, k) * less / 1000;
		if (n)
			padd(cp, pc, 0, cp->cam_key[k] ^ (pc << shift), (n > inh ? n - inh : 0) * w, n);
	}
	return e;
}

/* Spreading (`.param spread N`, ours): a load that gives more than N
 * samples per `timer` cycles is thinned, so that its records come
 * from all of its run at a lower rate instead of from the first
 * stretches after it is unmasked or released. The harvest knows the
 * cycles since the previous one and what each load gave in them (its
 * spilled entries, then its slot: `last` is the slot's, the load's
 * last entry); the load's bucket of the thinning table is raised
 * until that rate is at most N per period, and lowered by one step
 * when its slot shows less than a quarter of it. A bucket holds the
 * latest of its loads' thinning. Costs mask_cycles per bucket
 * written, as an ignore bit. */
static uint64_t maybe_thin(struct coproc *cp, struct coproc_pentry *e, uint64_t got, int last)
{
	struct coproc_run *r = &cp->r;
	int64_t most = param(cp, "spread", 0);
	if (most <= 0 || e->masked)
		return 0;
	if (e->hv != r->harvests) {
		e->hv = r->harvests;
		e->hv_samples = 0;
		e->hv_thin0 = e->thin;
	}
	e->hv_samples += got;
	uint64_t span = r->now - r->harvest_at;
	if (!span)
		return 0;
	/* samples per timer period at the thinning it had: rate x timer */
	uint64_t per = e->hv_samples * cp->cfg.timer / span;
	uint32_t t = e->hv_thin0;
	if (cp->even) {
		/* `even`: t is the whole shift; from the one the load had
		 * (the governor's k if it was not thinned), back to k
		 * (0) rather than below it */
		uint32_t k = r->tag_shift, had = t ? t : k;
		t = had;
		while (e->hv_samples >= (uint64_t)most && per > (uint64_t)most && t < COPROC_EVEN_MAX) {
			per >>= 1;
			t++;
		}
		if (t == had && !e->hv_thin0)
			t = 0;
		else if (last && t == had && per < (uint64_t)most / 4)
			t = t - 1 <= k ? 0 : t - 1;
	} else {
		/* (a rate from fewer samples, over a short stretch between
		 * two interrupts, would thin lukewarm loads that run in
		 * bursts) */
		while (e->hv_samples >= (uint64_t)most && per > (uint64_t)most && t < COPROC_THIN_MAX) {
			per >>= 1;
			t++;
		}
		if (last && t == e->hv_thin0 && t > 0 && per < (uint64_t)most / 4)
			t--;
	}
	if (t == e->thin)
		return 0;
	uint32_t h = coproc_pc_hash(cp, e->pc);
	if (e->thin_read != r->reads + 1) {   /* the t this read's samples had (`even`) */
		e->thin_was = cp->thin[h];
		e->thin_read = r->reads + 1;
	}
	e->thin = t;
	cp->thin[h] = (uint8_t)t;
	r->st.thinned++;
	return cp->cfg.mask_cycles;
}

/* Samples of entry e harvested now: note the time slice (timer period)
 * they came from, then mask or hold the load if it has enough (and thin
 * it if it gives too many, `spread`; `last`: the load's slot, the last
 * entry of it in this harvest). */
static uint64_t account(struct coproc *cp, struct coproc_pentry *e, uint64_t got, int mask, int last)
{
	if (!e)
		return 0;
	uint64_t slice = cp->r.ticks + 1, cost = 0;
	if (e->visit != slice) {
		e->visit = slice;
		e->visits++;
		e->slice_samples = 0;
	}
	e->slice_samples += (uint32_t)got;
	if (mask) {
		cost += maybe_mask(cp, e);   /* first: a masked load is not held */
		cost += maybe_hold(cp, e);
		cost += maybe_thin(cp, e, got, last);
	}
	return cost;
}

/* The spill ring (ours, `.param spill_entries N`, with ways): when
 * value_topk.s replaces a slot, the microcode first writes what the
 * victim saw to a ring of N entries at b2, four words each: the load's
 * pc, the slot's total, the key of its way with the largest count and
 * that count less what the way inherited; v7 holds the words written.
 * Without it, the samples of a slot replaced before the harvest are
 * lost, and a lukewarm load whose slot is replaced over and over reaches
 * the profile only as the one sample it held at a harvest (estimate
 * 1.00). Merged by pc and value like the ways, residencies that saw
 * different values give a low top share and residencies that agree a
 * high one. Costs slot_cycles per entry, like a way. Since branch evict
 * value_topk.s also spills a way it evicts from a slot it keeps, with a
 * total of 0: the value's own hits alone. */
static uint64_t harvest_spill(struct coproc *cp, int mask)
{
	int64_t cap = param(cp, "spill_entries", 0);
	if (cap <= 0)
		return 0;
	/* weighted (value_topk_ipw.s): a fifth word, the slot's weighted total */
	uint64_t ew = param(cp, "weighted", 0) ? 5 : 4;
	uint64_t cost = 0, words = cp->r.v[7] < (uint64_t)cap * ew ? cp->r.v[7] : (uint64_t)cap * ew;
	int shift = (int)param(cp, "key_shift", 40) & 63;
	for (uint64_t k = 0; k + ew <= words; k += ew) {
		uint64_t pc = word(cp, 2, (int)k), total = word(cp, 2, (int)k + 1);
		uint64_t key = word(cp, 2, (int)k + 2), n = word(cp, 2, (int)k + 3);
		cost += cp->cfg.slot_cycles;
		cp->r.st.spilled++;
		if (!pc)
			continue;
		/* A total of 0: a way evicted from a slot still in use
		 * (value_topk.s, branch evict), its value's own hits alone;
		 * their samples are in the slot's total, which comes with the
		 * slot's harvest or its own spill. */
		uint64_t w = even_weight(cp, pc);
		struct coproc_pentry *e = total ? padd(cp, pc, total, 0, 0, 0) : NULL;
		if (e && ew == 5)
			e->wtotal += word(cp, 2, (int)k + 4);
		if (e && w)
			coproc_even_total(e, total, w);
		if (n) {
			struct coproc_pentry *v = padd(cp, pc, 0, key ^ (pc << shift), n * (w ? w : 1), n);
			if (v && w && !total) {   /* their total comes later */
				v->pend_hits += n;
				v->pend_weighted += n * w;
			}
		}
		cost += account(cp, e, total, mask, 0);   /* (nothing for no entry) */
	}
	cp->r.v[7] = 0;
	return cost;
}

static uint64_t harvest_value(struct coproc *cp, int mask)
{
	uint64_t cost = 0;
	int slots = coproc_slot_count(cp), ways = value_ways(cp);
	if (ways)
		cost += harvest_spill(cp, mask);   /* the older samples first */
	for (int i = 0; i < slots; i++) {
		if (!cp->cam_valid[i])
			continue;
		cost += cp->cfg.slot_cycles;
		/* value.s: the active value's region, its hits and misses since it was selected */
		struct coproc_pentry *e = ways ? harvest_ways(cp, i, slots, ways, &cost)
					       : padd(cp, cp->cam_key[i], word(cp, 2, i), word(cp, 0, i), word(cp, 1, i),
						      word(cp, 1, i) + word(cp, 3, i));
		cost += account(cp, e, ways ? word(cp, 1, i) : word(cp, 2, i), mask, 1);
	}
	reset_slots(cp, slots);
	cp->r.reads++;
	cp->r.harvests++;
	cp->r.harvest_at = cp->r.now;
	return cost;
}

static void next_partition(struct coproc *cp)
{
	struct coproc_run *r = &cp->r;
	r->partition_left = (int)param(cp, "partition_interrupts", 4);
	r->partition_ticks = 0;
	if (r->pc_width == 0)
		return;
	if (++r->pc_match >= (1u << r->pc_width)) {
		/* every partition had its turn: merge pairs of them again */
		r->pc_width--;
		r->pc_match = 0;
	}
}

static uint64_t value_interrupt(struct coproc *cp)
{
	struct coproc_run *r = &cp->r;
	uint32_t reason = r->i[4];
	if (reason == 4 && param(cp, "ring_full_thrashes", 0))
		r->thrashed = 1;   /* a ring full of tallies: more loads than slots */
	if (reason == 4 && param(cp, "harvest_ring_alone", 0)) {
		/* `.param harvest_ring_alone 1` (value_topk_ring.s, ours): the
		 * spill ring is full of tallies, the slots are not; emptying
		 * the ring alone costs half a harvest, and the slots go on
		 * counting until their own interrupt. */
		r->i[4] = 0;
		uint64_t cost = cp->cfg.int_cycles + harvest_spill(cp, 1);
		r->reads++;
		return cost;
	}
	uint64_t cost = cp->cfg.int_cycles + harvest_value(cp, 1);
	if (reason == 2)
		r->thrashed = 1;
	if (reason == 2 && r->pc_width < param(cp, "max_width", 6)) {
		/* thrashing: profile the program in twice as many parts */
		r->pc_width++;
		r->pc_match = 0;
		r->partition_left = (int)param(cp, "partition_interrupts", 4);
		r->partition_ticks = 0;
	} else if (r->pc_width > 0 && --r->partition_left <= 0) {
		next_partition(cp);
	}
	return cost;
}

/* ---- edge and call-stack profiling --------------------------------------- */

static uint64_t harvest_edge(struct coproc *cp)
{
	uint64_t cost = cp->cfg.int_cycles;
	int slots = coproc_slot_count(cp);
	for (int i = 0; i < slots; i++) {
		if (!cp->cam_valid[i])
			continue;
		cost += cp->cfg.slot_cycles;
		uint64_t t = word(cp, 0, i), n = word(cp, 1, i);
		padd(cp, cp->cam_key[i], t + n, 1, t, 0);
		padd(cp, cp->cam_key[i], 0, 0, n, 0);
	}
	reset_slots(cp, slots);
	return cost;
}

static uint64_t harvest_callstack(struct coproc *cp)
{
	uint64_t cost = cp->cfg.int_cycles;
	int depth = (int)param(cp, "depth", 512);
	for (int d = 0; d < depth; d++) {
		uint32_t a = (cp->prog.breg[1] + (uint32_t)d) % cp->cfg.data;
		if (!cp->data[a])
			continue;
		cost += cp->cfg.slot_cycles;
		padd(cp, (uint64_t)d + 1, cp->data[a], 0, cp->data[a], 0);
		cp->data[a] = 0;
	}
	struct coproc_run *r = &cp->r;
	if (r->i[1] > r->aux[0])
		r->aux[0] = r->i[1];
	r->aux[1] += r->i[2];
	r->aux[2] += r->i[3];
	r->i[2] = r->i[3] = 0;
	return cost;
}

/* ---- entry points ---------------------------------------------------------- */

uint64_t coproc_handle_interrupt(struct coproc *cp)
{
	const char *h = cp->prog.handler;
	if (!strcmp(h, "value"))
		return value_interrupt(cp);
	if (!strcmp(h, "edge"))
		return harvest_edge(cp);
	if (!strcmp(h, "callstack"))
		return harvest_callstack(cp);
	return cp->cfg.int_cycles;
}

static uint64_t value_timer(struct coproc *cp, uint64_t records, int executed)
{
	struct coproc_run *r = &cp->r;
	if (records)
		r->complete = 0;   /* loads not yet characterised ran (a new phase?) */
	if (!executed)
		return 0;
	if (r->pc_width == 0) {
		/* Loads ran for a whole period but none was tagged: every load
		 * is masked, the profile is complete. The filters then tag
		 * nothing and the co-processor costs nothing until a load it
		 * has not characterised runs. */
		if (records || r->complete)
			return 0;
		r->complete = 1;
		return cp->cfg.int_cycles;
	}
	/* A partition whose unmasked loads yielded fewer than `low_yield`
	 * records in a period holds only rarely executed loads (its frequent
	 * ones are masked): go on to the next, whose loads may run far more
	 * often. Waiting for its interrupts would leave the other partitions'
	 * frequent loads unprofiled for a long time. */
	if (records >= (uint64_t)param(cp, "low_yield", 1)) {
		/* Time slices: a partition keeps the filter for at most
		 * `slice_ticks` periods, so the partitions take turns over the
		 * whole run and a load's samples come from several visits. */
		int64_t slice = param(cp, "slice_ticks", 0);
		if (slice < 0 && r->young)
			slice = 1;   /* young run: round robin, one slice each */
		if (slice <= 0 || ++r->partition_ticks < slice)
			return 0;
	}
	next_partition(cp);
	return cp->cfg.int_cycles;
}

static uint64_t unmask(struct coproc *cp, uint64_t below);

/* Re-sampling (ours, as `-C resample` does for every program, but from
 * the program's parameters):
 *   resample_every N     every N cycles from the start of the run, for
 *        every program: a load masked from one stretch of the run is
 *        looked at again in the next, so a load whose values change
 *        with the program's phases gets samples from each of them
 *        (value_topk.s: 250,000 cycles; docs/coproc.md, branch resample);
 *   resample_thrashed N  every N cycles, but only once the slots have
 *        thrashed. With more hot loads than slots a load's samples come
 *        from a few visits of its partition, and a value that repeats
 *        over those visits but not over the run gets the load masked as
 *        invariant; unmasking lets later visits correct it. Programs
 *        whose loads fit in the slots then keep their masks (value.s:
 *        re-profiling them only added overhead, and under policy drop a
 *        biased sample: muldiv, docs/coproc.md).
 * resample_every, when set, is the only period. */
static uint64_t resample_if_due(struct coproc *cp)
{
	struct coproc_run *r = &cp->r;
	int64_t every = param(cp, "resample_every", 0);
	if (every <= 0 && r->thrashed)
		every = param(cp, "resample_thrashed", 0);
	if (every <= 0)
		return 0;
	if (!r->next_prog_resample)
		r->next_prog_resample = (uint64_t)every;
	if (r->now < r->next_prog_resample)
		return 0;
	r->next_prog_resample = r->now + (uint64_t)every;
	return unmask(cp, (uint64_t)param(cp, "resample_below", 0));
}

uint64_t coproc_handle_timer(struct coproc *cp, uint64_t records, int executed)
{
	if (strcmp(cp->prog.handler, "value"))
		return 0;
	/* a new time slice: the held loads are tagged again */
	uint64_t released = release_held(cp);
	/* Time slices sized from the run's progress: a tenth... of the time
	 * run so far, between `min_slice` cycles and the timer's period, so
	 * a short run still gives every partition several turns and a long
	 * one does not pay for many moves. */
	int64_t div = param(cp, "slice_div", 0);
	uint64_t period = cp->cfg.timer;
	if (div > 0) {
		uint64_t lo = (uint64_t)param(cp, "min_slice", 5000);
		period = cp->r.now / (uint64_t)div;
		period = period < lo ? lo : period > cp->cfg.timer ? cp->cfg.timer : period;
		cp->r.timer_period = period;
		/* low_yield is per config timer period */
		records = records * cp->cfg.timer / (period ? period : 1);
	}
	cp->r.young = period < cp->cfg.timer;
	uint64_t cost = value_timer(cp, records, executed);
	if (released) {
		cp->r.complete = 0;
		cost = (cost ? cost : cp->cfg.int_cycles) + released;
	}
	return cost + resample_if_due(cp);
}

/* Unmask the masked loads with fewer than `below` samples since they were
 * last unmasked (every masked load if `below` is 0), clearing their ignore
 * bits; bits shared with loads that stay masked or held are set again. */
static uint64_t unmask(struct coproc *cp, uint64_t below)
{
	struct coproc_run *r = &cp->r;
	uint64_t n = 0, bits = 0, kept = 0;
	for (uint32_t i = 0; i < cp->cfg.profile; i++) {
		struct coproc_pentry *e = &cp->profile[i];
		if (e->pc && e->masked && (!below || e->total - e->base < below)) {
			if (e->skip_left) {   /* resample_backoff: sits this one out */
				e->skip_left--;
				kept++;
				continue;
			}
			e->masked = 0;
			e->base = e->total;
			int top = coproc_pentry_top(e);
			e->recheck = 1;
			e->recheck_value = top < 0 ? 0 : e->val[top].value;
			e->recheck_count = top < 0 ? 0 : e->val[top].count;
			e->recheck_den = coproc_pentry_samples(e);
			for (int k = 0; k < e->nvals; k++)
				e->val[k].at_unmask = e->val[k].count;
			n++;
			uint32_t h = coproc_pc_hash(cp, e->pc);
			bits += cp->ignore[h] != 0;
			cp->ignore[h] = 0;
		}
	}
	r->st.backed_off += kept;
	if (below || kept)
		for (uint32_t i = 0; i < cp->cfg.profile; i++) {
			struct coproc_pentry *e = &cp->profile[i];
			if (e->pc && (e->masked || e->held))
				coproc_set_ignore(cp, e->pc);
		}
	else
		for (uint32_t h = 0; h < cp->cfg.ignore; h++) {
			bits += cp->ignore[h] != 0;
			cp->ignore[h] = 0;
		}
	r->st.resamples++;
	r->st.unmasked += n;
	if (!n && !bits)
		return 0;
	r->complete = 0;
	return cp->cfg.int_cycles + bits * cp->cfg.mask_cycles;
}

/* Re-sampling (the paper: phases make it necessary to re-sample
 * periodically): every masked load is unmasked, to be masked again once
 * `confident` new samples (or `enough`) confirm what the profile knows;
 * meanwhile its new samples join the profile, so a load whose values
 * changed gets a new estimate. Costs the interrupt and a bit per ignore
 * bit cleared. */
uint64_t coproc_handle_resample(struct coproc *cp)
{
	if (strcmp(cp->prog.handler, "value"))
		return 0;
	return unmask(cp, 0);
}

uint64_t coproc_handle_final(struct coproc *cp)
{
	const char *h = cp->prog.handler;
	/* no record ever reached the co-processor: nothing to read out, and
	 * no handler runs (on a run of a few cycles its fixed cost would be
	 * the whole "overhead") */
	if (!cp->r.st.records)
		return 0;
	if (!strcmp(h, "value"))
		return cp->cfg.int_cycles + harvest_value(cp, 0);
	if (!strcmp(h, "edge"))
		return harvest_edge(cp);
	if (!strcmp(h, "callstack"))
		return harvest_callstack(cp);
	return 0;
}

uint64_t coproc_aux(const struct coproc *cp, int i)
{
	return i >= 0 && i < 4 ? cp->r.aux[i] : 0;
}
