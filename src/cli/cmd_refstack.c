/*
 * cmd_refstack.c — `ivx refstack`: the simulation-based reference CPI
 * stacks, and the set-up both it and `ivx cpistack` use (cpistack.h).
 *
 * The 13 runs of the two sequences (12 simulations: without --ref-fu the
 * +fu run is the base run) run on a pool of threads (one per host core by
 * default). Each owns its guest; the guest's output is dropped, since a
 * dozen copies of it would only get in the way.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "outfile.h"
#include "progress.h"
#include "runopts.h"
#include "cpistack.h"
#include "guest/guest.h"
#include "guest/program.h"


int stack_flags_parse(void *ctx, int argc, char **argv, int i)
{
	struct stack_flags *f = ctx;
	const char *a = argv[i];
	int has_value = i + 1 < argc;
	if (!strcmp(a, "--json") || !strcmp(a, "--jobs") || (!f->refstack && !strcmp(a, "--svg"))) {
		if (!has_value) {
			cli_error("option %s needs a value", a);
			return -1;
		}
		if (!strcmp(a, "--json")) {
			f->json_path = argv[i + 1];
		} else if (!strcmp(a, "--svg")) {
			f->svg_path = argv[i + 1];
		} else {
			uint64_t n;
			if (cli_parse_u64(argv[i + 1], &n) < 0 || n < 1 || n > 64) {
				cli_error("option --jobs: '%s' is not a number from 1 to 64", argv[i + 1]);
				return -1;
			}
			f->jobs = (int)n;
		}
		return 2;
	}
	if (!strcmp(a, "--ref-fu"))
		return f->ref_fu = 1;
	if (!f->refstack && !strcmp(a, "--no-ref"))
		return f->no_ref = 1;
	if (!f->refstack && !strcmp(a, "--summary"))
		return f->summary = 1;
	if (!f->refstack && !strcmp(a, "--bench"))
		return f->bench = 1;
	return 0;
}

int stackrun_prepare(struct stackrun *sr, int threads)
{
	const struct run_options *o = &sr->o;
	if (run_options_config(o, &sr->cfg) < 0)
		return -1;
	if (o->stdin_path && run_options_read_stdin(o, &sr->stdin_data, &sr->stdin_len) < 0)
		return -1;
	sr->prog = cli_load_program(o->prog_path);
	if (!sr->prog)
		return -1;
	if (threads <= 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		threads = n > 0 ? (int)n : 1;
	}
	sr->threads = threads;
	for (int r = 0; r < REF_RUN_COUNT; r++) {
		struct refstack_job *j = &sr->job[r];
		memset(j, 0, sizeof *j);
		j->prog = sr->prog;
		j->gopt = (struct guest_options){
			.stdin_data = sr->stdin_data, .stdin_len = sr->stdin_len, .output = cli_drop_output,
		};
		run_options_guest(o, &j->gopt, sr->cwd, sizeof sr->cwd);
		refstack_config(&sr->cfg, r, sr->ref_fu, &j->cfg);
		j->fastforward = o->fastforward;
		struct ivx_err err = { 0 };
		if (run_options_start_pc(o, sr->prog, &j->start_pc, &j->start_at, &err) < 0) {
			cli_error("%s", err.msg);
			return -1;
		}
		j->max_insns = o->max_insns;
		j->max_cycles = o->max_cycles;
	}
	return 0;
}

static double wall_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The progress line, from the watching thread. */
static void watch(void *ctx, const struct refstack_progress *p)
{
	struct progress_state st = { .sims_done = p->done, .sims_total = p->total, .insns = p->insns,
				     .cycles = p->cycles };
	progress_update(ctx, &st);
}

/* An earlier run (the real one first) with the same machine as run r, or -1:
 * without --ref-fu the +fu run repeats the base run, which is simulated once. */
static int same_machine_as(const struct stackrun *sr, int r)
{
	if (r != REF_REAL && !memcmp(&sr->job[r].cfg, &sr->job[REF_REAL].cfg, sizeof sr->job[r].cfg))
		return REF_REAL;
	for (int e = 0; e < r; e++)
		if (e != REF_REAL && !memcmp(&sr->job[r].cfg, &sr->job[e].cfg, sizeof sr->job[r].cfg))
			return e;
	return -1;
}

/* Run list[from, n), then copy each back to its job. */
static int run_list(struct stackrun *sr, struct refstack_job *list, const int *run_of, int from, int n,
		    struct progress *pr)
{
	struct ivx_err err = { 0 };
	int rc = pr->on ? refstack_run_jobs_watched(list + from, n - from, sr->threads, watch, pr, 0.25, &err)
			: refstack_run_jobs(list + from, n - from, sr->threads, &err);
	for (int k = from; k < n; k++)
		sr->job[run_of[k]] = list[k];
	return rc;
}

int stackrun_execute(struct stackrun *sr, int real_only)
{
	/* The real run first: it carries the observers and is the slowest. */
	struct refstack_job list[REF_RUN_COUNT];
	int run_of[REF_RUN_COUNT];
	int n = 0;
	run_of[n] = REF_REAL;
	list[n++] = sr->job[REF_REAL];
	for (int r = 0; r < REF_RUN_COUNT && !real_only; r++)
		if (r != REF_REAL && same_machine_as(sr, r) < 0) {
			run_of[n] = r;
			list[n++] = sr->job[r];
		}
	/* A component is the difference of two runs' CPIs over the same
	 * instructions. Under a cycle limit each machine would commit a
	 * different number of them by then (crc at 20000 cycles: base 54034,
	 * real 32442), so the real run goes alone first, and the others run
	 * to the instruction count it reached. */
	int staged = sr->o.max_cycles && n > 1;
	struct progress pr;
	progress_start(&pr, sr->o.quiet, sr->o.max_insns, sr->o.max_cycles);
	double t0 = wall_seconds();
	int rc = run_list(sr, list, run_of, 0, staged ? 1 : n, &pr);
	const struct refstack_job *real = &sr->job[REF_REAL];
	if (staged && rc >= 0 && !real->exited && !real->insns)
		n = 1;   /* nothing committed by the limit: nothing to run the others to */
	if (staged && rc >= 0 && n > 1) {
		for (int k = 1; k < n; k++) {
			list[k].max_cycles = 0;
			if (!real->exited && real->insns)
				list[k].max_insns = real->insns;
		}
		rc = run_list(sr, list, run_of, 1, n, &pr);
	}
	sr->seconds = wall_seconds() - t0;
	progress_end(&pr);
	if (rc < 0) {
		for (int k = 0; k < n; k++)
			if (list[k].rc < 0) {
				/* (the warm-up is every run's: name the option) */
				if (sr->o.start_at && (strstr(list[k].err.msg, "not reached") ||
						       strstr(list[k].err.msg, "before reaching")))
					cli_error("--start-at %s: %s", sr->o.start_at, list[k].err.msg);
				else
					cli_error("%s run: %s", refstack_run_name(run_of[k]), list[k].err.msg);
				break;
			}
		return -1;
	}
	for (int r = 0; r < REF_RUN_COUNT && !real_only; r++) {
		int e = r != REF_REAL ? same_machine_as(sr, r) : -1;
		if (e >= 0) {
			struct machine_config cfg = sr->job[r].cfg;
			sr->job[r] = sr->job[e];
			sr->job[r].cfg = cfg;
		}
	}
	sr->simulations = n;
	if (real->insns == 0 && !real->exited) {
		/* a limit the user set is a normal end, even this early */
		cli_error("no instruction committed before the %s limit (%llu cycles): nothing to stack",
			  run_options_limit_hit(&sr->o, 0), (unsigned long long)real->cycles);
		return 1;
	}
	if (real->insns == 0) {
		/* nothing was timed: the program ended in the fast-forward (too
		 * short for it, or it failed at once: a file it could not open) */
		if (real->exited && real->exit_code != 0)
			cli_error("the program exited with status %d before timing started (`ivx run` shows its output)",
				  real->exit_code);
		else if (real->exited && (real->fastforward || real->start_pc))
			cli_error("the program ended during --fastforward/--start-at: nothing was left to time");
		else
			cli_error("the program ended before it committed an instruction");
		return -1;
	}
	/* (its output is not shown here: a usage message would go unseen) */
	if (real->exited && real->exit_code != 0) {
		cli_error_guest_status(real->exit_code);
		return -1;
	}
	/* a limit the user set is a normal end; the stacks cover what ran */
	if (!real->exited)
		cli_error("stopped at the %s limit: the stacks cover %llu instructions, %llu cycles",
			  sr->o.max_insns && real->insns >= sr->o.max_insns ? "--max-insns" : "--max-cycles",
			  (unsigned long long)real->insns, (unsigned long long)real->cycles);
	if (real_only)
		return 0;
	uint64_t cycles[REF_RUN_COUNT], insns[REF_RUN_COUNT];
	for (int r = 0; r < REF_RUN_COUNT; r++) {
		cycles[r] = sr->job[r].cycles;
		insns[r] = sr->job[r].insns;
		/* Every run commits the same instruction stream; only a cycle
		 * limit or a commit group crossing --max-insns can differ. */
		uint64_t d = insns[r] > real->insns ? insns[r] - real->insns : real->insns - insns[r];
		if (d * 1000 > real->insns)
			fprintf(stderr, "ivx: warning: the %s run committed %llu instructions, the real one %llu\n",
				refstack_run_name(r), (unsigned long long)insns[r], (unsigned long long)real->insns);
	}
	refstack_combine(cycles, insns, &sr->ref, &sr->ref_inv);
	return 0;
}

void stackrun_json_end(FILE *f, const struct stackrun *sr)
{
	const struct refstack_job *real = stackrun_real(sr);
	run_options_json_end(f, &sr->o, real->exited, real->exit_code, real->insns);
	fprintf(f, ",\"seed\":%llu", (unsigned long long)sr->o.seed);   /* (AT_RANDOM, getrandom: the guest's path) */
}

const char *refstack_kind(const struct stackrun *sr)
{
	return sr->ref_fu ? "reference with a long-latency step (--ref-fu)"
			  : "the paper's reference: long-latency stalls are part of base";
}

void stackrun_free(struct stackrun *sr)
{
	program_free(sr->prog);
	sr->prog = NULL;
	free(sr->stdin_data);
	sr->stdin_data = NULL;
	run_options_free(&sr->o);
}

/* ---- ivx refstack ------------------------------------------------------------ */

/* The JSON's first fields: the program and the real run's counts. */
static void json_head(FILE *f, const struct stackrun *sr)
{
	const struct refstack_job *real = stackrun_real(sr);
	fprintf(f, "{\"program\":");
	outfile_json_string(f, program_name(sr->prog));
	fprintf(f, ",\"instructions\":%llu,\"cycles\":%llu,", (unsigned long long)real->insns,
		(unsigned long long)real->cycles);
}

int stackrun_json_nothing(const char *path, const struct stackrun *sr)
{
	struct outfile *o = outfile_open_cli(path);
	if (!o)
		return -1;
	FILE *f = outfile_stream(o);
	json_head(f, sr);
	fprintf(f, "\"cpi\":null,");
	stackrun_json_end(f, sr);
	fprintf(f, ",\"methods\":{}}\n");
	return outfile_commit_cli(o);
}

static int write_json(const char *path, const struct stackrun *sr, const struct named_stack *st, int n)
{
	struct outfile *o = outfile_open_cli(path);
	if (!o)
		return -1;
	FILE *f = outfile_stream(o);
	json_head(f, sr);
	fprintf(f, "\"cpi\":%.6f,\"reference\":\"%s\",", sr->ref.cpi, sr->ref_fu ? "fu-step" : "paper");
	stackrun_json_end(f, sr);
	fputc(',', f);
	stack_json_methods(f, st, n, NULL, NULL, 0);
	fprintf(f, ",\"runs\":[");
	for (int r = 0; r < REF_RUN_COUNT; r++)
		fprintf(f, "%s{\"name\":\"%s\",\"cycles\":%llu,\"instructions\":%llu}", r ? "," : "",
			refstack_run_name(r), (unsigned long long)sr->job[r].cycles,
			(unsigned long long)sr->job[r].insns);
	fprintf(f, "]}\n");
	return outfile_commit_cli(o);
}

static int cmd_refstack_main(int argc, char **argv)
{
	struct stackrun sr;
	memset(&sr, 0, sizeof sr);
	struct stack_flags fl = { .refstack = 1 };
	if (run_options_parse(&sr.o, argc, argv, stack_flags_parse, &fl) < 0)
		return EXIT_USAGE;
	sr.ref_fu = fl.ref_fu;
	const struct named_file outputs[] = { { "--json", fl.json_path } };
	if (run_options_check_outputs(&sr.o, outputs, 1) < 0) {
		run_options_free(&sr.o);
		return EXIT_USAGE;
	}
	int status = EXIT_INPUT;
	if (stackrun_prepare(&sr, fl.jobs) < 0)
		goto out;
	status = EXIT_GUEST;
	int ran = stackrun_execute(&sr, 0);
	if (ran < 0)
		goto out;
	if (ran > 0) {   /* nothing to stack, at the user's limit */
		status = fl.json_path && stackrun_json_nothing(fl.json_path, &sr) < 0 ? EXIT_OUTPUT : 0;
		goto out;
	}
	struct named_stack st[2] = {
		{ "ref", "normal", sr.ref },
		{ "ref_inverse", "inverse", sr.ref_inv },
	};
	const struct refstack_job *real = stackrun_real(&sr);
	printf("reference CPI stacks of %s: %llu instructions, %llu cycles, CPI %.4f\n",
	       program_name(sr.prog), (unsigned long long)real->insns, (unsigned long long)real->cycles,
	       sr.ref.cpi);
	printf("(%s)\n\n", refstack_kind(&sr));
	stack_table_print(stdout, st, 2);
	printf("\nruns (each turns one more component real):\n");
	for (int r = 0; r < REF_RUN_COUNT; r++) {
		const struct refstack_job *j = &sr.job[r];
		if (r == REF_FU && !sr.ref_fu)
			continue;   /* (the base run itself: the paper's base has the units real) */
		printf("  %-10s %12llu cycles %12llu insns  CPI %.4f\n", refstack_run_name(r),
		       (unsigned long long)j->cycles, (unsigned long long)j->insns,
		       j->insns ? (double)j->cycles / (double)j->insns : 0.0);
	}
	status = 0;
	if (fl.json_path && write_json(fl.json_path, &sr, st, 2) < 0)
		status = EXIT_INPUT;
	/* the host's timing on stderr, last: the same run prints the same
	 * stdout, and an error stays the one line on stderr */
	if (status == 0 && !sr.o.quiet && cli_flush_stdout() == 0)
		fprintf(stderr, "ivx: %d simulations on %d thread%s, %.1f s\n", sr.simulations, sr.threads,
			sr.threads == 1 ? "" : "s", sr.seconds);
out:
	stackrun_free(&sr);
	return status;
}

const struct cli_command cmd_refstack_entry = {
	.name = "refstack",
	.summary = "simulation-based reference CPI stacks (perfect components)",
	.help =
	"usage: ivx refstack [OPTIONS] [PROG] [-- ARGS...]\n\n"
	"Compute the reference CPI stacks of PROG the way Eyerman et al. (ASPLOS\n"
	"2006) do: simulate it with perfect caches, TLBs and branch prediction\n"
	"(the base CPI; long-latency units stay real, so their stalls are part of\n"
	"base), then turn components real one at a time (L1 D-cache, branch\n"
	"predictor, then L1 I-cache, L2 I-cache, I-TLB, L2 D-cache, D-TLB; the\n"
	"inverse order takes L2 D-cache and D-TLB before the I-side). Each\n"
	"component is the CPI its turn adds. The simulations run in parallel;\n"
	"the program's own output is discarded.\n\n"
	"  --json FILE         also write the stacks and every run as JSON\n"
	"  --jobs N            simulations at once (default: host cores)\n"
	"  --quiet, -q         no progress line (shown on stderr when it is a terminal)\n"
	"                      and no host timing (on stderr: stdout is the same for\n"
	"                      the same run)\n"
	"  --ref-fu            ivx's extension: the base machine has ideal long-latency\n"
	"                      units too, and a step turning them real comes first, so\n"
	"                      the reference has a long-latency (fu) component\n"
	RUN_OPTIONS_HELP,
	.main = cmd_refstack_main,
};
