/*
 * xcmd_info.c — info TOPIC: breakpoints, registers, rob, fmt, caches,
 * events, stack (the CPI stacks), snapshots, config, program.
 */
#include <stdlib.h>
#include <string.h>
#include "acct/acct.h"
#include "core/config.h"
#include "core/core.h"
#include "isa/cpu.h"
#include "explorer/explorer.h"
#include "explorer/explorer_acct.h"
#include "explorer/explorer_break.h"
#include "explorer/explorer_expr.h"
#include "explorer/explorer_snap.h"
#include "explorer/explorer_trace.h"
#include "guest/guest.h"
#include "ui_state.h"
#include "xcmd.h"

const char *const xcmd_info_topics[] = {
	"breakpoints", "registers", "rob", "fmt", "caches", "events", "stack",
	"snapshots", "config", "program", NULL,
};

static int info_breakpoints(struct explorer *x, const char *arg)
{
	int shown = 0;
	for (int i = 0; i < xbreaks_count(x->breaks); i++) {
		struct xbp *bp = xbreaks_at(x->breaks, i);
		if (!bp->num)
			continue;
		if (!shown++)
			explorer_printf(x, "Num     Type           Disp Enb What\n");
		char d[128];
		xbreaks_describe(bp, d, sizeof d);
		explorer_printf(x, "%-7d %-14s %-4s %-3s %s\n", bp->num,
				bp->type == XBP_CATCH ? "catchpoint" : "breakpoint",
				bp->temp ? "del" : "keep", bp->enabled ? "y" : "n", d);
		if (bp->cond)
			explorer_printf(x, "\tstop only if %s\n", xexpr_text(bp->cond));
		if (bp->hits)
			explorer_printf(x, "\tbreakpoint already hit %llu time%s\n",
					(unsigned long long)bp->hits, bp->hits == 1 ? "" : "s");
		if (bp->ignore)
			explorer_printf(x, "\tWill ignore next %llu crossings of breakpoint.\n",
					(unsigned long long)bp->ignore);
	}
	if (!shown)
		explorer_printf(x, "No breakpoints or catchpoints.\n");
	return 0;
}

static int info_registers(struct explorer *x, const char *arg)
{
	const struct cpu *c = guest_cpu_const(x->guest);
	explorer_printf(x, "Functional state at fetch (%llu instructions executed; %llu committed)\n",
			(unsigned long long)guest_insns(x->guest), (unsigned long long)explorer_committed(x));
	for (int r = 0; r < 31; r++)
		explorer_printf(x, "x%-2d 0x%016llx%s", r, (unsigned long long)c->x[r], r % 3 == 2 ? "\n" : "   ");
	explorer_printf(x, "sp  0x%016llx   pc  0x%016llx\n", (unsigned long long)c->x[CPU_SP],
			(unsigned long long)c->pc);
	explorer_printf(x, "nzcv %c%c%c%c\n", c->nzcv & NZCV_N ? 'N' : '-', c->nzcv & NZCV_Z ? 'Z' : '-',
			c->nzcv & NZCV_C ? 'C' : '-', c->nzcv & NZCV_V ? 'V' : '-');
	return 0;
}

static int info_pane(struct explorer *x, const char *name, int rows, int view)
{
	struct pane *p = ui_pane_find(x->ui, name);
	if (!p)
		return explorer_error(x, "no %s pane in this build", name);
	int saved = p->view, sscroll = p->scroll;
	p->view = view;
	p->scroll = 0;
	char *t = ui_pane_text(x->ui, x, p, x->set.width, rows, x->set.ascii);
	p->view = saved;
	p->scroll = sscroll;
	if (!t)
		return explorer_error(x, "out of memory");
	explorer_write(x, XOUT_NORMAL, t);
	free(t);
	return 0;
}

static int info_caches(struct explorer *x, const char *arg)
{
	const struct machine_config *c = &x->cfg_live;
	struct core_stats st;
	core_stats(x->core, &st);
	static const struct { const char *name; int kind; size_t off; } caches[] = {
		{ "L1 I-cache", MISS_L1I, offsetof(struct machine_config, l1i) },
		{ "L1 D-cache", MISS_L1D, offsetof(struct machine_config, l1d) },
		{ "L2 (unified)", -1, offsetof(struct machine_config, l2) },
	};
	explorer_printf(x, "%-13s %8s %5s %5s %7s %5s   %s\n", "", "size", "ways", "line", "latency", "mshrs",
			"miss events (correct path / wrong path)");
	for (size_t i = 0; i < sizeof caches / sizeof caches[0]; i++) {
		const struct cache_config *cc = (const void *)((const char *)c + caches[i].off);
		char ev[96];
		if (caches[i].kind >= 0)
			snprintf(ev, sizeof ev, "%llu / %llu", (unsigned long long)st.events_correct[caches[i].kind],
				 (unsigned long long)st.events_wrong[caches[i].kind]);
		else
			snprintf(ev, sizeof ev, "I-side %llu / %llu, D-side %llu / %llu",
				 (unsigned long long)st.events_correct[MISS_L2I], (unsigned long long)st.events_wrong[MISS_L2I],
				 (unsigned long long)st.events_correct[MISS_L2D], (unsigned long long)st.events_wrong[MISS_L2D]);
		explorer_printf(x, "%-13s %7uK %5u %5u %7u %5u   %s\n", caches[i].name, cc->size / 1024, cc->assoc,
				cc->line, cc->latency, cc->mshrs, ev);
	}
	explorer_printf(x, "%-13s %8u %5u %5s %7u         %llu / %llu\n", "I-TLB", c->itlb.entries, c->itlb.assoc,
			"", c->itlb.miss_latency, (unsigned long long)st.events_correct[MISS_ITLB],
			(unsigned long long)st.events_wrong[MISS_ITLB]);
	explorer_printf(x, "%-13s %8u %5u %5s %7u         %llu / %llu\n", "D-TLB", c->dtlb.entries, c->dtlb.assoc,
			"", c->dtlb.miss_latency, (unsigned long long)st.events_correct[MISS_DTLB],
			(unsigned long long)st.events_wrong[MISS_DTLB]);
	explorer_printf(x, "memory latency %u cycles\n", c->memory_latency);
	return 0;
}

static int info_events(struct explorer *x, const char *arg)
{
	struct core_stats st;
	core_stats(x->core, &st);
	explorer_printf(x, "%-11s %12s %12s\n", "event", "correct", "wrong path");
	for (int k = 0; k < MISS_KIND_COUNT; k++)
		explorer_printf(x, "%-11s %12llu %12llu\n", xev_name(k), (unsigned long long)st.events_correct[k],
				(unsigned long long)st.events_wrong[k]);
	for (int k = MISS_KIND_COUNT; k < XEV_COUNT; k++)
		explorer_printf(x, "%-11s %12llu %12s\n", xev_name(k),
				(unsigned long long)xtrace_event_total(x->trace, k), "-");
	explorer_printf(x, "(overlap and interval counts are since the explorer's trace began: "
			   "the events pane shows the latest)\n");
	return 0;
}

static int info_stack(struct explorer *x, const char *arg)
{
	explorer_printf(x, "%-15s %9s", "method", "CPI");
	explorer_printf(x, " %8s", "base");
	for (int k = 0; k < ACCT_COMP_COUNT; k++)
		explorer_printf(x, " %8s", acct_comp_name(k));
	explorer_printf(x, "\n");
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		const struct acct *a = xacct_unit(x->acct, m);
		if (!a)
			continue;
		struct acct_stack s;
		acct_get_stack(a, &s);
		double d = s.insns ? (double)s.insns : 1;
		explorer_printf(x, "%-15s %9.3f", acct_method_label(m), s.insns ? s.cycles / d : 0.0);
		explorer_printf(x, " %8.3f", s.base / d);
		for (int k = 0; k < ACCT_COMP_COUNT; k++)
			explorer_printf(x, " %8.3f", s.comp[k] / d);
		explorer_printf(x, "\n");
	}
	explorer_printf(x, "(cycles per committed instruction; %llu cycles, %llu instructions so far)\n",
			(unsigned long long)explorer_cycle(x), (unsigned long long)explorer_committed(x));
	return 0;
}

static int info_snapshots(struct explorer *x, const char *arg)
{
	struct xsnaps_info si;
	xsnaps_info(x->snaps, &si);
	explorer_printf(x, "%d snapshots, %.1f MB of %.1f MB, cycles %llu..%llu, interval %llu cycles, "
			"%.2f ms each\n", si.count, si.bytes / 1048576.0, si.budget / 1048576.0,
			(unsigned long long)si.first, (unsigned long long)si.last,
			(unsigned long long)si.interval, si.save_ms);
	return 0;
}

static int info_config(struct explorer *x, const char *arg)
{
	char val[128];
	for (size_t i = 0; config_key_name(i); i++) {
		const char *k = config_key_name(i);
		if (*arg && strcmp(arg, k) && strncmp(k, arg, strlen(arg)))
			continue;
		if (config_get(&x->cfg, k, val, sizeof val, NULL) < 0)
			continue;
		char live[128] = "";
		config_get(&x->cfg_live, k, live, sizeof live, NULL);
		if (strcmp(val, live))
			explorer_printf(x, "%-28s %-10s (running: %s)\n", k, val, live);
		else
			explorer_printf(x, "%-28s %s\n", k, val);
	}
	return 0;
}

static int info_program(struct explorer *x, const char *arg)
{
	struct core_stats st;
	core_stats(x->core, &st);
	explorer_printf(x, "%s at cycle %llu: %llu committed (CPI %.3f), %llu fetched, %llu squashed, "
			"%llu/%llu branches mispredicted\n",
			x->exited ? "Exited" : x->engine_error ? "Stopped with an error" : "Stopped",
			(unsigned long long)st.cycles, (unsigned long long)st.committed,
			st.committed ? (double)st.cycles / st.committed : 0.0, (unsigned long long)st.fetched,
			(unsigned long long)st.squashed, (unsigned long long)st.mispredicts,
			(unsigned long long)st.branches);
	if (x->stop.msg[0])
		explorer_printf(x, "Last stop: %s\n", x->stop.msg);
	return 0;
}

static int info_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	if (argc < 2)
		return explorer_error(x, "usage: info breakpoints|registers|rob|fmt|caches|events|stack|"
				      "snapshots|config|program");
	const char *t = argv[1];
	const char *rest = args + strlen(t);
	while (*rest == ' ')
		rest++;
	size_t n = strlen(t);
	const char *match = NULL;
	int count = 0;
	for (int i = 0; xcmd_info_topics[i]; i++)
		if (!strncmp(xcmd_info_topics[i], t, n)) {
			if (!strcmp(xcmd_info_topics[i], t)) {
				match = xcmd_info_topics[i];
				count = 1;
				break;
			}
			match = xcmd_info_topics[i];
			count++;
		}
	if (!strcmp(t, "b") || !strcmp(t, "br") || !strcmp(t, "break"))
		match = "breakpoints", count = 1;
	if (!strcmp(t, "r") || !strcmp(t, "reg"))
		match = "registers", count = 1;
	if (count != 1)
		return explorer_error(x, "%s info topic \"%s\"", count ? "ambiguous" : "unknown", t);
	/* Only `info fmt sfmt` and `info config KEY` take an argument. */
	if (!strcmp(match, "fmt") && (argc > 3 || (argc == 3 && strcmp(argv[2], "sfmt"))))
		return explorer_error(x, "usage: info fmt [sfmt]");
	if (!strcmp(match, "config") && argc > 3)
		return explorer_error(x, "info config takes at most one argument (KEY)");
	if (strcmp(match, "fmt") && strcmp(match, "config") && argc > 2)
		return explorer_error(x, "info %s takes no arguments", match);
	if (!strcmp(match, "breakpoints"))
		return info_breakpoints(x, rest);
	if (!strcmp(match, "registers"))
		return info_registers(x, rest);
	if (!strcmp(match, "rob"))
		return info_pane(x, "rob", core_rob_size(x->core) + 3, 0);
	if (!strcmp(match, "fmt"))
		return info_pane(x, "fmt", 80, !strcmp(rest, "sfmt"));
	if (!strcmp(match, "caches"))
		return info_caches(x, rest);
	if (!strcmp(match, "events"))
		return info_events(x, rest);
	if (!strcmp(match, "stack"))
		return info_stack(x, rest);
	if (!strcmp(match, "snapshots"))
		return info_snapshots(x, rest);
	if (!strcmp(match, "config"))
		return info_config(x, rest);
	return info_program(x, rest);
}

static const struct xcmd info_cmd = {
	.name = "info", .aliases = "i", .usage = "info TOPIC",
	.summary = "breakpoints registers rob fmt caches events stack snapshots config program",
	.help =
	"  breakpoints  breakpoints and catchpoints      rob     every ROB entry\n"
	"  registers    guest registers (at fetch)       fmt     the whole FMT (`info fmt sfmt`)\n"
	"  caches       cache/TLB geometry and misses    events  miss events so far by kind\n"
	"  stack        the CPI stack of every method    snapshots  reverse-execution memory\n"
	"  config [KEY] machine configuration            program    where the run is",
	.complete = XC_INFO, .exec = info_exec,
};
XCMD_REGISTER(info_cmd);
