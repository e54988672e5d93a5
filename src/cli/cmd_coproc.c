/*
 * cmd_coproc.c — `ivx coproc`: run a program with the profiling
 * co-processor and print the profile it built beside the exact one; and
 * `ivx coproc-asm`: assemble a co-processor program and list it.
 *
 * The exact profile comes from a second observer that sees every retired
 * instruction of the profiled kind (engine/coproc/coproc_truth.h). For the
 * value program, --baseline also runs the plain interrupt-driven sampling
 * value profiler at the co-processor's overhead, and --interval N prints
 * error and overhead every N cycles (the paper's convergence curves).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "coproc/coproc.h"
#include "coproc/coproc_truth.h"
#include "coproc_fates.h"
#include "coproc_load.h"
#include "core/core.h"
#include "guest/guest.h"
#include "guest/program.h"
#include "outfile.h"
#include "progress.h"
#include "runopts.h"
#include "textbuf.h"

#define MAX_SETTINGS 32

struct cp_flags {
	const char *program;
	const char *json_path;
	int baseline;
	double scale;                 /* --baseline-scale: baseline overhead / co-processor overhead */
	int speed;
	int fates;                    /* --fates: per-load fate counts in the JSON */
	int top;
	int shrink;                   /* --estimate shrink */
	uint64_t interval;
	int n_set;
	const char *set[MAX_SETTINGS];
};

static int cp_extra(void *ctx, int argc, char **argv, int i)
{
	struct cp_flags *f = ctx;
	const char *o = argv[i];
	if (!strcmp(o, "--baseline"))
		return f->baseline = 1;
	if (!strcmp(o, "--speed"))
		return f->speed = 1;
	if (!strcmp(o, "--fates"))
		return f->fates = 1;
	if (strcmp(o, "--program") && strcmp(o, "--json") && strcmp(o, "-C") && strcmp(o, "--top") &&
	    strcmp(o, "--interval") && strcmp(o, "--baseline-scale") && strcmp(o, "--estimate"))
		return 0;
	if (i + 1 >= argc) {
		cli_error("option %s needs a value", o);
		return -1;
	}
	const char *v = argv[i + 1];
	uint64_t n;
	if (!strcmp(o, "--baseline-scale")) {
		char *end;
		f->scale = strtod(v, &end);
		if (*end || !(f->scale > 0 && f->scale <= 1e6)) {
			cli_error("--baseline-scale: '%s' is not a positive number", v);
			return -1;
		}
		f->baseline = 1;
	} else if (!strcmp(o, "--estimate")) {
		if (strcmp(v, "top") && strcmp(v, "shrink")) {
			cli_error("--estimate: '%s': expected top (the paper's) or shrink (ours)", v);
			return -1;
		}
		f->shrink = !strcmp(v, "shrink");
	} else if (!strcmp(o, "--program")) {
		f->program = v;
	} else if (!strcmp(o, "--json")) {
		f->json_path = v;
	} else if (!strcmp(o, "-C")) {
		if (f->n_set == MAX_SETTINGS) {
			cli_error("at most %d -C settings", MAX_SETTINGS);
			return -1;
		}
		f->set[f->n_set++] = v;
	} else {
		if (cli_parse_u64(v, &n) < 0 || (!strcmp(o, "--top") && n > 1000000)) {
			cli_error("%s: '%s' is not a number", o, v);
			return -1;
		}
		if (!strcmp(o, "--top")) {
			f->top = (int)n;
		} else if (n == 0) {
			cli_error("--interval: '%s': expected a number of cycles, 1 or more", v);
			return -1;
		} else {
			f->interval = n;
		}
	}
	return 2;
}

/* ---- one simulation ------------------------------------------------------------ */

struct point {
	uint64_t cycle;
	double overhead, error, rms;
};

/* The paper's error counts the values that make up at least this share
 * of a load's executions (its number was lost in the transcription; our
 * choice, docs/coproc.md). */
#define PAPER_MIN_SHARE 0.10

struct sim {
	struct program *prog;
	struct guest *g;
	struct core *core;
	struct coproc *cp;            /* NULL for the baseline */
	struct coproc_truth *truth;   /* exact */
	struct coproc_truth *sampler; /* baseline, NULL otherwise */
	struct coproc_fates *fates;   /* --fates, NULL otherwise */
	int shrink;                   /* --estimate shrink: invariance estimates corrected (ours) */
	struct core_stats st;
	int rc;
	int exited;
	uint64_t timed_from;          /* instructions run before timing (--fastforward, --start-at) */
	struct ivx_err err;
	struct point *series;
	int npoints;
	double host_seconds;          /* the simulation loop's host time */
};

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}


static int no_handler(const struct coproc_prog *p)
{
	return !strcmp(p->handler, "none");
}

static int truth_kind(const struct coproc_prog *p)
{
	return !strcmp(p->handler, "edge") ? TRUTH_BRANCHES : !strcmp(p->handler, "callstack") ? TRUTH_CALLS :
											       TRUTH_LOADS;
}

static uint64_t overhead_cycles(const struct sim *s)
{
	if (s->sampler)
		return coproc_truth_overhead(s->sampler);
	struct coproc_stats cs;
	coproc_get_stats(s->cp, &cs);
	return cs.handler_cycles + cs.stall_cycles + cs.final_cycles;
}

/* The sampler's estimate under --estimate shrink, by the co-processor's
 * rule and from as many values as a profile entry holds (its largest
 * counts), so that the two are compared alike. */
static double sampled_shrunk(const struct coproc_truth *t, const struct truth_key *k)
{
	double share[COPROC_PVALS];   /* the largest, in descending order */
	int n = 0;
	for (uint32_t j = 0; j < k->nvalues; j++) {
		uint64_t value, count;
		if (!coproc_truth_value(t, k->first + j, &value, &count))
			break;
		double sh = (double)count / (double)k->executions;
		int at;
		if (n < COPROC_PVALS)
			at = n++;
		else if (sh > share[COPROC_PVALS - 1])
			at = COPROC_PVALS - 1;
		else
			continue;
		for (; at > 0 && share[at - 1] < sh; at--)
			share[at] = share[at - 1];
		share[at] = sh;
	}
	return coproc_top_share_shrunk(share, n, k->executions);
}

/* A load's estimated invariance: from the co-processor's profile or the
 * sampler's; 0 for a load the profile has no entry for. */
static double est_invariance(const struct sim *s, uint64_t pc, uint64_t *samples, int *masked)
{
	*samples = 0;
	*masked = 0;
	if (s->sampler) {
		const struct truth_key *k = coproc_truth_find(s->sampler, pc);
		if (!k)
			return 0.0;
		*samples = k->executions;
		return s->shrink ? sampled_shrunk(s->sampler, k) : (double)k->top_count / (double)k->executions;
	}
	struct coproc_pentry e;
	if (!coproc_profile_find(s->cp, pc, &e))
		return 0.0;
	*samples = e.total - e.reweighted;   /* harvested: what the records gave */
	*masked = e.masked;
	return s->shrink ? coproc_pentry_invariance_shrunk(&e) : coproc_pentry_invariance(&e);
}

static double weighted_error(struct sim *s)
{
	int n = coproc_truth_summarise(s->truth);
	if (s->sampler)
		coproc_truth_summarise(s->sampler);   /* its estimates, as of now */
	double num = 0, den = 0;
	for (int i = 0; i < n; i++) {
		const struct truth_key *k = coproc_truth_key(s->truth, i);
		uint64_t samples;
		int masked;
		double t = (double)k->top_count / (double)k->executions;
		double e = est_invariance(s, k->key, &samples, &masked);
		num += (double)k->executions * fabs(e - t);
		den += (double)k->executions;
	}
	return den > 0 ? num / den : 0.0;
}

/* The paper's measure: over every (load, value) pair whose value makes up
 * at least PAPER_MIN_SHARE of the load's executions, the root mean square
 * of (estimated share - true share), weighted by the pair's executions.
 * A pair the profile does not know is estimated 0. Call after
 * weighted_error (which summarises the truth). */
static double paper_rms_error(const struct sim *s)
{
	double num = 0, den = 0;
	for (int i = 0; coproc_truth_key(s->truth, i); i++) {
		const struct truth_key *k = coproc_truth_key(s->truth, i);
		const struct truth_key *sk = s->sampler ? coproc_truth_find(s->sampler, k->key) : NULL;
		struct coproc_pentry e;
		int have = !s->sampler && coproc_profile_find(s->cp, k->key, &e);
		for (uint32_t j = 0; j < k->nvalues; j++) {
			uint64_t value, count;
			if (!coproc_truth_value(s->truth, k->first + j, &value, &count) ||
			    (double)count < PAPER_MIN_SHARE * (double)k->executions)
				continue;
			double t = (double)count / (double)k->executions, est = 0;
			if (sk)
				est = (double)coproc_truth_count(s->sampler, k->key, value) / (double)sk->executions;
			else if (have)
				est = coproc_pentry_value_share(&e, value);
			num += (double)count * (est - t) * (est - t);
			den += (double)count;
		}
	}
	return den > 0 ? sqrt(num / den) : 0.0;
}

static void sim_free(struct sim *s)
{
	coproc_fates_free(s->fates);
	coproc_free(s->cp);
	coproc_truth_free(s->truth);
	coproc_truth_free(s->sampler);
	core_free(s->core);
	guest_free(s->g);
	free(s->series);
}

/* Run the program: with the co-processor (period 0) or with the sampler
 * (period > 0). 0, or -1 after an error line (setup failed). */
static int simulate(struct sim *s, const struct program *prog, const struct run_options *o,
		    const struct machine_config *mc, const struct coproc_config *cc, const struct coproc_prog *p,
		    uint64_t period, uint64_t interval, int exact, int fates)
{
	/* (s comes zeroed, with shrink set: each sim is simulated once) */
	s->g = run_options_make_guest(prog, o);
	if (!s->g)
		return -1;
	struct ivx_err *err = &s->err;
	s->core = core_new(mc, s->g, err);
	if (!s->core)
		goto fail;
	if (exact) {
		s->truth = coproc_truth_new(s->core, truth_kind(p), 0, 0, 0, err);
		if (!s->truth || core_add_observer(s->core, coproc_truth_observer(s->truth), err) < 0)
			goto fail;
	}
	if (period) {
		s->sampler = coproc_truth_new(s->core, TRUTH_LOADS, period, cc->int_cycles + cc->slot_cycles,
					      o->seed, err);
		if (!s->sampler || core_add_observer(s->core, coproc_truth_observer(s->sampler), err) < 0)
			goto fail;
	} else {
		s->cp = coproc_new(cc, p, s->core, err);
		if (!s->cp || core_add_observer(s->core, coproc_observer(s->cp), err) < 0)
			goto fail;
		if (fates && !(s->fates = coproc_fates_new(s->cp))) {
			ivx_error(err, IVX_ESYS, "out of memory for --fates");
			goto fail;
		}
	}
	if (run_options_warm(o, prog, s->core, err) < 0)   /* --fastforward, --start-at */
		goto fail;
	s->timed_from = guest_insns(s->g);
	if (period)   /* (the baseline's run repeats the guest's output) */
		guest_set_output(s->g, cli_drop_output, NULL);
	fflush(stdout);
	struct progress pr;
	progress_start(&pr, o->quiet, o->max_insns, o->max_cycles);
	double t0 = now_seconds();
	for (;;) {
		uint64_t lim = o->max_cycles;
		if (interval) {
			uint64_t next = core_cycles(s->core) + interval;
			if (!lim || next < lim)
				lim = next;
		}
		s->rc = progress_core_run(&pr, s->core, lim, o->max_insns, err);
		if (s->rc < 0 || core_done(s->core) || !interval || lim == o->max_cycles ||
		    (o->max_insns && core_committed(s->core) >= o->max_insns))
			break;
		struct point *np = realloc(s->series, (size_t)(s->npoints + 1) * sizeof *np);
		if (!np)
			break;
		s->series = np;
		uint64_t cyc = core_cycles(s->core);
		struct point *pt = &s->series[s->npoints++];
		*pt = (struct point){ cyc, (double)overhead_cycles(s) / (double)cyc, 0, 0 };
		if (truth_kind(p) == TRUTH_LOADS) {
			pt->error = weighted_error(s);
			pt->rms = paper_rms_error(s);
		}
	}
	progress_end(&pr);
	s->host_seconds = now_seconds() - t0;
	fflush(stdout);
	if (s->cp)
		coproc_finish(s->cp);
	core_stats(s->core, &s->st);
	s->exited = s->rc == IVX_OK && core_done(s->core) && guest_state(s->g) == GUEST_EXITED;
	if (s->truth)   /* (its table is not needed again: not held while --baseline runs) */
		coproc_truth_freeze(s->truth);
	if (s->sampler)
		coproc_truth_summarise(s->sampler);
	return 0;
fail:
	cli_error("%s", err->msg);
	sim_free(s);
	memset(s, 0, sizeof *s);
	return -1;
}

/* ---- output ---------------------------------------------------------------------- */

static const char *sym(const struct program *prog, uint64_t pc, char *buf, size_t n)
{
	return program_describe(prog, pc, buf, n);
}

/* The same for a report's column of SYM_COLUMN characters: a long name
 * gives way, never its offset. */
#define SYM_COLUMN 28
static const char *sym_column(const struct program *prog, uint64_t pc, char *buf, size_t n)
{
	char full[128];
	tb_fit_location(program_describe(prog, pc, full, sizeof full), SYM_COLUMN, buf, n);
	return buf;
}

static int by_executions(const void *a, const void *b)
{
	const struct truth_key *x = *(const struct truth_key *const *)a, *y = *(const struct truth_key *const *)b;
	if (x->executions != y->executions)
		return x->executions > y->executions ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* The truth keys, most executed first (caller frees). */
static const struct truth_key **sorted_keys(const struct coproc_truth *t, int *n)
{
	int k = 0;
	while (coproc_truth_key(t, k))
		k++;
	const struct truth_key **v = malloc((size_t)(k ? k : 1) * sizeof *v);
	if (!v) {
		*n = 0;
		return NULL;
	}
	for (int i = 0; i < k; i++)
		v[i] = coproc_truth_key(t, i);
	qsort(v, (size_t)k, sizeof *v, by_executions);
	*n = k;
	return v;
}

static void print_stats(FILE *out, const struct sim *s)
{
	struct coproc_stats cs;
	coproc_get_stats(s->cp, &cs);
	uint64_t oh = overhead_cycles(s);
	fprintf(out, "cycles %llu, instructions %llu; profiler %llu cycles = %.2f%% (handlers %llu, "
		"buffer stalls %llu, final harvest %llu)\n",
		(unsigned long long)s->st.cycles, (unsigned long long)s->st.committed, (unsigned long long)oh,
		s->st.cycles ? 100.0 * (double)oh / (double)s->st.cycles : 0.0,
		(unsigned long long)cs.handler_cycles, (unsigned long long)cs.stall_cycles,
		(unsigned long long)cs.final_cycles);
	fprintf(out, "filters: %llu decoded, %llu tagged (%.1f%%), %llu retired tagged; PC filter width %d match %u\n",
		(unsigned long long)cs.decoded, (unsigned long long)cs.tagged,
		cs.decoded ? 100.0 * (double)cs.tagged / (double)cs.decoded : 0.0,
		(unsigned long long)cs.retired_tagged, cs.pc_width, cs.pc_match);
	if (cs.untagged)
		fprintf(out, "random tagger: skipped %llu the filters passed; tags 1 in %u at the end\n",
			(unsigned long long)cs.untagged, 1u << cs.tag_shift);
	fprintf(out, "buffer: %llu records, %llu dropped, %llu full at retirement, at most %d of %u",
		(unsigned long long)cs.records, (unsigned long long)cs.drops, (unsigned long long)cs.stalls,
		cs.buffer_max, coproc_cfg(s->cp)->buffer);
	if (coproc_young_stall(s->cp))
		fprintf(out, "; a full buffer stalls before cycle %llu (young_stall)",
			(unsigned long long)coproc_young_stall(s->cp));
	fputc('\n', out);
	/* cp_cycles counts the co-processor's own clock; its time in the
	 * run is clock_div core cycles each */
	fprintf(out, "co-processor: %llu microinstructions, %llu busy co-processor cycles (%llu core cycles), "
		"%llu microbranch mispredictions, %llu interrupts, %llu timer actions, %llu masked%s\n",
		(unsigned long long)cs.uinsns, (unsigned long long)cs.cp_cycles,
		(unsigned long long)cs.cp_cycles * coproc_cfg(s->cp)->clock_div, (unsigned long long)cs.ubranch_miss,
		(unsigned long long)cs.interrupts, (unsigned long long)cs.timer_actions, (unsigned long long)cs.masked,
		cs.complete ? "; profile complete" : "");
	if (cs.resamples) {
		fprintf(out, "re-sampling: %llu rounds unmasked %llu loads to re-check them",
			(unsigned long long)cs.resamples, (unsigned long long)cs.unmasked);
		if (cs.backed_off)
			fprintf(out, ", left %llu masked (back-off)", (unsigned long long)cs.backed_off);
		fputc('\n', out);
	}
	if (cs.held)
		fprintf(out, "time slices: %llu times a load was held until the next slice\n",
			(unsigned long long)cs.held);
	if (cs.thinned)
		fprintf(out, "spreading: %llu times a load's thinning was changed\n", (unsigned long long)cs.thinned);
	if (cs.stale)
		fprintf(out, "even: %llu records dropped, their thinning changed since they were tagged\n",
			(unsigned long long)cs.stale);
	if (cs.first_tags)
		fprintf(out, "first sight: %llu tags of a bucket's first %d records\n",
			(unsigned long long)cs.first_tags, coproc_first_sight(s->cp));
	if (cs.spilled)
		fprintf(out, "spill ring: %llu entries of replaced slots merged into the profile\n",
			(unsigned long long)cs.spilled);
	if (cs.abandoned || cs.profile_full)
		fprintf(out, "warning: %llu records abandoned (the watchdog, or microcode running off its end), "
			"%llu profile entries lost (table full)\n",
			(unsigned long long)cs.abandoned, (unsigned long long)cs.profile_full);
}

static void json_stats(FILE *f, const struct sim *s)
{
	struct coproc_stats cs;
	coproc_get_stats(s->cp, &cs);
	fprintf(f, "\"stats\":{\"decoded\":%llu,\"tagged\":%llu,\"retired_tagged\":%llu,\"records\":%llu,"
		"\"drops\":%llu,\"stalls\":%llu,\"stall_cycles\":%llu,\"interrupts\":%llu,\"timer_actions\":%llu,"
		"\"handler_cycles\":%llu,\"final_cycles\":%llu,\"masked\":%llu,\"uinsns\":%llu,\"cp_cycles\":%llu,"
		"\"buffer_max\":%d,\"complete\":%s,\"abandoned\":%llu,\"resamples\":%llu,\"unmasked\":%llu,\"backed_off\":%llu,\"held\":%llu,"
		"\"spilled\":%llu,\"untagged\":%llu,\"tag_shift\":%d,\"thinned\":%llu,\"stale\":%llu,\"first_tags\":%llu}",
		(unsigned long long)cs.decoded, (unsigned long long)cs.tagged, (unsigned long long)cs.retired_tagged,
		(unsigned long long)cs.records, (unsigned long long)cs.drops, (unsigned long long)cs.stalls,
		(unsigned long long)cs.stall_cycles, (unsigned long long)cs.interrupts,
		(unsigned long long)cs.timer_actions, (unsigned long long)cs.handler_cycles,
		(unsigned long long)cs.final_cycles, (unsigned long long)cs.masked, (unsigned long long)cs.uinsns,
		(unsigned long long)cs.cp_cycles, cs.buffer_max, cs.complete ? "true" : "false",
		(unsigned long long)cs.abandoned, (unsigned long long)cs.resamples, (unsigned long long)cs.unmasked,
		(unsigned long long)cs.backed_off, (unsigned long long)cs.held, (unsigned long long)cs.spilled, (unsigned long long)cs.untagged, cs.tag_shift,
		(unsigned long long)cs.thinned, (unsigned long long)cs.stale, (unsigned long long)cs.first_tags);
}

static void json_series(FILE *f, const char *name, const struct sim *s)
{
	fprintf(f, ",\"%s\":[", name);
	for (int i = 0; i < s->npoints; i++)
		fprintf(f, "%s{\"cycle\":%llu,\"overhead_fraction\":%.6f,\"weighted_error\":%.6f,"
			"\"weighted_rms_error\":%.6f}", i ? "," : "", (unsigned long long)s->series[i].cycle,
			s->series[i].overhead, s->series[i].error, s->series[i].rms);
	fprintf(f, "]");
}

/* Value profile: table on stdout-side stream `out`, JSON into f (may be NULL). */
static void report_value(FILE *out, FILE *f, const struct sim *s, const struct sim *base, int top)
{
	double werr = weighted_error((struct sim *)s);   /* (summarises if needed: before sorted_keys) */
	double rms = paper_rms_error(s);
	int n;
	const struct truth_key **v = sorted_keys(s->truth, &n);
	double oh = s->st.cycles ? (double)overhead_cycles(s) / (double)s->st.cycles : 0.0;
	uint64_t execs = 0, profiled = 0, unprof_execs = 0, hidden = 0;
	char b[128];
	fprintf(out, "%-18s %-28s %10s %8s %7s %7s %6s %s\n", "pc", "symbol", "executions", "samples", "inv", "est",
		"|err|", "masked");
	for (int i = 0; i < n; i++) {
		uint64_t samples;
		int masked;
		double t = (double)v[i]->top_count / (double)v[i]->executions;
		double e = est_invariance(s, v[i]->key, &samples, &masked);
		execs += v[i]->executions;
		profiled += samples > 0;
		if (!samples) {
			/* never sampled: behind another load's ignore bit (a hash
			 * conflict), or simply not reached yet */
			unprof_execs += v[i]->executions;
			hidden += coproc_pc_ignored(s->cp, v[i]->key);
		}
		if (i < top)
			fprintf(out, "%#-18llx %-28.28s %10llu %8llu %6.1f%% %6.1f%% %6.1f %s%s\n",
				(unsigned long long)v[i]->key, sym_column(s->prog, v[i]->key, b, sizeof b),
				(unsigned long long)v[i]->executions, (unsigned long long)samples, 100 * t, 100 * e,
				100 * fabs(e - t), masked ? "yes" : "", fabs(e - t) > 0.05 ? " *" : "");
	}
	if (n > top)
		fprintf(out, "(%d more loads; --top N shows more)\n", n - top);
	double unprof = execs ? (double)unprof_execs / (double)execs : 0.0;
	fprintf(out, "%d loads executed %llu times; %llu profiled; execution-weighted |invariance error| "
		"%.2f points%s, overhead %.2f%%\n",
		n, (unsigned long long)execs, (unsigned long long)profiled, 100 * werr,
		s->shrink ? " (estimates shrunk, --estimate shrink)" : "", 100 * oh);
	fprintf(out, "paper's measure (values >= %.0f%% of a load, rms weighted by value frequency): %.2f points\n",
		100 * PAPER_MIN_SHARE, 100 * rms);
	fprintf(out, "never sampled: %llu loads, %.1f%% of executions (%llu of them behind another load's ignore bit)\n",
		(unsigned long long)(n - profiled), 100 * unprof, (unsigned long long)hidden);
	double berr = 0, boh = 0, brms = 0;
	if (base) {
		berr = weighted_error((struct sim *)base);
		brms = paper_rms_error(base);
		boh = base->st.cycles ? (double)overhead_cycles(base) / (double)base->st.cycles : 0.0;
		fprintf(out, "baseline (interrupt per sampled load, period %llu loads, %llu samples): error %.2f "
			"points (paper's %.2f), overhead %.2f%%\n",
			(unsigned long long)coproc_truth_period(base->sampler),
			(unsigned long long)coproc_truth_samples(base->sampler), 100 * berr, 100 * brms, 100 * boh);
	}
	for (int i = 0; i < s->npoints; i++)
		fprintf(out, "at cycle %12llu: error %6.2f points, overhead %6.2f%%%s\n",
			(unsigned long long)s->series[i].cycle, 100 * s->series[i].error,
			100 * s->series[i].overhead, base && i < base->npoints ? "" : "");
	if (f) {
		fprintf(f, "\"overhead_fraction\":%.6f,\"weighted_error\":%.6f,\"weighted_rms_error\":%.6f,"
			"\"distinct_loads\":%d,\"profiled_loads\":%llu,\"unprofiled_fraction\":%.6f,\"hidden_loads\":%llu,"
			"\"loads\":[", oh, werr, rms, n, (unsigned long long)profiled, unprof, (unsigned long long)hidden);
		for (int i = 0; i < n; i++) {
			uint64_t samples;
			int masked;
			double t = (double)v[i]->top_count / (double)v[i]->executions;
			double e = est_invariance(s, v[i]->key, &samples, &masked);
			fprintf(f, "%s{\"pc\":%llu,\"symbol\":", i ? "," : "", (unsigned long long)v[i]->key);
			outfile_json_string(f, sym(s->prog, v[i]->key, b, sizeof b));
			fprintf(f, ",\"executions\":%llu,\"samples\":%llu,\"invariance_true\":%.6f,"
				"\"invariance_est\":%.6f,\"masked\":%s,\"ignored\":%s",
				(unsigned long long)v[i]->executions, (unsigned long long)samples, t, e,
				masked ? "true" : "false", coproc_pc_ignored(s->cp, v[i]->key) ? "true" : "false");
			if (s->fates)
				coproc_fates_json(s->fates, f, v[i]->key, v[i]->top_value);
			fprintf(f, "}");
		}
		fprintf(f, "]");
		json_series(f, "series", s);
		if (base) {
			fprintf(f, ",\"baseline\":{\"overhead_fraction\":%.6f,\"weighted_error\":%.6f,"
				"\"weighted_rms_error\":%.6f,\"samples\":%llu,\"period\":%llu",
				boh, berr, brms, (unsigned long long)coproc_truth_samples(base->sampler),
				(unsigned long long)coproc_truth_period(base->sampler));
			json_series(f, "series", base);
			fprintf(f, "}");
		}
	}
	free(v);
}

static void report_edge(FILE *out, FILE *f, const struct sim *s, int top)
{
	int n;
	const struct truth_key **v = sorted_keys(s->truth, &n);
	char b[128];
	uint64_t wrong = 0;
	fprintf(out, "%-18s %-28s %10s %10s %10s %10s\n", "pc", "symbol", "executions", "taken", "est taken",
		"est total");
	if (f)
		fprintf(f, "\"branches\":[");
	for (int i = 0; i < n; i++) {
		struct coproc_pentry e;
		uint64_t et = 0, etot = 0;
		if (coproc_profile_find(s->cp, v[i]->key, &e)) {
			etot = e.total;
			et = coproc_pentry_value_count(&e, 1);   /* taken */
		}
		wrong += et != v[i]->count1 || etot != v[i]->executions;
		if (i < top)
			fprintf(out, "%#-18llx %-28.28s %10llu %10llu %10llu %10llu%s\n", (unsigned long long)v[i]->key,
				sym_column(s->prog, v[i]->key, b, sizeof b), (unsigned long long)v[i]->executions,
				(unsigned long long)v[i]->count1, (unsigned long long)et, (unsigned long long)etot,
				et != v[i]->count1 || etot != v[i]->executions ? " *" : "");
		if (f)
			fprintf(f, "%s{\"pc\":%llu,\"executions\":%llu,\"taken\":%llu,\"executions_est\":%llu,"
				"\"taken_est\":%llu}", i ? "," : "", (unsigned long long)v[i]->key,
				(unsigned long long)v[i]->executions, (unsigned long long)v[i]->count1,
				(unsigned long long)etot, (unsigned long long)et);
	}
	if (n > top)
		fprintf(out, "(%d more branches; --top N shows more)\n", n - top);
	fprintf(out, "%d branches; %llu with counts different from the exact profile\n", n, (unsigned long long)wrong);
	if (f)
		fprintf(f, "],\"branches_wrong\":%llu", (unsigned long long)wrong);
	free(v);
}

static void report_callstack(FILE *out, FILE *f, const struct sim *s, int top)
{
	int n = 0;
	while (coproc_truth_key(s->truth, n))
		n++;
	uint64_t wrong = 0;
	fprintf(out, "%6s %12s %12s\n", "depth", "calls", "est calls");
	if (f)
		fprintf(f, "\"depths\":[");
	for (int i = 0; i < n; i++) {
		const struct truth_key *k = coproc_truth_key(s->truth, i);
		struct coproc_pentry e;
		uint64_t est = coproc_profile_find(s->cp, k->key, &e) ? e.total : 0;
		wrong += est != k->executions;
		if (i < top)   /* (the shallowest first: the depths come in order) */
			fprintf(out, "%6llu %12llu %12llu%s\n", (unsigned long long)k->key - 1,
				(unsigned long long)k->executions, (unsigned long long)est, est != k->executions ? " *" : "");
		if (f)
			fprintf(f, "%s{\"depth\":%llu,\"calls\":%llu,\"calls_est\":%llu}", i ? "," : "",
				(unsigned long long)k->key - 1, (unsigned long long)k->executions,
				(unsigned long long)est);
	}
	if (n > top)
		fprintf(out, "(%d more depths; --top N shows more)\n", n - top);
	fprintf(out, "deepest %llu; %llu returns elsewhere than their call's successor, %llu at depth 0; "
		"%llu depths differ from the exact profile\n",
		(unsigned long long)coproc_aux(s->cp, 0), (unsigned long long)coproc_aux(s->cp, 1),
		(unsigned long long)coproc_aux(s->cp, 2), (unsigned long long)wrong);
	if (f)
		fprintf(f, "],\"max_depth\":%llu,\"return_mismatches\":%llu,\"depths_wrong\":%llu",
			(unsigned long long)coproc_aux(s->cp, 0), (unsigned long long)coproc_aux(s->cp, 1),
			(unsigned long long)wrong);
}

/* A program without a handler (.handler none, a user's own): nothing in
 * ivx knows what it collects, so the report is what its CAM entries and
 * the words beside them hold at the end (as `info coproc slots` shows
 * them), with no exact profile to compare. */
static void report_raw(FILE *out, FILE *f, const struct sim *s, int top)
{
	int n = coproc_slot_count(s->cp), used = 0;
	fprintf(out, "no handler: the program's CAM entries at the end, each with data[bK + entry] for K = 0..3\n");
	fprintf(out, "%5s %18s %-28s %12s %12s %12s %12s\n", "entry", "key", "symbol", "w0", "w1", "w2", "w3");
	if (f)
		fprintf(f, "\"entries\":[");
	for (int i = 0; i < n; i++) {
		struct coproc_slot sl;
		coproc_slot(s->cp, i, &sl);
		if (!sl.valid)
			continue;
		char b[96];
		if (used < top || !top)
			fprintf(out, "%5d %#18llx %-28.28s %12llu %12llu %12llu %12llu%s\n", i, (unsigned long long)sl.pc,
				sym_column(s->prog, sl.pc, b, sizeof b), (unsigned long long)sl.w[0], (unsigned long long)sl.w[1],
				(unsigned long long)sl.w[2], (unsigned long long)sl.w[3], sl.masked ? " masked" : "");
		if (f)
			fprintf(f, "%s{\"entry\":%d,\"key\":%llu,\"words\":[%llu,%llu,%llu,%llu]}", used ? "," : "", i,
				(unsigned long long)sl.pc, (unsigned long long)sl.w[0], (unsigned long long)sl.w[1],
				(unsigned long long)sl.w[2], (unsigned long long)sl.w[3]);
		used++;
	}
	fprintf(out, "%d CAM entries in use of %d\n", used, n);
	if (f)
		fprintf(f, "]");
}

static const char coproc_help[] =
	"usage: ivx coproc [RUN OPTIONS] --program NAME|FILE [PROG] [-- ARGS...]\n"
	"Run PROG on the timing model with the profiling co-processor running a\n"
	"profiling program (shipped: value, value_topk, value_topk_ipw,\n"
	"value_topk_ring, value_topk_adapt, value_topk_even, value_topk_first,\n"
	"value_topk_young, edge, callstack in data/coproc/; or a file), and\n"
	"print the profile it built next to the exact one.\n"
	"  --program NAME|FILE the co-processor program\n"
	"  -C KEY=VALUE        co-processor setting (repeatable; -C help lists them:\n"
	"                      buffer cam data ucode ignore clock_div policy\n"
	"                      int_cycles slot_cycles mask_cycles mispredict\n"
	"                      watchdog timer resample profile seed tagrate)\n"
	"  --json FILE         the profile as JSON (value: loads, overhead_fraction,\n"
	"                      weighted_error)\n"
	"  --baseline          value: also run the interrupt-driven sampling profiler\n"
	"                      at the same overhead\n"
	"  --baseline-scale F  ... at F times the co-processor's overhead\n"
	"  --interval N        value: error and overhead every N cycles\n"
	"  --estimate top|shrink  value: the invariance estimate, the largest value's\n"
	"                      share (top, the paper's, default) or that share\n"
	"                      corrected for the winner's curse (shrink, ours)\n"
	"  --top N             rows to print (default 20)\n"
	"  --fates             value: per load in the JSON, what became of its executions\n"
	"  --speed             no exact profile: print the counters and the host's\n"
	"                      simulation speed (make bench)\n"
	"  --quiet, -q         no progress line (shown on stderr when it is a terminal)\n" RUN_OPTIONS_HELP;

static void print_settings_help(FILE *out)
{
	struct coproc_config d;
	coproc_config_defaults(&d);
	fprintf(out, "co-processor settings (-C KEY=VALUE), with defaults:\n");
	for (int i = 0; coproc_config_key(i); i++) {
		char v[32];
		coproc_config_get(&d, i, v, sizeof v);
		fprintf(out, "  %-12s %-8s %s\n", coproc_config_key(i), v, coproc_config_help(i));
	}
}

static int coproc_main(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(coproc_help, stdout);
		print_settings_help(stdout);
		return 0;
	}
	struct run_options o;
	struct cp_flags fl = { .top = 20, .scale = 1.0 };
	if (run_options_parse(&o, argc, argv, cp_extra, &fl) < 0)
		return EXIT_USAGE;
	int status = EXIT_USAGE;
	struct program *prog = NULL;
	struct coproc_prog *cprog = calloc(1, sizeof *cprog);
	struct sim s = { 0 }, base = { 0 };
	int have_s = 0, have_base = 0;
	struct ivx_err err = { 0 };
	struct coproc_config cc;
	struct machine_config mc;
	coproc_config_defaults(&cc);
	cc.seed = o.seed;
	if (!cprog)
		goto out;
	for (int i = 0; i < fl.n_set; i++)
		if (!strcmp(fl.set[i], "help")) {
			print_settings_help(stdout);
			status = 0;
			goto out;
		}
	if (!fl.program) {
		cli_error("coproc: --program NAME|FILE is required (" COPROC_SHIPPED ", or a file)");
		goto out;
	}
	for (int i = 0; i < fl.n_set; i++)
		if (coproc_config_set(&cc, fl.set[i], &err) < 0) {
			cli_error("%s", err.msg);
			goto out;
		}
	char ppath[4096] = "";
	struct coproc_included inc;
	int loaded = coproc_load_program_noting(fl.program, cprog, ppath, sizeof ppath, &inc, &err);
	struct named_file outs[] = { { "--json", fl.json_path } }, source[1 + COPROC_MAX_FILES];
	int n_source = 0;
	source[n_source++] = (struct named_file){ "the --program file", ppath[0] ? ppath : NULL };
	for (int i = 0; i < inc.n; i++)
		source[n_source++] = (struct named_file){ "a file the --program file includes", inc.path[i] };
	int clash = loaded == 0 && (run_options_check_outputs(&o, outs, 1) < 0 ||
				    outfile_check(outs, 1, source, n_source) < 0);
	coproc_included_free(&inc);
	if (loaded < 0) {
		cli_error("%s", err.msg);
		status = EXIT_INPUT;
		goto out;
	}
	if (clash)
		goto out;
	if (run_options_config(&o, &mc) < 0)
		goto out;
	prog = cli_load_program(o.prog_path);
	if (!prog) {
		status = EXIT_INPUT;
		goto out;
	}
	int raw = no_handler(cprog), value = !raw && truth_kind(cprog) == TRUTH_LOADS;
	if (!value && (fl.baseline || fl.fates || fl.interval || fl.shrink)) {
		cli_error("coproc: %s is for value programs; %s builds %s", fl.baseline ? "--baseline" :
			  fl.fates ? "--fates" : fl.interval ? "--interval" : "--estimate shrink", cprog->name,
			  raw ? "no profile ivx knows (.handler none)" :
			  truth_kind(cprog) == TRUTH_BRANCHES ? "a branch profile" : "a call-depth profile");
		goto out;
	}
	s.shrink = base.shrink = fl.shrink;
	if (simulate(&s, prog, &o, &mc, &cc, cprog, 0, value && !fl.speed ? fl.interval : 0, !fl.speed && !raw,
		     value && fl.fates) < 0) {
		status = EXIT_INPUT;
		goto out;
	}
	have_s = 1;
	s.prog = prog;
	if (s.rc < 0) {
		cli_error("%s", s.err.msg);
		status = EXIT_GUEST;
		goto out;
	}
	/* as cpistack: a profile of a failed run (a mistyped argument, a file
	 * it could not open) would look like any other */
	status = EXIT_GUEST;
	if (s.exited && !s.st.committed) {
		cli_error("the program ended during --fastforward/--start-at: nothing was left to time");
		goto out;
	}
	if (s.exited && guest_exit_code(s.g) != 0) {
		cli_error_guest_status(guest_exit_code(s.g));
		goto out;
	}
	if (!s.exited)
		run_options_note_limit(&o, s.st.cycles, s.st.committed, NULL);
	if (fl.speed) {
		print_stats(stdout, &s);
		printf("host %.3f s: %.2f M cycles/s, %.2f MIPS\n", s.host_seconds,
		       s.host_seconds > 0 ? (double)s.st.cycles / s.host_seconds / 1e6 : 0.0,
		       s.host_seconds > 0 ? (double)s.st.committed / s.host_seconds / 1e6 : 0.0);
		status = 0;
		goto out;
	}
	if (fl.baseline && value) {
		/* the sampler's period for the co-processor's overhead: each
		 * sample costs one interrupt of int_cycles + slot_cycles */
		uint64_t oh = overhead_cycles(&s), cost = cc.int_cycles + cc.slot_cycles;
		uint64_t loads = coproc_truth_events(s.truth);
		uint64_t nsamples = cost ? (uint64_t)((double)oh * fl.scale / (double)cost) : 0;
		uint64_t period = nsamples ? loads / nsamples : loads + 1;
		if (period < 1)
			period = 1;
		if (simulate(&base, prog, &o, &mc, &cc, cprog, period, fl.interval, 1, 0) < 0)
			goto out;
		have_base = 1;
		base.prog = prog;
	}
	FILE *out = stdout;
	char shown[4096];
	coproc_load_shown(fl.program, ppath, shown, sizeof shown);
	fprintf(out, "co-processor program %s (%s, %d microinstructions) on %s\n", cprog->name, shown,
		cprog->n_insns, program_name(prog));
	if (s.timed_from)
		fprintf(out, "timed from instruction %llu (--fastforward/--start-at): the profiles cover what ran after it\n",
			(unsigned long long)s.timed_from);
	print_stats(out, &s);
	struct outfile *jo = NULL;
	FILE *f = NULL;
	if (fl.json_path) {
		jo = outfile_open_cli(fl.json_path);
		if (!jo)
			goto out;
		f = outfile_stream(jo);
		fprintf(f, "{\"program\":");
		outfile_json_string(f, cprog->name);
		if (value)
			fprintf(f, ",\"estimate\":\"%s\"", fl.shrink ? "shrink" : "top");
		fprintf(f, ",\"workload\":");
		outfile_json_string(f, program_name(prog));
		/* (-C seed=N reseeds the co-processor alone, not the guest) */
		fprintf(f, ",\"seed\":%llu,\"coproc_seed\":%llu,\"cycles\":%llu,\"instructions\":%llu,\"timed_from\":%llu,"
			   "\"overhead_cycles\":%llu,",
			(unsigned long long)o.seed, (unsigned long long)cc.seed, (unsigned long long)s.st.cycles, (unsigned long long)s.st.committed,
			(unsigned long long)s.timed_from, (unsigned long long)overhead_cycles(&s));
		run_options_json_end(f, &o, s.exited, 0, s.st.committed);   /* (another status is an error) */
		fputc(',', f);
		json_stats(f, &s);
		fprintf(f, ",");
	}
	if (raw)
		report_raw(out, f, &s, fl.top);
	else if (value)
		report_value(out, f, &s, have_base ? &base : NULL, fl.top);
	else if (truth_kind(cprog) == TRUTH_BRANCHES)
		report_edge(out, f, &s, fl.top);
	else
		report_callstack(out, f, &s, fl.top);
	status = 0;   /* the guest exited, or the user's limit: a normal end */
	if (jo) {
		fprintf(f, "}\n");
		if (outfile_commit_cli(jo) < 0)
			status = EXIT_OUTPUT;
	}
out:
	if (have_s)
		sim_free(&s);
	if (have_base)
		sim_free(&base);
	program_free(prog);
	free(cprog);
	run_options_free(&o);
	return status;
}

const struct cli_command cmd_coproc_entry = {
	.name = "coproc",
	.summary = "run a program with the profiling co-processor (value, edge, call-stack profiles)",
	.help = coproc_help,
	.main = coproc_main,
};

/* ---- ivx coproc-asm ---------------------------------------------------------------- */

static const char asm_help[] =
	"usage: ivx coproc-asm NAME|FILE\n"
	"Assemble a co-processor program and list it as source that assembles to\n"
	"the same program: its settings, the DFE table and every microinstruction\n"
	"with its label and, in a comment, its address. Errors are\n"
	"FILE:LINE: message (exit status 2). A program that does not fit the\n"
	"default co-processor (more microinstructions than ucode, more slots\n"
	"than cam) is listed with a note on stderr naming the -C setting it needs.\n";

static int asm_main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(asm_help, stdout);
		return 0;
	}
	if (argc != 2) {
		cli_error("usage: ivx coproc-asm NAME|FILE");
		return EXIT_USAGE;
	}
	struct coproc_prog *p = calloc(1, sizeof *p);
	struct ivx_err err = { 0 };
	char path[4096];
	if (!p) {
		cli_error("out of memory");
		return EXIT_USAGE;
	}
	if (coproc_load_program(argv[1], p, path, sizeof path, &err) < 0) {
		cli_error("%s", err.msg);
		free(p);
		return EXIT_INPUT;
	}
	char shown[4096];
	coproc_load_shown(argv[1], path, shown, sizeof shown);
	size_t n = coproc_prog_listing(p, shown, NULL, 0) + 1;
	char *text = malloc(n);
	if (!text) {
		cli_error("out of memory");
		free(p);
		return EXIT_USAGE;
	}
	coproc_prog_listing(p, shown, text, n);
	fputs(text, stdout);
	free(text);
	/* A program can be right and still not fit the default co-processor
	 * (ivx coproc and coproc load would refuse it): say so, and how. */
	struct coproc_config d;
	coproc_config_defaults(&d);
	if (coproc_check(&d, p, &err) < 0)
		fprintf(stderr, "ivx coproc-asm: note: with the default settings %s\n", err.msg);
	free(p);
	return 0;
}

const struct cli_command cmd_coproc_asm_entry = {
	.name = "coproc-asm",
	.summary = "assemble and list a co-processor program",
	.help = asm_help,
	.main = asm_main,
};
