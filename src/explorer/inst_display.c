/*
 * inst_display.c — `display EXPR` (see inst_display.h). An instrument only
 * for its session-side list; it observes nothing, and the stop report
 * (explorer_run.c) calls xdisplay_show after the position line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "explorer.h"
#include "explorer_expr.h"
#include "inst_display.h"
#include "instrument.h"

#define XDISPLAY_MAX 32

struct xdisplay_item {
	int num;
	char fmt;                 /* 0, or x d u */
	struct xexpr *e;
};

struct xdisplay {
	struct xdisplay_item item[XDISPLAY_MAX];
	int n, next_num;
};

static void *xdisplay_create(struct explorer *x)
{
	struct xdisplay *d = calloc(1, sizeof *d);
	if (d)
		d->next_num = 1;
	return d;
}

static void xdisplay_free(void *self)
{
	struct xdisplay *d = self;
	if (!d)
		return;
	for (int i = 0; i < d->n; i++)
		xexpr_free(d->item[i].e);
	free(d);
}

static int xdisplay_attach(void *self, struct core *c, struct ivx_err *err)
{
	return 0;   /* settings: they stay across restarts */
}

static void show_one(struct explorer *x, const struct xdisplay_item *it)
{
	struct xexpr_env env = { .x = x };
	struct xval v;
	char msg[200];
	const char *text = xexpr_text(it->e);
	if (xexpr_eval(it->e, &env, &v, msg, sizeof msg) < 0)
		explorer_printf(x, "%d: %s = <%s>\n", it->num, text, msg);
	else if (v.is_str)
		explorer_printf(x, "%d: %s = \"%s\"\n", it->num, text, v.str);
	else if (it->fmt == 'x')
		explorer_printf(x, "%d: /x %s = 0x%llx\n", it->num, text, (unsigned long long)v.num);
	else if (it->fmt == 'u')
		explorer_printf(x, "%d: /u %s = %llu\n", it->num, text, (unsigned long long)v.num);
	else if (it->fmt == 'd' || !v.is_float)
		explorer_printf(x, "%d: %s%s = %lld\n", it->num, it->fmt ? "/d " : "", text, (long long)v.num);
	else
		explorer_printf(x, "%d: %s = %.10g\n", it->num, text, v.fnum);
}

int xdisplay_add(struct explorer *x, const char *text, char fmt)
{
	struct xdisplay *d = explorer_instrument(x, "display");
	if (!d)
		return explorer_error(x, "display: not available");
	if (d->n == XDISPLAY_MAX)
		return explorer_error(x, "display: at most %d expressions (undisplay N removes one)", XDISPLAY_MAX);
	char msg[200];
	struct xexpr *e = xexpr_parse(x, text, msg, sizeof msg);
	if (!e)
		return explorer_error(x, "%s", msg);
	struct xdisplay_item *it = &d->item[d->n++];
	*it = (struct xdisplay_item){ .num = d->next_num++, .fmt = fmt, .e = e };
	show_one(x, it);
	return 0;
}

int xdisplay_delete(struct explorer *x, int num)
{
	struct xdisplay *d = explorer_instrument(x, "display");
	if (!d)
		return explorer_error(x, "display: not available");
	for (int i = 0; i < d->n; i++)
		if (num < 0 || d->item[i].num == num) {
			xexpr_free(d->item[i].e);
			memmove(&d->item[i], &d->item[i + 1], (size_t)(d->n - i - 1) * sizeof d->item[0]);
			d->n--;
			if (num >= 0)
				return 0;
			i--;
		}
	return num < 0 ? 0 : explorer_error(x, "no display number %d", num);
}

void xdisplay_show(struct explorer *x)
{
	struct xdisplay *d = explorer_instrument(x, "display");
	for (int i = 0; d && i < d->n; i++)
		show_one(x, &d->item[i]);
}

int xdisplay_count(const struct explorer *x)
{
	const struct xdisplay *d = explorer_instrument(x, "display");
	return d ? d->n : 0;
}

static const struct xinstrument xinst_display = {
	.name = "display",
	.summary = "`display EXPR`: expressions printed after every stop",
	.order = 101,
	.create = xdisplay_create,
	.attach = xdisplay_attach,
	.free = xdisplay_free,
	.commands = "display undisplay",
};
XINSTRUMENT_REGISTER(xinst_display);
