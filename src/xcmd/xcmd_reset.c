/*
 * xcmd_reset.c — `reset stats`: the CPI stacks, event counts and the code
 * pane's commit counts count from the current cycle (src/explorer/inst_reset.c).
 */
#include <string.h>
#include "explorer/explorer.h"
#include "explorer/inst_reset.h"
#include "xcmd.h"

static int reset_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	if (argc != 2 || strcmp(argv[1], "stats"))
		return explorer_error(x, "usage: reset stats");
	if (xreset_stats(x) < 0)
		return -1;
	explorer_printf(x, "Statistics count from cycle %llu (CPI stacks, event counts, commit counts).\n",
			(unsigned long long)explorer_cycle(x));
	explorer_state_changed(x);
	return 0;
}

static const struct xcmd reset_cmd = {
	.name = "reset", .usage = "reset stats",
	.summary = "count the CPI stacks, event counts and commit counts from the current cycle",
	.help =
	"The CPI stacks pane and `info stack`, `info events` and the code pane's commit\n"
	"counts start again from zero at the current cycle: warm caches and predictor\n"
	"first (step past the start-up, or --start-at), then measure. Going back before\n"
	"the reset shows the counts from the start; past it, from the reset again.\n"
	"`run` and `restart` drop it.",
	.words = "stats", .exec = reset_exec,
};
XCMD_REGISTER(reset_cmd);
