/*
 * cmd_cpistack.c — `ivx cpistack`: the CPI stacks of the five counter
 * architectures of the paper (naive, naive non-spec, IBM POWER5, FMT, sFMT)
 * and ivx's own counters (acct_ivx.c) measured on one simulation, next to the two simulation-based reference stacks, with
 * each method's largest component error, the frontend / long-backend
 * overlap (the paper's Table 1) and average penalties per miss event
 * (its Figures 4, 6 and 9). Output as a table, JSON (--json) and a
 * normalized stacked-bar chart (--svg, like the paper's Figure 11).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "acct/acct.h"
#include "cli.h"
#include "outfile.h"
#include "cpistack.h"
#include "guest/program.h"

#define N_ROWS (ACCT_COMP_COUNT + 1)   /* base + components */

/* Row r of a stack: 0 = base, 1.. = enum acct_comp. */
static double row_value(const struct refstack_stack *s, int r)
{
	return r == 0 ? s->base : s->comp[r - 1];
}

static const char *row_key(int r)
{
	return r == 0 ? "base" : acct_comp_name(r - 1);
}

static const char *row_label(int r)
{
	return r == 0 ? "base" : acct_comp_label(r - 1);
}

void stack_from_acct(const struct acct_stack *a, struct refstack_stack *out)
{
	double n = a->insns ? (double)a->insns : 1.0;
	out->cpi = (double)a->cycles / n;
	out->base = (double)a->base / n;
	for (int k = 0; k < ACCT_COMP_COUNT; k++)
		out->comp[k] = (double)a->comp[k] / n;
}

/* Row r as compared with a reference: against the paper's, whose base
 * holds the long-latency stalls (fold_fu), a stack's long-latency
 * component counts as base. */
static double cmp_value(const struct refstack_stack *s, int r, int fold_fu)
{
	if (fold_fu && r == 0)
		return s->base + s->comp[ACCT_FU];
	if (fold_fu && r == 1 + ACCT_FU)
		return 0.0;
	return row_value(s, r);
}

/* max over rows of |s - ref| / ref CPI; *worst = that row. */
static double max_error_as(const struct refstack_stack *s, const struct refstack_stack *ref, int fold_fu,
			   int *worst)
{
	double m = 0.0;
	int w = 0;
	for (int r = 0; r < N_ROWS; r++) {
		double e = fabs(cmp_value(s, r, fold_fu) - cmp_value(ref, r, fold_fu)) / ref->cpi;
		if (e > m)
			m = e, w = r;
	}
	if (worst)
		*worst = w;
	return m;
}

void stack_table_print(FILE *out, const struct named_stack *st, int n)
{
	fprintf(out, "%-18s", "CPI");
	for (int i = 0; i < n; i++)
		fprintf(out, " %9s", st[i].label);
	fprintf(out, "\n");
	for (int r = 0; r < N_ROWS; r++) {
		fprintf(out, "%-18s", row_label(r));
		for (int i = 0; i < n; i++)
			fprintf(out, " %9.4f", row_value(&st[i].s, r));
		fprintf(out, "\n");
	}
	fprintf(out, "%-18s", "total");
	for (int i = 0; i < n; i++)
		fprintf(out, " %9.4f", st[i].s.cpi);
	fprintf(out, "\n\n%-18s", "% of CPI");
	for (int i = 0; i < n; i++)
		fprintf(out, " %9s", st[i].label);
	fprintf(out, "\n");
	for (int r = 0; r < N_ROWS; r++) {
		fprintf(out, "%-18s", row_label(r));
		for (int i = 0; i < n; i++)
			fprintf(out, " %8.1f%%", st[i].s.cpi > 0 ? 100.0 * row_value(&st[i].s, r) / st[i].s.cpi : 0.0);
		fprintf(out, "\n");
	}
}

void stack_json_methods(FILE *f, const struct named_stack *st, int n, const struct refstack_stack *ref,
			const struct refstack_stack *inv, int fold_fu)
{
	fprintf(f, "\"methods\":{");
	for (int i = 0; i < n; i++) {
		fprintf(f, "%s\"%s\":{\"cpi\":%.6f,\"components\":{", i ? "," : "", st[i].key, st[i].s.cpi);
		for (int r = 0; r < N_ROWS; r++)
			fprintf(f, "%s\"%s\":%.6f", r ? "," : "", row_key(r), row_value(&st[i].s, r));
		fprintf(f, "}");
		/* counter methods: their error against the two references */
		if (ref && &st[i].s != ref && &st[i].s != inv)
			fprintf(f, ",\"max_error\":%.6f,\"max_error_inverse\":%.6f", max_error_as(&st[i].s, ref, fold_fu, NULL),
				max_error_as(&st[i].s, inv, fold_fu, NULL));
		fprintf(f, "}");
	}
	fprintf(f, "}");
}

/* ---- the measurement ---------------------------------------------------------- */

struct measured {
	struct acct_set *set;
	const struct acct *unit[ACCT_METHOD_COUNT];
	const struct acct_overlap *ov;
	struct acct_stack raw[ACCT_METHOD_COUNT];
	struct acct_overlap_stats ovs;
	struct named_stack st[2 + ACCT_METHOD_COUNT];  /* ref, ref_inverse, methods */
	int n;                                         /* stacks in st */
	int first;                                     /* first valid in st (2 with --no-ref) */
	uint64_t shadow_insns, shadow_cycles;          /* what the ivx counters' shadow measured */
};

static const char *const short_labels[ACCT_METHOD_COUNT] = {
	"naive", "naive-ns", "POWER5", "FMT", "sFMT", "ivx",
};

/* Average penalty per correct-path event of component k, from a stack in
 * CPI; negative when there were no events. */
static double per_event(double cpi_comp, uint64_t insns, uint64_t events)
{
	return events ? cpi_comp * (double)insns / (double)events : -1.0;
}

static void print_penalties(FILE *out, const struct measured *m, const struct stackrun *sr)
{
	uint64_t insns = stackrun_real(sr)->insns;
	fprintf(out, "\naverage penalty per correct-path event, cycles (the paper's Figures 4, 6, 9)\n");
	fprintf(out, "%-18s %10s %9s %9s %9s %9s\n", "event", "events", "ref", "FMT", "naive", "POWER5");
	uint64_t nev[ACCT_COMP_COUNT];
	acct_event_counts(m->unit[ACCT_NAIVE], nev);
	for (int k = 0; k < ACCT_COMP_COUNT; k++) {
		uint64_t ev = m->ovs.events[k];
		double v[4] = {
			m->first == 0 ? per_event(m->st[0].s.comp[k], insns, ev) : -1.0,
			per_event(m->st[2 + ACCT_FMT].s.comp[k], insns, ev),
			/* naive: the configured penalty it multiplies by */
			nev[k] ? (double)m->raw[ACCT_NAIVE].comp[k] / (double)nev[k] : -1.0,
			per_event(m->st[2 + ACCT_POWER5].s.comp[k], insns, ev),
		};
		fprintf(out, "%-18s %10llu", acct_comp_label(k), (unsigned long long)ev);
		for (int i = 0; i < 4; i++) {
			if (v[i] < 0)
				fprintf(out, " %9s", "-");
			else
				fprintf(out, " %9.2f", v[i]);
		}
		fprintf(out, "\n");
	}
}

/* Whether the cycles the FMT charges were really lost (docs/cpi-stacks.md,
 * "When the FMT is wrong"): work done in them, expressed in cycles at the
 * reference base CPI (the rate of the machine without miss events). */
static void print_checks(FILE *out, const struct measured *m)
{
	const struct acct_overlap_stats *o = &m->ovs;
	double base = m->first == 0 ? m->st[0].s.base : 0.25;
	fprintf(out, "\ninterval-analysis checks: work done in cycles the FMT charges to a miss\n"
		"(instructions, and the cycles they take at the %s base CPI %.3f)\n",
		m->first == 0 ? "reference" : "assumed", base);
	fprintf(out, "  %-27s %10llu cycles: %10llu insns entered the ROB = %9.0f cycles\n",
		"I-miss stall, ROB not full", (unsigned long long)o->imiss_stall,
		(unsigned long long)o->imiss_stall_dispatched, (double)o->imiss_stall_dispatched * base);
	for (int k = 0; k < ACCT_COMP_COUNT; k++)
		if (o->full[k])
			fprintf(out, "  ROB full behind %-11s %10llu cycles: %10llu insns issued       = %9.0f cycles\n",
				acct_comp_name(k), (unsigned long long)o->full[k],
				(unsigned long long)o->full_issued[k], (double)o->full_issued[k] * base);
	fprintf(out, "  misprediction windows, ROB not full: %llu cycles; nothing committed, head waiting on:",
		(unsigned long long)o->bp_window);
	int waited = 0;
	for (int k = 0; k < ACCT_COMP_COUNT; k++)
		if (o->bp_window_head[k])
			waited = fprintf(out, " %s %llu", acct_comp_name(k), (unsigned long long)o->bp_window_head[k]);
	fprintf(out, "%s\n", waited ? "" : " nothing");
}

/* The host's timing, on stderr so that the same run prints the same
 * stdout; last, after every output was written (an error stays the one
 * line on stderr). */
static void print_host_timing(const struct measured *m, const struct stackrun *sr)
{
	const struct refstack_job *real = stackrun_real(sr);
	double speed = real->seconds > 0 ? (double)real->cycles / real->seconds / 1e6 : 0.0;
	if (m->first)
		fprintf(stderr, "ivx: one simulation, the accounting units attached: %.2f s CPU, %.2f M cycles/s\n",
			real->seconds, speed);
	else
		fprintf(stderr, "ivx: %d simulations on %d thread%s, %.1f s; the one with the accounting units: "
			"%.2f s CPU, %.2f M cycles/s\n", sr->simulations, sr->threads, sr->threads == 1 ? "" : "s",
			sr->seconds, real->seconds, speed);
}

static void print_text(FILE *out, const struct measured *m, const struct stackrun *sr)
{
	int fold = !sr->ref_fu;
	const struct refstack_job *real = stackrun_real(sr);
	fprintf(out, "CPI stacks of %s: %llu instructions, %llu cycles, CPI %.4f\n", program_name(sr->prog),
		(unsigned long long)real->insns, (unsigned long long)real->cycles,
		(double)real->cycles / (double)real->insns);
	if (m->first)
		fprintf(out, "\n");
	else
		fprintf(out, "(%s%s)\n\n", refstack_kind(sr),
			sr->ref_fu ? "" : "; the counters' long-latency component is compared inside base");
	stack_table_print(out, m->st + m->first, m->n - m->first);
	if (m->first == 0) {
		fprintf(out, "\nmax component error, |component - reference| / reference CPI:\n");
		for (int ref = 0; ref < 2; ref++) {
			fprintf(out, "%-18s", ref ? "vs inverse order" : "vs reference");
			for (int i = 0; i < 2; i++) {
				if (i == ref)
					fprintf(out, " %9s", "");
				else
					fprintf(out, " %8.2f%%", 100.0 * max_error_as(&m->st[i].s, &m->st[ref].s, fold, NULL));
			}
			for (int i = 2; i < m->n; i++)
				fprintf(out, " %8.2f%%", 100.0 * max_error_as(&m->st[i].s, &m->st[ref].s, fold, NULL));
			fprintf(out, "\n");
		}
		fprintf(out, "%-18s %9s", "worst component", "");
		for (int i = 1; i < m->n; i++) {
			int w;
			max_error_as(&m->st[i].s, &m->st[0].s, fold, &w);
			fprintf(out, " %9s", row_key(w));
		}
		fprintf(out, "\n");
	}
	if (m->shadow_insns)
		fprintf(out, "\nivx base from its base-machine shadow: CPI %.4f over the %llu instructions it measured "
			"(docs/cpi-stacks.md)\n", (double)m->shadow_cycles / (double)m->shadow_insns,
			(unsigned long long)m->shadow_insns);
	else
		fprintf(out, "\nivx base: the counters' own (the run ended before the base-machine shadow's first "
			"window)\n");
	double cyc = m->ovs.cycles ? (double)m->ovs.cycles : 1.0;
	fprintf(out, "\nfrontend / long backend miss overlap (the paper's Table 1): %.2f%% of cycles\n"
		"  (a frontend miss penalty in %.2f%% of cycles, a long D-side miss outstanding in %.2f%%)\n",
		100.0 * (double)m->ovs.overlap / cyc, 100.0 * (double)m->ovs.frontend / cyc,
		100.0 * (double)m->ovs.long_backend / cyc);
	print_checks(out, m);
	print_penalties(out, m, sr);
}

static int write_json(const char *path, const struct measured *m, const struct stackrun *sr)
{
	struct outfile *o = outfile_open_cli(path);
	if (!o)
		return -1;
	FILE *f = outfile_stream(o);
	const struct refstack_job *real = stackrun_real(sr);
	uint64_t insns = real->insns;
	fprintf(f, "{\"program\":");
	outfile_json_string(f, program_name(sr->prog));
	fprintf(f, ",\"instructions\":%llu,\"cycles\":%llu,\"cpi\":%.6f,",
		(unsigned long long)insns, (unsigned long long)real->cycles, (double)real->cycles / (double)insns);
	stackrun_json_end(f, sr);
	fputc(',', f);
	if (m->first == 0)
		fprintf(f, "\"reference\":\"%s\",", sr->ref_fu ? "fu-step" : "paper");
	if (m->first == 0)
		stack_json_methods(f, m->st, m->n, &m->st[0].s, &m->st[1].s, !sr->ref_fu);
	else
		stack_json_methods(f, m->st + m->first, m->n - m->first, NULL, NULL, 0);
	fprintf(f, ",\"ivx_shadow\":{\"instructions\":%llu,\"cycles\":%llu}", (unsigned long long)m->shadow_insns,
		(unsigned long long)m->shadow_cycles);
	double cyc = m->ovs.cycles ? (double)m->ovs.cycles : 1.0;
	fprintf(f, ",\"overlap\":{\"fraction\":%.6f,\"frontend\":%.6f,\"long_backend\":%.6f}",
		(double)m->ovs.overlap / cyc, (double)m->ovs.frontend / cyc, (double)m->ovs.long_backend / cyc);
	fprintf(f, ",\"checks\":{\"imiss_stall\":%llu,\"imiss_stall_dispatched\":%llu,\"rob_full\":{",
		(unsigned long long)m->ovs.imiss_stall, (unsigned long long)m->ovs.imiss_stall_dispatched);
	for (int k = 0; k < ACCT_COMP_COUNT; k++)
		fprintf(f, "%s\"%s\":{\"cycles\":%llu,\"issued\":%llu}", k ? "," : "", acct_comp_name(k),
			(unsigned long long)m->ovs.full[k], (unsigned long long)m->ovs.full_issued[k]);
	fprintf(f, "},\"bp_window\":%llu,\"bp_window_head\":{", (unsigned long long)m->ovs.bp_window);
	for (int k = 0; k < ACCT_COMP_COUNT; k++)
		fprintf(f, "%s\"%s\":%llu", k ? "," : "", acct_comp_name(k), (unsigned long long)m->ovs.bp_window_head[k]);
	fprintf(f, "}}");
	fprintf(f, ",\"penalties\":{");
	uint64_t nev[ACCT_COMP_COUNT];
	acct_event_counts(m->unit[ACCT_NAIVE], nev);
	for (int k = 0; k < ACCT_COMP_COUNT; k++) {
		uint64_t ev = m->ovs.events[k];
		fprintf(f, "%s\"%s\":{\"events\":%llu", k ? "," : "", acct_comp_name(k), (unsigned long long)ev);
		if (ev && m->first == 0)
			fprintf(f, ",\"ref\":%.4f", per_event(m->st[0].s.comp[k], insns, ev));
		if (ev)
			fprintf(f, ",\"fmt\":%.4f,\"power5\":%.4f", per_event(m->st[2 + ACCT_FMT].s.comp[k], insns, ev),
				per_event(m->st[2 + ACCT_POWER5].s.comp[k], insns, ev));
		if (nev[k])
			fprintf(f, ",\"naive\":%.4f", (double)m->raw[ACCT_NAIVE].comp[k] / (double)nev[k]);
		fprintf(f, "}");
	}
	fprintf(f, "}}\n");
	return outfile_commit_cli(o);
}

/* One tab-separated line for tests/acct-validate.sh (header with --summary
 * on a line starting with '#'). */
static void print_summary(FILE *out, const struct measured *m, const struct stackrun *sr)
{
	int fold = !sr->ref_fu;
	const struct refstack_stack *ref = &m->st[0].s, *inv = &m->st[1].s;
	const struct refstack_stack *p5 = &m->st[2 + ACCT_POWER5].s;
	int wf, ws;
	max_error_as(&m->st[2 + ACCT_FMT].s, ref, fold, &wf);
	max_error_as(&m->st[2 + ACCT_SFMT].s, ref, fold, &ws);
	fprintf(out, "#program\tinsns\tcpi\terr_naive\terr_nonspec\terr_power5\terr_fmt\terr_sfmt\t"
		"err_fmt_inv\terr_sfmt_inv\tref_vs_inv\tfmt_worst\tsfmt_worst\tnaive_base\tnonspec_base\t"
		"overlap\tref_icache\tp5_icache\tref_bpred\tp5_bpred\terr_ivx\terr_ivx_inv\tivx_worst\n");
	fprintf(out, "%s\t%llu\t%.4f", program_name(sr->prog), (unsigned long long)stackrun_real(sr)->insns, ref->cpi);
	/* the paper's five methods first; ivx's own at the end of the line */
	for (int i = 2; i < 2 + ACCT_IVX; i++)
		fprintf(out, "\t%.4f", 100.0 * max_error_as(&m->st[i].s, ref, fold, NULL));
	fprintf(out, "\t%.4f\t%.4f\t%.4f\t%s\t%s", 100.0 * max_error_as(&m->st[2 + ACCT_FMT].s, inv, fold, NULL),
		100.0 * max_error_as(&m->st[2 + ACCT_SFMT].s, inv, fold, NULL), 100.0 * max_error_as(inv, ref, fold, NULL),
		row_key(wf), row_key(ws));
	double cyc = m->ovs.cycles ? (double)m->ovs.cycles : 1.0;
	fprintf(out, "\t%.4f\t%.4f\t%.4f", m->st[2 + ACCT_NAIVE].s.base, m->st[2 + ACCT_NAIVE_NONSPEC].s.base,
		100.0 * (double)m->ovs.overlap / cyc);
	double ri = ref->comp[ACCT_L1I] + ref->comp[ACCT_L2I] + ref->comp[ACCT_ITLB];
	double pi = p5->comp[ACCT_L1I] + p5->comp[ACCT_L2I] + p5->comp[ACCT_ITLB];
	fprintf(out, "\t%.4f\t%.4f\t%.4f\t%.4f", ri, pi, ref->comp[ACCT_BPRED], p5->comp[ACCT_BPRED]);
	const struct refstack_stack *iv = &m->st[2 + ACCT_IVX].s;
	int wi;
	double ei = max_error_as(iv, ref, fold, &wi);
	fprintf(out, "\t%.4f\t%.4f\t%s\n", 100.0 * ei, 100.0 * max_error_as(iv, inv, fold, NULL), row_key(wi));
}

/* ---- SVG: normalized stacked bars (the paper's Figure 11) ------------------- */

static const char *const colours[N_ROWS] = {
	"#b0b0b0", /* base */
	"#1f77b4", /* L1 I-cache */
	"#9ecae9", /* L2 I-cache */
	"#17becf", /* I-TLB */
	"#ffbb78", /* L1 D-cache */
	"#d62728", /* L2 D-cache */
	"#f7b6d2", /* D-TLB */
	"#2ca02c", /* branch */
	"#9467bd", /* long-latency unit */
};

static int write_svg(const char *path, const struct measured *m, const struct stackrun *sr)
{
	struct outfile *o = outfile_open_cli(path);
	if (!o)
		return -1;
	FILE *f = outfile_stream(o);
	const struct named_stack *st = m->st + m->first;
	int n = m->n - m->first;
	/* value range in % of each bar's CPI, rounded out to 25% steps */
	double lo = 0.0, hi = 100.0;
	for (int i = 0; i < n; i++) {
		double pos = 0.0, neg = 0.0;
		for (int r = 0; r < N_ROWS; r++) {
			double v = 100.0 * row_value(&st[i].s, r) / st[i].s.cpi;
			if (v >= 0)
				pos += v;
			else
				neg += v;
		}
		if (pos > hi)
			hi = pos;
		if (neg < lo)
			lo = neg;
	}
	lo = floor(lo / 25.0) * 25.0;
	hi = ceil(hi / 25.0) * 25.0;
	const int left = 70, top = 50, plot_h = 360, bar_w = 56, gap = 28;
	const int plot_w = n * (bar_w + gap) + gap, legend_x = left + plot_w + 30;
	const int width = legend_x + 190, height = top + plot_h + 70;
#define Y(v) (top + (hi - (v)) / (hi - lo) * plot_h)
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n", width, height);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<text x=\"%d\" y=\"24\" font-size=\"15\" font-weight=\"bold\">Normalized CPI stacks: ",
		left);
	outfile_xml_text(f, program_name(sr->prog));
	/* with the guest's arguments: `k3 -- miss 2` and `k3 -- nomiss 2` are
	 * different lessons, and a slide should say which */
	for (int i = 1; i < sr->o.guest_argc; i++) {
		fputc(' ', f);
		outfile_xml_text(f, sr->o.guest_argv[i]);
	}
	fprintf(f, " (CPI %.3f)</text>\n", st[0].s.cpi);
	for (double t = lo; t <= hi + 1e-9; t += 25.0) {
		double y = Y(t);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>\n", left, y,
			left + plot_w, y, t == 0.0 ? "black" : "#dddddd");
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.0f%%</text>\n", left - 6, y + 4, t);
	}
	for (int i = 0; i < n; i++) {
		int x = left + gap + i * (bar_w + gap);
		double pos = 0.0, neg = 0.0;
		for (int r = 0; r < N_ROWS; r++) {
			double v = 100.0 * row_value(&st[i].s, r) / st[i].s.cpi;
			if (fabs(v) < 1e-9)
				continue;
			double a = v >= 0 ? pos : neg, b = a + v;
			if (v >= 0)
				pos = b;
			else
				neg = b;
			double y0 = Y(a > b ? a : b), y1 = Y(a > b ? b : a);
			fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\" stroke=\"white\" "
				"stroke-width=\"0.5\"><title>%s %s: %.4f CPI (%.1f%%)</title></rect>\n", x, y0, bar_w,
				y1 - y0, colours[r], st[i].label, row_label(r), row_value(&st[i].s, r), v);
		}
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x + bar_w / 2,
			top + plot_h + 18, st[i].label);
	}
	/* legend, top of the stack first */
	for (int r = N_ROWS - 1, k = 0; r >= 0; r--, k++) {
		int y = top + 10 + k * 22;
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"16\" fill=\"%s\" stroke=\"#555555\" "
			"stroke-width=\"0.5\"/>\n", legend_x, y, colours[r]);
		fprintf(f, "<text x=\"%d\" y=\"%d\">%s</text>\n", legend_x + 24, y + 13, row_label(r));
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#555555\">%% of each method's CPI; below 0: negative "
		"components</text>\n", left, top + plot_h + 46);
	fprintf(f, "</svg>\n");
#undef Y
	return outfile_commit_cli(o);
}

/* ---- the command ------------------------------------------------------------------ */

static int attach_units(struct measured *m, struct stackrun *sr)
{
	struct ivx_err err = { 0 };
	struct refstack_job *real = &sr->job[REF_REAL];
	m->set = acct_set_new(&sr->cfg, &err);
	if (!m->set) {
		cli_error("%s", err.msg);
		return -1;
	}
	for (int k = 0; k < ACCT_METHOD_COUNT; k++)
		m->unit[k] = acct_set_unit(m->set, k);
	m->ov = acct_set_overlap(m->set);
	real->obs[real->n_obs++] = acct_set_observer(m->set);
	return 0;
}

static void collect(struct measured *m, const struct stackrun *sr, int no_ref)
{
	m->st[0] = (struct named_stack){ "ref", "ref", sr->ref };
	m->st[1] = (struct named_stack){ "ref_inverse", "ref-inv", sr->ref_inv };
	for (int k = 0; k < ACCT_METHOD_COUNT; k++) {
		acct_get_stack(m->unit[k], &m->raw[k]);
		m->st[2 + k].key = acct_method_name(k);
		m->st[2 + k].label = short_labels[k];
		stack_from_acct(&m->raw[k], &m->st[2 + k].s);
	}
	acct_overlap_get(m->ov, &m->ovs);
	acct_ivx_shadow(m->unit[ACCT_IVX], &m->shadow_insns, &m->shadow_cycles);
	m->n = 2 + ACCT_METHOD_COUNT;
	m->first = no_ref ? 2 : 0;
}

/* --bench: the same simulation without observers and with the six units
 * (acct_set_new_units: no overlap measurement), alternately, five times each, one at a time;
 * the least CPU time of the timing loop of each (noise on a shared
 * machine only ever adds time, so the minimum is the steadiest figure).
 * Under callgrind, once each, one dump per run (cli.h). */
static int run_bench(struct stackrun *sr)
{
	enum { REPS = 5 };
	double t[2][REPS] = { { 0 } };
	struct refstack_job *real = &sr->job[REF_REAL];
	uint64_t cycles = 0;
	int reps = cli_bench_reps(REPS);
	for (int rep = 0; rep < reps; rep++)
		for (int with = 0; with < 2; with++) {
			struct ivx_err err = { 0 };
			struct acct_set *set = with ? acct_set_new_units(&sr->cfg, &err) : NULL;
			if (with && !set) {
				cli_error("%s", err.msg);
				return -1;
			}
			struct refstack_job j = *real;
			j.n_obs = 0;
			if (set)
				j.obs[j.n_obs++] = acct_set_observer(set);
			/* (the job times its own run; the section is for callgrind) */
			double t0 = cli_bench_start();
			int rc = refstack_run_jobs(&j, 1, 1, &err);
			cli_bench_stop(t0, with ? "with the units" : "timing model");
			acct_set_free(set);
			if (rc < 0) {
				cli_error("%s", err.msg);
				return -1;
			}
			t[with][rep] = j.seconds;
			cycles = j.cycles;
		}
	double best[2];
	for (int w = 0; w < 2; w++) {
		best[w] = t[w][0];
		for (int i = 1; i < reps; i++)
			if (t[w][i] < best[w])
				best[w] = t[w][i];
	}
	/* the cost both ways: time added, and speed lost (the share of the
	 * timing model's cycles per second the units take away) */
	int timed = best[0] > 0 && best[1] > 0;
	printf("%s: %llu cycles; timing model %.3f s (%.2f M cycles/s), with the six units %.3f s "
	       "(%.2f M cycles/s): time %+.1f%%, speed %+.1f%%\n", program_name(sr->prog),
	       (unsigned long long)cycles, best[0], timed ? (double)cycles / best[0] / 1e6 : 0.0, best[1],
	       timed ? (double)cycles / best[1] / 1e6 : 0.0, timed ? 100.0 * (best[1] / best[0] - 1.0) : 0.0,
	       timed ? 100.0 * (best[0] / best[1] - 1.0) : 0.0);
	return 0;
}

static int cmd_cpistack_main(int argc, char **argv)
{
	struct stackrun sr;
	struct measured m;
	memset(&sr, 0, sizeof sr);
	memset(&m, 0, sizeof m);
	struct stack_flags fl = { 0 };
	if (run_options_parse(&sr.o, argc, argv, stack_flags_parse, &fl) < 0)
		return EXIT_USAGE;
	sr.ref_fu = fl.ref_fu;
	const struct named_file outputs[] = { { "--json", fl.json_path }, { "--svg", fl.svg_path } };
	int bad_options = (fl.summary || fl.ref_fu) && fl.no_ref;
	if (bad_options)
		cli_error("%s needs the reference stacks (drop --no-ref)", fl.summary ? "--summary" : "--ref-fu");
	else
		bad_options = run_options_check_outputs(&sr.o, outputs, 2) < 0;
	if (bad_options) {
		run_options_free(&sr.o);
		return EXIT_USAGE;
	}
	int status = EXIT_INPUT;
	if (fl.bench) {
		if (stackrun_prepare(&sr, 1) == 0)
			status = run_bench(&sr) == 0 ? 0 : EXIT_GUEST;
		goto out;
	}
	if (stackrun_prepare(&sr, fl.jobs) < 0 || attach_units(&m, &sr) < 0)
		goto out;
	status = EXIT_GUEST;
	int ran = stackrun_execute(&sr, fl.no_ref);
	if (ran < 0)
		goto out;
	if (ran > 0) {   /* nothing to stack, at the user's limit: no picture either */
		status = fl.json_path && stackrun_json_nothing(fl.json_path, &sr) < 0 ? EXIT_OUTPUT : 0;
		goto out;
	}
	collect(&m, &sr, fl.no_ref);
	if (fl.summary)
		print_summary(stdout, &m, &sr);
	else
		print_text(stdout, &m, &sr);
	status = 0;
	if (fl.json_path && write_json(fl.json_path, &m, &sr) < 0)
		status = EXIT_INPUT;
	if (fl.svg_path && write_svg(fl.svg_path, &m, &sr) < 0)
		status = EXIT_INPUT;
	if (status == 0 && !sr.o.quiet && !fl.summary && cli_flush_stdout() == 0)
		print_host_timing(&m, &sr);
out:
	acct_set_free(m.set);
	stackrun_free(&sr);
	return status;
}

const struct cli_command cmd_cpistack_entry = {
	.name = "cpistack",
	.summary = "CPI stacks of six counter architectures vs the reference",
	.help =
	"usage: ivx cpistack [OPTIONS] [PROG] [-- ARGS...]\n\n"
	"Run PROG on the timing model with six CPI accounting units observing\n"
	"the same simulation (naive, naive non-spec, IBM POWER5, FMT, sFMT of\n"
	"Eyerman et al., ASPLOS 2006, and ivx counters, ours) and, in parallel,\n"
	"the other simulations of the reference stacks (see `ivx refstack --help`):\n"
	"12 simulations in all, the one with the units included; 13 with --ref-fu.\n"
	"Prints the stacks side by side in CPI and % of CPI, each method's\n"
	"maximum component error (|component - reference component| / reference\n"
	"CPI), the fraction of cycles where a frontend miss penalty overlaps a\n"
	"long backend miss, and the average penalty per miss event under each\n"
	"method. The program's own output is discarded. docs/cpi-stacks.md\n"
	"explains the methods.\n\n"
	"  --json FILE         also write everything as JSON (CPI units)\n"
	"  --svg FILE          draw normalized stacked bars per method\n"
	"  --no-ref            only the counter stacks (one simulation)\n"
	"  --summary           one tab-separated line (for make validate)\n"
	"  --bench             time the simulation without and with the six units\n"
	"                      (least CPU time of 5 runs each; for make bench)\n"
	"  --jobs N            simulations at once (default: host cores)\n"
	"  --quiet, -q         no progress line (shown on stderr when it is a terminal)\n"
	"                      and no host timing (on stderr: stdout is the same for\n"
	"                      the same run)\n"
	"  --ref-fu            reference with ivx's long-latency step (see ivx refstack\n"
	"                      --help); default: the paper's, errors fold fu into base\n"
	RUN_OPTIONS_HELP,
	.main = cmd_cpistack_main,
};
