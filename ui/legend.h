/*
 * legend.h — the one letter that stands for each kind of miss event on the
 * screen, the same in every pane (CPI stack bars, timeline lanes) and in
 * docs/explorer.md: lower case for the short or first-level event, upper
 * case for the long one.
 *
 *   i L1I   I L2I   t ITLB   d L1D   D L2D   T DTLB   b bpred (mispredict)
 *   f FU (long-latency op)   R ROB full   E ROB empty   o overlap   | interval end
 *   = base (the CPI stack's cycles charged to no event)
 */
#ifndef IVX_LEGEND_H
#define IVX_LEGEND_H

/* kind: enum miss_kind or the explorer's derived XEV_* kinds; '?' if none. */
char legend_letter(int kind);
/* The short name shown next to the letter in a legend ("L2D"). */
const char *legend_name(int kind);

#endif
