/*
 * cmd_dcpicalc.c — `ivx dcpicalc [--db DIR] [--json FILE] [--truth] PROC|ADDR`
 * (and `--all`): the analysis half of DCPI on a profile database, printed
 * as the paper's Figure 2 (per block the best-case and actual CPI; per
 * instruction samples, M_i, frequency, CPI, stall letters and culprits)
 * and Figure 4 (the procedure's cycles by reason). The analysis itself is
 * engine/dcpi/dcpicalc.c; this file loads (dcpicalc_load.c), prints, and
 * compares with the simulator's truth. docs/dcpicalc.md is the guide.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "dcpi/dcpi.h"
#include "dcpi/dcpi_db.h"
#include "dcpicalc_calls.h"
#include "dcpicalc_load.h"
#include "guest/program.h"
#include "guest/symtab.h"
#include "isa/disasm.h"
#include "dcpi_report.h"
#include "outfile.h"

struct calc_flags {
	const char *db, *json_path, *target;
	const char *image;              /* -i: only this image (path or file name) */
	uint64_t epoch;                 /* --epoch: 0 for the newest */
	int truth, all;
	uint64_t min_samples;
	int min_samples_given;
	enum dcc_estimator estimator;   /* --estimator: paper (default) or ivx */
	struct dcpicalc_calls *calls;   /* ivx: the procedures' calls from their callers */
};

/* Accuracy of one procedure (or a sum of them) against the truth. */
struct accuracy {
	double samples, w5, w10, w15;      /* CYCLES samples; of them within 5/10/15% */
	double dyn_true, dyn_covered;      /* true dynamic stall cycles; with the reason among the culprits */
	double dyn_by_letter[DCC_LETTER_COUNT], cov_by_letter[DCC_LETTER_COUNT];
	double unexplained, dynamic;       /* estimated, in samples */
	double edge_true, edge_e5, edge_e10; /* true edge executions; estimated within 5 / 10% */
	double cpc_true, cpc_covered;      /* true dynamic stall cycles the core blamed on an
					    * instruction; with that instruction among the culprit pcs */
	double cpc_by_letter[DCC_LETTER_COUNT], cpc_cov_by_letter[DCC_LETTER_COUNT];
};

static int lists_pc(const struct dcc_result_insn *r, uint64_t pc)
{
	for (int c = 0; c < r->n_culprit_pcs; c++)
		if (r->culprit_pc[c] == pc)
			return 1;
	return 0;
}

static double rel_err(double est, double truth)
{
	if (truth <= 0)
		return est <= 0 ? 0 : INFINITY;
	return fabs(est - truth) / truth;
}

static const char *conf_name(int c)
{
	return c >= 2 ? "high" : c == 1 ? "medium" : "low";
}


/* True executions of an edge, from the taken counts and commit counts. */
static double edge_truth(const struct dcpicalc_proc *pr, const struct dcc *a, const struct dcc_edge *e)
{
	if (e->from < 0 || !pr->t_retired || !pr->t_taken)
		return -1;
	const struct dcc_block *b = dcc_block_at(a, (size_t)e->from);
	size_t last = b->first + b->n - 1;
	double ret = (double)pr->t_retired[last], tk = (double)pr->t_taken[last];
	int kind = dcc_insn_at(a, last)->kind;
	if (kind == INSN_KIND_COND_BRANCH)
		return e->taken ? tk : ret - tk;
	return ret;
}

/* Whether dcpicalc names the true culprit c of instruction i's stall.
 * An I-side suspect (i, t) carries no address: it means "this
 * instruction's own fetch missed", so it names the fetch the core blamed
 * when that fetch started in the instruction's I-cache line (I-TLB
 * page). */
static int names_culprit(const struct dcc *a, size_t i, const struct dcpicalc_culprit *c,
			 const struct machine_config *mc)
{
	const struct dcc_result_insn *r = dcc_result_at(a, i);
	int l = dcc_letter_of_wait(c->reason);
	if (!c->culprit)
		return 0;
	if (l == DCC_D_ICACHE || l == DCC_D_ITLB) {
		uint64_t size = l == DCC_D_ICACHE ? (mc->l1i.line ? mc->l1i.line : 64) :
			(mc->itlb.page ? mc->itlb.page : 4096);
		return (r->culprits >> l & 1) && c->culprit / size == dcc_insn_at(a, i)->pc / size;
	}
	return lists_pc(r, c->culprit);
}

static void measure(const struct dcpicalc_proc *pr, const struct dcc *a, const struct machine_config *mc,
		    double period, struct accuracy *acc)
{
	memset(acc, 0, sizeof *acc);
	const struct dcc_summary *s = dcc_summary(a);
	acc->unexplained = s->unexplained;
	acc->dynamic = s->dynamic;
	for (size_t i = 0; i < pr->n; i++) {
		const struct dcc_result_insn *r = dcc_result_at(a, i);
		double S = (double)pr->samples[0][i];
		acc->samples += S;
		if (pr->t_retired && S > 0 && r->freq >= 0) {
			double err = rel_err(r->freq * period, (double)pr->t_retired[i]);
			acc->w5 += err <= 0.05 ? S : 0;
			acc->w10 += err <= 0.10 ? S : 0;
			acc->w15 += err <= 0.15 ? S : 0;
		}
		if (pr->has_wait) {
			for (int w = 0; w < ISSUE_WAIT_COUNT; w++) {
				double c = (double)pr->t_wait[w][i];
				int l = dcc_letter_of_wait(w);
				if (!c || dcc_wait_is_static(w) || l < 0)
					continue;
				acc->dyn_true += c;
				acc->dyn_by_letter[l] += c;
				if (r->culprits >> l & 1) {
					acc->dyn_covered += c;
					acc->cov_by_letter[l] += c;
				}
			}
		}
		/* the true culprit instruction among the listed culprit pcs
		 * (cycles blamed on culprits the run could not keep apart,
		 * culprit 0, count as missed) */
		for (size_t k = pr->has_culprits ? pr->t_cul_at[i] : 0; pr->has_culprits && k < pr->t_cul_at[i + 1]; k++) {
			const struct dcpicalc_culprit *c = &pr->t_cul[k];
			int l = dcc_letter_of_wait(c->reason);
			if (dcc_wait_is_static(c->reason) || l < 0)
				continue;
			acc->cpc_true += (double)c->cycles;
			acc->cpc_by_letter[l] += (double)c->cycles;
			if (names_culprit(a, i, c, mc)) {
				acc->cpc_covered += (double)c->cycles;
				acc->cpc_cov_by_letter[l] += (double)c->cycles;
			}
		}
	}
	for (size_t k = 0; k < dcc_edge_count(a); k++) {
		const struct dcc_edge *e = dcc_edge_at(a, k);
		double t = edge_truth(pr, a, e);
		if (t <= 0 || e->freq < 0)
			continue;
		double err = rel_err(e->freq * period, t);
		acc->edge_true += t;
		acc->edge_e5 += err <= 0.05 ? t : 0;
		acc->edge_e10 += err <= 0.10 ? t : 0;
	}
}

static void acc_add(struct accuracy *sum, const struct accuracy *x)
{
	double *d = (double *)sum;
	const double *s = (const double *)x;
	for (size_t k = 0; k < sizeof *sum / sizeof(double); k++)
		d[k] += s[k];
}

static double pct(double a, double b)
{
	return b > 0 ? 100.0 * a / b : 0;
}

/* ---- Figure 2 -------------------------------------------------------------- */

static void mark_off(FILE *o, double est, double truth)
{
	fputc(rel_err(est, truth) > 0.05 ? '!' : ' ', o);
}

static void true_reasons(FILE *o, const struct dcpicalc_proc *pr, size_t i)
{
	if (!pr->has_wait)
		return;
	double tot = 0;
	for (int w = 0; w < ISSUE_WAIT_COUNT; w++)
		tot += (double)pr->t_wait[w][i];
	if (tot <= 0)
		return;
	/* the two largest reasons */
	int best[2] = { -1, -1 };
	for (int w = 0; w < ISSUE_WAIT_COUNT; w++) {
		if (!pr->t_wait[w][i])
			continue;
		if (best[0] < 0 || pr->t_wait[w][i] > pr->t_wait[best[0]][i]) {
			best[1] = best[0];
			best[0] = w;
		} else if (best[1] < 0 || pr->t_wait[w][i] > pr->t_wait[best[1]][i]) {
			best[1] = w;
		}
	}
	fputs("  ", o);
	for (int k = 0; k < 2 && best[k] >= 0; k++) {
		fprintf(o, "%s%s %.0f%%", k ? ", " : "", issue_wait_name(best[k]),
			100.0 * (double)pr->t_wait[best[k]][i] / tot);
		uint64_t cul = dcpicalc_true_culprit(pr, i, best[k], NULL);
		if (cul)
			fprintf(o, " ->%llx", (unsigned long long)cul);
	}
}

static void print_proc(FILE *o, const struct dcpicalc_proc *pr, const struct dcc *a, double period, int truth)
{
	const struct dcc_summary *s = dcc_summary(a);
	fprintf(o, "dcpicalc: %s in %s: %zu instructions, %zu blocks, %zu edges, %d frequency classes%s\n", pr->name,
		pr->image, pr->n, dcc_block_count(a), dcc_edge_count(a), dcc_class_count(a),
		dcc_missing_edges(a) ? " (indirect jump: missing edges, no equivalence)" : "");
	fprintf(o, "dcpicalc: %.0f CYCLES samples, one per %.1f cycles; freq = estimated executions%s\n",
		s->samples, period, truth ? "; [true] the simulator's, ! off by >5%" : "");
	char text[128], cul[16];
	for (size_t k = 0; k < dcc_block_count(a); k++) {
		const struct dcc_block *b = dcc_block_at(a, k);
		double F = b->freq;
		fprintf(o, "\n*** Block %zu  %llx-%llx", k, (unsigned long long)dcc_insn_at(a, b->first)->pc,
			(unsigned long long)dcc_insn_at(a, b->first + b->n - 1)->pc);
		if (F >= 0)
			fprintf(o, "  freq %.0f (%s%s)", F * period, conf_name(b->conf),
				b->how == 3 ? ", propagated" : b->how == 2 ? ", sum S / sum M" : "");
		else
			fprintf(o, "  freq ? (no estimate)");
		if (truth && pr->t_retired) {
			double t = (double)pr->t_retired[b->first];
			fprintf(o, "  [true %.0f]", t);
			if (F >= 0)
				mark_off(o, F * period, t);
		}
		double bs = 0;
		for (size_t i = b->first; i < b->first + b->n; i++)
			bs += (double)pr->samples[0][i];
		if (bs == 0) {
			fprintf(o, "  no samples (%zu instructions)\n", b->n);
			continue;
		}
		fputc('\n', o);
		fprintf(o, "*** Best-case %d/%zu = %.2fCPI\n", b->m_total, b->n, (double)b->m_total / (double)b->n);
		if (F > 0)
			fprintf(o, "*** Actual %.1f/%zu = %.2fCPI\n", bs / F, b->n, bs / F / (double)b->n);
		else
			fprintf(o, "*** Actual ?/%zu\n", b->n);
		fprintf(o, "%-8s %-30s %8s %2s %8s %8s  %s\n", "Addr", "Instruction", "Samples", "M", "Freq", "CPI",
			truth ? "Culprit   [true freq   CPI  why]" : "Culprit");
		for (size_t i = b->first; i < b->first + b->n; i++) {
			const struct dcc_result_insn *r = dcc_result_at(a, i);
			const struct dcc_insn *x = dcc_insn_at(a, i);
			if (r->static_why >= 0 && r->static_culprit >= 0)
				fprintf(o, "         %c (%s, %llx)\n", dcc_letter_char[r->static_why],
					dcc_letter_name(r->static_why),
					(unsigned long long)dcc_insn_at(a, (size_t)r->static_culprit)->pc);
			else if (r->static_why >= 0)
				fprintf(o, "         %c (%s)\n", dcc_letter_char[r->static_why], dcc_letter_name(r->static_why));
			double stall = r->freq > 0 ? r->dyn / r->freq : 0;
			if (r->dyn > 0 && r->significant && stall >= 0.5) {
				dcc_letters(r->culprits, cul);
				fprintf(o, "         %s ... %.1fcy%s\n", cul[0] ? cul : "?", stall,
					cul[0] ? "" : " (unexplained)");
			}
			disasm_word(pr->words[i], x->pc, text, sizeof text);
			fprintf(o, "%-8llx %-30.30s %8llu %2d", (unsigned long long)x->pc, text,
				(unsigned long long)pr->samples[0][i], r->m);
			if (r->freq >= 0)
				fprintf(o, " %8.0f", r->freq * period);
			else
				fprintf(o, " %8s", "?");
			if (r->cpi >= 0)
				fprintf(o, " %6.1fcy", r->cpi);
			else
				fprintf(o, " %8s", r->m ? "?" : "");
			fputs("  ", o);
			int w = 0;
			for (int c = 0; c < r->n_culprit_pcs && r->dyn > 0 && r->significant && stall >= 0.5; c++)
				w += fprintf(o, "%s%llx", c ? "," : "", (unsigned long long)r->culprit_pc[c]);
			if (truth && pr->t_retired && pr->t_cycles) {
				fprintf(o, "%*s[%8llu", w < 10 ? 10 - w : 1, "", (unsigned long long)pr->t_retired[i]);
				if (r->freq >= 0 && pr->samples[0][i])
					mark_off(o, r->freq * period, (double)pr->t_retired[i]);
				else
					fputc(' ', o);
				if (pr->t_retired[i])
					fprintf(o, "%5.1f", (double)pr->t_cycles[i] / (double)pr->t_retired[i]);
				else
					fprintf(o, "%5s", "-");
				if (r->cpi >= 0 && pr->t_retired[i])
					mark_off(o, r->cpi, (double)pr->t_cycles[i] / (double)pr->t_retired[i]);
				true_reasons(o, pr, i);
				fputc(']', o);
			}
			fputc('\n', o);
		}
	}
}

/* ---- Figure 4 -------------------------------------------------------------- */

/* (image_samples: the CYCLES samples of pr's image, which the last line's
 * share is of) */
static void print_summary(FILE *o, const struct dcpicalc_proc *pr, const struct dcc *a, const struct accuracy *acc,
			  uint64_t image_samples, int truth, int inorder)
{
	const struct dcc_summary *s = dcc_summary(a);
	double T = s->samples > 0 ? s->samples : 1;
	double insns = 0;
	for (size_t k = 0; k < dcc_block_count(a); k++) {
		const struct dcc_block *b = dcc_block_at(a, k);
		if (b->freq >= 0)
			insns += b->freq * (double)b->n;
	}
	fprintf(o, "\n*** Summary of %s\n", pr->name);
	if (insns > 0) {
		fprintf(o, "*** Best-case %.0f/%.0f = %.2fCPI\n", s->best, insns, s->best / insns);
		fprintf(o, "*** Actual %.0f/%.0f = %.2fCPI\n", s->samples - s->unknown, insns,
			(s->samples - s->unknown) / insns);
	}
	fprintf(o, "***\n");
	double truth_l[DCC_LETTER_COUNT] = { 0 }, tt = 0;
	if (truth && pr->has_wait)
		for (size_t i = 0; i < pr->n; i++)
			for (int w = 0; w < ISSUE_WAIT_COUNT; w++) {
				double c = (double)pr->t_wait[w][i];
				tt += c;
				int l = dcc_letter_of_wait(w);
				if (l >= 0 && !dcc_wait_is_static(w))
					truth_l[l] += c;
			}
	static const int dyn_order[] = { DCC_D_ICACHE, DCC_D_ITLB, DCC_D_DCACHE, DCC_D_DTLB, DCC_D_WBUF,
					 DCC_D_SERIAL, DCC_D_MISP, DCC_D_LONG, DCC_D_XDEP, DCC_D_FETCH };
	for (size_t k = 0; k < sizeof dyn_order / sizeof *dyn_order; k++) {
		int l = dyn_order[k];
		fprintf(o, "*** %-32s %6.1f%% to %6.1f%%", dcc_letter_name(l), pct(s->dyn_lo[l], T), pct(s->dyn_hi[l], T));
		if (tt > 0)
			fprintf(o, "   [true %5.1f%%]", pct(truth_l[l], tt));
		fputc('\n', o);
	}
	fprintf(o, "***\n*** %-32s %6.1f%%\n", "Unexplained stall", pct(s->unexplained, T));
	fprintf(o, "*** %-32s %6.1f%%\n", "Unexplained gain", pct(s->gain, T));
	fprintf(o, "*** %-32s %6.1f%%\n***\n", "Subtotal dynamic", pct(s->dynamic + s->gain, T));
	double st = 0;
	for (int l = 0; l < 3; l++) {
		fprintf(o, "*** %-32s %6.1f%%\n", dcc_letter_name(l), pct(s->static_[l], T));
		st += s->static_[l];
	}
	fprintf(o, "*** %-32s %6.1f%%\n***\n", "Subtotal static", pct(st, T));
	fprintf(o, "*** %-32s %6.1f%%\n", "Total stall", pct(st + s->dynamic + s->gain, T));
	fprintf(o, "*** %-32s %6.1f%%\n", "Execution", pct(s->execution, T));
	fprintf(o, "*** %-32s %6.1f%%\n", "Net sampling error", pct(s->noise, T));
	if (s->unknown > 0)
		fprintf(o, "*** %-32s %6.1f%%\n", "No frequency estimate", pct(s->unknown, T));
	fprintf(o, "*** %-32s %6.1f%%\n", "Total tallied",
		pct(st + s->dynamic + s->gain + s->execution + s->unknown + s->noise, T));
	/* Of the image's samples, as dcpiprof -i shows shares: the other
	 * programs of an epoch say nothing about this one (and may have been
	 * sampled at another period). */
	const char *slash = strrchr(pr->image, '/');
	fprintf(o, "*** (%.0f samples, %.1f%% of the %llu CYCLES samples of %s)\n", s->samples,
		pct(s->samples, (double)image_samples), (unsigned long long)image_samples, slash ? slash + 1 : pr->image);
	if (truth && acc) {
		fprintf(o, "***\n*** truth: frequency within 5%% for %.1f%% of the samples (10%%: %.1f%%, 15%%: %.1f%%)\n",
			pct(acc->w5, acc->samples), pct(acc->w10, acc->samples), pct(acc->w15, acc->samples));
		if (pr->has_wait)
			fprintf(o, "*** truth: the true reason is among the culprits for %.1f%% of %.0f dynamic stall cycles\n",
				pct(acc->dyn_covered, acc->dyn_true), acc->dyn_true);
		if (pr->has_culprits)
			fprintf(o, "*** truth: the true culprit is named (an address listed; for an I-side miss, the instruction's own fetch) for %.1f%% of the %.0f that blame an instruction\n",
				pct(acc->cpc_covered, acc->cpc_true), acc->cpc_true);
		else if (pr->has_wait && !inorder)
			fprintf(o, "*** truth: no culprit truth in this profile (out-of-order runs record none)\n");
		else if (pr->has_wait)
			fprintf(o, "*** truth: no culprit truth in this profile (written before database version 2: profile again)\n");
		if (acc->edge_true > 0)
			fprintf(o, "*** truth: edge frequency within 10%% for %.1f%% of edge executions\n",
				pct(acc->edge_e10, acc->edge_true));
	}
}

/* ---- JSON ------------------------------------------------------------------ */

static void json_num(FILE *o, double v)
{
	if (v < 0 || !isfinite(v))
		fputs("null", o);
	else
		fprintf(o, "%.6g", v);
}

static void json_proc(FILE *o, const struct dcpicalc_proc *pr, const struct dcc *a, enum dcc_estimator est,
		      double period, const struct accuracy *acc, int full)
{
	const struct dcc_summary *s = dcc_summary(a);
	char cul[16];
	fprintf(o, "{\"procedure\":\"%s\",\"image\":\"%s\",\"estimator\":\"%s\",\"period\":%.6g,\"samples\":%.0f,",
		pr->name, pr->image, dcc_estimator_name(est), period, s->samples);
	fprintf(o, "\"unexplained_fraction\":%.6g,", s->samples > 0 ? s->unexplained / s->samples : 0);
	fprintf(o, "\"summary\":{\"best\":%.6g,\"execution\":%.6g,\"dynamic\":%.6g,\"unexplained\":%.6g,\"gain\":%.6g,"
		   "\"noise\":%.6g,\"unknown\":%.6g,\"static\":{\"s\":%.6g,\"a\":%.6g,\"f\":%.6g},\"dynamic_range\":{",
		s->best, s->execution, s->dynamic, s->unexplained, s->gain, s->noise, s->unknown, s->static_[0], s->static_[1],
		s->static_[2]);
	for (int l = 3, first = 1; l < DCC_LETTER_COUNT; l++, first = 0)
		fprintf(o, "%s\"%c\":[%.6g,%.6g]", first ? "" : ",", dcc_letter_char[l], s->dyn_lo[l], s->dyn_hi[l]);
	fputs("}}", o);
	if (pr->t_retired) {
		fprintf(o, ",\"accuracy\":{\"freq_within_5\":%.6g,\"freq_within_10\":%.6g,\"freq_within_15\":%.6g,"
			   "\"culprit_coverage\":%.6g,\"dynamic_true_cycles\":%.0f,\"edges_within_10\":",
			acc->samples > 0 ? acc->w5 / acc->samples : 0, acc->samples > 0 ? acc->w10 / acc->samples : 0,
			acc->samples > 0 ? acc->w15 / acc->samples : 0,
			acc->dyn_true > 0 ? acc->dyn_covered / acc->dyn_true : 1, acc->dyn_true);
		/* (no edge estimated and checked: nothing to score, not 100%) */
		json_num(o, acc->edge_true > 0 ? acc->edge_e10 / acc->edge_true : -1);
		if (pr->has_culprits)
			fprintf(o, ",\"culprit_pc_coverage\":%.6g,\"culprit_pc_true_cycles\":%.0f",
				acc->cpc_true > 0 ? acc->cpc_covered / acc->cpc_true : 1, acc->cpc_true);
		fputc('}', o);
	}
	if (!full) {
		fputc('}', o);
		return;
	}
	fputs(",\n \"blocks\":[", o);
	for (size_t k = 0; k < dcc_block_count(a); k++) {
		const struct dcc_block *b = dcc_block_at(a, k);
		fprintf(o, "%s\n  {\"start\":%llu,\"end\":%llu,\"class\":%d,\"m\":%d,\"freq_est\":", k ? "," : "",
			(unsigned long long)dcc_insn_at(a, b->first)->pc,
			(unsigned long long)dcc_insn_at(a, b->first + b->n - 1)->pc, b->cls, b->m_total);
		json_num(o, b->freq >= 0 ? b->freq * period : -1);
		fputs(",\"freq_true\":", o);
		json_num(o, pr->t_retired ? (double)pr->t_retired[b->first] : -1);
		fprintf(o, ",\"confidence\":\"%s\"}", conf_name(b->conf));
	}
	fputs("],\n \"edges\":[", o);
	for (size_t k = 0; k < dcc_edge_count(a); k++) {
		const struct dcc_edge *e = dcc_edge_at(a, k);
		fprintf(o, "%s\n  {\"from\":", k ? "," : "");
		if (e->from >= 0)
			fprintf(o, "%llu", (unsigned long long)dcc_insn_at(a, dcc_block_at(a, (size_t)e->from)->first)->pc);
		else
			fputs("\"entry\"", o);
		fputs(",\"to\":", o);
		if (e->to >= 0)
			fprintf(o, "%llu", (unsigned long long)dcc_insn_at(a, dcc_block_at(a, (size_t)e->to)->first)->pc);
		else
			fputs("\"exit\"", o);
		fprintf(o, ",\"class\":%d,\"freq_est\":", e->cls);
		json_num(o, e->freq >= 0 ? e->freq * period : -1);
		fputs(",\"freq_true\":", o);
		json_num(o, edge_truth(pr, a, e));
		fputc('}', o);
	}
	fputs("],\n \"instructions\":[", o);
	for (size_t i = 0; i < pr->n; i++) {
		const struct dcc_result_insn *r = dcc_result_at(a, i);
		fprintf(o, "%s\n  {\"pc\":%llu,\"samples\":%llu,\"m\":%d,\"freq_est\":", i ? "," : "",
			(unsigned long long)dcc_insn_at(a, i)->pc, (unsigned long long)pr->samples[0][i], r->m);
		json_num(o, r->freq >= 0 ? r->freq * period : -1);
		fputs(",\"freq_true\":", o);
		json_num(o, pr->t_retired ? (double)pr->t_retired[i] : -1);
		fputs(",\"cpi_est\":", o);
		json_num(o, r->cpi);
		fputs(",\"cpi_true\":", o);
		json_num(o, pr->t_retired && pr->t_cycles && pr->t_retired[i] ?
				    (double)pr->t_cycles[i] / (double)pr->t_retired[i] : -1);
		dcc_letters(r->culprits, cul);
		fprintf(o, ",\"static\":\"%s\",\"culprits\":\"%s\",\"culprit_pcs\":[",
			r->static_why >= 0 ? (char[]){ dcc_letter_char[r->static_why], 0 } : "", cul);
		for (int c = 0; c < r->n_culprit_pcs; c++)
			fprintf(o, "%s%llu", c ? "," : "", (unsigned long long)r->culprit_pc[c]);
		fputs("],\"stall_samples\":", o);
		fprintf(o, "%.6g", r->dyn);
		if (pr->has_wait) {
			fputs(",\"true_reasons\":{", o);
			for (int w = 0, first = 1; w < ISSUE_WAIT_COUNT; w++) {
				if (!pr->t_wait[w][i])
					continue;
				fprintf(o, "%s\"%s\":%llu", first ? "" : ",", issue_wait_name(w),
					(unsigned long long)pr->t_wait[w][i]);
				first = 0;
			}
			fputc('}', o);
		}
		if (pr->has_culprits) {
			/* per reason, the instruction blamed for most of its cycles */
			fputs(",\"true_culprit_pcs\":{", o);
			for (int w = 0, first = 1; w < ISSUE_WAIT_COUNT; w++) {
				uint64_t cul = dcpicalc_true_culprit(pr, i, w, NULL);
				if (!cul)
					continue;
				fprintf(o, "%s\"%s\":%llu", first ? "" : ",", issue_wait_name(w), (unsigned long long)cul);
				first = 0;
			}
			fputc('}', o);
		}
		fputc('}', o);
	}
	fputs("]}", o);
}

/* ---- the command ------------------------------------------------------------ */

static int analyse(const struct calc_flags *f, const struct dcpicalc_db *d, struct dcpicalc_proc *pr, struct dcc **out,
		   struct accuracy *acc)
{
	struct ivx_err err = { 0 };
	struct dcc *a = dcc_new(pr->code, pr->n, &d->mc, &err);
	if (a)
		dcc_set_estimator(a, f->estimator);
	double calls, var;
	if (a && f->calls && dcpicalc_calls_of(f->calls, pr->image, pr->code[0].pc, pr->period[0], &calls, &var) == 0)
		dcc_set_calls(a, calls, var);
	struct dcc_profile prof = { 0 };
	for (int e = 0; e < 5; e++) {
		prof.samples[e] = pr->samples[e];
		prof.period[e] = pr->period[e];
	}
	if (!a || dcc_estimate(a, &prof, &err) < 0) {
		cli_error("%s", err.msg);
		dcc_free(a);
		return -1;
	}
	measure(pr, a, &d->mc, pr->period[0], acc);
	*out = a;
	return 0;
}

static int parse_addr(const char *s, uint64_t *out)
{
	char *end;
	if (strncmp(s, "0x", 2) && strncmp(s, "0X", 2))
		return -1;
	*out = strtoull(s, &end, 16);
	return *end ? -1 : 0;
}

static struct program *load_image(const char *image)
{
	return cli_load_program(strcmp(image, "[builtin]") ? image : NULL);
}

/* The symbol `target` names in p (a name, or 0x... an address inside a
 * procedure's code), or NULL. */
static const struct symbol *find_target(const struct program *p, const char *target)
{
	uint64_t addr, off;
	if (parse_addr(target, &addr) < 0)
		return symtab_find(program_symbols(p), target);
	const struct symbol *s = symtab_lookup(program_symbols(p), addr, &off);
	/* (an address outside the code belongs to no procedure, whatever
	 * symbol precedes it: _end) */
	if (!s || (s->size && off >= s->size) || !program_uop(p, addr))
		return NULL;
	return s;
}

/* The procedure f->target names, loaded into pr. Every program of an
 * epoch may have one of that name, or at that address (static programs
 * all link at 0x400000): the one with CYCLES samples for it is meant;
 * several with samples are ambiguous (-i chooses). 0, or an exit status
 * after an error line. */
static int pick_proc(const struct calc_flags *f, const struct dcpicalc_db *d, struct dcpicalc_proc *pr)
{
	int found = 0, with_samples = 0;
	char names[1024] = "";
	const char *image;
	for (size_t k = 0; (image = dcpicalc_db_image(d, k)); k++) {
		struct program *p = load_image(image);
		if (!p) {
			if (found)
				dcpicalc_proc_free(pr);
			return EXIT_INPUT;
		}
		const struct symbol *s = find_target(p, f->target);
		struct dcpicalc_proc here;
		int rc = s ? dcpicalc_proc_load(d, image, p, s, &here) : 1;
		program_free(p);
		if (rc < 0) {
			if (found)
				dcpicalc_proc_free(pr);
			return EXIT_INPUT;
		}
		if (rc > 0)
			continue;
		int sampled = here.samples[0] && dcpicalc_proc_samples(&here);
		if (sampled) {
			size_t used = strlen(names);
			snprintf(names + used, sizeof names - used, "%s%s", with_samples ? ", " : "", image);
		}
		/* keep the first with samples, else the first found */
		if (!found || (sampled && !with_samples)) {
			if (found)
				dcpicalc_proc_free(pr);
			*pr = here;
			found = 1;
		} else {
			dcpicalc_proc_free(&here);
		}
		with_samples += sampled;
	}
	if (with_samples > 1) {
		cli_error("dcpicalc: '%s' has samples in %d images of %s (%s): choose one with -i IMAGE", f->target,
			  with_samples, d->epoch, names);
		dcpicalc_proc_free(pr);
		return EXIT_USAGE;
	}
	if (!found) {
		const char *where = d->only ? "the image " : "the images of ";
		if (parse_addr(f->target, &(uint64_t){ 0 }) == 0)
			cli_error("dcpicalc: no procedure at %s in %s%s", f->target, where, d->only ? d->only : d->epoch);
		else
			cli_error("dcpicalc: no procedure '%s' in %s%s", f->target, where, d->only ? d->only : d->epoch);
		return EXIT_USAGE;
	}
	if (!with_samples) {
		cli_error("dcpicalc: %s has no CYCLES samples in %s", pr->name, d->epoch);
		dcpicalc_proc_free(pr);
		return EXIT_INPUT;
	}
	return 0;
}

static int run_one(struct calc_flags *f, struct dcpicalc_db *d)
{
	struct dcpicalc_proc pr;
	int status = pick_proc(f, d, &pr);
	if (status)
		return status;
	struct dcc *a = NULL;
	struct accuracy acc;
	if (analyse(f, d, &pr, &a, &acc) < 0) {
		dcpicalc_proc_free(&pr);
		return EXIT_INPUT;
	}
	if (!d->mc.inorder)
		printf("dcpicalc: note: the profile is from the out-of-order machine, where this model does not hold\n");
	if (!d->have_machine)
		printf("dcpicalc: note: %s/machine.ini is missing; scheduling for the default configuration\n",
		       d->epoch);
	int truth = f->truth && pr.t_retired;
	if (f->truth && !pr.t_retired)
		printf("dcpicalc: note: the profile has no truth (profiled with --no-truth)\n");
	print_proc(stdout, &pr, a, pr.period[0], truth);
	print_summary(stdout, &pr, a, &acc, dcpicalc_image_samples(d, pr.image, DCPI_CYCLES), truth, d->mc.inorder);
	if (f->json_path) {
		struct outfile *of = outfile_open_cli(f->json_path);
		if (!of) {
			status = EXIT_OUTPUT;
		} else {
			json_proc(outfile_stream(of), &pr, a, f->estimator, pr.period[0], &acc, 1);
			fputc('\n', outfile_stream(of));
			struct ivx_err e = { 0 };
			if (outfile_commit(of, &e) < 0) {
				cli_error("%s", e.msg);
				status = EXIT_OUTPUT;
			}
		}
	}
	dcc_free(a);
	dcpicalc_proc_free(&pr);
	return status;
}

/* What run_all adds up over the procedures. */
struct all_ctx {
	const struct calc_flags *f;
	const struct dcpicalc_db *d;
	struct accuracy tot;
	FILE *jo;
	int nproc, have_cul, have_wait;
	int multi;                 /* the epoch holds several programs: an image column */
};

/* One coverage column of --all: the share, 100% when there was nothing to
 * cover, "-" when there is no truth to score it against (the out-of-order
 * machine has no issue-stage wait reasons, a version 1 database no
 * culprit pcs). The edge column is "-" when no edge was estimated. */
static void print_coverage(int has_truth, double covered, double total)
{
	if (!has_truth)
		printf(" %8s", "-");
	else
		printf(" %7.1f%%", total > 0 ? pct(covered, total) : 100.0);
}

static int all_proc(void *ctx, const char *image, struct dcpicalc_proc *pr)
{
	struct all_ctx *c = ctx;
	uint64_t ns = pr->samples[0] ? dcpicalc_proc_samples(pr) : 0;
	if (ns < c->f->min_samples || !ns)
		return 0;
	struct dcc *a = NULL;
	struct accuracy acc;
	if (analyse(c->f, c->d, pr, &a, &acc) < 0)
		return -1;
	acc_add(&c->tot, &acc);
	printf("%-24.24s %8llu %6.1f%% %6.1f%% %6.1f%% %7.1f%%", pr->name,
	       (unsigned long long)ns, pct(acc.w5, acc.samples), pct(acc.w10, acc.samples),
	       pct(acc.w15, acc.samples), pct(acc.unexplained, acc.samples));
	int inorder = c->d->mc.inorder;
	print_coverage(inorder && pr->has_wait, acc.dyn_covered, acc.dyn_true);
	print_coverage(inorder && pr->has_culprits, acc.cpc_covered, acc.cpc_true);
	print_coverage(acc.edge_true > 0, acc.edge_e10, acc.edge_true);
	if (c->multi)
		printf("  %s", image);
	putchar('\n');
	c->have_cul |= pr->has_culprits;
	c->have_wait |= inorder && pr->has_wait;
	if (c->jo) {
		fputs(c->nproc ? ",\n " : "\n ", c->jo);
		json_proc(c->jo, pr, a, c->f->estimator, pr->period[0], &acc, 0);
	}
	c->nproc++;
	dcc_free(a);
	return 0;
}

/* --all: every procedure with samples, one line each, and the accuracy
 * over all of them (what `make validate` reports). */
static int run_all(struct calc_flags *f, struct dcpicalc_db *d)
{
	struct outfile *of = f->json_path ? outfile_open_cli(f->json_path) : NULL;
	if (f->json_path && !of)
		return EXIT_OUTPUT;
	struct all_ctx c = { .f = f, .d = d, .jo = of ? outfile_stream(of) : NULL, .multi = !!dcpicalc_db_image(d, 1) };
	FILE *jo = c.jo;
	if (jo)
		fputs("{\"procedures\":[", jo);
	printf("%-24s %8s %7s %7s %7s %8s %8s %8s %8s%s\n", "procedure", "samples", "f<=5%", "f<=10%", "f<=15%", "unexpl",
	       "culprit", "cul-pc", "edge10%", c.multi ? "  image" : "");
	int status = dcpicalc_each_proc(d, all_proc, &c) ? EXIT_INPUT : 0;
	struct accuracy tot = c.tot;
	int nproc = c.nproc, have_cul = c.have_cul;
	if (nproc) {   /* (no procedure: the error line below says so, no row of zeros) */
		printf("%-24s %8.0f %6.1f%% %6.1f%% %6.1f%% %7.1f%%", "TOTAL", tot.samples,
		       pct(tot.w5, tot.samples), pct(tot.w10, tot.samples), pct(tot.w15, tot.samples),
		       pct(tot.unexplained, tot.samples));
		print_coverage(c.have_wait, tot.dyn_covered, tot.dyn_true);
		print_coverage(c.have_wait && have_cul, tot.cpc_covered, tot.cpc_true);
		print_coverage(tot.edge_true > 0, tot.edge_e10, tot.edge_true);
		putchar('\n');
	}
	if (!c.have_wait && nproc)
		printf("culprit, cul-pc: a profile of the out-of-order machine, whose stalls the issue-stage "
		       "model does not explain (profile with --config data/configs/inorder.ini)\n");
	else if (!have_cul && nproc)
		printf("cul-pc: no culprit truth in this profile (written before database version 2: profile again)\n");
	if (tot.dyn_true > 0) {
		printf("true dynamic stall cycles by reason, the share with that reason among the culprits%s:\n",
		       have_cul ? ";\n  cycles blamed on an instruction, the share with it among the culprit pcs" : "");
		for (int l = 0; l < DCC_LETTER_COUNT; l++) {
			if (!(tot.dyn_by_letter[l] > 0))
				continue;
			printf("  %c %-30s %12.0f %6.1f%%", dcc_letter_char[l], dcc_letter_name(l),
			       tot.dyn_by_letter[l], pct(tot.cov_by_letter[l], tot.dyn_by_letter[l]));
			if (have_cul && tot.cpc_by_letter[l] > 0)
				printf(" %12.0f %6.1f%%", tot.cpc_by_letter[l], pct(tot.cpc_cov_by_letter[l], tot.cpc_by_letter[l]));
			else if (have_cul)
				printf(" %12s %7s", "0", "-");   /* the reason blames no instruction */
			putchar('\n');
		}
	}
	if (jo) {
		fprintf(jo, "],\n \"estimator\":\"%s\",\n", dcc_estimator_name(f->estimator));
		fprintf(jo, " \"total\":{\"samples\":%.0f,\"freq_within_5\":%.6g,\"freq_within_10\":%.6g,"
			    "\"freq_within_15\":%.6g,\"unexplained_fraction\":%.6g,\"culprit_coverage\":%.6g,"
			    "\"dynamic_true_cycles\":%.0f,\"edge_true\":%.0f,\"edges_within_5\":",
			tot.samples, tot.samples > 0 ? tot.w5 / tot.samples : 0, tot.samples > 0 ? tot.w10 / tot.samples : 0,
			tot.samples > 0 ? tot.w15 / tot.samples : 0, tot.samples > 0 ? tot.unexplained / tot.samples : 0,
			tot.dyn_true > 0 ? tot.dyn_covered / tot.dyn_true : 1, tot.dyn_true, tot.edge_true);
		json_num(jo, tot.edge_true > 0 ? tot.edge_e5 / tot.edge_true : -1);
		fputs(",\"edges_within_10\":", jo);
		json_num(jo, tot.edge_true > 0 ? tot.edge_e10 / tot.edge_true : -1);
		fprintf(jo, ",\"unexplained\":%.6g,\"w5\":%.6g,\"w10\":%.6g,\"w15\":%.6g,\"covered\":%.6g,"
			    "\"culprit_pc_true_cycles\":%.0f,\"culprit_pc_covered\":%.0f,\"culprit_pc_coverage\":%.6g}}\n",
			tot.unexplained, tot.w5, tot.w10, tot.w15, tot.dyn_covered, tot.cpc_true, tot.cpc_covered,
			tot.cpc_true > 0 ? tot.cpc_covered / tot.cpc_true : 1);
		struct ivx_err e = { 0 };
		if (outfile_commit(of, &e) < 0) {
			cli_error("%s", e.msg);
			status = EXIT_OUTPUT;
		}
	}
	if (!nproc && !status) {
		cli_error("dcpicalc: no procedure with CYCLES samples in %s", d->epoch);
		status = EXIT_INPUT;
	}
	return status;
}

static int cmd_dcpicalc_main(int argc, char **argv)
{
	struct calc_flags f = { .db = "ivx.db", .min_samples = 1 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--truth")) {
			f.truth = 1;
		} else if (!strcmp(a, "--all")) {
			f.all = 1;
		} else if (!strcmp(a, "--db") || !strcmp(a, "--json") || !strcmp(a, "--min-samples") ||
			   !strcmp(a, "--estimator") || !strcmp(a, "-i") || !strcmp(a, "--image") || !strcmp(a, "--epoch")) {
			if (i + 1 >= argc) {
				cli_error("dcpicalc: option %s needs a value", a);
				return EXIT_USAGE;
			}
			if (!strcmp(a, "--db"))
				f.db = argv[++i];
			else if (!strcmp(a, "-i") || !strcmp(a, "--image"))
				f.image = argv[++i];
			else if (!strcmp(a, "--epoch")) {
				if (cli_parse_u64(argv[++i], &f.epoch) < 0 || !f.epoch || f.epoch > 9999) {
					cli_error("dcpicalc: --epoch: '%s' is not a number from 1 to 9999", argv[i]);
					return EXIT_USAGE;
				}
			}
			else if (!strcmp(a, "--json"))
				f.json_path = argv[++i];
			else if (!strcmp(a, "--estimator")) {
				int e = dcc_estimator_parse(argv[++i]);
				if (e < 0) {
					cli_error("dcpicalc: unknown estimator '%s' (paper or ivx)", argv[i]);
					return EXIT_USAGE;
				}
				f.estimator = (enum dcc_estimator)e;
			} else {
				/* (strtoull takes "-1" for 2^64 - 1: digits only) */
				const char *v = argv[++i];
				char *end;
				f.min_samples = strtoull(v, &end, 10);
				f.min_samples_given = 1;
				if (*end || *v < '0' || *v > '9') {
					cli_error("dcpicalc: --min-samples needs a number of samples, 0 or more (got '%s')", v);
					return EXIT_USAGE;
				}
			}
		} else if (a[0] == '-' && a[1]) {
			cli_error("dcpicalc: unknown option '%s'", a);
			return EXIT_USAGE;
		} else if (!f.target) {
			f.target = a;
		} else {
			cli_error("dcpicalc: too many arguments (usage: ivx dcpicalc [--db DIR] [--json FILE] [--truth] PROC|ADDR)");
			return EXIT_USAGE;
		}
	}
	if (f.all && f.target) {   /* (--all analyses every procedure: PROC would be ignored) */
		cli_error("dcpicalc: --all analyses every procedure; name none ('%s'), or use -i IMAGE for one image's",
			  f.target);
		return EXIT_USAGE;
	}
	if (f.min_samples_given && !f.all) {   /* (one procedure is analysed whatever its samples) */
		cli_error("dcpicalc: --min-samples goes with --all");
		return EXIT_USAGE;
	}
	if (!f.target && !f.all) {
		cli_error("dcpicalc: missing PROC|ADDR (usage: ivx dcpicalc [--db DIR] [--json FILE] [--truth] PROC|ADDR, or --all)");
		return EXIT_USAGE;
	}
	struct dcpicalc_db d;
	if (dcpicalc_db_open(&d, f.db, (int)f.epoch) < 0)
		return EXIT_INPUT;
	d.only = f.image;
	dcpi_warn_changed_images(d.epoch, f.image);
	if (f.image && !dcpicalc_db_image(&d, 0)) {
		cli_error("dcpicalc: no image '%s' with CYCLES samples in %s", f.image, d.epoch);
		dcpicalc_db_close(&d);
		return EXIT_USAGE;
	}
	const char **images = calloc(d.n + 1, sizeof *images);
	for (size_t i = 0; images && i < d.n; i++)
		images[i] = d.list[i]->path;
	const struct named_file out = { "--json", f.json_path };
	int refused = !images ? (cli_error("out of host memory"), 1) : dcpi_check_output(&out, f.db, images, d.n) < 0;
	free(images);
	if (refused) {
		dcpicalc_db_close(&d);
		return EXIT_USAGE;
	}
	if (f.estimator == DCC_EST_IVX && !(f.calls = dcpicalc_calls_gather(&d))) {
		dcpicalc_db_close(&d);
		return EXIT_INPUT;
	}
	int status = f.all ? run_all(&f, &d) : run_one(&f, &d);
	dcpicalc_calls_free(f.calls);
	if (d.bad_files && !status)
		status = EXIT_INPUT;   /* analysed without them, each named above */
	dcpicalc_db_close(&d);
	return status;
}

const struct cli_command cmd_dcpicalc_entry = {
	.name = "dcpicalc",
	.summary = "per-instruction frequency, CPI and stall culprits of a procedure (DCPI analysis)",
	.help =
	"usage: ivx dcpicalc [--db DIR] [--epoch N] [-i IMAGE] [--json FILE] [--truth] [--estimator E] PROC|ADDR\n"
	"       ivx dcpicalc [--db DIR] [--epoch N] [-i IMAGE] [--json FILE] [--estimator E] --all [--min-samples N]\n\n"
	"The analysis half of DCPI (Anderson et al., SOSP 1997, section 6) on the\n"
	"newest epoch of a profile database written by `ivx profile` (on the\n"
	"in-order machine: --config data/configs/inorder.ini). For procedure PROC\n"
	"(or the one containing address ADDR, 0x...): its basic blocks with the\n"
	"best-case and actual CPI, and per instruction its CYCLES samples, its\n"
	"best-case cycles M at the head of the issue stage, the estimated\n"
	"executions (freq) and cycles per execution (CPI), the static stall\n"
	"(s slotting, a operand, f unit) and the candidate culprits of its dynamic\n"
	"stall (i I-cache, t I-TLB, d D-cache, D D-TLB, w store, p mispredict,\n"
	"m long-latency unit, x operand from before the block, b fetch bubble,\n"
	"y serialization) with the instructions to blame; then the procedure's\n"
	"cycles by reason, with the unexplained share.\n\n"
	"  --db DIR       the profile database (default ivx.db)\n"
	"  --epoch N      read epoch N instead of the newest\n"
	"  -i, --image IMAGE  only this image (full path or file name); needed when\n"
	"                 several programs of the epoch have samples in PROC|ADDR\n"
	"  --truth        the simulator's exact executions, CPI and wait reasons\n"
	"                 (each with the instruction blamed for most of it, ->PC)\n"
	"                 beside each estimate; ! marks estimates off by more than 5%\n"
	"  --json FILE    the same as JSON (per instruction pc, samples, freq_est,\n"
	"                 freq_true, cpi_est, cpi_true, culprits, culprit_pcs,\n"
	"                 true_reasons, true_culprit_pcs)\n"
	"  --all          every procedure with samples: the accuracy table\n"
	"  --min-samples N  with --all, skip procedures with fewer samples\n"
	"  --estimator E  the frequency estimator: paper (the default: each\n"
	"                 frequency class from its own issue points) or ivx\n"
	"                 (ivx's extension: a pair's samples counted together,\n"
	"                 every stall-free issue point pooled, the estimates\n"
	"                 reconciled with the flow equations by weighted least\n"
	"                 squares, and a procedure's calls taken from its call\n"
	"                 sites in the other procedures)\n\n"
	"docs/dcpicalc.md explains the analysis and its output.\n",
	.main = cmd_dcpicalc_main,
};
