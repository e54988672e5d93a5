/*
 * annotate.h — dcpicalc's annotation of one procedure from the samples the
 * explorer's DCPI session (inst_dcpi.c) has taken so far, with the
 * simulator's truth beside every estimate, as lines of text in perf
 * annotate's conventions. The `annotate` command (xcmd_annotate.c) prints
 * them, the annotate pane (ui/pane_annotate.c) draws them coloured by heat.
 */
#ifndef IVX_XANNOTATE_H
#define IVX_XANNOTATE_H

#include <stddef.h>
#include <stdint.h>

struct explorer;

/* Heat of a line, by the instruction's share of the procedure's samples
 * (perf annotate's colours: >= 5% red, >= 0.5% green). */
enum { XANN_PLAIN, XANN_HEADER, XANN_WARM, XANN_HOT, XANN_CURRENT };

#define XANN_MAX_CULPRITS 4

struct xann_line {
	char *text;
	int heat;         /* XANN_* */
	int is_pc;        /* the instruction at the current pc */
	uint64_t pc;      /* the instruction's address (0: a header line) */
	double share;     /* its percent (of the procedure's or of all CYCLES samples) */
	int n_culprit;    /* the instructions its arrow names (-> a,b) */
	uint64_t culprit[XANN_MAX_CULPRITS];
	uint64_t true_culprit; /* the instruction the core blamed for most of its
				* wait (its largest reason that blames one), 0 none */
};

/* xannotate flags. The frequency estimator is the session's setting
 * (`set dcpicalc-estimator`, x->set.dcpicalc_estimator) unless a flag
 * names one. */
enum {
	XANN_PCT_TOTAL = 1,   /* Percent of all CYCLES samples, not of the procedure's */
	XANN_EST_PAPER = 2,   /* the paper's estimator */
	XANN_EST_IVX = 4,     /* ivx's (engine/dcpi/dcpicalc_flow.c, with the calls step
				 of src/cli/dcpicalc_calls.c over the program) */
};

struct xannotation {
	struct xann_line *line;
	size_t n;
};

/* Annotate the procedure named by target (a symbol or an address
 * expression), or the one around the pc when target is NULL or empty;
 * flags: XANN_*.
 * 0, or -1 with a one-line message in msg (sampling off, no samples yet,
 * unknown procedure, out-of-order machine). */
int xannotate(struct explorer *x, const char *target, int flags, struct xannotation *out, char *msg, size_t msg_n);
void xannotation_free(struct xannotation *a);

#endif
