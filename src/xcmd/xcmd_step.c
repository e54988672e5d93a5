/*
 * xcmd_step.c — forward motion: step [N] (cycles), stepi [N] (committed
 * instructions), continue [N], until LOC / advance LOC.
 */
#include "explorer/explorer.h"
#include "xcmd.h"

static int step_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	unsigned long long n;
	if (xcmd_count_arg(x, argc, argv, &n) < 0)
		return -1;
	return explorer_step(x, n);
}

static const struct xcmd step_cmd = {
	.name = "step", .aliases = "s", .usage = "step [N]",
	.summary = "simulate N cycles (default 1)",
	.help = "Stops early at a breakpoint or catchpoint hit, at the program's end or on Ctrl-C.",
	.flags = XCMD_REPEAT, .exec = step_exec,
};
XCMD_REGISTER(step_cmd);

static int stepi_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	unsigned long long n;
	if (xcmd_count_arg(x, argc, argv, &n) < 0)
		return -1;
	return explorer_stepi(x, n);
}

static const struct xcmd stepi_cmd = {
	.name = "stepi", .aliases = "si", .usage = "stepi [N]",
	.summary = "simulate until N more instructions have committed (default 1)",
	.help = "Up to commit-width instructions commit per cycle, so the count may overshoot\n"
		"by a few: stepi stops at the end of the cycle that reaches it.",
	.flags = XCMD_REPEAT, .exec = stepi_exec,
};
XCMD_REGISTER(stepi_cmd);

static int continue_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	unsigned long long n;
	if (xcmd_count_arg(x, argc, argv, &n) < 0)
		return -1;
	return explorer_continue(x, n);
}

static const struct xcmd continue_cmd = {
	.name = "continue", .aliases = "c fg", .usage = "continue [N]",
	.summary = "run until a breakpoint or catchpoint hits, the program ends, or Ctrl-C",
	.help = "With N, the breakpoint that stopped the program is ignored N-1 more times.",
	.flags = XCMD_REPEAT, .exec = continue_exec,
};
XCMD_REGISTER(continue_cmd);

static int until_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	uint64_t addr;
	if (!*args)
		return explorer_error(x, "usage: %s LOCATION", argv[0]);
	if (explorer_parse_addr(x, args, &addr) < 0 || xcmd_check_code_address(x, addr) < 0)
		return -1;   /* (an address no instruction has would run to the end) */
	return explorer_until(x, addr);
}

static const struct xcmd until_cmd = {
	.name = "until", .aliases = "u", .usage = "until LOCATION",
	.summary = "run until an instruction at LOCATION reaches the break stage",
	.help = "LOCATION is *ADDR, SYMBOL or SYMBOL+OFF. Breakpoints still stop the run on the way.",
	.complete = XC_SYMBOL, .exec = until_exec,
};
XCMD_REGISTER(until_cmd);

static const struct xcmd advance_cmd = {
	.name = "advance", .usage = "advance LOCATION",
	.summary = "the same as until LOCATION",
	.complete = XC_SYMBOL, .exec = until_exec,
};
XCMD_REGISTER(advance_cmd);
