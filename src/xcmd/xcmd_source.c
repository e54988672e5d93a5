/*
 * xcmd_source.c — source FILE (run a command file, stopping at its first
 * error) and echo TEXT (print a line, for scripts and handouts).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "base/file.h"
#include "explorer/explorer.h"
#include "xcmd.h"

#define MAX_DEPTH 8

/* An error in FILE leaves x->err naming FILE's line (xcmd_run_script); the
 * script that sourced it adds where, so the user sees one line. */
static int source_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	if (!*args)
		return explorer_error(x, "usage: source FILE");
	if (x->source_depth >= MAX_DEPTH)
		return explorer_error(x, "source: nested too deeply (more than %d files)", MAX_DEPTH);
	struct ivx_err err = { 0 };
	FILE *f = ivx_fopen_input(args, &err);
	if (!f)
		return explorer_error(x, "%s", err.msg);
	x->source_depth++;
	int rc = xcmd_run_script(x, f, args);
	x->source_depth--;
	fclose(f);
	return rc;
}

static const struct xcmd source_cmd = {
	.name = "source", .usage = "source FILE",
	.flags = XCMD_NO_RUN,
	.summary = "run the commands in FILE (stops at the first error)",
	.complete = XC_FILE, .exec = source_exec,
};
XCMD_REGISTER(source_cmd);

static int echo_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	explorer_printf(x, "%s\n", args);
	return 0;
}

static const struct xcmd echo_cmd = {
	.name = "echo", .usage = "echo TEXT",
	.flags = XCMD_NO_RUN,
	.summary = "print TEXT",
	.exec = echo_exec,
};
XCMD_REGISTER(echo_cmd);
