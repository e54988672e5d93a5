/*
 * pane_coproc.c — the profiling co-processor next to the core: what it
 * runs and where its microcode is, the filters and how many instructions
 * they tag, the sample buffer filling and draining, and the slots (for
 * the value program: each load's pc, active value, its hits over the
 * region since it became active, the slot's total samples, and whether
 * the handler masked it; "full" when the total counter saturated; for
 * value_topk.s, ours, the value whose way counts most, its own hits
 * (count less what the way inherited) and the number of ways in use).
 */
#include <stdio.h>
#include <string.h>
#include "coproc/coproc.h"
#include "explorer/explorer.h"
#include "explorer/inst_coproc.h"
#include "explorer/instrument.h"
#include "pane.h"
#include "textbuf.h"

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
	tb_printf(tb, col, y, TB_NORMAL, "| PC hash mask %d bits, match %u | tagged %llu/%llu (%.1f%%) | masked %llu",
		  s.pc_width, s.pc_match, (unsigned long long)s.tagged, (unsigned long long)s.decoded,
		  s.decoded ? 100.0 * (double)s.tagged / (double)s.decoded : 0.0, (unsigned long long)s.masked);
	if (++y >= tb->h)
		return;
	col = tb_puts(tb, 0, y, TB_DIM, "buffer ");
	int bw = 16;
	int fill = cfg->buffer ? (int)((s.buffer_count * bw + (int)cfg->buffer - 1) / (int)cfg->buffer) : 0;
	for (int i = 0; i < bw; i++)
		tb_putc(tb, col + i, y, i < fill ? TB_WARN : TB_DIM, i < fill ? L'#' : L'.');
	col += bw;
	tb_printf(tb, col, y, TB_NORMAL, " %d/%u  records %llu  dropped %llu  stalls %llu (%llu cyc) | interrupts %llu (%llu cyc)",
		  s.buffer_count, cfg->buffer, (unsigned long long)s.records, (unsigned long long)s.drops,
		  (unsigned long long)s.stalls, (unsigned long long)s.stall_cycles, (unsigned long long)s.interrupts,
		  (unsigned long long)s.handler_cycles);
	if (++y >= tb->h)
		return;
	int value = !strcmp(pr->handler, "value"), edge = !strcmp(pr->handler, "edge");
	int ways = value ? (int)coproc_prog_param(pr, "ways", 0) : 0;
	if (ways)
		tb_printf(tb, 0, y, TB_DIM, "%4s %10s %-22s %18s %11s %5s %5s %s", "slot", "pc", "symbol",
			  "top way's value", "own/count", "ways", "total", "state");
	else if (value)
		tb_printf(tb, 0, y, TB_DIM, "%4s %10s %-22s %18s %11s %5s %5s %s", "slot", "pc", "symbol",
			  "active value", "hits/region", "match", "total", "state");
	else if (edge)
		tb_printf(tb, 0, y, TB_DIM, "%4s %10s %-22s %10s %10s", "slot", "pc", "symbol", "taken", "not taken");
	else
		tb_printf(tb, 0, y, TB_DIM, "%4s %10s %-22s %10s %10s %10s %10s", "slot", "key", "symbol", "w0", "w1",
			  "w2", "w3");
	y++;
	int n = coproc_slot_count(cp), used = 0, shown = 0;
	uint64_t cmax = (pr->cwidth >= 63) ? UINT64_MAX : (1ull << pr->cwidth) - 1;
	for (int i = 0; i < n; i++) {
		struct coproc_slot sl;
		coproc_slot(cp, i, &sl);
		if (!sl.valid)
			continue;
		used++;
		if (y >= tb->h)
			continue;
		shown++;
		char sym[64];
		explorer_describe(x, sl.pc, sym, sizeof sym);
		if (ways) {
			/* the ways: CAM entries i + n * (j + 1), count at b1, inherited at b3 */
			struct coproc_slot wy, top = { 0 };
			int inuse = 0;
			for (int j = 0; j < ways; j++) {
				coproc_slot(cp, i + n * (j + 1), &wy);
				if (!wy.valid)
					continue;
				inuse++;
				if (!top.valid || wy.w[1] > top.w[1])
					top = wy;
			}
			int shift = (int)coproc_prog_param(pr, "key_shift", 40) & 63;
			const char *st = sl.masked ? "masked" : sl.w[1] == cmax ? "full" : "";
			tb_printf(tb, 0, y, sl.masked ? TB_DIM : TB_NORMAL, "%4d %#10llx %-22.22s %#18llx %5llu/%-5llu %5d %5llu %s",
				  i, (unsigned long long)sl.pc, sym,
				  (unsigned long long)(top.valid ? top.pc ^ (sl.pc << shift) : 0),
				  (unsigned long long)(top.w[1] > top.w[3] ? top.w[1] - top.w[3] : 0),
				  (unsigned long long)top.w[1], inuse, (unsigned long long)sl.w[1], st);
		} else if (value) {
			/* the active value's region: hits and misses since it was selected */
			uint64_t region = sl.w[1] + sl.w[3];
			const char *st = sl.masked ? "masked" : sl.w[2] == cmax ? "full" : "";
			tb_printf(tb, 0, y, sl.masked ? TB_DIM : TB_NORMAL,
				  "%4d %#10llx %-22.22s %#18llx %5llu/%-5llu %4.0f%% %5llu %s", i,
				  (unsigned long long)sl.pc, sym, (unsigned long long)sl.w[0], (unsigned long long)sl.w[1],
				  (unsigned long long)region, region ? 100.0 * (double)sl.w[1] / (double)region : 0.0,
				  (unsigned long long)sl.w[2], st);
		} else if (edge) {
			tb_printf(tb, 0, y, TB_NORMAL, "%4d %#10llx %-22.22s %10llu %10llu", i, (unsigned long long)sl.pc,
				  sym, (unsigned long long)sl.w[0], (unsigned long long)sl.w[1]);
		} else {
			tb_printf(tb, 0, y, TB_NORMAL, "%4d %#10llx %-22.22s %10llu %10llu %10llu %10llu", i,
				  (unsigned long long)sl.pc, sym, (unsigned long long)sl.w[0],
				  (unsigned long long)sl.w[1], (unsigned long long)sl.w[2], (unsigned long long)sl.w[3]);
		}
		y++;
	}
	if (!used && y < tb->h)
		tb_puts(tb, 0, y, TB_DIM, "(no slot in use)");
	else if (shown < used)
		tb_printf(tb, tb->w > 28 ? tb->w - 28 : 0, tb->h - 1, TB_DIM, " %3d slots in use, %3d shown", used,
			  shown);
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
	.min_w = 60, .min_h = 5, .batch_h = 14,
	.render = cp_render, .status = cp_status,
};
PANE_REGISTER(pane_coproc);
