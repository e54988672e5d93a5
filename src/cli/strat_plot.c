/*
 * strat_plot.c — CSV and SVG for error curves (strat_plot.h). The SVG is
 * written by hand: a plot area, "nice" ticks on both axes, one polyline
 * per series in a fixed palette, a legend box in the top right.
 */
#include <math.h>
#include "outfile.h"
#include "strat_plot.h"

void strat_plot_csv(FILE *f, const struct strat_series *s, int n)
{
	fprintf(f, "series,events,error_pct\n");
	for (int i = 0; i < n; i++)
		for (int k = 0; k < s[i].n; k++)
			if (!isnan(s[i].y[k]))
				fprintf(f, "%s,%.0f,%.4f\n", s[i].label, s[i].x[k], s[i].y[k]);
}

/* A tick step of 1, 2 or 5 times a power of ten giving about 5 ticks. */
static double nice_step(double range)
{
	if (range <= 0)
		return 1;
	double raw = range / 5, p = pow(10, floor(log10(raw))), m = raw / p;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

static void tick_label(char *buf, size_t n, double v)
{
	if (v >= 1e6 && fmod(v, 1e5) == 0)
		snprintf(buf, n, "%gM", v / 1e6);
	else if (v >= 1e3 && fmod(v, 100) == 0)
		snprintf(buf, n, "%gK", v / 1e3);
	else
		snprintf(buf, n, "%g", v);
}

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf", "#bcbd22",
};

void strat_plot_svg(FILE *f, const char *title, const char *xlabel, const struct strat_series *s, int n,
		    double ymax, double rule)
{
	const double W = 760, H = 440, L = 70, R = 20, T = 40, B = 60;
	double xmax = 0, ytop = 0;
	for (int i = 0; i < n; i++)
		for (int k = 0; k < s[i].n; k++) {
			if (s[i].x[k] > xmax)
				xmax = s[i].x[k];
			/* the scale follows the measurements; bounds above it are
			 * drawn along the top */
			if (!s[i].dashed && !isnan(s[i].y[k]) && s[i].y[k] > ytop)
				ytop = s[i].y[k];
		}
	if (ymax <= 0)
		ymax = ytop > 100 ? 100 : ytop;
	if (ymax <= 0)
		ymax = 1;
	if (xmax <= 0)
		xmax = 1;
	double pw = W - L - R, ph = H - T - B;
#define PX(x) (L + (x) / xmax * pw)
#define PY(y) (T + ph - ((y) > ymax ? ymax : (y)) / ymax * ph)
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		   "font-family=\"sans-serif\" font-size=\"12\">\n", W, H);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<text x=\"%.0f\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">", W / 2);
	outfile_xml_text(f, title);
	fprintf(f, "</text>\n");
	/* grid and ticks */
	double xs = nice_step(xmax), ys = nice_step(ymax);
	char lab[32];
	for (double v = 0; v <= xmax * 1.0001; v += xs) {
		tick_label(lab, sizeof lab, v);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", PX(v), T, PX(v),
			T + ph);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", PX(v), T + ph + 16, lab);
	}
	for (double v = 0; v <= ymax * 1.0001; v += ys) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, PY(v), L + pw,
			PY(v));
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g%%</text>\n", L - 6, PY(v) + 4, v);
	}
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"black\"/>\n", L, T,
		pw, ph);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", L + pw / 2, H - 18);
	outfile_xml_text(f, xlabel);
	fprintf(f, "</text>\n<text transform=\"translate(18,%.1f) rotate(-90)\" text-anchor=\"middle\">error</text>\n",
		T + ph / 2);
	if (rule > 0 && rule < ymax)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" "
			   "stroke-dasharray=\"2,3\"/>\n", L, PY(rule), L + pw, PY(rule));
	/* the curves */
	for (int i = 0; i < n; i++) {
		const char *col = palette[i % (int)(sizeof palette / sizeof *palette)];
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s points=\"", col,
			s[i].dashed ? " stroke-dasharray=\"6,4\"" : "");
		for (int k = 0; k < s[i].n; k++)
			if (!isnan(s[i].y[k]))
				fprintf(f, "%.1f,%.1f ", PX(s[i].x[k]), PY(s[i].y[k]));
		fprintf(f, "\"/>\n");
	}
	/* legend */
	double lx = L + pw - 190, ly = T + 10;
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"180\" height=\"%d\" fill=\"white\" stroke=\"#999\"/>\n", lx,
		ly, 8 + 16 * n);
	for (int i = 0; i < n; i++) {
		const char *col = palette[i % (int)(sizeof palette / sizeof *palette)];
		double y = ly + 14 + 16 * i;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"%s/>\n",
			lx + 8, y - 4, lx + 32, y - 4, col, s[i].dashed ? " stroke-dasharray=\"6,4\"" : "");
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", lx + 38, y);
		outfile_xml_text(f, s[i].label);
		fprintf(f, "</text>\n");
	}
	fprintf(f, "</svg>\n");
#undef PX
#undef PY
}
