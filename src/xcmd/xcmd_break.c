/*
 * xcmd_break.c — setting breakpoints and catchpoints:
 *   break LOC [if COND], tbreak LOC [if COND]     LOC: *ADDR, SYMBOL[+OFF], cycle N
 *   catch EVENT [if COND], tcatch EVENT [if COND]
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "explorer/explorer.h"
#include "explorer/explorer_break.h"
#include "explorer/explorer_expr.h"
#include "xcmd.h"

/* Split "WHAT if COND" into what and cond (cond empty without "if").
 * 0, or -1 (x->err, calling WHAT noun) when WHAT does not fit in wn
 * bytes: a location cut short would be a different location. */
static int split_if(struct explorer *x, const char *args, const char *noun, char *what, size_t wn,
		    const char **cond)
{
	const char *p = args;
	*cond = "";
	while (*p) {
		if (!strncmp(p, "if", 2) && (p == args || isspace((unsigned char)p[-1])) &&
		    (!p[2] || isspace((unsigned char)p[2]))) {
			*cond = p + 2;
			break;
		}
		p++;
	}
	size_t n = (size_t)(p - args);
	while (n && isspace((unsigned char)args[n - 1]))
		n--;
	if (n >= wn)
		return explorer_error(x, "%s too long (at most %zu characters)", noun, wn - 1);
	snprintf(what, wn, "%.*s", (int)n, args);
	while (isspace((unsigned char)**cond))
		(*cond)++;
	return 0;
}

static int parse_cond(struct explorer *x, const char *text, struct xexpr **out)
{
	*out = NULL;
	if (!*text)
		return 0;
	char msg[200];
	*out = xexpr_parse(x, text, msg, sizeof msg);
	return *out ? 0 : explorer_error(x, "%s", msg);
}

static int add(struct explorer *x, struct xbp *bp, const char *kind)
{
	int num = xbreaks_add(x->breaks, bp);
	if (num < 0) {
		xexpr_free(bp->cond);
		return explorer_error(x, "out of memory");
	}
	char d[128];
	xbreaks_describe(bp, d, sizeof d);
	explorer_printf(x, "%s%s %d: %s%s%s\n", bp->temp ? "Temporary " : "", kind, num, d,
			bp->cond ? " if " : "", bp->cond ? xexpr_text(bp->cond) : "");
	explorer_state_changed(x);
	return 0;
}

static int break_common(struct explorer *x, const char *args, int temp)
{
	char what[256];
	const char *cond;
	if (split_if(x, args, "location", what, sizeof what, &cond) < 0)
		return -1;
	if (!what[0])
		return explorer_error(x, "usage: break LOCATION [if COND]  (LOCATION: *ADDR, SYMBOL, cycle N)");
	struct xbp bp = { .temp = temp, .enabled = 1 };
	if (!strncmp(what, "cycle", 5) && (isspace((unsigned char)what[5]) || !what[5])) {
		unsigned long long n;
		const char *v = what + 5;
		while (isspace((unsigned char)*v))
			v++;
		if (xcmd_parse_count(x, v, &n) < 0)
			return -1;
		bp.type = XBP_CYCLE;
		bp.cycle = n;
		if (n <= explorer_cycle(x))
			explorer_printf(x, "(cycle %llu has passed; the breakpoint hits after a restart or on reverse-continue)\n", n);
	} else {
		uint64_t addr;
		if (explorer_parse_addr(x, what, &addr) < 0)
			return -1;
		bp.type = XBP_CODE;
		bp.addr = addr;
		char desc[128];
		explorer_describe(x, addr, desc, sizeof desc);
		snprintf(bp.where, sizeof bp.where, "0x%llx %.60s", (unsigned long long)addr, desc);
	}
	if (parse_cond(x, cond, &bp.cond) < 0)
		return -1;
	return add(x, &bp, "Breakpoint");
}

static int break_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	return break_common(x, args, 0);
}

static int tbreak_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	return break_common(x, args, 1);
}

#define LOC_HELP \
	"LOCATION: *ADDR (any expression), SYMBOL, SYMBOL+OFF, or `cycle N` (stop at\n" \
	"cycle N). A code breakpoint hits when a correct-path instruction at the\n" \
	"address reaches the stage of `set break-stage` (default: dispatch into the\n" \
	"ROB). COND is an expression (see `help print`)."

static const struct xcmd break_cmd = {
	.name = "break", .aliases = "b br", .usage = "break LOCATION [if COND]",
	.summary = "stop when an instruction at LOCATION is dispatched (or at a cycle)",
	.help = LOC_HELP, .complete = XC_LOCATION, .exec = break_exec,
};
XCMD_REGISTER(break_cmd);

static const struct xcmd tbreak_cmd = {
	.name = "tbreak", .aliases = "tb", .usage = "tbreak LOCATION [if COND]",
	.summary = "a breakpoint deleted when it first stops the program",
	.help = LOC_HELP, .complete = XC_LOCATION, .exec = tbreak_exec,
};
XCMD_REGISTER(tbreak_cmd);

static int catch_common(struct explorer *x, const char *args, int temp)
{
	char what[256];
	const char *cond;
	if (split_if(x, args, "event", what, sizeof what, &cond) < 0)
		return -1;
	/* EVENT [begin|end] */
	int phase = -1;
	char *sp = strchr(what, ' ');
	if (sp) {
		char *q = sp;
		while (isspace((unsigned char)*q))
			q++;
		if (!strcmp(q, "end"))
			phase = 1;
		else if (!strcmp(q, "begin"))
			phase = 0;
		else
			return explorer_error(x, "catch %s: expected begin or end after the event, not \"%s\"", what, q);
		*sp = 0;
	}
	int kind = xev_from_name(what);
	if (kind < 0) {
		char list[300] = "";
		size_t used = 0;
		for (int k = 0; k < XEV_COUNT && used < sizeof list; k++)
			if (strcmp(xev_name(k), "?"))
				used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "",
							 xev_name(k));
		return explorer_error(x, "%s: %s event; one of: %s", what[0] ? what : "catch",
				      what[0] ? "unknown" : "missing", list);
	}
	struct xbp bp = { .type = XBP_CATCH, .temp = temp, .enabled = 1, .ev_kind = kind };
	snprintf(bp.where, sizeof bp.where, "%s", xev_name(kind));
	if (parse_cond(x, cond, &bp.cond) < 0)
		return -1;
	if (phase >= 0)
		bp.at_end = phase;
	else if (bp.cond && (xexpr_uses(bp.cond, "latency") || xexpr_uses(bp.cond, "end")))
		bp.at_end = 1;
	if (bp.at_end && kind != XEV_OVERLAP && kind != XEV_INTERVAL)
		snprintf(bp.where, sizeof bp.where, "%s end", xev_name(kind));
	return add(x, &bp, "Catchpoint");
}

static int catch_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	return catch_common(x, args, 0);
}

static int tcatch_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	return catch_common(x, args, 1);
}

#define CATCH_HELP \
	"EVENT: l1i l2i itlb l1d l2d dtlb mispredict fu-stall rob-full rob-empty\n" \
	"       overlap   a long miss begins while another is outstanding, or a\n" \
	"                 frontend miss while a long miss blocks the ROB head\n" \
	"       interval  an interval ends: correct-path issue resumes after a miss\n" \
	"The catchpoint hits when the event begins, or with `end` when it ends (the\n" \
	"default when COND reads `latency` or `end`). Only correct-path events hit\n" \
	"unless `set catch-wrong-path on`. COND can use pc, sym, latency, cycle,\n" \
	"start, end, addr (see `help print`)."

static const struct xcmd catch_cmd = {
	.name = "catch", .usage = "catch EVENT [begin|end] [if COND]",
	.summary = "stop when a miss event of kind EVENT happens",
	.help = CATCH_HELP, .complete = XC_EVENT, .exec = catch_exec,
};
XCMD_REGISTER(catch_cmd);

static const struct xcmd tcatch_cmd = {
	.name = "tcatch", .usage = "tcatch EVENT [begin|end] [if COND]",
	.summary = "a catchpoint deleted when it first stops the program",
	.help = CATCH_HELP, .complete = XC_EVENT, .exec = tcatch_exec,
};
XCMD_REGISTER(tcatch_cmd);
