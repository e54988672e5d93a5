/* explorer_acct.c — the explorer's set of accounting units (see explorer_acct.h). */
#include <stdlib.h>
#include "core.h"
#include "explorer_acct.h"

struct xacct {
	struct acct *unit[ACCT_METHOD_COUNT];
};

struct xacct *xacct_new(void)
{
	return calloc(1, sizeof(struct xacct));
}

static void drop_units(struct xacct *xa)
{
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		acct_free(xa->unit[m]);
		xa->unit[m] = NULL;
	}
}

void xacct_free(struct xacct *xa)
{
	if (!xa)
		return;
	drop_units(xa);
	free(xa);
}

int xacct_attach(struct xacct *xa, struct core *c, struct ivx_err *err)
{
	/* The old units were observers of a core that is gone. */
	drop_units(xa);
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		xa->unit[m] = acct_new(m, core_config(c), err);
		if (!xa->unit[m] || core_add_observer(c, acct_observer(xa->unit[m]), err) < 0)
			return -1;
	}
	return 0;
}

const struct acct *xacct_unit(const struct xacct *xa, int method)
{
	return method >= 0 && method < ACCT_METHOD_COUNT ? xa->unit[method] : NULL;
}
