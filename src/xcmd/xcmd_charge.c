/*
 * xcmd_charge.c — `info events N` (the newest N miss events with what each
 * accounting method charged them) and `info cost [N]` (one event's true
 * cost, measured by running without it, beside those charges). The
 * numbers come from src/explorer/inst_charge.c; these are the topics of
 * xcmd_info.c's table.
 */
#include <stdio.h>
#include <string.h>
#include "explorer/explorer.h"
#include "explorer/explorer_trace.h"
#include "explorer/inst_charge.h"
#include "ui_state.h"
#include "pane.h"
#include "xcmd.h"
#include "xcmd_charge.h"

const char *xcharge_method_short(int m)
{
	return m == ACCT_NAIVE_NONSPEC ? "nonspec" : acct_method_name(m);
}

void xcharge_format(const struct explorer *x, const struct xevent *e, char *buf, size_t n)
{
	int64_t v[ACCT_METHOD_COUNT], t;
	int known[ACCT_METHOD_COUNT];
	int have = xcharge_get(x, e, v, known) == 0;
	size_t len = 0;
	buf[0] = 0;
	for (int m = 0; m < ACCT_METHOD_COUNT && len < n; m++) {
		char cell[24] = "-";
		if (have && known[m])
			snprintf(cell, sizeof cell, "%lld", (long long)v[m]);
		else if (!have && !e->ended && xcharge_comp(e->kind) >= 0 && e->kind < MISS_KIND_COUNT)
			snprintf(cell, sizeof cell, "...");
		len += (size_t)snprintf(buf + len, n - len, " %7s", cell);
	}
	if (len < n) {
		char cell[24] = "";
		if (xcharge_true_cost(x, e, &t) == 0)
			snprintf(cell, sizeof cell, "%lld", (long long)t);
		snprintf(buf + len, n - len, " %6s", cell);
	}
}

void xcharge_header(char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = 0;
	for (int m = 0; m < ACCT_METHOD_COUNT && len < n; m++)
		len += (size_t)snprintf(buf + len, n - len, " %7.7s", xcharge_method_short(m));
	if (len < n)
		snprintf(buf + len, n - len, " %6s", "true");
}

static void event_line(struct explorer *x, int row, const struct xevent *e)
{
	char lat[16] = "...", charged[160], where[96] = "";
	if (e->ended)
		snprintf(lat, sizeof lat, "%llu", (unsigned long long)(e->end - e->start));
	xcharge_format(x, e, charged, sizeof charged);
	if (e->pc)
		explorer_describe(x, e->pc, where, sizeof where);
	uint64_t when = e->kind >= MISS_KIND_COUNT ? e->end : e->start;
	char line[400];
	int len = snprintf(line, sizeof line, "%4d %9llu %-10s %6s%s  %s%s", row, (unsigned long long)xcycle(when),
			   xev_name(e->kind), lat, charged, where, e->correct_path ? "" : " (wrong path)");
	while (len > 0 && line[len - 1] == ' ')
		line[--len] = 0;
	explorer_printf(x, "%s\n", line);
}

int xcharge_info_events(struct explorer *x, uint64_t n)
{
	char head[160];
	xcharge_header(head, sizeof head);
	int count = xtrace_event_count(x->trace);
	if (n > (uint64_t)count)   /* (the pane keeps the newest XTRACE_EVENTS) */
		n = (uint64_t)count;
	explorer_printf(x, "the %llu newest events, with the cycles each method has charged each one "
			"so far (docs/explorer.md, info events)\n", (unsigned long long)n);
	explorer_printf(x, "%4s %9s %-10s %6s%s  %s\n", "row", "cycle", "event", "cycles", head, "where");
	for (int i = 0; i < count && (uint64_t)i < n; i++)
		event_line(x, i + 1, xtrace_event_at(x->trace, i));
	explorer_printf(x, "(naive: its fixed [penalty] per event; `true`: what `info cost ROW` measured)\n");
	return 0;
}

/* The events pane's current copy of e (the same engine event), or NULL:
 * a copy taken at a stop does not see the event end later. */
static const struct xevent *current(struct explorer *x, const struct xevent *e)
{
	int n = xtrace_event_count(x->trace);
	for (int i = 0; e->id && i < n; i++) {
		const struct xevent *c = xtrace_event_at(x->trace, i);
		if (c->id == e->id && c->kind == e->kind && c->start == e->start)
			return c;
	}
	return NULL;
}

/* The event `info cost` is about: row N of the events pane, else the row
 * at the top of a scrolled events pane, else the event of the last stop,
 * else that of the last catchpoint hit (as the events pane has it now). */
static const struct xevent *pick(struct explorer *x, int argc, char **argv, int *row)
{
	int n = xtrace_event_count(x->trace);
	*row = 0;
	if (argc >= 2) {
		uint64_t v;
		if (xcmd_parse_uint(argv[1], UINT64_MAX, &v) < 0) {
			explorer_error(x, "info cost ROW: expected a row number, got \"%s\"", argv[1]);
			return NULL;
		}
		if (v < 1 || v > (uint64_t)n) {
			explorer_error(x, "no row %s: the events pane has %d rows (1 is the newest)", argv[1], n);
			return NULL;
		}
		*row = (int)v;
		return xtrace_event_at(x->trace, (int)v - 1);
	}
	struct pane *p = x->ui ? ui_pane_find(x->ui, "events") : NULL;
	if (p && p->scroll > 0 && p->scroll < n) {
		*row = p->scroll + 1;
		return xtrace_event_at(x->trace, p->scroll);
	}
	if (x->stop.has_event || x->has_caught) {
		const struct xevent *e = x->stop.has_event ? &x->stop.event : &x->caught;
		int derived = e->kind >= MISS_KIND_COUNT && e->kind < XEV_INSTRUMENT && e->cause >= 0 &&
			      e->cause <= MISS_MISPREDICT;
		if (e->kind > MISS_MISPREDICT && !derived)   /* (before looking for it: a rob-full has no id) */
			return explorer_error(x, "the run stopped at a %s: only l1i, l2i, itlb, l1d, l2d, dtlb and "
					      "mispredict events can be taken away (ivx cost's kinds)", xev_name(e->kind)),
			       NULL;
		const struct xevent *now = current(x, e);
		if (!now && e->start >= explorer_cycle(x))
			return explorer_error(x, "that %s begins at cycle %llu, after this one: a reverse command went "
					      "back before it", xev_name(e->kind), (unsigned long long)xcycle(e->start)),
			       NULL;
		if (!now && !e->ended) {
			/* caught as it began, and gone from the pane before its end
			 * was seen there: nothing knows when it ended */
			explorer_error(x, "that %s has left the events pane (it keeps the newest %d) before its end "
				       "was seen: `catch %s end` stops where info cost can measure one",
				       xev_name(e->kind), XTRACE_EVENTS, xev_name(e->kind));
			return NULL;
		}
		return now ? now : e;
	}
	explorer_error(x, "which event? `info cost N` for row N of the events pane (`info events 10` lists them), "
		       "or stop at one with `catch`");
	return NULL;
}

int xcharge_info_cost(struct explorer *x, int argc, char **argv)
{
	int row;
	const struct xevent *picked = pick(x, argc, argv, &row);
	if (!picked)
		return -1;
	struct xevent e = *picked;   /* (the ring may move while measuring) */
	if (e.kind >= MISS_KIND_COUNT && e.kind < XEV_INSTRUMENT && e.cause >= 0 && e.cause <= MISS_MISPREDICT) {
		/* an overlap or an interval: the miss that made it */
		const struct xevent *m = NULL;
		int n = xtrace_event_count(x->trace), i;
		for (i = 0; i < n && !m; i++) {
			const struct xevent *c = xtrace_event_at(x->trace, i);
			if (c->kind == e.cause && c->insn_seq == e.insn_seq && c->start <= e.end)
				m = c;
		}
		if (!m)
			return explorer_error(x, "that %s's %s is no longer in the events pane", xev_name(e.kind),
					      xev_name(e.cause));
		explorer_printf(x, "(the %s of the %s in row %d)\n", xev_name(e.kind), xev_name(e.cause), i);
		e = *m;
		row = i;
	}
	if (e.kind > MISS_MISPREDICT)
		return explorer_error(x, "that row is a %s: only l1i, l2i, itlb, l1d, l2d, dtlb and mispredict events "
				      "can be taken away (ivx cost's kinds)", xev_name(e.kind));
	if (!e.ended)
		return explorer_error(x, "that %s is still in progress: step until it ends, then ask again",
				      xev_name(e.kind));
	struct xcost_result r = { 0 };
	if (xcharge_measure(x, &e, &r) < 0)
		return -1;
	char where[96] = "";
	if (e.pc)
		explorer_describe(x, e.pc, where, sizeof where);
	char which[32];
	snprintf(which, sizeof which, "%s", x->stop.has_event ? "last stop:" : "last catch:");
	if (row)
		snprintf(which, sizeof which, "row %d:", row);
	explorer_printf(x, "%s %s at cycle %llu, 0x%llx %s, lasted %llu cycles\n", which, xev_name(e.kind), (unsigned long long)xcycle(e.start),
			(unsigned long long)e.pc, where, (unsigned long long)(e.end - e.start));
	if (r.ended)   /* (instruction r.target never commits: the end is what both reach) */
		explorer_printf(x, "true cost: %lld cycles (from the state at cycle %llu, the program ends at cycle %llu "
				"with the event and at cycle %llu without it)\n", (long long)r.penalty,
				(unsigned long long)r.from_cycle, (unsigned long long)r.with,
				(unsigned long long)r.without);
	else
		explorer_printf(x, "true cost: %lld cycles (from the state at cycle %llu, instruction %llu commits at "
				"cycle %llu with the event and at cycle %llu without it)\n", (long long)r.penalty,
				(unsigned long long)r.from_cycle, (unsigned long long)r.target,
				(unsigned long long)r.with, (unsigned long long)r.without);
	int64_t v[ACCT_METHOD_COUNT];
	int known[ACCT_METHOD_COUNT];
	int have = xcharge_get(x, &e, v, known) == 0;
	explorer_printf(x, "charged to %s so far:   cycles  minus the true cost\n", acct_comp_name(xcharge_comp(e.kind)));
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		if (!have || !known[m]) {
			explorer_printf(x, "  %-15s %7s\n", acct_method_label(m), "-");
			continue;
		}
		explorer_printf(x, "  %-15s %7lld  %+7lld%s\n", acct_method_label(m), (long long)v[m],
				(long long)(v[m] - r.penalty),
				m == ACCT_NAIVE || m == ACCT_NAIVE_NONSPEC ? "  (a fixed penalty per event)" : "");
	}
	return 0;
}
