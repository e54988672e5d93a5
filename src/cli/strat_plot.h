/*
 * strat_plot.h — error-versus-events curves of several compressors as
 * CSV and as a self-contained SVG line chart (axes, ticks, legend), for
 * `ivx strat --csv/--svg`.
 */
#ifndef IVX_STRAT_PLOT_H
#define IVX_STRAT_PLOT_H

#include <stdio.h>

struct strat_series {
	const char *label;        /* "H[P256]2048" */
	int n;                    /* points */
	const double *x, *y;      /* events, error in percent (NaN: no point) */
	int dashed;               /* a bound rather than a measurement */
};

/* series,events,error_pct rows after a header line. */
void strat_plot_csv(FILE *f, const struct strat_series *s, int n);
/* A line chart: x from 0 to the largest x, y from 0 to ymax (0: the
 * largest y of the solid series, capped at 100); points above ymax are
 * drawn at the top.
 * A horizontal rule at `rule` percent if > 0. */
void strat_plot_svg(FILE *f, const char *title, const char *xlabel, const struct strat_series *s, int n,
		    double ymax, double rule);

#endif
