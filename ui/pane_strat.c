/*
 * pane_strat.c — the stratified sampler's counters: the first stage's
 * counter table as heat strips (each column a group of strata or
 * entries: how full its counters are, how many messages it has sent,
 * and for the tagged compressor its evictions), the message queue
 * filling towards an interrupt, the overhead so far and the live error
 * against the exact profile. In a short pane PgDn scrolls down to the
 * rows it cuts.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "explorer/explorer.h"
#include "explorer/inst_strat.h"
#include "explorer/instrument.h"
#include "strat/strat.h"
#include "strat/strat_run.h"
#include "pane.h"
#include "textbuf.h"

#define LABEL_W 11

/* One strip: value(cell) averaged over each column's cells, as bar
 * heights in eighths of the strip's maximum (max_fixed > 0: that scale). */
static void strip(struct textbuf *tb, int y, const char *label, const struct strat_comp *c, int what, int attr)
{
	uint32_t n = strat_comp_cells(c);
	int w = tb->w - LABEL_W - 9;
	if (w < 4 || y >= tb->h)
		return;
	if ((uint32_t)w > n)
		w = (int)n;
	double col[512], top = 0;
	if (w > 512)
		w = 512;
	for (int k = 0; k < w; k++) {
		uint32_t lo = (uint32_t)((uint64_t)n * k / w), hi = (uint32_t)((uint64_t)n * (k + 1) / w);
		double sum = 0;
		for (uint32_t i = lo; i < hi; i++) {
			struct strat_cell cell;
			strat_comp_cell(c, i, &cell);
			sum += what == 0 ? (cell.max ? (double)cell.count / cell.max : 0) :
			       what == 1 ? cell.messages : cell.evictions;
		}
		col[k] = hi > lo ? sum / (hi - lo) : 0;
		if (col[k] > top)
			top = col[k];
	}
	double scale = what == 0 ? 1.0 : top;
	tb_printf(tb, 0, y, TB_BOLD, "%-*s", LABEL_W, label);
	for (int k = 0; k < w; k++) {
		int e = scale > 0 ? (int)lround(col[k] / scale * 8) : 0;
		if (e == 0 && col[k] > 0)
			e = 1;
		tb_putc(tb, LABEL_W + k, y, attr, tb_vbar(tb, e > 8 ? 8 : e));
	}
	if (what == 0)
		tb_printf(tb, LABEL_W + w + 1, y, TB_DIM, "0..100%%");
	else   /* a column averages its strata: often under one message each */
		tb_printf(tb, LABEL_W + w + 1, y, TB_DIM, top > 0 && top < 10 ? "max %.1f" : "max %.0f", top);
}

/* All its rows (at most 7); the rows used. */
static int strat_rows(struct pane *p, struct explorer *x, struct textbuf *tb)
{
	const struct xstrat *xs = explorer_instrument(x, "strat");
	const struct strat_run *r = xstrat_run(xs);
	if (!r) {
		tb_puts(tb, 0, 0, TB_DIM, "no compressor: strat SPEC [value|edge|call] (e.g. strat H[P256]2048)");
		return 1;
	}
	const struct strat_comp *c = strat_run_comp(r);
	struct strat_run_stats st;
	strat_run_stats(r, &st);
	struct strat_err_params ep = STRAT_ERR_PARAMS_PAPER;
	struct strat_err_detail d;
	double e = strat_run_error(r, &ep, &d);
	int y = 0;
	tb_printf(tb, 0, y++, TB_NORMAL, "%s, %s: %llu events -> %llu samples -> %llu messages", xstrat_spec_text(xs),
		  xstrat_profile_text(xs), (unsigned long long)st.events, (unsigned long long)st.samples,
		  (unsigned long long)st.messages);
	uint32_t n = strat_comp_cells(c);
	char label[32];
	snprintf(label, sizeof label, "fill/%u", n);
	strip(tb, y++, label, c, 0, TB_INFO);
	strip(tb, y++, "messages", c, 1, TB_GOOD);
	if (strat_comp_spec(c)->stage[0].kind == STRAT_T)
		strip(tb, y++, "evictions", c, 2, TB_WARN);
	if (y < tb->h) {
		int qw = 20, fill = st.batch ? (int)((uint64_t)st.queued * qw / st.batch) : 0;
		tb_printf(tb, 0, y, TB_BOLD, "%-*s", LABEL_W, "queue");
		for (int k = 0; k < qw; k++)
			tb_putc(tb, LABEL_W + k, y, k < fill ? TB_INFO : TB_DIM,
				tb_glyph(tb, k < fill ? G_BLOCK_FULL : G_SHADE));
		tb_printf(tb, LABEL_W + qw + 1, y++, TB_NORMAL, "%u/%u   %llu interrupts", st.queued, st.batch,
			  (unsigned long long)st.interrupts);
	}
	if (y < tb->h)
		tb_printf(tb, 0, y++, TB_NORMAL, "%-*s%llu cycles = %.2f%% of %llu", LABEL_W, "overhead",
			  (unsigned long long)st.overhead_cycles, 100 * st.overhead_fraction,
			  (unsigned long long)st.cycles);
	if (y < tb->h) {
		if (isnan(e))
			tb_printf(tb, 0, y++, TB_DIM, "%-*s- (%s)", LABEL_W, "error", xstrat_no_error_reason(r));
		else
			tb_printf(tb, 0, y++, e > 0.05 ? TB_WARN : TB_GOOD, "%-*s%.2f%% vs exact (%llu tuples, %llu pcs)",
				  LABEL_W, "error", 100 * e, (unsigned long long)d.tuples, (unsigned long long)d.pcs);
	}
	return y;
}

static void strat_render(struct pane *p, struct explorer *x, struct textbuf *tb)
{
	pane_render_scrolled(p, x, tb, 8, strat_rows);
}

static void strat_status(struct pane *p, struct explorer *x, char *buf, size_t n)
{
	const struct strat_run *r = xstrat_run(explorer_instrument(x, "strat"));
	if (!r) {
		snprintf(buf, n, "off");
		return;
	}
	struct strat_run_stats st;
	strat_run_stats(r, &st);
	snprintf(buf, n, "%llu messages, %llu interrupts", (unsigned long long)st.messages,
		 (unsigned long long)st.interrupts);
}

static const struct pane_class pane_strat = {
	.name = "strat", .title = "Stratified sampler",
	.summary = "the stream compressor's counters as heat strips, its message queue, overhead and error",
	.min_w = 40, .min_h = 5, .batch_h = 7, .scroll_unit = 2, .scroll_down = 1,
	.render = strat_render, .status = strat_status,
};
PANE_REGISTER(pane_strat);
