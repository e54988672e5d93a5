/*
 * cmd_cost.c — `ivx cost`: what a miss event really costs, measured by
 * taking it away.
 *
 * Interval analysis predicts each event's penalty (an isolated long miss
 * costs about the memory latency, a misprediction its resolution time plus
 * the frontend depth, overlapping misses one miss between them). The
 * simulator can check the prediction directly: run to just before the
 * event, snapshot, run on to a point well past it, then restore, make that
 * one event not happen (core_forgive: the branch predicted correctly, the
 * load or the fetch hitting) and run to the same committed-instruction
 * count. The difference in cycles is the event's true cost.
 *
 * Pass 1 runs the program once with the accounting units attached and
 * picks a uniform random sample of the correct-path events of the kind
 * (reservoir sampling, seeded by --seed); pass 2 runs it again, stopping
 * at each sampled event in order for the two short what-if runs. The
 * result is the distribution of true penalties next to the average
 * penalty each accounting method charged an event of that kind.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "acct/acct.h"
#include "cli.h"
#include "core/config.h"
#include "core/core.h"
#include "guest/guest.h"
#include "guest/program.h"
#include "outfile.h"
#include "runopts.h"

#define COST_MAX_SAMPLE 100000

struct cost_flags {
	int kind;                 /* enum miss_kind, -1 until --event */
	uint64_t sample;          /* events to measure */
	uint64_t window;          /* instructions past the ROB and frontend to run */
	const char *json_path;
};

/* One sampled event. */
struct cost_event {
	uint64_t seq, pc;         /* the instruction (I-side: the next one fetched) */
	uint64_t cycle;           /* stop here to forgive it (fetch or begin cycle) */
	uint64_t committed;       /* instructions committed by then */
	int64_t penalty;          /* pass 2: cycles it cost */
	int ended_early;          /* the program ended inside the window */
};

/* How pass 1, the whole run, ended (the JSON's run fields). */
struct cost_run {
	uint64_t cycles, instructions;
	int exited;               /* the program ended (else a limit stopped it) */
	int exit_code;
};

/* Pass 1's observer: reservoir sampling of the chosen kind's events. */
struct sampler {
	struct core *core;
	int kind;
	uint64_t seen, want, rng;
	struct cost_event *ev;
	struct core_observer obs;
};

static uint64_t next_random(uint64_t *s)
{
	/* splitmix64: a fixed sequence for a given --seed */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void offer(struct sampler *s, uint64_t seq, uint64_t pc, uint64_t cycle)
{
	struct cost_event e = { .seq = seq, .pc = pc, .cycle = cycle, .committed = core_committed(s->core) };
	uint64_t i = s->seen++;
	if (i < s->want)
		s->ev[i] = e;
	else if ((i = next_random(&s->rng) % (i + 1)) < s->want)
		s->ev[i] = e;
}

static void sampler_insn(void *ctx, const struct insn_event *e)
{
	offer(ctx, e->seq, e->pc, e->cycle);
}

static void sampler_miss(void *ctx, const struct miss_event *m)
{
	if (m->phase == MISS_BEGIN && m->correct_path)
		offer(ctx, m->insn_seq, m->pc, m->start);
}

static int by_cycle(const void *a, const void *b)
{
	const struct cost_event *p = a, *q = b;
	return p->cycle != q->cycle ? (p->cycle > q->cycle) - (p->cycle < q->cycle)
				    : (p->seq > q->seq) - (p->seq < q->seq);
}

static int by_penalty(const void *a, const void *b)
{
	int64_t p = *(const int64_t *)a, q = *(const int64_t *)b;
	return (p > q) - (p < q);
}

/* The accounting component that stands for a miss kind. */
static int comp_of_kind(int kind)
{
	static const int comp[MISS_KIND_COUNT] = {
		[MISS_L1I] = ACCT_L1I, [MISS_L2I] = ACCT_L2I, [MISS_ITLB] = ACCT_ITLB,
		[MISS_L1D] = ACCT_L1D, [MISS_L2D] = ACCT_L2D, [MISS_DTLB] = ACCT_DTLB,
		[MISS_MISPREDICT] = ACCT_BPRED,
	};
	return comp[kind];
}

static int cost_extra(void *ctx, int argc, char **argv, int i)
{
	struct cost_flags *f = ctx;
	const char *a = argv[i];
	if (strcmp(a, "--event") && strcmp(a, "--sample") && strcmp(a, "--window") && strcmp(a, "--json"))
		return 0;
	if (i + 1 >= argc) {
		cli_error("option %s needs a value", a);
		return -1;
	}
	const char *v = argv[i + 1];
	if (!strcmp(a, "--event")) {
		int k = miss_kind_from_name(v);
		if (k < 0 || k > MISS_MISPREDICT) {
			cli_error("--event: '%s' is not one of l1i, l2i, itlb, l1d, l2d, dtlb, mispredict", v);
			return -1;
		}
		f->kind = k;
	} else if (!strcmp(a, "--json")) {
		f->json_path = v;
	} else {
		uint64_t n;
		uint64_t *dst = !strcmp(a, "--sample") ? &f->sample : &f->window;
		uint64_t lo = dst == &f->sample ? 1 : 0;
		uint64_t hi = dst == &f->sample ? COST_MAX_SAMPLE : 1000000;
		if (cli_parse_u64(v, &n) < 0 || n < lo || n > hi) {
			cli_error("option %s: '%s' is not a number from %llu to %llu", a, v, (unsigned long long)lo,
				  (unsigned long long)hi);
			return -1;
		}
		*dst = n;
	}
	return 2;
}

/* A fresh guest and core for the program, fast-forwarded as asked; with
 * `files`, the guest of the first pass, the host files as that run found
 * them (guest_share_files). */
static struct core *start(const struct program *prog, const struct run_options *o,
			  const struct machine_config *cfg, const struct guest *files, struct guest **g)
{
	struct ivx_err err = { 0 };
	*g = run_options_make_guest(prog, o);
	if (!*g)
		return NULL;
	if (files)
		guest_share_files(*g, files);
	struct core *c = core_new(cfg, *g, &err);
	if (c && run_options_warm(o, prog, c, &err) < 0) {   /* --fastforward, --start-at */
		core_free(c);
		c = NULL;
	}
	if (!c) {
		cli_error("%s", err.msg);
		guest_free(*g);
		*g = NULL;
	}
	return c;
}


/* Pass 1: the sample, the event total and each method's charge. Its
 * guest goes to *files (the caller frees it), for pass 2's. */
static int pass1(const struct program *prog, const struct run_options *o, const struct machine_config *cfg,
		 struct sampler *s, double charged[ACCT_METHOD_COUNT], uint64_t *events, struct cost_run *run,
		 struct guest **files)
{
	struct guest *g;
	struct core *c = start(prog, o, cfg, NULL, &g);
	if (!c)
		return -1;
	guest_set_output(g, cli_drop_output, NULL);
	struct ivx_err err = { 0 };
	struct acct_set *set = acct_set_new_units(cfg, &err);
	s->core = c;
	s->obs = (struct core_observer){ .name = "cost-sampler", .ctx = s };
	if (s->kind == MISS_MISPREDICT) {
		/* a misprediction is decided at fetch: stop before the branch's */
		s->obs.on_insn = sampler_insn;
		s->obs.insn_filter_at[INSN_FETCH] = INSN_WANT_MISPREDICT | INSN_WANT_CORRECT_PATH;
	} else {
		s->obs.on_miss = sampler_miss;
		s->obs.miss_filter = MISS_BIT(s->kind);
		s->obs.miss_skip_end = MISS_BIT(s->kind);
	}
	int rc = set ? core_add_observer(c, acct_set_observer(set), &err) : -1;
	if (rc == IVX_OK)
		rc = core_add_observer(c, &s->obs, &err);
	if (rc == IVX_OK)
		rc = core_run(c, o->max_cycles, o->max_insns, &err);
	if (rc < 0) {
		cli_error("%s", err.msg);
	} else if (core_done(c) && guest_exit_code(g) != 0) {
		/* (a usage message from a mistyped argument would go unseen) */
		cli_error_guest_status(guest_exit_code(g));
		rc = -1;
	} else {
		struct core_stats st;
		core_stats(c, &st);
		if (!core_done(c))
			run_options_note_limit(o, st.cycles, st.committed, ": the events before it were sampled");
		*run = (struct cost_run){ st.cycles, st.committed, core_done(c) && guest_state(g) == GUEST_EXITED,
					  guest_exit_code(g) };
		*events = st.events_correct[s->kind];
		for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
			struct acct_stack a;
			acct_get_stack(acct_set_unit(set, m), &a);
			charged[m] = *events ? (double)a.comp[comp_of_kind(s->kind)] / (double)*events : 0.0;
		}
	}
	acct_set_free(set);
	core_free(c);
	*files = g;
	return rc < 0 ? -1 : 0;
}

/* Cycles until `committed` instructions have committed from the current
 * state (or the program ended). */
static int run_to(struct core *c, uint64_t committed, uint64_t *cycles, int *ended)
{
	struct ivx_err err = { 0 };
	if (core_run(c, 0, committed, &err) < 0) {
		/* (IVX_EUSAGE from a run: the frozen sandbox of pass 2) */
		cli_error("%s%s", err.msg, err.code == IVX_EUSAGE ? " (ivx cost runs the program again after its first run "
								  "made that change: give it its directory read-only, "
								  "or a fresh copy)" : "");
		return -1;
	}
	*cycles = core_cycles(c);
	*ended = core_done(c) || core_committed(c) < committed;
	return 0;
}

/* Pass 2: each sampled event's cost. */
static int pass2(const struct program *prog, const struct run_options *o, const struct machine_config *cfg,
		 const struct guest *files, int kind, uint64_t window, struct cost_event *ev, uint64_t n)
{
	struct guest *g;
	/* pass 1's files: pass 2 is the same run again, and must find them
	 * as pass 1 did, not with pass 1's appends in them */
	struct core *c = start(prog, o, cfg, files, &g);
	if (!c)
		return -1;
	guest_set_output(g, cli_drop_output, NULL);
	/* pass 1 made the program's changes to the host's directories: a
	 * second run would find them made and go another way */
	guest_freeze_host(g, 1);
	/* far enough that the event's instruction has committed, plus the window */
	uint64_t reach = cfg->rob_size + cfg->fetch_buffer + cfg->frontend_depth * cfg->fetch_width + window;
	int rc = 0;
	for (uint64_t i = 0; i < n && rc == 0; i++) {
		struct ivx_err err = { 0 };
		if (core_run_to_cycle(c, ev[i].cycle, &err) < 0) {
			cli_error("%s", err.msg);
			rc = -1;
			break;
		}
		struct core_snapshot *snap = core_snapshot_save(c, &err);
		if (!snap) {
			cli_error("%s", err.msg);
			rc = -1;
			break;
		}
		/* (past a --max-cycles limit too, as past --max-insns: the limit
		 * chose which events to sample, and a penalty cut at it would be
		 * too small; info cost measures the same way) */
		uint64_t target = ev[i].committed + reach, with = 0, without = 0;
		int ended_with = 0, ended_without = 0;
		rc = run_to(c, target, &with, &ended_with);
		if (rc == 0 && core_snapshot_restore(c, snap, &err) < 0)
			rc = -1, cli_error("%s", err.msg);
		if (rc == 0) {
			core_forgive(c, kind, ev[i].seq);
			rc = run_to(c, target, &without, &ended_without);
		}
		if (rc == 0 && core_snapshot_restore(c, snap, &err) < 0)
			rc = -1, cli_error("%s", err.msg);
		core_snapshot_free(snap);
		ev[i].penalty = (int64_t)with - (int64_t)without;
		ev[i].ended_early = ended_with || ended_without;
	}
	core_free(c);
	guest_free(g);
	return rc;
}

static double percentile(const int64_t *sorted, uint64_t n, double p)
{
	double at = p * (double)(n - 1);
	uint64_t lo = (uint64_t)at;
	uint64_t hi = lo + 1 < n ? lo + 1 : lo;
	return (double)sorted[lo] + (at - (double)lo) * (double)(sorted[hi] - sorted[lo]);
}

struct summary {
	double mean, median, p10, p90;
	int64_t min, max;
};

static void summarize(const struct cost_event *ev, uint64_t n, struct summary *s)
{
	int64_t *p = malloc(n * sizeof *p);
	double sum = 0;
	memset(s, 0, sizeof *s);
	if (!p || !n) {
		free(p);
		return;
	}
	for (uint64_t i = 0; i < n; i++) {
		p[i] = ev[i].penalty;
		sum += (double)p[i];
	}
	qsort(p, n, sizeof *p, by_penalty);
	s->mean = sum / (double)n;
	s->median = percentile(p, n, 0.5);
	s->p10 = percentile(p, n, 0.1);
	s->p90 = percentile(p, n, 0.9);
	s->min = p[0];
	s->max = p[n - 1];
	free(p);
}

static int write_json(const char *path, const struct program *prog, const struct run_options *ro,
		      const struct cost_flags *f, const struct cost_run *run, uint64_t events,
		      const struct cost_event *ev, uint64_t n, const struct summary *s,
		      const double charged[ACCT_METHOD_COUNT])
{
	struct outfile *o = outfile_open_cli(path);
	if (!o)
		return -1;
	FILE *j = outfile_stream(o);
	fprintf(j, "{\"program\":");
	outfile_json_string(j, program_name(prog));
	fprintf(j, ",\"event\":\"%s\",\"events\":%llu,\"sampled\":%llu,\"window\":%llu,\"seed\":%llu,"
		   "\"cycles\":%llu,\"instructions\":%llu,", miss_kind_name(f->kind),
		(unsigned long long)events, (unsigned long long)n, (unsigned long long)f->window,
		(unsigned long long)ro->seed, (unsigned long long)run->cycles, (unsigned long long)run->instructions);
	run_options_json_end(j, ro, run->exited, run->exit_code, run->instructions);
	/* no event measured, none charged: the statistics are undefined (null) */
	if (n)
		fprintf(j, ",\"true_penalty\":{\"mean\":%.3f,\"median\":%.3f,\"p10\":%.3f,\"p90\":%.3f,\"min\":%lld,"
			   "\"max\":%lld},", s->mean, s->median, s->p10, s->p90, (long long)s->min, (long long)s->max);
	else
		fprintf(j, ",\"true_penalty\":{\"mean\":null,\"median\":null,\"p10\":null,\"p90\":null,\"min\":null,"
			   "\"max\":null},");
	fprintf(j, "\"charged\":{");
	static const char *const keys[ACCT_METHOD_COUNT] = {
		[ACCT_NAIVE] = "naive", [ACCT_NAIVE_NONSPEC] = "naive_nonspec", [ACCT_POWER5] = "power5",
		[ACCT_FMT] = "fmt", [ACCT_SFMT] = "sfmt", [ACCT_IVX] = "ivx",
	};
	for (int m = 0; m < ACCT_METHOD_COUNT; m++)
		if (events)
			fprintf(j, "%s\"%s\":%.3f", m ? "," : "", keys[m], charged[m]);
		else
			fprintf(j, "%s\"%s\":null", m ? "," : "", keys[m]);
	fprintf(j, "},\"samples\":[");
	for (uint64_t i = 0; i < n; i++)
		fprintf(j, "%s{\"seq\":%llu,\"pc\":%llu,\"cycle\":%llu,\"penalty\":%lld%s}", i ? "," : "",
			(unsigned long long)ev[i].seq, (unsigned long long)ev[i].pc, (unsigned long long)ev[i].cycle,
			(long long)ev[i].penalty, ev[i].ended_early ? ",\"program_ended\":true" : "");
	fprintf(j, "]}\n");
	return outfile_commit_cli(o);
}

static void print_text(const struct program *prog, const struct cost_flags *f, uint64_t events, uint64_t n,
		       const struct cost_event *ev, const struct summary *s, const double charged[ACCT_METHOD_COUNT])
{
	printf("true cost of %s events in %s: %llu on the correct path, %llu measured "
	       "(a random sample), each to %llu instructions past the ROB\n", miss_kind_name(f->kind),
	       program_name(prog), (unsigned long long)events, (unsigned long long)n,
	       (unsigned long long)f->window);
	if (!n) {
		printf("(no %s event on the correct path: nothing to measure)\n", miss_kind_name(f->kind));
		return;
	}
	printf("\ncycles one event costs (run with it, run without it):\n");
	printf("  mean %.1f   median %.1f   10%% %.1f   90%% %.1f   min %lld   max %lld\n", s->mean, s->median,
	       s->p10, s->p90, (long long)s->min, (long long)s->max);
	uint64_t early = 0;
	for (uint64_t i = 0; i < n; i++)
		early += ev[i].ended_early != 0;
	if (early)
		printf("  (%llu of them near the end: the program ended inside the window)\n", (unsigned long long)early);
	printf("\naverage cycles each method charged one such event (its component / events):\n");
	for (int m = 0; m < ACCT_METHOD_COUNT; m++)
		printf("  %-15s %9.1f%s\n", acct_method_label(m), charged[m],
		       /* (naive charges wrong-path events too, so its average per
			* correct-path event is above its fixed penalty) */
		       m == ACCT_NAIVE ? "  (a fixed penalty for every event, wrong-path ones too)" :
		       m == ACCT_NAIVE_NONSPEC ? "  (a fixed penalty per event)" : "");
}

static int cmd_cost_main(int argc, char **argv)
{
	struct run_options o;
	struct cost_flags f = { .kind = -1, .sample = 100, .window = 256 };
	if (run_options_parse(&o, argc, argv, cost_extra, &f) < 0)
		return EXIT_USAGE;
	int status = EXIT_USAGE;
	struct program *prog = NULL;
	struct cost_event *ev = NULL;
	struct guest *files = NULL;          /* pass 1's guest, for pass 2's files */
	const struct named_file outputs[] = { { "--json", f.json_path } };
	if (f.kind < 0) {
		cli_error("ivx cost needs --event KIND (l1i, l2i, itlb, l1d, l2d, dtlb or mispredict)");
		goto out;
	}
	if (run_options_check_outputs(&o, outputs, 1) < 0)
		goto out;
	struct machine_config cfg;
	status = EXIT_INPUT;
	if (run_options_config(&o, &cfg) < 0 || !(prog = cli_load_program(o.prog_path)))
		goto out;
	ev = calloc(f.sample, sizeof *ev);
	if (!ev) {
		cli_error("out of memory");
		goto out;
	}
	struct sampler s = { .kind = f.kind, .want = f.sample, .rng = o.seed, .ev = ev };
	double charged[ACCT_METHOD_COUNT];
	uint64_t events = 0;
	struct cost_run run;
	status = EXIT_GUEST;
	if (pass1(prog, &o, &cfg, &s, charged, &events, &run, &files) < 0)
		goto out;
	uint64_t n = s.seen < f.sample ? s.seen : f.sample;
	qsort(ev, n, sizeof *ev, by_cycle);
	if (pass2(prog, &o, &cfg, files, f.kind, f.window, ev, n) < 0)
		goto out;
	struct summary sum;
	summarize(ev, n, &sum);
	print_text(prog, &f, events, n, ev, &sum, charged);
	status = 0;
	if (f.json_path && write_json(f.json_path, prog, &o, &f, &run, events, ev, n, &sum, charged) < 0)
		status = EXIT_OUTPUT;
out:
	free(ev);
	guest_free(files);
	program_free(prog);
	run_options_free(&o);
	return status;
}

const struct cli_command cmd_cost_entry = {
	.name = "cost",
	.summary = "the true cost of miss events: each one measured by running without it",
	.help =
	"usage: ivx cost --event KIND [OPTIONS] [PROG] [-- ARGS...]\n\n"
	"Measure what miss events of KIND (l1i, l2i, itlb, l1d, l2d, dtlb,\n"
	"mispredict) really cost PROG: for a random sample of its correct-path\n"
	"events, run from just before the event to well past it twice, once as it\n"
	"is and once with that event taken away (the branch predicted correctly;\n"
	"the load or the fetch hitting at every level, so an itlb, l1i or l2i\n"
	"event of one fetch, or a dtlb, l1d or l2d event of one access, each\n"
	"measures that access's whole miss), and count the cycles between the two\n"
	"at the same committed-instruction count. Prints the distribution of these\n"
	"true penalties next to the average penalty per event that each CPI\n"
	"accounting method charged on the same run.\n\n"
	"  --event KIND        the miss kind to measure (required)\n"
	"  --sample N          events to measure (default 100; --seed picks them)\n"
	"  --window N          instructions to run past the ROB and frontend\n"
	"                      (default 256)\n"
	"  --json FILE         also write the result and every sampled event as JSON\n"
	RUN_OPTIONS_QUIET_HELP
	RUN_OPTIONS_HELP,
	.main = cmd_cost_main,
};
