/*
 * annotate.c — the explorer's live dcpicalc (see annotate.h). The samples
 * are read without disturbing the sampler: the daemon's aggregated
 * profile, plus what still sits in the driver's hash table and overflow
 * buffers (a real DCPI would flush first; flushing here would change the
 * run's state, and so what stepping forward does). The static analysis
 * (dcc_new) is redone per call: procedures are small, and the explorer
 * annotates when asked or once per screen update.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "annotate.h"
#include "cli/dcpicalc_calls.h"
#include "cli/dcpicalc_load.h"
#include "core/core.h"
#include "dcpi/dcpi.h"
#include "dcpi/dcpicalc.h"
#include "explorer.h"
#include "guest/program.h"
#include "guest/symtab.h"
#include "inst_dcpi.h"
#include "instrument.h"
#include "isa/disasm.h"

#define NEV 5   /* the events dcpicalc reads: CYCLES, IMISS, DMISS, BRANCHMP, DTBMISS */

static int add_line(struct xannotation *a, int heat, int is_pc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int add_line(struct xannotation *a, int heat, int is_pc, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	struct xann_line *l = realloc(a->line, (a->n + 1) * sizeof *l);
	if (!l)
		return -1;
	a->line = l;
	if (!(l[a->n].text = strdup(buf)))
		return -1;
	l[a->n].heat = heat;
	l[a->n].is_pc = is_pc;
	l[a->n].pc = 0;
	l[a->n].share = 0;
	l[a->n].n_culprit = 0;
	l[a->n].true_culprit = 0;
	a->n++;
	return 0;
}

void xannotation_free(struct xannotation *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->n; i++)
		free(a->line[i].text);
	free(a->line);
	a->line = NULL;
	a->n = 0;
}

/* Every count the sampler holds (the daemon's profile, the driver's hash
 * table and overflow buffers), read once: a procedure's samples are then
 * a scan of this list, which is short next to the table (the ivx
 * estimator's calls step loads every procedure). */
struct xsample {
	uint64_t pc, count;
	int event;
};

struct xsamples {
	struct xsample *v;
	size_t n, cap;
};

static int xs_add(struct xsamples *xs, uint64_t pc, int event, uint64_t count)
{
	if (event < 0 || event >= NEV || !count)
		return 0;
	if (xs->n == xs->cap) {
		size_t nc = xs->cap ? 2 * xs->cap : 1024;
		struct xsample *v = realloc(xs->v, nc * sizeof *v);
		if (!v)
			return -1;
		xs->v = v;
		xs->cap = nc;
	}
	xs->v[xs->n++] = (struct xsample){ pc, count, event };
	return 0;
}

static int xs_collect(const struct dcpi *d, struct xsamples *xs)
{
	int r = 0;
	for (size_t i = 0; i < dcpi_profile_size(d); i++) {
		uint64_t pc, cnt;
		int ev;
		if (dcpi_profile_at(d, i, &pc, &ev, &cnt) == 0)
			r |= xs_add(xs, pc, ev, cnt);
	}
	struct dcpi_entry e;
	for (uint32_t b = 0; b < dcpi_table_buckets(d); b++)
		for (int w = 0; w < DCPI_WAYS; w++)
			if (dcpi_bucket_entry(d, b, w, &e) == 0 && e.count)
				r |= xs_add(xs, e.pc, e.event, e.count);
	for (int buf = 0; buf < 2; buf++)
		for (uint32_t i = 0; dcpi_buffer_entry(d, buf, i, &e) == 0; i++)
			r |= xs_add(xs, e.pc, e.event, e.count);
	return r;
}

/* The procedure's counts per event (arrays of pr->n, NULL for an event
 * not sampled) from the list. */
static void xs_tally(const struct xsamples *xs, struct dcpicalc_proc *pr)
{
	uint64_t lo = pr->code[0].pc;
	for (size_t k = 0; k < xs->n; k++) {
		const struct xsample *e = &xs->v[k];
		if (!pr->samples[e->event] || e->pc < lo || e->pc >= lo + 4 * (uint64_t)pr->n || (e->pc - lo) & 3)
			continue;
		pr->samples[e->event][(e->pc - lo) / 4] += e->count;
	}
}

/* Give pr (its code loaded) zeroed sample arrays for the events sampled
 * and their mean periods, undoing multiplexing as dcpicalc_load does;
 * then its counts. 0, or -1 out of memory. */
static int proc_samples(struct dcpicalc_proc *pr, const struct dcpi *d, const struct dcpi_stats *st,
			const struct xsamples *xs)
{
	const struct dcpi_config *cfg = dcpi_config(d);
	for (int e = 0; e < NEV; e++) {
		if (!(cfg->events >> e & 1) || !st->samples[e])
			continue;
		if (!(pr->samples[e] = calloc(pr->n ? pr->n : 1, sizeof(uint64_t))))
			return -1;
		pr->period[e] = st->enabled_cycles[e] && st->period_events[e] ?
			(double)st->period_events[e] / (double)st->samples[e] *
			((double)st->cycles / (double)st->enabled_cycles[e]) : 0;
	}
	xs_tally(xs, pr);
	return 0;
}

#define XIMAGE "the program"   /* the explorer's one image, as dcpicalc_code_load names it */

/* ivx's calls step (src/cli/dcpicalc_calls.c) over the program's
 * procedures, as `ivx dcpicalc --estimator ivx` makes it over a database:
 * every code symbol once (ELF mapping symbols and aliases left out). NULL
 * with a message in msg. */
static struct dcpicalc_calls *explorer_calls(struct explorer *x, const struct dcpi *d, const struct dcpi_stats *st,
					     const struct xsamples *xs, char *msg, size_t msg_n)
{
	struct dcpicalc_calls *c = dcpicalc_calls_new();
	if (!c) {
		snprintf(msg, msg_n, "out of host memory");
		return NULL;
	}
	const struct symtab *symt = program_symbols(x->prog);
	uint64_t last_addr = 0;
	for (size_t i = 0; i < symtab_count(symt); i++) {
		const struct symbol *s = symtab_at(symt, i);
		if (s->name[0] == '$' || (i && s->addr == last_addr))
			continue;
		last_addr = s->addr;
		const struct uop *first, *end;
		if (program_code_run(x->prog, s->addr, &first, &end) < 0)
			continue;
		struct dcpicalc_proc pr;
		if (dcpicalc_code_load(x->prog, s, XIMAGE, &pr, msg, msg_n) < 0)
			goto fail;
		int rc = !pr.n ? 0 : proc_samples(&pr, d, st, xs) < 0 ?
			(snprintf(msg, msg_n, "out of host memory"), -1) :
			dcpicalc_calls_add(c, &x->cfg_live, XIMAGE, &pr, msg, msg_n);
		dcpicalc_proc_free(&pr);
		if (rc < 0)
			goto fail;
	}
	return c;
fail:
	dcpicalc_calls_free(c);
	return NULL;
}

static const struct symbol *find_proc(struct explorer *x, const char *target, char *msg, size_t msg_n)
{
	const struct symtab *st = program_symbols(x->prog);
	const struct symbol *s = NULL;
	uint64_t addr = explorer_pc(x), off = 0;
	if (target && *target) {
		if ((s = symtab_find(st, target)))
			return s;
		char saved[sizeof x->err];
		memcpy(saved, x->err, sizeof saved);
		int bad = explorer_parse_addr(x, target, &addr) < 0;
		memcpy(x->err, saved, sizeof saved);
		if (bad) {
			snprintf(msg, msg_n, "annotate: unknown procedure '%s'", target);
			return NULL;
		}
	}
	s = symtab_lookup(st, addr, &off);
	if (!s || (s->size && off >= s->size)) {
		snprintf(msg, msg_n, "annotate: no procedure at 0x%llx", (unsigned long long)addr);
		return NULL;
	}
	return s;
}

static double rel_off(double est, double truth)
{
	if (truth <= 0)
		return est > 0 ? 1 : 0;
	double d = est - truth;
	return (d < 0 ? -d : d) / truth;
}


/* The true reasons of pc, compact: the letters (dcpicalc's mapping of the
 * core's wait reasons) with most cycles per execution, largest first, at
 * most two ("d87.6 D24.9"); the letters used go into *used. */
static void true_why(const struct dcpi_wait *w, uint64_t pc, uint64_t execs, char *buf, size_t n, uint32_t *used)
{
	buf[0] = 0;
	struct dcpi_wait_pc e;
	if (!w || !dcpi_wait_find(w, pc, &e))
		return;
	double by[DCC_LETTER_COUNT] = { 0 };
	for (int k = 0; k < ISSUE_WAIT_COUNT; k++) {
		int l = dcc_letter_of_wait(k);
		if (l >= 0)
			by[l] += (double)e.cycles[k];
	}
	double div = execs ? (double)execs : 1;
	size_t at = 0;
	for (int shown = 0; shown < 2; shown++) {
		int best = -1;
		for (int l = 0; l < DCC_LETTER_COUNT; l++)
			if (by[l] > 0 && (best < 0 || by[l] > by[best]))
				best = l;
		if (best < 0 || by[best] / div < 0.05)
			break;
		at += (size_t)snprintf(buf + at, n - at, "%s%c%.1f", shown ? " " : "", dcc_letter_char[best],
				       by[best] / div);
		*used |= 1u << best;
		by[best] = 0;
		if (at >= n)
			break;
	}
}

/* The instruction the core blamed for most of pc's wait: the top culprit
 * of pc's largest reason that has culprits, when that reason costs at
 * least half a cycle per execution (the threshold of the estimate's
 * arrows; 0: none). */
static uint64_t true_culprit(const struct dcpi_wait *w, uint64_t pc, uint64_t execs)
{
	struct dcpi_wait_pc e;
	if (!w || !dcpi_wait_find(w, pc, &e))
		return 0;
	uint64_t best = 0, most = 0;
	for (int k = 0; k < ISSUE_WAIT_COUNT; k++) {
		struct dcpi_wait_culprit c;
		if (e.cycles[k] <= most || !dcpi_wait_culprit_find(w, pc, k, &c))
			continue;
		int t = dcpi_wait_culprit_top(&c);
		if (t >= 0) {
			most = e.cycles[k];
			best = c.culprit[t];
		}
	}
	return (double)most >= 0.5 * (double)(execs ? execs : 1) ? best : 0;
}

static int render(struct explorer *x, const struct dcpi *d, const struct dcpicalc_proc *pr, const struct dcc *a,
		  enum dcc_estimator est, double period, uint64_t all_samples, int flags, struct xannotation *out)
{
	const struct dcc_summary *sum = dcc_summary(a);
	const struct dcpi_wait *w = xdcpi_wait(explorer_instrument(x, "dcpi"));
	double T = sum->samples > 0 ? sum->samples : 1;
	/* the Percent column: of the procedure's samples (perf annotate's
	 * local percent) or of all samples (its global one) */
	double pct_of = flags & XANN_PCT_TOTAL ? (all_samples ? (double)all_samples : 1) : T;
	uint32_t used_letters = 0;
	int r = 0;
	r |= add_line(out, XANN_HEADER, 0,
		      "annotate %s (%llx-%llx, %zu instructions) at cycle %llu: %.0f of the %llu CYCLES samples, one per %.1f cycles%s",
		      pr->name, (unsigned long long)pr->code[0].pc, (unsigned long long)pr->code[pr->n - 1].pc, pr->n,
		      (unsigned long long)explorer_cycle(x), sum->samples, (unsigned long long)all_samples, period,
		      est == DCC_EST_IVX ? "; ivx's estimator" : "");
	r |= add_line(out, XANN_HEADER, 0,
		      "Percent of %s samples; unexplained stall %.1f%%; [true] simulator's count, CPI (! off >5%%); True: cycles/exec by reason",
		      flags & XANN_PCT_TOTAL ? "all" : "the procedure's", 100.0 * sum->unexplained / T);
	r |= add_line(out, XANN_HEADER, 0, "%7s %7s %8s %9s %6s %7s %-16s %-12s %-8s %s", "Percent", "Samples", "Freq",
		      "[true", "CPI", "true]", "Stall", "True", "Addr", "Instruction");
	uint64_t pc_now = explorer_pc(x);
	for (size_t i = 0; i < pr->n; i++) {
		const struct dcc_result_insn *res = dcc_result_at(a, i);
		uint64_t pc = pr->code[i].pc, S = pr->samples[0][i];
		double share = 100.0 * (double)S / pct_of;
		char pcol[16] = "", scol[24] = "", fcol[32] = "?", ccol[32] = "", tf[24], tc[32] = "-", stall[48] = "",
		     text[128];
		if (S) {
			snprintf(pcol, sizeof pcol, "%.2f", share);
			snprintf(scol, sizeof scol, "%llu", (unsigned long long)S);
		}
		if (res->freq >= 0)
			snprintf(fcol, sizeof fcol, "%.0f", res->freq * period);
		if (res->cpi >= 0)
			snprintf(ccol, sizeof ccol, "%.1f", res->cpi);
		else if (res->m && S)
			snprintf(ccol, sizeof ccol, "?");
		uint64_t t_n = core_commits_at(x->core, pc), t_cy = dcpi_truth_cycles_at(d, pc);
		int f_off = res->freq >= 0 && S && rel_off(res->freq * period, (double)t_n) > 0.05;
		snprintf(tf, sizeof tf, "%llu%c", (unsigned long long)t_n, f_off ? '!' : ' ');
		if (t_n) {
			double tcpi = (double)t_cy / (double)t_n;
			int c_off = res->cpi >= 0 && rel_off(res->cpi, tcpi) > 0.05;
			snprintf(tc, sizeof tc, "%.1f%c", tcpi, c_off ? '!' : ' ');
		}
		/* stall: the static letter (and its culprit), then the dynamic
		 * candidates with the stall per execution and their culprits */
		int k = 0;
		if (res->static_why >= 0) {
			k += snprintf(stall + k, sizeof stall - (size_t)k, "%c", dcc_letter_char[res->static_why]);
			used_letters |= 1u << res->static_why;
		}
		double per = res->freq > 0 ? res->dyn / res->freq : 0;
		if (res->dyn > 0 && res->significant && per >= 0.5) {
			char cul[DCC_LETTER_COUNT + 1];
			dcc_letters(res->culprits, cul);
			used_letters |= res->culprits;
			k += snprintf(stall + k, sizeof stall - (size_t)k, "%s%s +%.1fcy", k ? " " : "", cul[0] ? cul : "?",
				      per);
		}
		char arrow[64] = "";
		int ka = 0;
		uint64_t cul_pc[XANN_MAX_CULPRITS];
		int n_cul = 0;
		if (res->dyn > 0 && res->significant && per >= 0.5)
			for (int c = 0; c < res->n_culprit_pcs && ka < 40; c++) {
				ka += snprintf(arrow + ka, sizeof arrow - (size_t)ka, "%s%llx", c ? "," : " -> ",
					       (unsigned long long)res->culprit_pc[c]);
				if (n_cul < XANN_MAX_CULPRITS)
					cul_pc[n_cul++] = res->culprit_pc[c];
			}
		else if (res->static_why >= 0 && res->static_culprit >= 0 && S) {
			cul_pc[n_cul++] = pr->code[(size_t)res->static_culprit].pc;
			snprintf(arrow, sizeof arrow, " -> %llx", (unsigned long long)cul_pc[0]);
		}
		char why[32];
		true_why(w, pc, t_n, why, sizeof why, &used_letters);
		disasm_word(pr->words[i], pc, text, sizeof text);
		int heat = share >= 5 ? XANN_HOT : share >= 0.5 ? XANN_WARM : XANN_PLAIN;
		char addr[24];
		snprintf(addr, sizeof addr, "%llx:", (unsigned long long)pc);
		size_t at = out->n;
		r |= add_line(out, heat, pc == pc_now, "%7s %7s %8s [%8s %6s %6s] %-16s %-12s%c%-8s %s%s", pcol, scol,
			      fcol, tf, ccol, tc, stall, why, pc == pc_now ? '>' : ' ', addr, text, arrow);
		if (out->n > at) {
			out->line[at].pc = pc;
			out->line[at].share = share;
			out->line[at].n_culprit = n_cul;
			memcpy(out->line[at].culprit, cul_pc, (size_t)n_cul * sizeof *cul_pc);
			out->line[at].true_culprit = true_culprit(w, pc, t_n);
		}
	}
	/* the letters this listing uses */
	char key[400] = "stall letters:";
	size_t kl = strlen(key);
	for (int l = 0; l < DCC_LETTER_COUNT; l++)
		if (used_letters >> l & 1)
			kl += (size_t)snprintf(key + kl, sizeof key - kl, " %c %s,", dcc_letter_char[l], dcc_letter_name(l));
	if (used_letters) {
		key[kl - 1] = 0;
		r |= add_line(out, XANN_HEADER, 0, "%s", key);
	}
	return r ? -1 : 0;
}

int xannotate(struct explorer *x, const char *target, int flags, struct xannotation *out, char *msg, size_t msg_n)
{
	memset(out, 0, sizeof *out);
	struct xdcpi *xd = explorer_instrument(x, "dcpi");
	const struct dcpi *d = xdcpi_sampler(xd);
	if (!d) {
		snprintf(msg, msg_n, "annotate: sampling is off (`sampling on`, then continue)");
		return -1;
	}
	if (!x->cfg_live.inorder) {
		snprintf(msg, msg_n, "annotate: dcpicalc's model holds for the in-order machine only "
				     "(-o core.mode=inorder or --config data/configs/inorder.ini)");
		return -1;
	}
	struct dcpi_stats st;
	dcpi_get_stats(d, &st);
	if (!st.samples[DCPI_CYCLES]) {
		snprintf(msg, msg_n, "annotate: no CYCLES samples yet (sampling is on: continue)");
		return -1;
	}
	const struct symbol *s = find_proc(x, target, msg, msg_n);
	if (!s)
		return -1;
	struct dcpicalc_proc pr;
	if (dcpicalc_code_load(x->prog, s, XIMAGE, &pr, msg, msg_n) < 0)
		return -1;
	int rc = -1;
	if (!pr.n) {
		snprintf(msg, msg_n, "annotate: %s has no instructions", pr.name);
		dcpicalc_proc_free(&pr);
		return -1;
	}
	struct dcc *a = NULL;
	struct dcpicalc_calls *calls = NULL;
	struct xsamples xs = { 0 };
	if (xs_collect(d, &xs) < 0 || proc_samples(&pr, d, &st, &xs) < 0) {
		snprintf(msg, msg_n, "out of host memory");
		goto out;
	}
	if (!dcpicalc_proc_samples(&pr)) {
		snprintf(msg, msg_n, "annotate: no CYCLES samples in %s yet (%llu elsewhere: continue, or annotate another procedure)",
			 pr.name, (unsigned long long)st.samples[DCPI_CYCLES]);
		goto out;
	}
	enum dcc_estimator est = flags & XANN_EST_IVX ? DCC_EST_IVX : flags & XANN_EST_PAPER ? DCC_EST_PAPER :
		(enum dcc_estimator)x->set.dcpicalc_estimator;
	struct ivx_err err = { 0 };
	a = dcc_new(pr.code, pr.n, &x->cfg_live, &err);
	if (a && est == DCC_EST_IVX) {
		dcc_set_estimator(a, DCC_EST_IVX);
		double ncalls, var;
		if (!(calls = explorer_calls(x, d, &st, &xs, msg, msg_n)))
			goto out;
		if (dcpicalc_calls_of(calls, XIMAGE, pr.code[0].pc, pr.period[0], &ncalls, &var) == 0)
			dcc_set_calls(a, ncalls, var);
	}
	struct dcc_profile prof = { 0 };
	for (int e = 0; e < NEV; e++) {
		prof.samples[e] = pr.samples[e];
		prof.period[e] = pr.period[e];
	}
	if (!a || dcc_estimate(a, &prof, &err) < 0) {
		snprintf(msg, msg_n, "annotate: %s", err.msg);
		goto out;
	}
	if (render(x, d, &pr, a, est, pr.period[0], st.samples[DCPI_CYCLES], flags, out) < 0) {
		snprintf(msg, msg_n, "out of host memory");
		xannotation_free(out);
		goto out;
	}
	rc = 0;
out:
	dcc_free(a);
	dcpicalc_calls_free(calls);
	free(xs.v);
	dcpicalc_proc_free(&pr);
	return rc;
}
