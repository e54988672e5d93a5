/*
 * dcpicalc.c — dcpicalc's analysis of one procedure (dcpicalc.h): the
 * control-flow graph and its frequency classes (dcc_new), then from the
 * samples the frequencies, CPIs, dynamic stalls and their culprits
 * (dcc_estimate).
 *
 * The graph: a block ends after every control transfer and before every
 * branch target inside the procedure. A call falls through to the next
 * block (the callee returns); a return, or a jump out of the procedure,
 * goes to a virtual EXIT; ENTRY goes to the first block; EXIT goes back to
 * ENTRY, which makes the graph strongly connected once blocks that cannot
 * be reached (or cannot reach the exit) get an added edge from ENTRY (to
 * EXIT). An indirect jump (BR) has targets the code does not name: the
 * graph is then "missing edges", and as the paper does, every block and
 * edge is its own class and nothing is propagated.
 *
 * Frequencies are in executions per CYCLES sampling period (F_i in the
 * paper); the caller multiplies by the period for executions.
 *
 * Two estimators (dcc_set_estimator): the paper's, the default, and ivx's
 * extension of it, which counts a pair's samples together, pools every
 * stall-free issue point (dcc_class_pool), reconciles the classes with
 * the flow equations (reconcile(), solved in dcpicalc_flow.c) and weighs
 * in the calls the callers make (dcc_set_calls).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "base/alloc.h"
#include "dcpicalc.h"

void dcc_letters(uint32_t mask, char *buf)
{
	int k = 0;
	for (int l = 0; l < DCC_LETTER_COUNT; l++)
		if (mask >> l & 1)
			buf[k++] = dcc_letter_char[l];
	buf[k] = 0;
}

const char dcc_letter_char[DCC_LETTER_COUNT] = {
	's', 'a', 'f', 'i', 't', 'd', 'D', 'w', 'p', 'm', 'x', 'b', 'y',
};

static const char *const letter_names[DCC_LETTER_COUNT] = {
	"slotting", "operand dependency", "unit busy", "I-cache miss", "I-TLB miss", "D-cache miss",
	"D-TLB miss", "store / write buffer", "branch mispredict", "long-latency unit",
	"operand from before the block", "fetch bubble", "serialization",
};

const char *dcc_letter_name(int l)
{
	return l >= 0 && l < DCC_LETTER_COUNT ? letter_names[l] : "?";
}

int dcc_letter_of_wait(int w)
{
	switch (w) {
	case ISSUE_WAIT_SLOT: return DCC_S_SLOT;
	case ISSUE_WAIT_DEP: return DCC_S_DEP;
	case ISSUE_WAIT_DEP_LONG: return DCC_D_LONG;
	case ISSUE_WAIT_DEP_L1D: case ISSUE_WAIT_DEP_L2D: case ISSUE_WAIT_FULL_DMISS: return DCC_D_DCACHE;
	case ISSUE_WAIT_DEP_DTLB: return DCC_D_DTLB;
	case ISSUE_WAIT_UNIT: return DCC_D_LONG;
	case ISSUE_WAIT_MEM: case ISSUE_WAIT_FULL_STORE: return DCC_D_WBUF;
	case ISSUE_WAIT_SERIAL: return DCC_D_SERIAL;
	case ISSUE_WAIT_FULL_OTHER: return DCC_D_LONG;
	case ISSUE_WAIT_FRONTEND: return DCC_D_FETCH;
	case ISSUE_WAIT_L1I: case ISSUE_WAIT_L2I: return DCC_D_ICACHE;
	case ISSUE_WAIT_ITLB: return DCC_D_ITLB;
	case ISSUE_WAIT_MISPREDICT: return DCC_D_MISP;
	default: return -1;
	}
}

int dcc_wait_is_static(int w)
{
	return w == ISSUE_WAIT_SLOT || w == ISSUE_WAIT_DEP || w == ISSUE_WAIT_DEP_LONG || w == ISSUE_WAIT_FRONTEND ||
	       w == ISSUE_WAIT_NONE;
}

struct dcc {
	struct machine_config mc;
	size_t n;
	struct dcc_insn *code;
	struct dcc_result_insn *res;
	size_t nb, ne;
	struct dcc_block *blocks;
	struct dcc_edge *edges;
	int n_cls, missing;
	int back_cls;               /* class of EXIT -> ENTRY */
	double *cls_freq;           /* per class, -1 unknown */
	int direct;                 /* culprits_walk: only the causes tied to this instruction */
	long *ctx;                  /* per block: the block it is scheduled after (-1 none) */
	int *cls_how, *cls_conf;
	double *cls_s, *cls_m;      /* per class: the samples and M behind its own estimate */
	double *cls_own;            /* per class: its own estimate before propagation (-1 none) */
	enum dcc_estimator estimator;
	double calls, calls_var;    /* dcc_set_calls: the calls known from outside (-1 none) */
	double *cls_var;            /* per class: the variance reconcile() gave it (-1 none) */
	struct dcc_summary sum;
};

static int is_branch(int kind)
{
	return insn_kind_is_branch(kind);
}

static long index_of(const struct dcc *a, uint64_t pc)
{
	if (pc < a->code[0].pc || (pc - a->code[0].pc) % 4)
		return -1;
	uint64_t i = (pc - a->code[0].pc) / 4;
	return i < a->n ? (long)i : -1;
}

static int add_edge(struct dcc *a, size_t *cap, int from, int to, enum dcc_edge_kind kind)
{
	int taken = kind == DCC_EDGE_TAKEN;
	if (kind == DCC_EDGE_TAIL)
		kind = DCC_EDGE_EXIT, taken = 1;   /* kept as an exit, taken */
	if (a->ne == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		struct dcc_edge *e = ivx_realloc(a->edges, nc * sizeof *e);
		if (!e)
			return -1;
		a->edges = e;
		*cap = nc;
	}
	a->edges[a->ne++] = (struct dcc_edge){ .from = from, .to = to, .kind = kind, .taken = taken, .freq = -1 };
	return 0;
}

static int build_cfg(struct dcc *a)
{
	size_t n = a->n;
	char *leader = ivx_calloc(n + 1, 1);
	if (!leader)
		return -1;
	leader[0] = 1;
	for (size_t i = 0; i < n; i++) {
		const struct dcc_insn *x = &a->code[i];
		if (is_branch(x->kind) || x->kind == INSN_KIND_SYSCALL) {
			if (i + 1 < n && is_branch(x->kind))
				leader[i + 1] = 1;
			long t = x->target && x->kind != INSN_KIND_CALL ? index_of(a, x->target) : -1;
			if (t >= 0)
				leader[t] = 1;
		}
		if (x->kind == INSN_KIND_INDIRECT)
			a->missing = 1;
	}
	size_t nb = 0;
	for (size_t i = 0; i < n; i++)
		nb += leader[i];
	a->blocks = ivx_calloc(nb, sizeof *a->blocks);
	long *block_of = ivx_calloc(n, sizeof(long));
	if (!a->blocks || !block_of) {
		ivx_free(leader);
		ivx_free(block_of);
		return -1;
	}
	a->nb = nb;
	size_t b = 0;
	for (size_t i = 0; i < n; i++) {
		if (leader[i] && i) {
			a->blocks[b].n = i - a->blocks[b].first;
			b++;
			a->blocks[b].first = i;
		}
		block_of[i] = (long)b;
	}
	a->blocks[b].n = n - a->blocks[b].first;
	size_t cap = 0;
	int rc = add_edge(a, &cap, DCC_ENTRY, 0, DCC_EDGE_ENTRY);
	for (size_t k = 0; k < nb && rc == 0; k++) {
		const struct dcc_block *bl = &a->blocks[k];
		const struct dcc_insn *last = &a->code[bl->first + bl->n - 1];
		int next = k + 1 < nb ? (int)k + 1 : DCC_EXIT;
		long t = last->target ? index_of(a, last->target) : -1;
		int tb = t >= 0 ? (int)block_of[t] : DCC_EXIT;
		switch (last->kind) {
		case INSN_KIND_COND_BRANCH:
			rc = add_edge(a, &cap, (int)k, tb, tb == DCC_EXIT ? DCC_EDGE_TAIL : DCC_EDGE_TAKEN);
			if (rc == 0)
				rc = add_edge(a, &cap, (int)k, next, next == DCC_EXIT ? DCC_EDGE_EXIT : DCC_EDGE_FALL);
			break;
		case INSN_KIND_JUMP:
			rc = add_edge(a, &cap, (int)k, tb, tb == DCC_EXIT ? DCC_EDGE_TAIL : DCC_EDGE_TAKEN);
			break;
		case INSN_KIND_CALL:
			rc = add_edge(a, &cap, (int)k, next, next == DCC_EXIT ? DCC_EDGE_EXIT : DCC_EDGE_AFTER_CALL);
			break;
		case INSN_KIND_INDIRECT:
		case INSN_KIND_RETURN:
			rc = add_edge(a, &cap, (int)k, DCC_EXIT, DCC_EDGE_EXIT);
			break;
		default:
			rc = add_edge(a, &cap, (int)k, next, next == DCC_EXIT ? DCC_EDGE_EXIT : DCC_EDGE_FALL);
			break;
		}
	}
	/* reachability both ways; unreached blocks get an added edge */
	char *fwd = ivx_calloc(nb + 1, 1), *bwd = ivx_calloc(nb + 1, 1);
	if (!fwd || !bwd)
		rc = -1;
	for (int changed = 1; rc == 0 && changed;) {
		changed = 0;
		for (size_t e = 0; e < a->ne; e++) {
			const struct dcc_edge *x = &a->edges[e];
			int from_ok = x->from == DCC_ENTRY || (x->from >= 0 && fwd[x->from]);
			if (from_ok && x->to >= 0 && !fwd[x->to])
				fwd[x->to] = 1, changed = 1;
			int to_ok = x->to == DCC_EXIT || (x->to >= 0 && bwd[x->to]);
			if (to_ok && x->from >= 0 && !bwd[x->from])
				bwd[x->from] = 1, changed = 1;
		}
		if (!changed) {
			for (size_t k = 0; k < nb && rc == 0; k++) {
				if (!fwd[k]) {
					rc = add_edge(a, &cap, DCC_ENTRY, (int)k, DCC_EDGE_ADDED);
					fwd[k] = 1;
					changed = 1;
					break;
				}
				if (!bwd[k]) {
					rc = add_edge(a, &cap, (int)k, DCC_EXIT, DCC_EDGE_ADDED);
					bwd[k] = 1;
					changed = 1;
					break;
				}
			}
		}
	}
	ivx_free(fwd);
	ivx_free(bwd);
	for (size_t i = 0; i < n; i++)
		a->res[i].block = (int)block_of[i];
	ivx_free(leader);
	ivx_free(block_of);
	return rc;
}

static int classes(struct dcc *a)
{
	/* nodes: 0 ENTRY, 1 EXIT, block k: in 2+2k, out 3+2k. Edges: the
	 * blocks' own (in -> out), the CFG's, EXIT -> ENTRY. */
	int nv = 2 + 2 * (int)a->nb, ne = (int)a->nb + (int)a->ne + 1;
	int *u = ivx_calloc((size_t)ne, sizeof(int)), *v = ivx_calloc((size_t)ne, sizeof(int));
	int *cls = ivx_calloc((size_t)ne, sizeof(int));
	int rc = -1;
	if (!u || !v || !cls)
		goto out;
	for (size_t k = 0; k < a->nb; k++) {
		u[k] = 2 + 2 * (int)k;
		v[k] = 3 + 2 * (int)k;
	}
	for (size_t e = 0; e < a->ne; e++) {
		const struct dcc_edge *x = &a->edges[e];
		u[a->nb + e] = x->from == DCC_ENTRY ? 0 : 3 + 2 * x->from;
		v[a->nb + e] = x->to == DCC_EXIT ? 1 : 2 + 2 * x->to;
	}
	u[ne - 1] = 1;
	v[ne - 1] = 0;
	if (a->missing) {
		for (int k = 0; k < ne; k++)
			cls[k] = k;
		a->n_cls = ne;
	} else if ((a->n_cls = dcc_cycle_classes(nv, ne, u, v, cls)) < 0) {
		goto out;
	}
	for (size_t k = 0; k < a->nb; k++)
		a->blocks[k].cls = cls[k];
	for (size_t e = 0; e < a->ne; e++)
		a->edges[e].cls = cls[a->nb + e];
	a->back_cls = cls[ne - 1];
	a->cls_freq = ivx_calloc((size_t)a->n_cls, sizeof(double));
	a->cls_how = ivx_calloc((size_t)a->n_cls, sizeof(int));
	a->cls_conf = ivx_calloc((size_t)a->n_cls, sizeof(int));
	a->cls_s = ivx_calloc((size_t)a->n_cls, sizeof(double));
	a->cls_m = ivx_calloc((size_t)a->n_cls, sizeof(double));
	a->cls_own = ivx_calloc((size_t)a->n_cls, sizeof(double));
	a->cls_var = ivx_calloc((size_t)a->n_cls, sizeof(double));
	rc = a->cls_freq && a->cls_how && a->cls_conf && a->cls_s && a->cls_m && a->cls_own && a->cls_var ? 0 : -1;
out:
	ivx_free(u);
	ivx_free(v);
	ivx_free(cls);
	return rc;
}

static void find_culprits(struct dcc *a, size_t i);

/* The block to schedule block k after: itself when it loops on itself,
 * else its only predecessor; -1 for none (entry, or several). */
static long context_pred(const struct dcc *a, size_t k)
{
	long only = -1;
	int n = 0;
	for (size_t e = 0; e < a->ne; e++) {
		const struct dcc_edge *x = &a->edges[e];
		if (x->to != (int)k)
			continue;
		if (x->from == (int)k)
			return (long)k;
		if (x->from < 0 || x->kind == DCC_EDGE_AFTER_CALL || x->kind == DCC_EDGE_ADDED)
			return -1;   /* from outside, or back from a callee */
		only = x->from;
		n++;
	}
	return n == 1 ? only : -1;
}

/* Does the edge p -> k leave p by a taken branch? */
static int context_taken(const struct dcc *a, size_t p, size_t k)
{
	for (size_t e = 0; e < a->ne; e++)
		if (a->edges[e].from == (int)p && a->edges[e].to == (int)k && a->edges[e].kind == DCC_EDGE_TAKEN)
			return 1;
	return 0;
}

/* How far back the schedule of a block looks: the blocks before it along
 * the chosen predecessors, up to this many instructions (pairing at a
 * block's entry depends on how the blocks before it issued). */
#define DCC_CONTEXT_INSNS 16
#define DCC_CONTEXT_BLOCKS 8

/* The chain of blocks to schedule before block k when entered from p:
 * p, p's chosen predecessor, ... (oldest last in chain[]); its length. */
static int context_chain(const struct dcc *a, long p, long *chain)
{
	int n = 0;
	size_t insns = 0;
	while (p >= 0 && n < DCC_CONTEXT_BLOCKS && insns < DCC_CONTEXT_INSNS) {
		for (int k = 0; k < n; k++)
			if (chain[k] == p)
				return n;       /* around a loop: enough */
		chain[n++] = p;
		insns += a->blocks[p].n;
		long q = a->ctx[p] >= 0 ? a->ctx[p] : context_pred(a, (size_t)p);
		p = q;
	}
	return n;
}

/* Schedule every block after its context (a->ctx[k], or each predecessor
 * keeping the best case): M_i, the static stalls and their culprits,
 * m_total. -1: no memory. */
static int schedule_all(struct dcc *a)
{
	size_t big = 0;
	for (size_t k = 0; k < a->nb; k++)
		if (a->blocks[k].n > big)
			big = a->blocks[k].n;
	size_t cap = big + DCC_CONTEXT_BLOCKS * big + 1;
	int *m = ivx_calloc(cap, sizeof(int)), *why = ivx_calloc(cap, sizeof(int));
	long *cul = ivx_calloc(cap, sizeof(long)), *where = ivx_calloc(cap, sizeof(long));
	struct dcc_insn *tmp = ivx_calloc(cap, sizeof *tmp);
	int rc = m && why && cul && tmp && where ? 0 : -1;
	for (size_t k = 0; k < a->nb && rc == 0; k++) {
		struct dcc_block *b = &a->blocks[k];
		/* the contexts: the one chosen, or with several predecessors
		 * each of them (up to 4), keeping per instruction the fewest
		 * cycles: the best case over the ways into the block */
		long preds[4];
		int np = 0;
		if (a->ctx[k] >= 0) {
			preds[np++] = a->ctx[k];
		} else if (context_pred(a, k) < 0) {
			for (size_t e = 0; e < a->ne && np < 4; e++) {
				const struct dcc_edge *x = &a->edges[e];
				if (x->to == (int)k && x->from >= 0 && x->kind != DCC_EDGE_AFTER_CALL && x->kind != DCC_EDGE_ADDED)
					preds[np++] = x->from;
			}
			for (size_t e = 0; e < a->ne; e++)
				if (a->edges[e].to == (int)k && (a->edges[e].from < 0 || a->edges[e].kind == DCC_EDGE_AFTER_CALL))
					np = 0;     /* entered from outside too: no context */
		}
		if (!np)
			preds[np++] = -1;
		for (size_t i = b->first; i < b->first + b->n; i++)
			a->res[i].m = -1;
		for (int c = 0; c < np; c++) {
			long chain[DCC_CONTEXT_BLOCKS];
			int nc = context_chain(a, preds[c], chain);
			size_t pn = 0, groups[DCC_CONTEXT_BLOCKS + 1];
			int ng = 0;
			/* oldest first; a new fetch group after each taken edge */
			for (int j = nc - 1; j >= 0; j--) {
				const struct dcc_block *p = &a->blocks[chain[j]];
				long next = j ? chain[j - 1] : (long)k;
				memcpy(tmp + pn, a->code + p->first, p->n * sizeof *tmp);
				for (size_t t = 0; t < p->n; t++)
					where[pn + t] = (long)(p->first + t);
				pn += p->n;
				if (context_taken(a, (size_t)chain[j], (size_t)next))
					groups[ng++] = pn;
			}
			memcpy(tmp + pn, a->code + b->first, b->n * sizeof *tmp);
			for (size_t t = 0; t < b->n; t++)
				where[pn + t] = (long)(b->first + t);
			/* (the scheduler takes one forced group start: the last one,
			 * at the block; earlier taken edges only shift the context) */
			size_t taken = ng && groups[ng - 1] == pn ? pn : (size_t)-1;
			dcc_schedule_after(tmp, pn + b->n, taken, &a->mc, m, why, cul);
			for (size_t i = b->first; i < b->first + b->n; i++) {
				struct dcc_result_insn *r = &a->res[i];
				size_t t = pn + (i - b->first);
				if (r->m >= 0 && r->m <= m[t])
					continue;
				r->m = m[t];
				r->static_why = why[t];
				r->static_culprit = cul[t] < 0 ? -1 : where[cul[t]];
			}
		}
		b->m_total = 0;
		for (size_t i = b->first; i < b->first + b->n; i++) {
			a->res[i].issue_point = a->res[i].m > 0;
			b->m_total += a->res[i].m;
		}
	}
	ivx_free(m);
	ivx_free(why);
	ivx_free(cul);
	ivx_free(where);
	ivx_free(tmp);
	return rc;
}

struct dcc *dcc_new(const struct dcc_insn *code, size_t n, const struct machine_config *mc, struct ivx_err *err)
{
	if (!n) {
		ivx_error(err, IVX_EUSAGE, "dcpicalc: the procedure has no instructions");
		return NULL;
	}
	struct dcc *a = ivx_calloc(1, sizeof *a);
	if (!a)
		goto nomem;
	a->mc = *mc;
	a->n = n;
	a->calls = -1;
	a->code = ivx_malloc(n * sizeof *code);
	a->res = ivx_calloc(n, sizeof *a->res);
	if (!a->code || !a->res)
		goto nomem;
	memcpy(a->code, code, n * sizeof *code);
	if (build_cfg(a) < 0 || classes(a) < 0)
		goto nomem;
	a->ctx = ivx_calloc(a->nb, sizeof(long));
	if (!a->ctx)
		goto nomem;
	for (size_t k = 0; k < a->nb; k++)
		a->ctx[k] = context_pred(a, k);
	if (schedule_all(a) < 0)
		goto nomem;
	/* the dynamic stalls each instruction is exposed to by its place
	 * alone (line start, block head, operand of a load...), for the
	 * small-sample estimate */
	a->direct = 1;
	for (size_t i = 0; i < n; i++) {
		find_culprits(a, i);
		a->res[i].likely = a->res[i].culprits;
		a->res[i].culprits = 0;
		a->res[i].n_culprit_pcs = 0;
	}
	a->direct = 0;
	return a;
nomem:
	dcc_free(a);
	ivx_error(err, IVX_ESYS, "dcpicalc: out of memory");
	return NULL;
}

void dcc_free(struct dcc *a)
{
	if (!a)
		return;
	ivx_free(a->code);
	ivx_free(a->res);
	ivx_free(a->blocks);
	ivx_free(a->edges);
	ivx_free(a->cls_freq);
	ivx_free(a->cls_how);
	ivx_free(a->cls_conf);
	ivx_free(a->cls_s);
	ivx_free(a->cls_m);
	ivx_free(a->cls_own);
	ivx_free(a->cls_var);
	ivx_free(a->ctx);
	ivx_free(a);
}

/* ---- frequency of a class --------------------------------------------------- */

struct ratio {
	double r, w;
	int idx;
};

static int cmp_ratio(const void *x, const void *y)
{
	const struct ratio *a = x, *b = y;
	return a->r < b->r ? -1 : a->r > b->r ? 1 : a->idx - b->idx;
}

/* Below this many samples per issue point on average, a class's ratios
 * are too noisy to cluster: sum S / sum M instead (the paper's rule for
 * classes with few samples; the threshold is ivx's choice). */
#define DCC_FEW_SAMPLES 8.0
/* The lowest cluster must hold at least this share of the issue points. */
#define DCC_MIN_SHARE 0.25
#define DCC_CLUSTER 1.5

double dcc_class_freq(const double *r, const double *w, int n, double sum_s, double sum_m, int *used, int *conf,
		      int *how)
{
	for (int i = 0; i < n; i++)
		used[i] = 0;
	*conf = 0;
	*how = 0;
	if (!n || sum_m <= 0)
		return -1;
	if (sum_s / n < DCC_FEW_SAMPLES) {
		for (int i = 0; i < n; i++)
			used[i] = 1;
		*how = 2;
		*conf = 0;
		return sum_s / sum_m;
	}
	struct ratio *v = ivx_calloc((size_t)n, sizeof *v);
	if (!v)
		return sum_s / sum_m;
	int nz = 0;
	for (int i = 0; i < n; i++)
		if (r[i] > 0)          /* a point without samples in a class that has many is an anomaly */
			v[nz++] = (struct ratio){ r[i], w ? w[i] : 1, i };
	qsort(v, (size_t)nz, sizeof *v, cmp_ratio);
	int need = (int)ceil(DCC_MIN_SHARE * n);
	if (need < 1)
		need = 1;
	if (need > nz)
		need = nz;
	double f = -1;
	for (int s = 0; s < nz && f < 0; s++) {
		int e = s;
		while (e + 1 < nz && v[e + 1].r <= DCC_CLUSTER * v[s].r)
			e++;
		if (e - s + 1 < need)
			continue;
		/* weighted by the cycles behind each ratio: sum S / sum M of
		 * the cluster, so a long stall's many samples count for more
		 * than a one-cycle point's few (less sampling noise) */
		double tot = 0, wt = 0;
		for (int k = s; k <= e; k++) {
			tot += v[k].r * v[k].w;
			wt += v[k].w;
			used[v[k].idx] = 1;
		}
		f = tot / wt;
		double spread = v[e].r / v[s].r;
		int pts = e - s + 1;
		*conf = pts >= 3 && spread <= 1.25 ? 2 : pts >= 2 ? 1 : 0;
	}
	ivx_free(v);
	if (f < 0) {
		for (int i = 0; i < n; i++)
			used[i] = 1;
		*how = 2;
		return sum_s / sum_m;
	}
	*how = 1;
	return f;
}

/* ---- propagation ------------------------------------------------------------ */

/* One flow equation: sum of coef[c] * F(class c) = 0. Solve it for its one
 * unknown class when there is one; 1 if it did. */
static int solve(struct dcc *a, double *coef, int *touched, int nt)
{
	int unknown = -1;
	double known = 0;
	for (int k = 0; k < nt; k++) {
		int c = touched[k];
		if (coef[c] == 0)
			continue;
		if (a->cls_freq[c] < 0) {
			if (unknown >= 0 && unknown != c)
				return 0;
			unknown = c;
		} else {
			known += coef[c] * a->cls_freq[c];
		}
	}
	if (unknown < 0)
		return 0;
	double f = -known / coef[unknown];
	a->cls_freq[unknown] = f > 0 ? f : 0;   /* no negative estimates */
	a->cls_how[unknown] = 3;
	a->cls_conf[unknown] = 0;
	return 1;
}

/* One flow equation in class coefficients: side 0 of a block, its
 * incoming edges, side 1 its outgoing ones (node DCC_ENTRY / DCC_EXIT:
 * the edges leaving ENTRY / reaching EXIT), summed against the node's own
 * class. coef[] is zero on entry; each edge adds 1 to its class, the
 * node's class gets -1; the classes touched go to touched[], and their
 * count is returned. */
static int flow_equation(const struct dcc *a, long node, int side, double *coef, int *touched)
{
	int nt = 0;
	for (size_t e = 0; e < a->ne; e++) {
		const struct dcc_edge *x = &a->edges[e];
		int on = node >= 0 ? (!side ? x->to == node : x->from == node)
				   : node == DCC_ENTRY ? x->from == DCC_ENTRY : x->to == DCC_EXIT;
		if (!on)
			continue;
		if (coef[x->cls] == 0)
			touched[nt++] = x->cls;
		coef[x->cls] += 1;
	}
	int self = node >= 0 ? a->blocks[node].cls : a->back_cls;
	if (coef[self] == 0)
		touched[nt++] = self;
	coef[self] -= 1;
	return nt;
}

static void propagate(struct dcc *a)
{
	if (a->missing)
		return;
	double *coef = ivx_calloc((size_t)a->n_cls, sizeof(double));
	int *touched = ivx_calloc((size_t)a->n_cls + a->ne + 2, sizeof(int));
	if (!coef || !touched) {
		ivx_free(coef);
		ivx_free(touched);
		return;
	}
	for (int changed = 1; changed;) {
		changed = 0;
		/* nodes: each block twice (in, out), ENTRY, EXIT */
		for (long node = -2; node < (long)a->nb; node++) {
			for (int side = 0; side < 2; side++) {
				if (node < 0 && side)
					continue;
				int nt = flow_equation(a, node, side, coef, touched);
				changed |= solve(a, coef, touched, nt);
				for (int k = 0; k < nt; k++)
					coef[touched[k]] = 0;
			}
		}
	}
	ivx_free(coef);
	ivx_free(touched);
}

/* ivx's estimator: the classes' estimates reconciled with the flow
 * equations (dcpicalc_flow.c), each weighted by the inverse of a variance
 * that says how far it may be off (below). -1: no memory. */
#define DCC_BIAS_MEDIUM 0.05
#define DCC_FREE 10.0          /* a low-confidence estimate: standard deviation x itself */
#define DCC_UNSEEN 1000.0       /* a class filled by propagation only */

static int reconcile(struct dcc *a)
{
	int nc = a->n_cls, nq = 2 * (int)a->nb + 2;
	/* one more unknown than classes: the calls from other procedures of
	 * a procedure that calls itself (its entry equation, below) */
	double *var = ivx_calloc((size_t)nc + 1, sizeof(double)), *coef = ivx_calloc((size_t)nc + 1, sizeof(double));
	double *prior = ivx_calloc((size_t)nc + 1, sizeof(double));
	double *x = ivx_calloc((size_t)nc + 1, sizeof(double)), *xv = ivx_calloc((size_t)nc + 1, sizeof(double));
	int *start = ivx_calloc((size_t)nq + 2, sizeof(int)), *touched = ivx_calloc((size_t)nc + a->ne + 2, sizeof(int));
	size_t cap = (size_t)nq * 2 + a->ne * 2 + a->n + 6;
	int *ecls = ivx_calloc(cap, sizeof(int)), *nblk = ivx_calloc((size_t)nc, sizeof(int));
	double *ecoef = ivx_calloc(cap, sizeof(double));
	int rc = -1;
	if (!var || !coef || !prior || !start || !touched || !ecls || !ecoef || !nblk || !x || !xv)
		goto out;
	/* blocks entered by a fall-through: their head may pair with the
	 * block before, one cycle fewer than their M */
	for (size_t e = 0; e < a->ne; e++)
		if (a->edges[e].kind == DCC_EDGE_FALL && a->edges[e].to >= 0)
			nblk[a->blocks[a->edges[e].to].cls]++;
	double fmax = 0;   /* the procedure's scale */
	for (int c = 0; c < nc; c++)
		if (a->cls_freq[c] > fmax)
			fmax = a->cls_freq[c];
	if (fmax <= 0)
		fmax = 1;
	for (int c = 0; c < nc; c++) {
		double f = a->cls_freq[c];
		prior[c] = f;
		if (f < 0)
			continue;
		if ((a->cls_how[c] == 1 || a->cls_how[c] == 2) && a->cls_conf[c] > 0) {
			/* a cluster of issue points: the Poisson noise of the
			 * samples behind it, and 5% more for a loose one */
			double m = a->cls_m[c] > 0 ? a->cls_m[c] : 1;
			double bias = a->cls_conf[c] >= 2 ? 0 : DCC_BIAS_MEDIUM;
			var[c] = (a->cls_s[c] + 1) / (m * m) + bias * bias * f * f;
		} else if (a->cls_own[c] >= 0) {
			/* low confidence (one point, a loose cluster, few
			 * samples): as likely a point that always stalls as a
			 * pairing the schedule got wrong. As in the paper's
			 * propagation, the flow equations decide it (free, its own
			 * estimate kept only where they say nothing), except when
			 * the class has no sample at all over two cycles or more
			 * that cannot pair away: firm evidence it rarely runs. */
			f = prior[c] = a->cls_own[c];
			double m = a->cls_m[c] - nblk[c];
			if (m >= 2 && a->cls_s[c] == 0)
				var[c] = 1.0 / (m * m);
			else {
				/* free against any firm estimate, yet among free
				 * classes sharing an equation the bigger takes the
				 * bigger share of a correction */
				double sc = f > 0.1 * fmax ? f : 0.1 * fmax;
				var[c] = DCC_FREE * DCC_FREE * sc * sc;
			}
		} else {
			/* filled by propagation, no evidence of its own: freer still */
			var[c] = DCC_UNSEEN * DCC_UNSEEN * fmax * fmax;
		}
	}
	/* the calls known from the callers: a second estimate of the entry's
	 * class, weighed with the first by their variances */
	int bc = a->back_cls, self = 0;
	for (size_t i = 0; i < a->n; i++)
		self += a->code[i].kind == INSN_KIND_CALL && a->code[i].target == a->code[0].pc;
	int known = a->calls >= 0 && bc >= 0 && bc < nc, entry_eq = known && self;
	if (entry_eq) {
		/* a procedure that calls itself: the callers' sum covers the
		 * other procedures only (dcpicalc_calls.c leaves the calls to
		 * itself out), and its entry runs that often plus as often as
		 * its own call sites, which this solve estimates: an equation
		 * F(entry) = calls + sum F(call site), the calls an unknown of
		 * their own whose prior is the callers' estimate */
		prior[nc] = a->calls;
		var[nc] = a->calls_var;
	} else if (known) {
		if (prior[bc] < 0 || !(var[bc] > 0)) {
			prior[bc] = a->calls;
			var[bc] = a->calls_var;
		} else {
			double w1 = 1.0 / var[bc], w2 = 1.0 / a->calls_var;
			prior[bc] = (prior[bc] * w1 + a->calls * w2) / (w1 + w2);
			var[bc] = 1.0 / (w1 + w2);
		}
		a->cls_freq[bc] = prior[bc];   /* kept if no equation names it */
	}
	for (int c = 0; c < nc; c++)
		a->cls_var[c] = prior[c] >= 0 ? var[c] : -1;
	/* the flow equations, as propagate() writes them: per block its
	 * incoming edges and its outgoing edges each sum to its frequency;
	 * the edges from ENTRY and to EXIT to the calls' */
	int q = 0;
	size_t nk = 0;
	for (long node = -2; node < (long)a->nb; node++) {
		for (int side = 0; side < 2; side++) {
			if (node < 0 && side)
				continue;
			int nt = flow_equation(a, node, side, coef, touched);
			start[q] = (int)nk;
			for (int k = 0; k < nt; k++) {
				if (coef[touched[k]] != 0 && nk < cap) {
					ecls[nk] = touched[k];
					ecoef[nk++] = coef[touched[k]];
				}
				coef[touched[k]] = 0;
			}
			q++;
		}
	}
	int n_unk = nc;
	if (entry_eq) {
		/* F(entry) - calls - sum F(call site) = 0 */
		coef[bc] += 1;
		for (size_t i = 0; i < a->n; i++)
			if (a->code[i].kind == INSN_KIND_CALL && a->code[i].target == a->code[0].pc)
				coef[a->blocks[a->res[i].block].cls] -= 1;
		coef[nc] = -1;
		start[q] = (int)nk;
		for (int c = 0; c <= nc; c++)
			if (coef[c] != 0 && nk < cap) {
				ecls[nk] = c;
				ecoef[nk++] = coef[c];
				coef[c] = 0;
			}
		q++;
		n_unk = nc + 1;
	}
	start[q] = (int)nk;
	memcpy(x, a->cls_freq, (size_t)nc * sizeof *x);
	memcpy(xv, a->cls_var, (size_t)nc * sizeof *xv);
	x[nc] = prior[nc];
	xv[nc] = var[nc];
	rc = dcc_flow_reconcile(n_unk, prior, var, x, xv, q, start, ecls, ecoef);
	memcpy(a->cls_freq, x, (size_t)nc * sizeof *x);
	memcpy(a->cls_var, xv, (size_t)nc * sizeof *xv);
out:
	ivx_free(x);
	ivx_free(xv);
	ivx_free(var);
	ivx_free(prior);
	ivx_free(coef);
	ivx_free(start);
	ivx_free(touched);
	ivx_free(ecls);
	ivx_free(ecoef);
	ivx_free(nblk);
	return rc;
}

void dcc_set_estimator(struct dcc *a, enum dcc_estimator e)
{
	a->estimator = e;
}

void dcc_set_calls(struct dcc *a, double calls, double var)
{
	a->calls = calls >= 0 && var > 0 ? calls : -1;
	a->calls_var = var;
}

const char *dcc_estimator_name(enum dcc_estimator e)
{
	return e == DCC_EST_IVX ? "ivx" : "paper";
}

int dcc_estimator_parse(const char *s)
{
	if (!strcmp(s, "paper"))
		return DCC_EST_PAPER;
	if (!strcmp(s, "ivx"))
		return DCC_EST_IVX;
	return -1;
}

/* ---- culprits ----------------------------------------------------------------- */

static void add_culprit(struct dcc_result_insn *r, int letter, uint64_t pc)
{
	r->culprits |= 1u << letter;
	if (!pc)
		return;
	for (int k = 0; k < r->n_culprit_pcs; k++)
		if (r->culprit_pc[k] == pc)
			return;
	if (r->n_culprit_pcs < DCC_MAX_CULPRITS)
		r->culprit_pc[r->n_culprit_pcs++] = pc;
}

/* Walk back from instruction i through its block and the blocks before it
 * (depth-first over predecessors, at most `window` instructions on each
 * path), calling visit(j, distance); visit returns 1 to stop that path. */
struct walk {
	struct dcc *a;
	size_t target;
	uint64_t regs;              /* bit k: source k of the target still unresolved on this path */
	int left_block;
};

static void culprits_walk(struct dcc *a, size_t i, long j, int dist, int window, uint64_t pending, int crossed,
			  int depth)
{
	const struct dcc_insn *x = &a->code[i];
	struct dcc_result_insn *r = &a->res[i];
	const struct dcc_block *b = &a->blocks[a->res[j].block];
	for (; j >= (long)b->first && dist < window; j--, dist++) {
		const struct dcc_insn *y = &a->code[j];
		/* operands: the youngest writer on this path */
		for (int k = 0; k < x->n_src; k++) {
			if (!(pending >> k & 1))
				continue;
			int writes = 0;
			for (int d = 0; d < y->n_dst; d++)
				writes |= y->dst[d] == x->src[k];
			if (!writes)
				continue;
			pending &= ~(1ull << k);
			/* (a written-back base comes from the address step, not the data) */
			if (y->kind == INSN_KIND_LOAD && y->wb_base != x->src[k] + 1) {
				add_culprit(r, DCC_D_DCACHE, y->pc);
				add_culprit(r, DCC_D_DTLB, y->pc);
			} else if (y->kind == INSN_KIND_MUL || y->kind == INSN_KIND_DIV || y->kind == INSN_KIND_FP ||
				   y->kind == INSN_KIND_FDIV || y->kind == INSN_KIND_SIMD) {
				if (crossed)
					add_culprit(r, DCC_D_LONG, y->pc);
			} else if (crossed && dist < 2 * (int)a->mc.issue_width) {
				add_culprit(r, DCC_D_XDEP, y->pc);
			}
		}
		if (a->direct)
			continue;
		/* a full ROB behind a missing load or a store that cannot write */
		if (dist + 1 >= (int)a->mc.rob_size / 2) {
			if (y->kind == INSN_KIND_LOAD) {
				add_culprit(r, DCC_D_DCACHE, y->pc);
				add_culprit(r, DCC_D_DTLB, y->pc);
			}
		}
		if (y->kind == INSN_KIND_STORE)
			add_culprit(r, DCC_D_WBUF, y->pc);
		if ((y->kind == INSN_KIND_DIV || y->kind == INSN_KIND_FDIV) &&
		    (x->kind == y->kind || dist + 1 >= (int)a->mc.rob_size / 2))
			add_culprit(r, DCC_D_LONG, y->pc);
	}
	if (dist >= window || depth > 8)
		return;
	for (size_t e = 0; e < a->ne; e++) {
		const struct dcc_edge *ed = &a->edges[e];
		if (ed->to != a->res[b->first].block)
			continue;
		if ((ed->from < 0 || ed->kind == DCC_EDGE_AFTER_CALL) && pending && !a->direct && dist < 2 * (int)a->mc.issue_width) {
			/* an operand from the caller, or from the callee just
			 * returned, close enough to be in flight: it may come
			 * from a load that missed there */
			add_culprit(r, DCC_D_DCACHE, 0);
			add_culprit(r, DCC_D_DTLB, 0);
			add_culprit(r, DCC_D_XDEP, 0);
			add_culprit(r, DCC_D_LONG, 0);
		}
		if (ed->from < 0)
			continue;
		const struct dcc_block *p = &a->blocks[ed->from];
		culprits_walk(a, i, (long)(p->first + p->n - 1), dist, window, pending, 1, depth + 1);
	}
}

static int line_start_like(const struct dcc *a, size_t i, uint64_t size)
{
	const struct dcc_result_insn *r = &a->res[i];
	const struct dcc_block *b = &a->blocks[r->block];
	uint64_t pc = a->code[i].pc;
	if (i != b->first)
		return pc % size == 0;
	for (size_t e = 0; e < a->ne; e++) {
		const struct dcc_edge *ed = &a->edges[e];
		if (ed->to != r->block)
			continue;
		if (ed->from < 0 || ed->kind == DCC_EDGE_AFTER_CALL)
			return 1;       /* from another procedure, or back from a callee */
		const struct dcc_block *p = &a->blocks[ed->from];
		if (a->code[p->first + p->n - 1].pc / size != pc / size)
			return 1;
	}
	return 0;
}

static void find_culprits(struct dcc *a, size_t i)
{
	struct dcc_result_insn *r = &a->res[i];
	const struct dcc_insn *x = &a->code[i];
	const struct dcc_block *b = &a->blocks[r->block];
	size_t pos = i - b->first;
	uint64_t line = a->mc.l1i.line ? a->mc.l1i.line : 64, page = a->mc.itlb.page ? a->mc.itlb.page : 4096;
	if (line_start_like(a, i, line))
		add_culprit(r, DCC_D_ICACHE, 0);
	if (line_start_like(a, i, page))
		add_culprit(r, DCC_D_ITLB, 0);
	/* the first instructions of a block after a branch: that branch may
	 * have been mispredicted (wrong path, then the refill) */
	if (pos < 2 * a->mc.issue_width) {
		for (size_t e = 0; e < a->ne; e++) {
			const struct dcc_edge *ed = &a->edges[e];
			if (ed->to != r->block)
				continue;
			if (ed->from < 0) {
				add_culprit(r, DCC_D_MISP, 0);
				/* no edge the code shows (an added one): a target of
				 * the procedure's indirect jumps (a switch, an
				 * interpreter's dispatch), which may have mispredicted */
				for (size_t k = 0; ed->kind == DCC_EDGE_ADDED && a->missing && k < a->n; k++)
					if (a->code[k].kind == INSN_KIND_INDIRECT)
						add_culprit(r, DCC_D_MISP, a->code[k].pc);
				continue;
			}
			const struct dcc_block *p = &a->blocks[ed->from];
			const struct dcc_insn *last = &a->code[p->first + p->n - 1];
			if (is_branch(last->kind))
				add_culprit(r, DCC_D_MISP, last->pc);
			/* the other successor of a conditional branch runs as wrong path */
			if (last->kind == INSN_KIND_COND_BRANCH)
				add_culprit(r, DCC_D_MISP, last->pc);
		}
		if (pos < a->mc.fetch_width)
			add_culprit(r, DCC_D_FETCH, 0);
	}
	if (pos && a->code[i - 1].pc / line != x->pc / line)
		add_culprit(r, DCC_D_FETCH, 0);
	if (x->kind == INSN_KIND_SYSCALL || (pos && a->code[i - 1].kind == INSN_KIND_SYSCALL))
		add_culprit(r, DCC_D_SERIAL, 0);
	if (x->kind == INSN_KIND_LOAD && !a->direct)
		add_culprit(r, DCC_D_WBUF, 0);   /* waits for an older store, or an MSHR */
	int window = (int)a->mc.rob_size + (int)a->mc.issue_width;
	uint64_t pending = x->n_src >= 64 ? ~0ull : (1ull << x->n_src) - 1;
	if (i > b->first)
		culprits_walk(a, i, (long)i - 1, 0, window, pending, 0, 0);
	if (i == b->first) {
		/* walk the predecessors only */
		for (size_t e = 0; e < a->ne; e++) {
			const struct dcc_edge *ed = &a->edges[e];
			if (ed->to != r->block)
				continue;
			if ((ed->from < 0 || ed->kind == DCC_EDGE_AFTER_CALL) && pending && !a->direct) {
				add_culprit(r, DCC_D_DCACHE, 0);   /* an operand from the caller or callee */
				add_culprit(r, DCC_D_DTLB, 0);
				add_culprit(r, DCC_D_XDEP, 0);
				add_culprit(r, DCC_D_LONG, 0);
			}
			if (ed->from < 0)
				continue;
			const struct dcc_block *p = &a->blocks[ed->from];
			culprits_walk(a, i, (long)(p->first + p->n - 1), 0, window, pending, 1, 1);
		}
	}
}

/* The paper's upper bound from event samples: at most (samples + 1) x
 * period events in the whole procedure, each costing at most `penalty`
 * cycles; a letter whose bound is under a tenth of the stall is ruled out. */
static void rule_out(struct dcc *a, const struct dcc_profile *p, double cyc_period)
{
	static const int ev_letter[5] = { -1, DCC_D_ICACHE, DCC_D_DCACHE, DCC_D_MISP, DCC_D_DTLB };
	const struct machine_config *mc = &a->mc;
	double penalty[5] = { 0, mc->l1i.latency + mc->l2.latency + mc->memory_latency + mc->itlb.miss_latency,
			      mc->l2.latency + mc->memory_latency + mc->l1d.latency + mc->rob_size,
			      mc->frontend_depth + 2.0 * mc->issue_width + 2, mc->dtlb.miss_latency + mc->rob_size };
	for (int ev = 1; ev < 5; ev++) {
		if (!p->samples[ev] || p->period[ev] <= 0)
			continue;
		double tot = 0;
		for (size_t i = 0; i < a->n; i++)
			tot += (double)p->samples[ev][i];
		double bound = (tot + 1) * p->period[ev] * penalty[ev] / cyc_period;   /* in CYCLES samples */
		for (size_t i = 0; i < a->n; i++) {
			struct dcc_result_insn *r = &a->res[i];
			if (r->dyn > 0 && bound < 0.1 * r->dyn)
				r->culprits &= ~(1u << ev_letter[ev]);
		}
	}
}

/* Block k is entered after a call returns (an edge of kind 2). */
static int returns_into(const struct dcc *a, int k)
{
	for (size_t e = 0; e < a->ne; e++)
		if (a->edges[e].to == k && a->edges[e].kind == DCC_EDGE_AFTER_CALL)
			return 1;
	return 0;
}

/* ivx: an issue point whose M the schedule cannot know. The head of a
 * block a call returns to may issue with the callee's ret, in the cycle
 * the schedule gives the ret (which it cannot see: another procedure),
 * so its M of 1 is often 0 and its ratio far below the class's (strproc's
 * `cbnz w0` after `bl strcmp`: a true CPI of 0.3). */
static int weak_point(const struct dcc *a, size_t i)
{
	const struct dcc_result_insn *r = &a->res[i];
	return a->estimator == DCC_EST_IVX && r->m == 1 && i == a->blocks[r->block].first &&
	       returns_into(a, r->block);
}

static int estimate_once(struct dcc *a, const struct dcc_profile *p, struct ivx_err *err)
{
	const uint64_t *S = p->samples[0];
	if (!S)
		return ivx_error(err, IVX_EUSAGE, "dcpicalc: no CYCLES samples");
	double cyc_period = p->period[0] > 0 ? p->period[0] : 1;
	for (int c = 0; c < a->n_cls; c++) {
		a->cls_freq[c] = -1;
		a->cls_how[c] = a->cls_conf[c] = 0;
	}
	for (size_t i = 0; i < a->n; i++) {
		struct dcc_result_insn *r = &a->res[i];
		r->used = 0;
		r->ratio = -1;
		r->culprits = 0;
		r->n_culprit_pcs = 0;
	}
	/* ratios of the issue points, then each class's estimate */
	double *ratio = ivx_calloc(a->n + 1, sizeof(double)), *weight = ivx_calloc(a->n + 1, sizeof(double));
	int *idx = ivx_calloc(a->n + 1, sizeof(int)), *used = ivx_calloc(a->n + 1, sizeof(int));
	if (!ratio || !weight || !idx || !used) {
		ivx_free(ratio);
		ivx_free(weight);
		ivx_free(idx);
		ivx_free(used);
		return ivx_error(err, IVX_ESYS, "dcpicalc: out of memory");
	}
	for (size_t i = 0; i < a->n; i++) {
		struct dcc_result_insn *r = &a->res[i];
		if (!r->issue_point)
			continue;
		long j = r->static_culprit;
		const struct dcc_block *b = &a->blocks[r->block];
		if (r->static_why == DCC_S_DEP && j >= (long)b->first && j < (long)i - 1) {
			/* the paper's range ratio: the latency of j overlaps any
			 * stall between j and i */
			double s = 0, m = 0;
			for (long k = j + 1; k <= (long)i; k++) {
				s += (double)S[k];
				m += a->res[k].m;
			}
			r->ratio = m > 0 ? s / m : -1;
			r->weight = m;
		} else {
			r->ratio = (double)S[i] / r->m;
			r->weight = r->m;
		}
		if (a->estimator == DCC_EST_IVX && r->m == 1) {
			/* ivx: a single-cycle point counts the samples of the
			 * instructions that issue with it (M = 0 after it). When
			 * a stall before shifts the pairs by one, the cycle moves
			 * to the other member, and the group's sum stays. */
			double extra = 0;
			for (size_t k = i + 1; k < b->first + b->n && a->res[k].m == 0; k++)
				extra += (double)S[k];
			if (extra > 0 && r->ratio >= 0)
				r->ratio += extra / r->weight;
		}
	}
	for (int c = 0; c < a->n_cls; c++) {
		int n = 0;
		double sum_s = 0, sum_m = 0, clean_s = 0, clean_m = 0, weak_m = 0, strong_m = 0, strong_min = -1;
		for (size_t k = 0; k < a->nb; k++) {
			const struct dcc_block *b = &a->blocks[k];
			if (b->cls != c)
				continue;
			for (size_t i = b->first; i < b->first + b->n; i++) {
				sum_s += (double)S[i];
				sum_m += a->res[i].m;
				if (!a->res[i].likely) {
					clean_s += (double)S[i];
					clean_m += a->res[i].m;
				}
				if (a->res[i].issue_point && a->res[i].ratio >= 0) {
					if (weak_point(a, i)) {
						weak_m += a->res[i].weight;
					} else {
						strong_m += a->res[i].weight;
						if (strong_min < 0 || a->res[i].ratio < strong_min)
							strong_min = a->res[i].ratio;
					}
					idx[n] = (int)i;
					weight[n] = a->res[i].weight;
					ratio[n++] = a->res[i].ratio;
				}
			}
		}
		/* a weak point under the lowest cluster the others could form
		 * (below 2/3 of their lowest ratio, the cluster's width) stays
		 * out, unless weak points carry most of the class's M (icache's
		 * one_round, a chain of calls: then they are the evidence) */
		if (strong_m > 0 && weak_m <= strong_m) {
			int kept = 0;
			for (int k = 0; k < n; k++)
				if (!weak_point(a, (size_t)idx[k]) || ratio[k] * 1.5 >= strong_min) {
					idx[kept] = idx[k];
					weight[kept] = weight[k];
					ratio[kept++] = ratio[k];
				}
			n = kept;
		}
		if (!n)
			continue;
		int conf, how;
		/* with few samples, sum S / sum M over the instructions that no
		 * dynamic stall is tied to, when they carry a fair share of
		 * the best-case cycles (ivx's refinement of the paper's rule) */
		if (clean_m >= 0.25 * sum_m && clean_m > 0) {
			sum_s = clean_s;
			sum_m = clean_m;
		}
		a->cls_freq[c] = dcc_class_freq(ratio, weight, n, sum_s, sum_m, used, &conf, &how);
		if (a->estimator == DCC_EST_IVX && how == 1)
			a->cls_freq[c] = dcc_class_pool(ratio, weight, n, a->cls_freq[c], used);
		a->cls_conf[c] = conf;
		a->cls_how[c] = how;
		a->cls_s[c] = sum_s;
		a->cls_m[c] = sum_m;
		if (how == 1) {
			a->cls_s[c] = a->cls_m[c] = 0;
			for (int k = 0; k < n; k++) {
				if (!used[k])
					continue;
				a->cls_s[c] += ratio[k] * weight[k];
				a->cls_m[c] += weight[k];
			}
		}
		for (int k = 0; k < n; k++)
			a->res[idx[k]].used = used[k];
	}
	ivx_free(ratio);
	ivx_free(weight);
	ivx_free(idx);
	ivx_free(used);
	for (int c = 0; c < a->n_cls; c++)
		a->cls_own[c] = a->cls_freq[c];
	/* Low-confidence estimates (one issue point, or a loose cluster) are
	 * often a point that always stalls: let the flow equations fill them
	 * from the others first, and keep their own estimate only where the
	 * graph says nothing. */
	double *own = ivx_calloc((size_t)a->n_cls + 1, sizeof(double));
	if (own && !a->missing) {
		for (int c = 0; c < a->n_cls; c++) {
			own[c] = -2;
			if (a->cls_freq[c] >= 0 && a->cls_conf[c] == 0) {
				own[c] = a->cls_freq[c];
				a->cls_freq[c] = -1;
			}
		}
		propagate(a);
		for (int c = 0; c < a->n_cls; c++)
			if (own[c] > -2 && a->cls_freq[c] < 0)
				a->cls_freq[c] = own[c];
	}
	ivx_free(own);
	propagate(a);
	if (a->estimator == DCC_EST_IVX && !a->missing && reconcile(a) < 0)
		return ivx_error(err, IVX_ESYS, "dcpicalc: out of memory");
	for (size_t k = 0; k < a->nb; k++) {
		struct dcc_block *b = &a->blocks[k];
		b->freq = a->cls_freq[b->cls];
		b->var = a->estimator == DCC_EST_IVX && !a->missing ? a->cls_var[b->cls] : -1;
		b->how = a->cls_how[b->cls];
		b->conf = a->cls_conf[b->cls];
	}
	for (size_t e = 0; e < a->ne; e++)
		a->edges[e].freq = a->cls_freq[a->edges[e].cls];
	/* CPI, dynamic stalls, culprits */
	for (size_t i = 0; i < a->n; i++) {
		struct dcc_result_insn *r = &a->res[i];
		const struct dcc_block *b = &a->blocks[r->block];
		r->freq = b->freq;
		r->conf = b->conf;
		r->cpi = r->freq > 0 ? (double)S[i] / r->freq : -1;
		r->dyn = r->freq >= 0 ? (double)S[i] - r->freq * r->m : 0;
		/* beyond two standard deviations of the samples' Poisson noise
		 * around F M_i: a stall (or gain), not sampling error */
		r->significant = r->freq >= 0 && fabs(r->dyn) > 2.0 * sqrt(r->freq * r->m + 1.0);
		if (r->dyn > 0)
			find_culprits(a, i);
	}
	rule_out(a, p, cyc_period);
	/* the Figure 4 summary */
	struct dcc_summary *s = &a->sum;
	memset(s, 0, sizeof *s);
	double w = a->mc.issue_width ? a->mc.issue_width : 1;
	for (size_t k = 0; k < a->nb; k++) {
		const struct dcc_block *b = &a->blocks[k];
		for (size_t i = b->first; i < b->first + b->n; i++)
			s->samples += (double)S[i];
		if (b->freq < 0) {
			for (size_t i = b->first; i < b->first + b->n; i++)
				s->unknown += (double)S[i];
			continue;
		}
		double F = b->freq;
		s->best += F * b->m_total;
		double st0 = s->static_[0] + s->static_[1] + s->static_[2];
		/* static stalls: an issue point's cycles beyond the first, and
		 * the slots its group left empty, go to the reason the next
		 * issue point could not join it */
		for (size_t i = b->first; i < b->first + b->n; i++) {
			const struct dcc_result_insn *r = &a->res[i];
			if (!r->issue_point)
				continue;
			size_t g = 1, nx = i + 1;
			while (nx < b->first + b->n && !a->res[nx].issue_point)
				g++, nx++;
			int why = nx < b->first + b->n && a->res[nx].static_why >= 0 ? a->res[nx].static_why : DCC_S_SLOT;
			s->static_[why] += F * (1.0 - (double)g / w);
			if (r->m > 1)
				s->static_[r->static_why >= 0 ? r->static_why : DCC_S_SLOT] += F * (r->m - 1);
		}
		/* the rest of the best case is execution: F x (instructions that
		 * issue in this block's cycles) / issue width */
		s->execution += F * b->m_total - (s->static_[0] + s->static_[1] + s->static_[2] - st0);
		for (size_t i = b->first; i < b->first + b->n; i++) {
			const struct dcc_result_insn *r = &a->res[i];
			if (!r->significant) {
				s->noise += r->dyn;
				continue;
			}
			if (r->dyn < 0) {
				s->gain += r->dyn;
				continue;
			}
			s->dynamic += r->dyn;
			int nl = __builtin_popcount(r->culprits);
			if (!nl)
				s->unexplained += r->dyn;
			for (int l = 0; l < DCC_LETTER_COUNT; l++) {
				if (!(r->culprits >> l & 1))
					continue;
				s->dyn_hi[l] += r->dyn;
				if (nl == 1)
					s->dyn_lo[l] += r->dyn;
			}
		}
	}
	return IVX_OK;
}

/* A block with several predecessors was scheduled from an empty machine;
 * once the edges have estimates, schedule it after the one that brings
 * most of its executions (at least half), so pairs across the boundary
 * are counted. 1 if some block's context changed. */
static int update_context(struct dcc *a)
{
	int changed = 0;
	for (size_t k = 0; k < a->nb; k++) {
		if (context_pred(a, k) >= 0 || a->blocks[k].freq <= 0)
			continue;
		long best = -1;
		double bf = 0;
		for (size_t e = 0; e < a->ne; e++) {
			const struct dcc_edge *x = &a->edges[e];
			if (x->to != (int)k || x->from < 0 || x->kind == DCC_EDGE_AFTER_CALL || x->kind == DCC_EDGE_ADDED)
				continue;
			if (x->freq > bf) {
				bf = x->freq;
				best = x->from;
			}
		}
		if (bf < 0.5 * a->blocks[k].freq)
			best = -1;
		if (best != a->ctx[k]) {
			a->ctx[k] = best;
			changed = 1;
		}
	}
	return changed;
}

int dcc_estimate(struct dcc *a, const struct dcc_profile *p, struct ivx_err *err)
{
	for (size_t k = 0; k < a->nb; k++)
		a->ctx[k] = context_pred(a, k);
	if (schedule_all(a) < 0)
		return ivx_error(err, IVX_ESYS, "dcpicalc: out of memory");
	int rc = estimate_once(a, p, err);
	if (rc < 0 || a->missing || !update_context(a))
		return rc;
	if (schedule_all(a) < 0)
		return ivx_error(err, IVX_ESYS, "dcpicalc: out of memory");
	return estimate_once(a, p, err);
}

size_t dcc_insn_count(const struct dcc *a) { return a->n; }
const struct dcc_insn *dcc_insn_at(const struct dcc *a, size_t i) { return i < a->n ? &a->code[i] : NULL; }
const struct dcc_result_insn *dcc_result_at(const struct dcc *a, size_t i) { return i < a->n ? &a->res[i] : NULL; }
size_t dcc_block_count(const struct dcc *a) { return a->nb; }
const struct dcc_block *dcc_block_at(const struct dcc *a, size_t b) { return b < a->nb ? &a->blocks[b] : NULL; }
size_t dcc_edge_count(const struct dcc *a) { return a->ne; }
const struct dcc_edge *dcc_edge_at(const struct dcc *a, size_t e) { return e < a->ne ? &a->edges[e] : NULL; }
int dcc_class_count(const struct dcc *a) { return a->n_cls; }
int dcc_missing_edges(const struct dcc *a) { return a->missing; }
const struct dcc_summary *dcc_summary(const struct dcc *a) { return &a->sum; }
