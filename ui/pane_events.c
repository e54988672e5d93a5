/*
 * pane_events.c — the recent miss events, newest first: when each began,
 * its kind, the instruction, and how long it lasted (or "..." while in
 * progress). Wrong-path events are dimmed; the event of the last stop is
 * highlighted. The alternate view (F2) puts in place of the pc the cycles
 * each accounting method charged the event and, once `info cost` has
 * measured it, its true cost (src/explorer/inst_charge.c).
 */
#include <stdio.h>
#include <string.h>
#include "explorer/explorer.h"
#include "explorer/explorer_trace.h"
#include "legend.h"
#include "pane.h"
#include "textbuf.h"
#include "xcmd/xcmd_charge.h"

static int same_event(const struct xevent *a, const struct xevent *b)
{
	return a->kind == b->kind && a->id == b->id && a->start == b->start && a->pc == b->pc;
}

#define WRONG_PATH " (wrong path)"

/* A wrong-path event's mark after its location: whole where the location
 * still fits beside it, else short, so a narrow pane keeps the symbol
 * (it was cut to its first letters). NULL for a correct-path event. */
static const char *wrong_path_tail(const struct xevent *e, int width, const char *where)
{
	if (e->correct_path)
		return NULL;
	return (int)(strlen(where) + strlen(WRONG_PATH)) <= width ? WRONG_PATH : " (wrong)";
}

static void events_render(struct pane *p, struct explorer *x, struct textbuf *tb)
{
	int n = xtrace_event_count(x->trace);
	/* each event with its legend letter (legend.c), as the timeline and
	 * the CPI stacks draw it; `where` stays in the same column */
	char head[160];
	xcharge_header(head, sizeof head);
	if (p->view)
		tb_printf(tb, 0, 0, TB_BOLD, "%9s   %-10s %6s%s  %s", "cycle", "event", "cycles", head, "where");
	else
		tb_printf(tb, 0, 0, TB_BOLD, "%9s   %-10s %-6s %-16s %s", "cycle", "event", "cycles", "pc", "where");
	if (p->scroll > n - 1)
		p->scroll = n > 0 ? n - 1 : 0;
	if (!n)
		tb_puts(tb, 0, 1, TB_DIM, "  no miss events yet");
	for (int row = 1, i = p->scroll; row < tb->h && i < n; row++, i++) {
		const struct xevent *e = xtrace_event_at(x->trace, i);
		char lat[16], where[96];
		if (e->ended)
			snprintf(lat, sizeof lat, "%llu", (unsigned long long)(e->end - e->start));
		else
			snprintf(lat, sizeof lat, "...");
		if (e->pc)
			explorer_describe(x, e->pc, where, sizeof where);
		else
			where[0] = 0;
		int attr = !e->correct_path ? TB_DIM : !e->ended ? TB_MISS :
			   e->kind >= MISS_KIND_COUNT ? TB_INFO : TB_NORMAL;
		if (x->stop.has_event && same_event(e, &x->stop.event))
			attr = TB_HILITE;
		char pc[24] = "";
		if (e->pc)
			snprintf(pc, sizeof pc, "0x%llx", (unsigned long long)e->pc);
		/* Derived events are listed when they happen: an interval at its end. */
		uint64_t when = e->kind >= MISS_KIND_COUNT ? e->end : e->start;
		char letter = legend_letter(e->kind);
		if (p->view) {
			char charged[160];
			xcharge_format(x, e, charged, sizeof charged);
			int col = tb_printf(tb, 0, row, attr, "%9llu %c %-10s %6s%s  ", (unsigned long long)xcycle(when),
					    letter == '?' ? ' ' : letter, xev_name(e->kind), lat, charged);
			tb_put_location(tb, col, row, attr, where, wrong_path_tail(e, tb->w - col, where));
			continue;
		}
		int col = tb_printf(tb, 0, row, attr, "%9llu %c %-10s %6s ", (unsigned long long)xcycle(when),
				    letter == '?' ? ' ' : letter, xev_name(e->kind), lat);
		/* where the location has no room for the tail, the pc's column
		 * (16 wide) says it beside a pc of up to 9 characters: the
		 * program's code, where wrong paths fetch */
		enum { PC_COLUMN = 16 };
		const char *tail = wrong_path_tail(e, tb->w - col - PC_COLUMN - 1, where);
		if (tail && strcmp(tail, WRONG_PATH) && strlen(pc) <= 9) {
			strcat(pc, " wrong");
			tail = NULL;
		}
		col = tb_printf(tb, col, row, attr, "%-*s ", PC_COLUMN, pc);
		tb_put_location(tb, col, row, attr, where, tail);
	}
}

static int events_key(struct pane *p, struct explorer *x, int key)
{
	if (key == PANE_KEY_VIEW || key == 'v') {
		p->view = !p->view;
		return 1;
	}
	return 0;
}

static void events_status(struct pane *p, struct explorer *x, char *buf, size_t n)
{
	snprintf(buf, n, p->view ? "(newest first; cycles each method charged, true: info cost)  [F2: pc]"
				 : "(newest first)");
}

static const struct pane_class pane_events = {
	.name = "events", .title = "Events",
	.summary = "recent miss events, newest first",
	.min_w = 40, .min_h = 3, .pref_w = 60, .batch_h = 16,
	.render = events_render, .key = events_key, .status = events_status,
};
PANE_REGISTER(pane_events);
