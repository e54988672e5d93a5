/*
 * pane_console.c — the console: what commands printed, the newest line at
 * the bottom, just above the command line; long lines wrap. PgUp/PgDn
 * scroll back by lines of output.
 */
#include <stdio.h>
#include <string.h>
#include "explorer/explorer.h"
#include "pane.h"
#include "textbuf.h"
#include "ui_state.h"

/* Characters in a UTF-8 string (continuation bytes do not count). */
static int chars(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The byte offset of character k. */
static const char *at_char(const char *s, int k)
{
	while (*s && k > 0) {
		s++;
		while (((unsigned char)*s & 0xc0) == 0x80)
			s++;
		k--;
	}
	return s;
}

static void console_render(struct pane *p, struct explorer *x, struct textbuf *tb)
{
	int n = ui_console_count(x->ui);
	if (p->scroll > n - 1)
		p->scroll = n > 0 ? n - 1 : 0;
	int w = tb->w > 0 ? tb->w : 1;
	int row = tb->h - 1;
	for (int i = p->scroll; row >= 0 && i < n; i++) {
		int attr;
		const char *line = ui_console_line(x->ui, i, &attr);
		int len = chars(line);
		int parts = len ? (len + w - 1) / w : 1;
		/* the line's last part goes on `row`, earlier parts above it */
		for (int k = parts - 1; k >= 0 && row >= 0; k--, row--)
			tb_putsn(tb, 0, row, attr, at_char(line, k * w), w);
	}
}

static void console_status(struct pane *p, struct explorer *x, char *buf, size_t n)
{
	snprintf(buf, n, "%s", p->scroll ? "more below: Shift-PgDn or Ctrl-X PgDn; F4 a taller console" : "");
}

static const struct pane_class pane_console = {
	.name = "console", .title = "Console",
	.summary = "command output",
	.min_w = 10, .min_h = 2, .batch_h = 10,
	.render = console_render, .status = console_status,
};
PANE_REGISTER(pane_console);
