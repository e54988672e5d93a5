/*
 * inst_strat.h — the explorer's stratified-sampling instrument: one
 * compressor (engine/strat) behind a selector on the core, chosen with the
 * `strat` command, shown by the `strat` pane and `info strat`.
 */
#ifndef IVX_INST_STRAT_H
#define IVX_INST_STRAT_H

struct xstrat;
struct strat_run;
struct explorer;

/* The running instrument, NULL while none is chosen. */
const struct strat_run *xstrat_run(const struct xstrat *xs);
/* The spec's canonical text and the profiles ("value", "edge,call"). */
const char *xstrat_spec_text(const struct xstrat *xs);
const char *xstrat_profile_text(const struct xstrat *xs);
/* Whether the interrupt handler's cycles are charged to the core. */
int xstrat_charge(const struct xstrat *xs);
/* Why there is no error yet, for "error  - (...)": no pc has run often
 * enough, or tuples were dropped by the explorer's fixed exact profile. */
const char *xstrat_no_error_reason(const struct strat_run *r);
/* Choose a compressor (spec NULL: none) for the next start; 0 or -1 with
 * explorer_error. */
int xstrat_configure(struct explorer *x, const char *spec, const char *profiles, int charge);

#endif
