/*
 * trace_kanata.h — a pipeline trace in Kanata format (version 0004), the
 * log format of the Konata pipeline viewer, written by a core observer.
 *
 * Each instruction fetched in the cycle window [lo, hi) gets a line in the
 * viewer with its disassembly, the stages F (fetch to dispatch: frontend),
 * Ds (in the issue queue), Ex (executing) and Cm (done, waiting to commit),
 * wake-up arrows from its producers, and ends retired or flushed.
 */
#ifndef IVX_TRACE_KANATA_H
#define IVX_TRACE_KANATA_H

#include <stdint.h>
#include <stdio.h>
#include "base/err.h"
#include "core/events.h"

struct trace_kanata;

/* Trace into f (the caller's: it opens, checks and closes it) the
 * instructions fetched in cycles [lo, hi) (hi = 0: no end). NULL with err
 * filled on failure. */
struct trace_kanata *trace_kanata_new(FILE *f, uint64_t lo, uint64_t hi, struct ivx_err *err);
const struct core_observer *trace_kanata_observer(struct trace_kanata *t);
void trace_kanata_free(struct trace_kanata *t);

#endif
