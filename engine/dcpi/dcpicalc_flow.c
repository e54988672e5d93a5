/*
 * dcpicalc_flow.c — the pure parts of ivx's extension of dcpicalc's
 * frequency estimate (`--estimator ivx`; dcpicalc.c applies them, and
 * docs/dcpicalc.md measures them): reconcile the classes' estimates with
 * the flow equations of the control-flow graph by weighted least squares,
 * and pool a class's issue points (at the end of the file).
 *
 * The paper estimates each frequency-equivalence class on its own, from
 * its issue points, and uses the flow equations (a block's frequency is
 * the sum of its incoming edges', and of its outgoing ones) only to fill
 * classes it could not estimate (local propagation, section 6.1.4); it
 * mentions a global constraint solver as work in progress. Each class's
 * estimate is noisy (at P = 4096 a point with 60 samples is +-13%), and
 * neighbouring classes often carry the same information: the two sides of
 * a branch that is never taken, a loop body and its exit. Here every class
 * with an estimate p_c gets a variance v_c (the caller's: Poisson noise of
 * the samples behind it, far more for estimates of low confidence), and
 * the frequencies are moved the least, in the metric of those variances,
 * that makes the flow equations A x = 0 hold exactly:
 *
 *   minimise sum_c (x_c - p_c)^2 / v_c  subject to  A x = 0
 *   x = p - V A^T lambda,  where  (A V A^T) lambda = A p
 *
 * (V = diag v). A V A^T has one row per equation and is factored by
 * Cholesky; an equation that depends on the others gives a zero pivot and
 * is dropped (its lambda 0), so redundant equations need no care. The
 * variances may differ by many orders of magnitude (a firm estimate
 * against a class no sample sees) without harm: each enters only as a
 * weight inside its own equations. A class driven below zero is pinned
 * there (v = 0, p = 0) and the system solved again. Classes without an
 * estimate are left out, with every equation that names one.
 */
#include <math.h>
#include <string.h>
#include "dcpicalc.h"
#include "base/alloc.h"

/* Above this many equations the dense solve is skipped (n^3 / 6 work). */
#define FLOW_MAX_EQS 800
/* The classes' variances after the solve cost classes x equations^2:
 * skipped above this (the prior variances stay). */
#define FLOW_POST_WORK 5e7
/* A pivot below this share of its diagonal: the equation depends on the
 * ones before it. */
#define FLOW_DEPENDENT 1e-9

/* In-place Cholesky factorisation of the n x n symmetric positive
 * semi-definite matrix m (row major, lower triangle used) and solve of
 * m x = b (b overwritten by x), dropping the rows whose pivot vanishes
 * (their x is 0). */
static void cholesky_solve_psd(double *m, double *b, int n, char *drop)
{
	for (int j = 0; j < n; j++) {
		double diag = m[j * n + j], d = diag;
		for (int k = 0; k < j; k++)
			d -= m[j * n + k] * m[j * n + k];
		drop[j] = !(d > FLOW_DEPENDENT * diag) || !(diag > 0);
		if (drop[j]) {
			for (int i = j; i < n; i++)
				m[i * n + j] = 0;
			m[j * n + j] = 1;
			continue;
		}
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
		double s = drop[i] ? 0 : b[i];
		for (int k = 0; k < i && !drop[i]; k++)
			s -= m[i * n + k] * b[k];
		b[i] = drop[i] ? 0 : s / m[i * n + i];
	}
	for (int i = n - 1; i >= 0; i--) {     /* L^T x = y */
		if (drop[i]) {
			b[i] = 0;
			continue;
		}
		double s = b[i];
		for (int k = i + 1; k < n; k++)
			s -= m[k * n + i] * b[k];
		b[i] = s / m[i * n + i];
	}
}

int dcc_flow_reconcile(int n_cls, const double *prior, const double *var, double *freq, double *post_var, int n_eq,
		       const int *eq_start, const int *eq_cls, const double *eq_coef)
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
	int rc = 0, ne = 0;
	for (int q = 0; q < n_eq; q++)
		ne += keep[q];
	if (n < 2 || ne < 1 || ne > FLOW_MAX_EQS)
		goto out;
	double *m = ivx_calloc((size_t)ne * (size_t)ne, sizeof(double)), *lam = ivx_calloc((size_t)ne, sizeof(double));
	double *v = ivx_calloc((size_t)n_cls, sizeof(double)), *p = ivx_calloc((size_t)n_cls, sizeof(double));
	double *x = ivx_calloc((size_t)n_cls, sizeof(double));
	char *drop = ivx_calloc((size_t)ne, 1);
	int *qrow = ivx_calloc((size_t)n_eq + 1, sizeof(int));
	if (!m || !lam || !v || !p || !x || !drop || !qrow) {
		rc = -1;
		goto done;
	}
	for (int q = 0, r = 0; q < n_eq; q++)
		qrow[q] = keep[q] ? r++ : -1;
	for (int c = 0; c < n_cls; c++) {
		v[c] = row[c] >= 0 ? var[c] : 0;
		p[c] = row[c] >= 0 ? prior[c] : 0;
	}
	/* No negative frequency: each round pins the most negative class at
	 * zero and solves again, until none is. */
	for (int round = 0; round <= n; round++) {
		memset(m, 0, (size_t)ne * (size_t)ne * sizeof *m);
		for (int q = 0; q < n_eq; q++) {
			if (!keep[q])
				continue;
			int a_ = qrow[q];
			double rhs = 0;
			for (int k = eq_start[q]; k < eq_start[q + 1]; k++)
				rhs += eq_coef[k] * p[eq_cls[k]];
			lam[a_] = rhs;
			/* (A V A^T)[a][b] = sum over the classes both name */
			for (int r = 0; r < n_eq; r++) {
				if (!keep[r] || qrow[r] > a_)
					continue;
				double sum = 0;
				for (int k = eq_start[q]; k < eq_start[q + 1]; k++)
					for (int l = eq_start[r]; l < eq_start[r + 1]; l++)
						if (eq_cls[k] == eq_cls[l])
							sum += eq_coef[k] * eq_coef[l] * v[eq_cls[k]];
				m[a_ * ne + qrow[r]] = sum;
				m[qrow[r] * ne + a_] = sum;
			}
		}
		cholesky_solve_psd(m, lam, ne, drop);
		for (int c = 0; c < n_cls; c++)
			x[c] = p[c];
		for (int q = 0; q < n_eq; q++) {
			if (!keep[q])
				continue;
			for (int k = eq_start[q]; k < eq_start[q + 1]; k++)
				x[eq_cls[k]] -= v[eq_cls[k]] * eq_coef[k] * lam[qrow[q]];
		}
		int worst = -1;
		for (int c = 0; c < n_cls; c++)
			if (row[c] >= 0 && v[c] > 0 && x[c] < 0 && (worst < 0 || x[c] < x[worst]))
				worst = c;
		if (worst < 0)
			break;
		v[worst] = 0;             /* pinned */
		p[worst] = 0;
	}
	for (int c = 0; c < n_cls; c++)
		if (row[c] >= 0)
			freq[c] = x[c] > 0 ? x[c] : 0;
	/* the variance left to each class: v - v^2 a^T (A V A^T)^-1 a, with a
	 * its column of A (L z = a, then |z|^2); skipped when too big */
	if (post_var && (double)n * ne * ne <= FLOW_POST_WORK) {
		for (int c = 0; c < n_cls; c++) {
			if (row[c] < 0)
				continue;
			if (!(v[c] > 0)) {
				post_var[c] = 0;          /* pinned at zero */
				continue;
			}
			memset(lam, 0, (size_t)ne * sizeof *lam);
			for (int q = 0; q < n_eq; q++)
				for (int k = eq_start[q]; keep[q] && k < eq_start[q + 1]; k++)
					if (eq_cls[k] == c)
						lam[qrow[q]] += eq_coef[k];
			double z2 = 0;
			for (int i = 0; i < ne; i++) {
				if (drop[i]) {
					lam[i] = 0;
					continue;
				}
				double t = lam[i];
				for (int k = 0; k < i; k++)
					t -= m[i * ne + k] * lam[k];
				lam[i] = t / m[i * ne + i];
				z2 += lam[i] * lam[i];
			}
			double pv = v[c] - v[c] * v[c] * z2;
			post_var[c] = pv > 1e-12 * v[c] ? pv : 1e-12 * v[c];
		}
	}
done:
	ivx_free(m);
	ivx_free(lam);
	ivx_free(v);
	ivx_free(p);
	ivx_free(x);
	ivx_free(drop);
	ivx_free(qrow);
out:
	ivx_free(row);
	ivx_free(keep);
	return rc;
}

/* ivx's pooling (DCC_EST_IVX): the lowest cluster is a start, not the
 * estimate. Every issue point whose samples are within three standard
 * deviations of the Poisson noise around F M_i (neither a stall nor a
 * point that issues in fewer cycles than its M) joins; F becomes their
 * sum S / sum M, and the test is redone until the set stays (at most 8
 * rounds). More points, less noise; a point far off either way stays out.
 * When no point at all is that close to the cluster's F (two points with
 * a thousand samples each, 1.4 times apart: within the cluster's width,
 * far beyond their noise), the pool starts again from the cluster's
 * lowest point. */
#define DCC_POOL_SIGMA 3.0

double dcc_class_pool(const double *r, const double *w, int n, double f0, int *used)
{
	double f = f0, lo = -1;
	if (f <= 0)
		return f0;
	for (int k = 0; k < n; k++)
		if (used[k] && r[k] > 0 && (lo < 0 || r[k] < lo))
			lo = r[k];
	for (int round = 0; round < 8; round++) {
		double ss = 0, sm = 0;
		int changed = 0;
		for (int k = 0; k < n; k++) {
			double wk = w ? w[k] : 1, expect = f * wk, s = r[k] * wk;
			double band = DCC_POOL_SIGMA * sqrt(expect + 1.0);
			int in = r[k] >= 0 && s <= expect + band && s >= expect - band;
			if (in != used[k])
				changed = 1;
			used[k] = in;
			if (in) {
				ss += s;
				sm += wk;
			}
		}
		if (sm <= 0 && round == 0 && lo > 0 && lo < f) {
			/* the cluster's points disagree beyond their noise (a
			 * loose cluster of well-sampled points, one of them
			 * stalled): dynamic stalls only add, so start again from
			 * its lowest point */
			f = lo;
			lo = -1;
			round = -1;
			continue;
		}
		if (sm <= 0)
			return f0;
		f = ss / sm;
		if (!changed)
			break;
	}
	return f;
}
