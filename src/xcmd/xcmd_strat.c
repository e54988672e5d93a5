/*
 * xcmd_strat.c — `strat`: choose the stream compressor the explorer runs
 * (engine/strat), then start over so it sees the whole run.
 *
 *   strat                       the current choice: compressor, profile, charge
 *   strat SPEC [PROFILE] [charge]
 *   strat off
 */
#include <string.h>
#include "explorer/explorer.h"
#include "strat/strat.h"
#include "explorer/inst_strat.h"
#include "explorer/instrument.h"
#include "xcmd.h"

static int strat_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	const struct xstrat *xs = explorer_instrument(x, "strat");
	if (argc == 1) {   /* the settings, one a line (as `sampling`, `coproc`) */
		if (!xstrat_run(xs)) {
			explorer_printf(x, "%-16s off (strat SPEC [value|edge|call] [charge])\n", "compressor");
			return 0;
		}
		explorer_printf(x, "%-16s %s\n%-16s %s\n%-16s %s\n", "compressor", xstrat_spec_text(xs), "profile",
				xstrat_profile_text(xs), "charge", xstrat_charge(xs) ? "on" : "off");
		return 0;
	}
	if (argc > 4)
		return explorer_error(x, "usage: strat SPEC [value|edge|call[,...]] [charge] | strat off");
	int off = !strcmp(argv[1], "off") && argc == 2;
	const char *profile = NULL;
	int charge = 0;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "charge"))
			charge = 1;
		else if (!profile)
			profile = argv[i];
		else
			return explorer_error(x, "strat: '%s': expected charge", argv[i]);
	}
	if (off && !xstrat_run(xs)) {   /* (nothing to stop: keep the run where it is, as coproc off) */
		explorer_printf(x, "No compressor is on.\n");
		return 0;
	}
	char spec_before[STRAT_SPEC_MAX + 1], profile_before[32];   /* (the same again: keep the run) */
	snprintf(spec_before, sizeof spec_before, "%s", xstrat_run(xs) ? xstrat_spec_text(xs) : "");
	snprintf(profile_before, sizeof profile_before, "%s", xstrat_profile_text(xs));
	int charged = xstrat_charge(xs);
	if (xstrat_configure(x, off ? NULL : argv[1], profile, charge) < 0)
		return -1;
	if (!off && xstrat_run(xs) && !strcmp(spec_before, xstrat_spec_text(xs)) &&
	    !strcmp(profile_before, xstrat_profile_text(xs)) && charged == xstrat_charge(xs)) {
		explorer_printf(x, "Compressor %s on the %s profile%s already.\n", xstrat_spec_text(xs),
				xstrat_profile_text(xs), charge ? ", handler charged to the core" : "");
		return 0;
	}
	const char *with;
	if (explorer_restart_noting(x, &with) < 0)
		return -1;
	if (off)
		explorer_printf(x, "No compressor. Restarted at cycle 0%s.\n", with);
	else
		explorer_printf(x, "Compressor %s on the %s profile%s. Restarted at cycle 0%s.\n", xstrat_spec_text(xs),
				xstrat_profile_text(xs), charge ? ", handler charged to the core" : "", with);
	return 0;
}

static const struct xcmd_then strat_then[] = {
	{ .after = "off" },   /* (takes nothing more) */
	{ .after = "*", .words = "value edge call charge" },
	{ 0 },
};

static const struct xcmd strat_cmd = {
	.name = "strat", .usage = "strat [SPEC [value|edge|call[,...]] [charge] | off]",
	.flags = XCMD_NO_RUN,
	.summary = "choose a stratified-sampling stream compressor (restarts the run)",
	.help = "SPEC as for ivx strat: R256, P256, CR256, D256, H[P256]2048, T2[256]2048/2,\n"
		"with +A16 for a second level, or CM1024x4 / SS512. The profile is value\n"
		"(loads), edge (branches) or call (calls); charge gives the interrupt handler's\n"
		"cycles to the core. See the strat pane, info strat, catch strat-interrupt.",
	.words = "off R256 P256 H[P256]2048 T2[256]2048/2",
	.then = strat_then,
	.exec = strat_exec,
};
XCMD_REGISTER(strat_cmd);
