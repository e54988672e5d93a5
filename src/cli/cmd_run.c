/*
 * cmd_run.c — `ivx run`: run a program to completion, on the timing model
 * (the default) or functionally (--functional).
 *
 * Timing mode prints the run's summary on stderr (the guest owns stdout):
 * cycles, committed instructions, IPC and the miss events split into
 * correct-path and wrong-path ones; --json writes the same as JSON, and
 * --kanata a pipeline trace for the Konata viewer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "core/config.h"
#include "core/core.h"
#include "guest/guest.h"
#include "guest/program.h"
#include "runopts.h"
#include "outfile.h"
#include "progress.h"
#include "trace_kanata.h"

struct run_flags {
	int functional;
	int stats;
	const char *json_path;
	const char *kanata_path;
	uint64_t window_lo, window_hi;   /* --window A:B (hi 0 = open) */
	int window_set;                  /* --window was given */
};

static int parse_window(const char *s, struct run_flags *f)
{
	const char *colon = strchr(s, ':');
	char lo[64];
	if (!colon || (size_t)(colon - s) >= sizeof lo)
		return -1;
	memcpy(lo, s, (size_t)(colon - s));
	lo[colon - s] = 0;
	if ((lo[0] && cli_parse_u64(lo, &f->window_lo) < 0) ||
	    (colon[1] && cli_parse_u64(colon + 1, &f->window_hi) < 0))
		return -1;
	if (colon[1] && !f->window_hi)   /* (an empty window: 0 stands for "open" only when left out) */
		return -1;
	if (f->window_hi && f->window_hi <= f->window_lo)
		return -1;
	return 0;
}

static int run_extra(void *ctx, int argc, char **argv, int i)
{
	struct run_flags *f = ctx;
	if (!strcmp(argv[i], "--functional"))
		return f->functional = 1;
	if (!strcmp(argv[i], "--stats"))
		return f->stats = 1;
	const char **path = !strcmp(argv[i], "--json") ? &f->json_path :
			    !strcmp(argv[i], "--kanata") ? &f->kanata_path : NULL;
	int window = !strcmp(argv[i], "--window");
	if (!path && !window)
		return 0;
	if (i + 1 >= argc) {
		cli_error("option %s needs a value", argv[i]);
		return -1;
	}
	if (path) {
		*path = argv[i + 1];
	} else if (parse_window(argv[i + 1], f) < 0) {
		cli_error("--window: '%s' is not A:B with A < B (cycles)", argv[i + 1]);
		return -1;
	} else {
		f->window_set = 1;
	}
	return 2;
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Functional runs go in slices, with the progress line updated in
 * between: a clock read every slice, not every instruction. Slicing
 * changes no result (guest_run resumes exactly where it stopped; timing
 * runs slice in progress_core_run). */
#define SLICE_INSNS  (1u << 22)

/* guest_run to the end or o->max_insns, in slices. */
static int functional_sliced(struct guest *g, const struct run_options *o, struct progress *pr,
			     struct ivx_err *err)
{
	int rc;
	for (;;) {
		uint64_t n = SLICE_INSNS;
		if (o->max_insns && o->max_insns - guest_insns(g) < n)
			n = o->max_insns - guest_insns(g);
		rc = guest_run(g, n, err);
		if (rc < 0 || guest_state(g) != GUEST_RUNNING || (o->max_insns && guest_insns(g) >= o->max_insns))
			break;
		struct progress_state st = { .insns = guest_insns(g), .functional = 1 };
		progress_update(pr, &st);
	}
	progress_end(pr);
	return rc;
}

/* (mc: the machine, of which a functional run uses only what the guest
 * can read, CTR_EL0's cache lines, so that both modes run the same
 * instructions) */
static int run_functional(const struct program *prog, const struct run_options *o, const struct run_flags *f,
			  const struct machine_config *mc)
{
	struct guest *g = run_options_make_guest(prog, o);
	if (!g)
		return EXIT_INPUT;
	guest_cpu(g)->ctr_el0 = config_ctr_el0(mc);
	struct ivx_err err = { 0 };
	fflush(stdout);
	struct progress pr;
	progress_start(&pr, o->quiet, o->max_insns, 0);
	double t0 = now_seconds();
	int rc = functional_sliced(g, o, &pr, &err);
	double secs = now_seconds() - t0;
	int status;
	if (rc < 0) {
		cli_error("%s", err.msg);
		status = EXIT_GUEST;
	} else if (guest_state(g) == GUEST_EXITED) {
		status = guest_exit_code(g);
	} else {   /* the user's limit: a normal end (as in sim-outorder and gem5) */
		cli_error("stopped after %llu instructions (--max-insns limit reached)",
			  (unsigned long long)guest_insns(g));
		status = 0;
	}
	if (f->stats)
		fprintf(stderr, "ivx: %llu instructions in %.3f s: %.1f MIPS\n",
			(unsigned long long)guest_insns(g), secs,
			secs > 0 ? guest_insns(g) / secs / 1e6 : 0.0);
	guest_free(g);
	return status;
}

static void print_summary(FILE *out, const struct core_stats *st)
{
	double ipc = st->cycles ? (double)st->committed / (double)st->cycles : 0.0;
	fprintf(out, "ivx: %llu cycles, %llu instructions, IPC %.3f\n", (unsigned long long)st->cycles,
		(unsigned long long)st->committed, ipc);
	fprintf(out, "ivx: branches %llu, mispredicted %llu; fetched %llu, squashed %llu\n",
		(unsigned long long)st->branches, (unsigned long long)st->mispredicts,
		(unsigned long long)st->fetched, (unsigned long long)st->squashed);
	fprintf(out, "ivx: %-10s %12s %12s\n", "event", "correct", "wrong-path");
	for (int k = 0; k < MISS_KIND_COUNT; k++)
		fprintf(out, "ivx: %-10s %12llu %12llu\n", miss_kind_name(k),
			(unsigned long long)st->events_correct[k], (unsigned long long)st->events_wrong[k]);
}

/* The run's statistics and how it ended: "exit" (with the exit code),
 * "limit" (with which one) or "error" (with the message), so the file
 * says what it is when the run did not finish. */
static int write_json(const char *path, const struct program *prog, uint64_t seed, const struct core_stats *st,
		      const char *end, int exit_code, const char *limit, const char *error)
{
	struct outfile *o = outfile_open_cli(path);
	if (!o)
		return -1;
	FILE *f = outfile_stream(o);
	double ipc = st->cycles ? (double)st->committed / (double)st->cycles : 0.0;
	fprintf(f, "{\"program\":");
	outfile_json_string(f, program_name(prog));
	fprintf(f, ",\"cycles\":%llu,\"instructions\":%llu,\"ipc\":%.6f,\"branches\":%llu,"
		"\"mispredicts\":%llu,\"events\":{",
		(unsigned long long)st->cycles, (unsigned long long)st->committed, ipc,
		(unsigned long long)st->branches, (unsigned long long)st->mispredicts);
	for (int k = 0; k < MISS_KIND_COUNT; k++)
		fprintf(f, "%s\"%s\":{\"correct\":%llu,\"wrong\":%llu}", k ? "," : "", miss_kind_name(k),
			(unsigned long long)st->events_correct[k], (unsigned long long)st->events_wrong[k]);
	fprintf(f, "},\"end\":\"%s\"", end);
	if (!strcmp(end, "exit"))
		fprintf(f, ",\"exit_code\":%d", exit_code);
	if (limit)
		fprintf(f, ",\"limit\":\"%s\"", limit);
	if (error) {
		fprintf(f, ",\"error\":");
		outfile_json_string(f, error);
	}
	fprintf(f, ",\"seed\":%llu}\n", (unsigned long long)seed);
	return outfile_commit_cli(o);
}

/* The outputs are written for every run that got going, however it ended
 * (a trace up to a fault is what one wants to see); not after a host
 * failure or a signal (outfile.h: the previous file stays). */
static int run_timing(const struct program *prog, const struct run_options *o, const struct run_flags *f)
{
	struct machine_config cfg;
	if (run_options_config(o, &cfg) < 0)
		return EXIT_USAGE;
	struct guest *g = run_options_make_guest(prog, o);
	if (!g)
		return EXIT_INPUT;
	struct ivx_err err = { 0 };
	struct outfile *trace = NULL;
	struct trace_kanata *tk = NULL;
	struct core *c = core_new(&cfg, g, &err);
	if (!c)
		goto fail;
	if (f->kanata_path) {
		trace = outfile_open(f->kanata_path, &err);
		tk = trace ? trace_kanata_new(outfile_stream(trace), f->window_lo, f->window_hi, &err) : NULL;
		if (!tk || core_add_observer(c, trace_kanata_observer(tk), &err) < 0)
			goto fail;
	}
	fflush(stdout);
	if (run_options_warm(o, prog, c, &err) < 0)   /* --fastforward, --start-at */
		goto fail;
	struct progress pr;
	progress_start(&pr, o->quiet, o->max_insns, o->max_cycles);
	double t0 = now_seconds();
	int rc = progress_core_run(&pr, c, o->max_cycles, o->max_insns, &err);
	progress_end(&pr);
	double secs = now_seconds() - t0;
	fflush(stdout);
	struct core_stats st;
	core_stats(c, &st);
	print_summary(stderr, &st);
	if (f->stats)
		fprintf(stderr, "ivx: host %.3f s: %.2f M cycles/s, %.2f MIPS\n", secs,
			secs > 0 ? st.cycles / secs / 1e6 : 0.0, secs > 0 ? st.committed / secs / 1e6 : 0.0);
	int exited = rc == IVX_OK && core_done(c) && guest_state(g) == GUEST_EXITED;
	int status = exited ? guest_exit_code(g) : EXIT_GUEST;
	const char *limit = NULL;   /* "max_insns" or "max_cycles" (the JSON's spelling) */
	if (rc < 0) {
		cli_error("%s", err.msg);
		if (err.code == IVX_EUSAGE)
			status = EXIT_USAGE;
	} else if (!exited) {
		/* the user's limit: a normal end (as in sim-outorder and gem5) */
		limit = run_options_limit_key(o, st.committed);
		run_options_note_limit(o, st.cycles, st.committed, NULL);
		status = 0;
	}
	if (f->json_path && write_json(f->json_path, prog, o->seed, &st, exited ? "exit" : rc == IVX_OK ? "limit" : "error",
				       exited ? guest_exit_code(g) : 0, limit, rc < 0 ? err.msg : NULL) < 0)
		status = EXIT_GUEST;
	trace_kanata_free(tk);
	if (trace && outfile_commit_cli(trace) < 0)
		status = EXIT_GUEST;
	core_free(c);
	guest_free(g);
	return status;
fail:
	if (err.msg[0])
		cli_error("%s", err.msg);
	trace_kanata_free(tk);
	outfile_discard(trace);
	core_free(c);
	guest_free(g);
	return err.code == IVX_EUSAGE ? EXIT_USAGE : EXIT_GUEST;
}

static int cmd_run_main(int argc, char **argv)
{
	struct run_options o;
	struct run_flags f = { 0 };
	if (run_options_parse(&o, argc, argv, run_extra, &f) < 0)
		return EXIT_USAGE;
	/* a functional run has no cycles: these would be ignored */
	const char *timing_only = f.json_path ? "--json" : f.kanata_path ? "--kanata" :
				  f.window_lo || f.window_hi ? "--window" : o.max_cycles ? "--max-cycles" :
				  o.fastforward ? "--fastforward" : o.start_at ? "--start-at" : NULL;
	if (f.functional && timing_only) {
		cli_error("run: %s needs the timing model; it does not go with --functional", timing_only);
		run_options_free(&o);
		return EXIT_USAGE;
	}
	/* (a functional run has no timing, but a mistyped key or a file that
	 * is not there is still a mistake to hear about, and CTR_EL0 follows
	 * the machine's cache lines) */
	struct machine_config mc;
	config_defaults(&mc);
	if (f.functional && (o.config_path || o.n_overrides) && run_options_config(&o, &mc) < 0) {
		run_options_free(&o);
		return EXIT_USAGE;
	}
	if (f.window_set && !f.kanata_path) {   /* it only limits the trace: alone it would do nothing */
		cli_error("run: --window limits the --kanata trace; give --kanata FILE too");
		run_options_free(&o);
		return EXIT_USAGE;
	}
	const struct named_file outputs[] = { { "--json", f.json_path }, { "--kanata", f.kanata_path } };
	if (run_options_check_outputs(&o, outputs, 2) < 0) {
		run_options_free(&o);
		return EXIT_USAGE;
	}
	struct program *prog = cli_load_program(o.prog_path);
	int status = EXIT_INPUT;
	if (prog)
		status = f.functional ? run_functional(prog, &o, &f, &mc) : run_timing(prog, &o, &f);
	program_free(prog);
	run_options_free(&o);
	return status;
}

const struct cli_command cmd_run_entry = {
	.name = "run",
	.summary = "run a program to completion (timing model, or functional)",
	.help =
	"usage: ivx run [OPTIONS] [PROG] [-- ARGS...]\n\n"
	"Run PROG (default: the built-in program) to completion on the cycle-level\n"
	"core model. The guest's stdout and stderr are forwarded; the run's summary\n"
	"(cycles, instructions, IPC, miss events on the correct and on wrong paths)\n"
	"goes to stderr. ivx exits with the guest's exit code, 0 when the run\n"
	"stops at --max-insns or --max-cycles (which one, on stderr and in the\n"
	"JSON), and 2 when ivx itself stops it: bad input, guest fault,\n"
	"unsupported instruction or system call, deadlock.\n\n"
	"  --functional        functional emulation only (fastest; no timing)\n"
	"  --stats             also print host time and simulation speed on stderr\n"
	"  --quiet, -q         no progress line (shown on stderr when it is a terminal)\n"
	"  --json FILE         write {cycles, instructions, ipc, events{KIND{correct,\n"
	"                      wrong}}} to FILE\n"
	"  --kanata FILE       write a pipeline trace for the Konata viewer\n"
	"  --window A:B        ... only of instructions fetched in cycles [A, B)\n"
	"                      (A: from A on, :B from the start)\n"
	RUN_OPTIONS_HELP,
	.main = cmd_run_main,
};
