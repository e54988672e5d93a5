/*
 * xcmd_set.c — set NAME VALUE: explorer settings, or a machine
 * configuration key (SECTION.KEY) that takes effect at the next `run` or
 * `restart`. Settings are one table: name, kind, where, help.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "acct/acct.h"
#include "cli/cli.h"
#include "core/config.h"
#include "core/events.h"
#include "dcpi/dcpicalc.h"
#include "explorer/explorer.h"
#include "explorer/explorer_snap.h"
#include "ui_state.h"
#include "xcmd.h"

enum { S_INT, S_U64, S_BOOL, S_STAGE, S_CHARSET, S_ESTIMATOR };

struct setting {
	const char *name;
	int kind;
	size_t off;            /* offset in struct xsettings */
	long min, max;         /* S_INT range */
	const char *help;
	const char *const *values;   /* the words it takes (Tab), NULL-terminated; NULL for a number */
};

static const char *const stages[] = { "fetch", "dispatch", "issue", "complete", "commit", NULL };
static const char *const on_off[] = { "on", "off", NULL };
static const char *const charsets[] = { "utf8", "ascii", NULL };
static const char *const estimators[] = { "paper", "ivx", NULL };
static const char *const scales[] = { "1", "2", "4", "8", NULL };

#define OFF(f) offsetof(struct xsettings, f)
static const struct setting settings[] = {
	{ "width", S_INT, OFF(width), 20, 1000, "columns of `show` output in batch mode", NULL },
	{ "height", S_INT, OFF(height), 0, 1000, "rows of `show PANE` output (0: each pane's own)", NULL },
	{ "charset", S_CHARSET, OFF(ascii), 0, 0, "utf8 or ascii line drawing", charsets },
	{ "color", S_BOOL, OFF(color), 0, 0, "colours on the screen (on/off)", on_off },
	{ "break-stage", S_STAGE, OFF(break_stage), 0, 0,
	  "stage at which code breakpoints hit: fetch dispatch issue complete commit", stages },
	{ "catch-wrong-path", S_BOOL, OFF(catch_wrong_path), 0, 0, "catchpoints also hit on wrong-path events", on_off },
	{ "snapshot-interval", S_U64, OFF(snap_interval), 1, 0, "minimum cycles between snapshots", NULL },
	{ "snapshot-memory", S_U64, OFF(snap_budget), 1, 0, "bytes of snapshots kept at most", NULL },
	{ "poll-cycles", S_U64, OFF(poll_cycles), 1, 0, "cycles between Ctrl-C checks during continue", NULL },
	{ "timeline-scale", S_INT, OFF(timeline_scale), 1, 8, "cycles per timeline column (1, 2, 4, 8)", scales },
	{ "console-lines", S_INT, OFF(console_lines), 0, 1000, "rows of the console pane (0: the layout's share)", NULL },
	{ "dcpicalc-estimator", S_ESTIMATOR, OFF(dcpicalc_estimator), 0, 0,
	  "frequency estimator of `annotate` and its pane: paper or ivx", estimators },
};
#define N_SETTINGS ((int)(sizeof settings / sizeof settings[0]))

const char *xcmd_setting_name(int i)
{
	return i >= 0 && i < N_SETTINGS ? settings[i].name : NULL;
}

static const struct setting *find(const char *name)
{
	for (int i = 0; i < N_SETTINGS; i++)
		if (!strcmp(settings[i].name, name))
			return &settings[i];
	return NULL;
}

const char *xcmd_setting_value(const char *name, int i)
{
	const struct setting *s = find(name);
	if (!s || !s->values || i < 0)
		return NULL;
	for (int k = 0; k < i; k++)
		if (!s->values[k])
			return NULL;
	return s->values[i];
}

/* An explorer setting's words, or a machine key's (set core.mode inorder). */
static const char *set_value_word(const char *name, int i)
{
	return find(name) ? xcmd_setting_value(name, i) : config_key_value_word(name, i);
}

static const struct xcmd_then set_then[] = {
	{ .after = "*", .word_at = set_value_word },   /* set color on, set break-stage commit */
	{ 0 },
};

/* The value as text, for `show NAME`. */
int xcmd_setting_text(struct explorer *x, const char *name, char *buf, size_t n)
{
	const struct setting *s = find(name);
	if (!s)
		return -1;
	const char *p = (const char *)&x->set + s->off;
	switch (s->kind) {
	case S_INT: snprintf(buf, n, "%d", *(const int *)p); break;
	case S_U64: snprintf(buf, n, "%llu", (unsigned long long)*(const uint64_t *)p); break;
	case S_BOOL: snprintf(buf, n, "%s", *(const int *)p ? "on" : "off"); break;
	case S_STAGE: snprintf(buf, n, "%s", stages[*(const int *)p]); break;
	case S_CHARSET: snprintf(buf, n, "%s", *(const int *)p ? "ascii" : "utf8"); break;
	case S_ESTIMATOR: snprintf(buf, n, "%s", dcc_estimator_name((enum dcc_estimator)*(const int *)p)); break;
	}
	return 0;
}

static int parse_bool(const char *v, int *out)
{
	if (!strcmp(v, "on") || !strcmp(v, "1") || !strcmp(v, "yes"))
		return *out = 1, 0;
	if (!strcmp(v, "off") || !strcmp(v, "0") || !strcmp(v, "no"))
		return *out = 0, 0;
	return -1;
}

/* config_set speaks to the command line ("-o KEY=VALUE: unknown key");
 * here the user typed `set`, so drop that prefix. */
static const char *without_option_prefix(const char *msg, const char *assign)
{
	size_t n = strlen(assign);
	if (!strncmp(msg, "-o ", 3) && !strncmp(msg + 3, assign, n) && !strncmp(msg + 3 + n, ": ", 2))
		return msg + 3 + n + 2;
	return strncmp(msg, "-o ", 3) ? msg : msg + 3;
}

static int set_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	if (argc == 2 && strchr(argv[1], '='))   /* set section.key=value */
		goto config;
	if (argc >= 2 && !strcmp(argv[1], "args"))
		return explorer_error(x, "set args: not in ivx: the program's arguments are fixed for the session; "
				      "start ivx again with ivx PROG -- ARGS");
	if (argc != 3)
		return explorer_error(x, "usage: set NAME VALUE (see `help set`)");
	const struct setting *s = find(argv[1]);
	if (s) {
		char *p = (char *)&x->set + s->off;
		const char *v = argv[2];
		switch (s->kind) {
		case S_INT: {
			uint64_t n;
			if (p == (char *)&x->set.timeline_scale) {
				/* a column merges a power of two of cycles: the axis ticks
				 * and F2's steps assume it */
				if (xcmd_parse_uint(v, 8, &n) < 0 || (n != 1 && n != 2 && n != 4 && n != 8))
					return explorer_error(x, "timeline-scale: expected 1, 2, 4 or 8 (cycles a column)");
			} else if (xcmd_parse_uint(v, (uint64_t)s->max, &n) < 0 || n < (uint64_t)s->min)
				return explorer_error(x, "%s: expected a number from %ld to %ld", s->name, s->min, s->max);
			*(int *)p = (int)n;
			break;
		}
		case S_U64: {
			uint64_t n;
			if (cli_parse_u64(v, &n) < 0 || n < (uint64_t)s->min)
				return explorer_error(x, "%s: expected a number >= %ld", s->name, s->min);
			*(uint64_t *)p = n;
			break;
		}
		case S_BOOL:
			if (parse_bool(v, (int *)p) < 0)
				return explorer_error(x, "%s: expected on or off", s->name);
			break;
		case S_STAGE: {
			int k = -1;
			for (int i = 0; i < 5; i++)
				if (!strcmp(v, stages[i]))
					k = i;
			if (k < 0)
				return explorer_error(x, "break-stage: expected fetch, dispatch, issue, complete or commit");
			*(int *)p = k;   /* the stages are enum insn_stage's first five */
			break;
		}
		case S_CHARSET:
			if (strcmp(v, "ascii") && strcmp(v, "utf8"))
				return explorer_error(x, "charset: expected utf8 or ascii");
			*(int *)p = !strcmp(v, "ascii");
			break;
		case S_ESTIMATOR: {
			int e = dcc_estimator_parse(v);
			if (e < 0)
				return explorer_error(x, "dcpicalc-estimator: unknown estimator '%s' (paper or ivx)", v);
			*(int *)p = e;
			break;
		}
		}
		xsnaps_configure(x->snaps, x->set.snap_interval, x->set.snap_budget);
		explorer_state_changed(x);
		return 0;
	}
config:;
	char assign[512];
	if (argc == 2)
		snprintf(assign, sizeof assign, "%s", argv[1]);
	else
		snprintf(assign, sizeof assign, "%s=%s", argv[1], argv[2]);
	struct machine_config c = x->cfg;
	struct ivx_err err = { 0 };
	/* (the explorer's CPI stacks are always on: a machine they cannot
	 * account for is refused now, not at the restart) */
	if (config_set(&c, assign, &err) < 0 || config_validate(&c, &err) < 0 || acct_check_config(&c, &err) < 0) {
		if (!strchr(argv[1], '.') && !strchr(argv[1], '='))
			return explorer_error(x, "no setting \"%s\" (see `help set`)", argv[1]);
		return explorer_error(x, "%s", without_option_prefix(err.msg, assign));
	}
	x->cfg = c;
	x->cfg_pending = memcmp(&x->cfg, &x->cfg_live, sizeof c) != 0;
	explorer_printf(x, "%s (takes effect at the next run or restart)\n", assign);
	return 0;
}

static const struct xcmd set_cmd = {
	.name = "set", .usage = "set NAME VALUE | set SECTION.KEY VALUE",
	.flags = XCMD_NO_RUN,
	.summary = "change an explorer setting or (from the next restart) the machine",
	.help =
	"Settings:\n"
	"  width N              columns of `show` output in batch mode (default 100)\n"
	"  height N             rows of `show PANE` output, 0 = each pane's own\n"
	"  charset utf8|ascii   line drawing (default: utf8 if the locale is UTF-8)\n"
	"  color on|off         colours on the screen (NO_COLOR turns them off)\n"
	"  break-stage STAGE    fetch|dispatch|issue|complete|commit (default dispatch)\n"
	"  catch-wrong-path on|off  catchpoints also hit on wrong-path events (off)\n"
	"  snapshot-interval N  minimum cycles between snapshots (5000)\n"
	"  snapshot-memory N    bytes of snapshots kept at most (256 MiB)\n"
	"  poll-cycles N        cycles between Ctrl-C checks during continue (20000)\n"
	"  timeline-scale N     cycles per timeline column: 1, 2, 4 or 8 (F2 on the pane)\n"
	"  console-lines N      rows of the console (0: the layout's share; F4 toggles half the screen)\n"
	"  dcpicalc-estimator paper|ivx  frequency estimator of `annotate` and the annotate\n"
	"                       pane (paper; docs/dcpicalc.md \"ivx's estimator\")\n"
	"Machine configuration: `set l2.latency 12` or `set l2.latency=12` (Tab\n"
	"completes the keys; `info config` lists them); `run` or `restart` applies it.",
	.complete = XC_SET, .then = set_then, .exec = set_exec,
};
XCMD_REGISTER(set_cmd);
