/*
 * xcmd_help.c — help [COMMAND]: generated from the command table.
 */
#include <string.h>
#include "explorer/explorer.h"
#include "xcmd.h"

static int help_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	if (argc == 1) {
		explorer_printf(x, "Commands (unique prefixes work; Enter repeats a stepping command):\n");
		for (int i = 0; i < xcmd_count(); i++) {
			const struct xcmd *c = xcmd_at(i);
			char al[48] = "";
			if (c->aliases)
				snprintf(al, sizeof al, " (%s)", c->aliases);
			explorer_printf(x, "  %-18s %s%s\n", c->name, c->summary, al);
		}
		explorer_printf(x, "Keys: Tab completes, Up/Down history, PgUp/PgDn scroll the focused pane,\n"
				   "Shift-PgUp/PgDn or Ctrl-X PgUp/PgDn the console, F4 a taller console\n"
				   "(`set console-lines N`), Ctrl-X o next pane, Ctrl-X z zoom, F2 or Ctrl-X v\n"
				   "alternate view (FMT/sFMT, timeline zoom), Ctrl-L redraw, Ctrl-C interrupts a\n"
				   "run. Output longer than the console shows from its top. `help COMMAND` for details.\n");
		return 0;
	}
	char err[200];
	const struct xcmd *c = xcmd_lookup(argv[1], err, sizeof err);
	if (!c)
		return explorer_error(x, "%s", err);
	if (argc == 3 && !strcmp(c->name, "info"))
		return xcmd_info_help(x, argv[2]);
	if (argc > 2)
		return explorer_error(x, "usage: help [COMMAND], or help info TOPIC");
	explorer_printf(x, "usage: %s\n%s.\n", c->usage, c->summary);
	if (c->aliases)
		explorer_printf(x, "Aliases: %s\n", c->aliases);
	const char *more = c->help_fn ? c->help_fn() : c->help;
	if (more)
		explorer_printf(x, "%s\n", more);
	return 0;
}

static const char *topic_word(const char *first, int i)
{
	return xcmd_info_topic_name(i);
}

static const struct xcmd_then help_then[] = {
	{ .after = "info", .word_at = topic_word },   /* help info TOPIC */
	{ .after = "i", .word_at = topic_word },
	{ 0 },
};

static const struct xcmd help_cmd = {
	.name = "help", .aliases = "h", .usage = "help [COMMAND | info TOPIC]",
	.flags = XCMD_NO_RUN,
	.summary = "list the commands, or describe one",
	.complete = XC_COMMAND, .then = help_then, .exec = help_exec,
};
XCMD_REGISTER(help_cmd);
