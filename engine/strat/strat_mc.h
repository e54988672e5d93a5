/*
 * strat_mc.h — the paper's Monte Carlo experiment (section 3.3, Figure 4)
 * on synthetic streams; see strat_mc.c for the stream and the error.
 */
#ifndef IVX_STRAT_MC_H
#define IVX_STRAT_MC_H

#include <stdint.h>
#include "base/err.h"
#include "strat.h"

struct strat_mc_opts {
	uint32_t trials;      /* streams per length (the paper: 2500) */
	double share;         /* fraction of the stream that is p (0.3) */
	uint64_t seed;
	int ratio;            /* C samplers: ratio estimator instead of the sum */
};

/* Mean ERR (percent) of `spec` over o->trials streams of length n. */
int strat_mc_point(const struct strat_spec *spec, uint64_t n, const struct strat_mc_opts *o, double *mean_err,
		   struct ivx_err *err);

#endif
