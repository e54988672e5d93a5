/*
 * xcmd_bpedit.c — changing breakpoints: condition N [COND], ignore N COUNT,
 * delete [N...], disable [N...], enable [N...] (no numbers: all).
 */
#include <limits.h>
#include <string.h>
#include "explorer/explorer.h"
#include "explorer/explorer_break.h"
#include "explorer/explorer_expr.h"
#include "xcmd.h"

static int bp_number(struct explorer *x, const char *s, struct xbp **out)
{
	uint64_t n;
	if (xcmd_parse_uint(s, INT_MAX, &n) < 0 || n == 0)
		return explorer_error(x, "bad breakpoint number '%s'", s);
	*out = xbreaks_find(x->breaks, (int)n);
	if (!*out)
		return explorer_error(x, "No breakpoint number %d.", (int)n);
	return 0;
}

static int condition_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	struct xbp *bp;
	if (argc < 2)
		return explorer_error(x, "usage: condition N [COND]");
	if (bp_number(x, argv[1], &bp) < 0)
		return -1;
	const char *cond = args + strlen(argv[1]);
	while (*cond == ' ' || *cond == '\t')
		cond++;
	struct xexpr *e;
	if (xexpr_parse_arg(x, cond, &e) < 0)
		return -1;
	xexpr_free(bp->cond);
	bp->cond = e;
	if (bp->type == XBP_CATCH)
		bp->at_end = e && (xexpr_uses(e, "latency") || xexpr_uses(e, "end"));
	if (e)
		explorer_printf(x, "Breakpoint %d now stops only if %s\n", bp->num, xexpr_text(e));
	else
		explorer_printf(x, "Breakpoint %d now unconditional.\n", bp->num);
	return 0;
}

static const struct xcmd condition_cmd = {
	.name = "condition", .usage = "condition N [COND]",
	.summary = "set (or with no COND remove) the condition of breakpoint N",
	.complete = XC_BREAKNUM, .exec = condition_exec,
};
XCMD_REGISTER(condition_cmd);

static int ignore_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	struct xbp *bp;
	if (argc != 3)
		return explorer_error(x, "usage: ignore N COUNT");
	if (bp_number(x, argv[1], &bp) < 0)
		return -1;
	uint64_t n;
	if (xcmd_parse_uint(argv[2], UINT64_MAX, &n) < 0)
		return explorer_error(x, "bad count '%s'", argv[2]);
	bp->ignore = n;
	if (n)
		explorer_printf(x, "Will ignore next %llu crossings of breakpoint %d.\n",
				(unsigned long long)n, bp->num);
	else
		explorer_printf(x, "Will stop next time breakpoint %d is reached.\n", bp->num);
	return 0;
}

static const struct xcmd ignore_cmd = {
	.name = "ignore", .usage = "ignore N COUNT",
	.summary = "let breakpoint N pass COUNT times before it stops the program",
	.exec = ignore_exec,
};
XCMD_REGISTER(ignore_cmd);

/* Apply `fn` to the numbered breakpoints, or to all of them. */
static int each(struct explorer *x, int argc, char **argv, void (*fn)(struct explorer *, struct xbp *))
{
	if (argc == 1) {
		for (int i = xbreaks_count(x->breaks) - 1; i >= 0; i--) {
			struct xbp *bp = xbreaks_at(x->breaks, i);
			if (bp->num)
				fn(x, bp);
		}
	} else {
		for (int i = 1; i < argc; i++) {
			struct xbp *bp;
			if (bp_number(x, argv[i], &bp) < 0)
				return -1;
			fn(x, bp);
		}
	}
	explorer_state_changed(x);
	return 0;
}

static void do_delete(struct explorer *x, struct xbp *bp) { xbreaks_delete(x->breaks, bp->num); }
static void do_disable(struct explorer *x, struct xbp *bp) { bp->enabled = 0; }
static void do_enable(struct explorer *x, struct xbp *bp) { bp->enabled = 1; }

static int delete_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	if (argc > 1 && !strcmp(argv[1], "breakpoints"))   /* gdb's `delete breakpoints [N...]` */
		return each(x, argc - 1, argv + 1, do_delete);
	return each(x, argc, argv, do_delete);
}

static int disable_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	return each(x, argc, argv, do_disable);
}

static int enable_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	return each(x, argc, argv, do_enable);
}

static const struct xcmd delete_cmd = {
	.name = "delete", .aliases = "d", .usage = "delete [N...]",
	.summary = "delete breakpoints and catchpoints (all without N)",
	.exec = delete_exec,
};
XCMD_REGISTER(delete_cmd);

static const struct xcmd disable_cmd = {
	.name = "disable", .usage = "disable [N...]",
	.summary = "disable breakpoints and catchpoints (all without N)",
	.exec = disable_exec,
};
XCMD_REGISTER(disable_cmd);

static const struct xcmd enable_cmd = {
	.name = "enable", .usage = "enable [N...]",
	.summary = "enable breakpoints and catchpoints (all without N)",
	.exec = enable_exec,
};
XCMD_REGISTER(enable_cmd);
