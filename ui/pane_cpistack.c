/*
 * pane_cpistack.c — the CPI stack of each accounting method (naive, naive
 * non-spec, IBM POWER5, FMT, sFMT, and ivx's own counters) as a horizontal
 * stacked bar with the numbers under it, growing as cycles pass. Every bar is drawn to the
 * same scale; a naive method that charges more cycles than there were
 * draws past its total and shows a negative base. Components are letters
 * (readable without colour) drawn in the component's colour.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "acct/acct.h"
#include "core/events.h"
#include "explorer/explorer.h"
#include "explorer/inst_acct.h"
#include "explorer/inst_reset.h"
#include "explorer/instrument.h"
#include "legend.h"
#include "pane.h"
#include "textbuf.h"

#define LABEL_W 15

/* Bar letters: base, then enum acct_comp order, whose components are the
 * miss kinds of the same number (legend.c: the timeline's letters too). */
_Static_assert((int)ACCT_L1I == (int)MISS_L1I && (int)ACCT_DTLB == (int)MISS_DTLB &&
	       (int)ACCT_BPRED == (int)MISS_MISPREDICT && (int)ACCT_FU == (int)MISS_FU_STALL,
	       "CPI stack components follow the miss kinds");

static char comp_letter(int k)
{
	return k ? legend_letter(k - 1) : '=';
}

static const char *comp_name(int k)
{
	return k ? legend_name(k - 1) : "base";
}

/* The line of numbers under a method's bar: base and each component that
 * has cycles, in the legend's order, whole items only. When they do not
 * all fit, the smallest components are the ones left out (a number cut
 * at the edge would read as another number, and the large ones are what
 * the line is for), and the line says how many. */
static void number_line(struct textbuf *tb, int y, const struct acct_stack *s, double d)
{
	char item[ACCT_COMP_COUNT + 1][32];
	double v[ACCT_COMP_COUNT + 1];
	int len[ACCT_COMP_COUNT + 1], shown[ACCT_COMP_COUNT + 1], total = LABEL_W, left_out = 0;
	for (int k = 0; k <= ACCT_COMP_COUNT; k++) {
		v[k] = k == 0 ? (double)s->base / d : (double)s->comp[k - 1] / d;
		shown[k] = k == 0 || s->comp[k - 1] != 0;
		len[k] = snprintf(item[k], sizeof item[k], "%s %.3f  ", comp_name(k), v[k]);
		total += shown[k] ? len[k] : 0;
	}
	const int note = 14;   /* "(+N smaller)" */
	while (total > tb->w) {
		int smallest = -1;
		for (int k = 1; k <= ACCT_COMP_COUNT; k++)
			if (shown[k] && (smallest < 0 || fabs(v[k]) < fabs(v[smallest])))
				smallest = k;
		if (smallest < 0)
			break;
		shown[smallest] = 0;
		total -= len[smallest];
		if (!left_out++)
			total += note;
	}
	int col = LABEL_W;
	for (int k = 0; k <= ACCT_COMP_COUNT; k++)
		if (shown[k])
			col = tb_puts(tb, col, y, s->base < 0 ? TB_WARN : TB_DIM, item[k]);
	if (left_out)
		tb_printf(tb, col, y, TB_DIM, "(+%d smaller)", left_out);
}

static void cpi_render(struct pane *p, struct explorer *x, struct textbuf *tb)
{
	struct acct_stack s[ACCT_METHOD_COUNT];
	int have[ACCT_METHOD_COUNT] = { 0 };
	double scale = 0;
	uint64_t insns = 0;
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		if (xreset_stack(x, m, &s[m]) < 0)   /* since `reset stats` */
			continue;
		have[m] = 1;
		uint64_t sum = 0;
		for (int k = 0; k < ACCT_COMP_COUNT; k++)
			sum += s[m].comp[k];
		uint64_t top = sum > s[m].cycles ? sum : s[m].cycles;
		if (s[m].insns) {
			double v = (double)top / (double)s[m].insns;
			if (v > scale)
				scale = v;
			insns = s[m].insns;
		}
	}
	if (!insns) {
		tb_puts(tb, 0, 0, TB_DIM, "no instruction has committed yet");
		return;
	}
	int bar_w = tb->w - LABEL_W - 8;
	if (bar_w < 10)
		bar_w = 10;
	/* a line of numbers under each bar of the paper's five methods when
	 * all five fit with theirs, and under ivx's own when it fits too */
	int numbers = tb->h >= 2 * ACCT_IVX + 2;
	int numbers_ivx = tb->h >= 2 * ACCT_METHOD_COUNT + 2;
	int y = 0;
	/* legend */
	int col = tb_puts(tb, 0, y, TB_DIM, "CPI per component: ");
	for (int k = 0; k <= ACCT_COMP_COUNT && col < tb->w; k++) {
		char item[16];
		snprintf(item, sizeof item, "%c %s ", comp_letter(k), comp_name(k));
		tb_putc(tb, col, y, TB_BAR0 + k, (wchar_t)comp_letter(k));
		col = tb_puts(tb, col + 1, y, TB_DIM, item + 1);
	}
	y++;
	for (int m = 0; m < ACCT_METHOD_COUNT && y < tb->h; m++) {
		if (!have[m])
			continue;
		double d = s[m].insns ? (double)s[m].insns : 1;
		double total = (double)s[m].cycles / d;
		tb_printf(tb, 0, y, TB_BOLD, "%-*s", LABEL_W, acct_method_label(m));
		/* Cumulative rounding so segments add up to the bar's length. */
		double acc = 0;
		int drawn = 0, xx = LABEL_W;
		for (int k = 0; k <= ACCT_COMP_COUNT; k++) {
			double v = k == 0 ? (s[m].base > 0 ? (double)s[m].base / d : 0) : (double)s[m].comp[k - 1] / d;
			acc += v;
			int upto = scale > 0 ? (int)(acc / scale * bar_w + 0.5) : 0;
			for (; drawn < upto && drawn < bar_w; drawn++)
				tb_putc(tb, xx + drawn, y, TB_BAR0 + k, (wchar_t)comp_letter(k));
		}
		tb_printf(tb, xx + bar_w + 1, y, TB_BOLD, "%6.3f", total);
		y++;
		if ((m == ACCT_IVX ? numbers_ivx : numbers) && y < tb->h)
			number_line(tb, y++, &s[m], d);
	}
}

static void cpi_status(struct pane *p, struct explorer *x, char *buf, size_t n)
{
	struct acct_stack s;
	if (xreset_since(x) && xreset_stack(x, ACCT_FMT, &s) == 0)
		snprintf(buf, n, "since cycle %llu: %llu instructions, %llu cycles",
			 (unsigned long long)xreset_since(x), (unsigned long long)s.insns, (unsigned long long)s.cycles);
	else
		snprintf(buf, n, "after %llu instructions, %llu cycles", (unsigned long long)explorer_committed(x),
			 (unsigned long long)explorer_cycle(x));
}

static const struct pane_class pane_cpistack = {
	.name = "cpistack", .title = "CPI stacks",
	.summary = "the CPI stack of each accounting method, growing as cycles pass",
	.min_w = 44, .min_h = 6, .pref_w = 56, .batch_h = 12,
	.render = cpi_render, .status = cpi_status,
};
PANE_REGISTER(pane_cpistack);
