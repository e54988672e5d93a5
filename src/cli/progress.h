/*
 * progress.h — the progress line of long headless runs (run, cpistack,
 * refstack, profile, coproc, strat) on stderr: simulations done, instructions, simulated cycles per
 * second and, when the user set a limit, the time left.
 *
 * Only when stderr is a terminal and --quiet was not given; rewritten in
 * place ("\r...", erase to the end of the line) at most twice a second,
 * and erased before anything else is printed. Callers report every slice
 * of simulation (a few hundred thousand cycles), never per cycle, so the
 * clock is read once per slice. The line is for the person watching: no
 * result depends on it.
 */
#ifndef IVX_PROGRESS_H
#define IVX_PROGRESS_H

#include <stdint.h>

struct core;
struct ivx_err;

struct progress {
	int on;                  /* stderr is a terminal and not --quiet */
	int shown;               /* a line is on the screen */
	double t0, last;         /* start, last redraw (seconds, monotonic) */
	uint64_t max_insns, max_cycles;   /* each simulation's limits (0 = none): the ETA */
};

/* Where a run has got. */
struct progress_state {
	int sims_done, sims_total;     /* 0 total: a single run, not shown */
	uint64_t insns, cycles;        /* summed over the simulations */
	int functional;                /* no cycles: instructions per second */
};

void progress_start(struct progress *p, int quiet, uint64_t max_insns, uint64_t max_cycles);
/* Redraw if half a second has passed since the last time. */
void progress_update(struct progress *p, const struct progress_state *s);
/* Erase the line (before the run's own output). */
void progress_end(struct progress *p);
/* core_run(c, max_cycles, max_insns, err) with the line redrawn between
 * slices of cycles when it is on (one core_run when it is off). Slicing
 * changes no result: core_run resumes exactly where it stopped. Not for a
 * run whose observers call core_request_stop (DCPI's poll mode): a stop
 * that fell on a slice's end would be run past. The caller ends the line. */
int progress_core_run(struct progress *p, struct core *c, uint64_t max_cycles, uint64_t max_insns,
		      struct ivx_err *err);
/* progress_update with c's instructions and cycles (a caller's own loop). */
void progress_core_update(struct progress *p, const struct core *c);
/* Erase the line on the screen, if any, before other output reaches the
 * terminal (the guest's writes): the next update draws it again. */
void progress_hide(void);

#endif
