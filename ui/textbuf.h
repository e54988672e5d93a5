/*
 * textbuf.h — a plain grid of character cells with an attribute each: what
 * every explorer pane renders into.
 *
 * Panes never talk to curses. They fill a textbuf; the screen (screen.c)
 * copies it to the terminal, and batch mode (`show rob`) prints it as text.
 * So a pane is testable and printable without a terminal, and golden files
 * compare what the student would see.
 *
 * Attributes are semantic (TB_HEAD, TB_MISS, ...), not colours: the screen
 * maps them to colour pairs or, without colour, to bold/reverse/underline.
 * Line-drawing and bar glyphs come from tb_glyph(), which answers in UTF-8
 * box drawing or in ASCII depending on how the buffer was created.
 */
#ifndef IVX_TEXTBUF_H
#define IVX_TEXTBUF_H

#include <stdio.h>
#include <wchar.h>

enum tb_attr {
	TB_NORMAL,
	TB_DIM,        /* secondary information */
	TB_BOLD,       /* emphasis */
	TB_TITLE,      /* pane title bar */
	TB_TITLE_FOCUS,/* title bar of the focused pane */
	TB_HEAD,       /* the ROB head / current instruction */
	TB_HILITE,     /* what the last stop was about (event, instruction) */
	TB_MISS,       /* a miss in progress, errors */
	TB_WARN,       /* stalls, wrong path */
	TB_GOOD,       /* done, committed */
	TB_INFO,       /* issued / executing */
	TB_BAR0,       /* stacked-bar components; TB_BAR0 + i for i < TB_NBARS */
	TB_NBARS = 10,
	TB_ATTR_COUNT = TB_BAR0 + TB_NBARS
};

enum tb_glyph {
	G_HLINE, G_VLINE, G_CROSS, G_TEE_DOWN, G_TEE_UP,
	G_BLOCK_FULL,      /* a full cell of a bar */
	G_SHADE,           /* empty part of a gauge */
	G_ARROW_RIGHT,     /* pointer into a row */
	G_BULLET,          /* an event marker */
	G_SPAN,            /* the body of a miss span on the timeline */
	G_SPAN_BEGIN, G_SPAN_END,
	G_ELLIPSIS,
	G_COUNT
};

struct tb_cell {
	wchar_t ch;             /* TB_WIDE_TAIL: the right half of the wide character before it */
	unsigned char attr;     /* enum tb_attr */
};
#define TB_WIDE_TAIL L'\0'

struct textbuf {
	int w, h;
	int ascii;              /* use ASCII glyphs instead of UTF-8 drawing */
	struct tb_cell *cells;  /* w * h, row major */
};

/* A blank w x h buffer. NULL when out of memory. */
struct textbuf *tb_new(int w, int h, int ascii);
void tb_free(struct textbuf *tb);
/* Change the size; contents become blank. 0 or -1. */
int tb_resize(struct textbuf *tb, int w, int h);
void tb_clear(struct textbuf *tb);

/* The glyph for `g` in this buffer's character set. */
wchar_t tb_glyph(const struct textbuf *tb, int g);
/* Vertical eighths for bar charts: level 0..8 -> ' ' .. full block
 * (ASCII: ' ', '.', ':', '#'). */
wchar_t tb_vbar(const struct textbuf *tb, int eighths);

/* Write text at (x, y), clipped to the buffer; multibyte UTF-8 input.
 * Returns the column after the last cell written (x + columns). */
int tb_puts(struct textbuf *tb, int x, int y, int attr, const char *s);
int tb_printf(struct textbuf *tb, int x, int y, int attr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Write at most `maxw` columns. */
int tb_putsn(struct textbuf *tb, int x, int y, int attr, const char *s, int maxw);
/* A location ("name+0x2c") up to the buffer's edge, less the room of
 * `tail` (may be NULL), which follows it whole: when it does not fit, the name gives way
 * ("nam~+0x2c"), never the offset, since a cut offset reads as another
 * one. Returns the column after it. */
int tb_put_location(struct textbuf *tb, int x, int y, int attr, const char *s, const char *tail);
/* The same shortening into out, for a column of `width` characters. */
void tb_fit_location(const char *s, int width, char *out, size_t n);
void tb_putc(struct textbuf *tb, int x, int y, int attr, wchar_t ch);
/* How a character is drawn: *ch itself in its columns (a CJK character or
 * an emoji takes two), or one '?' for what has no width of its own (a
 * control or combining character). Returns the columns. Panes and the
 * command line both draw this way. */
int tb_drawn_as(wchar_t *ch);

/* What cell (x, y) shows: its character; TB_WIDE_TAIL for the right half
 * of a wide one (nothing to draw); a blank for half of a wide character
 * whose other half was written over. */
wchar_t tb_shown(const struct textbuf *tb, int x, int y);
void tb_fill(struct textbuf *tb, int x, int y, int n, wchar_t ch, int attr);
/* Change the attribute of n cells (keeping their characters). */
void tb_set_attr(struct textbuf *tb, int x, int y, int n, int attr);
/* Copy src into dst at (x, y), clipped. */
void tb_blit(struct textbuf *dst, int x, int y, const struct textbuf *src);

/* Print rows [0, h) as text lines (UTF-8 or ASCII as the buffer's glyphs),
 * trailing blanks removed from each line; with trim_bottom, trailing blank
 * lines are not printed. */
void tb_print(const struct textbuf *tb, FILE *out, int trim_bottom);

#endif
