/*
 * dcpicalc_calls.h — ivx's interprocedural step for `ivx dcpicalc
 * --estimator ivx` and the explorer's `annotate --estimator ivx`: how
 * often each procedure is called, from the frequencies of its call sites
 * in the other procedures of the profile.
 */
#ifndef IVX_DCPICALC_CALLS_H
#define IVX_DCPICALC_CALLS_H

#include <stdint.h>
#include "dcpicalc_load.h"

struct dcpicalc_calls;

/* Analyse every procedure with CYCLES samples in db d (ivx's estimator)
 * and sum, per called entry address, its direct call sites' estimated
 * executions and their variances. NULL after an error line. */
struct dcpicalc_calls *dcpicalc_calls_gather(struct dcpicalc_db *d);
void dcpicalc_calls_free(struct dcpicalc_calls *c);

/* The same one procedure at a time, for a caller with its own samples
 * (the explorer's `annotate --estimator ivx`): an empty sum (NULL: no
 * memory), then per procedure of image `image` (every one, with samples
 * or not: its indirect calls count) its call sites, analysed on machine
 * mc. 0, or -1 with a one-line message in msg. */
struct dcpicalc_calls *dcpicalc_calls_new(void);
int dcpicalc_calls_add(struct dcpicalc_calls *c, const struct machine_config *mc, const char *image,
		       struct dcpicalc_proc *pr, char *msg, size_t msg_n);

/* The calls of the procedure at entry, in executions per CYCLES period
 * `period` (*calls) with their variance (*var): 0, or -1 when not known
 * (no call site, a call site without an estimate, or an indirect call
 * anywhere in the image, which could reach any procedure). */
int dcpicalc_calls_of(const struct dcpicalc_calls *c, const char *image, uint64_t entry, double period,
		      double *calls, double *var);

#endif
