/*
 * explorer_acct.c — the explorer's accounting units (see explorer_acct.h):
 * one acct_set, which runs the five units behind a single observer and
 * hands each only the events it reads.
 */
#include <stdlib.h>
#include "core/core.h"
#include "explorer_acct.h"

struct xacct {
	struct acct_set *set;
};

struct xacct *xacct_new(void)
{
	return calloc(1, sizeof(struct xacct));
}

void xacct_free(struct xacct *xa)
{
	if (!xa)
		return;
	acct_set_free(xa->set);
	free(xa);
}

int xacct_attach(struct xacct *xa, struct core *c, struct ivx_err *err)
{
	/* The old set observed a core that is gone. */
	acct_set_free(xa->set);
	/* the five units (no pane shows the overlap measurement), with FMT
	 * rows for wrong-path branches, as the pane teaches the hardware */
	xa->set = acct_set_new_opts(core_config(c), ACCT_SET_ALL_PATHS, err);
	if (!xa->set)
		return -1;
	return core_add_observer(c, acct_set_observer(xa->set), err);
}

const struct acct *xacct_unit(const struct xacct *xa, int method)
{
	return xa->set && method >= 0 && method < ACCT_METHOD_COUNT ? acct_set_unit(xa->set, method) : NULL;
}
