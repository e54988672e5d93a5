/*
 * inst_acct.h — the CPI accounting as an explorer instrument: one unit of
 * each method of acct/acct.h (naive, naive non-spec, POWER5, FMT, sFMT),
 * rebuilt at every restart, for the CPI-stack and FMT panes and `info
 * stack`. Their state is observer state, so snapshots and reverse stepping
 * include it. The session's object is explorer_instrument(x, "acct").
 */
#ifndef IVX_INST_ACCT_H
#define IVX_INST_ACCT_H

#include "acct/acct.h"

struct xacct;

/* The unit of `method` (enum acct_method), or NULL before attach (or
 * without the instrument: xa NULL). */
const struct acct *xacct_unit(const struct xacct *xa, int method);

#endif
