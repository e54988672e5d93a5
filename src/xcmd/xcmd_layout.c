/*
 * xcmd_layout.c — the screen: layout NAME, focus PANE|next, zoom, refresh.
 * In batch mode they change what `show screen` prints.
 */
#include <string.h>
#include "explorer/explorer.h"
#include "layout.h"
#include "pane.h"
#include "ui_state.h"
#include "xcmd.h"

static int layout_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	if (argc == 1) {
		explorer_printf(x, "Current layout: %s. Layouts:\n", ui_layout_name(x->ui));
		for (int i = 0; i < layout_count(); i++)
			explorer_printf(x, "  %-10s %s\n", layout_at(i)->name, layout_at(i)->summary);
		explorer_printf(x, "or a pane name for that pane alone:");
		for (int i = 0; i < pane_class_count(); i++)
			explorer_printf(x, " %s", pane_class_at(i)->name);
		explorer_printf(x, "\n");
		return 0;
	}
	if (argc != 2)
		return explorer_error(x, "usage: layout NAME");
	if (ui_set_layout(x->ui, argv[1]) < 0)
		return explorer_error(x, "no layout or pane \"%s\" (type `layout` for the list)", argv[1]);
	explorer_state_changed(x);
	return 0;
}

static const struct xcmd layout_cmd = {
	.name = "layout", .usage = "layout [NAME]",
	.flags = XCMD_NO_RUN,
	.summary = "switch the screen layout (no NAME: list them)",
	.help = "Layouts: default rob timeline fmt cpi code annotate, or a pane name to show it alone.\n"
		"Panes that do not fit the terminal are dropped, least important first.",
	.complete = XC_LAYOUT, .exec = layout_exec,
};
XCMD_REGISTER(layout_cmd);

static int focus_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	if (argc != 2)
		return explorer_error(x, "usage: focus PANE|next");
	if (!strcmp(argv[1], "next"))
		ui_focus_next(x->ui, x->screen_w, x->screen_h);
	else if (ui_set_focus(x->ui, argv[1]) < 0)
		return explorer_error(x, "no pane \"%s\"", argv[1]);
	explorer_state_changed(x);
	return 0;
}

static const struct xcmd focus_cmd = {
	.name = "focus", .aliases = "fs", .usage = "focus PANE|next",
	.flags = XCMD_NO_RUN,
	.summary = "give a pane the focus: PgUp/PgDn scroll it, Ctrl-X KEY and F2 go to it",
	.complete = XC_PANE, .exec = focus_exec,
};
XCMD_REGISTER(focus_cmd);

static int zoom_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	if (argc == 2 && ui_set_focus(x->ui, argv[1]) < 0)
		return explorer_error(x, "no pane \"%s\"", argv[1]);
	if (argc > 2)
		return explorer_error(x, "usage: zoom [PANE]");
	if (argc == 2 && ui_zoomed(x->ui))
		ui_toggle_zoom(x->ui);
	ui_toggle_zoom(x->ui);
	explorer_state_changed(x);
	return 0;
}

static const struct xcmd zoom_cmd = {
	.name = "zoom", .usage = "zoom [PANE]",
	.flags = XCMD_NO_RUN,
	.summary = "show the focused pane (or PANE) full screen; again to go back",
	.complete = XC_PANE, .exec = zoom_exec,
};
XCMD_REGISTER(zoom_cmd);

static int refresh_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	if (argc > 1)
		return explorer_error(x, "refresh takes no arguments");
	x->redraw_all = 1;
	explorer_state_changed(x);
	return 0;
}

static const struct xcmd refresh_cmd = {
	.name = "refresh", .usage = "refresh",
	.flags = XCMD_NO_RUN,
	.summary = "redraw the whole screen (also Ctrl-L)",
	.exec = refresh_exec,
};
XCMD_REGISTER(refresh_cmd);
