/*
 * pane_fmt.c — the frontend miss event table of the FMT accounting unit
 * (Eyerman et al. §4.1, Figure 10a): one row per outstanding branch with
 * its ROB id, mispredict bit, branch penalty counter and local L1I / L2I /
 * I-TLB counters, and the fetch (F), dispatch-head (H) and dispatch-tail
 * (T) pointers. The alternate view (F2 / Ctrl-X v, `show sfmt`) shows the
 * shared FMT of the sFMT unit (Figure 10b): the same rows without local
 * counters, one shared set of I-side counters and the ROB's I-miss bits.
 * Rows are listed from the dispatch head to the fetch row.
 */
#include <stdio.h>
#include <string.h>
#include "acct/acct.h"
#include "explorer/explorer.h"
#include "explorer/inst_acct.h"
#include "explorer/instrument.h"
#include "pane.h"
#include "textbuf.h"

static const char *state_name(int s)
{
	switch (s) {
	case ACCT_ROW_OPEN: return "fetch row";
	case ACCT_ROW_FRONTEND: return "frontend";
	case ACCT_ROW_ROB: return "in ROB";
	case ACCT_ROW_RESOLVED: return "resolved";
	default: return "free";
	}
}

static void fmt_render(struct pane *p, struct explorer *x, struct textbuf *tb)
{
	int sfmt = p->view != 0;
	const struct acct *a = xacct_unit(explorer_instrument(x, "acct"), sfmt ? ACCT_SFMT : ACCT_FMT);
	struct acct_fmt_state st;
	if (!a || acct_fmt_state(a, &st) < 0) {
		tb_puts(tb, 0, 0, TB_DIM, "no FMT accounting unit");
		return;
	}
	struct acct_stack gs;
	acct_get_stack(a, &gs);
	int y = 0;
	tb_printf(tb, 0, y++, TB_BOLD, "global  L1I %llu  L2I %llu  ITLB %llu  bpred %llu%s",
		  (unsigned long long)gs.comp[ACCT_L1I], (unsigned long long)gs.comp[ACCT_L2I],
		  (unsigned long long)gs.comp[ACCT_ITLB], (unsigned long long)gs.comp[ACCT_BPRED],
		  st.refill ? "  (refill: counting bpred)" : "");
	if (sfmt && y < tb->h)
		tb_printf(tb, 0, y++, TB_INFO, "shared  L1I %llu  L2I %llu  ITLB %llu   I-miss bits in ROB: %d",
			  (unsigned long long)st.shared[ACCT_FE_L1I], (unsigned long long)st.shared[ACCT_FE_L2I],
			  (unsigned long long)st.shared[ACCT_FE_ITLB], st.imiss_bits);
	if (y < tb->h) {
		if (sfmt)
			tb_printf(tb, 0, y++, TB_DIM, "ptr  row  ROB  M  br.pen  %-10s %s", "state", "branch");
		else
			tb_printf(tb, 0, y++, TB_DIM, "ptr  row  ROB  M  br.pen   L1I   L2I  ITLB  %-10s %s",
				  "state", "branch");
	}
	int live = st.in_rob + st.in_frontend + 1;
	int avail = tb->h - y;
	if (p->scroll > live - avail)
		p->scroll = live - avail > 0 ? live - avail : 0;
	for (int k = p->scroll; k < live && y < tb->h; k++, y++) {
		int i = (st.dispatch_head + k) % st.rows;
		struct acct_fmt_row r;
		if (acct_fmt_row(a, i, &r) < 0)
			continue;
		char ptr[4] = "   ";
		if (i == st.fetch)
			ptr[0] = 'F';
		if (i == st.dispatch_head && st.in_rob)
			ptr[1] = 'H';
		if (i == st.dispatch_tail && st.in_rob)
			ptr[2] = 'T';
		char rob[16] = "-", where[80] = "";
		if (r.rob_id >= 0)
			snprintf(rob, sizeof rob, "%d", r.rob_id);
		if (r.pc)
			explorer_describe(x, r.pc, where, sizeof where);
		int attr = r.mispredicted ? TB_MISS : r.state == ACCT_ROW_OPEN ? TB_INFO :
			   r.state == ACCT_ROW_FRONTEND ? TB_DIM : TB_NORMAL;
		if (x->stop.insn_seq && r.seq == x->stop.insn_seq)
			attr = TB_HILITE;
		int col = tb_printf(tb, 0, y, attr, "%s %4d %4s  %c %7llu  ", ptr, i, rob, r.mispredicted ? '1' : '0',
				    (unsigned long long)r.branch_penalty);
		if (!sfmt)
			col = tb_printf(tb, col, y, attr, "%5llu %5llu %5llu  ", (unsigned long long)r.local[ACCT_FE_L1I],
					(unsigned long long)r.local[ACCT_FE_L2I], (unsigned long long)r.local[ACCT_FE_ITLB]);
		col = tb_printf(tb, col, y, attr, "%-10s ", state_name(r.state));
		if (r.pc) {
			col = tb_printf(tb, col, y, attr, "0x%llx ", (unsigned long long)r.pc);
			tb_put_location(tb, col, y, attr, where, NULL);
		}
	}
	if (y < tb->h && st.overflows)
		tb_printf(tb, 0, y, TB_WARN, "%llu branches untracked (table full)", (unsigned long long)st.overflows);
}

static int fmt_key(struct pane *p, struct explorer *x, int key)
{
	if (key == PANE_KEY_VIEW || key == 'v' || key == 's') {
		p->view = !p->view;
		return 1;
	}
	return 0;
}

static void fmt_status(struct pane *p, struct explorer *x, char *buf, size_t n)
{
	const struct acct *a = xacct_unit(explorer_instrument(x, "acct"), p->view ? ACCT_SFMT : ACCT_FMT);
	struct acct_fmt_state st;
	if (a && acct_fmt_state(a, &st) == 0)
		snprintf(buf, n, "%s: %d rows, %d branches in ROB, %d in frontend  [F2: %s]",
			 p->view ? "shared FMT" : "per-branch", st.rows, st.in_rob, st.in_frontend,
			 p->view ? "FMT" : "sFMT");
}

static const struct pane_class pane_fmt = {
	.name = "fmt", .title = "FMT",
	.summary = "the frontend miss event table (F2: the shared sFMT)",
	.min_w = 50, .min_h = 4, .pref_w = 72, .batch_h = 14, .scroll_unit = 4,
	.render = fmt_render, .key = fmt_key, .status = fmt_status,
};
PANE_REGISTER(pane_fmt);
