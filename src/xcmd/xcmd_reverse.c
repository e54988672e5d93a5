/*
 * xcmd_reverse.c — backward motion on engine snapshots: reverse-step [N],
 * reverse-stepi [N], reverse-continue, and `goto CYCLE` (any cycle already
 * simulated). Each reaches exactly the state first seen at that cycle.
 */
#include "explorer/explorer.h"
#include "xcmd.h"

static int rstep_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	unsigned long long n;
	if (xcmd_count_arg(x, argc, argv, &n) < 0)
		return -1;
	return explorer_reverse_step(x, n);
}

static const struct xcmd rstep_cmd = {
	.name = "reverse-step", .aliases = "rs", .usage = "reverse-step [N]",
	.summary = "go back N cycles (default 1)",
	.flags = XCMD_REPEAT, .exec = rstep_exec,
};
XCMD_REGISTER(rstep_cmd);

static int rstepi_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	unsigned long long n;
	if (xcmd_count_arg(x, argc, argv, &n) < 0)
		return -1;
	return explorer_reverse_stepi(x, n);
}

static const struct xcmd rstepi_cmd = {
	.name = "reverse-stepi", .aliases = "rsi", .usage = "reverse-stepi [N]",
	.summary = "go back to the last cycle with at least N fewer instructions committed",
	.flags = XCMD_REPEAT, .exec = rstepi_exec,
};
XCMD_REGISTER(rstepi_cmd);

static int rcont_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	if (argc > 1)
		return explorer_error(x, "reverse-continue takes no arguments");
	return explorer_reverse_continue(x);
}

static const struct xcmd rcont_cmd = {
	.name = "reverse-continue", .aliases = "rc", .usage = "reverse-continue",
	.summary = "go back to the previous breakpoint or catchpoint hit (or cycle 0)",
	.flags = XCMD_REPEAT, .exec = rcont_exec,
};
XCMD_REGISTER(rcont_cmd);

static int goto_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	unsigned long long n;
	if (argc != 2)
		return explorer_error(x, "usage: goto CYCLE");
	if (argv[1][0] == '0' && !argv[1][1])
		n = 0;
	else if (xcmd_parse_count(x, argv[1], &n) < 0)
		return -1;
	return explorer_goto_cycle(x, n);
}

static const struct xcmd goto_cmd = {
	.name = "goto", .usage = "goto CYCLE",
	.summary = "go to any cycle already simulated (backwards or forwards)",
	.exec = goto_exec,
};
XCMD_REGISTER(goto_cmd);
