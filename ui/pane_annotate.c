/*
 * pane_annotate.c — dcpicalc's annotation of the procedure around the pc
 * (src/explorer/annotate.c), redone from the samples so far at every
 * update, so it grows while the program runs. Lines are coloured as perf
 * annotate colours them: instructions with >= 5% of the procedure's
 * samples red, >= 0.5% green. The column header stays on top; the listing
 * scrolls so the pc's line is in view (or, when the pc is outside the
 * procedure, the hottest line).
 */
#include <stdio.h>
#include <string.h>
#include "explorer/annotate.h"
#include "explorer/explorer.h"
#include "pane.h"
#include "textbuf.h"

#define HEAD_LINES 3   /* the title, the summary and the column header */

static void annotate_render(struct pane *p, struct explorer *x, struct textbuf *tb)
{
	(void)p;
	struct xannotation a;
	char msg[512];
	if (xannotate(x, NULL, &a, msg, sizeof msg) < 0) {
		tb_puts(tb, 0, 0, TB_DIM, msg);
		return;
	}
	int y = 0;
	size_t body = a.n > HEAD_LINES ? HEAD_LINES : a.n;
	for (size_t i = 0; i < body && y < tb->h; i++)
		tb_puts(tb, 0, y++, TB_BOLD, a.line[i].text);
	/* the line to keep in view: the pc's, else the hottest (first red) */
	size_t focus = body;
	for (size_t i = body; i < a.n; i++)
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
	for (size_t i = first; i < a.n && y < tb->h; i++) {
		const struct xann_line *l = &a.line[i];
		int attr = l->heat == XANN_HOT ? TB_MISS : l->heat == XANN_WARM ? TB_GOOD :
			   l->heat == XANN_HEADER ? TB_DIM : l->is_pc ? TB_HEAD : TB_NORMAL;
		tb_puts(tb, 0, y++, attr, l->text);
	}
	xannotation_free(&a);
}

static const struct pane_class pane_annotate = {
	.name = "annotate", .title = "Annotate (dcpicalc)",
	.summary = "dcpicalc on the samples so far for the procedure around the pc, with the truth (perf colours)",
	.min_w = 60, .min_h = 6, .pref_w = 120, .batch_h = 20,
	.render = annotate_render,
};
PANE_REGISTER(pane_annotate);
