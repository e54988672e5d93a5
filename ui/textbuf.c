/*
 * textbuf.c — the cell grid panes render into (see textbuf.h).
 *
 * Text is taken as UTF-8 and decoded here rather than with mbrtowc, so a
 * pane renders the same under any locale; every character is one column
 * (pane contents are ASCII plus our own drawing glyphs).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include "textbuf.h"

struct textbuf *tb_new(int w, int h, int ascii)
{
	struct textbuf *tb = calloc(1, sizeof *tb);
	if (!tb)
		return NULL;
	tb->ascii = ascii;
	if (tb_resize(tb, w, h) < 0) {
		free(tb);
		return NULL;
	}
	return tb;
}

void tb_free(struct textbuf *tb)
{
	if (!tb)
		return;
	free(tb->cells);
	free(tb);
}

int tb_resize(struct textbuf *tb, int w, int h)
{
	if (w < 0)
		w = 0;
	if (h < 0)
		h = 0;
	size_t n = (size_t)w * (size_t)h;
	struct tb_cell *c = malloc((n ? n : 1) * sizeof *c);
	if (!c)
		return -1;
	free(tb->cells);
	tb->cells = c;
	tb->w = w;
	tb->h = h;
	tb_clear(tb);
	return 0;
}

void tb_clear(struct textbuf *tb)
{
	size_t n = (size_t)tb->w * (size_t)tb->h;
	for (size_t i = 0; i < n; i++) {
		tb->cells[i].ch = L' ';
		tb->cells[i].attr = TB_NORMAL;
	}
}

static const wchar_t glyph_utf8[G_COUNT] = {
	[G_HLINE] = 0x2500, [G_VLINE] = 0x2502, [G_CROSS] = 0x253c,
	[G_TEE_DOWN] = 0x252c, [G_TEE_UP] = 0x2534,
	[G_BLOCK_FULL] = 0x2588, [G_SHADE] = 0x2591, [G_ARROW_RIGHT] = 0x25b6,
	[G_BULLET] = 0x25cf, [G_SPAN] = 0x2550, [G_SPAN_BEGIN] = 0x255e,
	[G_SPAN_END] = 0x2561, [G_ELLIPSIS] = 0x22ee,
};
static const wchar_t glyph_ascii[G_COUNT] = {
	[G_HLINE] = '-', [G_VLINE] = '|', [G_CROSS] = '+',
	[G_TEE_DOWN] = '+', [G_TEE_UP] = '+',
	[G_BLOCK_FULL] = '#', [G_SHADE] = '.', [G_ARROW_RIGHT] = '>',
	[G_BULLET] = '*', [G_SPAN] = '=', [G_SPAN_BEGIN] = '[',
	[G_SPAN_END] = ']', [G_ELLIPSIS] = ':',
};

wchar_t tb_glyph(const struct textbuf *tb, int g)
{
	if (g < 0 || g >= G_COUNT)
		return L'?';
	return tb->ascii ? glyph_ascii[g] : glyph_utf8[g];
}

wchar_t tb_vbar(const struct textbuf *tb, int eighths)
{
	if (eighths <= 0)
		return L' ';
	if (eighths > 8)
		eighths = 8;
	if (tb->ascii)
		return eighths >= 8 ? L'#' : eighths >= 4 ? L':' : L'.';
	return (wchar_t)(0x2580 + eighths);   /* U+2581 .. U+2588 */
}

/* Decode one UTF-8 character; bad bytes come out as '?'. */
static const char *utf8_next(const char *s, wchar_t *out)
{
	const unsigned char *p = (const unsigned char *)s;
	if (p[0] < 0x80) {
		*out = p[0];
		return s + 1;
	}
	int n = p[0] >= 0xf0 ? 3 : p[0] >= 0xe0 ? 2 : p[0] >= 0xc0 ? 1 : -1;
	if (n < 0) {
		*out = L'?';
		return s + 1;
	}
	uint32_t v = p[0] & (0x3f >> n);
	for (int i = 1; i <= n; i++) {
		if ((p[i] & 0xc0) != 0x80) {
			*out = L'?';
			return s + i;
		}
		v = v << 6 | (p[i] & 0x3f);
	}
	*out = (wchar_t)v;
	return s + n + 1;
}

void tb_putc(struct textbuf *tb, int x, int y, int attr, wchar_t ch)
{
	if (x < 0 || y < 0 || x >= tb->w || y >= tb->h)
		return;
	struct tb_cell *c = &tb->cells[(size_t)y * tb->w + x];
	c->ch = ch;
	c->attr = (unsigned char)attr;
}

int tb_putsn(struct textbuf *tb, int x, int y, int attr, const char *s, int maxw)
{
	while (*s && maxw > 0) {
		wchar_t ch;
		s = utf8_next(s, &ch);
		if (ch == L'\t')
			ch = L' ';
		if (ch < 32)
			continue;
		/* (a wide character's right half is a TB_WIDE_TAIL cell) */
		int w = tb_drawn_as(&ch);
		if (w > maxw) {
			tb_putc(tb, x++, y, attr, L' ');   /* half a character would not fit */
			break;
		}
		tb_putc(tb, x, y, attr, ch);
		if (w == 2)
			tb_putc(tb, x + 1, y, attr, TB_WIDE_TAIL);
		x += w;
		maxw -= w;
	}
	return x;
}

int tb_puts(struct textbuf *tb, int x, int y, int attr, const char *s)
{
	return tb_putsn(tb, x, y, attr, s, tb->w - x);
}

void tb_fit_location(const char *s, int width, char *out, size_t n)
{
	int len = (int)strlen(s);
	const char *plus = strrchr(s, '+');
	int off = plus ? (int)strlen(plus) : 0;
	int keep = width - off - 1;   /* the name's part, then '~' */
	if (len <= width || width <= 0)
		snprintf(out, n, "%s", s);
	else if (!plus || keep < 1)
		snprintf(out, n, "%.*s", width, s);
	else
		snprintf(out, n, "%.*s~%s", keep, s, plus);
}

int tb_put_location(struct textbuf *tb, int x, int y, int attr, const char *s, const char *tail)
{
	char fit[256];
	tb_fit_location(s, tb->w - x - (tail ? (int)strlen(tail) : 0), fit, sizeof fit);
	x = tb_puts(tb, x, y, attr, fit);
	return tail ? tb_puts(tb, x, y, attr, tail) : x;
}

int tb_printf(struct textbuf *tb, int x, int y, int attr, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return tb_puts(tb, x, y, attr, buf);
}

void tb_fill(struct textbuf *tb, int x, int y, int n, wchar_t ch, int attr)
{
	for (int i = 0; i < n; i++)
		tb_putc(tb, x + i, y, attr, ch);
}

void tb_set_attr(struct textbuf *tb, int x, int y, int n, int attr)
{
	if (y < 0 || y >= tb->h)
		return;
	for (int i = x < 0 ? 0 : x; i < x + n && i < tb->w; i++)
		tb->cells[(size_t)y * tb->w + i].attr = (unsigned char)attr;
}

void tb_blit(struct textbuf *dst, int x, int y, const struct textbuf *src)
{
	for (int r = 0; r < src->h; r++) {
		int dy = y + r;
		if (dy < 0 || dy >= dst->h)
			continue;
		for (int c = 0; c < src->w; c++) {
			int dx = x + c;
			if (dx < 0 || dx >= dst->w)
				continue;
			dst->cells[(size_t)dy * dst->w + dx] = src->cells[(size_t)r * src->w + c];
		}
	}
}

int tb_drawn_as(wchar_t *ch)
{
	int w = wcwidth(*ch);
	if (w > 0)
		return w;
	*ch = L'?';
	return 1;
}

wchar_t tb_shown(const struct textbuf *tb, int x, int y)
{
	const struct tb_cell *row = &tb->cells[(size_t)y * tb->w];
	int head = x + 1 < tb->w && row[x + 1].ch == TB_WIDE_TAIL;
	if (row[x].ch == TB_WIDE_TAIL)   /* a tail whose head was overwritten: blank */
		return x > 0 && wcwidth(row[x - 1].ch) == 2 ? TB_WIDE_TAIL : L' ';
	if (wcwidth(row[x].ch) == 2 && !head)   /* a head whose tail was overwritten */
		return L' ';
	return row[x].ch;
}

static void put_utf8(FILE *out, wchar_t ch)
{
	uint32_t v = (uint32_t)ch;
	if (v < 0x80) {
		fputc((int)v, out);
	} else if (v < 0x800) {
		fputc(0xc0 | (v >> 6), out);
		fputc(0x80 | (v & 0x3f), out);
	} else if (v < 0x10000) {
		fputc(0xe0 | (v >> 12), out);
		fputc(0x80 | ((v >> 6) & 0x3f), out);
		fputc(0x80 | (v & 0x3f), out);
	} else {
		fputc(0xf0 | (v >> 18), out);
		fputc(0x80 | ((v >> 12) & 0x3f), out);
		fputc(0x80 | ((v >> 6) & 0x3f), out);
		fputc(0x80 | (v & 0x3f), out);
	}
}

static int row_len(const struct textbuf *tb, int y)
{
	int n = tb->w;
	while (n > 0 && tb->cells[(size_t)y * tb->w + n - 1].ch == L' ')
		n--;
	return n;
}

void tb_print(const struct textbuf *tb, FILE *out, int trim_bottom)
{
	int rows = tb->h;
	if (trim_bottom)
		while (rows > 0 && row_len(tb, rows - 1) == 0)
			rows--;
	for (int y = 0; y < rows; y++) {
		int n = row_len(tb, y);
		for (int x = 0; x < n; x++) {
			wchar_t ch = tb_shown(tb, x, y);
			if (ch != TB_WIDE_TAIL)
				put_utf8(out, ch);
		}
		fputc('\n', out);
	}
}
