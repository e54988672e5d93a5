/*
 * xcmd_sampling.c — `sampling`: show or change the DCPI sampler's settings
 * (inst_dcpi.c). A change the current run would see restarts it at once,
 * as `coproc` and `strat` do: a sampler must watch a run from its first
 * cycle (its truth counts from there, the core's head-cycle counts its
 * wait truth reads are turned on only before a first cycle, and a snapshot
 * taken before it was attached would hold no state of it to restore), so
 * it is not switched on, off or changed at cycle N. The new run's history
 * begins at its cycle 0: reverse motion never reaches a state from before
 * the switch.
 * A command that changes nothing the run sees (options while sampling is
 * off and stays off, `sampling on` when on) keeps the run where it is.
 *
 *   sampling                       the settings, one a line
 *   sampling on [OPTIONS]          turn sampling on, with `ivx profile`'s options
 *   sampling off
 *   sampling OPTIONS               change settings (--events, --period, --skid, ...)
 */
#include <stdio.h>
#include <string.h>
#include "cli/dcpi_opts.h"
#include "explorer/explorer.h"
#include "explorer/inst_dcpi.h"
#include "explorer/instrument.h"
#include "xcmd.h"

/* `sampling`: on or off, then every option with its value, one a line. */
static void list_settings(struct explorer *x, struct xdcpi *xd)
{
	explorer_printf(x, "%-16s %s\n", "sampling", xdcpi_enabled(xd) ? "on" : "off");
	char v[256];
	const char *name;
	for (int i = 0; (name = dcpi_opts_setting(xdcpi_settings(xd), i, v, sizeof v)); i++)
		explorer_printf(x, "%-16s %s\n", name, v);
}

static int sampling_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	struct xdcpi *xd = explorer_instrument(x, "dcpi");
	if (!xd)
		return explorer_error(x, "sampling: no sampler in this build");
	if (argc == 1) {
		list_settings(x, xd);
		return 0;
	}
	struct dcpi_config next = *xdcpi_settings(xd);
	int on = xdcpi_enabled(xd), i = 1;
	if (argc > 1 && (!strcmp(argv[1], "on") || !strcmp(argv[1], "off"))) {
		on = !strcmp(argv[1], "on");
		i = 2;
	}
	int options = i < argc;
	while (i < argc) {
		struct ivx_err err = { 0 };
		int used = dcpi_opts_parse(&next, argc, argv, i, &err);
		if (used < 0)
			return explorer_error(x, "%s", err.msg);
		if (!used)
			return explorer_error(x, "sampling: unknown option '%s' (see `help sampling`)", argv[i]);
		i += used;
	}
	struct ivx_err err = { 0 };
	if (dcpi_config_validate(&next, &err) < 0)
		return explorer_error(x, "%s", err.msg);
	int sampled = x->core && xdcpi_sampler(xd);   /* whether this run samples */
	int same = !memcmp(&next, xdcpi_settings(xd), sizeof next);
	*xdcpi_settings(xd) = next;
	xdcpi_enable(xd, on);
	char desc[256];
	dcpi_opts_describe(&next, desc, sizeof desc);
	if (!sampled && !on) {   /* (nothing the run sees: keep it where it is, as coproc off) */
		if (options)
			explorer_printf(x, "sampling off: %s (for the next `sampling on`)\n", desc);
		else
			explorer_printf(x, "Sampling is off already.\n");
		return 0;
	}
	if (sampled && on && (!options || same)) {   /* (the run samples so already) */
		explorer_printf(x, "Sampling is on already: %s\n", desc);
		return 0;
	}
	const char *with;
	if (explorer_restart_noting(x, &with) < 0)
		return -1;
	if (on)
		explorer_printf(x, "sampling on: %s; restarted at cycle 0%s.\n", desc, with);
	else
		explorer_printf(x, "Sampling off; restarted at cycle 0%s.\n", with);
	return 0;
}

#define SAMPLING_OPTIONS "--events --period --skid --counters --mux-cycles --charge --no-truth --cost " \
	"--table-buckets --buffer-entries --seed"

static const char *event_word(const char *first, int i)
{
	return i >= 0 && i < DCPI_EVENT_COUNT ? dcpi_event_name(i) : NULL;
}

static const struct xcmd_then sampling_then[] = {
	{ .after = "on", .words = SAMPLING_OPTIONS },
	{ .after = "off", .words = SAMPLING_OPTIONS },
	{ .after = "--events", .word_at = event_word },
	{ 0 },
};

static const struct xcmd xcmd_sampling = {
	.name = "sampling", .usage = "sampling [on|off] [--events LIST] [--period P[:DP]] [--skid N] ...",
	.flags = XCMD_NO_RUN,
	.summary = "show or set the DCPI sampler (a change restarts the run)",
	.help = "Options as for `ivx profile`: --events, --period, --skid, --counters,\n"
		"--mux-cycles, --charge, --no-truth, --cost, --table-buckets, --buffer-entries.\n"
		"--seed N seeds the counters' period generators (default: ivx's --seed, as for\n"
		"`ivx profile`). `sampling` alone lists them with their values. A change the\n"
		"run would see restarts it at cycle 0, as coproc and strat do: the sampler\n"
		"watches a run from its first cycle.\n"
		"Then `catch sample`, `info samples`, `show sampler`.",
	.words = "on off " SAMPLING_OPTIONS,
	.then = sampling_then,
	.exec = sampling_exec,
};
XCMD_REGISTER(xcmd_sampling);
