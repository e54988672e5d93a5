/*
 * pane_timeline.c — the interval timeline: one column per cycle, newest at
 * the right. On top, the ROB occupancy as a bar chart; under it the
 * instructions dispatched, issued and committed each cycle; then one lane
 * per kind of miss with each event drawn from the cycle it began to the
 * cycle it ended; then the derived events (o = overlap, | = an interval
 * ends) and a cycle axis. This is the paper's Figures 2-8 drawn live: the
 * ROB filling behind a long D-cache miss and then issue stopping, or the
 * ROB draining during an I-cache miss. PgUp/PgDn scroll back in time over
 * the last XTRACE_CYCLES cycles; F2 (or `set timeline-scale`) zooms out to
 * 2, 4 or 8 cycles a column, so a whole 250-cycle miss fits 80 columns.
 */
#include <stdio.h>
#include <string.h>
#include "core/core.h"
#include "explorer/explorer.h"
#include "explorer/explorer_trace.h"
#include "legend.h"
#include "pane.h"
#include "textbuf.h"

#define MARGIN 7

enum lane { LANE_I, LANE_D, LANE_BR, LANE_STALL, LANE_MARK, N_LANES };
static const char *const lane_names[N_LANES] = { "I-miss", "D-miss", "bpred", "stall", "ends" };

static int lane_of(int kind, char *letter, int *sev)
{
	*letter = legend_letter(kind);   /* the same letter as in the CPI stacks */
	switch (kind) {
	case MISS_L1I: *sev = 1; return LANE_I;
	case MISS_L2I: *sev = 3; return LANE_I;
	case MISS_ITLB: *sev = 2; return LANE_I;
	case MISS_L1D: *sev = 1; return LANE_D;
	case MISS_L2D: *sev = 3; return LANE_D;
	case MISS_DTLB: *sev = 2; return LANE_D;
	case MISS_MISPREDICT: *sev = 1; return LANE_BR;
	case MISS_FU_STALL: *sev = 1; return LANE_STALL;
	case MISS_ROB_FULL: *sev = 2; return LANE_STALL;
	case XEV_OVERLAP: *sev = 1; return LANE_MARK;
	case XEV_INTERVAL: *sev = 2; return LANE_MARK;
	default: return -1;
	}
}

/* The legend line: "i L1I I L2I t ITLB ...", from legend.c. */
static void legend_line(char *buf, size_t n)
{
	static const int kinds[] = { MISS_L1I, MISS_L2I, MISS_ITLB, MISS_L1D, MISS_L2D, MISS_DTLB,
				     MISS_MISPREDICT, MISS_FU_STALL, MISS_ROB_FULL, XEV_OVERLAP, XEV_INTERVAL };
	size_t used = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < sizeof kinds / sizeof kinds[0] && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s%c %s", i ? " " : "",
					 legend_letter(kinds[i]), legend_name(kinds[i]));
}

static int same_event(const struct xevent *a, const struct xevent *b)
{
	return a->kind == b->kind && a->id == b->id && a->start == b->start && a->pc == b->pc;
}

/* An axis label: the cycle in full while it fits between two ticks (ten
 * columns), else in exact thousands or millions when it is a multiple
 * of them (beyond 10^8 cycles the digits would run into the next tick). */
static void axis_label(char *buf, size_t n, uint64_t cycle)
{
	if (cycle < 100000000u)
		snprintf(buf, n, "%llu", (unsigned long long)cycle);
	else if (cycle % 1000000u == 0)
		snprintf(buf, n, "%lluM", (unsigned long long)(cycle / 1000000u));
	else if (cycle % 1000u == 0)
		snprintf(buf, n, "%lluk", (unsigned long long)(cycle / 1000u));
	else
		snprintf(buf, n, "%llu", (unsigned long long)cycle);
}

static void digit(struct textbuf *tb, int x, int y, int v, int attr)
{
	tb_putc(tb, x, y, v ? attr : TB_DIM, v == 0 ? '.' : v < 10 ? (wchar_t)('0' + v) : '+');
}

/* One column: k cycles merged (max occupancy, mean counts rounded up). */
struct column {
	int have;
	int occ, full, wrong;
	int disp, issue, issue_correct, commit;
	uint64_t lo, hi;          /* engine cycles covered */
};

static int mean_up(int sum, int k)
{
	return (sum + k - 1) / k;
}

static void timeline_render(struct pane *p, struct explorer *x, struct textbuf *tb)
{
	int ncyc = xtrace_cycle_count(x->trace);
	int cols = tb->w - MARGIN;
	int k = x->set.timeline_scale > 0 ? x->set.timeline_scale : 1;
	if (cols < 4 || tb->h < 4)
		return;
	if (!ncyc) {
		tb_puts(tb, 0, 0, TB_DIM, "no cycles simulated yet: try `step`");
		return;
	}
	int max_scroll = ncyc > cols * k ? ncyc - cols * k : 0;
	if (p->scroll > max_scroll)
		p->scroll = max_scroll;
	if (p->scroll < 0)
		p->scroll = 0;
	/* Column c covers the records (cols-1-c)*k + scroll .. + k-1 back from
	 * the newest; first is the engine cycle where column 0 begins
	 * (negative before the run began). */
	struct xtl_cycle rec;
	xtrace_cycle_at(x->trace, p->scroll, &rec);
	uint64_t last = rec.cycle;
	int64_t first = (int64_t)last - (int64_t)cols * k + 1;

	int fixed = 3 + N_LANES + 1;           /* disp/issue/commit, lanes, axis */
	int legend = tb->h >= fixed + 6;       /* room for a legend line too */
	int occ_h = tb->h - fixed - legend;
	if (occ_h < 1)
		occ_h = 1;
	int y_counts = occ_h, y_lanes = occ_h + 3, y_axis = y_lanes + N_LANES;
	if (legend) {
		char text[160];
		legend_line(text, sizeof text);
		tb_putsn(tb, 0, y_axis + 1, TB_DIM, text, tb->w);
	}
	tb_puts(tb, 0, 0, TB_DIM, "ROB");
	if (k > 1 && occ_h > 1)
		tb_printf(tb, 0, 1, TB_DIM, "1:%d", k);
	tb_puts(tb, 0, y_counts, TB_DIM, "disp");
	tb_puts(tb, 0, y_counts + 1, TB_DIM, "issue");
	tb_puts(tb, 0, y_counts + 2, TB_DIM, "commit");
	for (int l = 0; l < N_LANES; l++)
		tb_puts(tb, 0, y_lanes + l, TB_DIM, lane_names[l]);

	int rob_size = core_rob_size(x->core);   /* the run's configuration: the same in every cycle */
	int label_end = -1;   /* the axis column after the last label and its blank */
	for (int c = 0; c < cols; c++) {
		struct column col = { 0 };
		for (int j = 0; j < k; j++) {
			if (xtrace_cycle_at(x->trace, p->scroll + (cols - 1 - c) * k + j, &rec) < 0)
				break;
			if (!col.have || rec.cycle < col.lo)
				col.lo = rec.cycle;
			if (!col.have || rec.cycle > col.hi)
				col.hi = rec.cycle;
			col.have = 1;
			if (rec.rob_occupancy > col.occ)
				col.occ = rec.rob_occupancy;
			col.full |= rec.rob_full;
			col.wrong |= rec.wrong_path_in_rob;
			col.disp += rec.dispatched;
			col.issue += rec.issued;
			col.issue_correct += rec.issued_correct;
			col.commit += rec.committed;
		}
		if (!col.have)
			continue;
		int xx = MARGIN + c;
		int level = (col.occ * occ_h * 8 + rob_size - 1) / rob_size;
		for (int row = 0; row < occ_h; row++) {
			int e = level - (occ_h - 1 - row) * 8;
			if (e > 0)
				tb_putc(tb, xx, row, col.full ? TB_MISS : col.wrong ? TB_WARN : TB_INFO, tb_vbar(tb, e));
		}
		digit(tb, xx, y_counts, mean_up(col.disp, k), TB_NORMAL);
		digit(tb, xx, y_counts + 1, mean_up(col.issue, k), col.issue_correct ? TB_NORMAL : TB_WARN);
		digit(tb, xx, y_counts + 2, mean_up(col.commit, k), TB_GOOD);
		/* axis: a tick every 10 columns' worth of cycles, a label every 50 */
		uint64_t tick = 10 * (uint64_t)k, lo = xcycle(col.lo), hi = xcycle(col.hi);
		uint64_t m = (hi / tick) * tick;
		if (m >= lo && m && c > label_end) {   /* (a long label hides the ticks it covers) */
			int big = m % (5 * tick) == 0;
			tb_putc(tb, xx, y_axis, TB_DIM, big ? '+' : '\'');
			if (big) {
				char lab[24];
				axis_label(lab, sizeof lab, m);
				int n = (int)strlen(lab);
				if (c + 1 + n <= cols) {
					tb_puts(tb, xx + 1, y_axis, TB_DIM, lab);
					label_end = c + n + 1;
				}
			}
		}
	}

	/* Miss lanes: severity decides what shows where events overlap. */
	unsigned char sev_at[N_LANES][1024];
	int cw = cols < 1024 ? cols : 1024;
	for (int l = 0; l < N_LANES; l++)
		memset(sev_at[l], 0, (size_t)cw);
	int n_ev = xtrace_event_count(x->trace);
	for (int i = n_ev - 1; i >= 0; i--) {
		const struct xevent *e = xtrace_event_at(x->trace, i);
		char letter;
		int sev;
		int lane = lane_of(e->kind, &letter, &sev);
		if (lane < 0 || !e->correct_path)
			continue;
		uint64_t s = e->start, end = e->ended ? e->end : last;
		if (e->kind == XEV_INTERVAL)
			s = end;   /* mark where the interval ended */
		if ((int64_t)end < first || s > last)
			continue;
		int hil = x->stop.has_event && same_event(e, &x->stop.event);
		int attr = hil ? TB_HILITE : sev >= 3 ? TB_MISS : sev == 2 ? TB_WARN : TB_INFO;
		if (lane == LANE_MARK)
			attr = hil ? TB_HILITE : TB_BOLD;
		int c0 = (int)(((int64_t)s < first ? 0 : (int64_t)s - first) / k);
		int c1 = (int)(((int64_t)(end > last ? last : end) - first) / k);
		for (int c = c0; c <= c1 && c < cw; c++) {
			if (sev_at[lane][c] > sev && !hil)
				continue;
			sev_at[lane][c] = (unsigned char)(hil ? 255 : sev);
			wchar_t g = c == c0 && (int64_t)s >= first ? (wchar_t)letter :
				    c == c1 && e->ended && end <= last ? tb_glyph(tb, G_SPAN_END) : tb_glyph(tb, G_SPAN);
			tb_putc(tb, MARGIN + c, y_lanes + lane, attr, g);
		}
	}
	/* the current cycle */
	if (!p->scroll)
		tb_putc(tb, tb->w - 1, y_axis, TB_HEAD, '^');
}

static int timeline_key(struct pane *p, struct explorer *x, int key)
{
	if (key == PANE_KEY_VIEW || key == 'v') {   /* zoom out: 1, 2, 4, 8 cycles a column */
		x->set.timeline_scale = x->set.timeline_scale >= 8 ? 1 : x->set.timeline_scale * 2;
		return 1;
	}
	return 0;
}

static void timeline_status(struct pane *p, struct explorer *x, char *buf, size_t n)
{
	struct xtl_cycle rec;
	uint64_t up_to = xtrace_cycle_at(x->trace, p->scroll, &rec) == 0 ? xcycle(rec.cycle) : 0;
	int k = x->set.timeline_scale > 1 ? x->set.timeline_scale : 1;
	if (k > 1)
		snprintf(buf, n, "up to cycle %llu, %d cycles a column", (unsigned long long)up_to, k);
	else
		snprintf(buf, n, "up to cycle %llu", (unsigned long long)up_to);
}

static const struct pane_class pane_timeline = {
	.name = "timeline", .title = "Timeline",
	.summary = "per-cycle ROB occupancy, dispatch/issue/commit and miss events",
	.min_w = 40, .min_h = 10, .batch_h = 18, .scroll_unit = 0,
	.render = timeline_render, .key = timeline_key, .status = timeline_status,
};
PANE_REGISTER(pane_timeline);
