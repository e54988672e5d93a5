/*
 * xcmd_charge.h — per-event charges and true costs as text, for `info
 * events N`, `info cost [N]` (xcmd_info.c's table) and the events pane's
 * charged view (ui/pane_events.c).
 */
#ifndef IVX_XCMD_CHARGE_H
#define IVX_XCMD_CHARGE_H

#include <stddef.h>
#include <stdint.h>
#include "explorer/explorer.h"

/* "naive" "nonspec" "power5" "fmt" "sfmt": column headers. */
const char *xcharge_method_short(int method);
/* One column (" %7s") per method and a " %6s" true-cost column. */
void xcharge_header(char *buf, size_t n);
void xcharge_format(const struct explorer *x, const struct xevent *e, char *buf, size_t n);

int xcharge_info_events(struct explorer *x, uint64_t n);
int xcharge_info_cost(struct explorer *x, int argc, char **argv);

#endif
