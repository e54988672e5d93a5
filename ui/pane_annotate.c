/*
 * pane_annotate.c — dcpicalc's annotation of the procedure around the pc
 * (src/explorer/annotate.c), redone from the samples so far at every
 * update, so it grows while the program runs, by the estimator of the
 * `dcpicalc-estimator` setting. Lines are coloured as perf
 * annotate colours them: instructions with >= 5% of the procedure's
 * samples red, >= 0.5% green. The column header stays on top; the listing
 * scrolls so the pc's line is in view (or, when the pc is outside the
 * procedure, the hottest line). Keys (Ctrl-X then the key, as for every
 * pane): h the hottest instruction, Tab (or n) the next hot one (>= 0.5%),
 * . back to following the pc, p Percent of the procedure's samples or of
 * all samples (perf annotate's local / global percent; the second header
 * line and the title say which). The cursor line is the one kept in view;
 * when its arrow (-> a,b) names instructions of the procedure, their lines
 * end in "<- culprit of PC", so the culprit is visible where it is; the
 * instruction the simulator blamed for most of the cursor's wait ends in
 * "(the true one)" when dcpicalc named it too, else in "<- the true
 * culprit of PC".
 */
#include <stdio.h>
#include <string.h>
#include "explorer/annotate.h"
#include "explorer/explorer.h"
#include "pane.h"
#include "textbuf.h"

#define HEAD_LINES 3   /* the title, the summary and the column header */

struct annotate_priv {
	uint64_t focus_pc;   /* the line kept in view; 0: follow the pc */
	int pct_total;       /* Percent of all samples (else of the procedure's) */
};

static int flags_of(const struct annotate_priv *st)
{
	return st->pct_total ? XANN_PCT_TOTAL : 0;
}

static int names_culprit(const struct xann_line *cursor, uint64_t pc)
{
	for (int k = 0; k < cursor->n_culprit; k++)
		if (cursor->culprit[k] == pc && pc != cursor->pc)
			return 1;
	return 0;
}

static void annotate_render(struct pane *p, struct explorer *x, struct textbuf *tb)
{
	struct annotate_priv *st = p->priv;
	struct xannotation a;
	char msg[512];
	if (xannotate(x, NULL, flags_of(st), &a, msg, sizeof msg) < 0) {
		tb_puts(tb, 0, 0, TB_DIM, msg);
		return;
	}
	int y = 0;
	size_t body = a.n > HEAD_LINES ? HEAD_LINES : a.n;
	for (size_t i = 0; i < body && y < tb->h; i++)
		tb_puts(tb, 0, y++, TB_BOLD, a.line[i].text);
	/* the line to keep in view: the one a key chose, else the pc's, else
	 * the hottest (first red) */
	size_t focus = body;
	for (size_t i = body; i < a.n && st->focus_pc; i++)
		if (a.line[i].pc == st->focus_pc) {
			focus = i;
			break;
		}
	for (size_t i = body; i < a.n && focus == body; i++)
		if (a.line[i].is_pc) {
			focus = i;
			break;
		}
	if (focus == body)
		for (size_t i = body; i < a.n; i++)
			if (a.line[i].heat == XANN_HOT) {
				focus = i;
				break;
			}
	size_t rows = tb->h > y ? (size_t)(tb->h - y) : 0, first = body;
	if (rows && focus >= body + rows / 2)
		first = focus - rows / 2;
	if (a.n > rows && first + rows > a.n)
		first = a.n - rows > body ? a.n - rows : body;
	const struct xann_line *cursor = focus < a.n && a.line[focus].pc ? &a.line[focus] : NULL;
	for (size_t i = first; i < a.n && y < tb->h; i++) {
		const struct xann_line *l = &a.line[i];
		int attr = l->heat == XANN_HOT ? TB_MISS : l->heat == XANN_WARM ? TB_GOOD :
			   l->heat == XANN_HEADER ? TB_DIM : l->is_pc ? TB_HEAD : TB_NORMAL;
		int col = tb_puts(tb, 0, y, attr, l->text);
		if (st->focus_pc && l->pc == st->focus_pc && col < tb->w - 2)
			col = tb_puts(tb, col + 1, y, TB_HILITE, "<");
		int est = cursor && l->pc && names_culprit(cursor, l->pc);
		int truth = cursor && l->pc && l->pc != cursor->pc && cursor->true_culprit == l->pc;
		if ((est || truth) && col < tb->w - 2) {
			char mark[64];
			snprintf(mark, sizeof mark, "<- %sculprit of %llx%s", est ? "" : "the true ",
				 (unsigned long long)cursor->pc, est && truth ? " (the true one)" : "");
			tb_puts(tb, col + 2, y, TB_HILITE, mark);
		}
		y++;
	}
	xannotation_free(&a);
}

static int annotate_key(struct pane *p, struct explorer *x, int key)
{
	struct annotate_priv *st = p->priv;
	if (key == '.') {
		st->focus_pc = 0;
		return 1;
	}
	if (key == 'p') {
		st->pct_total = !st->pct_total;
		return 1;
	}
	if (key != 'h' && key != '\t' && key != 'n')
		return 0;
	struct xannotation a;
	char msg[512];
	if (xannotate(x, NULL, flags_of(st), &a, msg, sizeof msg) < 0)
		return 0;
	uint64_t pick = 0;
	if (key == 'h') {
		double best = 0;
		for (size_t i = 0; i < a.n; i++)
			if (a.line[i].pc && a.line[i].share > best)
				best = a.line[i].share, pick = a.line[i].pc;
	} else {
		/* the next line at or above 0.5% after the focused one, wrapping */
		uint64_t from = st->focus_pc ? st->focus_pc : explorer_pc(x);
		uint64_t first_hot = 0;
		for (size_t i = 0; i < a.n; i++) {
			if (!a.line[i].pc || a.line[i].share < 0.5)
				continue;
			if (!first_hot)
				first_hot = a.line[i].pc;
			if (a.line[i].pc > from) {
				pick = a.line[i].pc;
				break;
			}
		}
		if (!pick)
			pick = first_hot;
	}
	xannotation_free(&a);
	if (!pick)
		return 0;
	st->focus_pc = pick;
	return 1;
}

static void annotate_status(struct pane *p, struct explorer *x, char *buf, size_t n)
{
	const struct annotate_priv *st = p->priv;
	const char *pct = st->pct_total ? "% of total" : "% of procedure";
	if (st->focus_pc)
		snprintf(buf, n, "at %llx (. follows the pc), %s", (unsigned long long)st->focus_pc, pct);
	else
		snprintf(buf, n, "around the pc (h hottest, Tab next hot, p %%), %s", pct);
}

static const struct pane_class pane_annotate = {
	.name = "annotate", .title = "Annotate (dcpicalc)",
	.summary = "dcpicalc on the samples so far for the procedure around the pc, with the truth (perf colours; "
		   "Ctrl-X h hottest, Tab next hot, . the pc, p percent of procedure/total)",
	.min_w = 60, .min_h = 6, .pref_w = 120, .batch_h = 20, .priv_size = sizeof(struct annotate_priv),
	.render = annotate_render, .key = annotate_key, .status = annotate_status,
};
PANE_REGISTER(pane_annotate);
