/*
 * xcmd_coproc.c — `coproc`: load a profiling program into the explorer's
 * co-processor, change its settings or switch it off; each restarts the
 * run (the co-processor watches a run from its first cycle), but for a
 * setting with no program loaded, which waits for `coproc load`.
 *
 *   coproc, coproc set       the program and every setting, one a line
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
	const char *with;
	if (explorer_restart_noting(x, &with) < 0)
		return -1;
	explorer_printf(x, "%s; restarted at cycle 0%s.\n", what, with);
	return 0;
}

/* `coproc`, `coproc set`: the program, then every key with its value,
 * one a line; where the running co-processor differs (a program's .param
 * raised a size), its value too. */
static void list_settings(struct explorer *x, const struct xcoproc *xc)
{
	const struct coproc *cp = xcoproc_engine(xc);
	if (cp)
		explorer_printf(x, "%-16s %s (%s)\n", "program", coproc_program(cp)->name, xcoproc_path(xc));
	else if (xcoproc_path(xc))   /* (loaded, but the last restart failed) */
		explorer_printf(x, "%-16s %s\n", "program", xcoproc_path(xc));
	else
		explorer_printf(x, "%-16s none (coproc load NAME|FILE; shipped: " COPROC_SHIPPED ")\n", "program");
	for (int i = 0; coproc_config_key(i); i++) {
		char set[32], running[32];
		coproc_config_get(xcoproc_config(xc), i, set, sizeof set);
		explorer_printf(x, "%-16s %s", coproc_config_key(i), set);
		if (cp && coproc_config_get(coproc_cfg(cp), i, running, sizeof running) == 0 && strcmp(set, running))
			explorer_printf(x, " (running: %s, as the program asks)", running);
		explorer_printf(x, "\n");
	}
}

static int coproc_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	struct xcoproc *xc = explorer_instrument(x, "coproc");
	if (!xc)
		return explorer_error(x, "coproc: no co-processor instrument");
	if (argc == 1 || (argc == 2 && !strcmp(argv[1], "set"))) {
		list_settings(x, xc);
		return 0;
	}
	struct ivx_err err = { 0 };
	char msg[400];
	if (!strcmp(argv[1], "load") && argc == 3) {
		static struct coproc_prog prog;
		char path[4096], shown[256];
		if (coproc_load_program(argv[2], &prog, path, sizeof path, &err) < 0)
			return explorer_error(x, "%s", err.msg);
		coproc_load_shown(argv[2], path, shown, sizeof shown);
		if (xcoproc_set_program(xc, &prog, shown, &err) < 0)
			return explorer_error(x, "%s (the co-processor is as it was)", err.msg);
		snprintf(msg, sizeof msg, "Co-processor program %s loaded from %s", prog.name, shown);
		return restart(x, msg);
	}
	if (!strcmp(argv[1], "set") && argc == 3) {
		struct coproc_config before = *xcoproc_config(xc), running_before, running_after;
		xcoproc_running_config(xc, &running_before);
		if (xcoproc_configure(xc, argv[2], &err) < 0)
			return explorer_error(x, "%s (the co-processor is as it was)", err.msg);
		if (!memcmp(&before, xcoproc_config(xc), sizeof before)) {   /* (nothing changed: keep the run) */
			explorer_printf(x, "Co-processor %s already.\n", argv[2]);
			return 0;
		}
		if (!xcoproc_has_program(xc)) {   /* (no co-processor runs: keep the run, as sampling does) */
			explorer_printf(x, "Co-processor %s (for the next `coproc load`).\n", argv[2]);
			return 0;
		}
		xcoproc_running_config(xc, &running_after);
		if (!memcmp(&running_before, &running_after, sizeof running_after)) {
			/* (below what the program's .param asks for: it runs as it did) */
			explorer_printf(x, "Co-processor %s; the program raises it, so the run is unchanged "
					"(`coproc` lists what runs).\n", argv[2]);
			return 0;
		}
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
	{ .after = "set", .word_at = key_word, .value_at = coproc_config_value_word },   /* policy=stall */
	{ 0 },
};

static const struct xcmd coproc_cmd = {
	.name = "coproc",
	.flags = XCMD_NO_RUN,
	.usage = "coproc [load NAME|FILE | set [KEY=VALUE] | off]",
	.summary = "load a profiling program into the co-processor (" COPROC_SHIPPED ", FILE), list or change its settings, or switch it off",
	.help = "load, set KEY=VALUE (with a program loaded) and off restart the run.\n"
		"`coproc` or `coproc set` alone lists the program and every setting with its\n"
		"value (`ivx coproc --help` says what each is). `info coproc` shows the\n"
		"co-processor, the coproc pane its slots; `catch coproc-interrupt` stops when\n"
		"its microcode interrupts the main processor.",
	.words = "load set off",
	.then = coproc_then,
	.exec = coproc_exec,
};
XCMD_REGISTER(coproc_cmd);
