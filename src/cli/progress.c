/* progress.c — the progress line on a terminal's stderr (see progress.h). */
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "core/core.h"
#include "progress.h"

#define REDRAW_SECONDS 0.5
/* a clock read every slice, not every cycle */
#define SLICE_CYCLES (1u << 18)

/* The progress whose line is on the screen: like stderr itself, one per
 * process (main thread only). */
static struct progress *on_screen;

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void progress_start(struct progress *p, int quiet, uint64_t max_insns, uint64_t max_cycles)
{
	*p = (struct progress){ .on = !quiet && isatty(2), .max_insns = max_insns, .max_cycles = max_cycles };
	p->t0 = p->last = now_seconds();
}

/* "1.23 M", "456.0 k", "789" */
static void scaled(char *buf, size_t n, double v)
{
	if (v >= 1e9)
		snprintf(buf, n, "%.2f G", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, n, "%.2f M", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, n, "%.1f k", v / 1e3);
	else
		snprintf(buf, n, "%.0f", v);
}

void progress_update(struct progress *p, const struct progress_state *s)
{
	if (!p->on)
		return;
	double t = now_seconds();
	if (t - p->last < REDRAW_SECONDS)
		return;
	p->last = t;
	double secs = t - p->t0;
	char line[200], insns[32], rate[32], eta[48] = "";
	int n = 0;
	if (s->sims_total)
		n += snprintf(line + n, sizeof line - n, "%d/%d simulations, ", s->sims_done, s->sims_total);
	scaled(insns, sizeof insns, (double)s->insns);
	scaled(rate, sizeof rate, (s->functional ? (double)s->insns : (double)s->cycles) / secs);
	n += snprintf(line + n, sizeof line - n, "%s instructions, %s %s/s", insns, rate,
		      s->functional ? "instructions" : "cycles");
	/* the time left, from the share of the limit done so far: the
	 * larger share of the two limits is the one that ends the run */
	int sims = s->sims_total ? s->sims_total : 1;
	double share = 0;
	if (p->max_insns)
		share = (double)s->insns / ((double)p->max_insns * sims);
	if (p->max_cycles && !s->functional && (double)s->cycles / ((double)p->max_cycles * sims) > share)
		share = (double)s->cycles / ((double)p->max_cycles * sims);
	if (share > 0.001 && share < 1) {
		long left = (long)(secs / share - secs + 0.5);
		snprintf(eta, sizeof eta, ", ETA %ld:%02ld", left / 60, left % 60);
	}
	fprintf(stderr, "\rivx: %s%s\033[K", line, eta);
	fflush(stderr);
	p->shown = 1;
	on_screen = p;
}

int progress_core_run(struct progress *p, struct core *c, uint64_t max_cycles, uint64_t max_insns,
		      struct ivx_err *err)
{
	if (!p->on)
		return core_run(c, max_cycles, max_insns, err);
	for (;;) {
		uint64_t to = core_cycles(c) + SLICE_CYCLES;
		if (max_cycles && max_cycles < to)
			to = max_cycles;
		int rc = core_run(c, to, max_insns, err);
		/* short of the slice: the end, or the instruction limit */
		if (rc < 0 || core_done(c) || core_cycles(c) < to || (max_cycles && core_cycles(c) >= max_cycles) ||
		    (max_insns && core_committed(c) >= max_insns))
			return rc;
		progress_core_update(p, c);
	}
}

void progress_core_update(struct progress *p, const struct core *c)
{
	struct progress_state st = { .insns = core_committed(c), .cycles = core_cycles(c) };
	progress_update(p, &st);
}

void progress_end(struct progress *p)
{
	if (p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->shown = 0;
	if (on_screen == p)
		on_screen = NULL;
}

void progress_hide(void)
{
	if (on_screen)
		progress_end(on_screen);
}
