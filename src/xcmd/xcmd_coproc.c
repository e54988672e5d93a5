/*
 * xcmd_coproc.c — `coproc`: load a profiling program into the explorer's
 * co-processor, change its settings or switch it off; each restarts the
 * run (the co-processor watches a run from its first cycle).
 *
 *   coproc load NAME|FILE    a shipped program (value, edge, ...) or a .s file
 *   coproc set KEY=VALUE     buffer, cam, clock_div, policy, ... (ivx coproc --help)
 *   coproc off
 */
#include <stdio.h>
#include <string.h>
#include "cli/coproc_load.h"
#include "explorer/explorer.h"
#include "explorer/inst_coproc.h"
#include "explorer/instrument.h"
#include "xcmd.h"

static int restart(struct explorer *x, const char *what)
{
	if (explorer_restart(x) < 0)
		return -1;
	explorer_printf(x, "%s; restarted at cycle 0.\n", what);
	return 0;
}

static int coproc_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	struct xcoproc *xc = explorer_instrument(x, "coproc");
	if (!xc)
		return explorer_error(x, "coproc: no co-processor instrument");
	if (argc == 1)
		return explorer_error(x, "usage: coproc load NAME|FILE | coproc set KEY=VALUE | coproc off "
				      "(info coproc shows it)");
	struct ivx_err err = { 0 };
	char msg[400];
	if (!strcmp(argv[1], "load") && argc == 3) {
		static struct coproc_prog prog;
		char path[256];
		if (coproc_load_program(argv[2], &prog, path, sizeof path, &err) < 0)
			return explorer_error(x, "%s", err.msg);
		if (xcoproc_set_program(xc, &prog, path, &err) < 0)
			return explorer_error(x, "%s (the co-processor is as it was)", err.msg);
		snprintf(msg, sizeof msg, "Co-processor program %s loaded from %s", prog.name, path);
		return restart(x, msg);
	}
	if (!strcmp(argv[1], "set") && argc == 3) {
		if (xcoproc_configure(xc, argv[2], &err) < 0)
			return explorer_error(x, "%s (the co-processor is as it was)", err.msg);
		snprintf(msg, sizeof msg, "Co-processor %s", argv[2]);
		return restart(x, msg);
	}
	if (!strcmp(argv[1], "off") && argc == 2) {
		if (!xcoproc_has_program(xc)) {   /* (nothing to stop: keep the run where it is) */
			explorer_printf(x, "The co-processor is off already.\n");
			return 0;
		}
		xcoproc_set_program(xc, NULL, NULL, &err);
		return restart(x, "Co-processor off");
	}
	return explorer_error(x, "usage: coproc load NAME|FILE | coproc set KEY=VALUE | coproc off");
}

/* Tab after `coproc set`: each key with its '=' (the command takes KEY=VALUE). */
static const char *key_word(const char *first, int i)
{
	static char buf[64];
	const char *key = coproc_config_key(i);
	if (!key)
		return NULL;
	snprintf(buf, sizeof buf, "%s=", key);
	return buf;
}

static const char *program_word(const char *first, int i)
{
	return coproc_shipped_name(i);
}

static const struct xcmd_then coproc_then[] = {
	{ .after = "load", .word_at = program_word, .complete = XC_FILE },
	{ .after = "set", .word_at = key_word },
	{ 0 },
};

static const struct xcmd coproc_cmd = {
	.name = "coproc",
	.flags = XCMD_NO_RUN,
	.usage = "coproc load NAME|FILE | set KEY=VALUE | off",
	.summary = "load a profiling program into the co-processor (" COPROC_SHIPPED ", FILE), set it, or switch it off",
	.help = "Each restarts the run. `info coproc` shows the co-processor, the coproc pane its slots;\n"
		"`catch coproc-interrupt` stops when its microcode interrupts the main processor.",
	.words = "load set off",
	.then = coproc_then,
	.exec = coproc_exec,
};
XCMD_REGISTER(coproc_cmd);
