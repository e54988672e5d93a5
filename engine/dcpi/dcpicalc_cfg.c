/*
 * dcpicalc_cfg.c — the static half of dcpicalc (dcpicalc.h): the
 * best-case schedule of a basic block on ivx's in-order machine, and cycle
 * equivalence.
 *
 * The schedule follows engine/core's in-order issue rules with the
 * configuration's numbers: instructions issue in program order, at most
 * issue_width per cycle, an instruction waits for its operands (a result
 * is ready `latency` cycles after its producer issued: the writeback stage
 * runs before issue in a cycle), for a free unit (alu, mul and FP units
 * are pipelined, so only their count per cycle limits; dividers are busy
 * for their whole latency; loads and stores share mem_ports), and for the
 * frontend: the block is fetched in groups of up to fetch_width
 * instructions that do not cross an I-cache line (nor a taken branch), one
 * group per cycle, so group g cannot issue before the block's cycle g.
 * dcc_new schedules a block after its one predecessor when it has one (a
 * loop's body after itself), else from an empty machine, every operand
 * ready: the paper's simplification.
 *
 * Cycle equivalence: two edges of a strongly connected graph run equally
 * often iff every cycle through one passes through the other (Johnson,
 * Pearson and Pingali, PLDI 1994), which in the undirected graph means
 * removing both disconnects it. With few hundred edges per procedure the
 * direct test is cheap: for each edge a, the bridges of the graph without
 * a are exactly the edges equivalent to a.
 */
#include <string.h>
#include "base/alloc.h"
#include "dcpicalc.h"

/* ---- the schedule ---------------------------------------------------------- */

enum { U_ALU, U_MUL, U_DIV, U_MEM, U_FP, U_FDIV, U_COUNT };

static int unit_of(int kind)
{
	switch (kind) {
	case INSN_KIND_MUL: return U_MUL;
	case INSN_KIND_DIV: return U_DIV;
	case INSN_KIND_LOAD: case INSN_KIND_STORE: return U_MEM;
	case INSN_KIND_FP: case INSN_KIND_SIMD: return U_FP;
	case INSN_KIND_FDIV: return U_FDIV;
	default: return U_ALU;
	}
}

static uint32_t latency_of(int kind, const struct machine_config *mc)
{
	switch (kind) {
	case INSN_KIND_MUL: return mc->mul_latency;
	case INSN_KIND_DIV: return mc->div_latency;
	case INSN_KIND_LOAD: return mc->load_latency > mc->l1d.latency ? mc->load_latency : mc->l1d.latency;
	case INSN_KIND_STORE: return 1;
	case INSN_KIND_FP: return mc->fp_latency;
	case INSN_KIND_SIMD: return mc->simd_latency;
	case INSN_KIND_FDIV: return mc->fdiv_latency;
	default: return mc->alu_latency;
	}
}

static uint32_t units_of(int u, const struct machine_config *mc)
{
	switch (u) {
	case U_MUL: return mc->mul_units;
	case U_DIV: return mc->div_units;
	case U_MEM: return mc->mem_ports;
	case U_FP: return mc->fp_units;
	case U_FDIV: return mc->fdiv_units;
	default: return mc->alu_units;
	}
}

void dcc_schedule(const struct dcc_insn *insns, size_t n, const struct machine_config *mc, int *m, int *why,
		  long *culprit)
{
	dcc_schedule_after(insns, n, (size_t)-1, mc, m, why, culprit);
}

void dcc_schedule_after(const struct dcc_insn *insns, size_t n, size_t new_group, const struct machine_config *mc,
			int *m, int *why, long *culprit)
{
	uint64_t ready[256];        /* cycle each register's value is ready */
	long writer[256];           /* ... and who writes it */
	memset(ready, 0, sizeof ready);
	for (int r = 0; r < 256; r++)
		writer[r] = -1;
	uint64_t div_free[8] = { 0 }, fdiv_free[8] = { 0 };
	long div_user[8], fdiv_user[8];
	uint32_t used[U_COUNT] = { 0 };
	long last_user[U_COUNT];
	for (int u = 0; u < U_COUNT; u++)
		last_user[u] = -1;
	uint32_t width = mc->issue_width ? mc->issue_width : 1, fw = mc->fetch_width ? mc->fetch_width : 1;
	uint64_t line = mc->l1i.line ? mc->l1i.line : 64;
	uint64_t prev = 0, issued_in_prev = 0, done_all = 0;
	uint64_t group = 0, group_n = 0, group_line = n ? insns[0].pc / line : 0;
	for (size_t i = 0; i < n; i++) {
		const struct dcc_insn *x = &insns[i];
		/* fetch group of this instruction */
		if (i) {
			if (group_n >= fw || x->pc / line != group_line || i == new_group) {
				group++;
				group_n = 0;
				group_line = x->pc / line;
			}
		}
		group_n++;
		uint64_t e = i ? prev : 0;
		int reason = -1;
		long who = -1;
		if (group > e) {
			e = group;
			reason = DCC_S_SLOT;
		}
		for (int k = 0; k < x->n_src; k++) {
			uint8_t r = x->src[k];
			if (ready[r] > e) {
				e = ready[r];
				reason = DCC_S_DEP;
				who = writer[r];
			}
		}
		if (x->kind == INSN_KIND_SYSCALL && done_all > e) {
			e = done_all;            /* serializing: waits for everything older */
			reason = DCC_S_DEP;
			who = i ? (long)i - 1 : -1;
		}
		int u = unit_of(x->kind);
		uint32_t nu = units_of(u, mc);
		if (!nu)
			nu = 1;
		if (i && e == prev) {
			if (issued_in_prev >= width) {
				e++;
				reason = -2;     /* the previous group was full: no stall */
				who = -1;
			} else if ((u != U_DIV && u != U_FDIV) && used[u] >= nu) {
				e++;
				reason = DCC_S_UNIT;
				who = last_user[u];
			}
		}
		if (u == U_DIV || u == U_FDIV) {
			uint64_t *busy = u == U_DIV ? div_free : fdiv_free;
			long *user = u == U_DIV ? div_user : fdiv_user;
			uint32_t cnt = nu > 8 ? 8 : nu, best = 0;
			for (uint32_t d = 1; d < cnt; d++)
				if (busy[d] < busy[best])
					best = d;
			if (busy[best] > e) {
				e = busy[best];
				reason = DCC_S_UNIT;
				who = user[best];
			}
			busy[best] = e + latency_of(x->kind, mc);
			user[best] = (long)i;
		}
		/* the previous cycle's group was full: the cycle after it is no stall */
		if (i && e == prev + 1 && issued_in_prev >= width && (reason == DCC_S_SLOT || reason == -1))
			reason = -2;
		if (!i || e != prev) {
			memset(used, 0, sizeof used);
			issued_in_prev = 0;
		}
		m[i] = i ? (int)(e - prev) : (int)e + 1;
		why[i] = m[i] > 0 && i ? reason : -1;
		if (why[i] == -1 && m[i] > 0 && i)
			why[i] = DCC_S_SLOT;
		if (why[i] == -2)
			why[i] = -1;
		culprit[i] = why[i] >= 0 ? who : -1;
		used[u]++;
		last_user[u] = (long)i;
		issued_in_prev++;
		prev = e;
		uint64_t done = e + latency_of(x->kind, mc);
		if (done > done_all)
			done_all = done;
		for (int k = 0; k < x->n_dst; k++) {
			ready[x->dst[k]] = done;
			writer[x->dst[k]] = (long)i;
		}
		if (x->wb_base)
			ready[x->wb_base - 1] = e + 1;   /* the address step */
	}
}

/* ---- cycle equivalence ---------------------------------------------------- */

struct ugraph {
	int nv, ne;
	const int *u, *v;
	int *adj_start, *adj;       /* adjacency: edge ids per node */
	int *disc, *low;
	char *bridge;
	int skip;                   /* the edge taken out, -1 none */
	int time;
};

static void dfs(struct ugraph *g, int x, int via)
{
	g->disc[x] = g->low[x] = ++g->time;
	for (int k = g->adj_start[x]; k < g->adj_start[x + 1]; k++) {
		int e = g->adj[k];
		if (e == via || e == g->skip)
			continue;
		int y = g->u[e] == x ? g->v[e] : g->u[e];
		if (!g->disc[y]) {
			dfs(g, y, e);
			if (g->low[y] < g->low[x])
				g->low[x] = g->low[y];
			if (g->low[y] > g->disc[x])
				g->bridge[e] = 1;
		} else if (g->disc[y] < g->low[x]) {
			g->low[x] = g->disc[y];
		}
	}
}

static void bridges(struct ugraph *g, int skip)
{
	g->skip = skip;
	g->time = 0;
	memset(g->disc, 0, sizeof(int) * (size_t)g->nv);
	memset(g->bridge, 0, (size_t)g->ne);
	for (int x = 0; x < g->nv; x++)
		if (!g->disc[x])
			dfs(g, x, -1);
}

static int find(int *p, int x)
{
	while (p[x] != x)
		x = p[x] = p[p[x]];
	return x;
}

int dcc_cycle_classes(int nv, int ne, const int *u, const int *v, int *cls)
{
	struct ugraph g = { .nv = nv, .ne = ne, .u = u, .v = v };
	g.adj_start = ivx_calloc((size_t)nv + 1, sizeof(int));
	g.adj = ivx_calloc((size_t)ne * 2 + 1, sizeof(int));
	g.disc = ivx_calloc((size_t)nv + 1, sizeof(int));
	g.low = ivx_calloc((size_t)nv + 1, sizeof(int));
	g.bridge = ivx_calloc((size_t)ne + 1, 1);
	int *parent = ivx_calloc((size_t)ne + 1, sizeof(int));
	char *own = ivx_calloc((size_t)ne + 1, 1);
	int *fill = ivx_calloc((size_t)nv + 1, sizeof(int));
	int n_cls = -1;
	if (!g.adj_start || !g.adj || !g.disc || !g.low || !g.bridge || !parent || !own || !fill)
		goto out;
	for (int e = 0; e < ne; e++) {
		g.adj_start[u[e] + 1]++;
		g.adj_start[v[e] + 1]++;
	}
	for (int x = 0; x < nv; x++)
		g.adj_start[x + 1] += g.adj_start[x];
	for (int e = 0; e < ne; e++) {
		g.adj[g.adj_start[u[e]] + fill[u[e]]++] = e;
		g.adj[g.adj_start[v[e]] + fill[v[e]]++] = e;
	}
	for (int e = 0; e < ne; e++)
		parent[e] = e;
	/* a bridge of the whole graph is in no cycle: a class of its own */
	bridges(&g, -1);
	memcpy(own, g.bridge, (size_t)ne);
	for (int a = 0; a < ne; a++) {
		if (own[a])
			continue;
		bridges(&g, a);
		for (int b = 0; b < ne; b++)
			if (g.bridge[b] && !own[b])
				parent[find(parent, b)] = find(parent, a);
	}
	n_cls = 0;
	for (int e = 0; e < ne; e++)
		cls[e] = -1;
	for (int e = 0; e < ne; e++) {
		int r = find(parent, e);
		if (cls[r] < 0)
			cls[r] = n_cls++;
		cls[e] = cls[r];
	}
out:
	ivx_free(g.adj_start);
	ivx_free(g.adj);
	ivx_free(g.disc);
	ivx_free(g.low);
	ivx_free(g.bridge);
	ivx_free(parent);
	ivx_free(own);
	ivx_free(fill);
	return n_cls;
}
