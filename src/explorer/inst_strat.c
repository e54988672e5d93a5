/*
 * inst_strat.c — the stratified-sampling instrument (see inst_strat.h).
 * The session object keeps the settings (spec, profiles, charge) across
 * restarts; attach builds a fresh strat_run for each new core. The run
 * uses fixed-size profile tables (XSTRAT_CAPACITY tuples), since its
 * whole state goes into every snapshot; tuples beyond them are counted
 * as dropped in `info strat`. Each interrupt is the catchable event
 * "strat-interrupt".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "core/core.h"
#include "explorer.h"
#include "inst_strat.h"
#include "instrument.h"
#include "strat/strat.h"
#include "strat/strat_run.h"

#define XSTRAT_CAPACITY 8192
#define XSTRAT_STR_(x) #x
#define XSTRAT_STR(x) XSTRAT_STR_(x)   /* (the capacity in xstrat_no_error_reason's text) */

struct xstrat {
	struct explorer *x;
	int enabled;
	struct strat_spec spec;
	char spec_text[STRAT_SPEC_MAX + 1];
	char profile_text[32];
	unsigned profiles;
	int charge;
	struct strat_run *run;
};

static void *xstrat_create(struct explorer *x)
{
	struct xstrat *xs = calloc(1, sizeof *xs);
	if (xs) {
		xs->x = x;
		xs->profiles = STRAT_PROFILE_VALUE;
		strcpy(xs->profile_text, "value");
	}
	return xs;
}

static void xstrat_free(void *self)
{
	struct xstrat *xs = self;
	if (!xs)
		return;
	strat_run_free(xs->run);
	free(xs);
}

static void on_interrupt(void *ctx, uint64_t pc, uint64_t seq, uint32_t messages)
{
	struct xstrat *xs = ctx;
	explorer_instrument_event(xs->x, "strat-interrupt", pc, seq, messages);
}

static int xstrat_attach(void *self, struct core *c, struct ivx_err *err)
{
	struct xstrat *xs = self;
	strat_run_free(xs->run);
	xs->run = NULL;
	if (!xs->enabled)
		return 0;
	struct strat_run_opts o;
	strat_run_opts_default(&o);
	o.spec = xs->spec;
	o.profiles = xs->profiles;
	o.seed = xs->x->opts.seed;
	o.charge = xs->charge;
	o.capacity = XSTRAT_CAPACITY;
	xs->run = strat_run_new(&o, err);
	if (!xs->run)
		return -1;
	struct strat_run_hooks h = { xs, on_interrupt, NULL };
	strat_run_set_hooks(xs->run, &h);
	return strat_run_attach(xs->run, c, err);
}

/* The end of the run: the A tables send what they hold and the last
 * partial batch is delivered, as `ivx strat` does before it reports. */
static void xstrat_finish(void *self)
{
	struct xstrat *xs = self;
	if (xs->run)
		strat_run_finish(xs->run);
}

const struct strat_run *xstrat_run(const struct xstrat *xs)
{
	return xs ? xs->run : NULL;
}

const char *xstrat_spec_text(const struct xstrat *xs)
{
	return xs ? xs->spec_text : "";
}

const char *xstrat_profile_text(const struct xstrat *xs)
{
	return xs ? xs->profile_text : "";
}

int xstrat_charge(const struct xstrat *xs)
{
	return xs && xs->charge;
}

int xstrat_configure(struct explorer *x, const char *spec, const char *profiles, int charge)
{
	struct xstrat *xs = explorer_instrument(x, "strat");
	if (!xs)
		return explorer_error(x, "the strat instrument is not available");
	if (!spec) {
		xs->enabled = 0;
		return 0;
	}
	struct strat_spec s;
	struct ivx_err err = { 0 };
	if (strat_spec_parse(spec, &s, &err) < 0)
		return explorer_error(x, "%s", err.msg);
	unsigned p = strat_profile_parse(profiles ? profiles : "value");
	if (!p)
		return explorer_error(x, "'%s' is not value, edge, call or a comma-separated list of them", profiles);
	xs->enabled = 1;
	xs->spec = s;
	strat_spec_format(&s, xs->spec_text, sizeof xs->spec_text);
	snprintf(xs->profile_text, sizeof xs->profile_text, "%s", profiles ? profiles : "value");
	xs->profiles = p;
	xs->charge = charge;
	return 0;
}

static int info_strat(struct explorer *x, int argc, char **argv, const char *rest)
{
	const struct xstrat *xs = explorer_instrument(x, "strat");
	const struct strat_run *r = xstrat_run(xs);
	if (!r) {
		explorer_printf(x, "No compressor: choose one with `strat SPEC [PROFILE]` (e.g. strat H[P256]2048).\n");
		return 0;
	}
	struct strat_run_stats st;
	strat_run_stats(r, &st);
	struct strat_err_params ep = STRAT_ERR_PARAMS_PAPER;
	struct strat_err_detail d;
	double e = strat_run_error(r, &ep, &d);
	struct strat_prof_stats ps;
	strat_prof_stats(strat_run_prof(r), &ps);
	struct strat_comp_stats cs;
	strat_comp_stats(strat_run_comp(r), &cs);
	explorer_printf(x, "compressor %s, %s profile%s\n", xs->spec_text, xs->profile_text,
			xs->charge ? ", handler charged to the core" : "");
	explorer_printf(x, "events      %llu tuples selected at commit (%llu distinct, %llu dropped: table full)\n",
			(unsigned long long)st.events, (unsigned long long)ps.tuples, (unsigned long long)ps.dropped);
	explorer_printf(x, "samples     %llu first-stage messages\n", (unsigned long long)st.samples);
	explorer_printf(x, "messages    %llu to software, %u queued of %u a batch\n", (unsigned long long)st.messages,
			st.queued, st.batch);
	explorer_printf(x, "interrupts  %llu, %llu cycles (214 each + 30 a message): %.2f%% of %llu cycles\n",
			(unsigned long long)st.interrupts, (unsigned long long)st.overhead_cycles,
			100 * st.overhead_fraction, (unsigned long long)st.cycles);
	if (cs.t_replaced || cs.t_evicted)
		explorer_printf(x, "tagged      %llu deferred evictions reported (E6), %llu replacements (E5)\n",
				(unsigned long long)cs.t_evicted, (unsigned long long)cs.t_replaced);
	if (isnan(e))
		explorer_printf(x, "error       - (%s)\n", xstrat_no_error_reason(r));
	else
		explorer_printf(x, "error       %.2f%% over %llu selected tuples of %llu pcs (section 5.3.1)\n", 100 * e,
				(unsigned long long)d.tuples, (unsigned long long)d.pcs);
	if (st.finished)
		explorer_printf(x, "end of run  the tables sent what they held and the last batch was delivered, "
				"as ivx strat does\n");
	return 0;
}

const char *xstrat_no_error_reason(const struct strat_run *r)
{
	struct strat_prof_stats ps;
	strat_prof_stats(strat_run_prof(r), &ps);
	/* (a snapshot needs a table of fixed size; ivx strat's grows) */
	if (ps.dropped)
		return "tuples dropped: the explorer's exact profile holds " XSTRAT_STR(XSTRAT_CAPACITY) "; ivx strat keeps them all";
	return "no pc has run 1000 times with invariant tuples yet";
}

static const struct xinfo_topic strat_info[] = {
	{ .name = "strat", .help = "the stream compressor: events, messages, interrupts, overhead, error",
	  .usage = "info strat", .exec = info_strat },
	{ 0 },
};

static const char *const strat_events[] = { "strat-interrupt", NULL };

static const char *xstrat_idle(const void *self)
{
	return ((const struct xstrat *)self)->enabled ? NULL : "no stream compressor runs: `strat SPEC` starts one";
}

static const struct xinstrument xinst_strat = {
	.name = "strat",
	.summary = "stratified sampling: a hardware stream compressor and its software side",
	.order = 20,
	.create = xstrat_create,
	.attach = xstrat_attach,
	.finish = xstrat_finish,
	.free = xstrat_free,
	.info = strat_info,
	.events = strat_events,
	.idle = xstrat_idle,
	.panes = "strat",
	.commands = "strat",
};
XINSTRUMENT_REGISTER(xinst_strat);
