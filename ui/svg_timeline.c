/*
 * svg_timeline.c — interval timelines as SVG (svg.h): the picture of the
 * paper's Figures 2-8, drawn from a real run's per-cycle records.
 *
 * One panel per run, all on the same cycle scale:
 *
 *   title
 *   ROB occupancy      area, cyan; red where dispatch waits on a full ROB,
 *                      yellow where wrong-path instructions are in it
 *   dispatch / issue / commit   one bar per cycle, height = instructions
 *   I-miss D-miss bpred stall   each event a bar from begin to end cycle,
 *                      in its CPI-stack colour, its legend letter at the start
 *   ends               interval ends (|) and overlaps (o)
 *   cycle axis
 *
 * Colours come from palette.c, letters from legend.c: what the timeline
 * and CPI-stack panes show on the terminal.
 */
#include <stdlib.h>
#include <string.h>
#include "core/events.h"
#include "explorer/explorer.h"
#include "explorer/explorer_trace.h"
#include "legend.h"
#include "palette.h"
#include "svg.h"
#include "textbuf.h"

int svg_timeline_from_trace(const struct xtrace *t, uint64_t lo, uint64_t hi, int rob_size, int width,
			    struct svg_timeline *out)
{
	memset(out, 0, sizeof *out);
	struct xtl_cycle newest;
	if (hi <= lo || xtrace_cycle_at(t, 0, &newest) < 0)
		return -1;
	if (hi > newest.cycle + 1)
		hi = newest.cycle + 1;
	int n = xtrace_cycle_count(t);
	uint64_t oldest = newest.cycle + 1 - (uint64_t)n;
	if (lo < oldest)
		lo = oldest;
	if (hi <= lo)
		return -1;
	out->lo = lo;
	out->hi = hi;
	out->rob_size = rob_size > 0 ? rob_size : 1;
	out->width = width > 0 ? width : 4;
	out->cyc = calloc(hi - lo, sizeof *out->cyc);
	int n_ev = xtrace_event_count(t);
	out->ev = calloc(n_ev ? (size_t)n_ev : 1, sizeof *out->ev);
	if (!out->cyc || !out->ev) {
		svg_timeline_release(out);
		return -1;
	}
	for (uint64_t c = lo; c < hi; c++)
		xtrace_cycle_at(t, (int)(newest.cycle - c), &out->cyc[c - lo]);
	for (int i = n_ev - 1; i >= 0; i--) {       /* oldest first */
		const struct xevent *e = xtrace_event_at(t, i);
		uint64_t end = e->ended ? e->end : newest.cycle;
		if (e->correct_path && e->start < hi && end >= lo)
			out->ev[out->n_ev++] = *e;
	}
	return 0;
}

void svg_timeline_release(struct svg_timeline *tl)
{
	free(tl->cyc);
	free(tl->ev);
	tl->cyc = NULL;
	tl->ev = NULL;
	tl->n_ev = 0;
}

enum { LANE_I, LANE_D, LANE_BR, LANE_STALL, LANE_MARK, N_LANES };
static const char *const lane_names[N_LANES] = { "I-miss", "D-miss", "bpred", "stall", "ends" };

static int lane_of(int kind)
{
	switch (kind) {
	case MISS_L1I: case MISS_L2I: case MISS_ITLB: return LANE_I;
	case MISS_L1D: case MISS_L2D: case MISS_DTLB: return LANE_D;
	case MISS_MISPREDICT: return LANE_BR;
	case MISS_FU_STALL: case MISS_ROB_FULL: return LANE_STALL;
	case XEV_OVERLAP: case XEV_INTERVAL: return LANE_MARK;
	default: return -1;
	}
}

/* Fill and letter colour of an event kind: a miss in its CPI-stack
 * component's colours; ROB full as the stall warning; marks black. */
static void kind_colours(int kind, const char **fill, const char **ink)
{
	if (kind <= MISS_FU_STALL) {
		const struct pal_entry *e = palette_of(TB_BAR0 + 1 + kind);
		*fill = palette_rgb(e->bg, 1);
		*ink = palette_rgb(e->fg, 0);
	} else if (kind == MISS_ROB_FULL) {
		*fill = palette_rgb(palette_of(TB_WARN)->fg, 0);
		*ink = "#000000";
	} else {
		*fill = "#000000";
		*ink = "#ffffff";
	}
}

#define LEFT 64.0
#define RIGHT 16.0
#define ROB_H 100.0
#define ROW_H 24.0
#define LANE_H 18.0

static double panel_height(void)
{
	return 24 + ROB_H + 6 + 3 * ROW_H + 6 + N_LANES * LANE_H + 26;
}

/* Runs of equal ROB bars are merged: one rectangle per change. */
static void draw_rob(FILE *f, const struct svg_timeline *t, double y0, double dx)
{
	const char *info = palette_rgb(palette_of(TB_INFO)->fg, 0), *miss = palette_rgb(palette_of(TB_MISS)->fg, 0),
		   *warn = palette_rgb(palette_of(TB_WARN)->fg, 0);
	uint64_t n = t->hi - t->lo;
	fprintf(f, "<text x=\"4\" y=\"%.1f\" fill=\"#555555\">ROB</text>\n", y0 + 14);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"10\" fill=\"#555555\">%d</text>\n",
		LEFT - 4, y0 + 10, t->rob_size);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n", LEFT, y0,
		LEFT + n * dx, y0);
	for (uint64_t i = 0; i < n;) {
		const struct xtl_cycle *c = &t->cyc[i];
		uint64_t j = i + 1;
		while (j < n && t->cyc[j].rob_occupancy == c->rob_occupancy && t->cyc[j].rob_full == c->rob_full &&
		       t->cyc[j].wrong_path_in_rob == c->wrong_path_in_rob)
			j++;
		double h = ROB_H * c->rob_occupancy / t->rob_size;
		if (h > 0)
			fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>\n",
				LEFT + i * dx, y0 + ROB_H - h, (j - i) * dx, h,
				c->rob_full ? miss : c->wrong_path_in_rob ? warn : info);
		i = j;
	}
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999999\"/>\n", LEFT, y0 + ROB_H,
		LEFT + n * dx, y0 + ROB_H);
}

static void draw_counts(FILE *f, const struct svg_timeline *t, double y0, double dx)
{
	static const char *const names[3] = { "dispatch", "issue", "commit" };
	const char *good = palette_rgb(palette_of(TB_GOOD)->fg, 0), *warn = palette_rgb(palette_of(TB_WARN)->fg, 0);
	uint64_t n = t->hi - t->lo;
	for (int r = 0; r < 3; r++) {
		double y = y0 + r * ROW_H;
		fprintf(f, "<text x=\"4\" y=\"%.1f\" fill=\"#555555\">%s</text>\n", y + 16, names[r]);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n", LEFT,
			y + ROW_H - 2, LEFT + n * dx, y + ROW_H - 2);
		for (uint64_t i = 0; i < n; i++) {
			const struct xtl_cycle *c = &t->cyc[i];
			int v = r == 0 ? c->dispatched : r == 1 ? c->issued : c->committed;
			if (!v)
				continue;
			double h = (ROW_H - 4) * (v > t->width ? t->width : v) / t->width;
			const char *fill = r == 2 ? good : r == 1 && !c->issued_correct ? warn : "#444444";
			fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>\n",
				LEFT + i * dx, y + ROW_H - 2 - h, dx, h, fill);
		}
	}
}

static void draw_lanes(FILE *f, const struct svg_timeline *t, double y0, double dx)
{
	uint64_t last = t->hi - 1;
	for (int l = 0; l < N_LANES; l++)
		fprintf(f, "<text x=\"4\" y=\"%.1f\" fill=\"#555555\">%s</text>\n", y0 + l * LANE_H + 13, lane_names[l]);
	for (int i = 0; i < t->n_ev; i++) {
		const struct xevent *e = &t->ev[i];
		int lane = lane_of(e->kind);
		if (lane < 0)
			continue;
		uint64_t s = e->start, end = e->ended ? e->end : last;
		if (e->kind == XEV_INTERVAL)
			s = end;   /* a mark where the interval ended */
		uint64_t a = s < t->lo ? t->lo : s, b = end > last ? last : end;
		if (b < a)
			continue;
		const char *fill, *ink;
		kind_colours(e->kind, &fill, &ink);
		double x = LEFT + (double)(a - t->lo) * dx, w = (double)(b - a + 1) * dx, y = y0 + lane * LANE_H + 2;
		if (e->kind == XEV_INTERVAL)
			w = dx > 2 ? 2 : dx;
		fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" stroke=\"#333333\" "
			"stroke-width=\"0.4\"><title>%s, cycles %llu-%llu (%llu cycles), pc 0x%llx</title></rect>\n", x, y, w,
			LANE_H - 4, fill, legend_name(e->kind), (unsigned long long)xcycle(s), (unsigned long long)xcycle(end),
			(unsigned long long)(end - s + 1), (unsigned long long)e->pc);
		if (s >= t->lo && w >= 7 && e->kind != XEV_INTERVAL)
			fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" font-family=\"monospace\" font-weight=\"bold\" "
				"fill=\"%s\">%c</text>\n", x + 1.5, y + LANE_H - 7, ink, legend_letter(e->kind));
	}
}

/* Ticks at round cycle numbers (shown 1-based, as everywhere). */
static void draw_axis(FILE *f, const struct svg_timeline *t, double y0, double dx)
{
	uint64_t n = t->hi - t->lo;
	static const uint64_t steps[] = { 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000 };
	uint64_t step = 1000;
	for (unsigned i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (steps[i] * dx >= 60) {
			step = steps[i];
			break;
		}
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333333\"/>\n", LEFT, y0,
		LEFT + n * dx, y0);
	for (uint64_t c = t->lo; c < t->hi; c++) {
		uint64_t shown = xcycle(c);
		if (shown % step)
			continue;
		double x = LEFT + (double)(c - t->lo) * dx + dx / 2;
		fprintf(f, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#333333\"/>\n", x, y0, x, y0 + 4);
		fprintf(f, "<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">%llu</text>\n", x, y0 + 15,
			(unsigned long long)shown);
	}
}

static void draw_legend(FILE *f, double y, double w)
{
	static const int kinds[] = { MISS_L1I, MISS_L2I, MISS_ITLB, MISS_L1D, MISS_L2D, MISS_DTLB,
				     MISS_MISPREDICT, MISS_FU_STALL, MISS_ROB_FULL, XEV_OVERLAP, XEV_INTERVAL };
	double x = LEFT;
	for (unsigned i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		const char *fill, *ink;
		kind_colours(kinds[i], &fill, &ink);
		if (x + 100 > w) {
			x = LEFT;
			y += 20;
		}
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" fill=\"%s\" stroke=\"#333333\" "
			"stroke-width=\"0.4\"/>\n", x, y, fill);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"monospace\" font-weight=\"bold\" fill=\"%s\">%c</text>\n",
			x + 3.5, y + 11, ink, legend_letter(kinds[i]));
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", x + 19, y + 11, legend_name(kinds[i]));
		x += 100;
	}
}

void svg_timeline_doc(FILE *f, const struct svg_timeline *tl, int n)
{
	uint64_t cycles = 1;
	for (int i = 0; i < n; i++)
		if (tl[i].hi - tl[i].lo > cycles)
			cycles = tl[i].hi - tl[i].lo;
	double plot_w = (double)cycles * 4;
	if (plot_w < 640)
		plot_w = 640;
	if (plot_w > 1400)
		plot_w = 1400;
	double dx = plot_w / (double)cycles, w = LEFT + plot_w + RIGHT;
	double h = n * panel_height() + 56;
	svg_begin(f, w, h);
	for (int i = 0; i < n; i++) {
		const struct svg_timeline *t = &tl[i];
		double y = i * panel_height();
		fprintf(f, "<g>\n<text x=\"4\" y=\"%.1f\" font-size=\"14\" font-weight=\"bold\">", y + 17);
		svg_text(f, t->title);
		fprintf(f, "</text>\n");
		y += 24;
		draw_rob(f, t, y, dx);
		y += ROB_H + 6;
		draw_counts(f, t, y, dx);
		y += 3 * ROW_H + 6;
		draw_lanes(f, t, y, dx);
		y += N_LANES * LANE_H + 2;
		draw_axis(f, t, y, dx);
		fprintf(f, "</g>\n");
	}
	draw_legend(f, n * panel_height() + 8, w);
	svg_end(f);
}
