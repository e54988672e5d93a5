/*
 * refstack.h — simulation-based reference CPI stacks (Eyerman et al. §5.2)
 * and a small runner for independent simulations on several host cores.
 *
 * A reference stack runs the same program on machines whose components are
 * perfect, turning them real one at a time; each component is the CPI its
 * turn adds. The paper's sequence starts from everything perfect (the base
 * CPI), then a real L1 D-cache, then a real branch predictor, then either
 * L1 I-cache, L2 I-cache, I-TLB, L2 D-cache, D-TLB ("normal" order) or
 * L2 D-cache, D-TLB, L1 I-cache, L2 I-cache, I-TLB ("inverse" order). Both
 * end at the machine as configured.
 *
 * The paper's base machine keeps its long-latency units real: their stalls
 * are part of the base CPI, and that is the default here (REF_FU then
 * repeats REF_BASE and the long-latency component is zero). As an option
 * of ours (with_fu_step), the base machine runs multiplies and divides at
 * ALU latency and REF_FU turns the units real before the L1 D-cache, so
 * the reference has a long-latency component of its own.
 *
 * The 13 runs are independent; refstack_run_jobs runs any such list of
 * simulations on a pool of threads.
 */
#ifndef IVX_REFSTACK_H
#define IVX_REFSTACK_H

#include <stdint.h>
#include "acct.h"
#include "core/config.h"
#include "core/core.h"
#include "base/err.h"
#include "guest/guest.h"

struct program;

/* The runs of the two sequences. REF_REAL is the machine as configured
 * and ends both sequences. */
enum refstack_run {
	REF_BASE,        /* everything perfect (with_fu_step: long-latency units too) */
	REF_FU,          /* + real long-latency units (without the fu step: = REF_BASE) */
	REF_L1D,         /* + real L1 D-cache (L2 perfect for data) */
	REF_BPRED,       /* + real branch predictor */
	REF_N_L1I,       /* normal order: + real L1 I-cache */
	REF_N_L2I,       /* + real L2 for instructions */
	REF_N_ITLB,      /* + real I-TLB */
	REF_N_L2D,       /* + real L2 for data (then + D-TLB = REF_REAL) */
	REF_REAL,        /* the machine as configured */
	REF_I_L2D,       /* inverse order, after REF_BPRED: + real L2 for data */
	REF_I_DTLB,      /* + real D-TLB */
	REF_I_L1I,       /* + real L1 I-cache */
	REF_I_L2I,       /* + real L2 for instructions (then + I-TLB = REF_REAL) */
	REF_RUN_COUNT
};

const char *refstack_run_name(int run);   /* "base", "+fu", ..., "real" */

/* The configuration of run `run` derived from the real machine: the
 * paper's sequence, or with_fu_step the one with a long-latency step. */
void refstack_config(const struct machine_config *real, int run, int with_fu_step, struct machine_config *out);

/* A stack in CPI with signed components (a component turned real can make
 * the machine faster, e.g. through wrong-path prefetching). */
struct refstack_stack {
	double cpi;                      /* of the real machine */
	double base;
	double comp[ACCT_COMP_COUNT];
};

/* Build the normal and inverse stacks from each run's cycles and
 * committed instructions. */
void refstack_combine(const uint64_t cycles[REF_RUN_COUNT], const uint64_t insns[REF_RUN_COUNT],
		      struct refstack_stack *normal, struct refstack_stack *inverse);

/* ---- running simulations in parallel ------------------------------------ */

#define REFSTACK_MAX_OBSERVERS 8

struct refstack_job {
	/* in */
	const struct program *prog;
	struct guest_options gopt;       /* output should be set: jobs run at once */
	struct machine_config cfg;
	uint64_t fastforward, max_insns, max_cycles;
	const struct core_observer *obs[REFSTACK_MAX_OBSERVERS]; /* attached after fast-forward */
	int n_obs;
	/* out */
	int rc;                          /* IVX_OK or the error of the run */
	struct ivx_err err;
	uint64_t cycles, insns;          /* simulated (after fast-forward) */
	struct core_stats stats;
	int exited;                      /* the program ran to its exit */
	int exit_code;                   /* ... with this status */
	double seconds;                  /* host CPU time of the timing part */
};

/* Run the jobs, at most `threads` at a time (jobs start in list order).
 * Returns IVX_OK when every job succeeded, else the first failure's code
 * (each job's own rc/err say which). */
int refstack_run_jobs(struct refstack_job *jobs, int n, int threads, struct ivx_err *err);

#endif
