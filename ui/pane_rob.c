/*
 * pane_rob.c — the reorder buffer: an occupancy gauge, then the entries
 * near the head and near the tail (the middle elided when they do not all
 * fit), each with its sequence number, pc, disassembly, state and what
 * holds it. The head is highlighted, wrong-path entries are marked, and
 * the instruction of the last stop is highlighted too. PgUp/PgDn move the
 * window over the middle of a full ROB.
 */
#include <stdio.h>
#include <string.h>
#include "core/core.h"
#include "isa/disasm.h"
#include "explorer/explorer.h"
#include "pane.h"
#include "textbuf.h"
#include "isa/uop.h"

static const char *wait_text(int wait)
{
	switch (wait) {
	case HEAD_L1D: return "L1D miss";
	case HEAD_L2D: return "L2D miss";
	case HEAD_DTLB: return "D-TLB miss";
	case HEAD_LONG_LATENCY: return "long-latency op";
	case HEAD_STORE: return "store drain";
	default: return "";
	}
}

static void state_text(const struct rob_view *r, char *buf, size_t n)
{
	switch (r->state) {
	case ROB_DISPATCHED: snprintf(buf, n, "dispatched"); break;
	case ROB_ISSUED: snprintf(buf, n, "issued"); break;
	case ROB_EXECUTING: snprintf(buf, n, "executing %d", r->cycles_left); break;
	default: snprintf(buf, n, "done"); break;
	}
}

static void entry_row(struct explorer *x, struct textbuf *tb, int row, int i, const struct rob_view *r)
{
	char dis[64], st[24];
	if (r->uop)
		disasm_word(r->uop->word, r->pc, dis, sizeof dis);
	else
		snprintf(dis, sizeof dis, "?");
	state_text(r, st, sizeof st);
	int attr = i == 0 ? TB_HEAD : r->wrong_path ? TB_DIM :
		   r->state == ROB_DONE ? TB_GOOD : r->state == ROB_DISPATCHED ? TB_NORMAL : TB_INFO;
	if (x->stop.insn_seq && r->seq == x->stop.insn_seq)
		attr = TB_HILITE;
	const char *w = wait_text(r->wait);
	int wattr = r->wait == HEAD_L2D || r->wait == HEAD_DTLB ? TB_MISS : TB_WARN;
	int col = tb_printf(tb, 0, row, attr, "%c%3d %7llu %8llx  %-26.26s %-14s",
			    i == 0 ? '>' : ' ', i, (unsigned long long)r->seq,
			    (unsigned long long)r->pc, dis, st);
	if (r->wrong_path)
		col = tb_puts(tb, col, row, attr == TB_HILITE ? attr : TB_WARN, "wrong path ");
	if (*w)
		tb_puts(tb, col, row, attr == TB_HILITE || attr == TB_HEAD ? attr : wattr, w);
	if (attr == TB_HEAD || attr == TB_HILITE)
		tb_set_attr(tb, 0, row, tb->w, attr);
}

static void rob_render(struct pane *p, struct explorer *x, struct textbuf *tb)
{
	int occ = core_rob_occupancy(x->core), size = core_rob_size(x->core);
	/* gauge */
	int gw = tb->w - 20;
	if (gw > 64)
		gw = 64;
	int col = tb_puts(tb, 0, 0, TB_BOLD, "occupancy ");
	if (gw > 4) {
		int fill = size ? (occ * gw + size - 1) / size : 0;
		tb_fill(tb, col, 0, fill, tb_glyph(tb, G_BLOCK_FULL), occ == size ? TB_MISS : TB_INFO);
		tb_fill(tb, col + fill, 0, gw - fill, tb_glyph(tb, G_SHADE), TB_DIM);
		col += gw + 1;
	}
	tb_printf(tb, col, 0, occ == size ? TB_MISS : TB_BOLD, "%d/%d", occ, size);
	if (tb->h < 2)
		return;
	tb_printf(tb, 0, 1, TB_DIM, "%4s %7s %8s  %-26s %-14s %s", "#", "seq", "pc", "instruction", "state",
		  "held by");
	int rows = tb->h - 2;
	if (rows <= 0)
		return;
	if (!occ) {
		p->scroll = 0;
		tb_puts(tb, 0, 2, TB_DIM, "  (empty)");
		return;
	}
	struct rob_view r;
	if (occ <= rows) {
		p->scroll = 0;
		for (int i = 0; i < occ; i++)
			if (core_rob_entry(x->core, i, &r) == 0)
				entry_row(x, tb, 2 + i, i, &r);
		return;
	}
	/* The head, a window (scrollable; moved to show the stop's
	 * instruction), the tail; elided stretches as one "more" row each. */
	int tail_n = rows / 3;
	int mid_n = rows - tail_n - 1;          /* rows before the tail's ellipsis */
	int max_first = occ - tail_n - mid_n;
	if (p->scroll > max_first)
		p->scroll = max_first;
	int first = p->scroll;
	if (!p->scroll && x->stop.insn_seq && rows >= 4) {
		for (int i = mid_n; i < occ - tail_n; i++)
			if (core_rob_entry(x->core, i, &r) == 0 && r.seq == x->stop.insn_seq) {
				/* The head and a "more" row take two rows: leave at
				 * least one for the window by shortening the tail. */
				if (rows - tail_n < 4) {
					tail_n = rows >= 5 ? 1 : 0;
					mid_n = rows - tail_n - 1;
				}
				first = i - (mid_n - 2) / 2;
				if (first + (mid_n - 2) > occ - tail_n)
					first = occ - tail_n - (mid_n - 2);
				break;
			}
	}
	int row = 2;
	if (first > 0) {   /* keep the head itself on screen */
		if (core_rob_entry(x->core, 0, &r) == 0)
			entry_row(x, tb, row++, 0, &r);
		mid_n--;
		if (first > 1) {
			tb_putc(tb, 4, row, TB_DIM, tb_glyph(tb, G_ELLIPSIS));
			tb_printf(tb, 6, row++, TB_DIM, "%d more", first - 1);
			mid_n--;
		} else {
			first = 1;
		}
	}
	int end = first + mid_n;
	if (end > occ - tail_n)
		end = occ - tail_n;
	for (int i = first; i < end; i++, row++)
		if (core_rob_entry(x->core, i, &r) == 0)
			entry_row(x, tb, row, i, &r);
	if (occ - tail_n > end) {
		tb_putc(tb, 4, row, TB_DIM, tb_glyph(tb, G_ELLIPSIS));
		tb_printf(tb, 6, row++, TB_DIM, "%d more", occ - tail_n - end);
	}
	for (int i = occ - tail_n; i < occ; i++, row++)
		if (core_rob_entry(x->core, i, &r) == 0)
			entry_row(x, tb, row, i, &r);
}

static void rob_status(struct pane *p, struct explorer *x, char *buf, size_t n)
{
	snprintf(buf, n, "%d/%d", core_rob_occupancy(x->core), core_rob_size(x->core));
}

static const struct pane_class pane_rob = {
	.name = "rob", .title = "ROB",
	.summary = "reorder buffer: gauge, entries near head and tail, state, what holds them",
	.min_w = 44, .min_h = 5, .pref_w = 72, .batch_h = 20, .scroll_unit = 4,
	.render = rob_render, .status = rob_status,
};
PANE_REGISTER(pane_rob);
