/*
 * acct_overlap.c — how often a frontend miss penalty and a long backend
 * miss overlap (the paper's Table 1), and correct-path event counts for
 * per-event average penalties.
 *
 * This is a measurement, not a counter architecture: it uses what the
 * simulator knows and hardware does not (which path an instruction is on).
 * A cycle is in a frontend miss penalty when
 *   - the fetch unit, on the correct path, waits on an I-cache or I-TLB miss
 *     (the miss delay, which is the I-miss penalty), or
 *   - a correct-path mispredicted branch has entered the ROB and correct-path
 *     instructions have not yet entered the ROB after its resolution (the
 *     misprediction penalty);
 * and in a long backend miss when a correct-path L2 D-cache or D-TLB miss
 * is outstanding.
 *
 * It also checks the premise of the FMT's rules, that a cycle charged to a
 * miss is a cycle without useful work: how many I-miss stall cycles still
 * dispatched correct-path instructions (from the frontend's buffer), and
 * how many instructions still issued in ROB-full cycles.
 */
#include <string.h>
#include "base/alloc.h"
#include "acct_internal.h"

void acct_overlap_insn(struct acct_overlap *o, const struct insn_event *e)
{
	if (!acct_is_branch(e->uop) || e->wrong_path || !e->mispredicted)
		return;
	switch (e->stage) {
	case INSN_FETCH:
		o->s.wrong_fetch_seq = e->seq;
		o->s.pending_dispatch = e->seq;     /* its dispatch: acct_overlap_cycle */
		break;
	case INSN_COMPLETE:
		if (o->s.wrong_fetch_seq == e->seq)
			o->s.wrong_fetch_seq = 0;
		if (o->s.bp_seq == e->seq)
			o->s.bp_resolved = 1;
		break;
	default:
		break;
	}
}

void acct_overlap_miss(struct acct_overlap *o, const struct miss_event *e)
{
	if (!e->correct_path)
		return;
	int k = -1;
	switch (e->kind) {
	case MISS_L1I: k = ACCT_L1I; break;
	case MISS_L2I: k = ACCT_L2I; break;
	case MISS_ITLB: k = ACCT_ITLB; break;
	case MISS_L1D: k = ACCT_L1D; break;
	case MISS_L2D: k = ACCT_L2D; break;
	case MISS_DTLB: k = ACCT_DTLB; break;
	case MISS_MISPREDICT: k = ACCT_BPRED; break;
	case MISS_FU_STALL: k = ACCT_FU; break;
	default: return;
	}
	if (e->phase == MISS_BEGIN)
		o->s.st.events[k]++;
	if (k == ACCT_L2D || k == ACCT_DTLB)
		o->s.long_out += e->phase == MISS_BEGIN ? 1 : -1;
}

static void ov_on_miss(void *ctx, const struct miss_event *e)
{
	acct_overlap_miss(ctx, e);
}

static void ov_on_insn(void *ctx, const struct insn_event *e)
{
	acct_overlap_insn(ctx, e);
}

static void ov_on_cycle(void *ctx, const struct cycle_record *r)
{
	struct acct_cycle_view v;
	acct_cycle_view(r, &v);
	acct_overlap_cycle(ctx, r, &v);
}

static size_t ov_size(void *ctx)
{
	return sizeof ((struct acct_overlap *)ctx)->s;
}

static void ov_save(void *ctx, void *blob)
{
	struct acct_overlap *o = ctx;
	memcpy(blob, &o->s, sizeof o->s);
}

static void ov_restore(void *ctx, const void *blob)
{
	struct acct_overlap *o = ctx;
	memcpy(&o->s, blob, sizeof o->s);
}

struct acct_overlap *acct_overlap_new(const struct machine_config *cfg, struct ivx_err *err)
{
	struct acct_overlap *o = ivx_calloc(1, sizeof *o);
	if (!o) {
		ivx_error(err, IVX_ESYS, "out of memory");
		return NULL;
	}
	o->obs = (struct core_observer){
		.name = "overlap", .ctx = o,
		.on_insn = ov_on_insn, .on_miss = ov_on_miss, .on_cycle = ov_on_cycle,
		.state_size = ov_size, .save = ov_save, .restore = ov_restore,
		.insn_filter_at = { [INSN_FETCH] = INSN_WANT_MISPREDICT | INSN_WANT_CORRECT_PATH,
				    [INSN_COMPLETE] = INSN_WANT_MISPREDICT | INSN_WANT_CORRECT_PATH },
		.miss_filter = ACCT_MISS_FILTER,
		.miss_skip_end = ~ACCT_OVERLAP_END_FILTER,
	};
	return o;
}

void acct_overlap_free(struct acct_overlap *o)
{
	ivx_free(o);
}

const struct core_observer *acct_overlap_observer(struct acct_overlap *o)
{
	return &o->obs;
}

void acct_overlap_get(const struct acct_overlap *o, struct acct_overlap_stats *out)
{
	*out = o->s.st;
}
