/*
 * explorer_acct.h — the CPI accounting units the explorer runs alongside
 * the core: one unit of each method of acct.h (naive, naive non-spec,
 * POWER5, FMT, sFMT), rebuilt at every restart, for the CPI-stack and FMT
 * panes. Their state is observer state, so snapshots and reverse stepping
 * include it.
 */
#ifndef IVX_EXPLORER_ACCT_H
#define IVX_EXPLORER_ACCT_H

#include "acct/acct.h"
#include "base/err.h"

struct core;
struct xacct;

struct xacct *xacct_new(void);
void xacct_free(struct xacct *xa);
/* Create fresh units for the core's configuration and add them as
 * observers of `c`. 0, or -1 with err. */
int xacct_attach(struct xacct *xa, struct core *c, struct ivx_err *err);
/* The unit of `method` (enum acct_method), or NULL before attach. */
const struct acct *xacct_unit(const struct xacct *xa, int method);

#endif
