/*
 * acct.c — what all accounting units share: names, construction from a
 * machine configuration, the stack getter and snapshot callbacks. The
 * methods themselves are in acct_naive.c, acct_power5.c, acct_fmt.c and
 * acct_ivx.c.
 */
#include <string.h>
#include "base/alloc.h"
#include "acct_internal.h"

_Static_assert((int)ACCT_FE_L1I == (int)ACCT_L1I && (int)ACCT_FE_L2I == (int)ACCT_L2I && (int)ACCT_FE_ITLB == (int)ACCT_ITLB,
	       "frontend counters index the global counters directly");

static const char *const comp_names[ACCT_COMP_COUNT] = {
	"l1i", "l2i", "itlb", "l1d", "l2d", "dtlb", "bpred", "fu",
};
static const char *const comp_labels[ACCT_COMP_COUNT] = {
	"L1 I-cache", "L2 I-cache", "I-TLB", "L1 D-cache", "L2 D-cache", "D-TLB",
	"branch mispredict", "long-latency unit",
};
static const char *const method_names[ACCT_METHOD_COUNT] = {
	"naive", "naive_nonspec", "power5", "fmt", "sfmt", "ivx",
};
static const char *const method_labels[ACCT_METHOD_COUNT] = {
	"naive", "naive non-spec", "IBM POWER5", "FMT", "sFMT", "ivx counters",
};

const char *acct_comp_name(int comp)
{
	return comp >= 0 && comp < ACCT_COMP_COUNT ? comp_names[comp] : "?";
}

const char *acct_comp_label(int comp)
{
	return comp >= 0 && comp < ACCT_COMP_COUNT ? comp_labels[comp] : "?";
}

const char *acct_method_name(int method)
{
	return method >= 0 && method < ACCT_METHOD_COUNT ? method_names[method] : "?";
}

const char *acct_method_label(int method)
{
	return method >= 0 && method < ACCT_METHOD_COUNT ? method_labels[method] : "?";
}

/* Enough FMT rows for every branch the pipeline can hold between fetch and
 * retirement: the ROB, the frontend pipeline and the fetch buffer; a power
 * of two so a position maps to its row with a mask. */
static uint32_t fmt_rows_for(const struct machine_config *cfg)
{
	uint64_t n = (uint64_t)cfg->rob_size + (uint64_t)cfg->frontend_depth * cfg->fetch_width
		+ cfg->fetch_buffer + cfg->fetch_width + 2;
	uint32_t rows = 16;
	while (rows < n && rows < ACCT_FMT_MAX_ROWS)
		rows <<= 1;
	return rows;
}

int acct_check_config(const struct machine_config *cfg, struct ivx_err *err)
{
	if (cfg->rob_size > ACCT_MAX_ROB)
		return ivx_error(err, IVX_EUSAGE, "accounting supports a ROB of at most %d entries (core.rob_size=%u)",
				 ACCT_MAX_ROB, cfg->rob_size);
	return 0;
}

int acct_init(struct acct *a, int method, const struct machine_config *cfg, struct ivx_err *err)
{
	if (method < 0 || method >= ACCT_METHOD_COUNT)
		return ivx_error(err, IVX_EUSAGE, "unknown accounting method %d", method);
	int rc = acct_check_config(cfg, err);
	if (rc < 0)
		return rc;
	a->method = method;
	a->src = a;
	a->memo = &a->memo_store;
	a->penalty[ACCT_L1I] = cfg->penalty_l1i;
	a->penalty[ACCT_L2I] = cfg->penalty_l2i;
	a->penalty[ACCT_ITLB] = cfg->penalty_itlb;
	a->penalty[ACCT_L1D] = cfg->penalty_l1d;
	a->penalty[ACCT_L2D] = cfg->penalty_l2d;
	a->penalty[ACCT_DTLB] = cfg->penalty_dtlb;
	a->penalty[ACCT_BPRED] = cfg->penalty_bpred;
	a->penalty[ACCT_FU] = cfg->penalty_fu;
	a->rows = fmt_rows_for(cfg);
	a->rob_size = cfg->rob_size;
	a->itlb_latency = cfg->itlb.miss_latency;
	a->dtlb_latency = cfg->dtlb.miss_latency;
	a->dispatch_width = cfg->decode_width;
	if (method == ACCT_IVX)   /* (only its shadow reads it) */
		shadow_cfg_init(&a->shcfg, cfg);
	a->obs.name = method_names[method];
	a->obs.ctx = a;
	a->obs.state_size = acct_state_size_cb;
	a->obs.save = acct_save_cb;
	a->obs.restore = acct_restore_cb;
	acct_reset(a);
	return IVX_OK;
}

struct acct *acct_new(int method, const struct machine_config *cfg, struct ivx_err *err)
{
	struct acct *a = ivx_calloc(1, sizeof *a);
	if (!a) {
		ivx_error(err, IVX_ESYS, "out of memory");
		return NULL;
	}
	if (acct_init(a, method, cfg, err) < 0) {
		ivx_free(a);
		return NULL;
	}
	return a;
}

void acct_free(struct acct *a)
{
	ivx_free(a);
}

int acct_method(const struct acct *a)
{
	return a->method;
}

const struct core_observer *acct_observer(struct acct *a)
{
	return &a->obs;
}

void acct_reset(struct acct *a)
{
	switch (a->method) {
	case ACCT_NAIVE:
	case ACCT_NAIVE_NONSPEC:
		acct_naive_init(a);
		break;
	case ACCT_POWER5:
		acct_power5_init(a);
		break;
	case ACCT_IVX:
		acct_ivx_init(a);
		break;
	default:
		acct_fmt_init(a);
		break;
	}
}

void acct_get_stack(const struct acct *a, struct acct_stack *out)
{
	const struct acct_totals *t = &a->src->s.t;
	const struct acct_clock *clk = a->clock ? a->clock : &t->clk;
	memset(out, 0, sizeof *out);
	out->cycles = clk->cycles;
	out->insns = clk->insns;
	int64_t sum = 0;
	uint64_t ivx[ACCT_COMP_COUNT];
	if (a->method == ACCT_IVX)
		acct_ivx_stack(a, clk->cycles, clk->insns, NULL, ivx);
	for (int k = 0; k < ACCT_COMP_COUNT; k++) {
		uint64_t v = t->global[k];
		if (a->method == ACCT_IVX)
			v = ivx[k];
		if (a->method == ACCT_NAIVE || a->method == ACCT_NAIVE_NONSPEC)
			v = a->s.naive.events[k] * a->penalty[k];
		else if (a->method == ACCT_SFMT && k < ACCT_FE_COUNT)
			v = a->src->s.fmt.sfmt_global[k];
		out->comp[k] = v;
		sum += (int64_t)v;
	}
	out->base = (int64_t)clk->cycles - sum;
}

void acct_mark(const struct acct *a, struct acct_mark *m)
{
	memset(m, 0, sizeof *m);
	acct_get_stack(a, &m->stack);
	if (a->method == ACCT_IVX)
		acct_ivx_raw(a, m->raw);
}

void acct_get_stack_since(const struct acct *a, const struct acct_mark *m, struct acct_stack *out)
{
	const struct acct_stack *b = &m->stack;
	acct_get_stack(a, out);
	out->cycles -= b->cycles;
	out->insns -= b->insns;
	if (a->method == ACCT_IVX) {
		acct_ivx_stack(a, out->cycles, out->insns, m->raw, out->comp);
		int64_t sum = 0;
		for (int k = 0; k < ACCT_COMP_COUNT; k++)
			sum += (int64_t)out->comp[k];
		out->base = (int64_t)out->cycles - sum;
		return;
	}
	for (int k = 0; k < ACCT_COMP_COUNT; k++)
		out->comp[k] -= b->comp[k];
	out->base -= b->base;
}

uint64_t acct_component(const struct acct *a, int comp)
{
	if (a->method == ACCT_NAIVE || a->method == ACCT_NAIVE_NONSPEC)
		return a->s.naive.events[comp] * a->penalty[comp];
	if (a->method == ACCT_SFMT && comp < ACCT_FE_COUNT)
		return a->src->s.fmt.sfmt_global[comp];
	if (a->method == ACCT_IVX) {
		const struct acct_clock *clk = a->clock ? a->clock : &a->src->s.t.clk;
		return acct_ivx_component(a, clk->cycles, clk->insns, comp);
	}
	return a->src->s.t.global[comp];
}

const uint64_t *acct_component_counter(const struct acct *a, int comp)
{
	if (comp < 0 || comp >= ACCT_COMP_COUNT || a->method == ACCT_NAIVE || a->method == ACCT_NAIVE_NONSPEC ||
	    a->method == ACCT_IVX)
		return NULL;
	if (a->method == ACCT_SFMT && comp < ACCT_FE_COUNT)
		return &a->src->s.fmt.sfmt_global[comp];
	return &a->src->s.t.global[comp];
}

void acct_event_counts(const struct acct *a, uint64_t out[ACCT_COMP_COUNT])
{
	for (int k = 0; k < ACCT_COMP_COUNT; k++)
		out[k] = (a->method == ACCT_NAIVE || a->method == ACCT_NAIVE_NONSPEC) ? a->s.naive.events[k] : 0;
}

size_t acct_state_size_cb(void *ctx)
{
	return ((struct acct *)ctx)->state_size;
}

void acct_save_cb(void *ctx, void *blob)
{
	struct acct *a = ctx;
	memcpy(blob, &a->s, a->state_size);
}

void acct_restore_cb(void *ctx, const void *blob)
{
	struct acct *a = ctx;
	memcpy(&a->s, blob, a->state_size);
}
