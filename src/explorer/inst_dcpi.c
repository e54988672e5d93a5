/*
 * inst_dcpi.c — the explorer's DCPI sampler instrument: when sampling is
 * on, every (re)start attaches a fresh engine sampler (engine/dcpi) to the
 * new core; each delivered sample is reported as the event "sample" and
 * as "sample-EVENT" (`catch sample`, `catch sample imiss`, which the catch
 * command reads as sample-imiss, the older spelling; its pc is the
 * delivered pc, its addr the pc of the instruction whose event overflowed
 * the counter). Off by default, so a
 * session that does not sample carries none of the driver's tables in its
 * snapshots. On the in-order machine the session also attaches the
 * wait-truth observer (engine/dcpi/dcpi_wait.c: per pc the cycles at the
 * issue head by true reason, and whom the core blamed), which `annotate`
 * prints beside dcpicalc's estimated stall letters; it is a core observer
 * with its state in the snapshots, so reverse stepping restores it.
 * `info samples` lists the counters, the driver and the last
 * sample; the `sampling` command (xcmd_sampling.c) changes the settings.
 */
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "explorer.h"
#include "guest/program.h"
#include "isa/mem.h"
#include "inst_dcpi.h"
#include "instrument.h"

struct xdcpi {
	struct explorer *x;
	struct dcpi_config cfg;
	int enabled;
	struct dcpi *d;
	struct dcpi_wait *w;   /* in-order runs with sampling on; NULL otherwise */
};

static void *xdcpi_create(struct explorer *x)
{
	struct xdcpi *xd = calloc(1, sizeof *xd);
	if (!xd)
		return NULL;
	xd->x = x;
	dcpi_config_defaults(&xd->cfg);
	xd->cfg.seed = x->opts.seed;   /* (as ivx profile: --seed, unless `sampling on --seed`) */
	return xd;
}

static void xdcpi_free(void *self)
{
	struct xdcpi *xd = self;
	if (!xd)
		return;
	dcpi_free(xd->d);
	dcpi_wait_free(xd->w);
	free(xd);
}

static void on_sample(void *ctx, const struct dcpi_sample *s)
{
	struct xdcpi *xd = ctx;
	static const char *const by_event[DCPI_EVENT_COUNT] = {
		"sample-cycles", "sample-imiss", "sample-dmiss", "sample-branchmp", "sample-dtbmiss", "sample-retired",
	};
	/* (at its delivery: inside a run of idle cycles, that is before the
	 * cycle the run was handed over in) */
	explorer_instrument_event_at(xd->x, "sample", s->deliver_cycle, s->pc, 0, s->cause_pc);
	if (s->event >= 0 && s->event < DCPI_EVENT_COUNT)
		explorer_instrument_event_at(xd->x, by_event[s->event], s->deliver_cycle, s->pc, 0, s->cause_pc);
}

/* Slots for the wait truth: every instruction word of the program's code
 * (only they can head the issue stage) at most 3/4 full, and no more than
 * the sampler's truth holds. Sized to the program because the table is in
 * every snapshot: the 16K-pc default made each one 4 MB larger. */
static uint32_t wait_capacity(const struct program *prog, uint32_t max)
{
	uint64_t words = 0;
	for (int i = 0; prog && i < program_segment_count(prog); i++) {
		const struct program_segment *s = program_segment(prog, i);
		if (s->prot & MEM_X)
			words += s->memsz / 4 + 1;
	}
	uint32_t cap = 16;
	while (cap < max && (uint64_t)cap / 4 * 3 < words)
		cap *= 2;
	return cap < max ? cap : max;
}

static int xdcpi_attach(void *self, struct core *c, struct ivx_err *err)
{
	struct xdcpi *xd = self;
	dcpi_free(xd->d);
	dcpi_wait_free(xd->w);
	xd->d = NULL;
	xd->w = NULL;
	if (!xd->enabled)
		return IVX_OK;
	xd->d = dcpi_new(&xd->cfg, c, err);
	if (!xd->d)
		return err ? err->code : IVX_ESYS;
	dcpi_set_sample_hook(xd->d, on_sample, xd);
	/* the truth of why: only where dcpicalc's model holds (the core
	 * publishes wait reasons in in-order mode only); none with
	 * --no-truth */
	if (core_config(c)->inorder && xd->cfg.truth_capacity) {
		if (!(xd->w = dcpi_wait_new(c, wait_capacity(xd->x->prog, xd->cfg.truth_capacity), 0, err)))
			return err ? err->code : IVX_ESYS;
	}
	return IVX_OK;
}

/* The end of the run: the daemon drains the table and buffers, as `ivx
 * profile` does before it stores the profile. */
static void xdcpi_finish(void *self)
{
	struct xdcpi *xd = self;
	if (xd->d)
		dcpi_finish(xd->d);
}

const struct dcpi *xdcpi_sampler(const struct xdcpi *xd)
{
	return xd ? xd->d : NULL;
}

struct dcpi_config *xdcpi_settings(struct xdcpi *xd)
{
	return &xd->cfg;
}

const struct dcpi_wait *xdcpi_wait(const struct xdcpi *xd)
{
	return xd ? xd->w : NULL;
}

int xdcpi_enabled(const struct xdcpi *xd)
{
	return xd && xd->enabled;
}

void xdcpi_enable(struct xdcpi *xd, int on)
{
	xd->enabled = on;
}

int xdcpi_last_sample(const struct xdcpi *xd, struct dcpi_sample *out)
{
	return xd && xd->d ? dcpi_last_sample(xd->d, out) : 0;
}

static int info_samples(struct explorer *x, int argc, char **argv, const char *rest)
{
	struct xdcpi *xd = explorer_instrument(x, "dcpi");
	const struct dcpi *d = xdcpi_sampler(xd);
	if (!d) {
		explorer_printf(x, "sampling is off (`sampling on` starts it)\n");
		return 0;
	}
	struct dcpi_stats st;
	dcpi_get_stats(d, &st);
	char buf[128], cause[128];
	for (int i = 0; i < dcpi_counter_count(d); i++) {
		struct dcpi_counter_view v;
		dcpi_counter_at(d, i, &v);
		explorer_printf(x, "counter %d: %-8s %llu/%llu, %llu to overflow%s\n", i, dcpi_event_name(v.event),
				(unsigned long long)v.value, (unsigned long long)v.period,
				(unsigned long long)v.to_overflow, v.n_mux > 1 ? " (multiplexed)" : "");
	}
	for (int i = 0; i < dcpi_pending_count(d); i++) {
		int ev = 0;
		uint64_t at = 0, pc = 0;
		dcpi_pending_at(d, i, &ev, &at, &pc);
		explorer_printf(x, "pending: %s interrupt at cycle %llu\n", dcpi_event_name(ev), (unsigned long long)xcycle(at));
	}
	explorer_printf(x, "samples %llu:", (unsigned long long)st.samples_total);
	for (int e = 0; e < DCPI_EVENT_COUNT; e++)
		if (dcpi_config(d)->events >> e & 1)
			explorer_printf(x, " %s %llu", dcpi_event_name(e), (unsigned long long)st.samples[e]);
	explorer_printf(x, "\ndriver: hit rate %.1f%%, %llu evictions, buffers %u+%u, %llu drains, %llu lost; "
			"overhead %.2f%% (handler %llu, daemon %llu cycles)\n",
			st.samples_total ? 100.0 * st.hits / st.samples_total : 0.0, (unsigned long long)st.evictions,
			st.buffer_fill[0], st.buffer_fill[1], (unsigned long long)st.drains, (unsigned long long)st.lost,
			dcpi_overhead_pct(d), (unsigned long long)st.handler_cycles, (unsigned long long)st.daemon_cycles);
	if (dcpi_finished(d))
		explorer_printf(x, "end of run: the daemon drained the hash table and the buffers, as ivx profile does\n");
	struct dcpi_sample s;
	if (xdcpi_last_sample(xd, &s)) {
		explorer_describe(x, s.pc, buf, sizeof buf);
		if (s.cause_pc)
			explorer_describe(x, s.cause_pc, cause, sizeof cause);
		else
			strcpy(cause, "unknown");
		explorer_printf(x, "last sample: %s at cycle %llu, delivered pc 0x%llx %s; overflow at cycle %llu caused by 0x%llx %s (skid %llu cycles)\n",
				dcpi_event_name(s.event), (unsigned long long)xcycle(s.deliver_cycle), (unsigned long long)s.pc, buf,
				(unsigned long long)xcycle(s.overflow_cycle), (unsigned long long)s.cause_pc, cause,
				(unsigned long long)(s.deliver_cycle - s.overflow_cycle));
	}
	return 0;
}

static const struct xinfo_topic dcpi_info[] = {
	{ .name = "samples", .help = "the DCPI sampler: counters, pending interrupts, driver, last sample",
	  .usage = "info samples", .exec = info_samples },
	{ 0 },
};

static const char *const dcpi_events[] = {
	"sample", "sample-cycles", "sample-imiss", "sample-dmiss", "sample-branchmp", "sample-dtbmiss",
	"sample-retired", NULL,
};

static const char *xdcpi_idle(const void *self)
{
	return ((const struct xdcpi *)self)->enabled ? NULL : "sampling is off: `sampling on` starts it";
}

static const struct xinstrument xinst_dcpi = {
	.name = "dcpi",
	.summary = "DCPI sampling: counters, skid, the driver's hash table (off until `sampling on`)",
	.order = 10,
	.create = xdcpi_create,
	.attach = xdcpi_attach,
	.finish = xdcpi_finish,
	.free = xdcpi_free,
	.info = dcpi_info,
	.events = dcpi_events,
	.idle = xdcpi_idle,
	.panes = "sampler annotate",
	.commands = "sampling annotate",
};
XINSTRUMENT_REGISTER(xinst_dcpi);
