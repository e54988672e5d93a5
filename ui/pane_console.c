/*
 * pane_console.c — the console: what commands printed, the newest line at
 * the bottom, just above the command line. PgUp/PgDn scroll back.
 */
#include "explorer.h"
#include "pane.h"
#include "textbuf.h"
#include "ui_state.h"

static void console_render(struct pane *p, struct explorer *x, struct textbuf *tb)
{
	int n = ui_console_count(x->ui);
	if (p->scroll > n - tb->h)
		p->scroll = n - tb->h > 0 ? n - tb->h : 0;
	for (int row = tb->h - 1, i = p->scroll; row >= 0 && i < n; row--, i++) {
		int attr;
		const char *line = ui_console_line(x->ui, i, &attr);
		tb_puts(tb, 0, row, attr, line);
	}
}

static const struct pane_class pane_console = {
	.name = "console", .title = "Console",
	.summary = "command output",
	.min_w = 30, .min_h = 2, .batch_h = 10,
	.render = console_render,
};
PANE_REGISTER(pane_console);
