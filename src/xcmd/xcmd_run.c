/*
 * xcmd_run.c — starting over: `run` (restart, then continue) and `restart`
 * (back to cycle 0 and stop there). Both apply configuration changes made
 * with `set SECTION.KEY VALUE`; breakpoints and settings stay.
 */
#include "explorer/explorer.h"
#include "xcmd.h"

static int restart_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	if (argc > 1)
		return explorer_error(x, "%s takes no arguments (program arguments go after -- on ivx's command line)",
				      argv[0]);
	const char *with;
	if (explorer_restart_noting(x, &with) < 0)
		return -1;
	explorer_printf(x, "Restarted at cycle 0%s.\n", with);
	return 0;
}

static const struct xcmd restart_cmd = {
	.name = "restart", .usage = "restart",
	.flags = XCMD_NO_RUN,
	.summary = "start the program again and stop at cycle 0",
	.exec = restart_exec,
};
XCMD_REGISTER(restart_cmd);

static int run_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	if (restart_exec(x, argc, argv, args) < 0)
		return -1;
	return explorer_continue(x, 1);
}

static const struct xcmd run_cmd = {
	.name = "run", .aliases = "r", .usage = "run",
	.flags = XCMD_NO_RUN,
	.summary = "start the program again and continue until a breakpoint, the end or Ctrl-C",
	.exec = run_exec,
};
XCMD_REGISTER(run_cmd);
