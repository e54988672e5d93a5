/*
 * runopts.h — the options every program-running command shares
 * (run, cpistack, refstack, the explorer): which program, its arguments and
 * stdin, the seed, limits, and the machine configuration.
 *
 *   [OPTIONS] [PROG] [-- ARGS...]      options may come before or after PROG
 */
#ifndef IVX_RUNOPTS_H
#define IVX_RUNOPTS_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "guest/sandbox.h"

#define RUNOPTS_MAX_OVERRIDES 64
#define RUNOPTS_MAX_DIRS 16

struct run_options {
	const char *prog_path;       /* NULL: the embedded default program */
	int guest_argc;              /* guest argv, argv[0] included */
	char **guest_argv;           /* (allocated; free with run_options_free) */
	const char *stdin_path;      /* --stdin FILE */
	uint64_t seed;               /* --seed N (default 1) */
	uint64_t max_insns;          /* --max-insns N (0 = none) */
	uint64_t max_cycles;         /* --max-cycles N (0 = none) */
	uint64_t fastforward;        /* --fastforward N instructions */
	const char *start_at;        /* --start-at SYMBOL|ADDR: fast-forward until the pc gets there */
	const char *config_path;     /* --config FILE */
	int n_overrides;             /* -o section.key=value, in order */
	const char *overrides[RUNOPTS_MAX_OVERRIDES];
	int n_dirs;                  /* --dir HOST[:GUEST][:ro|rw], in order */
	struct sandbox_grant dirs[RUNOPTS_MAX_DIRS];
	char *dir_bufs[RUNOPTS_MAX_DIRS];   /* (allocated: what dirs[] point into) */
	int quiet;                   /* -q, --quiet (run_options_is_quiet) */
};

/* A command-specific option handler: return the number of argv entries it
 * consumed at argv[i] (1 or 2), 0 if it does not know the option, or -1
 * after printing an error. */
typedef int (*runopts_extra_fn)(void *ctx, int argc, char **argv, int i);

/* Parse argv (argv[0] is the command name). Options not common to all are
 * offered to `extra`. Returns 0, or -1 after printing an error. */
int run_options_parse(struct run_options *o, int argc, char **argv, runopts_extra_fn extra, void *ctx);
void run_options_free(struct run_options *o);

/* Refuse outputs (outfile.h) that would overwrite the program, the
 * --config or --stdin file, or each other: 0, or -1 after an error line. */
struct named_file;
int run_options_check_outputs(const struct run_options *o, const struct named_file *outputs, int n);

/* Read the --stdin file whole: 0, or -1 after "ivx: --stdin FILE: why". */
int run_options_read_stdin(const struct run_options *o, void **data, size_t *len);

/* Refuse outputs inside a read-write --dir grant (the guest could put a
 * link there): 0, or -1 after an error line. run_options_check_outputs
 * does it too; for outputs it does not see (a profile database). */
int run_options_check_grants(const struct run_options *o, const struct named_file *outputs, int n);

/* Whether arg is -q or --quiet, which every command that runs a program
 * takes (run_options_parse sets `quiet`), so that a script or a sweep can
 * give it to any of them: no progress line, host timing or sampling
 * statistics on stderr; errors, warnings and the run's results are
 * printed all the same. */
int run_options_is_quiet(const char *arg);

/* -q's help line in a command that prints none of what it turns off. */
#define RUN_OPTIONS_QUIET_HELP \
	"  --quiet, -q         as in run and cpistack: no progress line or host timing\n" \
	"                      on stderr (this command prints neither)\n"

/* The help text for the shared options, to embed in a command's help. */
#define RUN_OPTIONS_HELP \
	"  --stdin FILE        the guest reads FILE on fd 0 (default: empty; - is ivx's own stdin)\n" \
	"  --dir HOST[:GUEST][:ro|rw]  let the guest open files under host directory\n" \
	"                      HOST, seen at GUEST (default: the same path), read-only\n" \
	"                      unless rw (repeatable; nothing else is visible)\n" \
	"  --seed N            seed for AT_RANDOM and getrandom (default 1)\n" \
	"  --max-insns N       stop at the end of the cycle that commits instruction N\n" \
	"                      (a few more may commit in it; exactly N in ivx run\n" \
	"                      --functional)\n" \
	"  --max-cycles N      stop after N cycles (timing mode; 0, as for --max-insns:\n" \
	"                      no limit)\n" \
	"  --fastforward N     run N instructions functionally first, warming caches,\n" \
	"                      TLBs and predictor (timing mode)\n" \
	"  --start-at LOC[:N]  the same until the pc reaches LOC (SYMBOL, SYMBOL+OFF or\n" \
	"                      an address) for the N-th time (default 1): timing starts\n" \
	"                      there (after --fastforward N); with --max-insns M it\n" \
	"                      looks for LOC in at most M instructions\n" \
	"  --config FILE       machine description (default data/configs/default.ini)\n" \
	"  -o SECTION.KEY=VAL  override one configuration value (repeatable)\n" \
	"  Numbers take 0x hex and k, M, G suffixes (1M = 1000000).\n"

/* A run that ended at the user's limit (a normal end): which limit it
 * was, as the command line spells it ("--max-insns" or "--max-cycles"),
 * and the line that says so, "stopped after C cycles, I instructions
 * (--max-X limit reached)" and then `then` (e.g. ": the profile covers
 * them"), on stderr. */
const char *run_options_limit_hit(const struct run_options *o, uint64_t committed);
/* ... as the JSON outputs' "limit" spells it ("max_insns", "max_cycles") */
const char *run_options_limit_key(const struct run_options *o, uint64_t committed);
void run_options_note_limit(const struct run_options *o, uint64_t cycles, uint64_t committed, const char *then);
/* How a run ended, as the JSON outputs say it: `"end":"exit","exit_code":N`
 * when the guest exited, else `"end":"limit","limit":"max_insns"` (or
 * "max_cycles"); no separator around it. */
void run_options_json_end(FILE *f, const struct run_options *o, int exited, int exit_code, uint64_t committed);

struct program;
struct guest;
/* A guest process for PROG with these options (argv, stdin, seed).
 * NULL after printing the error. */
struct guest *run_options_make_guest(const struct program *prog, const struct run_options *o);

struct core;
struct ivx_err;
/* What --start-at LOC[:N] names in prog: the address in *pc and N (the
 * N-th arrival, default 1) in *count; *count 0 without --start-at. 0, or
 * -1 with err ("--start-at: no symbol 'x'", not in the code). */
int run_options_start_pc(const struct run_options *o, const struct program *prog, uint64_t *pc,
			 uint64_t *count, struct ivx_err *err);
/* Before timing starts: --fastforward N, then --start-at. 0, or -1 with err. */
int run_options_warm(const struct run_options *o, const struct program *prog, struct core *c,
		     struct ivx_err *err);
struct guest_options;
/* Fill the guest options the run options decide (argv, seed, --dir, the
 * working directory into cwd, the program path); stdin and output are the
 * caller's. */
void run_options_guest(const struct run_options *o, struct guest_options *go, char *cwd, size_t cwd_len);

struct machine_config;
/* The machine the options describe: defaults, then --config, then each -o
 * in order, validated. 0, or -1 after printing the error (file:line for a
 * bad key in a file). */
int run_options_config(const struct run_options *o, struct machine_config *cfg);
/* ... printing nothing: err says what is wrong (compare names the side) */
int run_options_config_quiet(const struct run_options *o, struct machine_config *cfg, struct ivx_err *err);

#endif
