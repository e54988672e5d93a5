/*
 * svg.h — pictures for slides: what the explorer shows, as SVG.
 *
 * Three drawings, all in the colours of palette.h (the terminal's):
 *   - a text buffer (a pane or the whole screen) as monospaced SVG text,
 *     cell for cell, each run of cells in its attribute's colours;
 *   - an interval timeline (the paper's Figures 2-8 from a real run): ROB
 *     occupancy, instructions dispatched / issued / committed per cycle,
 *     and each miss event as a bar from the cycle it began to the cycle it
 *     ended, in its CPI-stack component's colour with its legend letter;
 *   - CPI stacks as horizontal stacked bars, one per method and run, all
 *     on one scale, so two runs (`ivx compare`) read side by side.
 * `export svg` (src/xcmd/xcmd_export.c) and `ivx compare --svg` use them.
 * The writers only print to a stream; the caller owns the file
 * (cli/outfile.h writes it atomically).
 */
#ifndef IVX_SVG_H
#define IVX_SVG_H

#include <stdint.h>
#include <stdio.h>
#include "acct/acct.h"

struct textbuf;
struct xtrace;
struct xtl_cycle;
struct xevent;

/* <svg ...> with a white background, and the closing tag. */
void svg_begin(FILE *f, double w, double h);
void svg_end(FILE *f);
/* text with XML special characters escaped */
void svg_text(FILE *f, const char *s);

/* A whole document showing tb as text (one cell = 8.4 x 17 px at 14 px
 * monospace), with an optional title line above it (NULL: none). */
void svg_textbuf_doc(FILE *f, const struct textbuf *tb, const char *title);

/* ---- timelines ---------------------------------------------------------- */

/* The cycles [lo, hi) of one run (engine cycle numbers) and the events
 * that overlap them, as svg_timeline_doc draws them. */
struct svg_timeline {
	char title[256];              /* above the plot */
	uint64_t lo, hi;
	struct xtl_cycle *cyc;        /* hi - lo records, cyc[i] is cycle lo + i (allocated) */
	struct xevent *ev;            /* (allocated) */
	int n_ev;
	int rob_size;
	int width;                    /* most instructions per cycle in a stage (the y scale) */
};

/* Copy the cycles [lo, hi) that t still holds (it keeps the last
 * XTRACE_CYCLES) and their events into out. 0, or -1 when out of memory or
 * when t holds none of those cycles. */
int svg_timeline_from_trace(const struct xtrace *t, uint64_t lo, uint64_t hi, int rob_size, int width,
			    struct svg_timeline *out);
void svg_timeline_release(struct svg_timeline *tl);
/* One document, the timelines stacked one above the other on the same
 * cycle scale (one for `export`, two for `compare`). */
void svg_timeline_doc(FILE *f, const struct svg_timeline *tl, int n);

/* ---- CPI stacks --------------------------------------------------------- */

/* One run's stacks, as the accounting units give them. */
struct svg_stacks {
	char label[128];              /* "A: k3_long_dmiss miss 100" */
	struct acct_stack s[ACCT_METHOD_COUNT];
	int have[ACCT_METHOD_COUNT];  /* method m is drawn */
};

/* A document with one group per method drawn, one bar per run in it. */
void svg_cpistack_doc(FILE *f, const char *title, const struct svg_stacks *runs, int n);

#endif
