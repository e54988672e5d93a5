/* runopts.c — parsing the shared program-running options (see runopts.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "core/config.h"
#include "core/core.h"
#include "guest/program.h"
#include "guest/symtab.h"
#include "guest/guest.h"
#include "outfile.h"
#include "runopts.h"

static int need_value(int argc, char **argv, int i)
{
	if (i + 1 >= argc) {
		cli_error("option %s needs a value", argv[i]);
		return -1;
	}
	return 0;
}

static int number_opt(int argc, char **argv, int i, uint64_t *out)
{
	if (need_value(argc, argv, i) < 0)
		return -1;
	if (cli_parse_u64(argv[i + 1], out) < 0) {
		cli_error("option %s: '%s' is not a number", argv[i], argv[i + 1]);
		return -1;
	}
	return 0;
}

/* --dir HOST[:GUEST][:ro|rw]: checked here, opened by the guest. */
static int dir_opt(struct run_options *o, const char *spec)
{
	if (o->n_dirs == RUNOPTS_MAX_DIRS) {
		cli_error("too many --dir options (at most %d)", RUNOPTS_MAX_DIRS);
		return -1;
	}
	size_t n = strlen(spec) + 1;
	char *buf = malloc(n);
	if (!buf) {
		cli_error("out of memory");
		return -1;
	}
	o->dir_bufs[o->n_dirs] = buf;
	struct sandbox_grant *g = &o->dirs[o->n_dirs++];
	struct ivx_err err = { 0 };
	if (sandbox_parse_grant(spec, buf, n, g, &err) < 0) {
		cli_error("%s", err.msg);
		return -1;
	}
	struct stat st;
	if (stat(g->host, &st) < 0) {
		cli_error("--dir %s: %s", g->host, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		cli_error("--dir %s: not a directory", g->host);
		return -1;
	}
	return 0;
}

int run_options_is_quiet(const char *arg)
{
	return !strcmp(arg, "-q") || !strcmp(arg, "--quiet");
}

int run_options_parse(struct run_options *o, int argc, char **argv, runopts_extra_fn extra, void *ctx)
{
	memset(o, 0, sizeof *o);
	o->seed = 1;
	int i = 1, dashdash = argc;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			dashdash = i;
			break;
		}
		if (a[0] != '-' || a[1] == 0) {
			if (o->prog_path) {
				cli_error("unexpected argument '%s' (guest arguments go after --)", a);
				goto fail;
			}
			o->prog_path = a;
			continue;
		}
		int rc = 0;
		if (!strcmp(a, "--stdin")) {
			if ((rc = need_value(argc, argv, i)) == 0)
				o->stdin_path = argv[++i];
		} else if (!strcmp(a, "--dir")) {
			if ((rc = need_value(argc, argv, i)) == 0)
				rc = dir_opt(o, argv[++i]);
		} else if (!strcmp(a, "--seed")) {
			if ((rc = number_opt(argc, argv, i, &o->seed)) == 0) i++;
		} else if (!strcmp(a, "--max-insns")) {
			if ((rc = number_opt(argc, argv, i, &o->max_insns)) == 0) i++;
		} else if (!strcmp(a, "--max-cycles")) {
			if ((rc = number_opt(argc, argv, i, &o->max_cycles)) == 0) i++;
		} else if (!strcmp(a, "--fastforward")) {
			if ((rc = number_opt(argc, argv, i, &o->fastforward)) == 0) i++;
		} else if (run_options_is_quiet(a)) {
			o->quiet = 1;
		} else if (!strcmp(a, "--start-at")) {
			if ((rc = need_value(argc, argv, i)) == 0)
				o->start_at = argv[++i];
		} else if (!strcmp(a, "--config")) {
			/* (one machine description: a second would have replaced the
			 * first unread; -o changes single keys) */
			if (o->config_path) {
				cli_error("--config given twice (%s, %s): one file describes the machine; -o "
					  "SECTION.KEY=VAL changes single keys", o->config_path, i + 1 < argc ? argv[i + 1] : "");
				goto fail;
			}
			if ((rc = need_value(argc, argv, i)) == 0)
				o->config_path = argv[++i];
		} else if (!strcmp(a, "-o")) {
			if ((rc = need_value(argc, argv, i)) == 0) {
				if (o->n_overrides == RUNOPTS_MAX_OVERRIDES) {
					cli_error("too many -o overrides (at most %d)", RUNOPTS_MAX_OVERRIDES);
					goto fail;
				}
				o->overrides[o->n_overrides++] = argv[++i];
			}
		} else {
			int used = extra ? extra(ctx, argc, argv, i) : 0;
			if (used < 0)
				goto fail;
			if (used == 0) {
				cli_error("%s: unknown option '%s' (see 'ivx %s --help')", argv[0], a, argv[0]);
				goto fail;
			}
			i += used - 1;
		}
		if (rc < 0)
			goto fail;
	}
	int n_args = dashdash < argc ? argc - dashdash - 1 : 0;
	o->guest_argc = 1 + n_args;
	o->guest_argv = calloc((size_t)o->guest_argc + 1, sizeof *o->guest_argv);
	if (!o->guest_argv) {
		cli_error("out of memory");
		goto fail;
	}
	o->guest_argv[0] = (char *)(o->prog_path ? o->prog_path : ivx_default_program_name);
	for (int k = 0; k < n_args; k++)
		o->guest_argv[1 + k] = argv[dashdash + 1 + k];
	return 0;
fail:
	run_options_free(o);    /* (the --dir buffers) */
	return -1;
}

void run_options_free(struct run_options *o)
{
	free(o->guest_argv);
	o->guest_argv = NULL;
	for (int i = 0; i < o->n_dirs; i++)
		free(o->dir_bufs[i]);
	o->n_dirs = 0;
}

void run_options_guest(const struct run_options *o, struct guest_options *go, char *cwd, size_t cwd_len)
{
	go->argc = o->guest_argc;
	go->argv = o->guest_argv;
	go->seed = o->seed;
	go->dirs = o->dirs;
	go->n_dirs = o->n_dirs;
	go->cwd = getcwd(cwd, cwd_len) ? cwd : NULL;
	go->exe_path = o->prog_path;
	/* fd 0's time: the --stdin file's, as for the granted files (gzip
	 * stores it; a time of 0 makes it warn and exit 2) */
	struct stat st;
	if (o->stdin_path && (strcmp(o->stdin_path, "-") ? stat(o->stdin_path, &st) : fstat(0, &st)) == 0 &&
	    S_ISREG(st.st_mode)) {
		go->stdin_mtime_sec = st.st_mtim.tv_sec;
		go->stdin_mtime_nsec = st.st_mtim.tv_nsec;
	}
	/* (tests only: exercise the resolution used where openat2 is missing) */
	const char *walk = getenv("IVX_SANDBOX_WALK");
	go->sandbox_walk = walk && *walk == '1';
}

const char *run_options_limit_hit(const struct run_options *o, uint64_t committed)
{
	return o->max_insns && committed >= o->max_insns ? "--max-insns" : "--max-cycles";
}

const char *run_options_limit_key(const struct run_options *o, uint64_t committed)
{
	return o->max_insns && committed >= o->max_insns ? "max_insns" : "max_cycles";
}

void run_options_json_end(FILE *f, const struct run_options *o, int exited, int exit_code, uint64_t committed)
{
	if (exited)
		fprintf(f, "\"end\":\"exit\",\"exit_code\":%d", exit_code);
	else
		fprintf(f, "\"end\":\"limit\",\"limit\":\"%s\"", run_options_limit_key(o, committed));
}

void run_options_note_limit(const struct run_options *o, uint64_t cycles, uint64_t committed, const char *then)
{
	cli_error("stopped after %llu cycles, %llu instructions (%s limit reached)%s", (unsigned long long)cycles,
		  (unsigned long long)committed, run_options_limit_hit(o, committed), then ? then : "");
}

int run_options_read_stdin(const struct run_options *o, void **data, size_t *len)
{
	struct ivx_err err = { 0 };
	if (cli_read_file_quiet(o->stdin_path, data, len, &err) < 0) {
		cli_error("--stdin %s", err.msg);   /* (which of the files named it was) */
		return -1;
	}
	return 0;
}

int run_options_check_outputs(const struct run_options *o, const struct named_file *outputs, int n)
{
	const struct named_file inputs[] = {
		{ "the program", o->prog_path }, { "the --config file", o->config_path },
		{ "the --stdin file", o->stdin_path },
	};
	if (outfile_check(outputs, n, inputs, 3) < 0)
		return -1;
	return run_options_check_grants(o, outputs, n);
}

static int same_dir(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];
	return a && b && realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

int run_options_check_grants(const struct run_options *o, const struct named_file *outputs, int n)
{
	/* Outputs are written after the program ran (or while it runs): one
	 * inside a directory it may write could have been replaced by a link
	 * to any host file, which ivx would then write. */
	for (int d = 0; d < o->n_dirs; d++)
		for (int i = 0; o->dirs[d].rw && i < n; i++)
			if (outfile_within(outputs[i].path, o->dirs[d].host) || same_dir(outputs[i].path, o->dirs[d].host)) {
				cli_error("%s %s is inside the read-write --dir %s: the program could replace it with a link "
					  "to another file before ivx writes it; write it elsewhere", outputs[i].option,
					  outputs[i].path, o->dirs[d].host);
				return -1;
			}
	return 0;
}

struct guest *run_options_make_guest(const struct program *prog, const struct run_options *o)
{
	void *in = NULL;
	size_t in_len = 0;
	if (o->stdin_path && run_options_read_stdin(o, &in, &in_len) < 0)
		return NULL;
	struct guest_options go = { .stdin_data = in, .stdin_len = in_len, .output = cli_guest_output };
	char cwd[4096];
	run_options_guest(o, &go, cwd, sizeof cwd);
	struct ivx_err err = { 0 };
	struct guest *g = guest_new(prog, &go, &err);
	free(in);
	if (!g)
		cli_error("%s", err.msg);
	return g;
}

int run_options_config_quiet(const struct run_options *o, struct machine_config *cfg, struct ivx_err *err)
{
	return config_build(cfg, o->config_path, o->overrides, o->n_overrides, err) < 0 ? -1 : 0;
}

int run_options_config(const struct run_options *o, struct machine_config *cfg)
{
	struct ivx_err err = { 0 };
	if (run_options_config_quiet(o, cfg, &err) < 0) {
		cli_error("%s", err.msg);
		return -1;
	}
	return 0;
}

int run_options_start_pc(const struct run_options *o, const struct program *prog, uint64_t *pc,
			 uint64_t *count, struct ivx_err *err)
{
	*count = 0;
	if (!o->start_at)
		return 0;
	char loc[256];
	if (strlen(o->start_at) >= sizeof loc)
		return ivx_error(err, IVX_EUSAGE, "--start-at: '%.60s...' is too long", o->start_at);
	snprintf(loc, sizeof loc, "%s", o->start_at);
	uint64_t n = 1, off = 0, addr;
	char *colon = strrchr(loc, ':');
	if (colon) {
		if (cli_parse_u64(colon + 1, &n) < 0 || n == 0)
			return ivx_error(err, IVX_EUSAGE, "--start-at %s: after ':' a count from 1 (LOC:N, the N-th time)",
					 o->start_at);
		*colon = 0;
	}
	char *plus = strchr(loc, '+');
	if (plus)
		*plus = 0;
	const struct symbol *s = symtab_find(program_symbols(prog), loc);
	if (s && (!plus || cli_parse_u64(plus + 1, &off) == 0)) {
		if (off > UINT64_MAX - s->addr)   /* (it wrapped round to the program's start) */
			return ivx_error(err, IVX_EUSAGE, "--start-at %s: the offset runs past the end of memory",
					 o->start_at);
		addr = s->addr + off;
	} else {
		if (plus)
			*plus = '+';
		if (cli_parse_u64(loc, &addr) < 0)
			return ivx_error(err, IVX_EUSAGE,
					 "--start-at: no symbol '%s' in %s (give SYMBOL, SYMBOL+OFF or an address, and :N)",
					 loc, program_name(prog));
	}
	if (!program_uop(prog, addr))
		return ivx_error(err, IVX_EUSAGE, "--start-at %s: 0x%llx is not an instruction of %s", o->start_at,
				 (unsigned long long)addr, program_name(prog));
	*pc = addr;
	*count = n;
	return 0;
}

int run_options_warm(const struct run_options *o, const struct program *prog, struct core *c,
		     struct ivx_err *err)
{
	if (o->fastforward && core_fastforward(c, o->fastforward, err) < 0)
		return -1;
	uint64_t pc, count;
	if (run_options_start_pc(o, prog, &pc, &count, err) < 0)
		return -1;
	if (count && core_fastforward_until(c, pc, count, o->max_insns, err) < 0) {
		char msg[sizeof err->msg];
		snprintf(msg, sizeof msg, "%s", err->msg);
		return ivx_error(err, IVX_EUSAGE, "--start-at %s: %s", o->start_at, msg);
	}
	return 0;
}
