/*
 * inst_acct.c — the explorer's accounting instrument (see inst_acct.h):
 * one acct_set, which runs the six units behind a single observer and
 * hands each only the events it reads.
 */
#include <stdlib.h>
#include "core/core.h"
#include "explorer.h"
#include "inst_acct.h"
#include "inst_reset.h"
#include "instrument.h"

struct xacct {
	struct acct_set *set;
};

static void *xacct_create(struct explorer *x)
{
	return calloc(1, sizeof(struct xacct));
}

static void xacct_free(void *self)
{
	struct xacct *xa = self;
	if (!xa)
		return;
	acct_set_free(xa->set);
	free(xa);
}

static int xacct_attach(void *self, struct core *c, struct ivx_err *err)
{
	struct xacct *xa = self;
	/* The old set observed a core that is gone. */
	acct_set_free(xa->set);
	/* the six units (no pane shows the overlap measurement), with FMT
	 * rows for wrong-path branches, as the pane teaches the hardware */
	xa->set = acct_set_new_opts(core_config(c), ACCT_SET_ALL_PATHS, err);
	if (!xa->set)
		return -1;
	return core_add_observer(c, acct_set_observer(xa->set), err);
}

const struct acct *xacct_unit(const struct xacct *xa, int method)
{
	return xa && xa->set && method >= 0 && method < ACCT_METHOD_COUNT ? acct_set_unit(xa->set, method) : NULL;
}

static int info_stack(struct explorer *x, int argc, char **argv, const char *rest)
{
	const struct xacct *xa = explorer_instrument(x, "acct");
	explorer_printf(x, "%-15s %9s", "method", "CPI");
	explorer_printf(x, " %8s", "base");
	for (int k = 0; k < ACCT_COMP_COUNT; k++)
		explorer_printf(x, " %8s", acct_comp_name(k));
	explorer_printf(x, "\n");
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		struct acct_stack s;
		if (!xacct_unit(xa, m) || xreset_stack(x, m, &s) < 0)   /* since `reset stats` */
			continue;
		double d = s.insns ? (double)s.insns : 1;
		explorer_printf(x, "%-15s %9.3f", acct_method_label(m), s.insns ? s.cycles / d : 0.0);
		explorer_printf(x, " %8.3f", s.base / d);
		for (int k = 0; k < ACCT_COMP_COUNT; k++)
			explorer_printf(x, " %8.3f", s.comp[k] / d);
		explorer_printf(x, "\n");
	}
	uint64_t since = xreset_since(x);
	if (since)
		explorer_printf(x, "(cycles per committed instruction since `reset stats` at cycle %llu; "
				"now at cycle %llu)\n", (unsigned long long)since, (unsigned long long)explorer_cycle(x));
	else
		explorer_printf(x, "(cycles per committed instruction; %llu cycles, %llu instructions so far)\n",
				(unsigned long long)explorer_cycle(x), (unsigned long long)explorer_committed(x));
	return 0;
}

static const struct xinfo_topic acct_info[] = {
	{ .name = "stack", .help = "the CPI stack of every method", .usage = "info stack",
	  .exec = info_stack },
	{ 0 },
};

static const struct xinstrument xinst_acct = {
	.name = "acct",
	.summary = "CPI accounting: naive, naive non-spec, IBM POWER5, FMT and sFMT units",
	.order = 0,
	.create = xacct_create,
	.attach = xacct_attach,
	.free = xacct_free,
	.info = acct_info,
	.panes = "cpistack fmt",
};
XINSTRUMENT_REGISTER(xinst_acct);
