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

#define MAX_PARTS 1024

static int blank_at(const char *line, int k)
{
	return *at_char(line, k) == ' ';
}

/* Where the rows of a line of len characters wrapped at w begin, and how
 * long each is: a row ends at a blank rather than inside a word, as long
 * as that keeps at least half of it ("samples," / " frequency" read badly
 * cut). The number of rows. */
static int wrap(const char *line, int len, int w, int *start, int *count)
{
	int n = 0, pos = 0;
	while (n < MAX_PARTS) {
		start[n] = pos;
		if (len - pos <= w) {
			count[n++] = len - pos;
			break;
		}
		int cut = w;
		if (!blank_at(line, pos + cut) && !blank_at(line, pos + cut - 1))
			for (int b = w - 1; b > w / 2; b--)
				if (blank_at(line, pos + b)) {
					cut = b + 1;   /* (the blank ends this row) */
					break;
				}
		count[n++] = cut;
		pos += cut + blank_at(line, pos + cut);   /* (a blank at the break starts no row) */
	}
	return n;
}

static void console_render(struct pane *p, struct explorer *x, struct textbuf *tb)
{
	int n = ui_console_count(x->ui);
	if (p->scroll > n - 1)
		p->scroll = n > 0 ? n - 1 : 0;
	int w = tb->w > 0 ? tb->w : 1;
	int row = tb->h - 1;
	static int start[MAX_PARTS], count[MAX_PARTS];
	for (int i = p->scroll; row >= 0 && i < n; i++) {
		int attr;
		const char *line = ui_console_line(x->ui, i, &attr);
		int parts = wrap(line, chars(line), w, start, count);
		/* the line's last part goes on `row`, earlier parts above it */
		for (int k = parts - 1; k >= 0 && row >= 0; k--, row--)
			tb_putsn(tb, 0, row, attr, at_char(line, start[k]), count[k]);
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
