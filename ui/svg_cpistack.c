/*
 * svg_cpistack.c — CPI stacks as SVG (svg.h): per accounting method, one
 * horizontal stacked bar per run, every bar on the same CPI scale, in the
 * CPI-stack pane's colours (palette.c) with its legend letters.
 *
 * As in the pane, the bar is the components laid end to end from the
 * base; a naive method that charges more cycles than there were draws
 * past the run's CPI (the black tick) and has a negative base, written
 * beside the bar.
 */
#include <string.h>
#include "legend.h"
#include "palette.h"
#include "svg.h"
#include "textbuf.h"

#define LEFT 145.0
#define BAR_W 560.0
#define BAR_H 22.0

static const char *comp_name(int k)
{
	return k ? legend_name(k - 1) : "base";
}

static char comp_letter(int k)
{
	return k ? legend_letter(k - 1) : '=';
}

static double comp_cpi(const struct acct_stack *s, int k)
{
	double n = s->insns ? (double)s->insns : 1.0;
	return k == 0 ? (double)s->base / n : (double)s->comp[k - 1] / n;
}

void svg_cpistack_doc(FILE *f, const char *title, const struct svg_stacks *runs, int n)
{
	double scale = 0;
	int methods = 0;
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		int any = 0;
		for (int r = 0; r < n; r++) {
			if (!runs[r].have[m] || !runs[r].s[m].insns)
				continue;
			any = 1;
			const struct acct_stack *s = &runs[r].s[m];
			double top = 0;
			for (int k = 0; k <= ACCT_COMP_COUNT; k++) {
				double v = comp_cpi(s, k);
				if (v > 0)
					top += v;
			}
			double cpi = (double)s->cycles / (double)s->insns;
			if (cpi > top)
				top = cpi;
			if (top > scale)
				scale = top;
		}
		methods += any;
	}
	if (scale <= 0)
		scale = 1;
	double key_h = n > 1 ? 18.0 * n : 0;
	double group_h = n * (BAR_H + 4) + 14;
	double top = 40 + key_h;
	double w = LEFT + BAR_W + 150, h = top + methods * group_h + 66;
	svg_begin(f, w, h);
	fprintf(f, "<text x=\"10\" y=\"24\" font-size=\"15\" font-weight=\"bold\">");
	svg_text(f, title);
	fprintf(f, "</text>\n");
	for (int r = 0; r < n && n > 1; r++) {
		fprintf(f, "<text x=\"10\" y=\"%.1f\">", 42 + 18.0 * r);
		svg_text(f, runs[r].label);
		fprintf(f, "</text>\n");
	}
	double y = top;
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		int any = 0;
		for (int r = 0; r < n; r++)
			any |= runs[r].have[m] && runs[r].s[m].insns;
		if (!any)
			continue;
		fprintf(f, "<text x=\"10\" y=\"%.1f\" font-weight=\"bold\">%s</text>\n", y + BAR_H - 6,
			acct_method_label(m));
		for (int r = 0; r < n; r++) {
			const struct acct_stack *s = &runs[r].s[m];
			double by = y + r * (BAR_H + 4);
			if (!runs[r].have[m] || !s->insns)
				continue;
			if (n > 1)
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%c</text>\n", LEFT - 6,
					by + BAR_H - 6, 'A' + r);
			double acc = 0;
			for (int k = 0; k <= ACCT_COMP_COUNT; k++) {
				double v = comp_cpi(s, k);
				if (v <= 0)
					continue;
				const struct pal_entry *e = palette_of(TB_BAR0 + k);
				double x = LEFT + acc / scale * BAR_W, bw = v / scale * BAR_W;
				fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\" "
					"stroke=\"#333333\" stroke-width=\"0.4\"><title>%s%s: %.4f CPI</title></rect>\n", x, by,
					bw, BAR_H, palette_rgb(e->bg, 1), n > 1 ? (r ? "B " : "A ") : "", comp_name(k), v);
				if (bw >= 10)
					fprintf(f, "<text x=\"%.2f\" y=\"%.1f\" font-family=\"monospace\" font-weight=\"bold\" "
						"fill=\"%s\">%c</text>\n", x + 2, by + BAR_H - 6, palette_rgb(e->fg, 0),
						comp_letter(k));
				acc += v;
			}
			double cpi = (double)s->cycles / (double)s->insns, cx = LEFT + cpi / scale * BAR_W;
			fprintf(f, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"black\" stroke-width=\"2\"/>\n",
				cx, by - 2, cx, by + BAR_H + 2);
			double ex = LEFT + (acc > cpi ? acc : cpi) / scale * BAR_W + 6;
			fprintf(f, "<text x=\"%.2f\" y=\"%.1f\">%.3f</text>\n", ex, by + BAR_H - 6, cpi);
			if (s->base < 0)
				fprintf(f, "<text x=\"%.2f\" y=\"%.1f\" fill=\"%s\">base %.3f</text>\n", ex + 44, by + BAR_H - 6,
					palette_rgb(palette_of(TB_WARN)->fg, 0), comp_cpi(s, 0));
		}
		y += group_h;
	}
	/* axis in CPI */
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333333\"/>\n", LEFT, y, LEFT + BAR_W, y);
	for (int i = 0; i <= 4; i++) {
		double x = LEFT + BAR_W * i / 4;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333333\"/>\n", x, y, x, y + 4);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">%.2f</text>\n", x, y + 15,
			scale * i / 4);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#555555\">CPI (black tick: the run's CPI)</text>\n",
		LEFT, y + 30);
	/* legend */
	double lx = 10, ly = y + 42;
	for (int k = 0; k <= ACCT_COMP_COUNT; k++) {
		const struct pal_entry *e = palette_of(TB_BAR0 + k);
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" fill=\"%s\" stroke=\"#333333\" "
			"stroke-width=\"0.4\"/>\n", lx, ly, palette_rgb(e->bg, 1));
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"monospace\" font-weight=\"bold\" fill=\"%s\">%c</text>\n",
			lx + 3.5, ly + 11, palette_rgb(e->fg, 0), comp_letter(k));
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", lx + 19, ly + 11, comp_name(k));
		lx += 90;
	}
	svg_end(f);
}
