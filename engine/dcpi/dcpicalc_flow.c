/*
 * dcpicalc_flow.c — ivx's extension of dcpicalc's frequency estimate
 * (`--estimator ivx`): reconcile the classes' estimates with the flow
 * equations of the control-flow graph by weighted least squares.
 *
 * The paper estimates each frequency-equivalence class on its own, from
 * its issue points, and uses the flow equations (a block's frequency is
 * the sum of its incoming edges', and of its outgoing ones) only to fill
 * classes it could not estimate (local propagation, section 6.1.4); it
 * mentions a global constraint solver as work in progress. Each class's
 * estimate is noisy (at P = 4096 a point with 60 samples is +-13%), and
 * neighbouring classes often carry the same information: the two sides of
 * a branch that is never taken, a loop body and its exit. Here every class
 * with an estimate gets a variance (the caller's: Poisson noise of the
 * samples behind it, more for estimates of low confidence), and the
 * frequencies are moved the least, in the metric of those variances, that
 * makes the flow equations hold:
 *
 *   minimise  sum_c (x_c - f_c)^2 / v_c  +  rho * sum_e (a_e . x)^2
 *
 * a penalty form of the constrained problem (rho large against 1 / v),
 * solved by Cholesky on the normal equations (one class per row; the
 * procedures of the suite have at most a few hundred classes). A class
 * the solution drives negative is pinned at zero and the system solved
 * again. Classes without an estimate are left out, with every equation
 * that names one.
 */
#include <math.h>
#include <string.h>
#include "dcpicalc.h"
#include "base/alloc.h"

/* The penalty on a flow equation, against the largest 1 / variance: large
 * enough that the equations hold to about 1e-5 of the frequencies, small
 * enough to keep the normal equations well conditioned in doubles. */
#define FLOW_RHO 1e5
/* Above this many classes the dense solve is skipped (n^3 / 3 work). */
#define FLOW_MAX_CLASSES 600

/* In-place Cholesky factorisation of the n x n SPD matrix m (row major)
 * and solve of m x = b (b overwritten by x). -1 if not positive definite. */
static int cholesky_solve(double *m, double *b, int n)
{
	for (int j = 0; j < n; j++) {
		double d = m[j * n + j];
		for (int k = 0; k < j; k++)
			d -= m[j * n + k] * m[j * n + k];
		if (!(d > 0))
			return -1;
		d = sqrt(d);
		m[j * n + j] = d;
		for (int i = j + 1; i < n; i++) {
			double s = m[i * n + j];
			for (int k = 0; k < j; k++)
				s -= m[i * n + k] * m[j * n + k];
			m[i * n + j] = s / d;
		}
	}
	for (int i = 0; i < n; i++) {          /* L y = b */
		double s = b[i];
		for (int k = 0; k < i; k++)
			s -= m[i * n + k] * b[k];
		b[i] = s / m[i * n + i];
	}
	for (int i = n - 1; i >= 0; i--) {     /* L^T x = y */
		double s = b[i];
		for (int k = i + 1; k < n; k++)
			s -= m[k * n + i] * b[k];
		b[i] = s / m[i * n + i];
	}
	return 0;
}

int dcc_flow_reconcile(int n_cls, const double *prior, const double *var, double *freq, int n_eq, const int *eq_start,
		       const int *eq_cls, const double *eq_coef)
{
	if (n_cls <= 0)
		return 0;
	int *row = ivx_calloc((size_t)n_cls, sizeof(int));   /* class -> unknown number, -1 not in */
	int *keep = ivx_calloc((size_t)n_eq + 1, sizeof(int));
	if (!row || !keep) {
		ivx_free(row);
		ivx_free(keep);
		return -1;
	}
	for (int c = 0; c < n_cls; c++)
		row[c] = -1;
	/* the equations over estimated classes only, and the classes they name */
	int n = 0;
	for (int q = 0; q < n_eq; q++) {
		int ok = 1, nonzero = 0;
		for (int k = eq_start[q]; k < eq_start[q + 1]; k++) {
			if (prior[eq_cls[k]] < 0 || !(var[eq_cls[k]] > 0))
				ok = 0;
			if (eq_coef[k] != 0)
				nonzero = 1;
		}
		keep[q] = ok && nonzero;
		if (!keep[q])
			continue;
		for (int k = eq_start[q]; k < eq_start[q + 1]; k++)
			if (row[eq_cls[k]] < 0)
				row[eq_cls[k]] = n++;
	}
	int rc = 0;
	if (n < 2 || n > FLOW_MAX_CLASSES)
		goto out;
	double *m = ivx_calloc((size_t)n * (size_t)n, sizeof(double)), *b = ivx_calloc((size_t)n, sizeof(double));
	char *pinned = ivx_calloc((size_t)n_cls, 1);
	if (!m || !b || !pinned) {
		ivx_free(m);
		ivx_free(b);
		ivx_free(pinned);
		rc = -1;
		goto out;
	}
	double hmax = 0;
	for (int c = 0; c < n_cls; c++)
		if (row[c] >= 0 && 1.0 / var[c] > hmax)
			hmax = 1.0 / var[c];
	double rho = FLOW_RHO * hmax;
	/* No negative frequency: a class the solution drives below zero is
	 * pinned at zero (weighted like the equations) and the system solved
	 * again, until none is negative; each round pins one class more. */
	for (int round = 0; round <= n; round++) {
		memset(m, 0, (size_t)n * (size_t)n * sizeof *m);
		memset(b, 0, (size_t)n * sizeof *b);
		for (int c = 0; c < n_cls; c++) {
			if (row[c] < 0)
				continue;
			int r = row[c];
			m[r * n + r] += pinned[c] ? rho : 1.0 / var[c];
			b[r] += pinned[c] ? 0 : prior[c] / var[c];
		}
		for (int q = 0; q < n_eq; q++) {
			if (!keep[q])
				continue;
			/* rho a a^T; a class named twice in one equation has its
			 * coefficients summed by the double loop */
			for (int k = eq_start[q]; k < eq_start[q + 1]; k++)
				for (int l = eq_start[q]; l < eq_start[q + 1]; l++)
					m[row[eq_cls[k]] * n + row[eq_cls[l]]] += rho * eq_coef[k] * eq_coef[l];
		}
		if (cholesky_solve(m, b, n) < 0)
			break;                  /* keep the estimates as they were */
		int worst = -1;
		for (int c = 0; c < n_cls; c++)
			if (row[c] >= 0 && !pinned[c] && b[row[c]] < 0 && (worst < 0 || b[row[c]] < b[row[worst]]))
				worst = c;
		if (worst < 0) {
			for (int c = 0; c < n_cls; c++)
				if (row[c] >= 0)
					freq[c] = b[row[c]] > 0 ? b[row[c]] : 0;   /* the pinned: ~0 */
			break;
		}
		pinned[worst] = 1;
	}
	ivx_free(m);
	ivx_free(b);
	ivx_free(pinned);
out:
	ivx_free(row);
	ivx_free(keep);
	return rc;
}
