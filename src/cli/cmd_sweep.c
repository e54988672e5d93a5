/*
 * cmd_sweep.c — `ivx sweep`: run one ivx command over programs x machine
 * configurations x option values (a spec, sweep_spec.h) on this machine
 * with GNU parallel, or on a cluster as a Slurm job array, and tabulate
 * the results (sweep_merge.h). docs/sweep.md is the user's guide.
 *
 *   ivx sweep --list SPEC          the jobs, one line each
 *   ivx sweep --job I SPEC         run job I here: one JSON line
 *   ivx sweep [-j N] SPEC          every job, N at a time, under GNU parallel
 *   ivx sweep --slurm DIR SPEC     sbatch scripts for a job array + the merge
 *   ivx sweep --merge FILE...      the result lines as a table
 *
 * A job is ivx itself, started again (fork + execv of /proc/self/exe) with
 * the job's command line, writing its JSON to a temporary file that the
 * job then wraps into its result line. Nothing goes through a shell:
 * GNU parallel gets the command with --quote and only job numbers for {},
 * and the Slurm scripts single-quote every path they contain.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "json.h"
#include "outfile.h"
#include "runopts.h"
#include "sweep_merge.h"
#include "sweep_spec.h"

struct sweep_args {
	int list, merge;
	int have_job;
	uint64_t job;
	int jobs;                     /* -j N: 0 = the host's processors */
	int quiet;                    /* -q: no progress bar, no start and end lines */
	const char *results;          /* --results FILE */
	const char *slurm_dir;        /* --slurm DIR */
	struct sweep_merge_opts m;
	const char *format_opt;       /* the --csv, --md or --jsonl given, if any */
	char **files;                 /* SPEC, or the --merge inputs */
	int n_files;
};

/* ---- helpers ------------------------------------------------------------------- */

/* "s" after a count other than one ("1 job", "2 jobs") */
static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

static int self_exe(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	if (n <= 0 || (size_t)n >= len - 1) {
		cli_error("sweep: cannot find the ivx executable (/proc/self/exe): %s", strerror(errno));
		return -1;
	}
	buf[n] = '\0';
	return 0;
}

/* path made absolute against the current directory (it need not exist). */
static char *absolute(const char *path)
{
	if (path[0] == '/')
		return strdup(path);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		return NULL;
	size_t n = strlen(cwd) + strlen(path) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", cwd, path);
	return p;
}

/* In the program's cwd, the paths the sweep resolves against its own
 * directory (the program, --config) are shown absolute, as the job runs
 * them: av[k] made absolute, or NULL when it is shown as it is. */
static char *resolved_word(const struct sweep_value *prog, const char **av, int k)
{
	if (!prog->cwd || !(av[k] == prog->path || (k > 0 && !strcmp(av[k - 1], "--config"))))
		return NULL;
	return absolute(av[k]);
}

/* A word for a POSIX shell: single-quoted, a ' inside as '\''. */
static void shell_quote(FILE *f, const char *s)
{
	int plain = *s != '\0';
	for (const char *c = s; *c && plain; c++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%", *c) != NULL;
	if (plain) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap + 1);
	while (b) {
		n += fread(b + n, 1, cap - n, f);
		if (n < cap)
			break;
		char *nb = realloc(b, (cap *= 2) + 1);
		if (!nb) {
			free(b);
			b = NULL;
		} else
			b = nb;
	}
	fclose(f);
	if (b) {
		b[n] = '\0';
		*len = n;
	}
	return b;
}

/* The last "ivx: ..." line of a job's stderr (without the prefix), or its
 * last line, at most len-1 bytes. */
static void last_error(const char *text, char *out, size_t len)
{
	const char *best = NULL, *last = NULL;
	for (const char *l = text; l && *l;) {
		const char *e = strchr(l, '\n');
		if (e != l) {
			last = l;
			if (!strncmp(l, "ivx: ", 5) && strncmp(l, "ivx: stopped", 12))
				best = l + 5;
		}
		l = e ? e + 1 : NULL;
	}
	const char *s = best ? best : last ? last : "";
	size_t n = strcspn(s, "\n");
	if (n >= len)
		n = len - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

/* ---- what a sweep reads: never an output ---------------------------------------- */

/* The files a sweep's jobs read, for outfile_check: the spec, every
 * program, and the --config and --stdin files of every job (--stdin is
 * read in the program's cwd, --config in the sweep's directory, as
 * run_command gives them). A --dir is a directory: no output can be it. */
struct sweep_inputs {
	struct named_file *v;
	int n, cap;
	char **owned;                 /* the cwd-relative paths made here */
	int n_owned;
};

static int add_input(struct sweep_inputs *in, const char *what, const char *path, const char *cwd)
{
	if (in->n == in->cap) {
		int cap = in->cap ? 2 * in->cap : 16;
		struct named_file *v = realloc(in->v, (size_t)cap * sizeof *v);
		char **owned = realloc(in->owned, (size_t)cap * sizeof *owned);
		if (v)
			in->v = v;
		if (owned)
			in->owned = owned;
		if (!v || !owned)
			return -1;
		in->cap = cap;
	}
	if (cwd && path[0] != '/') {
		size_t n = strlen(cwd) + strlen(path) + 2;
		char *p = malloc(n);
		if (!p)
			return -1;
		snprintf(p, n, "%s/%s", cwd, path);
		in->owned[in->n_owned++] = p;
		path = p;
	}
	in->v[in->n++] = (struct named_file){ what, path };
	return 0;
}

static int add_option_inputs(struct sweep_inputs *in, char **opt, int n, const char *cwd)
{
	for (int k = 0; k + 1 < n; k++) {
		const char *o = opt[k], *v = opt[k + 1];
		int rc = !strcmp(o, "--config") ? add_input(in, "the --config file", v, NULL) :
			 !strcmp(o, "--stdin") ? add_input(in, "the --stdin file", v, cwd) : 0;
		if (rc < 0)
			return -1;
	}
	return 0;
}

static void inputs_free(struct sweep_inputs *in)
{
	for (int i = 0; i < in->n_owned; i++)
		free(in->owned[i]);
	free(in->owned);
	free(in->v);
}

/* Fill in with the files s reads. 0, or -1 when out of memory (said). */
static int inputs_list(const struct sweep_spec *s, struct sweep_inputs *in)
{
	int rc = add_input(in, "the spec", s->path, NULL);
	for (int d = 0; d < s->n_dims && rc == 0; d++)
		for (int v = 0; v < s->dims[d].n && rc == 0; v++) {
			const struct sweep_value *val = &s->dims[d].v[v];
			if (s->dims[d].kind == SWEEP_PROGRAM) {
				rc = add_input(in, "the program", val->path, NULL);
				/* every job of this program: its own, the sweep's and
				 * the other dimensions' options, in its cwd */
				if (rc == 0)
					rc = add_option_inputs(in, val->opt, val->n_opt, val->cwd);
				if (rc == 0)
					rc = add_option_inputs(in, s->common, s->n_common, val->cwd);
				for (int e = 0; e < s->n_dims && rc == 0; e++)
					for (int w = 0; e != d && w < s->dims[e].n && rc == 0; w++)
						rc = add_option_inputs(in, s->dims[e].v[w].opt, s->dims[e].v[w].n_opt, val->cwd);
			}
		}
	if (rc < 0)
		cli_error("sweep: out of memory");
	return rc;
}

/* 0 if no output is the spec or a file a job reads; else -1 after one
 * line on stderr. */
static int check_outputs(const struct sweep_spec *s, const struct named_file *out, int n_out)
{
	struct sweep_inputs in = { 0 };
	int rc = inputs_list(s, &in) < 0 ? -1 : outfile_check(out, n_out, in.v, in.n);
	inputs_free(&in);
	return rc;
}

/* ---- signals: stop the children, clean up, then die of the signal --------------- */

/* A sweep and a job each wait for a child (GNU parallel, the job's
 * command) that must not outlive them: a SIGINT, SIGTERM or SIGHUP is
 * passed on to it, and once it has ended the temporaries are removed and
 * this process dies of the signal as any ivx command does (status 128+N). */
static volatile sig_atomic_t caught_signal;
static volatile pid_t signal_child;      /* where a signal goes on: a pid, or -pgid */
static int signal_as_term;               /* send SIGTERM for any signal (GNU parallel) */

static void pass_signal_on(int sig)
{
	if (!caught_signal)
		caught_signal = sig;
	/* (GNU parallel only waits for its jobs on SIGHUP; SIGTERM stops them) */
	if (signal_child)
		kill(signal_child, signal_as_term && sig != SIGINT ? SIGTERM : sig);
}

static const int passed_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void catch_signals(pid_t child, int as_term)
{
	signal_child = child;
	signal_as_term = as_term;
	for (size_t i = 0; i < sizeof passed_signals / sizeof passed_signals[0]; i++)
		cli_catch_signal(passed_signals[i], pass_signal_on, 0);
}

/* After the cleanup: die of the signal caught, if any. */
static void die_of_caught_signal(void)
{
	int sig = caught_signal;
	if (!sig)
		return;
	signal(sig, SIG_DFL);
	raise(sig);
	_exit(128 + sig);   /* (not reached) */
}

/* ---- --list ---------------------------------------------------------------------- */

static int do_list(const struct sweep_spec *s)
{
	printf("#job");
	for (int d = 0; d < s->n_dims; d++)
		printf("\t%s", s->dims[d].name);
	printf("\tcommand line\n");
	int idx[s->n_dims];
	for (uint64_t i = 0; i < s->n_jobs; i++) {
		sweep_spec_point(s, i, idx);
		printf("%llu", (unsigned long long)i);
		for (int d = 0; d < s->n_dims; d++)
			printf("\t%s", s->dims[d].v[idx[d]].label);
		const char **av = sweep_spec_argv(s, i, NULL, NULL);
		if (!av) {
			cli_error("sweep: out of memory");
			return 2;
		}
		const struct sweep_value *prog = &s->dims[0].v[idx[0]];
		fputc('\t', stdout);
		if (prog->cwd) {
			fputs("(cd ", stdout);
			shell_quote(stdout, prog->cwd);
			fputs(" && ", stdout);
		}
		fputs("ivx", stdout);
		for (int k = 0; av[k]; k++) {
			fputc(' ', stdout);
			char *abs = resolved_word(prog, av, k);
			shell_quote(stdout, abs ? abs : av[k]);
			free(abs);
		}
		fputs(prog->cwd ? ")\n" : "\n", stdout);
		free(av);
	}
	return 0;
}

/* ---- --job I: one job, one line -------------------------------------------------- */

/* A temporary in $TMPDIR, by absolute path: the job's command may run in
 * the program's cwd, and a relative TMPDIR would name another place. */
static int tmp_file(char *path, size_t len, const char *what)
{
	const char *dir = getenv("TMPDIR");
	dir = dir && *dir ? dir : "/tmp";
	char *abs = absolute(dir);
	snprintf(path, len, "%s/ivx-sweep-%s-XXXXXX", abs ? abs : dir, what);
	free(abs);
	int fd = mkstemp(path);
	if (fd < 0) {
		cli_error("sweep: cannot create a temporary file in %s: %s", dir, strerror(errno));
		return -1;
	}
	return fd;
}

/* Run the job's command (av[prog_at] is the program); its exit status
 * (128+N for signal N), or -1. */
static int run_command(const char *exe, const char **av, int argc, const char *cwd, int prog_at,
		       const char *prog_abs, int err_fd)
{
	const char *argv[argc + 2];
	argv[0] = "ivx";
	for (int k = 0; k < argc; k++)
		argv[k + 1] = av[k];
	argv[argc + 1] = NULL;
	/* the program and --config FILE are relative to the sweep's directory
	 * even when the job runs in the program's cwd */
	char *abs_config[argc];
	int n_abs = 0;
	if (cwd) {
		for (int k = 2; k <= argc; k++)
			if (!strcmp(argv[k - 1], "--config") && argv[k][0] != '/') {
				if (!(abs_config[n_abs] = absolute(argv[k]))) {
					while (n_abs)
						free(abs_config[--n_abs]);
					return -1;
				}
				argv[k] = abs_config[n_abs++];
			}
		argv[prog_at + 1] = prog_abs;
	}
	pid_t pid = caught_signal ? -1 : fork();
	if (pid < 0) {
		if (!caught_signal)
			cli_error("sweep: fork: %s", strerror(errno));
		while (n_abs)
			free(abs_config[--n_abs]);
		return -1;
	}
	if (pid == 0) {
		for (size_t i = 0; i < sizeof passed_signals / sizeof passed_signals[0]; i++)
			signal(passed_signals[i], SIG_DFL);   /* (unless ignored: exec keeps that) */
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
		}
		dup2(err_fd, 2);
		if (cwd && chdir(cwd) < 0) {
			dprintf(2, "ivx: sweep: cannot run in %s: %s\n", cwd, strerror(errno));
			_exit(2);
		}
		execv(exe, (char *const *)argv);
		dprintf(2, "ivx: sweep: cannot start %s: %s\n", exe, strerror(errno));
		_exit(2);
	}
	signal_child = pid;
	if (caught_signal)   /* (arrived before signal_child was set) */
		kill(pid, caught_signal);
	for (int k = 0; k < n_abs; k++)
		free(abs_config[k]);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			cli_error("sweep: waitpid: %s", strerror(errno));
			return -1;
		}
	signal_child = 0;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int do_job(const struct sweep_spec *s, uint64_t i, const char *results)
{
	if (i >= s->n_jobs) {
		cli_error("sweep: --job %llu: %s has %llu job%s (0 to %llu)", (unsigned long long)i, s->path,
			  (unsigned long long)s->n_jobs, plural(s->n_jobs), (unsigned long long)s->n_jobs - 1);
		return EXIT_USAGE;
	}
	char exe[PATH_MAX], json_path[PATH_MAX], err_path[PATH_MAX];
	if (self_exe(exe, sizeof exe) < 0)
		return EXIT_USAGE;
	int out_fd = 1;
	if (results && strcmp(results, "-") && (out_fd = open(results, O_WRONLY | O_CREAT | O_APPEND, 0666)) < 0) {
		cli_error("sweep: --results %s: %s", results, strerror(errno));
		return EXIT_USAGE;
	}
	/* a signal (Ctrl-C, parallel stopping its jobs) still removes the
	 * temporaries: the command is stopped and waited for first */
	catch_signals(0, 0);
	int jfd = tmp_file(json_path, sizeof json_path, "json");
	if (jfd < 0)
		return EXIT_USAGE;
	close(jfd);
	int efd = tmp_file(err_path, sizeof err_path, "err");
	if (efd < 0) {
		unlink(json_path);
		return EXIT_USAGE;
	}
	int argc;
	const char **av = sweep_spec_argv(s, i, json_path, &argc);
	const struct sweep_value *prog = sweep_spec_program(s, i);
	char *prog_abs = prog->cwd ? absolute(prog->path) : NULL;
	int status = -1;
	if (av && (!prog->cwd || prog_abs))
		status = run_command(exe, av, argc, prog->cwd, argc - 1 - (prog->n_arg ? prog->n_arg + 1 : 0),
				     prog_abs, efd);
	free(prog_abs);
	close(efd);

	size_t jlen = 0, elen = 0;
	char *jtext = status >= 0 ? slurp(json_path, &jlen) : NULL;
	char *etext = slurp(err_path, &elen);
	unlink(json_path);
	unlink(err_path);
	if (caught_signal) {   /* stopped: no line for a job that did not end */
		free(jtext);
		free(etext);
		free(av);
		die_of_caught_signal();
	}
	char msg[128];
	struct json *doc = jtext && jlen ? json_parse(jtext, jlen, msg, sizeof msg) : NULL;
	const struct json_val *res = json_root(doc);
	int ok = status == 0 && json_type(res) == JSON_OBJECT;

	/* the line, built in memory and written with one write(): jobs that
	 * share a results file (O_APPEND) never interleave their lines */
	char *line = NULL;
	size_t line_len = 0;
	FILE *f = open_memstream(&line, &line_len);
	int rc = f ? 0 : EXIT_USAGE;
	if (f) {
		int idx[s->n_dims];
		sweep_spec_point(s, i, idx);
		fprintf(f, "{\"job\":%llu,\"jobs\":%llu,\"spec\":\"%016llx\",\"point\":{", (unsigned long long)i,
			(unsigned long long)s->n_jobs, (unsigned long long)s->text_hash);
		for (int d = 0; d < s->n_dims; d++) {
			fputs(d ? "," : "", f);
			outfile_json_string(f, s->dims[d].name);
			fputc(':', f);
			outfile_json_string(f, s->dims[d].v[idx[d]].label);
		}
		fputs("},\"argv\":[", f);
		const char **list = sweep_spec_argv(s, i, NULL, NULL);   /* without the temporary --json */
		for (int k = 0; list && list[k]; k++) {
			fputs(k ? "," : "", f);
			char *abs = resolved_word(prog, list, k);   /* (re-runnable from cwd) */
			outfile_json_string(f, abs ? abs : list[k]);
			free(abs);
		}
		free(list);
		fputc(']', f);
		if (prog->cwd) {
			fputs(",\"cwd\":", f);
			outfile_json_string(f, prog->cwd);
		}
		fprintf(f, ",\"status\":\"%s\",\"exit\":%d", ok ? "ok" : "failed", status);
		const struct json_val *cyc = json_get(res, "cycles"), *ins = json_get(res, "instructions");
		if (json_raw(cyc) && json_raw(ins)) {
			fprintf(f, ",\"instructions\":%s,\"cycles\":%s", json_raw(ins), json_raw(cyc));
			if (json_number(ins) > 0)
				fprintf(f, ",\"cpi\":%.6f", json_number(cyc) / json_number(ins));
		}
		if (!ok) {
			char e[300];
			const struct json_val *end = json_get(res, "end"), *code = json_get(res, "exit_code");
			if (status > 128 && status < 128 + NSIG)
				snprintf(e, sizeof e, "killed by signal %d (%s)", status - 128, strsignal(status - 128));
			else if (json_string(end) && !strcmp(json_string(end), "exit") && json_raw(code))
				/* (ivx's last lines are then its statistics, not an error) */
				snprintf(e, sizeof e, "the program exited with status %s", json_raw(code));
			else
				last_error(etext ? etext : "", e, sizeof e);
			if (!*e)
				snprintf(e, sizeof e, status < 0 ? "the job could not be started" :
						      "exit status %d and no JSON", status);
			fputs(",\"error\":", f);
			outfile_json_string(f, e);
		}
		if (json_type(res) == JSON_OBJECT) {
			/* the command's JSON as it wrote it, less its newline */
			while (jlen && (jtext[jlen - 1] == '\n' || jtext[jlen - 1] == ' '))
				jtext[--jlen] = '\0';
			fprintf(f, ",\"result\":%s", jtext);
		}
		fputs("}\n", f);
		if (fclose(f) != 0)
			rc = EXIT_USAGE;
	}
	if (rc == 0 && write_all(out_fd, line, line_len) < 0) {
		cli_error("sweep: writing the result line: %s", strerror(errno));
		rc = EXIT_USAGE;
	}
	if (out_fd != 1)
		close(out_fd);
	free(line);
	free(av);
	json_free(doc);
	free(jtext);
	free(etext);
	die_of_caught_signal();
	if (rc)
		return rc;
	return ok ? 0 : 1;
}

/* ---- the whole sweep under GNU parallel ------------------------------------------ */

/* Whether `parallel` on the PATH is GNU parallel (moreutils has another). */
static int have_gnu_parallel(void)
{
	int p[2];
	if (pipe(p) < 0)
		return 0;
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return 0;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(p[1], 1);
		dup2(null, 2);
		close(p[0]);
		execlp("parallel", "parallel", "--version", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	char buf[256];
	ssize_t n = read(p[0], buf, sizeof buf - 1);
	char drain[4096];
	while (read(p[0], drain, sizeof drain) > 0)
		;
	close(p[0]);
	int st;
	waitpid(pid, &st, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strstr(buf, "GNU parallel") != NULL;
}

static int do_parallel(const struct sweep_spec *s, const char *spec_path, int jobs, const char *results, int quiet)
{
	if (!have_gnu_parallel()) {
		cli_error("sweep: GNU parallel is not installed (Debian: apt-get install parallel); "
			  "`ivx sweep --list` shows the jobs, `ivx sweep --job I` runs one");
		return EXIT_USAGE;
	}
	char exe[PATH_MAX];
	if (self_exe(exe, sizeof exe) < 0)
		return EXIT_USAGE;
	char *spec_abs = absolute(spec_path);
	if (!spec_abs)
		return EXIT_USAGE;
	if (jobs <= 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = n > 0 ? (int)n : 1;
	}
	struct outfile *o = NULL;
	if (results && !(o = outfile_open_cli(results))) {
		free(spec_abs);
		return EXIT_USAGE;
	}
	FILE *out = o ? outfile_stream(o) : stdout;
	cli_flush_stdout();
	char jn[16];
	snprintf(jn, sizeof jn, "%d", jobs);
	/* --quote: parallel quotes the command's words itself, so paths reach
	 * ivx as they are; {} is only ever a job number. --keep-order: the
	 * lines come out in job order, whatever order the jobs end in. */
	const char *argv[] = { "parallel", "--will-cite", "--quote", "--keep-order", "--jobs", jn,
			       isatty(2) && !quiet ? "--bar" : "--silent", exe, "sweep", "--job", "{}", spec_abs, NULL };
	if (!quiet)
		fprintf(stderr, "ivx: sweep: %llu job%s of %s, %d at a time (GNU parallel)\n",
			(unsigned long long)s->n_jobs, plural(s->n_jobs), spec_path, jobs);
	/* parallel reads the job numbers from `in` and writes the lines to
	 * `lines`, which this process copies to the results, checking every
	 * write: a full disk stops the sweep instead of losing its lines */
	int in[2], lines[2] = { -1, -1 };
	if (pipe(in) < 0 || pipe(lines) < 0) {
		cli_error("sweep: pipe: %s", strerror(errno));
		outfile_discard(o);
		free(spec_abs);
		return EXIT_USAGE;
	}
	/* parallel leads a process group of its own: a signal to this process
	 * (Ctrl-C, kill, a closed terminal) is passed on to it, which stops
	 * its jobs, and is not also sent to it by the terminal */
	catch_signals(0, 1);
	pid_t self = getpid();
	pid_t pid = caught_signal ? -1 : fork();
	if (pid == 0) {
		setpgid(0, 0);
		/* and if this process is killed outright, parallel is stopped too */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != self)
			_exit(127);
		dup2(in[0], 0);
		dup2(lines[1], 1);
		close(in[0]);
		close(in[1]);
		close(lines[0]);
		close(lines[1]);
		execvp("parallel", (char *const *)argv);
		dprintf(2, "ivx: sweep: cannot start parallel: %s\n", strerror(errno));
		_exit(127);
	}
	close(in[0]);
	close(lines[1]);
	int rc = 0;
	if (pid < 0) {
		if (!caught_signal)
			cli_error("sweep: fork: %s", strerror(errno));
		rc = EXIT_USAGE;
	} else {
		setpgid(pid, pid);   /* (also here: a signal may come before the child has run) */
		signal_child = -pid;
		if (caught_signal)
			pass_signal_on(caught_signal);
	}
	/* parallel reads the job numbers while it runs them: a child writes
	 * them all (a closed pipe, parallel gone, ends the list early) while
	 * this process copies the lines */
	pid_t feeder = pid > 0 ? fork() : -1;
	if (feeder == 0) {
		for (size_t i = 0; i < sizeof passed_signals / sizeof passed_signals[0]; i++)
			signal(passed_signals[i], SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		close(lines[0]);
		for (uint64_t i = 0; i < s->n_jobs; i++) {
			char b[32];
			int n = snprintf(b, sizeof b, "%llu\n", (unsigned long long)i);
			if (write_all(in[1], b, (size_t)n) < 0)
				_exit(1);
		}
		_exit(0);
	}
	close(in[1]);
	if (pid > 0 && feeder < 0) {
		cli_error("sweep: fork: %s", strerror(errno));
		kill(-pid, SIGTERM);
		rc = EXIT_USAGE;
	}
	void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
	int write_errno = 0;
	char buf[1 << 16];
	for (;;) {
		ssize_t n = pid > 0 ? read(lines[0], buf, sizeof buf) : 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (write_errno)
			continue;   /* (parallel is being stopped: let it write) */
		errno = 0;
		if (fwrite(buf, 1, (size_t)n, out) != (size_t)n || (o ? fflush(out) : cli_flush_stdout()) != 0) {
			write_errno = errno ? errno : EIO;
			kill(-pid, SIGTERM);
		}
	}
	close(lines[0]);
	signal(SIGPIPE, old_pipe);
	int st = 0;
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (feeder > 0) {
		kill(feeder, SIGKILL);   /* (it may be stuck on a pipe a stray job holds) */
		while (waitpid(feeder, NULL, 0) < 0 && errno == EINTR)
			;
	}
	signal_child = 0;
	free(spec_abs);
	if (caught_signal) {
		outfile_discard(o);
		die_of_caught_signal();
	}
	if (rc) {
		outfile_discard(o);
		return rc;
	}
	if (write_errno) {
		outfile_discard(o);
		struct stat st_res;
		if (o)
			cli_error("sweep: cannot write %s: %s; the sweep was stopped%s", results, strerror(write_errno),
				  stat(results, &st_res) == 0 && S_ISREG(st_res.st_mode) ? " and the file is as it was" : "");
		/* (stdout: cli_close_stdout says why, once) */
		return EXIT_OUTPUT;
	}
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : 255;
	if (code > 101) {   /* parallel's own failure, not the jobs' */
		cli_error("sweep: GNU parallel stopped (status %d)%s", code, results ? "; the results file is as it was" : "");
		outfile_discard(o);
		return EXIT_USAGE;
	}
	if (o && outfile_commit_cli(o) < 0)
		return EXIT_OUTPUT;
	if (!o && cli_flush_stdout() < 0)
		return EXIT_OUTPUT;
	/* each job read the spec again: an edit while they ran mixes versions */
	char e[256];
	struct sweep_spec *now = sweep_spec_load(spec_path, e, sizeof e);
	uint64_t now_hash = now ? now->text_hash : 0;
	sweep_spec_free(now);
	if (now_hash != s->text_hash) {
		cli_error("sweep: %s changed (or went away) while the sweep ran: its result lines may come from "
			  "two versions of it (`ivx sweep --merge` tells them apart); run the sweep again", spec_path);
		return 1;
	}
	if (code) {
		cli_error("sweep: %s%d of %llu job%s failed; their result lines say why (\"status\":\"failed\", \"error\")",
			  code == 101 ? "more than " : "", code == 101 ? 100 : code, (unsigned long long)s->n_jobs,
			  plural(s->n_jobs));
		return 1;
	}
	if (!quiet)
		fprintf(stderr, "ivx: sweep: %llu job%s done%s%s\n", (unsigned long long)s->n_jobs, plural(s->n_jobs),
			results ? ", results in " : "", results ? results : "");
	return 0;
}

/* ---- --slurm DIR ----------------------------------------------------------------- */

static FILE *script_open(const char *dir, const char *name, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		cli_error("sweep: --slurm: %s: %s", path, strerror(errno));
	return f;
}

static int script_close(FILE *f, const char *path)
{
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		cli_error("sweep: --slurm: writing %s failed", path);
		return -1;
	}
	if (chmod(path, 0755) < 0) {
		cli_error("sweep: --slurm: chmod %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The files --slurm DIR writes, now or when its scripts run: none may be
 * the spec or a file a job reads. 0, or -1 after one line on stderr. */
static int check_slurm_outputs(const struct sweep_spec *s, const char *dir)
{
	static const char *const names[] = { "sweep.sbatch", "merge.sbatch", "submit.sh",
					     "results.jsonl", "table.txt", "table.csv" };
	enum { N = sizeof names / sizeof names[0] };
	char paths[N][PATH_MAX + 32];
	struct named_file out[N];
	for (int i = 0; i < N; i++) {
		snprintf(paths[i], sizeof paths[i], "%s/%s", dir, names[i]);
		out[i] = (struct named_file){ "--slurm", paths[i] };
	}
	if (check_outputs(s, out, N) < 0)
		return -1;
	/* submit.sh empties DIR/results and the tasks write there and in
	 * DIR/logs: nothing a job reads may be in them */
	struct sweep_inputs in = { 0 };
	int rc = inputs_list(s, &in);
	for (int i = 0; i < 2 && rc == 0; i++) {
		char sub[PATH_MAX + 32];
		snprintf(sub, sizeof sub, "%s/%s", dir, i ? "logs" : "results");
		for (int k = 0; k < in.n && rc == 0; k++)
			if (outfile_within(in.v[k].path, sub)) {
				cli_error("sweep: --slurm %s: %s, %s, is in %s, where the scripts write", dir,
					  in.v[k].option, in.v[k].path, sub);
				rc = -1;
			}
	}
	inputs_free(&in);
	return rc;
}

static int do_slurm(const struct sweep_spec *s, const char *spec_path, const char *dir_arg)
{
	char exe[PATH_MAX], cwd[PATH_MAX], path[PATH_MAX + 64];
	if (self_exe(exe, sizeof exe) < 0)
		return EXIT_USAGE;
	if (!getcwd(cwd, sizeof cwd)) {
		cli_error("sweep: getcwd: %s", strerror(errno));
		return EXIT_USAGE;
	}
	if (mkdir(dir_arg, 0777) < 0 && errno != EEXIST) {
		cli_error("sweep: --slurm %s: %s", dir_arg, strerror(errno));
		return EXIT_USAGE;
	}
	char *dir = absolute(dir_arg), *spec = absolute(spec_path);
	int rc = EXIT_USAGE;
	if (!dir || !spec || check_slurm_outputs(s, dir) < 0)
		goto out;
	FILE *f = script_open(dir, "sweep.sbatch", path, sizeof path);
	if (!f)
		goto out;
	fprintf(f, "#!/bin/sh\n"
		   "# Written by `ivx sweep --slurm`: one array task per job of the sweep\n"
		   "# %s (%llu job%s; `ivx sweep --list` shows them). Task I runs job I and\n"
		   "# writes its result line to results/task-I.jsonl beside this script.\n"
		   "# Submit with submit.sh, which also queues the merge.\n",
		spec, (unsigned long long)s->n_jobs, plural(s->n_jobs));
	fprintf(f, "#SBATCH --job-name=ivx-sweep\n#SBATCH --array=0-%llu\n#SBATCH --ntasks=1\n"
		   "#SBATCH --cpus-per-task=1\n", (unsigned long long)s->n_jobs - 1);
	fputs("set -u\ncd ", f);
	shell_quote(f, cwd);
	/* the task makes its results folder itself, so that a task run by hand
	 * (SLURM_ARRAY_TASK_ID=I sh sweep.sbatch) works without submit.sh;
	 * mkdir -p is safe with the other tasks doing the same at once */
	fputs(" || exit 1\ni=$SLURM_ARRAY_TASK_ID\nmkdir -p ", f);
	shell_quote(f, dir);
	fputs("/results || exit 1\nout=", f);
	shell_quote(f, dir);
	fputs("/results/task-$i.jsonl\nrm -f \"$out\"\nexec ", f);
	shell_quote(f, exe);
	fputs(" sweep --job \"$i\" --results \"$out\" ", f);
	shell_quote(f, spec);
	fputc('\n', f);
	if (script_close(f, path) < 0)
		goto out;

	if (!(f = script_open(dir, "merge.sbatch", path, sizeof path)))
		goto out;
	fprintf(f, "#!/bin/sh\n"
		   "# Written by `ivx sweep --slurm`: after the array, the result lines of its\n"
		   "# tasks in job order (results.jsonl), as a table (table.txt) and as CSV.\n"
		   "#SBATCH --job-name=ivx-sweep-merge\n#SBATCH --ntasks=1\n"
		   "set -u\ncd ");
	shell_quote(f, cwd);
	fputs(" || exit 1\nd=", f);
	shell_quote(f, dir);
	fputs("\nivx=", f);
	shell_quote(f, exe);
	fputs("\n\"$ivx\" sweep --merge --jsonl \"$d\"/results/task-*.jsonl >\"$d/results.jsonl\"\n"
	      "\"$ivx\" sweep --merge --csv \"$d/results.jsonl\" >\"$d/table.csv\"\n"
	      "\"$ivx\" sweep --merge \"$d/results.jsonl\" >\"$d/table.txt\"\n", f);
	if (script_close(f, path) < 0)
		goto out;

	if (!(f = script_open(dir, "submit.sh", path, sizeof path)))
		goto out;
	fputs("#!/bin/sh\n"
	      "# Written by `ivx sweep --slurm`: submit the job array, then the merge, which\n"
	      "# runs once every task has ended (afterany: a failed job still has its line).\n"
	      "# Arguments go to both sbatch calls (--partition=P, --wait, ...).\n"
	      "set -eu\nd=", f);
	shell_quote(f, dir);
	fprintf(f, "\nmkdir -p \"$d/results\" \"$d/logs\"\n"
		   "rm -f \"$d\"/results/task-*.jsonl\n"
		   "array=$(sbatch --parsable --output=\"$d/logs/task-%%a.out\" \"$@\" \"$d/sweep.sbatch\")\n"
		   "array=${array%%%%;*}\n"
		   "echo \"ivx sweep: array job $array, %llu tasks\"\n"
		   "merge=$(sbatch --parsable --dependency=\"afterany:$array\" --output=\"$d/logs/merge.out\" \"$@\" "
		   "\"$d/merge.sbatch\")\n"
		   "echo \"ivx sweep: merge job ${merge%%%%;*}: $d/table.txt, $d/table.csv, $d/results.jsonl\"\n",
		(unsigned long long)s->n_jobs);
	if (script_close(f, path) < 0)
		goto out;
	printf("%s/sweep.sbatch: %llu array tasks; %s/merge.sbatch: the merge\nsubmit both: %s/submit.sh\n", dir,
	       (unsigned long long)s->n_jobs, dir, dir);
	if (s->n_jobs > 1001)   /* (Slurm refuses the array at submission, not here) */
		fprintf(stderr, "ivx: sweep: note: %llu array tasks is more than Slurm's default MaxArraySize allows "
			"(1001); `scontrol show config | grep MaxArraySize` says the site's\n",
			(unsigned long long)s->n_jobs);
	rc = 0;
out:
	free(dir);
	free(spec);
	return rc;
}

/* ---- the command ----------------------------------------------------------------- */

/* --csv, --md or --jsonl: one of them (the same one twice is harmless). */
static int set_format(struct sweep_args *a, const char *opt, enum sweep_format f)
{
	if (a->format_opt && strcmp(a->format_opt, opt)) {
		cli_error("sweep: %s and %s cannot be combined: give one output format", a->format_opt, opt);
		return -1;
	}
	a->format_opt = opt;
	a->m.format = f;
	return 0;
}

static int parse_args(struct sweep_args *a, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		/* -jN, attached as make and parallel take it */
		const char *attached = !strncmp(o, "-j", 2) && o[2] ? o + 2 : NULL;
		int takes = !strcmp(o, "--job") || !strcmp(o, "-j") || !strcmp(o, "--jobs") || !strcmp(o, "--results") ||
			    !strcmp(o, "--slurm") || !strcmp(o, "--select") || !strcmp(o, "--value");
		if (takes && !val) {
			cli_error("sweep: %s needs a value", o);
			return -1;
		}
		if (!strcmp(o, "--list"))
			a->list = 1;
		else if (run_options_is_quiet(o))
			a->quiet = 1;
		else if (!strcmp(o, "--merge"))
			a->merge = 1;
		else if (!strcmp(o, "--csv") || !strcmp(o, "--md") || !strcmp(o, "--jsonl")) {
			enum sweep_format f = !strcmp(o, "--csv") ? SWEEP_CSV : !strcmp(o, "--md") ? SWEEP_MD : SWEEP_JSONL;
			if (set_format(a, o, f) < 0)
				return -1;
		} else if (!strcmp(o, "--job")) {
			if (cli_parse_u64(val, &a->job) < 0) {
				cli_error("sweep: --job takes a job number (got '%s')", val);
				return -1;
			}
			a->have_job = 1;
			i++;
		} else if (attached || !strcmp(o, "-j") || !strcmp(o, "--jobs")) {
			const char *num = attached ? attached : val;
			uint64_t n;
			if (cli_parse_u64(num, &n) < 0 || n < 1 || n > 4096) {
				cli_error("sweep: %s takes a number of jobs at once, 1 to 4096 (got '%s')",
					  attached ? "-j" : o, num);
				return -1;
			}
			a->jobs = (int)n;
			i += !attached;
		} else if (!strcmp(o, "--results")) {
			a->results = argv[++i];
		} else if (!strcmp(o, "--slurm")) {
			a->slurm_dir = argv[++i];
		} else if (!strcmp(o, "--select")) {
			if (a->m.n_select == SWEEP_MAX_SELECT) {
				cli_error("sweep: at most %d --select", SWEEP_MAX_SELECT);
				return -1;
			}
			a->m.select[a->m.n_select++] = argv[++i];
		} else if (!strcmp(o, "--value")) {
			a->m.value = argv[++i];
		} else if (o[0] == '-' && o[1]) {
			cli_error("sweep: unknown option '%s' (see ivx sweep --help)", o);
			return -1;
		} else
			a->files[a->n_files++] = argv[i];
	}
	int modes = a->list + a->merge + a->have_job + (a->slurm_dir != NULL);
	if (modes > 1) {
		cli_error("sweep: --list, --job, --slurm and --merge are separate modes: give one");
		return -1;
	}
	if (!a->merge && (a->m.format != SWEEP_TEXT || a->m.n_select || a->m.value)) {
		cli_error("sweep: --csv, --md, --jsonl, --select and --value go with --merge");
		return -1;
	}
	if ((a->list || a->slurm_dir) && a->results) {
		cli_error("sweep: --results goes with running jobs (a sweep or --job); %s",
			  a->list ? "--list prints on stdout" : "--slurm's tasks write DIR/results");
		return -1;
	}
	if (a->merge && (a->results || a->jobs)) {
		cli_error("sweep: --merge prints on stdout; -j and --results are for running a sweep");
		return -1;
	}
	if (a->merge && !a->n_files) {
		cli_error("sweep: --merge needs result files (or - for stdin)");
		return -1;
	}
	if (!a->merge && a->n_files != 1) {
		cli_error("sweep: %s (usage: ivx sweep [OPTIONS] SPEC)", a->n_files ? "one spec at a time" : "no spec file");
		return -1;
	}
	return 0;
}

static int cmd_sweep_main(int argc, char **argv)
{
	struct sweep_args a = { 0 };
	a.files = calloc((size_t)argc + 1, sizeof *a.files);
	if (!a.files)
		return EXIT_USAGE;
	int rc = EXIT_USAGE;
	if (parse_args(&a, argc, argv) < 0)
		goto out;
	if (a.merge) {
		rc = sweep_merge(&a.m, a.files, a.n_files, stdout);
		goto out;
	}
	char err[1024];
	struct sweep_spec *s = sweep_spec_load(a.files[0], err, sizeof err);
	if (!s) {
		cli_error("%s", err);
		goto out;
	}
	const struct named_file results = { "--results", a.results };
	if (a.results && check_outputs(s, &results, 1) < 0)
		rc = EXIT_USAGE;
	else if (a.list)
		rc = do_list(s);
	else if (a.have_job)
		rc = do_job(s, a.job, a.results);
	else if (a.slurm_dir)
		rc = do_slurm(s, a.files[0], a.slurm_dir);
	else
		rc = do_parallel(s, a.files[0], a.jobs, a.results, a.quiet);
	sweep_spec_free(s);
out:
	free(a.files);
	return rc;
}

const struct cli_command cmd_sweep_entry = {
	.name = "sweep",
	.summary = "run a command over programs x configs x values (GNU parallel, Slurm)",
	.help =
	"usage: ivx sweep [-j N] [--results FILE] SPEC     run every job (GNU parallel)\n"
	"       ivx sweep --list SPEC                      the jobs and their command lines\n"
	"       ivx sweep --job I [--results FILE] SPEC    run job I here\n"
	"       ivx sweep --slurm DIR SPEC                 write a Slurm job array for the sweep\n"
	"       ivx sweep --merge [--csv|--md|--jsonl] [--select K=V]... [--value V] FILE...\n\n"
	"SPEC lists programs, machine configurations, option axes, -o value lists\n"
	"and commands (run, cpistack, refstack); the sweep is one job per point of\n"
	"their product. Each job writes one JSON line: the point, the command line,\n"
	"cycles, instructions, CPI and the command's whole JSON (every method's CPI\n"
	"stack for cpistack). docs/sweep.md describes the spec and the lines.\n\n"
	"  -j, --jobs N        jobs at once (default: the host's processors); -jN too\n"
	"  -q, --quiet         no progress bar and no start and end lines on stderr\n"
	"                      (failures are still said; the jobs are always --quiet)\n"
	"  --results FILE      where the lines go (default stdout); with --job the\n"
	"                      line is appended\n"
	"  --slurm DIR         write DIR/sweep.sbatch (#SBATCH --array=0-(N-1), task I\n"
	"                      runs `ivx sweep --job I SPEC`), DIR/merge.sbatch and\n"
	"                      DIR/submit.sh, which submits both\n"
	"  --merge FILE...     result lines (any order, - = stdin) as a table in job\n"
	"                      order: text (default), --csv (every number), --md, or\n"
	"                      --jsonl (the lines), one of them; exit 1 if jobs are\n"
	"                      missing (the table printed anyway) or there is no line\n"
	"  --select KEY=VALUE  only the rows whose point has this value (repeatable);\n"
	"                      a KEY or VALUE no line has is an error\n"
	"  --value PATH        what the method columns show: a number in each method's\n"
	"                      JSON (default max_error, in %; e.g. cpi, components.l2d);\n"
	"                      one no method has is an error\n\n"
	"Exit status: 0; 1 when jobs failed (their lines say why) or --merge finds\n"
	"jobs missing; 2 on a bad spec (file:line: message) or bad options.\n",
	.main = cmd_sweep_main,
};
