/*
 * dcpicalc.h — the analysis half of DCPI (Anderson et al., SOSP 1997,
 * section 6) for one procedure on ivx's in-order machine: from the
 * procedure's code and its CYCLES samples (and IMISS/DMISS/BRANCHMP/
 * DTBMISS samples when there are some), estimate how often each
 * instruction ran, its cycles per execution at the head of the issue
 * stage, and why it stalled.
 *
 * Two steps, so a caller that watches samples grow (the explorer) redoes
 * only the cheap one:
 *
 *   dcc_new        static: basic blocks and the control-flow graph, the
 *                  frequency-equivalence classes (cycle equivalence,
 *                  Johnson-Pearson-Pingali, here by cut pairs), and the
 *                  best-case schedule of every block on the machine of the
 *                  configuration: M_i and the static stall of each
 *                  instruction with its culprit;
 *   dcc_estimate   from samples: each class's frequency from the issue
 *                  points whose S_i/M_i cluster lowest, local propagation
 *                  along the graph, CPI = S_i / F, dynamic stalls
 *                  S_i - F M_i and their culprits ("guilty until proven
 *                  innocent"), and the procedure's summary of cycles by
 *                  reason (the paper's Figure 4).
 *
 * Pure functions of their inputs: no I/O, no core. The caller (src/cli
 * dcpicalc_code.c) describes the code from the ELF; docs/dcpicalc.md
 * explains every rule and the values chosen where the paper is vague.
 */
#ifndef IVX_DCPICALC_H
#define IVX_DCPICALC_H

#include <stddef.h>
#include <stdint.h>
#include "core/config.h"
#include "core/events.h"
#include "base/err.h"

/* One static instruction of the procedure, as the analysis needs it. */
struct dcc_insn {
	uint64_t pc;
	int kind;                 /* enum insn_kind */
	uint8_t n_src, n_dst;
	uint8_t src[4], dst[3];   /* dependence registers (any numbering < 256) */
	uint8_t wb_base;          /* a pre/post-indexed access: 1 + the base register it
				     writes back, ready a cycle after issue; 0 none */
	uint64_t target;          /* direct branch or call target, 0 if none */
};

/* Stall letters (bit numbers of a culprit mask). Static ones come from the
 * schedule, dynamic ones are candidates for S_i - F M_i. */
enum dcc_letter {
	DCC_S_SLOT,     /* s: issue width or fetch group (slotting) */
	DCC_S_DEP,      /* a: operand of an instruction still executing */
	DCC_S_UNIT,     /* f: functional unit busy */
	DCC_D_ICACHE,   /* i: I-cache miss */
	DCC_D_ITLB,     /* t: I-TLB miss */
	DCC_D_DCACHE,   /* d: D-cache miss (a load feeding it, or filling the ROB) */
	DCC_D_DTLB,     /* D: D-TLB miss */
	DCC_D_WBUF,     /* w: a store: write buffer, memory order */
	DCC_D_MISP,     /* p: branch misprediction */
	DCC_D_LONG,     /* m: multiplier/divider/FP unit (long latency) */
	DCC_D_XDEP,     /* x: operand from before the block (not in the static schedule) */
	DCC_D_FETCH,    /* b: fetch bubble entering the block (taken branch, line) */
	DCC_D_SERIAL,   /* y: serializing instruction (system call) */
	DCC_LETTER_COUNT
};
extern const char dcc_letter_char[DCC_LETTER_COUNT];
/* The letters of a mask (bits of enum dcc_letter) as a string; buf holds
 * at least DCC_LETTER_COUNT + 1 chars. */
void dcc_letters(uint32_t mask, char *buf);
const char *dcc_letter_name(int letter);   /* "slotting", "D-cache miss", ... */
/* The letter the simulator's true wait reason stands for (enum issue_wait). */
int dcc_letter_of_wait(int issue_wait);
/* A true wait reason that the static schedule predicts (slot, dep,
 * dep-long, frontend): not a dynamic stall. */
int dcc_wait_is_static(int issue_wait);

#define DCC_MAX_CULPRITS 4
#define DCC_ENTRY (-1)
#define DCC_EXIT (-2)

struct dcc_block {
	size_t first, n;          /* instructions [first, first + n) */
	int cls;                  /* frequency-equivalence class */
	int m_total;              /* best-case cycles: sum of M_i */
	double freq;              /* F estimate (executions per CYCLES period), -1 unknown */
	int conf;                 /* 0 low, 1 medium, 2 high */
	int how;                  /* 0 none, 1 issue points, 2 small-sample ratio, 3 propagated */
	double var;               /* ivx estimator: the variance of freq's estimate, -1 unknown */
};

/* How control passes along an edge of the graph. */
enum dcc_edge_kind {
	DCC_EDGE_FALL,            /* fall-through */
	DCC_EDGE_TAKEN,           /* a taken branch or jump inside the procedure */
	DCC_EDGE_AFTER_CALL,      /* from a call to the instruction after it */
	DCC_EDGE_ENTRY,           /* ENTRY to the first block */
	DCC_EDGE_EXIT,            /* a return, an indirect jump or running off the end */
	DCC_EDGE_ADDED,           /* added so that every block is reachable both ways */
	DCC_EDGE_TAIL,            /* to add_edge: a branch out of the procedure, kept as EXIT */
};

struct dcc_edge {
	int from, to;             /* block indices, or DCC_ENTRY / DCC_EXIT */
	int cls;
	enum dcc_edge_kind kind;
	int taken;                /* the branch's taken direction (else its fall-through) */
	double freq;              /* -1 unknown */
};

struct dcc_result_insn {
	int block;
	int m;                    /* best-case cycles at the issue head (M_i) */
	int static_why;           /* enum dcc_letter (DCC_S_*), -1 when M_i <= 1 and it could pair */
	long static_culprit;      /* instruction index blamed, -1 none */
	int issue_point;          /* M_i > 0 */
	int used;                 /* its ratio went into its class's estimate */
	double ratio;             /* S_i / M_i (or the range ratio; ivx: with its pair), -1 if none */
	double weight;            /* the M behind it (M_i, or the range's sum) */
	double freq;              /* F (executions per CYCLES period), -1 unknown */
	double cpi;               /* S_i / F, -1 unknown */
	double dyn;               /* dynamic stall samples S_i - F M_i (negative: gain) */
	int significant;          /* |dyn| beyond two standard deviations of sampling noise */
	uint32_t culprits;        /* candidate letters (bits of enum dcc_letter) */
	uint32_t likely;          /* letters its place alone exposes it to (static) */
	int n_culprit_pcs;
	uint64_t culprit_pc[DCC_MAX_CULPRITS];
	int conf;
};

/* The Figure 4 summary, in CYCLES samples. lo/hi per dynamic letter:
 * stall an instruction's culprits surely (it is the only one) or possibly
 * explain. */
struct dcc_summary {
	double samples;           /* sum of S_i */
	double best;              /* F * sum M_i over the procedure */
	double execution;         /* F * n / issue width per block */
	double static_[3];        /* s, a, f */
	double dyn_lo[DCC_LETTER_COUNT], dyn_hi[DCC_LETTER_COUNT];
	double dynamic;           /* sum of significant positive S_i - F M_i */
	double unexplained;       /* ... of instructions with no culprit left */
	double gain;              /* sum of negative S_i - F M_i */
	double noise;             /* S_i - F M_i within sampling noise (net) */
	double unknown;           /* samples of instructions without a frequency */
};

struct dcc_profile {
	const uint64_t *samples[5];  /* per instruction: CYCLES, IMISS, DMISS, BRANCHMP, DTBMISS
					(NULL: the event was not sampled) */
	double period[5];            /* events per sample (mean period, multiplexing undone) */
};

struct dcc;

/* Analyse `n` instructions starting at code[0].pc (consecutive pcs; the
 * procedure's entry is code[0]) for machine mc. The code is copied. */
struct dcc *dcc_new(const struct dcc_insn *code, size_t n, const struct machine_config *mc, struct ivx_err *err);
void dcc_free(struct dcc *a);
/* Which frequency estimator dcc_estimate uses. DCC_EST_PAPER, the
 * default, is the paper's (section 6.1: each class from its issue points,
 * local propagation for the rest); DCC_EST_IVX is ivx's extension of it:
 * the same estimates, then reconciled with the flow equations by weighted
 * least squares (dcpicalc_flow.c). */
enum dcc_estimator { DCC_EST_PAPER, DCC_EST_IVX };
void dcc_set_estimator(struct dcc *a, enum dcc_estimator e);
const char *dcc_estimator_name(enum dcc_estimator e);   /* "paper", "ivx" */
/* The estimator named s ("paper", "ivx"); -1 for none. */
int dcc_estimator_parse(const char *s);
/* ivx's estimator only: how often the procedure is called (per CYCLES
 * period, as freq), known from outside with variance var (the sum of its
 * call sites' estimates in the callers); weighed with the procedure's own
 * estimate of its entry. calls < 0: not known (the default). */
void dcc_set_calls(struct dcc *a, double calls, double var);

/* Estimate from a profile (arrays of n counts). May be called again. */
int dcc_estimate(struct dcc *a, const struct dcc_profile *p, struct ivx_err *err);

size_t dcc_insn_count(const struct dcc *a);
const struct dcc_insn *dcc_insn_at(const struct dcc *a, size_t i);
const struct dcc_result_insn *dcc_result_at(const struct dcc *a, size_t i);
size_t dcc_block_count(const struct dcc *a);
const struct dcc_block *dcc_block_at(const struct dcc *a, size_t b);
size_t dcc_edge_count(const struct dcc *a);
const struct dcc_edge *dcc_edge_at(const struct dcc *a, size_t e);
int dcc_class_count(const struct dcc *a);
int dcc_missing_edges(const struct dcc *a);   /* an indirect jump: every block its own class */
const struct dcc_summary *dcc_summary(const struct dcc *a);

/* ---- the pieces, for tests ---- */

/* Cycle equivalence of an undirected multigraph that is 2-edge-connected:
 * edges (u[k], v[k]), k < ne, over nv nodes; cls[k] gets a class number,
 * equal for two edges iff every cycle through one goes through the other.
 * Returns the number of classes, or -1 (no memory). */
int dcc_cycle_classes(int nv, int ne, const int *u, const int *v, int *cls);

/* Best-case schedule of insns[0..n) as one block on machine mc: m[i] and
 * why[i] (enum dcc_letter, -1 none), culprit[i] (index, -1 none). */
void dcc_schedule(const struct dcc_insn *insns, size_t n, const struct machine_config *mc, int *m, int *why,
		  long *culprit);

/* The same for a block scheduled after another: insns[0..new_group) are
 * the predecessor's (a new fetch group starts at new_group, as after a
 * taken branch; (size_t)-1: none). */
void dcc_schedule_after(const struct dcc_insn *insns, size_t n, size_t new_group, const struct machine_config *mc,
			int *m, int *why, long *culprit);

/* F of one class from its issue points' ratios r[0..n) (S_i / M_i) with
 * weights w (their M; NULL: 1 each), its total samples and best-case
 * cycles: the weighted mean of the lowest cluster (max <= 1.5 min) holding
 * enough of the points, or sum S / sum M for few samples. used[i] marks
 * the ratios averaged; *conf gets 0..2; *how 1 or 2. */
double dcc_class_freq(const double *r, const double *w, int n, double sum_s, double sum_m, int *used, int *conf,
		      int *how);

/* ivx's pooling (DCC_EST_IVX): from the class estimate f0 (the lowest
 * cluster's), the issue points whose S = r w is within three standard
 * deviations of f w join (used[k] set, the others cleared), F = sum S /
 * sum M over them, repeated until the set is stable. Returns F. */
double dcc_class_pool(const double *r, const double *w, int n, double f0, int *used);

/* ivx's flow reconciliation (DCC_EST_IVX): the class frequencies closest
 * to prior[0..n_cls) (-1: no estimate), weighting class c by 1 / var[c],
 * for which the flow equations hold: equation q is the sum over k in
 * [eq_start[q], eq_start[q+1]) of eq_coef[k] * x[eq_cls[k]] = 0. Written
 * to freq[c] for the classes the kept equations name (equations naming a
 * class without an estimate are left out); the others' freq is left as
 * it is. No frequency becomes negative. post_var (NULL: not wanted) gets
 * the variance each of those classes has after the solve. 0, or -1 (no
 * memory). */
int dcc_flow_reconcile(int n_cls, const double *prior, const double *var, double *freq, double *post_var, int n_eq,
		       const int *eq_start, const int *eq_cls, const double *eq_coef);

#endif
