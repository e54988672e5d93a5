/*
 * xcmd_info.c — info TOPIC: the built-in topics (breakpoints, registers,
 * rob, fmt, caches, events, snapshots, config, program) from the table
 * below, then those the instruments add (instrument.h: `stack` comes from
 * the accounting). Lookup as gdb's: an exact name, a unique prefix, or one
 * of gdb's short forms (`info b`, `info r`).
 */
#include <stdlib.h>
#include <string.h>
#include "core/config.h"
#include "core/core.h"
#include "isa/cpu.h"
#include "explorer/explorer.h"
#include "guest/program.h"
#include "guest/symtab.h"
#include "explorer/inst_reset.h"
#include "explorer/inst_display.h"
#include "explorer/explorer_break.h"
#include "explorer/explorer_expr.h"
#include "explorer/explorer_snap.h"
#include "explorer/explorer_trace.h"
#include "explorer/instrument.h"
#include "guest/guest.h"
#include "ui_state.h"
#include "xcmd.h"
#include "xcmd_charge.h"

static int info_breakpoints(struct explorer *x, int argc, char **argv, const char *arg)
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
		const char *type = bp->type == XBP_CATCH ? "catchpoint" : "breakpoint";
		explorer_printf(x, "%-7d %-14s %-4s %-3s %s\n", bp->num, type, bp->temp ? "del" : "keep",
				bp->enabled ? "y" : "n", d);
		if (bp->cond)
			explorer_printf(x, "\tstop only if %s\n", xexpr_text(bp->cond));
		if (bp->hits)
			explorer_printf(x, "\t%s already hit %llu time%s\n", type,
					(unsigned long long)bp->hits, bp->hits == 1 ? "" : "s");
		if (bp->ignore)
			explorer_printf(x, "\tWill ignore next %llu crossings of %s.\n",
					(unsigned long long)bp->ignore, type);
	}
	if (!shown)
		explorer_printf(x, "No breakpoints or catchpoints.\n");
	return 0;
}

static int info_registers(struct explorer *x, int argc, char **argv, const char *arg)
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

static int info_caches(struct explorer *x, int argc, char **argv, const char *arg)
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

static int info_events(struct explorer *x, int argc, char **argv, const char *arg)
{
	unsigned long long n;
	if (argc >= 2)   /* the newest N, with what each method charged them */
		return xcmd_parse_count(x, argv[1], &n) < 0 ? -1 : xcharge_info_events(x, n);
	uint64_t correct[MISS_KIND_COUNT], wrong[MISS_KIND_COUNT];
	xreset_events(x, correct, wrong);   /* since `reset stats` */
	explorer_printf(x, "%-11s %12s %12s\n", "event", "correct", "wrong path");
	for (int k = 0; k < MISS_KIND_COUNT; k++)
		explorer_printf(x, "%-11s %12llu %12llu\n", xev_name(k), (unsigned long long)correct[k],
				(unsigned long long)wrong[k]);
	for (int k = MISS_KIND_COUNT; k < XEV_INSTRUMENT; k++)
		explorer_printf(x, "%-11s %12llu %12s\n", xev_name(k),
				(unsigned long long)xreset_event_total(x, k), "-");
	if (xreset_since(x))
		explorer_printf(x, "(since `reset stats` at cycle %llu)\n", (unsigned long long)xreset_since(x));
	if (!xreset_since(x))
		explorer_printf(x, "(overlap and interval counts are since the explorer's trace began: "
				   "the events pane shows the latest)\n");
	return 0;
}

static int info_cost(struct explorer *x, int argc, char **argv, const char *arg)
{
	return xcharge_info_cost(x, argc, argv);
}

static int info_snapshots(struct explorer *x, int argc, char **argv, const char *arg)
{
	struct xsnaps_info si;
	xsnaps_info(x->snaps, &si);
	explorer_printf(x, "%d snapshots, %.1f MiB of %.1f MiB, cycles %llu..%llu, interval %llu cycles, "
			"%.2f ms each\n", si.count, si.bytes / 1048576.0, si.budget / 1048576.0,
			(unsigned long long)si.first, (unsigned long long)si.last,
			(unsigned long long)si.interval, si.save_ms);
	if (x->last_replay.count)
		explorer_printf(x, "last move: from cycle %llu, %llu cycles simulated again\n",
				(unsigned long long)x->last_replay.from, (unsigned long long)x->last_replay.cycles);
	return 0;
}

static int info_config(struct explorer *x, int argc, char **argv, const char *arg)
{
	char val[128];
	int shown = 0;
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
		shown++;
	}
	if (!shown)
		return explorer_error(x, "info config: no key is or begins with '%s' (`info config` lists them)", arg);
	return 0;
}

static int info_program(struct explorer *x, int argc, char **argv, const char *arg)
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

static int info_rob(struct explorer *x, int argc, char **argv, const char *arg)
{
	return info_pane(x, "rob", core_rob_size(x->core) + 3, 0);
}

static int info_fmt(struct explorer *x, int argc, char **argv, const char *arg)
{
	if (argc == 2 && strcmp(argv[1], "sfmt"))
		return explorer_error(x, "usage: info fmt [sfmt]");
	return info_pane(x, "fmt", 80, argc == 2);
}

/* gdb's `info symbol ADDR`: which symbol an address is in. */
static int info_symbol(struct explorer *x, int argc, char **argv, const char *arg)
{
	if (!arg || !*arg)
		return explorer_error(x, "usage: info symbol ADDR");
	uint64_t addr, off;
	if (explorer_parse_addr(x, arg, &addr) < 0)
		return -1;
	const struct symbol *s = symtab_lookup(program_symbols(x->prog), addr, &off);
	if (!s || (s->size && off >= s->size) || (!s->size && off >= 0x1000)) {
		explorer_printf(x, "No symbol matches %s.\n", arg);
		return 0;
	}
	if (off)
		explorer_printf(x, "%s + %llu (0x%llx)\n", s->name, (unsigned long long)off, (unsigned long long)addr);
	else
		explorer_printf(x, "%s (0x%llx)\n", s->name, (unsigned long long)addr);
	return 0;
}

static int info_display(struct explorer *x, int argc, char **argv, const char *arg)
{
	if (!xdisplay_count(x))
		explorer_printf(x, "No displays: `display EXPR` adds one.\n");
	xdisplay_show(x);
	return 0;
}

static const char *fmt_word(int i)
{
	return i == 0 ? "sfmt" : NULL;
}

static const char *config_word(int i)
{
	return config_key_name((size_t)i);
}

static const struct xinfo_topic builtin_topics[] = {
	{ .name = "breakpoints", .help = "breakpoints and catchpoints",
	  .usage = "info breakpoints", .max_args = 0, .exec = info_breakpoints },
	{ .name = "registers", .help = "guest registers (at fetch)",
	  .usage = "info registers", .max_args = 0, .exec = info_registers },
	{ .name = "rob", .help = "every ROB entry",
	  .usage = "info rob", .max_args = 0, .exec = info_rob },
	{ .name = "fmt", .help = "the whole FMT (`info fmt sfmt`)",
	  .usage = "info fmt [sfmt]", .max_args = 1, .exec = info_fmt, .word_at = fmt_word,
	  .detail = "Every row of the frontend miss event table, or of the sFMT with `sfmt`, with its\n"
		"branch, ROB id and local counters, then the global counters." },
	{ .name = "caches", .help = "cache/TLB geometry and misses",
	  .usage = "info caches", .max_args = 0, .exec = info_caches },
	{ .name = "events", .help = "miss events by kind (N: the newest N, what each method charged)",
	  .usage = "info events [N]", .max_args = 1, .exec = info_events,
	  .detail = "Without N: how many miss events of each kind, correct path and wrong path (since\n"
		"`reset stats`, if used). With N: the newest N rows of the events pane, numbered as\n"
		"`info cost ROW` takes them (1 is the newest), with what each method charged them." },
	{ .name = "cost", .help = "one event's true cost (run without it) beside each method's charge",
	  .usage = "info cost [ROW]", .max_args = 1, .exec = info_cost,
	  .detail = "Which event: row ROW of the events pane (`info events N` numbers them, 1 the newest);\n"
		"without ROW, the row under the events pane's cursor if it is scrolled, else the event\n"
		"the run stopped at or last caught (`catch KIND`). Kinds measured: l1i, l2i, itlb, l1d,\n"
		"l2d, dtlb, mispredict. The run is replayed from a snapshot with that one event\n"
		"removed (the branch predicted, the access hitting) and the true cost is how many\n"
		"cycles earlier the same instruction count commits; `ivx cost` measures a sample." },
	{ .name = "snapshots", .help = "reverse-execution memory",
	  .usage = "info snapshots", .max_args = 0, .exec = info_snapshots },
	{ .name = "config", .help = "machine configuration",
	  .usage = "info config [KEY]", .max_args = 1, .exec = info_config, .word_at = config_word,
	  .detail = "Every key and its value as a config file sets it (docs/config.md), and the running\n"
		"value beside it where `set` changed one for the next run; KEY, or a prefix such\n"
		"as `l1d`, shows only the keys it names." },
	{ .name = "program", .help = "where the run is",
	  .usage = "info program", .max_args = 0, .exec = info_program },
	{ .name = "symbol", .help = "the symbol an address is in",
	  .usage = "info symbol ADDR", .max_args = 16, .exec = info_symbol },
	{ .name = "display", .help = "the expressions `display` prints after each stop",
	  .usage = "info display", .max_args = 0, .exec = info_display },
	{ 0 },
};

/* gdb's short forms that are not prefixes of one topic alone. */
static const struct { const char *word, *topic; } short_forms[] = {
	{ "b", "breakpoints" }, { "br", "breakpoints" }, { "break", "breakpoints" },
	{ "r", "registers" }, { "reg", "registers" },
};

/* Topic i: the built-in ones first, then each instrument's (NULL past the end). */
static const struct xinfo_topic *topic_at(int i)
{
	int n = (int)(sizeof builtin_topics / sizeof builtin_topics[0]) - 1;
	if (i < n)
		return i >= 0 ? &builtin_topics[i] : NULL;
	i -= n;
	for (int k = 0; k < xinstrument_count(); k++) {
		const struct xinfo_topic *t = xinstrument_at(k)->info;
		for (; t && t->name; t++)
			if (i-- == 0)
				return t;
	}
	return NULL;
}

const char *xcmd_info_topic_name(int i)
{
	const struct xinfo_topic *t = topic_at(i);
	return t ? t->name : NULL;
}

/* The topic `word` names (a short form, the name or a unique prefix);
 * NULL with *count the topics it is a prefix of (0, or 2 and more). */
static const struct xinfo_topic *resolve_topic(const char *word, int *count)
{
	for (size_t i = 0; i < sizeof short_forms / sizeof short_forms[0]; i++)
		if (!strcmp(word, short_forms[i].word))
			word = short_forms[i].topic;
	size_t n = strlen(word);
	const struct xinfo_topic *match = NULL;
	*count = 0;
	for (int i = 0; topic_at(i); i++) {
		const struct xinfo_topic *t = topic_at(i);
		if (!strcmp(t->name, word))
			return t;
		if (!strncmp(t->name, word, n)) {
			match = t;
			++*count;
		}
	}
	return *count == 1 ? match : NULL;
}

static const struct xinfo_topic *find_topic(struct explorer *x, const char *word)
{
	int count;
	const struct xinfo_topic *t = resolve_topic(word, &count);
	if (!t)
		explorer_error(x, "%s info topic \"%s\"", count ? "ambiguous" : "unknown", word);
	return t;
}

const char *xcmd_info_topic_word(const char *topic, int i)
{
	int count;
	const struct xinfo_topic *t = resolve_topic(topic, &count);
	return t && t->word_at ? t->word_at(i) : NULL;
}

static int info_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	if (argc < 2) {
		char usage[512] = "usage: info ";
		for (int i = 0; xcmd_info_topic_name(i); i++) {
			size_t used = strlen(usage);
			snprintf(usage + used, sizeof usage - used, "%s%s", i ? "|" : "", xcmd_info_topic_name(i));
		}
		return explorer_error(x, "%s", usage);
	}
	const struct xinfo_topic *t = find_topic(x, argv[1]);
	if (!t)
		return -1;
	const char *rest = args + strlen(argv[1]);
	while (*rest == ' ')
		rest++;
	if (argc - 2 > t->max_args) {
		if (t->max_args == 0)
			return explorer_error(x, "info %s takes no arguments", t->name);
		return explorer_error(x, "usage: %s", t->usage);
	}
	return t->exec(x, argc - 1, argv + 1, rest);
}

/* `help info TOPIC`: its usage, its line of the table and its detail. */
int xcmd_info_help(struct explorer *x, const char *word)
{
	const struct xinfo_topic *t = find_topic(x, word);
	if (!t)
		return -1;
	explorer_printf(x, "usage: %s\n%s.\n", t->usage ? t->usage : t->name, t->help);
	if (t->detail)
		explorer_printf(x, "%s\n", t->detail);
	return 0;
}

/* `help info`: one line per topic, from the table. */
static char info_help[2048];

static const char *build_info_help(void)
{
	size_t used = 0;
	for (int i = 0; topic_at(i) && used < sizeof info_help; i++) {
		const struct xinfo_topic *t = topic_at(i);
		used += (size_t)snprintf(info_help + used, sizeof info_help - used, "%s  %-12s %s",
					 i ? "\n" : "", t->name, t->help);
	}
	return info_help;
}

static const struct xcmd_then info_then[] = {
	{ .after = "*", .word_at = xcmd_info_topic_word },   /* info coproc slots, info fmt sfmt */
	{ 0 },
};

static const struct xcmd info_cmd = {
	.name = "info", .aliases = "i", .usage = "info TOPIC",
	.summary = "breakpoints, registers, rob, fmt, caches, events, cost, snapshots, config, program, "
		   "symbol, display, and the instruments' topics (stack, coproc, samples, strat)",
	.help_fn = build_info_help,
	.complete = XC_INFO, .then = info_then, .exec = info_exec,
};
XCMD_REGISTER(info_cmd);
