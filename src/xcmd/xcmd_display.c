/*
 * xcmd_display.c — gdb's `display[/FMT] EXPR` (printed after every stop;
 * without EXPR: print them all now) and `undisplay [N...]`
 * (src/explorer/inst_display.c).
 */
#include <stdlib.h>
#include <string.h>
#include "explorer/explorer.h"
#include "explorer/inst_display.h"
#include "xcmd.h"

static int display_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	const char *slash = strchr(argv[0], '/');
	char fmt = slash ? slash[1] : 0;
	if (slash && (!fmt || slash[2] || !strchr("xdu", fmt)))
		return explorer_error(x, "display/FMT: FMT is one of x (hex), d (signed), u (unsigned)");
	if (!*args) {
		if (!xdisplay_count(x))
			explorer_printf(x, "No displays: `display EXPR` adds one.\n");
		xdisplay_show(x);
		return 0;
	}
	return xdisplay_add(x, args, fmt);
}

static const struct xcmd display_cmd = {
	.name = "display", .usage = "display[/FMT] [EXPR]", .flags = XCMD_FORMAT,
	.summary = "print EXPR now and after every stop (no EXPR: print them all)",
	.help =
	"As gdb's display: numbered, printed after each step, continue or reverse\n"
	"motion, until `undisplay N`. FMT: x, d, u as for print. For example\n"
	"`display insns * 1.0 / cycle` (the IPC so far) or `display/x x0`.",
	.complete = XC_EXPR, .exec = display_exec,
};
XCMD_REGISTER(display_cmd);

static int undisplay_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	if (argc == 1)
		return xdisplay_delete(x, -1);
	for (int i = 1; i < argc; i++) {
		unsigned long long n;
		if (xcmd_parse_count(x, argv[i], &n) < 0)
			return -1;
		if (xdisplay_delete(x, n > 1000000 ? 1000000 : (int)n) < 0)
			return -1;
	}
	return 0;
}

static const struct xcmd undisplay_cmd = {
	.name = "undisplay", .usage = "undisplay [N...]",
	.summary = "delete displays (all without N)",
	.exec = undisplay_exec,
};
XCMD_REGISTER(undisplay_cmd);
