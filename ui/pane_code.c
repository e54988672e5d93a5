/*
 * pane_code.c — disassembly (capstone) around the pc with symbol labels
 * and how many times each instruction has committed so far. Marks: '>'
 * the ROB head (the next instruction to commit), '*' other instructions in
 * the ROB, 'B' a breakpoint. The instruction of the last stop is
 * highlighted. PgUp/PgDn scroll up and down from the pc. F2 switches the
 * count: commits, the correct-path miss events each instruction began, or
 * the cycles it stalled at the ROB head with nothing committing
 * (src/explorer/inst_charge.c keeps the last two).
 */
#include <stdio.h>
#include <string.h>
#include "core/core.h"
#include "isa/disasm.h"
#include "explorer/explorer.h"
#include "explorer/inst_reset.h"
#include "explorer/explorer_break.h"
#include "explorer/explorer_trace.h"
#include "explorer/inst_charge.h"
#include "pane.h"
#include "guest/program.h"
#include "guest/symtab.h"
#include "textbuf.h"
#include "isa/uop.h"

#define MAX_MARK 512

static int in_list(const uint64_t *v, int n, uint64_t pc)
{
	for (int i = 0; i < n; i++)
		if (v[i] == pc)
			return 1;
	return 0;
}

static int has_break(struct explorer *x, uint64_t pc)
{
	for (int i = 0; i < xbreaks_count(x->breaks); i++) {
		const struct xbp *bp = xbreaks_at(x->breaks, i);
		if (bp->num && bp->type == XBP_CODE && bp->addr == pc)
			return 1 + !bp->enabled;
	}
	return 0;
}

static void code_render(struct pane *p, struct explorer *x, struct textbuf *tb)
{
	const struct symtab *st = program_symbols(x->prog);
	/* Around the pc; right after a stop, around the instruction it is about. */
	uint64_t pc = x->stop.insn_seq && x->stop.pc ? x->stop.pc : explorer_pc(x);
	uint64_t in_rob[MAX_MARK];
	int n_rob = 0, occ = core_rob_occupancy(x->core);
	struct rob_view rv;
	for (int i = 1; i < occ && n_rob < MAX_MARK; i++)
		if (core_rob_entry(x->core, i, &rv) == 0 && !rv.wrong_path)
			in_rob[n_rob++] = rv.pc;
	uint64_t head = occ && core_rob_entry(x->core, 0, &rv) == 0 ? rv.pc : 0;

	/* Start a third of the way up, moved by the scroll (may go negative:
	 * scroll counts lines upwards). */
	int64_t back = tb->h / 3 + p->scroll;
	uint64_t a = pc - (uint64_t)(back * 4);
	if (back < 0)
		a = pc + (uint64_t)(-back * 4);
	int row = 0;
	for (; row < tb->h; a += 4) {
		const struct uop *u = program_uop(x->prog, a);
		uint64_t off;
		const struct symbol *s = symtab_lookup(st, a, &off);
		if (s && off == 0 && s->name[0]) {
			tb_printf(tb, 0, row++, TB_BOLD, "%s:", s->name);
			if (row >= tb->h)
				break;
		}
		char dis[80];
		if (u)
			disasm_word(u->word, a, dis, sizeof dis);
		else
			snprintf(dis, sizeof dis, "%s", "");
		int b = has_break(x, a);
		char mark = a == head ? '>' : in_list(in_rob, n_rob, a) ? '*' : ' ';
		uint64_t n = xreset_commits_at(x, a), misses, stalls;
		if (p->view) {
			xcharge_pc_counts(x, a, &misses, &stalls);
			n = p->view == 1 ? misses : stalls;
		}
		char cnt[24] = "";
		if (n)
			snprintf(cnt, sizeof cnt, "%llu", (unsigned long long)n);
		int attr = a == head ? TB_HEAD : mark == '*' ? TB_INFO : u ? TB_NORMAL : TB_DIM;
		if (x->stop.pc == a && x->stop.reason && x->stop.insn_seq)
			attr = TB_HILITE;
		tb_putc(tb, 0, row, b == 1 ? TB_MISS : TB_DIM, b ? 'B' : ' ');
		tb_printf(tb, 1, row, attr, "%c %8llx %9s  %s", mark, (unsigned long long)a, cnt, u ? dis : "");
		if (attr == TB_HEAD || attr == TB_HILITE)
			tb_set_attr(tb, 1, row, tb->w - 1, attr);
		row++;
	}
}

static void code_status(struct pane *p, struct explorer *x, char *buf, size_t n)
{
	char where[96];
	explorer_describe(x, explorer_pc(x), where, sizeof where);
	static const char *const what[] = { "commits", "miss events", "stall cycles at the ROB head" };
	uint64_t m, st;
	int full = p->view && xcharge_pc_counts(x, 0, &m, &st) == 1;
	snprintf(buf, n, "%s (count = %s%s)", where, what[p->view % 3], full ? ", some not counted" : "");
}

static int code_key(struct pane *p, struct explorer *x, int key)
{
	if (key == PANE_KEY_VIEW || key == 'v') {
		p->view = (p->view + 1) % 3;
		return 1;
	}
	return 0;
}

static const struct pane_class pane_code = {
	.name = "code", .title = "Code",
	.summary = "disassembly around the pc with symbols and commit counts",
	.min_w = 36, .min_h = 4, .pref_w = 40, .batch_h = 16, .scroll_unit = 4,
	.render = code_render, .key = code_key, .status = code_status,
};
PANE_REGISTER(pane_code);
