/*
 * xcmd_break.c — setting breakpoints and catchpoints:
 *   break LOC [if COND], tbreak LOC [if COND]     LOC: *ADDR, SYMBOL[+OFF], cycle N
 *   catch EVENT [QUALIFIER] [if COND], tcatch EVENT [QUALIFIER] [if COND]
 *   (an instrument's qualified event: `catch sample imiss` is sample-imiss)
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/config.h"
#include "core/events.h"
#include "explorer/explorer.h"
#include "explorer/explorer_break.h"
#include "explorer/explorer_expr.h"
#include "explorer/instrument.h"
#include "guest/program.h"
#include "isa/mem.h"
#include "xcmd.h"

/* Split "WHAT if COND" into what and cond (cond empty without "if").
 * 0, or -1 (x->err, calling WHAT noun) when WHAT does not fit in wn
 * bytes: a location cut short would be a different location. */

int xcmd_check_code_address(struct explorer *x, uint64_t addr)
{
	if (program_uop(x->prog, addr))
		return 0;
	char ranges[200] = "";
	size_t used = 0;
	for (int i = 0; i < program_segment_count(x->prog) && used < sizeof ranges; i++) {
		const struct program_segment *sg = program_segment(x->prog, i);
		if (sg->prot & MEM_X)
			used += (size_t)snprintf(ranges + used, sizeof ranges - used, "%s0x%llx-0x%llx", used ? ", " : "",
						 (unsigned long long)sg->vaddr, (unsigned long long)(sg->vaddr + sg->memsz));
	}
	if ((addr & 3) && program_uop(x->prog, addr & ~(uint64_t)3))
		return explorer_error(x, "0x%llx is not an instruction address (not 4-byte aligned)",
				      (unsigned long long)addr);
	return explorer_error(x, "0x%llx is outside the program's code (%s)", (unsigned long long)addr, ranges);
}
static int split_if(struct explorer *x, const char *args, const char *noun, char *what, size_t wn,
		    const char **cond)
{
	const char *p = args;
	int has_if = 0;
	*cond = "";
	while (*p) {
		if (!strncmp(p, "if", 2) && (p == args || isspace((unsigned char)p[-1])) &&
		    (!p[2] || isspace((unsigned char)p[2]))) {
			*cond = p + 2;
			has_if = 1;
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
	/* `catch l2d if` with nothing after it is a mistake, not "always" */
	if (has_if && !**cond)
		return explorer_error(x, "expected a condition after if");
	return 0;
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
		if (xcmd_check_code_address(x, addr) < 0)
			return -1;
		bp.type = XBP_CODE;
		bp.addr = addr;
		char desc[128];
		explorer_describe(x, addr, desc, sizeof desc);
		snprintf(bp.where, sizeof bp.where, "0x%llx %.60s", (unsigned long long)addr, desc);
	}
	if (xexpr_parse_arg(x, cond, &bp.cond) < 0)
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

/* A catchpoint on a cache miss's latency: print how long such a miss
 * lasts in this configuration, and return the longest (with a TLB miss
 * first), or -1 for other events. A latency condition above it can only
 * hold for a miss that queued for an MSHR: a teacher trying `catch l2d if
 * latency > 300` should hear that before waiting for nothing. */
static int cache_miss_note(struct explorer *x, int kind, char *note, size_t n)
{
	const struct machine_config *c = &x->cfg_live;
	int base, walk;
	const char *how;
	char parts[96];
	switch (kind) {
	case MISS_L1I:
		base = (int)c->l2.latency, walk = (int)c->itlb.miss_latency, how = "L2";
		snprintf(parts, sizeof parts, "L2 %u", c->l2.latency);
		break;
	case MISS_L2I:
		base = (int)(c->l2.latency + c->memory_latency), walk = (int)c->itlb.miss_latency, how = "I-TLB";
		snprintf(parts, sizeof parts, "L2 %u + memory %u", c->l2.latency, c->memory_latency);
		break;
	case MISS_L1D:
		base = (int)(c->l1d.latency + c->l2.latency), walk = (int)c->dtlb.miss_latency, how = "D-TLB";
		snprintf(parts, sizeof parts, "L1D %u + L2 %u", c->l1d.latency, c->l2.latency);
		break;
	case MISS_L2D:
		base = (int)(c->l1d.latency + c->l2.latency + c->memory_latency), walk = (int)c->dtlb.miss_latency,
		how = "D-TLB";
		snprintf(parts, sizeof parts, "L1D %u + L2 %u + memory %u", c->l1d.latency, c->l2.latency,
			 c->memory_latency);
		break;
	default:
		return -1;
	}
	if (kind == MISS_L1I)
		how = "I-TLB";
	snprintf(note, n, "(in this configuration an %s miss lasts %d cycles: %s; %d after a%s %s miss)\n",
		 xev_name(kind), base, parts, base + walk, how[0] == 'I' ? "n" : "", how);
	return base + walk;
}

/* N in a condition of the form `latency > N` or `latency >= N+1`, else -1. */
static long latency_threshold(const char *cond)
{
	const char *p = strstr(cond, "latency");
	if (!p)
		return -1;
	p += 7;
	while (isspace((unsigned char)*p))
		p++;
	int ge = 0;
	if (*p != '>')
		return -1;
	p++;
	if (*p == '=')
		ge = 1, p++;
	char *end;
	long n = strtol(p, &end, 0);
	if (end == p || n < 0)
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -1;   /* more to the condition: no guess */
	return ge ? n - 1 : n;
}

static int catch_common(struct explorer *x, const char *args, int temp)
{
	char what[256];
	const char *cond;
	if (split_if(x, args, "event", what, sizeof what, &cond) < 0)
		return -1;
	/* EVENT [QUALIFIER] [begin|end]: an instrument's event may take a
	 * qualifier word (`catch sample imiss` is the event sample-imiss) */
	int phase = -1;
	char *sp = strchr(what, ' ');
	if (sp) {
		char *q = sp;
		while (isspace((unsigned char)*q))
			q++;
		size_t qn = strcspn(q, " \t");
		char joined[sizeof what];
		snprintf(joined, sizeof joined, "%.*s-%.*s", (int)(sp - what), what, (int)qn, q);
		if (qn && xev_from_name(joined) >= 0) {
			memmove(what + (sp - what) + 1 + qn, q + qn, strlen(q + qn) + 1);
			memmove(what + (sp - what) + 1, q, qn);
			what[sp - what] = '-';
			sp = strchr(what, ' ');
		} else if (qn && strcmp(q, "begin") && strcmp(q, "end")) {
			/* a qualifier the event does not take: name those it does */
			char list[200] = "";
			size_t used = 0, wn = (size_t)(sp - what);
			for (int k = 0; k < XEV_COUNT && used < sizeof list; k++)
				if (!strncmp(xev_name(k), what, wn) && xev_name(k)[wn] == '-')
					used += (size_t)snprintf(list + used, sizeof list - used, " %s", xev_name(k) + wn + 1);
			if (used)
				return explorer_error(x, "catch %.*s: unknown %.*s event \"%.*s\"; one of:%s", (int)wn, what,
						      (int)wn, what, (int)qn, q, list);
		}
	}
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
	if (xexpr_parse_arg(x, cond, &bp.cond) < 0)
		return -1;
	if (phase >= 0 && (kind == XEV_OVERLAP || kind == XEV_INTERVAL || kind >= XEV_INSTRUMENT)) {
		/* (words a command does not take are an error, not ignored) */
		xexpr_free(bp.cond);
		return explorer_error(x, "catch %s: %s %s happens at one moment; leave out `%s`", xev_name(kind),
				      strchr("aeiou", xev_name(kind)[0]) ? "an" : "a", xev_name(kind),
				      phase ? "end" : "begin");
	}
	if (phase == 0 && bp.cond && (xexpr_uses(bp.cond, "latency") || xexpr_uses(bp.cond, "end"))) {
		/* (at the begin they read 0: the catchpoint could never hit, or
		 * hit every event) */
		xexpr_free(bp.cond);
		return explorer_error(x, "catch %s begin: latency and end are known only when the event ends; "
				      "leave out `begin` (a condition on them catches the end)", xev_name(kind));
	}
	if (phase >= 0)
		bp.at_end = phase;
	else if (bp.cond && (xexpr_uses(bp.cond, "latency") || xexpr_uses(bp.cond, "end")))
		bp.at_end = 1;
	if (bp.at_end && kind >= XEV_INSTRUMENT) {
		/* (an instrument reports a moment: it has no end to catch) */
		xexpr_free(bp.cond);
		return explorer_error(x, "catch %s: that event is a moment and has no end; catch %s stops at it",
				      xev_name(kind), xev_name(kind));
	}
	if (bp.at_end && kind != XEV_OVERLAP && kind != XEV_INTERVAL)
		snprintf(bp.where, sizeof bp.where, "%s end", xev_name(kind));
	char note[200] = "";
	int longest = bp.cond && xexpr_uses(bp.cond, "latency") ? cache_miss_note(x, kind, note, sizeof note) : -1;
	long wanted = longest >= 0 && bp.cond ? latency_threshold(xexpr_text(bp.cond)) : -1;
	if (add(x, &bp, "Catchpoint") < 0)
		return -1;
	explorer_printf(x, "%s", note);
	const char *idle = explorer_event_idle(x, xev_name(kind));
	if (idle)
		explorer_printf(x, "note: %s; until then this catchpoint cannot hit\n", idle);
	if (wanted > longest)
		explorer_printf(x, "warning: no %s miss lasts more than %d cycles unless it waits for a free MSHR, "
				"which may never happen: this catchpoint may never hit\n", xev_name(kind), longest);
	return 0;
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
	"       sample [EV]  the DCPI sampler delivers a sample (of event EV: cycles\n" \
	"                 imiss dmiss branchmp dtbmiss retired; also sample-EV)\n" \
	"       coproc-interrupt, strat-interrupt  the instruments' interrupts\n" \
	"The catchpoint hits when the event begins, or with `end` when it ends (the\n" \
	"default when COND reads `latency` or `end`). Only correct-path events hit\n" \
	"unless `set catch-wrong-path on`. COND can use pc, sym, latency, cycle,\n" \
	"start, end, addr (see `help print`)."

/* Tab after `catch EVENT`: the qualifiers EVENT takes (sample: cycles,
 * imiss, ... from the events named sample-cycles, sample-imiss, ...). */
static const char *qualifier_word(const char *event, int i)
{
	size_t n = strlen(event);
	for (int k = 0; k < XEV_COUNT; k++)
		if (!strncmp(xev_name(k), event, n) && xev_name(k)[n] == '-' && i-- == 0)
			return xev_name(k) + n + 1;
	return NULL;
}

static const struct xcmd_then catch_then[] = {
	{ .after = "*", .word_at = qualifier_word },
	{ 0 },
};

static const struct xcmd catch_cmd = {
	.name = "catch", .usage = "catch EVENT [QUALIFIER] [begin|end] [if COND]",
	.summary = "stop when a miss event of kind EVENT happens",
	.help = CATCH_HELP, .complete = XC_EVENT, .then = catch_then, .exec = catch_exec,
};
XCMD_REGISTER(catch_cmd);

static const struct xcmd tcatch_cmd = {
	.name = "tcatch", .usage = "tcatch EVENT [QUALIFIER] [begin|end] [if COND]",
	.summary = "a catchpoint deleted when it first stops the program",
	.help = CATCH_HELP, .complete = XC_EVENT, .then = catch_then, .exec = tcatch_exec,
};
XCMD_REGISTER(tcatch_cmd);
