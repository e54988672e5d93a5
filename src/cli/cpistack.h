/*
 * cpistack.h — what `ivx cpistack` and `ivx refstack` share: one program,
 * one machine, and the simulations of the reference sequences
 * (refstack.h: 13 runs, 12 simulations unless --ref-fu), run in parallel; the run of the machine as configured can
 * carry observers (the accounting units).
 *
 * cmd_refstack.c implements this and the refstack command; cmd_cpistack.c
 * the cpistack command and the stack printers (text, JSON, SVG).
 */
#ifndef IVX_CPISTACK_H
#define IVX_CPISTACK_H

#include <stdio.h>
#include "core/config.h"
#include "acct/refstack.h"
#include "runopts.h"

struct program;

struct stackrun {
	struct run_options o;
	struct program *prog;
	struct machine_config cfg;
	void *stdin_data;
	size_t stdin_len;
	int threads;                       /* simulations at once */
	int ref_fu;                        /* --ref-fu: the reference with a long-latency step */
	char cwd[4096];                    /* the guests' working directory (host) */
	struct refstack_job job[REF_RUN_COUNT]; /* indexed by enum refstack_run */
	/* results */
	struct refstack_stack ref, ref_inv;
	double seconds;                    /* wall time of all simulations */
	int simulations;                   /* how many ran (runs of the same machine run once) */
};

/* Load the program, build the machine and the jobs. 0, or -1 after printing
 * the error. */
int stackrun_prepare(struct stackrun *sr, int threads);
/* Run the real machine (with its observers), and the reference runs unless
 * `real_only`. 0; 1 after a note on stderr when the user's limit stopped the
 * real run before an instruction committed (nothing to stack: write
 * stackrun_json_nothing); -1 after printing the error. */
int stackrun_execute(struct stackrun *sr, int real_only);
/* The JSON of a run with nothing to stack: its program, cycles, 0
 * instructions, how it ended, "cpi": null and "methods": {}. 0, or -1 after
 * an error line. */
int stackrun_json_nothing(const char *path, const struct stackrun *sr);
void stackrun_free(struct stackrun *sr);
/* One line saying which reference the stacks are. */
const char *refstack_kind(const struct stackrun *sr);

/* How the real run ended, for the JSON: `"end":"exit"`, or `"end":"limit",
 * "limit":"max_insns"` (or max_cycles) when it stopped at the user's limit. */
void stackrun_json_end(FILE *f, const struct stackrun *sr);

/* The real run, for its observers' results. */
static inline const struct refstack_job *stackrun_real(const struct stackrun *sr)
{
	return &sr->job[REF_REAL];
}

/* Option handling shared by both commands: --json FILE, --jobs N, --ref-fu. */
struct stack_flags {
	const char *json_path;
	const char *svg_path;
	int jobs;                          /* 0 = number of host cores */
	int no_ref;                        /* cpistack: counters only */
	int summary;                       /* cpistack: one tab-separated line */
	int bench;                         /* cpistack: time the units (no reference) */
	int refstack;                      /* parsing for refstack (no svg/no-ref/summary) */
	int ref_fu;                        /* --ref-fu */
};
int stack_flags_parse(void *ctx, int argc, char **argv, int i);

/* A stack with its names, for the printers. */
struct named_stack {
	const char *key;                   /* JSON key: "ref", "fmt", ... */
	const char *label;                 /* column heading */
	struct refstack_stack s;
};

/* The components of a counter stack in CPI. */
void stack_from_acct(const struct acct_stack *a, struct refstack_stack *out);

/* Side-by-side table: CPI per component, then the same as % of each CPI. */
void stack_table_print(FILE *out, const struct named_stack *st, int n);

/* Write `"methods":{"key":{"cpi":..,"components":{..}}, ...}` (no braces
 * around it). With `ref` and `inv` (two of the stacks), the others get
 * "max_error" and "max_error_inverse" against them; fold_fu compares
 * long-latency components inside base (the paper's reference). */
void stack_json_methods(FILE *f, const struct named_stack *st, int n, const struct refstack_stack *ref,
			const struct refstack_stack *inv, int fold_fu);

#endif
