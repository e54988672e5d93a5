/*
 * xcmd_show.c — show PANE [ROWS] | show sfmt | show screen [W H] | show
 * SETTING: print a pane (or the whole screen) as plain text, exactly as the
 * explorer draws it, for handouts and golden tests.
 */
#include <stdlib.h>
#include <string.h>
#include "explorer/explorer.h"
#include "ui_state.h"
#include "xcmd.h"

static int number(struct explorer *x, const char *s, int lo, int hi, int *out)
{
	uint64_t v;
	if (xcmd_parse_uint(s, (uint64_t)hi, &v) < 0 || v < (uint64_t)lo)
		return explorer_error(x, "expected a number from %d to %d, got \"%s\"", lo, hi, s);
	*out = (int)v;
	return 0;
}

static int show_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	if (argc < 2)
		return explorer_error(x, "usage: show PANE [ROWS] | show screen [W H] | show SETTING");
	const char *name = argv[1];
	char *text = NULL;
	if (!strcmp(name, "screen")) {
		int w = x->set.width, h = x->set.height ? x->set.height : 40;
		if (argc != 2 && argc != 4)
			return explorer_error(x, "show screen takes no arguments or two (W H)");
		if (argc == 4 && (number(x, argv[2], 20, 1000, &w) < 0 || number(x, argv[3], 5, 1000, &h) < 0))
			return -1;
		text = ui_screen_text(x->ui, x, w, h, x->set.ascii);
	} else {
		int view;   /* `show fmt`: the first view, whatever F2 shows; `show sfmt` the second */
		struct pane *p = ui_pane_find_view(x->ui, name, &view);
		if (!p) {
			char val[64];
			if (xcmd_setting_text(x, name, val, sizeof val) < 0)
				return explorer_error(x, "no pane or setting \"%s\"", name);
			if (argc > 2)
				return explorer_error(x, "show %s takes no arguments", name);
			explorer_printf(x, "%s is %s\n", name, val);
			return 0;
		}
		if (argc > 3)
			return explorer_error(x, "show %s takes at most one argument (ROWS)", name);
		int rows = x->set.height ? x->set.height : p->cls->batch_h;
		if (argc >= 3 && number(x, argv[2], 1, 1000, &rows) < 0)
			return -1;
		int saved = p->view;
		p->view = view;
		text = ui_pane_text(x->ui, x, p, x->set.width, rows, x->set.ascii);
		p->view = saved;
	}
	if (!text)
		return explorer_error(x, "out of memory");
	explorer_write(x, XOUT_NORMAL, text);
	free(text);
	return 0;
}

static const struct xcmd show_cmd = {
	.name = "show", .usage = "show PANE [ROWS] | show sfmt|charges|code-misses|code-stalls | show screen [W H] | show SETTING",
	.summary = "print a pane, or the whole screen, as text (or a setting's value)",
	.help =
	"Panes: rob, timeline, fmt (sfmt: the shared-FMT view), cpistack, code,\n"
	"events (charges: with each accounting method's charge per event;\n"
	"code-misses, code-stalls: the code with miss events or stall cycles per\n"
	"instruction), console, and the instruments' panes: sampler, annotate,\n"
	"coproc and strat. The width is `set width` (default 100); the rows are\n"
	"the pane's own unless given or set with `set height`.",
	.complete = XC_SHOW, .exec = show_exec,
};
XCMD_REGISTER(show_cmd);
