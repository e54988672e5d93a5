/*
 * cmd_strat.c — `ivx strat`: hardware stream compressors for profiling
 * (engine/strat, the stratified-sampling paper).
 *
 * With a program: run it on the timing model with one compressor per
 * --spec behind the same selector, and report for each the messages,
 * interrupts, overhead and the profile's error against the exact profile,
 * plus the error curve over the events (--json, --csv, --svg) and the
 * hottest selected tuples. With --montecarlo: the paper's Figure 4
 * experiment on synthetic streams, one curve per spec.
 */
#include <math.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "core/config.h"
#include "core/core.h"
#include "guest/guest.h"
#include "guest/program.h"
#include "outfile.h"
#include "progress.h"
#include "runopts.h"
#include "strat/strat.h"
#include "strat/strat_mc.h"
#include "strat/strat_run.h"
#include "strat_plot.h"

#define MAX_SPECS 12
#define MAX_POINTS 4096

struct strat_flags {
	const char *spec_text[MAX_SPECS];
	int n_specs;
	const char *profile;
	const char *json_path, *csv_path, *svg_path;
	int montecarlo, charge, sum_estimator, bounds, bench, no_exact;
	uint64_t batch, top, trials, rate, nmin, nmax, nstep, every;
	double threshold;
	struct strat_err_params ep;
	const char *run_only;      /* the first option given that only a program run takes */
	const char *mc_only;       /* ... that only --montecarlo takes */
};

/* Options that apply to one mode only: given in the other, they would be
 * ignored (or, --rate, rewrite the specs), so they are refused. */
static const char *const run_only_opts[] = {
	"--charge", "--bench", "--no-exact", "--batch", "--top", "--every", "--min-exec", "--invariant",
	"--coverage", "--profile",
};
static const char *const mc_only_opts[] = { "--trials", "--rate", "--nmin", "--nmax", "--nstep", "--estimator" };

static void note_mode(struct strat_flags *f, const char *a)
{
	for (size_t k = 0; k < sizeof run_only_opts / sizeof *run_only_opts; k++)
		if (!strcmp(a, run_only_opts[k]) && !f->run_only)
			f->run_only = run_only_opts[k];
	for (size_t k = 0; k < sizeof mc_only_opts / sizeof *mc_only_opts; k++)
		if (!strcmp(a, mc_only_opts[k]) && !f->mc_only)
			f->mc_only = mc_only_opts[k];
}

/* The first run option given (a program run's: limits, machine, guest);
 * NULL if none. */
static const char *run_option_given(const struct run_options *o)
{
	return o->max_insns ? "--max-insns" : o->max_cycles ? "--max-cycles" : o->fastforward ? "--fastforward" :
	       o->start_at ? "--start-at" : o->config_path ? "--config" : o->n_overrides ? "-o" :
	       o->n_dirs ? "--dir" : o->stdin_path ? "--stdin" : o->guest_argc > 1 ? "-- ARGS" : NULL;
}

static int need_value(int argc, char **argv, int i)
{
	if (i + 1 >= argc) {
		cli_error("option %s needs a value", argv[i]);
		return -1;
	}
	return 0;
}

static int number_opt(const char *opt, const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
	if (cli_parse_u64(v, out) < 0 || *out < lo || *out > hi) {
		cli_error("option %s: '%s' is not a number from %llu to %llu", opt, v, (unsigned long long)lo,
			  (unsigned long long)hi);
		return -1;
	}
	return 0;
}

static int fraction_opt(const char *opt, const char *v, double *out)
{
	char *end;
	double d = strtod(v, &end);
	if (end == v || *end || !(d >= 0 && d <= 1)) {
		cli_error("option %s: '%s' is not a fraction from 0 to 1", opt, v);
		return -1;
	}
	*out = d;
	return 0;
}

static int strat_extra(void *ctx, int argc, char **argv, int i)
{
	struct strat_flags *f = ctx;
	const char *a = argv[i];
	note_mode(f, a);
	if (!strcmp(a, "--montecarlo"))
		return f->montecarlo = 1;
	if (!strcmp(a, "--charge"))
		return f->charge = 1;
	if (!strcmp(a, "--bounds"))
		return f->bounds = 1;
	if (!strcmp(a, "--bench"))
		return f->bench = 1;
	if (!strcmp(a, "--no-exact"))
		return f->no_exact = 1;
	static const char *const valued[] = {
		"--spec", "--profile", "--json", "--csv", "--svg", "--batch", "--top", "--trials", "--rate", "--nmin",
		"--nmax", "--nstep", "--every", "--threshold", "--min-exec", "--invariant", "--coverage", "--estimator",
	};
	int known = 0;
	for (size_t k = 0; k < sizeof valued / sizeof *valued; k++)
		known |= !strcmp(a, valued[k]);
	if (!known)
		return 0;
	if (need_value(argc, argv, i) < 0)
		return -1;
	const char *v = argv[i + 1];
	double d;
	if (!strcmp(a, "--spec")) {
		if (f->n_specs == MAX_SPECS) {
			cli_error("at most %d --spec", MAX_SPECS);
			return -1;
		}
		f->spec_text[f->n_specs++] = v;
	} else if (!strcmp(a, "--profile")) {
		f->profile = v;
	} else if (!strcmp(a, "--json")) {
		f->json_path = v;
	} else if (!strcmp(a, "--csv")) {
		f->csv_path = v;
	} else if (!strcmp(a, "--svg")) {
		f->svg_path = v;
	} else if (!strcmp(a, "--batch")) {
		return number_opt(a, v, 100, 1000000, &f->batch) < 0 ? -1 : 2;
	} else if (!strcmp(a, "--top")) {
		return number_opt(a, v, 0, 1000, &f->top) < 0 ? -1 : 2;
	} else if (!strcmp(a, "--trials")) {
		return number_opt(a, v, 1, 1000000, &f->trials) < 0 ? -1 : 2;
	} else if (!strcmp(a, "--rate")) {
		return number_opt(a, v, 1, 1u << 16, &f->rate) < 0 ? -1 : 2;
	} else if (!strcmp(a, "--nmin")) {
		return number_opt(a, v, 1, 100000000, &f->nmin) < 0 ? -1 : 2;
	} else if (!strcmp(a, "--nmax")) {
		return number_opt(a, v, 1, 100000000, &f->nmax) < 0 ? -1 : 2;
	} else if (!strcmp(a, "--nstep")) {
		return number_opt(a, v, 1, 100000000, &f->nstep) < 0 ? -1 : 2;
	} else if (!strcmp(a, "--every")) {
		return number_opt(a, v, 1, 1000000000, &f->every) < 0 ? -1 : 2;
	} else if (!strcmp(a, "--min-exec")) {
		return number_opt(a, v, 1, 1000000000, &f->ep.min_exec) < 0 ? -1 : 2;
	} else if (!strcmp(a, "--invariant")) {
		return fraction_opt(a, v, &f->ep.invariant) < 0 ? -1 : 2;
	} else if (!strcmp(a, "--coverage")) {
		return fraction_opt(a, v, &f->ep.coverage) < 0 ? -1 : 2;
	} else if (!strcmp(a, "--threshold")) {
		if (fraction_opt(a, v, &d) < 0)
			return -1;
		f->threshold = d;
	} else if (!strcmp(a, "--estimator")) {
		if (strcmp(v, "sum") && strcmp(v, "ratio")) {
			cli_error("option --estimator: '%s' is not sum or ratio", v);
			return -1;
		}
		f->sum_estimator = !strcmp(v, "sum");
	}
	return 2;
}

/* ---- curves ---------------------------------------------------------------- */

struct curve {
	char label[64];
	int n;
	double x[MAX_POINTS], y[MAX_POINTS];
	double b[MAX_POINTS];     /* sketches: the metric's bound */
};

/* The x from which y stays below thr (all later points too), linearly
 * interpolated between the last point at or above thr and the next; -1
 * if the last point is not below. */
static double under_from(const struct curve *c, double thr)
{
	int from = -1;
	for (int k = 0; k < c->n; k++) {
		if (isnan(c->y[k]) || c->y[k] >= thr)
			from = -1;
		else if (from < 0)
			from = k;
	}
	if (from <= 0 || isnan(c->y[from - 1]))
		return from < 0 ? -1 : c->x[from];
	double x0 = c->x[from - 1], y0 = c->y[from - 1], x1 = c->x[from], y1 = c->y[from];
	return x0 + (y0 - thr) / (y0 - y1) * (x1 - x0);
}

static int write_plots(const struct strat_flags *f, struct curve *cv, int n, const char *title, const char *xlabel,
		       double ymax)
{
	struct strat_series s[2 * MAX_SPECS];
	int ns = 0;
	for (int i = 0; i < n; i++) {
		s[ns++] = (struct strat_series){ cv[i].label, cv[i].n, cv[i].x, cv[i].y, 0 };
	}
	static char blabel[MAX_SPECS][80];
	for (int i = 0; i < n && f->bounds; i++) {
		int any = 0;
		for (int k = 0; k < cv[i].n; k++)
			any |= cv[i].b[k] > 0;
		if (!any)
			continue;
		snprintf(blabel[i], sizeof blabel[i], "%s bound", cv[i].label);
		s[ns++] = (struct strat_series){ blabel[i], cv[i].n, cv[i].x, cv[i].b, 1 };
	}
	int status = 0;
	if (f->csv_path) {
		struct outfile *o = outfile_open_cli(f->csv_path);
		if (!o)
			return -1;
		strat_plot_csv(outfile_stream(o), s, ns);
		status |= outfile_commit_cli(o);
	}
	if (f->svg_path) {
		struct outfile *o = outfile_open_cli(f->svg_path);
		if (!o)
			return -1;
		strat_plot_svg(outfile_stream(o), title, xlabel, s, ns, ymax, f->threshold * 100);
		status |= outfile_commit_cli(o);
	}
	return status ? -1 : 0;
}

static void json_curve(FILE *j, const struct curve *c)
{
	fprintf(j, "[");
	int first = 1;
	for (int k = 0; k < c->n; k++) {
		if (isnan(c->y[k]))
			continue;
		fprintf(j, "%s[%.0f,%.6f]", first ? "" : ",", c->x[k], c->y[k] / 100.0);
		first = 0;
	}
	fprintf(j, "]");
}

/* ---- Monte Carlo ------------------------------------------------------------ */

/* under_from in JSON: null when the error never stays under (as a
 * missing error is null), not -1. */
static void json_under_from(FILE *j, const struct curve *c, double thr)
{
	double x = under_from(c, thr);
	if (x < 0)
		fputs("null", j);
	else
		fprintf(j, "%.0f", x);
}

/* With --rate, every sampler rate in the spec becomes r (and the tagged
 * compressor's hit maximum, which must stay at least 2). */
static void set_rate(struct strat_spec *s, uint32_t r)
{
	for (int i = 0; i < s->n_stages; i++)
		if (s->stage[i].kind == STRAT_R || s->stage[i].kind == STRAT_D || s->stage[i].kind == STRAT_P ||
		    (s->stage[i].kind == STRAT_T && r >= 2))
			s->stage[i].rate = r;
}

static int run_montecarlo(struct strat_flags *f, struct strat_spec *specs, int n, uint64_t seed)
{
	static struct curve cv[MAX_SPECS];
	struct strat_mc_opts o = { (uint32_t)f->trials, 0.3, seed, !f->sum_estimator };
	printf("Monte Carlo (the paper's Figure 4): mean ERR %% over %u streams per length, p = 30%% of each\n",
	       o.trials);
	printf("%8s", "N");
	for (int i = 0; i < n; i++) {
		strat_spec_format(&specs[i], cv[i].label, sizeof cv[i].label);
		printf(" %11s", cv[i].label);
		cv[i].n = 0;
	}
	printf("\n");
	for (uint64_t len = f->nmin; len <= f->nmax && cv[0].n < MAX_POINTS; len += f->nstep) {
		printf("%8llu", (unsigned long long)len);
		for (int i = 0; i < n; i++) {
			struct ivx_err err = { 0 };
			double e;
			if (strat_mc_point(&specs[i], len, &o, &e, &err) < 0) {
				cli_error("%s", err.msg);
				return EXIT_USAGE;
			}
			cv[i].x[cv[i].n] = (double)len;
			cv[i].y[cv[i].n++] = e;
			printf(" %10.2f%%", e);
		}
		printf("\n");
		fflush(stdout);
	}
	double thr = f->threshold * 100;
	printf("%8s", "<thr at");
	for (int i = 0; i < n; i++) {
		double x = under_from(&cv[i], thr);
		if (x < 0)
			printf(" %11s", "never");
		else
			printf(" %11.0f", x);
	}
	printf("   (first N from which the error stays under %.1f%%)\n", thr);
	if (f->json_path) {
		struct outfile *of = outfile_open_cli(f->json_path);
		if (!of)
			return EXIT_OUTPUT;
		FILE *j = outfile_stream(of);
		fprintf(j, "{\"montecarlo\":{\"trials\":%u,\"share\":0.3,\"estimator\":\"%s\",\"seed\":%llu},\"specs\":[",
			o.trials, o.ratio ? "ratio" : "sum", (unsigned long long)o.seed);
		for (int i = 0; i < n; i++) {
			fprintf(j, "%s{\"spec\":\"%s\",\"under_threshold_from\":", i ? "," : "", cv[i].label);
			json_under_from(j, &cv[i], thr);
			fputs(",\"curve\":", j);
			json_curve(j, &cv[i]);
			fprintf(j, "}");
		}
		fprintf(j, "]}\n");
		if (outfile_commit_cli(of) < 0)
			return EXIT_OUTPUT;
	}
	char title[96];
	snprintf(title, sizeof title, "Estimating a tuple's frequency: mean error (%u streams per length)", o.trials);
	return write_plots(f, cv, n, title, "stream length N", 0) < 0 ? EXIT_OUTPUT : 0;
}

/* ---- --bench -------------------------------------------------------------- */

/* One timed simulation of at most max_cycles, with the compressor or
 * without: CPU seconds, or -1 after an error line. */
static double bench_once(const struct run_options *o, const struct program *prog, const struct strat_spec *spec,
			 unsigned profiles, int exact, uint64_t max_cycles, uint64_t *cycles)
{
	struct machine_config cfg;
	if (run_options_config(o, &cfg) < 0)
		return -1;
	struct guest *g = run_options_make_guest(prog, o);
	if (!g)
		return -1;
	struct ivx_err err = { 0 };
	struct strat_run *r = NULL;
	struct core *c = core_new(&cfg, g, &err);
	double t = -1;
	if (!c)
		goto out;
	if (spec) {
		struct strat_run_opts ro;
		strat_run_opts_default(&ro);
		ro.spec = *spec;
		ro.profiles = profiles;
		ro.seed = o->seed;
		ro.growable = 1;
		ro.no_exact = !exact;
		r = strat_run_new(&ro, &err);
		if (!r || strat_run_attach(r, c, &err) < 0)
			goto out;
	}
	double t0 = cli_cpu_seconds();
	if (core_run(c, max_cycles, 0, &err) < 0)
		goto out;
	t = cli_cpu_seconds() - t0;
	*cycles = core_cycles(c);
out:
	if (t < 0 && err.msg[0])
		cli_error("%s", err.msg);
	strat_run_free(r);
	core_free(c);
	guest_free(g);
	return t;
}

/* The same cycles without the instrument, with the compressor alone and
 * with the compressor and the exact profile, in turn, five times each;
 * the least CPU time of each. */
static int run_bench(const struct run_options *o, const struct program *prog, const struct strat_spec *spec,
		     const char *label, unsigned profiles)
{
	uint64_t max = o->max_cycles ? o->max_cycles : 5000000, n[3] = { 0 };
	double best[3] = { 1e30, 1e30, 1e30 };
	for (int rep = 0; rep < 5; rep++)
		for (int k = 0; k < 3; k++) {
			double t = bench_once(o, prog, k ? spec : NULL, profiles, k == 2, max, &n[k]);
			if (t < 0)
				return EXIT_GUEST;
			if (t < best[k])
				best[k] = t;
		}
	if (n[0] != n[1] || n[0] != n[2]) {
		cli_error("bench: the runs simulated different numbers of cycles");
		return EXIT_GUEST;
	}
	printf("strat bench: %llu cycles; timing model %.3f s (%.2f M cycles/s); with %s %.3f s (%.2f M cycles/s): "
	       "speed %+.1f%%; with the exact profile too %.3f s (%.2f M cycles/s): speed %+.1f%%\n",
	       (unsigned long long)n[0], best[0], n[0] / best[0] / 1e6, label, best[1], n[0] / best[1] / 1e6,
	       100 * (best[0] / best[1] - 1), best[2], n[0] / best[2] / 1e6, 100 * (best[0] / best[2] - 1));
	return 0;
}

/* ---- a program run ------------------------------------------------------- */

struct tracked {
	struct strat_run *run;
	struct curve *cv;
	const struct strat_flags *f;
	uint64_t next;        /* record the next point at this many events */
};

static void on_checkpoint(void *ctx, uint64_t events)
{
	struct tracked *t = ctx;
	if (events < t->next || t->cv->n >= MAX_POINTS)
		return;
	struct strat_err_detail d;
	double e = strat_run_error(t->run, &t->f->ep, &d);
	t->cv->x[t->cv->n] = (double)events;
	t->cv->y[t->cv->n] = e * 100;
	t->cv->b[t->cv->n++] = d.bound * 100;
	/* --every N: a fixed step; else about 20 points per decade */
	if (t->f->every)
		t->next = events + t->f->every;
	else {
		uint64_t nx = (uint64_t)ceil((double)events * 1.122);
		t->next = (nx + 999) / 1000 * 1000;
	}
}

static void print_profile(FILE *out, const struct strat_run *r, const char *label, uint64_t top,
			  const struct strat_err_params *ep)
{
	const struct strat_prof *p = strat_run_prof(r);
	/* the `top` most frequent tuples whose pc is frequent enough */
	struct strat_prof_row *best = calloc(top ? top : 1, sizeof *best);
	uint64_t have = 0;
	if (!best)
		return;
	struct strat_prof_row row;
	for (uint32_t s = 0; s < strat_prof_slots(p); s++) {
		if (!strat_prof_row(p, s, &row) || row.pc_exact < ep->min_exec)
			continue;
		uint64_t k = have < top ? have++ : top;
		if (k == top && (top == 0 || row.exact <= best[top - 1].exact))
			continue;
		if (k == top)
			k = top - 1;
		while (k > 0 && (best[k - 1].exact < row.exact ||
				 (best[k - 1].exact == row.exact && best[k - 1].pc > row.pc))) {
			best[k] = best[k - 1];
			k--;
		}
		best[k] = row;
	}
	fprintf(out, "\nprofile by %s: the %llu most frequent tuples of pcs run at least %llu times\n", label,
		(unsigned long long)have, (unsigned long long)ep->min_exec);
	fprintf(out, "%-6s %10s %18s %10s %10s %10s %8s\n", "kind", "pc", "value", "count", "est", "invariance",
		"est");
	for (uint64_t i = 0; i < have; i++) {
		const struct strat_prof_row *b = &best[i];
		unsigned tag = (unsigned)(b->pc >> STRAT_TAG_SHIFT);
		double ii = (double)b->exact / (double)b->pc_exact;
		double ip = b->pc_est ? (double)b->est / (double)b->pc_est : 0.0;
		fprintf(out, "%-6s %10llx %18llx %10llu %10llu %9.1f%% %7.1f%%%s\n", strat_profile_name(1u << tag),
			(unsigned long long)(b->pc & ((1ull << STRAT_TAG_SHIFT) - 1)), (unsigned long long)b->val,
			(unsigned long long)b->exact, (unsigned long long)b->est, 100 * ii, 100 * ip,
			fabs(ii - ip) > 0.05 ? " *" : "");
	}
	free(best);
}

static int run_program(struct strat_flags *f, const struct run_options *o, const struct program *prog,
		       struct strat_spec *specs, int n, unsigned profiles)
{
	static struct curve cv[MAX_SPECS];
	struct tracked tr[MAX_SPECS];
	struct strat_run *runs[MAX_SPECS] = { 0 };
	struct machine_config cfg;
	if (run_options_config(o, &cfg) < 0)
		return EXIT_USAGE;
	struct guest *g = run_options_make_guest(prog, o);
	if (!g)
		return EXIT_INPUT;
	struct ivx_err err = { 0 };
	int status = EXIT_GUEST;
	struct core *c = core_new(&cfg, g, &err);
	if (!c)
		goto fail;
	for (int i = 0; i < n; i++) {
		struct strat_run_opts ro;
		strat_run_opts_default(&ro);
		ro.spec = specs[i];
		ro.profiles = profiles;
		ro.seed = o->seed;
		ro.batch = (uint32_t)f->batch;
		ro.charge = f->charge;
		ro.growable = 1;
		ro.checkpoint = f->no_exact ? 0 : 1000;
		ro.no_exact = f->no_exact;
		runs[i] = strat_run_new(&ro, &err);
		if (!runs[i] || strat_run_attach(runs[i], c, &err) < 0)
			goto fail;
		strat_spec_format(&specs[i], cv[i].label, sizeof cv[i].label);
		cv[i].n = 0;
		tr[i] = (struct tracked){ runs[i], &cv[i], f, f->every ? f->every : 1000 };
		struct strat_run_hooks h = { &tr[i], NULL, on_checkpoint };
		strat_run_set_hooks(runs[i], &h);
	}
	fflush(stdout);
	if (run_options_warm(o, prog, c, &err) < 0)   /* --fastforward, --start-at */
		goto fail;
	struct progress pr;
	progress_start(&pr, o->quiet, o->max_insns, o->max_cycles);
	int rc = progress_core_run(&pr, c, o->max_cycles, o->max_insns, &err);
	progress_end(&pr);
	fflush(stdout);
	int exited = rc == IVX_OK && core_done(c) && guest_state(g) == GUEST_EXITED;
	if (rc < 0)
		goto fail;
	if (exited && guest_exit_code(g) != 0) {
		/* a failed run gives no profile (docs/outputs.md) */
		cli_error_guest_status(guest_exit_code(g));
		goto done;
	}
	struct core_stats cst;
	core_stats(c, &cst);
	if (!exited)
		run_options_note_limit(o, cst.cycles, cst.committed, ": the profile so far");
	double err_final[MAX_SPECS];
	struct strat_run_stats rs[MAX_SPECS];
	struct strat_err_detail det[MAX_SPECS];
	for (int i = 0; i < n; i++) {
		strat_run_finish(runs[i]);
		strat_run_stats(runs[i], &rs[i]);
		err_final[i] = strat_run_error(runs[i], &f->ep, &det[i]);
		/* the last point: the whole run */
		if (cv[i].n < MAX_POINTS && (!cv[i].n || cv[i].x[cv[i].n - 1] < (double)rs[i].events)) {
			cv[i].x[cv[i].n] = (double)rs[i].events;
			cv[i].y[cv[i].n] = err_final[i] * 100;
			cv[i].b[cv[i].n++] = det[i].bound * 100;
		}
	}
	const char *pname = o->prog_path ? o->prog_path : ivx_default_program_name;
	printf("ivx strat: %s, profile", pname);
	for (unsigned b = 1; b <= STRAT_PROFILE_CALL; b <<= 1)
		if (profiles & b)
			printf(" %s (%llu events)", strat_profile_name(b),
			       (unsigned long long)rs[0].events_by[b == 1 ? 0 : b == 2 ? 1 : 2]);
	/* (the overhead fractions below are over the program's cycles, the
	 * handlers' left out, as the paper's model has them) */
	printf("\n%llu events in %llu instructions, %llu cycles", (unsigned long long)rs[0].events,
	       (unsigned long long)cst.committed, (unsigned long long)(cst.cycles - cst.handler_cycles));
	if (cst.handler_cycles)
		printf(" of the program + %llu in handlers = %llu", (unsigned long long)cst.handler_cycles,
		       (unsigned long long)cst.cycles);
	printf("; %llu selected tuples of %llu pcs in the error\n", (unsigned long long)det[0].tuples,
	       (unsigned long long)det[0].pcs);
	double thr = f->threshold * 100;
	printf("\n%-18s %9s %9s %10s %12s %9s %8s %12s\n", "spec", "samples", "messages", "interrupts", "overhead cyc",
	       "overhead", "error", "under-from");
	for (int i = 0; i < n; i++) {
		double u = under_from(&cv[i], thr);
		char ubuf[24], ebuf[16];
		if (u < 0)
			snprintf(ubuf, sizeof ubuf, "never");
		else
			snprintf(ubuf, sizeof ubuf, "%.0f", u);
		if (isnan(err_final[i]))
			snprintf(ebuf, sizeof ebuf, "-");
		else
			snprintf(ebuf, sizeof ebuf, "%.2f%%", 100 * err_final[i]);
		printf("%-18s %9llu %9llu %10llu %12llu %8.2f%% %8s %12s\n", cv[i].label,
		       (unsigned long long)rs[i].samples, (unsigned long long)rs[i].messages,
		       (unsigned long long)rs[i].interrupts, (unsigned long long)rs[i].overhead_cycles,
		       100 * rs[i].overhead_fraction, ebuf, ubuf);
	}
	printf("(overhead: %u cycles an interrupt of %llu messages + 30 a message, %s; under-from: the event\n"
	       " count from which the error stays under %.1f%%; error: section 5.3.1, pcs run >= %llu times,\n"
	       " tuples >= %.0f%% of their pc, pcs >= %.0f%% covered)\n",
	       214, (unsigned long long)f->batch, f->charge ? "charged to the core" : "counted, not charged", thr,
	       (unsigned long long)f->ep.min_exec, 100 * f->ep.invariant, 100 * f->ep.coverage);
	if (f->top)
		print_profile(stdout, runs[0], cv[0].label, f->top, &f->ep);
	status = 0;   /* the guest exited, or the user's limit: a normal end */
	if (f->json_path) {
		struct outfile *of = outfile_open_cli(f->json_path);
		if (!of) {
			status = EXIT_OUTPUT;
			goto done;
		}
		FILE *j = outfile_stream(of);
		fprintf(j, "{\"program\":");
		outfile_json_string(j, pname);
		fprintf(j, ",\"profile\":\"%s\",\"seed\":%llu,\"cycles\":%llu,\"handler_cycles\":%llu,\"instructions\":%llu,",
			f->profile, (unsigned long long)o->seed, (unsigned long long)(cst.cycles - cst.handler_cycles),
			(unsigned long long)cst.handler_cycles, (unsigned long long)cst.committed);
		run_options_json_end(j, o, exited, exited ? guest_exit_code(g) : 0, cst.committed);
		fputc(',', j);
		fprintf(j, "\"runs\":[");
		for (int i = 0; i < n; i++) {
			fprintf(j, "%s{\"spec\":\"%s\",\"events\":%llu,\"samples\":%llu,\"messages\":%llu,"
				   "\"interrupts\":%llu,\"overhead_cycles\":%llu,\"overhead_fraction\":%.6f,",
				i ? "," : "", cv[i].label, (unsigned long long)rs[i].events,
				(unsigned long long)rs[i].samples, (unsigned long long)rs[i].messages,
				(unsigned long long)rs[i].interrupts, (unsigned long long)rs[i].overhead_cycles,
				rs[i].overhead_fraction);
			if (isnan(err_final[i]))
				fprintf(j, "\"error\":null,");
			else
				fprintf(j, "\"error\":%.6f,", err_final[i]);
			fputs("\"under_threshold_from\":", j);
			json_under_from(j, &cv[i], thr);
			fprintf(j, ",\"selected_tuples\":%llu,\"curve\":", (unsigned long long)det[i].tuples);
			json_curve(j, &cv[i]);
			fprintf(j, "}");
		}
		/* the first run's figures at the top level too */
		fprintf(j, "],\"spec\":\"%s\",\"events\":%llu,\"messages\":%llu,\"overhead_fraction\":%.6f,", cv[0].label,
			(unsigned long long)rs[0].events, (unsigned long long)rs[0].messages, rs[0].overhead_fraction);
		if (isnan(err_final[0]))
			fprintf(j, "\"error\":null,\"curve\":");
		else
			fprintf(j, "\"error\":%.6f,\"curve\":", err_final[0]);
		json_curve(j, &cv[0]);
		fprintf(j, "}\n");
		if (outfile_commit_cli(of) < 0)
			status = EXIT_OUTPUT;
	}
	char title[160];
	snprintf(title, sizeof title, "%s profile of %s: error against the exact profile", f->profile, pname);
	if (write_plots(f, cv, n, title, "profiling events", 0) < 0)
		status = EXIT_OUTPUT;
done:
	for (int i = 0; i < n; i++)
		strat_run_free(runs[i]);
	core_free(c);
	guest_free(g);
	return status;
fail:
	if (err.msg[0])
		cli_error("%s", err.msg);
	for (int i = 0; i < n; i++)
		strat_run_free(runs[i]);
	core_free(c);
	guest_free(g);
	return err.code == IVX_EUSAGE ? EXIT_USAGE : EXIT_GUEST;
}

static int cmd_strat_main(int argc, char **argv)
{
	struct run_options o;
	struct strat_flags f = { .profile = "value", .batch = 100, .top = 10, .trials = 2500, .nmin = 1000,
				 .nmax = 20000, .nstep = 1000, .threshold = 0.05, .ep = STRAT_ERR_PARAMS_PAPER };
	if (run_options_parse(&o, argc, argv, strat_extra, &f) < 0)
		return EXIT_USAGE;
	int status = EXIT_USAGE;
	struct strat_spec specs[MAX_SPECS];
	static const char *const mc_default[] = { "R10", "H[R10]4", "P10", "CR10", "H[P10]4", "H[CR10]4" };
	int n = f.n_specs;
	const struct named_file outputs[] = { { "--json", f.json_path }, { "--csv", f.csv_path }, { "--svg", f.svg_path } };
	unsigned profiles = strat_profile_parse(f.profile);
	if (!profiles) {
		cli_error("--profile: '%s' is not value, edge, call or a comma-separated list of them", f.profile);
		goto out;
	}
	if (run_options_check_outputs(&o, outputs, 3) < 0)
		goto out;
	if (f.montecarlo && !n)
		for (n = 0; n < 6; n++)
			f.spec_text[n] = mc_default[n];
	if (!n) {
		cli_error("strat: give a compressor with --spec SPEC (e.g. --spec 'H[P256]2048'), or --montecarlo");
		goto out;
	}
	if (f.montecarlo && (f.run_only || run_option_given(&o))) {
		cli_error("strat --montecarlo runs synthetic streams: %s applies to a program run only",
			  f.run_only ? f.run_only : run_option_given(&o));
		goto out;
	}
	if (!f.montecarlo && f.mc_only) {
		cli_error("strat: %s applies to --montecarlo only, not to a program run", f.mc_only);
		goto out;
	}
	for (int i = 0; i < n; i++) {
		struct ivx_err err = { 0 };
		size_t len = strlen(f.spec_text[i]);
		char last = len ? f.spec_text[i][len - 1] : 0;
		if (last == ' ' || last == '\t') {   /* (the parser stops at the spec's end and took it) */
			cli_error("--spec '%s': a space after the spec (quote it without one)", f.spec_text[i]);
			goto out;
		}
		if (strat_spec_parse(f.spec_text[i], &specs[i], &err) < 0) {
			cli_error("%s", err.msg);
			goto out;
		}
		if (f.rate)
			set_rate(&specs[i], (uint32_t)f.rate);
	}
	if (f.montecarlo) {
		if (o.prog_path) {
			cli_error("strat --montecarlo runs synthetic streams: it takes no program ('%s')", o.prog_path);
			goto out;
		}
		if (f.nmin > f.nmax) {
			cli_error("--nmin %llu is above --nmax %llu", (unsigned long long)f.nmin, (unsigned long long)f.nmax);
			goto out;
		}
		status = run_montecarlo(&f, specs, n, o.seed);
		goto out;
	}
	if (f.charge && n > 1) {
		cli_error("--charge gives one compressor's handler cycles to the core: it takes one --spec, not %d", n);
		goto out;
	}
	struct program *prog = cli_load_program(o.prog_path);
	status = EXIT_INPUT;
	if (prog && f.bench)
		status = run_bench(&o, prog, &specs[0], f.spec_text[0], profiles);
	else if (prog)
		status = run_program(&f, &o, prog, specs, n, profiles);
	program_free(prog);
out:
	run_options_free(&o);
	return status;
}

const struct cli_command cmd_strat_entry = {
	.name = "strat",
	.summary = "profile with hardware stream compressors (stratified sampling): error and overhead",
	.help =
	"usage: ivx strat [OPTIONS] --spec SPEC [--spec SPEC...] [PROG] [-- ARGS...]\n"
	"       ivx strat --montecarlo [--spec SPEC...] [--rate R] [--trials N]\n\n"
	"Run PROG on the timing model; a selector takes tuples from the instructions\n"
	"it retires, each SPEC compresses them into messages, software receives the\n"
	"messages in interrupts. Prints each compressor's messages, interrupts,\n"
	"overhead and the error of its profile against the exact one (the paper's\n"
	"section 5.3.1), and the profile's hottest tuples. See docs/strat.md.\n\n"
	"  --spec SPEC         a compressor (repeatable, up to 12): R256, D256\n"
	"                      (countdown random), P256, CR256, H[P256]2048,\n"
	"                      T2[256]2048/2 (tagged), A16, CM1024x4, SS512;\n"
	"                      '+A16' adds a second-level associative table\n"
	"  --profile P         value (loads: <pc, loaded value>), edge (branches,\n"
	"                      jumps, returns: <pc, next pc>), call (<pc, callee>),\n"
	"                      or a comma-separated list (default value)\n"
	"  --batch N           messages per interrupt, at least 100 (default 100)\n"
	"  --charge            give the handler's cycles (214 an interrupt + 30 a\n"
	"                      message) to the simulated core; default: count only\n"
	"  --top N             list the N most frequent tuples (default 10)\n"
	"  --threshold F       error threshold for under-from (default 0.05)\n"
	"  --every N           a curve point every N events (default ~20 a decade)\n"
	"  --min-exec N, --invariant F, --coverage F\n"
	"                      the error's selection (default 1000, 0.10, 0.40)\n"
	"  --json FILE         events, messages, overhead_fraction, error, curve\n"
	"                      ([events, error] points) and the same per spec\n"
	"  --csv FILE, --svg FILE\n"
	"                      error-versus-events curves of every spec\n"
	"  --bounds            the sketches' error bounds on the plots, dashed\n"
	"  --bench             time --max-cycles (default 5M) cycles without the\n"
	"                      instrument, with the first --spec alone, and with it and\n"
	"                      the exact profile (least CPU time of 5 runs each)\n"
	"  --no-exact          keep no exact profile (no error): the compressor alone\n"
	"  --quiet, -q         no progress line (shown on stderr when it is a terminal)\n\n"
	"Monte Carlo (the paper's Figure 4): streams of N tuples, 30% of them one\n"
	"tuple p, randomly permuted; the mean error of each spec's estimate of p.\n"
	"  (these, and the program-run options above from --batch on, apply to\n"
	"  their mode only: given to the other, they are refused)\n"
	"  --montecarlo        default specs R10 H[R10]4 P10 CR10 H[P10]4 H[CR10]4\n"
	"  --rate R            set every spec's sampling rate to R\n"
	"  --trials N          streams per length (default 2500)\n"
	"  --seed N            seeds the streams (default 1)\n"
	"  --nmin, --nmax, --nstep N\n"
	"                      stream lengths (default 1000..20000 by 1000)\n"
	"  --estimator sum|ratio\n"
	"                      C samplers: the sum of message counts, or the\n"
	"                      stratum's length times p's share (default ratio)\n"
	RUN_OPTIONS_HELP,
	.main = cmd_strat_main,
};
