/*
 * svg.c — SVG basics and a text buffer as SVG text (svg.h).
 *
 * Each row of the buffer becomes runs of cells with the same attribute: a
 * background rectangle when the attribute has a background colour, then
 * one <text> whose textLength pins it to the run's columns, so box
 * drawing and bar glyphs line up whatever monospace font the viewer picks.
 */
#include <string.h>
#include "cli/outfile.h"
#include "palette.h"
#include "svg.h"
#include "textbuf.h"

#define CELL_W 8.4
#define CELL_H 17.0
#define FONT_PX 14

void svg_begin(FILE *f, double w, double h)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n", w, h, w, h);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
}

void svg_end(FILE *f)
{
	fprintf(f, "</svg>\n");
}

void svg_text(FILE *f, const char *s)
{
	outfile_xml_text(f, s);
}

/* One character as escaped UTF-8. */
static void put_char(FILE *f, wchar_t ch)
{
	unsigned long c = (unsigned long)ch;
	if (c == '&')
		fputs("&amp;", f);
	else if (c == '<')
		fputs("&lt;", f);
	else if (c == '>')
		fputs("&gt;", f);
	else if (c < 0x20 || (c >= 0xd800 && c < 0xe000) || c > 0x10ffff)
		fputc('?', f);
	else if (c < 0x80)
		fputc((int)c, f);
	else if (c < 0x800)
		fprintf(f, "%c%c", (int)(0xc0 | c >> 6), (int)(0x80 | (c & 0x3f)));
	else if (c < 0x10000)
		fprintf(f, "%c%c%c", (int)(0xe0 | c >> 12), (int)(0x80 | ((c >> 6) & 0x3f)), (int)(0x80 | (c & 0x3f)));
	else
		fprintf(f, "%c%c%c%c", (int)(0xf0 | c >> 18), (int)(0x80 | ((c >> 12) & 0x3f)),
			(int)(0x80 | ((c >> 6) & 0x3f)), (int)(0x80 | (c & 0x3f)));
}

/* The text style of an attribute: colour, weight, the dim grey. */
static void text_style(FILE *f, int attr)
{
	const struct pal_entry *e = palette_of(attr);
	const char *fill = attr == TB_DIM ? "#808080" : palette_rgb(e->fg, 0);
	fprintf(f, " fill=\"%s\"%s", fill, e->bold ? " font-weight=\"bold\"" : "");
}

static void draw_textbuf(FILE *f, const struct textbuf *tb, double x0, double y0)
{
	fprintf(f, "<g font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" font-size=\"%d\">\n", FONT_PX);
	for (int y = 0; y < tb->h; y++) {
		int x = 0;
		while (x < tb->w) {
			int attr = tb->cells[y * tb->w + x].attr, end = x + 1;
			while (end < tb->w && tb->cells[y * tb->w + end].attr == attr)
				end++;
			/* blanks draw nothing (a background is its own rectangle) */
			const struct pal_entry *e = palette_of(attr);
			int last = end;
			while (last > x && (tb_shown(tb, last - 1, y) == L' ' || tb_shown(tb, last - 1, y) == TB_WIDE_TAIL))
					last--;
			double rx = x0 + x * CELL_W, ry = y0 + y * CELL_H;
			if (e->bg != PAL_DEFAULT)
				fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n", rx, ry,
					(end - x) * CELL_W, CELL_H, palette_rgb(e->bg, 1));
			int first = x;
			while (first < last && tb_shown(tb, first, y) == L' ')
				first++;
			if (first < last) {
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" textLength=\"%.1f\" lengthAdjust=\"spacingAndGlyphs\" "
					"xml:space=\"preserve\"", x0 + first * CELL_W, ry + CELL_H - 4, (last - first) * CELL_W);
				text_style(f, attr);
				fputc('>', f);
				for (int c = first; c < last; c++) {
					wchar_t ch = tb_shown(tb, c, y);
					if (ch != TB_WIDE_TAIL)
						put_char(f, ch);
				}
				fprintf(f, "</text>\n");
			}
			x = end;
		}
	}
	fprintf(f, "</g>\n");
}

void svg_textbuf_doc(FILE *f, const struct textbuf *tb, const char *title)
{
	double top = title ? 30 : 8;
	svg_begin(f, tb->w * CELL_W + 16, top + tb->h * CELL_H + 8);
	if (title) {
		fprintf(f, "<text x=\"8\" y=\"20\" font-size=\"14\" font-weight=\"bold\">");
		svg_text(f, title);
		fprintf(f, "</text>\n");
	}
	draw_textbuf(f, tb, 8, top);
	svg_end(f);
}
