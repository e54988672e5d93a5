/*
 * explorer_break.h — breakpoints (code locations, cycles) and catchpoints
 * (miss events), with gdb's numbering, conditions, ignore counts and
 * enable/disable.
 *
 * The module is a core observer (instruction and cycle events) and the
 * sink of the trace recorder (miss events, engine and derived). It is
 * stateless as far as the engine is concerned: breakpoints are the user's
 * settings and survive reverse execution and restarts.
 *
 * Modes: XB_STOP (a hit asks the core to stop and is remembered), XB_RECORD
 * (a hit is remembered, nothing stops, hit and ignore counts untouched: for
 * reverse-continue's search) and XB_OFF (replaying towards a cycle).
 *
 * When hits are tested:
 *   break LOC    when a correct-path instruction at LOC reaches the stage
 *                of `set break-stage` (default: dispatch into the ROB);
 *   break cycle N   during the cycle that ends at position N;
 *   catch EVENT  when the event begins, or when it ends if the condition
 *                reads `latency` or `end` (only then are they known).
 */
#ifndef IVX_EXPLORER_BREAK_H
#define IVX_EXPLORER_BREAK_H

#include <stdint.h>
#include "explorer.h"

struct xexpr;

enum xbp_type { XBP_CODE, XBP_CYCLE, XBP_CATCH };
enum xbreaks_mode { XB_OFF, XB_STOP, XB_RECORD };

struct xbp {
	int num;              /* 1, 2, ...; 0 for the internal `until` breakpoint */
	int type;             /* enum xbp_type */
	int temp;             /* tbreak/tcatch: deleted when it stops the program */
	int enabled;
	int internal;         /* `until`'s own breakpoint: number 0, never listed */
	uint64_t addr;        /* XBP_CODE */
	uint64_t cycle;       /* XBP_CYCLE: the position to stop at */
	int ev_kind;          /* XBP_CATCH: miss kind or XEV_* */
	int at_end;           /* XBP_CATCH: tested when the event ends */
	struct xexpr *cond;   /* NULL: always */
	uint64_t ignore;      /* hits still to ignore */
	uint64_t hits;        /* times it stopped the program */
	uint64_t run_tested;  /* XBP_CATCH: events of its kind tested in the current run */
	uint64_t run_longest; /* ... and the longest of them that had ended, in cycles */
	uint64_t run_held;    /* ... and those its condition held for but its ignore count skipped */
	char where[96];       /* the location as written */
};

/* What the last hit was. */
struct xbreak_hit {
	int bp;               /* breakpoint number */
	int type;
	int has_event;
	struct xevent ev;     /* with a catchpoint */
	int phase;            /* MISS_BEGIN / MISS_END */
	uint64_t seq, pc;     /* the instruction (code breakpoints, events) */
	int stage;            /* code breakpoints: insn stage */
	uint64_t cycle;       /* engine cycle number of the hit */
};

struct xbreaks;

struct xbreaks *xbreaks_new(struct explorer *x);
void xbreaks_free(struct xbreaks *b);
/* (Re)subscribe to `c` with only the callbacks the current breakpoints
 * need, so a run without code breakpoints pays nothing per instruction. */
int xbreaks_attach(struct xbreaks *b, struct core *c, struct ivx_err *err);
/* The trace recorder's sink (ctx is the xbreaks). */
void xbreaks_on_event(void *ctx, const struct xevent *e, int phase);

void xbreaks_set_mode(struct xbreaks *b, int mode);
/* In XB_RECORD mode, hits for which skip(ctx, hit) is non-zero are passed
 * over (NULL: none); each cycle keeps its first other hit. */
void xbreaks_set_skip(struct xbreaks *b, int (*skip)(void *ctx, const struct xbreak_hit *h), void *ctx);

/* Add a copy of *bp (its cond is taken over); returns the new number
 * (0 for an internal one), or -1 when out of memory. */
int xbreaks_add(struct xbreaks *b, const struct xbp *bp);
struct xbp *xbreaks_find(struct xbreaks *b, int num);
int xbreaks_delete(struct xbreaks *b, int num);   /* 0, -1 if no such */
int xbreaks_count(const struct xbreaks *b);
struct xbp *xbreaks_at(struct xbreaks *b, int i); /* in number order */

/* 1 and the hit if one happened since the last call (then cleared). */
int xbreaks_take_hit(struct xbreaks *b, struct xbreak_hit *out);
/* A condition failed to evaluate during the run: its message (or NULL). */
const char *xbreaks_take_error(struct xbreaks *b);

/* Cycle breakpoints: the position of the first enabled one after
 * `after` (UINT64_MAX: none), where a run must end a slice; and the check
 * of those at the core's position, once it is there. */
uint64_t xbreaks_next_cycle(const struct xbreaks *b, uint64_t after);
void xbreaks_check_position(struct xbreaks *b, const struct core *c);

/* A forward run begins: zero the catchpoints' run_tested / run_longest. */
void xbreaks_run_begin(struct xbreaks *b);
/* The program starts again (restart, run, a setting that restarts it):
 * no breakpoint has been hit yet, as gdb's `run` says. */
void xbreaks_program_restarted(struct xbreaks *b);
/* What the conditional catchpoints saw in this run without stopping it,
 * one line each ("Catchpoint 1 (l2d ends if latency > 300) held for none of
 * the 91860 l2d misses tested in this run; the longest lasted 291 cycles"),
 * or a short form for a progress line (short_form: the first one only).
 * Empty when there is nothing to say. */
void xbreaks_run_summary(struct xbreaks *b, int short_form, char *buf, size_t n);

/* "l2d miss begins" / "breakpoint at main+0x10" style description. */
void xbreaks_describe(const struct xbp *bp, char *buf, size_t n);

#endif
