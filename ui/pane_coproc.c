/*
 * pane_coproc.c — the profiling co-processor next to the core: what it
 * runs and where its microcode is, the filters and how many instructions
 * they tag, the sample buffer filling and draining, and the slots (for
 * the value program: each load's pc, active value, its hits over the
 * region since it became active, the slot's total samples, and whether
 * the handler masked it; "full" when the total counter saturated; for
 * value_topk.s, ours, the value whose way counts most, its own hits
 * (count less what the way inherited) and the number of ways in use).
 * PgDn scrolls down the slots when they do not all fit; the lines above
 * them stay.
 */
#include <stdio.h>
#include <string.h>
#include "coproc/coproc.h"
#include "explorer/explorer.h"
#include "explorer/inst_coproc.h"
#include "explorer/instrument.h"
#include "pane.h"
#include "textbuf.h"

/* Text at col on row *y, or at the start of the next row (indented) when
 * it does not fit: a number cut at the pane's edge would read as another
 * number. The column after it; -1 when the pane has no row left. */
static int part(struct textbuf *tb, int *y, int col, int attr, const char *text)
{
	int len = (int)strlen(text);
	if (col + len > tb->w && col > 6) {
		if (++*y >= tb->h)
			return -1;
		col = 6;
	}
	return tb_puts(tb, col, *y, attr, text);
}

static void cp_render(struct pane *p, struct explorer *x, struct textbuf *tb)
{
	const struct coproc *cp = xcoproc_engine(explorer_instrument(x, "coproc"));
	if (!cp) {
		tb_puts(tb, 0, 0, TB_DIM, "no co-processor program: coproc load value (or edge, callstack, FILE)");
		return;
	}
	const struct coproc_prog *pr = coproc_program(cp);
	const struct coproc_config *cfg = coproc_cfg(cp);
	struct coproc_stats s;
	coproc_get_stats(cp, &s);
	int y = 0;
	static const char *const states[] = { "idle", "running", "stopped" };
	int col = tb_printf(tb, 0, y, TB_BOLD, "%s", pr->name);
	col = tb_printf(tb, col, y, s.state == CPS_RUNNING ? TB_INFO : TB_DIM, "  %s", states[s.state]);
	if (s.upc >= 0) {
		char buf[160], sym[64];
		coproc_disasm_insn(pr, s.upc, buf, sizeof buf);
		explorer_describe(x, s.head_pc, sym, sizeof sym);
		const char *lab = coproc_prog_label_at(pr, s.upc);
		col = tb_printf(tb, col, y, TB_NORMAL, "  %s record of %s", insn_kind_name(s.routine_kind), sym);
		tb_printf(tb, col, y, TB_HEAD, "  upc %d%s%s: %s", s.upc, lab ? " " : "", lab ? lab : "", buf);
	}
	if (s.complete)
		tb_puts(tb, col, y, TB_GOOD, "  profile complete");
	if (++y >= tb->h)
		return;
	col = tb_puts(tb, 0, y, TB_DIM, "filters ");
	for (int k = 0; k < INSN_KIND_COUNT; k++)
		if (pr->classes >> k & 1)
			col = tb_printf(tb, col, y, TB_NORMAL, "%s ", insn_kind_name(k));
	char text[96];
	snprintf(text, sizeof text, "| PC hash mask %d bits, match %u ", s.pc_width, s.pc_match);
	if ((col = part(tb, &y, col, TB_NORMAL, text)) < 0)
		return;
	snprintf(text, sizeof text, "| tagged %llu/%llu (%.1f%%) ", (unsigned long long)s.tagged,
		 (unsigned long long)s.decoded, s.decoded ? 100.0 * (double)s.tagged / (double)s.decoded : 0.0);
	if ((col = part(tb, &y, col, TB_NORMAL, text)) < 0)
		return;
	snprintf(text, sizeof text, "| masked %llu", (unsigned long long)s.masked);
	if (part(tb, &y, col, TB_NORMAL, text) < 0 || ++y >= tb->h)
		return;
	col = tb_puts(tb, 0, y, TB_DIM, "buffer ");
	int bw = 16;
	int fill = cfg->buffer ? (int)((s.buffer_count * bw + (int)cfg->buffer - 1) / (int)cfg->buffer) : 0;
	for (int i = 0; i < bw; i++)
		tb_putc(tb, col + i, y, i < fill ? TB_WARN : TB_DIM, i < fill ? L'#' : L'.');
	col += bw;
	col = tb_printf(tb, col, y, TB_NORMAL, " %d/%u  records %llu  dropped %llu  stalls %llu (%llu cyc)",
			s.buffer_count, cfg->buffer, (unsigned long long)s.records, (unsigned long long)s.drops,
			(unsigned long long)s.stalls, (unsigned long long)s.stall_cycles);
	snprintf(text, sizeof text, " | interrupts %llu (%llu cyc)", (unsigned long long)s.interrupts,
		 (unsigned long long)s.handler_cycles);
	if (part(tb, &y, col, TB_NORMAL, text) < 0 || ++y >= tb->h)
		return;
	int value = !strcmp(pr->handler, "value"), edge = !strcmp(pr->handler, "edge");
	struct xcoproc_topk t;
	int ways = value && xcoproc_topk_slot(cp, 0, &t);
	/* the symbol column gives way on a narrow pane, down to 8 (the
	 * others are numbers, which must not be cut) */
	int sw = tb->w - (value ? 66 : edge ? 38 : 60);
	sw = sw < 8 ? 8 : sw > 22 ? 22 : sw;
	int n = coproc_slot_count(cp), used = 0, shown = 0;
	for (int i = 0; i < n; i++) {
		struct coproc_slot sl;
		coproc_slot(cp, i, &sl);
		used += sl.valid != 0;
	}
	if (used && y == tb->h - 1) {
		/* room for one line: the count says more than the column names */
		tb_printf(tb, 0, y, TB_DIM, "(%d slots in use: a taller pane, or info coproc slots)", used);
		return;
	}
	if (ways)
		tb_printf(tb, 0, y, TB_DIM, "%4s %10s %-*s %18s %11s %5s %5s %s", "slot", "pc", sw, "symbol",
			  "top way's value", "own/count", "ways", "total", "state");
	else if (value)
		tb_printf(tb, 0, y, TB_DIM, "%4s %10s %-*s %18s %11s %5s %5s %s", "slot", "pc", sw, "symbol",
			  "active value", "hits/region", "match", "total", "state");
	else if (edge)
		tb_printf(tb, 0, y, TB_DIM, "%4s %10s %-*s %10s %10s", "slot", "pc", sw, "symbol", "taken", "not taken");
	else
		tb_printf(tb, 0, y, TB_DIM, "%4s %10s %-*s %10s %10s %10s %10s", "slot", "key", sw, "symbol", "w0", "w1",
			  "w2", "w3");
	y++;
	/* the rows for slots, less one for the count of those left out;
	 * PgDn scrolls down the slots in use (p->scroll of them skipped),
	 * the header stays */
	int rows = tb->h - y;
	if (used > rows)
		rows--;
	int most = used > rows ? used - rows : 0;
	p->page = rows > 1 ? rows : 1;   /* (a PgDn moves the rows shown: no slot is passed over) */
	p->scroll = p->scroll < 0 ? 0 : p->scroll > most ? most : p->scroll;
	uint64_t cmax = (pr->cwidth >= 63) ? UINT64_MAX : (1ull << pr->cwidth) - 1;
	int first = -1, last = -1;
	for (int i = 0, skip = p->scroll; i < n && shown < rows; i++) {
		struct coproc_slot sl;
		coproc_slot(cp, i, &sl);
		if (!sl.valid || skip-- > 0)
			continue;
		shown++;
		if (first < 0)
			first = i;
		last = i;
		char full[96], sym[64];
		explorer_describe(x, sl.pc, full, sizeof full);
		tb_fit_location(full, sw, sym, sizeof sym);
		if (ways) {
			xcoproc_topk_slot(cp, i, &t);
			const char *st = sl.masked ? "masked" : sl.w[1] == cmax ? "full" : "";
			tb_printf(tb, 0, y, sl.masked ? TB_DIM : TB_NORMAL, "%4d %#10llx %-*s %#18llx %5llu/%-5llu %5d %5llu %s",
				  i, (unsigned long long)sl.pc, sw, sym, (unsigned long long)t.value,
				  (unsigned long long)t.own, (unsigned long long)t.count, t.ways,
				  (unsigned long long)sl.w[1], st);
		} else if (value) {
			/* the active value's region: hits and misses since it was selected */
			uint64_t region = sl.w[1] + sl.w[3];
			const char *st = sl.masked ? "masked" : sl.w[2] == cmax ? "full" : "";
			tb_printf(tb, 0, y, sl.masked ? TB_DIM : TB_NORMAL,
				  "%4d %#10llx %-*s %#18llx %5llu/%-5llu %4.0f%% %5llu %s", i,
				  (unsigned long long)sl.pc, sw, sym, (unsigned long long)sl.w[0], (unsigned long long)sl.w[1],
				  (unsigned long long)region, region ? 100.0 * (double)sl.w[1] / (double)region : 0.0,
				  (unsigned long long)sl.w[2], st);
		} else if (edge) {
			tb_printf(tb, 0, y, TB_NORMAL, "%4d %#10llx %-*s %10llu %10llu", i, (unsigned long long)sl.pc,
				  sw, sym, (unsigned long long)sl.w[0], (unsigned long long)sl.w[1]);
		} else {
			tb_printf(tb, 0, y, TB_NORMAL, "%4d %#10llx %-*s %10llu %10llu %10llu %10llu", i,
				  (unsigned long long)sl.pc, sw, sym, (unsigned long long)sl.w[0],
				  (unsigned long long)sl.w[1], (unsigned long long)sl.w[2], (unsigned long long)sl.w[3]);
		}
		y++;
	}
	if (!used && y < tb->h)
		tb_puts(tb, 0, y, TB_DIM, s.finished ? "(no slot in use: harvested at the end of the run)" : "(no slot in use)");
	else if (shown < used && y < tb->h)
		tb_printf(tb, 0, y, TB_DIM, "(%d slots in use, %d shown, slots %d to %d: %s, or info coproc slots)",
			  used, shown, first, last,
			  !p->scroll ? "PgDn" : p->scroll < most ? "PgUp/PgDn" : "PgUp");
}

static void cp_status(struct pane *p, struct explorer *x, char *buf, size_t n)
{
	const struct coproc *cp = xcoproc_engine(explorer_instrument(x, "coproc"));
	if (!cp) {
		snprintf(buf, n, "off");
		return;
	}
	struct coproc_stats s;
	coproc_get_stats(cp, &s);
	snprintf(buf, n, "%s, buffer %d/%u", coproc_program(cp)->name, s.buffer_count, coproc_cfg(cp)->buffer);
}

static const struct pane_class pane_coproc = {
	.name = "coproc", .title = "Co-processor",
	.summary = "the profiling co-processor: microcode pc, filters, sample buffer, slots",
	.min_w = 60, .min_h = 5, .batch_h = 14, .scroll_down = 1,
	.render = cp_render, .status = cp_status,
};
PANE_REGISTER(pane_coproc);
