/*
 * sweep_clash.h — one machine key, one place in a sweep spec.
 *
 * Every option source of a spec ([sweep] options, a program's options, a
 * config's file and `o =` lines, an `o =` value list, an axis value) puts
 * its words on the command line of the jobs it reaches, and ivx takes the
 * last `-o KEY=V` of a key without a word. Two sources that set one key for
 * the same job would make the sweep label rows with values that did not
 * run, so the spec reader notes what each source sets (sweep_clash_note)
 * and refuses the spec when two can meet in a job (sweep_clash_find).
 * Keys compare as config.c compares them: without regard to case. A second
 * `--config` counts too (each job would refuse it).
 */
#ifndef IVX_SWEEP_CLASH_H
#define IVX_SWEEP_CLASH_H

#include <stddef.h>
#include "sweep_spec.h"

enum sweep_source {
	SWEEP_FROM_OPTIONS,   /* [sweep] options: every job */
	SWEEP_FROM_PROGRAM,   /* [program] options */
	SWEEP_FROM_CONFIG,    /* [config] file and o lines */
	SWEEP_FROM_OLIST,     /* [sweep] o = KEY = V1, V2, ... */
	SWEEP_FROM_AXIS,      /* an [axis] value */
};

typedef struct sweep_clash sweep_clash;

sweep_clash *sweep_clash_new(void);   /* NULL when out of memory */
void sweep_clash_free(sweep_clash *c); /* NULL is a no-op */

/* Note the keys that the option words w[0..n) set (each `-o KEY=V`, and
 * `--config`), given at `line` by value `value` of the dimension named
 * `dim` (its name string, as stored in the spec; NULL and -1 for [sweep]
 * options). 0, or -1 when out of memory. */
int sweep_clash_note(sweep_clash *c, char *const *w, int n, int line, enum sweep_source from, const char *dim,
		     int value);

/* The first key two noted sources set for one job (sources of one
 * dimension meet only within one value): 1 with the later setting's line
 * in *line and "KEY is set by A and by B (line N)..." in msg; else 0. The
 * spec names the sources (labels, axis names). */
int sweep_clash_find(const sweep_clash *c, const struct sweep_spec *s, int *line, char *msg, size_t len);

#endif
